//! delve's A* against `pathfinding::astar` on the Moving AI maps in
//! ../shared/movingai: the same scenarios, side by side, in one run.
//!
//! All four search 8-connected grids with √2 diagonals and no corner
//! cutting, with octile distance as the heuristic, and among equal f they
//! prefer the node nearer the goal (delve's `low-h`; the crate prefers the
//! larger g, which at equal f is the same node), so all four expand the
//! same nodes and the times compare the engines alone. delve is run both
//! ways its open list can take an improved node:
//!
//! - lazy deletion (its default): a new entry, the old one popped later as
//!   stale, as the crate does;
//! - decrease-key (`--open decrease-key`): the node's entry lowered in
//!   place; the last line's speedup is this one's.
//!
//! The crate is run two ways:
//!
//! - idiomatic, as its documentation writes a grid search: a `Pos(i32, i32)`
//!   node and a `Vec` of successors per expansion; this is the headline;
//! - tuned, its best case: `usize` cell indices (cheap to hash) and
//!   successors from a fixed array (no allocation).
//!
//! The crate needs `Ord` costs, so they are integers scaled by 10^8
//! (diagonal = round(√2·10^8)); its answers are then exact to about 10^-6
//! over the longest paths. Every query's three costs are checked against
//! each other and the file's optimal length; any difference beyond 1e-4
//! aborts the run. Each query runs all four in turn, so they see the same
//! machine load. Run with `cargo bench --bench vs_pathfinding`.

#[path = "../tests/support/data.rs"]
mod data;
#[path = "support/timing.rs"]
mod timing;

use data::{even_sample, files_with, shared_movingai_dir};
use delve::grid::{Cell, DIRECTIONS, Grid};
use delve::level::{Level, OPTIMAL_TOLERANCE, load_scenarios};
use delve::search::{GridPlanner, OpenUpdate, SearchSettings, TieBreak};
use std::cell::Cell as Counter;
use std::path::Path;
use timing::{mean, median, timed};

/// Scenarios per map: an even sample across the file (sorted by length),
/// always ending with the longest.
const SAMPLE: usize = 250;
/// Fixed-point scale of the crate's integer costs.
const SCALE: f64 = 1e8;
const ORTHOGONAL: u64 = SCALE as u64;
/// round(√2 · 10^8).
const DIAGONAL: u64 = 141_421_356;

fn main() {
    let Some(dir) = shared_movingai_dir() else {
        eprintln!("vs_pathfinding needs the Moving AI benchmark maps in ../shared/movingai beside the repository");
        std::process::exit(2);
    };
    let files = files_with(&dir, "scen");
    println!("µs per query: median / mean; Mexp/s: million expansions per second; d-key: decrease-key");
    println!(
        "{:<15} {:>4} {:>17} {:>17} {:>19} {:>17} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "map",
        "n",
        "delve lazy",
        "delve d-key",
        "crate idiomatic",
        "crate tuned",
        "lazy",
        "d-key",
        "crate",
        "lazy",
        "d-key",
        "lazy",
        "d-key"
    );
    println!(
        "{:<15} {:>4} {:>17} {:>17} {:>19} {:>17} {:>7} {:>7} {:>7} {:>15} {:>15}",
        "", "", "", "", "", "", "Mexp/s", "Mexp/s", "Mexp/s", "vs idiomatic", "vs tuned"
    );
    // Sums of the logs of the ratios, by delve's way then the crate's.
    let mut logs = [[0.0; 2]; 2];
    for scen in &files {
        let r = bench_map(&dir, scen);
        let ratios = [0, 1].map(|way| [r.idiomatic.1 / r.delve[way].1, r.tuned.1 / r.delve[way].1]);
        for way in 0..2 {
            for (log, ratio) in logs[way].iter_mut().zip(ratios[way]) {
                *log += ratio.ln();
            }
        }
        println!(
            "{:<15} {:>4} {:>8.1}/{:<8.1} {:>8.1}/{:<8.1} {:>9.1}/{:<9.1} {:>8.1}/{:<8.1} {:>7.2} {:>7.2} {:>7.2} {:>6.2}x {:>6.2}x {:>6.2}x {:>6.2}x",
            r.map,
            r.queries,
            r.delve[0].0,
            r.delve[0].1,
            r.delve[1].0,
            r.delve[1].1,
            r.idiomatic.0,
            r.idiomatic.1,
            r.tuned.0,
            r.tuned.1,
            r.delve_mexp[0],
            r.delve_mexp[1],
            r.crate_mexp,
            ratios[0][0],
            ratios[1][0],
            ratios[0][1],
            ratios[1][1],
        );
    }
    let n = files.len() as f64;
    let mean = |way: usize, of: usize| (logs[way][of] / n).exp();
    println!("ratio = crate mean / delve mean per map; costs identical on every query (tolerance {OPTIMAL_TOLERANCE})");
    println!(
        "speedup vs pathfinding::astar tuned: {:.2}x lazy deletion, {:.2}x decrease-key (geometric mean)",
        mean(0, 1),
        mean(1, 1)
    );
    println!("speedup vs pathfinding::astar with lazy deletion (delve's default): {:.2}x (geometric mean)", mean(0, 0));
    println!("delve with --open decrease-key:");
    println!("speedup vs pathfinding::astar: {:.2}x (geometric mean)", mean(1, 0));
}

struct Row {
    map: String,
    queries: usize,
    /// (median, mean) µs per query: delve lazy, delve decrease-key.
    delve: [(f64, f64); 2],
    idiomatic: (f64, f64),
    tuned: (f64, f64),
    /// Million expansions per second: delve lazy, delve decrease-key.
    delve_mexp: [f64; 2],
    crate_mexp: f64,
}

