//! `delve sim`: the world run headless with a scripted player, summarised,
//! and recorded on request; over many seeds, the win rates (`seeds`).

mod compare;
mod seeds;

use super::names::names;
use super::progress::Progress;
use super::{CliError, SessionArgs};
use crate::r#gen::Recipe;
use crate::level::Level;
use crate::named::named_enum;
use crate::replay::{MAX_TICK, Start, feed};
use crate::signals::Signals;
use crate::sim::{Bot, BotKind, Kind, RepathReason, World, clock, hex};
use serde_json::json;
use std::io::Write;
use std::time::Instant;

/// Arguments of `delve sim`.
#[derive(clap::Args, Clone, Debug)]
pub struct SimArgs {
    /// The session: level, seed, spawns, settings, recording.
    #[command(flatten)]
    pub session: SessionArgs,
    /// Ticks to simulate (20 per second of game time), at most 100000000
    /// (57 days of game time, the most a replay holds)
    #[arg(long, default_value_t = 2000, value_parser = parse_ticks, allow_hyphen_values = true)]
    pub ticks: u64,
    /// Print one JSON object instead of the summary
    #[arg(long)]
    pub json: bool,
    /// game: the level's goal and lives, as `play` has them; sandbox: no goal, no limit of lives
    /// (default: sandbox, unless --lives, --bot goal or --bot evade is given)
    #[arg(long, value_name = "RULES", value_parser = names(RulesMode::ALL))]
    pub rules: Option<RulesMode>,
    /// The scripted player
    #[arg(long, default_value_t = BotKind::Random, value_parser = names(BotKind::ALL))]
    pub bot: BotKind,
    /// Play once per seed, A..B (both included) or N, and print a row per
    /// seed and the win rate (--seed is then ignored; with --gen, each
    /// seed plays the level generated from it)
    #[arg(long, value_name = "A..B", value_parser = seeds::parse_seeds, conflicts_with = "record")]
    pub seeds: Option<seeds::Seeds>,
    /// Play every campaign level and the generated depths 1, 3, 5 and 10
    /// (style mixed, a level per seed) by the game's rules with the
    /// beeline bot (goal) and the evading bot (evade), once per seed of
    /// --seeds (default 1..20), and print their win rates (--bot is then
    /// ignored)
    #[arg(long, conflicts_with_all = ["record", "level"])]
    pub campaign: bool,
}

named_enum! {
    /// The rules `delve sim` plays by.
    RulesMode, "rules" {
        /// The level's goal and lives.
        Game => "game",
        /// No goal and no limit of lives: runs as long as asked.
        Sandbox => "sandbox",
    }
}

impl SimArgs {
    /// Whether the run is a game: `--rules game`, or else `--lives` or
    /// `--bot goal` given.
    pub fn game(&self) -> bool {
        match self.rules {
            Some(mode) => mode == RulesMode::Game,
            None => self.session.lives.is_some() || matches!(self.bot, BotKind::Goal | BotKind::Evade),
        }
    }
}

/// A number of ticks a session may run: no more than a replay holds, with
/// or without `--record`, so that every run can be recorded.
fn parse_ticks(s: &str) -> Result<u64, String> {
    let rule =
        format!("'{s}' is not a number of ticks from 0 to {MAX_TICK} (57 days of game time, the most a replay holds)");
    match crate::number::whole(s) {
        Some(n) if (0..=i128::from(MAX_TICK)).contains(&n) => Ok(n as u64),
        Some(_) => Err(rule),
        None => Err(format!("{rule}: write {}", crate::number::WHOLE_SYNTAX)),
    }
}

