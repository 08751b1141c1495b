//! The graph abstraction the engine searches.
//!
//! Nodes are dense ids `0..node_count()` so that every per-node record can
//! live in a flat array indexed by id: no hashing on the hot path, and the
//! same engine runs on grids, hand-built graphs, and any graph a user brings.

use super::TieBreak;

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

    /// The successors of `node` reached from `parent` (`parent == node` for
    /// the start): what the engine calls. Jump point search prunes by the
    /// direction of arrival; every other graph ignores the parent.
    #[inline(always)]
    fn successors_from(&self, node: NodeId, _parent: NodeId, visit: impl FnMut(NodeId, f64)) {
        self.successors(node, visit);
    }

    /// Estimated cost from `node` to the query's goal; non-negative.
    fn heuristic(&self, _node: NodeId) -> f64 {
        0.0
    }

    /// The key that orders open nodes of equal f under `tie` (smaller
    /// first; equal keys fall back to insertion order, so `fifo`'s key is
    /// a constant). `h` is the node's [`Graph::heuristic`].
    ///
    /// A key is 32 bits so that f, the key and the insertion number pack
    /// into one 128-bit integer and the open list compares entries in one
    /// instruction. The default serves any graph: `low-h` orders h at `f32`
    /// precision (distinct h values closer than about 1e-7 of their size
    /// count as equal); `cross` needs geometry the trait does not know, so
    /// it falls back to insertion order. Grid graphs give exact keys.
    fn tie_key(&self, _node: NodeId, h: f64, tie: TieBreak) -> u32 {
        match tie {
            // Non-negative floats order like their bit patterns.
            TieBreak::LowH => (h as f32).to_bits(),
            TieBreak::Fifo | TieBreak::Cross => 0,
        }
    }
}

/// A graph that can also walk its edges backwards: what a search rooted at
/// the goal needs (D* Lite, a reverse Dijkstra map). A separate trait, so
/// that forward searches and the graphs only they use pay nothing for it.
pub trait Reversible: Graph {
    /// Calls `visit(predecessor, cost)` for every edge entering `node`, in
    /// a fixed order; `cost` is the same edge's cost as
    /// [`Graph::successors`] of the predecessor gives it.
    fn predecessors(&self, node: NodeId, visit: impl FnMut(NodeId, f64));
}
