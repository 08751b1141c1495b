//! The terminal's input: events read on a thread of their own, and the
//! hangup seen however it shows.
//!
//! crossterm (0.29) cannot be asked for a key once the terminal is gone:
//! its reader loops on `read` for as long as it returns 0 (end of input)
//! or an error other than "would block", so a closed terminal window, a
//! dropped ssh connection or `tmux kill-session` leaves a process spinning
//! inside `event::poll` forever, never back in its loop to see the SIGHUP
//! it may have been sent (crossterm issue #793; PR #1067 proposes an
//! error instead). So the loop never calls it: a thread of ours waits on
//! the terminal with poll(2), which reports a hangup (`POLLHUP`) as well
//! as input, asks crossterm for events only when there is input to read,
//! and sends them down a channel the loop waits on. The loop also checks
//! the terminal itself on every pass ([`Tty::hung_up`]: a hung-up terminal
//! is no longer a terminal to `isatty`), so that even a hangup landing
//! between the thread's poll and crossterm's read (which would then spin
//! on that thread) is seen within one pass.

use ratatui::crossterm::event::{self, Event};
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use std::fs::File;
use std::io::{self, IsTerminal};
use std::os::fd::{AsFd, BorrowedFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

/// How long the input thread waits on the terminal before asking crossterm
/// anyway: how soon a resize (which crossterm learns from SIGWINCH, not
/// from the terminal) becomes an event.
const POLL: Duration = Duration::from_millis(100);

/// What wakes the loop.
#[derive(Debug)]
pub enum Wake {
    /// An event read from the terminal.
    Event(Event),
    /// The terminal is gone: end of input, or poll(2) says it hung up.
    Hangup,
    /// Reading the terminal failed otherwise.
    Failed(io::Error),
    /// A worker finished a job: the loop has the state back.
    Worker,
}

/// Sends [`Wake::Worker`] to the loop: what a worker calls when it is done.
#[derive(Clone, Debug)]
pub struct Waker(Sender<Wake>);

impl Waker {
    /// Wakes the loop (nothing happens if it has gone).
    pub fn wake(&self) {
        let _ = self.0.send(Wake::Worker);
    }
}

/// The terminal keys are read from, as crossterm reads them: standard
/// input when it is a terminal, else `/dev/tty`.
#[derive(Debug)]
enum Source {
    Stdin,
    DevTty(File),
}

impl Source {
    fn open() -> io::Result<Source> {
        if io::stdin().is_terminal() {
            return Ok(Source::Stdin);
        }
        std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").map(Source::DevTty)
    }

    fn fd(&self) -> BorrowedFd<'_> {
        match self {
            Source::Stdin => rustix::stdio::stdin(),
            Source::DevTty(file) => file.as_fd(),
        }
    }

    /// Whether the terminal has hung up: it no longer answers as one (a
    /// hung-up terminal fails every ioctl with EIO, `isatty` included).
    fn hung_up(&self) -> bool {
        match self {
            Source::Stdin => !io::stdin().is_terminal(),
            Source::DevTty(file) => !file.is_terminal(),
        }
    }
}

/// Input from the terminal, read on a thread of its own while this lives.
#[derive(Debug)]
pub struct Tty {
    source: Arc<Source>,
    wakes: Receiver<Wake>,
    sender: Sender<Wake>,
    /// Tells the thread to stop before it reads again.
    stop: Arc<AtomicBool>,
    /// A wake taken by [`wait`](Tty::wait), for [`next`](Tty::next).
    held: Option<Wake>,
}

impl Tty {
    /// Starts reading the terminal's input (the terminal should be in raw
    /// mode first, so that every key arrives on its own).
    pub fn open() -> io::Result<Tty> {
        let source = Arc::new(Source::open()?);
        let (sender, wakes) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let (thread_source, thread_sender, thread_stop) = (Arc::clone(&source), sender.clone(), Arc::clone(&stop));
        thread::Builder::new()
            .name("delve-input".into())
            .spawn(move || read_events(&thread_source, &thread_sender, &thread_stop))?;
        Ok(Tty { source, wakes, sender, stop, held: None })
    }

    /// What a worker wakes the loop with.
    pub fn waker(&self) -> Waker {
        Waker(self.sender.clone())
    }

    /// Whether the terminal has hung up, as seen now (a [`Wake::Hangup`]
    /// may also be on its way).
    pub fn hung_up(&self) -> bool {
        self.source.hung_up()
    }

    /// The next wake, if one has arrived.
    pub fn next(&mut self) -> Option<Wake> {
        self.held.take().or_else(|| self.wakes.try_recv().ok())
    }

    /// Waits up to `timeout` for a wake, which [`next`](Tty::next) then
    /// returns.
    pub fn wait(&mut self, timeout: Duration) {
        if self.held.is_some() {
            return;
        }
        match self.wakes.recv_timeout(timeout) {
            Ok(wake) => self.held = Some(wake),
            // The thread ended (after a hangup or a failure, which it sent
            // first); the sender kept here never hangs up.
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {}
        }
    }
}

impl Drop for Tty {
    fn drop(&mut self) {
        // The thread is not joined: it may be waiting up to POLL, and ends
        // at its next wake without reading (the process usually ends first).
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// The input thread: waits on the terminal, reads what crossterm makes of
/// it, and sends it on, until the terminal hangs up, reading fails, the
/// loop has gone or it is told to stop.
fn read_events(source: &Source, wakes: &Sender<Wake>, stop: &AtomicBool) {
    let timeout = Timespec { tv_sec: 0, tv_nsec: i64::from(POLL.subsec_nanos()) };
    loop {
        let mut fds = [PollFd::from_borrowed_fd(source.fd(), PollFlags::IN)];
        let ready = poll(&mut fds, Some(&timeout));
        if stop.load(Ordering::SeqCst) {
            return;
        }
        // A signal (a resize, a SIGTERM for the loop to see) cut the wait.
        if ready == Err(rustix::io::Errno::INTR) {
            continue;
        }
        let revents = fds[0].revents();
        // POLLNVAL: a terminal poll(2) cannot watch (macOS's /dev/tty);
        // crossterm's own wait then stands in, and the loop's own check
        // sees a hangup.
        let watched = ready.is_ok() && !revents.contains(PollFlags::NVAL);
        if watched && revents.intersects(PollFlags::HUP | PollFlags::ERR) || source.hung_up() {
            let _ = wakes.send(Wake::Hangup);
            return;
        }
        let wait = if watched { Duration::ZERO } else { POLL };
        let sent = (|| -> io::Result<bool> {
            let mut wait = wait;
            while event::poll(wait)? {
                if wakes.send(Wake::Event(event::read()?)).is_err() {
                    return Ok(false);
                }
                wait = Duration::ZERO;
            }
            Ok(true)
        })();
        match sent {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => {
                let _ = wakes.send(if source.hung_up() { Wake::Hangup } else { Wake::Failed(e) });
                return;
            }
        }
    }
}
