//! The planner a query asks for: a grid search or an any-angle planner.

use crate::search::{Algorithm, UnknownName};
use std::fmt;

/// Which planner answers a query: one of the grid searches of the
/// best-first family, or one of this layer's any-angle planners. Kept
/// apart from [`Algorithm`], which names what the engine runs (the
/// any-angle planners run A* over graphs of their own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Planner {
    /// A grid search.
    Grid(Algorithm),
    /// The navigation mesh and the funnel ([`super::NavMesh`]).
    Navmesh,
    /// The corner waypoint graph ([`super::Waypoints`]).
    Waypoints,
}

impl Planner {
    /// The grid algorithm, for a grid search.
    pub fn grid(self) -> Option<Algorithm> {
        match self {
            Planner::Grid(a) => Some(a),
            Planner::Navmesh | Planner::Waypoints => None,
        }
    }
}

impl fmt::Display for Planner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Planner::Grid(a) => a.fmt(f),
            Planner::Navmesh => f.write_str("navmesh"),
            Planner::Waypoints => f.write_str("waypoints"),
        }
    }
}

impl std::str::FromStr for Planner {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Planner, UnknownName> {
        match s {
            "navmesh" => Ok(Planner::Navmesh),
            "waypoints" => Ok(Planner::Waypoints),
            _ => s
                .parse()
                .map(Planner::Grid)
                .map_err(|e: UnknownName| UnknownName { expected: format!("{}, navmesh, waypoints", e.expected), ..e }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in [Planner::Grid(Algorithm::AStar), Planner::Grid(Algorithm::Bfs), Planner::Navmesh, Planner::Waypoints]
        {
            assert_eq!(p.to_string().parse::<Planner>(), Ok(p));
        }
        let e = "astra".parse::<Planner>().unwrap_err();
        assert!(e.expected.contains("astar") && e.expected.ends_with(", navmesh, waypoints"), "{}", e.expected);
    }
}
