//! Front-end state: what the view shows, how fast time runs, what the
//! keys mean right now (one [`Mode`]: the game, the help, a quit to
//! confirm, the end screen, a terminal too small, a seek), and the message
//! log. Nothing here is world state; which monster is watched lives in the
//! world (as an observation setting) so there is one answer to "who is
//! selected".

use super::clock::Clock;
use super::help::HelpView;
use super::history::{self, History};
use super::keys::{self, Action, Ui};
use super::log::Log;
use super::map::Markers;
use super::overlay::Overlay;
use super::palette::Palette;
use super::run::Stop;
use super::screen;
use super::sight::Sight;
use super::stakes::Stakes;
use crate::grid::Cell;
use crate::sim::{Command, Goal, Kind, MonsterState, Outcome, World};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};
use std::cell::RefCell;
use std::time::{Duration, Instant};

/// How a session ends in the terminal: chosen by the player, or stopped
/// from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The player quits (`q` confirmed, or on the end screen).
    Quit,
    /// The same level and seed again (the end screen's `r`).
    Retry,
    /// The next level (the end screen's `>` or Enter, once won).
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
    /// The message history is open (Ctrl-P): its keys scroll it, Esc, `q`
    /// or Ctrl-P close it, every other key waits.
    History,
    /// `q` or Esc asked whether to quit a live game: `q` again or Enter
    /// quits, any other key plays on (no move key confirms: a player
    /// tapping one is not asked twice).
    Quitting,
    /// The session is won or lost: the end screen's keys (and a replay's
    /// seek keys), none of them a move key, and in live play none taken
    /// for [`END_GUARD`] after the end.
    Ended,
    /// The terminal is too small to show the game: time stands still, `q`
    /// and Esc quit.
    TooSmall,
    /// A replay is seeking: `q` or Esc stops it where it got to (the loop
    /// reads these keys itself, the world being busy).
    Seeking,
    /// The travel cursor is open (`_`): the move keys move it (with Shift
    /// eight cells), `>` puts it on the goal, Enter, `.` or `_` travels
    /// there, Esc or `q` puts it away. Time stands still.
    Cursor,
}

/// How long a live game's end screen ignores every key (but Ctrl-C) after
/// the level ends: in wall time, as this is the screen and not the world.
/// A second: long enough to swallow the moves a player was tapping as the
/// level ended and to read how it ended, short enough not to be waited
/// for.
pub const END_GUARD: Duration = Duration::from_secs(1);

/// What the log says when a move, a run, a travel or an exploration is
/// given while paused: it waits for time to run.
pub const PAUSED_MOVE: &str = "paused: moves wait (Space resumes, . steps one tick)";
/// What the log says when a door key is refused while paused.
pub const PAUSED_DOOR: &str = "paused: doors wait for time to run (Space resumes)";
/// What the log says when turn mode goes on, and off.
pub const TURNS_ON: &str = "turn mode: the world moves only while you act (t: real time)";
pub const TURNS_OFF: &str = "real time: the world moves on its own (t: turn mode)";
/// What the log says when `>` finds no goal to travel to.
pub const NO_GOAL: &str = "this level has no goal G to travel to";
pub const GOAL_UNSEEN: &str = "you have not seen the goal yet (o explores, _ picks a cell)";
/// What the log says when the cursor picks a cell the fog hides.
pub const CELL_UNSEEN: &str = "you have not seen that cell: travel goes where you have seen";

