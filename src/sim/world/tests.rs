//! The world's private steps, driven directly.

use super::*;

/// A monster on its post at (1,1), a wanderer, and the player.
fn world() -> World {
    let text = "name: t\n#########\n#M......#\n#....@.w#\n#########\n";
    let level = Level::parse(text, "t.txt").unwrap();
    World::new(&level, 1, Settings::default()).unwrap()
}

/// The monster touches the player and is caught: where does it land?
fn caught(world: &mut World) -> Vec2 {
    assert_eq!(world.creatures[0].kind, Kind::Monster);
    world.creatures[0].body.pos = cell_center(world.player.cell);
    world.catch();
    world.count_crowd(0.0);
    world.stats.end_tick(0);
    assert_eq!(world.stats.last_tick.catches, 1);
    world.creatures[0].body.pos
}

#[test]
fn a_monster_caught_lands_on_its_post_when_it_is_clear() {
    let mut w = world();
    let home = w.creatures[0].home;
    assert_eq!(caught(&mut w), home);
}

#[test]
fn a_catch_whose_home_is_occupied_does_not_produce_an_overlap() {
    let mut w = world();
    let home = w.creatures[0].home;
    // The wanderer stands on the monster's post.
    w.creatures[1].body.pos = home;
    let landed = caught(&mut w);
    let apart = landed.distance(w.creatures[1].body.pos);
    assert!(apart >= 2.0 * AVOID_RADIUS, "landed at {landed:?}, {apart} from the wanderer");
    // The nearest clear cell, the first in row order: east of the post.
    assert_eq!(landed, cell_center(Cell::new(2, 1)));
    assert_eq!(w.stats.last_tick.overlaps, 0);
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

#[test]
fn a_cycling_door_waits_for_a_creature_in_its_doorway() {
    let mut w = cycling(20);
    let version = w.grid.version();
    for _ in 0..19 {
        w.creatures[0].body.pos = cell_center(DOOR);
        w.tick();
    }
    assert_eq!(w.grid.version(), version, "nothing toggles before tick 20");
    // The wanderer stands in the doorway as the door is due to close.
    w.creatures[0].body.pos = cell_center(DOOR);
    w.cycle_doors_at(20);
    assert_eq!(w.grid.tile(DOOR), Tile::DoorOpen, "it never closes on a creature");
    assert_eq!(w.doors().unwrap().waiting(), [DOOR]);
    let hash = w.hash();
    w.creatures[0].body.pos = cell_center(Cell::new(5, 1));
    assert_ne!(w.hash(), hash, "a creature moved");
    w.cycle_doors_at(21);
    assert_eq!(w.grid.tile(DOOR), Tile::DoorClosed, "it closes once the doorway is clear");
    assert_eq!(w.grid.version(), version + 1);
    let logged = w.events().last().map(|e| e.event.clone());
    assert!(matches!(logged, Some(Event::DoorsCycled(c)) if c.closed == 1), "{logged:?}");
}

#[test]
fn a_cycling_door_waits_for_the_player_in_its_doorway() {
    let mut w = cycling(20);
    w.player.cell = DOOR;
    w.cycle_doors_at(20);
    assert_eq!(w.grid.tile(DOOR), Tile::DoorOpen, "it never closes on the player");
    w.player.cell = Cell::new(2, 1);
    w.cycle_doors_at(21);
    assert_eq!(w.grid.tile(DOOR), Tile::DoorClosed);
    w.cycle_doors_at(40);
    assert_eq!(w.grid.tile(DOOR), Tile::DoorOpen, "and opens at the next toggle");
}
