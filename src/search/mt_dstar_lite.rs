//! Moving Target D* Lite (Sun, Yeoh & Koenig, AAMAS 2010): an incremental
//! search for a hunter chasing a moving target on a changing graph.
//!
//! # Why this one
//!
//! In the game both ends move: the monster (the start) and the player (the
//! goal) each step about once every 4–6 ticks, and doors change cells.
//! Plain D* Lite keeps its work only while the goal stays put (it searches
//! from the goal, and the moving start only shifts the heuristic), so every
//! player step would restart it. MT-D* Lite roots the search at the hunter
//! instead and handles all three changes:
//!
//! - **The target moves** (to any node): only the heuristic changes. As in
//!   D* Lite's moving start, the keys already in the open list stay lower
//!   bounds once `km` grows by h(old goal, new goal), so the move itself
//!   costs O(1); the repair then re-keys the open entries it pops with a
//!   stale key and expands only what the new goal's key lets through
//!   (often little, when the tree already reaches near the new goal).
//! - **The hunter moves** to a node of its search tree (the common case:
//!   one step along its own path): the subtree rooted at the new node keeps
//!   its g-values (they are its true distances plus one constant, the
//!   anchor `rhs` of the new root), every other node of the tree is deleted
//!   (g = rhs = ∞) and gets its rhs back from its neighbours in the kept
//!   subtree (the paper's `OptimizedDeletion`). The cost is proportional to
//!   the deleted part, counted in `cells_updated`, plus the expansions that
//!   re-grow what is needed of it. When the part to delete outgrows what
//!   the last fresh search expanded (at least 8), a fresh search is the
//!   cheaper repair and runs instead: short hunts in open rooms grow wide,
//!   bushy trees that one step leaves mostly behind. A jump off the tree
//!   deletes the whole tree: a restart too. Everything a restart expands
//!   counts in `expanded`; the walk over child links that measures the
//!   part to delete changes no value and stops at that limit.
//! - **Edge costs change** (a door opens or closes, a cell's cost changes):
//!   the caller names the nodes whose *incoming* edges may have changed;
//!   each gets its rhs recomputed from its predecessors (D* Lite's
//!   `UpdateVertex`), counted in `cells_updated`, and the usual repair
//!   expansions follow.
//!
//! G-FRA* keeps a tree the same way but repairs edge-cost changes by
//! deleting more of it; D* Lite's rhs repair keeps everything a change did
//! not touch, which suits doors that toggle in the middle of a hunt.
//!
//! # Costs and memory
//!
//! Records are kept only for the nodes the search touched, in a slab with a
//! map from node id to slot (a few tens of bytes per touched node), so 500
//! monsters on a 2048² map hold what their searches reached, not 500
//! full-map arrays. Deleted nodes that nothing reaches again are freed.
//! The tree is kept with child lists, so that a move of the hunter visits
//! only the deleted nodes.
//!
//! The heuristic must be consistent and a metric (the km trick adds
//! h(old goal, new goal)); on a grid that is any of octile, euclidean,
//! chebyshev or zero for 8 neighbours, any heuristic for 4. The answer is an
//! optimal path (its cost equals a fresh A*'s) read from the goal back to
//! the root along parent pointers.
//!
//! Statistics, per [`MtDStarLite::repair`]: `expanded` counts every node
//! popped and expanded (over- or under-consistent), a restart's included;
//! `cells_updated` counts the nodes outside expansions whose g or rhs the
//! repair changed or re-examined: deleted nodes and nodes recomputed for a
//! changed edge. Open entries popped with a key the target's move made
//! stale are re-keyed and pushed back without any g or rhs changing: they
//! count as `rekeyed`, work of the repair (a heap pop and push each),
//! apart from lazy A*'s stale pops. `pushed` and `max_open` count as in
//! A*.

use super::engine::{Outcome, SearchStats};
use super::{NodeId, Reversible};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// No slot: the end of a list, a missing parent, a node off the heap.
const NONE: u32 = u32::MAX;

/// A node's record.
#[derive(Clone, Copy, Debug)]
struct Rec {
    node: NodeId,
    g: f64,
    rhs: f64,
    /// The slot of the predecessor `rhs` comes from (the tree's parent).
    par: u32,
    /// First child, and the previous and next siblings under `par`.
    child: u32,
    prev: u32,
    next: u32,
    /// Position in the open list.
    heap: u32,
}