/// What the log says when `M` turns the mouse on, and off.
pub const MOUSE_ON: &str = "mouse on: click a cell to travel there (Shift-drag selects text in most terminals; M: off)";
pub const MOUSE_OFF: &str = "mouse off: the terminal selects text again (M: on)";

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
    /// What the watched monster sees, for the camera on it under the
    /// field of view: worked out when a frame shows it (a view, changed
    /// while drawing).
    pub eyes: RefCell<Sight>,
    /// The help's page and scroll.
    pub help: HelpView,
    /// How far the message history is scrolled.
    pub history: History,
    /// The level's description, for the help's rules page.
    pub about: String,
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
    /// What rides on the session: what the end screen offers.
    pub stakes: Stakes,
    /// When the end screen of a live game came up: its keys wait for
    /// [`END_GUARD`] from then.
    pub ended: Option<Instant>,
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
    /// Turn mode: the world moves only while the player's act lasts (a
    /// step, a wait, a run, a travel), not on the clock.
    pub turns: bool,
    /// The travel cursor's cell, while [`Mode::Cursor`] is open.
    pub cursor: Cell,
    /// The mouse is captured (`--mouse`, `M`): a left click on a cell
    /// travels there.
    pub mouse: bool,
}

impl App {
    pub fn new(palette: Palette, live: bool) -> App {
        App {
            clock: Clock::default(),
            overlay: Overlay::None,
            fov: false,
            follow: false,
            sight: Sight::default(),
            eyes: RefCell::default(),
            help: HelpView::default(),
            history: History::default(),
            about: String::new(),
            mode: Mode::Play,
            screen: None,
            recording_ended: false,
            exit: None,
            palette,
            live,
            stakes: Stakes::default(),
            ended: None,
            markers: Markers::default(),
            log: Log::default(),
            picked: false,
            seek: None,
            incomplete: false,
            turns: false,
            cursor: Cell::default(),
            mouse: false,
        }
    }

