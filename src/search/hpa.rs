//! HPA* (Botea, Müller & Schaeffer 2004): near-optimal paths on large maps
//! from a small abstract graph built once per grid.
//!
//! The map is cut into square clusters (16 cells a side by default).
//! Where two neighbouring clusters share a run of border cells open on
//! both sides, the run gets one *transition* in its middle, or two, at its
//! ends, when it is 6 cells or longer (Botea's rule); the two cells of a
//! transition are *entrances*, the nodes of the abstract graph. Edges join
//! the two cells of a transition (one step) and every two entrances of a
//! cluster that are connected inside it, at the cost of the cheapest route
//! inside it (cached: one Dijkstra search per entrance, kept in the
//! cluster).
//!
//! A query links start and goal to the entrances of their clusters (searches
//! inside those clusters), runs A* on the abstract graph, refines each
//! abstract edge into cells (a search inside one cluster, or one step), and
//! smooths the cell path: from each cell, straight 8-neighbour (or
//! 4-neighbour) runs that meet the path further on replace the stretch
//! between when they cost less (Botea's post-processing). Start and goal in
//! one cluster or touching ones also try the route inside those, and the
//! cheaper wins.
//!
//! Every transition run is represented, so the abstract graph connects
//! whatever the grid connects (a diagonal step between clusters needs both
//! straight steps beside it open, which are a transition), and HPA* finds a
//! path whenever one exists. It is not optimal: routes must cross cluster
//! borders at transitions. A door that opens or closes rebuilds the
//! transitions on the borders of its cluster (and of the clusters whose
//! border it lies on) and the cached routes of those clusters and their
//! neighbours; the rest of the graph is kept.

use super::engine::{Outcome, Query, SearchStats, Searcher};
use super::grid_cache::{Derived, GridCache};
use super::grid_graph::{GridGraph, Split};
use super::planner::Order;
use super::settings::SearchSettings;
use super::{Graph, NodeId, PlanError, TieBreak};
use crate::grid::{Cell, DIAGONAL, DIRECTIONS, Grid, Neighbors};
use std::time::Instant;

/// Default side of a cluster, in cells.
pub const DEFAULT_CLUSTER_SIZE: usize = 16;

/// Runs of open border at least this long get two transitions, one at
/// each end; shorter ones one, in the middle.
const LONG_RUN: usize = 6;

/// What an abstraction is built for: the moves and the cluster side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    pub neighbors: Neighbors,
    pub cluster: usize,
}

impl Default for Shape {
    fn default() -> Self {
        Shape { neighbors: Neighbors::Eight, cluster: DEFAULT_CLUSTER_SIZE }
    }
}

/// A rectangle of padded coordinates, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

/// A grid's abstract graph for HPA*.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Abstraction {
    shape: Shape,
    /// Padded width (stride) and in-map size.
    stride: usize,
    width: usize,
    height: usize,
    /// Clusters across and down.
    across: usize,
    down: usize,
    /// Transitions (cell in the cluster, cell in its neighbour), padded
    /// indices, on each cluster's east and south borders.
    borders: Vec<[Vec<(usize, usize)>; 2]>,
    /// Each cluster's entrances and the cheapest routes inside it between
    /// them: (from, to, cost).
    routes: Vec<Vec<(usize, usize, f64)>>,
    /// Entrance cells by cluster, sorted.
    entrances: Vec<Vec<usize>>,
    /// Abstract node of each padded index (`u32::MAX`: none), its cell, and
    /// its edges.
    node_of: Vec<u32>,
    cells: Vec<usize>,
    edges: Vec<Vec<(u32, f64)>>,
}

/// A grid graph cut to one rectangle.
struct Within<'a> {
    cells: GridGraph<'a>,
    split: Split,
    rect: Rect,
}

