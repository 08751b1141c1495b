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
use crate::replay::{RecordError, ReplayError};
use crate::search::PlanError;
use std::path::PathBuf;

/// Why a command could not give an answer: shown as one line, exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Level(#[from] LevelError),
    #[error("{file}: {source}")]
    Plan { file: PathBuf, source: PlanError },
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("{0}")]
    Usage(String),
    /// The terminal or a file behind a feed failed mid-session.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Loads `path`, or the embedded level when there is none.
pub fn load_level(path: Option<&PathBuf>) -> Result<Level, CliError> {
    Ok(match path {
        Some(p) => Level::load(p)?,
        None => Level::embedded_default(),
    })
}
