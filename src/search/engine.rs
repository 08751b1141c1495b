//! The best-first engine: one loop for BFS, Dijkstra, A*, greedy and
//! weighted A*, with lazy deletion (or, on request, decrease-key), optional
//! reopening and exact counters.
//!
//! Buffers are sized to the graph once and reused: each node's record
//! carries the stamp of the query that last wrote it, so starting a query is
//! O(1) instead of clearing arrays, and repeated queries allocate nothing.

use super::open::OpenList;
use super::planner::Order;
use super::settings::{OpenUpdate, TieBreak};
use super::trace::Observer;
use super::{Graph, NodeId};
use std::time::Instant;

/// What one query asks of the engine, beyond its graph and endpoints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Query {
    /// What the open list orders by: the member of the best-first family
    /// that runs, whatever graph (expansion policy) it runs over.
    pub order: Order,
    /// Order among open entries of equal f.
    pub tie: TieBreak,
    /// w of weighted A*; ignored by the other orderings.
    pub weight: f64,
    /// Put closed nodes back on the open list when a cheaper route reaches
    /// them (needed for optimal answers under an inconsistent heuristic).
    pub reopen: bool,
    /// How the open list takes a cheaper route to a node it holds.
    pub open: OpenUpdate,
}

impl Default for Query {
    fn default() -> Self {
        Query { order: Order::AStar, tie: TieBreak::Fifo, weight: 1.0, reopen: false, open: OpenUpdate::Lazy }
    }
}

/// Counters of one query.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchStats {
    /// Nodes popped and closed, the goal excluded.
    pub expanded: u64,
    /// Entries pushed on the open list, the start included; under
    /// decrease-key, entries lowered in place count too, so that both
    /// open-list updates report one per improvement of g.
    pub pushed: u64,
    /// Popped entries skipped because their node had a newer entry
    /// (always 0 under decrease-key, which keeps one entry per node).
    pub stale_pops: u64,
    /// Largest number of distinct open nodes at any time.
    pub max_open: u64,
    /// Closed nodes put back on the open list (only with reopening).
    pub reopened: u64,
    /// Relaxed edges u→v (edges offering v a cheaper route) where the
    /// heuristic term of f is inconsistent: h(u) > cost(u, v) + h(v). For
    /// weighted A* that term is w·h. Greedy, BFS and Dijkstra do not add h
    /// to g, so they count none.
    pub violations: u64,
    /// Wall-clock time of the query in microseconds (statistics only).
    pub micros: f64,
    /// Cells a jump point search looked at while jumping (0 for the
    /// others, which look at each cell they generate).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scanned: u64,
    /// Nodes whose value an incremental repair changed or re-examined
    /// (D* Lite, the flow field); 0 for a fresh search, whose work is all
    /// in `expanded`. Work = `expanded` + `cells_updated`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cells_updated: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The answer to one query. The path itself is [`Searcher::path`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Whether the goal was reached.
    pub found: bool,
    /// Sum of the edge costs along the path: `Some(0.0)` when start and
    /// goal are one node, `None` when no path was found.
    pub cost: Option<f64>,
    /// What the query did, counted.
    pub stats: SearchStats,
}

/// Where a node stands after the last query, for the search overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// Generated and still waiting on the open list.
    Open,
    /// Expanded.
    Closed,
}

/// Relative slack of the consistency check, so that rounding in a
/// heuristic (euclidean distance, a weight w) is not reported as a
/// violation.
const CONSISTENCY_SLACK: f64 = 1e-9;

/// Per-node bookkeeping, one flat array per field so that the check made
/// for every neighbour (seen this query? closed?) reads 4 bytes per node:
/// the marks of a 512×512 map fit in a core's cache, while g and parent
/// are read only for nodes already seen.
#[derive(Debug, Default)]
struct Records {
    /// The query that last wrote the node, shifted left by one, with the
    /// closed flag in the low bit; any other stamp means "unseen".
    mark: Vec<u32>,
    /// Cost of the best known route from the start (step count for BFS).
    g: Vec<f64>,
    parent: Vec<NodeId>,
}

impl Records {
    fn grow(&mut self, n: usize) {
        if self.mark.len() < n {
            self.mark.resize(n, 0);
            self.g.resize(n, 0.0);
            self.parent.resize(n, 0);
        }
    }

