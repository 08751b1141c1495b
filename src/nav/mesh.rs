//! The navigation mesh: the free space cut into rectangles, joined by
//! portals on their shared edges, searched portal to portal and pulled
//! taut by the funnel.
//!
//! Building. The free space of an agent of radius r is bounded by lines at
//! x = k ± r and y = k ± r (see [`Space`]); those lines cut the map into a
//! *compressed grid* of slabs, each wholly free or wholly blocked (with
//! r = 0 it is the cell grid). Rectangles are grown greedily over it in
//! row order: from the first free slab not yet covered, as far right as
//! the row allows, then down while the whole span below is free and
//! uncovered. Rectangles are convex, cover the free space exactly, and on
//! dungeon levels come out a few per room. Portals are the maximal shared
//! edge segments of positive length between two rectangles, so two
//! rectangles meeting only at a corner are not connected (the point
//! agent's no-squeezing rule).
//!
//! Planning. The graph searched is the *portal graph*: nodes on the
//! portals (the two ends and the midpoint of a wide portal, the midpoint
//! of a narrow one), plus the query's start and goal; an edge joins two
//! nodes on portals of one rectangle (a straight line inside a convex
//! polygon) and costs their distance; the heuristic is the Euclidean
//! distance to the goal, weighted (by
//! [`NAVMESH_WEIGHT`](crate::search::NAVMESH_WEIGHT) unless the caller
//! asks for another w; 1 is plain A*, consistent over this graph). A static graph,
//! built with the portals, so the engine searches it as it is and a query
//! allocates only its answer. The rectangles crossed give the corridor,
//! and [`string_pull`] gives the path. Midpoints alone, the classic
//! choice, landed 2.5% above the optimum on average on random levels (the
//! search charges a detour through the middle of every wide portal, so it
//! picks corridors whose pulled path is not the shortest); with the ends,
//! which are where taut paths bend, the search's cost is close to the
//! pulled length and the corridor nearly always the best (see the README).
//!
//! Changes. Rectangles never cross the borders of square tiles of
//! [`TILE`] slabs, so [`NavMesh::update`], given the cells that changed (a
//! door), removes the rectangles of the tiles their grown squares meet,
//! re-tests the slabs there and re-carves only those tiles: the result is
//! the mesh a fresh build makes, and answers every query alike (tested).
//! The portals are then re-derived from the slab labels in one scan.

use super::{Space, Vec2, string_pull};
use crate::grid::{Cell, Grid};
use crate::search::{Graph, NodeId, Observer, Order, Outcome, Query, SearchStats, Searcher};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

/// Label of a slab no rectangle covers.
const NONE: u32 = u32::MAX;

/// Side of the square tiles of slabs no rectangle crosses, so that a
/// change re-carves whole tiles and the mesh after an update is the one a
/// fresh build makes (the greedy carving of a tile depends on nothing
/// outside it). Large enough that open maps are cut little.
const TILE: usize = 32;

/// One convex polygon of the mesh: an axis-aligned rectangle, in world
/// units and in slab indices (half-open).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Top-left corner.
    pub min: Vec2,
    /// Bottom-right corner.
    pub max: Vec2,
    slabs: [usize; 4],
}

/// A shared edge between two rectangles: `a` above or left of `b`; the
/// segment runs from `lo` to `hi` (top to bottom, or left to right).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Portal {
    /// The rectangle above or to the left.
    pub a: u32,
    /// The rectangle below or to the right.
    pub b: u32,
    /// The top or left end.
    pub lo: Vec2,
    /// The bottom or right end.
    pub hi: Vec2,
}

impl Rect {
    /// The corners in order (clockwise on screen, y down), from the
    /// top-left: what a picture of the mesh draws, whatever the shape of
    /// the polygons.
    pub fn outline(&self) -> Vec<Vec2> {
        let (a, b) = (self.min, self.max);
        vec![a, Vec2::new(b.x, a.y), b, Vec2::new(a.x, b.y)]
    }
}

impl Portal {
    fn mid(&self) -> Vec2 {
        (self.lo + self.hi) * 0.5
    }

