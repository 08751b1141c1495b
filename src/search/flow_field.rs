//! The flow field: one reverse Dijkstra map from a root (the player's
//! cell), which every monster descends instead of searching on its own
//! (the roguelike "Dijkstra map" of Brogue and its kin).
//!
//! [`FlowField`] holds, for every node of a bounded region, the cost of
//! the cheapest route from it to the root and the next node on that route
//! (its *parent* in the shortest-path tree, pointing down the slope). It is
//! computed by Dijkstra over [`Reversible::predecessors`], in pieces if a
//! tick's allowance of expansions runs out, and **repaired** when edges
//! change instead of computed again:
//!
//! 1. *Invalidate.* Every dirty node (one whose leaving edges may have
//!    changed) whose parent edge is gone or dearer than its distance says
//!    loses its distance, and so does its whole subtree (the nodes whose
//!    route to the root ran through it), found by walking parent pointers
//!    backwards through `predecessors`.
//! 2. *Re-seed and settle.* The nodes with a valid distance next to the
//!    invalidated ones and to the dirty ones go on the open list with their
//!    distance, and Dijkstra runs from them: it fills the invalidated
//!    region from its boundary and lowers whatever a new or cheaper edge
//!    brings closer, and stops where nothing improves.
//!
//! Distances outside the invalidated region are upper bounds (costs of
//! real routes) before step 2 (their parent chains still exist at no
//! greater cost), and step 2 lowers every one a changed edge improves, so
//! the result is a fresh Dijkstra's (tests/flow_field.rs checks it against
//! this engine's Dijkstra and the `pathfinding` crate's). Only the invalidated subtrees and the
//! nodes step 2 pops are touched: closing a door on a side passage
//! re-examines the cells behind it, not the map.
//!
//! **Region.** A field holds the nodes within `limit` (a route cost) of the
//! root; the others read as unreachable. The bound keeps the cost of a
//! field proportional to the area monsters can use, whatever the map's size.
//!
//! **A moved root.** When the root moves, nearly every distance changes.
//! Expressed as a repair (the new root seeded at 0, the old one an
//! ordinary node whose subtree, all the field but the new root's own
//! subtree, is invalidated), it does more work than a fresh computation:
//! on `levels/dungeon.txt` with 8 neighbours, from 10,5, a one-cell move
//! touched 1,733 nodes and a move across the room 2,304, where a fresh
//! computation expands 1,154 (the unit test
//! `a_moved_root_costs_more_repaired_than_computed` pins these counts). So
//! a moved root is always computed afresh ([`FlowField::start`]), and
//! repairs are for changed edges, where they touch few: opening or
//! closing the dungeon's first door touches 19 nodes of those 1,154.
//!
//! **Budget.** [`FlowField::advance`] pops at most the nodes it is allowed
//! and can be called again to go on: a computation spreads over ticks. A
//! repair always runs to its end (like a search that has started, it is
//! useless half done) and needs a complete field.
//!
//! **Several sources.** [`FlowField::start_from`] seeds the field from any
//! number of sources, each with an offset: a node's distance is then the
//! least, over the sources, of the source's offset plus the route cost to
//! it, which is the Dijkstra map of roguelike lore (every goal a 0, or a
//! treasure that counts for more than a door as a lower offset). A source
//! is its own parent while its offset is its best value; a route cheaper
//! than its offset lowers it like any node, and a repair that breaks that
//! route gives the source its offset back. The descent stops at a node
//! that is its own parent: a source, or a spot nothing beats.
//!
//! **Fleeing.** Descending a map toward the player runs *to* it; descending
//! the distances times -1 runs away but straight into the nearest dead end,
//! where the player corners the prey. The classic remedy (Brogue's "safety
//! map"): make every node of the map toward the threat a source whose
//! offset is its distance times a negative factor (-1.2 is usual), and let
//! Dijkstra relax them again ([`FlowField::start_flee`]). The relaxation
//! lets a node near the player but close to a far, open region score
//! better than a nearby dead end, so a fleeing creature runs *past* the
//! threat toward open space when that is the way out. The factor, below -1,
//! is how much a cell of distance from the threat is worth in cells of
//! detour: at -1 a step away gains what it costs, and nothing moves.
//! Values are then negative; the field works in values shifted by its
//! lowest offset (the open list orders non-negative keys) and
//! [`FlowField::distance`] gives them back unshifted.

