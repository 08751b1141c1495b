//! The level's walls as line segments, for ORCA's obstacle half-planes.
//!
//! Every face between a wall cell (or the outside of the grid) and a
//! walkable cell is a unit edge; edges in one row or column that continue
//! each other are merged into one segment, so a room of any size has a
//! handful of segments. Segments are oriented so that the free side is
//! where `det(p − a, b − a) ≥ 0` (the wall on the other side), as RVO2 and
//! `dodgy_2d` orient obstacle edges. A uniform bin grid finds the segments
//! near an agent; ids come out ascending, so queries are deterministic.

use crate::grid::{Cell, Grid};
use crate::steer::Vec2;

/// One wall face: from `a` to `b`, solid on its right as seen in the
/// orientation above (the y axis grows downwards in the level).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Start point, world units.
    pub a: Vec2,
    /// End point, world units.
    pub b: Vec2,
}

impl Segment {
    /// Squared distance from `p` to the closest point of the segment.
    pub fn distance_squared(&self, p: Vec2) -> f32 {
        let edge = self.b - self.a;
        let len_sq = edge.length_squared();
        let t = if len_sq > 0.0 { ((p - self.a).dot(edge) / len_sq).clamp(0.0, 1.0) } else { 0.0 };
        (self.a + edge * t - p).length_squared()
    }
}

/// Calls `emit(start, end)` for every run of consecutive `i` in −1..=len
/// where `on(i)` holds (`end` exclusive): the unit faces of one row or
/// column, merged.
fn runs(len: i32, on: impl Fn(i32) -> bool, mut emit: impl FnMut(i32, i32)) {
    let mut i = -1;
    while i <= len {
        if !on(i) {
            i += 1;
            continue;
        }
        let start = i;
        while i <= len && on(i) {
            i += 1;
        }
        emit(start, i);
    }
}

/// Side of the bins of [`Walls`], in cells, unless the segments spread
/// so far that bins must grow to stay within [`BINS_PER_SEGMENT`] each.
const BIN: f32 = 4.0;
const BINS_PER_SEGMENT: f64 = 4.0;
const MIN_BINS: f64 = 64.0;

/// Wall segments and a bin grid over them.
#[derive(Clone, Debug, Default)]
pub struct Walls {
    segments: Vec<Segment>,
    bin: f32,
    cols: usize,
    rows: usize,
    /// `starts[b]..starts[b + 1]` is bin `b`'s range in `ids`.
    starts: Vec<u32>,
    ids: Vec<u32>,
}

impl Walls {
    /// The merged wall faces of `grid` (closed doors count as walls): row
    /// by row those looking north and south, then column by column those
    /// looking west and east.
    pub fn from_grid(grid: &Grid) -> Walls {
        let (w, h) = (grid.width() as i32, grid.height() as i32);
        let solid = |x: i32, y: i32| !grid.is_walkable(Cell::new(x, y));
        let mut segments = Vec::new();
        // A face of solid cell (x, y) toward (x + dx, y + dy), walkable.
        let face = |x: i32, y: i32, dx: i32, dy: i32| solid(x, y) && !solid(x + dx, y + dy);
        // Rows: faces looking north (free at smaller y) and south; solid
        // cells from −1 to w so that the grid's edge is a wall too.
        for y in -1..=h {
            for (dy, north) in [(-1, true), (1, false)] {
                let fy = if north { y } else { y + 1 } as f32;
                runs(
                    w,
                    |x| face(x, y, 0, dy),
                    |x0, x1| {
                        let (a, b) = (Vec2::new(x0 as f32, fy), Vec2::new(x1 as f32, fy));
                        segments.push(if north { Segment { a, b } } else { Segment { a: b, b: a } });
                    },
                );
            }
        }
        for x in -1..=w {
            for (dx, west) in [(-1, true), (1, false)] {
                let fx = if west { x } else { x + 1 } as f32;
                runs(
                    h,
                    |y| face(x, y, dx, 0),
                    |y0, y1| {
                        let (a, b) = (Vec2::new(fx, y0 as f32), Vec2::new(fx, y1 as f32));
                        segments.push(if west { Segment { a: b, b: a } } else { Segment { a, b } });
                    },
                );
            }
        }
        Walls::new(segments)
    }

    /// Walls from any segments with finite end points (tests, benches, a
    /// navmesh's boundary).
    pub fn new(segments: Vec<Segment>) -> Walls {
        let mut walls = Walls { segments, ..Walls::default() };
        walls.index();
        walls
    }

