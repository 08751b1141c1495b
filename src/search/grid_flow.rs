//! A [`FlowField`] kept up to date on a changing [`Grid`]: repaired where
//! cells changed, computed afresh for a new root, a tick's allowance at a
//! time, while the last complete field stays readable.

use super::flow_field::FlowField;
use super::grid_cache::diff;
use super::grid_graph::GridGraph;
use super::settings::Heuristic;
use super::{NodeId, SearchStats};
use crate::grid::{Cell, Grid, Neighbors};

/// What a field was computed for: a grid as it was, a root, the moves and
/// the bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldKey {
    /// [`Grid::identity`] of the grid.
    pub identity: u64,
    /// [`Grid::version`] the distances describe.
    pub version: u64,
    /// The cell distances are measured to.
    pub root: Cell,
    /// 4 or 8 neighbours.
    pub neighbors: Neighbors,
    /// The route cost bound (see [`FlowField::start`]).
    pub limit: f64,
}

/// Two fields: the `ready` one monsters descend (complete, on the grid as
/// it is, for the root as it was when computed), and the `pending` one
/// being computed for a moved root over as many ticks as the allowance
/// needs. The rules:
///
/// - cells changed: the ready field is repaired at once, to its end (its
///   work is `cells_updated`); a pending computation, whose grid changed
///   under it, starts again;
/// - the root moved (or the moves or the bound changed): a fresh
///   computation starts (its pops are `expanded`) and goes on each call
///   until it completes, when it becomes the ready field. A moved root is
///   never repaired: the figures are in `src/search/flow_field.rs`.
#[derive(Debug, Default)]
pub struct GridFlow {
    ready: FlowField,
    ready_key: Option<FieldKey>,
    pending: FlowField,
    pending_key: Option<FieldKey>,
    /// The entry costs of the grid the ready field describes, to find the
    /// cells that changed since.
    costs: Vec<u8>,
    changed: Vec<usize>,
    dirty: Vec<NodeId>,
    nodes: Vec<NodeId>,
    targets: Vec<NodeId>,
}

impl GridFlow {
    /// An empty pair of fields.
    pub fn new() -> GridFlow {
        GridFlow::default()
    }

    /// Brings the fields up to date with `grid` and `root`, expanding at
    /// most `allowance` nodes for a fresh computation (a repair always
    /// runs to its end). Returns the work done; `micros` is its time.
    pub fn update(&mut self, grid: &Grid, root: Cell, neighbors: Neighbors, limit: f64, allowance: u64) -> SearchStats {
        self.update_covering(grid, root, neighbors, limit, allowance, &[])
    }

    /// [`GridFlow::update`] where a fresh computation only goes as far as
    /// the field must to hold the cells of `targets` (the hunters that will
    /// descend it; see [`FlowField::advance_covering`]), within `limit`.
    /// The ready field keeps the bound it was completed at
    /// ([`GridFlow::reach`]).
    pub fn update_covering(
        &mut self,
        grid: &Grid,
        root: Cell,
        neighbors: Neighbors,
        limit: f64,
        allowance: u64,
        targets: &[Cell],
    ) -> SearchStats {
        let wanted = FieldKey { identity: grid.identity(), version: grid.version(), root, neighbors, limit };
        let mut stats = SearchStats::default();
        let graph = GridGraph::new(grid, neighbors, Heuristic::Zero, root, root);
        match self.ready_key {
            Some(key) if key.version != wanted.version && key.identity == wanted.identity => {
                self.changed.clear();
                diff(&self.costs, grid.costs(), &mut self.changed);
                self.dirty.clear();
                let stride = grid.stride() as isize;
                // The moves that can change with a cell are those into it
                // and the diagonals past it: all leave its 3x3 block. The
                // padding border has no moves (and no room for any).
                for &c in &self.changed {
                    for off in [0, 1, -1, stride, -stride, stride + 1, stride - 1, 1 - stride, -1 - stride] {
                        let n = c.wrapping_add_signed(off) as NodeId;
                        if grid.in_bounds(grid.cell_of(n)) {
                            self.dirty.push(n);
                        }
                    }
                }
                let repaired = self
                    .ready
                    .repair(&GridGraph::new(grid, key.neighbors, Heuristic::Zero, key.root, key.root), &self.dirty);
                add(&mut stats, &repaired);
                self.ready_key = Some(FieldKey { version: wanted.version, ..key });
                self.costs.clear();
                self.costs.extend_from_slice(grid.costs());
            }
            Some(key) if key.identity != wanted.identity => self.ready_key = None,
            _ => {}
        }
        if self.ready_key == Some(wanted) {
            self.pending_key = None;
            return stats;
        }
        if self.pending_key != Some(wanted) {
            if !grid.is_walkable(root) {
                self.pending_key = None;
                return stats;
            }
            self.pending.start(grid.node_count(), grid.node(root), limit);
            self.pending_key = Some(wanted);
        }
        self.targets.clear();
        self.targets.extend(targets.iter().filter(|c| grid.in_bounds(**c)).map(|&c| grid.node(c)));
        let computed = self.pending.advance_covering(&graph, allowance, &self.targets);
        add(&mut stats, &computed);
        if self.pending.is_complete() {
            std::mem::swap(&mut self.ready, &mut self.pending);
            self.ready_key = self.pending_key.take();
            self.costs.clear();
            self.costs.extend_from_slice(grid.costs());
        }
        stats
    }

    /// What the ready field was computed for; `None` while there is none.
    pub fn key(&self) -> Option<FieldKey> {
        self.ready_key
    }

    /// The route cost the ready field reaches: its key's limit, or the
    /// smaller bound a computation covering its targets ended at; `None`
    /// while there is no ready field.
    pub fn reach(&self) -> Option<f64> {
        self.ready_key.map(|_| self.ready.limit())
    }

    /// What the computation under way is for; `None` when none is.
    pub fn pending(&self) -> Option<FieldKey> {
        self.pending_key
    }

    /// The ready field's cost from `cell` to its root, if within its bound.
    pub fn distance(&self, grid: &Grid, cell: Cell) -> Option<f64> {
        self.ready_key?;
        grid.in_bounds(cell).then(|| self.ready.distance(grid.node(cell))).flatten()
    }

    /// Replaces `out` with `from` and the next `steps` cells of its descent
    /// of the ready field, on `grid` (the grid it was last updated with);
    /// empty when `from` is outside the field.
    pub fn descent(&mut self, grid: &Grid, from: Cell, steps: usize, out: &mut Vec<Cell>) {
        out.clear();
        let Some(key) = self.ready_key.filter(|_| grid.in_bounds(from)) else { return };
        let graph = GridGraph::new(grid, key.neighbors, Heuristic::Zero, key.root, key.root);
        self.ready.descent(&graph, grid.node(from), steps, &mut self.nodes);
        out.extend(self.nodes.iter().map(|&n| grid.cell_of(n)));
    }
}

/// Adds the counters of one piece of work to another's.
fn add(sum: &mut SearchStats, part: &SearchStats) {
    sum.expanded += part.expanded;
    sum.cells_updated += part.cells_updated;
    sum.pushed += part.pushed;
    sum.stale_pops += part.stale_pops;
    sum.micros += part.micros;
}
