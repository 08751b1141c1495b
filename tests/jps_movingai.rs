//! Jump point searches cost exactly what A* costs, to the last bit, on
//! every Moving AI scenario in ../shared/movingai (or `$DELVE_MOVINGAI`),
//! along legal cell paths; HPA* finds every path, legal, never below the
//! optimum.
//!
//! Debug builds (`cargo test`) run an even sample of each file, always
//! including its longest scenario; `cargo test --release` runs them all.

use crate::support::data;
use data::{files_with, shared_movingai_or_skip};
use delve::grid::Cell;
use delve::level::{Level, OPTIMAL_TOLERANCE, Scenario, load_scenarios};
use delve::search::{GridPlanner, Planner, SearchSettings};

/// Every `step`-th scenario in debug builds, all in release.
fn step() -> usize {
    if cfg!(debug_assertions) { 25 } else { 1 }
}

/// Cost of walking `path` step by step, as A* sums it: from 0.0, as A*'s
/// g starts, since `Sum` for floats starts from -0.0, and a scenario whose
/// start is its goal (8room_000's fifth, checked in the release build,
/// which samples every scenario) would read -0.0 against A*'s 0.0 bit for
/// bit.
fn walk_cost(grid: &delve::grid::Grid, path: &[Cell]) -> f64 {
    let steps = path.windows(2).map(|p| grid.step_cost(p[0], p[1].x - p[0].x, p[1].y - p[0].y).expect("a legal step"));
    steps.fold(0.0, |cost, step| cost + step)
}

/// Calls `check(map, scenario, where)` for the sampled scenarios of every
/// file in the Moving AI folder (skipped, with a line, when it is absent).
fn each_scenario(what: &str, mut check: impl FnMut(&Level, &Scenario, &str)) {
    let Some(dir) = shared_movingai_or_skip(what) else { return };
    for scen in files_with(&dir, "scen") {
        let scenarios = load_scenarios(&scen).unwrap();
        let map = Level::load(&dir.join(&scenarios[0].map)).unwrap();
        let longest = scenarios.len() - 1;
        for (i, sc) in scenarios.iter().enumerate().filter(|&(i, _)| i % step() == 0 || i == longest) {
            check(&map, sc, &format!("{} scenario {} ({} -> {})", scen.display(), i + 1, sc.start, sc.goal));
        }
    }
}

#[test]
fn jump_point_searches_cost_what_astar_costs_on_every_scenario() {
    let astar = SearchSettings::default();
    let mut planners = [GridPlanner::new(), GridPlanner::new()];
    let mut checked = 0;
    each_scenario("the Moving AI jump point search check", |map, sc, at| {
        let a = planners[0].plan(&map.grid, sc.start, sc.goal, &astar).unwrap().cost.expect("a path");
        assert!((a - sc.optimal).abs() <= OPTIMAL_TOLERANCE);
        for jump in [Planner::JPS, Planner::JPS_PLUS] {
            let settings = SearchSettings { planner: jump, ..astar };
            let j = planners[1].plan(&map.grid, sc.start, sc.goal, &settings).unwrap().cost;
            let path = planners[1].path();
            let at = format!("{at} by {jump}");
            assert_eq!(planners[1].ran(), jump, "{at}");
            let j = j.unwrap_or_else(|| panic!("{at}: no path"));
            assert_eq!(j.to_bits(), a.to_bits(), "{at}: {j} vs A* {a}");
            assert_eq!((path.first(), path.last()), (Some(&sc.start), Some(&sc.goal)), "{at}");
            assert_eq!(walk_cost(&map.grid, path).to_bits(), a.to_bits(), "{at}: the cell path");
            checked += 1;
        }
    });
    assert!(checked == 0 || checked > 1000, "only {checked} searches checked");
}

#[test]
fn hpa_finds_every_scenario_path() {
    let settings = SearchSettings { planner: Planner::HPA, ..SearchSettings::default() };
    let mut planner = GridPlanner::new();
    let mut checked = 0;
    each_scenario("the Moving AI HPA* check", |map, sc, at| {
        let o = planner.plan(&map.grid, sc.start, sc.goal, &settings).unwrap();
        let path = planner.path();
        let cost = o.cost.unwrap_or_else(|| panic!("{at}: no path"));
        assert!(cost >= sc.optimal - OPTIMAL_TOLERANCE, "{at}: {cost} vs {}", sc.optimal);
        assert_eq!((path.first(), path.last()), (Some(&sc.start), Some(&sc.goal)), "{at}");
        assert!((walk_cost(&map.grid, path) - cost).abs() <= OPTIMAL_TOLERANCE, "{at}: the cell path");
        checked += 1;
    });
    assert!(checked == 0 || checked > 500, "only {checked} searches checked");
}
