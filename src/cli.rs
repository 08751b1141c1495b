//! The subcommands of the `delve` binary, one function each.
//!
//! Argument structs derive `clap::Args` here so that `main.rs` stays a thin
//! list of subcommands; everything a command does is library code that
//! tests can call without a terminal or a process.

mod color;
mod completions;
mod r#gen;
mod lab;
mod names;
mod options;
mod path;
mod play;
mod progress;
mod replay;
mod scen;
mod session;
mod sim;
mod threads;

pub use color::ColorArgs;
pub use completions::{CompletionsArgs, completions};
pub use r#gen::{GenArgs, GenLevelArgs, generate};
pub use lab::{LabArgs, lab};
pub use options::SearchArgs;
pub use path::{PathArgs, path};
pub use play::{PlayArgs, play, title};
pub use replay::{ReplayArgs, replay};
pub use scen::{ScenArgs, scen};
pub use session::SessionArgs;
pub use sim::{SimArgs, sim};
pub use threads::ThreadsArgs;

use crate::atomic::AtomicError;
use crate::level::{Level, LevelError};
use crate::replay::{RecordError, ReplayError, looks_like_replay};
use crate::search::PlanError;
use crate::signals::Signal;
use crate::sim::WorldError;
use std::path::PathBuf;

/// Why a command could not give an answer: shown as one line, exit code 2.
#[derive(Debug, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum CliError {
    /// A level, map or scenario file was refused.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// `delve path` asked for a start or goal the level's grid refuses.
    #[error("{file}: {source}")]
    Plan { file: PathBuf, source: PlanError },
    /// A replay file was refused.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A recording could not be made or finished.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// An output file (a picture) could not be written.
    #[error(transparent)]
    Write(#[from] AtomicError),
    /// Flags that do not fit together, or an answer that cannot be written.
    #[error("{0}")]
    Usage(String),
    /// The level cannot hold a world.
    #[error("{}: {source}", file.display())]
    World { file: PathBuf, source: WorldError },
    /// The terminal or a file behind a feed failed mid-session.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The command's answer could not be written to its output (stdout for
    /// the binary). A closed pipe is one of these too, which `main.rs`
    /// ends quietly: the reader has all it wanted.
    #[error("cannot write to stdout: {}", os_reason(.0))]
    Output(std::io::Error),
    /// A signal stopped the session; what it recorded is kept in `kept`.
    #[error("interrupted by {signal}{}", kept_in(kept.as_deref()))]
    Interrupted { signal: Signal, kept: Option<PathBuf> },
    /// The terminal went away under the session (closed, hung up, end of
    /// input); what it recorded is kept in `kept`. Exit status 129, as for
    /// SIGHUP.
    #[error("the terminal hung up{}", kept_in(kept.as_deref()))]
    HungUp { kept: Option<PathBuf> },
}

impl CliError {
    /// The exit status the error gives: 128 + the signal's number for a
    /// session a signal stopped, as a shell reports it, 2 otherwise.
    pub fn exit_status(&self) -> u8 {
        match self {
            CliError::Interrupted { signal, .. } => signal.exit_status(),
            CliError::HungUp { .. } => crate::ui::Stop::Hangup.exit_status(),
            _ => 2,
        }
    }

    /// The error of a session that `stop` stopped, with where what it
    /// recorded is kept.
    pub fn stopped(stop: crate::ui::Stop, kept: Option<PathBuf>) -> CliError {
        match stop {
            crate::ui::Stop::Signal(signal) => CliError::Interrupted { signal, kept },
            crate::ui::Stop::Hangup => CliError::HungUp { kept },
        }
    }

    /// Whether this is a write to a pipe whose reader has gone
    /// (`delve scen F --json | head -1`).
    pub fn is_closed_pipe(&self) -> bool {
        matches!(self, CliError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// An I/O error's reason without the " (os error 28)" the standard library
/// adds, which says nothing more to a user.
fn os_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match (e.raw_os_error(), text.rfind(" (os error ")) {
        (Some(_), Some(at)) => text[..at].to_string(),
        _ => text,
    }
}

/// Where an interrupted session's recording is, for its message.
fn kept_in(partial: Option<&std::path::Path>) -> String {
    partial.map_or_else(String::new, |p| {
        let p = p.display();
        format!("; the recording so far is in {p} (`delve replay {p} --verify` checks it)")
    })
}

/// The level a command that takes `[LEVEL]` and `--gen` runs on: the
/// generated level of `generated` with the generator's `seed` (and its
/// recipe), else [`load_level`]'s.
pub fn level_or_generated(
    path: Option<&PathBuf>,
    generated: &GenLevelArgs,
    seed: u64,
) -> Result<(Level, Option<crate::r#gen::Recipe>), CliError> {
    match generated.recipe(seed)? {
        Some(recipe) => Ok((recipe.generate(), Some(recipe))),
        None => Ok((load_level(path)?, None)),
    }
}

/// Loads `path`, or the embedded level when there is none. A replay file
/// given where a level belongs gets a hint instead of a glyph error.
pub fn load_level(path: Option<&PathBuf>) -> Result<Level, CliError> {
    let Some(p) = path else { return Ok(Level::embedded_default()) };
    Level::load(p).map_err(|e| {
        // A file that could be read is a regular file of a level's size at
        // most, safe to read again for the hint.
        if !matches!(e, LevelError::Read(_)) && std::fs::read(p).is_ok_and(|text| looks_like_replay(&text)) {
            CliError::Usage(format!(
                "{}: is a replay, not a level (play it with `delve replay {}`)",
                p.display(),
                p.display()
            ))
        } else {
            CliError::Level(e)
        }
    })
}
