//! The game's scale: ticks per second and search time per tick of the
//! living world on the big level, headless, with the scripted player; wall
//! time beside CPU time throughout, so that waiting for a core on a busy
//! machine is not taken for work.
//!
//! Three tables: boids 1,000 / 5,000 / 10,000 beside 200 monsters and 200
//! wanderers, on one thread and on `--threads N` (default: the available
//! cores; goal: 10,000 boids at 400 ticks/s on one thread), and monsters
//! 50 / 200 / 500 under each repath policy (goal: 500 monsters under
//! timer+threshold within the expansion budget, no request waiting a
//! second or more); and on the gates, whose doors all toggle every 5 s,
//! monsters 50 / 200 / 500 under each repath policy, for what replanning
//! around a changing dungeon costs: search work (expanded, cells updated
//! and entries re-keyed) per tick and how many times less than
//! `every-tick`'s, the tick's CPU time and its ratio to `every-tick`'s
//! (goals: `flow-field` and `incremental` at least 5x less work and at most
//! half the tick time), catches per minute (so that cheaper is not worse
//! hunting) and budget waits. Each configuration runs in a child process of
//! its own, so the peak resident memory reported beside it is its own.
//!
//! Run with `cargo bench --bench sim`, `cargo bench --bench sim -- gates`
//! for the gates table alone, `-- --threads N` for another thread count.

#[path = "support/timing.rs"]
mod timing;

use delve::level::Level;
use delve::replay::Spawns;
use delve::replay::Start;
use delve::replay::feed::{self, LiveFeed};
use delve::sim::{Bot, RepathPolicy, RepathReason, Rules, Settings, TICKS_PER_SECOND, clock};
use std::path::PathBuf;
use std::process::Command;
use timing::{median, peak_rss_mib};

/// Ticks run before timing starts: spawns settle, the first plans are made.
const WARMUP: u64 = 40;
/// Ticks timed.
const TIMED: u64 = 400;
/// Environment variable that makes the process run one configuration.
const ONE: &str = "DELVE_SIM_BENCH_ONE";

struct Config {
    boids: u32,
    monsters: u32,
    wanderers: u32,
    repath: RepathPolicy,
    threads: usize,
}

fn main() {
    if let Ok(spec) = std::env::var(GATES_ONE) {
        gates_one(&spec);
        return;
    }
    if let Ok(spec) = std::env::var(ONE) {
        run_one(&spec);
        return;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = args.iter().position(|a| a == "--threads").and_then(|i| args.get(i + 1)).map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n.parse().expect("--threads takes a number"),
    );
    if args.iter().any(|a| a == "gates") {
        gates_table();
        return;
    }
    println!("big level (240x120), {WARMUP} warm-up ticks then {TIMED} timed ticks");
    println!("ms: medians per tick, wall and the process's CPU (all threads); ticks/s by wall");
    println!();
    println!(
        "{:>6} {:>8} {:>9} {:>16} {:>7} {:>9} {:>10} {:>10} {:>12} {:>9}",
        "boids",
        "monsters",
        "wanderers",
        "repath",
        "threads",
        "ticks/s",
        "wall ms",
        "cpu ms",
        "search/tick",
        "peak RSS"
    );
    for boids in [1_000, 5_000, 10_000] {
        let mut counts = vec![1];
        counts.extend((threads != 1).then_some(threads));
        for t in counts {
            let c = Config { boids, monsters: 200, wanderers: 200, repath: RepathPolicy::TimerThreshold, threads: t };
            report(&c, false);
        }
    }
    println!();
    println!(
        "{:>8} {:>16} {:>9} {:>10} {:>12} {:>12} {:>12} {:>11} {:>10}",
        "monsters", "repath", "ticks/s", "cpu ms", "search/tick", "exp/tick", "max exp/tick", "waits", "max wait"
    );
    for monsters in [50, 200, 500] {
        for &repath in RepathPolicy::ALL {
            report(&Config { boids: 0, monsters, wanderers: 0, repath, threads: 1 }, true);
        }
    }
    println!();
    gates_table();
}

/// Environment variable that makes the process run one gates configuration.
const GATES_ONE: &str = "DELVE_SIM_BENCH_GATES";
/// Ticks timed per run on the gates: 15 toggles of the doors.
const GATES_TICKS: u64 = 1_500;
/// Runs per configuration; the times are their medians (the other
/// figures are the same every run: the world is deterministic).
const GATES_RUNS: usize = 3;

