//! Helpers shared by the front end's tests.

use crate::level::Level;
use crate::sim::{Bot, Outcome, Rules, Settings, World};
use ratatui::buffer::Buffer;

/// The buffer's text, one string per row.
pub fn lines(buf: &Buffer) -> Vec<String> {
    let area = buf.area;
    (area.top()..area.bottom()).map(|y| (area.left()..area.right()).map(|x| buf[(x, y)].symbol()).collect()).collect()
}

/// The default level, seed 1, its first monster watched, after `ticks`
/// ticks of the scripted player walking about.
pub fn played(ticks: u64) -> World {
    let mut w = World::new(&Level::embedded_default(), 1, Settings::default()).unwrap();
    w.watch(super::app::next_monster(&w));
    let mut bot = Bot::new(1);
    for _ in 0..ticks {
        if let Some(c) = bot.command(&w) {
            w.apply(c);
        }
        w.tick();
    }
    w
}

/// A game on the level `text` (its goal and lives), run with the player
/// standing still until it is won or lost, or `ticks` have passed.
pub fn game_until_end(text: &str, ticks: u64) -> World {
    let level = Level::parse(text, "test").unwrap();
    let mut w = World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap();
    w.watch(super::app::next_monster(&w));
    while w.outcome() == Outcome::Running && w.ticks() < ticks {
        w.tick();
    }
    w
}

/// A game on a corridor whose goal is one step east, won by that step.
pub fn game_won() -> World {
    let level = Level::parse("name: step\n#####\n#@G.#\n#####\n", "test").unwrap();
    let mut w = World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap();
    w.apply(crate::sim::Command::Move { dx: 1, dy: 0 });
    while w.outcome() == Outcome::Running && w.ticks() < 100 {
        w.tick();
    }
    assert_eq!(w.outcome(), Outcome::Won);
    w
}