use super::engine::SearchStats;
use super::open::OpenList;
use super::{Graph, NodeId, Reversible};
use std::time::Instant;

/// Fewest pops between two looks of [`FlowField::advance_covering`] at
/// whether every target has a distance yet.
const COVER_CHECK: u64 = 4;

/// A reverse Dijkstra map: distance to the root and the next node toward
/// it, for every node within the limit. Buffers are kept between
/// computations.
#[derive(Debug, Default)]
pub struct FlowField {
    /// Route cost to the root; meaningful where `seen` holds `era`.
    dist: Vec<f64>,
    /// The next node toward the root (the parent in the shortest-path tree).
    parent: Vec<NodeId>,
    /// The computation that last wrote each node: older marks read as
    /// unreachable, so starting afresh clears nothing.
    seen: Vec<u32>,
    era: u32,
    /// The repair that last invalidated or seeded each node.
    touched: Vec<u32>,
    repair: u32,
    /// The sources and their offsets, by node id, one per node.
    sources: Vec<(NodeId, f64)>,
    /// The lowest offset: stored values are the distances minus it, so that
    /// the open list's keys are never negative.
    base: f64,
    /// The bound on stored (shifted) values.
    limit: f64,
    open: OpenList,
    /// Whether the open list is empty: every distance is final.
    complete: bool,
    /// Scratch of a repair: invalidated nodes, and the walk of subtrees.
    invalid: Vec<NodeId>,
    stack: Vec<NodeId>,
}

impl FlowField {
    /// An empty field; the first [`FlowField::start`] sizes it.
    pub fn new() -> FlowField {
        FlowField::default()
    }

    /// Begins a fresh computation from `root` over a graph of `nodes` nodes,
    /// keeping the nodes whose route to the root costs at most `limit`.
    /// Nothing is expanded yet: see [`FlowField::advance`].
    ///
    /// # Panics
    /// When `root` is not below `nodes`.
    pub fn start(&mut self, nodes: usize, root: NodeId, limit: f64) {
        self.start_from(nodes, &[(root, 0.0)], limit);
    }

