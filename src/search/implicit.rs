//! A* over an implicit graph: nodes of any type, edges from a closure, and
//! the goal a predicate, for users who do not want to implement [`Graph`]
//! (the shape of `pathfinding::prelude::astar`).
//!
//! It runs the project's one engine ([`Searcher`]) and reports the same
//! [`SearchStats`]. The engine keeps its per-node records in flat arrays
//! indexed by dense node ids, so this adapter gives each node an id the
//! first time a successor list names it (a hash map from node to id, only
//! looked up, so its order decides nothing), and sizes the engine for a
//! number of ids. A search that meets more nodes than that is abandoned
//! and run again, ids kept, with four times the room: the answer and the
//! counters are those of a search that never ran out (the runs before cost
//! at most a third as much again), and only `micros` counts every run.
//!
//! Every goal node gets the one id the engine searches for, so the search
//! ends at the first goal popped, as A* with a goal set does; which goal it
//! was is read back from the successors of the node before it on the path.

use super::engine::{Query, SearchStats, Searcher};
use super::{Graph, NodeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hash;

/// What [`astar`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found<N> {
    /// The nodes from the start to the goal reached, both included, and
    /// the path's cost; `None` when no goal can be reached.
    pub path: Option<(Vec<N>, f64)>,
    /// What the search did, counted as for any [`Graph`] (`micros` is the
    /// time of every run, see the module docs).
    pub stats: SearchStats,
}

/// The id every goal node shares: the engine's goal.
const GOAL: NodeId = 0;

/// Ids the first run has room for (the goal's included).
const FIRST_ROOM: usize = 1024;

/// A* from `start` to the first node `is_goal` accepts, over the graph
/// `successors` describes: `successors(n)` gives each edge leaving `n` as
/// `(node, cost)`, in a fixed order (ties are broken by it), and
/// `heuristic(n)` estimates the cost from `n` to the nearest goal (`|_|
/// 0.0` is Dijkstra). With an admissible heuristic the path is a cheapest
/// one; with a consistent one no node is expanded twice.
///
/// ```
/// use delve::search::astar;
///
/// // From 1 to 20 by +1 (cost 1) or ×2 (cost 1.5): 1, 2, 4, 5, 10, 20.
/// let found = astar(&1u32, |&n| [(n + 1, 1.0), (n * 2, 1.5)].into_iter().filter(|&(m, _)| m <= 20), |_| 0.0, |&n| n == 20);
/// let (path, cost) = found.path.unwrap();
/// assert_eq!(path, [1, 2, 4, 5, 10, 20]);
/// assert_eq!(cost, 1.0 + 1.5 + 1.0 + 1.5 + 1.5);
/// assert!(found.stats.expanded > 0);
/// ```
///
/// Each closure is called once per node for `heuristic` and `is_goal`,
/// and at least once per expanded node for `successors` (again when a
/// search runs out of room, and once more for the node before the goal),
/// so they must give the same answer each time. A graph with no reachable
/// goal is searched to its end: on an infinite one the search does not
/// end.
///
/// # Panics
/// When an edge cost is not positive and finite, or a heuristic value is
/// negative or not finite.
pub fn astar<N, S, I, H, G>(start: &N, successors: S, heuristic: H, is_goal: G) -> Found<N>
where
    N: Clone + Eq + Hash,
    S: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, f64)>,
    H: FnMut(&N) -> f64,
    G: FnMut(&N) -> bool,
{
    let graph = Closures {
        inner: RefCell::new(Inner {
            successors,
            heuristic,
            is_goal,
            ids: HashMap::new(),
            nodes: Vec::new(),
            h: Vec::new(),
            room: FIRST_ROOM,
            overflowed: false,
            edges: Vec::new(),
        }),
    };
    let first = graph.inner.borrow_mut().id(start).expect("the first run has room for the start");
    let mut searcher = Searcher::new();
    let mut micros = 0.0;
    loop {
        graph.inner.borrow_mut().overflowed = false;
        let outcome = searcher.search(&graph, first, GOAL, &Query::default());
        micros += outcome.stats.micros;
        let mut inner = graph.inner.borrow_mut();
        if inner.overflowed {
            inner.room *= 4;
            continue;
        }
        let stats = SearchStats { micros, ..outcome.stats };
        if !outcome.found {
            return Found { path: None, stats };
        }
        let ids = searcher.path();
        let cost = searcher.settled_cost(GOAL).expect("the goal was closed");
        let mut path: Vec<N> = ids[..ids.len() - 1].iter().map(|&id| inner.node(id).clone()).collect();
        path.push(match path.last() {
            // The start is a goal.
            None => start.clone(),
            Some(before) => inner.goal_after(before),
        });
        return Found { path: Some((path, cost)), stats };
    }
}

