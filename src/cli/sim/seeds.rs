//! `delve sim --seeds A..B` and `delve sim --campaign`: one session per
//! seed, headless, and how many the scripted player won.
//!
//! `--seeds` plays the level (or the default one) once per seed with the
//! given bot and prints a row per seed and the win rate; with `--gen`,
//! each seed plays the level generated from it (as `--campaign` plays
//! its depths). `--campaign`
//! plays every campaign level under the game's rules once per seed with
//! each of the two bots that head for `G`, the beeline (`goal`) and the
//! evading one (`evade`), and generated depths (a level per seed and
//! depth), and prints their win rates side by side: the table of
//! docs/world.md. Sessions run on every core, each on its own
//! world (a session is a function of its start and its bot alone, so the
//! figures do not depend on the order they run in); a bar on stderr shows
//! how many are done.

use super::super::progress::Progress;
use super::{CliError, Cpu, SimArgs, Summary};
use crate::cli::level_or_generated;
use crate::r#gen::{Recipe, Style};
use crate::grid::Cell;
use crate::level::Level;
use crate::replay::Start;
use crate::sim::{Bot, BotKind, Event, Outcome, Rules, World, clock};
use serde_json::json;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The seeds `--seeds` names: from `first` to `last`, both included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeds {
    pub first: u64,
    pub last: u64,
}

/// The seeds `--campaign` plays without `--seeds`: twenty.
pub const CAMPAIGN_SEEDS: Seeds = Seeds { first: 1, last: 20 };

/// Most seeds one run plays: more is a typo (a million sessions).
pub const MAX_SEEDS: u64 = 10_000;

impl Seeds {
    /// How many seeds.
    pub fn count(&self) -> u64 {
        self.last - self.first + 1
    }

    fn iter(&self) -> impl Iterator<Item = u64> {
        self.first..=self.last
    }
}

impl std::fmt::Display for Seeds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.first, self.last)
    }
}

/// Parses `A..B` (the seeds from A to B, both included) or `N` (one seed).
pub fn parse_seeds(s: &str) -> Result<Seeds, String> {
    let number = |t: &str| t.trim().parse::<u64>().map_err(|_| format!("'{t}' is not a seed (a whole number ≥ 0)"));
    let (first, last) = match s.split_once("..") {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(s)?, number(s)?),
    };
    if first > last {
        return Err(format!("'{s}' runs backwards: the first seed is above the last"));
    }
    if last - first >= MAX_SEEDS {
        return Err(format!("'{s}' is more than {MAX_SEEDS} seeds"));
    }
    Ok(Seeds { first, last })
}

/// A catch, where the player stood when it was caught.
struct Catch {
    tick: u64,
    /// The monster's ordinal, from 1.
    monster: usize,
    at: Cell,
}

/// What one session came to.
struct Run {
    seed: u64,
    world: World,
    /// Every catch, in order: where a bot is caught is what tells its
    /// weak spots on a level (`--json` prints them).
    caught: Vec<Catch>,
    seconds: f64,
    /// The CPU time of the thread that played it (the process's is
    /// shared by every run, so it is left out).
    cpu: Option<f64>,
}

impl Run {
    fn won(&self) -> bool {
        self.world.outcome() == Outcome::Won
    }
}

/// Plays `start` with `bot` for at most `ticks` ticks, stopping where the
/// session ends.
fn play(start: &Start, bot: BotKind, ticks: u64) -> Result<Run, CliError> {
    let file = std::path::PathBuf::from(&start.level.name);
    let mut world = start.world().map_err(|source| CliError::World { file, source })?;
    let mut player = Bot::of(bot, start.seed);
    let (began, cpu) = (Instant::now(), clock::thread_cpu());
    let mut caught = Vec::new();
    while world.ticks() < ticks && !world.outcome().is_over() {
        let taken = world.events_total();
        if let Some(c) = player.command(&world) {
            world.apply(c);
        }
        world.tick();
        let at = world.player().cell;
        caught.extend(world.events_after(taken).iter().filter_map(|s| match s.event {
            Event::Caught { monster, .. } => Some(Catch { tick: s.tick, monster, at }),
            _ => None,
        }));
    }
    let cpu = cpu.zip(clock::thread_cpu()).map(|(a, b)| b - a);
    Ok(Run { seed: start.seed, world, caught, seconds: began.elapsed().as_secs_f64(), cpu })
}