    /// The portal as (left, right) for a walker leaving rectangle `from`.
    fn seen_from(&self, from: u32) -> (Vec2, Vec2) {
        let vertical = self.lo.x == self.hi.x;
        // Walking east or south (out of `a`), the left hand is the top end
        // of a vertical portal and the right (east) end of a horizontal one.
        match (vertical, from == self.a) {
            (true, true) => (self.lo, self.hi),
            (true, false) => (self.hi, self.lo),
            (false, true) => (self.hi, self.lo),
            (false, false) => (self.lo, self.hi),
        }
    }
}

/// One node of a portal search ([`NavMesh::search_nodes`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchNode {
    /// Its point: the start, the goal, or a portal's end or midpoint.
    pub at: Vec2,
    /// The polygons it lies on: the start's or the goal's, or the two a
    /// portal joins.
    pub polygons: [Option<u32>; 2],
}

/// A planned path on the mesh.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshPath {
    /// Rectangles crossed, from the start's to the goal's.
    pub polygons: Vec<u32>,
    /// The corridor handed to the funnel: (start, start), each portal as
    /// (left, right), (goal, goal).
    pub portals: Vec<(Vec2, Vec2)>,
    /// The pulled path, start to goal.
    pub points: Vec<Vec2>,
    /// Its Euclidean length.
    pub length: f64,
    /// What the portal search did.
    pub stats: SearchStats,
}

/// A navigation mesh of one grid for one agent radius.
#[derive(Clone, Debug)]
pub struct NavMesh {
    radius: f64,
    xs: Vec<f64>,
    ys: Vec<f64>,
    free: Vec<bool>,
    label: Vec<u32>,
    rects: Vec<Option<Rect>>,
    portals: Vec<Portal>,
    by_rect: Vec<Vec<u32>>,
    /// Ids of removed rectangles, lowest first out, for the next carve.
    vacant: BinaryHeap<Reverse<u32>>,
    /// The portal search's nodes: where each stands and on which portal.
    nodes: Vec<(Vec2, u32)>,
    /// Portal `p`'s nodes are `first_node[p]..first_node[p + 1]`.
    first_node: Vec<u32>,
    version: u64,
    build_micros: f64,
}

impl NavMesh {
    /// The mesh of `grid` for an agent of radius `radius` (in
    /// `0..=`[`MAX_RADIUS`](super::MAX_RADIUS)).
    pub fn build(grid: &Grid, radius: f64) -> NavMesh {
        let began = Instant::now();
        let space = Space::new(grid, radius);
        let cuts = |n: usize| {
            let mut v: Vec<f64> = (0..=n).flat_map(|k| [k as f64 - radius, k as f64 + radius]).collect();
            v.retain(|&c| c >= radius && c <= n as f64 - radius);
            v.sort_by(f64::total_cmp);
            v.dedup();
            v
        };
        let (xs, ys) = (cuts(grid.width()), cuts(grid.height()));
        let slabs = (xs.len() - 1) * (ys.len() - 1);
        let mut mesh = NavMesh {
            radius,
            xs,
            ys,
            free: vec![false; slabs],
            label: vec![NONE; slabs],
            rects: Vec::new(),
            portals: Vec::new(),
            by_rect: Vec::new(),
            vacant: BinaryHeap::new(),
            nodes: Vec::new(),
            first_node: Vec::new(),
            version: grid.version(),
            build_micros: 0.0,
        };
        let all = [0, 0, mesh.cols(), mesh.rows()];
        mesh.test_slabs(&space, all);
        mesh.carve(all);
        mesh.link();
        mesh.build_micros = began.elapsed().as_secs_f64() * 1e6;
        mesh
    }

    fn cols(&self) -> usize {
        self.xs.len() - 1
    }

    fn rows(&self) -> usize {
        self.ys.len() - 1
    }

    fn at(&self, a: usize, b: usize) -> usize {
        b * self.cols() + a
    }

    /// The agent radius the mesh was built for.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The grid version the mesh was last built or updated for.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Wall-clock time of the last build or update, in microseconds.
    pub fn build_micros(&self) -> f64 {
        self.build_micros
    }

    /// Number of polygons.
    pub fn polygon_count(&self) -> usize {
        self.rects.iter().flatten().count()
    }

    /// The polygon with id `id`, if it exists (ids of removed polygons are
    /// reused by later ones).
    pub fn polygon(&self, id: u32) -> Option<&Rect> {
        self.rects.get(id as usize)?.as_ref()
    }

