//! A uniform-grid spatial hash for neighbour queries, so that flocking costs
//! O(n) per tick instead of O(n²).
//!
//! It is rebuilt from scratch every tick by a counting sort into three flat
//! arrays (bin starts, ids and positions in bin order): no per-bin `Vec`, no
//! `HashMap`, no allocation once the buffers have grown, and the ids in each
//! bin come out ascending, so every query is deterministic. The bins cover
//! the bounding box of the positions, so any finite positions work; when the
//! box is huge compared with the cell size the cells grow so that the bin
//! count stays proportional to the number of points.

use super::Vec2;

/// Bins allowed per point (plus [`MIN_BINS`]) before cells are enlarged: a
/// few empty bins per point cost nothing, millions would.
const BINS_PER_POINT: f64 = 4.0;
const MIN_BINS: f64 = 16.0;

/// Relative widening of the bin range a query scans. The range is
/// computed in `f32` and the distance test in `f64`; widening by far more
/// than `f32` rounding makes sure a point that passes the test is never in a
/// bin just outside the range. It only adds candidates, never results.
const REACH_SLACK: f32 = 1e-5;

/// Neighbour search over a set of points, rebuilt each tick with
/// [`SpatialHash::rebuild`] and queried with [`SpatialHash::query`].
#[derive(Clone, Debug)]
pub struct SpatialHash {
    /// The cell size asked for; the one in use may be larger (see the module
    /// documentation).
    cell_size: f32,
    origin: Vec2,
    inv_cell: f32,
    cols: usize,
    rows: usize,
    /// `starts[b]..starts[b + 1]` is bin `b`'s range in `ids` and `points`;
    /// bins are numbered row by row.
    starts: Vec<u32>,
    /// Point ids (indices into the rebuild input), grouped by bin.
    ids: Vec<u32>,
    /// The positions in the same order as `ids`, so a query reads memory
    /// sequentially.
    points: Vec<Vec2>,
    /// Scratch for a rebuild: the input positions and each one's bin.
    input: Vec<Vec2>,
    bin_of: Vec<u32>,
}

impl SpatialHash {
    /// An empty hash with bins of `cell_size` world units. The neighbour
    /// radius is a good choice: a query then scans 2×2 to 3×3 bins.
    ///
    /// # Panics
    /// When `cell_size` is not a positive finite number (a programming
    /// error: it is a constant of the caller).
    pub fn new(cell_size: f32) -> SpatialHash {
        assert!(
            cell_size > 0.0 && cell_size.is_finite(),
            "spatial hash cell size must be positive and finite, got {cell_size}"
        );
        SpatialHash {
            cell_size,
            origin: Vec2::ZERO,
            inv_cell: 1.0 / cell_size,
            cols: 1,
            rows: 1,
            starts: vec![0, 0],
            ids: Vec::new(),
            points: Vec::new(),
            input: Vec::new(),
            bin_of: Vec::new(),
        }
    }

    /// Replaces the contents with `positions`; the i-th position gets id i.
    /// Non-finite positions are kept, in an edge bin, and judged by the
    /// same distance test as the rest (a NaN never matches).
    ///
    /// # Panics
    /// With more than `u32::MAX` positions.
    pub fn rebuild(&mut self, positions: impl IntoIterator<Item = Vec2>) {
        self.input.clear();
        self.input.extend(positions);
        let n = self.input.len();
        assert!(u32::try_from(n).is_ok(), "too many points for u32 ids");
        self.fit_bins();

        let bins = self.cols * self.rows;
        self.starts.clear();
        self.starts.resize(bins + 1, 0);
        self.bin_of.clear();
        for &p in &self.input {
            let bin = self.row(p.y) * self.cols + self.col(p.x);
            self.bin_of.push(bin as u32);
            self.starts[bin] += 1;
        }
        // Inclusive prefix sums: starts[b] is now the end of bin b. Filling
        // each bin backwards from its end, in descending id order, leaves
        // starts[b] at the bin's start and the ids ascending within it.
        let mut end = 0;
        for s in &mut self.starts[..bins] {
            end += *s;
            *s = end;
        }
        self.starts[bins] = n as u32;
        self.ids.clear();
        self.ids.resize(n, 0);
        self.points.clear();
        self.points.resize(n, Vec2::ZERO);
        for (i, (&bin, &p)) in self.bin_of.iter().zip(&self.input).enumerate().rev() {
            let slot = &mut self.starts[bin as usize];
            *slot -= 1;
            self.ids[*slot as usize] = i as u32;
            self.points[*slot as usize] = p;
        }
    }

