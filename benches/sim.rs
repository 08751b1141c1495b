//! The game's scale: ticks per second and search time per tick of the
//! living world on the big level, headless, with the scripted player.
//!
//! Three tables: boids 1,000 / 5,000 / 10,000 beside 200 monsters and 200
//! wanderers (goal: 10,000 boids at 60 ticks/s or more on one core), and
//! monsters 50 / 200 / 500 under each repath policy (goal: 500 monsters
//! under timer+threshold within the expansion budget, no request waiting a
//! second or more); and on the gates, whose doors all toggle every 5 s,
//! monsters 50 / 200 / 500 under each repath policy, for what replanning
//! around a changing dungeon costs: search work (expanded + cells updated)
//! and search time per tick, catches per minute (so that cheaper is not
//! worse hunting) and budget waits. Each configuration runs in a child
//! process of its own, so the peak resident memory reported beside it is
//! its own.
//!
//! Run with `cargo bench --bench sim`, or `cargo bench --bench sim -- gates`
//! for the gates table alone.

#[path = "support/timing.rs"]
mod timing;

use delve::level::Level;
use delve::replay::Spawns;
use delve::replay::Start;
use delve::replay::feed::{self, LiveFeed};
use delve::sim::{Bot, RepathPolicy, RepathReason, Rules, Settings, TICKS_PER_SECOND};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;
use timing::median;

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
    if std::env::args().any(|a| a == "gates") {
        gates_table();
        return;
    }
    println!("big level (240x120), {WARMUP} warm-up ticks then {TIMED} timed ticks, one core");
    println!();
    println!(
        "{:>6} {:>8} {:>9} {:>16} {:>9} {:>12} {:>12} {:>9}",
        "boids", "monsters", "wanderers", "repath", "ticks/s", "median tick", "search/tick", "peak RSS"
    );
    for boids in [1_000, 5_000, 10_000] {
        report(&Config { boids, monsters: 200, wanderers: 200, repath: RepathPolicy::TimerThreshold }, false);
    }
    println!();
    println!(
        "{:>8} {:>16} {:>9} {:>12} {:>12} {:>12} {:>11} {:>10}",
        "monsters", "repath", "ticks/s", "search/tick", "exp/tick", "max exp/tick", "waits", "max wait"
    );
    for monsters in [50, 200, 500] {
        for &repath in RepathPolicy::ALL {
            report(&Config { boids: 0, monsters, wanderers: 0, repath }, true);
        }
    }
    println!();
    gates_table();
}

/// Environment variable that makes the process run one gates configuration.
const GATES_ONE: &str = "DELVE_SIM_BENCH_GATES";
/// Ticks timed per run on the gates: 15 toggles of the doors.
const GATES_TICKS: u64 = 1_500;
/// Runs per configuration; the search time is their median (the other
/// figures are the same every run: the world is deterministic).
const GATES_RUNS: usize = 3;

/// The gates table: every policy side by side for each crowd.
fn gates_table() {
    println!(
        "gates (80x41, 34 doors toggling every 100 ticks), {WARMUP} warm-up ticks then {GATES_TICKS} ticks, \
         search time the median of {GATES_RUNS} runs, one core"
    );
    println!();
    println!(
        "{:>8} {:>16} {:>11} {:>12} {:>12} {:>11} {:>9} {:>8} {:>8}",
        "monsters", "repath", "work/tick", "search/tick", "catches/min", "waits", "max wait", "blocked", "version"
    );
    for monsters in [50, 200, 500] {
        for &repath in RepathPolicy::ALL {
            let v = child(GATES_ONE, &format!("{monsters} {repath}"));
            let [work, search_ms, catches_per_min, waits, max_wait, blocked, version] = v[..] else {
                panic!("{monsters} {repath}: unexpected output {v:?}")
            };
            println!(
                "{:>8} {:>16} {:>11.0} {:>9.3} ms {:>12.1} {:>11.0} {:>7.2} s {:>8.0} {:>8.0}",
                monsters,
                repath.name(),
                work,
                search_ms,
                catches_per_min,
                waits,
                max_wait / f64::from(TICKS_PER_SECOND),
                blocked,
                version
            );
        }
    }
}

