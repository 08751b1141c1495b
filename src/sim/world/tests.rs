//! The world's private steps, driven directly.

use super::*;
use crate::grid::Tile;
use crate::sim::errand::{Errand, Task};
use crate::sim::run::Run;
use crate::sim::species::AVOID_RADIUS;
use crate::steer::cell_center;

/// A monster on its post at (1,1), a wanderer, and the player.
fn world() -> World {
    let text = "name: t\n#########\n#M......#\n#....@.w#\n#########\n";
    let level = Level::parse(text, "t.txt").unwrap();
    World::new(&level, 1, Settings::default()).unwrap()
}

/// The monster touches the player and is caught: where does it land?
fn caught(world: &mut World) -> Vec2 {
    assert_eq!(world.state.creatures[0].kind, Kind::Monster);
    world.state.creatures[0].body.pos = cell_center(world.state.player.cell);
    let _ = systems::catch(world);
    systems::tally(world);
    assert_eq!(world.session.stats.last_tick.catches, 1);
    world.state.creatures[0].body.pos
}

#[test]
fn a_monster_caught_lands_on_its_post_when_it_is_clear() {
    let mut w = world();
    let home = w.state.creatures[0].home;
    assert_eq!(caught(&mut w), home);
}

/// Issue 25: "Shift-run continues ... on through the catch". A catch ends
/// the run and drops the acts typed ahead.
#[test]
fn a_catch_ends_the_run_and_the_acts_that_wait() {
    let mut w = world();
    let run = Run::start(&w.state.grid, w.state.player.cell, 1, 0).unwrap();
    w.state.walk.errand = Some(Errand { task: Task::Run(run), goal_in_view: false });
    w.state.walk.push(Act::Step(1, 0));
    w.state.walk.push(Act::Step(1, 0));
    caught(&mut w);
    assert_eq!(w.state.walk.errand, None);
    assert_eq!((w.state.walk.queued, w.state.walk.ahead), (None, None));
}

#[test]
fn a_catch_whose_home_is_occupied_does_not_produce_an_overlap() {
    let mut w = world();
    let home = w.state.creatures[0].home;
    // The wanderer stands on the monster's post.
    w.state.creatures[1].body.pos = home;
    let landed = caught(&mut w);
    let apart = landed.distance(w.state.creatures[1].body.pos);
    assert!(apart >= 2.0 * AVOID_RADIUS, "landed at {landed:?}, {apart} from the wanderer");
    // The nearest clear cell, the first in row order: east of the post.
    assert_eq!(landed, cell_center(Cell::new(2, 1)));
    // The crowd's figures are taken as the next tick's steering begins.
    let _ = movement::steer(&mut w);
    systems::tally(&mut w);
    assert_eq!(w.session.stats.last_tick.overlaps, 0);
}

/// A corridor with an open door at 3,1 that cycles every 20 ticks, a
/// wanderer beside it and the player at 1,1.
fn cycling(period: u32) -> World {
    let text = format!("name: t\ndoors: cycle {period}\n#######\n#@.'.w#\n#######\n");
    let level = Level::parse(&text, "t.txt").unwrap();
    World::new(&level, 1, Settings::default()).unwrap()
}

const DOOR: Cell = Cell::new(3, 1);

#[test]
fn the_door_cycle_is_in_the_hash() {
    assert_ne!(cycling(20).hash(), cycling(40).hash(), "two cycles, two worlds");
    assert_eq!(cycling(20).hash(), cycling(20).hash());
}

/// The doors system as it runs at `tick`.
fn cycle_doors_at(w: &mut World, tick: u64) {
    w.state.tick = tick;
    let _ = systems::doors(w);
}

