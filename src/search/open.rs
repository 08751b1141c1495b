//! The open list: a 4-ary min-heap of 16-byte entries laid out by cache
//! line, plus one entry held beside it.
//!
//! An entry packs the whole order into one `u128`: f (a non-negative float
//! as its IEEE bits, which order exactly like the values), the tie key,
//! then the insertion number, so a comparison is a single integer compare
//! without a branch. The node id does not fit beside them, so the list
//! keeps the node of every insertion number. Four children per node halve
//! a binary heap's depth, and so the serial chain of loads and compares
//! that makes up most of a pop. Lazy deletion lives in the engine: an
//! improved node gets a new entry and the old one is skipped when popped.

use super::NodeId;

/// One open-list entry: f in the high 64 bits, then the tie key, then the
/// insertion number (unique per query, the final tie-break).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(u128);

impl Entry {
    fn new(f: f64, tie: u32, seq: u32) -> Entry {
        debug_assert!(f >= 0.0, "negative key: f {f}");
        // `+ 0.0` turns a -0.0 into +0.0 so the bit order stays the value order.
        Entry((u128::from((f + 0.0).to_bits()) << 64) | (u128::from(tie) << 32) | u128::from(seq))
    }

    fn f(self) -> f64 {
        f64::from_bits((self.0 >> 64) as u64)
    }

    fn seq(self) -> u32 {
        self.0 as u32
    }
}

/// Children per heap node.
const ARITY: usize = 4;

/// Four entries, one cache line: the children of one heap node.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Line([u128; ARITY]);

/// Slot of the root. The three slots before it stay unused so that the
/// four children of the node in slot p fill exactly line p - 2 (slots
/// 4p - 8 to 4p - 5): a level of a pop reads one cache line, not two.
const ROOT: usize = ARITY - 1;

/// The line holding the children of the node in `slot`.
#[inline(always)]
fn children(slot: usize) -> usize {
    slot + 1 - ROOT
}

/// The slot of the parent of the node in `slot` (not the root).
#[inline(always)]
fn parent(slot: usize) -> usize {
    slot / ARITY + ROOT - 1
}

/// Min-queue of nodes by (f, tie key, insertion order) whose storage is
/// kept between queries: a heap of [`Entry`] plus one entry held beside it,
/// and the node of every insertion number.
///
/// The held entry is the best of the recent pushes. A* very often pops
/// next the child it has just pushed (the step straight on toward the
/// goal, of equal f and smaller h); holding it beside the heap turns that
/// push and pop into two comparisons instead of a sift up and a sift down.
/// Pops always return the smaller of the held entry and the heap's top, so
/// the order is exactly a heap's.
#[derive(Debug, Default)]
pub(crate) struct OpenList {
    /// Heap slots by cache line; slot s is `lines[s / 4].0[s % 4]`.
    lines: Vec<Line>,
    /// Entries in the heap, in slots `ROOT..ROOT + len`.
    len: usize,
    held: Option<(Entry, NodeId)>,
    /// The node of each entry, by insertion number.
    nodes: Vec<NodeId>,
}

