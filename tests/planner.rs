//! The planner seam as a library user meets it: planners named and
//! refused, the jump point graphs and HPA* on a grid the user builds, and
//! every planner through the one dispatch.

use delve::grid::{Cell, Grid, Neighbors, Tile};
use delve::nav::{Ends, Navigator};
use delve::search::{
    Expansion, Fallback, GridPlanner, Heuristic, HpaPlanner, JumpTable, Order, PlanError, Planner, PlannerError, Query,
    SearchSettings, Searcher, Unhonoured, WalkBits,
};

/// A user's grid: a 40 × 30 field with two long walls and a scatter of
/// pillars, every floor cell of cost 1.
fn field() -> Grid {
    let mut tiles = vec![Tile::Floor(1); 40 * 30];
    for y in 0..30 {
        for x in 0..40 {
            let wall = (x == 12 && y < 24) || (x == 27 && y > 5) || (x % 5 == 2 && y % 7 == 3);
            if wall {
                tiles[y * 40 + x] = Tile::Wall;
            }
        }
    }
    Grid::new(40, 30, &tiles)
}

fn walk_cost(grid: &Grid, path: &[Cell]) -> f64 {
    path.windows(2).map(|p| grid.step_cost(p[0], p[1].x - p[0].x, p[1].y - p[0].y).expect("a legal step")).sum()
}

#[test]
fn planners_are_named_and_what_cannot_run_is_refused() {
    assert_eq!("jps:dijkstra".parse(), Ok(Planner::new(Order::Dijkstra, Expansion::Jps).unwrap()));
    assert_eq!("navmesh".parse::<Planner>().map(Planner::order), Ok(Order::Weighted));
    let bfs_over_jumps = Planner::new(Order::Bfs, Expansion::JpsPlus);
    assert!(matches!(bfs_over_jumps, Err(Unhonoured { order: Order::Bfs, expansion: Expansion::JpsPlus, .. })));
    assert!(matches!("hpa:greedy".parse::<Planner>(), Err(PlannerError::Unhonoured(_))));
    assert!(matches!("a*".parse::<Planner>(), Err(PlannerError::Unknown(_))));
    // The cycle of the A key, in the game and in the lab.
    assert_eq!(Planner::CYCLE.len(), 10);
    assert_eq!(Planner::HPA.next(), Planner::NAVMESH);
}

/// Online JPS and JPS+ on the user's grid, searched by the engine with any
/// ordering but BFS: the cost of the same ordering over every cell, to the
/// last bit, along a legal cell path.
#[test]
fn jump_point_graphs_serve_a_users_grid() {
    let mut grid = field();
    let (from, to) = (Cell::new(0, 0), Cell::new(39, 29));
    let mut bits = WalkBits::new(&grid);
    let mut table = JumpTable::new(&grid);
    let mut searcher = Searcher::new();
    let mut cells_planner = GridPlanner::new();
    for round in 0..2 {
        for order in [Order::AStar, Order::Dijkstra] {
            let on_cells = SearchSettings { planner: Planner::grid(order), ..SearchSettings::DEFAULT };
            let want = cells_planner.plan(&grid, from, to, &on_cells).unwrap().cost.expect("a path");
            let query = Query { order, ..Query::default() };
            let (start, goal) = (grid.node(from), grid.node(to));
            let online = bits.graph(&grid, Heuristic::Octile, from, to).unwrap();
            let o = searcher.search(&online, start, goal, &query);
            assert_eq!(o.cost.map(f64::to_bits), Some(want.to_bits()), "round {round}: online {order}");
            let cells = online.cells(searcher.path());
            assert_eq!((cells.first(), cells.last()), (Some(&from), Some(&to)));
            assert_eq!(walk_cost(&grid, &cells).to_bits(), want.to_bits());
            assert!(online.scanned() > 0);
            let read = table.graph(&grid, Heuristic::Octile, from, to).unwrap();
            let o = searcher.search(&read, start, goal, &query);
            assert_eq!(o.cost.map(f64::to_bits), Some(want.to_bits()), "round {round}: table {order}");
            assert_eq!(walk_cost(&grid, &read.cells(searcher.path())).to_bits(), want.to_bits());
        }
        // A door closes a gap: both structures follow it.
        let door = Cell::new(12, 26);
        grid.set_tile(door, Tile::DoorClosed);
        bits.update(&grid, &[door]);
        table.update(&grid, &[door]);
        assert_eq!(table, JumpTable::new(&grid), "a repaired table is a fresh one");
    }
    // Weighted cells: jump point search cannot prune soundly there.
    grid.set_tile(Cell::new(5, 5), Tile::Floor(3));
    assert_eq!(bits.graph(&grid, Heuristic::Octile, from, to).err(), Some(PlanError::Jumps { planner: Planner::JPS }));
    assert_eq!(
        table.graph(&grid, Heuristic::Octile, from, Cell::new(12, 0)).err(),
        Some(PlanError::Blocked { end: delve::search::Endpoint::Goal, cell: Cell::new(12, 0) })
    );
}

