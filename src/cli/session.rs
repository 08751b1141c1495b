//! The options every session shares, live or headless: the level, the
//! seed, extra creatures, the search and repath settings, and recording.

use super::{CliError, SearchArgs, load_level};
use crate::level::Level;
use crate::replay::feed::{self, Feed};
use crate::replay::{Spawns, Start};
use crate::sim::{RepathPolicy, Rules, Settings, World};
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
    /// Catches the player can take before the session is lost (default: the level's `lives:`, else 3)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=99))]
    pub lives: Option<u32>,
    /// Record the session to FILE, a replay that `delve replay FILE` plays and `--verify` checks
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Overwrite the --record file if it exists
    #[arg(long, requires = "record")]
    pub force: bool,
}

impl SessionArgs {
    /// How a game starts (the level's goal and lives, `--lives` over
    /// them), and its world before the first tick.
    pub fn start(&self) -> Result<(Start, World), CliError> {
        self.start_with(true)
    }

    /// How the session starts, a game or (`game` false) a sandbox without
    /// goal or limit of lives, and its world before the first tick.
    pub fn start_with(&self, game: bool) -> Result<(Start, World), CliError> {
        self.start_game_on(load_level(self.level.as_ref())?, game)
    }

    /// How a game on `level` starts (the campaign's levels are not
    /// files), with these options; and its world.
    pub fn start_on(&self, level: Level) -> Result<(Start, World), CliError> {
        self.start_game_on(level, true)
    }

    fn start_game_on(&self, level: Level, game: bool) -> Result<(Start, World), CliError> {
        let rules = if game {
            let rules = Rules::game(&level);
            Rules { lives: self.lives.or(rules.lives), ..rules }
        } else {
            Rules::SANDBOX
        };
        let start = Start {
            level,
            seed: self.seed,
            settings: self.world.settings(&self.search),
            spawns: self.spawn.spawns(),
            rules,
        };
        let world = start.world().map_err(|e| CliError::Usage(e.to_string()))?;
        Ok((start, world))
    }

    /// The session's feed: recorded when `--record` was given.
    pub fn feed(&self, start: &Start) -> Result<Box<dyn Feed>, CliError> {
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
            ..Settings::default()
        }
    }
}
