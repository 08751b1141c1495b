//! One side of the lab: a query run with its own settings, recorded as a
//! [`Trace`] and shown up to the lab's step.
//!
//! A pane runs a grid search, or an any-angle planner ([`NavRun`]): then
//! its steps are those of its search (over portals or corners) and, for the
//! navmesh, after them the funnel's.

use super::nav::NavRun;
use crate::grid::{Cell, Grid};
use crate::nav::{Planner, Vec2};
use crate::picture::{Drawn, NavDrawn, NavLine};
use crate::search::{
    GridPlanner, Outcome, PlanError, SearchSettings, SearchStats, Trace, TraceView, Visit, string_pull,
};

/// A search of the lab's query with one pane's settings.
#[derive(Debug)]
pub struct Pane {
    /// The settings its keys change.
    pub settings: SearchSettings,
    /// What runs: a grid search with `settings` (its algorithm is theirs),
    /// or an any-angle planner.
    pub planner: Planner,
    grid_planner: GridPlanner,
    trace: Trace,
    /// Every node's state at the lab's step.
    pub view: TraceView,
    /// The query's answer, or why the grid refused it.
    pub outcome: Result<Outcome, PlanError>,
    /// The path found (start and goal included), shown once stepped to the end.
    pub path: Vec<Cell>,
    /// Its string-pulled waypoints.
    pub smoothed: Vec<Cell>,
    /// What an any-angle planner built and found.
    pub nav: Option<NavRun>,
}

impl Pane {
    /// A pane with `settings` that has not searched yet.
    pub fn new(settings: SearchSettings) -> Pane {
        let outcome = Ok(Outcome { found: false, cost: 0.0, stats: SearchStats::default() });
        let (grid_planner, trace, view) = (GridPlanner::new(), Trace::new(), TraceView::default());
        let planner = Planner::Grid(settings.algorithm);
        let (path, smoothed, nav) = (Vec::new(), Vec::new(), None);
        Pane { settings, planner, grid_planner, trace, view, outcome, path, smoothed, nav }
    }

    /// Makes `planner` the pane's (a grid search also takes its algorithm
    /// into the settings); [`Pane::run`] runs it.
    pub fn set_planner(&mut self, planner: Planner) {
        self.planner = planner;
        if let Some(algorithm) = planner.grid() {
            self.settings.algorithm = algorithm;
        }
    }

    /// Runs the query from `start` to `goal` on `grid` to its end,
    /// recording it, and shows it before its first step.
    pub fn run(&mut self, grid: &Grid, start: Cell, goal: Cell) {
        self.trace.clear();
        self.path.clear();
        self.smoothed.clear();
        self.nav = None;
        if self.planner.grid().is_some() {
            self.outcome = self.grid_planner.plan_observed(grid, start, goal, &self.settings, &mut self.trace);
            self.path = self.grid_planner.path().to_vec();
            string_pull(grid, &self.path, &mut self.smoothed);
            self.view = TraceView::new(grid.node_count());
        } else {
            self.outcome = PlanError::check(grid, start, goal).map(|()| {
                let run = NavRun::run(self.planner, grid, start, goal, &mut self.trace);
                let outcome = Outcome { found: !run.points.is_empty(), cost: run.length, stats: run.stats };
                self.view = TraceView::new(run.nodes.len());
                self.nav = Some(run);
                outcome
            });
        }
        self.view.seek(&self.trace, 0);
    }

    /// Number of steps of the recorded search (0 when the query was refused).
    pub fn search_len(&self) -> usize {
        self.trace.len()
    }

    /// Number of steps: the search's, then the funnel's.
    pub fn len(&self) -> usize {
        self.trace.len() + self.nav.as_ref().map_or(0, |n| n.funnel.len())
    }

    /// Shows the search after `step` steps.
    pub fn seek(&mut self, step: usize) {
        self.view.seek(&self.trace, step);
    }

    /// Whether `step` reaches the end of the search (and of the funnel).
    pub fn done(&self, step: usize) -> bool {
        step >= self.len()
    }

