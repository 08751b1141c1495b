//! The terminal loop: input, ticks and frames, each at its own pace.
//!
//! One pass of the loop: turn the wall time since the last pass into ticks
//! owed (at the pace it passed in), read every pending event without
//! waiting, run the owed ticks (at most [`MAX_CATCH_UP`](super::clock::MAX_CATCH_UP)),
//! draw if something changed and no frame was drawn in the last 1/30 s,
//! then sleep until a key arrives or the next tick or frame is due, or at
//! most [`SIGNAL_CHECK`], when it looks for a caught signal.
//!
//! A key's command is applied as soon as it is read, between two ticks and
//! stamped with the tick count it precedes. Nothing else changes the world
//! between ticks, so this is the session a queue emptied before the next
//! tick would give, and the view answers at once even while paused.

use super::app::{App, Exit};
use super::clock::Clock;
use super::keys::{SEEK_TICKS, Seek};
use super::map::Markers;
use super::overlay::Overlay;
use super::palette::Palette;
use super::screen;
use crate::level::Level;
use crate::replay::feed::{self, Feed};
use crate::shown::shown;
use crate::signals::Signals;
use crate::sim::{Outcome, World};
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event};
use ratatui::crossterm::{cursor, execute};
use std::io;
use std::time::{Duration, Instant};

/// Shortest time between two frames: at most 30 a second.
const FRAME: Duration = Duration::from_nanos(1_000_000_000 / 30);
/// Longest sleep: a caught signal is seen within it. A key ends the sleep
/// at once, a signal does not (the terminal's input wait goes on through
/// it), so an idle loop wakes this often to look; ten times a second costs
/// nothing measurable.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// One session to play: its world, where its commands come from and go,
/// and what the screen needs besides.
pub struct Session<'a> {
    /// The world, changed only through the feed's and the keys' commands.
    pub world: &'a mut World,
    /// Where commands come from (a replay) and go (a recording).
    pub feed: &'a mut dyn Feed,
    /// The level the world was made from: its `S` and `G` are drawn.
    pub level: &'a Level,
    /// Whether the end screen offers a next level.
    pub next_level: bool,
    /// Lines the log opens with (the level's description, a recording
    /// that could not be made).
    pub notes: Vec<String>,
}

/// The terminal, in raw mode on the alternate screen for as long as this
/// lives, playing one session after another. The view (overlay, speed,
/// field of view once chosen) carries over from one session to the next.
pub struct Terminal {
    terminal: DefaultTerminal,
    palette: Palette,
    clock: Clock,
    overlay: Overlay,
    /// The field of view as the player last set it; until then each
    /// session starts with it on in a game with a goal, off in a sandbox.
    fov: Option<bool>,
    /// Caught while the terminal is ours: one stops the session.
    signals: Signals,
    /// Declared last: the terminal is restored after everything else.
    _restore: Restore,
}

impl Terminal {
    /// Takes over the terminal, playing at the listed speed nearest to
    /// `speed` (times real time), until one of `signals` is caught. The
    /// terminal is restored when this is dropped: on quit, on a signal, on
    /// an error (from the terminal or the feed) and on a panic (ratatui's
    /// panic hook, and a guard that restores while unwinding).
    pub fn open(palette: Palette, speed: f64, signals: Signals) -> io::Result<Terminal> {
        let restore = Restore;
        let terminal = ratatui::try_init()?;
        let mut clock = Clock::default();
        clock.set_nearest_speed(speed);
        Ok(Terminal { terminal, palette, clock, overlay: Overlay::None, fov: None, signals, _restore: restore })
    }

    /// Plays `session` until the player quits, retries or asks for the
    /// next level, or a signal is caught ([`Exit::Signal`]).
    pub fn play(&mut self, session: Session) -> io::Result<Exit> {
        let Session { world, feed, level, next_level, notes } = session;
        let mut app = App::new(self.palette, feed.live());
        app.clock = self.clock.clone();
        if app.clock.paused() {
            app.clock.toggle_pause();
        }
        app.overlay = self.overlay;
        let fov_default = super::app::fov_by_default(world);
        app.fov = self.fov.unwrap_or(fov_default);
        app.markers = Markers::of(level);
        app.next_level = next_level;
        for note in notes {
            app.log.note(world.ticks(), shown(&note).into_owned());
        }
        // Something to show in the search overlay soon; watching is
        // observation only.
        world.watch(super::app::nearest_monster(world));
        let exit = run(&mut self.terminal, world, feed, &mut app, &self.signals);
        self.clock = app.clock;
        self.overlay = app.overlay;
        if app.fov != fov_default || self.fov.is_some() {
            self.fov = Some(app.fov);
        }
        exit
    }
}