fn bench_map(dir: &Path, scen: &Path) -> Row {
    let scenarios = load_scenarios(scen).unwrap_or_else(|e| panic!("{e}"));
    let level = Level::load(&dir.join(&scenarios[0].map)).unwrap_or_else(|e| panic!("{e}"));
    let open = Open::of(&level.grid);
    let mut planner = GridPlanner::new();
    let settings = [OpenUpdate::Lazy, OpenUpdate::DecreaseKey].map(|open| SearchSettings {
        tie: TieBreak::LowH,
        open,
        ..SearchSettings::default()
    });
    let (mut ours, mut idiomatic, mut tuned) = ([Vec::new(), Vec::new()], Vec::new(), Vec::new());
    let (mut expanded, crate_expanded) = (0u64, Counter::new(0u64));
    for sc in &even_sample(&scenarios, SAMPLE) {
        let [lazy, fast] = [0, 1].map(|way| {
            let o = timed(&mut ours[way], || planner.plan(&level.grid, sc.start, sc.goal, &settings[way]));
            o.expect("scenario endpoints are walkable")
        });
        assert_eq!(lazy.stats.expanded, fast.stats.expanded, "{}: both ways expand the same nodes", scen.display());
        expanded += lazy.stats.expanded;
        let a = timed(&mut idiomatic, || open.idiomatic(sc.start, sc.goal));
        let b = timed(&mut tuned, || open.tuned(sc.start, sc.goal, &crate_expanded));
        let costs = [fast.cost, a.map(|c| c as f64 / SCALE), b.map(|c| c as f64 / SCALE)];
        let ok = lazy.cost.is_some_and(|l| {
            costs.iter().all(|c| c.is_some_and(|c| (c - l).abs() <= OPTIMAL_TOLERANCE))
                && (l - sc.optimal).abs() <= OPTIMAL_TOLERANCE
        });
        assert!(
            ok,
            "{}: {} -> {}: delve {:?}, decrease-key and crate {:?}, optimal {}",
            scen.display(),
            sc.start,
            sc.goal,
            lazy.cost,
            costs,
            sc.optimal
        );
    }
    let tuned_total: f64 = tuned.iter().sum();
    let summary = |t: &mut Vec<f64>| (median(t), mean(t));
    let delve_mexp = [0, 1].map(|way| expanded as f64 / ours[way].iter().sum::<f64>());
    Row {
        map: level.name.clone(),
        queries: ours[0].len(),
        delve: ours.each_mut().map(summary),
        idiomatic: summary(&mut idiomatic),
        tuned: summary(&mut tuned),
        delve_mexp,
        crate_mexp: crate_expanded.get() as f64 / tuned_total,
    }
}

/// A node as the crate's documentation writes one.
#[derive(Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
struct Pos(i32, i32);

/// The map as the crate's user writes it: a flat walkable array.
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

    /// The legal moves from (x, y): targets and integer costs.
    fn moves(&self, x: i64, y: i64) -> impl Iterator<Item = (i64, i64, u64)> + '_ {
        DIRECTIONS.iter().filter_map(move |&(dx, dy)| {
            let (dx, dy) = (i64::from(dx), i64::from(dy));
            let diagonal = dx != 0 && dy != 0;
            let legal = self.free(x + dx, y + dy) && (!diagonal || (self.free(x + dx, y) && self.free(x, y + dy)));
            legal.then_some((x + dx, y + dy, if diagonal { DIAGONAL } else { ORTHOGONAL }))
        })
    }

    fn octile(dx: u64, dy: u64) -> u64 {
        dx.max(dy) * ORTHOGONAL + dx.min(dy) * (DIAGONAL - ORTHOGONAL)
    }

    /// The documented idiom: `Pos` nodes, a `Vec` of successors.
    fn idiomatic(&self, start: Cell, goal: Cell) -> Option<u64> {
        let goal = Pos(goal.x, goal.y);
        let successors = |p: &Pos| -> Vec<(Pos, u64)> {
            self.moves(i64::from(p.0), i64::from(p.1)).map(|(x, y, c)| (Pos(x as i32, y as i32), c)).collect()
        };
        let heuristic = |p: &Pos| Open::octile(p.0.abs_diff(goal.0).into(), p.1.abs_diff(goal.1).into());
        pathfinding::prelude::astar(&Pos(start.x, start.y), successors, heuristic, |p| *p == goal).map(|(_, c)| c)
    }

    /// The crate's best case: `usize` nodes, no allocation per expansion.
    /// `expanded` counts its expansions (calls for successors).
    fn tuned(&self, start: Cell, goal: Cell, expanded: &Counter<u64>) -> Option<u64> {
        let w = self.width;
        let (gx, gy) = (goal.x as u64, goal.y as u64);
        let goal_index = goal.y as usize * w + goal.x as usize;
        let successors = |&i: &usize| {
            expanded.set(expanded.get() + 1);
            let mut out = [(0usize, 0u64); 8];
            let mut n = 0;
            for (x, y, c) in self.moves((i % w) as i64, (i / w) as i64) {
                out[n] = (y as usize * w + x as usize, c);
                n += 1;
            }
            out.into_iter().take(n)
        };
        let heuristic = |&i: &usize| Open::octile(((i % w) as u64).abs_diff(gx), ((i / w) as u64).abs_diff(gy));
        let start_index = start.y as usize * w + start.x as usize;
        pathfinding::prelude::astar(&start_index, successors, heuristic, |&i| i == goal_index).map(|(_, c)| c)
    }
}
