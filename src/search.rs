//! Best-first search over graphs, with honest statistics, and path
//! smoothing for grids.
//!
//! One engine ([`Searcher`]) runs BFS, Dijkstra, A*, greedy best-first and
//! weighted A* over any [`Graph`]; [`GridPlanner`] adapts it to cell
//! queries on a [`crate::grid::Grid`], and [`string_pull`] straightens the
//! cell paths it returns. [`MtDStarLite`] repairs one hunter's search as
//! both ends move and cells change ([`GridChanges`] says which).

mod engine;
mod flow_field;
mod graph;
mod grid_cache;
mod grid_changes;
mod grid_flow;
mod grid_graph;
mod hpa;
mod implicit;
mod jps;
mod jps_plus;
mod mt_dstar_lite;
mod open;
mod settings;
mod smooth;
mod trace;

pub use engine::{Outcome, Query, SearchStats, Searcher, Visit};
pub use flow_field::FlowField;
pub use graph::{Graph, NodeId, Reversible};
pub(crate) use grid_cache::{Derived, GridCache};
pub use grid_changes::GridChanges;
pub use grid_flow::{DijkstraMap, FieldKey, GridFlow};
pub use grid_graph::{Endpoint, GridGraph, GridPlanner, PlanError};
pub use hpa::DEFAULT_CLUSTER_SIZE;
pub use implicit::{Found, astar};
pub use mt_dstar_lite::MtDStarLite;
pub use settings::{
    Algorithm, Heuristic, JUMPS_NEED, MAX_WEIGHT, MIN_WEIGHT, OpenUpdate, SearchSettings, TieBreak, UnknownName,
};
pub use smooth::string_pull;
pub use trace::{Event, NodeMark, Observer, Trace, TraceView};
