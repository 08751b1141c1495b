//! `delve play`: the game in the terminal.

use super::{CliError, SearchArgs, SpawnArgs, WorldArgs, load_level};
use crate::sim::World;
use crate::ui::feed::{self, LiveFeed};
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
    #[command(flatten)]
    pub spawn: SpawnArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub world: WorldArgs,
}

/// Runs `delve play` until the user quits. Everything that can fail on
/// input is checked before the terminal enters raw mode, so a bad level is
/// one line on a terminal left as it was.
pub fn play(args: &PlayArgs) -> Result<(), CliError> {
    let level = load_level(args.level.as_ref())?;
    let settings = args.world.settings(&args.search);
    let mut world = World::new(&level, args.seed, settings).map_err(|e| CliError::Usage(e.to_string()))?;
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "delve play needs a terminal on stdout (try `delve sim` for a headless run)".into(),
        ));
    }
    let mut live = LiveFeed;
    for command in args.spawn.commands() {
        // Through the feed, so a recording starts with them at tick 0.
        feed::apply(&mut world, &mut live, command)?;
    }
    Ok(ui::play(&mut world, &mut live, Palette::detect())?)
}