impl Graph for Within<'_> {
    fn node_count(&self) -> usize {
        self.cells.node_count()
    }

    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let r = self.rect;
        self.cells.successors(
            node,
            #[inline(always)]
            |v, c| {
                let (x, y) = self.split.xy(v as usize);
                if (r.x0..=r.x1).contains(&x) && (r.y0..=r.y1).contains(&y) {
                    visit(v, c);
                }
            },
        );
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        self.cells.heuristic(node)
    }

    fn tie_key(&self, node: NodeId, h: f64, tie: TieBreak) -> u32 {
        self.cells.tie_key(node, h, tie)
    }
}

impl Abstraction {
    fn cluster_of(&self, i: usize) -> usize {
        let (x, y) = (i % self.stride - 1, i / self.stride - 1);
        (y / self.shape.cluster) * self.across + x / self.shape.cluster
    }

    fn rect(&self, c: usize) -> Rect {
        let s = self.shape.cluster;
        let (cx, cy) = (c % self.across, c / self.across);
        Rect { x0: cx * s + 1, y0: cy * s + 1, x1: ((cx + 1) * s).min(self.width), y1: ((cy + 1) * s).min(self.height) }
    }

    /// The transitions on cluster `c`'s east (`side` 0) or south (1) border.
    fn transitions(&self, grid: &Grid, c: usize, side: usize) -> Vec<(usize, usize)> {
        let r = self.rect(c);
        let costs = grid.costs();
        let (step, cells): (usize, Vec<usize>) = if side == 0 {
            if r.x1 >= self.width {
                return Vec::new();
            }
            (1, (r.y0..=r.y1).map(|y| y * self.stride + r.x1).collect())
        } else {
            if r.y1 >= self.height {
                return Vec::new();
            }
            (self.stride, (r.x0..=r.x1).map(|x| r.y1 * self.stride + x).collect())
        };
        let open = |i: usize| costs[i] != 0 && costs[i + step] != 0;
        let mut out = Vec::new();
        let mut k = 0;
        while k < cells.len() {
            if !open(cells[k]) {
                k += 1;
                continue;
            }
            let first = k;
            while k < cells.len() && open(cells[k]) {
                k += 1;
            }
            let run = &cells[first..k];
            if run.len() >= LONG_RUN {
                out.extend([run[0], run[run.len() - 1]].map(|i| (i, i + step)));
            } else {
                let i = run[(run.len() - 1) / 2];
                out.push((i, i + step));
            }
        }
        out
    }

    /// Cluster `c`'s entrances, from the borders it shares.
    fn entrances_of(&self, c: usize) -> Vec<usize> {
        let (cx, cy) = (c % self.across, c / self.across);
        let mut e: Vec<usize> = self.borders[c].iter().flatten().map(|&(a, _)| a).collect();
        if cx > 0 {
            e.extend(self.borders[c - 1][0].iter().map(|&(_, b)| b));
        }
        if cy > 0 {
            e.extend(self.borders[c - self.across][1].iter().map(|&(_, b)| b));
        }
        e.sort_unstable();
        e.dedup();
        e
    }

    /// The cheapest routes inside cluster `c` between its entrances.
    fn routes_of(&self, grid: &Grid, c: usize, searcher: &mut Searcher) -> Vec<(usize, usize, f64)> {
        let rect = self.rect(c);
        let entrances = &self.entrances[c];
        let mut out = Vec::new();
        for &from in entrances {
            let graph = inside(grid, self.shape.neighbors, rect, from, from);
            // Dijkstra toward an unreachable goal (the border wall at index
            // 0) settles the whole cluster.
            let query = Query { order: Order::Dijkstra, ..Query::default() };
            searcher.search(&graph, from as NodeId, 0, &query);
            for &to in entrances {
                if to != from
                    && let Some(cost) = searcher.settled_cost(to as NodeId)
                {
                    out.push((from, to, cost));
                }
            }
        }
        out
    }

