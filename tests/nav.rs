//! The nav layer against independent references on random levels.
//!
//! - The corner waypoint graph's paths for a point agent are the optimal
//!   any-angle paths: checked against a brute-force visibility graph over
//!   *every* free grid vertex, with a segment test written here from the
//!   definition (split at grid lines, every piece and every split point
//!   free), searched by a plain Dijkstra; on small levels, and on levels
//!   with enough corners that the graph makes its links by sweeping.
//! - The navmesh's pulled paths are never shorter than that optimum (which
//!   would mean crossing a wall), never come nearer a wall than the radius
//!   (sampled along every segment, measured here by plain geometry), and on
//!   average are no longer than the string-pulled grid A* path.

use delve::grid::{Cell, Grid, Tile};
use delve::nav::{NavMesh, Vec2, Waypoints, path_length};
use delve::search::{GridPlanner, SearchSettings, Searcher, string_pull};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg32;

fn random_grid(rng: &mut Pcg32, w: usize, h: usize, walls: f64) -> Grid {
    let tiles: Vec<Tile> =
        (0..w * h).map(|_| if rng.random_bool(walls) { Tile::Wall } else { Tile::Floor(1) }).collect();
    Grid::new(w, h, &tiles)
}

fn random_floor(rng: &mut Pcg32, grid: &Grid) -> Option<Cell> {
    let floor: Vec<Cell> = grid.cells().filter(|&c| grid.is_walkable(c)).collect();
    (!floor.is_empty()).then(|| floor[rng.random_range(0..floor.len())])
}

/// The grid as text rows, for failure messages.
fn show(grid: &Grid) -> String {
    let row = |y| {
        (0..grid.width() as i32).map(|x| if grid.is_walkable(Cell::new(x, y)) { '.' } else { '#' }).collect::<String>()
    };
    (0..grid.height() as i32).map(row).collect::<Vec<_>>().join("\n")
}

fn wall(grid: &Grid, x: f64, y: f64) -> bool {
    !grid.is_walkable(Cell::new(x as i32, y as i32)) || x < 0.0 || y < 0.0
}

/// Whether a point agent may be at `p`: inside a floor cell, on an edge
/// with floor on one side, or on a vertex that is not between two walls
/// meeting diagonally.
fn point_free(grid: &Grid, p: Vec2) -> bool {
    let (fx, fy) = (p.x.floor(), p.y.floor());
    match (p.x == fx, p.y == fy) {
        (false, false) => !wall(grid, fx, fy),
        (true, false) => !wall(grid, fx - 1.0, fy) || !wall(grid, fx, fy),
        (false, true) => !wall(grid, fx, fy - 1.0) || !wall(grid, fx, fy),
        (true, true) => {
            let (nw, ne, sw, se) = (
                wall(grid, fx - 1.0, fy - 1.0),
                wall(grid, fx, fy - 1.0),
                wall(grid, fx - 1.0, fy),
                wall(grid, fx, fy),
            );
            !((nw && se) || (ne && sw))
        }
    }
}

/// The segment split where it crosses grid lines: every piece's midpoint
/// and every split point must be free.
fn segment_free(grid: &Grid, a: Vec2, b: Vec2) -> bool {
    let at = |t: f64| Vec2::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
    let mut ts = vec![0.0, 1.0];
    for (p, q) in [(a.x, b.x), (a.y, b.y)] {
        if p != q {
            let (lo, hi) = (p.min(q).ceil() as i64, p.max(q).floor() as i64);
            ts.extend((lo..=hi).map(|k| (k as f64 - p) / (q - p)));
        }
    }
    ts.sort_by(f64::total_cmp);
    ts.dedup();
    ts.iter().all(|&t| point_free(grid, at(t))) && ts.windows(2).all(|w| point_free(grid, at((w[0] + w[1]) / 2.0)))
}

