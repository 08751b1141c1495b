//! Jump point search (online and with its table) and HPA* against delve's A* on the
//! Moving AI maps in ../shared/movingai (or `$DELVE_MOVINGAI`): the same
//! scenarios, side by side, in one run.
//!
//! A* runs as the reference measured it: lazy deletion, fifo ties,
//! octile distance, 8 neighbours without corner cutting. Each algorithm
//! has its own `GridPlanner` (so each keeps its per-grid data, built once
//! per map and not timed) and runs the whole sample in turn, for
//! [`ROUNDS`] rounds. The optimal ones must return A*'s cost to the last
//! bit, and A* the file's optimal length; any difference aborts the run.
//! Times are whole `plan` calls, path filling included.
//!
//! Columns per algorithm: µs per query (median / mean), mean expansions
//! (jump points for JPS; for HPA*, every search of the query: links,
//! abstract graph, refinement), mean cells scanned while jumping, and the
//! speedup: A*'s mean time over its mean time, then the same for medians;
//! for HPA*, the mean and worst cost over A*'s. The last lines are the
//! geometric means of the speedups over the maps. HPA* must find every
//! path and never beat A*'s cost. Run with
//! `cargo bench --bench jps`.

#[path = "../tests/support/data.rs"]
mod data;
#[path = "support/timing.rs"]
mod timing;

use data::{even_sample, files_with, shared_movingai_or_skip};
use delve::level::{Level, OPTIMAL_TOLERANCE, load_scenarios};
use delve::search::{GridPlanner, Planner, SearchSettings};
use std::path::Path;
use timing::{mean, median, timed};

/// Scenarios per map: an even sample across the file (sorted by length),
/// always ending with the longest.
const SAMPLE: usize = 250;
/// Times each algorithm runs the sample.
const ROUNDS: usize = 3;

/// The algorithms compared with A*, in column order.
const RIVALS: [Planner; 3] = [Planner::JPS, Planner::JPS_PLUS, Planner::HPA];

fn main() {
    let Some(dir) = shared_movingai_or_skip("the jump point search bench") else { return };
    let files = files_with(&dir, "scen");
    print!("{:<15} {:>4} {:>15}", "map", "n", "astar µs");
    for a in RIVALS {
        print!(
            " | {:<4} {:>15} {:>8} {:>7} {:>7} {:>6}",
            a.to_string(),
            "µs med/mean",
            "expanded",
            "scanned",
            "speedup",
            "med"
        );
    }
    println!(" | {:>9}", "astar exp");
    // Sums of the logs of the speedups: of the means, of the medians.
    let mut logs = [[0.0; 2]; RIVALS.len()];
    for scen in &files {
        let r = bench_map(&dir, scen);
        print!("{:<15} {:>4} {:>7.1}/{:<7.1}", r.map, r.queries, r.astar.0, r.astar.1);
        for (k, rival) in r.rivals.iter().enumerate() {
            let speedup = r.astar.1 / rival.micros.1;
            logs[k][0] += speedup.ln();
            logs[k][1] += (r.astar.0 / rival.micros.0).ln();
            print!(
                " | {:<4} {:>7.1}/{:<7.1} {:>8.0} {:>7.0} {:>6.2}x {:>5.1}x",
                "",
                rival.micros.0,
                rival.micros.1,
                rival.expanded,
                rival.scanned,
                speedup,
                r.astar.0 / rival.micros.0
            );
            if rival.ratio.1 > 0.0 {
                print!(" cost {:.4}/{:.3}", rival.ratio.0, rival.ratio.1);
            }
        }
        println!(" | {:>9.0}", r.astar_expanded);
    }
    let n = files.len() as f64;
    for (k, a) in RIVALS.iter().enumerate() {
        let [means, medians] = logs[k].map(|l| (l / n).exp());
        println!(
            "{}: {means:.2}x delve's A* by mean times, {medians:.2}x by medians (geometric means over the maps)",
            a
        );
    }
    println!("jps, jps+: costs identical to A*'s on every query; hpa: cost over A*'s, mean/worst");
    println!("speedup = A* mean µs / mean µs; med = A* median µs / median µs");
}

