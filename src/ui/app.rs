//! Front-end state: what the view shows, how fast time runs, what the
//! keys mean right now (one [`Mode`]: the game, the help, a quit to
//! confirm, the end screen, a terminal too small, a seek), and the message
//! log. Nothing here is world state; which monster is watched lives in the
//! world (as an observation setting) so there is one answer to "who is
//! selected".

use super::clock::Clock;
use super::keys::{self, Action, Ui};
use super::log::Log;
use super::map::Markers;
use super::overlay::Overlay;
use super::palette::Palette;
use super::run::Stop;
use super::screen;
use super::sight::Sight;
use crate::sim::{Command, Goal, Kind, MonsterState, Outcome, World};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

/// How a session ends in the terminal: chosen by the player, or stopped
/// from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The player quits (`q` confirmed, or on the end screen).
    Quit,
    /// The same level and seed again (the end screen's `r`).
    Retry,
    /// The next level (the end screen's `n`).
    Next,
    /// A caught signal or a hangup stopped the session: the caller keeps
    /// what was recorded and exits with the status it gives.
    Stopped(Stop),
}

/// What the keys mean right now: one mode at a time, so that no order of
/// checks decides which of two wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The session plays (or is paused): every key has its meaning.
    Play,
    /// The help is open: `?` or Esc closes it, every other key waits.
    Help,
    /// `q` or Esc asked whether to quit a live game: `y` quits, any other
    /// key plays on.
    Quitting,
    /// The session is won or lost: the end screen's keys (and a replay's
    /// seek keys).
    Ended,
    /// The terminal is too small to show the game: time stands still, `q`
    /// and Esc quit.
    TooSmall,
    /// A replay is seeking: `q` or Esc stops it where it got to (the loop
    /// reads these keys itself, the world being busy).
    Seeking,
}

/// What the log says when a key that moves the player is refused.
pub const PAUSED_MOVE: &str = "paused: moves wait (Space resumes, . steps one tick)";

/// What the log says when a replay reaches its last tick still running.
pub const RECORDING_ENDS: &str = "the recording ends here (q quits)";
/// The log's line at the last tick of an interrupted recording.
pub const RECORDING_INCOMPLETE: &str = "the recording is incomplete: it stops here (q quits)";

/// Everything the front end remembers between frames.
#[derive(Clone, Debug)]
pub struct App {
    pub clock: Clock,
    pub overlay: Overlay,
    /// Whether the map shows only what the player sees (a view, changing
    /// nothing in the world).
    pub fov: bool,
    /// Whether the camera follows the watched monster instead of the player.
    pub follow: bool,
    pub sight: Sight,
    /// What the keys mean now.
    pub mode: Mode,
    /// The terminal's size, once known (until then it is taken to fit).
    pub screen: Option<(u16, u16)>,
    /// The replay reached the recording's last tick (said once).
    pub recording_ended: bool,
    pub exit: Option<Exit>,
    pub palette: Palette,
    /// False in replay: the status line says so and world keys are ignored.
    pub live: bool,
    /// Whether there is a level after this one (the end screen offers `n`).
    pub next_level: bool,
    /// The level's `S` and `G`, drawn on the map.
    pub markers: Markers,
    pub log: Log,
    /// The player chose the watched monster (Tab, Shift-Tab): the view no
    /// longer moves to the nearest hunting one.
    pub picked: bool,
    /// A seek key was pressed: the loop, which holds the feed, seeks.
    pub seek: Option<keys::Seek>,
    /// The replay's recording was interrupted: its end says so.
    pub incomplete: bool,
}

impl App {
    pub fn new(palette: Palette, live: bool) -> App {
        App {
            clock: Clock::default(),
            overlay: Overlay::None,
            fov: false,
            follow: false,
            sight: Sight::default(),
            mode: Mode::Play,
            screen: None,
            recording_ended: false,
            exit: None,
            palette,
            live,
            next_level: false,
            markers: Markers::default(),
            log: Log::default(),
            picked: false,
            seek: None,
            incomplete: false,
        }
    }

