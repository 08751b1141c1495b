//! The corner waypoint graph: waypoints at the convex corners of the walls,
//! linked when the agent can walk straight from one to the other.
//!
//! In a free space bounded by polygons, a shortest path is a polyline that
//! bends only at convex corners of the obstacles (pulled taut, it wraps
//! around them); so the shortest path in the graph of those corners, with
//! the start and goal added, is the optimal any-angle path. In delve's free
//! space ([`Space`]) the convex corners are the grid vertices with exactly
//! one wall among their four cells, moved diagonally away from that wall
//! by the radius.
//!
//! Only *tangent* links are kept (the standard reduction of a visibility
//! graph, which keeps every shortest path): a shortest path wraps around
//! each corner it bends at, so it arrives and leaves along lines that leave
//! the corner's wall on one side; a link running diagonally away from (or
//! into) the wall at either end is never on one. So a corner only looks
//! into the two quadrants along its wall's sides.
//!
//! Building is finding the corners: one pass over the grid's vertices.
//! The links of a corner are made the first time a search expands it, and
//! kept: a sweep outward from the corner ([`sweep`]) hands over the corners
//! not certainly hidden behind the walls it passed, with the few walls each
//! one's segment passes close to, and each is kept if it is tangent at both
//! ends and the exact segment test clears it (past those walls only: it
//! meets no other). The work per corner grows with
//! what it sees, not with the number of corners, and a search pays only
//! for the corners it expands; the start and the goal are linked the same
//! way per query. The links are exactly those of a test of every pair (in
//! the same order, with the same costs: tested), so the paths are the same
//! optimal ones. A grid change (a door) means new corners: the graph is
//! found again (one pass) and its links made again as searches need them.
//!
//! [`Waypoints::MAX_CORNERS`] is the cap every caller applies (the game,
//! `delve path`, `delve sim`, the lab): on an open map with tens of
//! thousands of corners each sees too many of the others for a search
//! across it to stay interactive.

mod sweep;

use super::{Space, Vec2};
use crate::grid::Grid;
use crate::search::{Graph, NodeId, Observer, Outcome, PlanError, Query, SearchStats, Searcher};
use std::cell::{Cell as Counter, OnceCell, RefCell};
use std::time::Instant;
use sweep::{Scene, Sweep};

/// A planned path through the corner graph.
#[derive(Clone, Debug, PartialEq)]
pub struct WaypointPath {
    /// Corners passed, by index into [`Waypoints::corners`].
    pub corners: Vec<u32>,
    /// The path, start to goal.
    pub points: Vec<Vec2>,
    /// Its Euclidean length.
    pub length: f64,
    /// What the search did.
    pub stats: SearchStats,
}

/// One corner: where the waypoint is and which way its wall lies.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Corner {
    at: Vec2,
    /// The diagonal from the corner into its wall, each component ±1.
    wall: (f64, f64),
}

impl Corner {
    /// Whether a straight path along `d` through this corner is tangent to
    /// its wall: the wall's quadrant lies wholly on one side of the line,
    /// so `d` runs along the wall's sides or between them and the open
    /// quadrants beside, never diagonally away from (or into) the wall. A
    /// shortest path bends only around a corner it is tangent to, so a
    /// link that is not tangent at both ends is never on one.
    fn tangent(&self, d: Vec2) -> bool {
        d.x * d.y * self.wall.0 * self.wall.1 <= 0.0
    }

    /// The quadrants (signs of x and y) of the directions tangent here:
    /// the two along the wall's sides.
    fn quadrants(&self) -> [(f64, f64); 2] {
        let (wx, wy) = self.wall;
        [(wx, -wy), (-wx, wy)]
    }
}

/// One corner's links: (corner, distance), by corner.
type Links = Box<[(u32, f64)]>;

/// Graphs of fewer corners try every corner for a corner's links and a
/// query's ends instead of sweeping: on dungeon levels of a few dozen
/// corners that is the cheaper way (the same links either way).
const SWEPT: usize = 200;

