//! Monsters planning on the any-angle structures of [`crate::nav`]: the
//! navigation mesh or the corner waypoint graph, kept in step with the
//! grid, and the plans they give turned into a monster's path.
//!
//! Lifetime. The structures are derived from the grid, for the monsters'
//! body radius ([`BODY_RADIUS`]: a monster following the path never comes
//! closer than that to a wall). Each is built on first use and kept while
//! the grid stays the same. When a door changes, the changed cells are
//! found by comparing the grid with the walkability the structures were
//! made from (one scan, only on a new grid version); the mesh is repaired
//! around them ([`NavMesh::update`]) and the waypoint graph, whose links
//! any door may cut or open anywhere in sight of it, is built anew (its
//! build is a few milliseconds on the shipped levels; see the README).
//! Building or repairing is wall-clock work outside the tick's budget of
//! expansions, like the ORCA walls: it decides nothing the grid does not.
//!
//! Paths. The follower's waypoints are the planned points themselves (an
//! any-angle path is already taut; no string-pulling on top), minus the
//! start. [`Hunt::path`] holds the cells each segment crosses, so that the
//! repath test "a cell of the path is no longer walkable" (`Blocked`)
//! reads any-angle paths as it reads grid paths.
//!
//! Ends outside the free space. The goal is the centre of the player's
//! cell, and the centre of a walkable cell is always free (the radius is
//! below half a cell). The start is the monster's position, unless the
//! crowd or a door pushed it closer to a wall than its radius: then it
//! plans from the centre of its cell, which becomes its first waypoint, so
//! it steps clear of the wall before setting off. A monster whose cell is
//! not walkable (a door closed on it) gets no plan and waits for its next
//! turn, as with the grid planners.

use super::creature::Hunt;
use super::hunt::Scene;
use super::settings::Nav;
use super::species::BODY_RADIUS;
use super::stats::{RepathReason, SearchReport, Stats};
use crate::grid::{Cell, Grid};
use crate::nav::{NavMesh, Space, Vec2, Waypoints};
use crate::search::{SearchStats, Searcher, Visit};
use crate::steer;
use std::time::Instant;

/// The structures monsters plan on, and the engine searching them.
#[derive(Debug, Default)]
pub struct AnyAngle {
    mesh: Option<NavMesh>,
    waypoints: Option<Waypoints>,
    /// The grid version both structures are up to date with, and its
    /// walkability, cell by cell in row order.
    version: u64,
    walkable: Vec<bool>,
    searcher: Searcher,
    changed: Vec<Cell>,
}

/// The radius the structures are built for.
const RADIUS: f64 = BODY_RADIUS as f64;

