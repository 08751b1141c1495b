//! Jump point searches cost exactly what A* costs, to the last bit, on
//! every Moving AI scenario in ../shared/movingai (or `$DELVE_MOVINGAI`),
//! along legal cell paths; HPA* finds every path, legal, never below the
//! optimum.
//!
//! Debug builds (`cargo test`) run an even sample of each file, always
//! including its longest scenario; `cargo test --release` runs them all.

use delve::grid::Cell;
use delve::level::{Level, OPTIMAL_TOLERANCE, load_scenarios};
use delve::search::{Algorithm, GridPlanner, SearchSettings};
#[path = "support/data.rs"]
mod data;
use data::{files_with, movingai_dir_if_present};

/// Every `step`-th scenario in debug builds, all in release.
fn step() -> usize {
    if cfg!(debug_assertions) { 25 } else { 1 }
}

/// Cost of walking `path` step by step, as A* sums it.
fn walk_cost(grid: &delve::grid::Grid, path: &[Cell]) -> f64 {
    path.windows(2).map(|p| grid.step_cost(p[0], p[1].x - p[0].x, p[1].y - p[0].y).expect("a legal step")).sum()
}

#[test]
fn jump_point_searches_cost_what_astar_costs_on_every_scenario() {
    let Some(dir) = movingai_dir_if_present("the Moving AI jump point search check") else { return };
    let astar = SearchSettings::default();
    let mut planners = [GridPlanner::new(), GridPlanner::new()];
    let mut checked = 0;
    for scen in files_with(&dir, "scen") {
        let scenarios = load_scenarios(&scen).unwrap();
        let map = Level::load(&dir.join(&scenarios[0].map)).unwrap();
        let longest = scenarios.len() - 1;
        for (i, sc) in scenarios.iter().enumerate().filter(|&(i, _)| i % step() == 0 || i == longest) {
            let a = planners[0].plan(&map.grid, sc.start, sc.goal, &astar).unwrap();
            assert!((a.cost - sc.optimal).abs() <= OPTIMAL_TOLERANCE);
            for &algorithm in Algorithm::ALL.iter().filter(|a| a.jumps()) {
                let settings = SearchSettings { algorithm, ..astar };
                let j = planners[1].plan(&map.grid, sc.start, sc.goal, &settings).unwrap();
                let path = planners[1].path();
                let at = format!("{} scenario {} ({} -> {}) by {algorithm}", scen.display(), i + 1, sc.start, sc.goal);
                assert!(j.found && !j.stats.ran_astar, "{at}");
                assert_eq!(j.cost.to_bits(), a.cost.to_bits(), "{at}: {} vs A* {}", j.cost, a.cost);
                assert_eq!((path.first(), path.last()), (Some(&sc.start), Some(&sc.goal)), "{at}");
                assert_eq!(walk_cost(&map.grid, path).to_bits(), a.cost.to_bits(), "{at}: the cell path");
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} searches checked");
}

#[test]
fn hpa_finds_every_scenario_path() {
    let Some(dir) = movingai_dir_if_present("the Moving AI HPA* check") else { return };
    let settings = SearchSettings { algorithm: Algorithm::Hpa, ..SearchSettings::default() };
    let mut planner = GridPlanner::new();
    let mut checked = 0;
    for scen in files_with(&dir, "scen") {
        let scenarios = load_scenarios(&scen).unwrap();
        let map = Level::load(&dir.join(&scenarios[0].map)).unwrap();
        let longest = scenarios.len() - 1;
        for (i, sc) in scenarios.iter().enumerate().filter(|&(i, _)| i % step() == 0 || i == longest) {
            let o = planner.plan(&map.grid, sc.start, sc.goal, &settings).unwrap();
            let path = planner.path();
            let at = format!("{} scenario {} ({} -> {})", scen.display(), i + 1, sc.start, sc.goal);
            assert!(o.found && o.cost >= sc.optimal - OPTIMAL_TOLERANCE, "{at}: {} vs {}", o.cost, sc.optimal);
            assert_eq!((path.first(), path.last()), (Some(&sc.start), Some(&sc.goal)), "{at}");
            assert!((walk_cost(&map.grid, path) - o.cost).abs() <= OPTIMAL_TOLERANCE, "{at}: the cell path");
            checked += 1;
        }
    }
    assert!(checked > 500, "only {checked} searches checked");
}
