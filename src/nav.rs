//! Any-angle paths: a navigation mesh pulled taut by the funnel algorithm,
//! and a graph of waypoints at convex wall corners; and the [`Navigator`]
//! that runs every [`Planner`](crate::search::Planner), these and the
//! grid's.
//!
//! Both plan in the same *free space*: the walkable cells of a
//! [`Grid`](crate::grid::Grid) eroded by the agent's radius ([`Space`]).
//! Both search with the project's one best-first engine
//! ([`crate::search::Searcher`]), each over a [`crate::search::Graph`] of
//! its own: [`NavMesh`] over the portals between its convex polygons, then
//! [`string_pull`] over the portal sequence; [`Waypoints`] over corners
//! linked by line of sight, whose paths are the optimal any-angle paths of
//! the free space (the reference the others are measured against).
//!
//! Geometry is `f64` ([`Vec2`]): the orientation tests of the funnel and
//! the segment tests against walls must be exact on coordinates that are
//! whole or half cells, which `f32` is not beyond a few hundred cells.

mod funnel;
mod mesh;
mod navigator;
mod space;
mod vec2;
mod waypoints;

pub use funnel::{FunnelStep, string_pull, string_pull_traced};
pub use mesh::{MeshPath, NavMesh, Portal, Rect, SearchNode};
pub use navigator::{Ends, Navigator};
pub use space::{MAX_RADIUS, Space, path_length};
pub use vec2::Vec2;
pub use waypoints::{WaypointPath, Waypoints};

/// Helpers the unit tests of this layer share.
#[cfg(test)]
mod testing {
    use super::Vec2;
    use crate::grid::Grid;

    /// A grid from level text rows.
    pub fn grid(rows: &[&str]) -> Grid {
        crate::level::Level::parse(&rows.join("\n"), "test").unwrap().grid
    }

    /// A point.
    pub fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }
}