/// HPA* on its own, on the user's grid: a legal path never cheaper than
/// the optimum, found whenever A* finds one.
#[test]
fn hpa_serves_a_users_grid() {
    let grid = field();
    let mut hpa = HpaPlanner::new();
    hpa.set_cluster_size(8);
    let mut astar = GridPlanner::new();
    for (from, to) in [((0, 0), (39, 29)), ((3, 27), (38, 1)), ((20, 10), (21, 10))] {
        let (from, to) = (Cell::new(from.0, from.1), Cell::new(to.0, to.1));
        let best = astar.plan(&grid, from, to, &SearchSettings::DEFAULT).unwrap().cost.unwrap();
        let cost = hpa.plan(&grid, from, to, &SearchSettings::DEFAULT).unwrap().cost.unwrap();
        assert!(cost >= best - 1e-9 && (walk_cost(&grid, hpa.path()) - cost).abs() < 1e-9, "{from} -> {to}");
    }
    assert!(hpa.preprocess_micros() > 0.0);
}

/// Every planner of the cycle, and an ordering over jump points, through
/// the one dispatch on the user's grid: each says that it ran, the grid's
/// give cells and the any-angle ones points, and the optimal any-angle
/// path is never longer than an optimal cell path.
#[test]
fn every_planner_runs_through_the_navigator() {
    let grid = field();
    let (from, to) = (Cell::new(0, 0), Cell::new(39, 29));
    let mut nav = Navigator::new(0.0);
    let mut lengths = Vec::new();
    let jps_dijkstra = Planner::new(Order::Dijkstra, Expansion::Jps).unwrap();
    for planner in Planner::CYCLE.into_iter().chain([jps_dijkstra]) {
        let settings = SearchSettings { planner, ..SearchSettings::DEFAULT };
        let o = nav.plan(&grid, from, to, &settings).unwrap();
        assert_eq!(nav.ran(), planner);
        let cost = o.cost.unwrap_or_else(|| panic!("{planner} found no path"));
        if planner.expansion().any_angle() {
            assert!(nav.path().is_empty() && nav.points().len() >= 2, "{planner}");
        } else {
            assert_eq!(walk_cost(&grid, nav.path()), cost, "{planner}");
        }
        lengths.push((planner, cost));
    }
    let of = |p: Planner| lengths.iter().find(|l| l.0 == p).unwrap().1;
    assert!(of(Planner::WAYPOINTS) < of(Planner::ASTAR));
    assert_eq!(of(jps_dijkstra), of(Planner::ASTAR));
    // On 4 neighbours jump points are refused, or run their ordering on
    // the grid when the caller says so.
    let four = SearchSettings { planner: Planner::JPS, neighbors: Neighbors::Four, ..SearchSettings::DEFAULT };
    assert_eq!(nav.plan(&grid, from, to, &four), Err(PlanError::Jumps { planner: Planner::JPS }));
    let ends = Ends::cells(from, to);
    nav.plan_observed(&grid, ends, &four, Fallback::Grid, &mut ()).unwrap();
    assert_eq!(nav.ran(), Planner::ASTAR);
}
