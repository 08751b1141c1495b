//! Which corners a point may see, found by sweeping outward from it,
//! octant by octant, with the shadows of the walls already passed: the
//! work grows with what the point sees, not with the number of corners.
//!
//! In one octant the primary axis `p` runs away from the origin and the
//! secondary `q` across, with `0 ≤ q ≤ p`; a direction is its slope
//! `t = q / p` in `[0, 1]`. The sweep visits the grid's vertex lines in
//! increasing `p`. On each line it looks at the corners lying in the
//! directions still open; then it adds the shadows of the walls of the
//! column just passed: the open directions of a grown wall square (or a
//! run of them down a column) as seen from the origin are an open
//! interval of slopes, and a point farther than the whole square whose
//! slope lies strictly inside that interval is hidden by it. The column
//! just passed ends `r` beyond its far line, and the corners of the next
//! line start `r` before it (`r < ½`), so a corner is only ever tested
//! against walls wholly nearer than itself.
//!
//! Nothing here decides a close call: a corner strictly inside a shadow
//! (by more than [`EPS`]) is hidden for certain; one farther than [`EPS`]
//! from every shadow, and from the directions into the walls of the two
//! columns around it (not yet cast, as they reach past it), is in sight for
//! certain; every other one the sweep reaches is handed to the caller with
//! the walls it passes that close to, the only ones the exact segment test
//! ([`super::Space::segment_clear_past`]) needs to look at. Shadows merge only where they
//! overlap by more than [`EPS`], and the directions searched are the
//! gaps between them widened by [`EPS`], so rounding can only make the
//! sweep look at more, never skip a corner it should hand over.

use super::Corner;
use crate::grid::{Cell, Grid};
use crate::nav::Vec2;
use std::collections::BTreeSet;

/// Slack on slopes (which lie in `[0, 1]`): far above the rounding of a
/// quotient of coordinates below 2¹², far below the slope difference of
/// two directions that matter.
const EPS: f64 = 1e-9;

/// One octant: the primary axis (`x`, or `y` when `swap`) and the signs
/// that make `p` and `q` non-negative in it.
#[derive(Clone, Copy, Debug)]
struct Octant {
    swap: bool,
    sa: f64,
    sb: f64,
}

impl Octant {
    /// The two octants of the quadrant `(sx, sy)` (signs of x and y).
    fn of_quadrant(sx: f64, sy: f64) -> [Octant; 2] {
        [Octant { swap: false, sa: sx, sb: sy }, Octant { swap: true, sa: sy, sb: sx }]
    }

    /// A point's coordinates along the primary and secondary axes.
    fn ab(self, v: Vec2) -> (f64, f64) {
        if self.swap { (v.y, v.x) } else { (v.x, v.y) }
    }
}

/// Reusable buffers of the sweeps of one graph.
#[derive(Clone, Debug, Default)]
pub(super) struct Sweep {
    /// Per corner, the sweep that last looked at it.
    seen: Vec<u32>,
    stamp: u32,
    /// Slope intervals in shadow, sorted, disjoint.
    shadows: Vec<(f64, f64)>,
    gaps: Vec<(f64, f64)>,
    /// The walls of the column whose far side is the line being swept,
    /// and of the next column, not yet cast.
    near: Column,
    next: Column,
    /// The ends of the slope intervals of the walls cast, each wall's own
    /// (key of the slope, then the wall's world cell), to find those a
    /// direction grazes.
    ends: BTreeSet<(u64, i64, i64)>,
    /// The walls a corner's segment passes close to.
    close: Vec<(i64, i64)>,
}

/// The walls of one column that meet the open directions: each run down
/// the column as one box to cast, and each wall alone with its slope
/// interval, to certify corners by.
#[derive(Clone, Debug, Default)]
struct Column {
    /// The column's index along the primary axis.
    at: i64,
    runs: Vec<(f64, f64)>,
    /// (secondary index, slope interval) of each wall.
    cells: Vec<(i64, (f64, f64))>,
}

/// The key that orders slopes near the octant (`t` from −1 up) as
/// integers.
fn key(t: f64) -> u64 {
    (t + 1.0).max(0.0).to_bits()
}

/// What a sweep reads: the grid, the radius, the corners and where they are.
pub(super) struct Scene<'a> {
    pub grid: &'a Grid,
    pub radius: f64,
    pub corners: &'a [Corner],
    /// The corner at each grid vertex, row by row ((width + 1) per row).
    pub by_vertex: &'a [u32],
}

