//! The player's field of view, for the fog of war: which cells the player
//! sees now, and which it has seen. A view only: it reads the world and
//! changes nothing in it.
//!
//! What is in sight is [`field_of_view`], the one definition the world
//! judges by too (the exact line of sight monsters see by, within their
//! detection radius, walls beside what is in sight included); what has
//! been seen is the world's own memory ([`World::memory`]), the map
//! auto-explore reads, so the fog never shows a cell explore calls unseen
//! or the other way round, and a replay that seeks shows what the player
//! had seen by then.
//!
//! Where each monster was last seen is the world's memory too
//! ([`World::sightings`], the one auto-explore keeps clear of): a monster
//! that walks out of sight is marked where it was, until the player sees
//! that cell again without it there or the memory fades.

use crate::grid::{Cell, Grid, field_of_view};
use crate::sim::{Memory, World};

/// What the player sees and has seen on one grid.
#[derive(Clone, Debug, Default)]
pub struct Sight {
    width: usize,
    height: usize,
    visible: Vec<bool>,
    seen: Memory,
    /// The eye, grid version and radius the cells were computed for:
    /// nothing changes until the player moves or a door opens or closes.
    from: Option<(Cell, u64, i32)>,
}

impl Sight {
    /// Sees from the player's cell in `world`, and takes what the world
    /// says the player has seen.
    pub fn update(&mut self, world: &World) {
        self.see(world.grid(), world.player().cell, world.sight_radius());
        // The world's memory only grows: a new count is new cells.
        if self.seen.count() != world.memory().count() {
            self.seen.clone_from(world.memory());
        }
    }

    /// Where the monsters out of sight in `world` were last seen, by
    /// creature index: the world's memory of them, less those in sight
    /// now (drawn where they are).
    pub fn last_seen<'a>(&'a self, world: &'a World) -> impl Iterator<Item = (usize, Cell)> + 'a {
        let creatures = world.creatures();
        world.sightings().iter().filter_map(move |s| {
            let out_of_sight = creatures.get(s.creature).is_some_and(|c| !self.visible(c.cell()));
            out_of_sight.then_some((s.creature, s.cell))
        })
    }

    /// Sees from `eye` on `grid` within `radius` cells.
    pub fn see(&mut self, grid: &Grid, eye: Cell, radius: i32) {
        let (width, height) = (grid.width(), grid.height());
        if (width, height) != (self.width, self.height) {
            *self = Sight { width, height, visible: vec![false; width * height], seen: Memory::new(grid), from: None };
        }
        if self.from == Some((eye, grid.version(), radius)) {
            return;
        }
        self.from = Some((eye, grid.version(), radius));
        self.visible.fill(false);
        let visible = &mut self.visible;
        field_of_view(grid, eye, radius, |_| false, |c| visible[c.y as usize * width + c.x as usize] = true);
    }

    fn index(&self, c: Cell) -> Option<usize> {
        let inside = (0..self.width as i32).contains(&c.x) && (0..self.height as i32).contains(&c.y);
        inside.then(|| c.y as usize * self.width + c.x as usize)
    }

    /// Whether the player sees `c` now.
    pub fn visible(&self, c: Cell) -> bool {
        self.index(c).is_some_and(|i| self.visible[i])
    }

    /// Whether the player has ever seen `c`.
    pub fn seen(&self, c: Cell) -> bool {
        self.seen.seen(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    /// The cells of a level as the fog shows them: `#`/`.` in sight, `-`
    /// seen before, ` ` never seen.
    fn fog(sight: &Sight, grid: &Grid) -> Vec<String> {
        (0..grid.height() as i32)
            .map(|y| {
                (0..grid.width() as i32)
                    .map(|x| {
                        let c = Cell::new(x, y);
                        match (sight.visible(c), sight.seen(c)) {
                            (true, _) => crate::level::tile_glyph(grid.tile(c)),
                            (false, true) => '-',
                            (false, false) => ' ',
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn walls_hide_what_is_behind_them_and_memory_stays() {
        use crate::sim::{Command, Settings, World};
        let level = Level::parse("#########\n#...#...#\n#..@+...#\n#...#...#\n#########\n", "t").unwrap();
        let mut world = World::new(&level, 1, Settings::default()).unwrap();
        let mut sight = Sight::default();
        sight.update(&world);
        assert_eq!(fog(&sight, world.grid()), ["#####    ", "#...#    ", "#...+    ", "#...#    ", "#####    "]);
        // The door opens: the second room comes into sight at once.
        world.apply(Command::Door);
        sight.update(&world);
        assert!(sight.visible(Cell::new(6, 2)) && sight.visible(Cell::new(8, 2)));
        // Through it, and shut behind: the first room is remembered, not
        // seen.
        for _ in 0..2 {
            world.apply(Command::Move { dx: 1, dy: 0 });
            for _ in 0..4 {
                world.tick();
            }
        }
        assert_eq!(world.player().cell, Cell::new(5, 2));
        world.apply(Command::Door);
        sight.update(&world);
        let shown = fog(&sight, world.grid());
        assert_eq!(shown[2], "----+...#");
        assert!(!sight.visible(Cell::new(2, 2)) && sight.seen(Cell::new(2, 2)));
    }

    /// A monster out of sight is marked where the world remembers it
    /// ([`World::sightings`]); one in sight is not (it is drawn where it
    /// is), though the world remembers it too.
    #[test]
    fn monsters_out_of_sight_are_marked_where_the_world_remembers_them() {
        use crate::sim::{Command, Settings};
        // The monster at 8,1 beyond an open door beside the player.
        let level = Level::parse("##########\n#..@'...M#\n##########\n", "t").unwrap();
        let mut world = World::new(&level, 1, Settings::default()).unwrap();
        let mut sight = Sight::default();
        sight.update(&world);
        assert_eq!(sight.last_seen(&world).count(), 0, "in sight: drawn, not marked");
        assert_eq!(world.sightings().iter().count(), 1);
        // The door shut: out of sight, marked where it was last seen.
        world.apply(Command::Door);
        world.tick();
        sight.update(&world);
        let marked: Vec<(usize, Cell)> = sight.last_seen(&world).collect();
        let remembered: Vec<(usize, Cell)> = world.sightings().iter().map(|s| (s.creature, s.cell)).collect();
        assert_eq!(marked, remembered);
        assert_eq!(marked.len(), 1);
        assert!(!sight.visible(marked[0].1));
    }

    #[test]
    fn the_player_sees_as_far_as_monsters_detect() {
        let level = Level::parse(&format!("@{}\n", ".".repeat(99)), "t").unwrap();
        let world = crate::sim::World::new(&level, 1, crate::sim::Settings::default()).unwrap();
        let radius = world.settings().detection_radius as i32;
        let mut sight = Sight::default();
        sight.update(&world);
        assert!(sight.visible(Cell::new(radius, 0)));
        assert!(!sight.visible(Cell::new(radius + 1, 0)));
        assert!(!sight.visible(Cell::new(-1, 0)));
        let near = crate::sim::Settings { detection_radius: 10.0, ..crate::sim::Settings::default() };
        sight.update(&crate::sim::World::new(&level, 1, near).unwrap());
        assert!(sight.visible(Cell::new(10, 0)) && !sight.visible(Cell::new(11, 0)));
        assert!(sight.seen(Cell::new(10, 0)) && !sight.seen(Cell::new(11, 0)), "what that world's player has seen");
    }
}
