//! A uniform-grid spatial hash for neighbour queries, so that flocking costs
//! O(n) per tick instead of O(n²), laid out so that a query streams.
//!
//! It is rebuilt from scratch every tick by a counting sort into flat
//! arrays in *bin order* (bins row by row, each bin's points by ascending
//! id): the bin starts, the ids, and the positions as one array per
//! coordinate. No per-bin `Vec`, no `HashMap`, and once the buffers have
//! grown, no allocation but short lists of the sort's jobs and of their
//! shares. The sort runs on the current rayon pool over fixed jobs
//! (points by id, then bands of bin rows), each pass's jobs cut into one
//! share per pool thread (`crate::shares`, so that a loaded machine does
//! not leave them all to the thread that asked first), and its result is
//! the serial counting sort's slot for slot, whatever the number of
//! threads. The bins a query touches on one row of bins are
//! contiguous in those arrays, so a query reads a few runs of consecutive
//! slots ([`SpatialHash::runs`], [`SpatialHash::visit`]) instead of
//! gathering ids from all over memory; a caller that lays out its own
//! per-point fields in the same order ([`SpatialHash::gather`]) reads them
//! the same way. Answers come in slot order, which is a function of the
//! positions alone: determinism comes from the order of construction, and
//! no answer is sorted.
//!
//! The bins cover the bounding box of the positions, so any finite
//! positions work; when the box is huge compared with the cell size the
//! cells grow so that the bin count stays proportional to the number of
//! points.

use super::Vec2;
use crate::shares::{on_each_thread, split, split_mut};
use std::ops::Range;

/// Bins allowed per point (plus [`MIN_BINS`]) before cells are enlarged: a
/// few empty bins per point cost nothing, millions would.
const BINS_PER_POINT: f64 = 4.0;
const MIN_BINS: f64 = 16.0;

/// Relative widening of the bin range a query scans. The range and the
/// distance test are both computed in `f32`; widening by far more than
/// `f32` rounding makes sure a point that passes the test is never in a bin
/// just outside the range. It only adds candidates, never results.
const REACH_SLACK: f32 = 1e-5;

/// Largest radius whose square the distance test forms in `f32`: its
/// square (1e36) and any squared distance that does not overflow compare
/// exactly as the real numbers would, and a squared distance that
/// overflows belongs to a point farther than the radius. Above it the test
/// is made in `f64`, where no `f32` coordinate or radius overflows.
const F32_RADIUS: f32 = 1e18;

/// Points per job of a rebuild's counting sort: fixed, so that how the
/// work is cut never depends on the number of threads, and small enough
/// that whole jobs make even shares (100,000 points are 49 jobs, 25 and 24
/// on two threads, where jobs of 8,192 made 7 and 6, one thread's share
/// 17% longer), at the price of a prefix sum over jobs times bands.
const SORT_CHUNK: usize = 2048;

/// Rows of bins per band of the sort: the points are sorted by band first
/// (each job counting and placing its own points), then each band's
/// points into its bins, every band on its own.
const BAND_ROWS: usize = 4;

/// Candidates a query tests at a time ([`Block`]).
pub const LANES: usize = 8;

/// [`LANES`] consecutive slots, from the start of one of a query's runs
/// or [`LANES`] after the block before, as the query tested them ([`SpatialHash::visit_blocks`]): each lane's offset from the
/// query's position (the point minus it), squared distance in `f32`, and
/// whether it is a point the query finds.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    /// The first slot (lane 0).
    pub at: usize,
    /// Each lane's point minus the query's position, in x.
    pub dx: [f32; LANES],
    /// The same in y.
    pub dy: [f32; LANES],
    /// Each lane's squared distance, `dx² + dy²`.
    pub d2: [f32; LANES],
    /// All ones where the lane is within the radius and in one of the
    /// query's runs, zero elsewhere (slots of the block outside the runs,
    /// in other bins or past the last point, never hit): a mask to `&`
    /// with a lane's bits ([`keep`]), which compiles to vector
    /// instructions where a `bool` and a branch would not.
    pub hit: [u32; LANES],
}

/// `FIRST[n]`: all ones in the first `n` lanes, zero in the rest: the
/// lanes of a block that lie in its run. A table, so that the mask is one
/// vector load (per-lane compares of the lane number compile to scalar
/// code).
const FIRST: [[u32; LANES]; LANES + 1] = {
    let mut t = [[0; LANES]; LANES + 1];
    let mut n = 0;
    while n <= LANES {
        let mut lane = 0;
        while lane < n {
            t[n][lane] = u32::MAX;
            lane += 1;
        }
        n += 1;
    }
    t
};

/// `ALL_BUT[k]`: all ones but in lane `k`; `ALL_BUT[LANES]` all ones.
const ALL_BUT: [[u32; LANES]; LANES + 1] = {
    let mut t = [[u32::MAX; LANES]; LANES + 1];
    let mut k = 0;
    while k < LANES {
        t[k][k] = 0;
        k += 1;
    }
    t
};

/// The [`LANES`] values of `by_slot` from `at` on, with one bounds check.
///
/// # Panics
/// When `by_slot` has fewer than `at + LANES` values (per-slot arrays are
/// padded with a block: see [`Block::of`]).
#[inline]
fn lanes_at<T>(by_slot: &[T], at: usize) -> &[T; LANES] {
    by_slot[at..at + LANES].try_into().expect("a slice of LANES values")
}

