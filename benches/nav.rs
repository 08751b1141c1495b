//! The any-angle planners against each other and against string-pulled
//! grid A*, on the shipped levels and the Moving AI maps in
//! `../shared/movingai`: build time, query time, and path length as a
//! ratio to the optimum (the corner waypoint graph's, for a point agent).
//! Run with `cargo bench --bench nav`.
//!
//! On maps with more than the corner graph's cap
//! ([`Waypoints::MAX_CORNERS`]) it is not planned and those rows have no
//! optimum (their ratio columns show `-`).
//!
//! `cargo bench --bench nav -- corners` measures the corner graph's build
//! instead: every pair tested (the build before links were made lazily)
//! against the corners found in one pass and the links made as a search
//! needs them, on the levels of the issue that asked for it.

#[path = "../tests/support/data.rs"]
mod data;
#[path = "support/timing.rs"]
mod timing;

use delve::grid::{Cell, Grid};
use delve::level::{Level, load_scenarios};
use delve::nav::{NavMesh, Space, Vec2, Waypoints, path_length};
use delve::search::{GridPlanner, SearchSettings, Searcher, string_pull};
use rand::{RngExt, SeedableRng};
use std::time::Instant;
use timing::{clocked, mean, median};

/// Queries per map.
const QUERIES: usize = 100;

