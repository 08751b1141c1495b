//! The world's private steps, driven directly.

use super::*;
use crate::grid::Tile;
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
    let _ = movement::crowd(world);
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
