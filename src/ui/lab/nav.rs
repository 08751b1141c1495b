//! What a lab pane running an any-angle planner ([`crate::nav`]) shows of
//! the lab's query, from cell centre to cell centre, for a point agent: the
//! navigation mesh (its search over portals, then the funnel step by step)
//! or the corner waypoint graph (its search over corners).

use crate::grid::{Cell, Grid};
use crate::nav::{FunnelStep, Navigator, Vec2, string_pull_traced};
use crate::search::{SearchStats, Trace};

/// What one run of an any-angle planner built and found.
#[derive(Debug, Default)]
pub struct NavRun {
    /// The mesh's polygons: their corners in order (navmesh).
    pub polygons: Vec<Vec<Vec2>>,
    /// Each cell's polygon, by node, as an index into `polygons`
    /// (navmesh; `None` on walls).
    pub cell_polygon: Vec<Option<usize>>,
    /// The corner waypoints (waypoints).
    pub corners: Vec<Vec2>,
    /// Portals of the mesh, or links of the waypoint graph made so far.
    pub links: usize,
    /// Each node of the search, by node id: its point and the polygons
    /// (indices into `polygons`) it lies on.
    pub nodes: Vec<(Vec2, [Option<usize>; 2])>,
    /// The corridor handed to the funnel: (start, start), each portal as
    /// (left, right), (goal, goal) (navmesh).
    pub corridor: Vec<(Vec2, Vec2)>,
    /// The polygons of the corridor, as indices into `polygons`.
    pub corridor_polygons: Vec<usize>,
    /// The funnel's steps over the corridor (navmesh).
    pub funnel: Vec<FunnelStep>,
    /// The funnel's path: each step has emitted its first points.
    pub pulled: Vec<Vec2>,
    /// The path found, start to goal (empty when none).
    pub points: Vec<Vec2>,
    /// Its Euclidean length.
    pub length: f64,
    /// The search's counters.
    pub stats: SearchStats,
}

impl NavRun {
    /// What `navigator`'s last query, an any-angle one from the centre of
    /// `start` to the centre of `goal` on `grid` recorded in `trace`, built
    /// and found: the navmesh (its search over portals, then the funnel
    /// step by step) or the corner graph (its search over corners).
    pub fn of(navigator: &Navigator, grid: &Grid, start: Cell, goal: Cell, trace: &Trace) -> NavRun {
        let (from, to) = (Vec2::centre(start), Vec2::centre(goal));
        let mut run = NavRun { stats: trace.stats(trace.len()), ..NavRun::default() };
        if let Some(mesh) = navigator.mesh() {
            let mut index = Vec::new();
            for (id, polygon) in mesh.polygons() {
                index.resize(index.len().max(id as usize + 1), None);
                index[id as usize] = Some(run.polygons.len());
                run.polygons.push(polygon.outline());
            }
            let at = |id: Option<u32>| id.and_then(|id| index.get(id as usize).copied().flatten());
            run.cell_polygon = vec![None; grid.node_count()];
            for c in grid.cells() {
                run.cell_polygon[grid.node(c) as usize] = at(mesh.locate(Vec2::centre(c)));
            }
            run.links = mesh.portals().len();
            run.nodes = mesh.search_nodes(from, to).iter().map(|n| (n.at, n.polygons.map(at))).collect();
            if let Some(path) = navigator.mesh_path() {
                (run.pulled, run.funnel) = string_pull_traced(&path.portals);
                run.corridor_polygons = path.polygons.iter().filter_map(|&id| at(Some(id))).collect();
                (run.corridor, run.points, run.length, run.stats) =
                    (path.portals.clone(), path.points.clone(), path.length, path.stats);
            }
        } else if let Some(wp) = navigator.waypoints() {
            run.corners = wp.corners().collect();
            run.links = wp.link_count();
            run.nodes = run.corners.iter().chain([&from, &to]).map(|&p| (p, [None, None])).collect();
            if let Some(path) = navigator.waypoint_path() {
                (run.points, run.length, run.stats) = (path.points.clone(), path.length, path.stats);
            }
        }
        run
    }

    /// The funnel's state `k` steps into it (1 for its first step), if
    /// the funnel runs and `k` is within it.
    pub fn funnel_at(&self, k: usize) -> Option<&FunnelStep> {
        k.checked_sub(1).and_then(|i| self.funnel.get(i))
    }
}

/// The cell a drawing puts point `p` in: of the cells whose closed square
/// holds `p` (one, two on a cell edge, four on a vertex), a walkable one,
/// the nearest to `toward`.
pub fn cell_at(grid: &Grid, p: Vec2, toward: Vec2) -> Cell {
    let around = |v: f64| {
        let f = v.floor() as i32;
        if v == v.floor() { [f - 1, f] } else { [f, f] }
    };
    let mut best: Option<(bool, f64, Cell)> = None;
    for y in around(p.y) {
        for x in around(p.x) {
            let c = Cell::new(x, y);
            let key = (!grid.is_walkable(c), Vec2::centre(c).distance(toward), c);
            if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                best = Some(key);
            }
        }
    }
    best.map_or(Cell::new(p.x.floor() as i32, p.y.floor() as i32), |b| b.2)
}

