//! `delve play`: the game in the terminal, optionally recorded: one level
//! (a file, or a generated one with `--gen`), or the campaign without
//! one; and the title screen a bare `delve` opens, with the descent.

mod campaign;
mod course;
mod recording;
mod title;

pub use campaign::levels as campaign_levels;

use super::{CliError, ColorArgs, SessionArgs, refuse_stdin_level};
use crate::shown::shown;
use crate::signals::Signals;
use crate::ui;
use course::Course;
use recording::Recording;
use std::io::{IsTerminal, Write};

pub use title::title;

/// Arguments of `delve play`.
#[derive(clap::Args, Clone, Debug)]
#[command(mut_arg("level", |a| a.help("Level: a file (a delve level or a Moving AI map) or a shipped level's name (maze, cave, ...) (default: the campaign, levels/campaign.txt)")))]
pub struct PlayArgs {
    /// The session: level, seed, spawns, settings, recording.
    #[command(flatten)]
    pub session: SessionArgs,
    /// Colour or not.
    #[command(flatten)]
    pub color: ColorArgs,
    /// Play in turn mode: the world moves only while your step, wait or
    /// run lasts, not on the clock (`t` switches during play)
    #[arg(long)]
    pub turns: bool,
    /// Capture the mouse: click a cell to travel there (the lab: click,
    /// drag walls, right-click the goal); `M` toggles it. While captured the
    /// terminal's text selection needs Shift in most terminals
    #[arg(long)]
    pub mouse: bool,
}

/// Runs `delve play` until the user quits: one level, or the campaign
/// when no level is given. Everything that can fail on input is checked
/// before the terminal enters raw mode, so a bad level or an existing
/// record file is one line on a terminal left as it was. A caught signal
/// or a hangup ends the session with the terminal restored and the
/// recording kept as an interrupted one ([`CliError::Interrupted`],
/// [`CliError::HungUp`]).
///
/// In the campaign the lives left carry over from one level to the next; a
/// lost level is retried (with the lives it began with) or quit, and
/// winning the last one sums up the run.
///
/// With `--record FILE`, the first session goes to FILE and each one after
/// it (a retry, the next level) to FILE with `-2`, `-3`, ... before its
/// extension (see [`Recording`]). A session that cannot be recorded at all
/// is played anyway, says so in its log, and at exit on stderr with status
/// 2.
pub fn play(args: &PlayArgs) -> Result<(), CliError> {
    let session = &args.session;
    refuse_stdin_level(session.level.as_ref(), "delve play")?;
    session.check_record()?;
    session.threads.install()?;
    let course = if session.level.is_some() || session.generated.style.is_some() {
        let (level, generator) = session.level_to_play()?;
        Course::One { level: Box::new(level), generator }
    } else {
        Course::Campaign(campaign::levels())
    };
    let (level, generator) = course.level(0)?;
    let (start, _) = session.start_on(level, generator, None)?;
    needs_a_terminal("delve play needs a terminal on stdout (try `delve sim` for a headless run)")?;
    let signals = Signals::catch()?;
    let first = session.feed(&start)?;
    let mut sessions = ui::Sessions::open(args.color.palette(), 1.0, signals)?;
    sessions.set_turns(args.turns);
    sessions.set_mouse(args.mouse);
    let mut said = Said::default();
    let mut recording = Recording::new(session.record.as_deref(), session.force, Some(first));
    let result = course.run(session, &mut recording, &mut sessions, &mut said, "quit").map(|_| ());
    // The terminal is restored before anything is said on stderr.
    drop(sessions);
    said.finish(result)
}

/// Refuses to run without a terminal on stdout, with `message`.
fn needs_a_terminal(message: &str) -> Result<(), CliError> {
    match std::io::stdout().is_terminal() {
        true => Ok(()),
        false => Err(CliError::Usage(message.into())),
    }
}

/// What a run says on stderr once the terminal is restored.
#[derive(Default)]
pub struct Said {
    lines: Vec<String>,
    /// Sessions that could not be recorded, which make the exit status 2.
    unrecorded: usize,
    /// Scores that could not be saved, which make the exit status 2 too.
    unsaved: usize,
}

impl Said {
    /// Says it all on stderr, and gives the run's result: an error when a
    /// session went unrecorded or a score unsaved, though the run itself
    /// went well.
    fn finish(self, result: Result<(), CliError>) -> Result<(), CliError> {
        let mut stderr = std::io::stderr();
        for line in &self.lines {
            let _ = writeln!(stderr, "delve: {}", shown(line));
        }
        let lost = match (self.unrecorded, self.unsaved) {
            (0, 0) => None,
            (1, 0) => Some("a session of this run was not recorded (see above)".to_string()),
            (n, 0) => Some(format!("{n} sessions of this run were not recorded (see above)")),
            (0, _) => Some("a score of this run was not saved (see above)".to_string()),
            (n, _) => Some(format!("{n} sessions of this run were not recorded and a score not saved (see above)")),
        };
        match (result, lost) {
            (Ok(()), Some(message)) => Err(CliError::Usage(message)),
            (result, _) => result,
        }
    }
}
