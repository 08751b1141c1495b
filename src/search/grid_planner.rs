//! Cell-to-cell queries on grids: the dispatch of the grid's expansion
//! policies (the grid's neighbours, jump points online or from a table,
//! HPA*), with the per-grid data each keeps and the refusals of what
//! cannot run.

use super::engine::{Outcome, Query, Searcher, Visit};
use super::grid_cache::GridCache;
use super::grid_graph::GridGraph;
use super::hpa::HpaPlanner;
use super::jps::{JumpGraph, JumpQuery, Scan, WalkBits, fill_in};
use super::jps_plus::{JumpTable, Table};
use super::planner::{Expansion, Planner};
use super::settings::SearchSettings;
use super::trace::Observer;
use crate::grid::{Cell, Grid, Neighbors};

/// Which end of a query was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// The query's start.
    Start,
    /// The query's goal.
    Goal,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// A query a planner cannot answer on a grid. (No path is an answer, not
/// an error.)
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum PlanError {
    /// An end lies off the map.
    #[error("{end} {cell} is outside the {width}x{height} map")]
    Outside { end: Endpoint, cell: Cell, width: usize, height: usize },
    /// An end is a wall or a closed door.
    #[error("{end} {cell} is not walkable")]
    Blocked { end: Endpoint, cell: Cell },
    /// A jump point search on 4 neighbours, or on walkable cells of
    /// different entry costs, where its pruning is not sound.
    #[error("{planner} needs 8 neighbours and one entry cost on every walkable cell")]
    Jumps { planner: Planner },
    /// A planner of the plane (navmesh, waypoints) asked of the grid
    /// planner: the nav layer runs those (`nav::Navigator`).
    #[error("{planner} plans in the plane, not on cells: the nav layer's Navigator runs it")]
    AnyAngle { planner: Planner },
    /// A grid with more wall corners than the corner waypoint graph takes
    /// (`nav::Waypoints::MAX_CORNERS`).
    #[error("the level has {corners} wall corners, more than the {cap} the corner waypoint graph takes")]
    TooManyCorners { corners: usize, cap: usize },
}

impl PlanError {
    /// Refuses a query whose start or goal is off the map or blocked: the
    /// check every planner of cell queries makes first.
    pub fn check(grid: &Grid, from: Cell, to: Cell) -> Result<(), PlanError> {
        for (end, cell) in [(Endpoint::Start, from), (Endpoint::Goal, to)] {
            if !grid.in_bounds(cell) {
                return Err(PlanError::Outside { end, cell, width: grid.width(), height: grid.height() });
            }
            if !grid.is_walkable(cell) {
                return Err(PlanError::Blocked { end, cell });
            }
        }
        Ok(())
    }
}

/// What a planner asked for where its policy cannot run does: the caller
/// chooses, and [`GridPlanner::ran`] says what answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Fallback {
    /// Refuse the query ([`PlanError::Jumps`]).
    #[default]
    Refuse,
    /// Run [`Planner::fallback`] instead (jump points on 4 neighbours or
    /// weighted cells: the same ordering on the grid's neighbours).
    Grid,
}

impl SearchSettings {
    /// The planner that answers these settings on `grid`: theirs, or with
    /// [`Fallback::Grid`] its fallback where jump points cannot run;
    /// refused with [`Fallback::Refuse`].
    pub fn runnable(&self, grid: &Grid, fallback: Fallback) -> Result<Planner, PlanError> {
        let planner = self.planner;
        let jumps_run = grid.uniform_cost().is_some() && self.neighbors == Neighbors::Eight;
        match (planner.expansion().jumps() && !jumps_run, fallback) {
            (false, _) => Ok(planner),
            (true, Fallback::Grid) => Ok(planner.fallback()),
            (true, Fallback::Refuse) => Err(PlanError::Jumps { planner }),
        }
    }
}