    /// Numbers the entrances and joins them with the transitions and the
    /// cached routes.
    fn assemble(&mut self, grid: &Grid) {
        for &i in &self.cells {
            self.node_of[i] = u32::MAX;
        }
        let mut cells: Vec<usize> = self.entrances.iter().flatten().copied().collect();
        cells.sort_unstable();
        cells.dedup();
        for (n, &i) in cells.iter().enumerate() {
            self.node_of[i] = n as u32;
        }
        let mut edges = vec![Vec::new(); cells.len()];
        for sides in &self.borders {
            for &(a, b) in sides.iter().flatten() {
                let (na, nb) = (self.node_of[a], self.node_of[b]);
                edges[na as usize].push((nb, f64::from(grid.costs()[b])));
                edges[nb as usize].push((na, f64::from(grid.costs()[a])));
            }
        }
        for routes in &self.routes {
            for &(a, b, cost) in routes {
                edges[self.node_of[a] as usize].push((self.node_of[b], cost));
            }
        }
        self.cells = cells;
        self.edges = edges;
    }

    /// The clusters whose transitions or routes a change at padded index
    /// `i` can alter: its own, and the ones across a border it lies on.
    fn touched(&self, i: usize) -> Vec<usize> {
        let s = self.shape.cluster;
        let (x, y) = (i % self.stride - 1, i / self.stride - 1);
        let (cx, cy) = (x / s, y / s);
        let mut out = vec![cy * self.across + cx];
        if x % s == 0 && cx > 0 {
            out.push(cy * self.across + cx - 1);
        }
        if (x % s == s - 1) && cx + 1 < self.across {
            out.push(cy * self.across + cx + 1);
        }
        if y % s == 0 && cy > 0 {
            out.push((cy - 1) * self.across + cx);
        }
        if (y % s == s - 1) && cy + 1 < self.down {
            out.push((cy + 1) * self.across + cx);
        }
        out
    }
}

/// A grid graph for a search inside `rect` toward `goal`.
fn inside(grid: &Grid, neighbors: Neighbors, rect: Rect, from: usize, goal: usize) -> Within<'_> {
    let stride = grid.stride();
    let cell = |i: usize| Cell::new((i % stride) as i32 - 1, (i / stride) as i32 - 1);
    let heuristic = if neighbors == Neighbors::Eight { super::Heuristic::Octile } else { super::Heuristic::Manhattan };
    Within {
        cells: GridGraph::new(grid, neighbors, heuristic, cell(from), cell(goal)),
        split: Split::new(stride),
        rect,
    }
}

impl Derived for Abstraction {
    type Config = Shape;

    fn build(grid: &Grid, shape: Shape) -> Abstraction {
        let s = shape.cluster;
        let (width, height) = (grid.width(), grid.height());
        let (across, down) = (width.div_ceil(s), height.div_ceil(s));
        let mut a = Abstraction {
            shape,
            stride: grid.stride(),
            width,
            height,
            across,
            down,
            borders: vec![[Vec::new(), Vec::new()]; across * down],
            routes: vec![Vec::new(); across * down],
            entrances: vec![Vec::new(); across * down],
            node_of: vec![u32::MAX; grid.node_count()],
            ..Abstraction::default()
        };
        for c in 0..across * down {
            a.borders[c] = [a.transitions(grid, c, 0), a.transitions(grid, c, 1)];
        }
        let mut searcher = Searcher::new();
        for c in 0..across * down {
            a.entrances[c] = a.entrances_of(c);
        }
        for c in 0..across * down {
            a.routes[c] = a.routes_of(grid, c, &mut searcher);
        }
        a.assemble(grid);
        a
    }

    fn repair(&mut self, grid: &Grid, changed: &[usize]) {
        let mut touched: Vec<usize> = changed.iter().flat_map(|&i| self.touched(i)).collect();
        touched.sort_unstable();
        touched.dedup();
        // Borders: each touched cluster's own, and the ones its west and
        // north neighbours share with it.
        for &c in &touched {
            self.borders[c] = [self.transitions(grid, c, 0), self.transitions(grid, c, 1)];
            if c % self.across > 0 {
                self.borders[c - 1][0] = self.transitions(grid, c - 1, 0);
            }
            if c >= self.across {
                self.borders[c - self.across][1] = self.transitions(grid, c - self.across, 1);
            }
        }
        // Routes: the touched clusters and their neighbours, whose
        // entrances on a shared border may have moved.
        let mut redo = Vec::new();
        for &c in &touched {
            redo.push(c);
            let (cx, cy) = (c % self.across, c / self.across);
            if cx > 0 {
                redo.push(c - 1);
            }
            if cx + 1 < self.across {
                redo.push(c + 1);
            }
            if cy > 0 {
                redo.push(c - self.across);
            }
            if cy + 1 < self.down {
                redo.push(c + self.across);
            }
        }
        redo.sort_unstable();
        redo.dedup();
        let mut searcher = Searcher::new();
        for &c in &redo {
            self.entrances[c] = self.entrances_of(c);
        }
        for &c in &redo {
            self.routes[c] = self.routes_of(grid, c, &mut searcher);
        }
        self.assemble(grid);
    }
}