    /// The segments, in id order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    fn bin_range(&self, lo: Vec2, hi: Vec2) -> (usize, usize, usize, usize) {
        let clamp = |v: f32, n: usize| ((v / self.bin).floor().max(0.0) as usize).min(n - 1);
        (clamp(lo.x, self.cols), clamp(hi.x, self.cols), clamp(lo.y, self.rows), clamp(hi.y, self.rows))
    }

    /// Counting sort of the segment ids into every bin their bounding box
    /// touches, over the box from the origin to the farthest end point
    /// (anything left of or above the origin goes to the first bins).
    fn index(&mut self) {
        let far = self
            .segments
            .iter()
            .fold(Vec2::ZERO, |m, s| Vec2::new(m.x.max(s.a.x).max(s.b.x), m.y.max(s.a.y).max(s.b.y)));
        let most = BINS_PER_SEGMENT * self.segments.len() as f64 + MIN_BINS;
        let span = |v: f32, bin: f64| (f64::from(v) / bin).floor() + 1.0;
        let mut bin = f64::from(BIN);
        while span(far.x, bin) * span(far.y, bin) > most {
            bin *= 2.0;
        }
        self.bin = bin as f32;
        self.cols = span(far.x, bin) as usize;
        self.rows = span(far.y, bin) as usize;
        let bins = self.cols * self.rows;
        let mut counts = vec![0u32; bins + 1];
        let boxes: Vec<_> = self
            .segments
            .iter()
            .map(|s| {
                let lo = Vec2::new(s.a.x.min(s.b.x), s.a.y.min(s.b.y));
                let hi = Vec2::new(s.a.x.max(s.b.x), s.a.y.max(s.b.y));
                self.bin_range(lo, hi)
            })
            .collect();
        for &(x0, x1, y0, y1) in &boxes {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    counts[y * self.cols + x] += 1;
                }
            }
        }
        let mut sum = 0;
        for c in &mut counts {
            let n = *c;
            *c = sum;
            sum += n;
        }
        let mut fill = counts.clone();
        self.ids = vec![0; sum as usize];
        for (id, &(x0, x1, y0, y1)) in boxes.iter().enumerate() {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let slot = &mut fill[y * self.cols + x];
                    self.ids[*slot as usize] = id as u32;
                    *slot += 1;
                }
            }
        }
        self.starts = counts;
    }

    /// Replaces `out` with the ids of the segments within `range` of `pos`,
    /// ascending.
    pub fn near(&self, pos: Vec2, range: f32, out: &mut Vec<u32>) {
        out.clear();
        if self.segments.is_empty() || !pos.x.is_finite() || !pos.y.is_finite() {
            return;
        }
        let reach = Vec2::new(range, range);
        let (x0, x1, y0, y1) = self.bin_range(pos - reach, pos + reach);
        for y in y0..=y1 {
            let first = self.starts[y * self.cols + x0] as usize;
            let last = self.starts[y * self.cols + x1 + 1] as usize;
            out.extend_from_slice(&self.ids[first..last]);
        }
        out.sort_unstable();
        out.dedup();
        out.retain(|&id| self.segments[id as usize].distance_squared(pos) <= range * range);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn walls(text: &str) -> Walls {
        Walls::from_grid(&Level::parse(text, "test").unwrap().grid)
    }

    #[test]
    fn a_room_is_four_merged_faces_facing_inwards() {
        let w = walls("#####\n#...#\n#...#\n#####\n");
        let segs = w.segments();
        assert_eq!(segs.len(), 4, "{segs:?}");
        for s in segs {
            // The room's centre is on every face's free side.
            let centre = Vec2::new(2.5, 2.0);
            assert!(super::super::lp::det(centre - s.a, s.b - s.a) > 0.0, "{s:?}");
            assert_eq!((s.b - s.a).length(), if s.a.y == s.b.y { 3.0 } else { 2.0 });
        }
    }

    #[test]
    fn far_flung_segments_keep_the_bins_few() {
        let far = Segment { a: Vec2::new(1e30, 0.0), b: Vec2::new(1e30, 1e30) };
        let near = Segment { a: Vec2::new(1.0, 1.0), b: Vec2::new(2.0, 1.0) };
        let w = Walls::new(vec![far, near]);
        assert!(w.cols * w.rows <= 4 * 2 + 64, "{}x{}", w.cols, w.rows);
        let mut out = Vec::new();
        w.near(Vec2::new(1.5, 1.5), 1.0, &mut out);
        assert_eq!(out, vec![1]);
    }

    #[test]
    fn a_pillar_adds_its_four_faces_and_queries_find_near_ones() {
        let w = walls("#######\n#.....#\n#..#..#\n#.....#\n#######\n");
        assert_eq!(w.segments().len(), 8);
        let mut out = Vec::new();
        w.near(Vec2::new(3.5, 1.5), 0.6, &mut out);
        let found: Vec<_> = out.iter().map(|&i| w.segments()[i as usize]).collect();
        // The room's north wall and the pillar's north face.
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found.iter().all(|s| s.a.y == s.b.y));
        w.near(Vec2::new(3.5, 1.5), 100.0, &mut out);
        assert_eq!(out, (0..8).collect::<Vec<u32>>());
    }
}