    /// Begins a fresh computation from several sources, each `(node,
    /// offset)`: a node's distance is the least `offset + route cost` over
    /// the sources, and the field keeps the nodes whose distance is at most
    /// `limit` (a source whose offset is above it counts for nothing). A
    /// node given twice counts with its lower offset; no source gives an
    /// empty field. Nothing is expanded yet: see [`FlowField::advance`].
    ///
    /// ```
    /// use delve::search::{FlowField, Graph, NodeId, Reversible};
    ///
    /// /// Five rooms in a row, a corridor of cost 1 between neighbours.
    /// struct Row;
    /// impl Graph for Row {
    ///     fn node_count(&self) -> usize { 5 }
    ///     fn successors(&self, n: NodeId, mut visit: impl FnMut(NodeId, f64)) {
    ///         if n > 0 { visit(n - 1, 1.0) }
    ///         if n < 4 { visit(n + 1, 1.0) }
    ///     }
    /// }
    /// impl Reversible for Row {
    ///     fn predecessors(&self, n: NodeId, visit: impl FnMut(NodeId, f64)) {
    ///         self.successors(n, visit) // every corridor runs both ways
    ///     }
    /// }
    ///
    /// // Two exits: room 0, and room 4, which counts 1.5 more.
    /// let mut field = FlowField::new();
    /// field.start_from(5, &[(0, 0.0), (4, 1.5)], f64::INFINITY);
    /// field.advance(&Row, u64::MAX);
    /// let d: Vec<f64> = (0..5).map(|n| field.distance(n).unwrap()).collect();
    /// assert_eq!(d, [0.0, 1.0, 2.0, 2.5, 1.5]);
    /// assert_eq!(field.descend(&Row, 2), Some(1), "room 2 leaves by room 0");
    /// assert_eq!(field.descend(&Row, 3), Some(4));
    /// assert_eq!(field.descend(&Row, 4), None, "an exit is where the descent ends");
    /// ```
    ///
    /// # Panics
    /// When a source is not below `nodes`, or an offset is not finite.
    pub fn start_from(&mut self, nodes: usize, sources: &[(NodeId, f64)], limit: f64) {
        assert!(sources.iter().all(|&(n, _)| (n as usize) < nodes), "source outside the graph");
        assert!(sources.iter().all(|&(_, offset)| offset.is_finite()), "a source's offset is not finite");
        if self.dist.len() < nodes {
            self.dist.resize(nodes, f64::INFINITY);
            self.parent.resize(nodes, 0);
            self.seen.resize(nodes, 0);
            self.touched.resize(nodes, 0);
        }
        self.era = self.era.wrapping_add(1);
        if self.era == 0 {
            // The marks wrapped round: forget them all once.
            self.seen.iter_mut().for_each(|m| *m = 0);
            self.era = 1;
        }
        self.sources.clear();
        self.sources.extend_from_slice(sources);
        // By node, the lower offset first, and then one per node.
        self.sources.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        self.sources.dedup_by_key(|s| s.0);
        self.base = self.sources.iter().map(|s| s.1).reduce(f64::min).unwrap_or(0.0);
        self.limit = limit - self.base;
        self.open.clear::<false>(nodes);
        for k in 0..self.sources.len() {
            self.seed(k);
        }
        self.complete = false;
    }

    /// Begins a flee map from `toward`, a complete field of the distances
    /// to what is fled (the player): every node of `toward` becomes a source
    /// whose offset is its distance times `factor`, negative (-1.2 is the
    /// classic; see the module's *Fleeing*), and the computation relaxes
    /// them, over a graph of `nodes` nodes, keeping values up to `limit`.
    /// Nothing is expanded yet: see [`FlowField::advance`]. A descent of the
    /// result flees; its values are negative, the lowest the safest.
    ///
    /// # Panics
    /// When `toward` is not complete, or `factor` is not finite.
    pub fn start_flee(&mut self, nodes: usize, toward: &FlowField, factor: f64, limit: f64) {
        assert!(toward.complete, "a flee map from a field still being computed");
        assert!(factor.is_finite(), "flee factor {factor} is not finite");
        let reached =
            (0..toward.dist.len().min(nodes) as NodeId).filter_map(|n| Some((n, toward.distance(n)? * factor)));
        let sources: Vec<(NodeId, f64)> = reached.collect();
        self.start_from(nodes, &sources, limit);
    }

    /// Goes on with the computation begun by [`FlowField::start`] for at
    /// most `max_pops` expansions; `expanded` counts them. The field is
    /// [complete](FlowField::is_complete) when the open list ran dry.
    pub fn advance<G: Reversible>(&mut self, graph: &G, max_pops: u64) -> SearchStats {
        let began = Instant::now();
        let mut stats = SearchStats::default();
        while stats.expanded < max_pops {
            let Some(pops) = self.settle_one(graph, &mut stats) else {
                self.complete = true;
                break;
            };
            stats.expanded += pops;
        }
        stats.micros = began.elapsed().as_secs_f64() * 1e6;
        stats
    }

