//! Property tests of the incremental search (`MtDStarLite`): after any
//! random sequence of cell changes and moves of the start and the goal, its
//! path is legal step by step and costs what a fresh A* (delve's own) and
//! `pathfinding`'s Dijkstra (an independent oracle) say is optimal, and
//! "no path" agrees.

use crate::support::data;
use delve::grid::{Cell, DIRECTIONS, Grid, Neighbors, Tile};
use delve::search::{GridChanges, GridGraph, GridPlanner, Heuristic, MtDStarLite, NodeId, SearchSettings};
use proptest::prelude::*;

/// One thing that happens between two repairs.
#[derive(Clone, Debug)]
enum Op {
    /// A cell becomes this tile.
    Set(usize, usize, Tile),
    /// The start walks this many steps along its current path (the common
    /// case: the monster follows its plan).
    Walk(usize),
    /// The start jumps to any cell.
    JumpStart(usize, usize),
    /// The goal steps to a neighbouring cell (the player walking).
    StepGoal(usize),
    /// The goal jumps to any cell.
    JumpGoal(usize, usize),
}

fn tile() -> impl Strategy<Value = Tile> {
    prop_oneof![
        3 => Just(Tile::Floor(1)),
        1 => (1u8..10).prop_map(Tile::Floor),
        2 => Just(Tile::Wall),
        1 => Just(Tile::DoorClosed),
        1 => Just(Tile::DoorOpen),
        1 => Just(Tile::Water),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0usize..64, 0usize..64, tile()).prop_map(|(x, y, t)| Op::Set(x, y, t)),
        4 => (1usize..4).prop_map(Op::Walk),
        1 => (0usize..64, 0usize..64).prop_map(|(x, y)| Op::JumpStart(x, y)),
        3 => (0usize..8).prop_map(Op::StepGoal),
        1 => (0usize..64, 0usize..64).prop_map(|(x, y)| Op::JumpGoal(x, y)),
    ]
}

/// A random map, both ends, the neighbourhood, the heuristic and batches
/// of operations (each batch then one repair).
#[allow(clippy::type_complexity)]
fn scenario() -> impl Strategy<Value = (Grid, Cell, Cell, Neighbors, Heuristic, Vec<Vec<Op>>)> {
    (2usize..32, 2usize..32, any::<bool>(), 0usize..4).prop_flat_map(|(w, h, eight, hk)| {
        let neighbors = if eight { Neighbors::Eight } else { Neighbors::Four };
        // Consistent heuristics only (manhattan overestimates a diagonal).
        let heuristic = [Heuristic::Octile, Heuristic::Euclidean, Heuristic::Chebyshev, Heuristic::Zero][hk];
        (
            proptest::collection::vec(tile(), w * h),
            (0..w as i32, 0..h as i32),
            (0..w as i32, 0..h as i32),
            proptest::collection::vec(proptest::collection::vec(op(), 1..4), 1..25),
        )
            .prop_map(move |(tiles, s, g, ops)| {
                let grid = Grid::new(w, h, &tiles);
                (grid, Cell::new(s.0, s.1), Cell::new(g.0, g.1), neighbors, heuristic, ops)
            })
    })
}

/// `pathfinding`'s Dijkstra over the grid's moves, with costs in fixed
/// point (the crate wants integer costs): the optimal cost, if any.
fn oracle(grid: &Grid, from: Cell, to: Cell, neighbors: Neighbors) -> Option<f64> {
    const SCALE: f64 = 1e9;
    let successors = |&c: &Cell| -> Vec<(Cell, u64)> {
        DIRECTIONS[..neighbors.count()]
            .iter()
            .filter_map(|&(dx, dy)| {
                grid.step_cost(c, dx, dy).map(|k| (Cell::new(c.x + dx, c.y + dy), (k * SCALE).round() as u64))
            })
            .collect()
    };
    pathfinding::prelude::dijkstra(&from, successors, |&c| c == to).map(|(_, cost)| cost as f64 / SCALE)
}

