//! The open list: a binary min-heap of packed keys.
//!
//! Each entry orders by (f, tie key, insertion sequence). f and the tie key
//! are non-negative floats stored as their IEEE bit patterns, which order
//! exactly like the values, so a comparison is three integer compares.
//! Lazy deletion lives in the engine: an improved node gets a new entry and
//! the old one is skipped when popped.

use super::NodeId;

/// One open-list entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Entry {
    f: u64,
    tie: u64,
    /// Insertion sequence in the high half (the final tie-break, unique per
    /// query), node id in the low half.
    seq_node: u64,
}

impl Entry {
    pub(crate) fn new(f: f64, tie: f64, seq: u32, node: NodeId) -> Entry {
        debug_assert!(f >= 0.0 && tie >= 0.0, "negative key: f {f}, tie {tie}");
        // `+ 0.0` turns a -0.0 into +0.0 so the bit order stays the value order.
        Entry { f: (f + 0.0).to_bits(), tie: (tie + 0.0).to_bits(), seq_node: (u64::from(seq) << 32) | u64::from(node) }
    }

    pub(crate) fn seq(self) -> u32 {
        (self.seq_node >> 32) as u32
    }

    pub(crate) fn node(self) -> NodeId {
        self.seq_node as u32
    }
}

/// Min-heap of [`Entry`] whose storage is kept between queries.
#[derive(Debug, Default)]
pub(crate) struct OpenList {
    heap: Vec<Entry>,
}

impl OpenList {
    pub(crate) fn clear(&mut self) {
        self.heap.clear();
    }

    pub(crate) fn push(&mut self, entry: Entry) {
        let heap = &mut self.heap;
        let mut i = heap.len();
        heap.push(entry);
        // Sift the new entry up, moving parents down into the hole.
        while i > 0 {
            let parent = (i - 1) / 2;
            if heap[parent] <= entry {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = entry;
    }

    pub(crate) fn pop(&mut self) -> Option<Entry> {
        let last = self.heap.pop()?;
        let heap = &mut self.heap;
        if heap.is_empty() {
            return Some(last);
        }
        let top = heap[0];
        // Sift `last` down from the root, moving the smaller child up.
        let n = heap.len();
        let mut i = 0;
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && heap[right] < heap[left] { right } else { left };
            if last <= heap[child] {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order_then_insertion_order() {
        let mut open = OpenList::default();
        let keys = [(3.0, 0.0), (1.0, 2.0), (1.0, 1.0), (2.0, 0.0), (1.0, 1.0), (0.0, 9.0)];
        for (seq, &(f, t)) in keys.iter().enumerate() {
            open.push(Entry::new(f, t, seq as u32, 100 + seq as u32));
        }
        let order: Vec<u32> = std::iter::from_fn(|| open.pop()).map(|e| e.node()).collect();
        assert_eq!(order, vec![105, 102, 104, 101, 103, 100]);
    }

    #[test]
    fn packs_sequence_and_node() {
        let e = Entry::new(1.5, 0.0, 7, u32::MAX);
        assert_eq!((e.seq(), e.node()), (7, u32::MAX));
        assert_eq!(Entry::new(-0.0, 0.0, 0, 0), Entry::new(0.0, 0.0, 0, 0));
    }
}