fn main() {
    if std::env::args().any(|a| a == "corners") {
        return corners();
    }
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
    let wp = (corners <= Waypoints::MAX_CORNERS).then(|| Waypoints::build(grid, 0.0));
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

/// The corner graph's build, two ways, side by side in one run: testing
/// every pair of corners (the build before links were made lazily), and
/// finding the corners in one pass then making a corner's links when a
/// search first expands it. Per level: the all-pairs build (measured where
/// it takes a minute or less, else estimated from a sample of pairs), the
/// one-pass build, every corner's links made lazily (what the all-pairs
/// build computes: the two must agree, link for link), and one search
/// corner to corner across the map from nothing, for a point (`delve
/// path`'s default) and for a monster (radius 0.35).
fn corners() {
    println!("corner graph: all-pairs build vs lazy links; CPU seconds (wall in brackets)");
    println!(
        "{:<18} {:>7} {:>22} {:>10} {:>20} {:>26} {:>26}",
        "level",
        "corners",
        "all pairs",
        "one pass",
        "every link, lazily",
        "a search, r=0 (links)",
        "a search, r=0.35 (links)"
    );
    let mut levels: Vec<(String, Level)> =
        vec![("pillars 256x256".into(), pillars(256)), ("pillars 200x200".into(), pillars(200))];
    levels.push(("big (shipped)".into(), data::shipped_level("big")));
    if let Some(dir) = data::shared_movingai_dir() {
        for name in ["Aftershock", "8room_000", "maze512-1-0", "random512-10-0"] {
            levels.push((name.into(), Level::load(&dir.join(format!("{name}.map"))).expect("the benchmark map loads")));
        }
    } else {
        println!("(skipped the Moving AI maps: no ../shared/movingai)");
    }
    for (name, level) in levels {
        let grid = &level.grid;
        let (wp, _, build_cpu) = clocked(|| Waypoints::build(grid, 0.0));
        let n = wp.corners().len();
        let pairs = n * n.saturating_sub(1) / 2;
        // Every pair where that takes a minute or so; a sample otherwise.
        let full = pairs <= 140_000_000;
        let (reference, wall, cpu) = clocked(|| every_pair(grid, &wp, if full { usize::MAX } else { 2_000_000 }));
        let (tested, links) = reference;
        let scale = pairs as f64 / tested.max(1) as f64;
        let all_pairs = format!("{:.1} ({:.1}){}", cpu * scale, wall * scale, if full { "" } else { " est." });
        let (_, lazy_wall, lazy_cpu) = clocked(|| wp.link_all(grid));
        if full {
            let lazily: Vec<Vec<(u32, u64)>> =
                (0..n as u32).map(|i| wp.links(grid, i).iter().map(|&(v, c)| (v, c.to_bits())).collect()).collect();
            assert!(lazily == links, "{name}: the lazy links differ from every pair's");
        }
        let search = |radius: f64| {
            let (a, b) = far_apart(grid);
            // Made from nothing ten times over, each on a new graph.
            let ((links, found), wall, cpu) = clocked(|| {
                let mut last = (0, false);
                for _ in 0..10 {
                    let wp = Waypoints::build(grid, radius);
                    let found = wp.plan(grid, &mut Searcher::new(), a, b).is_some();
                    last = (wp.link_count(), found);
                }
                last
            });
            assert!(found, "{name}: no path across");
            format!("{:.4} ({:.4}) {links}", cpu / 10.0, wall / 10.0)
        };
        println!(
            "{:<18} {:>7} {:>22} {:>10.4} {:>20} {:>26} {:>26}",
            name,
            n,
            all_pairs,
            build_cpu,
            format!("{lazy_cpu:.2} ({lazy_wall:.2})"),
            search(0.0),
            search(0.35)
        );
    }
}

/// A lattice of single pillars, one every 4 cells each way, `side` cells
/// a side: the most open levels for their corners (each sees hundreds).
/// The level is 256 x 256, 16,384 corners; 200 x 200 is the cap's
/// 10,000.
fn pillars(side: usize) -> Level {
    let rows: Vec<String> =
        (0..side).map(|y| (0..side).map(|x| if x % 4 == 1 && y % 4 == 1 { '#' } else { '.' }).collect()).collect();
    Level::parse(&rows.join("\n"), "pillars").expect("the pillars parse")
}

/// Two free cell centres far apart: the free cells nearest the map's
/// top-left and bottom-right corners.
fn far_apart(grid: &Grid) -> (Vec2, Vec2) {
    let free: Vec<Cell> = grid.cells().filter(|&c| grid.is_walkable(c)).collect();
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let near = |x: i32, y: i32| *free.iter().min_by_key(|c| (c.x - x).abs() + (c.y - y).abs()).expect("a free cell");
    (Vec2::centre(near(0, 0)), Vec2::centre(near(w - 1, h - 1)))
}

/// The all-pairs build, as the graph was built before: every pair of
/// corners, the tangent test at both ends, then the exact segment test.
/// Stops after `limit` pairs; returns the pairs tested and, per corner,
/// its links (corner, distance bits).
fn every_pair(grid: &Grid, wp: &Waypoints, limit: usize) -> (usize, Vec<Vec<(u32, u64)>>) {
    let space = Space::new(grid, wp.radius());
    let at: Vec<Vec2> = wp.corners().collect();
    // Each corner's wall diagonal, from the grid: the one wall cell at it.
    let wall: Vec<(f64, f64)> = at
        .iter()
        .map(|p| {
            let (i, j) = (p.x as i32, p.y as i32);
            let mut walls = [(0, 0), (1, 0), (0, 1), (1, 1)]
                .into_iter()
                .filter(|&(a, b)| !grid.is_walkable(Cell::new(i - 1 + a, j - 1 + b)));
            let (a, b) = walls.next_back().expect("a corner has a wall");
            (f64::from(2 * a - 1), f64::from(2 * b - 1))
        })
        .collect();
    let tangent = |k: usize, d: Vec2| d.x * d.y * wall[k].0 * wall[k].1 <= 0.0;
    let mut links = vec![Vec::new(); at.len()];
    let mut tested = 0;
    'all: for u in 0..at.len() {
        for v in u + 1..at.len() {
            if tested == limit {
                break 'all;
            }
            tested += 1;
            let d = at[v] - at[u];
            if tangent(u, d) && tangent(v, d) && space.segment_clear(at[u], at[v]) {
                let cost = at[u].distance(at[v]).to_bits();
                links[u].push((v as u32, cost));
                links[v].push((u as u32, cost));
            }
        }
    }
    (tested, links)
}