/// Whether the segment `a`–`b` is clear: exactly, or past the walls
/// `close` only (the others known not to meet it).
fn clear(space: &Space, a: Vec2, b: Vec2, close: Option<&[(i64, i64)]>) -> bool {
    match close {
        None => space.segment_clear(a, b),
        Some(close) => {
            let clear = space.segment_clear_past(a, b, close);
            debug_assert_eq!(clear, space.segment_clear(a, b), "{a:?} -> {b:?} past {close:?}");
            clear
        }
    }
}

/// Every quadrant, for a start or a goal, which sees all ways.
const ALL_QUADRANTS: [(f64, f64); 4] = [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)];

/// The corner waypoint graph of one grid for one agent radius.
#[derive(Clone, Debug)]
pub struct Waypoints {
    radius: f64,
    corners: Vec<Corner>,
    /// The corner at each grid vertex ((width + 1) per row), `u32::MAX`
    /// where there is none.
    by_vertex: Vec<u32>,
    /// Each corner's links once made, by corner.
    links: Vec<OnceCell<Links>>,
    sweep: RefCell<Sweep>,
    /// Sweeps from this many corners on ([`SWEPT`]; tests sweep any).
    swept: usize,
    build_micros: f64,
    /// Time spent making links so far, in microseconds.
    link_micros: Counter<f64>,
}

impl Waypoints {
    /// The most corners a graph is planned on, by every caller: beyond it
    /// `delve path`, `delve sim` and `delve play --algo waypoints` refuse
    /// the level, the `A` key passes over the waypoints (the game's log and
    /// the lab say why), and [`crate::nav::Navigator`] refuses the query.
    /// A query pays for the corners it expands, each for what it sees: on
    /// the most open maps of this size (a lattice of single pillars, where
    /// a corner sees hundreds of others) a search across the whole map,
    /// links made from nothing, takes about 0.1 s of a release build;
    /// monsters, who hunt within their sight, far less
    /// (docs/performance.md).
    pub const MAX_CORNERS: usize = 10_000;

    /// The graph of `grid` for an agent of radius `radius`: its corners,
    /// found in one pass; the links are made as searches need them.
    pub fn build(grid: &Grid, radius: f64) -> Waypoints {
        let began = Instant::now();
        let corners = corners_of(grid, radius);
        let mut by_vertex = vec![u32::MAX; (grid.width() + 1) * (grid.height() + 1)];
        for (i, c) in corners.iter().enumerate() {
            // The corner's vertex: the nearest one (the radius is below ½).
            let (x, y) = (c.at.x.round() as usize, c.at.y.round() as usize);
            by_vertex[y * (grid.width() + 1) + x] = i as u32;
        }
        let links = vec![OnceCell::new(); corners.len()];
        let build_micros = began.elapsed().as_secs_f64() * 1e6;
        Waypoints {
            radius,
            corners,
            by_vertex,
            links,
            sweep: RefCell::new(Sweep::default()),
            swept: SWEPT,
            build_micros,
            link_micros: Counter::new(0.0),
        }
    }

    /// How many waypoints a build on `grid` would make (for any radius).
    pub fn count(grid: &Grid) -> usize {
        corners_of(grid, 0.0).len()
    }

    /// Refuses a grid with more corners than [`Waypoints::MAX_CORNERS`];
    /// otherwise its number of corners.
    pub fn check(grid: &Grid) -> Result<usize, PlanError> {
        match Waypoints::count(grid) {
            n if n > Waypoints::MAX_CORNERS => {
                Err(PlanError::TooManyCorners { corners: n, cap: Waypoints::MAX_CORNERS })
            }
            n => Ok(n),
        }
    }

