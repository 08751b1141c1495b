//! delve's A* against `pathfinding::astar` on the Moving AI maps in
//! ../shared/movingai: the same scenarios, side by side, in one run.
//!
//! Both search 8-connected grids with √2 diagonals and no corner cutting,
//! octile distance as the heuristic, and break ties among equal f toward
//! the node nearer the goal (delve's `low-h`; the crate prefers the larger
//! g, which at equal f is the same node). The crate gets its best case: nodes
//! are `usize` cell indices (cheap to hash), successors come from a fixed
//! array (no allocation), and costs are integers scaled by 10^8 (diagonal
//! = round(√2·10^8)), so its answers are exact to about 10^-6 over the
//! longest paths. Every query's cost is checked against delve's and the
//! file's optimal length; any difference beyond 1e-4 aborts the run.
//!
//! Each query runs delve first, then the crate, so both see the same
//! machine load. Run with `cargo bench --bench vs_pathfinding`.

#[path = "support/timing.rs"]
mod timing;

use delve::grid::{Cell, Grid};
use delve::level::{Level, Scenario, load_scenarios};
use delve::search::{GridPlanner, SearchSettings, TieBreak};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;
use timing::{mean, median};

/// Scenarios per map: an even sample across the file (sorted by length),
/// always ending with the longest.
const SAMPLE: usize = 250;
/// Fixed-point scale of the crate's integer costs.
const SCALE: f64 = 1e8;
/// Costs that differ by more than this are a failure.
const TOLERANCE: f64 = 1e-4;

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        .collect();
    files.sort();
    println!(
        "{:<16} {:>7} {:>11} {:>11} {:>11} {:>11} {:>10} {:>7}",
        "map", "queries", "delve med", "delve mean", "crate med", "crate mean", "delve Mexp/s", "ratio"
    );
    let mut log_ratio = 0.0;
    for scen in &files {
        let row = bench_map(&dir, scen);
        log_ratio += row.ratio.ln();
        println!(
            "{:<16} {:>7} {:>9.1}µs {:>9.1}µs {:>9.1}µs {:>9.1}µs {:>12.2} {:>6.2}x",
            row.map,
            row.queries,
            row.delve_median,
            row.delve_mean,
            row.crate_median,
            row.crate_mean,
            row.mexp,
            row.ratio
        );
    }
    let geo = (log_ratio / files.len() as f64).exp();
    println!("ratio = crate mean / delve mean per map; costs identical on every query (tolerance {TOLERANCE})");
    println!("speedup vs pathfinding::astar: {geo:.2}x (geometric mean)");
}

struct Row {
    map: String,
    queries: usize,
    delve_median: f64,
    delve_mean: f64,
    crate_median: f64,
    crate_mean: f64,
    /// delve's expansions per second, in millions.
    mexp: f64,
    ratio: f64,
}

fn bench_map(dir: &Path, scen: &Path) -> Row {
    let scenarios = load_scenarios(scen).unwrap_or_else(|e| panic!("{e}"));
    let level = Level::load(&dir.join(&scenarios[0].map)).unwrap_or_else(|e| panic!("{e}"));
    let sample = even_sample(&scenarios);
    let open = Open::of(&level.grid);
    let mut planner = GridPlanner::new();
    // Smaller h first among equal f: the crate's own tie-break (it prefers
    // the larger g, the same thing at equal f).
    let settings = SearchSettings { tie: TieBreak::LowH, ..SearchSettings::default() };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut expanded = 0u64;
    for sc in &sample {
        let t = Instant::now();
        let o = planner.plan(&level.grid, sc.start, sc.goal, &settings).expect("scenario endpoints are walkable");
        ours.push(t.elapsed().as_secs_f64() * 1e6);
        expanded += o.stats.expanded;
        let cost = black_box(o.cost);

        let t = Instant::now();
        let reference = open.astar(sc.start, sc.goal);
        theirs.push(t.elapsed().as_secs_f64() * 1e6);
        let reference = black_box(reference).map(|c| c as f64 / SCALE);

        assert!(
            o.found && reference.is_some(),
            "{}: {} -> {} found by one side only",
            scen.display(),
            sc.start,
            sc.goal
        );
        let reference = reference.unwrap_or_default();
        assert!(
            (cost - reference).abs() <= TOLERANCE && (cost - sc.optimal).abs() <= TOLERANCE,
            "{}: {} -> {}: delve {cost}, pathfinding {reference}, optimal {}",
            scen.display(),
            sc.start,
            sc.goal,
            sc.optimal
        );
    }
    let total: f64 = ours.iter().sum();
    let (delve_mean, crate_mean) = (mean(&ours), mean(&theirs));
    Row {
        map: level.name.clone(),
        queries: sample.len(),
        delve_median: median(&mut ours),
        delve_mean,
        crate_median: median(&mut theirs),
        crate_mean,
        mexp: expanded as f64 / total,
        ratio: crate_mean / delve_mean,
    }
}

/// At most [`SAMPLE`] scenarios evenly spread over the file, the last
/// (longest) always included.
fn even_sample(all: &[Scenario]) -> Vec<Scenario> {
    if all.len() <= SAMPLE {
        return all.to_vec();
    }
    (0..SAMPLE).map(|i| all[i * (all.len() - 1) / (SAMPLE - 1)].clone()).collect()
}

/// The map as the crate's user would write it: a flat walkable array.
struct Open {
    width: usize,
    height: usize,
    walkable: Vec<bool>,
}

impl Open {
    fn of(grid: &Grid) -> Open {
        let walkable = grid.cells().map(|c| grid.is_walkable(c)).collect();
        Open { width: grid.width(), height: grid.height(), walkable }
    }

    fn free(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.width
            && (y as usize) < self.height
            && self.walkable[y as usize * self.width + x as usize]
    }

    fn astar(&self, start: Cell, goal: Cell) -> Option<u64> {
        let orth = SCALE as u64;
        let diag = (std::f64::consts::SQRT_2 * SCALE).round() as u64;
        let w = self.width;
        let (gx, gy) = (goal.x as u64, goal.y as u64);
        let goal_index = goal.y as usize * w + goal.x as usize;
        let successors = |&i: &usize| {
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            let mut out = [(0usize, 0u64); 8];
            let mut n = 0;
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)] {
                let diagonal = dx != 0 && dy != 0;
                if self.free(x + dx, y + dy) && (!diagonal || (self.free(x + dx, y) && self.free(x, y + dy))) {
                    out[n] = (((y + dy) as usize) * w + (x + dx) as usize, if diagonal { diag } else { orth });
                    n += 1;
                }
            }
            out.into_iter().take(n)
        };
        let heuristic = |&i: &usize| {
            let (x, y) = ((i % w) as u64, (i / w) as u64);
            let (dx, dy) = (x.abs_diff(gx), y.abs_diff(gy));
            dx.max(dy) * orth + dx.min(dy) * (diag - orth)
        };
        let start_index = start.y as usize * w + start.x as usize;
        pathfinding::directed::astar::astar(&start_index, successors, heuristic, |&i| i == goal_index).map(|(_, c)| c)
    }
}