    /// Every polygon with its id.
    pub fn polygons(&self) -> impl Iterator<Item = (u32, &Rect)> {
        self.rects.iter().enumerate().filter_map(|(i, r)| Some((i as u32, r.as_ref()?)))
    }

    /// Every portal.
    pub fn portals(&self) -> &[Portal] {
        &self.portals
    }

    /// Marks the slabs of `[a0, b0, a1, b1)` free or blocked.
    fn test_slabs(&mut self, space: &Space, [a0, b0, a1, b1]: [usize; 4]) {
        for b in b0..b1 {
            let y = (self.ys[b] + self.ys[b + 1]) / 2.0;
            for a in a0..a1 {
                let x = (self.xs[a] + self.xs[a + 1]) / 2.0;
                let i = self.at(a, b);
                self.free[i] = space.is_free(Vec2::new(x, y));
            }
        }
    }

    fn open(&self, a: usize, b: usize) -> bool {
        let i = self.at(a, b);
        self.free[i] && self.label[i] == NONE
    }

    /// Covers the free, uncovered slabs of `[a0, b0, a1, b1)` with greedy
    /// rectangles (which never reach outside it: everything outside is
    /// covered or blocked when this runs). Returns how many rectangles it
    /// made.
    fn carve(&mut self, [a0, b0, a1, b1]: [usize; 4]) -> usize {
        let mut made = 0;
        for b in b0..b1 {
            for a in a0..a1 {
                if !self.open(a, b) {
                    continue;
                }
                let slabs = self.grow(a, b);
                let [a, b, right, bottom] = slabs;
                let rect = Rect {
                    min: Vec2::new(self.xs[a], self.ys[b]),
                    max: Vec2::new(self.xs[right], self.ys[bottom]),
                    slabs,
                };
                let id = match self.vacant.pop() {
                    Some(Reverse(i)) => i as usize,
                    None => {
                        self.rects.push(None);
                        self.rects.len() - 1
                    }
                };
                self.rects[id] = Some(rect);
                made += 1;
                for y in b..bottom {
                    for x in a..right {
                        let i = self.at(x, y);
                        self.label[i] = id as u32;
                    }
                }
            }
        }
        made
    }

    /// The greedy rectangle from slab (a, b): as wide as the row allows,
    /// then as tall as that span stays open, within the slab's tile.
    fn grow(&self, a: usize, b: usize) -> [usize; 4] {
        let tile_end = |v: usize, n: usize| (v / TILE + 1).saturating_mul(TILE).min(n);
        let (cols, rows) = (tile_end(a, self.cols()), tile_end(b, self.rows()));
        let mut right = a + 1;
        while right < cols && self.open(right, b) {
            right += 1;
        }
        let mut bottom = b + 1;
        while bottom < rows && (a..right).all(|x| self.open(x, bottom)) {
            bottom += 1;
        }
        [a, b, right, bottom]
    }

    /// Derives every portal from the slab labels: along each rectangle's
    /// right and bottom edges, each run of one neighbour is a portal.
    fn link(&mut self) {
        let mut portals = Vec::new();
        let cols = self.cols();
        // Rectangles in the order of their top-left slab, not of their ids
        // (which an update reuses): the portals, the search's nodes and so
        // its answers are then the same as a fresh build's.
        let in_slab_order = self.label.iter().enumerate().filter_map(|(i, &id)| {
            let rect = self.rects.get(id as usize)?.as_ref()?;
            (rect.slabs[0] + rect.slabs[1] * cols == i).then_some((id, rect))
        });
        for (id, rect) in in_slab_order {
            let [a0, b0, a1, b1] = rect.slabs;
            if a1 < cols {
                let x = self.xs[a1];
                for (s, e, other) in runs((b0..b1).map(|b| (b, self.label[b * cols + a1]))) {
                    portals.push(Portal {
                        a: id,
                        b: other,
                        lo: Vec2::new(x, self.ys[s]),
                        hi: Vec2::new(x, self.ys[e]),
                    });
                }
            }
            if b1 < self.rows() {
                let y = self.ys[b1];
                for (s, e, other) in runs((a0..a1).map(|a| (a, self.label[b1 * cols + a]))) {
                    portals.push(Portal {
                        a: id,
                        b: other,
                        lo: Vec2::new(self.xs[s], y),
                        hi: Vec2::new(self.xs[e], y),
                    });
                }
            }
        }
        self.portals = portals;
        self.by_rect = vec![Vec::new(); self.rects.len()];
        for (i, p) in self.portals.iter().enumerate() {
            self.by_rect[p.a as usize].push(i as u32);
            self.by_rect[p.b as usize].push(i as u32);
        }
        self.nodes.clear();
        self.first_node.clear();
        for (i, p) in self.portals.iter().enumerate() {
            self.first_node.push(self.nodes.len() as u32);
            let points = if p.lo.distance(p.hi) <= NARROW_PORTAL { vec![p.mid()] } else { vec![p.lo, p.mid(), p.hi] };
            self.nodes.extend(points.into_iter().map(|q| (q, i as u32)));
        }
        self.first_node.push(self.nodes.len() as u32);
    }