    /// Sets origin, cell size and bin counts to cover the bounding box of
    /// the finite input coordinates with a bounded number of bins. The
    /// arithmetic is in `f64` so that even a box spanning the whole `f32`
    /// range is sized without overflow.
    fn fit_bins(&mut self) {
        let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for p in &self.input {
            for (axis, v) in [p.x, p.y].into_iter().enumerate() {
                if v.is_finite() {
                    lo[axis] = lo[axis].min(v);
                    hi[axis] = hi[axis].max(v);
                }
            }
        }
        for axis in 0..2 {
            if lo[axis] > hi[axis] {
                // No finite coordinate on this axis.
                (lo[axis], hi[axis]) = (0.0, 0.0);
            }
        }
        let span_x = f64::from(hi[0]) - f64::from(lo[0]);
        let span_y = f64::from(hi[1]) - f64::from(lo[1]);
        let max_bins = BINS_PER_POINT * self.input.len() as f64 + MIN_BINS;
        let mut cell = f64::from(self.cell_size);
        let (cols, rows) = loop {
            let cols = (span_x / cell).floor() + 1.0;
            let rows = (span_y / cell).floor() + 1.0;
            if cols * rows <= max_bins {
                break (cols as usize, rows as usize);
            }
            cell *= 2.0;
        };
        self.origin = Vec2::new(lo[0], lo[1]);
        self.inv_cell = (1.0 / cell) as f32;
        self.cols = cols;
        self.rows = rows;
    }

    /// The column of world x, clamped to the grid (saturating casts send
    /// NaN and everything left of the origin to column 0).
    fn col(&self, x: f32) -> usize {
        (((x - self.origin.x) * self.inv_cell) as usize).min(self.cols - 1)
    }

    fn row(&self, y: f32) -> usize {
        (((y - self.origin.y) * self.inv_cell) as usize).min(self.rows - 1)
    }

    /// Replaces `out` with the ids of every point within `radius` of `pos`
    /// (distance ≤ radius, see [`within_radius`]), ascending. A point at
    /// `pos` itself is included: callers skip their own id. A negative or
    /// NaN radius counts as 0.
    pub fn query(&self, pos: Vec2, radius: f32, out: &mut Vec<u32>) {
        out.clear();
        let radius = radius.max(0.0);
        let reach = radius * (1.0 + REACH_SLACK);
        let (x0, x1) = (self.col(pos.x - reach), self.col(pos.x + reach));
        let (y0, y1) = (self.row(pos.y - reach), self.row(pos.y + reach));
        for row in y0..=y1 {
            // The bins x0..=x1 of a row are contiguous in the arrays.
            let first = self.starts[row * self.cols + x0] as usize;
            let last = self.starts[row * self.cols + x1 + 1] as usize;
            for k in first..last {
                if within_radius(self.points[k], pos, radius) {
                    out.push(self.ids[k]);
                }
            }
        }
        out.sort_unstable();
    }
}

/// The neighbour test both the hash and the brute force use, so their
/// answers agree exactly: distance at most `radius` (a negative or NaN
/// radius counts as 0). Squared distances are compared in `f64`, where no
/// `f32` coordinate or radius can overflow: in `f32` a radius above ~1e19
/// would square to infinity and admit points at any distance.
pub fn within_radius(a: Vec2, b: Vec2, radius: f32) -> bool {
    let radius = f64::from(radius.max(0.0));
    let dx = f64::from(a.x) - f64::from(b.x);
    let dy = f64::from(a.y) - f64::from(b.y);
    dx * dx + dy * dy <= radius * radius
}

