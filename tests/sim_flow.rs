//! The `flow-field` repath policy in the living world: deterministic,
//! hunting as well as fresh searches for far less work, never making a
//! request wait for the budget, and repairing its field when the player
//! opens or closes a door.

use crate::support::data;
use data::shipped_level as level;
use delve::grid::{Cell, Neighbors};
use delve::level::Level;
use delve::replay::feed::{self, LiveFeed};
use delve::search::GridFlow;
use delve::sim::{Bot, Command, Kind, RepathPolicy, Settings, World};

fn settings(repath: RepathPolicy) -> Settings {
    Settings { repath, ..Settings::default() }
}

/// `monsters` monsters on the dungeon for `ticks` ticks, the random bot
/// moving the player.
fn run(repath: RepathPolicy, monsters: u32, ticks: u64, seed: u64) -> World {
    let mut world = World::new(&level("dungeon"), seed, settings(repath)).unwrap();
    world.apply(Command::Spawn { kind: Kind::Monster, count: monsters });
    let mut bot = Bot::new(seed);
    for _ in 0..ticks {
        feed::bot_tick(&mut world, &mut LiveFeed, &mut bot).unwrap();
    }
    world
}

#[test]
fn many_monsters_on_one_field_are_deterministic_and_catch_the_player() {
    let a = run(RepathPolicy::FlowField, 120, 1500, 3);
    let b = run(RepathPolicy::FlowField, 120, 1500, 3);
    assert_eq!(a.hash(), b.hash());
    let (t, u) = (&a.stats().total, &b.stats().total);
    assert_eq!(
        (t.searches, t.expanded, t.cells_updated, t.catches),
        (u.searches, u.expanded, u.cells_updated, u.catches)
    );
    assert!(t.catches > 0, "{t:?}");
    assert!(t.expanded > 0, "the field is computed and counted");
}

/// The watched monster is observation: watching changes nothing in the
/// field or the moves it decides.
#[test]
fn watching_a_monster_changes_nothing() {
    let mut a = World::new(&level("dungeon"), 5, settings(RepathPolicy::FlowField)).unwrap();
    let mut b = World::new(&level("dungeon"), 5, settings(RepathPolicy::FlowField)).unwrap();
    for w in [&mut a, &mut b] {
        w.apply(Command::Spawn { kind: Kind::Monster, count: 40 });
    }
    b.watch(Some(0));
    let (mut bot_a, mut bot_b) = (Bot::new(5), Bot::new(5));
    for _ in 0..400 {
        feed::bot_tick(&mut a, &mut LiveFeed, &mut bot_a).unwrap();
        feed::bot_tick(&mut b, &mut LiveFeed, &mut bot_b).unwrap();
    }
    assert_eq!(a.hash(), b.hash());
}

/// The goals at 500 monsters, as work counts (deterministic):
/// at least 5x less search work than every-tick, catching about as often,
/// and no request waiting for the budget.
#[test]
fn with_500_monsters_no_request_waits_and_the_work_is_a_fifth_of_every_tick() {
    let w = run(RepathPolicy::FlowField, 500, 1000, 3);
    let t = &w.stats().total;
    assert_eq!((t.budget_waits, t.max_wait), (0, 0), "{t:?}");
    let every = run(RepathPolicy::EveryTick, 500, 1000, 3);
    let e = &every.stats().total;
    assert!(t.work() * 5 < e.work(), "flow-field {} every-tick {}", t.work(), e.work());
    assert!(t.catches * 10 >= e.catches * 8, "flow-field catches {} every-tick {}", t.catches, e.catches);
}

/// Every cell of the world's field against a field computed from scratch
/// on the world's grid as it is now, as far as the world's reaches (to its
/// hunters).
fn assert_fresh(world: &World) {
    let field = world.flow_field().expect("a field under flow-field");
    let key = field.key().unwrap();
    assert_eq!(key.version, world.grid().version(), "the field describes the grid as it is");
    let reach = field.reach().unwrap();
    assert!(reach <= key.limit);
    let mut fresh = GridFlow::new();
    fresh.update(world.grid(), key.root, key.neighbors, reach, u64::MAX);
    for c in world.grid().cells() {
        assert_eq!(field.distance(world.grid(), c), fresh.distance(world.grid(), c), "{c}");
    }
}