    /// The agent radius the graph was built for.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Every waypoint, in row order of its corner.
    pub fn corners(&self) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        self.corners.iter().map(|c| c.at)
    }

    /// How many corners have their links made so far.
    pub fn linked(&self) -> usize {
        self.links.iter().filter(|l| l.get().is_some()).count()
    }

    /// The links made so far, each counted from every end whose links are
    /// made (after [`Waypoints::link_all`], twice the number of links).
    pub fn link_count(&self) -> usize {
        self.links.iter().filter_map(OnceCell::get).map(|l| l.len()).sum()
    }

    /// Makes the links of every corner (what a search never needs: for
    /// pictures and tests).
    pub fn link_all(&self, grid: &Grid) {
        let space = Space::new(grid, self.radius);
        for i in 0..self.corners.len() {
            self.links_of(&space, i as u32);
        }
    }

    /// The links of corner `i` of `grid` (the grid the graph was built
    /// from): the corners it sees along tangents, ascending, with the
    /// distance to each. Made now if not yet.
    pub fn links(&self, grid: &Grid, i: u32) -> &[(u32, f64)] {
        self.links_of(&Space::new(grid, self.radius), i)
    }

    /// Time to find the corners, in microseconds.
    pub fn build_micros(&self) -> f64 {
        self.build_micros
    }

    /// Time spent making links so far, in microseconds.
    pub fn link_micros(&self) -> f64 {
        self.link_micros.get()
    }

    fn scene<'a>(&'a self, space: &Space<'a>) -> Scene<'a> {
        Scene { grid: space.grid(), radius: self.radius, corners: &self.corners, by_vertex: &self.by_vertex }
    }

    fn links_of(&self, space: &Space, i: u32) -> &[(u32, f64)] {
        self.links[i as usize].get_or_init(|| {
            let began = Instant::now();
            let u = self.corners[i as usize];
            let mut seen = Vec::new();
            self.candidates(space, u.at, &u.quadrants(), |v, close| {
                let c = self.corners[v as usize];
                let d = c.at - u.at;
                if v == i || !(u.tangent(d) && c.tangent(d)) {
                    return;
                }
                // The pair's test as a build over every pair makes it:
                // from the corner of the lower index.
                let (a, b) = if i < v { (u.at, c.at) } else { (c.at, u.at) };
                if clear(space, a, b, close) {
                    seen.push((v, a.distance(b)));
                }
            });
            seen.sort_unstable_by_key(|&(v, _)| v);
            self.link_micros.set(self.link_micros.get() + began.elapsed().as_secs_f64() * 1e6);
            seen.into_boxed_slice()
        })
    }

    /// The corners `p` (a free point) sees along tangents at them, by
    /// index, with the distance to each.
    fn seen_from(&self, space: &Space, p: Vec2) -> Vec<(u32, f64)> {
        let mut seen = Vec::new();
        self.candidates(space, p, &ALL_QUADRANTS, |v, close| {
            let c = self.corners[v as usize];
            if c.tangent(p - c.at) && clear(space, p, c.at, close) {
                seen.push((v, p.distance(c.at)));
            }
        });
        seen.sort_unstable_by_key(|&(v, _)| v);
        seen
    }

    /// Calls `test` with each corner `origin` may see in `quadrants` and
    /// the walls its segment passes close to (`None`: any). Every corner,
    /// on a graph of fewer than [`SWEPT`] corners, where trying them all
    /// costs less than a sweep; else those the sweep hands over.
    fn candidates(
        &self,
        space: &Space,
        origin: Vec2,
        quadrants: &[(f64, f64)],
        mut test: impl FnMut(u32, Option<&[(i64, i64)]>),
    ) {
        if self.corners.len() < self.swept {
            (0..self.corners.len() as u32).for_each(|v| test(v, None));
        } else {
            self.sweep.borrow_mut().run(&self.scene(space), origin, quadrants, |v, close| test(v, Some(close)));
        }
    }

    /// Plans from `from` to `to` on `grid` (the grid the graph was built
    /// from) with `searcher` (A*): `None` when either end is outside the
    /// free space or they are not connected. The start and goal are linked
    /// to the corners they see for this query only.
    pub fn plan(&self, grid: &Grid, searcher: &mut Searcher, from: Vec2, to: Vec2) -> Option<WaypointPath> {
        self.plan_observed(grid, searcher, from, to, &mut ()).1
    }

    /// [`Waypoints::plan`], telling `observer` (a
    /// [`Trace`](crate::search::Trace), for the lab) each step of the
    /// search, and giving the search's outcome too (none searched when an
    /// end is outside the free space). Its node ids: `i` is the `i`th of
    /// [`Waypoints::corners`], then come the start and the goal.
    pub fn plan_observed<O: Observer>(
        &self,
        grid: &Grid,
        searcher: &mut Searcher,
        from: Vec2,
        to: Vec2,
        observer: &mut O,
    ) -> (Outcome, Option<WaypointPath>) {
        let space = Space::new(grid, self.radius);
        if !space.is_free(from) || !space.is_free(to) {
            return (Outcome::default(), None);
        }
        let to_goal = self.seen_from(&space, to);
        let direct = space.segment_clear(from, to);
        let graph = QueryGraph {
            wp: self,
            space,
            from: self.seen_from(&space, from),
            to_goal,
            direct: direct.then(|| from.distance(to)),
            to,
        };
        let n = self.corners.len() as NodeId;
        let outcome = searcher.search_observed(&graph, n, n + 1, &Query::default(), observer);
        if !outcome.found {
            return (outcome, None);
        }
        let corners: Vec<u32> = searcher.path()[1..searcher.path().len() - 1].to_vec();
        let mut points = vec![from];
        points.extend(corners.iter().map(|&c| self.corners[c as usize].at));
        points.push(to);
        let length = super::path_length(&points);
        let outcome = Outcome { cost: Some(length), ..outcome };
        (outcome, Some(WaypointPath { corners, length, points, stats: outcome.stats }))
    }
}

