//! What the player remembers of the monsters: where each was last seen and
//! when, by the player's own field of view (the one the fog of war draws,
//! see [`crate::grid::in_view`]), never by where monsters out of sight
//! really are.
//!
//! The world keeps it (it is state, hashed) because auto-explore decides
//! by it: frontier cells near a remembered monster cost more to reach
//! ([`Sightings::surcharge`]), so explore heads for another frontier
//! rather than back toward a monster that walked out of view. The screen's
//! last-seen marks are drawn from it too.
//!
//! A monster is remembered from the tick it is seen until the player sees
//! the cell it was remembered in without it there, or
//! [`SIGHTING_TICKS`] after it was last seen, whichever comes first.

use crate::grid::Cell;
use crate::hash::{StateHash, StateHasher};

/// How long the player remembers where a monster was: 30 s (600 ticks at
/// 20 a second), about as long as a monster that lost the player takes to
/// search for it and give up.
pub const SIGHTING_TICKS: u64 = 600;

/// Auto-explore keeps this many cells (straight-line distance, cell
/// centre to cell centre) away from a remembered monster.
pub const WARY_RADIUS: i32 = 6;

/// The surcharge of stepping into a cell within [`WARY_RADIUS`] of a
/// remembered monster, as if its entry cost were this much higher (times
/// √2 for a diagonal step): a frontier two cells past a remembered monster,
/// reached from outside the radius, pays it five times or more (+50), so
/// any other frontier within 50 more steps of plain floor wins; one alone
/// within reach is still explored.
pub const WARY_SURCHARGE: f64 = 10.0;

/// Where one monster was last seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sighting {
    /// The monster's index among the world's creatures.
    pub creature: usize,
    /// The cell it was seen in.
    pub cell: Cell,
    /// The tick it was last seen at.
    pub tick: u64,
}

/// The monsters the player remembers, by creature index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sightings {
    /// In creature order, at most one each.
    seen: Vec<Sighting>,
}

impl Sightings {
    /// Brings the memory up to tick `now`: each of `monsters` (creature
    /// index and cell, in creature order) that the player `sees` is
    /// remembered where it is; one out of sight is forgotten once the
    /// player sees its remembered cell (it is not there) or
    /// [`SIGHTING_TICKS`] have passed.
    pub fn update(&mut self, now: u64, monsters: impl Iterator<Item = (usize, Cell)>, sees: impl Fn(Cell) -> bool) {
        let old = std::mem::take(&mut self.seen);
        let mut old = old.into_iter().peekable();
        for (creature, cell) in monsters {
            // Sightings of creatures before this one are of creatures that
            // are no longer monsters: dropped.
            while old.next_if(|s| s.creature < creature).is_some() {}
            let before = old.next_if(|s| s.creature == creature);
            if sees(cell) {
                self.seen.push(Sighting { creature, cell, tick: now });
            } else if let Some(s) = before
                && now - s.tick < SIGHTING_TICKS
                && !sees(s.cell)
            {
                self.seen.push(s);
            }
        }
    }

    /// The monsters remembered, in creature order.
    pub fn iter(&self) -> impl Iterator<Item = &Sighting> {
        self.seen.iter()
    }

    /// Whether no monster is remembered.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// The remembered monster nearest to `cell` (the first in creature
    /// order at a tie).
    pub fn nearest(&self, cell: Cell) -> Option<&Sighting> {
        self.seen.iter().min_by_key(|s| distance2(s.cell, cell))
    }

    /// The remembered monster nearest to `cell` within [`WARY_RADIUS`].
    pub fn near(&self, cell: Cell) -> Option<&Sighting> {
        self.nearest(cell).filter(|s| distance2(s.cell, cell) <= WARY_RADIUS * WARY_RADIUS)
    }

    /// The extra cost of stepping orthogonally into `cell`:
    /// [`WARY_SURCHARGE`] within [`WARY_RADIUS`] of a remembered monster,
    /// however many, else 0.
    pub fn surcharge(&self, cell: Cell) -> f64 {
        if self.near(cell).is_some() { WARY_SURCHARGE } else { 0.0 }
    }
}