/// The closures as a [`Graph`] of dense ids. The engine calls the graph
/// through `&self`, hence the cell.
struct Closures<N, S, H, G> {
    inner: RefCell<Inner<N, S, H, G>>,
}

struct Inner<N, S, H, G> {
    successors: S,
    heuristic: H,
    is_goal: G,
    /// The id of every node met; every goal node has [`GOAL`].
    ids: HashMap<N, NodeId>,
    /// The node of each id but the goal's (id - 1), and its heuristic.
    nodes: Vec<N>,
    h: Vec<f64>,
    /// Ids this run has room for.
    room: usize,
    /// Whether this run met a node it had no room for.
    overflowed: bool,
    /// Scratch: one node's edges as ids, given to the engine once the cell
    /// is free again (the engine asks for heuristics while it takes them).
    edges: Vec<(NodeId, f64)>,
}

impl<N: Clone + Eq + Hash, S, I, H, G> Inner<N, S, H, G>
where
    S: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, f64)>,
    H: FnMut(&N) -> f64,
    G: FnMut(&N) -> bool,
{
    /// The id of `node`, given now if it has none; `None` when this run has
    /// no room for another.
    fn id(&mut self, node: &N) -> Option<NodeId> {
        if let Some(&id) = self.ids.get(node) {
            return Some(id);
        }
        let id = if (self.is_goal)(node) {
            GOAL
        } else {
            if self.nodes.len() + 1 >= self.room {
                return None;
            }
            let h = (self.heuristic)(node);
            assert!(h >= 0.0 && h.is_finite(), "astar: heuristic {h} is not a non-negative finite number");
            self.nodes.push(node.clone());
            self.h.push(h);
            self.nodes.len() as NodeId
        };
        self.ids.insert(node.clone(), id);
        Some(id)
    }

    fn node(&self, id: NodeId) -> &N {
        &self.nodes[id as usize - 1]
    }

    /// The goal the search reached from `before`: the first of its
    /// cheapest goal successors, the one whose edge the engine kept (it
    /// keeps a route only when it is strictly cheaper).
    fn goal_after(&mut self, before: &N) -> N {
        let mut best: Option<(N, f64)> = None;
        for (next, cost) in (self.successors)(before) {
            if self.ids.get(&next) == Some(&GOAL) && best.as_ref().is_none_or(|b| cost < b.1) {
                best = Some((next, cost));
            }
        }
        best.expect("the node before the goal leads to a goal").0
    }
}