/// The cost of walking `path`, checking every step is a legal move.
fn walk(grid: &Grid, path: &[Cell], neighbors: Neighbors) -> Result<f64, TestCaseError> {
    let mut cost = 0.0;
    for p in path.windows(2) {
        let (dx, dy) = (p[1].x - p[0].x, p[1].y - p[0].y);
        prop_assert!(DIRECTIONS[..neighbors.count()].contains(&(dx, dy)), "not a move: {} -> {}", p[0], p[1]);
        cost += grid.step_cost(p[0], dx, dy).ok_or_else(|| TestCaseError::fail(format!("illegal step {p:?}")))?;
    }
    Ok(cost)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn repairs_stay_optimal((mut grid, mut start, mut goal, neighbors, heuristic, batches) in scenario()) {
        let (w, h) = (grid.width() as i32, grid.height() as i32);
        let settings = SearchSettings { neighbors, heuristic, ..SearchSettings::default() };
        let mut search = MtDStarLite::new();
        let mut changes = GridChanges::new();
        let mut planner = GridPlanner::new();
        // The grid version the search was last repaired on; None: afresh.
        let mut synced: Option<u64> = None;
        // The heuristic's scale (the cheapest entry cost) the search was
        // keyed with: another scale is another heuristic, so afresh.
        let mut scale = grid.min_entry_cost();
        let mut path: Vec<Cell> = Vec::new();
        let mut changed: Vec<NodeId> = Vec::new();
        for batch in batches {
            for op in batch {
                match op {
                    Op::Set(x, y, t) => {
                        grid.set_tile(Cell::new(x as i32 % w, y as i32 % h), t);
                    }
                    Op::Walk(k) => {
                        if let Some(&c) = path.get(k.min(path.len().saturating_sub(1))) {
                            start = c;
                        }
                    }
                    Op::JumpStart(x, y) => start = Cell::new(x as i32 % w, y as i32 % h),
                    Op::StepGoal(k) => {
                        let (dx, dy) = DIRECTIONS[k];
                        if grid.can_step(goal, dx, dy) {
                            goal = Cell::new(goal.x + dx, goal.y + dy);
                        }
                    }
                    Op::JumpGoal(x, y) => goal = Cell::new(x as i32 % w, y as i32 % h),
                }
            }
            if !grid.is_walkable(start) || !grid.is_walkable(goal) {
                // No search starts or ends in a wall: the sim drops the
                // state then, and so does this test.
                search.clear();
                synced = None;
                path.clear();
                continue;
            }
            changed.clear();
            // As the sim asks: only the changes near the search's records
            // (`since_near`), which must keep every repair optimal.
            prop_assert_eq!(search.nodes().count(), search.records(), "a freed record is no node");
            let known =
                synced.is_some_and(|v| changes.since_near(&grid, grid.identity(), v, search.nodes(), &mut changed));
            if !known || scale != grid.min_entry_cost() {
                scale = grid.min_entry_cost();
                search.clear();
                // Brings the log to this version for the next repair.
                changes.since(&grid, grid.identity(), grid.version(), &mut changed);
                changed.clear();
            }
            synced = Some(grid.version());
            let graph = GridGraph::new(&grid, neighbors, heuristic, start, goal);
            let outcome = search.repair(&graph, grid.node(start), grid.node(goal), changed.iter().copied());
            path.clear();
            path.extend(search.path().iter().map(|&n| grid.cell_of(n)));

            let fresh = planner.plan(&grid, start, goal, &settings).unwrap();
            let reference = oracle(&grid, start, goal, neighbors);
            prop_assert_eq!(outcome.found, fresh.found, "found vs A* from {} to {}", start, goal);
            prop_assert_eq!(outcome.found, reference.is_some(), "found vs oracle");
            prop_assert_eq!(outcome.cost.is_some(), outcome.found, "a cost exactly when a path");
            if let (Some(cost), Some(fresh)) = (outcome.cost, fresh.cost) {
                prop_assert_eq!(path.first(), Some(&start));
                prop_assert_eq!(path.last(), Some(&goal));
                let walked = walk(&grid, &path, neighbors)?;
                prop_assert!(close(walked, cost), "walked {} reported {}", walked, cost);
                prop_assert!(close(cost, fresh), "cost {} vs A* {}", cost, fresh);
                prop_assert!(close(cost, reference.unwrap()), "cost {} vs oracle {:?}", cost, reference);
            } else {
                prop_assert!(path.is_empty());
            }
        }
    }
}

