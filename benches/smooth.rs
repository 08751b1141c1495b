//! String-pulling beside the search on serpentine mazes (the worst case: a
//! path crossing the whole map row after row), and against the plain scan
//! it replaced (tests/support/string_pull_reference.rs), in one run. Each
//! size checks that both give the same waypoints. Run with
//! `cargo bench --bench smooth`.

#[path = "../tests/support/maze.rs"]
mod maze;
#[path = "../tests/support/string_pull_reference.rs"]
mod reference;
#[path = "support/timing.rs"]
mod timing;

use delve::grid::{Cell, Grid};
use delve::search::{GridPlanner, SearchSettings, string_pull};
use maze::serpentine;
use reference::string_pull_reference;
use std::hint::black_box;
use std::time::Instant;
use timing::median;

/// Maze sides, each with how many times the plain scan runs (it takes
/// about 40 s at 2048).
const SIZES: [(usize, usize); 3] = [(512, 5), (1024, 3), (2048, 1)];
/// How many times the search and the fast string-pulling run per size.
const SAMPLES: usize = 7;

fn main() {
    println!("serpentine maze, 8 neighbours, A* (default settings); median ms over the runs shown in brackets");
    println!(
        "{:>5} {:>10} {:>9} {:>14} {:>16} {:>18} {:>9}",
        "side", "path", "waypoints", "search ms", "string-pull ms", "plain scan ms", "speedup"
    );
    for (side, plain_runs) in SIZES {
        let (grid, from, to) = serpentine(side);
        let mut planner = GridPlanner::new();
        let search = median(&mut times(SAMPLES, || {
            black_box(planner.plan(&grid, from, to, &SearchSettings::default()).expect("the maze's ends are open"));
        }));
        let path = planner.path().to_vec();
        let (mut fast, mut plain) = (Vec::new(), Vec::new());
        let fast_ms = median(&mut times(SAMPLES, || pull(string_pull, &grid, &path, &mut fast)));
        let plain_ms = median(&mut times(plain_runs, || pull(string_pull_reference, &grid, &path, &mut plain)));
        assert_eq!(fast, plain, "side {side}: the two string-pullings differ");
        println!(
            "{side:>5} {:>10} {:>9} {:>9.1} [{SAMPLES}] {:>11.1} [{SAMPLES}] {:>13.1} [{plain_runs}] {:>8.0}x",
            path.len(),
            fast.len(),
            search,
            fast_ms,
            plain_ms,
            plain_ms / fast_ms
        );
    }
}

fn pull(f: fn(&Grid, &[Cell], &mut Vec<Cell>), grid: &Grid, path: &[Cell], out: &mut Vec<Cell>) {
    f(black_box(grid), black_box(path), out);
    black_box(&out);
}

/// Milliseconds taken by each of `runs` calls of `f`.
fn times(runs: usize, mut f: impl FnMut()) -> Vec<f64> {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}
