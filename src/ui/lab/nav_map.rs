//! The map of a lab pane running an any-angle planner, one character a
//! cell: the mesh's polygons outlined by box-drawing glyphs on their border
//! cells and shaded by what the portal search did to them (or the corner
//! waypoints, shaded the same way), the node being expanded; then the
//! corridor, its portals, and the funnel's apex `A`, its sides to `L` and
//! `R` and the points it has emitted; at the end the path.

use super::nav::{NavRun, cell_at, segment_cells};
use super::pane::Pane;
use super::state::Lab;
use crate::grid::{Cell, Tile};
use crate::nav::Vec2;
use crate::search::Expansion;
use crate::ui::map::{Camera, terrain};
use crate::ui::palette::Palette;
use crate::ui::{RAW_PATH, WAYPOINT};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

/// Glyph of a corner waypoint.
const CORNER: char = '+';
/// Glyph of a cell on a funnel side.
const SIDE: char = '·';

/// What a search did to a polygon or a corner, by the step shown.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
enum Reached {
    No,
    Open,
    Closed,
}

/// The state of each polygon (navmesh) or corner (waypoints) at the step
/// shown: the most any of its search nodes got to.
fn reached(p: &Pane, run: &NavRun, waypoints: bool) -> Vec<Reached> {
    let n = if waypoints { run.corners.len() } else { run.polygons.len() };
    let mut states = vec![Reached::No; n];
    for (node, (_, polygons)) in run.nodes.iter().enumerate() {
        let Some(mark) = p.view.node(node as u32) else { continue };
        let state = if mark.closed { Reached::Closed } else { Reached::Open };
        let owners = if waypoints { [Some(node), None] } else { *polygons };
        for i in owners.into_iter().flatten().filter(|&i| i < n) {
            if states[i] < state {
                states[i] = state;
            }
        }
    }
    states
}

/// The box-drawing glyph of a cell of polygon `outline`, or `None` inside it.
fn outline_glyph(outline: &[Vec2], c: Cell) -> Option<char> {
    let xs = outline.iter().map(|p| p.x);
    let ys = outline.iter().map(|p| p.y);
    let (x0, x1) = (xs.clone().fold(f64::MAX, f64::min), xs.fold(f64::MIN, f64::max));
    let (y0, y1) = (ys.clone().fold(f64::MAX, f64::min), ys.fold(f64::MIN, f64::max));
    let (x, y) = (f64::from(c.x), f64::from(c.y));
    let (left, right, top, bottom) = (x <= x0, x + 1.0 >= x1, y <= y0, y + 1.0 >= y1);
    Some(match (left, right, top, bottom) {
        (true, true, true, true) => '□',
        (true, true, _, _) => '│',
        (_, _, true, true) => '─',
        (true, _, true, _) => '┌',
        (_, true, true, _) => '┐',
        (true, _, _, true) => '└',
        (_, true, _, true) => '┘',
        (_, _, true, _) | (_, _, _, true) => '─',
        (true, _, _, _) | (_, true, _, _) => '│',
        _ => return None,
    })
}

