//! The knobs of a search, with the names users type and see.
//!
//! Every enum here has one spelling shared by the command line, the side
//! panel, the replay files and the hotkeys that cycle it.

use super::planner::Planner;
use crate::grid::{DIAGONAL, Neighbors};
use crate::hash::{StateHash, StateHasher};
pub use crate::named::UnknownName;
use crate::named::named_enum;
use serde::{Deserialize, Serialize};

named_enum! {
    /// Distance estimates on a grid, each scaled by the grid's cheapest
    /// entry cost so that it stays admissible on weighted grids.
    Heuristic, "heuristic" {
        /// |dx| + |dy|: exact for 4-neighbour moves, too high for 8.
        Manhattan => "manhattan",
        /// Straight-line distance: admissible for both, exact only on a line.
        Euclidean => "euclidean",
        /// Diagonal steps then straight ones: exact for 8-neighbour moves.
        Octile => "octile",
        /// max(|dx|, |dy|): diagonals counted as 1, so admissible but loose.
        Chebyshev => "chebyshev",
        /// 0: A* becomes Dijkstra.
        Zero => "zero",
    }
}

named_enum! {
    /// Order among open entries of equal f; each falls back to insertion
    /// order, so every search is deterministic.
    TieBreak, "tie-break" {
        /// Insertion order.
        Fifo => "fifo",
        /// Smaller h first: prefers nodes nearer the goal.
        LowH => "low-h",
        /// Smaller |cross product| of (cell − goal) and (start − goal):
        /// prefers nodes on the straight start–goal line.
        Cross => "cross",
    }
}

named_enum! {
    /// What the open list does when a node it holds gets a cheaper route.
    /// Both expand the same nodes in the same order and find the same path;
    /// they differ in the stale-pop count and in speed.
    #[derive(Default)]
    OpenUpdate, "open-list update" {
        /// Lazy deletion: push a new entry and skip the old one when it is
        /// popped (counted as a stale pop). The textbook way, and the default.
        #[default]
        Lazy => "lazy",
        /// Lower the node's one entry in place: no stale entries, at the
        /// price of keeping every entry's heap slot up to date. Faster
        /// where lazy deletion pops many stale entries (open maps), slower
        /// where it pops none (corridors).
        DecreaseKey => "decrease-key",
    }
}

impl Heuristic {
    /// The unscaled estimate for a displacement of `dx`, `dy` cells (both ≥ 0).
    pub fn distance(self, dx: f64, dy: f64) -> f64 {
        match self {
            Heuristic::Manhattan => dx + dy,
            Heuristic::Euclidean => (dx * dx + dy * dy).sqrt(),
            Heuristic::Octile => dx.max(dy) + (DIAGONAL - 1.0) * dx.min(dy),
            Heuristic::Chebyshev => dx.max(dy),
            Heuristic::Zero => 0.0,
        }
    }
}

/// Smallest accepted weight for weighted A*.
pub const MIN_WEIGHT: f64 = 1.0;
/// Largest accepted weight: beyond it weighted A* is greedy search in all
/// but name.
pub const MAX_WEIGHT: f64 = 10.0;

/// Everything that shapes one grid search. A key it does not know is
/// refused when read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSettings {
    /// The planner: an ordering over an expansion policy. Written as
    /// `algorithm`, its name in replay files made before it had one.
    #[serde(rename = "algorithm")]
    pub planner: Planner,
    /// The distance estimate (ignored by BFS, Dijkstra and the any-angle
    /// planners).
    pub heuristic: Heuristic,
    /// Order among open entries of equal f.
    pub tie: TieBreak,
    /// 4- or 8-neighbour movement.
    pub neighbors: Neighbors,
    /// w of weighted A*, in [`MIN_WEIGHT`, `MAX_WEIGHT`]; other orderings
    /// (and the navmesh, which has its own) ignore it.
    pub weight: f64,
    /// w of the navmesh's search over its portal points, in
    /// [`MIN_WEIGHT`, `MAX_WEIGHT`] ([`NAVMESH_WEIGHT`] unless set: 1 makes
    /// it plain A*, a consistent search). Written only when not the
    /// default, so that settings recorded before it existed read back, and
    /// are written back, unchanged.
    #[serde(default = "navmesh_weight", skip_serializing_if = "is_navmesh_weight")]
    pub navmesh_weight: f64,
    /// Reopen closed nodes when a cheaper route to them turns up (needed
    /// for optimality under an inconsistent heuristic).
    pub reopen: bool,
    /// Written only when not lazy, so that settings recorded before it
    /// existed read back, and are written back, unchanged.
    #[serde(default, skip_serializing_if = "OpenUpdate::is_lazy")]
    pub open: OpenUpdate,
}

/// The navmesh's own w by default. The portal graph's costs already
/// overestimate the pulled length (legs zig-zag between portal points)
/// while the Euclidean heuristic is tight, so plain A* floods an ellipse
/// around the straight line; w = 1.3 goes for the goal, many times faster
/// on open 512×512 maps, and the funnel and its straightening recover the
/// length (measured in docs/performance.md's nav bench table).
pub const NAVMESH_WEIGHT: f64 = 1.3;

fn navmesh_weight() -> f64 {
    NAVMESH_WEIGHT
}

fn is_navmesh_weight(w: &f64) -> bool {
    *w == NAVMESH_WEIGHT
}

impl OpenUpdate {
    fn is_lazy(&self) -> bool {
        *self == OpenUpdate::Lazy
    }
}