/// All ones if `b`, else zero: a lane mask of [`Block::hit`]'s kind.
#[inline]
pub const fn lane_mask(b: bool) -> u32 {
    0u32.wrapping_sub(b as u32)
}

/// `v` where `mask` ([`lane_mask`]) is all ones, `0.0` where it is zero.
#[inline]
pub fn keep(v: f32, mask: u32) -> f32 {
    f32::from_bits(v.to_bits() & mask)
}

impl Block {
    /// The block's lanes of `by_slot`, an array of one value per slot
    /// padded with [`LANES`] more (a block may run past the last point).
    ///
    /// # Panics
    /// When `by_slot` is shorter than that.
    #[inline]
    pub fn of<'a, T>(&self, by_slot: &'a [T]) -> &'a [T; LANES] {
        lanes_at(by_slot, self.at)
    }

    /// [`Block::hit`] less the lane of `slot` (a query's own point), by a
    /// mask from a table rather than an index into the array (which would
    /// keep the block in memory) or a compare per lane (scalar code).
    #[inline]
    pub fn hit_except(&self, slot: usize) -> [u32; LANES] {
        let but = &ALL_BUT[slot.wrapping_sub(self.at).min(LANES)];
        let mut take = self.hit;
        for (t, &b) in take.iter_mut().zip(but) {
            *t &= b;
        }
        take
    }

    /// The hits as a bit mask, lane 0 lowest.
    #[inline]
    pub fn mask(&self) -> u32 {
        self.hit.iter().enumerate().fold(0, |m, (lane, &h)| m | (h & 1) << lane)
    }
}

/// Neighbour search over a set of points, rebuilt each tick with
/// [`SpatialHash::rebuild`] and queried with [`SpatialHash::visit`],
/// [`SpatialHash::query`] or, for callers that test distances on their own
/// arrays, [`SpatialHash::runs`].
#[derive(Clone, Debug)]
pub struct SpatialHash {
    /// The cell size asked for; the one in use may be larger (see the module
    /// documentation).
    cell_size: f32,
    bins: Bins,
    /// `starts[b]..starts[b + 1]` is bin `b`'s range of slots; bins are
    /// numbered row by row.
    starts: Vec<u32>,
    /// The point id (index into the rebuild input) in each slot.
    ids: Vec<u32>,
    /// The slot of each point id: the inverse of `ids`.
    slots: Vec<u32>,
    /// The positions by slot, one array per coordinate, so a query reads
    /// memory sequentially.
    xs: Vec<f32>,
    ys: Vec<f32>,
    /// Scratch for a rebuild: the input positions; the point ids sorted
    /// by band, then each one's slot (see [`SpatialHash::sort`]); where
    /// each band begins among them; and for each job and band, where the
    /// job's points of the band go.
    input: Vec<Vec2>,
    staged: Vec<u32>,
    band_starts: Vec<u32>,
    offsets: Vec<u32>,
}

/// Where the bins lie: the bin of a position.
#[derive(Clone, Copy, Debug)]
struct Bins {
    origin: Vec2,
    inv_cell: f32,
    cols: usize,
    rows: usize,
}

impl Bins {
    /// The column of world x, clamped to the grid ([`clamp_bin`]: NaN and
    /// everything left of the origin to 0).
    #[inline]
    fn col(&self, x: f32) -> usize {
        clamp_bin((x - self.origin.x) * self.inv_cell, self.cols)
    }

    #[inline]
    fn row(&self, y: f32) -> usize {
        clamp_bin((y - self.origin.y) * self.inv_cell, self.rows)
    }

    /// The bin of `p`: bins are numbered row by row.
    #[inline]
    fn of(&self, p: Vec2) -> usize {
        self.row(p.y) * self.cols + self.col(p.x)
    }

    /// The band of `p`'s bin ([`BAND_ROWS`] rows of bins a band).
    #[inline]
    fn band_of(&self, p: Vec2) -> usize {
        self.row(p.y) / BAND_ROWS
    }
}