#[test]
fn a_cycling_door_waits_for_a_creature_in_its_doorway() {
    let mut w = cycling(20);
    let version = w.state.grid.version();
    for _ in 0..19 {
        w.state.creatures[0].body.pos = cell_center(DOOR);
        w.tick();
    }
    assert_eq!(w.state.grid.version(), version, "nothing toggles before tick 20");
    // The wanderer stands in the doorway as the door is due to close.
    w.state.creatures[0].body.pos = cell_center(DOOR);
    cycle_doors_at(&mut w, 20);
    assert_eq!(w.state.grid.tile(DOOR), Tile::DoorOpen, "it never closes on a creature");
    assert_eq!(w.doors().unwrap().waiting(), [DOOR]);
    let hash = w.hash();
    w.state.creatures[0].body.pos = cell_center(Cell::new(5, 1));
    assert_ne!(w.hash(), hash, "a creature moved");
    cycle_doors_at(&mut w, 21);
    assert_eq!(w.state.grid.tile(DOOR), Tile::DoorClosed, "it closes once the doorway is clear");
    assert_eq!(w.state.grid.version(), version + 1);
    let logged = w.events().last().map(|e| e.event.clone());
    assert!(matches!(logged, Some(Event::DoorsCycled(c)) if c.closed == 1), "{logged:?}");
}

#[test]
fn a_cycling_door_waits_for_the_player_in_its_doorway() {
    let mut w = cycling(20);
    w.state.player.cell = DOOR;
    cycle_doors_at(&mut w, 20);
    assert_eq!(w.state.grid.tile(DOOR), Tile::DoorOpen, "it never closes on the player");
    w.state.player.cell = Cell::new(2, 1);
    cycle_doors_at(&mut w, 21);
    assert_eq!(w.state.grid.tile(DOOR), Tile::DoorClosed);
    cycle_doors_at(&mut w, 40);
    assert_eq!(w.state.grid.tile(DOOR), Tile::DoorOpen, "and opens at the next toggle");
}

