//! The open list: a 4-ary min-heap of 16-byte entries laid out by cache
//! line, plus one entry held beside it.
//!
//! An entry packs the whole order into one `u128`: f (a non-negative float
//! as its IEEE bits, which order exactly like the values), the tie key,
//! then the insertion number, so a comparison is a single integer compare
//! without a branch. The node id does not fit beside them, so the list
//! keeps the node of every insertion number. Four children per node halve
//! a binary heap's depth, and so the serial chain of loads and compares
//! that makes up most of a pop.
//!
//! An improved node either gets a new entry, the old one being skipped by
//! the engine when popped (lazy deletion, `push`), or has its one entry
//! lowered in place (`decrease`), which needs the heap slot of every entry
//! kept up to date. The methods take `DECREASE` as a constant so that the
//! lazy search pays nothing for that bookkeeping.

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
///
/// Use one `DECREASE` for all calls between two `clear`s.
#[derive(Debug, Default)]
pub(crate) struct OpenList {
    /// Heap slots by cache line; slot s is `lines[s / 4].0[s % 4]`.
    lines: Vec<Line>,
    /// Entries in the heap, in slots `ROOT..ROOT + len`.
    len: usize,
    held: Option<(Entry, NodeId)>,
    /// The node of each entry, by insertion number.
    nodes: Vec<NodeId>,
    /// With `DECREASE`: the heap slot of each entry, by insertion number
    /// ([`HELD`] for the held one); only a node's newest entry is kept up
    /// to date, the older ones having been replaced.
    slots: Vec<u32>,
    /// With `DECREASE`: the newest insertion number of each node, by node
    /// id (read only for nodes on the list).
    newest: Vec<u32>,
}

/// The slot of the held entry, which is not in the heap.
const HELD: u32 = u32::MAX;

impl OpenList {
    /// Empties the list for a query on a graph of `nodes` nodes.
    pub(crate) fn clear<const DECREASE: bool>(&mut self, nodes: usize) {
        self.len = 0;
        self.held = None;
        self.nodes.clear();
        if DECREASE {
            self.slots.clear();
            if self.newest.len() < nodes {
                self.newest.resize(nodes, 0);
            }
        }
    }

    /// Adds `node` with priority f, then `tie`, then insertion order.
    /// Without `DECREASE`, a node may be added again (lazy deletion); with
    /// it, only a node that is not on the list.
    #[inline]
    pub(crate) fn push<const DECREASE: bool>(&mut self, f: f64, tie: u32, node: NodeId) {
        let entry = self.next_entry(f, tie);
        self.record::<DECREASE>(node, HELD);
        match self.held {
            None => self.held = Some((entry, node)),
            Some((held, _)) if entry.0 < held.0 => {
                self.held = Some((entry, node));
                self.heap_push::<DECREASE>(held);
            }
            Some(_) => self.heap_push::<DECREASE>(entry),
        }
    }

    /// Lowers the priority of `node`, which is on the list, to f and `tie`
    /// (ordered as a new insertion, like the entry lazy deletion would
    /// push). Only with `DECREASE`.
    ///
    /// A cheaper g whose f rounds to the node's current f keeps the current
    /// entry, as lazy deletion would pop that older, equal entry first.
    #[inline]
    pub(crate) fn decrease(&mut self, f: f64, tie: u32, node: NodeId) {
        let slot = self.slots[self.newest[node as usize] as usize];
        let current = match (slot, self.held) {
            (HELD, Some((held, held_node))) => {
                debug_assert_eq!(held_node, node, "the held entry is the node's");
                held.0
            }
            _ => self.get(slot as usize),
        };
        let entry = self.next_entry(f, tie);
        if entry.0 > current {
            debug_assert_eq!(f, Entry(current).f(), "a decrease never raises f");
            return;
        }
        self.record::<true>(node, slot);
        if slot == HELD {
            self.held = Some((entry, node));
        } else {
            self.sift_up::<true>(slot as usize, entry.0);
        }
    }

    /// The entry the next insertion gets: f, `tie`, the next number.
    #[inline(always)]
    fn next_entry(&self, f: f64, tie: u32) -> Entry {
        Entry::new(f, tie, self.nodes.len() as u32)
    }

    /// Takes the next insertion number for `node`, whose entry goes to
    /// `slot`.
    #[inline(always)]
    fn record<const DECREASE: bool>(&mut self, node: NodeId, slot: u32) {
        if DECREASE {
            self.slots.push(slot);
            self.newest[node as usize] = self.nodes.len() as u32;
        }
        self.nodes.push(node);
    }

    #[inline(always)]
    fn get(&self, slot: usize) -> u128 {
        self.lines[slot / ARITY].0[slot % ARITY]
    }

    #[inline(always)]
    fn set<const DECREASE: bool>(&mut self, slot: usize, key: u128) {
        self.lines[slot / ARITY].0[slot % ARITY] = key;
        if DECREASE {
            self.slots[Entry(key).seq() as usize] = slot as u32;
        }
    }

    /// Removes the smallest entry; returns its f and node.
    #[inline]
    pub(crate) fn pop<const DECREASE: bool>(&mut self) -> Option<(f64, NodeId)> {
        if let Some((held, node)) = self.held
            && (self.len == 0 || held.0 < self.get(ROOT))
        {
            self.held = None;
            return Some((held.f(), node));
        }
        let entry = self.heap_pop::<DECREASE>()?;
        Some((entry.f(), self.nodes[entry.seq() as usize]))
    }

