//! How hard a level of a given depth is: the table in the module docs of
//! [`crate::r#gen`] (and docs/gen.md), as code.

use super::{Size, Style};

/// The deepest depth a recipe may ask for.
pub const MAX_DEPTH: u32 = 99;

/// The depth from which the difficulty stops growing.
const LEVEL_OFF: u32 = 10;

/// The styles of a descent's depths, in the order they come round.
const DESCENT_ORDER: [Style; 4] = [Style::Rooms, Style::Caves, Style::Mixed, Style::Maze];

/// The difficulty of one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difficulty {
    /// The depth, from 1.
    pub depth: u32,
}

impl Difficulty {
    /// The difficulty at `depth` (from 1).
    pub fn new(depth: u32) -> Difficulty {
        Difficulty { depth }
    }

    /// `D` of the table: the depth, levelled off at 10.
    fn d(self) -> usize {
        self.depth.clamp(1, LEVEL_OFF) as usize
    }

    /// The map's size when the recipe gives none: (40 + 8D) × (20 + 4D).
    pub fn default_size(self) -> Size {
        Size { width: 40 + 8 * self.d(), height: 20 + 4 * self.d() }
    }

    /// Monsters on a map of `walkable` cells: max(1, n·(D + 1) / 1200).
    pub fn monsters(self, walkable: usize) -> usize {
        (walkable * (self.d() + 1) / 1200).max(1)
    }

    /// Guards posted on the shortest walk from the player to the goal,
    /// besides [`Difficulty::monsters`]: min(3, 2(D − 1)), none at depth 1
    /// (a newcomer's level). Posted across the walk a player who heads
    /// straight for `G` must take, they punish exactly that; a player who
    /// waits for them to wander off, or goes round, passes.
    pub fn guards(self) -> usize {
        (2 * (self.d() - 1)).min(3)
    }

    /// The walking distance from the player inside which no monster
    /// starts, before it is capped by half the level's extent from the
    /// player: 30 − 2D cells.
    pub fn safe_distance(self) -> f64 {
        (30 - 2 * self.d()) as f64
    }

    /// Ticks between two toggles of every door, from depth 3: 200 − 15(D − 3).
    pub fn door_cycle(self) -> Option<u32> {
        (self.depth >= 3).then(|| 200 - 15 * (self.d() as u32 - 3))
    }

    /// The share of a maze's dead ends that get a wall knocked out, in
    /// percent: max(15, 65 − 5D).
    pub fn braid_percent(self) -> u32 {
        (65 - 5 * self.d() as u32).max(15)
    }

    /// Wanderers, and as many prey: max(1, n / 1500) each.
    pub fn wanderers(self, walkable: usize) -> usize {
        (walkable / 1500).max(1)
    }

    /// Flocks wanted: max(1, n / 3000); each needs an open area.
    pub fn flocks(self, walkable: usize) -> usize {
        (walkable / 3000).max(1)
    }

    /// Boids in a flock: 6 + D/2.
    pub fn flock_size(self) -> usize {
        6 + self.d() / 2
    }

    /// The style of this depth in the descent of `seed`: rooms, caves,
    /// mixed and maze in turn, the seed choosing where the turn starts,
    /// `ORDER[(seed + depth − 1) mod 4]`. So every style comes once in any
    /// four depths in a row, and two descents differ from the first depth.
    pub fn descent_style(self, seed: u64) -> Style {
        let at = (seed % 4 + u64::from(self.depth.saturating_sub(1) % 4)) % 4;
        DESCENT_ORDER[at as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of the table in the docs, at depths 1, 5 and 10.
    #[test]
    fn the_documented_table() {
        let at = |depth| Difficulty::new(depth);
        let sizes: Vec<String> = [1, 5, 10, 50].map(|d| at(d).default_size().to_string()).to_vec();
        assert_eq!(sizes, ["48x24", "80x40", "120x60", "120x60"]);
        assert_eq!([1, 5, 10].map(|d| at(d).monsters(1200)), [2, 6, 11]);
        assert_eq!(at(1).monsters(100), 1, "at least one");
        assert_eq!([1, 2, 3, 5, 10, 99].map(|d| at(d).guards()), [0, 2, 3, 3, 3, 3]);
        assert_eq!([1, 5, 10, 99].map(|d| at(d).safe_distance()), [28.0, 20.0, 10.0, 10.0]);
        assert_eq!(
            [1, 2, 3, 5, 10, 99].map(|d| at(d).door_cycle()),
            [None, None, Some(200), Some(170), Some(95), Some(95)]
        );
        assert_eq!([1, 5, 10].map(|d| at(d).braid_percent()), [60, 40, 15]);
        assert_eq!([1, 5, 10].map(|d| at(d).flock_size()), [6, 8, 11]);
        assert_eq!((at(1).wanderers(1000), at(1).wanderers(4600), at(1).flocks(9000)), (1, 3, 3));
        let styles = |seed| (1..=5).map(|d| at(d).descent_style(seed)).collect::<Vec<_>>();
        use Style::{Caves, Maze, Mixed, Rooms};
        assert_eq!(styles(0), [Rooms, Caves, Mixed, Maze, Rooms]);
        assert_eq!(styles(1), [Caves, Mixed, Maze, Rooms, Caves]);
        assert_eq!(styles(u64::MAX), [Maze, Rooms, Caves, Mixed, Maze], "no overflow");
    }

    /// The largest map at the deepest level, all of it walkable, stays
    /// below the world's creature cap (100,000).
    #[test]
    fn creatures_stay_below_the_cap() {
        let d = Difficulty::new(MAX_DEPTH);
        let n = 2048 * 2048;
        let all = d.monsters(n) + 2 * d.wanderers(n) + d.flocks(n) * d.flock_size();
        assert!(all < 60_000, "{all}");
    }
}