impl<N: Clone + Eq + Hash, S, I, H, G> Graph for Closures<N, S, H, G>
where
    S: FnMut(&N) -> I,
    I: IntoIterator<Item = (N, f64)>,
    H: FnMut(&N) -> f64,
    G: FnMut(&N) -> bool,
{
    fn node_count(&self) -> usize {
        self.inner.borrow().room
    }

    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let mut edges = {
            let mut inner = self.inner.borrow_mut();
            let mut edges = std::mem::take(&mut inner.edges);
            edges.clear();
            // A run out of room is abandoned: it expands nothing more.
            if node != GOAL && !inner.overflowed {
                let here = inner.node(node).clone();
                for (next, cost) in (inner.successors)(&here) {
                    assert!(cost > 0.0 && cost.is_finite(), "astar: edge cost {cost} is not positive and finite");
                    match inner.id(&next) {
                        Some(id) => edges.push((id, cost)),
                        None => {
                            inner.overflowed = true;
                            edges.clear();
                            break;
                        }
                    }
                }
            }
            edges
        };
        for &(id, cost) in &edges {
            visit(id, cost);
        }
        self.inner.borrow_mut().edges = std::mem::take(&mut edges);
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        if node == GOAL { 0.0 } else { self.inner.borrow().h[node as usize - 1] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lattice of width 100 with a wall at x = 50 but for a gap at
    /// y = 0: more nodes than the first run has room for.
    fn lattice(&(x, y): &(i32, i32)) -> Vec<((i32, i32), f64)> {
        let moves = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let open = |(x, y): (i32, i32)| (0..100).contains(&x) && (0..100).contains(&y) && (x != 50 || y == 0);
        moves.iter().map(|&(dx, dy)| (x + dx, y + dy)).filter(|&p| open(p)).map(|p| (p, 1.0)).collect()
    }

    #[test]
    fn a_search_that_outgrows_its_room_answers_as_one_that_did_not() {
        let goal = (99, 99);
        let manhattan = |&(x, y): &(i32, i32)| f64::from((goal.0 - x).abs() + (goal.1 - y).abs());
        let found = astar(&(0, 99), lattice, manhattan, |&p| p == goal);
        let (path, cost) = found.path.unwrap();
        // Up to the gap at y = 0, through it, and down again.
        assert_eq!(cost, 50.0 + 99.0 + 99.0 + 49.0);
        assert_eq!(path.len(), cost as usize + 1);
        assert!(found.stats.expanded > FIRST_ROOM as u64, "{} expanded", found.stats.expanded);
        let again = astar(&(0, 99), lattice, manhattan, |&p| p == goal);
        assert_eq!(again.stats.expanded, found.stats.expanded, "deterministic");
    }

    #[test]
    fn a_start_that_is_a_goal_is_a_path_of_one_node_and_no_goal_is_none() {
        let found = astar(&(3, 3), lattice, |_| 0.0, |&p| p.0 == 3);
        assert_eq!(found.path, Some((vec![(3, 3)], 0.0)));
        assert_eq!(found.stats.expanded, 0);
        let none = astar(
            &0u8,
            |&n: &u8| [(n.saturating_add(1), 1.0)].into_iter().filter(move |_| n < 9),
            |_| 0.0,
            |&n| n == 10,
        );
        assert_eq!(none.path, None);
        assert_eq!(none.stats.expanded, 10, "every node of 0..=9");
    }

    #[test]
    fn several_goals_end_at_the_cheapest_and_several_edges_at_the_cheapest() {
        // 0 → 1 (cost 5), 0 → 2 (cost 1), 2 → 1 (cost 1): goal 1 by way of 2;
        // 2 → 3 twice (cost 4, then 2), 3 a goal too but dearer.
        let edges = |&n: &u8| match n {
            0 => vec![(1, 5.0), (2, 1.0)],
            2 => vec![(3, 4.0), (1, 1.0), (3, 2.0)],
            _ => vec![],
        };
        let found = astar(&0, edges, |_| 0.0, |&n| n == 1 || n == 3);
        assert_eq!(found.path, Some((vec![0, 2, 1], 2.0)));
        let found = astar(&0, edges, |_| 0.0, |&n| n == 3);
        assert_eq!(found.path, Some((vec![0, 2, 3], 3.0)), "the cheaper of the two edges 2 → 3");
    }

    #[test]
    #[should_panic(expected = "astar: edge cost 0 is not positive and finite")]
    fn a_free_edge_is_refused() {
        astar(&0u8, |&n| [(n + 1, 0.0)], |_| 0.0, |&n| n == 3);
    }
}
