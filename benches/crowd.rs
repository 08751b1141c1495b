//! The crowd at scale: what a tick costs per creature as the crowd grows,
//! on one thread and on several, in CPU time beside wall time.
//!
//! Two tables, each configuration in a child process of its own (so the
//! peak resident memory beside it is its own), ticking the world with the
//! scripted player:
//!
//! - **scale**: boids alone at 0.1 boids per free cell on open square maps
//!   (a wall border, 2x2 pillars every 16 cells) from 1,000 to 100,000
//!   boids, one thread: the CPU per boid per tick, and its ratio to the
//!   smallest crowd's (goal: at most 1.25x at 100,000).
//! - **threads**: 98,000 boids, 1,000 monsters and 1,000 wanderers (100,000
//!   creatures, the world's cap) on a 1024x1024 map of the same kind, on 1
//!   thread and on 2 (and on `--threads N` when given) side by side: wall
//!   and CPU per tick, each thread's CPU per tick, the ticks per second the
//!   wall time gave and the ones the busiest thread's CPU time allows (what
//!   the wall would be with the cores to itself), the speed-up of each
//!   count over one thread by both, and the memory per creature (goals: 30
//!   ticks/s on 2 threads, 1.7x, at most 1 KB a creature).
//!
//! Run with `cargo bench --bench crowd` (about 3 minutes), `cargo bench
//! --bench crowd -- scale` or `-- threads` for one table, `-- --threads N`
//! for another thread count beside 1 and 2.

#[path = "support/timing.rs"]
mod timing;

use delve::level::Level;
use delve::replay::feed::{self, LiveFeed};
use delve::replay::{Spawns, Start};
use delve::sim::{Bot, Rules, Settings, World, clock};
use std::process::Command;
use timing::{median, peak_rss_mib};

/// Environment variable that makes the process run one configuration.
const ONE: &str = "DELVE_CROWD_BENCH_ONE";
/// Ticks run before timing starts.
const WARMUP: u64 = 20;

