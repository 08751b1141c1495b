//! Watching a search step by step: the [`Observer`] the engine tells what
//! it does, a [`Trace`] that records it, and a [`TraceView`] that replays a
//! trace up to any step (the search lab's frontier, closed set, and each
//! cell's g, h, f, parent and order of expansion).
//!
//! The engine runs a query to its end either way; recording is asked for
//! by passing a [`Trace`] instead of `()`, whose empty methods compile to
//! nothing, so that the searches nobody watches pay nothing.

use super::{NodeId, SearchStats};

/// What a search tells whoever watches it. Every method does nothing by
/// default; `()` is the observer that watches nothing.
pub trait Observer {
    /// `node` got a route (a push, or a lowered entry under decrease-key):
    /// cost `g` from the start through `parent`, heuristic term `h` as the
    /// search computed it (0 where it needs none), and its key `f`.
    #[inline(always)]
    fn reached(&mut self, _node: NodeId, _parent: NodeId, _g: f64, _h: f64, _f: f64) {}
    /// `node` was popped and closed (the goal, too, when it is reached).
    #[inline(always)]
    fn closed(&mut self, _node: NodeId) {}
    /// One expansion is over, or the goal was popped: the counters so far.
    #[inline(always)]
    fn step(&mut self, _stats: &SearchStats) {}
}

impl Observer for () {}

/// One event of a search, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// See [`Observer::reached`].
    Reached {
        /// The node reached.
        node: NodeId,
        /// Its predecessor on the route.
        parent: NodeId,
        /// Cost from the start.
        g: f64,
        /// Heuristic term.
        h: f64,
        /// Ordering key.
        f: f64,
    },
    /// See [`Observer::closed`].
    Closed(NodeId),
}

/// The events of one query cut into steps (one expansion each, the goal's
/// pop being the last), with the counters after each step.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    events: Vec<Event>,
    /// Per step: the end of its events in `events`, and the counters then.
    steps: Vec<(usize, SearchStats)>,
}

impl Observer for Trace {
    fn reached(&mut self, node: NodeId, parent: NodeId, g: f64, h: f64, f: f64) {
        self.events.push(Event::Reached { node, parent, g, h, f });
    }
    fn closed(&mut self, node: NodeId) {
        self.events.push(Event::Closed(node));
    }
    fn step(&mut self, stats: &SearchStats) {
        self.steps.push((self.events.len(), *stats));
    }
}

impl Trace {
    /// An empty trace, ready to record a query.
    pub fn new() -> Trace {
        Trace::default()
    }

    /// Forgets the recorded query (keeping the buffers).
    pub fn clear(&mut self) {
        self.events.clear();
        self.steps.clear();
    }

    /// Number of steps recorded.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether no step was recorded.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The counters after `k` steps (clamped to the recorded ones); before
    /// the first, only the start is on the open list. Stale pops after the
    /// last expansion of a search that finds no path are in the engine's
    /// outcome, not here.
    pub fn stats(&self, k: usize) -> SearchStats {
        match k.min(self.steps.len()) {
            0 if self.events.is_empty() => SearchStats::default(),
            0 => SearchStats { pushed: 1, max_open: 1, ..SearchStats::default() },
            k => self.steps[k - 1].1,
        }
    }

    /// The events of the first `k` steps (all of them once `k` reaches
    /// [`Trace::len`]; before any step, the start's push).
    pub fn events(&self, k: usize) -> &[Event] {
        match k {
            0 => &self.events[..self.events.len().min(1)],
            k if k >= self.steps.len() => &self.events,
            k => &self.events[..self.steps[k - 1].0],
        }
    }
}

/// What is known of one node after some steps of a trace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeMark {
    /// Cost of its best known route.
    pub g: f64,
    /// Heuristic term as the search computed it.
    pub h: f64,
    /// Ordering key.
    pub f: f64,
    /// Predecessor on its best known route (itself for the start).
    pub parent: NodeId,
    /// Closed (expanded), rather than waiting on the open list.
    pub closed: bool,
    /// 1 for the first node expanded, 2 for the next...; `None` while open.
    pub order: Option<u32>,
}