/// Plays every job on every core, in any order; the runs come back in the
/// jobs' order.
fn play_all(jobs: &[(Start, BotKind)], ticks: u64) -> Result<Vec<Run>, CliError> {
    let progress = Progress::on_stderr("sessions", jobs.len() as u64);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Run, CliError>>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(jobs.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((start, bot)) = jobs.get(i) else { break };
                    let run = play(start, *bot, ticks);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(run);
                    progress.set(done.fetch_add(1, Ordering::Relaxed) as u64 + 1);
                }
            });
        }
    });
    drop(progress);
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().map(|r| r.expect("every job ran")).collect()
}

/// A win rate as the tables print it: `9/20  45 %`.
fn rate(won: usize, of: usize) -> String {
    let percent = if of == 0 { 0.0 } else { 100.0 * won as f64 / of as f64 };
    format!("{won}/{of} {percent:>3.0} %")
}

/// `delve sim --seeds`: a row per seed and the win rate.
pub fn seeds(args: &SimArgs, seeds: Seeds, out: &mut impl Write) -> Result<(), CliError> {
    let (start, _) = args.session.start_with(args.game())?;
    // A generated level is each seed's own, as the campaign's depths play
    // it; a file (read once: standard input can be read only once) plays
    // every seed.
    let start_of = |seed: u64| -> Result<Start, CliError> {
        if args.session.generated.style.is_none() {
            return Ok(Start { seed, ..start.clone() });
        }
        let (level, recipe) = level_or_generated(None, &args.session.generated, seed)?;
        Ok(Start { seed, ..args.session.start_with_level(level, recipe, args.game())?.0 })
    };
    let jobs = seeds.iter().map(|seed| Ok((start_of(seed)?, args.bot))).collect::<Result<Vec<_>, CliError>>()?;
    let runs = play_all(&jobs, args.ticks)?;
    let won = runs.iter().filter(|r| r.won()).count();
    let written = if args.json {
        runs.iter().try_for_each(|r| {
            let mut row = Summary::of(&r.world, r.seconds, Cpu { process: None, threads: vec![r.cpu] }).json();
            row["seed"] = json!(r.seed);
            let caught =
                r.caught.iter().map(|c| json!({"tick": c.tick, "monster": c.monster, "x": c.at.x, "y": c.at.y}));
            row["caught"] = caught.collect();
            writeln!(out, "{row}")
        })
    } else {
        write_seeds(out, args, &start, seeds, &runs, won)
    };
    written.map_err(CliError::Output)
}

fn write_seeds(
    out: &mut impl Write,
    args: &SimArgs,
    start: &Start,
    seeds: Seeds,
    runs: &[Run],
    won: usize,
) -> std::io::Result<()> {
    let rules = if start.rules == Rules::SANDBOX { "sandbox" } else { "game" };
    let generated = &args.session.generated;
    let level = match generated.style {
        Some(style) => format!("{style} depth {} (a level per seed)", generated.depth.unwrap_or(1)),
        None => start.level.name.clone(),
    };
    writeln!(out, "{level}: bot {}, {rules} rules, seeds {seeds}, up to {} ticks", args.bot, args.ticks)?;
    writeln!(out, "{:>6}  {:<8}{:>7}  {:>7}  {:>10}", "seed", "outcome", "tick", "catches", "lives left")?;
    for r in runs {
        let w = &r.world;
        let tick = w.ended_at().unwrap_or(w.ticks());
        let lives = w.lives().map_or("-".to_string(), |n| n.to_string());
        let catches = w.stats().total.catches;
        writeln!(out, "{:>6}  {:<8}{tick:>7}  {catches:>7}  {lives:>10}", r.seed, w.outcome().name())?;
    }
    writeln!(out, "won {}", rate(won, runs.len()))
}

/// The bots the campaign table compares.
const BOTS: [BotKind; 2] = [BotKind::Goal, BotKind::Evade];

/// The generated depths `--campaign` plays after the campaign's levels.
pub const DEPTHS: [u32; 4] = [1, 3, 5, 10];
/// The style of the generated depths.
pub const DEPTH_STYLE: Style = Style::Mixed;