    /// The records of the first `n` nodes, for one query on a graph of `n`.
    fn first(&mut self, n: usize) -> Slots<'_> {
        Slots { mark: &mut self.mark[..n], g: &mut self.g[..n], parent: &mut self.parent[..n] }
    }
}

/// [`Records`] cut to one graph's size: three slices of one length, so once
/// a node id passed the bounds check of one, the compiler drops the checks
/// of the others (a tenth of the search's instructions otherwise).
struct Slots<'a> {
    mark: &'a mut [u32],
    g: &'a mut [f64],
    parent: &'a mut [NodeId],
}

impl Slots<'_> {
    #[inline(always)]
    fn set(&mut self, node: NodeId, g: f64, parent: NodeId, mark: u32) {
        let i = node as usize;
        self.mark[i] = mark;
        self.g[i] = g;
        self.parent[i] = parent;
    }
}

/// Largest stamp before the records are wiped (the stamp has 31 bits).
const MAX_STAMP: u32 = u32::MAX >> 1;

/// A reusable search engine for graphs of up to a given size.
#[derive(Debug, Default)]
pub struct Searcher {
    records: Records,
    open: OpenList,
    stamp: u32,
    path: Vec<NodeId>,
}

impl Searcher {
    /// An engine with empty buffers; the first query sizes them.
    pub fn new() -> Searcher {
        Searcher::default()
    }

    /// The last query's path from start to goal (empty when none was found).
    pub fn path(&self) -> &[NodeId] {
        &self.path
    }

    /// Every node the last query generated, in node id order, with whether
    /// it ended closed or still open: the nodes whose mark carries that
    /// query's stamp. A scan of the marks (a millisecond or two on the
    /// largest maps) rather than a list kept during the search, which then
    /// pays nothing for it.
    pub fn visited(&self) -> Vec<(NodeId, Visit)> {
        let open_mark = self.stamp << 1;
        let visit = |mark: u32| match mark {
            _ if mark == open_mark => Some(Visit::Open),
            _ if mark == open_mark | 1 => Some(Visit::Closed),
            _ => None,
        };
        let marks = self.records.mark.iter().enumerate();
        marks.filter_map(|(n, &mark)| Some((n as NodeId, visit(mark)?))).collect()
    }

    /// The cost of the cheapest route to `node` if the last query closed
    /// it (Dijkstra toward an unreachable goal settles every reachable
    /// node).
    pub fn settled_cost(&self, node: NodeId) -> Option<f64> {
        let i = node as usize;
        (self.records.mark.get(i) == Some(&((self.stamp << 1) | 1))).then(|| self.records.g[i])
    }

    /// Runs one query from `start` to `goal`.
    ///
    /// # Panics
    /// When `start` or `goal` is not below `graph.node_count()`; callers
    /// validate user input before this point.
    pub fn search<G: Graph>(&mut self, graph: &G, start: NodeId, goal: NodeId, query: &Query) -> Outcome {
        self.search_observed(graph, start, goal, query, &mut ())
    }

    /// [`Searcher::search`], telling `observer` every route found, every
    /// node closed and the counters after every expansion. The observer is
    /// a type parameter so that `()`, the observer of [`Searcher::search`],
    /// compiles to the loop without any of it: stepping costs the engine
    /// nothing when nobody steps.
    ///
    /// # Panics
    /// As [`Searcher::search`].
    pub fn search_observed<G: Graph, O: Observer>(
        &mut self,
        graph: &G,
        start: NodeId,
        goal: NodeId,
        query: &Query,
        observer: &mut O,
    ) -> Outcome {
        let began = Instant::now();
        let n = graph.node_count();
        assert!((start as usize) < n && (goal as usize) < n, "endpoint outside the graph");
        let mut outcome = match query.open {
            OpenUpdate::Lazy => self.run::<G, O, false>(graph, start, goal, query, observer),
            OpenUpdate::DecreaseKey => self.run::<G, O, true>(graph, start, goal, query, observer),
        };
        outcome.stats.micros = began.elapsed().as_secs_f64() * 1e6;
        outcome
    }