impl AnyAngle {
    /// Plans in `scene`, with its any-angle planner, for monster `i` at
    /// `pos` to the centre of cell `to`; fills `hunt`'s path and
    /// waypoints, records the search in `stats`, and returns the nodes it
    /// expanded (what the budget is charged).
    #[allow(clippy::too_many_arguments)]
    pub fn plan(
        &mut self,
        scene: &Scene,
        hunt: &mut Hunt,
        pos: steer::Vec2,
        to: Cell,
        i: usize,
        reason: RepathReason,
        stats: &mut Stats,
    ) -> u64 {
        let (grid, from) = (scene.grid, steer::cell_at(pos));
        if !grid.is_walkable(from) || !grid.is_walkable(to) {
            return 0;
        }
        self.refresh(grid, scene.settings.nav);
        let began = Instant::now();
        let space = Space::new(grid, RADIUS);
        let here = Vec2::new(f64::from(pos.x), f64::from(pos.y));
        let centre = |c: Cell| Vec2::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5);
        let pushed = !space.is_free(here);
        let start = if pushed { centre(from) } else { here };
        let goal = centre(to);
        let planned = match scene.settings.nav {
            Nav::Navmesh => {
                let mesh = self.mesh.as_ref().expect("refreshed above");
                mesh.plan(grid, &mut self.searcher, start, goal).map(|p| (p.points, p.stats))
            }
            _ => {
                let waypoints = self.waypoints.as_ref().expect("refreshed above");
                waypoints.plan(grid, &mut self.searcher, start, goal).map(|p| (p.points, p.stats))
            }
        };
        // Both ends are free, so a plan that failed ran its search to
        // exhaustion: the nodes it closed are what it expanded.
        let (points, search) = planned.unwrap_or_else(|| {
            let closed = self.searcher.visited().iter().filter(|(_, v)| *v == Visit::Closed).count();
            (Vec::new(), SearchStats { expanded: closed as u64, ..SearchStats::default() })
        });
        // The time of the whole query (linking the ends in sight, the
        // funnel), not the search's alone: what a grid search's time is
        // compared with.
        let search = SearchStats { micros: began.elapsed().as_secs_f64() * 1e6, ..search };
        cells_crossed(&points, &mut hunt.path);
        // The start is where the monster stands, unless it was pushed: then
        // the cell's centre is its first waypoint.
        let skip = usize::from(!pushed && points.len() > 1);
        let to_f32 = |p: &Vec2| steer::Vec2::new(p.x as f32, p.y as f32);
        hunt.follower.waypoints.extend(points[skip.min(points.len())..].iter().map(to_f32));
        let report = SearchReport {
            creature: i,
            tick: scene.tick,
            reason: Some(reason),
            found: !points.is_empty(),
            stats: search,
            steps: points.len().saturating_sub(1),
            waypoints: points.len(),
            closed: Vec::new(),
            open: Vec::new(),
            updated: Vec::new(),
        };
        stats.record_search(&report);
        stats.last_search = Some(report.clone());
        if scene.watched == Some(i) {
            stats.watched_search = Some(report);
        }
        search.expanded
    }

    /// Brings the structure `nav` plans on up to date with `grid`.
    fn refresh(&mut self, grid: &Grid, nav: Nav) {
        if self.version != grid.version() || self.walkable.len() != grid.width() * grid.height() {
            self.changed.clear();
            let fresh = self.walkable.len() != grid.width() * grid.height();
            if fresh {
                self.walkable = grid.cells().map(|c| grid.is_walkable(c)).collect();
                self.mesh = None;
            } else {
                for (c, was) in grid.cells().zip(self.walkable.iter_mut()) {
                    if grid.is_walkable(c) != *was {
                        *was = !*was;
                        self.changed.push(c);
                    }
                }
            }
            if let Some(mesh) = self.mesh.as_mut() {
                mesh.update(grid, &self.changed);
            }
            self.waypoints = None;
            self.version = grid.version();
        }
        match nav {
            Nav::Navmesh if self.mesh.is_none() => self.mesh = Some(NavMesh::build(grid, RADIUS)),
            Nav::Waypoints if self.waypoints.is_none() => self.waypoints = Some(Waypoints::build(grid, RADIUS)),
            _ => {}
        }
    }
}

/// Fills `cells` with the cells the polyline `points` passes through, in
/// order, each once per visit: the cells whose interiors a segment
/// crosses, and both cells beside a grid vertex it passes exactly through.
fn cells_crossed(points: &[Vec2], cells: &mut Vec<Cell>) {
    cells.clear();
    let mut push = |c: Cell| {
        if cells.last() != Some(&c) {
            cells.push(c);
        }
    };
    if let Some(p) = points.first() {
        push(cell_of(*p));
    }
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let d = b - a;
        let mut cell = cell_of(a);
        let end = cell_of(b);
        let (sx, sy) = (if d.x > 0.0 { 1 } else { -1 }, if d.y > 0.0 { 1 } else { -1 });
        // The parameter t along the segment at the next vertical and
        // horizontal grid line, and between two of them.
        let next = |v: f64, dv: f64, c: i32| {
            if dv == 0.0 {
                return (f64::INFINITY, f64::INFINITY);
            }
            let line = if dv > 0.0 { f64::from(c) + 1.0 } else { f64::from(c) };
            ((line - v) / dv, 1.0 / dv.abs())
        };
        let (mut tx, dtx) = next(a.x, d.x, cell.x);
        let (mut ty, dty) = next(a.y, d.y, cell.y);
        while cell != end && tx.min(ty) <= 1.0 {
            if tx < ty {
                cell.x += sx;
                tx += dtx;
            } else if ty < tx {
                cell.y += sy;
                ty += dty;
            } else {
                // Through a vertex: the two side cells are touched too.
                push(Cell::new(cell.x + sx, cell.y));
                push(Cell::new(cell.x, cell.y + sy));
                cell = Cell::new(cell.x + sx, cell.y + sy);
                tx += dtx;
                ty += dty;
            }
            push(cell);
        }
    }
}