/// The convex corners of `grid`'s walls, in row order of their vertex,
/// moved `radius` away from their wall.
fn corners_of(grid: &Grid, radius: f64) -> Vec<Corner> {
    let wall = |x: i32, y: i32| !grid.is_walkable(crate::grid::Cell::new(x, y));
    let mut corners = Vec::new();
    for j in 0..=grid.height() as i32 {
        for i in 0..=grid.width() as i32 {
            let quads = [(0, 0), (1, 0), (0, 1), (1, 1)];
            let walls: Vec<_> = quads.iter().filter(|&&(a, b)| wall(i - 1 + a, j - 1 + b)).collect();
            if let [&(a, b)] = walls[..] {
                let wall = (f64::from(2 * a - 1), f64::from(2 * b - 1));
                let at = Vec2::new(f64::from(i) - wall.0 * radius, f64::from(j) - wall.1 * radius);
                corners.push(Corner { at, wall });
            }
        }
    }
    corners
}

/// The graph one query searches: corners `0..n`, the start `n`, the goal
/// `n + 1`. A corner's links are made when it is first expanded.
struct QueryGraph<'a> {
    wp: &'a Waypoints,
    space: Space<'a>,
    from: Vec<(u32, f64)>,
    /// The corners that see the goal, ascending, with their distance.
    to_goal: Vec<(u32, f64)>,
    direct: Option<f64>,
    to: Vec2,
}

