//! One dispatch for every planner: the grid's expansion policies through
//! [`GridPlanner`], the navigation mesh and the corner waypoint graph here,
//! each structure kept for the grid it was made from and brought up to
//! date when cells change.
//!
//! It lives in this layer because it is the lowest that knows every
//! policy: [`Planner`] is plain data in `search`, which cannot name the
//! mesh or the corners. The world, the lab, `delve path` and `delve scen`
//! all plan through it, so a planner is run one way everywhere, refused
//! for the same reasons ([`Navigator::check`]), and reported as what ran
//! ([`Navigator::ran`]).

use super::{MeshPath, NavMesh, Space, Vec2, WaypointPath, Waypoints};
use crate::grid::{Cell, Grid};
use crate::search::grid_cache::{Derived, GridCache};
use crate::search::{
    Expansion, Fallback, GridPlanner, Observer, Outcome, PlanError, Planner, SearchSettings, Searcher, Visit,
};

/// The ends of one query: cells for the grid's planners; for the
/// any-angle ones, `start` (a free point of `from`, say a monster's
/// position) or else the centre of `from`, to the centre of `to`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ends {
    /// The start cell.
    pub from: Cell,
    /// The goal cell.
    pub to: Cell,
    /// Where an any-angle path starts, when not at the centre of `from`.
    pub start: Option<Vec2>,
}

impl Ends {
    /// From cell `from` to cell `to` (centre to centre in the plane).
    pub fn cells(from: Cell, to: Cell) -> Ends {
        Ends { from, to, start: None }
    }
}

impl Derived for NavMesh {
    type Config = f64;

    fn build(grid: &Grid, radius: f64) -> NavMesh {
        NavMesh::build(grid, radius)
    }

    fn repair(&mut self, grid: &Grid, changed: &[usize]) {
        let cells: Vec<Cell> = changed.iter().map(|&i| grid.cell_of(i as u32)).collect();
        self.update(grid, &cells);
    }
}

/// The corner graph's links depend on cells anywhere in sight, so a change
/// finds the corners again (one pass) and forgets the links.
impl Derived for Waypoints {
    type Config = f64;

    fn build(grid: &Grid, radius: f64) -> Waypoints {
        Waypoints::build(grid, radius)
    }

    fn repair(&mut self, grid: &Grid, _: &[usize]) {
        *self = Waypoints::build(grid, self.radius());
    }
}

/// Plans with any [`Planner`] for an agent of one radius, keeping the
/// per-grid structures and buffers between queries.
#[derive(Debug)]
pub struct Navigator {
    radius: f64,
    grid: GridPlanner,
    mesh: GridCache<NavMesh>,
    waypoints: GridCache<Waypoints>,
    searcher: Searcher,
    /// Which structure the last query used, and what it found.
    last: Last,
    points: Vec<Vec2>,
    mesh_path: Option<MeshPath>,
    waypoint_path: Option<WaypointPath>,
    ran: Planner,
    preprocess_micros: f64,
}

/// The structure the last query ran on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    Grid,
    Mesh,
    Corners,
}

impl Navigator {
    /// A navigator for an agent of radius `radius` (0 to
    /// [`MAX_RADIUS`](super::MAX_RADIUS); the grid's planners ignore it).
    ///
    /// # Panics
    /// When `radius` is out of range; the command line checks it.
    pub fn new(radius: f64) -> Navigator {
        assert!((0.0..=super::MAX_RADIUS).contains(&radius), "radius {radius} out of range");
        Navigator {
            radius,
            grid: GridPlanner::new(),
            mesh: GridCache::default(),
            waypoints: GridCache::default(),
            searcher: Searcher::new(),
            last: Last::Grid,
            points: Vec::new(),
            mesh_path: None,
            waypoint_path: None,
            ran: Planner::ASTAR,
            preprocess_micros: 0.0,
        }
    }

    /// The agent radius of the any-angle planners.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Whether `planner` can run on `grid` at all, whatever the query:
    /// the corner graph takes at most [`Waypoints::MAX_CORNERS`] corners.
    /// (Jump point searches are refused or fall back per query, by their
    /// settings: [`SearchSettings::runnable`].) The one cap every caller
    /// applies: the command line before it starts, the `A` key before it
    /// chooses.
    pub fn check(planner: Planner, grid: &Grid) -> Result<(), PlanError> {
        match planner.expansion() {
            Expansion::Waypoints => Waypoints::check(grid).map(|_| ()),
            _ => Ok(()),
        }
    }

    /// The planner after `planner` in the `A` key's cycle
    /// ([`Planner::next`]) that can run on `grid`, and the ones passed
    /// over with the reason (the caller says so).
    pub fn next_in_cycle(planner: Planner, grid: &Grid) -> (Planner, Vec<(Planner, PlanError)>) {
        let mut skipped = Vec::new();
        let mut next = planner.next();
        while let Err(e) = Navigator::check(next, grid) {
            skipped.push((next, e));
            next = next.next();
        }
        (next, skipped)
    }

