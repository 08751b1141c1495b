//! The tile grid as a search graph, and a planner that answers cell-to-cell
//! queries with reusable buffers.

use super::engine::{Outcome, Query, Searcher, Visit};
use super::grid_cache::GridCache;
use super::hpa::HpaPlanner;
use super::jps::{JumpGraph, JumpQuery, Scan, WalkBits, fill_in};
use super::jps_plus::{JumpTable, Table};
use super::settings::{Algorithm, Heuristic, SearchSettings, TieBreak};
use super::trace::Observer;
use super::{Graph, NodeId, Reversible};
use crate::grid::{Cell, DIAGONAL, DIRECTIONS, Grid, Neighbors};

/// Cost of entering a cell orthogonally, by entry cost 0–9.
const ORTHOGONAL: [f64; 10] = costs(1.0);
/// Cost of entering a cell diagonally: entry cost × √2, computed the same
/// way as [`Grid::step_cost`] so that both agree to the last bit.
const DIAGONAL_COST: [f64; 10] = costs(DIAGONAL);

const fn costs(factor: f64) -> [f64; 10] {
    let mut t = [0.0; 10];
    let mut i = 1;
    while i < 10 {
        t[i] = i as f64 * factor;
        i += 1;
    }
    t
}

/// The orthogonal directions diagonal k (4..8) passes between: its x step
/// is east (0) or west (1), its y step south (2) or north (3).
const SIDES: [(usize, usize); 4] = [(0, 2), (1, 2), (0, 3), (1, 3)];

/// One query's view of a [`Grid`]: moves, heuristic and endpoints.
///
/// Node ids are the grid's padded indices; thanks to the wall border a
/// neighbour index is always inside the array and no bounds check is needed.
pub struct GridGraph<'a> {
    costs: &'a [u8],
    neighbors: Neighbors,
    heuristic: Heuristic,
    /// The grid's cheapest entry cost: the heuristic's scale.
    scale: f64,
    start: Cell,
    goal: Cell,
    /// Index offsets of the eight directions, in [`DIRECTIONS`] order.
    offsets: [isize; 8],
    split: Split,
}

/// Splits padded indices into (x, y) with a multiply and a shift: a
/// hardware division costs more than the rest of an h, or of an edge.
/// `magic` = ⌊2⁴⁰/stride⌋ + 1 is exact for indices below 2⁴⁰/stride, far
/// above any map's node count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Split {
    stride: u64,
    magic: u64,
}

impl Split {
    pub(crate) fn new(stride: usize) -> Split {
        Split { stride: stride as u64, magic: (1u64 << 40) / stride as u64 + 1 }
    }

    /// Padded (x, y) of padded index `i`.
    #[inline(always)]
    pub(crate) fn xy(self, i: usize) -> (usize, usize) {
        let y = (i as u64 * self.magic) >> 40;
        ((i as u64 - y * self.stride) as usize, y as usize)
    }
}

impl<'a> GridGraph<'a> {
    /// The view of `grid` for one query from `start` to `goal`.
    pub fn new(grid: &'a Grid, neighbors: Neighbors, heuristic: Heuristic, start: Cell, goal: Cell) -> Self {
        let stride = grid.stride();
        GridGraph {
            costs: grid.costs(),
            neighbors,
            heuristic,
            scale: f64::from(grid.min_entry_cost()),
            start,
            goal,
            offsets: DIRECTIONS.map(|(dx, dy)| dx as isize + dy as isize * stride as isize),
            split: Split::new(stride),
        }
    }

    /// The cell of a node id.
    #[inline(always)]
    fn cell(&self, node: NodeId) -> Cell {
        let (x, y) = self.split.xy(node as usize);
        Cell::new(x as i32 - 1, y as i32 - 1)
    }
}

impl Graph for GridGraph<'_> {
    fn node_count(&self) -> usize {
        self.costs.len()
    }

    #[inline]
    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let i = node as usize;
        let c = self.costs;
        let at = |k: usize| i.wrapping_add_signed(self.offsets[k]);
        for k in 0..4 {
            let v = at(k);
            let cost = c[v];
            if cost != 0 {
                visit(v as NodeId, ORTHOGONAL[cost as usize]);
            }
        }
        if self.neighbors == Neighbors::Four {
            return;
        }
        for (k, (sx, sy)) in SIDES.into_iter().enumerate() {
            let v = at(k + 4);
            let cost = c[v];
            if cost != 0 && c[at(sx)] != 0 && c[at(sy)] != 0 {
                visit(v as NodeId, DIAGONAL_COST[cost as usize]);
            }
        }
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        let p = self.cell(node);
        let dx = f64::from((p.x - self.goal.x).abs());
        let dy = f64::from((p.y - self.goal.y).abs());
        self.heuristic.distance(dx, dy) * self.scale
    }

    /// Exact keys. `cross` is |(cell − goal) × (start − goal)|, an integer
    /// below 2·2048² < 2³². `low-h` is h in fixed point with 16 fraction
    /// bits: h stays below 2¹⁶ on any map within [`crate::grid::MAX_SIDE`],
    /// and two different h values on such a map differ by far more than
    /// 2⁻¹⁶ (the closest pair of octile values, a + b(√2 − 1) with b at most
    /// 2048, is 3.6e-4 apart; distinct square roots of integers below 2²³
    /// are 1.7e-4 apart), so the fixed-point key preserves their order
    /// exactly.
    fn tie_key(&self, node: NodeId, h: f64, tie: TieBreak) -> u32 {
        match tie {
            TieBreak::Fifo => 0,
            // Rounded to nearest (the cast truncates a non-negative value).
            TieBreak::LowH => (h * 65536.0 + 0.5) as u32,
            TieBreak::Cross => {
                let p = self.cell(node);
                let (dx1, dy1) = (i64::from(p.x - self.goal.x), i64::from(p.y - self.goal.y));
                let (dx2, dy2) = (i64::from(self.start.x - self.goal.x), i64::from(self.start.y - self.goal.y));
                (dx1 * dy2 - dx2 * dy1).unsigned_abs() as u32
            }
        }
    }
}

