//! Property tests of the search family on random grids, against a plain
//! Dijkstra and a plain BFS written here, independently of the engine.

use delve::grid::{Cell, DIRECTIONS, Grid, Neighbors, Tile, line_of_sight};
use delve::search::{Algorithm, GridPlanner, Heuristic, SearchSettings, TieBreak, string_pull};
use proptest::prelude::*;
use std::collections::{BinaryHeap, VecDeque};

/// Legal moves of `neighbors` from `c`, with their costs.
fn moves(grid: &Grid, c: Cell, neighbors: Neighbors) -> impl Iterator<Item = (Cell, f64)> + '_ {
    DIRECTIONS[..neighbors.count()]
        .iter()
        .filter_map(move |&(dx, dy)| grid.step_cost(c, dx, dy).map(|k| (Cell::new(c.x + dx, c.y + dy), k)))
}

/// Textbook Dijkstra over a `Vec` of distances; returns the optimal cost.
fn reference_cost(grid: &Grid, from: Cell, to: Cell, neighbors: Neighbors) -> Option<f64> {
    #[derive(PartialEq)]
    struct Item(f64, Cell);
    impl Eq for Item {}
    impl PartialOrd for Item {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Item {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            o.0.total_cmp(&self.0)
        }
    }
    let w = grid.width();
    let idx = |c: Cell| c.y as usize * w + c.x as usize;
    let mut dist = vec![f64::INFINITY; w * grid.height()];
    dist[idx(from)] = 0.0;
    let mut heap = BinaryHeap::from([Item(0.0, from)]);
    while let Some(Item(d, c)) = heap.pop() {
        if c == to {
            return Some(d);
        }
        if d > dist[idx(c)] {
            continue;
        }
        for (n, k) in moves(grid, c, neighbors) {
            if d + k < dist[idx(n)] {
                dist[idx(n)] = d + k;
                heap.push(Item(d + k, n));
            }
        }
    }
    None
}

/// Fewest steps from `from` to `to`.
fn reference_steps(grid: &Grid, from: Cell, to: Cell, neighbors: Neighbors) -> Option<usize> {
    let w = grid.width();
    let idx = |c: Cell| c.y as usize * w + c.x as usize;
    let mut steps = vec![usize::MAX; w * grid.height()];
    steps[idx(from)] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for (n, _) in moves(grid, c, neighbors) {
            if steps[idx(n)] == usize::MAX {
                steps[idx(n)] = steps[idx(c)] + 1;
                queue.push_back(n);
            }
        }
    }
    (steps[idx(to)] != usize::MAX).then(|| steps[idx(to)])
}

/// Cost of walking `path` move by move; panics on an illegal move.
fn walk_cost(grid: &Grid, path: &[Cell], neighbors: Neighbors) -> f64 {
    path.windows(2)
        .map(|p| {
            let (dx, dy) = (p[1].x - p[0].x, p[1].y - p[0].y);
            assert!(DIRECTIONS[..neighbors.count()].contains(&(dx, dy)), "not a move: {} -> {}", p[0], p[1]);
            grid.step_cost(p[0], dx, dy).unwrap_or_else(|| panic!("illegal step {} -> {}", p[0], p[1]))
        })
        .sum()
}

#[derive(Debug, Clone)]
struct Case {
    grid: Grid,
    from: Cell,
    to: Cell,
    neighbors: Neighbors,
    weighted: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..14, 1usize..14, any::<bool>(), any::<bool>()).prop_flat_map(|(w, h, weighted, eight)| {
        let tile = if weighted {
            prop_oneof![3 => Just(Tile::Wall), 7 => (1u8..=9).prop_map(Tile::Floor)].boxed()
        } else {
            prop_oneof![3 => Just(Tile::Wall), 7 => Just(Tile::Floor(1))].boxed()
        };
        (proptest::collection::vec(tile, w * h), 0..w, 0..h, 0..w, 0..h).prop_map(move |(mut tiles, sx, sy, gx, gy)| {
            tiles[sy * w + sx] = Tile::Floor(1);
            tiles[gy * w + gx] = Tile::Floor(1);
            Case {
                grid: Grid::new(w, h, &tiles),
                from: Cell::new(sx as i32, sy as i32),
                to: Cell::new(gx as i32, gy as i32),
                neighbors: if eight { Neighbors::Eight } else { Neighbors::Four },
                weighted,
            }
        })
    })
}