impl Rec {
    fn new(node: NodeId) -> Rec {
        Rec { node, g: f64::INFINITY, rhs: f64::INFINITY, par: NONE, child: NONE, prev: NONE, next: NONE, heap: NONE }
    }
}

/// D* Lite's key: (min(g, rhs) + h + km, min(g, rhs)), ordered
/// lexicographically.
type Key = (f64, f64);

fn less(a: Key, b: Key) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// Hashes a node id with one multiplication: ids are dense and distinct,
/// and the map is only looked up, never iterated (so its order cannot leak
/// into the search).
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// One hunter's incremental search: its tree, open list and the ends it
/// was last repaired for.
#[derive(Debug, Default)]
pub struct MtDStarLite {
    slots: HashMap<NodeId, u32, BuildHasherDefault<IdHasher>>,
    recs: Vec<Rec>,
    free: Vec<u32>,
    /// The open list: a binary heap of (key, slot).
    heap: Vec<(Key, u32)>,
    /// The root's slot (the hunter), and the goal node.
    root: u32,
    goal: Option<NodeId>,
    km: f64,
    path: Vec<NodeId>,
    /// Nodes the last repair updated, when asked to record them.
    updated: Vec<NodeId>,
    record: bool,
    scratch: Vec<(NodeId, f64)>,
    deleted: Vec<u32>,
    stats: SearchStats,
    /// Expansions of the last fresh search: what a restart would cost.
    fresh: u64,
}

/// Deletions a move of the hunter may always cost before a restart is
/// preferred, however small the last fresh search was.
const MIN_FRESH: u64 = 8;

impl MtDStarLite {
    /// An empty search; the first repair runs it from scratch.
    pub fn new() -> MtDStarLite {
        MtDStarLite { root: NONE, ..MtDStarLite::default() }
    }

