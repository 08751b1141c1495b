//! The any-angle planners against each other and against string-pulled
//! grid A*, on the shipped levels and the Moving AI maps in
//! `../shared/movingai`: build time, query time, and path length as a
//! ratio to the optimum (the corner waypoint graph's, for a point agent).
//! Run with `cargo bench --bench nav`.
//!
//! The waypoint graph's build is quadratic in its corners, so on maps with
//! more than [`MAX_CORNERS`] it is not built and those rows have no
//! optimum (their ratio columns show `-`).

#[path = "../tests/support/data.rs"]
mod data;
#[path = "support/timing.rs"]
mod timing;

use delve::grid::{Cell, Grid};
use delve::level::{Level, load_scenarios};
use delve::nav::{NavMesh, Vec2, Waypoints, path_length};
use delve::search::{GridPlanner, SearchSettings, Searcher, string_pull};
use rand::{RngExt, SeedableRng};
use std::time::Instant;
use timing::{mean, median};

/// Queries per map.
const QUERIES: usize = 100;
/// Largest corner count whose waypoint graph is built.
const MAX_CORNERS: usize = 4000;

fn main() {
    println!("point agent (radius 0); µs per query: median; ratio: mean path length / optimum (worst in brackets)");
    println!(
        "{:<16} {:>9} {:>6} {:>8} {:>7} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>16}",
        "map",
        "size",
        "polys",
        "mesh ms",
        "corners",
        "wp ms",
        "grid µs",
        "mesh µs",
        "wp µs",
        "grid/mesh",
        "grid",
        "navmesh"
    );
    let mut rng = rand_pcg::Pcg32::seed_from_u64(16);
    for (name, level) in data::shipped_levels() {
        let floor: Vec<Cell> = level.grid.cells().filter(|&c| level.grid.is_walkable(c)).collect();
        let pick = |rng: &mut rand_pcg::Pcg32| floor[rng.random_range(0..floor.len())];
        let queries: Vec<(Cell, Cell)> = (0..QUERIES).map(|_| (pick(&mut rng), pick(&mut rng))).collect();
        row(&name, &level.grid, &queries);
    }
    let Some(dir) = data::shared_movingai_dir() else {
        println!("skipped the Moving AI maps: no ../shared/movingai");
        return;
    };
    for scen in data::files_with(&dir, "scen") {
        let scenarios = load_scenarios(&scen).expect("the benchmark scenarios load");
        let map = dir.join(&scenarios[0].map);
        let level = Level::load(&map).expect("the benchmark map loads");
        let step = (scenarios.len() / QUERIES).max(1);
        let queries: Vec<(Cell, Cell)> =
            scenarios.iter().step_by(step).take(QUERIES).map(|s| (s.start, s.goal)).collect();
        row(map.file_stem().unwrap().to_str().unwrap(), &level.grid, &queries);
    }
    println!(
        "grid/mesh: how many times faster a navmesh query (locate, portal search, funnel) is than grid A* + string-pulling"
    );
}

fn row(name: &str, grid: &Grid, queries: &[(Cell, Cell)]) {
    let mut builds: Vec<f64> = (0..3).map(|_| NavMesh::build(grid, 0.0).build_micros()).collect();
    let mesh = NavMesh::build(grid, 0.0);
    let corners = Waypoints::count(grid);
    let wp = (corners <= MAX_CORNERS).then(|| Waypoints::build(grid, 0.0));
    let mut planner = GridPlanner::new();
    let mut searcher = Searcher::new();
    let (mut grid_us, mut mesh_us, mut wp_us) = (Vec::new(), Vec::new(), Vec::new());
    let (mut grid_ratio, mut mesh_ratio) = (Vec::new(), Vec::new());
    let mut cells = Vec::new();
    for &(a, b) in queries {
        let began = Instant::now();
        let found = planner.plan(grid, a, b, &SearchSettings::default()).expect("open ends").found;
        string_pull(grid, planner.path(), &mut cells);
        grid_us.push(began.elapsed().as_secs_f64() * 1e6);
        let (from, to) = (Vec2::centre(a), Vec2::centre(b));
        let began = Instant::now();
        let m = mesh.plan(grid, &mut searcher, from, to);
        mesh_us.push(began.elapsed().as_secs_f64() * 1e6);
        assert_eq!(found, m.is_some(), "{name} {a} -> {b}: grid and navmesh disagree on reachability");
        let Some(m) = m else { continue };
        let Some(wp) = &wp else { continue };
        let began = Instant::now();
        let w = wp.plan(grid, &mut searcher, from, to).expect("reachable on the mesh, so for the corner graph");
        wp_us.push(began.elapsed().as_secs_f64() * 1e6);
        if w.length > 0.0 {
            let pulled: Vec<Vec2> = cells.iter().map(|&c| Vec2::centre(c)).collect();
            grid_ratio.push(path_length(&pulled) / w.length);
            mesh_ratio.push(m.length / w.length);
        }
    }
    let ratio = |r: &[f64]| {
        if r.is_empty() {
            "-".to_string()
        } else {
            format!("{:.4} [{:.3}]", mean(r), r.iter().cloned().fold(1.0, f64::max))
        }
    };
    let (g, m) = (median(&mut grid_us), median(&mut mesh_us));
    let wp_ms = wp.as_ref().map_or("-".to_string(), |w| format!("{:.1}", w.build_micros() / 1e3));
    let wp_q = if wp_us.is_empty() { "-".to_string() } else { format!("{:.1}", median(&mut wp_us)) };
    println!(
        "{:<16} {:>9} {:>6} {:>8.2} {:>7} {:>9} {:>9.1} {:>9.1} {:>9} {:>8.1}x {:>16} {:>16}",
        name,
        format!("{}x{}", grid.width(), grid.height()),
        mesh.polygon_count(),
        median(&mut builds) / 1e3,
        corners,
        wp_ms,
        g,
        m,
        wp_q,
        g / m,
        ratio(&grid_ratio),
        ratio(&mesh_ratio),
    );
}