    /// Whether time stands still whatever the clock says: in every mode
    /// but [`Mode::Play`] (behind the help, a quit to confirm, a terminal
    /// too small, during a seek, once the session is won or lost).
    pub fn held(&self) -> bool {
        self.mode != Mode::Play
    }

    /// The terminal is now `width` x `height`: the game gives way to the
    /// too-small message, or comes back.
    pub fn resized(&mut self, width: u16, height: u16, world: &World) {
        self.screen = Some((width, height));
        self.settle(world);
    }

    /// The mode the world and the terminal give, where no question or
    /// popup is open: the end screen once the session is won or lost, the
    /// too-small message while the terminal cannot show the game, else
    /// play. The help, a quit to confirm and a seek stay until answered.
    pub fn settle(&mut self, world: &World) {
        if !matches!(self.mode, Mode::Play | Mode::Ended | Mode::TooSmall) {
            return;
        }
        let small = self.screen.is_some_and(|(w, h)| screen::is_too_small(w, h));
        self.mode = match () {
            () if small => Mode::TooSmall,
            () if world.outcome() != Outcome::Running => Mode::Ended,
            () => Mode::Play,
        };
    }

    /// Once the world reaches `end`, the recording's last tick (a replay):
    /// pauses, and says so in the log unless the end screen shows how the
    /// session ended. True the one time it happens.
    pub fn recording_ends(&mut self, world: &World, end: Option<u64>) -> bool {
        if self.recording_ended || end.is_none_or(|end| world.ticks() < end) {
            return false;
        }
        self.recording_ended = true;
        if !self.clock.paused() {
            self.clock.toggle_pause();
        }
        if world.outcome() == Outcome::Running {
            self.log.note(world.ticks(), if self.incomplete { RECORDING_INCOMPLETE } else { RECORDING_ENDS });
        }
        true
    }

    /// Until the player picks one, watches the nearest hunting monster once
    /// the watched one is not hunting and another is: the one whose
    /// searches are worth seeing. Observation only.
    pub fn watch_the_hunt(&mut self, world: &mut World) {
        let hunting = |i: usize| world.awareness(i).is_some_and(|a| a.state == MonsterState::Hunting);
        if self.picked || world.watched().is_some_and(hunting) {
            return;
        }
        let nearest = nearest_monster(world);
        if nearest.is_some_and(hunting) {
            world.watch(nearest);
        }
    }

