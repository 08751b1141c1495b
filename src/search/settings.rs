//! The knobs of a search, with the names users type and see.
//!
//! Every enum here has one spelling shared by the command line, the side
//! panel, the replay files and the hotkeys that cycle it.

use crate::grid::{DIAGONAL, Neighbors};
pub use crate::named::UnknownName;
use crate::named::named_enum;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

named_enum! {
    /// Which member of the best-first family runs.
    Algorithm, "algorithm" {
        /// Breadth-first: orders by step count, ignores costs and heuristic.
        Bfs => "bfs",
        /// Orders by g alone.
        Dijkstra => "dijkstra",
        /// Orders by g + h.
        AStar => "astar",
        /// Orders by h alone, keeps the first parent found, never relaxes.
        Greedy => "greedy",
        /// Orders by g + w·h (w ≥ 1): at most w times the optimal cost.
        Weighted => "weighted",
    }
}

named_enum! {
    /// Distance estimates on a grid, each scaled by the grid's cheapest
    /// entry cost so that it stays admissible on weighted grids.
    Heuristic, "heuristic" {
        Manhattan => "manhattan",
        Euclidean => "euclidean",
        Octile => "octile",
        Chebyshev => "chebyshev",
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

impl Algorithm {
    /// Whether the heuristic enters the ordering key.
    pub const fn uses_heuristic(self) -> bool {
        matches!(self, Algorithm::AStar | Algorithm::Greedy | Algorithm::Weighted)
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

impl fmt::Display for Neighbors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.count())
    }
}

impl FromStr for Neighbors {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, UnknownName> {
        match s {
            "4" => Ok(Neighbors::Four),
            "8" => Ok(Neighbors::Eight),
            _ => Err(UnknownName { what: "neighbour count", given: s.to_string(), expected: "4|8".into() }),
        }
    }
}

impl Neighbors {
    /// The other movement model, for the hotkey.
    pub fn next(self) -> Neighbors {
        match self {
            Neighbors::Four => Neighbors::Eight,
            Neighbors::Eight => Neighbors::Four,
        }
    }
}

/// Smallest accepted weight for weighted A*.
pub const MIN_WEIGHT: f64 = 1.0;
/// Largest accepted weight: beyond it weighted A* is greedy search in all
/// but name.
pub const MAX_WEIGHT: f64 = 10.0;

/// Everything that shapes one grid search.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSettings {
    pub algorithm: Algorithm,
    pub heuristic: Heuristic,
    pub tie: TieBreak,
    pub neighbors: Neighbors,
    /// w of weighted A*, in [`MIN_WEIGHT`, `MAX_WEIGHT`]; other algorithms ignore it.
    pub weight: f64,
    /// Reopen closed nodes when a cheaper route to them turns up (needed
    /// for optimality under an inconsistent heuristic).
    pub reopen: bool,
}

impl Default for SearchSettings {
    /// A* with octile distance on 8 neighbours: optimal and the fastest of
    /// the optimal ones on dungeon grids.
    fn default() -> Self {
        SearchSettings {
            algorithm: Algorithm::AStar,
            heuristic: Heuristic::Octile,
            tie: TieBreak::Fifo,
            neighbors: Neighbors::Eight,
            weight: 1.5,
            reopen: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_cycle_wraps() {
        for &a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
        }
        assert_eq!(Algorithm::Weighted.next(), Algorithm::Bfs);
        assert_eq!(Heuristic::Zero.next(), Heuristic::Manhattan);
        assert_eq!(TieBreak::Cross.next(), TieBreak::Fifo);
        assert_eq!(Neighbors::Eight.next(), Neighbors::Four);
        let err = "astra".parse::<Algorithm>().unwrap_err();
        assert_eq!(err.to_string(), "unknown algorithm 'astra' (expected one of: bfs|dijkstra|astar|greedy|weighted)");
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
    fn serde_uses_user_names() {
        assert_eq!(serde_json::to_string(&TieBreak::LowH).unwrap(), "\"low-h\"");
        let s: Algorithm = serde_json::from_str("\"astar\"").unwrap();
        assert_eq!(s, Algorithm::AStar);
    }
}
