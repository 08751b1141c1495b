//! Fixed shares of a parallel pass, one per thread of the pool: the
//! counting sort of steering's spatial hash and the world's snapshot,
//! sensing and steps run so.
//!
//! Rayon's parallel iterators hand their pieces to whichever thread asks
//! first. On a machine whose cores are busy with other processes, the
//! thread that ticks then takes most of each pass while the other waits
//! for a core, so what each thread spends says how the scheduler ran them,
//! not what a tick costs. Here every thread of the pool takes one share of
//! a pass, the same for any load: the passes' chunks cut into as many
//! shares as there are threads, in order. The answers never depend on it
//! (each chunk's is its own); only who computes them does.

use std::ops::Range;
use std::sync::Mutex;

/// The chunks `0..chunks` cut into `threads` shares in order, as equal as
/// whole chunks allow (the first `chunks % threads` one chunk longer).
fn bounds(chunks: usize, threads: usize) -> impl Iterator<Item = Range<usize>> {
    let (each, longer) = (chunks / threads, chunks % threads);
    (0..threads).map(move |t| {
        let start = t * each + t.min(longer);
        start..start + each + usize::from(t < longer)
    })
}

/// The items `0..len` cut at whole chunks of `chunk` into one share for
/// each thread of the current pool ([`bounds`]), in order; with more
/// threads than chunks the last shares are empty and begin at `len`.
fn ranges(len: usize, chunk: usize) -> impl Iterator<Item = Range<usize>> {
    bounds(len.div_ceil(chunk), rayon::current_num_threads())
        .map(move |r| (r.start * chunk).min(len)..(r.end * chunk).min(len))
}

/// `items` cut into one share for each thread of the current pool
/// ([`ranges`]), each with the index of its first item.
pub(crate) fn split<T>(items: &[T], chunk: usize) -> Vec<(usize, &[T])> {
    ranges(items.len(), chunk).map(|r| (r.start, &items[r])).collect()
}

/// `items` cut into one share for each thread of the current pool
/// ([`ranges`]), each with the index of its first item: the shares of
/// [`split`], mutable.
pub(crate) fn split_mut<T>(items: &mut [T], chunk: usize) -> Vec<(usize, &mut [T])> {
    let mut rest = items;
    ranges(rest.len(), chunk)
        .map(|r| {
            let (share, tail) = std::mem::take(&mut rest).split_at_mut(r.len());
            rest = tail;
            (r.start, share)
        })
        .collect()
}

/// Runs `op` on every thread of the current pool, each on its own of
/// `shares` (one per thread, in the pool's thread order), and returns what
/// each returned, in that order.
///
/// # Panics
/// When `shares` is not one per thread of the pool.
pub(crate) fn on_each_thread<S: Send, R: Send>(shares: Vec<S>, op: impl Fn(S) -> R + Sync) -> Vec<R> {
    assert_eq!(shares.len(), rayon::current_num_threads(), "one share per thread");
    let shares: Vec<Mutex<Option<S>>> = shares.into_iter().map(|s| Mutex::new(Some(s))).collect();
    rayon::broadcast(|ctx| {
        let share = shares[ctx.index()].lock().map(|mut s| s.take());
        op(share.ok().flatten().expect("each thread takes its own share, once"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shares cover the chunks in order, without gaps, and differ by
    /// at most one chunk.
    #[test]
    fn shares_cover_the_chunks_in_order() {
        for (chunks, threads) in [(0, 1), (1, 2), (7, 2), (196, 2), (196, 8), (3, 8), (8, 8)] {
            let shares: Vec<Range<usize>> = bounds(chunks, threads).collect();
            assert_eq!(shares.len(), threads);
            assert_eq!(shares.first().map(|r| r.start), Some(0));
            assert_eq!(shares.last().map(|r| r.end), Some(chunks));
            assert!(shares.windows(2).all(|w| w[0].end == w[1].start), "{shares:?}");
            let (lo, hi) = (shares.iter().map(Range::len).min(), shares.iter().map(Range::len).max());
            assert!(hi.zip(lo).is_some_and(|(h, l)| h - l <= 1), "{shares:?}");
        }
    }

    /// Each thread of a pool of any size runs one share: every item is
    /// visited once, by the share that holds it, and the results come back
    /// in share order.
    #[test]
    fn every_thread_runs_its_share() {
        for (threads, n) in [(1, 1000), (2, 1000), (3, 1000), (8, 1000), (8, 100), (2, 0)] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
            let mut items = vec![0usize; n];
            let firsts = pool.install(|| {
                let shares = split_mut(&mut items, 64);
                on_each_thread(shares, |(first, share)| {
                    for (i, x) in (first..).zip(share.iter_mut()) {
                        *x += i + 1;
                    }
                    (first, rayon::current_thread_index())
                })
            });
            assert!(items.iter().enumerate().all(|(i, &x)| x == i + 1), "{threads} threads, {n} items");
            let shared: Vec<_> =
                pool.install(|| split(&items, 64).into_iter().map(|(first, s)| (first, s.len())).collect());
            let mutable: Vec<(usize, usize)> =
                pool.install(|| split_mut(&mut items, 64).into_iter().map(|(f, s)| (f, s.len())).collect());
            assert_eq!(shared, mutable, "the same shares, shared or mutable");
            assert!(firsts.iter().all(|f| f.0 % 64 == 0 || f.0 == n), "{firsts:?}");
            assert!(firsts.windows(2).all(|w| w[0].0 <= w[1].0), "{firsts:?}");
            assert_eq!(firsts.iter().map(|f| f.1).collect::<Vec<_>>(), (0..threads).map(Some).collect::<Vec<_>>());
        }
    }
}
