//! The subcommands of the `delve` binary, one function each.
//!
//! Argument structs derive `clap::Args` here so that `main.rs` stays a thin
//! list of subcommands; everything a command does is library code that
//! tests can call without a terminal or a process.

mod color;
mod completions;
mod r#gen;
mod lab;
mod man;
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
pub use man::{ManArgs, man};
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

/// Loads the level `path` names, or the embedded level when there is
/// none: the file at `path` when there is one (a path that exists wins
/// over a name), else the shipped level of that name (`maze`, see
/// [`Level::shipped`]); `-` reads the level from standard input. A name
/// that is neither is refused with the shipped names; a replay file given
/// where a level belongs gets a hint instead of a glyph error.
pub fn load_level(path: Option<&PathBuf>) -> Result<Level, CliError> {
    let Some(p) = path else { return Ok(Level::embedded_default()) };
    if is_stdin(p) {
        let text = crate::input::read_stdin(crate::level::MAX_LEVEL_BYTES).map_err(LevelError::from)?;
        return Ok(Level::parse(&text, crate::input::STDIN)?);
    }
    if let Some(name) = level_name(p) {
        return Level::shipped(name).ok_or_else(|| unknown_level(name));
    }
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

/// Whether `path` is `-`, standard input (`./-` names a file called `-`).
pub fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// How messages name the input file (a level, a scenario file, a
/// replay) `path` gives: the path, or `<stdin>` for `-`.
pub fn input_name(path: &std::path::Path) -> PathBuf {
    PathBuf::from(if is_stdin(path) { crate::input::STDIN.as_ref() } else { path.as_os_str() })
}

/// Refuses `-` as the level of a command that reads its keys from the
/// terminal on standard input (`delve play`, `delve lab`).
pub fn refuse_stdin_level(path: Option<&PathBuf>, command: &str) -> Result<(), CliError> {
    match path.is_some_and(|p| is_stdin(p)) {
        true => Err(CliError::Usage(format!(
            "-: {command} reads its keys from the terminal, so it cannot read a level from standard input \
             (give a file or a shipped level's name)"
        ))),
        false => Ok(()),
    }
}

/// The name `path` gives a level when it is no file: one word, no
/// directory, nothing on disk by that name. `None` for a path, or a name
/// a file (or a dangling symlink) holds, which are read as files.
fn level_name(path: &std::path::Path) -> Option<&str> {
    let mut parts = path.components();
    let one_word = matches!((parts.next(), parts.next()), (Some(std::path::Component::Normal(_)), None));
    let name = path.to_str().filter(|n| one_word && !n.contains(std::path::MAIN_SEPARATOR))?;
    path.symlink_metadata().is_err().then_some(name)
}

/// The error for `name`, neither a file nor a shipped level: the shipped
/// names, and the likeliest one meant.
fn unknown_level(name: &str) -> CliError {
    let names: Vec<&str> = crate::level::shipped_names().collect();
    let scored = names.iter().map(|&n| (strsim::jaro(name, n), n)).filter(|&(score, _)| score > 0.7);
    let tip = match scored.max_by(|a, b| a.0.total_cmp(&b.0)) {
        Some((_, like)) => format!("; tip: a similar one exists: '{like}'"),
        None => String::new(),
    };
    CliError::Usage(format!(
        "{name}: no such file, nor a shipped level (the shipped levels: {}{tip})",
        names.join(", ")
    ))
}

/// Where `delve lab` saves the level `path` names: the file itself, or
/// `NAME.txt` in the current directory for a shipped level named without
/// a file (as the embedded level is saved as `dungeon.txt`).
pub fn level_file(path: &std::path::Path) -> PathBuf {
    match level_name(path) {
        Some(name) => PathBuf::from(format!("{name}.txt")),
        None => path.to_path_buf(),
    }
}
