//! A* on a graph of your own: a small road map between towns, searched
//! through the [`Graph`] trait with a straight-line heuristic, and checked
//! against Dijkstra (the same search with no heuristic).
//!
//! Run with `cargo run --example graph_astar`.

use delve::search::{Graph, NodeId, Order, Query, Searcher};

/// A town: its name and where it lies on the map, in km.
struct Town {
    name: &'static str,
    x: f64,
    y: f64,
}

/// Towns and two-way roads with their lengths in km (never shorter than
/// the straight line, so the straight line is an admissible estimate).
/// The goal is part of the graph value: the trait's heuristic is a plain
/// function of the node.
struct RoadMap {
    towns: Vec<Town>,
    /// Roads leaving each town: (town, km), in a fixed order.
    roads: Vec<Vec<(NodeId, f64)>>,
    goal: NodeId,
}

impl RoadMap {
    fn new(towns: Vec<Town>, roads: &[(usize, usize, f64)]) -> RoadMap {
        let mut adjacent = vec![Vec::new(); towns.len()];
        for &(a, b, km) in roads {
            adjacent[a].push((b as NodeId, km));
            adjacent[b].push((a as NodeId, km));
        }
        RoadMap { towns, roads: adjacent, goal: 0 }
    }

    fn straight_line(&self, a: NodeId, b: NodeId) -> f64 {
        let (a, b) = (&self.towns[a as usize], &self.towns[b as usize]);
        (a.x - b.x).hypot(a.y - b.y)
    }
}

impl Graph for RoadMap {
    fn node_count(&self) -> usize {
        self.towns.len()
    }

    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        for &(next, km) in &self.roads[node as usize] {
            visit(next, km);
        }
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        self.straight_line(node, self.goal)
    }
}

fn main() {
    let town = |name, x, y| Town { name, x, y };
    let towns = vec![
        town("Ashford", 0.0, 0.0),
        town("Brook", 12.0, 3.0),
        town("Carrow", 9.0, 14.0),
        town("Dunmore", 24.0, 6.0),
        town("Elm", 21.0, 19.0),
        town("Fenwick", 35.0, 12.0),
        town("Glen", 33.0, 25.0),
        town("Harrow", 46.0, 18.0),
    ];
    let roads = [
        (0, 1, 13.0),
        (0, 2, 18.0),
        (1, 2, 12.5),
        (1, 3, 13.0),
        (2, 4, 13.5),
        (3, 4, 14.0),
        (3, 5, 13.5),
        (4, 6, 14.0),
        (5, 6, 13.5),
        (5, 7, 14.0),
        (6, 7, 15.0),
    ];
    let mut map = RoadMap::new(towns, &roads);
    let (from, to) = (0, 7);
    map.goal = to;

    // One Searcher serves every query: its buffers are reused.
    let mut searcher = Searcher::new();
    let astar = searcher.search(&map, from, to, &Query::default());
    let route: Vec<&str> = searcher.path().iter().map(|&n| map.towns[n as usize].name).collect();
    let dijkstra = searcher.search(&map, from, to, &Query { order: Order::Dijkstra, ..Query::default() });

    let (Some(a), Some(d)) = (astar.cost, dijkstra.cost) else { panic!("the towns are connected") };
    println!("A*:       {a} km via {}", route.join(" → "));
    println!("          {} towns expanded, {} pushed", astar.stats.expanded, astar.stats.pushed);
    println!("Dijkstra: {d} km, {} towns expanded", dijkstra.stats.expanded);
    assert!(astar.found && dijkstra.found);
    assert_eq!(astar.cost, dijkstra.cost, "an admissible heuristic keeps A* optimal");
    assert!(astar.stats.expanded <= dijkstra.stats.expanded, "the heuristic only saves work");
}