/// The child: runs one gates configuration [`GATES_RUNS`] times and prints
/// its figures: work per tick, median search ms per tick, catches per
/// minute, budget waits, longest wait (ticks), blocked and version repaths.
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
    let mut times = Vec::new();
    let mut figures = None;
    for _ in 0..GATES_RUNS {
        let mut world = start.world().expect("the gates hold the crowd");
        let mut bot = Bot::new(7);
        for _ in 0..WARMUP {
            feed::bot_tick(&mut world, &mut LiveFeed, &mut bot).expect("live feed");
        }
        let before = world.stats().total;
        let mut max_wait = 0;
        for _ in 0..GATES_TICKS {
            feed::bot_tick(&mut world, &mut LiveFeed, &mut bot).expect("live feed");
            max_wait = max_wait.max(world.stats().last_tick.max_wait);
        }
        let total = world.stats().total;
        times.push((total.micros - before.micros) / 1e3 / GATES_TICKS as f64);
        let minutes = GATES_TICKS as f64 / f64::from(TICKS_PER_SECOND) / 60.0;
        let run = [
            (total.work() - before.work()) as f64 / GATES_TICKS as f64,
            (total.catches - before.catches) as f64 / minutes,
            (total.budget_waits - before.budget_waits) as f64,
            max_wait as f64,
            (total.repaths(RepathReason::Blocked) - before.repaths(RepathReason::Blocked)) as f64,
            (total.repaths(RepathReason::Version) - before.repaths(RepathReason::Version)) as f64,
        ];
        assert!(figures.is_none_or(|f| f == run), "{spec}: a deterministic run gave other figures");
        figures = Some(run);
    }
    let [work, catches, waits, max_wait, blocked, version] = figures.expect("at least one run");
    println!("{work} {} {catches} {waits} {max_wait} {blocked} {version}", median(&mut times));
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
    let spec = format!("{} {} {} {}", c.boids, c.monsters, c.wanderers, c.repath);
    let v = child(ONE, &spec);
    let [ticks_per_sec, median_ms, search_ms, mean_exp, max_exp, waits, max_wait, rss_mib] = v[..] else {
        panic!("{spec}: unexpected output {v:?}")
    };
    if search_table {
        println!(
            "{:>8} {:>16} {:>9.0} {:>9.3} ms {:>12.0} {:>12.0} {:>11.0} {:>7.2} s",
            c.monsters,
            c.repath.name(),
            ticks_per_sec,
            search_ms,
            mean_exp,
            max_exp,
            waits,
            max_wait / f64::from(TICKS_PER_SECOND)
        );
    } else {
        println!(
            "{:>6} {:>8} {:>9} {:>16} {:>9.0} {:>9.2} ms {:>9.3} ms {:>5.0} MiB",
            c.boids,
            c.monsters,
            c.wanderers,
            c.repath.name(),
            ticks_per_sec,
            median_ms,
            search_ms,
            rss_mib
        );
    }
}

/// The child: runs the configuration in `spec` and prints its figures.
fn run_one(spec: &str) {
    let f: Vec<&str> = spec.split(' ').collect();
    let [boids, monsters, wanderers, repath] = f[..] else { panic!("bad spec {spec}") };
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
    let mut world = start.world().expect("the big level holds a world");
    let mut bot = Bot::new(7);
    let mut live = LiveFeed;
    let mut tick = |world: &mut delve::sim::World| feed::bot_tick(world, &mut live, &mut bot).expect("live feed");
    for _ in 0..WARMUP {
        tick(&mut world);
    }
    let before = world.stats().total;
    let (mut times, mut expansions, mut max_wait) = (Vec::new(), Vec::new(), 0);
    let began = Instant::now();
    for _ in 0..TIMED {
        let t = Instant::now();
        tick(&mut world);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        let last = &world.stats().last_tick;
        expansions.push(last.expanded as f64);
        max_wait = max_wait.max(last.max_wait);
    }
    let seconds = began.elapsed().as_secs_f64();
    let total = world.stats().total;
    let search_ms = (total.micros - before.micros) / 1e3 / TIMED as f64;
    let mean_exp = expansions.iter().sum::<f64>() / TIMED as f64;
    let max_exp = expansions.iter().copied().fold(0.0, f64::max);
    println!(
        "{} {} {} {} {} {} {} {}",
        TIMED as f64 / seconds,
        median(&mut times),
        search_ms,
        mean_exp,
        max_exp,
        total.budget_waits - before.budget_waits,
        max_wait,
        peak_rss_mib()
    );
}

/// Peak resident memory of this process (VmHWM), in MiB; 0 where
/// /proc is not available.
fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|kb| kb.parse::<f64>().ok()))
        .map_or(0.0, |kb| kb / 1024.0)
}
