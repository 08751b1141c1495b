//! The open list: a 4-ary min-heap of 16-byte entries.
//!
//! An entry packs the whole order into one `u128`: f (a non-negative float
//! as its IEEE bits, which order exactly like the values), the tie key and
//! the insertion sequence, so a comparison is a single integer compare
//! without a branch. The node id is not in the entry: the engine keeps the
//! node of every insertion sequence. Four children per node halve the
//! heap's depth, and so the serial chain of loads and compares that makes
//! up most of a pop. Lazy deletion lives in the engine: an improved node
//! gets a new entry and the old one is skipped when popped.

/// One open-list entry: f in the high 64 bits, then the tie key, then the
/// insertion sequence (unique per query, the final tie-break).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Entry(u128);

impl Entry {
    pub(crate) fn new(f: f64, tie: u32, seq: u32) -> Entry {
        debug_assert!(f >= 0.0, "negative key: f {f}");
        // `+ 0.0` turns a -0.0 into +0.0 so the bit order stays the value order.
        Entry((u128::from((f + 0.0).to_bits()) << 64) | (u128::from(tie) << 32) | u128::from(seq))
    }

    pub(crate) fn f(self) -> f64 {
        f64::from_bits((self.0 >> 64) as u64)
    }

    pub(crate) fn seq(self) -> u32 {
        self.0 as u32
    }
}

/// Children per heap node.
const ARITY: usize = 4;

/// Min-queue of [`Entry`] whose storage is kept between queries: a heap
/// plus one entry held beside it.
///
/// The held entry is the best of the recent pushes. A* very often pops
/// next the child it has just pushed (the step straight on toward the
/// goal, of equal f and smaller h); holding it beside the heap turns that
/// push and pop into two comparisons instead of a sift up and a sift down.
/// Pops always return the smaller of the held entry and the heap's top, so
/// the order is exactly a heap's.
#[derive(Debug, Default)]
pub(crate) struct OpenList {
    heap: Vec<Entry>,
    held: Option<Entry>,
}

impl OpenList {
    pub(crate) fn clear(&mut self) {
        self.heap.clear();
        self.held = None;
    }

    #[inline]
    pub(crate) fn push(&mut self, entry: Entry) {
        match self.held {
            None => self.held = Some(entry),
            Some(held) if entry.0 < held.0 => {
                self.held = Some(entry);
                self.heap_push(held);
            }
            Some(_) => self.heap_push(entry),
        }
    }

    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Entry> {
        if let Some(held) = self.held
            && self.heap.first().is_none_or(|top| held.0 < top.0)
        {
            self.held = None;
            return Some(held);
        }
        self.heap_pop()
    }

    #[inline]
    fn heap_push(&mut self, entry: Entry) {
        let i = self.heap.len();
        self.heap.push(entry);
        sift_up(&mut self.heap, i, entry);
    }

    #[inline]
    fn heap_pop(&mut self) -> Option<Entry> {
        let last = self.heap.pop()?;
        let heap = &mut self.heap[..];
        let n = heap.len();
        if n == 0 {
            return Some(last);
        }
        let top = heap[0];
        // Floyd's pop: move the smallest child up all the way to a leaf
        // (no comparison with `last` on the way down), then sift `last` up
        // from there; it came from the bottom, so it rarely climbs far.
        // Children are chosen by arithmetic, not branches: which of two
        // entries is smaller is a coin toss a branch predictor loses.
        let mut i = 0;
        loop {
            let first = ARITY * i + 1;
            if first + ARITY <= n {
                // Compare the packed keys directly: one wide integer compare
                // each, no Option<Ordering> to unwrap.
                let k3 = heap[first + 3].0;
                let (k0, k1, k2) = (heap[first].0, heap[first + 1].0, heap[first + 2].0);
                let (a, ka) = if k1 < k0 { (1, k1) } else { (0, k0) };
                let (b, kb) = if k3 < k2 { (3, k3) } else { (2, k2) };
                let child = first + if kb < ka { b } else { a };
                heap[i] = heap[child];
                i = child;
            } else {
                if first < n {
                    let child = (first + 1..n).fold(first, |m, c| if heap[c].0 < heap[m].0 { c } else { m });
                    heap[i] = heap[child];
                    i = child;
                }
                break;
            }
        }
        sift_up(heap, i, last);
        Some(top)
    }
}

/// Places `entry` in the hole at `i`, moving later parents down into it.
#[inline(always)]
fn sift_up(heap: &mut [Entry], mut i: usize, entry: Entry) {
    while i > 0 {
        let parent = (i - 1) / ARITY;
        if entry.0 >= heap[parent].0 {
            break;
        }
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = entry;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_f_then_tie_then_insertion_order() {
        let keys = [(3.0, 0), (1.0, 2), (1.0, 1), (2.0, 0), (1.0, 1), (0.0, 9)];
        let mut open = OpenList::default();
        for (seq, &(f, tie)) in keys.iter().enumerate() {
            open.push(Entry::new(f, tie, seq as u32));
        }
        let order: Vec<u32> = std::iter::from_fn(|| open.pop()).map(Entry::seq).collect();
        assert_eq!(order, vec![5, 2, 4, 1, 3, 0]);
    }

    #[test]
    fn packs_the_order() {
        let e = Entry::new(1.5, 3, u32::MAX);
        assert_eq!((e.f(), e.seq()), (1.5, u32::MAX));
        assert_eq!(Entry::new(-0.0, 0, 0), Entry::new(0.0, 0, 0));
        assert!(Entry::new(1.0, 9, 9) < Entry::new(2.0, 0, 0), "f first");
        assert!(Entry::new(1.0, 1, 9) < Entry::new(1.0, 2, 0), "then the tie key");
        assert!(Entry::new(1.0, 1, 1) < Entry::new(1.0, 1, 2), "then insertion order");
    }

    #[test]
    fn many_entries_come_out_sorted() {
        // A pseudo-random stream with many equal keys, against a sort.
        let mut x: u32 = 12345;
        let mut all = Vec::new();
        let mut open = OpenList::default();
        for seq in 0..2000u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let e = Entry::new(f64::from(x % 50), x % 7, seq);
            all.push(e);
            open.push(e);
            if seq % 3 == 0 {
                let popped = open.pop().unwrap();
                assert_eq!(Some(&popped), all.iter().min());
                all.retain(|&e| e != popped);
            }
        }
        all.sort();
        let rest: Vec<Entry> = std::iter::from_fn(|| open.pop()).collect();
        assert_eq!(rest, all);
    }
}