/// The walkable cells a segment from `a` to `b` passes through, in order,
/// sampled every quarter cell.
pub fn segment_cells(grid: &Grid, a: Vec2, b: Vec2) -> Vec<Cell> {
    let n = (a.distance(b) * 4.0).ceil().max(1.0) as usize;
    let mid = (a + b) * 0.5;
    let mut cells: Vec<Cell> = Vec::new();
    for i in 0..=n {
        let c = cell_at(grid, a + (b - a) * (i as f64 / n as f64), mid);
        if grid.is_walkable(c) && cells.last() != Some(&c) {
            cells.push(c);
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn grid(rows: &[&str]) -> Grid {
        Level::parse(&rows.join("\n"), "test").unwrap().grid
    }

    #[test]
    fn points_on_edges_and_vertices_go_to_walkable_cells() {
        let g = grid(&["#..", "...", "..."]);
        // Inside a cell: that cell.
        assert_eq!(cell_at(&g, Vec2::new(1.5, 1.5), Vec2::new(0.0, 0.0)), Cell::new(1, 1));
        // The wall's corner: the walkable cell nearest to where we look from.
        assert_eq!(cell_at(&g, Vec2::new(1.0, 1.0), Vec2::new(0.0, 3.0)), Cell::new(0, 1));
        assert_eq!(cell_at(&g, Vec2::new(1.0, 1.0), Vec2::new(3.0, 3.0)), Cell::new(1, 1));
        // On the wall's right edge: never the wall.
        assert_eq!(cell_at(&g, Vec2::new(1.0, 0.5), Vec2::new(0.0, 0.5)), Cell::new(1, 0));
        let line = segment_cells(&g, Vec2::new(0.5, 2.5), Vec2::new(2.5, 0.5));
        assert_eq!(line.first(), Some(&Cell::new(0, 2)));
        assert_eq!(line.last(), Some(&Cell::new(2, 0)));
        assert!(line.contains(&Cell::new(1, 1)));
    }

    #[test]
    fn the_funnel_of_a_mesh_run_ends_on_its_corridor_pulled() {
        let g = grid(&["####", "#...", "#...", "###.", "###.", "###.", "###."]);
        let mut trace = Trace::new();
        let (start, goal) = (Cell::new(1, 1), Cell::new(3, 6));
        let mut navigator = Navigator::new(0.0);
        let settings = crate::search::SearchSettings { planner: crate::search::Planner::NAVMESH, ..Default::default() };
        let ends = crate::nav::Ends::cells(start, goal);
        navigator.plan_observed(&g, ends, &settings, crate::search::Fallback::Refuse, &mut trace).unwrap();
        let run = NavRun::of(&navigator, &g, start, goal, &trace);
        assert_eq!(run.points, vec![Vec2::new(1.5, 1.5), Vec2::new(3.0, 3.0), Vec2::new(3.5, 6.5)]);
        assert_eq!(run.pulled, crate::nav::string_pull(&run.corridor));
        assert_eq!(run.funnel.last().unwrap().emitted, run.pulled.len());
        assert!(run.funnel_at(0).is_none() && run.funnel_at(1).is_some());
        assert!(!trace.is_empty(), "the portal search is recorded");
        assert_eq!(run.corridor_polygons.len(), run.corridor.len() - 1);
        // Each walkable cell knows the polygon around it.
        for c in g.cells() {
            let polygon = run.cell_polygon[g.node(c) as usize];
            assert_eq!(polygon.is_some(), g.is_walkable(c), "{c}");
            if let Some(i) = polygon {
                let (lo, hi) = (run.polygons[i][0], run.polygons[i][2]);
                let centre = Vec2::centre(c);
                assert!(lo.x < centre.x && centre.x < hi.x && lo.y < centre.y && centre.y < hi.y, "{c}");
            }
        }
    }

    /// On a level beyond the corner graph's cap the lab's `A` passes over
    /// the waypoints, to the grid searches, and says why.
    #[test]
    fn the_cycle_passes_over_the_corner_graph_beyond_its_cap() {
        use super::super::keys::{Action, Setting};
        let rows: Vec<String> =
            (0..150).map(|y| (0..150).map(|x| if x % 2 == 1 && y % 2 == 1 { '#' } else { '.' }).collect()).collect();
        let level = Level::parse(&format!("S{}", &rows.join("\n")[1..]), "lattice").unwrap();
        let mut lab = super::super::state::Lab::new(level, std::path::PathBuf::from("unused.txt"));
        lab.panes[0].set_planner(crate::search::Planner::NAVMESH);
        lab.handle(Action::Set(Setting::Planner));
        assert_eq!(lab.panes[0].planner(), crate::search::Planner::BFS);
        assert!(lab.message.starts_with("waypoints skipped: the level has 22201 wall corners"), "{}", lab.message);
    }
}
