//! The free space both planners work in: where the centre of an agent of
//! a given radius may be.
//!
//! The agent is planned as the square circumscribing its disc: walls are
//! grown by the radius into squares of side 1 + 2r (the Minkowski sum with
//! the square), and the centre must stay out of their interiors. A square
//! contains the disc, so every path keeps a Euclidean clearance of at least
//! the radius from every wall; the price is a detour of at most
//! (√2 − 1)·r at each corner the path turns around. What the model buys:
//! the free space stays a union of axis-aligned rectangles, so the mesh is
//! exact, and its convex corners are wall corners offset diagonally by r,
//! so the corner graph is exactly optimal in it.
//!
//! With radius 0 the agent is a point that may touch walls but not cross
//! them, nor slip between two walls that meet only at a corner (the grid's
//! own rule, see [`crate::grid::line_of_sight`]).

use super::Vec2;
use crate::grid::{Cell, Grid};

/// Largest agent radius, in cells: below one half, so that one-cell
/// corridors stay open and the grown walls only ever overlap their
/// neighbours.
pub const MAX_RADIUS: f64 = 0.45;

/// The free space of one grid for one agent radius.
#[derive(Clone, Copy, Debug)]
pub struct Space<'a> {
    grid: &'a Grid,
    r: f64,
}

impl<'a> Space<'a> {
    /// The free space of `grid` for an agent of radius `radius`.
    ///
    /// # Panics
    /// When `radius` is not in `0..=MAX_RADIUS`; the command line checks it.
    pub fn new(grid: &'a Grid, radius: f64) -> Space<'a> {
        assert!((0.0..=MAX_RADIUS).contains(&radius), "radius {radius} out of range");
        Space { grid, r: radius }
    }

    /// The grid this space was made from.
    pub fn grid(&self) -> &'a Grid {
        self.grid
    }

    /// The agent radius.
    pub fn radius(&self) -> f64 {
        self.r
    }

    fn wall(&self, x: i64, y: i64) -> bool {
        let in_range = |v: i64| i32::try_from(v).ok();
        match (in_range(x), in_range(y)) {
            (Some(x), Some(y)) => !self.grid.is_walkable(Cell::new(x, y)),
            _ => true,
        }
    }

    /// The open grown square of wall cell (x, y).
    fn grown(&self, x: i64, y: i64) -> (Vec2, Vec2) {
        let (x, y) = (x as f64, y as f64);
        (Vec2::new(x - self.r, y - self.r), Vec2::new(x + 1.0 + self.r, y + 1.0 + self.r))
    }

    /// Whether the agent's centre may be at `p`.
    pub fn is_free(&self, p: Vec2) -> bool {
        let r = self.r;
        let (x, y) = (floor(p.x), floor(p.y));
        let (on_x, on_y) = (p.x == x as f64, p.y == y as f64);
        // With radius 0 the open squares are the cells, and a point on a
        // grid line is inside none of them (the segment test asks of every
        // vertex and edge it passes: this is most of its work on open maps).
        if r > 0.0 || !(on_x || on_y) {
            let reach = |v: f64| floor(v - r - 1.0)..=floor(v + r);
            for cy in reach(p.y) {
                for cx in reach(p.x) {
                    let (lo, hi) = self.grown(cx, cy);
                    if lo.x < p.x && p.x < hi.x && lo.y < p.y && p.y < hi.y && self.wall(cx, cy) {
                        return false;
                    }
                }
            }
        }
        if r > 0.0 {
            return true;
        }
        // A point on a cell edge between two walls, or on a vertex where
        // two walls meet diagonally, is inside the walls too.
        match (on_x, on_y) {
            (false, false) => true,
            (true, false) => !(self.wall(x - 1, y) && self.wall(x, y)),
            (false, true) => !(self.wall(x, y - 1) && self.wall(x, y)),
            (true, true) => {
                let nw_se = self.wall(x - 1, y - 1) && self.wall(x, y);
                let ne_sw = self.wall(x, y - 1) && self.wall(x - 1, y);
                !(nw_se || ne_sw)
            }
        }
    }

