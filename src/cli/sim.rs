//! `delve sim`: the world run headless with a scripted player, summarised,
//! and recorded on request.

use super::{CliError, SearchArgs, load_level};
use crate::level::DEFAULT_LEVEL_NAME;
use crate::replay::feed;
use crate::replay::{Spawns, Start};
use crate::sim::{Bot, Kind, RepathPolicy, RepathReason, Settings, World, hex};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `delve sim`.
#[derive(clap::Args, Clone, Debug)]
pub struct SimArgs {
    /// Level file (default: the embedded level)
    pub level: Option<PathBuf>,
    /// Session seed: the same seed and level give the same run
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ticks to simulate (20 per second of game time)
    #[arg(long, default_value_t = 2000)]
    pub ticks: u64,
    #[command(flatten)]
    pub spawn: SpawnArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub world: WorldArgs,
    /// Print one JSON object instead of the summary
    #[arg(long)]
    pub json: bool,
    /// Record the session to FILE, a replay that `delve replay FILE --verify` checks
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Overwrite the --record file if it exists
    #[arg(long, requires = "record")]
    pub force: bool,
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
    #[arg(long, default_value = "timer+threshold")]
    pub repath: RepathPolicy,
    /// N of the timer policies, in ticks
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub repath_ticks: u32,
    /// K of the threshold policies, in cells
    #[arg(long, default_value_t = 3.0, value_parser = parse_cells)]
    pub repath_cells: f32,
    /// Node expansions allowed per tick across all monsters
    #[arg(long, default_value_t = crate::sim::DEFAULT_BUDGET, value_parser = clap::value_parser!(u32).range(1..))]
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

/// Runs `delve sim`, writing its summary to `out` and, with `--record`, the
/// session to a replay file.
pub fn sim(args: &SimArgs, out: &mut impl Write) -> Result<(), CliError> {
    let start = Start {
        level: load_level(args.level.as_ref())?,
        seed: args.seed,
        settings: args.world.settings(&args.search),
        spawns: args.spawn.spawns(),
    };
    let mut world = start.world().map_err(|e| CliError::Usage(e.to_string()))?;
    let mut feed = feed::live(args.record.as_deref(), &start, args.force)?;
    let mut bot = Bot::new(args.seed);
    let began = Instant::now();
    for _ in 0..args.ticks {
        if let Some(c) = bot.command(&world) {
            feed::apply(&mut world, feed.as_mut(), c)?;
        }
        feed::tick(&mut world, feed.as_mut())?;
    }
    let seconds = began.elapsed().as_secs_f64();
    feed.finish(&world)?;
    let summary = Summary::of(&world, seconds);
    let name = args.level.as_ref().map_or(DEFAULT_LEVEL_NAME.to_string(), |p| p.display().to_string());
    let written = if args.json { writeln!(out, "{}", summary.json()) } else { summary.write(out, &name, &world) };
    written.map_err(|e| CliError::Usage(format!("cannot write the summary: {e}")))
}

/// What a headless run prints.
struct Summary {
    ticks: u64,
    hash: u64,
    total: crate::sim::Counters,
    counts: [usize; 4],
    ticks_per_sec: f64,
}

impl Summary {
    fn of(world: &World, seconds: f64) -> Summary {
        Summary {
            ticks: world.ticks(),
            hash: world.hash(),
            total: world.stats().total,
            counts: world.counts(),
            ticks_per_sec: if seconds > 0.0 { world.ticks() as f64 / seconds } else { 0.0 },
        }
    }

    fn json(&self) -> serde_json::Value {
        let t = &self.total;
        let by_reason: serde_json::Map<_, _> =
            RepathReason::ALL.iter().map(|&r| (r.name().to_string(), json!(t.repaths(r)))).collect();
        let agents: serde_json::Map<_, _> =
            Kind::ALL.iter().map(|&k| (k.name().to_string(), json!(self.counts[k as usize]))).collect();
        json!({
            "ticks": self.ticks,
            "hash": hex(self.hash),
            "searches": t.searches,
            "found": t.found,
            "expanded": t.expanded,
            "stale_pops": t.stale_pops,
            "max_open": t.max_open,
            "repaths": t.total_repaths(),
            "repaths_by_reason": by_reason,
            "budget_waits": t.budget_waits,
            "max_wait_ticks": t.max_wait,
            "catches": t.catches,
            "ticks_per_sec": self.ticks_per_sec,
            "micros_per_search": t.micros_per_search(),
            "search_ms_per_tick": if self.ticks == 0 { 0.0 } else { t.micros / 1000.0 / self.ticks as f64 },
            "mean_path_steps": t.mean_steps(),
            "mean_waypoints": t.mean_waypoints(),
            "agents": agents,
        })
    }

    fn write(&self, out: &mut impl Write, level: &str, world: &World) -> std::io::Result<()> {
        let t = &self.total;
        let s = world.settings();
        writeln!(out, "{level}: {} ticks, seed {}, hash {}", self.ticks, world.seed(), hex(self.hash))?;
        writeln!(
            out,
            "settings: {} / {} / {} ties / {} neighbours, repath {}, smoothing {}",
            s.search.algorithm,
            s.search.heuristic,
            s.search.tie,
            s.search.neighbors,
            s.repath,
            if s.smoothing { "on" } else { "off" }
        )?;
        let agents: Vec<String> = Kind::ALL.iter().map(|&k| format!("{} {}", self.counts[k as usize], k)).collect();
        writeln!(out, "creatures: {}", agents.join(", "))?;
        writeln!(
            out,
            "searches {} ({} found), expanded {}, stale pops {}, max open {}",
            t.searches, t.found, t.expanded, t.stale_pops, t.max_open
        )?;
        let reasons: Vec<String> = RepathReason::ALL.iter().map(|&r| format!("{} {}", r, t.repaths(r))).collect();
        writeln!(out, "repaths: {}", reasons.join(", "))?;
        writeln!(out, "budget waits {} (longest {} ticks), catches {}", t.budget_waits, t.max_wait, t.catches)?;
        writeln!(
            out,
            "{:.0} ticks/s, {:.1} µs/search, path {:.1} steps -> {:.1} waypoints",
            self.ticks_per_sec,
            t.micros_per_search(),
            t.mean_steps(),
            t.mean_waypoints()
        )
    }
}