    /// [`FlowField::advance`] that ends the computation as soon as every
    /// node of `targets` has its final distance: the field is then complete
    /// with the largest of those distances (or a little more) as its limit,
    /// exactly the field a fresh computation with that limit gives, so it
    /// costs the region the targets need rather than the whole limit. A
    /// target the limit leaves out keeps the computation going to the end,
    /// as does an empty `targets`.
    pub fn advance_covering<G: Reversible>(&mut self, graph: &G, max_pops: u64, targets: &[NodeId]) -> SearchStats {
        if targets.is_empty() {
            return self.advance(graph, max_pops);
        }
        let began = Instant::now();
        let mut stats = SearchStats::default();
        // The largest value a target holds, once all hold one: an upper
        // bound of their final values (they only fall), in the stored
        // units of the open list's keys and `limit`. Looked for once
        // per as many pops as there are targets (at least a few), so that
        // looking costs one step per pop at most.
        let every = (targets.len() as u64).max(COVER_CHECK);
        let (mut bound, mut since) = (None, every);
        while stats.expanded < max_pops {
            if bound.is_none() && since >= every {
                bound = targets.iter().try_fold(0.0f64, |m, &t| self.stored(t).map(|d| m.max(d)));
                since = 0;
            }
            let Some((d, w)) = self.open.pop::<false>() else {
                self.complete = true;
                break;
            };
            if let Some(b) = bound
                && d > b
            {
                // Every node within b is settled: keep those, drop the
                // rest.
                self.close_at(b, w);
                break;
            }
            let pops = self.relax(graph, d, w, &mut stats);
            stats.expanded += pops;
            since += pops;
        }
        stats.micros = began.elapsed().as_secs_f64() * 1e6;
        stats
    }

    /// Ends a computation whose nodes within `bound` are all settled (the
    /// entry just popped for `popped` and all left are beyond it): the
    /// nodes still on the open list lose their tentative distances, and
    /// `bound` (a stored value) becomes the limit.
    fn close_at(&mut self, bound: f64, popped: NodeId) {
        let forget = |f: &mut FlowField, v: NodeId| {
            if f.dist[v as usize] > bound {
                f.dist[v as usize] = f64::INFINITY;
            }
        };
        forget(self, popped);
        while let Some((_, v)) = self.open.pop::<false>() {
            forget(self, v);
        }
        self.limit = bound;
        self.complete = true;
    }

    /// The bound of the last computation (a route cost, like
    /// [`FlowField::distance`]): the limit it was started with, or the
    /// smaller one [`FlowField::advance_covering`] ended it at.
    pub fn limit(&self) -> f64 {
        self.limit + self.base
    }

