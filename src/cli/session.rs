//! The options every session shares, live or headless: the level, the
//! seed, extra creatures, the search and repath settings, and recording.

use super::names::names;
use super::options::whole_number;
use super::{CliError, GenLevelArgs, SearchArgs, ThreadsArgs, level_or_generated};
use crate::r#gen::Recipe;
use crate::level::{Level, MAX_LIVES};
use crate::replay::feed::{self, Feed};
use crate::replay::{Recorder, Spawns, Start};
use crate::signals;
use crate::sim::{Aim, Avoidance, Lost, MAX_CREATURES, Packs, RepathPolicy, Rules, Settings, World};
use std::path::PathBuf;

/// Options of `delve play` and `delve sim`.
#[derive(clap::Args, Clone, Debug)]
pub struct SessionArgs {
    /// Level: a file (a delve level or a Moving AI map), a shipped level's name (maze, cave, ...) or
    /// - for standard input (default: the embedded level)
    pub level: Option<PathBuf>,
    /// A generated level instead of a file.
    #[command(flatten)]
    pub generated: GenLevelArgs,
    /// Session seed, and the generator's with --gen: the same seed, level and commands give the
    /// same session
    #[arg(long, default_value_t = 1, value_parser = whole_number::<u64>(0, u64::MAX), allow_hyphen_values = true)]
    pub seed: u64,
    /// Creatures spawned beyond the level's markers.
    #[command(flatten)]
    pub spawn: SpawnArgs,
    /// How the search runs.
    #[command(flatten)]
    pub search: SearchArgs,
    /// How monsters plan and repath.
    #[command(flatten)]
    pub world: WorldArgs,
    /// How many threads the crowd runs on.
    #[command(flatten)]
    pub threads: ThreadsArgs,
    /// Catches the player can take before the session is lost (default: the level's `lives:`, else 3)
    #[arg(long, value_name = "N", value_parser = whole_number::<u32>(1, MAX_LIVES.into()), allow_hyphen_values = true)]
    pub lives: Option<u32>,
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
    /// How the session starts, a game or (`game` false) a sandbox without
    /// goal or limit of lives, and its world before the first tick.
    pub fn start_with(&self, game: bool) -> Result<(Start, World), CliError> {
        self.check_record()?;
        let (level, generator) = self.level_to_play()?;
        self.start_game_on(level, generator, game, None)
    }

    /// How a session on `level` (loaded once for several sessions: a
    /// level from standard input can be read only once) starts, a game or
    /// a sandbox as for [`start_with`](SessionArgs::start_with), and its
    /// world.
    pub fn start_with_level(
        &self,
        level: Level,
        generator: Option<Recipe>,
        game: bool,
    ) -> Result<(Start, World), CliError> {
        self.check_record()?;
        self.start_game_on(level, generator, game, None)
    }

    /// The level these options name: the file, the generated level of
    /// `--gen` (with its recipe), or the embedded level.
    pub fn level_to_play(&self) -> Result<(Level, Option<Recipe>), CliError> {
        level_or_generated(self.level.as_ref(), &self.generated, self.seed)
    }

    /// How messages and summaries name the level played: its file, else
    /// the generated or the embedded level's name.
    pub fn level_shown(&self, level: &Level) -> String {
        self.level.as_deref().map_or_else(|| level.name.clone(), |p| crate::shown::shown_path(&super::input_name(p)))
    }

    /// How a game on `level` starts (a campaign's levels and a descent's
    /// depths are not files; `generator` is the recipe of a generated
    /// one), with these options, and `lives` carried over from the level
    /// before when there was one, no more than the level's `lives:` (else
    /// `--lives`, the level's `lives:`, 3);
    /// and its world. The `--record` target is not checked here: a run's
    /// later sessions record beside it
    /// ([`check_record`](SessionArgs::check_record) checks it once).
    pub fn start_on(
        &self,
        level: Level,
        generator: Option<Recipe>,
        lives: Option<u32>,
    ) -> Result<(Start, World), CliError> {
        self.start_game_on(level, generator, true, lives)
    }

    /// Refuses what a session cannot run before it needs a terminal: a
    /// `--record` target that cannot be written.
    pub fn check_record(&self) -> Result<(), CliError> {
        match &self.record {
            Some(target) => Ok(Recorder::check(target, self.force)?),
            None => Ok(()),
        }
    }

