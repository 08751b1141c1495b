//! `delve play`: the game in the terminal, optionally recorded.

use super::{CliError, SearchArgs, SpawnArgs, WorldArgs, load_level};
use crate::replay::Start;
use crate::replay::feed;
use crate::ui::{self, Palette};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `delve play`.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// Level file: a delve level or a Moving AI map (default: the embedded level)
    pub level: Option<PathBuf>,
    /// Session seed: the same seed, level and keys give the same game
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Record the session to this replay file
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Overwrite the --record file if it exists
    #[arg(long, requires = "record")]
    pub force: bool,
    #[command(flatten)]
    pub spawn: SpawnArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub world: WorldArgs,
}

/// Runs `delve play` until the user quits. Everything that can fail on
/// input is checked before the terminal enters raw mode, so a bad level or
/// an existing record file is one line on a terminal left as it was.
pub fn play(args: &PlayArgs) -> Result<(), CliError> {
    let start = Start {
        level: load_level(args.level.as_ref())?,
        seed: args.seed,
        settings: args.world.settings(&args.search),
        spawns: args.spawn.spawns(),
    };
    let mut world = start.world().map_err(|e| CliError::Usage(e.to_string()))?;
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "delve play needs a terminal on stdout (try `delve sim` for a headless run)".into(),
        ));
    }
    let mut feed = feed::live(args.record.as_deref(), &start, args.force)?;
    let played = ui::play(&mut world, feed.as_mut(), Palette::detect(), 1.0);
    // However the session ended, what was played is kept.
    let finished = feed.finish(&world);
    played?;
    Ok(finished?)
}