/// The monster sees the player through the open door, six cells along
/// the corridor: the field reaches as far as it. The player shuts the door
/// and opens it again, standing still: each time the field is repaired
/// (no fresh computation) into the field a fresh computation with its
/// reach gives; shut, the corridor lies beyond the way round, out of it.
#[test]
fn a_door_the_player_toggles_is_repaired_into_a_fresh_field() {
    let text = "\
############
#@'....M...#
#.#........#
#.#........#
#.######...#
#..........#
############
";
    let level = Level::parse(text, "door").unwrap();
    let probe = Cell::new(7, 1);
    for neighbors in [Neighbors::Eight, Neighbors::Four] {
        let mut s = settings(RepathPolicy::FlowField);
        s.search.neighbors = neighbors;
        let mut world = World::new(&level, 1, s).unwrap();
        world.tick();
        assert_fresh(&world);
        let field = world.flow_field().unwrap();
        assert!(field.reach().unwrap() < field.key().unwrap().limit, "the field stops at its hunter");
        let before = field.distance(world.grid(), probe);
        assert_eq!(before, Some(6.0));
        for open in [false, true] {
            world.apply(Command::Door);
            world.tick();
            let t = &world.stats().last_tick;
            assert_eq!(t.expanded, 0, "the player stood still: no fresh computation");
            assert!(t.cells_updated > 0, "the door's change was repaired");
            assert_fresh(&world);
            let now = world.flow_field().unwrap().distance(world.grid(), probe);
            assert_eq!(now, if open { before } else { None }, "door open: {open}");
        }
    }
}

/// Nobody hunting the player (the one monster walled off in a room of its
/// own): no field is computed at all, however the player moves.
#[test]
fn without_a_hunter_no_field_is_computed() {
    let text = "############\n#@.....#...#\n#......#.M.#\n############\n";
    let level = Level::parse(text, "apart").unwrap();
    let mut world = World::new(&level, 1, settings(RepathPolicy::FlowField)).unwrap();
    for t in 0..60 {
        world.apply(Command::Move { dx: if t % 20 < 10 { 1 } else { -1 }, dy: 0 });
        world.tick();
    }
    assert!(world.flow_field().is_none());
    assert_eq!(world.stats().total.work(), 0);
}

/// An open room: the player walks east along row 8; a monster to the
/// north-east sees it and aims ahead of it, on row 8.
const ROOM: &str = "\
##############################
#............................#
#....................M.......#
#............................#
#............................#
#............................#
#............................#
#............................#
#@...........................#
#............................#
##############################
";

/// The player walks east one cell every few ticks under `repath`; returns
/// the search work counted at each of its steps once the monster aims,
/// and whether the monster ever aimed.
fn walk_east(repath: RepathPolicy) -> (Vec<u64>, bool) {
    let level = Level::parse(ROOM, "room").unwrap();
    let mut world = World::new(&level, 1, settings(repath)).unwrap();
    let (mut works, mut aimed) = (Vec::new(), false);
    for _ in 0..14 {
        let before = world.player().cell;
        while world.player().cell == before {
            world.apply(Command::Move { dx: 1, dy: 0 });
            world.tick();
        }
        let aim = world.creatures().iter().find_map(|c| c.hunt.as_ref()?.mind.aim);
        if aim.is_some_and(|a| a.y == 8) {
            aimed = true;
            works.push(world.stats().total.work());
        }
    }
    (works, aimed)
}

/// A player walking the route its hunters predicted changes no prediction:
/// under `flow-field` the map of aims is not made again and the hunter
/// descends it to its aim without a search, so the work stops growing
/// once it aims; under `every-tick` a map a step and a plan a tick.
#[test]
fn under_flow_field_a_hunter_whose_prediction_stands_runs_no_new_search() {
    let (works, aimed) = walk_east(RepathPolicy::FlowField);
    assert!(aimed && works.len() >= 4, "{works:?}");
    assert!(works.windows(2).skip(1).all(|w| w[1] == w[0]), "no work while the route stands: {works:?}");
    let (works, aimed) = walk_east(RepathPolicy::EveryTick);
    assert!(aimed && works.len() >= 4, "{works:?}");
    assert!(works.windows(2).skip(1).all(|w| w[1] > w[0]), "every-tick: {works:?}");
}