fn admissible(neighbors: Neighbors) -> &'static [Heuristic] {
    match neighbors {
        Neighbors::Four => Heuristic::ALL,
        Neighbors::Eight => &[Heuristic::Euclidean, Heuristic::Octile, Heuristic::Chebyshev, Heuristic::Zero],
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn optimal_algorithms_match_reference(c in case()) {
        let best = reference_cost(&c.grid, c.from, c.to, c.neighbors);
        let mut planner = GridPlanner::new();
        for &heuristic in admissible(c.neighbors) {
            for &tie in TieBreak::ALL {
                for (algorithm, reopen) in [(Algorithm::Dijkstra, false), (Algorithm::AStar, false), (Algorithm::AStar, true)] {
                    let s = SearchSettings { algorithm, heuristic, tie, neighbors: c.neighbors, weight: 1.0, reopen };
                    let o = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
                    prop_assert_eq!(o.found, best.is_some(), "{:?}", s);
                    if let Some(best) = best {
                        prop_assert!(close(o.cost, best), "{:?}: {} vs optimal {}", s, o.cost, best);
                        prop_assert!(close(walk_cost(&c.grid, planner.path(), c.neighbors), o.cost));
                        prop_assert_eq!(planner.path().first(), Some(&c.from));
                        prop_assert_eq!(planner.path().last(), Some(&c.to));
                    }
                    prop_assert!(o.stats.max_open as usize <= c.grid.width() * c.grid.height());
                    prop_assert_eq!(o.stats.violations, 0, "consistent heuristic {:?}", s);
                }
            }
        }
    }

    #[test]
    fn weighted_astar_stays_within_w_times_optimal(c in case(), w in 1.0f64..4.0) {
        let best = reference_cost(&c.grid, c.from, c.to, c.neighbors);
        let mut planner = GridPlanner::new();
        for &heuristic in admissible(c.neighbors) {
            let s = SearchSettings { algorithm: Algorithm::Weighted, heuristic, tie: TieBreak::Fifo, neighbors: c.neighbors, weight: w, reopen: false };
            let o = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
            prop_assert_eq!(o.found, best.is_some());
            if let Some(best) = best {
                prop_assert!(o.cost <= w * best + 1e-9, "{:?}: {} > {} x {}", s, o.cost, w, best);
                prop_assert!(close(walk_cost(&c.grid, planner.path(), c.neighbors), o.cost));
            }
        }
    }

    #[test]
    fn bfs_and_greedy_return_valid_paths(c in case()) {
        let steps = reference_steps(&c.grid, c.from, c.to, c.neighbors);
        let mut planner = GridPlanner::new();
        for algorithm in [Algorithm::Bfs, Algorithm::Greedy] {
            for &heuristic in Heuristic::ALL {
                let s = SearchSettings { algorithm, heuristic, tie: TieBreak::Fifo, neighbors: c.neighbors, weight: 1.0, reopen: false };
                let o = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
                prop_assert_eq!(o.found, steps.is_some());
                if o.found {
                    prop_assert!(close(walk_cost(&c.grid, planner.path(), c.neighbors), o.cost));
                    if algorithm == Algorithm::Bfs {
                        prop_assert_eq!(Some(planner.path().len() - 1), steps);
                        if !c.weighted && c.neighbors == Neighbors::Four {
                            let best = reference_cost(&c.grid, c.from, c.to, c.neighbors).unwrap();
                            prop_assert!(close(o.cost, best));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn smoothed_paths_keep_sight_and_ends(c in case()) {
        let mut planner = GridPlanner::new();
        let s = SearchSettings { neighbors: c.neighbors, ..SearchSettings::default() };
        let o = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
        let mut smooth = Vec::new();
        string_pull(&c.grid, planner.path(), &mut smooth);
        if o.found {
            prop_assert_eq!(smooth.first(), planner.path().first());
            prop_assert_eq!(smooth.last(), planner.path().last());
            prop_assert!(smooth.len() <= planner.path().len());
            for w in smooth.windows(2) {
                prop_assert!(line_of_sight(&c.grid, w[0], w[1]), "{} cannot see {}", w[0], w[1]);
            }
        } else {
            prop_assert!(smooth.is_empty());
        }
    }
}