    fn begin<const DECREASE: bool>(&mut self, n: usize) {
        self.records.grow(n);
        self.stamp += 1;
        if self.stamp > MAX_STAMP {
            // The stamp ran out: forget every record once so old stamps
            // cannot be mistaken for this query's.
            self.records.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.open.clear::<DECREASE>(n);
        self.path.clear();
    }

    /// One query; `DECREASE` lowers an open node's entry in place instead
    /// of pushing a new one. A constant, so that each way compiles to its
    /// own loop and the lazy one carries no trace of the other. Never
    /// inlined: with both loops in one function the lazy one ran 3% more
    /// instructions, its registers spilled for the other's sake.
    #[inline(never)]
    fn run<G: Graph, O: Observer, const DECREASE: bool>(
        &mut self,
        graph: &G,
        start: NodeId,
        goal: NodeId,
        query: &Query,
        observer: &mut O,
    ) -> Outcome {
        let n = graph.node_count();
        self.begin::<DECREASE>(n);
        let order = query.order;
        let greedy = order == Order::Greedy;
        let bfs = order == Order::Bfs;
        // Coefficient of h in f; greedy orders by h alone.
        let hw = match order {
            Order::Bfs | Order::Dijkstra => 0.0,
            Order::AStar | Order::Greedy => 1.0,
            Order::Weighted => query.weight,
        };
        let gw = if greedy { 0.0 } else { 1.0 };
        let tie = query.tie;
        let need_h = hw > 0.0 || tie == TieBreak::LowH;
        let count_violations = hw > 0.0 && !greedy;
        let h = |node: NodeId| if need_h { graph.heuristic(node) } else { 0.0 };
        let f_of = |g: f64, h: f64| gw * g + hw * h;

        let stamp = self.stamp;
        let open_mark = stamp << 1;
        let mut stats = SearchStats::default();
        let mut open_nodes: u64 = 1;

        let mut records = self.records.first(n);
        records.set(start, 0.0, start, open_mark);
        let h0 = h(start);
        observer.reached(start, start, 0.0, h0, f_of(0.0, h0));
        self.open.push::<DECREASE>(f_of(0.0, h0), graph.tie_key(start, h0, tie), start);
        stats.pushed = 1;
        stats.max_open = 1;

        let mut found = false;
        while let Some((f, u)) = self.open.pop::<DECREASE>() {
            // Stale: a cheaper route gave the node a newer entry. Each new
            // entry of a node has a smaller g than all its older ones, so a
            // smaller f (greedy, which orders by h alone, never gives a node
            // a second entry): the newest entry pops first and closes the
            // node. An entry popped for a closed node is therefore an old
            // one, and the node's mark is all the test needs. (A reopened
            // node is open again only until its new, smaller entry pops.
            // Only if two g values of a node were so close that their f
            // rounded to one float would the older entry, inserted first,
            // pop first and do the newer one's expansion.) Decrease-key
            // leaves no old entries, so finds none.
            if records.mark[u as usize] == open_mark | 1 {
                stats.stale_pops += 1;
                continue;
            }
            debug_assert_eq!(f_of(records.g[u as usize], h(u)), f, "an entry's f matches its node");
            open_nodes -= 1;
            records.mark[u as usize] = open_mark | 1;
            observer.closed(u);
            if u == goal {
                observer.step(&stats);
                found = true;
                break;
            }
            stats.expanded += 1;
            let gu = records.g[u as usize];
            let hu = if count_violations { h(u) } else { 0.0 };
            let open = &mut self.open;
            let parent = records.parent[u as usize];
            // Inlined into the graph's successor loop: it runs for every
            // edge, and a call per edge would reload all its captures.
            graph.successors_from(
                u,
                parent,
                #[inline(always)]
                |v, cost| {
                    debug_assert!(cost > 0.0 && cost.is_finite(), "edge {u}->{v} has cost {cost}");
                    let g = gu + if bfs { 1.0 } else { cost };
                    let mark = records.mark[v as usize];
                    let fresh = mark >> 1 != stamp;
                    if !fresh && (greedy || g >= records.g[v as usize]) {
                        return;
                    }
                    // The edge improves v: a relaxation happens (or would, but
                    // for a closed node without reopening).
                    let hv = h(v);
                    debug_assert!(hv >= 0.0, "negative heuristic {hv} at node {v}");
                    if count_violations && hw * (hu - hv) > cost * (1.0 + CONSISTENCY_SLACK) {
                        stats.violations += 1;
                    }
                    let on_list = !fresh && mark & 1 == 0;
                    if fresh {
                        open_nodes += 1;
                    } else if !on_list {
                        if !query.reopen {
                            return;
                        }
                        stats.reopened += 1;
                        open_nodes += 1;
                    }
                    records.set(v, g, u, open_mark);
                    let (f, key) = (f_of(g, hv), graph.tie_key(v, hv, tie));
                    observer.reached(v, u, g, hv, f);
                    if DECREASE && on_list {
                        open.decrease(f, key, v);
                    } else {
                        open.push::<DECREASE>(f, key, v);
                    }
                    stats.pushed += 1;
                    stats.max_open = stats.max_open.max(open_nodes);
                },
            );
            debug_assert!(open_nodes as usize <= n, "open size above node count");
            observer.step(&stats);
        }

        let cost = found.then(|| self.trace_path(graph, start, goal, bfs));
        Outcome { found, cost, stats }
    }

    /// Fills `self.path` by following parents back from the goal and
    /// returns the path's cost.
    fn trace_path<G: Graph>(&mut self, graph: &G, start: NodeId, goal: NodeId, bfs: bool) -> f64 {
        let mut node = goal;
        self.path.push(node);
        while node != start {
            node = self.records.parent[node as usize];
            self.path.push(node);
            debug_assert!(self.path.len() <= self.records.mark.len(), "cycle in the parent chain");
        }
        self.path.reverse();
        if !bfs {
            return self.records.g[goal as usize];
        }
        // BFS ordered by steps; its cost is the real one along the path.
        self.path.windows(2).map(|w| edge_cost(graph, w[0], w[1])).sum()
    }
}

/// Cost of the edge `from → to` (the cheapest, should there be several).
fn edge_cost<G: Graph>(graph: &G, from: NodeId, to: NodeId) -> f64 {
    let mut best = f64::INFINITY;
    graph.successors(from, |v, c| {
        if v == to {
            best = best.min(c);
        }
    });
    debug_assert!(best.is_finite(), "path uses a missing edge {from}->{to}");
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph given by adjacency lists and a table of h values.
    struct Hand {
        edges: Vec<Vec<(NodeId, f64)>>,
        h: Vec<f64>,
    }

    impl Graph for Hand {
        fn node_count(&self) -> usize {
            self.edges.len()
        }
        fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
            for &(v, c) in &self.edges[node as usize] {
                visit(v, c);
            }
        }
        fn heuristic(&self, node: NodeId) -> f64 {
            self.h[node as usize]
        }
    }

