//! Which of a world's creatures are monsters: their indices, ascending.
//!
//! Perception, tactics, the repath requests, catches and the player's
//! sightings concern monsters only. Walking the whole creature list to
//! find them reads a line of memory per creature: with 1,000 monsters
//! among 100,000 creatures, each such pass read 8 MB to visit 1,000, and
//! the passes of a tick took a fifth of its time on one thread, all of
//! it on the thread that runs the tick while the other waited. The index
//! is kept as creatures are added (a creature's kind never changes and
//! none is ever removed), and the passes visit the monsters in creature
//! order through it, so they decide exactly what the whole list's passes
//! did.

use super::creature::Creature;

/// The indices of the monsters among the creatures, ascending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Monsters(Vec<u32>);

impl Monsters {
    /// Notes that creature `i`, the newest, is a monster.
    ///
    /// # Panics
    /// When `i` is not above every index noted before (the creatures are
    /// only ever added at the end), or beyond `u32`.
    pub fn push(&mut self, i: usize) {
        let i = u32::try_from(i).expect("creature indices fit in u32");
        assert!(self.0.last().is_none_or(|&last| last < i), "monsters are noted in creature order");
        self.0.push(i);
    }

    /// The monsters' indices, ascending.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().map(|&i| i as usize)
    }

    /// The monsters of `creatures` with their indices, in creature order.
    pub fn iter<'a>(&'a self, creatures: &'a [Creature]) -> impl Iterator<Item = (usize, &'a Creature)> + 'a {
        self.0.iter().map(|&i| (i as usize, &creatures[i as usize]))
    }

    /// The monsters of `creatures`, mutably, with their indices, in
    /// creature order: each one's slice is split off the rest in turn, so
    /// no two references can meet.
    pub fn iter_mut<'a>(&'a self, creatures: &'a mut [Creature]) -> impl Iterator<Item = (usize, &'a mut Creature)> {
        let (mut rest, mut offset) = (creatures, 0);
        self.0.iter().map(move |&i| {
            let i = i as usize;
            let (c, tail) =
                std::mem::take(&mut rest)[i - offset..].split_first_mut().expect("a monster's index is a creature's");
            (rest, offset) = (tail, i + 1);
            (i, c)
        })
    }

    /// The ordinal (from 1) among the monsters of a monster at creature
    /// index `i`, or of the next one after `i` when `i` is not one.
    pub fn ordinal(&self, i: usize) -> usize {
        1 + self.0.partition_point(|&m| (m as usize) < i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Kind;
    use crate::steer::Vec2;

    fn crowd(kinds: &[Kind]) -> (Vec<Creature>, Monsters) {
        let mut monsters = Monsters::default();
        let creatures = (kinds.iter().enumerate())
            .map(|(i, &kind)| {
                if kind == Kind::Monster {
                    monsters.push(i);
                }
                Creature::new(kind, Vec2::new(i as f32, 0.0), 0.0, 5.0)
            })
            .collect();
        (creatures, monsters)
    }

    #[test]
    fn the_monsters_are_visited_in_creature_order_as_a_pass_over_all_would() {
        use Kind::*;
        let (mut creatures, monsters) = crowd(&[Boid, Monster, Wanderer, Monster, Monster, Boid, Fleeing, Monster]);
        let all: Vec<usize> = (0..creatures.len()).filter(|&i| creatures[i].hunt.is_some()).collect();
        assert_eq!(monsters.iter(&creatures).map(|(i, _)| i).collect::<Vec<_>>(), all);
        for (i, c) in monsters.iter_mut(&mut creatures) {
            c.body.pos.y = 1.0 + i as f32;
        }
        let moved: Vec<usize> = (0..creatures.len()).filter(|&i| creatures[i].body.pos.y == 1.0 + i as f32).collect();
        assert_eq!(moved, all, "every monster and no other, each as itself");
        assert_eq!([1, 3, 4, 7].map(|i| monsters.ordinal(i)), [1, 2, 3, 4]);
        assert_eq!(monsters.ordinal(0), 1);
    }

    #[test]
    fn no_monsters_visits_nothing() {
        let (mut creatures, monsters) = crowd(&[Kind::Boid, Kind::Wanderer]);
        assert_eq!(monsters.indices().count(), 0);
        assert_eq!(monsters.iter_mut(&mut creatures).count(), 0);
    }

    #[test]
    #[should_panic(expected = "creature order")]
    fn a_monster_out_of_order_is_refused() {
        let mut monsters = Monsters::default();
        monsters.push(3);
        monsters.push(2);
    }
}
