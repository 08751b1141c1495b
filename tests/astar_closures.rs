//! The closure-based `astar` against the `pathfinding` crate's on random
//! directed graphs with several goals and admissible heuristics, and
//! against the engine run through `GridPlanner` on a level: the same
//! search, so the same path and the same counters.

use delve::grid::{Cell, DIRECTIONS, Neighbors};
use delve::level::Level;
use delve::search::{Graph, GridGraph, GridPlanner, Heuristic, Planner, SearchSettings, astar};
use proptest::prelude::*;

/// A directed graph: the edges leaving each node, (node, cost), in order.
type Edges = Vec<Vec<(usize, u64)>>;

/// The cheapest cost from every node to the nearest goal (Bellman-Ford
/// over the edges; `None`: no goal reachable).
fn to_goal(edges: &Edges, goals: &[bool]) -> Vec<Option<u64>> {
    let mut best: Vec<Option<u64>> = goals.iter().map(|&g| g.then_some(0)).collect();
    loop {
        let mut changed = false;
        for (u, out) in edges.iter().enumerate() {
            for &(v, c) in out {
                if let Some(through) = best[v].map(|d| d + c)
                    && best[u].is_none_or(|b| through < b)
                {
                    best[u] = Some(through);
                    changed = true;
                }
            }
        }
        if !changed {
            return best;
        }
    }
}

fn graph() -> impl Strategy<Value = (Edges, Vec<bool>, usize, u8)> {
    (2usize..40).prop_flat_map(|n| {
        let edge = (0..n, 1u64..10);
        (
            prop::collection::vec(prop::collection::vec(edge, 0..5), n),
            prop::collection::vec(prop::bool::weighted(0.1), n),
            0..n,
            // The heuristic: none, half the true cost, the true cost.
            0u8..3,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn closures_find_what_pathfinding_finds((edges, goals, start, kind) in graph()) {
        let exact = to_goal(&edges, &goals);
        // Admissible and consistent: 0, ⌊d/2⌋ or d (0 where no goal is reachable).
        let h = |n: &usize| -> u64 {
            let d = exact[*n].unwrap_or(0);
            match kind { 0 => 0, 1 => d / 2, _ => d }
        };
        let successors = |n: &usize| edges[*n].clone();
        let want = pathfinding::prelude::astar(&start, successors, h, |n| goals[*n]);
        let found = astar(
            &start,
            |n| edges[*n].iter().map(|&(v, c)| (v, c as f64)).collect::<Vec<_>>(),
            |n| h(n) as f64,
            |n| goals[*n],
        );
        match (&found.path, &want) {
            (None, None) => {}
            (Some((path, cost)), Some((_, want_cost))) => {
                prop_assert_eq!(*cost, *want_cost as f64);
                prop_assert_eq!(path.first(), Some(&start));
                prop_assert!(goals[*path.last().unwrap()], "ends on a goal: {:?}", path);
                prop_assert!(path[..path.len() - 1].iter().all(|&n| !goals[n]), "the first goal ends it: {:?}", path);
                // Each step is an edge, at its cheapest, and they add up.
                let mut sum = 0;
                for w in path.windows(2) {
                    let step = edges[w[0]].iter().filter(|e| e.0 == w[1]).map(|e| e.1).min();
                    prop_assert!(step.is_some(), "no edge {} → {}", w[0], w[1]);
                    sum += step.unwrap();
                }
                prop_assert_eq!(sum as f64, *cost);
            }
            _ => prop_assert!(false, "astar {:?}, pathfinding {:?}", found.path, want),
        }
    }
}

/// On a level, the closures over the grid's moves run the very search the
/// grid planner runs: same path, cost and counters, with the octile
/// heuristic and with none (which meets more cells than the first run of
/// the closures has room for, so it runs again).
#[test]
fn closures_over_a_grid_search_as_the_grid_planner_does() {
    let level = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/dungeon.txt").as_ref()).unwrap();
    let grid = &level.grid;
    let (from, to) = (level.start.unwrap(), level.goal.unwrap());
    let moves = |c: &Cell| {
        let c = *c;
        DIRECTIONS.iter().filter_map(move |&(dx, dy)| Some((Cell::new(c.x + dx, c.y + dy), grid.step_cost(c, dx, dy)?)))
    };
    for heuristic in [Heuristic::Octile, Heuristic::Zero] {
        let settings = SearchSettings { planner: Planner::ASTAR, heuristic, ..Default::default() };
        let mut planner = GridPlanner::new();
        let planned = planner.plan(grid, from, to, &settings).unwrap();
        // The grid graph's heuristic, read through the Graph trait.
        let view = GridGraph::new(grid, Neighbors::Eight, heuristic, from, to);
        let found = astar(&from, moves, |c| view.heuristic(grid.node(*c)), |&c| c == to);
        let (path, cost) = found.path.unwrap();
        assert_eq!(path, planner.path(), "{heuristic}");
        let steps = path.windows(2).map(|w| grid.step_cost(w[0], w[1].x - w[0].x, w[1].y - w[0].y).unwrap());
        assert_eq!(cost, steps.sum::<f64>());
        let (a, b) = (found.stats, planned.stats);
        let counters = |s: delve::search::SearchStats| (s.expanded, s.pushed, s.stale_pops, s.max_open, s.violations);
        assert_eq!(counters(a), counters(b), "{heuristic}");
        if heuristic == Heuristic::Zero {
            assert!(a.expanded > 1024, "more cells than the first run has room for: {}", a.expanded);
        }
    }
}