    /// Repairs a complete field after edges changed: `dirty` holds every
    /// node whose leaving edges may have changed (cost, presence), in any
    /// order, repeats allowed. `cells_updated` counts the nodes it
    /// invalidated plus the nodes it popped to settle them again.
    ///
    /// # Panics
    /// When the field is not complete: a computation under way is started
    /// again instead (its graph changed under it).
    pub fn repair<G: Reversible>(&mut self, graph: &G, dirty: &[NodeId]) -> SearchStats {
        assert!(self.complete, "repair of a field still being computed");
        let began = Instant::now();
        let mut stats = SearchStats::default();
        if self.sources.is_empty() {
            return stats;
        }
        self.repair = self.repair.wrapping_add(1);
        if self.repair == 0 {
            self.touched.iter_mut().for_each(|m| *m = 0);
            self.repair = 1;
        }
        self.invalid.clear();
        self.stack.clear();
        // 1. Dirty nodes whose route to the root got dearer or broke, and
        // the subtrees that hang from them. A source at its own offset has
        // no route to lose.
        for &u in dirty {
            let Some(d) = self.stored(u) else { continue };
            if self.parent[u as usize] != u && !self.parent_edge_holds(graph, u, d) {
                self.invalidate(u);
            }
        }
        while let Some(v) = self.stack.pop() {
            let FlowField { dist, parent, seen, era, touched, repair, invalid, stack, .. } = self;
            graph.predecessors(v, |u, _| {
                let i = u as usize;
                if parent[i] == v && seen[i] == *era && dist[i].is_finite() {
                    touched[i] = *repair;
                    dist[i] = f64::INFINITY;
                    invalid.push(u);
                    stack.push(u);
                }
            });
        }
        stats.cells_updated = self.invalid.len() as u64;
        // 2. Settle again from the valid nodes beside the invalidated and
        // the dirty ones (a new or cheaper edge x → y has x dirty, so y is
        // seeded and lowers x when it pops), and from the invalidated
        // sources, at their offsets.
        self.open.clear::<false>(self.dist.len());
        for i in 0..self.invalid.len() {
            let u = self.invalid[i];
            if let Ok(k) = self.sources.binary_search_by_key(&u, |s| s.0) {
                self.seed(k);
            }
        }
        {
            let FlowField { dist, seen, era, touched, repair, invalid, open, .. } = self;
            for &v in invalid.iter().chain(dirty) {
                graph.successors(v, |w, _| {
                    let i = w as usize;
                    if seen[i] == *era && dist[i].is_finite() && touched[i] != *repair {
                        touched[i] = *repair;
                        open.push::<false>(dist[i], 0, w);
                    }
                });
            }
        }
        self.complete = false;
        let mut popped = SearchStats::default();
        while let Some(pops) = self.settle_one(graph, &mut popped) {
            popped.expanded += pops;
        }
        self.complete = true;
        stats.cells_updated += popped.expanded;
        stats.pushed = popped.pushed;
        stats.stale_pops = popped.stale_pops;
        stats.micros = began.elapsed().as_secs_f64() * 1e6;
        stats
    }

    /// Whether every distance is final (the computation or repair ended).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The sources the field was started from, `(node, offset)` by node
    /// (one, at offset 0, for [`FlowField::start`]); empty before any start.
    pub fn sources(&self) -> &[(NodeId, f64)] {
        &self.sources
    }

    /// The cost of the cheapest route from `node` to the root (with several
    /// sources: the least offset plus route cost), if it is within the
    /// limit (and, during a computation, already reached).
    pub fn distance(&self, node: NodeId) -> Option<f64> {
        self.stored(node).map(|d| d + self.base)
    }

    /// The value `node` holds: its distance minus the lowest offset.
    fn stored(&self, node: NodeId) -> Option<f64> {
        let i = node as usize;
        (self.seen.get(i) == Some(&self.era) && self.dist[i].is_finite()).then(|| self.dist[i])
    }

    /// The step down the slope from `node`: the successor `w` with the
    /// least `cost(node → w) + distance(w)`, the first in the graph's
    /// successor order among equals (so a repaired field and a fresh one
    /// with the same distances descend alike). `None` at the root (a
    /// source at its own offset, a flee map's safest spots) and for nodes
    /// outside the field.
    pub fn descend<G: Graph>(&self, graph: &G, node: NodeId) -> Option<NodeId> {
        if self.stored(node).is_none() || self.parent[node as usize] == node {
            return None;
        }
        let mut best: Option<(f64, NodeId)> = None;
        graph.successors(node, |w, cost| {
            if let Some(d) = self.stored(w) {
                let total = d + cost;
                if best.is_none_or(|(b, _)| total < b) {
                    best = Some((total, w));
                }
            }
        });
        best.map(|(_, w)| w)
    }

    /// Replaces `out` with `node` and the next `steps` nodes of its descent
    /// (fewer where it reaches the root); empty outside the field.
    pub fn descent<G: Graph>(&self, graph: &G, node: NodeId, steps: usize, out: &mut Vec<NodeId>) {
        out.clear();
        if self.distance(node).is_none() {
            return;
        }
        out.push(node);
        let mut at = node;
        while out.len() <= steps {
            let Some(next) = self.descend(graph, at) else { break };
            out.push(next);
            at = next;
        }
    }