/// The map of a pane running `run`.
pub fn map(buf: &mut Buffer, area: Rect, lab: &Lab, p: &Pane, run: &NavRun, palette: &Palette) {
    let grid = &lab.level.grid;
    let camera = Camera::new(area, grid, lab.cursor);
    let waypoints = p.planner().expansion() == Expansion::Waypoints;
    let searching = lab.step <= p.search_len() && !p.done(lab.step);
    let states = reached(p, run, waypoints);
    let mut shade = vec![None; run.polygons.len()];
    if searching && !waypoints {
        for (i, s) in states.iter().enumerate() {
            shade[i] = match s {
                Reached::Closed => Some(palette.closed),
                Reached::Open => Some(palette.open),
                Reached::No => None,
            };
        }
    } else {
        run.corridor_polygons.iter().for_each(|&i| shade[i] = Some(palette.closed));
    }
    for (cell, pos) in camera.cells() {
        let (mut glyph, mut style) = terrain(grid.tile(cell), palette);
        if let Some(i) = run.cell_polygon.get(grid.node(cell) as usize).copied().flatten() {
            if grid.tile(cell) == Tile::Floor(1) {
                glyph = outline_glyph(&run.polygons[i], cell).unwrap_or(glyph);
            }
            if let Some(bg) = shade[i] {
                style = style.bg(bg);
            }
        }
        buf[pos].set_char(glyph).set_style(style);
    }
    let mut put = |c: Cell, glyph: char, style: Style| {
        if let Some(pos) = camera.screen(c) {
            buf[pos].set_char(glyph).set_style(style);
        }
    };
    let goal = Vec2::centre(lab.goal);
    for (i, &corner) in run.corners.iter().enumerate() {
        let bg = match states.get(i) {
            Some(Reached::Closed) if searching => palette.closed,
            Some(Reached::Open) if searching => palette.open,
            _ => Color::Reset,
        };
        put(cell_at(grid, corner, goal), CORNER, Style::new().fg(palette.waypoint).bg(bg));
    }
    if searching && let Some(&(at, _)) = p.view.current().and_then(|node| run.nodes.get(node as usize)) {
        put(cell_at(grid, at, goal), '@', Style::new().fg(Color::White).bg(Color::Magenta));
    }
    let portal_style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    if !searching && run.corridor.len() > 2 {
        for &(left, right) in &run.corridor[1..run.corridor.len() - 1] {
            let glyph = if left.x == right.x { '┃' } else { '━' };
            let inside = (left + right) * 0.5 + perpendicular(left, right) * 0.5;
            for c in segment_cells(grid, left, right) {
                // The portal's cells on the side the path enters.
                let c = cell_at(grid, Vec2::centre(c), inside);
                put(c, glyph, portal_style);
            }
        }
    }
    let path_style = Style::new().fg(palette.raw_path);
    let corner_style = Style::new().fg(palette.waypoint).add_modifier(Modifier::BOLD);
    let polyline = |points: &[Vec2], put: &mut dyn FnMut(Cell, char, Style)| {
        for w in points.windows(2) {
            segment_cells(grid, w[0], w[1]).into_iter().for_each(|c| put(c, RAW_PATH, path_style));
        }
        for w in points.windows(3) {
            put(cell_at(grid, w[1], (w[0] + w[2]) * 0.5), WAYPOINT, corner_style);
        }
    };
    if p.done(lab.step) {
        polyline(&run.points, &mut put);
    } else if let Some(f) = run.funnel_at(lab.step.saturating_sub(p.search_len())) {
        let emitted = &run.pulled[..f.emitted.min(run.pulled.len())];
        polyline(emitted, &mut put);
        for (end, colour, letter) in [(f.left, Color::Green, 'L'), (f.right, Color::Red, 'R')] {
            let style = Style::new().fg(colour).add_modifier(Modifier::BOLD);
            for c in segment_cells(grid, f.apex, end) {
                put(c, SIDE, style);
            }
            put(cell_at(grid, end, f.apex), letter, style);
        }
        put(cell_at(grid, f.apex, f.left), 'A', portal_style);
    }
    super::draw::ends_and_cursor(buf, &camera, lab, palette);
}

/// The unit normal of a portal seen as (left, right) that points the way
/// the path goes through it: from left to right turned a quarter
/// anticlockwise on screen (y down).
fn perpendicular(left: Vec2, right: Vec2) -> Vec2 {
    let d = right - left;
    let len = d.dot(d).sqrt().max(f64::MIN_POSITIVE);
    Vec2::new(d.y / len, -d.x / len)
}

/// What the pane knows of the cell under the cursor, after `here` (the
/// cell and its cost): its polygon and what the search did to it.
pub fn cursor_note(lab: &Lab, p: &Pane, run: &NavRun, here: &str) -> String {
    let grid = &lab.level.grid;
    let Some(i) = run.cell_polygon.get(grid.node(lab.cursor) as usize).copied().flatten() else {
        return here.to_string();
    };
    let state = match reached(p, run, false)[i] {
        Reached::Closed => "expanded",
        Reached::Open => "reached",
        Reached::No => "not reached",
    };
    let found = lab.step > p.search_len() || p.done(lab.step);
    let corridor = if found && run.corridor_polygons.contains(&i) { ", in the corridor" } else { "" };
    let outline = &run.polygons[i];
    let (a, b) = (outline[0], outline[outline.len() / 2]);
    format!("{here}: polygon ({},{})-({},{}) {state}{corridor}", a.x, a.y, b.x, b.y)
}