/// Plays one session in a terminal of its own (a replay, a single level).
pub fn play(session: Session, palette: Palette, speed: f64, signals: Signals) -> io::Result<Exit> {
    Terminal::open(palette, speed, signals)?.play(session)
}

/// Leaves raw mode and the alternate screen and shows the cursor when
/// dropped, including while unwinding from a panic (ratatui's panic hook
/// restores too; twice is harmless).
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
        // Nothing to tell if this fails: the terminal is going away.
        let _ = execute!(io::stdout(), cursor::Show);
    }
}

/// The loop: returns the player's choice, or [`Exit::Signal`] on a caught
/// signal.
fn run(
    terminal: &mut DefaultTerminal,
    world: &mut World,
    feed: &mut dyn Feed,
    app: &mut App,
    signals: &Signals,
) -> io::Result<Exit> {
    let mut last = Instant::now();
    let mut drawn: Option<Instant> = None;
    let mut dirty = true;
    app.incomplete = feed.incomplete();
    app.sight.update(world);
    app.log.take(world);
    loop {
        if let Some(signal) = signals.caught() {
            return Ok(Exit::Signal(signal));
        }
        let size = terminal.size()?;
        app.too_small = screen::is_too_small(size.width, size.height);
        let now = Instant::now();
        // Held time (help, a question, a tiny terminal, the end) is never
        // made up, as paused time is not.
        let elapsed = now.duration_since(last);
        let mut ticks = if app.held(world) { 0 } else { app.clock.advance(elapsed) };
        last = now;
        while event::poll(Duration::ZERO)? {
            dirty |= on_event(event::read()?, app, world, feed)?;
            if let Some(exit) = app.exit {
                return Ok(exit);
            }
        }
        if app.held(world) {
            // Held by a key just read (the help, a question).
            ticks = 0;
        } else {
            ticks += app.clock.take_steps();
        }
        for _ in 0..ticks {
            if feed.end().is_some_and(|end| world.ticks() >= end) || world.outcome() != Outcome::Running {
                break;
            }
            feed::tick(world, feed)?;
            app.sight.update(world);
            app.watch_the_hunt(world);
        }
        app.log.take(world);
        dirty |= app.recording_ends(world, feed.end());
        dirty |= ticks > 0;
        let now = Instant::now();
        if dirty && drawn.is_none_or(|t| now.duration_since(t) >= FRAME) {
            terminal.draw(|frame| screen::draw(frame, app, world))?;
            (drawn, dirty) = (Some(now), false);
        }
        let next_frame = drawn.filter(|_| dirty).map(|t| (t + FRAME).saturating_duration_since(now));
        let next_tick = (!app.held(world)).then(|| app.clock.until_next_tick()).flatten();
        let next_tick = next_tick.map(|d| d.saturating_sub(last.elapsed()));
        let wait = next_tick.into_iter().chain(next_frame).fold(SIGNAL_CHECK, Duration::min);
        event::poll(wait)?;
    }
}

/// Acts on one event; true when the screen should be redrawn.
fn on_event(event: Event, app: &mut App, world: &mut World, feed: &mut dyn Feed) -> io::Result<bool> {
    let Event::Key(key) = event else { return Ok(matches!(event, Event::Resize(..))) };
    if let Some(command) = app.key(key, world) {
        feed::apply(world, feed, command)?;
        // A door or a setting shows at once, even while paused.
        app.sight.update(world);
        app.log.take(world);
    }
    if let Some(to) = app.seek.take() {
        seek(app, world, feed, to)?;
    }
    Ok(true)
}

