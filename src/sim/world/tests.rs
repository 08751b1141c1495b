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