/// One line for humans: `astar, octile heuristic, fifo ties, 8 neighbours`,
/// with the weight of weighted A*, reopening and decrease-key when they
/// apply.
impl std::fmt::Display for SearchSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.planner)?;
        if self.planner.uses_weight() {
            write!(f, " w={}", self.weight)?;
        }
        if self.planner.expansion() == super::Expansion::Navmesh && !is_navmesh_weight(&self.navmesh_weight) {
            write!(f, " w={}", self.navmesh_weight)?;
        }
        write!(f, ", {} heuristic, {} ties, {} neighbours", self.heuristic, self.tie, self.neighbors)?;
        if self.reopen {
            write!(f, ", reopening")?;
        }
        if !self.open.is_lazy() {
            write!(f, ", {}", self.open)?;
        }
        Ok(())
    }
}

impl SearchSettings {
    /// A* with octile distance on 8 neighbours: optimal and the fastest of
    /// the optimal ones on dungeon grids. A constant so that the command
    /// line can show it as its defaults.
    pub const DEFAULT: SearchSettings = SearchSettings {
        planner: Planner::ASTAR,
        heuristic: Heuristic::Octile,
        tie: TieBreak::Fifo,
        neighbors: Neighbors::Eight,
        weight: 1.5,
        navmesh_weight: NAVMESH_WEIGHT,
        reopen: false,
        open: OpenUpdate::Lazy,
    };
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings::DEFAULT
    }
}

/// Every knob, even one that decides nothing (the open-list update): a
/// replay edited to drop a change of any of them cannot verify. The
/// navmesh's weight is hashed when it is not its default, so that the
/// hashes of sessions recorded before it could be set stay as they were.
impl StateHash for SearchSettings {
    fn hash_into(&self, h: &mut StateHasher) {
        let SearchSettings { planner, heuristic, tie, neighbors, weight, navmesh_weight, reopen, open } = self;
        h.add(planner);
        h.add(heuristic);
        h.add(tie);
        h.add(neighbors);
        h.add(weight);
        h.add(reopen);
        h.add(open);
        if !is_navmesh_weight(navmesh_weight) {
            h.add(navmesh_weight);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_cycle_wraps() {
        assert_eq!(Heuristic::Zero.next(), Heuristic::Manhattan);
        assert_eq!(TieBreak::Cross.next(), TieBreak::Fifo);
        assert_eq!(Neighbors::Eight.next(), Neighbors::Four);
        let err = "manhatan".parse::<Heuristic>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown heuristic 'manhatan' (expected one of: manhattan|euclidean|octile|chebyshev|zero)"
        );
    }

    #[test]
    fn distances() {
        assert_eq!(Heuristic::Manhattan.distance(3.0, 4.0), 7.0);
        assert_eq!(Heuristic::Euclidean.distance(3.0, 4.0), 5.0);
        assert_eq!(Heuristic::Chebyshev.distance(3.0, 4.0), 4.0);
        assert_eq!(Heuristic::Octile.distance(3.0, 4.0), 1.0 + 3.0 * DIAGONAL);
        assert_eq!(Heuristic::Zero.distance(3.0, 4.0), 0.0);
    }

    #[test]
    fn settings_read_as_one_line() {
        assert_eq!(SearchSettings::default().to_string(), "astar, octile heuristic, fifo ties, 8 neighbours");
        let s = SearchSettings { planner: Planner::WEIGHTED, weight: 2.5, reopen: true, ..SearchSettings::default() };
        assert_eq!(s.to_string(), "weighted w=2.5, octile heuristic, fifo ties, 8 neighbours, reopening");
        let s = SearchSettings { open: OpenUpdate::DecreaseKey, ..SearchSettings::default() };
        assert_eq!(s.to_string(), "astar, octile heuristic, fifo ties, 8 neighbours, decrease-key");
    }

    /// The navmesh's weight is written and hashed only when set: settings
    /// and hashes recorded before it existed are unchanged.
    #[test]
    fn the_navmesh_weight_is_written_and_hashed_when_set() {
        let hash = |s: &SearchSettings| {
            let mut h = StateHasher::default();
            h.add(s);
            h.finish()
        };
        let default = serde_json::to_string(&SearchSettings::DEFAULT).unwrap();
        assert!(!default.contains("navmesh_weight"), "{default}");
        let one = SearchSettings { planner: Planner::NAVMESH, navmesh_weight: 1.0, ..SearchSettings::DEFAULT };
        let json = serde_json::to_string(&one).unwrap();
        assert!(json.contains("\"navmesh_weight\":1.0"), "{json}");
        assert_eq!(serde_json::from_str::<SearchSettings>(&json).unwrap(), one);
        let navmesh = SearchSettings { navmesh_weight: NAVMESH_WEIGHT, ..one };
        assert_ne!(hash(&one), hash(&navmesh));
        assert_eq!(one.to_string(), "navmesh w=1, octile heuristic, fifo ties, 8 neighbours");
        assert_eq!(navmesh.to_string(), "navmesh, octile heuristic, fifo ties, 8 neighbours");
    }

    #[test]
    fn serde_uses_user_names() {
        assert_eq!(serde_json::to_string(&TieBreak::LowH).unwrap(), "\"low-h\"");
        let s: Planner = serde_json::from_str("\"astar\"").unwrap();
        assert_eq!(s, Planner::ASTAR);
        // The open-list update is written only when it is not the default,
        // and settings without it read as lazy.
        let lazy = serde_json::to_string(&SearchSettings::DEFAULT).unwrap();
        assert!(!lazy.contains("\"open\""), "{lazy}");
        assert_eq!(serde_json::from_str::<SearchSettings>(&lazy).unwrap(), SearchSettings::DEFAULT);
        let fast = SearchSettings { open: OpenUpdate::DecreaseKey, ..SearchSettings::DEFAULT };
        let json = serde_json::to_string(&fast).unwrap();
        assert!(json.contains("\"open\":\"decrease-key\""), "{json}");
        assert_eq!(serde_json::from_str::<SearchSettings>(&json).unwrap(), fast);
    }
}