/// Answers cell-to-cell queries on grids with the grid's expansion
/// policies, keeping its buffers between them, and the per-grid data of
/// the last grid it searched (walkability bits for JPS, the jump table for
/// JPS+, HPA*'s abstract graph), rebuilt for another grid and repaired
/// where cells changed.
#[derive(Debug)]
pub struct GridPlanner {
    searcher: Searcher,
    cells: Vec<Cell>,
    bits: GridCache<WalkBits>,
    table: GridCache<JumpTable>,
    hpa: HpaPlanner,
    /// Padded indices of an HPA* path.
    hpa_path: Vec<usize>,
    /// The planner that answered the last query.
    ran: Planner,
    /// Build (or repair) time of the per-grid data the last query used.
    preprocess_micros: f64,
}

impl Default for GridPlanner {
    fn default() -> Self {
        GridPlanner {
            searcher: Searcher::default(),
            cells: Vec::new(),
            bits: GridCache::default(),
            table: GridCache::default(),
            hpa: HpaPlanner::default(),
            hpa_path: Vec::new(),
            ran: Planner::ASTAR,
            preprocess_micros: 0.0,
        }
    }
}

impl GridPlanner {
    /// A planner with empty buffers; the first query sizes them.
    pub fn new() -> GridPlanner {
        GridPlanner::default()
    }

    /// Searches `grid` from `from` to `to` with `settings`, refusing what
    /// cannot run there. The path, when found, is [`GridPlanner::path`]
    /// (empty after a refused query too).
    pub fn plan(&mut self, grid: &Grid, from: Cell, to: Cell, settings: &SearchSettings) -> Result<Outcome, PlanError> {
        self.plan_observed(grid, from, to, settings, Fallback::Refuse, &mut ())
    }

    /// [`GridPlanner::plan`] with the caller's `fallback` for a planner
    /// that cannot run on `grid`, telling `observer` what the search does
    /// (node ids are [`Grid::node`]s): pass a [`super::Trace`] to step
    /// through it. HPA* runs its own searches over clusters and entrances
    /// and is not traced.
    pub fn plan_observed<O: Observer>(
        &mut self,
        grid: &Grid,
        from: Cell,
        to: Cell,
        settings: &SearchSettings,
        fallback: Fallback,
        observer: &mut O,
    ) -> Result<Outcome, PlanError> {
        self.cells.clear();
        self.preprocess_micros = 0.0;
        PlanError::check(grid, from, to)?;
        let planner = settings.runnable(grid, fallback)?;
        self.ran = planner;
        let query = Query {
            order: planner.order(),
            tie: settings.tie,
            weight: settings.weight,
            reopen: settings.reopen,
            open: settings.open,
        };
        let (start, goal) = (grid.node(from), grid.node(to));
        let graph = GridGraph::new(grid, settings.neighbors, settings.heuristic, from, to);
        let outcome = match planner.expansion() {
            Expansion::Grid => {
                let outcome = self.searcher.search_observed(&graph, start, goal, &query, observer);
                self.cells.extend(self.searcher.path().iter().map(|&n| grid.cell_of(n)));
                outcome
            }
            Expansion::Jps => {
                let cost = grid.uniform_cost().expect("checked: runnable");
                let jumps = JumpGraph {
                    query: JumpQuery::new(grid, graph, goal, cost),
                    jumps: Scan::new(self.bits.get(grid, ())),
                };
                let mut outcome = self.searcher.search_observed(&jumps, start, goal, &query, observer);
                outcome.stats.scanned = jumps.jumps.scanned();
                self.preprocess_micros = self.bits.micros();
                fill_in(grid.stride(), self.searcher.path(), |n| self.cells.push(grid.cell_of(n)));
                outcome
            }
            Expansion::JpsPlus => {
                let cost = grid.uniform_cost().expect("checked: runnable");
                let jumps = JumpGraph {
                    query: JumpQuery::new(grid, graph, goal, cost),
                    jumps: Table { table: self.table.get(grid, ()) },
                };
                let outcome = self.searcher.search_observed(&jumps, start, goal, &query, observer);
                self.preprocess_micros = self.table.micros();
                fill_in(grid.stride(), self.searcher.path(), |n| self.cells.push(grid.cell_of(n)));
                outcome
            }
            Expansion::Hpa => {
                let outcome = self.hpa.plan_nodes(grid, start as usize, goal as usize, settings, &mut self.hpa_path);
                self.preprocess_micros = self.hpa.preprocess_micros();
                self.cells.extend(self.hpa_path.iter().map(|&n| grid.cell_of(n as u32)));
                outcome
            }
            Expansion::Navmesh | Expansion::Waypoints => return Err(PlanError::AnyAngle { planner }),
        };
        Ok(outcome)
    }

