//! Monsters planning on the navigation mesh and the corner waypoint graph
//! (`Settings::nav`): determinism, walls and doors, catching the player.

use crate::support::data;
use data::shipped_level as level;
use delve::grid::{Cell, Tile};
use delve::level::Level;
use delve::replay::feed::{self, LiveFeed};
use delve::search::Planner;
use delve::sim::{Bot, Command, Kind, RepathReason, Setting, Settings, World};

const ANY_ANGLE: [Planner; 2] = [Planner::NAVMESH, Planner::WAYPOINTS];

fn with(planner: Planner) -> Settings {
    Settings::default().with_planner(planner)
}

/// Runs `ticks` ticks of the bot against `monsters` extra monsters, and
/// checks after every tick that no creature stands in a wall or a closed
/// door. Returns the world.
fn run_checked(name: &str, settings: Settings, monsters: u32, ticks: u64) -> World {
    let l = level(name);
    let mut world = World::new(&l, 7, settings).unwrap();
    world.apply(Command::Spawn { kind: Kind::Monster, count: monsters });
    let mut bot = Bot::new(7);
    for t in 0..ticks {
        feed::bot_tick(&mut world, &mut LiveFeed, &mut bot).unwrap();
        for (i, c) in world.creatures().iter().enumerate() {
            let p = c.body.pos;
            assert!(p.x.is_finite() && p.y.is_finite(), "{name} tick {t}: creature {i} {c:?}");
            assert!(
                world.grid().is_walkable(c.cell()),
                "{name} {}: tick {t}: {:?} {i} inside a wall at {p:?}",
                settings.planner(),
                c.kind
            );
        }
    }
    world
}

#[test]
fn any_angle_monsters_are_deterministic_and_keep_out_of_walls() {
    let ticks = if cfg!(debug_assertions) { 1200 } else { 4000 };
    for name in ["dungeon", "keep", "cave", "maze"] {
        for planner in ANY_ANGLE {
            let a = run_checked(name, with(planner), 8, ticks);
            let b = run_checked(name, with(planner), 8, ticks);
            assert_eq!(a.hash(), b.hash(), "{name} {planner}");
            let t = a.stats().total;
            assert!(t.searches > 0 && t.found > 0 && t.expanded > 0, "{name} {planner}: {t:?}");
            assert_eq!(a.settings().planner(), planner);
        }
    }
}

/// The three planners give three different sessions (the setting is
/// hashed and reaches the monsters).
#[test]
fn the_planner_changes_the_session() {
    let hashes: Vec<u64> = [Planner::ASTAR, Planner::NAVMESH, Planner::WAYPOINTS]
        .into_iter()
        .map(|p| run_checked("arena", with(p), 4, 300).hash())
        .collect();
    assert!(hashes[0] != hashes[1] && hashes[1] != hashes[2] && hashes[0] != hashes[2], "{hashes:x?}");
}

/// On the arena, where grid A* monsters catch the bot, any-angle ones do
/// too.
#[test]
fn any_angle_monsters_catch_the_player_where_grid_monsters_do() {
    let catches = |p| run_checked("arena", with(p), 6, 1500).stats().total.catches;
    let grid = catches(Planner::ASTAR);
    assert!(grid > 0, "grid A* monsters caught nothing");
    for planner in ANY_ANGLE {
        assert!(catches(planner) > 0, "{planner} monsters caught nothing (grid A*: {grid})");
    }
}