    /// Brings the mesh up to date after `changed` cells of `grid` changed
    /// (a door opened or closed): only the polygons within reach of them
    /// are rebuilt. Returns how many polygons were made anew.
    pub fn update(&mut self, grid: &Grid, changed: &[Cell]) -> usize {
        let began = Instant::now();
        let space = Space::new(grid, self.radius);
        let mut created = 0;
        for &cell in changed {
            let r = self.radius;
            let (x0, y0) = (f64::from(cell.x) - r, f64::from(cell.y) - r);
            let (x1, y1) = (f64::from(cell.x) + 1.0 + r, f64::from(cell.y) + 1.0 + r);
            // The slabs whose interiors meet the open grown square.
            let span = |cuts: &[f64], lo: f64, hi: f64| {
                let first = cuts.partition_point(|&c| c <= lo).saturating_sub(1);
                let end = cuts.partition_point(|&c| c < hi).min(cuts.len() - 1);
                (first, end.max(first))
            };
            let (a0, a1) = span(&self.xs, x0, x1);
            let (b0, b1) = span(&self.ys, y0, y1);
            // Remove every rectangle of the tiles the window meets: each
            // lies wholly inside one tile, and the tiles are re-carved.
            let tiles =
                |lo: usize, hi: usize, n: usize| (lo / TILE * TILE, hi.div_ceil(TILE).saturating_mul(TILE).min(n));
            let ((ta0, ta1), (tb0, tb1)) = (tiles(a0, a1, self.cols()), tiles(b0, b1, self.rows()));
            let mut touched: Vec<u32> = Vec::new();
            for b in tb0..tb1 {
                for a in ta0..ta1 {
                    let i = self.at(a, b);
                    let l = self.label[i];
                    if l != NONE {
                        if !touched.contains(&l) {
                            touched.push(l);
                        }
                        self.label[i] = NONE;
                    }
                }
            }
            for &id in &touched {
                self.rects[id as usize] = None;
                self.vacant.push(Reverse(id));
            }
            let window = [ta0, tb0, ta1, tb1];
            self.test_slabs(&space, [a0, b0, a1, b1]);
            created += self.carve(window);
        }
        self.link();
        self.version = grid.version();
        self.build_micros = began.elapsed().as_secs_f64() * 1e6;
        created
    }

    /// The polygon holding `p` (on a shared edge, one of them), or `None`
    /// when `p` is not in the free space.
    pub fn locate(&self, p: Vec2) -> Option<u32> {
        let index = |cuts: &[f64], v: f64| {
            let i = cuts.partition_point(|&c| c <= v);
            // The slab starting at or before v, and the one before when v
            // is on a cut (it may be the free one).
            [i.checked_sub(1), i.checked_sub(2).filter(|&j| cuts[j + 1] == v)]
        };
        for b in index(&self.ys, p.y).into_iter().flatten().filter(|&b| b < self.rows()) {
            for a in index(&self.xs, p.x).into_iter().flatten().filter(|&a| a < self.cols()) {
                let l = self.label[self.at(a, b)];
                if l != NONE {
                    return Some(l);
                }
            }
        }
        None
    }

