//! Front-end state: what the view shows and how fast time runs. Nothing
//! here is world state; which monster is watched lives in the world (as an
//! observation setting) so there is one answer to "who is selected".

use super::clock::Clock;
use super::keys::Ui;
use super::overlay::Overlay;
use super::palette::Palette;
use crate::sim::{Kind, World};

/// Everything the front end remembers between frames.
#[derive(Clone, Debug)]
pub struct App {
    pub clock: Clock,
    pub overlay: Overlay,
    pub help: bool,
    pub quit: bool,
    pub palette: Palette,
    /// False in replay: the status line says so and world keys are ignored.
    pub live: bool,
}

impl App {
    pub fn new(palette: Palette, live: bool) -> App {
        App { clock: Clock::default(), overlay: Overlay::None, help: false, quit: false, palette, live }
    }

    /// Carries out a view action. The world is borrowed only to choose the
    /// monster to watch, which is observation and changes no decision.
    pub fn handle(&mut self, action: Ui, world: &mut World) {
        match action {
            Ui::Pause => self.clock.toggle_pause(),
            Ui::Step => self.clock.step(),
            Ui::Faster => self.clock.faster(),
            Ui::Slower => self.clock.slower(),
            Ui::Overlay => self.overlay = self.overlay.next(),
            Ui::NextMonster => world.watch(next_monster(world)),
            Ui::Help => self.help = !self.help,
            Ui::Back if self.help => self.help = false,
            Ui::Back | Ui::Quit => self.quit = true,
        }
    }
}

/// The monster after the watched one in creature order, wrapping; the first
/// when none is watched; `None` when there are no monsters.
pub fn next_monster(world: &World) -> Option<usize> {
    let monsters = || world.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster).map(|(i, _)| i);
    let after = world.watched();
    monsters().find(|&i| after.is_some_and(|w| i > w)).or_else(|| monsters().next())
}

/// The monster nearest the player (the first of equals), the likeliest to
/// be hunting soon: the one to watch when the game starts.
pub fn nearest_monster(world: &World) -> Option<usize> {
    let p = world.player().cell;
    let monsters = world.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster);
    monsters.min_by_key(|(_, c)| (c.cell().x - p.x).pow(2) + (c.cell().y - p.y).pow(2)).map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::sim::Settings;

    fn world() -> World {
        World::new(&Level::embedded_default(), 1, Settings::default()).unwrap()
    }

    #[test]
    fn tab_cycles_through_the_monsters_and_wraps() {
        let mut w = world();
        let monsters: Vec<usize> =
            w.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster).map(|(i, _)| i).collect();
        assert!(monsters.len() >= 2);
        let mut app = App::new(Palette::NAMED, true);
        let mut seen = Vec::new();
        for _ in 0..=monsters.len() {
            app.handle(Ui::NextMonster, &mut w);
            seen.push(w.watched().unwrap());
        }
        let mut expected = monsters.clone();
        expected.push(monsters[0]);
        assert_eq!(seen, expected);
    }

    #[test]
    fn the_nearest_monster_is_watched_first() {
        let level = Level::parse("M.....\n....@M\n.....M\n", "t").unwrap();
        let w = World::new(&level, 1, Settings::default()).unwrap();
        // Monsters are numbered row by row: 0 at 0,0; 1 at 5,1; 2 at 5,2.
        assert_eq!(nearest_monster(&w), Some(1));
    }

    #[test]
    fn no_monsters_means_no_selection() {
        let level = Level::parse("@..\n...\n", "tiny").unwrap();
        let mut w = World::new(&level, 1, Settings::default()).unwrap();
        assert_eq!(next_monster(&w), None);
        assert_eq!(nearest_monster(&w), None);
        App::new(Palette::NAMED, true).handle(Ui::NextMonster, &mut w);
        assert_eq!(w.watched(), None);
    }

    #[test]
    fn esc_closes_help_before_quitting() {
        let mut w = world();
        let mut app = App::new(Palette::NAMED, true);
        app.handle(Ui::Help, &mut w);
        assert!(app.help);
        app.handle(Ui::Back, &mut w);
        assert!(!app.help && !app.quit);
        app.handle(Ui::Back, &mut w);
        assert!(app.quit);
    }

    #[test]
    fn view_actions_change_the_view_only() {
        let mut w = world();
        let hash = w.hash();
        let mut app = App::new(Palette::NAMED, true);
        for a in [Ui::Pause, Ui::Step, Ui::Faster, Ui::Slower, Ui::Overlay, Ui::NextMonster, Ui::Help] {
            app.handle(a, &mut w);
        }
        assert_eq!(w.hash(), hash);
        assert!(app.clock.paused());
        assert_eq!(app.clock.take_steps(), 1);
        assert_eq!(app.overlay, Overlay::Paths);
        assert!(app.help && !app.quit);
        app.handle(Ui::Quit, &mut w);
        assert!(app.quit);
    }
}