    #[inline]
    fn heap_push<const DECREASE: bool>(&mut self, entry: Entry) {
        let slot = ROOT + self.len;
        if slot / ARITY >= self.lines.len() {
            self.lines.push(Line::default());
        }
        self.len += 1;
        self.sift_up::<DECREASE>(slot, entry.0);
    }

    #[inline]
    fn heap_pop<const DECREASE: bool>(&mut self) -> Option<Entry> {
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
                self.set::<DECREASE>(p, kc);
                p = first + c;
            } else {
                if first < end {
                    let child = (first + 1..end).fold(first, |m, c| if self.get(c) < self.get(m) { c } else { m });
                    let k = self.get(child);
                    self.set::<DECREASE>(p, k);
                    p = child;
                }
                break;
            }
        }
        self.sift_up::<DECREASE>(p, last);
        Some(Entry(top))
    }

    /// Places `key` in the hole at `slot`, moving later parents down into it.
    #[inline(always)]
    fn sift_up<const DECREASE: bool>(&mut self, mut slot: usize, key: u128) {
        while slot > ROOT {
            let parent = parent(slot);
            let pk = self.get(parent);
            if key >= pk {
                break;
            }
            self.set::<DECREASE>(slot, pk);
            slot = parent;
        }
        self.set::<DECREASE>(slot, key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pop_all<const DECREASE: bool>(open: &mut OpenList) -> Vec<(f64, NodeId)> {
        std::iter::from_fn(|| open.pop::<DECREASE>()).collect()
    }

    fn pops_in_order<const DECREASE: bool>() {
        let keys = [(3.0, 0, 7), (1.0, 2, 1), (1.0, 1, 4), (2.0, 0, 0), (1.0, 1, 2), (0.0, 9, 9)];
        let mut open = OpenList::default();
        for round in 0..2 {
            open.clear::<DECREASE>(10);
            for &(f, tie, node) in &keys {
                open.push::<DECREASE>(f, tie, node);
            }
            let order: Vec<NodeId> = pop_all::<DECREASE>(&mut open).into_iter().map(|(_, node)| node).collect();
            assert_eq!(order, vec![9, 4, 2, 1, 0, 7], "round {round}: 4 was pushed before 2");
        }
    }

    #[test]
    fn pops_by_f_then_tie_then_insertion() {
        pops_in_order::<false>();
        pops_in_order::<true>();
    }

    #[test]
    fn a_decreased_entry_orders_as_a_new_insertion() {
        let mut open = OpenList::default();
        open.clear::<true>(10);
        for (f, node) in [(5.0, 1), (3.0, 2), (4.0, 3), (6.0, 4)] {
            open.push::<true>(f, 0, node);
        }
        // 4 drops from 6 to 4, the f of 3: inserted later, it pops after 3.
        open.decrease(4.0, 0, 4);
        // 2, the held entry (the least pushed), drops further.
        open.decrease(1.0, 0, 2);
        assert_eq!(pop_all::<true>(&mut open), vec![(1.0, 2), (4.0, 3), (4.0, 4), (5.0, 1)]);
    }

    #[test]
    fn a_decrease_to_an_equal_key_keeps_the_older_entry() {
        let mut open = OpenList::default();
        for held_first in [true, false] {
            open.clear::<true>(10);
            // Node 1 is the held entry, or in the heap behind node 3.
            if !held_first {
                open.push::<true>(1.0, 0, 3);
            }
            open.push::<true>(2.0, 0, 1);
            open.push::<true>(2.0, 0, 2);
            open.decrease(2.0, 0, 1);
            let order: Vec<NodeId> = pop_all::<true>(&mut open).into_iter().map(|(_, node)| node).collect();
            assert_eq!(order, if held_first { vec![1, 2] } else { vec![3, 1, 2] });
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

    /// A pseudo-random stream of pushes, pops and (with `DECREASE`) key
    /// decreases with many equal keys, against a list sorted by (f, tie,
    /// insertion number). Nodes are distinct, as decrease-key needs.
    fn stream_against_a_sort<const DECREASE: bool>() {
        let mut x: u32 = 12345;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let by_key = |a: &(f64, u32, u32, NodeId), b: &(f64, u32, u32, NodeId)| a.partial_cmp(b).unwrap();
        // (f, tie, insertion number, node) of the live entries.
        let mut live: Vec<(f64, u32, u32, NodeId)> = Vec::new();
        let mut open = OpenList::default();
        open.clear::<DECREASE>(2003);
        let mut seq = 0;
        for i in 0..2000u32 {
            let r = next();
            let (f, tie, node) = (f64::from(r % 50), r % 7, i * 7 % 2003);
            live.push((f, tie, seq, node));
            open.push::<DECREASE>(f, tie, node);
            seq += 1;
            if DECREASE && i % 5 == 0 {
                let k = next() as usize % live.len();
                let (f, _, _, node) = live[k];
                if f >= 1.0 {
                    let (f, tie) = (f - 1.0 - f64::from(next() % 2), next() % 7);
                    let f = f.max(0.0);
                    live[k] = (f, tie, seq, node);
                    open.decrease(f, tie, node);
                    seq += 1;
                }
            }
            if i % 3 == 0 {
                let least = *live.iter().min_by(|a, b| by_key(a, b)).unwrap();
                assert_eq!(open.pop::<DECREASE>(), Some((least.0, least.3)));
                live.retain(|&e| e != least);
            }
        }
        live.sort_by(by_key);
        let rest = pop_all::<DECREASE>(&mut open);
        assert_eq!(rest, live.iter().map(|&(f, _, _, node)| (f, node)).collect::<Vec<_>>());
    }

    #[test]
    fn many_entries_come_out_sorted() {
        stream_against_a_sort::<false>();
        stream_against_a_sort::<true>();
    }
}
