//! Best-first search over graphs, with honest statistics, and path
//! smoothing for grids.
//!
//! One engine ([`Searcher`]) runs every [`Order`] of the best-first family
//! (BFS, Dijkstra, A*, greedy best-first, weighted A*) over any [`Graph`].
//! The graphs are the expansion policies ([`Expansion`]): the grid's
//! neighbours ([`GridGraph`]), jump points found online
//! ([`WalkBits::graph`]) or read from a table ([`JumpTable::graph`]),
//! HPA*'s entrances ([`HpaPlanner`]), and, in the nav layer, a navigation
//! mesh's portals and the corners in sight of each other. A [`Planner`]
//! names one ordering over one policy; [`GridPlanner`] runs those of the
//! grid on cell queries (the nav layer's `Navigator` runs them all), and
//! [`string_pull`] straightens the cell paths they return. [`MtDStarLite`]
//! repairs one hunter's search as both ends move and cells change
//! ([`GridChanges`] says which).

mod engine;
mod flow_field;
mod graph;
pub(crate) mod grid_cache;
mod grid_changes;
mod grid_flow;
mod grid_graph;
mod grid_planner;
mod hpa;
mod implicit;
mod jps;
mod jps_plus;
mod mt_dstar_lite;
mod open;
mod planner;
mod settings;
mod smooth;
mod trace;

pub use engine::{Outcome, Query, SearchStats, Searcher, Visit};
pub use flow_field::FlowField;
pub use graph::{Graph, NodeId, Reversible};
pub(crate) use grid_cache::{Derived, GridCache};
pub use grid_changes::GridChanges;
pub use grid_flow::{DijkstraMap, FieldKey, GridFlow};
pub use grid_graph::GridGraph;
pub use grid_planner::{Endpoint, Fallback, GridPlanner, PlanError};
pub use hpa::{DEFAULT_CLUSTER_SIZE, HpaPlanner};
pub use implicit::{Found, astar};
pub use jps::{JpsGraph, WalkBits};
pub use jps_plus::{JpsPlusGraph, JumpTable};
pub use mt_dstar_lite::MtDStarLite;
pub use planner::{Expansion, Order, Planner, PlannerError, Unhonoured};
pub use settings::{
    Heuristic, MAX_WEIGHT, MIN_WEIGHT, NAVMESH_WEIGHT, OpenUpdate, SearchSettings, TieBreak, UnknownName,
};
pub use smooth::string_pull;
pub use trace::{Event, NodeMark, Observer, Trace, TraceView};
