//! Flow fields on a [`Grid`]: [`GridFlow`], one root kept up to date a
//! tick's allowance at a time (the hunters' shared map of the player), and
//! [`DijkstraMap`], several sources with offsets computed in one go, and
//! the flee map made from it. Both are repaired where cells changed instead
//! of computed again.

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
        let graph = moves(grid, neighbors);
        match self.ready_key {
            Some(key) if key.version != wanted.version && key.identity == wanted.identity => {
                dirty_nodes(&self.costs, grid, &mut self.changed, &mut self.dirty);
                let repaired = self.ready.repair(&moves(grid, key.neighbors), &self.dirty);
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
        let graph = moves(grid, key.neighbors);
        self.ready.descent(&graph, grid.node(from), steps, &mut self.nodes);
        out.extend(self.nodes.iter().map(|&n| grid.cell_of(n)));
    }
}

/// Replaces `dirty` with the nodes whose moves may differ between the grid
/// whose entry costs were `old` and `grid` (of the same size): the cells
/// whose cost changed and their neighbours. `changed` is scratch.
fn dirty_nodes(old: &[u8], grid: &Grid, changed: &mut Vec<usize>, dirty: &mut Vec<NodeId>) {
    changed.clear();
    diff(old, grid.costs(), changed);
    dirty.clear();
    let stride = grid.stride() as isize;
    // The moves that can change with a cell are those into it and the
    // diagonals past it: all leave its 3x3 block. The padding border has no
    // moves (and no room for any).
    for &c in changed.iter() {
        for off in [0, 1, -1, stride, -stride, stride + 1, stride - 1, 1 - stride, -1 - stride] {
            let n = c.wrapping_add_signed(off) as NodeId;
            if grid.in_bounds(grid.cell_of(n)) {
                dirty.push(n);
            }
        }
    }
}

/// A Dijkstra map of a grid: for every cell within the bound, the least
/// over several sources of the source's offset plus the cost of the route
/// from the cell to it, and the way down (see [`FlowField::start_from`]).
/// The roguelike tool for "go to the nearest of these", weighted ("gold
/// counts more than the stairs"), and, through [`DijkstraMap::flee`], for
/// prey that runs away without cornering itself.
///
/// The map keeps the entry costs of the grid it describes, so
/// [`DijkstraMap::update`] repairs it where cells changed (a door) instead
/// of computing it again.
///
/// ```
/// use delve::grid::{Cell, Neighbors};
/// use delve::level::Level;
/// use delve::search::DijkstraMap;
///
/// let level = Level::parse("##########\n#........#\n#.####.#.#\n#......#.#\n##########\n", "t").unwrap();
/// let grid = &level.grid;
/// // Two treasures; the one at 8,3 is worth 5 steps of detour.
/// let treasures = [(Cell::new(1, 1), 0.0), (Cell::new(8, 3), -5.0)];
/// let map = DijkstraMap::new(grid, Neighbors::Four, &treasures, f64::INFINITY);
/// assert_eq!(map.distance(grid, Cell::new(5, 3)), Some(2.0), "7 steps to 8,3, less 5");
/// let mut way = Vec::new();
/// map.descent(grid, Cell::new(5, 3), 20, &mut way);
/// assert_eq!(way.last(), Some(&Cell::new(8, 3)));
/// ```
///
/// A flee map. Prey at 2,1 beside the player at 3,1, in a hall two cells
/// wide: stepping ever farther from the player leads into the corner at
/// 1,2, three steps away, where the prey is caught. The flee map runs it
/// past the player to the far end of the hall:
///
/// ```
/// # use delve::grid::{Cell, Neighbors};
/// # use delve::level::Level;
/// # use delve::search::DijkstraMap;
/// let (wall, hall) = ("#".repeat(33), format!("#{}#", ".".repeat(31)));
/// let level = Level::parse(&format!("{wall}\n{hall}\n{hall}\n{wall}\n"), "hall").unwrap();
/// let grid = &level.grid;
/// let player = DijkstraMap::new(grid, Neighbors::Four, &[(Cell::new(3, 1), 0.0)], f64::INFINITY);
/// let flee = player.flee(grid, -1.2);
/// let mut way = Vec::new();
/// flee.descent(grid, Cell::new(2, 1), 100, &mut way);
/// assert_eq!(way[1], Cell::new(3, 1), "past the player...");
/// assert_eq!(way.last(), Some(&Cell::new(31, 2)), "...to the far end");
/// ```
#[derive(Debug)]
pub struct DijkstraMap {
    field: FlowField,
    neighbors: Neighbors,
    /// The grid the map describes: its size, its identity and version, its
    /// entry costs (to find the cells that changed since).
    width: usize,
    height: usize,
    identity: u64,
    version: u64,
    costs: Vec<u8>,
    /// The work of the last computation or update.
    stats: SearchStats,
}

impl DijkstraMap {
    /// The map of `grid` with `neighbors` moves from `sources`, each
    /// `(cell, offset)`, keeping the cells whose value is at most `limit`
    /// (`f64::INFINITY`: every cell that reaches a source). A source off
    /// the map counts for nothing; one on a cell no one can stand on (a
    /// wall, a closed door) counts from when it opens.
    ///
    /// # Panics
    /// When an offset is not finite.
    pub fn new(grid: &Grid, neighbors: Neighbors, sources: &[(Cell, f64)], limit: f64) -> DijkstraMap {
        let nodes: Vec<(NodeId, f64)> =
            sources.iter().filter(|&&(c, _)| grid.in_bounds(c)).map(|&(c, offset)| (grid.node(c), offset)).collect();
        DijkstraMap::computed(grid, neighbors, |field| field.start_from(grid.node_count(), &nodes, limit))
    }

