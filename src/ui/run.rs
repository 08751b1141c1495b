//! The terminal loop and its guard: one for the game, the replay viewer
//! and the lab.
//!
//! A [`Terminal`] holds the terminal in raw mode on the alternate screen
//! for as long as it lives, and restores it however it goes: on return, on
//! an error, on a panic (ratatui's panic hook, and a guard that restores
//! while unwinding), on a caught signal and on a hangup; Ctrl-Z (a key in
//! raw mode) and SIGTSTP suspend it: the terminal is given back, the
//! process stops, and on `fg` the screen is taken and drawn again. [`Terminal::run`]
//! drives a [`Front`] (the game, the lab): each pass looks for a caught
//! signal and a hung-up terminal, hands the front every event that has
//! arrived, lets it do the work that is due, draws if the screen changed
//! and no frame was drawn in the last 1/30 s, then sleeps until an event
//! arrives (a key, a worker done), the front's next work or frame is due,
//! or at most [`SIGNAL_CHECK`].
//!
//! Nothing long runs in a pass: a front hands work that can take longer
//! than a frame to its [`Worker`](super::worker::Worker), and while the
//! worker holds its state the loop still reads keys and signals and draws
//! the last frame with a popup saying what runs ([`Busy`]). So the loop
//! never goes more than about [`SIGNAL_CHECK`] without looking at the
//! keys and the signal flags, and `q`, Ctrl-C, SIGTERM or a hangup end it
//! at once whatever runs.

use super::busy::{self, Busy, BusyPopup};
use super::palette::Palette;
use super::tty::{Tty, Wake, Waker};
use crate::signals::{SIGHUP, Signal, Signals};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::crossterm::{cursor, execute};
use ratatui::layout::Size;
use ratatui::{DefaultTerminal, Frame};
use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

/// Shortest time between two frames: at most 30 a second.
pub const FRAME: Duration = Duration::from_nanos(1_000_000_000 / 30);
/// Longest sleep: a caught signal is seen within it (a key or a finished
/// job ends the sleep at once, a signal does not), so an idle loop wakes
/// this often to look; ten times a second costs nothing measurable.
pub const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// What stopped a front from outside: the caller keeps what it recorded
/// and exits with [`exit_status`](Stop::exit_status).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A caught termination signal.
    Signal(Signal),
    /// The terminal went away: end of input, or it hung up (a closed
    /// window, a dropped ssh connection, `tmux kill-session`), with or
    /// without the SIGHUP that usually comes with it.
    Hangup,
}

impl Stop {
    /// The exit status a shell gives a process the signal ended: 128 + its
    /// number; 129, as for SIGHUP, for a hangup.
    pub fn exit_status(self) -> u8 {
        match self {
            Stop::Signal(signal) => signal.exit_status(),
            Stop::Hangup => Signal(SIGHUP).exit_status(),
        }
    }
}

/// What the loop drives: the game or the replay viewer, the lab.
pub trait Front {
    /// Acts on one event from the terminal: a key, a resize (the loop
    /// sends one with the terminal's size before anything else).
    fn event(&mut self, event: Event);

    /// Does the work that is due now, no more than fits in a pass (longer
    /// work goes to a worker). Returns how long until work is due again
    /// without an event, if ever. An error ends the loop.
    fn work(&mut self) -> io::Result<Option<Duration>>;

    /// Whether the screen should be drawn again (and can be: the state is
    /// home).
    fn dirty(&self) -> bool;

    /// Draws the screen; only called while [`busy`](Front::busy) is `None`.
    fn draw(&mut self, frame: &mut Frame);

    /// The session was suspended (Ctrl-Z) and now goes on: wall time
    /// spent stopped is not time the front owes work for (the game's
    /// clock does not jump).
    fn resumed(&mut self) {}

    /// Whether the front wants the mouse captured (`--mouse`, `M`): the
    /// loop captures it or lets it go to match, once a pass.
    fn mouse(&self) -> bool {
        false
    }