    /// Puts source `k` on the open list at its offset, as its own parent,
    /// if the offset is within the limit.
    fn seed(&mut self, k: usize) {
        let (node, offset) = self.sources[k];
        let d = offset - self.base;
        if d <= self.limit {
            self.set(node, d, node);
            self.open.push::<false>(d, 0, node);
        }
    }

    fn set(&mut self, node: NodeId, dist: f64, parent: NodeId) {
        let i = node as usize;
        self.seen[i] = self.era;
        self.dist[i] = dist;
        self.parent[i] = parent;
    }

    /// Whether the edge from `u` (at distance `d`) to its parent still
    /// exists and costs no more than when `d` was computed.
    fn parent_edge_holds<G: Reversible>(&self, graph: &G, u: NodeId, d: f64) -> bool {
        let p = self.parent[u as usize];
        let Some(dp) = self.stored(p) else { return false };
        let mut holds = false;
        graph.predecessors(p, |v, cost| holds |= v == u && dp + cost <= d);
        holds
    }

    fn invalidate(&mut self, u: NodeId) {
        let i = u as usize;
        self.touched[i] = self.repair;
        self.dist[i] = f64::INFINITY;
        self.invalid.push(u);
        self.stack.push(u);
    }

    /// Pops one entry and, unless it is stale, relaxes the edges into its
    /// node; the pops it made (0 for a stale entry, 1 otherwise), `None`
    /// when the open list is empty.
    fn settle_one<G: Reversible>(&mut self, graph: &G, stats: &mut SearchStats) -> Option<u64> {
        let (d, w) = self.open.pop::<false>()?;
        Some(self.relax(graph, d, w, stats))
    }

    /// Settles the entry (`d`, `w`) just popped: unless it is stale,
    /// relaxes the edges into `w`; the pops it made (0 or 1).
    fn relax<G: Reversible>(&mut self, graph: &G, d: f64, w: NodeId, stats: &mut SearchStats) -> u64 {
        if self.stored(w).is_none_or(|dw| d > dw) {
            stats.stale_pops += 1;
            return 0;
        }
        let FlowField { dist, parent, seen, era, open, limit, .. } = self;
        graph.predecessors(w, |u, cost| {
            let (i, nd) = (u as usize, d + cost);
            if nd <= *limit && (seen[i] != *era || nd < dist[i]) {
                (seen[i], dist[i], parent[i]) = (*era, nd, w);
                open.push::<false>(nd, 0, u);
                stats.pushed += 1;
            }
        });
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Grid, Neighbors, Tile};
    use crate::level::Level;
    use crate::search::{GridGraph, Heuristic};

    fn dungeon() -> Grid {
        Level::parse(include_str!("../../levels/dungeon.txt"), "dungeon.txt").unwrap().grid
    }