/// Dijkstra over the visibility graph of every free grid vertex plus the
/// two ends: O(V²) per node, fine on small levels.
fn brute_force(grid: &Grid, from: Vec2, to: Vec2) -> Option<f64> {
    let mut nodes = vec![from, to];
    for y in 0..=grid.height() {
        for x in 0..=grid.width() {
            let v = Vec2::new(x as f64, y as f64);
            if point_free(grid, v) {
                nodes.push(v);
            }
        }
    }
    let mut dist = vec![f64::INFINITY; nodes.len()];
    let mut done = vec![false; nodes.len()];
    dist[0] = 0.0;
    loop {
        let u = (0..nodes.len())
            .filter(|&i| !done[i] && dist[i].is_finite())
            .min_by(|&i, &j| dist[i].total_cmp(&dist[j]))?;
        if u == 1 {
            return Some(dist[1]);
        }
        done[u] = true;
        for v in 0..nodes.len() {
            if !done[v] && segment_free(grid, nodes[u], nodes[v]) {
                dist[v] = dist[v].min(dist[u] + nodes[u].distance(nodes[v]));
            }
        }
    }
}

/// Whether the corner graph finds a path from the centre of `a` to that of
/// `b`, after asserting that it finds one exactly when the brute force
/// does, of the same length.
fn agrees_with_brute_force(grid: &Grid, wp: &Waypoints, searcher: &mut Searcher, a: Cell, b: Cell) -> bool {
    let (from, to) = (Vec2::centre(a), Vec2::centre(b));
    let ours = wp.plan(grid, searcher, from, to).map(|p| p.length);
    let reference = brute_force(grid, from, to);
    match (ours, reference) {
        (Some(x), Some(y)) => {
            assert!((x - y).abs() < 1e-9, "{a} -> {b}: corner graph {x}, brute force {y}\n{}", show(grid));
            true
        }
        (None, None) => false,
        _ => panic!("{a} -> {b}: corner graph {ours:?}, brute force {reference:?}\n{}", show(grid)),
    }
}

#[test]
fn corner_graph_is_the_optimal_any_angle_path_for_a_point() {
    let mut rng = Pcg32::seed_from_u64(16);
    let mut searcher = Searcher::new();
    let (mut found, mut queries) = (0, 0);
    for _ in 0..150 {
        let grid = random_grid(&mut rng, 9, 7, 0.3);
        let wp = Waypoints::build(&grid, 0.0);
        for _ in 0..3 {
            let (Some(a), Some(b)) = (random_floor(&mut rng, &grid), random_floor(&mut rng, &grid)) else { continue };
            queries += 1;
            found += usize::from(agrees_with_brute_force(&grid, &wp, &mut searcher, a, b));
        }
    }
    assert!(found > queries / 3, "too few connected queries to mean anything: {found} of {queries}");
}

/// The same on levels with enough corners that the graph makes its links
/// by sweeping outward from each corner (from 200 corners on), not by
/// trying every corner.
#[test]
fn swept_corner_graph_is_the_optimal_any_angle_path_for_a_point() {
    let mut rng = Pcg32::seed_from_u64(1622);
    let mut searcher = Searcher::new();
    let (mut levels, mut found) = (0, 0);
    while levels < 4 {
        let grid = random_grid(&mut rng, 30, 20, 0.3);
        let wp = Waypoints::build(&grid, 0.0);
        if wp.corners().len() < 200 {
            continue;
        }
        levels += 1;
        for _ in 0..2 {
            let (Some(a), Some(b)) = (random_floor(&mut rng, &grid), random_floor(&mut rng, &grid)) else { continue };
            found += usize::from(agrees_with_brute_force(&grid, &wp, &mut searcher, a, b));
        }
    }
    assert!(found >= 3, "too few connected queries: {found}");
}

/// Euclidean distance from `p` to the square of cell (x, y); negative
/// inside it (minus the depth).
fn distance_to_cell(p: Vec2, x: i32, y: i32) -> f64 {
    let (x0, y0) = (f64::from(x), f64::from(y));
    let dx = (x0 - p.x).max(p.x - x0 - 1.0);
    let dy = (y0 - p.y).max(p.y - y0 - 1.0);
    if dx <= 0.0 && dy <= 0.0 { dx.max(dy) } else { dx.max(0.0).hypot(dy.max(0.0)) }
}