/// The squared distance between two cells' centres, in cells.
fn distance2(a: Cell, b: Cell) -> i32 {
    (a.x - b.x).pow(2) + (a.y - b.y).pow(2)
}

/// Hashed only when it holds a monster: an empty memory adds nothing, so a
/// session in which the player never saw one hashes as it did before the
/// player remembered monsters.
impl StateHash for Sightings {
    fn hash_into(&self, h: &mut StateHasher) {
        let Sightings { seen } = self;
        if seen.is_empty() {
            return;
        }
        h.u64(seen.len() as u64);
        for Sighting { creature, cell, tick } in seen {
            h.u64(*creature as u64);
            h.add(cell);
            h.add(tick);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One monster walks along a row; the player sees the cells of `seen`.
    fn update(s: &mut Sightings, now: u64, monsters: &[(usize, i32)], seen: &[i32]) {
        s.update(now, monsters.iter().map(|&(i, x)| (i, Cell::new(x, 0))), |c| seen.contains(&c.x));
    }

    #[test]
    fn a_monster_is_remembered_where_last_seen_until_its_cell_is_seen_empty() {
        let mut s = Sightings::default();
        update(&mut s, 0, &[(2, 1), (5, 9)], &[0, 1, 2]);
        assert_eq!(s.iter().copied().collect::<Vec<_>>(), [Sighting { creature: 2, cell: Cell::new(1, 0), tick: 0 }]);
        // Out of sight (a door shut, say): remembered where it was, when
        // it was.
        update(&mut s, 1, &[(2, 3), (5, 9)], &[0]);
        assert_eq!(s.iter().map(|x| (x.cell.x, x.tick)).collect::<Vec<_>>(), [(1, 0)]);
        // The player looks elsewhere, then at that cell again: it is not
        // there, forgotten.
        update(&mut s, 2, &[(2, 3), (5, 9)], &[5]);
        assert_eq!(s.iter().count(), 1);
        update(&mut s, 3, &[(2, 3), (5, 9)], &[1]);
        assert!(s.is_empty());
    }

    #[test]
    fn a_sighting_is_forgotten_after_its_time_and_with_its_monster() {
        let mut s = Sightings::default();
        update(&mut s, 10, &[(0, 1), (1, 2)], &[1, 2]);
        update(&mut s, 10 + SIGHTING_TICKS - 1, &[(0, 7), (1, 8)], &[]);
        assert_eq!(s.iter().count(), 2);
        // Creature 0 is no longer a monster (not listed): forgotten.
        update(&mut s, 10 + SIGHTING_TICKS - 1, &[(1, 8)], &[]);
        assert_eq!(s.iter().map(|x| x.creature).collect::<Vec<_>>(), [1]);
        update(&mut s, 10 + SIGHTING_TICKS, &[(1, 8)], &[]);
        assert!(s.is_empty(), "30 s on, forgotten");
    }

    #[test]
    fn the_surcharge_lies_within_the_radius_of_a_remembered_monster() {
        let mut s = Sightings::default();
        s.update(0, [(0, Cell::new(10, 10))].into_iter(), |_| true);
        assert_eq!(s.surcharge(Cell::new(10 + WARY_RADIUS, 10)), WARY_SURCHARGE);
        assert_eq!(s.surcharge(Cell::new(14, 14)), WARY_SURCHARGE, "4² + 4² ≤ 6²");
        assert_eq!(s.surcharge(Cell::new(15, 14)), 0.0, "5² + 4² > 6²");
        assert_eq!(s.surcharge(Cell::new(10 + WARY_RADIUS + 1, 10)), 0.0);
        assert_eq!(s.near(Cell::new(12, 10)).map(|x| x.creature), Some(0));
    }

    #[test]
    fn an_empty_memory_hashes_as_nothing() {
        let hash = |s: &Sightings| {
            let mut h = StateHasher::default();
            s.hash_into(&mut h);
            h.finish()
        };
        let mut s = Sightings::default();
        assert_eq!(hash(&s), StateHasher::default().finish());
        update(&mut s, 0, &[(0, 1)], &[1]);
        let one = hash(&s);
        assert_ne!(one, StateHasher::default().finish());
        update(&mut s, 1, &[(0, 1)], &[1]);
        assert_ne!(hash(&s), one, "when counts");
    }
}
