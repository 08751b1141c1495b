//! Monsters planning on the any-angle structures of [`crate::nav`]: the
//! navigation mesh or the corner waypoint graph, and the plans they give
//! turned into a monster's path.
//!
//! Lifetime. The structures are the hunter's [`Navigator`]'s, derived from
//! the grid for the monsters' body radius ([`BODY_RADIUS`]: a monster
//! following the path never comes closer than that to a wall): each is
//! built on first use and kept while the grid stays the same; after a door
//! changes, the mesh is repaired around the changed cells
//! ([`crate::nav::NavMesh::update`]) and the corner graph found again (one
//! pass; its links are made again as searches expand corners). Building,
//! repairing and making links is wall-clock work outside the tick's budget
//! of expansions, like the ORCA walls: it decides nothing the grid does
//! not. A level beyond the corner graph's cap
//! ([`crate::nav::Waypoints::MAX_CORNERS`]) never plans on it: the world
//! passes over it when it is chosen, and a plan asked of it anyway is
//! refused and the monster waits.
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
use super::stats::{RepathReason, SearchReport, Stats};
use crate::grid::Cell;
use crate::nav::{Ends, Navigator, Vec2};
use crate::search::{Fallback, SearchStats};
use crate::steer;
use std::time::Instant;

/// Plans in `scene` with its any-angle planner, through `navigator`, for
/// monster `i` at `pos` to the centre of cell `to`; fills `hunt`'s path
/// and waypoints, records the search in `stats`, and returns the nodes it
/// expanded (what the budget is charged).
#[allow(clippy::too_many_arguments)]
pub fn plan(
    navigator: &mut Navigator,
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
    let began = Instant::now();
    let here = Vec2::new(f64::from(pos.x), f64::from(pos.y));
    let pushed = !navigator.space(grid).is_free(here);
    let start = if pushed { Vec2::centre(from) } else { here };
    let ends = Ends { from, to, start: Some(start) };
    let Ok(outcome) = navigator.plan_observed(grid, ends, &scene.settings.search, Fallback::Grid, &mut ()) else {
        // A level beyond the corner graph's cap: no plan, the monster waits.
        return 0;
    };
    let points = navigator.points();
    // Both ends are free, so a plan that failed ran its search to
    // exhaustion: the nodes it closed are what it expanded.
    let search = if outcome.found {
        outcome.stats
    } else {
        SearchStats { expanded: navigator.closed_nodes() as u64, ..SearchStats::default() }
    };
    // The time of the whole query (linking the ends in sight, the
    // funnel), not the search's alone: what a grid search's time is
    // compared with.
    let search = SearchStats { micros: began.elapsed().as_secs_f64() * 1e6, ..search };
    cells_crossed(points, &mut hunt.path);
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
        ..SearchReport::default()
    };
    stats.record_search(&report);
    stats.last_search = Some(report.clone());
    if scene.watched == Some(i) {
        stats.watched_search = Some(report);
    }
    search.expanded
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
    use crate::search::Planner;

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
    fn plan(nav: Planner, rows: &str, pos: (f32, f32), to: Cell) -> (Hunt, Stats, u64) {
        let grid = crate::level::Level::parse(rows, "t").unwrap().grid;
        let settings = super::super::Settings::default().with_planner(nav);
        let aims = crate::sim::foresight::Foresight::default();
        let scene = Scene { grid: &grid, settings: &settings, tick: 0, player: to, watched: Some(0), aims: &aims };
        let (mut hunt, mut stats) = (Hunt::default(), Stats::default());
        let pos = steer::Vec2::new(pos.0, pos.1);
        let mut navigator = Navigator::new(f64::from(super::super::species::BODY_RADIUS));
        let expanded = super::plan(&mut navigator, &scene, &mut hunt, pos, to, 0, RepathReason::Start, &mut stats);
        (hunt, stats, expanded)
    }

    /// A monster pushed closer to a wall than its radius plans from its
    /// cell's centre, which it steers to first.
    #[test]
    fn a_start_too_near_a_wall_plans_from_the_cell_centre() {
        for nav in [Planner::NAVMESH, Planner::WAYPOINTS] {
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
        for nav in [Planner::NAVMESH, Planner::WAYPOINTS] {
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
