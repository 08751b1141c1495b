//! One side of the lab: a query run with its own settings, recorded as a
//! [`Trace`] and shown up to the lab's step.
//!
//! A pane runs a grid search, or an any-angle planner ([`NavRun`]): then
//! its steps are those of its search (over portals or corners) and, for the
//! navmesh, after them the funnel's.

use super::nav::NavRun;
use crate::grid::{Cell, Grid};
use crate::nav::{Ends, Navigator, Vec2};
use crate::picture::{Drawn, NavDrawn, NavLine};
use crate::search::{
    Expansion, Fallback, Outcome, PlanError, Planner, SearchSettings, SearchStats, Trace, TraceView, Visit, string_pull,
};

/// A search of the lab's query with one pane's settings.
#[derive(Debug)]
pub struct Pane {
    /// The settings its keys change, the planner included.
    pub settings: SearchSettings,
    /// Runs every planner, keeping what each builds for the lab's grid
    /// (repaired after an edit).
    navigator: Navigator,
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
        let (navigator, trace, view) = (Navigator::new(0.0), Trace::new(), TraceView::default());
        let (outcome, path, smoothed, nav) = (Ok(Outcome::default()), Vec::new(), Vec::new(), None);
        Pane { settings, navigator, trace, view, outcome, path, smoothed, nav }
    }

    /// What runs: its settings' planner.
    pub fn planner(&self) -> Planner {
        self.settings.planner
    }

    /// Makes `planner` the pane's; [`Pane::run`] runs it.
    pub fn set_planner(&mut self, planner: Planner) {
        self.settings.planner = planner;
    }

    /// Runs the query from `start` to `goal` on `grid` to its end,
    /// recording it, and shows it before its first step. What cannot run
    /// (jump points on 4 neighbours or weighted cells, the corner graph
    /// beyond its cap) is refused, and the pane says why: the lab shows
    /// the planner asked for or nothing.
    pub fn run(&mut self, grid: &Grid, start: Cell, goal: Cell) {
        self.trace.clear();
        self.path.clear();
        self.smoothed.clear();
        self.nav = None;
        let ends = Ends::cells(start, goal);
        let nav = &mut self.navigator;
        self.outcome = nav.plan_observed(grid, ends, &self.settings, Fallback::Refuse, &mut self.trace);
        if self.outcome.is_ok() && self.settings.planner.expansion().any_angle() {
            let run = NavRun::of(nav, grid, start, goal, &self.trace);
            self.view = TraceView::new(run.nodes.len());
            self.nav = Some(run);
        } else {
            self.path = nav.path().to_vec();
            string_pull(grid, &self.path, &mut self.smoothed);
            self.view = TraceView::new(grid.node_count());
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
            cost: self.outcome.as_ref().ok().filter(|_| found).and_then(|o| o.cost),
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
        let mesh = self.planner().expansion() == Expansion::Navmesh;
        let inner = |c: &[(Vec2, Vec2)]| if c.len() > 2 { c[1..c.len() - 1].to_vec() } else { Vec::new() };
        let nav = NavDrawn {
            title: format!(
                "{}, point agent: {}",
                super::draw::planner_words(&self.settings),
                nav_counts(self.planner(), run)
            ),
            polygons: run.polygons.clone(),
            portals: if step > self.search_len() || done { inner(&run.corridor) } else { Vec::new() },
            corners: run.corners.clone(),
            paths: vec![NavLine { planner: if mesh { "navmesh" } else { "waypoints" }, points }],
        };
        Drawn {
            settings: self.settings,
            stats: self.stats(step),
            cost: self.outcome.as_ref().ok().filter(|_| done).and_then(|o| o.cost),
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
/// or `N corners, M links made` (the corner graph makes the links of the
/// corners its searches expand).
pub fn nav_counts(planner: Planner, run: &NavRun) -> String {
    if planner.expansion() == Expansion::Navmesh {
        format!("{} polygons, {} portals", run.polygons.len(), run.links)
    } else {
        format!("{} corners, {} links made", run.corners.len(), run.links)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{PathArgs, SearchArgs, path};
    use crate::search::{Heuristic, OpenUpdate, Order, TieBreak};
    use std::path::{Path, PathBuf};

    /// Stepping each pane to its end gives exactly what `delve path --json
    /// --smooth` prints for the same level, query and settings (the time
    /// aside): the grid's orderings on the default level, the jump point
    /// searches on the maze (one entry cost everywhere, where they run).
    #[test]
    fn stepped_to_the_end_it_is_delve_path() {
        let (grid_cases, jump_cases) = cases();
        for (name, cases) in [("dungeon", grid_cases), ("maze", jump_cases)] {
            let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("levels/{name}.txt"));
            the_pane_is_delve_path(&file, &cases);
        }
    }

    type Case = (Planner, Heuristic, TieBreak, bool, OpenUpdate);

    fn cases() -> (Vec<Case>, Vec<Case>) {
        let grid = vec![
            (Planner::ASTAR, Heuristic::Octile, TieBreak::Fifo, false, OpenUpdate::Lazy),
            (Planner::GREEDY, Heuristic::Euclidean, TieBreak::LowH, false, OpenUpdate::Lazy),
            (Planner::DIJKSTRA, Heuristic::Octile, TieBreak::Cross, false, OpenUpdate::DecreaseKey),
            (Planner::WEIGHTED, Heuristic::Manhattan, TieBreak::Fifo, true, OpenUpdate::Lazy),
        ];
        let jps_plus_dijkstra = Planner::new(Order::Dijkstra, Expansion::JpsPlus).unwrap();
        let jumps = vec![
            (Planner::JPS, Heuristic::Octile, TieBreak::Fifo, false, OpenUpdate::Lazy),
            (jps_plus_dijkstra, Heuristic::Octile, TieBreak::LowH, false, OpenUpdate::DecreaseKey),
        ];
        (grid, jumps)
    }

    fn the_pane_is_delve_path(file: &Path, cases: &[Case]) {
        let level = crate::level::Level::load(file).unwrap();
        let (from, to) = (level.start.unwrap(), level.goal.unwrap());
        for &(algorithm, heuristic, tie, reopen, open) in cases {
            let search = SearchArgs {
                algorithms: vec![algorithm],
                heuristic,
                weight: Some(2.0),
                tie,
                neighbors: crate::grid::Neighbors::Eight,
                reopen,
                open,
            };
            let want = path_json(file, Some((from, to)), &search, true);

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
                ("ran", serde_json::json!(algorithm.to_string())),
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
            // The trace's last step agrees with the engine's counters (but
            // for the cells jumps scanned, counted by the jump graph).
            let engine = SearchStats { micros: 0.0, scanned: 0, ..s };
            assert_eq!(SearchStats { micros: 0.0, ..pane.trace.stats(step) }, engine);
        }
    }

    /// A jump point search where it cannot run (the default level has
    /// water) is refused in the pane, which says why, where `delve path`
    /// runs A* and says so.
    #[test]
    fn a_pane_refuses_what_cannot_run() {
        let level = crate::level::Level::embedded_default();
        let mut pane = Pane::new(SearchSettings { planner: Planner::JPS, ..SearchSettings::DEFAULT });
        pane.run(&level.grid, level.start.unwrap(), level.goal.unwrap());
        assert_eq!(pane.outcome, Err(PlanError::Jumps { planner: Planner::JPS }));
        assert!(pane.path.is_empty() && pane.len() == 0);
    }

    /// What `delve path FILE --json` answers, between `ends` (the level's
    /// own S and G when `None`).
    fn path_json(file: &Path, ends: Option<(Cell, Cell)>, search: &SearchArgs, smooth: bool) -> serde_json::Value {
        let args = PathArgs {
            level: Some(file.to_path_buf()),
            generated: Default::default(),
            seed: 1,
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
        for planner in [Planner::NAVMESH, Planner::WAYPOINTS] {
            let search = SearchArgs {
                algorithms: vec![planner],
                heuristic: Heuristic::Octile,
                weight: None,
                tie: TieBreak::Fifo,
                neighbors: crate::grid::Neighbors::Eight,
                reopen: false,
                open: OpenUpdate::Lazy,
            };
            let want = path_json(&file, None, &search, false);

            let mut pane = Pane::new(search.settings());
            pane.set_planner(planner);
            pane.run(&level.grid, from, to);
            assert!(!pane.done(pane.search_len()) || planner == Planner::WAYPOINTS, "the funnel steps after");
            pane.seek(pane.len());
            let run = pane.nav.as_ref().unwrap();
            let points: Vec<[f64; 2]> = run.points.iter().map(|p| [p.x, p.y]).collect();
            assert_eq!(want["path"], serde_json::json!(points), "{planner}");
            assert_eq!(want["length"], serde_json::json!(pane.outcome.as_ref().unwrap().cost), "{planner}");
            assert_eq!(
                want["link_count"].as_u64().map(|n| n as usize),
                (planner == Planner::WAYPOINTS).then_some(run.links)
            );
            assert_eq!(want["expanded"], serde_json::json!(pane.stats(pane.len()).expanded), "{planner}");
        }
    }
}
