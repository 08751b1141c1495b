//! The subcommands of the `delve` binary, one function each.
//!
//! Argument structs derive `clap::Args` here so that `main.rs` stays a thin
//! list of subcommands; everything a command does is library code that
//! tests can call without a terminal or a process.

mod options;
mod path;
mod play;
mod replay;
mod scen;
mod session;
mod sim;

pub use options::SearchArgs;
pub use path::{PathArgs, path};
pub use play::{PlayArgs, play};
pub use replay::{ReplayArgs, replay};
pub use scen::{ScenArgs, scen};
pub use session::{SessionArgs, SpawnArgs, WorldArgs};
pub use sim::{SimArgs, sim};

use crate::level::{Level, LevelError};
use crate::replay::{RecordError, ReplayError, looks_like_replay};
use crate::search::PlanError;
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
    /// Flags that do not fit together, or an answer that cannot be written.
    #[error("{0}")]
    Usage(String),
    /// The terminal or a file behind a feed failed mid-session.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Loads `path`, or the embedded level when there is none. A replay file
/// given where a level belongs gets a hint instead of a glyph error.
pub fn load_level(path: Option<&PathBuf>) -> Result<Level, CliError> {
    let Some(p) = path else { return Ok(Level::embedded_default()) };
    Level::load(p).map_err(|e| {
        if std::fs::read(p).is_ok_and(|text| looks_like_replay(&text)) {
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