fn cell_of(p: Vec2) -> Cell {
    Cell::new(p.x.floor() as i32, p.y.floor() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The centre of `cell` as the nav layer's point.
    fn centre(cell: Cell) -> Vec2 {
        let c = crate::steer::cell_center(cell);
        Vec2::new(f64::from(c.x), f64::from(c.y))
    }

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    /// Plans with `nav` on `rows` for a monster at `pos` to cell `to`;
    /// returns the hunt, the stats and the expansions charged.
    fn plan(nav: Nav, rows: &str, pos: (f32, f32), to: Cell) -> (Hunt, Stats, u64) {
        let grid = crate::level::Level::parse(rows, "t").unwrap().grid;
        let settings = super::super::Settings { nav, ..Default::default() };
        let scene = Scene { grid: &grid, settings: &settings, tick: 0, player: to, watched: Some(0) };
        let (mut hunt, mut stats) = (Hunt::default(), Stats::default());
        let pos = steer::Vec2::new(pos.0, pos.1);
        let expanded = AnyAngle::default().plan(&scene, &mut hunt, pos, to, 0, RepathReason::Start, &mut stats);
        (hunt, stats, expanded)
    }

    /// A monster pushed closer to a wall than its radius plans from its
    /// cell's centre, which it steers to first.
    #[test]
    fn a_start_too_near_a_wall_plans_from_the_cell_centre() {
        for nav in [Nav::Navmesh, Nav::Waypoints] {
            let (hunt, stats, _) = plan(nav, "#######\n#.....#\n#######", (1.05, 1.1), Cell::new(5, 1));
            let wp = &hunt.follower.waypoints;
            assert_eq!(wp.first(), Some(&steer::Vec2::new(1.5, 1.5)), "{nav}");
            assert_eq!(wp.last(), Some(&steer::Vec2::new(5.5, 1.5)), "{nav}");
            assert_eq!(hunt.path, (1..=5).map(|x| Cell::new(x, 1)).collect::<Vec<_>>(), "{nav}");
            assert!(stats.watched_search.is_some_and(|r| r.found), "{nav}");
        }
    }

    /// No way to the goal: nothing to follow, the search's expansions
    /// still charged (counted from the nodes it closed); a monster whose
    /// cell is a wall gets no plan.
    #[test]
    fn no_way_and_no_start_neither_panic_nor_plan() {
        let rows = "#########\n#...#...#\n#...#...#\n#########";
        for nav in [Nav::Navmesh, Nav::Waypoints] {
            let (hunt, stats, expanded) = plan(nav, rows, (1.5, 1.5), Cell::new(6, 1));
            assert!(hunt.follower.waypoints.is_empty() && hunt.path.is_empty(), "{nav}");
            let report = stats.last_search.unwrap();
            assert!(!report.found && expanded > 0 && report.stats.expanded == expanded, "{nav}: {report:?}");
            let (hunt, stats, expanded) = plan(nav, rows, (4.5, 1.5), Cell::new(6, 1));
            assert!(hunt.follower.waypoints.is_empty() && stats.last_search.is_none() && expanded == 0, "{nav}");
        }
    }

    #[test]
    fn cells_crossed_by_segments_in_every_direction() {
        let mut cells = Vec::new();
        cells_crossed(&[v(0.5, 0.5), v(2.5, 0.5)], &mut cells);
        assert_eq!(cells, [Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 0)]);
        cells_crossed(&[v(2.5, 2.5), v(2.5, 0.2), v(0.2, 0.2)], &mut cells);
        let want = [(2, 2), (2, 1), (2, 0), (1, 0), (0, 0)].map(|(x, y)| Cell::new(x, y));
        assert_eq!(cells, want);
        // A shallow diagonal: x = 1 at y ≈ 0.84, then y = 1 at x ≈ 1.46.
        cells_crossed(&[v(0.0, 0.5), v(3.5, 1.7)], &mut cells);
        let want = [(0, 0), (1, 0), (1, 1), (2, 1), (3, 1)].map(|(x, y)| Cell::new(x, y));
        assert_eq!(cells, want);
    }

    #[test]
    fn a_segment_through_a_vertex_touches_both_side_cells() {
        let mut cells = Vec::new();
        cells_crossed(&[centre(Cell::new(0, 0)), centre(Cell::new(1, 1))], &mut cells);
        let want = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(x, y)| Cell::new(x, y));
        assert_eq!(cells, want);
        // Through the vertex (2, 1) on the way, ending on the line x = 4.
        cells_crossed(&[v(0.0, 0.5), v(4.0, 1.5)], &mut cells);
        let want = [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (3, 1), (4, 1)].map(|(x, y)| Cell::new(x, y));
        assert_eq!(cells, want);
        cells_crossed(&[v(1.5, 1.5)], &mut cells);
        assert_eq!(cells, [Cell::new(1, 1)]);
        cells_crossed(&[], &mut cells);
        assert!(cells.is_empty());
    }
}