    /// Reads one key: changes the view, and returns the command it gives
    /// the world, if any (the caller applies it and records it).
    pub fn key(&mut self, key: KeyEvent, world: &mut World) -> Option<Command> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        if keys::is_interrupt(key) {
            self.exit = Some(Exit::Quit);
            return None;
        }
        match self.mode {
            Mode::Play => self.play_key(key, world),
            Mode::Help => {
                if matches!(key.code, KeyCode::Char('?') | KeyCode::Esc) {
                    self.mode = Mode::Play;
                    self.settle(world);
                }
                None
            }
            Mode::Quitting => {
                if key.code == KeyCode::Char('y') {
                    self.exit = Some(Exit::Quit);
                }
                self.mode = Mode::Play;
                self.settle(world);
                None
            }
            Mode::Ended => {
                self.end_key(key, world);
                None
            }
            Mode::TooSmall => {
                if matches!(key.code, KeyCode::Char('q') | KeyCode::Esc) {
                    self.ask_quit();
                }
                None
            }
            // The loop reads a seek's keys itself, the world being away.
            Mode::Seeking => None,
        }
    }

    /// A key in play.
    fn play_key(&mut self, key: KeyEvent, world: &mut World) -> Option<Command> {
        let command = match keys::action(key, world.settings()) {
            Some(Action::World(command)) => self.world_key(command, world),
            Some(Action::Ui(action)) => {
                self.handle(action, world);
                None
            }
            None => None,
        };
        // A run ends at any key, and pausing drops the move waiting for the
        // pace, so that nothing moves the player while paused: keys that
        // give the world nothing else tell it so.
        let pending = world.running().is_some() || (self.clock.paused() && world.queued_move().is_some());
        command.or_else(|| (self.live && self.exit.is_none() && pending).then_some(Command::Stop))
    }

    /// A key that would change the world: refused in replay, and moves are
    /// refused while paused (with a line in the log saying why).
    fn world_key(&mut self, command: Command, world: &World) -> Option<Command> {
        if !self.live {
            return None;
        }
        let moves = matches!(command, Command::Move { .. } | Command::Run { .. } | Command::Door);
        if moves && self.clock.paused() {
            self.log.note(world.ticks(), PAUSED_MOVE);
            return None;
        }
        Some(command)
    }

    /// The end screen's keys: retry, next level, quit; in a replay, the
    /// seek keys too (back from the end, or on to it).
    fn end_key(&mut self, key: KeyEvent, world: &World) {
        if !self.live
            && let Some(Action::Ui(Ui::Seek(to))) = keys::action(key, world.settings())
        {
            self.seek = Some(to);
            return;
        }
        self.exit = match key.code {
            KeyCode::Char('r') if self.live => Some(Exit::Retry),
            KeyCode::Char('n') if self.live && self.next_level => Some(Exit::Next),
            KeyCode::Char('q') | KeyCode::Esc => Some(Exit::Quit),
            _ => None,
        };
    }

    /// `q` or Esc mid-session: a live game asks first; a replay quits.
    fn ask_quit(&mut self) {
        if self.live {
            self.mode = Mode::Quitting;
        } else {
            self.exit = Some(Exit::Quit);
        }
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
            Ui::Fov => self.fov = !self.fov,
            Ui::Follow => self.follow = !self.follow,
            Ui::NextMonster => {
                self.picked = true;
                world.watch(next_monster(world));
            }
            Ui::PrevMonster => {
                self.picked = true;
                world.watch(previous_monster(world));
            }
            Ui::Help => self.mode = Mode::Help,
            Ui::Quit => self.ask_quit(),
            Ui::Seek(seek) => self.seek = Some(seek),
        }
    }
}

/// Whether a session starts with the field of view on: in a game with a
/// goal (the campaign), not in a sandbox.
pub fn fov_by_default(world: &World) -> bool {
    world.rules().goal != Goal::None
}

/// The monster after the watched one in creature order, wrapping; the first
/// when none is watched; `None` when there are no monsters.
pub fn next_monster(world: &World) -> Option<usize> {
    let monsters = || world.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster).map(|(i, _)| i);
    let after = world.watched();
    monsters().find(|&i| after.is_some_and(|w| i > w)).or_else(|| monsters().next())
}

/// The monster before the watched one in creature order, wrapping; the
/// last when none is watched; `None` when there are no monsters.
pub fn previous_monster(world: &World) -> Option<usize> {
    let monsters = || world.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster).map(|(i, _)| i);
    let before = world.watched();
    monsters().rfind(|&i| before.is_some_and(|w| i < w)).or_else(|| monsters().next_back())
}