/// Seeks a replay (live play cannot): the clock keeps its pace, the
/// overlay stays, the watched monster stays the one picked (or the nearest
/// hunting one), what the player saw is seen again from there, and the end
/// of the recording will be announced again.
fn seek(app: &mut App, world: &mut World, feed: &mut dyn Feed, to: Seek) -> io::Result<()> {
    let now = world.ticks();
    let target = match to {
        Seek::Back => now.saturating_sub(SEEK_TICKS),
        Seek::Forward => now.saturating_add(SEEK_TICKS),
        Seek::Start => 0,
        Seek::End => u64::MAX,
    };
    let watched = world.watched();
    if !feed.seek(world, target)? {
        return Ok(());
    }
    world.watch(if app.picked { watched } else { super::app::nearest_monster(world) });
    app.recording_ended = false;
    app.sight = Default::default();
    app.sight.update(world);
    app.log.seeked(world);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::replay::feed::LiveFeed;
    use crate::search::Heuristic;
    use crate::sim::{Command, Settings};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn key(c: char) -> Event {
        Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    /// Live play except that world keys are refused, as in replay.
    struct Replay;

    impl Feed for Replay {
        fn due(&mut self, _tick: u64, _out: &mut Vec<Command>) {}
        fn live(&self) -> bool {
            false
        }
        fn applied(&mut self, _tick: u64, command: &Command) -> io::Result<()> {
            panic!("replay applied a key's command: {command:?}")
        }
        fn ticked(&mut self, _world: &World) -> io::Result<()> {
            Ok(())
        }
    }

    fn world() -> World {
        World::new(&Level::embedded_default(), 1, Settings::default()).unwrap()
    }

    #[test]
    fn keys_change_the_world_at_once_when_live() {
        let mut w = world();
        let mut app = App::new(Palette::NAMED, true);
        assert!(on_event(key('E'), &mut app, &mut w, &mut LiveFeed).unwrap());
        assert!(on_event(key('E'), &mut app, &mut w, &mut LiveFeed).unwrap());
        // Two presses before any tick are two steps of the cycle, each in
        // the log at once.
        assert_eq!(w.settings().search.heuristic, Heuristic::Zero);
        let said: Vec<&str> = app.log.entries().map(|e| e.text.as_str()).collect();
        assert_eq!(said, ["heuristic: chebyshev", "heuristic: zero"]);
        assert!(on_event(Event::Resize(80, 24), &mut app, &mut w, &mut LiveFeed).unwrap());
    }

    /// The seek keys move a replay 10 s back and on, to its start and its
    /// end, keeping the pace and the picked monster; live play does not seek.
    #[test]
    fn seek_keys_move_a_replay_and_keep_the_view() {
        use crate::replay::feed::{RecordFeed, ReplayFeed, bot_tick};
        use crate::replay::{Recorder, Start};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seek.jsonl");
        let start = Start {
            level: Level::embedded_default(),
            seed: 2,
            settings: Settings::default(),
            spawns: Default::default(),
            rules: Default::default(),
        };
        let mut live = RecordFeed::new(Recorder::create(&path, &start, false).unwrap());
        let mut w = start.world().unwrap();
        let mut bot = crate::sim::Bot::new(2);
        for _ in 0..500 {
            bot_tick(&mut w, &mut live, &mut bot).unwrap();
        }
        live.finish(&w).unwrap();
        let end_hash = w.hash();
        let replay = crate::replay::Replay::load(&path).unwrap();
        let mut feed = ReplayFeed::new(&replay);
        let mut w = replay.world();
        let mut app = App::new(Palette::NAMED, false);
        let press = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        on_event(press(KeyCode::Tab), &mut app, &mut w, &mut feed).unwrap();
        let picked = w.watched();
        on_event(key('+'), &mut app, &mut w, &mut feed).unwrap();
        let pace = app.clock.speed_label();
        on_event(press(KeyCode::PageDown), &mut app, &mut w, &mut feed).unwrap();
        assert_eq!(w.ticks(), SEEK_TICKS);
        on_event(press(KeyCode::PageDown), &mut app, &mut w, &mut feed).unwrap();
        on_event(press(KeyCode::PageUp), &mut app, &mut w, &mut feed).unwrap();
        assert_eq!(w.ticks(), SEEK_TICKS);
        on_event(press(KeyCode::End), &mut app, &mut w, &mut feed).unwrap();
        assert_eq!((w.ticks(), w.hash()), (500, end_hash));
        assert!(app.recording_ends(&w, feed.end()));
        on_event(press(KeyCode::Home), &mut app, &mut w, &mut feed).unwrap();
        assert_eq!((w.ticks(), w.hash()), (0, replay.world().hash()));
        assert!(!app.recording_ended, "the end will be announced again");
        assert_eq!((w.watched(), app.clock.speed_label()), (picked, pace));
        let said: Vec<&str> = app.log.entries().map(|e| e.text.as_str()).collect();
        assert_eq!(said.last(), Some(&"jumped to 00:00"), "{said:?}");
        // Live play has nothing to seek in.
        let mut live = world();
        live.tick();
        on_event(press(KeyCode::Home), &mut app, &mut live, &mut LiveFeed).unwrap();
        assert_eq!(live.ticks(), 1);
    }

    #[test]
    fn replay_ignores_world_keys_but_not_view_keys() {
        let mut w = world();
        let before = w.hash();
        let mut app = App::new(Palette::NAMED, Replay.live());
        for c in ['E', 'l', 'L', 'e', ']', 'R'] {
            on_event(key(c), &mut app, &mut w, &mut Replay).unwrap();
        }
        assert_eq!(w.hash(), before);
        assert!(on_event(key(' '), &mut app, &mut w, &mut Replay).unwrap());
        assert!(app.clock.paused());
        assert!(
            on_event(Event::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)), &mut app, &mut w, &mut Replay)
                .unwrap()
        );
        assert!(w.watched().is_some());
        on_event(key('q'), &mut app, &mut w, &mut Replay).unwrap();
        assert_eq!(app.exit, Some(Exit::Quit));
    }
}
