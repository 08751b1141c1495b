//! Property tests of the flow field: after any sequence of cell changes
//! (walls, doors, costs), root moves and tick allowances, on random grids
//! with 4 and 8 neighbours, every cell's distance equals a fresh
//! Dijkstra's, by two oracles: delve's own engine run over the reversed
//! grid, and the `pathfinding` crate's `dijkstra_all` in exact integer
//! units. Unreachable cells (and cells beyond the field's bound) agree.

use delve::grid::{Cell, DIRECTIONS, Grid, Neighbors, Tile};
use delve::search::{Graph, GridFlow, GridGraph, Heuristic, NodeId, Order, Query, Reversible, Searcher};
use proptest::prelude::*;

/// A graph's edges read backwards: Dijkstra from the root over it settles
/// every node's cost *to* the root.
struct Reversed<'a>(GridGraph<'a>);

impl Graph for Reversed<'_> {
    fn node_count(&self) -> usize {
        self.0.node_count()
    }
    fn successors(&self, node: NodeId, visit: impl FnMut(NodeId, f64)) {
        self.0.predecessors(node, visit);
    }
}

/// Costs to `root` by the engine's Dijkstra over the reversed grid, by cell
/// row by row (`None`: unreachable).
fn engine_oracle(grid: &Grid, root: Cell, neighbors: Neighbors) -> Vec<Option<f64>> {
    let graph = Reversed(GridGraph::new(grid, neighbors, Heuristic::Zero, root, root));
    let mut searcher = Searcher::new();
    // Node 0 is the padding corner, a wall no edge enters: the search runs
    // until every reachable node is settled.
    let query = Query { order: Order::Dijkstra, ..Query::default() };
    let outcome = searcher.search(&graph, grid.node(root), 0, &query);
    assert!(!outcome.found);
    grid.cells().map(|c| searcher.settled_cost(grid.node(c))).collect()
}

/// √2 as delve uses it is 6074001000 / 2³², so every route cost is an
/// exact multiple of 2⁻³²: integer units for an oracle that never rounds.
const UNIT: u64 = 1 << 32;
const DIAGONAL_UNITS: u64 = 6_074_001_000;