    fn start_game_on(
        &self,
        level: Level,
        generator: Option<Recipe>,
        game: bool,
        lives: Option<u32>,
    ) -> Result<(Start, World), CliError> {
        self.one_setting_each()?;
        let rules = if game {
            let rules = Rules::game(&level);
            // A level's `lives:` is the most a run brings into it: its win
            // rates are measured with them (docs/world.md), and more
            // carried in would make it easier than it was tuned to be.
            let carried = lives.map(|l| level.lives.map_or(l, |cap| l.min(cap)));
            Rules { lives: carried.or(self.lives).or(rules.lives), ..rules }
        } else {
            Rules::SANDBOX
        };
        let file = self.level.as_deref().map_or_else(|| PathBuf::from(&level.name), super::input_name);
        let settings = self.world.settings(&self.search);
        // The corner graph beyond its cap is refused here, in one line.
        let refused = crate::nav::Navigator::check(settings.planner(), &level.grid);
        refused.map_err(|source| CliError::Plan { file: file.clone(), source })?;
        let start = Start { level, seed: self.seed, settings, spawns: self.spawn.spawns(), rules, generator };
        let world = start.world().map_err(|source| CliError::World { file, source })?;
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
/// Each count is at most the world's cap; so are all of them together with
/// the level's markers, which [`Start::world`] checks.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct SpawnArgs {
    /// Extra monsters
    #[arg(long, default_value_t = 0, value_parser = parse_count, allow_hyphen_values = true)]
    pub monsters: u32,
    /// Extra wanderers
    #[arg(long, default_value_t = 0, value_parser = parse_count, allow_hyphen_values = true)]
    pub wanderers: u32,
    /// Extra fleeing creatures
    #[arg(long, default_value_t = 0, value_parser = parse_count, allow_hyphen_values = true)]
    pub fleeing: u32,
    /// Extra boids
    #[arg(long, default_value_t = 0, value_parser = parse_count, allow_hyphen_values = true)]
    pub boids: u32,
}

/// A number of creatures, from 0 to [`MAX_CREATURES`]: a larger one is
/// refused, not cut; a negative one is told the rule, not taken for a flag.
fn parse_count(s: &str) -> Result<u32, String> {
    match crate::number::whole(s) {
        Some(n) if n < 0 => Err("must be ≥ 0".to_string()),
        Some(n) if n <= MAX_CREATURES as i128 => Ok(n as u32),
        Some(_) => Err(format!("'{s}' is above the cap of {MAX_CREATURES} creatures")),
        None => Err(format!(
            "'{s}' is not a number of creatures from 0 to {MAX_CREATURES} ({})",
            crate::number::WHOLE_SYNTAX
        )),
    }
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
    /// Repath policy (several, comma-separated, only for `delve sim`, which compares them)
    #[arg(long, value_delimiter = ',', default_values_t = [Settings::DEFAULT.repath], value_parser = names(RepathPolicy::ALL))]
    pub repath: Vec<RepathPolicy>,
    /// N of the timer policies, in ticks
    #[arg(long, default_value_t = Settings::DEFAULT.repath_ticks, allow_hyphen_values = true,
          value_parser = whole_number::<u32>(1, u64::from(crate::sim::MAX_REPATH_TICKS)))]
    pub repath_ticks: u32,
    /// K of the threshold policies, in cells
    #[arg(long, default_value_t = Settings::DEFAULT.repath_cells, value_parser = parse_cells, allow_hyphen_values = true)]
    pub repath_cells: f32,
    /// Node expansions allowed per tick across all monsters
    #[arg(long, default_value_t = Settings::DEFAULT.budget, value_parser = whole_number::<u32>(1, u32::MAX.into()), allow_hyphen_values = true)]
    pub budget: u32,
    /// Follow raw cell paths instead of string-pulled ones
    #[arg(long)]
    pub no_smoothing: bool,
    /// How monsters and wanderers keep apart: separation (a steering
    /// force) or orca (reciprocal velocity obstacles)
    #[arg(long = "avoid", value_name = "AVOID", value_delimiter = ',', default_values_t = [Settings::DEFAULT.avoidance], value_parser = names(Avoidance::ALL))]
    pub avoidance: Vec<Avoidance>,
    /// Where hunters aim while they see the player move: player (its cell),
    /// heading (cut it off along its heading) or goal (cut it off on its
    /// way to G)
    #[arg(long, value_name = "AIM", value_delimiter = ',', default_values_t = [Settings::DEFAULT.aim], value_parser = names(Aim::ALL))]
    pub aim: Vec<Aim>,
    /// Whether hunters of a pack plan apart: together or split (a penalty
    /// on the cells a packmate's path uses)
    #[arg(long, value_name = "PACKS", value_delimiter = ',', default_values_t = [Settings::DEFAULT.packs], value_parser = names(Packs::ALL))]
    pub packs: Vec<Packs>,
    /// What a monster that lost the player does: linger (near the last
    /// cell it perceived it in) or sweep (the unseen cells near it)
    #[arg(long, value_name = "LOST", value_delimiter = ',', default_values_t = [Settings::DEFAULT.lost], value_parser = names(Lost::ALL))]
    pub lost: Vec<Lost>,
    /// How much boids weigh separation, alignment and cohesion: a preset
    /// (default, no-cohesion, separation-only, strong-alignment) or three
    /// weights S,A,C from 0 to 100 (the default is 6,1,0.3)
    #[arg(long, value_name = "PRESET|S,A,C", default_value = "default", value_parser = crate::sim::parse_flock, allow_hyphen_values = true)]
    pub flock: crate::sim::FlockWeights,
}

