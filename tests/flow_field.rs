//! Property tests of the flow field: after any sequence of cell changes
//! (walls, doors, costs), root moves and tick allowances, on random grids
//! with 4 and 8 neighbours, every cell's distance equals a fresh
//! Dijkstra's, by two oracles: delve's own engine run over the reversed
//! grid, and the `pathfinding` crate's `dijkstra_all` in exact integer
//! units. Unreachable cells (and cells beyond the field's bound) agree.
//!
//! And the Dijkstra maps of several sources with offsets, and the flee maps
//! made from them, fresh and repaired after cell changes, against a brute
//! force: every cell's value relaxed over its moves until nothing changes.

use delve::grid::{Cell, DIAGONAL, DIRECTIONS, Grid, Neighbors, Tile};
use delve::search::{DijkstraMap, Graph, GridFlow, GridGraph, Heuristic, NodeId, Order, Query, Reversible, Searcher};
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

/// The brute-force Dijkstra map: the value of every walkable cell, the
/// least of its offset (if a source) and, over its moves, the move's cost
/// plus the value of the cell it enters, relaxed in sweeps until no value
/// changes (Bellman-Ford); values above `limit` are cut. `None`: unreachable.
fn brute_force(grid: &Grid, neighbors: Neighbors, sources: &[(Cell, f64)], limit: f64) -> Vec<Option<f64>> {
    let cells: Vec<Cell> = grid.cells().collect();
    let index = |c: Cell| c.y as usize * grid.width() + c.x as usize;
    let mut value = vec![f64::INFINITY; cells.len()];
    for &(c, offset) in sources.iter().filter(|&&(c, _)| grid.is_walkable(c)) {
        value[index(c)] = value[index(c)].min(offset);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &c in cells.iter().filter(|&&c| grid.is_walkable(c)) {
            for &(dx, dy) in &DIRECTIONS[..neighbors.count()] {
                let to = Cell::new(c.x + dx, c.y + dy);
                let Some(entry) = grid.entry_cost(to).filter(|_| grid.can_step(c, dx, dy)) else { continue };
                let cost = f64::from(entry) * if dx != 0 && dy != 0 { DIAGONAL } else { 1.0 };
                let through = cost + value[index(to)];
                if through < value[index(c)] {
                    value[index(c)] = through;
                    changed = true;
                }
            }
        }
    }
    value.into_iter().map(|v| (v.is_finite() && v <= limit).then_some(v)).collect()
}

/// The map's values against the reference, and each step of its descent
/// down the slope: a step costs what it gains, and the descent stops only
/// on a source that keeps its offset.
fn check_map(
    map: &DijkstraMap,
    grid: &Grid,
    want: &[Option<f64>],
    sources: &[(Cell, f64)],
) -> Result<(), TestCaseError> {
    for (i, c) in grid.cells().enumerate() {
        let got = map.distance(grid, c);
        match (got, want[i]) {
            (Some(g), Some(w)) => prop_assert!(close(g, w), "{}: map {} brute force {}", c, g, w),
            (None, None) => {}
            _ => prop_assert!(false, "{}: map {:?} brute force {:?}", c, got, want[i]),
        }
        let Some(value) = got else {
            prop_assert_eq!(map.descend(grid, c), None);
            continue;
        };
        match map.descend(grid, c) {
            Some(next) => {
                let cost = grid.step_cost(c, next.x - c.x, next.y - c.y);
                let after = map.distance(grid, next);
                prop_assert!(cost.is_some() && after.is_some(), "{} descends to {} by no move", c, next);
                prop_assert!(close(value, cost.unwrap() + after.unwrap()), "{} descends off the slope", c);
            }
            None => {
                let own = sources.iter().filter(|s| s.0 == c).map(|s| s.1).reduce(f64::min);
                prop_assert!(
                    own.is_some_and(|o| close(o, value)),
                    "{} ends a descent at {} but is no source",
                    c,
                    value
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn dijkstra_and_flee_maps_equal_a_brute_force_relaxation(
        (w, h) in (2usize..14, 2usize..14),
        tiles in prop::collection::vec(any::<u8>(), 196),
        eight in any::<bool>(),
        given in prop::collection::vec((any::<u8>(), any::<u8>(), -20i8..20), 0..5),
        bound in prop::option::of(2u32..25),
        factor in prop_oneof![Just(-1.2), Just(-1.5), Just(-2.0), -4.0f64..-1.0],
        changes in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>()), 0..12),
    ) {
        let neighbors = if eight { Neighbors::Eight } else { Neighbors::Four };
        let limit = bound.map_or(f64::INFINITY, |b| f64::from(b) + 0.25);
        let cells: Vec<Tile> = tiles[..w * h].iter().map(|&t| tile(t)).collect();
        let mut grid = Grid::new(w, h, &cells);
        let at = |x: u8, y: u8| Cell::new(i32::from(x) % w as i32, i32::from(y) % h as i32);
        // Sources anywhere, walls and repeats included; one off the map.
        let mut sources: Vec<(Cell, f64)> = given.iter().map(|&(x, y, o)| (at(x, y), f64::from(o))).collect();
        sources.push((Cell::new(-1, 0), -100.0));
        let mut map = DijkstraMap::new(&grid, neighbors, &sources, limit);
        check_map(&map, &grid, &brute_force(&grid, neighbors, &sources, limit), &sources)?;
        for (x, y, t) in changes {
            grid.set_tile(at(x, y), tile(t));
            map.update(&grid);
            let want = brute_force(&grid, neighbors, &sources, limit);
            check_map(&map, &grid, &want, &sources)?;
            // The flee map of the repaired map, from the reference's values.
            let toward: Vec<(Cell, f64)> =
                grid.cells().zip(&want).filter_map(|(c, v)| Some((c, (*v)? * factor))).collect();
            let flee = map.flee(&grid, factor);
            check_map(&flee, &grid, &brute_force(&grid, neighbors, &toward, f64::INFINITY), &toward)?;
        }
    }
}

/// A repair touches what the change reaches: opening the door between two
/// halls of a map with a source in each re-examines the cells it changes.
#[test]
fn a_dijkstra_map_repair_is_cheaper_than_making_it_again() {
    let row = |middle: char| format!("#{}{middle}{}#", ".".repeat(30), ".".repeat(30));
    let text = format!("{}\n{}\n{}\n{}\n", "#".repeat(63), row('.'), row('+'), "#".repeat(63));
    let mut grid = delve::level::Level::parse(&text, "halls").unwrap().grid;
    let sources = [(Cell::new(1, 1), 0.0), (Cell::new(61, 2), -4.0)];
    let mut map = DijkstraMap::new(&grid, Neighbors::Eight, &sources, f64::INFINITY);
    let made = map.stats().expanded;
    grid.set_tile(Cell::new(31, 2), Tile::DoorOpen);
    let repaired = map.update(&grid);
    let again = DijkstraMap::new(&grid, Neighbors::Eight, &sources, f64::INFINITY);
    for c in grid.cells() {
        assert_eq!(map.distance(&grid, c), again.distance(&grid, c), "{c}");
    }
    assert!(repaired.cells_updated > 0 && repaired.cells_updated < made, "{} of {made}", repaired.cells_updated);
    assert_eq!(map.update(&grid), Default::default(), "an unchanged grid costs nothing");
}