    /// The counters after `step` steps; at the end of the search, the
    /// engine's own.
    pub fn stats(&self, step: usize) -> SearchStats {
        match &self.outcome {
            Ok(o) if step >= self.search_len() => o.stats,
            _ => self.trace.stats(step),
        }
    }

    /// The pane after `step` steps, as the picture draws it.
    pub fn drawn(&self, grid: &Grid, step: usize) -> Drawn {
        if let Some(run) = &self.nav {
            return self.nav_drawn(run, step);
        }
        let cells = grid.cells().filter_map(|c| {
            let mark = self.view.node(grid.node(c))?;
            Some((c, if mark.closed { Visit::Closed } else { Visit::Open }))
        });
        let done = self.done(step);
        let found = done && self.outcome.as_ref().is_ok_and(|o| o.found);
        Drawn {
            settings: self.settings,
            stats: self.stats(step),
            cost: self.outcome.as_ref().ok().filter(|_| found).map(|o| o.cost),
            finished: done,
            cells: cells.collect(),
            current: self.view.current().filter(|_| !done).map(|n| grid.cell_of(n)),
            path: if found { self.path.clone() } else { Vec::new() },
            smoothed: if found { self.smoothed.clone() } else { Vec::new() },
            nav: None,
        }
    }

    /// The picture of an any-angle run after `step` steps: the mesh or the
    /// corners, and the path (or what the funnel has emitted of it).
    fn nav_drawn(&self, run: &NavRun, step: usize) -> Drawn {
        let done = self.done(step);
        let points = match run.funnel_at(step.saturating_sub(self.search_len())) {
            _ if done => run.points.clone(),
            Some(f) => run.pulled[..f.emitted.min(run.pulled.len())].to_vec(),
            None => Vec::new(),
        };
        let mesh = self.planner == Planner::Navmesh;
        let inner = |c: &[(Vec2, Vec2)]| if c.len() > 2 { c[1..c.len() - 1].to_vec() } else { Vec::new() };
        let nav = NavDrawn {
            title: format!("{} (point agent): {}", self.planner, nav_counts(self.planner, run)),
            polygons: run.polygons.clone(),
            portals: if step > self.search_len() || done { inner(&run.corridor) } else { Vec::new() },
            corners: run.corners.clone(),
            paths: vec![NavLine { planner: if mesh { "navmesh" } else { "waypoints" }, points }],
        };
        Drawn {
            settings: self.settings,
            stats: self.stats(step),
            cost: self.outcome.as_ref().ok().filter(|o| o.found && done).map(|o| o.cost),
            finished: done,
            cells: Vec::new(),
            current: None,
            path: Vec::new(),
            smoothed: Vec::new(),
            nav: Some(nav),
        }
    }
}