/// A distance in cells: finite, so that a replay header can hold it (JSON
/// has no infinity or NaN), and not negative.
fn parse_cells(s: &str) -> Result<f32, String> {
    super::options::decimal(s, 0.0..=f64::from(f32::MAX), "a number of cells ≥ 0").map(|k| k as f32)
}

/// The first of a setting's values: the one a session runs with (a
/// list is refused before, see [`SessionArgs::one_setting_each`]).
fn first<T: Copy>(values: &[T], default: T) -> T {
    values.first().copied().unwrap_or(default)
}

impl WorldArgs {
    /// The world settings these flags and `search`'s ask for (the first
    /// of each list).
    pub fn settings(&self, search: &SearchArgs) -> Settings {
        let d = Settings::DEFAULT;
        Settings {
            search: search.settings(),
            smoothing: !self.no_smoothing,
            repath: first(&self.repath, d.repath),
            repath_ticks: self.repath_ticks,
            repath_cells: self.repath_cells,
            budget: self.budget,
            avoidance: first(&self.avoidance, d.avoidance),
            aim: first(&self.aim, d.aim),
            packs: first(&self.packs, d.packs),
            lost: first(&self.lost, d.lost),
            flock: self.flock,
            ..Settings::default()
        }
        .with_planner(search.planner())
    }
}

/// One combination of the settings a `delve sim` compares: the session's
/// options with one value each, and the values of the flags given a list,
/// by flag (`("repath", "incremental")`).
pub struct Variant {
    pub session: SessionArgs,
    pub axes: Vec<(&'static str, String)>,
}

/// Most combinations one comparison runs: more is a typo.
pub const MAX_VARIANTS: usize = 64;

impl SessionArgs {
    /// Every setting flag that takes a list, by name, with its values'
    /// names, in the order a comparison nests them.
    fn settings_given(&self) -> [(&'static str, Vec<String>); 6] {
        fn named<T: ToString>(flag: &'static str, values: &[T]) -> (&'static str, Vec<String>) {
            (flag, values.iter().map(ToString::to_string).collect())
        }
        let w = &self.world;
        [
            named("algo", &self.search.algorithms),
            named("repath", &w.repath),
            named("avoid", &w.avoidance),
            named("aim", &w.aim),
            named("packs", &w.packs),
            named("lost", &w.lost),
        ]
    }

    /// Refuses a list of values for a command that runs one session.
    pub fn one_setting_each(&self) -> Result<(), CliError> {
        self.search.one_algorithm()?;
        match self.settings_given().into_iter().find(|(_, values)| values.len() > 1) {
            None => Ok(()),
            Some((flag, _)) => {
                Err(CliError::Usage(format!("--{flag} takes one value here (several only with `delve sim`)")))
            }
        }
    }

    /// Every combination of the values of the flags given a list, the
    /// first flag's values outermost (`--algo`, `--repath`, `--avoid`,
    /// `--aim`, `--packs`, `--lost`), at most [`MAX_VARIANTS`]; one,
    /// with no axes, when no flag has a list.
    pub fn variants(&self) -> Result<Vec<Variant>, CliError> {
        let given = self.settings_given();
        let sizes = given.clone().map(|(_, values)| values.len().max(1));
        let count = sizes.iter().product::<usize>();
        if count > MAX_VARIANTS {
            let lists = given.iter().filter(|(_, v)| v.len() > 1);
            let flags: Vec<String> = lists.map(|(f, v)| format!("--{f} ({})", v.len())).collect();
            return Err(CliError::Usage(format!(
                "{} make {count} combinations, more than the {MAX_VARIANTS} one comparison runs",
                flags.join(" x ")
            )));
        }
        let (search, w) = (&self.search, &self.world);
        let variants = (0..count).map(|n| {
            // The digits of n in the sizes' mixed radix, the last flag's
            // the fastest.
            let mut pick = [0; 6];
            let mut rest = n;
            for (digit, size) in pick.iter_mut().zip(sizes).rev() {
                (*digit, rest) = (rest % size, rest / size);
            }
            let mut one = self.clone();
            one.search.algorithms = search.algorithms.get(pick[0]).copied().into_iter().collect();
            one.world.repath = w.repath.get(pick[1]).copied().into_iter().collect();
            one.world.avoidance = w.avoidance.get(pick[2]).copied().into_iter().collect();
            one.world.aim = w.aim.get(pick[3]).copied().into_iter().collect();
            one.world.packs = w.packs.get(pick[4]).copied().into_iter().collect();
            one.world.lost = w.lost.get(pick[5]).copied().into_iter().collect();
            let axes = given.iter().zip(pick).filter(|((_, values), _)| values.len() > 1);
            let axes = axes.map(|((flag, values), i)| (*flag, values[i].clone())).collect();
            Variant { session: one, axes }
        });
        Ok(variants.collect())
    }
}
