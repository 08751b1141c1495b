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

use super::app::App;
use super::keys::{self, Action};
use super::palette::Palette;
use super::screen;
use crate::replay::feed::{self, Feed};
use crate::signals::{Signal, Signals};
use crate::sim::World;
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

/// Plays `world` in the terminal until the user quits or one of `signals`
/// is caught (returned), with commands from and to `feed`, starting at the
/// listed speed nearest to `speed` (times real time). The terminal is
/// restored however this returns: on quit, on a signal, on an error (from
/// the terminal or the feed) and on a panic (ratatui's panic hook, and
/// a guard that restores while unwinding).
pub fn play(
    world: &mut World,
    feed: &mut dyn Feed,
    palette: Palette,
    speed: f64,
    signals: &Signals,
) -> io::Result<Option<Signal>> {
    let _restore = Restore;
    let mut terminal = ratatui::try_init()?;
    let mut app = App::new(palette, feed.live());
    app.clock.set_nearest_speed(speed);
    // Something to show in the search overlay soon; watching is observation
    // only.
    world.watch(super::app::nearest_monster(world));
    run(&mut terminal, world, feed, &mut app, signals)
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

/// The loop: returns on quit (`None`) or on a caught signal.
fn run(
    terminal: &mut DefaultTerminal,
    world: &mut World,
    feed: &mut dyn Feed,
    app: &mut App,
    signals: &Signals,
) -> io::Result<Option<Signal>> {
    let mut last = Instant::now();
    let mut drawn: Option<Instant> = None;
    let mut dirty = true;
    loop {
        if let Some(signal) = signals.caught() {
            return Ok(Some(signal));
        }
        let now = Instant::now();
        let mut ticks = app.clock.advance(now.duration_since(last));
        last = now;
        while event::poll(Duration::ZERO)? {
            dirty |= on_event(event::read()?, app, world, feed)?;
            if app.quit {
                return Ok(None);
            }
        }
        ticks += app.clock.take_steps();
        for _ in 0..ticks {
            if feed.end().is_some_and(|end| world.ticks() >= end) {
                // The recording ends here: stop, and let the view be.
                if !app.clock.paused() {
                    app.clock.toggle_pause();
                }
                break;
            }
            feed::tick(world, feed)?;
        }
        dirty |= ticks > 0;
        let now = Instant::now();
        if dirty && drawn.is_none_or(|t| now.duration_since(t) >= FRAME) {
            terminal.draw(|frame| screen::draw(frame, app, world))?;
            (drawn, dirty) = (Some(now), false);
        }
        let next_frame = drawn.filter(|_| dirty).map(|t| (t + FRAME).saturating_duration_since(now));
        let next_tick = app.clock.until_next_tick().map(|d| d.saturating_sub(last.elapsed()));
        let wait = next_tick.into_iter().chain(next_frame).fold(SIGNAL_CHECK, Duration::min);
        event::poll(wait)?;
    }
}

/// Acts on one event; true when the screen should be redrawn.
fn on_event(event: Event, app: &mut App, world: &mut World, feed: &mut dyn Feed) -> io::Result<bool> {
    let Event::Key(key) = event else { return Ok(matches!(event, Event::Resize(..))) };
    match keys::action(key, world.settings()) {
        Some(Action::World(command)) if app.live => feed::apply(world, feed, command)?,
        Some(Action::World(_)) | None => return Ok(false),
        Some(Action::Ui(action)) => app.handle(action, world),
    }
    Ok(true)
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
        assert!(on_event(key('H'), &mut app, &mut w, &mut LiveFeed).unwrap());
        assert!(on_event(key('H'), &mut app, &mut w, &mut LiveFeed).unwrap());
        // Two presses before any tick are two steps of the cycle.
        assert_eq!(w.settings().search.heuristic, Heuristic::Zero);
        assert!(!on_event(key('x'), &mut app, &mut w, &mut LiveFeed).unwrap());
        assert!(on_event(Event::Resize(80, 24), &mut app, &mut w, &mut LiveFeed).unwrap());
    }

    #[test]
    fn replay_ignores_world_keys_but_not_view_keys() {
        let mut w = world();
        let before = w.hash();
        let mut app = App::new(Palette::NAMED, Replay.live());
        for c in ['H', 'l', 'e', ']', 'R'] {
            assert!(!on_event(key(c), &mut app, &mut w, &mut Replay).unwrap(), "{c}");
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
        assert!(app.quit);
    }
}