    const S: NodeId = 0;
    const B: NodeId = 1;
    const C: NodeId = 2;
    const G: NodeId = 3;

    /// S→B 3, S→C 1, C→B 1, B→G 2; h(S)=3, h(B)=0, h(C)=3, h(G)=0: h is
    /// admissible but not consistent on C→B.
    fn inconsistent() -> Hand {
        Hand {
            edges: vec![vec![(B, 3.0), (C, 1.0)], vec![(G, 2.0)], vec![(B, 1.0)], vec![]],
            h: vec![3.0, 0.0, 3.0, 0.0],
        }
    }

    fn run(order: Order, reopen: bool) -> (Outcome, Vec<NodeId>) {
        let mut s = Searcher::new();
        let q = Query { order, reopen, ..Query::default() };
        let o = s.search(&inconsistent(), S, G, &q);
        (o, s.path().to_vec())
    }

    #[test]
    fn dijkstra_finds_the_optimum_with_exact_counters() {
        let (o, path) = run(Order::Dijkstra, false);
        assert_eq!(o.cost, Some(4.0));
        assert_eq!(path, vec![S, C, B, G]);
        let s = o.stats;
        assert_eq!((s.expanded, s.pushed, s.stale_pops, s.max_open), (3, 5, 1, 2));
        assert_eq!((s.reopened, s.violations), (0, 0));
    }

