//! Game-AI pathfinding and steering, with honest statistics, and a
//! deterministic world that puts them to work.
//!
//! The algorithms game characters move by: best-first search on your
//! graphs and on grids (BFS, Dijkstra, A*, greedy, weighted A*, jump point
//! search, HPA*), search repaired as its ends move (MT-D* Lite), flow
//! fields and Dijkstra maps, any-angle paths, Reynolds steering, flocking
//! and ORCA. Every search counts what it did ([`search::SearchStats`]:
//! expanded, pushed, stale pops, reopened, inconsistencies), and
//! everything is deterministic: no clock in any decision, seeded streams,
//! trigonometry through `libm`. [`sim`] builds a living dungeon from them
//! (hunters, wanderers, prey, flocks) whose every session is a function of
//! its seed and its commands, and [`replay`] records and verifies sessions.
//!
//! The package is `delve-ai`; the library's name is `delve`. Its default
//! feature `game` adds the `delve` binary (the terminal game, the search
//! lab, the command-line tools) and its dependencies. A library user turns
//! it off and compiles 21 crates instead of 88:
//!
//! ```toml
//! [dependencies]
//! delve-ai = { version = "0.1", default-features = false }
//! ```
//!
//! # A grid search in five lines
//!
//! ```
//! use delve::{grid::Cell, level::Level, search::{GridPlanner, SearchSettings}};
//! let map = Level::parse("....#\n.##.#\n...#.\n#....\n", "map").unwrap();
//! let mut planner = GridPlanner::new();
//! let outcome = planner.plan(&map.grid, Cell::new(0, 0), Cell::new(4, 2), &SearchSettings::default()).unwrap();
//! assert!(outcome.found && planner.path().last() == Some(&Cell::new(4, 2)));
//! ```
//!
//! [`SearchSettings::default()`](search::SearchSettings) is A* with the
//! octile heuristic on 8 neighbours; the path never cuts a wall's corner,
//! and a diagonal step costs the entered cell's cost times √2.
//!
//! # The algorithms
//!
//! | Algorithm | Use | Notes |
//! |---|---|---|
//! | BFS, Dijkstra, A*, greedy best-first, weighted A* | [`search::Searcher`] on your [`search::Graph`]; [`search::GridPlanner`] on a [`grid::Grid`] | the ordering is a [`search::Order`] in [`search::Query`]; on a grid, a [`search::Planner`] (an ordering over an expansion policy) in [`search::SearchSettings`] |
//! | A* without implementing `Graph` | [`search::astar`] | nodes of any hashable type, edges from a closure, a goal predicate |
//! | Heuristics: Manhattan, Euclidean, octile, Chebyshev, none | [`search::Heuristic`] | grids; on your graph, [`search::Graph::heuristic`] |
//! | Tie-breaking: FIFO, lowest h, cross product | [`search::TieBreak`] | |
//! | Open list: lazy deletion, decrease-key | [`search::OpenUpdate`] | lazy by default; same paths |
//! | Jump point search, JPS+ (jump tables) | [`search::GridPlanner`] with [`search::Planner::JPS`], [`search::Planner::JPS_PLUS`]; the graphs alone: [`search::WalkBits`], [`search::JumpTable`] | 8 neighbours, uniform cost; otherwise refused ([`search::PlanError::Jumps`]) or, if the caller asks, the ordering runs on every cell ([`search::Fallback`], [`search::GridPlanner::ran`]) |
//! | HPA* (hierarchical, by clusters) | [`search::GridPlanner`] with [`search::Planner::HPA`], or [`search::HpaPlanner`] alone | cluster side: [`search::GridPlanner::set_cluster_size`] |
//! | Moving Target D* Lite | [`search::MtDStarLite`] | one hunter's search repaired as it and its target move and cells change ([`search::GridChanges`]) |
//! | Flow field (reverse Dijkstra map) | [`search::FlowField`] on a [`search::Reversible`] graph; [`search::GridFlow`] on a grid | computed a budget at a time, repaired where edges change |
//! | Dijkstra map of several sources, flee map | [`search::DijkstraMap`]; [`search::FlowField::start_from`], [`search::FlowField::start_flee`] | per-source offsets; the classic "times -1.2, relax again" safety map |
//! | String pulling (grid path smoothing) | [`search::string_pull`] | |
//! | Stepping through a search | [`search::Trace`], [`search::Observer`] | `()` observes nothing and costs nothing |
//! | Navigation mesh and funnel | [`nav::NavMesh`], [`nav::string_pull`] | rectangles in the free space of a radius, rebuilt by tiles |
//! | Corner waypoint (visibility) graph | [`nav::Waypoints`] | optimal any-angle paths; links made lazily; at most [`nav::Waypoints::MAX_CORNERS`] corners |
//! | Every planner, one dispatch | [`nav::Navigator`] | grid, jump points, HPA*, navmesh, waypoints; says what ran ([`nav::Navigator::ran`]) |
//! | Line of sight | [`grid::line_of_sight`] | |
//! | Seek, flee, arrive, pursue, evade, wander | [`steer::seek`], [`steer::flee`], [`steer::arrive`], [`steer::pursue`], [`steer::evade`], [`steer::Wander`] | each a force for a [`steer::Body`] |
//! | Obstacle and wall avoidance, moves kept out of walls | [`steer::avoid_obstacle`], [`steer::avoid_walls`], [`steer::move_body`] | |
//! | Path following | [`steer::PathFollower`] | |
//! | Flocking: separation, alignment, cohesion | [`steer::Flocker`] (through a [`steer::SpatialHash`]), [`steer::flock`] | O(n) a step |
//! | Blending behaviours | [`steer::combine_weighted`], [`steer::combine_priority`] | |
//! | ORCA (reciprocal collision avoidance), time to collision | [`steer::Orca`], [`steer::Agent`], [`steer::Walls`], [`steer::time_to_collision`] | agents and wall segments, RVO2's linear programs |
//! | Smoothing and hysteresis of decisions | [`steer::Smoother`], [`steer::Hysteresis`] | |
//!
//! # Your own graph
//!
//! A [`search::Graph`] numbers its nodes `0..node_count()` and lists the
//! edges leaving each; the heuristic is optional. One [`search::Searcher`]
//! serves every query, reusing its buffers.
//!
//! ```
//! use delve::search::{Graph, NodeId, Order, Query, Searcher};
//!
//! /// Four towns on a line, 10 km apart, and a ferry from the first to the last.
//! struct Towns;
//! impl Graph for Towns {
//!     fn node_count(&self) -> usize { 4 }
//!     fn successors(&self, town: NodeId, mut road: impl FnMut(NodeId, f64)) {
//!         if town < 3 { road(town + 1, 10.0) }
//!         if town == 0 { road(3, 25.0) }
//!     }
//!     fn heuristic(&self, town: NodeId) -> f64 { f64::from(3 - town) * 8.0 } // never above the truth
//! }
//!
//! let mut searcher = Searcher::new();
//! let astar = searcher.search(&Towns, 0, 3, &Query::default());
//! assert_eq!(searcher.path(), [0, 3], "the ferry");
//! let dijkstra = searcher.search(&Towns, 0, 3, &Query { order: Order::Dijkstra, ..Query::default() });
//! assert!(astar.found && dijkstra.found && astar.stats.expanded <= dijkstra.stats.expanded);
//! ```
//!
//! # Jump point search on a grid you build
//!
//! ```
//! use delve::grid::{Cell, Grid, Tile};
//! use delve::search::{GridPlanner, Planner, SearchSettings};
//!
//! let mut grid = Grid::filled(64, 64, Tile::Floor(1));
//! for y in 0..60 {
//!     grid.set_tile(Cell::new(32, y), Tile::Wall);
//! }
//! let (from, to) = (Cell::new(2, 2), Cell::new(60, 10));
//! let mut planner = GridPlanner::new();
//! let jps = SearchSettings { planner: Planner::JPS, ..SearchSettings::default() };
//! let jumped = planner.plan(&grid, from, to, &jps).unwrap();
//! assert_eq!(planner.ran(), Planner::JPS, "uniform cost and 8 neighbours: JPS ran");
//! let jps_path = planner.path().to_vec();
//! let astar = planner.plan(&grid, from, to, &SearchSettings::default()).unwrap();
//! assert_eq!(jps_path.len(), planner.path().len(), "the path filled in cell by cell, as long as A*'s");
//! assert!(jumped.stats.expanded * 5 < astar.stats.expanded);
//! ```
//!
//! The jump graphs serve the engine directly too ([`search::WalkBits::graph`],
//! [`search::JumpTable::graph`]), with any ordering but BFS.
//!
//! # A flow field
//!
//! One reverse Dijkstra map from the player serves every monster: each
//! steps down the slope.
//!
//! ```
//! use delve::grid::{Cell, Neighbors};
//! use delve::level::Level;
//! use delve::search::DijkstraMap;
//!
//! let level = Level::parse("#######\n#@....#\n#.###.#\n#.....#\n#######\n", "ring").unwrap();
//! let player = level.player.unwrap();
//! let map = DijkstraMap::new(&level.grid, Neighbors::Four, &[(player, 0.0)], f64::INFINITY);
//! assert_eq!(map.distance(&level.grid, Cell::new(5, 3)), Some(6.0));
//! let mut way = Vec::new();
//! map.descent(&level.grid, Cell::new(5, 3), 10, &mut way);
//! assert_eq!((way.len(), way.last()), (7, Some(&player)));
//! ```
//!
//! # A flock step
//!
//! ```
//! use delve::grid::{Grid, Tile};
//! use delve::steer::{Body, FlockWeights, Flocker, Vec2, avoid_walls, combine_priority, move_body};
//!
//! let grid = Grid::filled(20, 20, Tile::Floor(1));
//! let mut boids: Vec<Body> = (0..8)
//!     .map(|i| Body { vel: Vec2::new(1.0, i as f32 * 0.1), ..Body::new(Vec2::new(5.0 + i as f32 * 0.5, 10.0), 3.0, 6.0) })
//!     .collect();
//! let weights = FlockWeights { separation: 2.0, alignment: 1.5, cohesion: 0.5 };
//! let mut flocker = Flocker::new(3.0, 1.0, weights);
//! for _ in 0..10 {
//!     let forces = flocker.forces(&boids).to_vec();
//!     for (boid, flock) in boids.iter_mut().zip(forces) {
//!         // Walls first; the flock gets what force is left.
//!         let force = combine_priority(boid.max_force, &[avoid_walls(boid, &grid, 1.5), flock]);
//!         move_body(boid, force, 0.1, &grid);
//!     }
//! }
//! assert!(boids.iter().all(|b| b.vel.length() <= b.max_speed + 1e-4 && grid.is_walkable(delve::steer::cell_at(b.pos))));
//! ```
//!
//! # ORCA on a handful of agents
//!
//! Four agents at the corners of a square swap places through its centre;
//! each step, ORCA picks for every agent the velocity nearest its
//! preferred one that cannot hit another within the time horizon.
//!
//! ```
//! use delve::steer::{Agent, Orca, OrcaParams, Vec2, Walls};
//!
//! let params = OrcaParams { time_horizon: 2.0, obstacle_horizon: 1.0, neighbour_dist: 5.0, max_neighbours: 10, dt: 0.1 };
//! let mut orca = Orca::new(params);
//! let corners = [Vec2::new(0.0, 0.0), Vec2::new(8.0, 0.0), Vec2::new(8.0, 8.0), Vec2::new(0.0, 8.0)];
//! let goals = [corners[2], corners[3], corners[0], corners[1]];
//! let agent = |pos| Agent { pos, vel: Vec2::ZERO, radius: 0.5, max_speed: 2.0, preferred: Vec2::ZERO };
//! let mut agents: Vec<Agent> = corners.into_iter().map(agent).collect();
//! let (no_walls, mut velocities, mut closest) = (Walls::new(Vec::new()), Vec::new(), f32::INFINITY);
//! for _ in 0..200 {
//!     for (a, goal) in agents.iter_mut().zip(goals) {
//!         a.preferred = (goal - a.pos).clamp_length(a.max_speed);
//!     }
//!     orca.step(&agents, &no_walls, &mut velocities);
//!     for (a, &v) in agents.iter_mut().zip(&velocities) {
//!         (a.vel, a.pos) = (v, a.pos + v * params.dt);
//!     }
//!     for (i, a) in agents.iter().enumerate() {
//!         for b in &agents[i + 1..] {
//!             closest = closest.min(a.pos.distance(b.pos));
//!         }
//!     }
//! }
//! assert!(closest >= 0.99, "no two discs of radius 0.5 overlapped: {closest}");
//! assert!(agents.iter().zip(goals).all(|(a, g)| a.pos.distance(g) < 0.1), "every agent arrived");
//! ```
//!
//! # Layers
//!
//! Each module only uses the modules below it, and a test
//! (`tests/layers.rs`) reads every `crate::` path to keep it so:
//! [`input`] and [`named`] (utilities) < [`grid`] < [`level`] < [`search`]
//! < [`nav`] < [`steer`] and [`picture`] < [`sim`] < [`replay`]. The binary's
//! modules (the subcommands, the terminal front end) sit above them all
//! and are not part of the library. More in `docs/architecture.md` and
//! `docs/library.md`.

#![warn(missing_docs)]

pub mod atomic;
pub mod r#gen;
pub mod grid;
pub mod hash;
pub mod input;
pub mod level;
pub mod named;
pub mod nav;
pub mod number;
pub mod picture;
pub mod replay;
pub mod rng;
pub mod search;
mod shares;
pub mod sim;
pub mod steer;