/// The O(n) reference for one query (O(n²) for a whole flock): what the
/// property tests and the benchmark compare [`SpatialHash::query`] with, and
/// a fine choice for a handful of agents. Same contract as the query.
pub fn neighbors_brute_force(positions: &[Vec2], pos: Vec2, radius: f32, out: &mut Vec<u32>) {
    out.clear();
    out.extend((0..).zip(positions).filter(|&(_, &p)| within_radius(p, pos, radius)).map(|(i, _)| i));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(hash: &SpatialHash, pos: Vec2, radius: f32) -> Vec<u32> {
        let mut out = vec![99];
        hash.query(pos, radius, &mut out);
        out
    }

    #[test]
    fn empty_hash_finds_nothing() {
        let mut h = SpatialHash::new(1.0);
        assert_eq!(query(&h, Vec2::ZERO, 10.0), Vec::<u32>::new());
        h.rebuild([]);
        assert_eq!(query(&h, Vec2::ZERO, 10.0), Vec::<u32>::new());
    }

    #[test]
    fn finds_points_within_radius_in_id_order() {
        let pts =
            [Vec2::new(5.0, 5.0), Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 2.0), Vec2::new(0.5, 0.5)];
        let mut h = SpatialHash::new(1.0);
        h.rebuild(pts);
        assert_eq!(query(&h, Vec2::ZERO, 1.0), vec![1, 2, 4]);
        assert_eq!(query(&h, Vec2::ZERO, 2.0), vec![1, 2, 3, 4]);
        assert_eq!(query(&h, Vec2::new(5.0, 5.0), 0.0), vec![0]);
        assert_eq!(query(&h, Vec2::new(-50.0, 3.0), 1.0), Vec::<u32>::new());
        assert_eq!(query(&h, Vec2::ZERO, -1.0), vec![1]);
        assert_eq!(query(&h, Vec2::ZERO, f32::INFINITY), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn huge_extent_keeps_bins_bounded() {
        let pts = [Vec2::new(-f32::MAX, 0.0), Vec2::new(f32::MAX, f32::MAX), Vec2::new(1.0, 1.0), Vec2::new(1.5, 1.0)];
        let mut h = SpatialHash::new(0.001);
        h.rebuild(pts);
        assert!(h.cols * h.rows <= 4 * pts.len() + 16);
        assert_eq!(query(&h, Vec2::new(1.0, 1.0), 0.75), vec![2, 3]);
        assert_eq!(query(&h, Vec2::new(f32::MAX, f32::MAX), 1.0), vec![1]);
    }

    #[test]
    fn non_finite_points_never_match() {
        let pts = [Vec2::new(f32::NAN, 0.0), Vec2::new(0.0, f32::INFINITY), Vec2::ZERO];
        let mut h = SpatialHash::new(1.0);
        h.rebuild(pts);
        assert_eq!(query(&h, Vec2::ZERO, 1e10), vec![2]);
    }

    #[test]
    fn rebuild_replaces_contents() {
        let mut h = SpatialHash::new(2.0);
        h.rebuild([Vec2::ZERO, Vec2::new(1.0, 1.0)]);
        h.rebuild([Vec2::new(10.0, 10.0)]);
        assert_eq!(query(&h, Vec2::ZERO, 2.0), Vec::<u32>::new());
        assert_eq!(query(&h, Vec2::new(10.0, 10.0), 0.5), vec![0]);
    }

    #[test]
    fn brute_force_agrees_on_a_small_cloud() {
        let pts: Vec<Vec2> = (0..200)
            .map(|i| {
                let t = i as f32;
                Vec2::new((t * 7.3) % 13.0, (t * 3.1) % 11.0)
            })
            .collect();
        let mut h = SpatialHash::new(1.5);
        h.rebuild(pts.iter().copied());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for &p in &pts {
            h.query(p, 2.0, &mut a);
            neighbors_brute_force(&pts, p, 2.0, &mut b);
            assert_eq!(a, b);
        }
    }
}