/// The abstract graph of one query: the entrances, plus the start and the
/// goal when they are not entrances themselves, linked to their clusters.
struct Linked<'a> {
    abs: &'a Abstraction,
    /// Node ids of start and goal (`abs.cells.len()` and one more when they
    /// are not entrances).
    start: u32,
    goal: u32,
    start_links: &'a [(u32, f64)],
    /// Cost from each entrance to the goal (infinite: no link).
    goal_links: &'a [f64],
    cells: [usize; 2],
    settings: &'a SearchSettings,
    goal_cell: (usize, usize),
    split: Split,
    scale: f64,
}

impl Linked<'_> {
    fn cell(&self, n: u32) -> usize {
        match n as usize {
            k if k < self.abs.cells.len() => self.abs.cells[k],
            k => self.cells[k - self.abs.cells.len()],
        }
    }
}

impl Graph for Linked<'_> {
    fn node_count(&self) -> usize {
        self.abs.cells.len() + 2
    }

    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        if node == self.start && node as usize >= self.abs.cells.len() {
            for &(n, c) in self.start_links {
                visit(n, c);
            }
            return;
        }
        if node as usize >= self.abs.cells.len() {
            return;
        }
        for &(n, c) in &self.abs.edges[node as usize] {
            visit(n, c);
        }
        let to_goal = self.goal_links[node as usize];
        if to_goal.is_finite() {
            visit(self.goal, to_goal);
        }
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        let (x, y) = self.split.xy(self.cell(node));
        let dx = x.abs_diff(self.goal_cell.0) as f64;
        let dy = y.abs_diff(self.goal_cell.1) as f64;
        self.settings.heuristic.distance(dx, dy) * self.scale
    }
}

/// HPA* queries on cells, with the abstraction of the last grid (built
/// for it, repaired where cells changed, rebuilt for another grid) and
/// reusable buffers. [`GridPlanner`](super::GridPlanner) runs it for
/// [`Planner::HPA`](super::Planner::HPA); it serves on its own too.
#[derive(Debug, Default)]
pub struct HpaPlanner {
    cache: GridCache<Abstraction>,
    /// Searches inside clusters, and the abstract search.
    local: Searcher,
    global: Searcher,
    goal_links: Vec<f64>,
    /// Scratch for smoothing: path positions by padded index.
    at: Vec<u32>,
    cluster: Option<usize>,
    /// The last query's path, padded indices and cells.
    nodes: Vec<usize>,
    cells: Vec<Cell>,
}

/// Cost of walking `path` (padded indices) step by step.
fn path_cost(grid: &Grid, path: &[usize]) -> f64 {
    let c = |i: usize| grid.cell_of(i as u32);
    // A fold from +0.0: an empty `sum` of floats is -0.0.
    path.windows(2).fold(0.0, |total, w| {
        let (a, b) = (c(w[0]), c(w[1]));
        total + grid.step_cost(a, b.x - a.x, b.y - a.y).expect("a legal step")
    })
}

impl HpaPlanner {
    /// A planner with clusters of [`DEFAULT_CLUSTER_SIZE`] cells a side.
    pub fn new() -> HpaPlanner {
        HpaPlanner::default()
    }

    /// The side of the clusters, in cells (at least 2). Changing it
    /// rebuilds the abstraction at the next query.
    pub fn set_cluster_size(&mut self, cells: usize) {
        self.cluster = Some(cells.max(2));
    }