/// The smallest distance from any sample along `path` to any wall (the
/// map's outside included).
fn clearance(grid: &Grid, path: &[Vec2]) -> f64 {
    let mut least = f64::INFINITY;
    for w in path.windows(2) {
        let steps = (w[0].distance(w[1]) / 0.02).ceil().max(1.0) as usize;
        for k in 0..=steps {
            let t = k as f64 / steps as f64;
            let p = Vec2::new(w[0].x + (w[1].x - w[0].x) * t, w[0].y + (w[1].y - w[0].y) * t);
            for y in p.y as i32 - 2..=p.y as i32 + 2 {
                for x in p.x as i32 - 2..=p.x as i32 + 2 {
                    if !grid.is_walkable(Cell::new(x, y)) {
                        least = least.min(distance_to_cell(p, x, y));
                    }
                }
            }
        }
    }
    least
}

#[test]
fn navmesh_paths_are_legal_and_near_the_optimum() {
    let mut rng = Pcg32::seed_from_u64(1616);
    let mut searcher = Searcher::new();
    let mut planner = GridPlanner::new();
    for radius in [0.0, 0.3] {
        let (mut worst, mut sum, mut n) = (1.0f64, 0.0, 0);
        let (mut mesh_total, mut grid_total) = (0.0, 0.0);
        for level in 0..80 {
            // Dense levels, and open ones where the search often touches
            // a portal without crossing it.
            let grid =
                if level % 2 == 0 { random_grid(&mut rng, 28, 18, 0.2) } else { random_grid(&mut rng, 40, 30, 0.06) };
            let mesh = NavMesh::build(&grid, radius);
            let wp = Waypoints::build(&grid, radius);
            for _ in 0..4 {
                let (Some(a), Some(b)) = (random_floor(&mut rng, &grid), random_floor(&mut rng, &grid)) else {
                    continue;
                };
                let (from, to) = (Vec2::centre(a), Vec2::centre(b));
                let m = mesh.plan(&grid, &mut searcher, from, to);
                let w = wp.plan(&grid, &mut searcher, from, to);
                let (m, w) = match (m, w) {
                    (Some(m), Some(w)) => (m, w),
                    (None, None) => continue,
                    (m, w) => panic!("r={radius} {a} -> {b}: navmesh {m:?}, waypoints {w:?}\n{}", show(&grid)),
                };
                assert!(
                    m.length >= w.length - 1e-9,
                    "r={radius} {a} -> {b}: navmesh {} beats the optimum {}",
                    m.length,
                    w.length
                );
                let c = clearance(&grid, &m.points);
                assert!(
                    c >= radius - 1e-9,
                    "r={radius} {a} -> {b}: navmesh path {:?} comes within {c} of a wall",
                    m.points
                );
                let c = clearance(&grid, &w.points);
                assert!(
                    c >= radius - 1e-9,
                    "r={radius} {a} -> {b}: waypoint path {:?} comes within {c} of a wall",
                    w.points
                );
                let ratio = if w.length > 0.0 { m.length / w.length } else { 1.0 };
                worst = worst.max(ratio);
                sum += ratio;
                n += 1;
                if radius == 0.0 {
                    planner.plan(&grid, a, b, &SearchSettings::DEFAULT).unwrap();
                    let mut cells = Vec::new();
                    string_pull(&grid, planner.path(), &mut cells);
                    let pulled: Vec<Vec2> = cells.into_iter().map(Vec2::centre).collect();
                    grid_total += path_length(&pulled);
                    mesh_total += m.length;
                }
            }
        }
        println!("radius {radius}: {n} paths, navmesh / optimum mean {:.4}, worst {worst:.4}", sum / n as f64);
        assert!(n > 100, "too few connected queries: {n}");
        if radius == 0.0 {
            println!("navmesh total {mesh_total:.2} vs string-pulled grid A* {grid_total:.2}");
            assert!(mesh_total <= grid_total, "navmesh {mesh_total} longer on average than the grid's {grid_total}");
        }
    }
}