/// A door closed across the only way: the monster replans (`blocked`,
/// found from the cells its any-angle path crosses) around it, and its
/// new path stays out of the door; opened again, it replans (`version`).
/// Left shut, the monster goes round by the south corridor and catches the
/// player without ever entering the door.
#[test]
fn a_door_toggled_mid_run_is_respected() {
    let l = Level::parse("#########\n#@'....M#\n#.#####.#\n#.......#\n#########\n", "door").unwrap();
    let door = Cell::new(2, 1);
    for planner in ANY_ANGLE {
        let shut = || {
            let mut w = World::new(&l, 1, with(planner)).unwrap();
            for _ in 0..3 {
                w.tick();
            }
            let path = |w: &World| w.creatures()[0].hunt.as_ref().unwrap().path.clone();
            assert!(path(&w).contains(&door), "{planner}: the first plan goes through the open door");
            w.apply(Command::Door);
            assert_eq!(w.grid().tile(door), Tile::DoorClosed);
            w.tick();
            assert_eq!(w.stats().total.repaths(RepathReason::Blocked), 1, "{planner}");
            let p = path(&w);
            assert!(!p.is_empty() && !p.contains(&door), "{planner}: {p:?}");
            w
        };
        let mut reopened = shut();
        reopened.apply(Command::Door);
        reopened.tick();
        assert_eq!(reopened.stats().total.repaths(RepathReason::Version), 1, "{planner}");
        let mut w = shut();
        let mut t = 0;
        while w.stats().total.catches == 0 {
            w.tick();
            t += 1;
            assert_ne!(w.creatures()[0].cell(), door, "{planner}: the monster walked into the closed door");
            assert!(t < 400, "{planner}: the monster never came round");
        }
    }
}

/// Switching the planner mid-session replans every hunting monster, with
/// reason `settings`, and back.
#[test]
fn switching_to_an_any_angle_planner_replans() {
    let mut w = World::new(&level("arena"), 1, Settings::default()).unwrap();
    for _ in 0..20 {
        w.tick();
    }
    let before = w.stats().total.repaths(RepathReason::Settings);
    w.apply(Command::Set(Setting::Planner(Planner::WAYPOINTS)));
    w.tick();
    let after = w.stats().total.repaths(RepathReason::Settings);
    assert!(after > before, "no monster replanned for the new planner");
    assert_eq!(w.settings().planner(), Planner::WAYPOINTS);
}

/// A level of 22,201 wall corners, beyond the corner graph's cap: a
/// pillar on every other cell of every other row.
fn lattice() -> Level {
    let rows: Vec<String> =
        (0..150).map(|y| (0..150).map(|x| if x % 2 == 1 && y % 2 == 1 { '#' } else { '.' }).collect()).collect();
    Level::parse(&rows.join("\n"), "lattice").unwrap()
}

/// The `A` key's cycle passes over the corner graph where the level is
/// beyond its cap, to the next planner, and says so (an event the game's
/// log words); the same command replayed does the same, so a recording
/// of it verifies.
#[test]
fn the_cycle_passes_over_the_corner_graph_beyond_its_cap() {
    use delve::replay::feed::{Feed, RecordFeed};
    use delve::replay::{Recorder, Replay, Spawns, Start, Verdict, verify};
    use delve::search::PlanError;
    use delve::sim::{Event, Rules};
    let start = Start {
        level: lattice(),
        seed: 3,
        settings: with(Planner::NAVMESH),
        spawns: Spawns { monster: 4, ..Spawns::default() },
        rules: Rules::SANDBOX,
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("skip.jsonl");
    let mut recording = RecordFeed::new(Recorder::create(&file, &start, false).unwrap());
    let mut w = start.world().unwrap();
    for _ in 0..10 {
        feed::tick(&mut w, &mut recording).unwrap();
    }
    let next = w.settings().next_planner();
    assert_eq!(next, Setting::Planner(Planner::WAYPOINTS), "the key asks for the corner graph");
    feed::apply(&mut w, &mut recording, Command::Set(next)).unwrap();
    assert_eq!(w.settings().planner(), Planner::BFS, "and the world goes on to the next planner");
    let said: Vec<&Event> = w.events().iter().map(|e| &e.event).collect();
    let skipped = said.iter().any(|e| {
        matches!(e, Event::PlannerSkipped { planner: Planner::WAYPOINTS, why: PlanError::TooManyCorners { corners, cap } } if corners > cap)
    });
    assert!(skipped, "{said:?}");
    assert!(said.contains(&&Event::SettingChanged(Setting::Planner(Planner::BFS))), "{said:?}");
    for _ in 0..30 {
        feed::tick(&mut w, &mut recording).unwrap();
    }
    recording.finish(&w).unwrap();
    let verdict = verify(&Replay::load(&file).unwrap());
    assert!(matches!(verdict, Verdict::Match { complete: true, .. }), "{verdict}");
}