    /// Microseconds of the last build or repair of the abstraction.
    pub fn preprocess_micros(&self) -> f64 {
        self.cache.micros()
    }

    /// One query from `from` to `to` on `grid`, with the heuristic, ties,
    /// open-list update and neighbours of `settings` (its planner is
    /// HPA*'s own: A* over the entrances). The path is
    /// [`HpaPlanner::path`]. Refused when an end is off the map or blocked.
    pub fn plan(&mut self, grid: &Grid, from: Cell, to: Cell, settings: &SearchSettings) -> Result<Outcome, PlanError> {
        self.cells.clear();
        PlanError::check(grid, from, to)?;
        let mut nodes = std::mem::take(&mut self.nodes);
        let outcome = self.plan_nodes(grid, grid.node(from) as usize, grid.node(to) as usize, settings, &mut nodes);
        self.cells.extend(nodes.iter().map(|&n| grid.cell_of(n as u32)));
        self.nodes = nodes;
        Ok(outcome)
    }

    /// The last query's path, start and goal included (empty if none).
    pub fn path(&self) -> &[Cell] {
        &self.cells
    }

    /// One query from `start` to `goal` (padded indices of walkable
    /// cells); the cell path goes to `out` (left empty when none).
    pub(crate) fn plan_nodes(
        &mut self,
        grid: &Grid,
        start: usize,
        goal: usize,
        settings: &SearchSettings,
        out: &mut Vec<usize>,
    ) -> Outcome {
        let began = Instant::now();
        out.clear();
        let shape = Shape { neighbors: settings.neighbors, cluster: self.cluster.unwrap_or(DEFAULT_CLUSTER_SIZE) };
        let abs = self.cache.get(grid, shape);
        let mut stats = SearchStats::default();
        let mut add = |s: &SearchStats| {
            stats.expanded += s.expanded;
            stats.pushed += s.pushed;
            stats.stale_pops += s.stale_pops;
            stats.max_open = stats.max_open.max(s.max_open);
        };
        let local_query = Query { tie: settings.tie, open: settings.open, ..Query::default() };
        if start == goal {
            // Nothing to link or refine: the search that pops the start.
            let graph = inside(grid, shape.neighbors, abs.rect(abs.cluster_of(start)), start, goal);
            let o = self.local.search(&graph, start as NodeId, goal as NodeId, &local_query);
            out.push(start);
            return o;
        }
        let (cs, cg) = (abs.cluster_of(start), abs.cluster_of(goal));
        // Start and goal in one cluster or in touching ones: the route
        // inside those clusters is a candidate. (Short routes suffer most
        // from crossing borders at transitions.)
        let mut best: Option<(f64, Vec<usize>)> = None;
        let (rs, rg) = (abs.rect(cs), abs.rect(cg));
        if (cs % abs.across).abs_diff(cg % abs.across) <= 1 && (cs / abs.across).abs_diff(cg / abs.across) <= 1 {
            let both = Rect { x0: rs.x0.min(rg.x0), y0: rs.y0.min(rg.y0), x1: rs.x1.max(rg.x1), y1: rs.y1.max(rg.y1) };
            let graph = inside(grid, shape.neighbors, both, start, goal);
            let o = self.local.search(&graph, start as NodeId, goal as NodeId, &local_query);
            add(&o.stats);
            if let Some(cost) = o.cost {
                best = Some((cost, self.local.path().iter().map(|&n| n as usize).collect()));
            }
        }
        // Link the start to its cluster's entrances, the entrances of the
        // goal's cluster to the goal.
        let n = abs.cells.len() as u32;
        let entrance = |i: usize| (abs.node_of[i] != u32::MAX).then_some(abs.node_of[i]);
        let (start_node, goal_node) = (entrance(start).unwrap_or(n), entrance(goal).unwrap_or(n + 1));
        let mut start_links = Vec::new();
        if start_node == n {
            let graph = inside(grid, shape.neighbors, abs.rect(cs), start, start);
            let q = Query { order: Order::Dijkstra, ..local_query };
            let o = self.local.search(&graph, start as NodeId, 0, &q);
            add(&o.stats);
            for &e in &abs.entrances[cs] {
                if let Some(c) = self.local.settled_cost(e as NodeId) {
                    start_links.push((abs.node_of[e], c));
                }
            }
        }
        self.goal_links.clear();
        self.goal_links.resize(abs.cells.len(), f64::INFINITY);
        if goal_node == n + 1 {
            if grid.uniform_cost().is_some() {
                // Moves cost the same both ways: one Dijkstra from the goal
                // gives every entrance's cost to it.
                let graph = inside(grid, shape.neighbors, abs.rect(cg), goal, goal);
                let q = Query { order: Order::Dijkstra, ..local_query };
                add(&self.local.search(&graph, goal as NodeId, 0, &q).stats);
                for &e in &abs.entrances[cg] {
                    if let Some(c) = self.local.settled_cost(e as NodeId) {
                        self.goal_links[abs.node_of[e] as usize] = c;
                    }
                }
            } else {
                for &e in &abs.entrances[cg] {
                    let graph = inside(grid, shape.neighbors, abs.rect(cg), e, goal);
                    let o = self.local.search(&graph, e as NodeId, goal as NodeId, &local_query);
                    add(&o.stats);
                    if let Some(cost) = o.cost {
                        self.goal_links[abs.node_of[e] as usize] = cost;
                    }
                }
            }
        }
        let linked = Linked {
            abs,
            start: start_node,
            goal: goal_node,
            start_links: &start_links,
            goal_links: &self.goal_links,
            cells: [start, goal],
            settings,
            goal_cell: (goal % grid.stride(), goal / grid.stride()),
            split: Split::new(grid.stride()),
            scale: f64::from(grid.min_entry_cost()),
        };
        let o = if start_node == goal_node {
            None
        } else {
            let o = self.global.search(&linked, start_node, goal_node, &local_query);
            add(&o.stats);
            o.cost
        };
        if let Some(abstract_cost) = o
            && best.as_ref().is_none_or(|(c, _)| abstract_cost < *c)
        {
            // Refine each abstract edge: one step across a border, or a
            // search inside the cluster both ends share.
            let nodes: Vec<usize> = self.global.path().iter().map(|&n| linked.cell(n)).collect();
            let mut cells = vec![nodes[0]];
            for pair in nodes.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                let (ca, cb) = (abs.cluster_of(a), abs.cluster_of(b));
                if ca != cb {
                    cells.push(b);
                    continue;
                }
                let graph = inside(grid, shape.neighbors, abs.rect(ca), a, b);
                let r = self.local.search(&graph, a as NodeId, b as NodeId, &local_query);
                add(&r.stats);
                debug_assert!(r.found, "a cached route exists");
                cells.extend(self.local.path()[1..].iter().map(|&n| n as usize));
            }
            best = Some((abstract_cost, cells));
        }
        stats.micros = began.elapsed().as_secs_f64() * 1e6;
        let Some((_, cells)) = best else {
            return Outcome { found: false, cost: None, stats };
        };
        smooth(grid, shape.neighbors, 4 * shape.cluster, &cells, &mut self.at, out);
        let cost = path_cost(grid, out);
        stats.micros = began.elapsed().as_secs_f64() * 1e6;
        Outcome { found: true, cost: Some(cost), stats }
    }
}