/// Every move is reversible on a grid, so the edges entering a cell are
/// its walkable neighbours' moves into it, at its own entry cost; a wall
/// (or closed door) has none.
impl Reversible for GridGraph<'_> {
    #[inline]
    fn predecessors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let i = node as usize;
        let c = self.costs;
        let cost = c[i];
        if cost == 0 {
            return;
        }
        let at = |k: usize| i.wrapping_add_signed(self.offsets[k]);
        for k in 0..4 {
            let u = at(k);
            if c[u] != 0 {
                visit(u as NodeId, ORTHOGONAL[cost as usize]);
            }
        }
        if self.neighbors == Neighbors::Four {
            return;
        }
        // A diagonal move passes the same two orthogonal cells both ways.
        for (k, (sx, sy)) in SIDES.into_iter().enumerate() {
            let u = at(k + 4);
            if c[u] != 0 && c[at(sx)] != 0 && c[at(sy)] != 0 {
                visit(u as NodeId, DIAGONAL_COST[cost as usize]);
            }
        }
    }
}

/// Which end of a query was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// The query's start.
    Start,
    /// The query's goal.
    Goal,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// A query the grid cannot answer. (No path is an answer, not an error.)
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum PlanError {
    /// An end lies off the map.
    #[error("{end} {cell} is outside the {width}x{height} map")]
    Outside { end: Endpoint, cell: Cell, width: usize, height: usize },
    /// An end is a wall or a closed door.
    #[error("{end} {cell} is not walkable")]
    Blocked { end: Endpoint, cell: Cell },
}

impl PlanError {
    /// Refuses a query whose start or goal is off the map or blocked: the
    /// check every planner of cell queries makes first.
    pub fn check(grid: &Grid, from: Cell, to: Cell) -> Result<(), PlanError> {
        for (end, cell) in [(Endpoint::Start, from), (Endpoint::Goal, to)] {
            if !grid.in_bounds(cell) {
                return Err(PlanError::Outside { end, cell, width: grid.width(), height: grid.height() });
            }
            if !grid.is_walkable(cell) {
                return Err(PlanError::Blocked { end, cell });
            }
        }
        Ok(())
    }
}

/// Answers cell-to-cell queries on grids, keeping its buffers between them,
/// and, for jump point search, the walkability bits or the jump table of
/// the last grid it searched (rebuilt for another grid, repaired where
/// cells changed).
#[derive(Debug, Default)]
pub struct GridPlanner {
    searcher: Searcher,
    cells: Vec<Cell>,
    bits: GridCache<WalkBits>,
    table: GridCache<JumpTable>,
    hpa: HpaPlanner,
    /// Padded indices of an HPA* path.
    hpa_path: Vec<usize>,
    /// Whether the last query was HPA*, whose searches are not the grid's.
    abstract_search: bool,
    /// Build (or repair) time of the per-grid data the last query used.
    preprocess_micros: f64,
}

impl GridPlanner {
    /// A planner with empty buffers; the first query sizes them.
    pub fn new() -> GridPlanner {
        GridPlanner::default()
    }

    /// Searches `grid` from `from` to `to` with `settings`. The path, when
    /// found, is [`GridPlanner::path`] (empty after a refused query too).
    pub fn plan(&mut self, grid: &Grid, from: Cell, to: Cell, settings: &SearchSettings) -> Result<Outcome, PlanError> {
        self.plan_observed(grid, from, to, settings, &mut ())
    }

