//! How hard a level of a given depth is: the table in the module docs of
//! [`crate::r#gen`] (and docs/gen.md), as code.

use super::{Size, Style};

/// The deepest depth a recipe may ask for.
pub const MAX_DEPTH: u32 = 99;

/// The depth from which the difficulty stops growing.
const LEVEL_OFF: u32 = 10;
/// The depth from which the crowding stops growing: the monsters' density,
/// the safe distance and the door cycle. Deeper, the levels only grow
/// longer, which a player who keeps out of sight can answer; denser
/// monsters and faster doors cost an evading player as much as one who
/// walks straight at `G` (generated depth 10 at 1 monster per 109 cells,
/// a safe distance of 10 and doors toggling every 95 ticks: the evading
/// bot won 0 of 20 seeds; at depth 5's 1 per 200, 20 and 170, 12).
const CROWD_LEVEL_OFF: u32 = 5;
/// The depth up to which levels are as large as depth 3's: a shallower
/// level's walk from `@` to `G` was too short (about 10 s at 48×24) for
/// its guards to catch a player who heads straight for `G` three times.
const SIZE_FROM: u32 = 3;
/// Guards posted on a shallow level, down to [`SHALLOW_TO`].
const SHALLOW_GUARDS: usize = 4;
/// The deepest depth with [`SHALLOW_GUARDS`]; deeper levels have
/// [`DEEP_GUARDS`].
const SHALLOW_TO: u32 = 3;
/// Guards posted on a deeper level, where the roaming monsters are many
/// enough to catch a player who heads straight for `G` by themselves: a
/// fourth guard there cost the evading bot more than it cost that player
/// (depth 10, seeds 1..20: the evading bot won 7 with 4 guards, 12 with
/// 3; the beeline 1 either way).
const DEEP_GUARDS: usize = 3;

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

    /// `D` of the table: the depth, levelled off at [`LEVEL_OFF`].
    fn d(self) -> usize {
        self.depth.clamp(1, LEVEL_OFF) as usize
    }

    /// `C` of the table: the depth, levelled off at [`CROWD_LEVEL_OFF`].
    fn crowd(self) -> usize {
        self.depth.clamp(1, CROWD_LEVEL_OFF) as usize
    }

    /// The map's size when the recipe gives none: (40 + 8S) × (20 + 4S),
    /// with S = max(D, 3).
    pub fn default_size(self) -> Size {
        let s = self.d().max(SIZE_FROM as usize);
        Size { width: 40 + 8 * s, height: 20 + 4 * s }
    }

    /// Monsters on a map of `walkable` cells: max(1, n·(C + 1) / 1200).
    pub fn monsters(self, walkable: usize) -> usize {
        (walkable * (self.crowd() + 1) / 1200).max(1)
    }

    /// Guards posted on the shortest walk from the player to the goal,
    /// besides [`Difficulty::monsters`]: 4 down to depth 3, then 3.
    /// Posted across the walk a player who heads straight for `G` must
    /// take, they punish exactly that; a player who waits for them to
    /// wander off, or goes round, passes. Three lives need three catches:
    /// with 3 guards a player walking straight at `G` still won 13 to 14
    /// of 20 depth-1 seeds (64×32), with 4, 7.
    pub fn guards(self) -> usize {
        if self.depth <= SHALLOW_TO { SHALLOW_GUARDS } else { DEEP_GUARDS }
    }

    /// The walking distance from the player inside which no monster but a
    /// guard starts, before it is capped by half the level's extent from
    /// the player: 30 − 2C cells.
    pub fn safe_distance(self) -> f64 {
        (30 - 2 * self.crowd()) as f64
    }

    /// Ticks between two toggles of every door, from depth 3: 200 − 15(C − 3).
    pub fn door_cycle(self) -> Option<u32> {
        (self.depth >= 3).then(|| 200 - 15 * (self.crowd() as u32 - 3))
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

    /// The rows of the table in the docs, at depths 1, 3, 5 and 10.
    #[test]
    fn the_documented_table() {
        let at = |depth| Difficulty::new(depth);
        let sizes: Vec<String> = [1, 5, 10, 50].map(|d| at(d).default_size().to_string()).to_vec();
        assert_eq!(sizes, ["64x32", "80x40", "120x60", "120x60"]);
        assert_eq!(at(3).default_size(), at(1).default_size(), "as large as depth 3's above it");
        assert_eq!([1, 3, 5, 10].map(|d| at(d).monsters(1200)), [2, 4, 6, 6]);
        assert_eq!(at(1).monsters(100), 1, "at least one");
        assert_eq!([1, 2, 3, 4, 5, 10, 99].map(|d| at(d).guards()), [4, 4, 4, 3, 3, 3, 3]);
        assert_eq!([1, 3, 5, 10, 99].map(|d| at(d).safe_distance()), [28.0, 24.0, 20.0, 20.0, 20.0]);
        assert_eq!(
            [1, 2, 3, 5, 10, 99].map(|d| at(d).door_cycle()),
            [None, None, Some(200), Some(170), Some(170), Some(170)]
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