/// Botea's post-processing: from each cell of `path`, straight runs in
/// each direction (as far as they stay legal, up to `reach` cells) that
/// meet the path further on replace the stretch between when they cost
/// less. Writes the result to `out`; `at` is scratch space, one slot per
/// padded index.
fn smooth(grid: &Grid, neighbors: Neighbors, reach: usize, path: &[usize], at: &mut Vec<u32>, out: &mut Vec<usize>) {
    out.clear();
    let Some(&first) = path.first() else { return };
    let costs = grid.costs();
    at.resize(costs.len(), u32::MAX);
    // Position of each cell on the path (the last, should one repeat) and
    // the cost of the path up to it.
    for (k, &i) in path.iter().enumerate() {
        at[i] = k as u32;
    }
    let mut prefix = vec![0.0; path.len()];
    for k in 1..path.len() {
        prefix[k] = prefix[k - 1] + path_cost(grid, &path[k - 1..=k]);
    }
    let stride = grid.stride() as isize;
    let moves: Vec<(isize, isize)> =
        DIRECTIONS[..neighbors.count()].iter().map(|&(dx, dy)| (dx as isize, dy as isize)).collect();
    out.push(first);
    let mut k = 0;
    while k + 1 < path.len() {
        // The straight run from cell k reaching farthest along the path
        // for less than the path pays: (path index, step, run length).
        let mut best = (k + 1, 0, 0);
        for &(dx, dy) in &moves {
            let step = dx + dy * stride;
            let factor = if dx != 0 && dy != 0 { DIAGONAL } else { 1.0 };
            let (mut i, mut cost) = (path[k], 0.0);
            for len in 1..=reach {
                let next = i.wrapping_add_signed(step);
                let legal = costs[next] != 0
                    && (factor == 1.0
                        || (costs[i.wrapping_add_signed(dx)] != 0 && costs[i.wrapping_add_signed(dy * stride)] != 0));
                if !legal {
                    break;
                }
                i = next;
                cost += f64::from(costs[i]) * factor;
                let j = at[i] as usize;
                if j != u32::MAX as usize && j > best.0 && cost < prefix[j] - prefix[k] {
                    best = (j, step, len);
                }
            }
        }
        let (j, step, len) = best;
        if len == 0 {
            out.push(path[k + 1]);
        } else {
            out.extend((1..=len).map(|n| path[k].wrapping_add_signed(step * n as isize)));
        }
        k = j;
    }
    for &i in path {
        at[i] = u32::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::super::jps::test_grid as grid;
    use super::*;
    use crate::grid::Tile;

    const SHAPE: Shape = Shape { neighbors: Neighbors::Eight, cluster: 4 };

    #[test]
    fn short_runs_get_one_transition_long_ones_two() {
        // Clusters of 4: the border between x = 3 and x = 4 is open on
        // rows 0-1 (a run of 2: one transition, row 0 of its middle pair)
        // and row 3 (a run of 1); (3, 2) is a wall.
        let g = grid(&["........", "........", "...#....", "........", "........"]);
        let a = Abstraction::build(&g, SHAPE);
        let pair = |y| (g.node(Cell::new(3, y)) as usize, g.node(Cell::new(4, y)) as usize);
        assert_eq!(a.borders[0][0], vec![pair(0), pair(3)]);
        let wide = grid(&[&".".repeat(16), &".".repeat(16)]);
        let a = Abstraction::build(&wide, Shape { neighbors: Neighbors::Eight, cluster: 8 });
        assert_eq!(a.borders[0][0].len(), 1, "a run of 2 rows");
        let tall: Vec<String> = (0..16).map(|_| ".".repeat(16)).collect();
        let tall: Vec<&str> = tall.iter().map(String::as_str).collect();
        let a = Abstraction::build(&grid(&tall), Shape { neighbors: Neighbors::Eight, cluster: 8 });
        assert_eq!(a.borders[0][0].len(), 2, "a run of 8 rows: both ends");
    }

    #[test]
    fn repairs_equal_a_fresh_build() {
        let mut g = grid(&["...#......", "...#..#...", "......#...", "###.......", "....##....", ".........."]);
        let mut a = Abstraction::build(&g, SHAPE);
        for (x, y) in [(3, 1), (3, 0), (7, 3), (4, 4), (0, 3), (9, 5), (3, 1)] {
            let c = Cell::new(x, y);
            let tile = if g.is_walkable(c) { Tile::DoorClosed } else { Tile::DoorOpen };
            g.set_tile(c, tile);
            a.repair(&g, &[g.node(c) as usize]);
            assert_eq!(a, Abstraction::build(&g, SHAPE), "after toggling {c}");
        }
    }
}