    /// Plans from `from` to `to` on `grid` (the grid the mesh is up to date
    /// with) with `searcher`, weighted A* with the default w
    /// ([`NAVMESH_WEIGHT`](crate::search::NAVMESH_WEIGHT)): `None` when
    /// either end is outside the free space or no corridor joins them.
    pub fn plan(&self, grid: &Grid, searcher: &mut Searcher, from: Vec2, to: Vec2) -> Option<MeshPath> {
        self.plan_observed(grid, searcher, from, to, crate::search::NAVMESH_WEIGHT, &mut ()).1
    }

    /// [`NavMesh::plan`] with weighted A* of w = `weight` (1: plain A*),
    /// telling `observer` (a
    /// [`Trace`](crate::search::Trace), for the lab) each step of the
    /// portal search, and giving the search's outcome too (none searched
    /// when an end is outside the free space; the cost of a path found is
    /// its pulled length); its node ids are those of
    /// [`NavMesh::search_nodes`].
    pub fn plan_observed<O: Observer>(
        &self,
        grid: &Grid,
        searcher: &mut Searcher,
        from: Vec2,
        to: Vec2,
        weight: f64,
        observer: &mut O,
    ) -> (Outcome, Option<MeshPath>) {
        let (Some(start), Some(goal)) = (self.locate(from), self.locate(to)) else {
            return (Outcome::default(), None);
        };
        let graph = PortalGraph { mesh: self, from, to, start, goal };
        let n = graph.start_node();
        let query = Query { order: Order::Weighted, weight, ..Query::default() };
        let outcome = searcher.search_observed(&graph, n, n + 1, &query, observer);
        if !outcome.found {
            return (outcome, None);
        }
        // The rectangle each leg of the node path runs through: the one
        // its two ends share. A portal whose legs on either side run
        // through the same rectangle was only touched, not crossed.
        let crossed: Vec<&Portal> = searcher.path()[1..searcher.path().len() - 1]
            .iter()
            .map(|&p| &self.portals[self.nodes[p as usize].1 as usize])
            .collect();
        let mut legs = vec![start];
        for pair in crossed.windows(2) {
            let (p, q) = (pair[0], pair[1]);
            legs.push(if p.a == q.a || p.a == q.b { p.a } else { p.b });
        }
        legs.push(goal);
        legs.dedup();
        let polygons = self.shortcut(&legs);
        let mut portals = vec![(from, from)];
        for pair in polygons.windows(2) {
            let portal = self.portal_between(pair[0], pair[1]).expect("corridor polygons are neighbours");
            portals.push(portal.seen_from(pair[0]));
        }
        portals.push((to, to));
        let points = straighten(&Space::new(grid, self.radius), string_pull(&portals));
        let length = super::path_length(&points);
        let outcome = Outcome { cost: Some(length), ..outcome };
        (outcome, Some(MeshPath { polygons, portals, points, length, stats: outcome.stats }))
    }

    /// Every node of the portal search of the query `from` → `to`, by node
    /// id (the ids [`NavMesh::plan_observed`] tells its observer), for a
    /// picture of the search: empty when either end is outside the free
    /// space.
    pub fn search_nodes(&self, from: Vec2, to: Vec2) -> Vec<SearchNode> {
        let (Some(start), Some(goal)) = (self.locate(from), self.locate(to)) else { return Vec::new() };
        let graph = PortalGraph { mesh: self, from, to, start, goal };
        let n = graph.start_node();
        (0..graph.node_count() as NodeId)
            .map(|node| {
                let polygons = match self.nodes.get(node as usize) {
                    Some(&(_, p)) => [Some(self.portals[p as usize].a), Some(self.portals[p as usize].b)],
                    None if node == n => [Some(start), None],
                    None => [Some(goal), None],
                };
                SearchNode { at: graph.point(node), polygons }
            })
            .collect()
    }

    /// The portal between neighbours `a` and `b`.
    fn portal_between(&self, a: u32, b: u32) -> Option<&Portal> {
        let shared = self.by_rect[a as usize].iter().map(|&p| &self.portals[p as usize]);
        shared.into_iter().find(|p| (p.a, p.b) == (a, b) || (p.a, p.b) == (b, a))
    }