    /// Forgets everything: the next repair is a fresh search.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.recs.clear();
        self.free.clear();
        self.heap.clear();
        self.root = NONE;
        self.goal = None;
        self.km = 0.0;
        self.path.clear();
    }

    /// The hunter's node of the last repair, if any.
    pub fn start(&self) -> Option<NodeId> {
        (self.root != NONE).then(|| self.recs[self.root as usize].node)
    }

    /// The goal of the last repair, if any.
    pub fn goal(&self) -> Option<NodeId> {
        self.goal
    }

    /// Nodes holding a record: the search's memory, in records.
    pub fn records(&self) -> usize {
        self.recs.len() - self.free.len()
    }

    /// The nodes holding a record (those the search reached and keeps), in
    /// no particular order: where a change of the graph can matter to it.
    pub fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.recs.iter().map(|r| r.node).filter(|&n| n != NONE)
    }

    /// The last repair's path from start to goal (empty when none).
    pub fn path(&self) -> &[NodeId] {
        &self.path
    }

    /// The nodes the last repair expanded or updated, in the order it did
    /// (possibly with repeats), when [`MtDStarLite::record_updates`] is on.
    pub fn updated(&self) -> &[NodeId] {
        &self.updated
    }

    /// Whether repairs list the nodes they update (for an overlay); the
    /// search itself is the same either way.
    pub fn record_updates(&mut self, on: bool) {
        self.record = on;
    }

    /// Brings the search to `graph` as it is now, from `start` to the
    /// graph's goal `goal`, after the incoming edges of the nodes in
    /// `changed` may have changed since the last repair (pass every such
    /// node: on a grid, a changed cell and its eight neighbours, whose
    /// diagonal moves pass by it; one that neither is nor has a
    /// predecessor among the [`MtDStarLite::nodes`] may be left out, as
    /// nothing reaches it). The graph's heuristic must aim at
    /// `goal` and stay the same function between repairs (a new one calls
    /// for [`MtDStarLite::clear`]).
    ///
    /// # Panics
    /// When `start` or `goal` is not below `graph.node_count()`.
    pub fn repair<G: Reversible>(
        &mut self,
        graph: &G,
        start: NodeId,
        goal: NodeId,
        changed: impl IntoIterator<Item = NodeId>,
    ) -> Outcome {
        let began = Instant::now();
        let n = graph.node_count();
        assert!((start as usize) < n && (goal as usize) < n, "endpoint outside the graph");
        self.stats = SearchStats::default();
        self.updated.clear();
        self.path.clear();
        if self.root == NONE {
            self.restart(graph, start);
        } else {
            if let Some(old) = self.goal.filter(|&g| g != goal) {
                // h(old goal, new goal): the graph's heuristic aims at the new goal.
                self.km += graph.heuristic(old);
            }
            if self.recs[self.root as usize].node != start {
                self.move_root(graph, start);
            }
            if self.root != NONE {
                for v in changed {
                    if let Some(s) = self.slot(v)
                        && s == self.root
                    {
                        continue;
                    }
                    self.recompute(graph, v, true);
                }
            }
        }
        let fresh = self.root == NONE;
        if fresh {
            self.restart(graph, start);
        }
        self.goal = Some(goal);
        self.compute(graph, goal);
        if fresh {
            self.fresh = self.stats.expanded;
        }
        let mut found = self.extract(graph, goal);
        if found.is_none() {
            // Parents that do not lead back to the root would be a broken
            // invariant (rounding could only ever bring one about): search
            // afresh rather than answer wrong; the restart is counted.
            self.restart(graph, start);
            self.goal = Some(goal);
            self.compute(graph, goal);
            found = self.extract(graph, goal);
        }
        let (found, cost) = found.unwrap_or_else(|| {
            self.path.clear();
            (false, 0.0)
        });
        let mut stats = self.stats;
        stats.micros = began.elapsed().as_secs_f64() * 1e6;
        Outcome { found, cost: found.then_some(cost), stats }
    }

    fn slot(&self, node: NodeId) -> Option<u32> {
        self.slots.get(&node).copied()
    }

    /// A new record for `node`, which has none: every caller has just
    /// looked (or cleared the map), so the map is probed once, to insert.
    fn new_slot(&mut self, node: NodeId) -> u32 {
        debug_assert!(self.slot(node).is_none(), "node {node} already holds a record");
        let s = match self.free.pop() {
            Some(s) => {
                self.recs[s as usize] = Rec::new(node);
                s
            }
            None => {
                self.recs.push(Rec::new(node));
                (self.recs.len() - 1) as u32
            }
        };
        self.slots.insert(node, s);
        s
    }

    fn note(&mut self, s: u32) {
        if self.record {
            self.updated.push(self.recs[s as usize].node);
        }
    }

    /// A fresh search rooted at `start`.
    fn restart<G: Reversible>(&mut self, graph: &G, start: NodeId) {
        self.clear();
        let s = self.new_slot(start);
        self.root = s;
        self.recs[s as usize].rhs = 0.0;
        self.update_state(graph, s);
    }

    fn key<G: Reversible>(&self, graph: &G, s: u32) -> Key {
        let r = &self.recs[s as usize];
        let m = r.g.min(r.rhs);
        (m + graph.heuristic(r.node) + self.km, m)
    }

    /// Puts `s` on the open list, re-keys it, or takes it off, as its
    /// consistency says (D* Lite's `UpdateState`).
    fn update_state<G: Reversible>(&mut self, graph: &G, s: u32) {
        let r = self.recs[s as usize];
        if r.g != r.rhs {
            let key = self.key(graph, s);
            if r.heap == NONE {
                self.heap_push(s, key);
            } else {
                self.heap_set(s, key);
            }
        } else if r.heap != NONE {
            self.heap_remove(s);
        }
    }

    /// Makes `p` (or no one, `NONE`) the tree parent of `s`.
    fn set_par(&mut self, s: u32, p: u32) {
        let r = self.recs[s as usize];
        if r.par == p {
            return;
        }
        if r.par != NONE {
            if r.prev == NONE {
                self.recs[r.par as usize].child = r.next;
            } else {
                self.recs[r.prev as usize].next = r.next;
            }
            if r.next != NONE {
                self.recs[r.next as usize].prev = r.prev;
            }
        }
        let next = if p == NONE { NONE } else { self.recs[p as usize].child };
        let r = &mut self.recs[s as usize];
        r.par = p;
        r.prev = NONE;
        r.next = next;
        if p != NONE {
            if next != NONE {
                self.recs[next as usize].prev = s;
            }
            self.recs[p as usize].child = s;
        }
    }

    /// Sets rhs(v) to the cheapest route through its predecessors and
    /// puts it on the open list as needed; `counted` adds it to
    /// `cells_updated`. A node without a record gets one only when some
    /// predecessor reaches it.
    fn recompute<G: Reversible>(&mut self, graph: &G, v: NodeId, counted: bool) {
        let (mut best, mut from) = (f64::INFINITY, NONE);
        graph.predecessors(v, |u, c| {
            if let Some(s) = self.slot(u) {
                let g = self.recs[s as usize].g + c;
                if g < best {
                    (best, from) = (g, s);
                }
            }
        });
        let s = match self.slot(v) {
            Some(s) => s,
            None if from == NONE => return,
            None => self.new_slot(v),
        };
        if counted {
            self.stats.cells_updated += 1;
            self.note(s);
        }
        self.recs[s as usize].rhs = best;
        self.set_par(s, from);
        self.update_state(graph, s);
    }

    /// Re-roots the tree at `start` (the paper's `OptimizedDeletion`): the
    /// subtree under `start` stays, the rest of the tree is deleted and
    /// its nodes get their rhs back from the kept part. When `start` is
    /// not in the tree, everything goes: the caller restarts.
    fn move_root<G: Reversible>(&mut self, graph: &G, start: NodeId) {
        let old = self.root;
        let Some(new) = self.slot(start).filter(|&s| self.descends(s, old)) else {
            self.root = NONE;
            return;
        };
        // Everything hanging from the old root but not from the new one is
        // deleted; when that is more than a fresh search expanded last
        // time, searching afresh is cheaper (and counted as such).
        let mut deleted = std::mem::take(&mut self.deleted);
        deleted.clear();
        deleted.push(old);
        let limit = self.fresh.max(MIN_FRESH) as usize;
        let mut i = 0;
        while i < deleted.len() && deleted.len() <= limit {
            let mut c = self.recs[deleted[i] as usize].child;
            while c != NONE {
                if c != new {
                    deleted.push(c);
                }
                c = self.recs[c as usize].next;
            }
            i += 1;
        }
        if deleted.len() > limit {
            self.deleted = deleted;
            self.root = NONE;
            return;
        }
        self.set_par(new, NONE);
        self.root = new;
        for &s in &deleted {
            let r = &mut self.recs[s as usize];
            (r.g, r.rhs, r.par, r.child, r.prev, r.next) = (f64::INFINITY, f64::INFINITY, NONE, NONE, NONE, NONE);
            if r.heap != NONE {
                self.heap_remove(s);
            }
        }
        for &s in &deleted {
            let node = self.recs[s as usize].node;
            self.recompute(graph, node, true);
            if self.recs[s as usize].rhs == f64::INFINITY {
                self.release(s);
            }
        }
        self.deleted = deleted;
    }

    /// Whether following parents from `s` reaches `root`.
    fn descends(&self, mut s: u32, root: u32) -> bool {
        for _ in 0..=self.recs.len() {
            if s == root {
                return true;
            }
            s = self.recs[s as usize].par;
            if s == NONE {
                return false;
            }
        }
        false
    }

    /// Frees the record of a node with g = rhs = ∞, off the open list and
    /// outside the tree: the same as never touched.
    fn release(&mut self, s: u32) {
        let r = self.recs[s as usize];
        debug_assert!(r.heap == NONE && r.child == NONE && r.par == NONE);
        self.slots.remove(&r.node);
        // Marks the slot free for `nodes` (a new record overwrites it).
        self.recs[s as usize].node = NONE;
        self.free.push(s);
    }

    /// D* Lite's `ComputeCostMinimalPath`: expands until the goal is
    /// consistent and no open key is below its key.
    fn compute<G: Reversible>(&mut self, graph: &G, goal: NodeId) {
        let mut scratch = std::mem::take(&mut self.scratch);
        while let Some(&(k_old, u)) = self.heap.first() {
            let (goal_key, goal_open) = match self.slot(goal) {
                Some(s) => (self.key(graph, s), self.recs[s as usize].rhs > self.recs[s as usize].g),
                None => ((f64::INFINITY, f64::INFINITY), false),
            };
            if !(less(k_old, goal_key) || goal_open) {
                break;
            }
            let k_new = self.key(graph, u);
            if less(k_old, k_new) {
                // Keyed before the target moved: a lower bound, raised now
                // (no g or rhs changes, but a pop and a push).
                self.heap_set(u, k_new);
                self.stats.rekeyed += 1;
                continue;
            }
            self.stats.expanded += 1;
            self.note(u);
            let r = self.recs[u as usize];
            scratch.clear();
            if r.g > r.rhs {
                // Over-consistent: settle it and offer it to its successors.
                self.recs[u as usize].g = r.rhs;
                self.heap_remove(u);
                graph.successors(r.node, |v, c| scratch.push((v, c)));
                for &(v, c) in &scratch {
                    let through = r.rhs + c;
                    let s = match self.slot(v) {
                        Some(s) if s == self.root || self.recs[s as usize].rhs <= through => continue,
                        Some(s) => s,
                        None => self.new_slot(v),
                    };
                    self.recs[s as usize].rhs = through;
                    self.set_par(s, u);
                    self.update_state(graph, s);
                }
            } else {
                // Under-consistent: its g is no longer true; its children
                // look for another parent.
                self.recs[u as usize].g = f64::INFINITY;
                let mut c = r.child;
                while c != NONE {
                    scratch.push((self.recs[c as usize].node, 0.0));
                    c = self.recs[c as usize].next;
                }
                for &(v, _) in &scratch {
                    self.recompute(graph, v, false);
                }
                self.update_state(graph, u);
            }
        }
        self.scratch = scratch;
    }

    /// The path from the root to `goal` along parents into
    /// [`MtDStarLite::path`]: whether the goal is reachable and the path's
    /// cost; `None` if the parents do not lead to the root.
    fn extract<G: Reversible>(&mut self, graph: &G, goal: NodeId) -> Option<(bool, f64)> {
        self.path.clear();
        let Some(mut s) = self.slot(goal).filter(|&s| self.recs[s as usize].rhs < f64::INFINITY) else {
            return Some((false, 0.0));
        };
        while s != self.root {
            self.path.push(self.recs[s as usize].node);
            s = self.recs[s as usize].par;
            if s == NONE || self.path.len() > self.recs.len() {
                self.path.clear();
                return None;
            }
        }
        self.path.push(self.recs[s as usize].node);
        self.path.reverse();
        let mut cost = 0.0;
        for w in self.path.windows(2) {
            let mut step = None;
            graph.successors(w[0], |v, c| {
                if v == w[1] {
                    step = Some(c);
                }
            });
            cost += step?;
        }
        Some((true, cost))
    }

    fn heap_push(&mut self, s: u32, key: Key) {
        self.heap.push((key, s));
        self.stats.pushed += 1;
        self.stats.max_open = self.stats.max_open.max(self.heap.len() as u64);
        let i = self.heap.len() - 1;
        self.recs[s as usize].heap = i as u32;
        self.sift_up(i);
    }

    fn heap_set(&mut self, s: u32, key: Key) {
        let i = self.recs[s as usize].heap as usize;
        let old = self.heap[i].0;
        self.heap[i].0 = key;
        if less(key, old) {
            self.sift_up(i);
        } else {
            self.sift_down(i);
        }
    }

    fn heap_remove(&mut self, s: u32) {
        let i = self.recs[s as usize].heap as usize;
        self.recs[s as usize].heap = NONE;
        let last = self.heap.pop().expect("a node on the heap");
        if i < self.heap.len() {
            let old = self.heap[i].0;
            self.heap[i] = last;
            self.recs[last.1 as usize].heap = i as u32;
            if less(last.0, old) {
                self.sift_up(i);
            } else {
                self.sift_down(i);
            }
        }
    }

    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let p = (i - 1) / 2;
            if !less(self.heap[i].0, self.heap[p].0) {
                break;
            }
            self.swap(i, p);
            i = p;
        }
    }

    fn sift_down(&mut self, mut i: usize) {
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < self.heap.len() && less(self.heap[l].0, self.heap[m].0) {
                m = l;
            }
            if r < self.heap.len() && less(self.heap[r].0, self.heap[m].0) {
                m = r;
            }
            if m == i {
                break;
            }
            self.swap(i, m);
            i = m;
        }
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.heap.swap(a, b);
        self.recs[self.heap[a].1 as usize].heap = a as u32;
        self.recs[self.heap[b].1 as usize].heap = b as u32;
    }
}
