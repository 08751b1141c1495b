//! The graph abstraction the engine searches.
//!
//! Nodes are dense ids `0..node_count()` so that every per-node record can
//! live in a flat array indexed by id: no hashing on the hot path, and the
//! same engine runs on grids, hand-built graphs, waypoint graphs and meshes.

/// A node of a [`Graph`]: an index into the engine's flat arrays.
pub type NodeId = u32;

/// A directed graph with positive edge costs, as seen by one query.
///
/// The query's goal lives in the graph value (a grid graph is a cheap view
/// built per query), which lets the heuristic and the `cross` tie key be
/// plain functions of the node.
pub trait Graph {
    /// Number of node ids; every id passed in or out is below it.
    fn node_count(&self) -> usize;

    /// Calls `visit(successor, cost)` for every edge leaving `node`, in a
    /// fixed order: the statistics depend on it. Costs must be positive and
    /// finite.
    fn successors(&self, node: NodeId, visit: impl FnMut(NodeId, f64));

    /// Estimated cost from `node` to the query's goal; non-negative.
    fn heuristic(&self, _node: NodeId) -> f64 {
        0.0
    }

    /// Key for the `cross` tie-break: how far `node` strays from the
    /// straight start–goal line (0 where the graph has no geometry).
    fn cross(&self, _node: NodeId) -> f64 {
        0.0
    }
}