impl OpenList {
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.held = None;
        self.nodes.clear();
    }

    /// Adds `node` with priority f, then `tie`, then insertion order.
    #[inline]
    pub(crate) fn push(&mut self, f: f64, tie: u32, node: NodeId) {
        let entry = Entry::new(f, tie, self.nodes.len() as u32);
        self.nodes.push(node);
        match self.held {
            None => self.held = Some((entry, node)),
            Some((held, _)) if entry.0 < held.0 => {
                self.held = Some((entry, node));
                self.heap_push(held);
            }
            Some(_) => self.heap_push(entry),
        }
    }

    #[inline(always)]
    fn get(&self, slot: usize) -> u128 {
        self.lines[slot / ARITY].0[slot % ARITY]
    }

    #[inline(always)]
    fn set(&mut self, slot: usize, key: u128) {
        self.lines[slot / ARITY].0[slot % ARITY] = key;
    }

    /// Removes the smallest entry; returns its f and node.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(f64, NodeId)> {
        if let Some((held, node)) = self.held
            && (self.len == 0 || held.0 < self.get(ROOT))
        {
            self.held = None;
            return Some((held.f(), node));
        }
        let entry = self.heap_pop()?;
        Some((entry.f(), self.nodes[entry.seq() as usize]))
    }

    #[inline]
    fn heap_push(&mut self, entry: Entry) {
        let slot = ROOT + self.len;
        if slot / ARITY >= self.lines.len() {
            self.lines.push(Line::default());
        }
        self.len += 1;
        self.sift_up(slot, entry.0);
    }

    #[inline]
    fn heap_pop(&mut self) -> Option<Entry> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let end = ROOT + self.len;
        let last = self.get(end);
        if self.len == 0 {
            return Some(Entry(last));
        }
        let top = self.get(ROOT);
        // Floyd's pop: move the smallest child up all the way to a leaf
        // (no comparison with `last` on the way down), then sift `last` up
        // from there; it came from the bottom, so it rarely climbs far.
        // Children are chosen by arithmetic, not branches: which of two
        // entries is smaller is a coin toss a branch predictor loses.
        let mut p = ROOT;
        loop {
            let first = ARITY * children(p);
            if first + ARITY <= end {
                let line = self.lines[children(p)].0;
                let (k0, k1, k2, k3) = (line[0], line[1], line[2], line[3]);
                let (a, ka) = if k1 < k0 { (1, k1) } else { (0, k0) };
                let (b, kb) = if k3 < k2 { (3, k3) } else { (2, k2) };
                let (c, kc) = if kb < ka { (b, kb) } else { (a, ka) };
                self.set(p, kc);
                p = first + c;
            } else {
                if first < end {
                    let child = (first + 1..end).fold(first, |m, c| if self.get(c) < self.get(m) { c } else { m });
                    let k = self.get(child);
                    self.set(p, k);
                    p = child;
                }
                break;
            }
        }
        self.sift_up(p, last);
        Some(Entry(top))
    }

    /// Places `key` in the hole at `slot`, moving later parents down into it.
    #[inline(always)]
    fn sift_up(&mut self, mut slot: usize, key: u128) {
        while slot > ROOT {
            let parent = parent(slot);
            let pk = self.get(parent);
            if key >= pk {
                break;
            }
            self.set(slot, pk);
            slot = parent;
        }
        self.set(slot, key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_f_then_tie_then_insertion() {
        let keys = [(3.0, 0, 7), (1.0, 2, 1), (1.0, 1, 4), (2.0, 0, 0), (1.0, 1, 2), (0.0, 9, 9)];
        let mut open = OpenList::default();
        for round in 0..2 {
            for &(f, tie, node) in &keys {
                open.push(f, tie, node);
            }
            let order: Vec<NodeId> = std::iter::from_fn(|| open.pop()).map(|(_, node)| node).collect();
            assert_eq!(order, vec![9, 4, 2, 1, 0, 7], "round {round}: 4 was pushed before 2");
            open.clear();
        }
    }

    #[test]
    fn packs_the_order() {
        let e = Entry::new(1.5, 3, u32::MAX);
        assert_eq!((e.f(), e.seq()), (1.5, u32::MAX));
        assert_eq!(Entry::new(-0.0, 0, 0), Entry::new(0.0, 0, 0));
        assert!(Entry::new(1.0, 9, 9) < Entry::new(2.0, 0, 0), "f first");
        assert!(Entry::new(1.0, 1, 9) < Entry::new(1.0, 2, 0), "then the tie key");
        assert!(Entry::new(1.0, 1, 1) < Entry::new(1.0, 1, 2), "then the insertion number");
    }

    #[test]
    fn many_entries_come_out_sorted() {
        // A pseudo-random stream with many equal keys and repeated nodes,
        // against a sort by (f, tie, insertion number).
        let mut x: u32 = 12345;
        let mut all = Vec::new();
        let mut open = OpenList::default();
        for seq in 0..2000u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let (f, tie, node) = (f64::from(x % 50), x % 7, x % 100);
            all.push((f, tie, seq, node));
            open.push(f, tie, node);
            if seq % 3 == 0 {
                let least = *all.iter().min_by(|a, b| a.partial_cmp(b).unwrap()).unwrap();
                assert_eq!(open.pop(), Some((least.0, least.3)));
                all.retain(|&e| e != least);
            }
        }
        all.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let rest: Vec<(f64, NodeId)> = std::iter::from_fn(|| open.pop()).collect();
        assert_eq!(rest, all.iter().map(|&(f, _, _, node)| (f, node)).collect::<Vec<_>>());
    }
}
