//! String-pulling beside the search on serpentine mazes (the worst case: a
//! path crossing the whole map row after row) and on open maps strewn with
//! single-cell walls (many short shadows, where skipping helps least), and
//! against the plain scan it replaced (tests/support/string_pull_reference.rs),
//! in one run. Each row checks that both give the same waypoints. Run with
//! `cargo bench --bench smooth`.

#[path = "../tests/support/maze.rs"]
mod maze;
#[path = "../tests/support/string_pull_reference.rs"]
mod reference;
#[path = "support/timing.rs"]
mod timing;

use delve::grid::{Cell, Grid, Tile};
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
    println!("8 neighbours, A* (default settings); median ms over the runs shown in brackets");
    println!("maze: serpentine corridors; strewn: open floor, 1 cell in 5 a wall, corner to corner");
    println!(
        "{:<6} {:>5} {:>10} {:>9} {:>14} {:>16} {:>18} {:>9}",
        "map", "side", "path", "waypoints", "search ms", "string-pull ms", "plain scan ms", "speedup"
    );
    for (side, plain_runs) in SIZES {
        let (grid, from, to) = serpentine(side);
        row("maze", side, plain_runs, &grid, from, to);
    }
    for side in [512, 1024, 2048] {
        let (grid, from, to) = strewn(side);
        row("strewn", side, SAMPLES, &grid, from, to);
    }
}

/// Times the search, string-pulling and the plain scan from `from` to `to`
/// and prints them as one row.
fn row(map: &str, side: usize, plain_runs: usize, grid: &Grid, from: Cell, to: Cell) {
    let mut planner = GridPlanner::new();
    let mut found = false;
    let search = median(&mut times(SAMPLES, || {
        found = black_box(planner.plan(grid, from, to, &SearchSettings::default()).expect("the ends are open")).found;
    }));
    assert!(found, "{map} {side}: no path from {from} to {to}");
    let path = planner.path().to_vec();
    let (mut fast, mut plain) = (Vec::new(), Vec::new());
    let fast_ms = median(&mut times(SAMPLES, || pull(string_pull, grid, &path, &mut fast)));
    let plain_ms = median(&mut times(plain_runs, || pull(string_pull_reference, grid, &path, &mut plain)));
    assert_eq!(fast, plain, "{map} {side}: the two string-pullings differ");
    println!(
        "{map:<6} {side:>5} {:>10} {:>9} {:>9.1} [{SAMPLES}] {:>11.1} [{SAMPLES}] {:>13.1} [{plain_runs}] {:>8.0}x",
        path.len(),
        fast.len(),
        search,
        fast_ms,
        plain_ms,
        plain_ms / fast_ms
    );
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

/// A `side × side` open floor where about one cell in five, chosen by a
/// fixed xorshift stream, is a wall; the corners are kept open.
fn strewn(side: usize) -> (Grid, Cell, Cell) {
    let mut state = 0x2545_f491u32;
    let tiles: Vec<Tile> = (0..side * side)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            if state.is_multiple_of(5) { Tile::Wall } else { Tile::Floor(1) }
        })
        .collect();
    let mut grid = Grid::new(side, side, &tiles);
    let (from, to) = (Cell::new(0, 0), Cell::new(side as i32 - 1, side as i32 - 1));
    grid.set_tile(from, Tile::Floor(1));
    grid.set_tile(to, Tile::Floor(1));
    (grid, from, to)
}
