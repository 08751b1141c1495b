//! The classic cases every search course starts with, on hand-drawn maps.

use delve::grid::{Cell, Neighbors};
use delve::level::Level;
use delve::search::{
    Endpoint, GridPlanner, Heuristic, NAVMESH_WEIGHT, OpenUpdate, PlanError, Planner, SearchSettings, TieBreak,
};

fn level(rows: &str) -> Level {
    Level::parse(rows, "test").expect("test map parses")
}

/// The planners of cells in the `A` key's cycle (the any-angle ones plan
/// between points).
fn grid_planners() -> impl Iterator<Item = Planner> {
    Planner::CYCLE.into_iter().filter(|p| !p.expansion().any_angle())
}

fn settings(planner: Planner, heuristic: Heuristic, neighbors: Neighbors) -> SearchSettings {
    SearchSettings {
        planner,
        heuristic,
        tie: TieBreak::Fifo,
        neighbors,
        weight: 1.0,
        navmesh_weight: NAVMESH_WEIGHT,
        reopen: false,
        open: OpenUpdate::Lazy,
    }
}

const ROOM: &str = "...#...\n...#...\nS..#..G\n...#...\n.......\n";

#[test]
fn wall_with_one_gap_takes_ten_steps() {
    let room = level(ROOM);
    let (s, g) = (room.start.unwrap(), room.goal.unwrap());
    assert_eq!((s, g), (Cell::new(0, 2), Cell::new(6, 2)));
    let mut p = GridPlanner::new();
    for algorithm in [Planner::BFS, Planner::DIJKSTRA, Planner::ASTAR] {
        let o = p.plan(&room.grid, s, g, &settings(algorithm, Heuristic::Manhattan, Neighbors::Four)).unwrap();
        assert!(o.found, "{algorithm}");
        assert_eq!(p.path().len() - 1, 10, "{algorithm}");
        assert_eq!(o.cost, Some(10.0), "{algorithm}");
        assert!(p.path().contains(&Cell::new(3, 4)), "{algorithm} goes through the gap");
    }
}

#[test]
fn astar_expands_fewer_nodes_than_dijkstra_in_the_room() {
    let room = level(ROOM);
    let (s, g) = (room.start.unwrap(), room.goal.unwrap());
    let mut p = GridPlanner::new();
    let dijkstra = p.plan(&room.grid, s, g, &settings(Planner::DIJKSTRA, Heuristic::Zero, Neighbors::Four)).unwrap();
    let astar = p.plan(&room.grid, s, g, &settings(Planner::ASTAR, Heuristic::Manhattan, Neighbors::Four)).unwrap();
    assert_eq!(dijkstra.cost, astar.cost);
    assert!(
        astar.stats.expanded < dijkstra.stats.expanded,
        "A* {} vs Dijkstra {}",
        astar.stats.expanded,
        dijkstra.stats.expanded
    );
}

#[test]
fn weighted_detour_bfs_pays_for_the_straight_route() {
    // 3x2 field, cell (1,0) costs 5.
    let field = level("S5G\n...\n");
    let (s, g) = (field.start.unwrap(), field.goal.unwrap());
    let mut p = GridPlanner::new();
    let bfs = p.plan(&field.grid, s, g, &settings(Planner::BFS, Heuristic::Zero, Neighbors::Four)).unwrap();
    assert_eq!(p.path(), &[Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 0)]);
    assert_eq!(bfs.cost, Some(6.0));
    let dijkstra = p.plan(&field.grid, s, g, &settings(Planner::DIJKSTRA, Heuristic::Zero, Neighbors::Four)).unwrap();
    assert_eq!(dijkstra.cost, Some(4.0));
    assert_eq!(p.path().len(), 5, "around through the bottom row");
}

#[test]
fn start_equals_goal() {
    let l = level("...\n.S.\n...\n");
    let s = l.start.unwrap();
    let mut p = GridPlanner::new();
    for algorithm in grid_planners() {
        let o = p.plan(&l.grid, s, s, &settings(algorithm, Heuristic::Octile, Neighbors::Eight)).unwrap();
        assert!(o.found);
        assert_eq!((o.cost, o.stats.expanded, o.stats.pushed), (Some(0.0), 0, 1), "a path of no steps costs 0");
        assert_eq!(p.path(), &[s]);
    }
}