    /// Whether time stands still whatever the clock says: in every mode
    /// but [`Mode::Play`] (behind the help, the message history, a quit to confirm, a terminal
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
        if self.mode == Mode::Ended && self.live && self.ended.is_none() {
            self.ended = Some(Instant::now());
        }
    }

    /// How long the end screen still ignores keys, if it does.
    pub fn end_guard_left(&self) -> Option<Duration> {
        let since = self.ended?.elapsed();
        (since < END_GUARD).then(|| END_GUARD - since)
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
            // In play and on the end screen (what happened, read again).
            Mode::Play | Mode::Ended if history::is_history_key(key) => {
                self.history = History::default();
                self.mode = Mode::History;
                None
            }
            Mode::History => {
                if self.history.key(key, &self.log, self.screen.unwrap_or(screen::FLOOR)) {
                    self.mode = Mode::Play;
                    self.settle(world);
                }
                None
            }
            Mode::Play => self.play_key(key, world),
            Mode::Help => {
                if self.help.key(key.code) {
                    self.mode = Mode::Play;
                    self.settle(world);
                }
                None
            }
            Mode::Quitting => {
                if matches!(key.code, KeyCode::Char('q') | KeyCode::Enter) {
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
            Mode::Cursor => self.cursor_key(key, world),
        }
    }

    /// A key in play.
    fn play_key(&mut self, key: KeyEvent, world: &mut World) -> Option<Command> {
        let key = if self.live { keys::numpad(key) } else { key };
        let command = match keys::action(key, world.settings()) {
            // In turn mode `.` waits, as `s` does.
            Some(Action::Ui(Ui::Step)) if self.turns => self.world_key(Command::Wait, world),
            Some(Action::World(command)) => self.world_key(command, world),
            Some(Action::Ui(action)) => self.handle(action, world),
            None => None,
        };
        // An errand (a run, a travel, an exploration) ends at any key: keys
        // that give the world nothing else tell it so.
        let pending = world.errand().is_some();
        command.or_else(|| (self.live && self.exit.is_none() && pending).then_some(Command::Stop))
    }

    /// A key that would change the world: refused in replay. While paused
    /// the acts wait for time to run, as the log says, and a door is
    /// refused (it would open or close with time standing still).
    fn world_key(&mut self, command: Command, world: &World) -> Option<Command> {
        if !self.live {
            return None;
        }
        if self.clock.paused() {
            match command {
                Command::Door => {
                    self.log.note(world.ticks(), PAUSED_DOOR);
                    return None;
                }
                Command::Move { .. }
                | Command::Wait
                | Command::Run { .. }
                | Command::Travel { .. }
                | Command::Explore => self.log.note(world.ticks(), PAUSED_MOVE),
                _ => {}
            }
        }
        Some(command)
    }

    /// `>`: a travel to the level's goal, once the player has seen it (with
    /// the field of view off, the whole map is in view).
    fn travel_to_goal(&mut self, world: &World) -> Option<Command> {
        let Some(goal) = world.goal_cell() else {
            self.log.note(world.ticks(), NO_GOAL);
            return None;
        };
        if self.fov && !world.memory().seen(goal) {
            self.log.note(world.ticks(), GOAL_UNSEEN);
            return None;
        }
        self.world_key(Command::Travel { x: goal.x, y: goal.y }, world)
    }

    /// A key while the travel cursor is open.
    fn cursor_key(&mut self, key: KeyEvent, world: &mut World) -> Option<Command> {
        if let Some((dx, dy)) = keys::direction(key.code) {
            let shifted = key.modifiers.contains(KeyModifiers::SHIFT)
                || matches!(key.code, KeyCode::Char(c) if c.is_ascii_uppercase());
            let n = if shifted { 8 } else { 1 };
            let (w, h) = (world.grid().width() as i32, world.grid().height() as i32);
            let c = self.cursor;
            self.cursor =
                Cell::new((c.x + n * i32::from(dx)).clamp(0, w - 1), (c.y + n * i32::from(dy)).clamp(0, h - 1));
            return None;
        }
        match key.code {
            KeyCode::Char('>') => {
                if let Some(goal) = world.goal_cell().filter(|&g| !self.fov || world.memory().seen(g)) {
                    self.cursor = goal;
                }
                None
            }
            KeyCode::Enter | KeyCode::Char('.' | '_' | ',') => {
                self.mode = Mode::Play;
                self.settle(world);
                self.travel_to(self.cursor, world)
            }
            KeyCode::Esc | KeyCode::Char('q') => {
                self.mode = Mode::Play;
                self.settle(world);
                None
            }
            _ => None,
        }
    }

    /// A travel to `to`, as the cursor and a click give it: refused, as
    /// the log says, where the fog hides the cell.
    fn travel_to(&mut self, to: Cell, world: &World) -> Option<Command> {
        if self.fov && !world.memory().seen(to) {
            self.log.note(world.ticks(), CELL_UNSEEN);
            return None;
        }
        self.world_key(Command::Travel { x: to.x, y: to.y }, world)
    }

    /// A mouse event: with the mouse on, in play, a left click on a map
    /// cell travels there, as `_` does (the same command, recorded and
    /// replayed; a replay takes none). A click anywhere else (the borders,
    /// the panel, the log) does nothing.
    pub fn mouse(&mut self, event: MouseEvent, world: &World) -> Option<Command> {
        if !self.mouse || self.mode != Mode::Play || event.kind != MouseEventKind::Down(MouseButton::Left) {
            return None;
        }
        let (width, height) = self.screen?;
        let at = Position::new(event.column, event.row);
        let cell = screen::cell_at(Rect::new(0, 0, width, height), at, self, world)?;
        self.travel_to(cell, world)
    }

    /// Opens the travel cursor: on the goal once seen, else on the player.
    fn open_cursor(&mut self, world: &World) {
        let goal = world.goal_cell().filter(|&g| !self.fov || world.memory().seen(g));
        self.cursor = goal.unwrap_or(world.player().cell);
        self.mode = Mode::Cursor;
    }

    /// The end screen's keys: retry, the next level once won, quit; in a
    /// replay, the seek keys too (back from the end, or on to it). None is
    /// a move key, and a live game takes none until [`END_GUARD`] has
    /// passed.
    fn end_key(&mut self, key: KeyEvent, world: &World) {
        if !self.live
            && let Some(Action::Ui(Ui::Seek(to))) = keys::action(key, world.settings())
        {
            self.seek = Some(to);
            return;
        }
        if self.live && self.end_guard_left().is_some() {
            return;
        }
        let next = self.live && world.outcome() == Outcome::Won && self.stakes.next.is_some();
        self.exit = match key.code {
            KeyCode::Char('r') if self.live && self.stakes.retry => Some(Exit::Retry),
            KeyCode::Char('>') | KeyCode::Enter if next => Some(Exit::Next),
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

    /// Carries out a view action; the travel keys give the command they
    /// lead to, if any. The world is borrowed only to choose the monster to
    /// watch, which is observation and changes no decision.
    pub fn handle(&mut self, action: Ui, world: &mut World) -> Option<Command> {
        match action {
            Ui::TravelGoal => return self.travel_to_goal(world),
            Ui::Travel if self.live => self.open_cursor(world),
            Ui::Travel => {}
            Ui::Turns if self.live => {
                self.turns = !self.turns;
                self.log.note(world.ticks(), if self.turns { TURNS_ON } else { TURNS_OFF });
            }
            Ui::Turns => {}
            Ui::Pause => self.clock.toggle_pause(),
            Ui::Step => self.clock.step(),
            Ui::Faster => self.clock.faster(),
            Ui::Slower => self.clock.slower(),
            Ui::Overlay => self.overlay = self.overlay.next(),
            Ui::Fov => self.fov = !self.fov,
            Ui::Mouse => {
                self.mouse = !self.mouse;
                self.log.note(world.ticks(), if self.mouse { MOUSE_ON } else { MOUSE_OFF });
            }
            Ui::Follow => self.follow = !self.follow,
            Ui::NextMonster => {
                self.picked = true;
                world.watch(next_monster(world));
            }
            Ui::PrevMonster => {
                self.picked = true;
                world.watch(previous_monster(world));
            }
            Ui::Help => {
                self.help.scroll = 0;
                self.mode = Mode::Help;
            }
            Ui::Quit => self.ask_quit(),
            Ui::Seek(seek) => self.seek = Some(seek),
        }
        None
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

    /// Live play takes the numpad (NumLock on or off) for moves; a replay
    /// keeps Home, End, PgUp and PgDn for seeking.
    #[test]
    fn live_play_moves_by_the_numpad_and_a_replay_seeks_by_it() {
        let mut w = world();
        let mut live = App::new(Palette::NAMED, true);
        assert_eq!(live.key(press(KeyCode::Home), &mut w), Some(Command::Move { dx: -1, dy: -1 }));
        assert_eq!(live.key(char_key('3'), &mut w), Some(Command::Move { dx: 1, dy: 1 }));
        assert_eq!(live.key(press(KeyCode::KeypadBegin), &mut w), Some(Command::Wait));
        assert_eq!(live.seek, None);
        let mut replay = App::new(Palette::NAMED, false);
        assert_eq!(replay.key(press(KeyCode::Home), &mut w), None);
        assert_eq!(replay.seek, Some(keys::Seek::Start));
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
        // Any key but q and Enter goes on, and does nothing else.
        assert_eq!(app.key(char_key('l'), &mut w), None);
        assert!(app.mode == Mode::Play && app.exit.is_none() && !app.held());
        app.key(press(KeyCode::Esc), &mut w);
        assert_eq!(app.mode, Mode::Quitting);
        app.key(char_key('q'), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit));
        let mut app = App::new(Palette::NAMED, true);
        app.key(char_key('q'), &mut w);
        app.key(press(KeyCode::Enter), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit), "Enter confirms too");
        // Ctrl-C is the reflex: no question asked.
        let mut app = App::new(Palette::NAMED, true);
        app.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit));
        // A replay has nothing to lose.
        let mut app = App::new(Palette::NAMED, false);
        app.key(char_key('q'), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit));
    }

    /// The bug: `y`, north-west, confirmed the question, so a player who
    /// pressed `q` and went on tapping moves lost the game. No move key
    /// confirms it: each plays on.
    #[test]
    fn no_move_key_confirms_the_quit_question() {
        let mut w = world();
        for c in "hjklyubnHJKLYUBN".chars() {
            let mut app = App::new(Palette::NAMED, true);
            app.key(char_key('q'), &mut w);
            assert_eq!(app.key(char_key(c), &mut w), None, "{c}");
            assert_eq!((app.exit, app.mode), (None, Mode::Play), "{c} quit");
        }
    }

    /// Issue 25: "the pause message says moves wait but they are dropped",
    /// and "`.` advances the world without letting the player act".
    #[test]
    fn moves_wait_while_paused_and_the_stepped_tick_takes_them() {
        let mut w = world();
        let start = w.player().cell;
        let mut app = App::new(Palette::NAMED, true);
        app.key(char_key(' '), &mut w);
        assert!(app.clock.paused());
        let moved = app.key(char_key('l'), &mut w);
        assert_eq!(moved, Some(Command::Move { dx: 1, dy: 0 }), "the move is given, to wait");
        w.apply(moved.unwrap());
        // Other keys keep it waiting, and the door waits for time to run.
        assert_eq!(app.key(char_key('O'), &mut w), None);
        assert_eq!(app.key(char_key('e'), &mut w), None);
        let said: Vec<&str> = app.log.entries().map(|e| e.text.as_str()).collect();
        assert_eq!(said, [PAUSED_MOVE, PAUSED_DOOR]);
        assert_eq!(w.queued()[0], Some(crate::sim::Act::Step(1, 0)));
        assert_eq!(w.player().cell, start, "nothing moves while paused");
        // `.` steps one tick, and the player acts on it.
        app.key(char_key('.'), &mut w);
        assert_eq!(app.clock.take_steps(), 1);
        w.tick();
        assert_eq!(w.player().cell, Cell::new(start.x + 1, start.y));
        // Settings still change.
        assert!(matches!(app.key(char_key('E'), &mut w), Some(Command::Set(_))));
    }

    #[test]
    fn turn_mode_waits_on_dot_and_s_and_is_for_live_play() {
        let mut w = world();
        let mut app = App::new(Palette::NAMED, true);
        assert!(!app.turns);
        assert_eq!(app.key(char_key('t'), &mut w), None);
        assert!(app.turns);
        assert_eq!(app.log.entries().last().map(|e| e.text.as_str()), Some(TURNS_ON));
        assert_eq!(app.key(char_key('.'), &mut w), Some(Command::Wait));
        assert_eq!(app.key(char_key('s'), &mut w), Some(Command::Wait));
        app.key(char_key('t'), &mut w);
        assert!(!app.turns);
        assert_eq!(app.key(char_key('.'), &mut w), None, "in real time `.` steps a tick while paused, no more");
        let mut replay = App::new(Palette::NAMED, false);
        replay.key(char_key('t'), &mut w);
        assert!(!replay.turns, "a replay plays its ticks as recorded");
    }

    #[test]
    fn the_travel_cursor_holds_time_moves_and_travels() {
        let mut w = world();
        let p = w.player().cell;
        let mut app = App { fov: true, ..App::new(Palette::NAMED, true) };
        assert_eq!(app.key(char_key('_'), &mut w), None);
        assert!(app.mode == Mode::Cursor && app.held());
        assert_eq!(app.cursor, p, "the goal is not seen yet: the cursor starts on the player");
        for c in ['l', 'l', 'j', 'j', 'H'] {
            assert_eq!(app.key(char_key(c), &mut w), None);
        }
        assert_eq!(app.cursor, Cell::new(0, p.y + 2), "Shift moves eight cells, within the map");
        app.key(char_key('L'), &mut w);
        assert_eq!(app.key(press(KeyCode::Enter), &mut w), Some(Command::Travel { x: 8, y: p.y + 2 }));
        assert_eq!(app.mode, Mode::Play);
        // Esc puts it away; the cursor never leaves the map.
        app.key(char_key('_'), &mut w);
        for _ in 0..50 {
            app.key(char_key('Y'), &mut w);
        }
        assert_eq!(app.cursor, Cell::new(0, 0));
        assert_eq!(app.key(press(KeyCode::Esc), &mut w), None);
        assert!(app.mode == Mode::Play && app.exit.is_none());
        // With the fog on, an unseen cell is refused, and so is `>` to an
        // unseen goal; with it off the whole map is in view.
        app.key(char_key('_'), &mut w);
        app.cursor = w.goal_cell().unwrap();
        assert_eq!(app.key(char_key('.'), &mut w), None);
        assert_eq!(app.key(char_key('>'), &mut w), None);
        let said: Vec<&str> = app.log.entries().map(|e| e.text.as_str()).collect();
        assert_eq!(said, [CELL_UNSEEN, GOAL_UNSEEN]);
        app.fov = false;
        let g = w.goal_cell().unwrap();
        assert_eq!(app.key(char_key('>'), &mut w), Some(Command::Travel { x: g.x, y: g.y }));
        // A replay opens no cursor.
        let mut replay = App::new(Palette::NAMED, false);
        replay.key(char_key('_'), &mut w);
        assert_eq!(replay.mode, Mode::Play);
    }

    /// A key ends an errand under way; keys giving a command give that.
    #[test]
    fn any_key_stops_an_errand() {
        let level = Level::parse("##########\n#@.......#\n##########\n", "t").unwrap();
        let mut w = World::new(&level, 1, Settings::default()).unwrap();
        let mut app = App::new(Palette::NAMED, true);
        let run = app.key(KeyEvent::new(KeyCode::Char('L'), KeyModifiers::NONE), &mut w).unwrap();
        w.apply(run);
        assert_eq!(w.errand(), Some(crate::sim::ErrandKind::Run));
        assert_eq!(app.key(char_key('O'), &mut w), Some(Command::Stop));
        assert_eq!(app.key(char_key('j'), &mut w), Some(Command::Move { dx: 0, dy: 1 }));
    }

    /// Ctrl-P opens the message history in the game, in a replay and on
    /// the end screen; it holds time and takes every key while open (a
    /// move, a setting, `?` do nothing) until Esc, `q` or Ctrl-P.
    #[test]
    fn ctrl_p_opens_the_history_which_takes_every_key() {
        let ctrl_p = KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL);
        let mut w = world();
        for live in [true, false] {
            let mut app = App::new(Palette::NAMED, live);
            assert_eq!(app.key(ctrl_p, &mut w), None);
            assert!(app.mode == Mode::History && app.held(), "live: {live}");
            for c in ['l', 'E', '?', ' ', '_'] {
                assert_eq!(app.key(char_key(c), &mut w), None, "{c}");
                assert_eq!(app.mode, Mode::History, "{c}");
            }
            assert!(!app.clock.paused(), "Space did not reach the game");
            for close in [press(KeyCode::Esc), char_key('q'), ctrl_p] {
                assert_eq!(app.mode, Mode::History);
                app.key(close, &mut w);
                assert!(app.mode == Mode::Play && app.exit.is_none(), "{close:?}");
                app.key(ctrl_p, &mut w);
            }
        }
        let mut won = crate::ui::testing::game_won();
        let mut app = ended(&won, true, Stakes::default());
        app.key(ctrl_p, &mut won);
        assert_eq!(app.mode, Mode::History);
        app.key(press(KeyCode::Esc), &mut won);
        assert!(app.mode == Mode::Ended && app.exit.is_none(), "back to the end screen");
    }

    /// With the mouse on (`M`, `--mouse`), a left click on a map cell
    /// travels there as `_` does; off, or another button, or a click on
    /// the panel, or in a replay, nothing; under the fog a cell not seen
    /// is refused as travel refuses it.
    #[test]
    fn a_click_travels_to_the_cell_with_the_mouse_on() {
        let mut w = world();
        let click = |column, row, button| MouseEvent {
            kind: MouseEventKind::Down(button),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        };
        let mut app = App::new(Palette::NAMED, true);
        app.resized(120, 40, &w);
        let area = Rect::new(0, 0, 120, 40);
        let p = w.player().cell;
        // Two cells east of the player, wherever the camera puts it.
        let at = (0..120)
            .flat_map(|x| (0..40).map(move |y| Position::new(x, y)))
            .find(|&pos| screen::cell_at(area, pos, &app, &w) == Some(Cell::new(p.x + 2, p.y)))
            .unwrap();
        let left = click(at.x, at.y, MouseButton::Left);
        assert_eq!(app.mouse(left, &w), None, "the mouse is off");
        app.key(char_key('M'), &mut w);
        assert!(app.mouse);
        assert_eq!(app.log.entries().last().map(|e| e.text.as_str()), Some(MOUSE_ON));
        assert_eq!(app.mouse(left, &w), Some(Command::Travel { x: p.x + 2, y: p.y }));
        assert_eq!(app.mouse(click(at.x, at.y, MouseButton::Right), &w), None);
        assert_eq!(app.mouse(click(119, 5, MouseButton::Left), &w), None, "the panel");
        // Under the fog, a cell never seen.
        app.fov = true;
        let unseen = (0..120)
            .flat_map(|x| (0..40).map(move |y| Position::new(x, y)))
            .find(|&pos| screen::cell_at(area, pos, &app, &w).is_some_and(|c| !w.memory().seen(c)))
            .unwrap();
        assert_eq!(app.mouse(click(unseen.x, unseen.y, MouseButton::Left), &w), None);
        assert_eq!(app.log.entries().last().map(|e| e.text.as_str()), Some(CELL_UNSEEN));
        app.key(char_key('M'), &mut w);
        assert_eq!(app.log.entries().last().map(|e| e.text.as_str()), Some(MOUSE_OFF));
        let mut replay = App { mouse: true, ..App::new(Palette::NAMED, false) };
        replay.resized(120, 40, &w);
        assert_eq!(replay.mouse(left, &w), None, "a replay takes no travel");
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

    /// An end screen whose keys are taken already (the moment after the
    /// end has passed).
    fn ended(world: &World, live: bool, stakes: Stakes) -> App {
        let mut app = App::new(Palette::NAMED, live);
        app.stakes = stakes;
        app.settle(world);
        assert!(app.mode == Mode::Ended && app.held());
        app.ended = app.ended.and_then(|t| t.checked_sub(END_GUARD));
        app
    }

    /// A campaign level with one after it.
    fn more() -> Stakes {
        Stakes { next: Some("next level: maze".into()), ..Stakes::default() }
    }

    #[test]
    fn the_end_screen_takes_retry_next_and_quit() {
        let mut w = crate::ui::testing::game_won();
        // No next level: > does nothing; moves do nothing.
        let mut app = ended(&w, true, Stakes::default());
        for code in [KeyCode::Char('>'), KeyCode::Enter, KeyCode::Char('l'), KeyCode::Char('y')] {
            assert_eq!(app.key(press(code), &mut w), None);
            assert_eq!(app.exit, None, "{code:?}");
        }
        let mut app = ended(&w, true, more());
        app.key(char_key('>'), &mut w);
        assert_eq!(app.exit, Some(Exit::Next));
        app.key(press(KeyCode::Enter), &mut w);
        assert_eq!(app.exit, Some(Exit::Next));
        app.key(char_key('r'), &mut w);
        assert_eq!(app.exit, Some(Exit::Retry));
        // No question on the end screen.
        app.key(char_key('q'), &mut w);
        assert_eq!(app.exit, Some(Exit::Quit));
        // A descent does not retry.
        let mut app = ended(&w, true, Stakes { retry: false, ..more() });
        app.key(char_key('r'), &mut w);
        assert_eq!(app.exit, None);
        // A replay's end screen does not retry, but seeks.
        let mut app = ended(&w, false, more());
        for c in ['r', '>'] {
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
        let mut app = ended(&w, true, Stakes::default());
        app.key(press(KeyCode::Home), &mut w);
        assert_eq!(app.seek, None);
    }

    /// The bug: `n`, south-east, was also "next level", so a player tapping
    /// it as the monster caught them skipped "You lost" and the level. A
    /// loss never offers the next level, no move key leaves the end
    /// screen, and for a moment after the end no key does.
    #[test]
    fn tapping_moves_never_skips_the_end_screen() {
        let mut lost = crate::ui::testing::game_until_end("lives: 1\n#####\n#@M.G\n#####\n", 2000);
        assert_eq!(lost.outcome(), Outcome::Lost);
        let mut app = ended(&lost, true, more());
        for c in "hjklyubnHJKLYUBN>".chars() {
            app.key(char_key(c), &mut lost);
            assert_eq!(app.exit, None, "{c} left the end screen");
        }
        app.key(press(KeyCode::Enter), &mut lost);
        assert_eq!(app.exit, None, "a loss has no next level");
        // Just after the end, even r and q wait.
        let mut app = App::new(Palette::NAMED, true);
        app.stakes = more();
        app.settle(&lost);
        let left = app.end_guard_left().expect("the keys wait");
        assert!(left <= END_GUARD && left > END_GUARD / 2, "{left:?}");
        for c in ['r', 'q'] {
            app.key(char_key(c), &mut lost);
            assert_eq!(app.exit, None, "{c} was taken at once");
        }
        app.ended = app.ended.and_then(|t| t.checked_sub(END_GUARD));
        assert_eq!(app.end_guard_left(), None);
        app.key(char_key('r'), &mut lost);
        assert_eq!(app.exit, Some(Exit::Retry));
        // Ctrl-C never waits; a replay's end screen has nothing to guard.
        let mut app = App::new(Palette::NAMED, true);
        app.settle(&lost);
        app.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL), &mut lost);
        assert_eq!(app.exit, Some(Exit::Quit));
        let mut app = App::new(Palette::NAMED, false);
        app.settle(&lost);
        assert_eq!(app.end_guard_left(), None);
        app.key(char_key('q'), &mut lost);
        assert_eq!(app.exit, Some(Exit::Quit));
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
        /// moves while paused but on a tick `.` steps, and never takes a
        /// step sooner after the last than that step's time (4 ticks, 4·√2
        /// after a diagonal one, so at least 5 whole ticks).
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
                let (ticks, stepped) = match op {
                    Op::Key(c) => {
                        if let Some(command) = app.key(char_key(c), &mut w) {
                            w.apply(command);
                        }
                        (app.clock.take_steps(), true)
                    }
                    Op::Tick if app.clock.paused() => (0, false),
                    Op::Tick => (1, false),
                };
                for _ in 0..ticks {
                    let (before, paused) = (w.player().cell, app.clock.paused());
                    w.tick();
                    let after = w.player().cell;
                    if after != before {
                        proptest::prop_assert!(!paused || stepped, "moved while paused at tick {}", w.ticks());
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
        for a in [
            Ui::Pause,
            Ui::Step,
            Ui::Faster,
            Ui::Slower,
            Ui::Overlay,
            Ui::Fov,
            Ui::Follow,
            Ui::NextMonster,
            Ui::Turns,
            Ui::Help,
        ] {
            app.handle(a, &mut w);
        }
        assert_eq!(w.hash(), hash);
        assert!(app.clock.paused());
        assert_eq!(app.clock.take_steps(), 1);
        assert_eq!(app.overlay, Overlay::Paths);
        assert!(app.fov && app.follow && app.turns);
        assert!(app.mode == Mode::Help && app.exit.is_none());
    }
}