/// The sizes of what an any-angle planner built: `N polygons, M portals`
/// or `N corners, M links`.
pub fn nav_counts(planner: Planner, run: &NavRun) -> String {
    if planner == Planner::Navmesh {
        format!("{} polygons, {} portals", run.polygons.len(), run.links)
    } else {
        format!("{} corners, {} links", run.corners.len(), run.links)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{PathArgs, SearchArgs, path};
    use crate::search::{Algorithm, Heuristic, OpenUpdate, TieBreak};
    use std::path::{Path, PathBuf};

    /// Stepping each pane to its end gives exactly what `delve path --json
    /// --smooth` prints for the same level, query and settings (the time
    /// aside).
    #[test]
    fn stepped_to_the_end_it_is_delve_path() {
        let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/dungeon.txt");
        let level = crate::level::Level::load(&file).unwrap();
        let (from, to) = (level.start.unwrap(), level.goal.unwrap());
        let cases = [
            (Algorithm::AStar, Heuristic::Octile, TieBreak::Fifo, false, OpenUpdate::Lazy),
            (Algorithm::Greedy, Heuristic::Euclidean, TieBreak::LowH, false, OpenUpdate::Lazy),
            (Algorithm::Dijkstra, Heuristic::Octile, TieBreak::Cross, false, OpenUpdate::DecreaseKey),
            (Algorithm::Weighted, Heuristic::Manhattan, TieBreak::Fifo, true, OpenUpdate::Lazy),
        ];
        for (algorithm, heuristic, tie, reopen, open) in cases {
            let search = SearchArgs {
                algorithms: vec![crate::nav::Planner::Grid(algorithm)],
                heuristic,
                weight: 2.0,
                tie,
                neighbors: crate::grid::Neighbors::Eight,
                reopen,
                open,
            };
            let want = path_json(&file, Some((from, to)), &search, true);

            let mut pane = Pane::new(search.settings());
            pane.run(&level.grid, from, to);
            let mut step = 0;
            while !pane.done(step) {
                step += 1;
                pane.seek(step);
            }
            let s = pane.stats(step);
            let o = pane.outcome.as_ref().unwrap();
            let cells = |p: &[Cell]| serde_json::json!(p.iter().map(|c| [c.x, c.y]).collect::<Vec<_>>());
            let got = [
                ("found", serde_json::json!(o.found)),
                ("cost", serde_json::json!(o.cost)),
                ("steps", serde_json::json!(pane.path.len() - 1)),
                ("expanded", serde_json::json!(s.expanded)),
                ("pushed", serde_json::json!(s.pushed)),
                ("stale_pops", serde_json::json!(s.stale_pops)),
                ("max_open", serde_json::json!(s.max_open)),
                ("reopened", serde_json::json!(s.reopened)),
                ("violations", serde_json::json!(s.violations)),
                ("path", cells(&pane.path)),
                ("smoothed", cells(&pane.smoothed)),
            ];
            for (key, value) in got {
                assert_eq!(want[key], value, "{key} of {algorithm} {heuristic} {tie} {open}");
            }
            // The trace's last step agrees with the engine's counters.
            assert_eq!(SearchStats { micros: 0.0, ..pane.trace.stats(step) }, SearchStats { micros: 0.0, ..s });
        }
    }

    /// What `delve path FILE --json` answers, between `ends` (the level's
    /// own S and G when `None`).
    fn path_json(file: &Path, ends: Option<(Cell, Cell)>, search: &SearchArgs, smooth: bool) -> serde_json::Value {
        let args = PathArgs {
            level: Some(file.to_path_buf()),
            from: ends.map(|e| e.0),
            to: ends.map(|e| e.1),
            search: search.clone(),
            smooth,
            json: true,
            svg: None,
            force: false,
            radius: 0.0,
            compare: false,
        };
        let mut out = Vec::new();
        path(&args, &mut out).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    /// A navmesh or waypoints pane stepped to its end (search, then
    /// funnel) has the path, length and expansions of `delve path --algo
    /// navmesh|waypoints --json` on the same query.
    #[test]
    fn an_any_angle_pane_at_its_end_is_delve_path() {
        let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/dungeon.txt");
        let level = crate::level::Level::load(&file).unwrap();
        let (from, to) = (level.start.unwrap(), level.goal.unwrap());
        for planner in [Planner::Navmesh, Planner::Waypoints] {
            let search = SearchArgs {
                algorithms: vec![planner],
                heuristic: Heuristic::Octile,
                weight: 2.0,
                tie: TieBreak::Fifo,
                neighbors: crate::grid::Neighbors::Eight,
                reopen: false,
                open: OpenUpdate::Lazy,
            };
            let want = path_json(&file, None, &search, false);

            let mut pane = Pane::new(search.settings());
            pane.set_planner(planner);
            pane.run(&level.grid, from, to);
            assert!(!pane.done(pane.search_len()) || planner == Planner::Waypoints, "the funnel steps after");
            pane.seek(pane.len());
            let run = pane.nav.as_ref().unwrap();
            let points: Vec<[f64; 2]> = run.points.iter().map(|p| [p.x, p.y]).collect();
            assert_eq!(want["path"], serde_json::json!(points), "{planner}");
            assert_eq!(want["length"], serde_json::json!(pane.outcome.as_ref().unwrap().cost), "{planner}");
            assert_eq!(want["expanded"], serde_json::json!(pane.stats(pane.len()).expanded), "{planner}");
        }
    }
}