impl Graph for QueryGraph<'_> {
    fn node_count(&self) -> usize {
        self.wp.corners.len() + 2
    }

    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let n = self.wp.corners.len() as NodeId;
        let positive = |c: f64| c.max(1e-9);
        if node == n {
            self.from.iter().for_each(|&(v, c)| visit(v, positive(c)));
            if let Some(c) = self.direct {
                visit(n + 1, positive(c));
            }
        } else if node < n {
            self.wp.links_of(&self.space, node).iter().for_each(|&(v, c)| visit(v, positive(c)));
            if let Ok(k) = self.to_goal.binary_search_by_key(&node, |&(v, _)| v) {
                visit(n + 1, positive(self.to_goal[k].1));
            }
        }
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        match self.wp.corners.get(node as usize) {
            Some(c) => c.at.distance(self.to),
            None => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::testing::{grid, v};

    #[test]
    fn pillar_is_passed_at_its_corner() {
        let g = grid(&[".....", ".....", "..#..", ".....", "....."]);
        let wp = Waypoints::build(&g, 0.0);
        assert_eq!(wp.corners().len(), 4);
        let path = wp.plan(&g, &mut Searcher::new(), v(2.5, 0.5), v(2.5, 4.5)).unwrap();
        assert_eq!(path.points.len(), 4, "{:?}", path.points);
        // Around the pillar's west (or east) side: two diagonals of
        // (0.5, 1.5) and the pillar's side.
        assert_eq!(path.length, 2.0 * 0.5f64.hypot(1.5) + 1.0);
        let straight = wp.plan(&g, &mut Searcher::new(), v(0.5, 0.5), v(4.5, 0.5)).unwrap();
        assert_eq!(straight.points, vec![v(0.5, 0.5), v(4.5, 0.5)]);
    }

    #[test]
    fn l_corridor_optimum() {
        let g = grid(&["####", "#...", "#...", "###.", "###.", "###.", "###."]);
        for r in [0.0, 0.25] {
            let wp = Waypoints::build(&g, r);
            let path = wp.plan(&g, &mut Searcher::new(), v(1.5, 1.5), v(3.5, 6.5)).unwrap();
            assert_eq!(path.points, vec![v(1.5, 1.5), v(3.0 + r, 3.0 - r), v(3.5, 6.5)]);
        }
    }

    #[test]
    fn unreachable_and_walled_ends() {
        let g = grid(&["..#..", "..#..", "..#.."]);
        let wp = Waypoints::build(&g, 0.0);
        assert_eq!(wp.plan(&g, &mut Searcher::new(), v(0.5, 0.5), v(4.5, 0.5)), None);
        assert_eq!(wp.plan(&g, &mut Searcher::new(), v(2.5, 0.5), v(0.5, 0.5)), None);
    }

    /// The links a test of every pair makes (the graph's build before it
    /// made links lazily): the reference the sweeps must reproduce.
    fn every_pair(grid: &Grid, wp: &Waypoints) -> Vec<Vec<(u32, f64)>> {
        let space = Space::new(grid, wp.radius);
        let corners = &wp.corners;
        let mut links = vec![Vec::new(); corners.len()];
        for u in 0..corners.len() {
            for v in u + 1..corners.len() {
                let (cu, cv) = (corners[u], corners[v]);
                let d = cv.at - cu.at;
                if cu.tangent(d) && cv.tangent(d) && space.segment_clear(cu.at, cv.at) {
                    let cost = cu.at.distance(cv.at);
                    links[u].push((v as u32, cost));
                    links[v].push((u as u32, cost));
                }
            }
        }
        links
    }

    /// Random grids, dense and open, and lattices of pillars, for every
    /// radius the game and the command line use: each corner's lazy links are exactly the links of
    /// the all-pairs build, in the same order, with the same costs, bit
    /// for bit; and so are the corners a free point sees.
    #[test]
    fn lazy_links_are_those_of_every_pair() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg32::seed_from_u64(22);
        let radius = f64::from(crate::sim::BODY_RADIUS);
        for round in 0..100 {
            let (w, h) = (rng.random_range(1..32), rng.random_range(1..24));
            let density = [0.05, 0.2, 0.4][round % 3];
            // Random walls, or pillars on a lattice, where many lines of
            // sight graze several corners at once.
            let period = 2 + round % 4;
            let wall = |x: usize, y: usize, rng: &mut rand_pcg::Pcg32| match round % 5 {
                4 => x % period == 1 && y % period == 1,
                _ => rng.random_bool(density),
            };
            let rows: Vec<String> =
                (0..h).map(|y| (0..w).map(|x| if wall(x, y, &mut rng) { '#' } else { '.' }).collect()).collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let g = grid(&rows);
            for (r, swept) in [0.0, 0.25, radius, 0.45].into_iter().flat_map(|r| [(r, 0), (r, SWEPT)]) {
                // Swept from any size on, or tried corner by corner below
                // SWEPT corners, as the graph does.
                let wp = Waypoints { swept, ..Waypoints::build(&g, r) };
                let want = every_pair(&g, &wp);
                for (i, want) in want.iter().enumerate() {
                    let got = wp.links(&g, i as u32);
                    let bits = |l: &[(u32, f64)]| l.iter().map(|&(v, c)| (v, c.to_bits())).collect::<Vec<_>>();
                    assert_eq!(bits(got), bits(want), "r={r} corner {i} at {:?}\n{}", wp.corners[i], rows.join("\n"));
                }
                let space = Space::new(&g, r);
                for _ in 0..4 {
                    let p = v(rng.random_range(0.0..w as f64), rng.random_range(0.0..h as f64));
                    if !space.is_free(p) {
                        continue;
                    }
                    let all: Vec<(u32, f64)> = wp
                        .corners
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.tangent(p - c.at) && space.segment_clear(p, c.at))
                        .map(|(i, c)| (i as u32, p.distance(c.at)))
                        .collect();
                    assert_eq!(wp.seen_from(&space, p), all, "r={r} from {p:?}\n{}", rows.join("\n"));
                }
            }
        }
    }
}
