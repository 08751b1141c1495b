//! The world under `avoidance = orca`: determinism, safety on every
//! shipped level, and walls that follow the doors.

use crate::support::data;
use data::{shipped_level, shipped_levels};
use delve::grid::Cell;
use delve::level::Level;
use delve::replay::feed::{self, LiveFeed};
use delve::sim::{Avoidance, Bot, Command, Kind, Settings, World};

const ORCA: Settings = Settings { avoidance: Avoidance::Orca, ..Settings::DEFAULT };

/// `ticks` ticks with the scripted player, calling `check` after each.
fn play(world: &mut World, seed: u64, ticks: u64, mut check: impl FnMut(&World, u64)) {
    let mut bot = Bot::new(seed);
    for t in 0..ticks {
        feed::bot_tick(world, &mut LiveFeed, &mut bot).unwrap();
        check(world, t);
    }
}

#[test]
fn the_same_session_under_orca_hashes_the_same_and_unlike_separation() {
    let level = shipped_level("crossing");
    let hash = |settings| {
        let mut world = World::new(&level, 5, settings).unwrap();
        play(&mut world, 5, 300, |_, _| {});
        world.hash()
    };
    assert_eq!(hash(ORCA), hash(ORCA));
    assert_ne!(hash(ORCA), hash(Settings::default()));
}

#[test]
fn orca_keeps_every_creature_finite_and_out_of_walls_on_every_level() {
    for (name, level) in shipped_levels() {
        let mut world = World::new(&level, 4, ORCA).unwrap();
        for kind in [Kind::Monster, Kind::Wanderer] {
            world.apply(Command::Spawn { kind, count: 10 });
        }
        play(&mut world, 4, 1500, |w, t| {
            for c in w.creatures() {
                let ok = [c.body.pos.x, c.body.pos.y, c.body.vel.x, c.body.vel.y].iter().all(|v| v.is_finite());
                assert!(ok && w.grid().is_walkable(c.cell()), "{name} tick {t}: {c:?}");
                assert!(c.body.vel.length() <= c.body.max_speed * 1.001, "{name} tick {t}: too fast {c:?}");
            }
        });
        assert!(world.stats().total.min_time_to_collision.is_some() || world.counts()[0] < 2, "{name}");
    }
}

/// A closed door between a monster and the player: ORCA sees it as a wall
/// until it opens, and then must let the monster through, so the walls it
/// avoids are rebuilt when the grid changes.
#[test]
fn an_opened_door_stops_being_a_wall_for_orca() {
    let text = "#########\n#...#...#\n#..@+..M#\n#...#...#\n#########\n";
    let level = Level::parse(text, "door").unwrap();
    let mut world = World::new(&level, 1, ORCA).unwrap();
    for _ in 0..40 {
        world.tick();
    }
    assert_eq!(world.stats().total.catches, 0, "caught through a closed door");
    world.apply(Command::Door);
    assert!(world.grid().is_walkable(Cell::new(4, 2)));
    for _ in 0..200 {
        world.tick();
    }
    assert!(world.stats().total.catches > 0, "the monster never came through the open door");
}