/// One algorithm's figures on one map.
struct Figures {
    /// (median, mean) µs per query.
    micros: (f64, f64),
    expanded: f64,
    scanned: f64,
    /// Mean and worst cost over A*'s (0 for the optimal ones, not measured).
    ratio: (f64, f64),
}

struct Row {
    map: String,
    queries: usize,
    astar: (f64, f64),
    astar_expanded: f64,
    rivals: Vec<Figures>,
}

fn bench_map(dir: &Path, scen: &Path) -> Row {
    let scenarios = load_scenarios(scen).unwrap_or_else(|e| panic!("{e}"));
    let level = Level::load(&dir.join(&scenarios[0].map)).unwrap_or_else(|e| panic!("{e}"));
    let grid = &level.grid;
    let astar = SearchSettings::default();
    let mut planners: Vec<GridPlanner> = (0..=RIVALS.len()).map(|_| GridPlanner::new()).collect();
    let sample = even_sample(&scenarios, SAMPLE);
    // Per-grid data is built by a first query, outside the timing.
    for (p, &a) in planners[1..].iter_mut().zip(&RIVALS) {
        let sc = &sample[0];
        p.plan(grid, sc.start, sc.goal, &SearchSettings { planner: a, ..astar }).expect("walkable endpoints");
    }
    let mut times = vec![Vec::new(); RIVALS.len() + 1];
    let mut expanded = vec![0u64; RIVALS.len() + 1];
    let mut scanned = vec![0u64; RIVALS.len() + 1];
    let mut costs = Vec::new();
    // Mean and worst cost over A*'s, per algorithm.
    let mut ratios = vec![(0.0f64, 0.0f64); RIVALS.len() + 1];
    // Whole rounds, one algorithm over the whole sample at a time, as a
    // program runs one algorithm: each keeps its working set in the caches
    // (interleaving queries would hand every search the previous one's
    // cold caches, which costs the jump searches, whose nodes lie far
    // apart, far more than A*). Rounds alternate so they share the load.
    for round in 0..ROUNDS {
        for (k, planner) in planners.iter_mut().enumerate() {
            let s = SearchSettings { planner: if k == 0 { Planner::ASTAR } else { RIVALS[k - 1] }, ..astar };
            for (q, sc) in sample.iter().enumerate() {
                let o = timed(&mut times[k], || planner.plan(grid, sc.start, sc.goal, &s)).expect("walkable endpoints");
                let at = || format!("{}: {} -> {} by {}", scen.display(), sc.start, sc.goal, s.planner);
                let cost = o.cost.unwrap_or_else(|| panic!("{}: no path", at()));
                if k == 0 && round == 0 {
                    assert!((cost - sc.optimal).abs() <= OPTIMAL_TOLERANCE, "{}: {}", at(), cost);
                    costs.push(cost);
                }
                if s.planner == Planner::HPA {
                    // Near-optimal: found, never below the optimum.
                    assert!(cost >= costs[q] - OPTIMAL_TOLERANCE, "{}: {} vs A* {}", at(), cost, costs[q]);
                    if round == 0 {
                        let ratio = if costs[q] > 0.0 { cost / costs[q] } else { 1.0 };
                        ratios[k].0 += ratio / sample.len() as f64;
                        ratios[k].1 = ratios[k].1.max(ratio);
                    }
                } else {
                    assert_eq!(cost.to_bits(), costs[q].to_bits(), "{}: {} vs A* {}", at(), cost, costs[q]);
                }
                if round == 0 {
                    expanded[k] += o.stats.expanded;
                    scanned[k] += o.stats.scanned;
                }
            }
        }
    }
    let n = sample.len() as f64;
    let mut figures = (0..=RIVALS.len()).map(|k| Figures {
        micros: (median(&mut times[k]), mean(&times[k])),
        expanded: expanded[k] as f64 / n,
        scanned: scanned[k] as f64 / n,
        ratio: ratios[k],
    });
    let first = figures.next().expect("A*'s figures");
    Row {
        map: level.name.clone(),
        queries: sample.len(),
        astar: first.micros,
        astar_expanded: first.expanded,
        rivals: figures.collect(),
    }
}