/// The common case is cheap: a start walking along its own path toward a
/// fixed goal re-expands far less than fresh searches would, and the first
/// search counts all it expands.
#[test]
fn walking_the_path_costs_less_than_searching_again() {
    let grid = Grid::filled(60, 40, Tile::Floor(1));
    let goal = Cell::new(55, 30);
    let mut search = MtDStarLite::new();
    let mut planner = GridPlanner::new();
    let settings = SearchSettings::default();
    let mut start = Cell::new(2, 3);
    let graph = GridGraph::new(&grid, Neighbors::Eight, Heuristic::Octile, start, goal);
    let first = search.repair(&graph, grid.node(start), grid.node(goal), []);
    let fresh = planner.plan(&grid, start, goal, &settings).unwrap();
    assert!(first.stats.expanded >= fresh.stats.expanded / 2, "{first:?} vs {fresh:?}");
    assert_eq!(first.stats.cells_updated, 0, "a fresh search is all expansions");
    let (mut repair_work, mut fresh_work) = (0, 0);
    for _ in 0..20 {
        start = grid.cell_of(search.path()[1]);
        let graph = GridGraph::new(&grid, Neighbors::Eight, Heuristic::Octile, start, goal);
        let o = search.repair(&graph, grid.node(start), grid.node(goal), []);
        let f = planner.plan(&grid, start, goal, &settings).unwrap();
        assert!(close(o.cost.unwrap(), f.cost.unwrap()));
        repair_work += o.stats.expanded + o.stats.cells_updated;
        fresh_work += f.stats.expanded;
    }
    assert!(repair_work * 2 < fresh_work, "repairs {repair_work} vs fresh searches {fresh_work}");
}

/// A door closing across the path is repaired, and the path goes round.
#[test]
fn a_closed_door_is_repaired_around() {
    let rows = ["..........", "....#.....", "....+.....", "....#.....", "....#....."];
    let tiles: Vec<Tile> = rows
        .iter()
        .flat_map(|r| r.chars())
        .map(|c| match c {
            '#' => Tile::Wall,
            '+' => Tile::DoorOpen,
            _ => Tile::Floor(1),
        })
        .collect();
    let mut grid = Grid::new(10, 5, &tiles);
    let (start, goal) = (Cell::new(1, 2), Cell::new(8, 2));
    let mut search = MtDStarLite::new();
    let mut changes = GridChanges::new();
    let mut changed = Vec::new();
    changes.since(&grid, grid.identity(), grid.version(), &mut changed);
    let graph = GridGraph::new(&grid, Neighbors::Eight, Heuristic::Octile, start, goal);
    let before = search.repair(&graph, grid.node(start), grid.node(goal), []);
    assert!(search.path().contains(&grid.node(Cell::new(4, 2))), "through the door");
    let version = grid.version();
    grid.set_tile(Cell::new(4, 2), Tile::DoorClosed);
    assert!(changes.since(&grid, grid.identity(), version, &mut changed));
    let graph = GridGraph::new(&grid, Neighbors::Eight, Heuristic::Octile, start, goal);
    let after = search.repair(&graph, grid.node(start), grid.node(goal), changed.iter().copied());
    assert!(after.cost.unwrap() > before.cost.unwrap());
    assert!(!search.path().contains(&grid.node(Cell::new(4, 2))), "not through the closed door");
    assert!(after.stats.cells_updated > 0, "the change is counted");
}