    #[test]
    fn decrease_key_does_the_same_search_without_stale_pops() {
        for (order, reopen) in [(Order::Dijkstra, false), (Order::AStar, false), (Order::AStar, true)] {
            let mut s = Searcher::new();
            let lazy = s.search(&inconsistent(), S, G, &Query { order, reopen, ..Query::default() });
            let lazy_path = s.path().to_vec();
            let q = Query { order, reopen, open: OpenUpdate::DecreaseKey, ..Query::default() };
            let d = s.search(&inconsistent(), S, G, &q);
            assert_eq!((d.found, d.cost, s.path()), (lazy.found, lazy.cost, &lazy_path[..]), "{order:?}");
            let want = SearchStats { stale_pops: 0, micros: 0.0, ..lazy.stats };
            assert_eq!(SearchStats { micros: 0.0, ..d.stats }, want, "{order:?}");
        }
        // Dijkstra lowers B (3 -> 2) while B is open: one stale pop saved.
        let q = Query { order: Order::Dijkstra, open: OpenUpdate::DecreaseKey, ..Query::default() };
        let d = Searcher::new().search(&inconsistent(), S, G, &q).stats;
        assert_eq!((d.expanded, d.pushed, d.stale_pops, d.max_open), (3, 5, 0, 2));
    }

    #[test]
    fn astar_without_reopening_is_fooled_by_an_inconsistent_heuristic() {
        let (o, path) = run(Order::AStar, false);
        assert_eq!(o.cost, Some(5.0));
        assert_eq!(path, vec![S, B, G]);
        assert_eq!(o.stats.violations, 1, "C→B is the one inconsistent edge");
        assert_eq!(o.stats.reopened, 0);
    }

    #[test]
    fn astar_with_reopening_recovers_the_optimum() {
        let (o, path) = run(Order::AStar, true);
        assert_eq!(o.cost, Some(4.0));
        assert_eq!(path, vec![S, C, B, G]);
        assert_eq!(o.stats.reopened, 1);
        assert_eq!(o.stats.violations, 1);
        assert_eq!(o.stats.expanded, 4, "S, B, C, then B again");
        assert_eq!(o.stats.stale_pops, 0, "G's first entry is still open when G is popped");
    }

    #[test]
    fn greedy_keeps_its_first_parent() {
        let (o, path) = run(Order::Greedy, false);
        assert_eq!(path, vec![S, B, G]);
        assert_eq!(o.cost, Some(5.0));
        assert_eq!(o.stats.violations, 0);
    }

    #[test]
    fn bfs_counts_steps_and_reports_real_cost() {
        let (o, path) = run(Order::Bfs, false);
        assert_eq!(path, vec![S, B, G]);
        assert_eq!(o.cost, Some(5.0));
    }

    #[test]
    fn every_tie_break_falls_back_to_insertion_order() {
        // S reaches X, then Y, at equal f and equal h; X has the larger id,
        // so only insertion order puts it first, and the first of the two
        // expanded becomes G's parent.
        const Y: NodeId = 1;
        const X: NodeId = 2;
        let graph = Hand {
            edges: vec![vec![(X, 1.0), (Y, 1.0)], vec![(G, 1.0)], vec![(G, 1.0)], vec![]],
            h: vec![2.0, 1.0, 1.0, 0.0],
        };
        let mut s = Searcher::new();
        for &tie in TieBreak::ALL {
            for &open in OpenUpdate::ALL {
                let o = s.search(&graph, S, G, &Query { tie, open, ..Query::default() });
                assert_eq!((o.cost, s.path()), (Some(2.0), &[S, X, G][..]), "{tie:?} {open:?}");
            }
        }
    }

    #[test]
    fn start_is_goal_and_unreachable() {
        let mut s = Searcher::new();
        let q = Query::default();
        let o = s.search(&inconsistent(), B, B, &q);
        assert!(o.found);
        assert_eq!((o.cost, o.stats.expanded, o.stats.pushed), (Some(0.0), 0, 1));
        assert_eq!(s.path(), &[B]);
        let o = s.search(&inconsistent(), G, S, &q);
        assert!(!o.found);
        assert_eq!(o.cost, None, "no path has no cost, unlike a path of no steps");
        assert!(s.path().is_empty());
        assert_eq!(o.stats.expanded, 1);
    }

    #[test]
    fn reused_searcher_gives_identical_answers() {
        let mut s = Searcher::new();
        let q = Query { order: Order::AStar, reopen: true, ..Query::default() };
        let first = s.search(&inconsistent(), S, G, &q);
        for _ in 0..3 {
            let again = s.search(&inconsistent(), S, G, &q);
            assert_eq!(
                (again.found, again.cost, again.stats.expanded, again.stats.pushed),
                (first.found, first.cost, first.stats.expanded, first.stats.pushed)
            );
        }
        let visited = s.visited();
        assert_eq!(visited.len(), 4);
        assert!(visited.contains(&(G, Visit::Closed)));
    }
}