    /// The corridor with its detours cut: from each polygon, straight on
    /// to the farthest of the next [`SHORTCUT_REACH`] that is its
    /// neighbour. Portal points are a coarse sample of wide portals, so
    /// the search often reaches a polygon by way of a sliver beside it
    /// (a detour the funnel would have to follow); skipping the sliver
    /// lets the path through. Neighbours share an edge, so no wall lies
    /// between them and the skip never turns the path around one.
    fn shortcut(&self, legs: &[u32]) -> Vec<u32> {
        let mut out = vec![legs[0]];
        let mut i = 0;
        while i + 1 < legs.len() {
            let last = (i + SHORTCUT_REACH).min(legs.len() - 1);
            i = (i + 2..=last).rev().find(|&j| self.portal_between(legs[i], legs[j]).is_some()).unwrap_or(i + 1);
            out.push(legs[i]);
        }
        out
    }
}

/// The runs of equal labels along an edge, as (first, end, label), with
/// the uncovered runs left out.
fn runs(labels: impl Iterator<Item = (usize, u32)>) -> Vec<(usize, usize, u32)> {
    let mut out: Vec<(usize, usize, u32)> = Vec::new();
    for (k, l) in labels {
        match out.last_mut() {
            Some(run) if run.2 == l && run.1 == k => run.1 = k + 1,
            _ => out.push((k, k + 1, l)),
        }
    }
    out.retain(|r| r.2 != NONE);
    out
}

/// The funnel's path with the corners it need not turn: from each kept
/// point, straight on to the farthest in sight of the next
/// [`STRAIGHTEN_REACH`] (a bound, so that a path of thousands of corners
/// through a maze costs a linear number of segment tests). The funnel's
/// path is the shortest *in its corridor*; when the search picked a
/// corridor hugging one side of an open area, the straight line may leave
/// the corridor and still be clear.
fn straighten(space: &Space, points: Vec<Vec2>) -> Vec<Vec2> {
    let mut out = vec![points[0]];
    let mut i = 0;
    while i + 1 < points.len() {
        let last = (i + STRAIGHTEN_REACH).min(points.len() - 1);
        i = (i + 2..=last).rev().find(|&j| space.segment_clear(points[i], points[j])).unwrap_or(i + 1);
        out.push(points[i]);
    }
    out
}

/// How many corners ahead [`straighten`] looks.
const STRAIGHTEN_REACH: usize = 8;

/// How many polygons ahead [`NavMesh::shortcut`] looks for a neighbour.
const SHORTCUT_REACH: usize = 8;

/// Portals at most this wide get one search node, at their midpoint; wider
/// ones three (ends and midpoint). A narrow portal's ends are close to its
/// midpoint, and in mazes and cluttered maps most portals are narrow: one
/// node instead of three makes their portal graph about three times
/// smaller, for a few tenths of a percent of length (see the README).
const NARROW_PORTAL: f64 = 2.0;

/// What each leg of the portal search costs beyond its length.
const LEG_COST: f64 = 1e-6;

/// The graph one query searches: the mesh's portal nodes (one at the
/// midpoint of a narrow portal, its two ends and midpoint on a wide one),
/// then the start and the goal.
struct PortalGraph<'a> {
    mesh: &'a NavMesh,
    from: Vec2,
    to: Vec2,
    start: u32,
    goal: u32,
}

impl PortalGraph<'_> {
    fn start_node(&self) -> NodeId {
        self.mesh.nodes.len() as NodeId
    }

    fn point(&self, node: NodeId) -> Vec2 {
        match self.mesh.nodes.get(node as usize) {
            Some(&(p, _)) => p,
            None if node == self.start_node() => self.from,
            None => self.to,
        }
    }
}

