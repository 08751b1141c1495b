//! Every Moving AI scenario in ../shared/movingai comes out optimal.
//!
//! Debug builds (`cargo test`) run an even sample of each file, always
//! including its longest scenario; `cargo test --release` runs them all.

use delve::level::{Level, OPTIMAL_TOLERANCE, load_scenarios};
use delve::search::{GridPlanner, SearchSettings};
#[path = "support/data.rs"]
mod data;
use data::{files_with, movingai_dir};

/// Every `step`-th scenario in debug builds, all in release.
fn step() -> usize {
    if cfg!(debug_assertions) { 25 } else { 1 }
}

#[test]
fn every_scenario_is_optimal() {
    let dir = movingai_dir();
    let files = files_with(&dir, "scen");
    assert!(files.len() >= 7, "expected the seven benchmark scenario files in {}", dir.display());
    let settings = SearchSettings::default();
    let mut planner = GridPlanner::new();
    let mut checked = 0;
    for scen in files {
        let scenarios = load_scenarios(&scen).unwrap();
        let map = Level::load(&dir.join(&scenarios[0].map)).unwrap();
        let longest = scenarios.len() - 1;
        for (i, sc) in scenarios.iter().enumerate().filter(|&(i, _)| i % step() == 0 || i == longest) {
            let o = planner.plan(&map.grid, sc.start, sc.goal, &settings).unwrap();
            assert!(o.found, "{}: scenario {} has no path", scen.display(), i + 1);
            assert!(
                (o.cost - sc.optimal).abs() <= OPTIMAL_TOLERANCE,
                "{}: scenario {} ({} -> {}) costs {} but the optimum is {}",
                scen.display(),
                i + 1,
                sc.start,
                sc.goal,
                o.cost,
                sc.optimal
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "only {checked} scenarios checked");
}
