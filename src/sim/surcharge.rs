//! A grid's moves with a surcharge on entering some cells: the graph the
//! pack members plan on (their packmates' cells made dearer, `sim::pack`)
//! and the evading bot plans on (cells in a monster's sight or reach made
//! dearer, `sim::bot`).
//!
//! The surcharge of a cell is added to every move into it, times √2 for a
//! diagonal move, as if its entry cost were that much higher. Surcharges
//! are never negative, so the grid's heuristics stay admissible and the
//! route found is the cheapest under the surcharged costs.

use crate::grid::DIAGONAL;
use crate::search::{Graph, GridGraph, NodeId, TieBreak};

/// [`GridGraph`]'s moves plus `surcharge(node)` on entering `node`.
pub struct Surcharged<'a, F> {
    /// The grid's moves, heuristic and tie keys.
    pub moves: GridGraph<'a>,
    /// The grid's row stride in node ids (see [`crate::grid::Grid::stride`]),
    /// to tell a diagonal move from an orthogonal one.
    pub stride: usize,
    /// The surcharge of entering a node; never negative.
    pub surcharge: F,
}

impl<F: Fn(NodeId) -> f64> Graph for Surcharged<'_, F> {
    fn node_count(&self) -> usize {
        self.moves.node_count()
    }

    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        self.moves.successors(node, |next, cost| {
            let extra = (self.surcharge)(next);
            if extra > 0.0 {
                let step = node.abs_diff(next) as usize;
                let diagonal = step != 1 && step != self.stride;
                visit(next, cost + if diagonal { extra * DIAGONAL } else { extra });
            } else {
                visit(next, cost);
            }
        });
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        self.moves.heuristic(node)
    }

    fn tie_key(&self, node: NodeId, h: f64, tie: TieBreak) -> u32 {
        self.moves.tie_key(node, h, tie)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Neighbors};
    use crate::level::Level;
    use crate::search::{Heuristic, Query, Searcher};

    #[test]
    fn a_surcharge_adds_to_every_move_into_its_cell_and_diagonals_pay_root_two() {
        let g = Level::parse("name: t\n...\n...\n", "t.txt").unwrap().grid;
        let (a, b) = (Cell::new(0, 0), Cell::new(1, 1));
        let marked = g.node(b);
        let graph = Surcharged {
            moves: GridGraph::new(&g, Neighbors::Eight, Heuristic::Octile, a, b),
            stride: g.stride(),
            surcharge: |n| if n == marked { 2.0 } else { 0.0 },
        };
        let mut moves = Vec::new();
        graph.successors(g.node(a), |n, cost| moves.push((g.cell_of(n), cost)));
        assert!(moves.contains(&(Cell::new(1, 0), 1.0)));
        assert!(moves.contains(&(b, DIAGONAL + 2.0 * DIAGONAL)), "{moves:?}");
        let mut searcher = Searcher::new();
        let outcome = searcher.search(&graph, g.node(a), marked, &Query::default());
        assert!(outcome.found);
        assert_eq!(outcome.cost, Some(2.0 + 2.0), "round by a neighbour into the goal beats the dear diagonal");
    }
}