fn main() {
    if let Ok(spec) = std::env::var(ONE) {
        run_one(&spec);
        return;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let threads = args
        .iter()
        .position(|a| a == "--threads")
        .and_then(|i| args.get(i + 1))
        .map(|n| n.parse::<usize>().expect("--threads takes a number"));
    let only = |table: &str| !args.iter().any(|a| a == "scale" || a == "threads") || args.iter().any(|a| a == table);
    if only("scale") {
        scale_table();
    }
    if only("threads") {
        threads_table(threads);
    }
}

/// One configuration's figures, per timed tick.
struct Figures {
    /// Medians per tick: wall ms, process CPU ms.
    wall_ms: f64,
    cpu_ms: f64,
    /// Each pool thread's CPU ms per tick (the mean over the timed ticks).
    threads_ms: Vec<f64>,
    rss_mib: f64,
}

fn scale_table() {
    println!("scale: boids alone at 0.1 per free cell on open maps, {WARMUP} warm-up ticks, one thread");
    println!("cpu µs/boid: the median tick's process CPU per boid; x 1k: its ratio to the 1,000 boids'");
    println!();
    println!(
        "{:>7} {:>10} {:>8} {:>12} {:>12} {:>12} {:>8} {:>10}",
        "boids", "map", "ticks", "wall ms", "cpu ms", "cpu µs/boid", "x 1k", "KB/boid"
    );
    let mut first = None;
    for (boids, side, ticks) in
        [(1_000, 100, 400), (4_000, 200, 200), (10_000, 316, 120), (40_000, 632, 60), (100_000, 1000, 40)]
    {
        let f = child(&format!("{side} {boids} 0 0 1 {ticks}"));
        let per_boid = f.cpu_ms * 1e3 / f64::from(boids);
        let base = *first.get_or_insert(per_boid);
        println!(
            "{:>7} {:>10} {:>8} {:>12.3} {:>12.3} {:>12.3} {:>7.2}x {:>10.2}",
            boids,
            format!("{side}x{side}"),
            ticks,
            f.wall_ms,
            f.cpu_ms,
            per_boid,
            per_boid / base,
            f.rss_mib * 1024.0 / f64::from(boids)
        );
    }
    println!();
}

fn threads_table(extra: Option<usize>) {
    let (boids, monsters, wanderers, side, ticks) = (98_000, 1_000, 1_000, 1024, 60);
    let creatures = boids + monsters + wanderers;
    println!(
        "threads: {boids} boids, {monsters} monsters, {wanderers} wanderers on a {side}x{side} open map, \
         {WARMUP} warm-up ticks then {ticks}"
    );
    println!(
        "ms: medians per tick; thread cpu: each pool thread's mean CPU per tick; ticks/s: by wall, and by the \
         busiest thread's CPU (the wall with free cores)"
    );
    println!();
    println!(
        "{:>7} {:>10} {:>10} {:>22} {:>9} {:>9} {:>10} {:>10} {:>9}",
        "threads", "wall ms", "cpu ms", "thread cpu ms", "ticks/s", "free t/s", "x1 wall", "x1 free", "KB/crtr"
    );
    let mut counts = vec![1, 2];
    counts.extend(extra.filter(|n| !counts.contains(n)));
    let mut base = None;
    for threads in counts {
        let f = child(&format!("{side} {boids} {monsters} {wanderers} {threads} {ticks}"));
        let busiest = f.threads_ms.iter().copied().fold(0.0, f64::max);
        let (wall_tps, free_tps) = (1e3 / f.wall_ms, 1e3 / busiest);
        let (b_wall, b_free) = *base.get_or_insert((wall_tps, free_tps));
        let per_thread: Vec<String> = f.threads_ms.iter().map(|t| format!("{t:.1}")).collect();
        println!(
            "{:>7} {:>10.2} {:>10.2} {:>22} {:>9.1} {:>9.1} {:>9.2}x {:>9.2}x {:>9.2}",
            threads,
            f.wall_ms,
            f.cpu_ms,
            per_thread.join(" "),
            wall_tps,
            free_tps,
            wall_tps / b_wall,
            free_tps / b_free,
            f.rss_mib * 1024.0 / f64::from(creatures)
        );
    }
    println!();
}

/// Runs this bench again as a child that runs the configuration `spec`
/// and reads its figures.
fn child(spec: &str) -> Figures {
    let out = Command::new(std::env::current_exe().expect("the bench knows its own path"))
        .env(ONE, spec)
        .output()
        .expect("the bench can run itself");
    assert!(out.status.success(), "{spec}: {}", String::from_utf8_lossy(&out.stderr));
    let v: Vec<f64> =
        String::from_utf8_lossy(&out.stdout).split_whitespace().map(|x| x.parse().expect("numbers")).collect();
    let [wall_ms, cpu_ms, rss_mib, ref threads_ms @ ..] = v[..] else { panic!("{spec}: unexpected output {v:?}") };
    Figures { wall_ms, cpu_ms, threads_ms: threads_ms.to_vec(), rss_mib }
}

/// An open square map: a wall border and 2x2 pillars every 16 cells, the
/// player in the middle.
fn open_map(side: usize) -> Level {
    let mut text = String::from("name: open\n");
    for y in 0..side {
        for x in 0..side {
            let border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
            let pillar = x % 16 >= 7 && x % 16 <= 8 && y % 16 >= 7 && y % 16 <= 8;
            let middle = x == side / 2 + 3 && y == side / 2 + 3;
            text.push(if middle {
                '@'
            } else if border || pillar {
                '#'
            } else {
                '.'
            });
        }
        text.push('\n');
    }
    Level::parse(&text, "open.txt").expect("the open map parses")
}

/// The child: `side boids monsters wanderers threads ticks`; prints the
/// median wall and CPU ms per tick, the peak RSS in MiB and each pool
/// thread's mean CPU ms per tick.
fn run_one(spec: &str) {
    let v: Vec<usize> = spec.split(' ').map(|x| x.parse().expect("numbers")).collect();
    let [side, boids, monsters, wanderers, threads, ticks] = v[..] else { panic!("bad spec {spec}") };
    let level = open_map(side);
    // 0.1 boids per free cell for the scale table: the map is sized for it.
    let spawns = Spawns { monster: monsters as u32, wanderer: wanderers as u32, fleeing: 0, boid: boids as u32 };
    let start = Start { level, seed: 7, settings: Settings::default(), spawns, rules: Rules::SANDBOX, generator: None };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
    pool.install(|| {
        let mut world = start.world().expect("the map holds the crowd");
        let mut bot = Bot::new(7);
        let mut tick = |w: &mut World| feed::bot_tick(w, &mut LiveFeed, &mut bot).expect("live feed");
        for _ in 0..WARMUP {
            tick(&mut world);
        }
        let before = clock::pool_cpu();
        let (mut wall, mut cpu) = (Vec::new(), Vec::new());
        for _ in 0..ticks {
            let span = clock::Span::start();
            tick(&mut world);
            let (w, c) = span.micros();
            wall.push(w / 1e3);
            cpu.push(c.unwrap_or(0.0) / 1e3);
        }
        let after = clock::pool_cpu();
        let threads_ms = before
            .iter()
            .zip(&after)
            .map(|(a, b)| a.zip(*b).map_or(0.0, |(a, b)| (b - a) * 1e3 / ticks as f64))
            .map(|t| t.to_string())
            .collect::<Vec<_>>();
        println!("{} {} {} {}", median(&mut wall), median(&mut cpu), peak_rss_mib(), threads_ms.join(" "));
    });
}