impl SpatialHash {
    /// An empty hash with bins of `cell_size` world units. The neighbour
    /// radius is a fine choice (a query scans 2×2 to 3×3 bins); half of it
    /// scans fewer candidates in more, shorter runs.
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
            bins: Bins { origin: Vec2::ZERO, inv_cell: 1.0 / cell_size, cols: 1, rows: 1 },
            starts: vec![0, 0],
            ids: Vec::new(),
            slots: Vec::new(),
            xs: vec![f32::INFINITY; LANES],
            ys: vec![f32::INFINITY; LANES],
            input: Vec::new(),
            staged: Vec::new(),
            band_starts: Vec::new(),
            offsets: Vec::new(),
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
        let (lo, hi) = self.bounding_box();
        // The positions are in already: the sort has none to read.
        self.sort(lo, hi, |_, _| {});
    }

    /// [`SpatialHash::rebuild`] with bins over the box from `lo` to `hi`
    /// (a map's extent, say) instead of the positions' bounding box, which
    /// spares a pass over them. Positions outside the box are kept, in the
    /// edge bins, and every query still finds them; it is only slower if
    /// many lie outside. The i-th of `items` gets id i, at `pos` of it:
    /// the positions are read out of the items by the sort's first pass,
    /// in its fixed shares (a crowd's out of its creatures, on every
    /// thread of the pool, each job counting the points it has just read).
    ///
    /// # Panics
    /// With more than `u32::MAX` positions.
    pub fn rebuild_within<T: Sync>(&mut self, items: &[T], pos: impl Fn(&T) -> Vec2 + Sync, lo: Vec2, hi: Vec2) {
        // Every position is written by the sort's first pass: the buffer is
        // only sized here (a no-op while the count holds), not filled.
        self.input.resize(items.len(), Vec2::ZERO);
        let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
        let (lo, hi) = (Vec2::new(finite(lo.x), finite(lo.y)), Vec2::new(finite(hi.x), finite(hi.y)));
        self.sort(lo, Vec2::new(hi.x.max(lo.x), hi.y.max(lo.y)), |first, points| {
            for (p, item) in points.iter_mut().zip(&items[first..]) {
                *p = pos(item);
            }
        });
    }

    /// Counting-sorts the input into bins covering `lo` to `hi`, in
    /// parallel over fixed jobs in fixed shares, one per pool thread
    /// (`crate::shares`), to the serial sort's result: the bins in
    /// order, each bin's points by ascending id.
    ///
    /// 1. Each job of [`SORT_CHUNK`] points reads its points (`read` of
    ///    its first id and its piece of the input: nothing to do when they
    ///    are in already), counts them per band ([`BAND_ROWS`] rows of
    ///    bins) and notes each one's bin where its slot will go.
    /// 2. A prefix sum over the counts, band by band and the jobs in order
    ///    within a band, gives where each job's points of each band go
    ///    among the points sorted by band (`staged`), so that each band's
    ///    ids stay ascending.
    /// 3. Each job writes its ids there, into pieces of its own.
    /// 4. Each band sorts its ids into its bins (the bins' starts, the
    ///    slots' ids and positions, all within the band's own ranges), by
    ///    the bins noted in step 1, and leaves each point's slot where its
    ///    id was.
    /// 5. Each job reads its points' slots back from there, in id order.
    fn sort(&mut self, lo: Vec2, hi: Vec2, read: impl Fn(usize, &mut [Vec2]) + Sync) {
        let n = self.input.len();
        assert!(u32::try_from(n).is_ok(), "too many points for u32 ids");
        self.fit_bins(lo, hi);
        let bins = self.bins;
        let (count, bands, band_bins) = (bins.cols * bins.rows, bins.rows.div_ceil(BAND_ROWS), BAND_ROWS * bins.cols);
        let jobs = n.div_ceil(SORT_CHUNK);
        let SpatialHash { input, starts, ids, slots, xs, ys, staged, band_starts, offsets, .. } = self;

        // 1. Each job's points read, counted per band, and each point's bin
        // kept in `slots` (which step 5 overwrites with the slot) for step
        // 4, which would otherwise find it from the position twice.
        offsets.clear();
        offsets.resize(jobs * bands, 0);
        slots.resize(n, 0);
        let shares = (split_mut(offsets, bands).into_iter().zip(split_mut(input, SORT_CHUNK)))
            .zip(split_mut(slots, SORT_CHUNK))
            .collect();
        on_each_thread(shares, |(((_, counts), (first, points)), (_, bins_of))| {
            for ((counts, (job_first, points)), bins_of) in counts
                .chunks_mut(bands)
                .zip((first..).step_by(SORT_CHUNK).zip(points.chunks_mut(SORT_CHUNK)))
                .zip(bins_of.chunks_mut(SORT_CHUNK))
            {
                read(job_first, points);
                for (&p, bin) in points.iter().zip(bins_of) {
                    *bin = bins.of(p) as u32;
                    counts[bins.band_of(p)] += 1;
                }
            }
        });
        let input = &input[..];
        // 2. The counts become offsets, band by band, job by job.
        band_starts.clear();
        let mut at = 0;
        for band in 0..bands {
            band_starts.push(at);
            for job in 0..jobs {
                let k = job * bands + band;
                (offsets[k], at) = (at, at + offsets[k]);
            }
        }
        band_starts.push(at);

        // 3. Each job's ids into its pieces of `staged`, one per band.
        // Every slot of `staged` is written below (and then `slots`', and the
        // bins' starts, ids and positions), so that the buffers are only
        // sized here, not filled on this thread.
        staged.resize(n, 0);
        let mut pieces: Vec<&mut [u32]> = (0..jobs * bands).map(|_| <&mut [u32]>::default()).collect();
        let mut rest = &mut staged[..];
        for band in 0..bands {
            for job in 0..jobs {
                let k = job * bands + band;
                let end = if job + 1 < jobs { offsets[k + bands] } else { band_starts[band + 1] };
                (pieces[k], rest) = std::mem::take(&mut rest).split_at_mut((end - offsets[k]) as usize);
            }
        }
        let shares = split_mut(&mut pieces, bands).into_iter().zip(split(input, SORT_CHUNK)).collect();
        on_each_thread(shares, |((_, pieces), (from, points))| {
            for (pieces, (job_first, points)) in
                pieces.chunks_mut(bands).zip((from..).step_by(SORT_CHUNK).zip(points.chunks(SORT_CHUNK)))
            {
                for (i, &p) in (job_first..).zip(points) {
                    let piece = &mut pieces[bins.band_of(p)];
                    let (first, tail) = std::mem::take(piece).split_first_mut().expect("a place counted for it");
                    (*first, *piece) = (i as u32, tail);
                }
            }
        });

        // 4. Each band's ids into its bins. The positions end in LANES
        // slots of infinity (see `visit`).
        starts.resize(count + 1, 0);
        starts[count] = n as u32;
        ids.resize(n, 0);
        for padded in [&mut *xs, &mut *ys] {
            padded.resize(n + LANES, f32::INFINITY);
            padded[n..].fill(f32::INFINITY);
        }
        let mut work = Vec::with_capacity(bands);
        let mut rest = (&mut starts[..count], &mut staged[..], &mut ids[..], &mut xs[..n], &mut ys[..n]);
        for band in 0..bands {
            let len = (band_starts[band + 1] - band_starts[band]) as usize;
            let (starts, staged, ids, xs, ys) = std::mem::take(&mut rest);
            let (band_starts_of, starts) = starts.split_at_mut(band_bins.min(starts.len()));
            let (band_staged, staged) = staged.split_at_mut(len);
            let (band_ids, ids) = ids.split_at_mut(len);
            let (band_xs, xs) = xs.split_at_mut(len);
            let (band_ys, ys) = ys.split_at_mut(len);
            rest = (starts, staged, ids, xs, ys);
            work.push((band, band_starts_of, band_staged, band_ids, band_xs, band_ys));
        }
        let (band_starts, bins_of) = (&band_starts[..], &slots[..]);
        on_each_thread(split_mut(&mut work, 1), |(_, bands)| {
            for (band, starts, staged, ids, xs, ys) in bands.iter_mut() {
                let (first_bin, base) = (*band * band_bins, band_starts[*band]);
                starts.fill(0);
                for &i in staged.iter() {
                    starts[bins_of[i as usize] as usize - first_bin] += 1;
                }
                // Inclusive prefix sums: starts[b] is now the end of bin b.
                // Filling each bin backwards from its end, in descending id
                // order, leaves starts[b] at the bin's start and the ids
                // ascending within it.
                let mut end = base;
                for s in starts.iter_mut() {
                    end += *s;
                    *s = end;
                }
                for staged in staged.iter_mut().rev() {
                    let (i, p) = (*staged, input[*staged as usize]);
                    let start = &mut starts[bins_of[i as usize] as usize - first_bin];
                    *start -= 1;
                    let k = (*start - base) as usize;
                    (ids[k], xs[k], ys[k]) = (i, p.x, p.y);
                    *staged = *start;
                }
            }
        });

        // 5. Each point's slot, job by job in id order.
        let staged = &staged[..];
        let shares = (split_mut(slots, SORT_CHUNK).into_iter().zip(split(input, SORT_CHUNK)))
            .zip(split_mut(offsets, bands))
            .collect();
        on_each_thread(shares, |(((_, slots), (_, points)), (_, next))| {
            for ((slots, points), next) in
                slots.chunks_mut(SORT_CHUNK).zip(points.chunks(SORT_CHUNK)).zip(next.chunks_mut(bands))
            {
                for (slot, &p) in slots.iter_mut().zip(points) {
                    let at = &mut next[bins.band_of(p)];
                    *slot = staged[*at as usize];
                    *at += 1;
                }
            }
        });
    }

    /// The bounding box of the finite input coordinates (0 on an axis
    /// without any).
    fn bounding_box(&self) -> (Vec2, Vec2) {
        let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for p in &self.input {
            for (axis, v) in [p.x, p.y].into_iter().enumerate() {
                // Finite, so plain compares (one instruction each) find
                // what `f32::min` and `max` would, without their tests for
                // NaN.
                if v.is_finite() {
                    if v < lo[axis] {
                        lo[axis] = v;
                    }
                    if v > hi[axis] {
                        hi[axis] = v;
                    }
                }
            }
        }
        for axis in 0..2 {
            if lo[axis] > hi[axis] {
                // No finite coordinate on this axis.
                (lo[axis], hi[axis]) = (0.0, 0.0);
            }
        }
        (Vec2::new(lo[0], lo[1]), Vec2::new(hi[0], hi[1]))
    }

    /// Sets origin, cell size and bin counts to cover the box from `lo` to
    /// `hi` (finite, `lo` ≤ `hi`) with a bounded number of bins. The
    /// arithmetic is in `f64` so that even a box spanning the whole `f32`
    /// range is sized without overflow.
    fn fit_bins(&mut self, lo: Vec2, hi: Vec2) {
        let span_x = f64::from(hi.x) - f64::from(lo.x);
        let span_y = f64::from(hi.y) - f64::from(lo.y);
        // At most `u32::MAX` bins, so that the sort can note a bin in a `u32`.
        let max_bins = (BINS_PER_POINT * self.input.len() as f64 + MIN_BINS).min(f64::from(u32::MAX));
        let mut cell = f64::from(self.cell_size);
        let (cols, rows) = loop {
            let cols = (span_x / cell).floor() + 1.0;
            let rows = (span_y / cell).floor() + 1.0;
            if cols * rows <= max_bins {
                break (cols as usize, rows as usize);
            }
            cell *= 2.0;
        };
        self.bins = Bins { origin: lo, inv_cell: (1.0 / cell) as f32, cols, rows };
    }

    /// Points held.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether it holds no point.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The point id in each slot: the bin order.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// The slot of each point id (the inverse of [`SpatialHash::ids`]):
    /// where a caller finds what it computed per slot for a point.
    pub fn slots(&self) -> &[u32] {
        &self.slots
    }

    /// The length of a per-slot array that a query's blocks read
    /// ([`Block::of`]): the points and a block of padding. A caller that
    /// reads several such arrays in its blocks slices each to this length
    /// before its query, as [`SpatialHash::visit_blocks`] does the
    /// positions, so that the compiler knows them all to be as long and
    /// checks a block's bounds once for all of them (five checks a block,
    /// ten instructions, in the flocking pass otherwise).
    #[inline]
    pub fn padded_len(&self) -> usize {
        self.ids.len() + LANES
    }

    /// The x coordinate in each slot.
    pub fn xs(&self) -> &[f32] {
        &self.xs[..self.ids.len()]
    }

    /// The y coordinate in each slot.
    pub fn ys(&self) -> &[f32] {
        &self.ys[..self.ids.len()]
    }

    /// Replaces `out` with `by_id` (one value per point id) laid out in
    /// slot order, so that a query's runs index it as they index the
    /// positions.
    pub fn gather<T: Copy>(&self, by_id: &[T], out: &mut Vec<T>) {
        out.clear();
        out.extend(self.ids.iter().map(|&i| by_id[i as usize]));
    }

    /// The runs of slots to scan for the points within `radius` of `pos`:
    /// one per row of bins the disc overlaps, ascending and disjoint. Every
    /// point that passes [`within_radius`] is in one of them; the others
    /// in them are candidates the caller tests and skips. A negative or NaN
    /// radius counts as 0.
    #[inline]
    pub fn runs(&self, pos: Vec2, radius: f32) -> impl Iterator<Item = Range<usize>> + '_ {
        let reach = radius.max(0.0) * (1.0 + REACH_SLACK);
        let b = &self.bins;
        let (x0, x1) = (b.col(pos.x - reach), b.col(pos.x + reach));
        let (y0, y1) = (b.row(pos.y - reach), b.row(pos.y + reach));
        // `y0..=y1` would test a flag of its own at every step.
        (y0..y1 + 1).map(move |row| {
            // The bins x0..=x1 of a row are contiguous in the arrays.
            self.starts[row * b.cols + x0] as usize..self.starts[row * b.cols + x1 + 1] as usize
        })
    }

    /// The lane ([`Block`]) in which a query of `radius` at `pos`
    /// ([`SpatialHash::visit_blocks`]) tests `slot`, if it tests it: its
    /// place in the run that holds it, modulo [`LANES`]. What a caller
    /// that sums per lane needs to sum in the same order.
    pub fn lane_in(&self, pos: Vec2, radius: f32, slot: usize) -> Option<usize> {
        self.runs(pos, radius).find(|run| run.contains(&slot)).map(|run| (slot - run.start) % LANES)
    }

    /// Calls `f(slot, dx, dy, d²)` for every point within `radius` of `pos`
    /// (distance ≤ radius, see [`within_radius`]), in slot order, with its
    /// offset from `pos` (the point minus `pos`) and squared distance in
    /// `f32`. A point at `pos` itself is included: callers skip their own
    /// slot. A negative or NaN radius counts as 0.
    ///
    /// The test runs over [`SpatialHash::visit_blocks`]' blocks, eight
    /// candidates at a time into a bit mask, without a branch per candidate
    /// (about half of them fail it, which a branch predictor cannot
    /// guess); `f` is called for the set bits, in order.
    #[inline]
    pub fn visit(&self, pos: Vec2, radius: f32, mut f: impl FnMut(usize, f32, f32, f32)) {
        self.visit_blocks(pos, radius, |b| {
            let mut hits = b.mask();
            while hits != 0 {
                let lane = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                f(b.at + lane, b.dx[lane], b.dy[lane], b.d2[lane]);
            }
        });
    }

    /// Calls `f` for every [`Block`] of [`LANES`] slots that holds a
    /// candidate for the points within `radius` of `pos`, in slot order,
    /// with the test done on all its lanes at once: for callers that sum
    /// what they find lane by lane, in vector registers, instead of one
    /// hit at a time. Each run ([`SpatialHash::runs`]) is cut into blocks
    /// from its first slot, so a slot's lane is its place in its run
    /// modulo [`LANES`] ([`SpatialHash::lane_in`]): a sum kept per lane is
    /// a function of the positions and the query, whatever the number of
    /// threads. (Blocks aligned to multiples of [`LANES`] instead kept a
    /// slot in one lane for every query but tested about a third more
    /// lanes, the run's ends padded out to whole blocks.) A negative or
    /// NaN radius counts as 0.
    #[inline(always)]
    pub fn visit_blocks(&self, pos: Vec2, radius: f32, mut f: impl FnMut(&Block)) {
        let r = radius.max(0.0);
        let wide = r > F32_RADIUS;
        let r2 = r * r;
        let (xs, ys) = (&self.xs[..self.padded_len()], &self.ys[..self.padded_len()]);
        for run in self.runs(pos, r) {
            let mut at = run.start;
            while at < run.end {
                // The arrays end in LANES slots of infinity, which no test
                // passes: a block may run past the last point.
                let (xs, ys) = (lanes_at(xs, at), lanes_at(ys, at));
                let in_run = &FIRST[(run.end - at).min(LANES)];
                // Lane by lane, one operation at a time over all lanes, and
                // the block put together at the end: the shape the
                // compiler turns into one vector instruction an operation,
                // the block in registers.
                let dx: [f32; LANES] = std::array::from_fn(|lane| xs[lane] - pos.x);
                let dy: [f32; LANES] = std::array::from_fn(|lane| ys[lane] - pos.y);
                let d2: [f32; LANES] = std::array::from_fn(|lane| dx[lane] * dx[lane] + dy[lane] * dy[lane]);
                let mut hit: [u32; LANES] = std::array::from_fn(|lane| lane_mask(d2[lane] <= r2) & in_run[lane]);
                if wide {
                    let within = wide_hits(xs, ys, pos, r);
                    hit = std::array::from_fn(|lane| hit[lane] & within[lane]);
                }
                let b = Block { at, dx, dy, d2, hit };
                f(&b);
                at += LANES;
            }
        }
    }

    /// Replaces `out` with the ids of every point within `radius` of `pos`
    /// (distance ≤ radius, see [`within_radius`]), in slot order. A point at
    /// `pos` itself is included: callers skip their own id. A negative or
    /// NaN radius counts as 0.
    pub fn query(&self, pos: Vec2, radius: f32, out: &mut Vec<u32>) {
        out.clear();
        self.visit(pos, radius, |k, _, _, _| out.push(self.ids[k]));
    }
}