/// The gates table: every policy side by side for each crowd.
fn gates_table() {
    println!(
        "gates (80x41, 34 doors toggling every 100 ticks), {WARMUP} warm-up ticks then {GATES_TICKS} ticks, \
         times the median of {GATES_RUNS} runs, one thread"
    );
    println!(
        "work: expanded + cells updated + re-keyed, per tick; /every: every-tick's over this policy's; \
         tick cpu: the process's CPU per tick; x every: this policy's over every-tick's"
    );
    println!();
    println!(
        "{:>8} {:>16} {:>10} {:>7} {:>9} {:>11} {:>12} {:>9} {:>12} {:>7} {:>8} {:>8} {:>8}",
        "monsters",
        "repath",
        "work/tick",
        "/every",
        "rekeyed",
        "search/tick",
        "tick cpu",
        "x every",
        "catches/min",
        "waits",
        "max wait",
        "blocked",
        "version"
    );
    for monsters in [50, 200, 500] {
        let mut every = None;
        for &repath in RepathPolicy::ALL {
            let v = child(GATES_ONE, &format!("{monsters} {repath}"));
            let [work, rekeyed, search_ms, tick_cpu_ms, catches_per_min, waits, max_wait, blocked, version] = v[..]
            else {
                panic!("{monsters} {repath}: unexpected output {v:?}")
            };
            let (every_work, every_cpu) = *every.get_or_insert((work, tick_cpu_ms));
            println!(
                "{:>8} {:>16} {:>10.0} {:>6.1}x {:>9.0} {:>8.3} ms {:>9.3} ms {:>8.2}x {:>12.1} {:>7.0} {:>6.2} s {:>8.0} {:>8.0}",
                monsters,
                repath.name(),
                work,
                every_work / work.max(1e-9),
                rekeyed,
                search_ms,
                tick_cpu_ms,
                tick_cpu_ms / every_cpu.max(1e-9),
                catches_per_min,
                waits,
                max_wait / f64::from(TICKS_PER_SECOND),
                blocked,
                version
            );
        }
    }
}

/// The child: runs one gates configuration [`GATES_RUNS`] times on one
/// thread and prints its figures: work and re-keyed entries per tick,
/// median search ms and tick CPU ms per tick, catches per minute, budget
/// waits, longest wait (ticks), blocked and version repaths.
fn gates_one(spec: &str) {
    let f: Vec<&str> = spec.split(' ').collect();
    let [monsters, repath] = f[..] else { panic!("bad spec {spec}") };
    let level = Level::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/gates.txt")).expect("gates level");
    let start = Start {
        level,
        seed: 7,
        settings: Settings { repath: repath.parse().expect("policy"), ..Settings::default() },
        spawns: Spawns { monster: monsters.parse().expect("count"), ..Spawns::default() },
        rules: Rules::SANDBOX,
        generator: None,
    };
    let (mut times, mut cpu) = (Vec::new(), Vec::new());
    let mut figures = None;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    for _ in 0..GATES_RUNS {
        let mut world = start.world().expect("the gates hold the crowd");
        let mut bot = Bot::new(7);
        pool.install(|| {
            for _ in 0..WARMUP {
                feed::bot_tick(&mut world, &mut LiveFeed, &mut bot).expect("live feed");
            }
        });
        let before = world.stats().total;
        let mut max_wait = 0;
        pool.install(|| {
            for _ in 0..GATES_TICKS {
                feed::bot_tick(&mut world, &mut LiveFeed, &mut bot).expect("live feed");
                max_wait = max_wait.max(world.stats().last_tick.max_wait);
            }
        });
        let total = world.stats().total;
        let per_tick = |x: f64| x / GATES_TICKS as f64;
        times.push(per_tick(total.micros - before.micros) / 1e3);
        cpu.push(per_tick(total.cpu_micros - before.cpu_micros) / 1e3);
        let minutes = GATES_TICKS as f64 / f64::from(TICKS_PER_SECOND) / 60.0;
        let run = [
            per_tick((total.work() - before.work()) as f64),
            per_tick((total.rekeyed - before.rekeyed) as f64),
            (total.catches - before.catches) as f64 / minutes,
            (total.budget_waits - before.budget_waits) as f64,
            max_wait as f64,
            (total.repaths(RepathReason::Blocked) - before.repaths(RepathReason::Blocked)) as f64,
            (total.repaths(RepathReason::Version) - before.repaths(RepathReason::Version)) as f64,
        ];
        assert!(figures.is_none_or(|f| f == run), "{spec}: a deterministic run gave other figures");
        figures = Some(run);
    }
    let [work, rekeyed, catches, waits, max_wait, blocked, version] = figures.expect("at least one run");
    println!(
        "{work} {rekeyed} {} {} {catches} {waits} {max_wait} {blocked} {version}",
        median(&mut times),
        median(&mut cpu)
    );
}

