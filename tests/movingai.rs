//! Every Moving AI scenario comes out optimal: those of the small map
//! shipped in tests/fixtures/movingai always, and those of the benchmark
//! folder ../shared/movingai when it is beside the repository (a test
//! says it skipped when it is not).
//!
//! Debug builds (`cargo test`) run an even sample of each benchmark file,
//! always including its longest scenario; `cargo test --release` runs them
//! all.

use crate::support::data;
use data::{files_with, fixture_dir, shared_movingai_or_skip};
use delve::level::{Level, OPTIMAL_TOLERANCE, load_scenarios};
use delve::search::{GridPlanner, SearchSettings};
use std::path::Path;

/// Every `step`-th scenario in debug builds, all in release.
fn step() -> usize {
    if cfg!(debug_assertions) { 25 } else { 1 }
}

/// Runs every `step`-th scenario of `scen` (and its last, the longest)
/// with delve's defaults and checks each cost against the file's optimum;
/// returns how many were checked.
fn check_optimal(scen: &Path, step: usize) -> usize {
    let scenarios = load_scenarios(scen).unwrap();
    let map = Level::load(&scen.with_file_name(scenarios[0].map_file_name())).unwrap();
    let settings = SearchSettings::default();
    let mut planner = GridPlanner::new();
    let longest = scenarios.len() - 1;
    let mut checked = 0;
    for (i, sc) in scenarios.iter().enumerate().filter(|&(i, _)| i % step == 0 || i == longest) {
        let o = planner.plan(&map.grid, sc.start, sc.goal, &settings).unwrap();
        let Some(cost) = o.cost else { panic!("{}: scenario {} has no path", scen.display(), i + 1) };
        assert!(
            (cost - sc.optimal).abs() <= OPTIMAL_TOLERANCE,
            "{}:{}: {} -> {} costs {} but the optimum is {}",
            scen.display(),
            sc.line,
            sc.start,
            sc.goal,
            cost,
            sc.optimal
        );
        checked += 1;
    }
    checked
}

#[test]
fn every_benchmark_scenario_is_optimal() {
    let Some(dir) = shared_movingai_or_skip("every_benchmark_scenario_is_optimal") else { return };
    let files = files_with(&dir, "scen");
    assert!(files.len() >= 7, "expected the seven benchmark scenario files in {}", dir.display());
    let checked: usize = files.iter().map(|scen| check_optimal(scen, step())).sum();
    assert!(checked > 500, "only {checked} scenarios checked");
}

#[test]
fn every_fixture_scenario_is_optimal() {
    let scen = fixture_dir().join("rooms.map.scen");
    assert_eq!(check_optimal(&scen, 1), load_scenarios(&scen).unwrap().len());
}

/// The fixture's optimal lengths, checked with the `pathfinding` crate's
/// Dijkstra on the map as this test reads it (not delve's reader or
/// search): 8 neighbours, √2 diagonals, no corner cutting, `.` `G` `S`
/// passable. Costs are integers scaled by 10^8, exact to 10^-6 here.
#[test]
fn fixture_lengths_agree_with_pathfinding() {
    let dir = fixture_dir();
    let text = std::fs::read_to_string(dir.join("rooms.map")).unwrap();
    let rows: Vec<&[u8]> = text.lines().skip(4).map(str::as_bytes).collect();
    let open = |x: i32, y: i32| {
        y >= 0 && x >= 0 && rows.get(y as usize).and_then(|r| r.get(x as usize)).is_some_and(|c| b".GS".contains(c))
    };
    const ORTHOGONAL: u64 = 100_000_000;
    let diagonal = (2f64.sqrt() * ORTHOGONAL as f64).round() as u64;
    let successors = |&(x, y): &(i32, i32)| {
        let mut next = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                let diagonal_step = dx != 0 && dy != 0;
                if (dx, dy) == (0, 0) || !open(x + dx, y + dy) || diagonal_step && !(open(x + dx, y) && open(x, y + dy))
                {
                    continue;
                }
                next.push(((x + dx, y + dy), if diagonal_step { diagonal } else { ORTHOGONAL }));
            }
        }
        next
    };
    let scenarios = load_scenarios(&dir.join("rooms.map.scen")).unwrap();
    assert!(scenarios.len() >= 40, "a fixture of a few dozen scenarios");
    assert!(scenarios.iter().any(|s| s.bucket >= 10), "and some long ones");
    for sc in &scenarios {
        let (start, goal) = ((sc.start.x, sc.start.y), (sc.goal.x, sc.goal.y));
        let (_, cost) = pathfinding::prelude::dijkstra(&start, successors, |&c| c == goal)
            .unwrap_or_else(|| panic!("rooms.map.scen:{}: no path", sc.line));
        let length = cost as f64 / ORTHOGONAL as f64;
        assert!(
            (length - sc.optimal).abs() < 1e-6,
            "rooms.map.scen:{}: {length} but the file says {}",
            sc.line,
            sc.optimal
        );
    }
}