impl Graph for PortalGraph<'_> {
    fn node_count(&self) -> usize {
        self.start_node() as usize + 2
    }

    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let n = self.start_node();
        let here = self.point(node);
        // Each leg costs a little more than its length: the engine needs
        // positive costs (two portals may end at one corner), and among
        // corridors of one length through such a corner the one crossing
        // fewer portals wins, instead of a detour through a sliver of a
        // rectangle that forces the pulled path through the corner.
        let cost = |p: Vec2| here.distance(p) + LEG_COST;
        let (rects, own): ([Option<u32>; 2], u32) = match self.mesh.nodes.get(node as usize) {
            Some(&(_, p)) => {
                let portal = &self.mesh.portals[p as usize];
                ([Some(portal.a), Some(portal.b)], p)
            }
            None if node == n => ([Some(self.start), None], u32::MAX),
            None => return,
        };
        for rect in rects.into_iter().flatten() {
            for &q in &self.mesh.by_rect[rect as usize] {
                if q != own {
                    let nodes = self.mesh.first_node[q as usize]..self.mesh.first_node[q as usize + 1];
                    for m in nodes {
                        visit(m, cost(self.mesh.nodes[m as usize].0));
                    }
                }
            }
            if rect == self.goal {
                visit(n + 1, cost(self.to));
            }
        }
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        self.point(node).distance(self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::testing::{grid, v};

    #[test]
    fn open_room_is_one_rectangle() {
        let g = grid(&["....", "....", "...."]);
        let mesh = NavMesh::build(&g, 0.0);
        assert_eq!(mesh.polygon_count(), 1);
        assert!(mesh.portals().is_empty());
        let path = mesh.plan(&g, &mut Searcher::new(), v(0.5, 0.5), v(3.5, 2.5)).unwrap();
        assert_eq!(path.points, vec![v(0.5, 0.5), v(3.5, 2.5)]);
        assert_eq!(path.polygons, vec![0]);
    }

    #[test]
    fn l_corridor_bends_at_the_inner_corner() {
        // The L: a corridor 2 wide along the top, then down.
        let g = grid(&["####", "#...", "#...", "###.", "###.", "###.", "###."]);
        let mesh = NavMesh::build(&g, 0.0);
        let path = mesh.plan(&g, &mut Searcher::new(), v(1.5, 1.5), v(3.5, 6.5)).unwrap();
        assert_eq!(path.points, vec![v(1.5, 1.5), v(3.0, 3.0), v(3.5, 6.5)]);
        assert_eq!(path.length, v(1.5, 1.5).distance(v(3.0, 3.0)) + v(3.0, 3.0).distance(v(3.5, 6.5)));
        assert_eq!(*path.polygons.first().unwrap(), mesh.locate(v(1.5, 1.5)).unwrap());
    }

    #[test]
    fn an_observed_plan_is_the_plan_and_its_nodes_are_named() {
        let g = grid(&["####", "#...", "#...", "###.", "###.", "###.", "###."]);
        let mesh = NavMesh::build(&g, 0.0);
        let (from, to) = (v(1.5, 1.5), v(3.5, 6.5));
        let mut trace = crate::search::Trace::new();
        let (outcome, observed) =
            mesh.plan_observed(&g, &mut Searcher::new(), from, to, crate::search::NAVMESH_WEIGHT, &mut trace);
        let observed = observed.unwrap();
        assert_eq!(outcome.cost, Some(observed.length));
        let plain = mesh.plan(&g, &mut Searcher::new(), from, to).unwrap();
        let timeless = |p: MeshPath| MeshPath { stats: SearchStats { micros: 0.0, ..p.stats }, ..p };
        assert_eq!(timeless(observed), timeless(plain));
        let nodes = mesh.search_nodes(from, to);
        let mut view = crate::search::TraceView::new(nodes.len());
        view.seek(&trace, trace.len());
        // The start was expanded first, in the start's polygon; the goal
        // was reached, in the goal's.
        let start = nodes.iter().position(|n| n.at == from).unwrap();
        assert_eq!(view.node(start as NodeId).unwrap().order, Some(1));
        assert_eq!(nodes[start].polygons, [mesh.locate(from), None]);
        let goal = nodes.iter().position(|n| n.at == to).unwrap();
        assert!(view.node(goal as NodeId).is_some());
        assert!(mesh.search_nodes(v(0.5, 0.5), to).is_empty(), "the start is in a wall");
    }

    #[test]
    fn radius_keeps_the_path_off_the_corner() {
        let g = grid(&["####", "#...", "#...", "###.", "###.", "###.", "###."]);
        let mesh = NavMesh::build(&g, 0.25);
        let path = mesh.plan(&g, &mut Searcher::new(), v(1.5, 1.5), v(3.5, 6.5)).unwrap();
        assert_eq!(path.points[1], v(3.25, 2.75));
        let space = Space::new(&g, 0.25);
        assert!(path.points.windows(2).all(|w| space.segment_clear(w[0], w[1])));
    }

    #[test]
    fn diagonal_touch_is_no_portal() {
        let g = grid(&[".#", "#."]);
        let mesh = NavMesh::build(&g, 0.0);
        assert_eq!(mesh.polygon_count(), 2);
        assert!(mesh.portals().is_empty());
        assert_eq!(mesh.plan(&g, &mut Searcher::new(), v(0.5, 0.5), v(1.5, 1.5)), None);
    }

    #[test]
    fn door_change_rebuilds_locally_and_matches_a_fresh_build() {
        // Three tiles wide: the door's tile is re-carved, the others kept.
        let (open, wall) = (".".repeat(70), format!("#####+{}", "#".repeat(64)));
        let mut g = grid(&[&open, &open, &wall, &open, &open]);
        let mut mesh = NavMesh::build(&g, 0.0);
        let (from, to) = (v(0.5, 0.5), v(9.5, 4.5));
        assert_eq!(mesh.plan(&g, &mut Searcher::new(), from, to), None);
        let door = Cell::new(5, 2);
        g.set_tile(door, crate::grid::Tile::DoorOpen);
        let replaced = mesh.update(&g, &[door]);
        // The door's tile: above it, the door, beside it below; the two
        // other tiles keep their two rectangles each.
        assert_eq!((replaced, mesh.polygon_count()), (4, 8), "only the door's tile is re-carved");
        assert_eq!(mesh.version(), g.version());
        let local = mesh.plan(&g, &mut Searcher::new(), from, to).unwrap();
        let fresh = NavMesh::build(&g, 0.0).plan(&g, &mut Searcher::new(), from, to).unwrap();
        assert_eq!(local.points, fresh.points);
        assert_eq!(local.points, vec![from, v(5.0, 2.0), v(6.0, 3.0), to]);
        // Closing it again cuts the corridor.
        g.set_tile(door, crate::grid::Tile::DoorClosed);
        mesh.update(&g, &[door]);
        assert_eq!(mesh.plan(&g, &mut Searcher::new(), from, to), None);
    }

    #[test]
    fn random_changes_answer_like_a_fresh_build() {
        use crate::grid::Tile;
        // Several tiles wide and tall at either radius (a slab is half a
        // cell or less with r > 0), so most changes keep most tiles.
        let (w, h) = (70u32, 40u32);
        let mut seed = 7u32;
        let mut next = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            seed >> 8
        };
        let rows: Vec<String> =
            (0..h).map(|_| (0..w).map(|_| if next() % 7 == 0 { '#' } else { '.' }).collect()).collect();
        let mut g = grid(&rows.iter().map(String::as_str).collect::<Vec<_>>());
        let mut at = move || (next() % w, next() % h);
        let mut searcher = Searcher::new();
        for radius in [0.0, 0.3] {
            let mut mesh = NavMesh::build(&g, radius);
            for _ in 0..30 {
                let (x, y) = at();
                let cell = Cell::new(x as i32, y as i32);
                let tile = if g.is_walkable(cell) { Tile::DoorClosed } else { Tile::DoorOpen };
                g.set_tile(cell, tile);
                let made = mesh.update(&g, &[cell]);
                let fresh = NavMesh::build(&g, radius);
                assert!(made < fresh.polygon_count() / 2, "r={radius} after {cell}: {made} polygons made anew");
                assert_eq!(mesh.free, fresh.free, "r={radius} after {cell}");
                for (i, &l) in mesh.label.iter().enumerate() {
                    assert_eq!(l != NONE, mesh.free[i], "r={radius} slab {i}: covered iff free");
                }
                for _ in 0..12 {
                    let ((ax, ay), (bx, by)) = (at(), at());
                    let (a, b) =
                        (v(f64::from(ax) + 0.5, f64::from(ay) + 0.5), v(f64::from(bx) + 0.5, f64::from(by) + 0.5));
                    let local = mesh.plan(&g, &mut searcher, a, b).map(|p| p.length);
                    let again = fresh.plan(&g, &mut searcher, a, b).map(|p| p.length);
                    assert_eq!(local, again, "r={radius} after {cell}: {a:?} -> {b:?}");
                }
            }
        }
    }
}