mod sim {
    //! The `incremental` policy in the living world.

    use super::data::shipped_level as level;
    use delve::grid::{Cell, Tile};
    use delve::level::Level;
    use delve::replay::feed::{self, LiveFeed};
    use delve::sim::{Aim, Bot, Command, Kind, RepathPolicy, RepathReason, Settings, World};

    /// `ticks` ticks of `level` with `monsters` more monsters and the
    /// random bot as the player, watching creature `watched`.
    fn run(level: &Level, repath: RepathPolicy, monsters: u32, ticks: u64, watched: Option<usize>) -> World {
        // Hunters follow the player (no aim-ahead map, whose work is the
        // same under both policies): the comparison is of the plans.
        let mut world = World::new(level, 3, Settings { repath, aim: Aim::Player, ..Settings::default() }).unwrap();
        world.apply(Command::Spawn { kind: Kind::Monster, count: monsters });
        world.watch(watched);
        let mut bot = Bot::new(3);
        for _ in 0..ticks {
            feed::bot_tick(&mut world, &mut LiveFeed, &mut bot).unwrap();
        }
        world
    }

    /// Same level, seed and commands, same world, whichever monster is
    /// watched (only the watched one records its repaired cells); and the
    /// monsters hunt about as well as under every-tick for less work.
    #[test]
    fn deterministic_and_hunts_like_every_tick_for_less_work() {
        let l = level("arena");
        let a = run(&l, RepathPolicy::Incremental, 40, 2000, None);
        let first_monster = a.creatures().iter().position(|c| c.kind == Kind::Monster);
        let b = run(&l, RepathPolicy::Incremental, 40, 2000, first_monster);
        assert_eq!(a.hash(), b.hash(), "watching changes nothing");
        let every = run(&l, RepathPolicy::EveryTick, 40, 2000, None);
        let (inc, all) = (a.stats().total, every.stats().total);
        let report = format!(
            "incremental: {} catches, work {}; every-tick: {} catches, work {}",
            inc.catches,
            inc.work(),
            all.catches,
            all.work()
        );
        assert!(all.catches > 0 && inc.catches * 4 >= all.catches * 3, "{report}");
        assert!(inc.work() * 5 < all.work() * 2, "{report}");
        assert!(inc.repaths(RepathReason::Moved) > 0 && inc.cells_updated > 0, "{report}");
    }

    /// The player opens and closes the door beside it while monsters hunt
    /// it: no monster ever stands in the closed door, and every path made
    /// on the grid as it is goes round it.
    #[test]
    fn a_door_toggled_by_the_player_is_repaired_around() {
        let l = Level::parse("#########\n#@'....M#\n#.#####.#\n#.......#\n#########\n", "door").unwrap();
        let mut w = World::new(&l, 1, Settings { repath: RepathPolicy::Incremental, ..Settings::default() }).unwrap();
        w.apply(Command::Spawn { kind: Kind::Monster, count: 4 });
        let door = Cell::new(2, 1);
        let mut closed_ticks = 0;
        for t in 0..800 {
            if t % 23 == 5 {
                w.apply(Command::Door);
            }
            w.tick();
            let closed = w.grid().tile(door) == Tile::DoorClosed;
            closed_ticks += u32::from(closed);
            for c in w.creatures().iter().filter(|c| c.kind == Kind::Monster) {
                assert!(!(closed && c.cell() == door), "tick {t}: a monster in the closed door");
                let hunt = c.hunt.as_ref().unwrap();
                if hunt.version == w.grid().version() {
                    assert!(hunt.path.iter().all(|&p| w.grid().is_walkable(p)), "tick {t}: {:?}", hunt.path);
                }
            }
        }
        let t = w.stats().total;
        assert!(closed_ticks > 100 && t.catches > 0, "{closed_ticks} ticks closed, {t:?}");
        assert!(t.repaths(RepathReason::Blocked) > 0 && t.cells_updated > 0, "{t:?}");
    }
}
