//! `delve lab`: the search lab in the terminal.

use super::{CliError, load_level};
use crate::level::DEFAULT_LEVEL_NAME;
use crate::signals::Signals;
use crate::ui::{self, Palette};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `delve lab`.
#[derive(clap::Args, Clone, Debug)]
pub struct LabArgs {
    /// Level file to edit and search: a delve level or a Moving AI map
    /// (default: the embedded level, saved as dungeon.txt)
    pub level: Option<PathBuf>,
    /// The panes' planners, left then right: a grid algorithm, navmesh or
    /// waypoints (default: astar and greedy)
    #[arg(long = "algo", value_name = "ALGO", value_delimiter = ',', num_args = 1)]
    pub algorithms: Vec<crate::search::Planner>,
}

/// Runs `delve lab` until the user quits. A bad level is one line on a
/// terminal left as it was; a caught signal or a hangup ends the lab with
/// the terminal restored ([`CliError::Interrupted`], [`CliError::HungUp`]).
pub fn lab(args: &LabArgs) -> Result<(), CliError> {
    if args.algorithms.len() > 2 {
        return Err(CliError::Usage("--algo: the lab has two panes, so two planners at most".into()));
    }
    let level = load_level(args.level.as_ref())?;
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage("delve lab needs a terminal on stdout (try `delve path --svg FILE`)".into()));
    }
    let save_to = args.level.clone().unwrap_or_else(|| PathBuf::from(format!("{DEFAULT_LEVEL_NAME}.txt")));
    let signals = Signals::catch()?;
    match ui::lab(level, save_to, &args.algorithms, Palette::detect(), signals)? {
        Some(stop) => Err(CliError::stopped(stop, None)),
        None => Ok(()),
    }
}