impl Scene<'_> {
    /// The corner at vertex `(a, b)` of an octant's axes, if any.
    fn corner_at(&self, o: Octant, a: i64, b: i64) -> Option<u32> {
        let (x, y) = if o.swap { (b, a) } else { (a, b) };
        let (w, h) = (self.grid.width() as i64, self.grid.height() as i64);
        if !(0..=w).contains(&x) || !(0..=h).contains(&y) {
            return None;
        }
        let id = self.by_vertex[(y * (w + 1) + x) as usize];
        (id != u32::MAX).then_some(id)
    }

    fn wall(&self, o: Octant, a: i64, b: i64) -> bool {
        let (x, y) = if o.swap { (b, a) } else { (a, b) };
        let fits = |v: i64| i32::try_from(v).ok();
        match (fits(x), fits(y)) {
            (Some(x), Some(y)) => !self.grid.is_walkable(Cell::new(x, y)),
            _ => true,
        }
    }

    /// The number of cells along an octant's primary and secondary axes.
    fn dims(&self, o: Octant) -> (i64, i64) {
        let (w, h) = (self.grid.width() as i64, self.grid.height() as i64);
        if o.swap { (h, w) } else { (w, h) }
    }
}

impl Sweep {
    /// Calls `found` once for every corner not certainly hidden from
    /// `origin` in the quadrants `quadrants` (signs of x and y; a corner on
    /// an axis belongs to both quadrants beside it), nearest lines first,
    /// with the walls (world cells) its segment passes close to: it meets
    /// no other wall's grown square, and none at all when there are none
    /// ([`super::Space::segment_clear_past`] decides).
    pub(super) fn run(
        &mut self,
        scene: &Scene,
        origin: Vec2,
        quadrants: &[(f64, f64)],
        mut found: impl FnMut(u32, &[(i64, i64)]),
    ) {
        if self.seen.len() != scene.corners.len() {
            self.seen = vec![0; scene.corners.len()];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        for &(sx, sy) in quadrants {
            for octant in Octant::of_quadrant(sx, sy) {
                self.octant(scene, origin, octant, &mut found);
            }
        }
    }

    fn octant(&mut self, scene: &Scene, origin: Vec2, o: Octant, found: &mut impl FnMut(u32, &[(i64, i64)])) {
        let r = scene.radius;
        let (oa, ob) = o.ab(origin);
        let (dim_a, dim_b) = scene.dims(o);
        self.shadows.clear();
        self.ends.clear();
        // Start two lines behind the origin: their columns' grown walls
        // may reach past it.
        let mut line = if o.sa > 0.0 { oa.floor() as i64 - 1 } else { oa.ceil() as i64 + 1 };
        let step = o.sa as i64;
        let mut near_done = false;
        while (-1..=dim_a + 1).contains(&line) {
            let p_line = o.sa * (line as f64 - oa);
            self.gaps_now();
            if self.gaps.is_empty() {
                break;
            }
            // The walls of the column whose far side is this line (made
            // for the line before, with its gaps, wider than these), and
            // of the next: all the walls not yet cast that a segment to a
            // corner of this line may meet.
            if !near_done {
                let mut near = std::mem::take(&mut self.near);
                self.column(scene, o, (oa, ob), line, &mut near);
                self.near = near;
            }
            let mut next = std::mem::take(&mut self.next);
            self.column(scene, o, (oa, ob), line + step, &mut next);
            self.next = next;
            // The corners on this line, where a direction is still open.
            if (0..=dim_a).contains(&line) && p_line + r > 0.0 {
                let (p_min, p_max) = ((p_line - r).max(0.0), p_line + r);
                for g in 0..self.gaps.len() {
                    let (b0, b1) = span(self.gaps[g], (p_min, p_max), ob, o.sb);
                    let first = ((b0 - r).floor() as i64).max(0);
                    let last = ((b1 + r).ceil() as i64).min(dim_b);
                    for b in first..=last {
                        let Some(id) = scene.corner_at(o, line, b) else { continue };
                        if self.seen[id as usize] == self.stamp {
                            continue;
                        }
                        let corner = scene.corners[id as usize];
                        let (a, bb) = o.ab(corner.at);
                        let (p, q) = (o.sa * (a - oa), o.sb * (bb - ob));
                        if p <= 0.0 {
                            continue;
                        }
                        let t = q / p;
                        if !(-EPS..=1.0 + EPS).contains(&t) {
                            continue;
                        }
                        self.seen[id as usize] = self.stamp;
                        if !self.hidden(t) {
                            self.close_walls(o, t, own_wall(o, line, b, corner.wall));
                            found(id, &self.close);
                        }
                    }
                }
            }
            for k in 0..self.near.runs.len() {
                let interval = self.near.runs[k];
                self.cast(interval);
            }
            let column = self.near.at;
            for &(b, (lo, hi)) in &self.near.cells {
                let (x, y) = if o.swap { (b, column) } else { (column, b) };
                for end in [lo, hi].into_iter().filter(|e| (-3.0 * EPS..=1.0 + 3.0 * EPS).contains(e)) {
                    self.ends.insert((key(end), x, y));
                }
            }
            std::mem::swap(&mut self.near, &mut self.next);
            near_done = true;
            line += step;
        }
    }

    /// Fills `out` with the walls of the column whose far side is `line`,
    /// where they meet the open directions.
    fn column(&self, scene: &Scene, o: Octant, (oa, ob): (f64, f64), line: i64, out: &mut Column) {
        let r = scene.radius;
        let (dim_a, dim_b) = scene.dims(o);
        let column = if o.sa > 0.0 { line - 1 } else { line };
        out.at = column;
        out.runs.clear();
        out.cells.clear();
        let p_line = o.sa * (line as f64 - oa);
        if !(-1..=dim_a).contains(&column) || p_line + r <= 0.0 {
            return;
        }
        let (p_min, p_max) = ((p_line - 1.0 - r).max(0.0), p_line + r);
        // The grown column along the primary axis, from its edges'
        // coordinates computed as the corners' are (k ± r), so that a wall
        // whose corner is the origin touches it exactly rather than by a
        // rounding error's width, which would shadow every direction.
        let (a0, a1) = (column as f64 - r, (column + 1) as f64 + r);
        let (p0, p1) = ordered(o.sa * (a0 - oa), o.sa * (a1 - oa));
        let box_of = |from: i64, to: i64| {
            let (w0, w1) = (from as f64 - r, (to + 1) as f64 + r);
            let (q0, q1) = ordered(o.sb * (w0 - ob), o.sb * (w1 - ob));
            shadow(p0, p1, q0, q1)
        };
        for g in 0..self.gaps.len() {
            let (b0, b1) = span(self.gaps[g], (p_min, p_max), ob, o.sb);
            let first = ((b0 - 1.0 - r).ceil() as i64).max(-1);
            let last = ((b1 + r).floor() as i64).min(dim_b);
            let mut b = first;
            while b <= last {
                if !scene.wall(o, column, b) {
                    b += 1;
                    continue;
                }
                let start = b;
                while b < last && scene.wall(o, column, b + 1) {
                    b += 1;
                }
                out.runs.extend(box_of(start, b));
                out.cells.extend((start..=b).filter_map(|k| Some((k, box_of(k, k)?))));
                b += 1;
            }
        }
    }

    /// Fills `close` with the walls a segment at slope `t` to a corner of
    /// the line being swept, whose own wall is the cell `own` (primary,
    /// secondary index), passes within [`EPS`] of in slope: the walls cast
    /// with an end of their interval there, and the walls not yet cast
    /// (they reach past the corner) whose directions come that close, but
    /// its own (which it only touches where it ends: it is tangent there).
    /// Every other wall is farther than [`EPS`] from the segment's
    /// direction or, if cast, holds it strictly inside, which would have
    /// hidden the corner.
    fn close_walls(&mut self, o: Octant, t: f64, own: (i64, i64)) {
        self.close.clear();
        let (lo, hi) = (key(t - EPS), key(t + EPS));
        self.close
            .extend(self.ends.range((lo, i64::MIN, i64::MIN)..=(hi, i64::MAX, i64::MAX)).map(|&(_, x, y)| (x, y)));
        for c in [&self.near, &self.next] {
            for &(b, (lo, hi)) in &c.cells {
                let apart = t <= lo - EPS || t >= hi + EPS;
                if !apart && (c.at, b) != own {
                    self.close.push(if o.swap { (b, c.at) } else { (c.at, b) });
                }
            }
        }
        self.close.sort_unstable();
        self.close.dedup();
    }

    /// Whether slope `t` lies strictly inside a shadow, by more than [`EPS`].
    fn hidden(&self, t: f64) -> bool {
        let i = self.shadows.partition_point(|&(lo, _)| lo < t);
        i > 0 && {
            let (lo, hi) = self.shadows[i - 1];
            lo + EPS < t && t < hi - EPS
        }
    }

    /// Adds a shadow, merging those it overlaps by more than [`EPS`].
    fn cast(&mut self, (mut lo, mut hi): (f64, f64)) {
        let first = self.shadows.partition_point(|&(_, h)| h <= lo + EPS);
        let mut end = first;
        while end < self.shadows.len() && self.shadows[end].0 < hi - EPS {
            lo = lo.min(self.shadows[end].0);
            hi = hi.max(self.shadows[end].1);
            end += 1;
        }
        self.shadows.splice(first..end, [(lo, hi)]);
    }

    /// The open directions, each widened by [`EPS`] on both sides.
    fn gaps_now(&mut self) {
        self.gaps.clear();
        let mut from = 0.0f64;
        for &(lo, hi) in &self.shadows {
            if lo > from - 2.0 * EPS && lo + EPS > -EPS {
                self.gaps.push(((from - EPS).max(-EPS), (lo + EPS).min(1.0 + EPS)));
            }
            from = from.max(hi);
            if from > 1.0 + 2.0 * EPS {
                return;
            }
        }
        if from <= 1.0 + EPS {
            self.gaps.push(((from - EPS).max(-EPS), 1.0 + EPS));
        }
        self.gaps.retain(|&(a, b)| a <= b);
    }
}

/// The wall cell, as (primary, secondary) indices of octant `o`, of the
/// corner at vertex (`line`, `b`) whose wall lies along `wall`.
fn own_wall(o: Octant, line: i64, b: i64, wall: (f64, f64)) -> (i64, i64) {
    let (x, y) = if o.swap { (b, line) } else { (line, b) };
    let step = |w: f64| i64::from(w < 0.0);
    let (cx, cy) = (x - step(wall.0), y - step(wall.1));
    if o.swap { (cy, cx) } else { (cx, cy) }
}

/// The range of the secondary axis (world coordinates) the directions of
/// `gap` cover between depths `p_min` and `p_max`, from an origin at `ob`.
fn span((ta, tb): (f64, f64), (p_min, p_max): (f64, f64), ob: f64, sb: f64) -> (f64, f64) {
    let q_lo = if ta >= 0.0 { ta * p_min } else { ta * p_max };
    ordered(ob + sb * q_lo, ob + sb * tb * p_max)
}

/// `(a, b)` in increasing order.
fn ordered(a: f64, b: f64) -> (f64, f64) {
    if a <= b { (a, b) } else { (b, a) }
}

/// The slopes of the directions from the origin into the open box
/// `(p0, p1) × (q0, q1)` (octant coordinates), clipped to a little beyond
/// the octant; `None` when no direction of the octant meets it.
fn shadow(p0: f64, p1: f64, q0: f64, q1: f64) -> Option<(f64, f64)> {
    if p1 <= 0.0 {
        return None;
    }
    let near = p0.max(0.0);
    let lo = if q0 >= 0.0 { q0 / p1 } else { -1.0 };
    let hi = match (q1 > 0.0, near > 0.0) {
        (true, true) => (q1 / near).min(2.0),
        (true, false) => 2.0,
        (false, _) => q1 / p1,
    };
    // Kept when it reaches the octant's edges or near them: the sweep
    // certifies a corner on an edge only clear of every wall beside it.
    (lo < hi && hi > -2.0 * EPS && lo < 1.0 + 2.0 * EPS).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shadows_merge_when_they_overlap_and_hide_strictly_inside() {
        let mut s = Sweep::default();
        s.cast((0.1, 0.2));
        s.cast((0.3, 0.4));
        s.cast((0.15, 0.35));
        assert_eq!(s.shadows, vec![(0.1, 0.4)]);
        // Touching is not overlapping: the direction between stays open.
        s.cast((0.4, 0.5));
        assert_eq!(s.shadows, vec![(0.1, 0.4), (0.4, 0.5)]);
        assert!(s.hidden(0.2) && s.hidden(0.45));
        assert!(!s.hidden(0.4) && !s.hidden(0.1) && !s.hidden(0.05) && !s.hidden(0.6));
        s.gaps_now();
        assert_eq!(s.gaps.len(), 3, "{:?}", s.gaps);
        assert!(s.gaps[1].0 <= 0.4 && s.gaps[1].1 >= 0.4);
    }

    #[test]
    fn a_box_hides_the_slopes_between_its_extreme_corners() {
        // A box from p 2 to 3, q 1 to 2: slopes 1/3 to 1.
        assert_eq!(shadow(2.0, 3.0, 1.0, 2.0), Some((1.0 / 3.0, 1.0)));
        // Touching the origin's line: every slope above its lowest.
        assert_eq!(shadow(0.0, 1.0, 0.5, 1.0), Some((0.5, 2.0)));
        // Below the octant, behind the origin.
        assert_eq!(shadow(1.0, 2.0, -2.0, -1.0), None);
        assert_eq!(shadow(-2.0, -1.0, 0.0, 1.0), None);
    }
}