    /// Whether the agent can walk the straight segment from `a` to `b`:
    /// exact, no sampling. Both ends are assumed free.
    pub fn segment_clear(&self, a: Vec2, b: Vec2) -> bool {
        let r = self.r;
        // Every wall whose grown square could meet the segment: by line of
        // cells across its longer axis (columns for a shallow segment, rows
        // for a steep one), the cells it spans within the line's grown
        // strip. `flip` swaps x and y, so the scan is written once.
        let steep = (b.y - a.y).abs() > (b.x - a.x).abs();
        let flip = |p: Vec2| if steep { Vec2::new(p.y, p.x) } else { p };
        let (fa, fb) = (flip(a), flip(b));
        let d = fb - fa;
        let blocks = |i: i64, j: i64| {
            let (x, y) = if steep { (j, i) } else { (i, j) };
            self.wall(x, y) && meets_open_box(a, b, self.grown(x, y))
        };
        let blocked_in = |i: i64| {
            let (lo, hi) = (i as f64 - r, i as f64 + 1.0 + r);
            let (mut t0, mut t1) = (0.0f64, 1.0f64);
            if d.x != 0.0 {
                let (ta, tb) = ((lo - fa.x) / d.x, (hi - fa.x) / d.x);
                t0 = t0.max(ta.min(tb));
                t1 = t1.min(ta.max(tb));
            } else if !(lo < fa.x && fa.x < hi) {
                return false;
            }
            if t0 > t1 {
                return false;
            }
            let (ya, yb) = (fa.y + d.y * t0, fa.y + d.y * t1);
            (floor(ya.min(yb) - r - 1.0)..=floor(ya.max(yb) + r)).any(|j| blocks(i, j))
        };
        // Lines from both ends inwards: a blocked segment usually meets a
        // wall near one of its ends (the corner graph's build tests
        // millions of long blocked segments), a clear one costs the same.
        let (mut left, mut right) = (floor(fa.x.min(fb.x) - r - 1.0), floor(fa.x.max(fb.x) + r));
        while left <= right {
            if blocked_in(left) || (left < right && blocked_in(right)) {
                return false;
            }
            left += 1;
            right -= 1;
        }
        r > 0.0 || self.point_rules_hold(a, b)
    }

    /// [`Space::segment_clear`] for a segment known to meet the open grown
    /// square of no wall but perhaps those of the cells `walls`: the same
    /// answer (each wall's test is the same computation on the same
    /// points) for a fraction of the work. The corner graph's sweeps know
    /// which walls a segment passes close to.
    pub(super) fn segment_clear_past(&self, a: Vec2, b: Vec2, walls: &[(i64, i64)]) -> bool {
        let meets = walls.iter().any(|&(x, y)| self.wall(x, y) && meets_open_box(a, b, self.grown(x, y)));
        !meets && (self.r > 0.0 || self.point_rules_hold_near(a, b, walls))
    }

    /// [`Space::point_rules_hold`] asked only at the grid points of the
    /// cells `walls`: a vertex where two walls meet diagonally, or an edge
    /// between two walls, is a grid point of walls the segment passes that
    /// close to, so the answer is the same. Each point is tested as there,
    /// by the same computation.
    fn point_rules_hold_near(&self, a: Vec2, b: Vec2, walls: &[(i64, i64)]) -> bool {
        let d = b - a;
        let strictly_inside = |v: f64, p: f64, q: f64| v > p.min(q) && v < p.max(q);
        let integral = |v: f64| v == floor(v) as f64;
        let along_x = d.y == 0.0 && integral(a.y);
        let vertical = d.x == 0.0;
        for &(cx, cy) in walls {
            let (x0, y0) = (cx as f64, cy as f64);
            // The midpoints of the cell's edges on the segment's grid line.
            if vertical && integral(a.x) || along_x {
                let mids = if vertical {
                    [Vec2::new(x0, y0 + 0.5), Vec2::new(x0 + 1.0, y0 + 0.5)].map(|m| (m, m.x == a.x, m.y))
                } else {
                    [Vec2::new(x0 + 0.5, y0), Vec2::new(x0 + 0.5, y0 + 1.0)].map(|m| (m, m.y == a.y, m.x))
                };
                let (p, q) = if vertical { (a.y, b.y) } else { (a.x, b.x) };
                if mids.into_iter().any(|(mid, on, m)| on && strictly_inside(m, p, q) && !self.is_free(mid)) {
                    return false;
                }
            }
            // The vertices of the cell on the segment.
            for (vx, vy) in [(x0, y0), (x0 + 1.0, y0), (x0, y0 + 1.0), (x0 + 1.0, y0 + 1.0)] {
                let blocked = if vertical {
                    integral(a.x) && vx == a.x && strictly_inside(vy, a.y, b.y) && !self.is_free(Vec2::new(vx, vy))
                } else {
                    let v = Vec2::new(vx, a.y + (vx - a.x) * d.y / d.x);
                    strictly_inside(v.x, a.x, b.x) && integral(v.y) && !self.is_free(v)
                };
                if blocked {
                    return false;
                }
            }
        }
        true
    }