/// Above any bin count: the bins' starts are a `Vec<u32>` of one more
/// than the count, so the count is below `isize::MAX / 4` (2^61).
const BIN_CAP: f32 = (1u64 << 62) as f32;

/// Bin `t` (a coordinate in cells from the origin) of `count`, clamped to
/// `0..count`; NaN goes to bin 0.
///
/// The same bin as the saturating cast `((t as i64).max(0) as usize).min(count - 1)`
/// (tested), cheaper: clamped in `f32` first (`max` takes the number when
/// `t` is NaN), the conversion needs none of the saturating cast's
/// compares and moves, about half the instructions (over 200 ticks of the
/// 10k-boid world, 153 M against 109 M in the queries' four clamps and
/// their bins, 438 M against 373 M in the sort, which bins each point five
/// times).
#[inline]
fn clamp_bin(t: f32, count: usize) -> usize {
    // Not `clamp`, which keeps NaN.
    #[allow(clippy::manual_clamp)]
    let t = t.max(0.0).min(BIN_CAP);
    // SAFETY: `t` is a number from 0 to 2^62 (NaN became 0), which `i64`
    // holds, so the conversion is defined.
    let bin = unsafe { t.to_int_unchecked::<i64>() };
    (bin as usize).min(count - 1)
}

/// The neighbour test both the hash and the brute force use, so their
/// answers agree exactly: distance at most `radius` (a negative or NaN
/// radius counts as 0). Squared distances are compared in `f32` up to a
/// radius of 1e18, where no square overflows to a wrong answer, and in
/// `f64` beyond (in `f32` a radius above ~1e19 would square to infinity and
/// admit points at any distance).
#[inline]
pub fn within_radius(a: Vec2, b: Vec2, radius: f32) -> bool {
    let r = radius.max(0.0);
    if r <= F32_RADIUS {
        let (dx, dy) = (a.x - b.x, a.y - b.y);
        dx * dx + dy * dy <= r * r
    } else {
        within_wide(a.x, a.y, b, r)
    }
}