/// Runs this bench again as a child process that runs the configuration
/// `spec` (given in the environment variable `var`), and reads the numbers
/// it prints.
fn child(var: &str, spec: &str) -> Vec<f64> {
    let out = Command::new(std::env::current_exe().expect("the bench knows its own path"))
        .env(var, spec)
        .output()
        .expect("the bench can run itself");
    assert!(out.status.success(), "{spec}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace().map(|x| x.parse().expect("numbers")).collect()
}

/// Runs one configuration in a child process and prints its row.
fn report(c: &Config, search_table: bool) {
    let spec = format!("{} {} {} {} {}", c.boids, c.monsters, c.wanderers, c.repath, c.threads);
    let v = child(ONE, &spec);
    let [ticks_per_sec, wall_ms, cpu_ms, search_ms, mean_exp, max_exp, waits, max_wait, rss_mib] = v[..] else {
        panic!("{spec}: unexpected output {v:?}")
    };
    if search_table {
        println!(
            "{:>8} {:>16} {:>9.0} {:>7.3} ms {:>9.3} ms {:>12.0} {:>12.0} {:>11.0} {:>7.2} s",
            c.monsters,
            c.repath.name(),
            ticks_per_sec,
            cpu_ms,
            search_ms,
            mean_exp,
            max_exp,
            waits,
            max_wait / f64::from(TICKS_PER_SECOND)
        );
    } else {
        println!(
            "{:>6} {:>8} {:>9} {:>16} {:>7} {:>9.0} {:>7.3} ms {:>7.3} ms {:>9.3} ms {:>5.0} MiB",
            c.boids,
            c.monsters,
            c.wanderers,
            c.repath.name(),
            c.threads,
            ticks_per_sec,
            wall_ms,
            cpu_ms,
            search_ms,
            rss_mib
        );
    }
}

/// The child: runs the configuration in `spec` and prints its figures.
fn run_one(spec: &str) {
    let f: Vec<&str> = spec.split(' ').collect();
    let [boids, monsters, wanderers, repath, threads] = f[..] else { panic!("bad spec {spec}") };
    let level = Level::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/big.txt")).expect("big level");
    let start = Start {
        level,
        seed: 7,
        settings: Settings { repath: repath.parse().expect("policy"), ..Settings::default() },
        spawns: Spawns {
            monster: monsters.parse().expect("count"),
            wanderer: wanderers.parse().expect("count"),
            fleeing: 0,
            boid: boids.parse().expect("count"),
        },
        rules: Rules::SANDBOX,
        generator: None,
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.parse().expect("threads")).build().expect("a pool");
    pool.install(|| {
        let mut world = start.world().expect("the big level holds a world");
        let mut bot = Bot::new(7);
        let mut live = LiveFeed;
        let mut tick = |world: &mut delve::sim::World| feed::bot_tick(world, &mut live, &mut bot).expect("live feed");
        for _ in 0..WARMUP {
            tick(&mut world);
        }
        let before = world.stats().total;
        let (mut wall, mut cpu, mut expansions, mut max_wait) = (Vec::new(), Vec::new(), Vec::new(), 0);
        let run = clock::Span::start();
        for _ in 0..TIMED {
            let span = clock::Span::start();
            tick(&mut world);
            let (w, c) = span.micros();
            wall.push(w / 1e3);
            cpu.push(c.unwrap_or(0.0) / 1e3);
            let last = &world.stats().last_tick;
            expansions.push(last.expanded as f64);
            max_wait = max_wait.max(last.max_wait);
        }
        let seconds = run.micros().0 / 1e6;
        let total = world.stats().total;
        let search_ms = (total.micros - before.micros) / 1e3 / TIMED as f64;
        let mean_exp = expansions.iter().sum::<f64>() / TIMED as f64;
        let max_exp = expansions.iter().copied().fold(0.0, f64::max);
        println!(
            "{} {} {} {} {} {} {} {} {}",
            TIMED as f64 / seconds,
            median(&mut wall),
            median(&mut cpu),
            search_ms,
            mean_exp,
            max_exp,
            total.budget_waits - before.budget_waits,
            max_wait,
            peak_rss_mib()
        );
    });
}