/// Costs to `root` by `pathfinding::dijkstra_all` over the moves into each
/// cell, in units of 2⁻³², by cell row by row.
fn pathfinding_oracle(grid: &Grid, root: Cell, neighbors: Neighbors) -> Vec<Option<f64>> {
    let into = |&c: &Cell| -> Vec<(Cell, u64)> {
        let Some(entry) = grid.entry_cost(c) else { return Vec::new() };
        DIRECTIONS[..neighbors.count()]
            .iter()
            .map(|&(dx, dy)| (Cell::new(c.x - dx, c.y - dy), dx, dy))
            .filter(|&(p, dx, dy)| grid.is_walkable(p) && grid.can_step(p, dx, dy))
            .map(|(p, dx, dy)| (p, u64::from(entry) * if dx != 0 && dy != 0 { DIAGONAL_UNITS } else { UNIT }))
            .collect()
    };
    let reached = pathfinding::prelude::dijkstra_all(&root, into);
    grid.cells()
        .map(|c| if c == root { Some(0.0) } else { reached.get(&c).map(|&(_, u)| u as f64 / UNIT as f64) })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// Brings `flow` to a complete field for `root` on `grid`, a tick's
/// `allowance` at a time; returns the calls it took.
fn settle(flow: &mut GridFlow, grid: &Grid, root: Cell, neighbors: Neighbors, limit: f64, allowance: u64) -> u32 {
    let mut calls = 0;
    loop {
        flow.update(grid, root, neighbors, limit, allowance);
        calls += 1;
        let ready = flow.key().is_some_and(|k| k.root == root && k.version == grid.version());
        if ready && flow.pending().is_none() {
            return calls;
        }
        assert!(calls < 10_000, "the field never completes");
    }
}

/// Every cell's distance against both oracles (cut at the bound), and every
/// step of descent going down the slope by its own cost.
fn check(flow: &mut GridFlow, grid: &Grid, root: Cell, neighbors: Neighbors, limit: f64) -> Result<(), TestCaseError> {
    let engine = engine_oracle(grid, root, neighbors);
    let independent = pathfinding_oracle(grid, root, neighbors);
    let mut path = Vec::new();
    for (i, c) in grid.cells().enumerate() {
        let (a, b) = (engine[i].filter(|&d| d <= limit), independent[i].filter(|&d| d <= limit));
        prop_assert_eq!(a.is_some(), b.is_some(), "oracles disagree at {}", c);
        let got = flow.distance(grid, c);
        match (got, a) {
            (Some(g), Some(want)) => {
                prop_assert!(close(g, want) && close(g, b.unwrap()), "{}: field {} dijkstra {}", c, g, want)
            }
            (None, None) => {}
            _ => prop_assert!(false, "{}: field {:?} dijkstra {:?}", c, got, a),
        }
        flow.descent(grid, c, 1, &mut path);
        match (got, path.as_slice()) {
            (None, []) => {}
            (Some(_), [only]) => prop_assert_eq!((*only, c), (root, root)),
            (Some(d), [from, to]) => {
                let cost = grid.step_cost(*from, to.x - from.x, to.y - from.y);
                let next = flow.distance(grid, *to);
                prop_assert!(cost.is_some() && next.is_some(), "{} descends to {} by no move", from, to);
                prop_assert!(close(d, cost.unwrap() + next.unwrap()), "{} descends off the slope", from);
            }
            _ => prop_assert!(false, "{}: descent {:?} for distance {:?}", c, path, got),
        }
    }
    Ok(())
}

fn tile(code: u8) -> Tile {
    match code % 8 {
        0 | 1 => Tile::Wall,
        2 => Tile::DoorClosed,
        3 => Tile::DoorOpen,
        4 => Tile::Water,
        5 => Tile::Floor(1),
        6 => Tile::Floor(1 + code / 8 % 9),
        _ => Tile::Floor(1),
    }
}

/// One step of a run: a tile set somewhere, or the root moved, then one
/// tick's update with an allowance.
#[derive(Clone, Debug)]
enum Op {
    Set(u8, u8, u8),
    Root(u8, u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<u8>(), any::<u8>(), any::<u8>()).prop_map(|(x, y, t)| Op::Set(x, y, t)),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(x, y)| Op::Root(x, y)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn repaired_and_resumed_fields_equal_fresh_dijkstra(
        (w, h) in (2usize..16, 2usize..16),
        tiles in prop::collection::vec(any::<u8>(), 225),
        eight in any::<bool>(),
        bound in prop::option::of(2u32..25),
        allowance in 1u64..40,
        ops in prop::collection::vec(op(), 1..25),
    ) {
        let neighbors = if eight { Neighbors::Eight } else { Neighbors::Four };
        let limit = bound.map_or(f64::INFINITY, |b| f64::from(b) + 0.25);
        let cells: Vec<Tile> = tiles[..w * h].iter().map(|&t| tile(t)).collect();
        let mut grid = Grid::new(w, h, &cells);
        let mut root = Cell::new(0, 0);
        grid.set_tile(root, Tile::Floor(1));
        let mut flow = GridFlow::new();
        settle(&mut flow, &grid, root, neighbors, limit, allowance);
        check(&mut flow, &grid, root, neighbors, limit)?;
        for op in ops {
            match op {
                Op::Set(x, y, t) => {
                    grid.set_tile(Cell::new(i32::from(x) % w as i32, i32::from(y) % h as i32), tile(t));
                }
                Op::Root(x, y) => root = Cell::new(i32::from(x) % w as i32, i32::from(y) % h as i32),
            }
            // A tick that may not finish, then as many as it takes.
            flow.update(&grid, root, neighbors, limit, allowance);
            if grid.is_walkable(root) {
                settle(&mut flow, &grid, root, neighbors, limit, allowance);
                check(&mut flow, &grid, root, neighbors, limit)?;
            }
        }
    }
}