    /// The flee map of this map (see *Fleeing* in the
    /// [`FlowField`](super::FlowField) docs): every cell of this map a
    /// source at its value times `factor` (negative; -1.2 is the classic),
    /// relaxed again on `grid`. Descending it runs away from this map's
    /// sources, past them when that is the way to open ground; its values
    /// are negative, the lowest the safest. It is made from this map as it
    /// is: after an [`update`](DijkstraMap::update) of this map, make it
    /// again.
    ///
    /// # Panics
    /// When `factor` is not finite, or `grid` is not the size of this map's.
    pub fn flee(&self, grid: &Grid, factor: f64) -> DijkstraMap {
        self.check(grid);
        DijkstraMap::computed(grid, self.neighbors, |field| {
            field.start_flee(grid.node_count(), &self.field, factor, f64::INFINITY);
        })
    }

    /// Brings the map up to date with `grid`, the map's grid or another of
    /// its size: nothing when it is the same grid, unchanged; else a
    /// repair of the cells whose entry cost differs. Returns the work done
    /// (a repair's is `cells_updated`).
    ///
    /// # Panics
    /// When `grid` is not the size of the map's.
    pub fn update(&mut self, grid: &Grid) -> SearchStats {
        self.check(grid);
        if (grid.identity(), grid.version()) == (self.identity, self.version) {
            return SearchStats::default();
        }
        let (mut changed, mut dirty) = (Vec::new(), Vec::new());
        dirty_nodes(&self.costs, grid, &mut changed, &mut dirty);
        self.stats = self.field.repair(&moves(grid, self.neighbors), &dirty);
        self.remember(grid);
        self.stats
    }

    /// The value of `cell`: the least offset plus route cost to a source;
    /// `None` where no one can stand (off the map, walls), beyond the
    /// bound, and where no source is reached.
    ///
    /// # Panics
    /// When `grid` is not the size of the map's.
    pub fn distance(&self, grid: &Grid, cell: Cell) -> Option<f64> {
        self.check(grid);
        grid.is_walkable(cell).then(|| self.field.distance(grid.node(cell))).flatten()
    }

    /// The next cell down from `cell` on `grid` (see
    /// [`FlowField::descend`](super::FlowField::descend)): `None` at a
    /// source that keeps its offset, at a flee map's safest spots, and
    /// outside the map.
    ///
    /// # Panics
    /// When `grid` is not the size of the map's.
    pub fn descend(&self, grid: &Grid, cell: Cell) -> Option<Cell> {
        self.check(grid);
        let next = grid.is_walkable(cell).then(|| self.field.descend(&moves(grid, self.neighbors), grid.node(cell)));
        Some(grid.cell_of(next.flatten()?))
    }

    /// Replaces `out` with `from` and the next `steps` cells of its descent
    /// (fewer where it ends); empty outside the map.
    ///
    /// # Panics
    /// When `grid` is not the size of the map's.
    pub fn descent(&self, grid: &Grid, from: Cell, steps: usize, out: &mut Vec<Cell>) {
        out.clear();
        if self.distance(grid, from).is_none() {
            return;
        }
        out.push(from);
        while out.len() <= steps {
            let Some(next) = self.descend(grid, out[out.len() - 1]) else { break };
            out.push(next);
        }
    }

    /// The moves the map was computed with.
    pub fn neighbors(&self) -> Neighbors {
        self.neighbors
    }

    /// The work of the last computation or [`update`](DijkstraMap::update).
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The map of `grid` whose field `start` begins, computed to its end.
    fn computed(grid: &Grid, neighbors: Neighbors, start: impl FnOnce(&mut FlowField)) -> DijkstraMap {
        let mut field = FlowField::new();
        start(&mut field);
        let stats = field.advance(&moves(grid, neighbors), u64::MAX);
        let mut map =
            DijkstraMap { field, neighbors, width: 0, height: 0, identity: 0, version: 0, costs: Vec::new(), stats };
        map.remember(grid);
        map
    }

    fn remember(&mut self, grid: &Grid) {
        (self.width, self.height) = (grid.width(), grid.height());
        (self.identity, self.version) = (grid.identity(), grid.version());
        self.costs.clear();
        self.costs.extend_from_slice(grid.costs());
    }

    fn check(&self, grid: &Grid) {
        let (width, height) = (grid.width(), grid.height());
        assert!(
            (width, height) == (self.width, self.height),
            "a Dijkstra map of a {}x{} grid used with a {width}x{height} one",
            self.width,
            self.height,
        );
    }
}

/// The moves of `grid` as a graph without a goal: what a field relaxes.
fn moves(grid: &Grid, neighbors: Neighbors) -> GridGraph<'_> {
    let c = Cell::new(0, 0);
    GridGraph::new(grid, neighbors, Heuristic::Zero, c, c)
}

/// Adds the counters of one piece of work to another's.
fn add(sum: &mut SearchStats, part: &SearchStats) {
    sum.expanded += part.expanded;
    sum.cells_updated += part.cells_updated;
    sum.pushed += part.pushed;
    sum.stale_pops += part.stale_pops;
    sum.micros += part.micros;
}