/// Which lanes of a block are within a radius above [`F32_RADIUS`],
/// tested in `f64`: a mask for the block's `hit`. It takes only the
/// positions (a block passed in would be kept in memory rather than in
/// registers).
#[cold]
fn wide_hits(xs: &[f32; LANES], ys: &[f32; LANES], pos: Vec2, r: f32) -> [u32; LANES] {
    std::array::from_fn(|lane| lane_mask(within_wide(xs[lane], ys[lane], pos, r)))
}

/// [`within_radius`] for a radius above [`F32_RADIUS`], in `f64`.
#[cold]
fn within_wide(x: f32, y: f32, b: Vec2, r: f32) -> bool {
    let r = f64::from(r);
    let dx = f64::from(x) - f64::from(b.x);
    let dy = f64::from(y) - f64::from(b.y);
    dx * dx + dy * dy <= r * r
}

/// The O(n) reference for one query (O(n²) for a whole flock): what the
/// property tests and the benchmark compare [`SpatialHash::query`] with, and
/// a fine choice for a handful of agents. Same test as the query, in id
/// order.
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

    /// The clamp is the saturating cast it replaced, on every kind of
    /// value (NaN to bin 0, huge values to the last bin) and bin count.
    #[test]
    fn clamp_bin_is_the_saturating_cast() {
        let saturating = |t: f32, count: usize| ((t as i64).max(0) as usize).min(count - 1);
        let specials = [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            -0.5,
            0.5,
            0.999_999_9,
            1.0,
            6.999_999_5,
            7.0,
            999.9,
            1e12,
            BIN_CAP,
            f32::from_bits(BIN_CAP.to_bits() - 1),
            f32::from_bits(BIN_CAP.to_bits() + 1),
            9.3e18,
            1e30,
            f32::MAX,
            -f32::MAX,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
        ];
        // Every 4099th bit pattern: both signs, every exponent, NaNs too.
        let sweep = (0..=u32::MAX).step_by(4099).map(f32::from_bits);
        let values: Vec<f32> = specials.into_iter().chain(sweep).collect();
        for count in [1, 2, 7, 1000, 1 << 24, (1 << 24) + 1, 1 << 40, (1 << 61) - 1] {
            for &t in &values {
                assert_eq!(clamp_bin(t, count), saturating(t, count), "{t:e} ({:#x}) of {count}", t.to_bits());
            }
            assert_eq!(clamp_bin(f32::NAN, count), 0);
            assert_eq!(clamp_bin(f32::INFINITY, count), count - 1);
            assert_eq!(clamp_bin(1e30, count), count - 1);
            assert_eq!(clamp_bin(-1e30, count), 0);
        }
    }

    #[test]
    fn empty_hash_finds_nothing() {
        let mut h = SpatialHash::new(1.0);
        assert_eq!(query(&h, Vec2::ZERO, 10.0), Vec::<u32>::new());
        h.rebuild([]);
        assert_eq!(query(&h, Vec2::ZERO, 10.0), Vec::<u32>::new());
        assert!(h.is_empty());
    }

    #[test]
    fn finds_points_within_radius_in_bin_order() {
        let pts =
            [Vec2::new(5.0, 5.0), Vec2::new(0.0, 0.0), Vec2::new(1.0, 0.0), Vec2::new(0.0, 2.0), Vec2::new(0.5, 0.5)];
        let mut h = SpatialHash::new(1.0);
        h.rebuild(pts);
        // Bins row by row, ids ascending within one: 1 and 4 share bin 0.
        assert_eq!(h.ids(), [1, 4, 2, 3, 0]);
        assert_eq!(h.slots(), [4, 0, 2, 3, 1]);
        assert_eq!(h.xs(), [0.0, 0.5, 1.0, 0.0, 5.0]);
        assert_eq!(h.ys(), [0.0, 0.5, 0.0, 2.0, 5.0]);
        assert_eq!(query(&h, Vec2::ZERO, 1.0), vec![1, 4, 2]);
        assert_eq!(query(&h, Vec2::ZERO, 2.0), vec![1, 4, 2, 3]);
        assert_eq!(query(&h, Vec2::new(5.0, 5.0), 0.0), vec![0]);
        assert_eq!(query(&h, Vec2::new(-50.0, 3.0), 1.0), Vec::<u32>::new());
        assert_eq!(query(&h, Vec2::ZERO, -1.0), vec![1]);
        assert_eq!(query(&h, Vec2::ZERO, f32::NAN), vec![1]);
        assert_eq!(query(&h, Vec2::ZERO, f32::INFINITY), vec![1, 4, 2, 3, 0]);
        let mut tags = Vec::new();
        h.gather(&['a', 'b', 'c', 'd', 'e'], &mut tags);
        assert_eq!(tags, ['b', 'e', 'c', 'd', 'a']);
    }

    #[test]
    fn visit_gives_offsets_and_squared_distances() {
        let mut h = SpatialHash::new(2.0);
        h.rebuild([Vec2::new(1.0, 1.0), Vec2::new(4.0, 5.0), Vec2::new(2.0, 1.0)]);
        let mut seen = Vec::new();
        h.visit(Vec2::new(1.0, 2.0), 1.5, |k, dx, dy, d2| seen.push((h.ids()[k], dx, dy, d2)));
        assert_eq!(seen, [(0, 0.0, -1.0, 1.0), (2, 1.0, -1.0, 2.0)]);
        let runs: Vec<_> = h.runs(Vec2::new(1.0, 2.0), 1.5).collect();
        assert!(runs.windows(2).all(|w| w[0].end <= w[1].start), "ascending, disjoint: {runs:?}");
    }

    #[test]
    fn huge_extent_keeps_bins_bounded() {
        let pts = [Vec2::new(-f32::MAX, 0.0), Vec2::new(f32::MAX, f32::MAX), Vec2::new(1.0, 1.0), Vec2::new(1.5, 1.0)];
        let mut h = SpatialHash::new(0.001);
        h.rebuild(pts);
        assert!(h.bins.cols * h.bins.rows <= 4 * pts.len() + 16);
        assert_eq!(query(&h, Vec2::new(1.0, 1.0), 0.75), vec![2, 3]);
        assert_eq!(query(&h, Vec2::new(f32::MAX, f32::MAX), 1.0), vec![1]);
    }

    #[test]
    fn huge_radii_are_tested_without_overflow() {
        let pts = [Vec2::new(-1e30, 0.0), Vec2::new(1e30, 0.0), Vec2::ZERO];
        let mut h = SpatialHash::new(1.0);
        h.rebuild(pts);
        // 1e20 squares to infinity in f32: the test goes to f64.
        assert_eq!(query(&h, Vec2::new(-1e30, 0.0), 1e20), vec![0]);
        assert_eq!(query(&h, Vec2::ZERO, 1.5e30), vec![0, 2, 1]);
        assert!(!within_radius(Vec2::new(1e30, 0.0), Vec2::ZERO, 1e20));
        assert!(within_radius(Vec2::new(1e18, 0.0), Vec2::ZERO, 1e18));
    }

    #[test]
    fn non_finite_points_never_match() {
        let pts = [Vec2::new(f32::NAN, 0.0), Vec2::new(0.0, f32::INFINITY), Vec2::ZERO];
        let mut h = SpatialHash::new(1.0);
        h.rebuild(pts);
        assert_eq!(query(&h, Vec2::ZERO, 1e10), vec![2]);
    }

    #[test]
    fn a_box_given_finds_what_the_bounding_box_finds() {
        let pts: Vec<Vec2> = (0..300)
            .map(|i| {
                let t = i as f32;
                Vec2::new((t * 7.3) % 23.0 - 3.0, (t * 3.1) % 17.0 - 2.0)
            })
            .chain([Vec2::new(f32::NAN, 1.0), Vec2::new(1e9, -1e9)])
            .collect();
        let (mut boxed, mut fitted) = (SpatialHash::new(1.25), SpatialHash::new(1.25));
        // A box smaller than the points' spread: the outliers sit in edge bins.
        boxed.rebuild_within(&pts, |&p| p, Vec2::ZERO, Vec2::new(15.0, 10.0));
        fitted.rebuild(pts.iter().copied());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for q in pts.iter().copied().chain([Vec2::new(-10.0, 40.0), Vec2::new(1e9, -1e9)]) {
            for r in [0.0, 0.7, 2.5, 9.0] {
                boxed.query(q, r, &mut a);
                fitted.query(q, r, &mut b);
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{q:?} {r}");
            }
        }
    }

    /// The sort over jobs and bands is the counting sort: bins in order,
    /// each bin's ids ascending, `slots` the inverse of `ids`, the starts
    /// each bin's first slot; and the same, slot for slot, on any number
    /// of threads. Enough points for several jobs and bands, some
    /// outside the box and not finite.
    #[test]
    fn the_parallel_sort_is_the_counting_sort_on_any_pool() {
        let pts: Vec<Vec2> = (0..3 * SORT_CHUNK + 77)
            .map(|i| {
                let t = i as f32;
                Vec2::new((t * 7.31) % 97.0 - 1.0, (t * 3.17) % 83.0 - 1.0)
            })
            .chain([Vec2::new(f32::NAN, 5.0), Vec2::new(1e9, -1e9), Vec2::new(40.0, f32::INFINITY)])
            .collect();
        let build = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let mut h = SpatialHash::new(1.5);
                h.rebuild_within(&pts, |&p| p, Vec2::ZERO, Vec2::new(95.0, 80.0));
                h
            })
        };
        let h = build(1);
        assert!(h.bins.rows.div_ceil(BAND_ROWS) > 4, "several bands: {} rows", h.bins.rows);
        let key = |k: usize| (h.bins.of(pts[h.ids[k] as usize]), h.ids[k]);
        assert!((1..pts.len()).all(|k| key(k - 1) < key(k)), "bins in order, ids ascending in each");
        for (k, &i) in h.ids.iter().enumerate() {
            assert_eq!(h.slots[i as usize] as usize, k);
            let bin = h.bins.of(pts[i as usize]);
            assert!((h.starts[bin] as usize..h.starts[bin + 1] as usize).contains(&k));
            assert_eq!(
                (h.xs[k].to_bits(), h.ys[k].to_bits()),
                (pts[i as usize].x.to_bits(), pts[i as usize].y.to_bits())
            );
        }
        for threads in [2, 3, 8] {
            let o = build(threads);
            assert_eq!((&o.starts, &o.ids, &o.slots), (&h.starts, &h.ids, &h.slots), "{threads} threads");
            assert!(o.xs.iter().zip(&h.xs).all(|(a, b)| a.to_bits() == b.to_bits()));
        }
    }

    /// The bounding box takes its extremes by plain compares, so with both
    /// zeros among the lowest coordinates its corner is whichever came
    /// first (`f32::min` leaves that open too); non-finite coordinates are
    /// left out. The sort and the queries are the same for either sign, and
    /// the same as with the box given.
    #[test]
    fn the_sign_of_a_zero_corner_changes_no_bin() {
        let pts = [(0.0, 0.0), (-0.0, -0.0), (0.25, 3.0), (f32::NAN, -0.0), (2.0, f32::NEG_INFINITY), (4.0, 1.5)]
            .map(|(x, y)| Vec2::new(x, y));
        let mut reversed = pts;
        reversed.reverse();
        for (points, negative) in [(pts, false), (reversed, true)] {
            let mut fitted = SpatialHash::new(0.5);
            fitted.rebuild(points);
            let origin = fitted.bins.origin;
            assert_eq!((origin.x.is_sign_negative(), origin.y.is_sign_negative()), (negative, negative));
            assert_eq!((origin.x, origin.y), (0.0, 0.0));
            for (x, y) in [(0.0, 0.0), (-0.0, -0.0), (0.0, -0.0), (-0.0, 0.0)] {
                let mut boxed = SpatialHash::new(0.5);
                boxed.rebuild_within(&points, |&p| p, Vec2::new(x, y), Vec2::new(4.0, 3.0));
                assert_eq!((boxed.bins.cols, boxed.bins.rows), (fitted.bins.cols, fitted.bins.rows));
                assert_eq!((&boxed.starts, &boxed.ids, &boxed.slots), (&fitted.starts, &fitted.ids, &fitted.slots));
                for q in points.iter().copied().chain([Vec2::new(-0.0, -0.0), Vec2::new(-0.3, 0.2)]) {
                    for r in [0.0, 0.3, 1.0] {
                        assert_eq!(query(&boxed, q, r), query(&fitted, q, r), "{q:?} {r}");
                    }
                }
            }
        }
    }

    #[test]
    fn rebuild_replaces_contents() {
        let mut h = SpatialHash::new(2.0);
        h.rebuild([Vec2::ZERO, Vec2::new(1.0, 1.0)]);
        h.rebuild([Vec2::new(10.0, 10.0)]);
        assert_eq!(h.len(), 1);
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
            // The same set; the hash's in slot order.
            let slot = |id: &u32| h.slots()[*id as usize];
            assert!(a.windows(2).all(|w| slot(&w[0]) < slot(&w[1])));
            a.sort_unstable();
            assert_eq!(a, b);
        }
    }
}