    /// [`GridPlanner::plan`], telling `observer` what the search does (node
    /// ids are [`Grid::node`]s): pass a [`super::Trace`] to step through it.
    pub fn plan_observed<O: Observer>(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        settings: &SearchSettings,
        observer: &mut O,
    ) -> Result<Outcome, PlanError> {
        self.cells.clear();
        PlanError::check(grid, from, to)?;
        let graph = GridGraph::new(grid, settings.neighbors, settings.heuristic, from, to);
        let mut query = Query {
            algorithm: settings.algorithm,
            tie: settings.tie,
            weight: settings.weight,
            reopen: settings.reopen,
            open: settings.open,
        };
        let (start, goal) = (grid.node(from), grid.node(to));
        self.preprocess_micros = 0.0;
        self.abstract_search = settings.algorithm == Algorithm::Hpa;
        // HPA* runs its own searches over clusters and abstract nodes; it
        // is not traced (a lab pane running it shows its result only).
        if self.abstract_search {
            let outcome = self.hpa.plan(grid, start as usize, goal as usize, settings, &mut self.hpa_path);
            self.preprocess_micros = self.hpa.preprocess_micros();
            self.cells.extend(self.hpa_path.iter().map(|&n| grid.cell_of(n as u32)));
            return Ok(outcome);
        }
        if !settings.algorithm.jumps() {
            let outcome = self.searcher.search_observed(&graph, start, goal, &query, observer);
            self.cells.extend(self.searcher.path().iter().map(|&n| grid.cell_of(n)));
            return Ok(outcome);
        }
        // Jump point searches are A* over jump points, where they can run.
        query.algorithm = Algorithm::AStar;
        let Some(cost) = grid.uniform_cost().filter(|_| settings.neighbors == Neighbors::Eight) else {
            let mut outcome = self.searcher.search_observed(&graph, start, goal, &query, observer);
            outcome.stats.ran_astar = true;
            self.cells.extend(self.searcher.path().iter().map(|&n| grid.cell_of(n)));
            return Ok(outcome);
        };
        let outcome = if settings.algorithm == Algorithm::JpsPlus {
            let jump_query = JumpQuery::new(grid, graph, goal, cost);
            let jumps = JumpGraph { query: jump_query, jumps: Table { table: self.table.get(grid, ()) } };
            let outcome = self.searcher.search_observed(&jumps, start, goal, &query, observer);
            self.preprocess_micros = self.table.micros();
            outcome
        } else {
            let jump_query = JumpQuery::new(grid, graph, goal, cost);
            let jumps = JumpGraph { query: jump_query, jumps: Scan::new(self.bits.get(grid, ())) };
            let mut outcome = self.searcher.search_observed(&jumps, start, goal, &query, observer);
            outcome.stats.scanned = jumps.jumps.scanned();
            self.preprocess_micros = self.bits.micros();
            outcome
        };
        fill_in(grid.stride(), self.searcher.path(), |n| self.cells.push(grid.cell_of(n)));
        Ok(outcome)
    }

    /// Microseconds spent building (or, after cells changed, repairing) the
    /// per-grid data the last query used: 0 for the algorithms without any.
    pub fn preprocess_micros(&self) -> f64 {
        self.preprocess_micros
    }

    /// The last query's path, start and goal included (empty if none).
    pub fn path(&self) -> &[Cell] {
        &self.cells
    }

    /// Cells the last query generated on `grid` (the grid it ran on),
    /// closed or still open (none for HPA*, which searches clusters and
    /// an abstract graph).
    pub fn visited<'a>(&'a self, grid: &'a Grid) -> impl Iterator<Item = (Cell, Visit)> + 'a {
        let cells = if self.abstract_search { Vec::new() } else { self.searcher.visited() };
        cells.into_iter().map(|(n, v)| (grid.cell_of(n), v))
    }

    /// The side of HPA*'s clusters, in cells (at least 2; default
    /// [`super::DEFAULT_CLUSTER_SIZE`]). Changing it rebuilds the
    /// abstraction at the next HPA* query.
    pub fn set_cluster_size(&mut self, cells: usize) {
        self.hpa.cluster = Some(cells.max(2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;
    use rand::{RngExt, SeedableRng};

    /// Predecessors are exactly the successor edges read backwards, with
    /// the same costs, on random weighted grids and both neighbourhoods.
    #[test]
    fn predecessors_invert_successors() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        for round in 0..20 {
            let (w, h) = (rng.random_range(1..12), rng.random_range(1..12));
            let tiles: Vec<Tile> = (0..w * h)
                .map(|_| if rng.random_bool(0.3) { Tile::Wall } else { Tile::Floor(rng.random_range(1..10)) })
                .collect();
            let grid = Grid::new(w, h, &tiles);
            let neighbors = if round % 2 == 0 { Neighbors::Eight } else { Neighbors::Four };
            let c = Cell::new(0, 0);
            let g = GridGraph::new(&grid, neighbors, Heuristic::Octile, c, c);
            let (mut forward, mut backward) = (Vec::new(), Vec::new());
            for cell in grid.cells().filter(|&c| grid.is_walkable(c)) {
                let n = grid.node(cell);
                g.successors(n, |v, cost| forward.push((n, v, cost.to_bits())));
                g.predecessors(n, |u, cost| backward.push((u, n, cost.to_bits())));
            }
            forward.sort_unstable();
            backward.sort_unstable();
            assert_eq!(forward, backward, "round {round}");
        }
    }
}