    /// Work that has held the front's state on its worker long enough to
    /// say so: the loop draws it over the last frame.
    fn busy(&self) -> Option<Busy>;

    /// Whether the front is done: the loop returns.
    fn finished(&self) -> bool;
}

/// The terminal, in raw mode on the alternate screen for as long as this
/// lives.
pub struct Terminal {
    /// Always there but while this is dropped (see [`Drop`]).
    terminal: Option<DefaultTerminal>,
    tty: Tty,
    /// Caught while the terminal is ours: one stops the front.
    signals: Signals,
    palette: Palette,
    /// The last frame a front drew, under the busy popup.
    last: Buffer,
    /// The size the front was last told.
    size: Size,
    /// Whether the mouse is captured now.
    mouse: bool,
    /// Declared last: the terminal is restored after everything else.
    _restore: Restore,
}

impl Terminal {
    /// Takes over the terminal until this is dropped; `signals` stop any
    /// front it runs.
    pub fn open(palette: Palette, signals: Signals) -> io::Result<Terminal> {
        // crossterm drops every colour when `NO_COLOR` is set; the palette
        // has already decided (`--color` wins over the variable), so the
        // terminal is told to follow it either way.
        ratatui::crossterm::style::force_color_output(!palette.mono);
        let restore = Restore;
        let terminal = ratatui::try_init()?;
        let tty = Tty::open()?;
        signals.watch_suspend(true);
        let (last, size) = (Buffer::default(), Size::default());
        Ok(Terminal { terminal: Some(terminal), tty, signals, palette, last, size, mouse: false, _restore: restore })
    }

    /// What a front's worker wakes the loop with.
    pub fn waker(&self) -> Waker {
        self.tty.waker()
    }

    /// Runs `front` until it is finished (`None`), or a signal or a hangup
    /// stops it.
    pub fn run(&mut self, front: &mut dyn Front) -> io::Result<Option<Stop>> {
        self.size = Size::default();
        let mut drawn: Option<Instant> = None;
        let mut sized: Option<Instant> = None;
        loop {
            if let Some(signal) = self.signals.caught() {
                return Ok(Some(Stop::Signal(signal)));
            }
            if self.tty.hung_up() {
                return Ok(Some(Stop::Hangup));
            }
            if self.signals.take_suspend() {
                self.suspend(front)?;
                sized = None;
            }
            // Resizes come as events too; looking now and then catches one
            // crossterm has not reported yet (each look opens /dev/tty).
            if sized.is_none_or(|t| t.elapsed() >= SIGNAL_CHECK) {
                sized = Some(Instant::now());
                match self.tui().size() {
                    Ok(size) if size != self.size => {
                        self.size = size;
                        front.event(Event::Resize(size.width, size.height));
                    }
                    Ok(_) => {}
                    Err(e) => return self.failed(e),
                }
            }
            while let Some(wake) = self.tty.next() {
                match wake {
                    Wake::Event(event) if is_suspend(&event) => {
                        self.suspend(front)?;
                        sized = None;
                    }
                    Wake::Event(event) => {
                        if let Event::Resize(width, height) = event {
                            self.size = Size { width, height };
                        }
                        front.event(event);
                    }
                    Wake::Worker => {}
                    Wake::Hangup => return Ok(Some(Stop::Hangup)),
                    Wake::Failed(e) => return self.failed(e),
                }
                if front.finished() {
                    return Ok(None);
                }
            }
            if front.mouse() != self.mouse
                && let Err(e) = self.capture_mouse(front.mouse())
            {
                return self.failed(e);
            }
            let next_work = front.work()?;
            if front.finished() {
                return Ok(None);
            }
            let busy = front.busy();
            let gap = if busy.is_some() { busy::REDRAW } else { FRAME };
            let since = drawn.map(|t| t.elapsed());
            let wanted = busy.is_some() || front.dirty();
            if wanted && since.is_none_or(|s| s >= gap) {
                // Stamped before drawing, as the front stamps its frame.
                drawn = Some(Instant::now());
                if let Err(e) = self.draw(front, busy.as_ref()) {
                    return self.failed(e);
                }
            }
            let mut wait = next_work.map_or(SIGNAL_CHECK, |d| d.min(SIGNAL_CHECK));
            if wanted && let Some(t) = drawn {
                wait = wait.min(gap.saturating_sub(t.elapsed()));
            }
            self.tty.wait(wait);
        }
    }