    fn graph(grid: &Grid, neighbors: Neighbors) -> GridGraph<'_> {
        let c = Cell::new(0, 0);
        GridGraph::new(grid, neighbors, Heuristic::Zero, c, c)
    }

    /// A complete field from `root`, and the expansions it took.
    fn fresh(grid: &Grid, root: Cell, neighbors: Neighbors) -> (FlowField, u64) {
        let mut f = FlowField::new();
        f.start(grid.node_count(), grid.node(root), f64::INFINITY);
        let stats = f.advance(&graph(grid, neighbors), u64::MAX);
        assert!(f.is_complete());
        (f, stats.expanded)
    }

    fn distances(f: &FlowField, grid: &Grid) -> Vec<Option<f64>> {
        grid.cells().map(|c| f.distance(grid.node(c))).collect()
    }

    /// Every cell whose moves a change of `cell` can alter: its 3x3 block.
    fn block(grid: &Grid, cell: Cell) -> Vec<NodeId> {
        let around = (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| Cell::new(cell.x + dx, cell.y + dy)));
        around.filter(|&c| grid.in_bounds(c)).map(|c| grid.node(c)).collect()
    }

    /// A field covering a few targets is the fresh field bounded at the
    /// farthest one (or a little beyond): it holds every target at its
    /// full-field distance, costs less, and repairs like any field.
    #[test]
    fn a_field_covering_its_targets_is_the_field_bounded_at_them() {
        let grid = dungeon();
        let g = graph(&grid, Neighbors::Eight);
        let root = Cell::new(10, 5);
        let (whole, expanded) = fresh(&grid, root, Neighbors::Eight);
        let targets: Vec<NodeId> = [Cell::new(14, 7), Cell::new(6, 3), Cell::new(12, 12)]
            .into_iter()
            .filter(|&c| grid.is_walkable(c))
            .map(|c| grid.node(c))
            .collect();
        assert!(targets.len() >= 2, "the dungeon has these floor cells");
        let mut f = FlowField::new();
        f.start(grid.node_count(), grid.node(root), f64::INFINITY);
        // In pieces, as a tick's allowance gives them.
        let mut covering = 0;
        while !f.is_complete() {
            covering += f.advance_covering(&g, 7, &targets).expanded;
        }
        let far = targets.iter().map(|&t| whole.distance(t).unwrap()).fold(0.0, f64::max);
        assert!(f.limit() >= far && f.limit() < f64::INFINITY, "bound {} for a farthest target at {far}", f.limit());
        for &t in &targets {
            assert_eq!(f.distance(t), whole.distance(t));
        }
        let mut bounded = FlowField::new();
        bounded.start(grid.node_count(), grid.node(root), f.limit());
        bounded.advance(&g, u64::MAX);
        assert_eq!(distances(&f, &grid), distances(&bounded, &grid));
        assert!(covering < expanded, "{covering} expansions for the targets, {expanded} for the whole field");
        // A door shut on the way repairs it as it repairs the bounded one.
        let mut grid2 = grid.clone();
        let wall = grid.cells().find(|&c| c != root && f.distance(grid.node(c)).is_some_and(|d| d > 2.0)).unwrap();
        grid2.set_tile(wall, Tile::Wall);
        let g2 = graph(&grid2, Neighbors::Eight);
        f.repair(&g2, &block(&grid2, wall));
        bounded.repair(&g2, &block(&grid2, wall));
        assert_eq!(distances(&f, &grid2), distances(&bounded, &grid2));
        // A target out of reach keeps the computation going to the end.
        let mut full = FlowField::new();
        full.start(grid.node_count(), grid.node(root), f64::INFINITY);
        full.advance_covering(&g, u64::MAX, &[grid.node(Cell::new(0, 0))]);
        assert_eq!(distances(&full, &grid), distances(&whole, &grid));
    }

    #[test]
    fn a_computation_in_pieces_equals_one_in_one_go() {
        let grid = dungeon();
        let root = Cell::new(10, 5);
        let (whole, expanded) = fresh(&grid, root, Neighbors::Eight);
        let mut f = FlowField::new();
        f.start(grid.node_count(), grid.node(root), f64::INFINITY);
        let (mut total, mut calls) = (0, 0);
        while !f.is_complete() {
            let stats = f.advance(&graph(&grid, Neighbors::Eight), 100);
            assert!(stats.expanded <= 100);
            total += stats.expanded;
            calls += 1;
        }
        assert_eq!(total, expanded);
        assert!(calls > expanded / 100, "{calls} calls for {expanded} expansions");
        assert_eq!(distances(&f, &grid), distances(&whole, &grid));
    }

    /// Closing, then opening, the door of a side room touches the cells
    /// behind it, a small part of the field, and leaves the field a fresh
    /// Dijkstra's.
    #[test]
    fn a_door_repair_touches_the_cells_behind_it_only() {
        let mut grid = dungeon();
        let door = grid.cells().find(|&c| grid.tile(c) == Tile::DoorClosed).expect("the dungeon has doors");
        let root = Cell::new(10, 5);
        for neighbors in [Neighbors::Eight, Neighbors::Four] {
            let (mut f, expanded) = fresh(&grid, root, neighbors);
            for tile in [Tile::DoorOpen, Tile::DoorClosed] {
                grid.set_tile(door, tile);
                let stats = f.repair(&graph(&grid, neighbors), &block(&grid, door));
                assert_eq!(stats.expanded, 0, "a repair's work is cells_updated");
                assert!(stats.cells_updated > 0);
                assert!(stats.cells_updated * 3 < expanded, "{} of {expanded}", stats.cells_updated);
                assert_eq!(distances(&f, &grid), distances(&fresh(&grid, root, neighbors).0, &grid), "{tile:?}");
            }
        }
    }

    /// The measurement behind "a moved root is computed afresh": the same
    /// move as a repair (the old root an ordinary node, the new one seeded
    /// at 0) gives the same field for about twice the work, on the dungeon
    /// from the hall's corner moved one cell, and across a room.
    #[test]
    fn a_moved_root_costs_more_repaired_than_computed() {
        let grid = dungeon();
        let g = graph(&grid, Neighbors::Eight);
        let mut figures = Vec::new();
        for (from, to) in [(Cell::new(10, 5), Cell::new(11, 5)), (Cell::new(10, 5), Cell::new(30, 12))] {
            let (mut f, _) = fresh(&grid, from, Neighbors::Eight);
            let (old, new) = (grid.node(from), grid.node(to));
            f.set(new, 0.0, new);
            f.sources = vec![(new, 0.0)];
            // The old root, no source now, hangs from the new one.
            f.parent[old as usize] = new;
            let repaired = f.repair(&g, &[old]);
            let (again, expanded) = fresh(&grid, to, Neighbors::Eight);
            assert_eq!(distances(&f, &grid), distances(&again, &grid));
            figures.push((repaired.cells_updated, expanded));
        }
        assert_eq!(figures, [(1733, 1154), (2304, 1154)]);
    }

    #[test]
    fn descent_goes_down_the_slope_first_in_move_order_and_stops_at_the_root() {
        // Two equal routes round the pillar from 2,2 to the root at 2,0:
        // east is tried before west, so the descent goes east.
        let level = Level::parse("#####\n#...#\n#.#.#\n#...#\n#####\n", "t").unwrap();
        let grid = level.grid;
        let (root, from) = (Cell::new(2, 1), Cell::new(2, 3));
        let (f, _) = fresh(&grid, root, Neighbors::Four);
        let mut path = Vec::new();
        f.descent(&graph(&grid, Neighbors::Four), grid.node(from), 10, &mut path);
        let cells: Vec<Cell> = path.iter().map(|&n| grid.cell_of(n)).collect();
        assert_eq!(cells, [from, Cell::new(3, 3), Cell::new(3, 2), Cell::new(3, 1), root]);
        f.descent(&graph(&grid, Neighbors::Four), grid.node(from), 2, &mut path);
        assert_eq!(path.len(), 3, "the start and two steps");
        assert_eq!(f.descend(&graph(&grid, Neighbors::Four), grid.node(root)), None);
        f.descent(&graph(&grid, Neighbors::Four), grid.node(Cell::new(0, 0)), 3, &mut path);
        assert!(path.is_empty(), "a wall is outside the field");
    }

    #[test]
    fn the_bound_keeps_only_cells_within_it() {
        let grid = Grid::filled(20, 1, Tile::Floor(1));
        let mut f = FlowField::new();
        f.start(grid.node_count(), grid.node(Cell::new(0, 0)), 5.5);
        let stats = f.advance(&graph(&grid, Neighbors::Four), u64::MAX);
        let reached: Vec<Option<f64>> = (0..8).map(|x| f.distance(grid.node(Cell::new(x, 0)))).collect();
        let want: Vec<Option<f64>> = (0..8).map(|x| (x <= 5).then_some(f64::from(x))).collect();
        assert_eq!(reached, want);
        assert_eq!(stats.expanded, 6, "the cells within the bound, no more");
    }
}
