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
//! into) the wall at either end is never on one. That cheap test drops
//! three quarters of the pairs before the exact segment test, which
//! itself scans from both ends so that a blocked pair costs about the
//! distance to its nearest blocking wall rather than its length.
//!
//! The build still looks at every pair of corners, so it is quadratic in
//! their number: cheap on dungeon levels, seconds on the open 512×512
//! benchmark maps. A grid change means a new build.

use super::{Space, Vec2};
use crate::grid::Grid;
use crate::search::{Graph, NodeId, Observer, Query, SearchStats, Searcher};
use std::time::Instant;

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
}

/// The corner waypoint graph of one grid for one agent radius.
#[derive(Clone, Debug)]
pub struct Waypoints {
    radius: f64,
    corners: Vec<Corner>,
    links: Vec<Vec<(u32, f64)>>,
    build_micros: f64,
}

impl Waypoints {
    /// The graph of `grid` for an agent of radius `radius`.
    pub fn build(grid: &Grid, radius: f64) -> Waypoints {
        let began = Instant::now();
        let space = Space::new(grid, radius);
        let corners = corners_of(grid, radius);
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
        Waypoints { radius, corners, links, build_micros: began.elapsed().as_secs_f64() * 1e6 }
    }

    /// How many waypoints a build on `grid` would make (for any radius),
    /// without making the links: the build's cost grows with its square.
    pub fn count(grid: &Grid) -> usize {
        corners_of(grid, 0.0).len()
    }

    /// The agent radius the graph was built for.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Every waypoint, in row order of its corner.
    pub fn corners(&self) -> impl ExactSizeIterator<Item = Vec2> + '_ {
        self.corners.iter().map(|c| c.at)
    }

    /// Number of links (each counted once).
    pub fn link_count(&self) -> usize {
        self.links.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// Wall-clock time of the build, in microseconds.
    pub fn build_micros(&self) -> f64 {
        self.build_micros
    }

    /// Plans from `from` to `to` on `grid` (the grid the graph was built
    /// from) with `searcher` (A*): `None` when either end is outside the
    /// free space or they are not connected. The start and goal are linked
    /// to the corners they see for this query only.
    pub fn plan(&self, grid: &Grid, searcher: &mut Searcher, from: Vec2, to: Vec2) -> Option<WaypointPath> {
        self.plan_observed(grid, searcher, from, to, &mut ())
    }

    /// [`Waypoints::plan`], telling `observer` (a
    /// [`Trace`](crate::search::Trace), for the lab) each step of the
    /// search. Its node ids: `i` is the `i`th of [`Waypoints::corners`],
    /// then come the start and the goal.
    pub fn plan_observed<O: Observer>(
        &self,
        grid: &Grid,
        searcher: &mut Searcher,
        from: Vec2,
        to: Vec2,
        observer: &mut O,
    ) -> Option<WaypointPath> {
        let space = Space::new(grid, self.radius);
        if !space.is_free(from) || !space.is_free(to) {
            return None;
        }
        let seen_from = |p: Vec2| -> Vec<(u32, f64)> {
            let corners = self.corners.iter().enumerate();
            let seen = corners.filter(|(_, c)| c.tangent(p - c.at) && space.segment_clear(p, c.at));
            seen.map(|(i, c)| (i as u32, p.distance(c.at))).collect()
        };
        let mut to_goal = vec![None; self.corners.len()];
        for (i, cost) in seen_from(to) {
            to_goal[i as usize] = Some(cost);
        }
        let direct = space.segment_clear(from, to);
        let graph =
            QueryGraph { wp: self, from: seen_from(from), to_goal, direct: direct.then(|| from.distance(to)), to };
        let n = self.corners.len() as NodeId;
        let outcome = searcher.search_observed(&graph, n, n + 1, &Query::default(), observer);
        if !outcome.found {
            return None;
        }
        let corners: Vec<u32> = searcher.path()[1..searcher.path().len() - 1].to_vec();
        let mut points = vec![from];
        points.extend(corners.iter().map(|&c| self.corners[c as usize].at));
        points.push(to);
        Some(WaypointPath { corners, length: super::path_length(&points), points, stats: outcome.stats })
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
/// `n + 1`.
struct QueryGraph<'a> {
    wp: &'a Waypoints,
    from: Vec<(u32, f64)>,
    to_goal: Vec<Option<f64>>,
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
            self.wp.links[node as usize].iter().for_each(|&(v, c)| visit(v, positive(c)));
            if let Some(c) = self.to_goal[node as usize] {
                visit(n + 1, positive(c));
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
}