/// Runs `delve sim`, writing its summary to `out` and, with `--record`, the
/// session to a replay file. A recorded run stopped by a signal keeps its
/// recording as an interrupted one ([`CliError::Interrupted`]).
pub fn sim(args: &SimArgs, out: &mut impl Write) -> Result<(), CliError> {
    let session = &args.session;
    if args.rules == Some(RulesMode::Sandbox) && session.lives.is_some() {
        return Err(CliError::Usage("--lives needs --rules game (a sandbox has no limit of lives)".into()));
    }
    session.threads.install()?;
    let variants = session.variants()?;
    if let (true, Some(flag)) = (
        variants.len() > 1,
        [(args.campaign, "--campaign"), (args.seeds.is_some(), "--seeds")].iter().find(|(on, _)| *on).map(|(_, f)| f),
    ) {
        return Err(CliError::Usage(format!(
            "{flag} plays one setting of each: a list of settings is compared on one seed, without {flag}"
        )));
    }
    if args.campaign {
        if args.rules == Some(RulesMode::Sandbox) {
            return Err(CliError::Usage("--campaign plays by the game's rules (not --rules sandbox)".into()));
        }
        return seeds::campaign(args, args.seeds.unwrap_or(seeds::CAMPAIGN_SEEDS), out);
    }
    if let Some(seeds) = args.seeds {
        return seeds::seeds(args, seeds, out);
    }
    if variants.len() > 1 {
        return compare::compare(args, &variants, out);
    }
    let (level, generator) = session.level_to_play()?;
    let progress = Progress::on_stderr("ticks", args.ticks);
    let (start, world, summary) = run(args, session, (level, generator), |done| progress.set(done))?;
    drop(progress);
    let name = session.level_shown(&start.level);
    let written = if args.json { writeln!(out, "{}", summary.json()) } else { summary.write(out, &name, &world) };
    written.map_err(CliError::Output)
}

/// Runs one session of `delve sim` on `level` (and its generator's
/// recipe) with `session`'s options (one value each), recording it on
/// request, and sums it up; `on_tick` is called with each tick done.
fn run(
    args: &SimArgs,
    session: &SessionArgs,
    (level, generator): (Level, Option<Recipe>),
    mut on_tick: impl FnMut(u64),
) -> Result<(Start, World, Summary), CliError> {
    let (start, mut world) = session.start_with_level(level, generator, args.game())?;
    if args.bot == BotKind::Goal && start.level.goal.is_none() {
        let file = session.level_shown(&start.level);
        return Err(CliError::Usage(format!(
            "{file}: --bot goal walks to the level's G, and this level has none (try --bot random)"
        )));
    }
    let signals = session.record.as_ref().map(|_| Signals::catch()).transpose()?;
    let mut feed = session.feed(&start)?;
    let mut bot = Bot::of(args.bot, session.seed);
    let began = Instant::now();
    for done in 1..=args.ticks {
        if let Some(signal) = signals.as_ref().and_then(Signals::caught) {
            return Err(CliError::Interrupted { signal, kept: feed.interrupt()? });
        }
        // A won or lost session stops where it ended.
        if world.outcome().is_over() {
            break;
        }
        feed::bot_tick(&mut world, feed.as_mut(), &mut bot)?;
        on_tick(done);
    }
    let seconds = began.elapsed().as_secs_f64();
    let cpu = Cpu::read();
    feed.finish(&world)?;
    let summary = Summary::of(&world, seconds, cpu);
    Ok((start, world, summary))
}

/// CPU seconds at the end of a run: the process's, and each thread's
/// (the one that ran the ticks, then the crowd's pool's), `None` where the
/// platform has no CPU clock.
struct Cpu {
    process: Option<f64>,
    threads: Vec<Option<f64>>,
}

impl Cpu {
    fn read() -> Cpu {
        let mut threads = vec![clock::thread_cpu()];
        threads.extend(clock::pool_cpu());
        Cpu { process: clock::process_cpu(), threads }
    }
}

/// What a headless run prints.
struct Summary {
    ticks: u64,
    outcome: crate::sim::Outcome,
    ended_at: Option<u64>,
    lives: Option<u32>,
    hash: u64,
    total: crate::sim::Counters,
    counts: [usize; 4],
    ticks_per_sec: f64,
    avoid: crate::sim::Avoidance,
    /// The flocking weights, as `--json` writes them.
    flock: serde_json::Value,
    seconds: f64,
    cpu: Cpu,
}

/// The flocking weights as `--json` writes them: the three numbers, and
/// the preset they are, if one (`null` when not).
fn flock_json(w: &crate::sim::FlockWeights) -> serde_json::Value {
    let preset = crate::sim::FlockPreset::of(*w).map(|p| p.name());
    // As typed (0.3, not the f32's 0.30000001192092896 widened to f64).
    let typed = |x: f32| x.to_string().parse::<f64>().unwrap_or(f64::NAN);
    let (s, a, c) = (typed(w.separation), typed(w.alignment), typed(w.cohesion));
    json!({"separation": s, "alignment": a, "cohesion": c, "preset": preset})
}