    /// Plans from cell `from` to cell `to` of `grid` with `settings`,
    /// refusing what cannot run there.
    pub fn plan(&mut self, grid: &Grid, from: Cell, to: Cell, settings: &SearchSettings) -> Result<Outcome, PlanError> {
        self.plan_observed(grid, Ends::cells(from, to), settings, Fallback::Refuse, &mut ())
    }

    /// Plans `ends` on `grid` with `settings`' planner, or with `fallback`
    /// its fallback where it cannot run, telling `observer` each step of
    /// the search (node ids: the grid's cells for the grid's planners,
    /// [`NavMesh::search_nodes`] for the mesh, [`Waypoints::corners`] then
    /// start and goal for the corner graph). The cost of an any-angle path
    /// is its length. Refused: an end off the map or blocked, a planner
    /// that cannot run ([`Navigator::check`], [`SearchSettings::runnable`]).
    /// An any-angle start outside the free space finds no path.
    pub fn plan_observed<O: Observer>(
        &mut self,
        grid: &Grid,
        ends: Ends,
        settings: &SearchSettings,
        fallback: Fallback,
        observer: &mut O,
    ) -> Result<Outcome, PlanError> {
        self.points.clear();
        self.mesh_path = None;
        self.waypoint_path = None;
        self.last = Last::Grid;
        let planner = settings.planner;
        if !planner.expansion().any_angle() {
            let outcome = self.grid.plan_observed(grid, ends.from, ends.to, settings, fallback, observer);
            self.ran = self.grid.ran();
            self.preprocess_micros = self.grid.preprocess_micros();
            return outcome;
        }
        PlanError::check(grid, ends.from, ends.to)?;
        self.ran = planner;
        let (from, to) = (ends.start.unwrap_or(Vec2::centre(ends.from)), Vec2::centre(ends.to));
        let outcome = match planner.expansion() {
            Expansion::Navmesh => {
                self.last = Last::Mesh;
                let mesh = self.mesh.get(grid, self.radius);
                let weight = settings.navmesh_weight;
                let (outcome, path) = mesh.plan_observed(grid, &mut self.searcher, from, to, weight, observer);
                self.points = path.as_ref().map_or(Vec::new(), |p| p.points.clone());
                self.mesh_path = path;
                self.preprocess_micros = self.mesh.micros();
                outcome
            }
            _ => {
                let waypoints = self.waypoints.get(grid, self.radius);
                // The cap, from the corners the graph found (counting them
                // again would cost a pass over the grid per query).
                let corners = waypoints.corners().len();
                if corners > Waypoints::MAX_CORNERS {
                    return Err(PlanError::TooManyCorners { corners, cap: Waypoints::MAX_CORNERS });
                }
                self.last = Last::Corners;
                let (outcome, path) = waypoints.plan_observed(grid, &mut self.searcher, from, to, observer);
                self.points = path.as_ref().map_or(Vec::new(), |p| p.points.clone());
                self.waypoint_path = path;
                self.preprocess_micros = self.waypoints.micros();
                outcome
            }
        };
        Ok(outcome)
    }

    /// The planner that answered the last query: the one asked for, or its
    /// fallback.
    pub fn ran(&self) -> Planner {
        self.ran
    }

    /// The last grid query's cell path, start and goal included (empty
    /// after an any-angle query, or none found).
    pub fn path(&self) -> &[Cell] {
        if self.last == Last::Grid { self.grid.path() } else { &[] }
    }

    /// The last any-angle query's path, start to goal (empty after a grid
    /// query, or none found).
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// Cells the last grid query generated on `grid` (the grid it ran on),
    /// closed or open; none after an any-angle query.
    pub fn visited<'a>(&'a self, grid: &'a Grid) -> impl Iterator<Item = (Cell, Visit)> + 'a {
        let grid_query = self.last == Last::Grid;
        self.grid.visited(grid).filter(move |_| grid_query)
    }

    /// The nodes the last any-angle search closed (none after a grid
    /// query, whose cells [`Navigator::visited`] gives).
    pub fn closed_nodes(&self) -> usize {
        if self.last == Last::Grid {
            return 0;
        }
        self.searcher.visited().iter().filter(|(_, v)| *v == Visit::Closed).count()
    }

    /// Microseconds spent building or repairing the per-grid data the last
    /// query used (JPS bits, JPS+ table, HPA*'s abstraction, the mesh, the
    /// corners): 0 when it was up to date.
    pub fn preprocess_micros(&self) -> f64 {
        self.preprocess_micros
    }