#[test]
fn blocked_or_outside_endpoints_are_errors() {
    let l = level("S#.\n.#G\n");
    let mut p = GridPlanner::new();
    let st = SearchSettings::default();
    let wall = Cell::new(1, 0);
    assert_eq!(
        p.plan(&l.grid, wall, Cell::new(2, 1), &st),
        Err(PlanError::Blocked { end: Endpoint::Start, cell: wall })
    );
    assert_eq!(
        p.plan(&l.grid, Cell::new(0, 0), wall, &st),
        Err(PlanError::Blocked { end: Endpoint::Goal, cell: wall })
    );
    let out = Cell::new(3, 0);
    let err = p.plan(&l.grid, out, Cell::new(0, 0), &st).unwrap_err();
    assert_eq!(err.to_string(), "start 3,0 is outside the 3x2 map");
    assert_eq!(
        p.plan(&l.grid, Cell::new(0, 0), Cell::new(-1, 1), &st).unwrap_err().to_string(),
        "goal -1,1 is outside the 3x2 map"
    );
}

#[test]
fn unreachable_goal_is_an_answer() {
    let l = level("S.#..\n..#.G\n");
    let mut p = GridPlanner::new();
    for algorithm in grid_planners() {
        let o = p
            .plan(&l.grid, l.start.unwrap(), l.goal.unwrap(), &settings(algorithm, Heuristic::Octile, Neighbors::Eight))
            .unwrap();
        assert!(!o.found, "{algorithm}");
        assert_eq!(o.cost, None, "{algorithm}: no path has no cost, unlike a path of no steps");
        assert!(p.path().is_empty());
        match algorithm {
            // Jump point searches find no jump point on the left side: the
            // start is their only node.
            Planner::JPS | Planner::JPS_PLUS => assert_eq!(o.stats.expanded, 1, "{algorithm}"),
            // HPA* also counts its searches inside clusters.
            Planner::HPA => {}
            _ => assert_eq!(o.stats.expanded, 4, "{algorithm} closes the whole left side"),
        }
    }
}

#[test]
fn open_grid_costs() {
    let l = level(&".".repeat(10).repeat_lines(10));
    let (a, b) = (Cell::new(0, 0), Cell::new(9, 9));
    let mut p = GridPlanner::new();
    let eight = p.plan(&l.grid, a, b, &settings(Planner::ASTAR, Heuristic::Octile, Neighbors::Eight)).unwrap();
    assert!((eight.cost.unwrap() - 9.0 * std::f64::consts::SQRT_2).abs() < 1e-9);
    assert_eq!(eight.stats.expanded, 9, "octile is exact on an open grid: only the diagonal is expanded");
    let four = p.plan(&l.grid, a, b, &settings(Planner::ASTAR, Heuristic::Manhattan, Neighbors::Four)).unwrap();
    assert_eq!(four.cost, Some(18.0));
}

#[test]
fn diagonal_never_cuts_a_corner() {
    // Going from (0,1) to (1,0) diagonally would cut the wall at (0,0).
    let l = level("#G\nS.\n");
    let mut p = GridPlanner::new();
    let o = p.plan(&l.grid, l.start.unwrap(), l.goal.unwrap(), &SearchSettings::default()).unwrap();
    assert_eq!(o.cost, Some(2.0));
    assert_eq!(p.path(), &[Cell::new(0, 1), Cell::new(1, 1), Cell::new(1, 0)]);
}

#[test]
fn heuristics_scale_with_the_cheapest_cell() {
    // Every cell costs 3: scaled by 3, octile distance is exact on this
    // field and A* expands only the diagonal; unscaled it would be a third
    // of the truth and A* would flood the field.
    let l = level(&"33333".to_string().repeat_lines(5));
    let mut p = GridPlanner::new();
    let o = p.plan(&l.grid, Cell::new(0, 0), Cell::new(4, 4), &SearchSettings::default()).unwrap();
    assert!((o.cost.unwrap() - 4.0 * 3.0 * std::f64::consts::SQRT_2).abs() < 1e-9);
    assert_eq!(o.stats.expanded, 4);
}

trait RepeatLines {
    fn repeat_lines(&self, n: usize) -> String;
}

impl RepeatLines for String {
    fn repeat_lines(&self, n: usize) -> String {
        format!("{self}\n").repeat(n)
    }
}
