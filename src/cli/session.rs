//! The options every session shares, live or headless: the level, the
//! seed, extra creatures, the search and repath settings, and recording.

use super::{CliError, SearchArgs, load_level};
use crate::replay::feed::{self, Feed};
use crate::replay::{Recorder, Spawns, Start};
use crate::signals;
use crate::sim::{Avoidance, RepathPolicy, Settings, World};
use std::path::PathBuf;

/// Options of `delve play` and `delve sim`.
#[derive(clap::Args, Clone, Debug)]
pub struct SessionArgs {
    /// Level file: a delve level or a Moving AI map (default: the embedded level)
    pub level: Option<PathBuf>,
    /// Session seed: the same seed, level and commands give the same session
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub spawn: SpawnArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub world: WorldArgs,
    /// Record the session to FILE, a replay that `delve replay FILE` plays and `--verify` checks
    /// (a file: `-` is refused, not standard output)
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Overwrite the --record file if it is a regular file, and record even
    /// if another recording to it is unfinished
    #[arg(long, requires = "record")]
    pub force: bool,
}

impl SessionArgs {
    /// How the session starts, and its world before the first tick. A
    /// `--record` target that cannot be written is refused here, before
    /// anything else.
    pub fn start(&self) -> Result<(Start, World), CliError> {
        if let Some(target) = &self.record {
            Recorder::check(target, self.force)?;
        }
        let start = Start {
            level: load_level(self.level.as_ref())?,
            seed: self.seed,
            settings: self.world.settings(&self.search),
            spawns: self.spawn.spawns(),
        };
        let world = start.world().map_err(|e| CliError::Usage(e.to_string()))?;
        Ok((start, world))
    }

    /// The session's feed: recorded when `--record` was given. A recording
    /// that reaches the file-size limit then fails with a message instead
    /// of ending the process with its file cut mid-line.
    pub fn feed(&self, start: &Start) -> Result<Box<dyn Feed>, CliError> {
        if self.record.is_some() {
            signals::survive_file_size_limit()?;
        }
        Ok(feed::live(self.record.as_deref(), start, self.force)?)
    }
}

/// Extra creatures spawned on random free cells before the first tick.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SpawnArgs {
    /// Extra monsters
    #[arg(long, default_value_t = 0)]
    pub monsters: u32,
    /// Extra wanderers
    #[arg(long, default_value_t = 0)]
    pub wanderers: u32,
    /// Extra fleeing creatures
    #[arg(long, default_value_t = 0)]
    pub fleeing: u32,
    /// Extra boids
    #[arg(long, default_value_t = 0)]
    pub boids: u32,
}

impl SpawnArgs {
    /// The spawn counts, as a session's start (and a replay header) holds them.
    pub fn spawns(&self) -> Spawns {
        Spawns { monster: self.monsters, wanderer: self.wanderers, fleeing: self.fleeing, boid: self.boids }
    }
}

/// How monsters repath and string-pull.
#[derive(clap::Args, Clone, Debug)]
pub struct WorldArgs {
    /// Repath policy: every-tick|timer|threshold|timer+threshold
    #[arg(long, default_value_t = Settings::DEFAULT.repath)]
    pub repath: RepathPolicy,
    /// N of the timer policies, in ticks
    #[arg(long, default_value_t = Settings::DEFAULT.repath_ticks, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::sim::MAX_REPATH_TICKS)))]
    pub repath_ticks: u32,
    /// K of the threshold policies, in cells
    #[arg(long, default_value_t = Settings::DEFAULT.repath_cells, value_parser = parse_cells)]
    pub repath_cells: f32,
    /// Node expansions allowed per tick across all monsters
    #[arg(long, default_value_t = Settings::DEFAULT.budget, value_parser = clap::value_parser!(u32).range(1..))]
    pub budget: u32,
    /// Follow raw cell paths instead of string-pulled ones
    #[arg(long)]
    pub no_smoothing: bool,
    /// How monsters and wanderers keep apart: separation (a steering
    /// force) or orca (reciprocal velocity obstacles)
    #[arg(long = "avoid", value_name = "AVOID", default_value_t = Settings::DEFAULT.avoidance)]
    pub avoidance: Avoidance,
}

/// A distance in cells: finite, so that a replay header can hold it (JSON
/// has no infinity or NaN), and not negative.
fn parse_cells(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(k) if k.is_finite() && k >= 0.0 => Ok(k),
        _ => Err(format!("'{s}' is not a number of cells ≥ 0")),
    }
}

impl WorldArgs {
    pub fn settings(&self, search: &SearchArgs) -> Settings {
        Settings {
            search: search.settings(),
            smoothing: !self.no_smoothing,
            repath: self.repath,
            repath_ticks: self.repath_ticks,
            repath_cells: self.repath_cells,
            budget: self.budget,
            avoidance: self.avoidance,
            ..Settings::default()
        }
    }
}