    /// The mesh the last navmesh query ran on.
    pub fn mesh(&self) -> Option<&NavMesh> {
        self.mesh.cached().filter(|_| self.last == Last::Mesh)
    }

    /// The last navmesh query's answer (corridor, portals, polygons).
    pub fn mesh_path(&self) -> Option<&MeshPath> {
        self.mesh_path.as_ref()
    }

    /// The corner graph the last waypoints query ran on.
    pub fn waypoints(&self) -> Option<&Waypoints> {
        self.waypoints.cached().filter(|_| self.last == Last::Corners)
    }

    /// The last waypoints query's answer (corners passed).
    pub fn waypoint_path(&self) -> Option<&WaypointPath> {
        self.waypoint_path.as_ref()
    }

    /// The grid's planner, for its own settings (HPA*'s cluster size).
    pub fn grid_planner_mut(&mut self) -> &mut GridPlanner {
        &mut self.grid
    }

    /// The free space of the any-angle planners on `grid`.
    pub fn space<'a>(&self, grid: &'a Grid) -> Space<'a> {
        Space::new(grid, self.radius)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nav::testing::grid;

    fn with(planner: Planner) -> SearchSettings {
        SearchSettings { planner, ..SearchSettings::DEFAULT }
    }

    /// Every planner of the cycle through the one dispatch: the grid's give
    /// cells, the any-angle ones points, and the ran planner is the one
    /// asked for.
    #[test]
    fn every_planner_runs_through_one_dispatch() {
        let g = grid(&["......", "..##..", "......"]);
        let (a, b) = (Cell::new(0, 1), Cell::new(5, 1));
        let mut nav = Navigator::new(0.0);
        for planner in Planner::CYCLE {
            let o = nav.plan(&g, a, b, &with(planner)).unwrap();
            assert!(o.found && o.cost.is_some_and(|c| c > 0.0), "{planner}");
            assert_eq!(nav.ran(), planner);
            if planner.expansion().any_angle() {
                assert!(nav.path().is_empty() && nav.points().len() >= 2, "{planner}");
                assert_eq!(o.cost, Some(super::super::path_length(nav.points())), "{planner}");
            } else {
                assert!(nav.points().is_empty() && nav.path().first() == Some(&a), "{planner}");
            }
        }
        assert!(nav.waypoints().is_some() && nav.mesh().is_none());
    }

    /// The cap refuses the corner graph up front, and the cycle passes
    /// over it, saying why.
    #[test]
    fn the_waypoint_cap_refuses_and_the_cycle_passes_over() {
        let rows: Vec<String> =
            (0..150).map(|y| (0..150).map(|x| if x % 2 + y % 2 == 0 { '#' } else { '.' }).collect()).collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let g = grid(&rows);
        assert!(Waypoints::count(&g) > Waypoints::MAX_CORNERS);
        let e = Navigator::check(Planner::WAYPOINTS, &g).unwrap_err();
        assert!(matches!(e, PlanError::TooManyCorners { cap: Waypoints::MAX_CORNERS, .. }), "{e}");
        let mut nav = Navigator::new(0.0);
        let refused = nav.plan(&g, Cell::new(1, 1), Cell::new(3, 3), &with(Planner::WAYPOINTS));
        assert_eq!(refused, Err(e.clone()));
        let (next, skipped) = Navigator::next_in_cycle(Planner::NAVMESH, &g);
        assert_eq!((next, skipped), (Planner::BFS, vec![(Planner::WAYPOINTS, e)]));
        let small = grid(&["...", ".#.", "..."]);
        assert_eq!(Navigator::next_in_cycle(Planner::NAVMESH, &small), (Planner::WAYPOINTS, vec![]));
    }

    /// A door that closes: the mesh is repaired, the corner graph found
    /// again, and both answer as fresh ones do.
    #[test]
    fn structures_follow_the_grid() {
        let mut g = grid(&["......", "......", "......"]);
        let (a, b) = (Cell::new(0, 1), Cell::new(5, 1));
        let mut nav = Navigator::new(0.25);
        for planner in [Planner::NAVMESH, Planner::WAYPOINTS] {
            let before = nav.plan(&g, a, b, &with(planner)).unwrap().cost.unwrap();
            for y in 0..2 {
                g.set_tile(Cell::new(3, y), crate::grid::Tile::DoorClosed);
            }
            let after = nav.plan(&g, a, b, &with(planner)).unwrap().cost.unwrap();
            let fresh = Navigator::new(0.25).plan(&g, a, b, &with(planner)).unwrap().cost.unwrap();
            assert!(after > before, "{planner}: {after} vs {before}");
            assert_eq!(after, fresh, "{planner}");
            for y in 0..2 {
                g.set_tile(Cell::new(3, y), crate::grid::Tile::DoorOpen);
            }
        }
    }
}