/// Each part of the state, changed on its own, changes the hash; the
/// session and the scratch do not. The compiler already refuses a state
/// type whose `hash_into` does not take apart every field (and CI refuses
/// one taken apart but not fed, an unused variable): this checks that each
/// is fed, down to the fields of the types the state holds.
#[test]
fn every_part_of_the_state_is_hashed_and_nothing_else() {
    use crate::sim::stats::RepathReason;
    use crate::sim::{MonsterState, Reason};
    use crate::steer::Hysteresis;
    use rand::Rng;
    fn monster(w: &mut World) -> &mut Creature {
        &mut w.state.creatures[0]
    }
    fn hunt(w: &mut World) -> &mut crate::sim::Hunt {
        monster(w).hunt.as_mut().unwrap()
    }
    fn run() -> Run {
        Run { dx: 1, dy: 0, corridor: false, walls: [0, 0] }
    }
    fn route() -> Route {
        Route {
            to: Cell::new(7, 2),
            path: vec![Cell::new(5, 2), Cell::new(6, 2), Cell::new(7, 2)],
            next: 1,
            version: 0,
        }
    }
    fn errand(task: Task) -> Errand {
        Errand { task, goal_in_view: false }
    }
    let before = world().hash();
    type Change = (&'static str, fn(&mut World));
    let changes: Vec<Change> = vec![
        ("seed", |w| w.state.seed += 1),
        ("tick", |w| w.state.tick += 1),
        ("a tile", |w| assert!(w.state.grid.set_tile(Cell::new(7, 1), Tile::Water))),
        ("the grid version", |w| {
            w.state.grid.set_tile(Cell::new(7, 1), Tile::Water);
            w.state.grid.set_tile(Cell::new(7, 1), Tile::Floor(1));
        }),
        ("a setting", |w| w.state.settings.budget += 1),
        ("a search setting", |w| w.state.settings.search.reopen ^= true),
        ("the player's cell", |w| w.state.player.cell.x += 1),
        ("the player's last step", |w| w.state.player.last_step = Some((1, 0, 0))),
        ("the pace", |w| w.state.walk.free_at += 1),
        ("the queued act", |w| w.state.walk.queued = Some(Act::Step(0, 1))),
        ("a queued rest", |w| w.state.walk.queued = Some(Act::Rest)),
        ("the act typed ahead", |w| w.state.walk.ahead = Some(Act::Step(0, 1))),
        ("a run", |w| w.state.walk.errand = Some(errand(Task::Run(run())))),
        ("a run's direction", |w| w.state.walk.errand = Some(errand(Task::Run(Run { dx: 0, ..run() })))),
        ("a run in a corridor", |w| w.state.walk.errand = Some(errand(Task::Run(Run { corridor: true, ..run() })))),
        ("a run's walls", |w| w.state.walk.errand = Some(errand(Task::Run(Run { walls: [2, 0], ..run() })))),
        ("a travel", |w| w.state.walk.errand = Some(errand(Task::Travel(route())))),
        ("an exploration", |w| w.state.walk.errand = Some(errand(Task::Explore(route())))),
        ("a route's goal", |w| {
            w.state.walk.errand = Some(errand(Task::Travel(Route { to: Cell::new(6, 2), ..route() })))
        }),
        ("a route's path", |w| w.state.walk.errand = Some(errand(Task::Travel(Route { path: Vec::new(), ..route() })))),
        ("a route's next cell", |w| w.state.walk.errand = Some(errand(Task::Travel(Route { next: 2, ..route() })))),
        ("a route's version", |w| w.state.walk.errand = Some(errand(Task::Travel(Route { version: 9, ..route() })))),
        ("the goal in view", |w| w.state.walk.errand = Some(Errand { goal_in_view: true, ..errand(Task::Run(run())) })),
        ("what the player has seen", |w| w.state.memory = crate::sim::Memory::new(&w.state.grid)),
        ("a monster the player remembers", |w| {
            w.state.sightings.update(w.state.tick + 7, [(0, Cell::new(1, 1))].into_iter(), |_| true)
        }),
        ("a creature", |w| drop(w.state.creatures.pop())),
        ("a kind", |w| w.state.creatures[1].kind = Kind::Boid),
        ("a position", |w| w.state.creatures[1].body.pos.x += 0.25),
        ("a velocity", |w| w.state.creatures[1].body.vel.y = 1.0),
        ("a top speed", |w| w.state.creatures[1].body.max_speed += 1.0),
        ("a steering cap", |w| w.state.creatures[1].body.max_force += 1.0),
        ("a home", |w| w.state.creatures[1].home.y += 1.0),
        ("a wander angle", |w| w.state.creatures[1].wander.angle += 0.5),
        ("a wander radius", |w| w.state.creatures[1].wander.radius += 0.5),
        ("a wander distance", |w| w.state.creatures[1].wander.distance += 0.5),
        ("a wander jitter", |w| w.state.creatures[1].wander.jitter += 0.5),
        ("a smoother", |w| {
            w.state.creatures[1].smoother.smooth(Vec2::new(1.0, 0.0), 1.0);
        }),
        ("an alarm's thresholds", |w| monster(w).alarm = Hysteresis::new(1.0, 2.0)),
        ("an alarm's state", |w| assert!(monster(w).alarm.update(-1.0))),
        ("a hunt", |w| monster(w).hunt = None),
        ("a path", |w| hunt(w).path.push(Cell::new(1, 1))),
        ("a waypoint", |w| hunt(w).follower.waypoints.push(Vec2::new(1.5, 1.5))),
        ("a waypoint index", |w| hunt(w).follower.index += 1),
        ("an arrival radius", |w| hunt(w).follower.arrival_radius += 1.0),
        ("a slowing radius", |w| hunt(w).follower.slowing_radius += 1.0),
        ("a plan's goal", |w| hunt(w).goal = Some(Cell::new(5, 2))),
        ("a plan's grid version", |w| hunt(w).version += 1),
        ("a request", |w| hunt(w).request = Some((0, RepathReason::Start))),
        ("progress", |w| hunt(w).progress.2 += 1),
        ("planned with", |w| hunt(w).planned_with = Some(w.state.settings.plan_key())),
        ("a mind's state", |w| hunt(w).mind.state = MonsterState::Hunting),
        ("a mind's reason", |w| hunt(w).mind.reason = Some(Reason::Heard)),
        ("the last-known cell", |w| hunt(w).mind.last_known = Some(Cell::new(5, 2))),
        ("a mind's since", |w| hunt(w).mind.since += 1),
        ("the last perception", |w| hunt(w).mind.last_perceived += 1),
        ("a search's start", |w| hunt(w).mind.searching_since = Some(0)),
        ("the player's heading", |w| hunt(w).mind.heading = Some((1, 0))),
        ("an aim", |w| hunt(w).mind.aim = Some(Cell::new(2, 2))),
        ("a pack", |w| hunt(w).mind.pack = Some(0)),
        ("a calm", |w| hunt(w).mind.calm_until = 200),
        ("a sweep", |w| {
            let grid = w.state.grid.clone();
            hunt(w).sweep.start(&grid, Cell::new(3, 2), None, 0);
        }),
        ("the foresight", |w| {
            let grid = w.state.grid.clone();
            let s = w.state.settings;
            let work = w.state.foresight.update(&grid, &s, Cell::new(5, 2), Some((1, 0)), None, 5.0, []);
            assert!(work.expanded > 0);
        }),
        ("the repath queue", |w| w.state.hunter.queue.push_back(0)),
        ("the allowance", |w| w.state.hunter.allowance -= 1),
        ("an incremental search", |w| {
            let (grid, search) = (&w.state.grid, &w.state.settings.search);
            assert!(
                w.state.hunter.incremental.repair(0, grid, Cell::new(1, 1), Cell::new(5, 2), search, false).is_ok()
            );
        }),
        ("the flow field", |w| {
            // Only the field changes: the field is computed for the monster
            // made to hunt the player, then the creatures (the monster that
            // read it) and the allowance are put back.
            let (allowance, creatures) = (w.state.hunter.allowance, w.state.creatures.clone());
            let player = w.state.player.cell;
            hunt(w).mind.state = MonsterState::Hunting;
            hunt(w).mind.last_known = Some(player);
            w.state.settings.repath = crate::sim::RepathPolicy::FlowField;
            let _ = systems::serve(w);
            w.state.settings.repath = Settings::default().repath;
            w.state.hunter.allowance = allowance;
            w.state.creatures = creatures;
            assert!(w.flow_field().is_some(), "the field was computed");
        }),
        ("the doors", |w| w.state.doors = Some(Doors::new(crate::sim::DoorCycle { period: 20 }, &w.state.grid))),
        ("the rules", |w| w.state.rules.goal = crate::sim::Goal::Survive { ticks: 20 }),
        ("the goal cell", |w| w.state.goal_cell = Some(Cell::new(7, 2))),
        ("the outcome", |w| w.state.outcome = Outcome::Lost),
        ("the lives", |w| w.state.lives = Some(1)),
        ("the grace", |w| w.state.grace = Some(crate::sim::Grace { since: 0, at: Cell::new(1, 1) })),
        ("the spawn stream", |w| {
            w.state.spawn_rng.next_u32();
        }),
        ("the wander stream", |w| {
            w.state.wander_rng.next_u32();
        }),
    ];
    for (what, change) in changes {
        let mut w = world();
        change(&mut w);
        assert_ne!(w.hash(), before, "{what} is not in the hash");
    }
    // Observation and buffers: none of it decides anything.
    let mut w = world();
    w.watch(Some(0));
    w.event(Event::NoDoor);
    w.session.ended_at = Some(3);
    w.session.name.push('!');
    w.session.stats.record_catch();
    w.scratch.wishes.push(Vec2::new(1.0, 0.0));
    let (grid, from) = (&w.state.grid, w.state.player.cell);
    let _ = w.scratch.planner.plan(grid, from, Cell::new(7, 2), &Default::default());
    w.session.player_search = None;
    assert_eq!(w.hash(), before, "the session and the scratch are not state");
}

/// docs/world.md lists the systems of a tick in the order they run.
#[test]
fn the_docs_list_the_systems_in_their_order() {
    let docs = include_str!("../../../docs/world.md");
    let mut at = 0;
    for (n, (name, _)) in SYSTEMS.iter().enumerate() {
        let item = format!("{}. `{name}`", n + 1);
        let Some(i) = docs[at..].find(&item) else {
            panic!("docs/world.md does not list {item} after the systems before it")
        };
        at += i;
    }
    assert!(docs[at..].contains("tally"), "docs/world.md ends the list with the tally");
}

/// The monsters' index, which the monsters' systems visit them through,
/// names exactly the monsters, in creature order, after markers and spawns
/// of every kind in turn.
#[test]
fn the_monsters_index_names_every_monster_and_no_other() {
    let mut w = world();
    for kind in [Kind::Boid, Kind::Monster, Kind::Fleeing, Kind::Monster, Kind::Wanderer] {
        w.apply(Command::Spawn { kind, count: 2 });
    }
    let s = &w.state;
    let indexed: Vec<usize> = s.monsters.indices().collect();
    let monsters: Vec<usize> = (0..s.creatures.len()).filter(|&i| s.creatures[i].kind == Kind::Monster).collect();
    assert_eq!((indexed.len(), s.creatures.len()), (5, 12));
    assert_eq!(indexed, monsters);
}