    /// The radius-0 rules the open squares miss: a segment may not run
    /// along an edge between two walls, nor pass through a vertex where two
    /// walls meet diagonally. Coordinates here are whole or half cells, so
    /// the tests are exact.
    fn point_rules_hold(&self, a: Vec2, b: Vec2) -> bool {
        let d = b - a;
        let strictly_inside = |v: f64, p: f64, q: f64| v > p.min(q) && v < p.max(q);
        // Along a grid line: the midpoint of every unit edge it covers.
        if d.x == 0.0 && a.x == a.x.floor() || d.y == 0.0 && a.y == a.y.floor() {
            let (p, q) = if d.x == 0.0 { (a.y, b.y) } else { (a.x, b.x) };
            for k in (p.min(q).floor() as i64)..(p.max(q).ceil() as i64) {
                let m = k as f64 + 0.5;
                let mid = if d.x == 0.0 { Vec2::new(a.x, m) } else { Vec2::new(m, a.y) };
                if strictly_inside(m, p, q) && !self.is_free(mid) {
                    return false;
                }
            }
        }
        // Every grid vertex strictly inside the segment.
        if d.x == 0.0 {
            if a.x != a.x.floor() {
                return true;
            }
            let ys = (a.y.min(b.y).floor() as i64)..=(a.y.max(b.y).ceil() as i64);
            ys.map(|y| Vec2::new(a.x, y as f64)).all(|v| !strictly_inside(v.y, a.y, b.y) || self.is_free(v))
        } else {
            let xs = (a.x.min(b.x).floor() as i64)..=(a.x.max(b.x).ceil() as i64);
            xs.map(|x| Vec2::new(x as f64, a.y + (x as f64 - a.x) * d.y / d.x))
                .all(|v| !strictly_inside(v.x, a.x, b.x) || v.y != floor(v.y) as f64 || self.is_free(v))
        }
    }
}

/// Whether the closed segment a–b meets the open box (lo, hi): no
/// separating axis among x, y and the segment's normal.
fn meets_open_box(a: Vec2, b: Vec2, (lo, hi): (Vec2, Vec2)) -> bool {
    if a.x.max(b.x) <= lo.x || a.x.min(b.x) >= hi.x || a.y.max(b.y) <= lo.y || a.y.min(b.y) >= hi.y {
        return false;
    }
    let d = b - a;
    let side = |c: Vec2| d.cross(c - a);
    let s = [side(lo), side(Vec2::new(hi.x, lo.y)), side(hi), side(Vec2::new(lo.x, hi.y))];
    !(s.iter().all(|&v| v >= 0.0) || s.iter().all(|&v| v <= 0.0))
}

/// `v.floor()` as an integer, without the library call `f64::floor` is
/// on targets without SSE4.1 (a tenth of the corner graph's build).
fn floor(v: f64) -> i64 {
    let i = v as i64;
    i - i64::from(i as f64 > v)
}

/// Euclidean length of a polyline.
pub fn path_length(path: &[Vec2]) -> f64 {
    path.windows(2).map(|w| w[0].distance(w[1])).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::testing::grid;

    #[test]
    fn point_may_touch_a_corner_but_not_cross_a_pinch() {
        // Two walls meeting at a corner (2,2): the diagonal through it is
        // closed, the one touching a single corner open.
        let g = grid(&["....", ".#..", "..#.", "...."]);
        let s = Space::new(&g, 0.0);
        assert!(!s.segment_clear(Vec2::new(1.5, 2.5), Vec2::new(2.5, 1.5)));
        assert!(!s.is_free(Vec2::new(2.0, 2.0)));
        assert!(s.segment_clear(Vec2::new(0.5, 0.5), Vec2::new(2.0, 1.0)));
        // Along the diagonal of the wall (1,1).
        assert!(!s.segment_clear(Vec2::new(0.5, 2.5), Vec2::new(2.0, 1.0)));
        // Through the open corner (1,1) of one wall: a tangent.
        assert!(s.segment_clear(Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.0)));
        // Along the wall's edge, and across it.
        assert!(s.segment_clear(Vec2::new(1.0, 0.5), Vec2::new(1.0, 3.5)));
        assert!(!s.segment_clear(Vec2::new(1.5, 0.5), Vec2::new(1.5, 3.5)));
        assert!(s.segment_clear(Vec2::new(0.5, 1.0), Vec2::new(3.5, 1.0)));
        assert!(!s.segment_clear(Vec2::new(0.5, 1.5), Vec2::new(3.5, 1.5)));
    }

    #[test]
    fn radius_keeps_its_distance() {
        let g = grid(&["....", ".#..", "....", "...."]);
        let s = Space::new(&g, 0.25);
        assert!(!s.is_free(Vec2::new(0.9, 1.5)));
        assert!(s.is_free(Vec2::new(0.75, 1.5)));
        assert!(s.segment_clear(Vec2::new(0.5, 0.5), Vec2::new(2.5, 0.5)));
        assert!(!s.segment_clear(Vec2::new(0.5, 0.9), Vec2::new(2.5, 0.9)));
        // The map's edge is a wall too.
        assert!(!s.is_free(Vec2::new(0.1, 3.5)));
    }
}