    /// The planner that answered the last query: the one asked for, or
    /// its fallback ([`Fallback::Grid`]).
    pub fn ran(&self) -> Planner {
        self.ran
    }

    /// Microseconds spent building (or, after cells changed, repairing) the
    /// per-grid data the last query used: 0 for the planners without any.
    pub fn preprocess_micros(&self) -> f64 {
        self.preprocess_micros
    }

    /// The last query's path, start and goal included (empty if none).
    pub fn path(&self) -> &[Cell] {
        &self.cells
    }

    /// Cells the last query generated on `grid` (the grid it ran on),
    /// closed or still open (none for HPA*, which searches clusters and
    /// an abstract graph).
    pub fn visited<'a>(&'a self, grid: &'a Grid) -> impl Iterator<Item = (Cell, Visit)> + 'a {
        let cells = if self.ran.expansion() == Expansion::Hpa { Vec::new() } else { self.searcher.visited() };
        cells.into_iter().map(|(n, v)| (grid.cell_of(n), v))
    }

    /// The side of HPA*'s clusters, in cells (at least 2; default
    /// [`super::DEFAULT_CLUSTER_SIZE`]). Changing it rebuilds the
    /// abstraction at the next HPA* query.
    pub fn set_cluster_size(&mut self, cells: usize) {
        self.hpa.set_cluster_size(cells);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;
    use crate::search::{Order, Planner};

    fn settings(planner: Planner, neighbors: Neighbors) -> SearchSettings {
        SearchSettings { planner, neighbors, ..SearchSettings::DEFAULT }
    }

    /// Jump points on 4 neighbours or weighted cells are refused, or run
    /// their ordering on the grid's neighbours when the caller says so,
    /// and the planner says which ran.
    #[test]
    fn a_jump_point_search_that_cannot_run_is_refused_or_falls_back_as_asked() {
        let mut g = Grid::filled(6, 4, Tile::Floor(1));
        let (a, b) = (Cell::new(0, 0), Cell::new(5, 3));
        let mut p = GridPlanner::new();
        let jps = settings(Planner::JPS, Neighbors::Eight);
        assert!(p.plan(&g, a, b, &jps).unwrap().found);
        assert_eq!(p.ran(), Planner::JPS);
        let four = settings(Planner::JPS, Neighbors::Four);
        assert_eq!(p.plan(&g, a, b, &four), Err(PlanError::Jumps { planner: Planner::JPS }));
        assert!(p.path().is_empty());
        let o = p.plan_observed(&g, a, b, &four, Fallback::Grid, &mut ()).unwrap();
        assert_eq!((o.found, o.cost, p.ran()), (true, Some(8.0), Planner::ASTAR));
        g.set_tile(Cell::new(2, 2), Tile::Floor(3));
        let dijkstra = Planner::new(Order::Dijkstra, Expansion::JpsPlus).unwrap();
        let e = p.plan(&g, a, b, &settings(dijkstra, Neighbors::Eight)).unwrap_err();
        assert_eq!(e.to_string(), "jps+:dijkstra needs 8 neighbours and one entry cost on every walkable cell");
        p.plan_observed(&g, a, b, &settings(dijkstra, Neighbors::Eight), Fallback::Grid, &mut ()).unwrap();
        assert_eq!(p.ran(), Planner::DIJKSTRA);
        let e = p.plan(&g, a, b, &settings(Planner::NAVMESH, Neighbors::Eight)).unwrap_err();
        assert_eq!(e, PlanError::AnyAngle { planner: Planner::NAVMESH });
    }
}
