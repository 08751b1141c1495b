//! The game's scale: ticks per second and search time per tick of the
//! living world on the big level, headless, with the scripted player.
//!
//! Two tables: boids 1,000 / 5,000 / 10,000 beside 200 monsters and 200
//! wanderers (goal: 10,000 boids at 60 ticks/s or more on one core), and
//! monsters 50 / 200 / 500 under each repath policy (goal: 500 monsters
//! under timer+threshold within the expansion budget, no request waiting a
//! second or more). Each configuration runs in a child process of its own,
//! so the peak resident memory reported beside it is its own.
//!
//! Run with `cargo bench --bench sim`.

#[path = "support/timing.rs"]
mod timing;

use delve::level::Level;
use delve::replay::Spawns;
use delve::replay::Start;
use delve::replay::feed::{self, LiveFeed};
use delve::sim::{Bot, RepathPolicy, Rules, Settings, TICKS_PER_SECOND};
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
    if let Ok(spec) = std::env::var(ONE) {
        run_one(&spec);
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
}

/// Runs one configuration in a child process and prints its row.
fn report(c: &Config, search_table: bool) {
    let spec = format!("{} {} {} {}", c.boids, c.monsters, c.wanderers, c.repath);
    let out = Command::new(std::env::current_exe().expect("the bench knows its own path"))
        .env(ONE, &spec)
        .output()
        .expect("the bench can run itself");
    assert!(out.status.success(), "{spec}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Vec<f64> = text.split_whitespace().map(|x| x.parse().expect("numbers")).collect();
    let [ticks_per_sec, median_ms, search_ms, mean_exp, max_exp, waits, max_wait, rss_mib] = v[..] else {
        panic!("{spec}: unexpected output {text}")
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