/// The hunting monster nearest the player (the first of equals), whose
/// searches are the ones to watch; when none hunts, the monster nearest the
/// player, the likeliest to hunt soon.
pub fn nearest_monster(world: &World) -> Option<usize> {
    let p = world.player().cell;
    let monsters = world.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster);
    let not_hunting = |i: usize| world.awareness(i).is_none_or(|a| a.state != MonsterState::Hunting);
    monsters
        .min_by_key(|&(i, c)| (not_hunting(i), (c.cell().x - p.x).pow(2) + (c.cell().y - p.y).pow(2)))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::sim::{Rules, Settings};
    use ratatui::crossterm::event::KeyModifiers;

    fn world() -> World {
        World::new(&Level::embedded_default(), 1, Settings::default()).unwrap()
    }

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn char_key(c: char) -> KeyEvent {
        press(KeyCode::Char(c))
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

    /// A hunting monster is watched before a nearer one that is not, until
    /// the player picks one.
    #[test]
    fn the_nearest_hunting_monster_is_watched() {
        // The far monster (1) sees the player down the corridor; the near
        // one (0) is walled in.
        let level = Level::parse("###########\n#M#@.....M#\n###########\n", "t").unwrap();
        let mut w = World::new(&level, 1, Settings::default()).unwrap();
        let mut app = App::new(Palette::NAMED, true);
        let hunting = |w: &World| {
            (0..w.creatures().len())
                .filter(|&i| w.awareness(i).is_some_and(|a| a.state == MonsterState::Hunting))
                .collect::<Vec<_>>()
        };
        w.watch(nearest_monster(&w));
        assert_eq!(w.watched(), Some(0), "none hunts yet: the nearest");
        while hunting(&w).len() != 1 && w.ticks() < 200 {
            w.tick();
            app.watch_the_hunt(&mut w);
        }
        let hunters = hunting(&w);
        assert_eq!(hunters, [1], "the far monster hunts");
        assert_eq!(nearest_monster(&w), Some(hunters[0]));
        assert_eq!(w.watched(), Some(hunters[0]));
        // Once the player picks, the view stays where it is put.
        app.handle(Ui::NextMonster, &mut w);
        let picked = w.watched();
        assert_ne!(picked, Some(hunters[0]));
        app.watch_the_hunt(&mut w);
        assert_eq!(w.watched(), picked);
    }

    #[test]
    fn shift_tab_goes_back_through_the_monsters() {
        let level = Level::parse("M.....\n....@M\n.....M\n", "t").unwrap();
        let mut w = World::new(&level, 1, Settings::default()).unwrap();
        let mut app = App::new(Palette::NAMED, true);
        w.watch(Some(1));
        app.handle(Ui::PrevMonster, &mut w);
        assert_eq!(w.watched(), Some(0));
        app.handle(Ui::PrevMonster, &mut w);
        assert_eq!(w.watched(), Some(2), "wraps to the last");
        app.handle(Ui::NextMonster, &mut w);
        assert_eq!(w.watched(), Some(0), "and Tab forward again");
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
    fn the_field_of_view_starts_on_in_games_off_in_sandboxes() {
        let level = Level::parse("@.G\n", "t").unwrap();
        let game = World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap();
        assert!(fov_by_default(&game));
        assert!(!fov_by_default(&World::new(&level, 1, Settings::default()).unwrap()));
        let no_goal = Level::parse("@..\n", "t").unwrap();
        assert!(!fov_by_default(&World::with_rules(&no_goal, 1, Settings::default(), Rules::game(&no_goal)).unwrap()));
    }

    #[test]
    fn the_help_holds_time_and_swallows_every_key_but_its_own() {
        let mut w = world();
        let mut app = App::new(Palette::NAMED, true);
        assert!(!app.held());
        assert_eq!(app.key(char_key('?'), &mut w), None);
        assert!(app.mode == Mode::Help && app.held() && !app.clock.paused());
        for c in ['l', 'E', ' ', 'q', 'O', 'F', '.', 'y'] {
            assert_eq!(app.key(char_key(c), &mut w), None, "{c}");
        }
        assert!(app.mode == Mode::Help && app.exit.is_none() && !app.clock.paused());
        assert_eq!(app.overlay, Overlay::None);
        assert!(!app.fov);
        app.key(press(KeyCode::Esc), &mut w);
        assert!(app.mode == Mode::Play && !app.held());
        app.key(char_key('?'), &mut w);
        app.key(char_key('?'), &mut w);
        assert!(app.mode == Mode::Play && app.exit.is_none());
    }

    #[test]
    fn quitting_mid_session_asks_first() {
        let mut w = world();
        let mut app = App::new(Palette::NAMED, true);
        app.key(char_key('q'), &mut w);
        assert!(app.mode == Mode::Quitting && app.held() && app.exit.is_none());
        // Any key but y goes on, and does nothing else.
        assert_eq!(app.key(char_key('l'), &mut w), None);
        assert!(app.mode == Mode::Play && app.exit.is_none() && !app.held());
        app.key(press(KeyCode::Esc), &mut w);
        assert_eq!(app.mode, Mode::Quitting);
        app.key(char_key('y'), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit));
        // Ctrl-C is the reflex: no question asked.
        let mut app = App::new(Palette::NAMED, true);
        app.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit));
        // A replay has nothing to lose.
        let mut app = App::new(Palette::NAMED, false);
        app.key(char_key('q'), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit));
    }

    #[test]
    fn moves_are_refused_while_paused_with_a_message() {
        let mut w = world();
        let mut app = App::new(Palette::NAMED, true);
        app.key(char_key(' '), &mut w);
        assert!(app.clock.paused());
        for c in ['l', 'L', 'e', 'n'] {
            assert_eq!(app.key(char_key(c), &mut w), None, "{c}");
        }
        let said: Vec<&str> = app.log.entries().map(|e| e.text.as_str()).collect();
        // One line, however many keys were refused.
        assert_eq!(said, [PAUSED_MOVE]);
        // Settings still change, and `.` still steps.
        assert!(matches!(app.key(char_key('E'), &mut w), Some(Command::Set(_))));
        app.key(char_key('.'), &mut w);
        assert_eq!(app.clock.take_steps(), 1);
        app.key(char_key(' '), &mut w);
        assert_eq!(app.key(char_key('l'), &mut w), Some(Command::Move { dx: 1, dy: 0 }));
    }

    #[test]
    fn a_small_terminal_holds_time_and_keys_but_quit() {
        let mut w = world();
        let mut app = App::new(Palette::NAMED, true);
        app.resized(59, 20, &w);
        assert!(app.mode == Mode::TooSmall && app.held());
        assert_eq!(app.key(char_key('l'), &mut w), None);
        app.key(char_key('q'), &mut w);
        assert_eq!(app.mode, Mode::Quitting);
        // Any other key: back to the message while the terminal is small,
        // to the game once it is large enough.
        app.key(char_key('n'), &mut w);
        assert_eq!(app.mode, Mode::TooSmall);
        app.resized(60, 20, &w);
        assert_eq!(app.mode, Mode::Play);
        // The help stays open through a resize.
        app.key(char_key('?'), &mut w);
        app.resized(10, 10, &w);
        app.resized(100, 30, &w);
        assert_eq!(app.mode, Mode::Help);
    }

    #[test]
    fn the_end_screen_takes_retry_next_and_quit() {
        let level = Level::parse("goal: reach\n@G\n", "t").unwrap();
        let mut w = World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap();
        w.apply(Command::Move { dx: 1, dy: 0 });
        for _ in 0..10 {
            w.tick();
        }
        assert_eq!(w.outcome(), Outcome::Won);
        let mut app = App::new(Palette::NAMED, true);
        app.settle(&w);
        assert!(app.mode == Mode::Ended && app.held());
        // No next level: n does nothing; moves do nothing.
        for c in ['n', 'l', 'y'] {
            assert_eq!(app.key(char_key(c), &mut w), None);
            assert_eq!(app.exit, None, "{c}");
        }
        app.next_level = true;
        app.key(char_key('n'), &mut w);
        assert_eq!(app.exit, Some(Exit::Next));
        app.key(char_key('r'), &mut w);
        assert_eq!(app.exit, Some(Exit::Retry));
        // No question on the end screen.
        app.key(char_key('q'), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit));
        // A replay's end screen does not retry, but seeks.
        let mut app = App::new(Palette::NAMED, false);
        app.next_level = true;
        app.settle(&w);
        for c in ['r', 'n'] {
            app.key(char_key(c), &mut w);
            assert_eq!(app.exit, None, "{c}");
        }
        for (code, to) in [
            (KeyCode::Home, keys::Seek::Start),
            (KeyCode::PageUp, keys::Seek::Back),
            (KeyCode::PageDown, keys::Seek::Forward),
            (KeyCode::End, keys::Seek::End),
        ] {
            app.key(press(code), &mut w);
            assert_eq!((app.seek.take(), app.exit), (Some(to), None), "{code:?}");
        }
        // A live game's end screen has nothing to seek in.
        let mut app = App::new(Palette::NAMED, true);
        app.settle(&w);
        app.key(press(KeyCode::Home), &mut w);
        assert_eq!(app.seek, None);
    }

    #[test]
    fn a_replay_pauses_at_its_end_and_says_so_once() {
        let mut w = world();
        let mut app = App::new(Palette::NAMED, false);
        assert!(!app.recording_ends(&w, None));
        assert!(!app.recording_ends(&w, Some(2)));
        w.tick();
        w.tick();
        assert!(app.recording_ends(&w, Some(2)));
        assert!(app.clock.paused());
        assert!(!app.recording_ends(&w, Some(2)));
        let said: Vec<&str> = app.log.entries().map(|e| e.text.as_str()).collect();
        assert_eq!(said, [RECORDING_ENDS]);
        // An interrupted recording says that it is incomplete.
        let mut app = App { incomplete: true, ..App::new(Palette::NAMED, false) };
        assert!(app.recording_ends(&w, Some(2)));
        let said: Vec<&str> = app.log.entries().map(|e| e.text.as_str()).collect();
        assert_eq!(said, [RECORDING_INCOMPLETE]);
        // A recording that ends won or lost shows the end screen instead.
        let lost = crate::ui::testing::game_until_end("lives: 1\n#####\n#@M.G\n#####\n", 2000);
        let mut app = App::new(Palette::NAMED, false);
        assert!(app.recording_ends(&lost, Some(lost.ticks())));
        assert_eq!(app.log.entries().len(), 0);
    }

    /// What a property test does: a key, or the wall time of one tick.
    #[derive(Clone, Debug)]
    enum Op {
        Key(char),
        Tick,
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        prop_oneof![
            6 => prop::sample::select("hjklyubnHJKLYUBN .".chars().collect::<Vec<_>>()).prop_map(Op::Key),
            10 => Just(Op::Tick),
        ]
    }

    proptest::proptest! {
        /// Over random streams of move, run, pause and step keys and ticks
        /// (driven as the terminal loop drives them), the player never
        /// moves while paused, and never takes a step sooner after the last
        /// than that step's time (4 ticks, 4·√2 after a diagonal one, so at
        /// least 5 whole ticks).
        #[test]
        fn the_player_never_moves_while_paused_nor_faster_than_the_pace(
            ops in proptest::collection::vec(op(), 1..400)
        ) {
            let level = Level::parse("############\n#..........#\n#....@.....#\n#..........#\n############\n", "t").unwrap();
            let mut w = World::new(&level, 1, Settings::default()).unwrap();
            let mut app = App::new(Palette::NAMED, true);
            // The tick of the last step, and whether it was diagonal.
            let mut last_step: Option<(u64, bool)> = None;
            for op in ops {
                let ticks = match op {
                    Op::Key(c) => {
                        if let Some(command) = app.key(char_key(c), &mut w) {
                            w.apply(command);
                        }
                        app.clock.take_steps()
                    }
                    Op::Tick if app.clock.paused() => 0,
                    Op::Tick => 1,
                };
                for _ in 0..ticks {
                    let (before, paused) = (w.player().cell, app.clock.paused());
                    w.tick();
                    let after = w.player().cell;
                    if after != before {
                        proptest::prop_assert!(!paused, "moved while paused at tick {}", w.ticks());
                        let diagonal = after.x != before.x && after.y != before.y;
                        if let Some((t, was_diagonal)) = last_step {
                            let least = if was_diagonal { 5 } else { 4 };
                            proptest::prop_assert!(w.ticks() - t >= least, "steps {} ticks apart", w.ticks() - t);
                        }
                        last_step = Some((w.ticks(), diagonal));
                    }
                }
            }
        }
    }

    #[test]
    fn view_actions_change_the_view_only() {
        let mut w = world();
        let hash = w.hash();
        let mut app = App::new(Palette::NAMED, true);
        for a in
            [Ui::Pause, Ui::Step, Ui::Faster, Ui::Slower, Ui::Overlay, Ui::Fov, Ui::Follow, Ui::NextMonster, Ui::Help]
        {
            app.handle(a, &mut w);
        }
        assert_eq!(w.hash(), hash);
        assert!(app.clock.paused());
        assert_eq!(app.clock.take_steps(), 1);
        assert_eq!(app.overlay, Overlay::Paths);
        assert!(app.fov && app.follow);
        assert!(app.mode == Mode::Help && app.exit.is_none());
    }
}
