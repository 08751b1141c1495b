//! Property tests of the search family on random grids, against a plain
//! Dijkstra, a plain BFS and a textbook lazy-deletion best-first search
//! written here, independently of the engine.

use delve::grid::{Cell, DIRECTIONS, Grid, Neighbors, Tile, line_of_sight};
use delve::search::{
    Expansion, Fallback, Graph, GridGraph, GridPlanner, Heuristic, NAVMESH_WEIGHT, NodeId, OpenUpdate, Order,
    PlanError, Planner, SearchSettings, SearchStats, TieBreak, string_pull,
};
use proptest::prelude::*;
use std::cmp::Reverse;
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

/// The counters of a best-first search as the textbook writes it: a
/// binary heap of (f, tie key, insertion number) entries, and a node's
/// newest number marking its live entry; any other entry popped for it is
/// stale. The tie keys are computed here from the cells, in floats and
/// 64-bit integers (not the engine's packed 32-bit keys), and the engine
/// finds stale entries another way (by the closed mark), so the two must
/// agree on every count.
/// Returns the counters (without time) and, when found, the goal's g (for
/// BFS its step count).
fn reference_counters(grid: &Grid, from: Cell, to: Cell, s: &SearchSettings) -> (SearchStats, Option<f64>) {
    let graph = GridGraph::new(grid, s.neighbors, s.heuristic, from, to);
    let (start, goal) = (grid.node(from), grid.node(to));
    assert_eq!(s.planner.expansion(), Expansion::Grid, "the reference searches the grid's neighbours");
    let order = s.planner.order();
    let (gw, hw) = match order {
        Order::Bfs | Order::Dijkstra => (1.0, 0.0),
        Order::AStar => (1.0, 1.0),
        Order::Greedy => (0.0, 1.0),
        Order::Weighted => (1.0, s.weight),
    };
    let uses_h = hw > 0.0 || s.tie == TieBreak::LowH;
    let h = |n: NodeId| if uses_h { graph.heuristic(n) } else { 0.0 };
    let n = graph.node_count();
    let (mut g, mut seen, mut closed) = (vec![f64::INFINITY; n], vec![false; n], vec![false; n]);
    let mut newest = vec![u64::MAX; n];
    let mut heap = BinaryHeap::new();
    let mut stats = SearchStats::default();
    let mut open = 0u64;
    let push = |heap: &mut BinaryHeap<_>, stats: &mut SearchStats, newest: &mut [u64], v: NodeId, gv: f64| {
        let hv = h(v);
        let key = match s.tie {
            TieBreak::Fifo => 0,
            // Non-negative floats order like their bits.
            TieBreak::LowH => hv.to_bits(),
            // |(cell − goal) × (start − goal)|
            TieBreak::Cross => {
                let c = grid.cell_of(v);
                let (x1, y1) = (i64::from(c.x - to.x), i64::from(c.y - to.y));
                let (x2, y2) = (i64::from(from.x - to.x), i64::from(from.y - to.y));
                (x1 * y2 - x2 * y1).unsigned_abs()
            }
        };
        heap.push(Reverse(((gw * gv + hw * hv).to_bits(), key, stats.pushed, v)));
        newest[v as usize] = stats.pushed;
        stats.pushed += 1;
    };
    g[start as usize] = 0.0;
    seen[start as usize] = true;
    push(&mut heap, &mut stats, &mut newest, start, 0.0);
    open += 1;
    stats.max_open = 1;
    while let Some(Reverse((_, _, number, u))) = heap.pop() {
        if newest[u as usize] != number {
            stats.stale_pops += 1;
            continue;
        }
        closed[u as usize] = true;
        open -= 1;
        if u == goal {
            return (stats, Some(g[u as usize]));
        }
        stats.expanded += 1;
        let mut edges = Vec::new();
        graph.successors(u, |v, cost| edges.push((v, cost)));
        for (v, cost) in edges {
            let gv = g[u as usize] + if order == Order::Bfs { 1.0 } else { cost };
            let was_seen = seen[v as usize];
            if was_seen && (order == Order::Greedy || gv >= g[v as usize]) {
                continue;
            }
            let hv = h(v);
            if hw > 0.0 && order != Order::Greedy && hw * (h(u) - hv) > cost * (1.0 + 1e-9) {
                stats.violations += 1;
            }
            if closed[v as usize] {
                if !s.reopen {
                    continue;
                }
                closed[v as usize] = false;
                stats.reopened += 1;
                open += 1;
            } else if !was_seen {
                open += 1;
            }
            seen[v as usize] = true;
            g[v as usize] = gv;
            push(&mut heap, &mut stats, &mut newest, v, gv);
            stats.max_open = stats.max_open.max(open);
        }
    }
    (stats, None)
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
                for (planner_asked, reopen, open) in [
                    (Planner::DIJKSTRA, false, OpenUpdate::Lazy),
                    (Planner::ASTAR, false, OpenUpdate::Lazy),
                    (Planner::ASTAR, true, OpenUpdate::Lazy),
                    (Planner::ASTAR, false, OpenUpdate::DecreaseKey),
                ] {
                    let s = SearchSettings { planner: planner_asked, heuristic, tie, neighbors: c.neighbors, weight: 1.0, navmesh_weight: NAVMESH_WEIGHT, reopen, open };
                    let o = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
                    prop_assert_eq!(o.found, best.is_some(), "{:?}", s);
                    prop_assert_eq!(o.cost.is_some(), o.found, "a cost exactly when a path");
                    if let Some(best) = best {
                        let cost = o.cost.unwrap();
                        prop_assert!(close(cost, best), "{:?}: {} vs optimal {}", s, cost, best);
                        prop_assert!(close(walk_cost(&c.grid, planner.path(), c.neighbors), cost));
                        prop_assert_eq!(planner.path().first(), Some(&c.from));
                        prop_assert_eq!(planner.path().last(), Some(&c.to));
                    }
                    prop_assert!(o.stats.max_open as usize <= c.grid.width() * c.grid.height());
                    prop_assert_eq!(o.stats.violations, 0, "consistent heuristic {:?}", s);
                }
            }
        }
    }

    /// Decrease-key must do the lazy search's work minus its stale pops:
    /// the same counters otherwise, the same cost and the same path.
    #[test]
    fn counters_match_a_textbook_lazy_deletion_search(c in case(), w in 1.0f64..4.0, reopen in any::<bool>()) {
        let mut planner = GridPlanner::new();
        for &order in Order::ALL {
            for &heuristic in Heuristic::ALL {
                for &tie in TieBreak::ALL {
                    let s = SearchSettings { planner: Planner::grid(order), heuristic, tie, neighbors: c.neighbors, weight: w, navmesh_weight: NAVMESH_WEIGHT, reopen, open: OpenUpdate::Lazy };
                    let o = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
                    let lazy_path = planner.path().to_vec();
                    let (want, cost) = reference_counters(&c.grid, c.from, c.to, &s);
                    prop_assert_eq!(SearchStats { micros: 0.0, ..o.stats }, want, "{}", s);
                    prop_assert_eq!(o.found, cost.is_some(), "{}", s);
                    if order != Order::Bfs {
                        prop_assert_eq!(o.cost, cost, "{}", s);
                    }
                    let s = SearchSettings { open: OpenUpdate::DecreaseKey, ..s };
                    let d = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
                    prop_assert_eq!(SearchStats { micros: 0.0, ..d.stats }, SearchStats { stale_pops: 0, ..want }, "{}", s);
                    prop_assert_eq!((d.found, d.cost), (o.found, o.cost), "{}", s);
                    prop_assert_eq!(planner.path(), &lazy_path[..], "{}", s);
                }
            }
        }
    }

    #[test]
    fn weighted_astar_stays_within_w_times_optimal(c in case(), w in 1.0f64..4.0) {
        let best = reference_cost(&c.grid, c.from, c.to, c.neighbors);
        let mut planner = GridPlanner::new();
        for &heuristic in admissible(c.neighbors) {
            let s = SearchSettings { planner: Planner::WEIGHTED, heuristic, tie: TieBreak::Fifo, neighbors: c.neighbors, weight: w, navmesh_weight: NAVMESH_WEIGHT, reopen: false, open: OpenUpdate::Lazy };
            let o = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
            prop_assert_eq!(o.found, best.is_some());
            if let (Some(best), Some(cost)) = (best, o.cost) {
                prop_assert!(cost <= w * best + 1e-9, "{:?}: {} > {} x {}", s, cost, w, best);
                prop_assert!(close(walk_cost(&c.grid, planner.path(), c.neighbors), cost));
            }
        }
    }

    #[test]
    fn bfs_and_greedy_return_valid_paths(c in case()) {
        let steps = reference_steps(&c.grid, c.from, c.to, c.neighbors);
        let mut planner = GridPlanner::new();
        for asked in [Planner::BFS, Planner::GREEDY] {
            for &heuristic in Heuristic::ALL {
                let s = SearchSettings { planner: asked, heuristic, tie: TieBreak::Fifo, neighbors: c.neighbors, weight: 1.0, navmesh_weight: NAVMESH_WEIGHT, reopen: false, open: OpenUpdate::Lazy };
                let o = planner.plan(&c.grid, c.from, c.to, &s).unwrap();
                prop_assert_eq!(o.found, steps.is_some());
                if let Some(cost) = o.cost {
                    prop_assert!(close(walk_cost(&c.grid, planner.path(), c.neighbors), cost));
                    if asked == Planner::BFS {
                        prop_assert_eq!(Some(planner.path().len() - 1), steps);
                        if !c.weighted && c.neighbors == Neighbors::Four {
                            let best = reference_cost(&c.grid, c.from, c.to, c.neighbors).unwrap();
                            prop_assert!(close(cost, best));
                        }
                    }
                }
            }
        }
    }

    /// Jump point searches find what their ordering finds on the grid:
    /// A*'s and Dijkstra's cost to the last bit, weighted A*'s bound, a
    /// legal path for greedy, under every tie-break and open-list update;
    /// where they cannot run (weighted cells, 4 neighbours) they are
    /// refused, or on request run their ordering on the grid and say so.
    #[test]
    fn jump_point_searches_cost_what_their_ordering_costs(c in case(), w in 1.0f64..4.0) {
        let mut planner = GridPlanner::new();
        let best = reference_cost(&c.grid, c.from, c.to, c.neighbors);
        let jumps = [Expansion::Jps, Expansion::JpsPlus];
        let planners = jumps.iter().flat_map(|&e| Order::ALL.iter().filter_map(move |&o| Planner::new(o, e).ok()));
        for jump in planners.collect::<Vec<_>>() {
            for &tie in TieBreak::ALL {
                for &open in OpenUpdate::ALL {
                    let on_cells = SearchSettings { planner: jump.fallback(), tie, open, weight: w, neighbors: c.neighbors, ..SearchSettings::default() };
                    let a = planner.plan(&c.grid, c.from, c.to, &on_cells).unwrap();
                    let cells_path = planner.path().to_vec();
                    let s = SearchSettings { planner: jump, ..on_cells };
                    let runs = c.grid.uniform_cost().is_some() && c.neighbors == Neighbors::Eight;
                    let refused = planner.plan(&c.grid, c.from, c.to, &s);
                    if !runs {
                        prop_assert_eq!(refused, Err(PlanError::Jumps { planner: jump }), "{}", s);
                        let j = planner.plan_observed(&c.grid, c.from, c.to, &s, Fallback::Grid, &mut ()).unwrap();
                        prop_assert_eq!(planner.ran(), jump.fallback());
                        prop_assert_eq!(SearchStats { micros: 0.0, ..j.stats }, SearchStats { micros: 0.0, ..a.stats });
                        prop_assert_eq!(planner.path(), &cells_path[..]);
                        continue;
                    }
                    let j = refused.unwrap();
                    prop_assert_eq!(planner.ran(), jump);
                    prop_assert_eq!(j.found, a.found, "{}", s);
                    match jump.order() {
                        Order::AStar | Order::Dijkstra => prop_assert_eq!(j.cost, a.cost, "{}", s),
                        Order::Weighted => prop_assert!(j.cost.zip(best).is_none_or(|(j, b)| j <= w * b + 1e-9), "{}", s),
                        _ => {}
                    }
                    if let Some(cost) = j.cost {
                        prop_assert_eq!(walk_cost(&c.grid, planner.path(), c.neighbors), cost, "{}", s);
                        prop_assert_eq!(planner.path().first(), Some(&c.from));
                        prop_assert_eq!(planner.path().last(), Some(&c.to));
                    }
                }
            }
        }
    }

    /// One planner keeps its jump table (and bits) across door changes:
    /// after every toggle, the repaired table answers as A* does.
    #[test]
    fn jump_tables_follow_door_changes(c in case(), toggles in proptest::collection::vec((0usize..14, 0usize..14), 1..12)) {
        let mut grid = c.grid.clone();
        let mut planners = [GridPlanner::new(), GridPlanner::new(), GridPlanner::new()];
        for (x, y) in toggles {
            let cell = Cell::new((x % grid.width()) as i32, (y % grid.height()) as i32);
            if cell != c.from && cell != c.to {
                let tile = if grid.is_walkable(cell) { Tile::DoorClosed } else { Tile::DoorOpen };
                grid.set_tile(cell, tile);
            }
            let astar = SearchSettings::default();
            let a = planners[0].plan(&grid, c.from, c.to, &astar).unwrap();
            for (p, jump) in planners[1..].iter_mut().zip([Planner::JPS, Planner::JPS_PLUS]) {
                let s = SearchSettings { planner: jump, ..astar };
                let j = p.plan_observed(&grid, c.from, c.to, &s, Fallback::Grid, &mut ()).unwrap();
                prop_assert_eq!((j.found, j.cost), (a.found, a.cost), "{} after toggling {}", jump, cell);
                if let (Some(cost), true) = (j.cost, p.ran() == jump) {
                    prop_assert_eq!(walk_cost(&grid, p.path(), Neighbors::Eight), cost);
                }
            }
        }
    }

    /// HPA* finds a path exactly when one exists, on any moves and costs,
    /// for any cluster size, and keeps doing so as doors open and close
    /// (its abstraction repaired, not rebuilt); the path is legal and its
    /// cost is what walking it costs, never below the optimum.
    #[test]
    fn hpa_finds_a_path_whenever_one_exists(
        c in case(),
        cluster in 2usize..7,
        toggles in proptest::collection::vec((0usize..14, 0usize..14), 0..8),
    ) {
        let mut grid = c.grid.clone();
        let mut planner = GridPlanner::new();
        planner.set_cluster_size(cluster);
        let s = SearchSettings { planner: Planner::HPA, neighbors: c.neighbors, ..SearchSettings::default() };
        for step in 0..=toggles.len() {
            if step > 0 {
                let (x, y) = toggles[step - 1];
                let cell = Cell::new((x % grid.width()) as i32, (y % grid.height()) as i32);
                if cell != c.from && cell != c.to {
                    let tile = if grid.is_walkable(cell) { Tile::DoorClosed } else { Tile::DoorOpen };
                    grid.set_tile(cell, tile);
                }
            }
            let best = reference_cost(&grid, c.from, c.to, c.neighbors);
            let o = planner.plan(&grid, c.from, c.to, &s).unwrap();
            prop_assert_eq!(o.found, best.is_some(), "step {}", step);
            if let (Some(best), Some(cost)) = (best, o.cost) {
                prop_assert!(close(walk_cost(&grid, planner.path(), c.neighbors), cost));
                prop_assert!(cost >= best - 1e-9, "{} below the optimum {}", cost, best);
                prop_assert_eq!(planner.path().first(), Some(&c.from));
                prop_assert_eq!(planner.path().last(), Some(&c.to));
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