/// `delve sim --campaign`: every campaign level's win rate over the seeds
/// for the beeline and the evading bot, then every depth of [`DEPTHS`],
/// a level generated ([`DEPTH_STYLE`]) from each seed and the depth.
pub fn campaign(args: &SimArgs, seeds: Seeds, out: &mut impl Write) -> Result<(), CliError> {
    let levels = crate::cli::play::campaign_levels();
    let mut rows: Vec<(String, Vec<Level>)> =
        levels.into_iter().map(|level| (level.name.clone(), vec![level])).collect();
    for depth in DEPTHS {
        let generated = seeds.iter().map(|seed| {
            let recipe = Recipe::new(DEPTH_STYLE, seed, depth, None).map_err(|e| CliError::Usage(e.to_string()))?;
            Ok(recipe.generate())
        });
        rows.push((format!("depth {depth}"), generated.collect::<Result<_, CliError>>()?));
    }
    let mut jobs = Vec::new();
    for (_, levels) in &rows {
        for bot in BOTS {
            for (k, seed) in seeds.iter().enumerate() {
                // A campaign level plays every seed; a depth, the level of
                // each seed.
                let level = &levels[k.min(levels.len() - 1)];
                let (start, _) = args.session.start_on(level.clone(), None, None)?;
                jobs.push((Start { seed, ..start }, bot));
            }
        }
    }
    let runs = play_all(&jobs, args.ticks)?;
    let per = seeds.count() as usize;
    let rows: Vec<(String, [usize; 2])> = (rows.into_iter().enumerate())
        .map(|(k, (name, _))| {
            let of = |b: usize| &runs[(k * BOTS.len() + b) * per..][..per];
            (name, [0, 1].map(|b| of(b).iter().filter(|r| r.won()).count()))
        })
        .collect();
    let levels = rows.len() - DEPTHS.len();
    let written = if args.json {
        rows.iter().try_for_each(|(name, won)| {
            BOTS.iter().zip(won).try_for_each(|(bot, &won)| {
                let row = json!({
                    "level": name, "bot": bot.name(), "seeds": per, "won": won,
                    "win_rate": won as f64 / per as f64,
                });
                writeln!(out, "{row}")
            })
        })
    } else {
        (|| {
            let depths = DEPTHS.map(|d| d.to_string()).join(", ");
            writeln!(
                out,
                "campaign: {levels} levels and {DEPTH_STYLE} depths {depths}, game rules, seeds {seeds}, up to {} ticks",
                args.ticks
            )?;
            writeln!(out, "{:<10}  {:>12}  {:>12}", "level", "goal", "evade")?;
            for (name, won) in &rows {
                writeln!(out, "{name:<10}  {:>12}  {:>12}", rate(won[0], per), rate(won[1], per))?;
            }
            Ok(())
        })()
    };
    written.map_err(CliError::Output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_read_as_a_range_both_ends_included_or_one_seed() {
        assert_eq!(parse_seeds("1..20"), Ok(Seeds { first: 1, last: 20 }));
        assert_eq!(parse_seeds("1..20").unwrap().count(), 20);
        assert_eq!(parse_seeds("7"), Ok(Seeds { first: 7, last: 7 }));
        assert_eq!(parse_seeds("0..0").unwrap().count(), 1);
        assert_eq!(parse_seeds("5..2"), Err("'5..2' runs backwards: the first seed is above the last".into()));
        assert_eq!(parse_seeds("a..2"), Err("'a' is not a seed (a whole number ≥ 0)".into()));
        assert_eq!(parse_seeds("-1"), Err("'-1' is not a seed (a whole number ≥ 0)".into()));
        assert_eq!(parse_seeds("1..10000").unwrap().count(), 10_000);
        assert_eq!(parse_seeds("0..10000"), Err("'0..10000' is more than 10000 seeds".into()));
        assert_eq!(
            parse_seeds("0..18446744073709551615"),
            Err("'0..18446744073709551615' is more than 10000 seeds".into())
        );
        assert_eq!(rate(9, 20), "9/20  45 %");
        assert_eq!(rate(0, 0), "0/0   0 %");
    }
}