    /// Draws the front, or the busy popup over its last frame.
    fn draw(&mut self, front: &mut dyn Front, busy: Option<&Busy>) -> io::Result<()> {
        let Terminal { terminal: Some(terminal), last, palette, .. } = self else { return Ok(()) };
        let completed = terminal.draw(|frame| match busy {
            Some(busy) => {
                let area = frame.area();
                if last.area == area {
                    frame.buffer_mut().content.clone_from(&last.content);
                }
                frame.render_widget(BusyPopup { busy, palette }, area);
            }
            None => front.draw(frame),
        })?;
        if busy.is_none() {
            last.area = completed.buffer.area;
            last.content.clone_from(&completed.buffer.content);
        }
        Ok(())
    }

    /// Ctrl-Z, or a SIGTSTP: gives the shell its terminal back (cooked
    /// mode, the main screen, the cursor), stops the process as SIGTSTP
    /// does, and once it is continued takes the terminal again, to be
    /// drawn whole (the next pass tells the front the terminal's size,
    /// which may have changed meanwhile).
    fn suspend(&mut self, front: &mut dyn Front) -> io::Result<()> {
        // Captured again, if wanted, on the next pass.
        self.mouse = false;
        Restore::restore();
        crate::signals::stop()?;
        ratatui::crossterm::terminal::enable_raw_mode()?;
        execute!(io::stdout(), EnterAlternateScreen)?;
        let terminal = self.tui();
        terminal.hide_cursor()?;
        terminal.clear()?;
        self.size = Size::default();
        front.resumed();
        Ok(())
    }

    /// Captures the mouse (`on`) or lets it go: while captured, clicks
    /// come as events and the terminal's own text selection needs Shift
    /// in most terminals.
    fn capture_mouse(&mut self, on: bool) -> io::Result<()> {
        if on {
            execute!(io::stdout(), EnableMouseCapture)?;
        } else {
            execute!(io::stdout(), DisableMouseCapture)?;
        }
        self.mouse = on;
        Ok(())
    }

    fn tui(&mut self) -> &mut DefaultTerminal {
        self.terminal.as_mut().expect("the terminal is there until dropped")
    }

    /// Whether the terminal has gone: the one keys come from, or the one
    /// the screen goes to (a write to a hung-up terminal fails with EIO).
    fn gone(&self) -> bool {
        self.tty.hung_up() || !io::stdout().is_terminal()
    }

    /// An error from the terminal: a hangup if the terminal is gone, else
    /// the error.
    fn failed(&self, e: io::Error) -> io::Result<Option<Stop>> {
        if self.gone() {
            return Ok(Some(Stop::Hangup));
        }
        Err(e)
    }
}

/// Whether `event` is Ctrl-Z, which raw mode delivers as a key.
fn is_suspend(event: &Event) -> bool {
    matches!(event, Event::Key(key) if key.kind != KeyEventKind::Release
        && key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('z'))
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.signals.watch_suspend(false);
        let terminal = self.terminal.take();
        if self.gone() {
            // Dropped, it would show the cursor on a terminal that has
            // gone, and say on stderr that it could not.
            std::mem::forget(terminal);
        }
    }
}

/// Leaves raw mode and the alternate screen and shows the cursor when
/// dropped, including while unwinding from a panic (ratatui's panic hook
/// restores too; twice is harmless). Each step is tried whatever became of
/// the one before; on a terminal that has gone away they fail, with
/// nothing left to tell.
struct Restore;

impl Restore {
    /// The terminal as the shell had it: each step tried whatever became
    /// of the one before.
    fn restore() {
        let _ = ratatui::crossterm::terminal::disable_raw_mode();
        let _ = execute!(io::stdout(), DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        Restore::restore();
    }
}
