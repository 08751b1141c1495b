//! Termination signals caught for the length of a session, so that `kill`
//! (or a closed terminal, or Ctrl-\) restores the terminal and keeps what
//! was recorded, instead of leaving a raw terminal and a cut file.
//!
//! The handler only sets a flag; the session's loop looks at it, stops,
//! cleans up and exits with the conventional status, 128 + the signal's
//! number. A second signal while the first is being handled ends the
//! process at once with that status, so a session stuck in its cleanup
//! can still be stopped.
//!
//! SIGTSTP (`kill -TSTP`; the terminal's Ctrl-Z, outside raw mode) stops
//! the process as it always does, except while a terminal loop watches
//! for it ([`Signals::watch_suspend`]): it then only sets a flag, and the
//! loop restores the terminal before it stops the process itself
//! ([`stop`]), so that the shell gets its terminal back as it was.

pub use signal_hook::consts::SIGHUP;
use signal_hook::consts::{SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGXFSZ};
use signal_hook::flag;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The signals a session catches: kill's default, Ctrl-C, a closed
/// terminal, Ctrl-\.
pub const CAUGHT: [i32; 4] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT];

/// A signal that stopped a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal(pub i32);

impl Signal {
    /// The exit status a shell gives a process the signal ended: 128 + its
    /// number (143 for SIGTERM).
    pub fn exit_status(self) -> u8 {
        u8::try_from(128 + self.0).unwrap_or(u8::MAX)
    }
}

impl std::fmt::Display for Signal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match signal_hook::low_level::signal_name(self.0) {
            Some(name) => f.write_str(name),
            None => write!(f, "signal {}", self.0),
        }
    }
}

/// The [`CAUGHT`] signals, caught from [`Signals::catch`] until the
/// process exits.
#[derive(Debug)]
pub struct Signals {
    caught: Arc<AtomicUsize>,
    /// A SIGTSTP arrived while a loop watched: it asks to suspend.
    suspend: Arc<AtomicBool>,
    /// No loop watches: a SIGTSTP stops the process at once.
    unwatched: Arc<AtomicBool>,
}

impl Signals {
    /// Starts catching the [`CAUGHT`] signals. Call it once, before the
    /// session starts; the handlers stay until the process exits (taken
    /// away, they would leave the signals ignored rather than fatal).
    pub fn catch() -> io::Result<Signals> {
        let caught = Arc::new(AtomicUsize::new(0));
        let armed = Arc::new(AtomicBool::new(false));
        for signal in CAUGHT {
            // The shutdown goes first, so that it only fires on a second
            // signal, once the first has armed it.
            flag::register_conditional_shutdown(signal, 128 + signal, Arc::clone(&armed))?;
            flag::register(signal, Arc::clone(&armed))?;
            flag::register_usize(signal, Arc::clone(&caught), usize::try_from(signal).unwrap_or(usize::MAX))?;
        }
        let (suspend, unwatched) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(true)));
        flag::register_conditional_default(SIGTSTP, Arc::clone(&unwatched))?;
        flag::register(SIGTSTP, Arc::clone(&suspend))?;
        Ok(Signals { caught, suspend, unwatched })
    }

    /// Whether a terminal loop watches for SIGTSTP (`on`), which then asks
    /// it to suspend ([`take_suspend`](Signals::take_suspend)) instead of
    /// stopping the process; a request from before is forgotten.
    pub fn watch_suspend(&self, on: bool) {
        self.unwatched.store(!on, Ordering::SeqCst);
        self.suspend.store(false, Ordering::SeqCst);
    }

    /// Whether a SIGTSTP asked to suspend since the last look.
    pub fn take_suspend(&self) -> bool {
        self.suspend.swap(false, Ordering::SeqCst)
    }

    /// The signal caught since [`catch`](Signals::catch), if any (the
    /// latest, if several).
    pub fn caught(&self) -> Option<Signal> {
        match self.caught.load(Ordering::SeqCst) {
            0 => None,
            n => Some(Signal(i32::try_from(n).unwrap_or(i32::MAX))),
        }
    }
}

/// Stops the process as SIGTSTP does by default (the shell's job control
/// sees it stopped, and `fg` or `bg` continues it): returns once it is
/// continued.
pub fn stop() -> io::Result<()> {
    signal_hook::low_level::emulate_default_handler(SIGTSTP)
}

/// Lets writes past the file-size limit (`ulimit -f`) fail with an error
/// instead of ending the process with SIGXFSZ, so that a recording can cut
/// its file back to a whole line and say where it is.
pub fn survive_file_size_limit() -> io::Result<()> {
    flag::register(SIGXFSZ, Arc::new(AtomicBool::new(false))).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signal_is_named_and_gives_the_shells_status() {
        assert_eq!(Signal(SIGTERM).to_string(), "SIGTERM");
        assert_eq!(Signal(SIGTERM).exit_status(), 143);
        assert_eq!(Signal(SIGINT).exit_status(), 130);
        assert_eq!(Signal(SIGHUP).exit_status(), 129);
        assert_eq!(Signal(SIGQUIT).exit_status(), 131);
    }

    #[test]
    fn a_caught_signal_is_seen_instead_of_ending_the_process() {
        let signals = Signals::catch().unwrap();
        assert_eq!(signals.caught(), None);
        signal_hook::low_level::raise(SIGHUP).unwrap();
        assert_eq!(signals.caught(), Some(Signal(SIGHUP)));
        // Watched, a SIGTSTP asks the loop to suspend and stops nothing.
        signals.watch_suspend(true);
        assert!(!signals.take_suspend());
        signal_hook::low_level::raise(SIGTSTP).unwrap();
        assert!(signals.take_suspend());
        assert!(!signals.take_suspend(), "taken once");
        signals.watch_suspend(false);
    }
}