/// Every node's state after `k` steps of a [`Trace`], moved forward event
/// by event and rebuilt from the start when moved back.
#[derive(Clone, Debug, Default)]
pub struct TraceView {
    nodes: Vec<Option<NodeMark>>,
    /// Events applied so far.
    applied: usize,
    closed: u32,
    current: Option<NodeId>,
}

impl TraceView {
    /// A view of nothing, for graphs of `n` nodes.
    pub fn new(n: usize) -> TraceView {
        TraceView { nodes: vec![None; n], ..TraceView::default() }
    }

    /// Shows `trace` after its first `k` steps.
    pub fn seek(&mut self, trace: &Trace, k: usize) {
        let events = trace.events(k);
        if events.len() < self.applied {
            self.nodes.iter_mut().for_each(|m| *m = None);
            (self.applied, self.closed, self.current) = (0, 0, None);
        }
        for &event in &events[self.applied..] {
            match event {
                Event::Reached { node, parent, g, h, f } => {
                    let order = self.nodes[node as usize].and_then(|m| m.order);
                    self.nodes[node as usize] = Some(NodeMark { g, h, f, parent, closed: false, order });
                }
                Event::Closed(node) => {
                    self.closed += 1;
                    self.current = Some(node);
                    if let Some(m) = &mut self.nodes[node as usize] {
                        (m.closed, m.order) = (true, Some(self.closed));
                    }
                }
            }
        }
        self.applied = events.len();
    }

    /// What is known of `node` (`None`: not generated yet).
    pub fn node(&self, node: NodeId) -> Option<&NodeMark> {
        self.nodes.get(node as usize)?.as_ref()
    }

    /// The node expanded by the last step shown.
    pub fn current(&self) -> Option<NodeId> {
        self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Graph, Query, Searcher};

    /// A line 0 - 1 - 2 - 3 with unit edges both ways.
    struct Line;

    impl Graph for Line {
        fn node_count(&self) -> usize {
            4
        }
        fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
            if node > 0 {
                visit(node - 1, 1.0);
            }
            if node < 3 {
                visit(node + 1, 1.0);
            }
        }
        fn heuristic(&self, node: NodeId) -> f64 {
            f64::from(3 - node)
        }
    }

    #[test]
    fn a_trace_steps_to_the_outcome_of_the_unobserved_search() {
        let mut s = Searcher::new();
        let plain = s.search(&Line, 0, 3, &Query::default());
        let mut trace = Trace::new();
        let traced = s.search_observed(&Line, 0, 3, &Query::default(), &mut trace);
        assert_eq!((traced.found, traced.cost), (plain.found, plain.cost));
        // Three expansions' worth of steps: 0, 1, 2, then the goal's pop.
        assert_eq!(trace.len(), 4);
        let last = trace.stats(trace.len());
        assert_eq!(SearchStats { micros: 0.0, ..last }, SearchStats { micros: 0.0, ..plain.stats });
        assert_eq!(trace.stats(0), SearchStats { pushed: 1, max_open: 1, ..SearchStats::default() });
        assert_eq!(trace.stats(1).expanded, 1);

        let mut view = TraceView::new(4);
        view.seek(&trace, 2);
        assert_eq!(view.current(), Some(1));
        let m = view.node(2).unwrap();
        assert_eq!((m.g, m.h, m.f, m.parent, m.closed, m.order), (2.0, 1.0, 3.0, 1, false, None));
        assert_eq!(view.node(1).unwrap().order, Some(2));
        assert!(view.node(3).is_none());
        view.seek(&trace, 4);
        assert_eq!((view.current(), view.node(3).unwrap().order), (Some(3), Some(4)));
        // Back again: rebuilt from the start.
        view.seek(&trace, 1);
        assert!(view.node(2).is_none());
        assert_eq!(view.current(), Some(0));
    }
}
