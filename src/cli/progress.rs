//! A progress bar on stderr for the commands that can run for a while
//! (`scen`, `replay --verify`, `sim`), drawn only when stderr is a terminal:
//! piped or redirected, a command prints its answer and nothing else.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// Most updates a bar receives over a whole run; a caller that reports
/// every step (a tick) pays one comparison for the others.
const UPDATES: u64 = 1000;

/// The progress of `len` steps of work. Cleared from the terminal when
/// dropped, so only the command's answer stays on the screen.
pub struct Progress {
    /// `None` when stderr is not a terminal: nothing is drawn or computed.
    bar: Option<ProgressBar>,
    /// Steps between two updates of the bar.
    stride: u64,
}

impl Progress {
    /// A bar of `len` steps of `what` (e.g. "ticks") on stderr, drawn when
    /// stderr is a terminal and absent otherwise.
    pub fn on_stderr(what: &str, len: u64) -> Progress {
        Progress::new(what, len, std::io::stderr().is_terminal())
    }

    fn new(what: &str, len: u64, terminal: bool) -> Progress {
        let bar = terminal.then(|| {
            // indicatif limits its own redraws (20 a second by default).
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{wide_bar} {human_pos}/{human_len} {msg} ({eta} left)")
                    .expect("the template is valid (a unit test builds it)"),
            );
            bar.set_message(what.to_owned());
            bar
        });
        Progress { bar, stride: (len / UPDATES).max(1) }
    }

    /// Reports that `done` of the steps are done.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar
            && done.is_multiple_of(self.stride)
        {
            bar.set_position(done);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_when_stderr_is_not_a_terminal() {
        let p = Progress::new("scenarios", 10, false);
        assert!(p.bar.is_none());
        p.set(5);
    }

    #[test]
    fn drawn_on_a_terminal_and_updated_every_stride() {
        let p = Progress::new("ticks", 1_000_000, true);
        assert!(p.bar.is_some());
        assert_eq!(p.stride, 1000);
        let bar = p.bar.as_ref().unwrap();
        p.set(999);
        assert_eq!(bar.position(), 0, "between strides the bar is not touched");
        p.set(2000);
        assert_eq!(bar.position(), 2000);
        assert_eq!(Progress::new("scenarios", 130, true).stride, 1);
    }
}