impl Summary {
    fn of(world: &World, seconds: f64, cpu: Cpu) -> Summary {
        Summary {
            ticks: world.ticks(),
            outcome: world.outcome(),
            ended_at: world.ended_at(),
            lives: world.lives(),
            hash: world.hash(),
            total: world.stats().total,
            counts: world.counts(),
            ticks_per_sec: if seconds > 0.0 { world.ticks() as f64 / seconds } else { 0.0 },
            avoid: world.settings().avoidance,
            flock: flock_json(&world.settings().flock),
            seconds,
            cpu,
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
            "outcome": self.outcome.name(),
            "ended_at_tick": self.ended_at,
            "lives_left": self.lives,
            "searches": t.searches,
            "found": t.found,
            "expanded": t.expanded,
            "cells_updated": t.cells_updated,
            "rekeyed": t.rekeyed,
            "work": t.work(),
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
            "avoid": self.avoid.name(),
            "flock": self.flock,
            "overlaps": t.overlaps,
            "min_time_to_collision": t.min_time_to_collision,
            "orca_ms_per_tick": if self.ticks == 0 { 0.0 } else { t.orca_micros / 1000.0 / self.ticks as f64 },
            "threads": self.cpu.threads.len() - 1,
            "wall_ms_per_tick": t.wall_ms_per_tick(),
            "cpu_ms_per_tick": t.cpu_ms_per_tick(),
            "wall_s": self.seconds,
            "process_cpu_s": self.cpu.process,
            "thread_cpu_s": self.cpu.threads,
        })
    }

    fn write(&self, out: &mut impl Write, level: &str, world: &World) -> std::io::Result<()> {
        let t = &self.total;
        let s = world.settings();
        writeln!(out, "{level}: {} ticks, seed {}, hash {}", self.ticks, world.seed(), hex(self.hash))?;
        let smoothing = if s.smoothing { "on" } else { "off" };
        writeln!(out, "settings: {}, repath {}, smoothing {smoothing}", s.search, s.repath)?;
        if s.flock != crate::sim::FLOCK_WEIGHTS {
            writeln!(out, "flocking weights: {}", crate::sim::describe_flock(&s.flock))?;
        }
        let agents: Vec<String> = Kind::ALL.iter().map(|&k| format!("{} {}", self.counts[k as usize], k)).collect();
        writeln!(out, "creatures: {}", agents.join(", "))?;
        let lives = self.lives.map_or("unlimited".to_string(), |n| n.to_string());
        match self.ended_at {
            Some(t) => writeln!(out, "outcome: {} at tick {t}, lives left {lives}", self.outcome.name())?,
            None => writeln!(out, "outcome: running, lives left {lives}")?,
        }
        writeln!(
            out,
            "searches {} ({} found), expanded {}, cells updated {}, rekeyed {}, stale pops {}, max open {}",
            t.searches, t.found, t.expanded, t.cells_updated, t.rekeyed, t.stale_pops, t.max_open
        )?;
        let reasons: Vec<String> = RepathReason::ALL.iter().map(|&r| format!("{} {}", r, t.repaths(r))).collect();
        writeln!(out, "repaths: {}", reasons.join(", "))?;
        writeln!(out, "budget waits {} (longest {} ticks), catches {}", t.budget_waits, t.max_wait, t.catches)?;
        let ttc = t.min_time_to_collision.map_or("none".to_string(), |x| format!("{x:.2} s"));
        writeln!(out, "avoidance {}: overlaps {}, smallest time to collision {ttc}", self.avoid, t.overlaps)?;
        writeln!(
            out,
            "{:.0} ticks/s, {:.1} µs/search, path {:.1} steps -> {:.1} waypoints",
            self.ticks_per_sec,
            t.micros_per_search(),
            t.mean_steps(),
            t.mean_waypoints()
        )?;
        let threads: Vec<String> =
            self.cpu.threads.iter().map(|c| c.map_or("?".to_string(), |s| format!("{s:.2}"))).collect();
        writeln!(
            out,
            "time: {:.0} ticks/s, {:.3} ms wall and {:.3} ms cpu a tick; cpu s by thread (ticking, then {} in the pool): {}",
            self.ticks_per_sec,
            t.wall_ms_per_tick(),
            t.cpu_ms_per_tick(),
            self.cpu.threads.len() - 1,
            threads.join(" ")
        )
    }
}
