//! The lab's screen: one or two panes (map, settings, counters), a legend
//! of what the active pane draws, the line about the cell under the
//! cursor, and the status line.
//!
//! Two panes sit side by side, or one above the other, when each then
//! shows the whole level; when only one pane would, the active one is
//! shown alone and the status line says so (Tab shows the other); when
//! none would, two panes side by side show the cells around the cursor,
//! or one when they would be too narrow. A start or goal out of a pane's
//! view is marked on the pane's border, where it lies.

use super::pane::Pane;
use super::state::{Lab, PACES};
use crate::grid::Cell;
use crate::search::{Expansion, Outcome, Planner};
use crate::ui::legend::Legend;
use crate::ui::map::{Camera, terrain};
use crate::ui::palette::{Palette, Shade};
use crate::ui::{RAW_PATH, WAYPOINT};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

/// Rows and columns a pane takes around its map: borders, and the two
/// lines of counters.
const CHROME: (u16, u16) = (2, 4);

/// Narrowest pane worth showing beside another (borders included).
const MIN_PANE_WIDTH: u16 = 40;

/// Draws the whole lab.
pub fn draw(frame: &mut Frame, lab: &Lab, palette: &Palette) {
    let area = frame.area();
    let [main, legend, info, status] = rows(area);
    let (panes, alone) = layout(lab, main);
    for (i, rect) in panes {
        pane(frame.buffer_mut(), rect, lab, i, palette, alone);
    }
    frame.render_widget(legend_of(lab, palette).fit(legend.width), legend);
    frame.render_widget(Paragraph::new(cursor_line(lab)), info);
    frame.render_widget(Paragraph::new(status_line(lab)), status);
    if lab.help {
        super::keys::render_help(frame, area, palette);
    }
}

/// The screen's rows: the panes, the legend, the line under the cursor,
/// the status line.
fn rows(area: Rect) -> [Rect; 4] {
    Layout::vertical([Constraint::Min(0), Constraint::Length(1), Constraint::Length(1), Constraint::Length(1)])
        .areas(area)
}

/// Where a pane drawn in `area` draws its map, and its counters below.
fn pane_rows(area: Rect) -> [Rect; 2] {
    Layout::vertical([Constraint::Min(0), Constraint::Length(2)]).areas(Block::bordered().inner(area))
}

/// The level's cell drawn at `pos` on a screen of `area` (a mouse click),
/// in whichever pane shows it, laid out as [`draw`] lays it out; none on
/// a border, the counters, the legend or the status lines, or the margin
/// round a small level.
pub fn cell_at(lab: &Lab, area: Rect, pos: Position) -> Option<Cell> {
    let (panes, _) = layout(lab, rows(area)[0]);
    panes.into_iter().find_map(|(_, rect)| Camera::new(pane_rows(rect)[0], &lab.level.grid, lab.cursor).cell(pos))
}

/// Where the panes go in `main`: both side by side or stacked when each
/// shows the whole level so, else the active one alone when it shows the
/// whole level (true: one of two is shown), else both side by side unless
/// too narrow.
fn layout(lab: &Lab, main: Rect) -> (Vec<(usize, Rect)>, bool) {
    let shown = lab.shown();
    if shown.len() < 2 {
        return (vec![(lab.active, main)], false);
    }
    let grid = &lab.level.grid;
    let (w, h) = (grid.width() as u16 + CHROME.0, grid.height() as u16 + CHROME.1);
    let whole = |r: Rect| r.width >= w && r.height >= h;
    let beside = Layout::horizontal([Constraint::Fill(1); 2]).split(main);
    let above = Layout::vertical([Constraint::Fill(1); 2]).split(main);
    let both = |rects: &[Rect]| shown.iter().copied().zip(rects.iter().copied()).collect();
    if beside.iter().all(|&r| whole(r)) {
        (both(&beside), false)
    } else if above.iter().all(|&r| whole(r)) {
        (both(&above), false)
    } else if whole(main) || beside[0].width < MIN_PANE_WIDTH {
        (vec![(lab.active, main)], true)
    } else {
        (both(&beside), false)
    }
}

/// The legend of what the active pane draws, sampled as it draws it.
fn legend_of(lab: &Lab, p: &Palette) -> Legend {
    let pane = &lab.panes[lab.active];
    let path = Span::styled(RAW_PATH.to_string(), path_style(p));
    let waypoint = Span::styled(WAYPOINT.to_string(), waypoint_style(p));
    let ends = Span::styled("S G".to_string(), ends_style(p));
    match pane.planner().expansion() {
        Expansion::Navmesh => Legend::default()
            .key(p.swatch(Shade::Closed), "polygons expanded")
            .key(p.swatch(Shade::Open), "reached")
            .detail("┃━ portals, A apex, L R funnel sides")
            .key(path, "path")
            .key(waypoint, "corners")
            .key(ends, "start, goal"),
        Expansion::Waypoints => Legend::default()
            .key(Span::styled("+".to_string(), Style::new().fg(p.waypoint)), "corner waypoints")
            .detail("(shaded as searched)")
            .key(path, "path")
            .key(waypoint, "its corners")
            .key(ends, "start, goal"),
        Expansion::Grid | Expansion::Jps | Expansion::JpsPlus | Expansion::Hpa => Legend::default()
            .key(p.swatch(Shade::Closed), "closed")
            .key(p.swatch(Shade::Open), "open")
            .key(p.swatch(Shade::Current), "expanding now")
            .key(path, "path")
            .key(waypoint, "waypoints")
            .detail("(string-pulled)")
            .key(ends, "start, goal"),
    }
}

/// The style of a pane's path cells.
fn path_style(p: &Palette) -> Style {
    Style::new().fg(p.raw_path)
}

/// The style of a pane's waypoints.
fn waypoint_style(p: &Palette) -> Style {
    Style::new().fg(p.waypoint).add_modifier(Modifier::BOLD)
}

/// The style of the start and the goal.
fn ends_style(p: &Palette) -> Style {
    Style::new().fg(p.player).add_modifier(Modifier::BOLD)
}

/// What an any-angle planner runs, honestly named: the search and its
/// graph.
pub fn planner_words(planner: Planner) -> String {
    match planner.expansion() {
        Expansion::Navmesh => format!("navmesh: weighted A* (w = {}) over portals", crate::nav::SEARCH_WEIGHT),
        Expansion::Waypoints => "waypoints: A* over corners".to_string(),
        Expansion::Grid | Expansion::Jps | Expansion::JpsPlus | Expansion::Hpa => planner.to_string(),
    }
}

/// Settings in a few words: `astar octile fifo 8n`, with the weight,
/// reopening and decrease-key when they apply.
fn settings(pane: &Pane) -> String {
    let planner = pane.planner();
    if planner.expansion().any_angle() {
        return format!("{}, point agent", planner_words(planner));
    }
    let s = &pane.settings;
    let mut text = format!("{planner}");
    if planner.uses_weight() {
        text += &format!(" w={}", s.weight);
    }
    text += &format!(" {} {} {}n", s.heuristic, s.tie, s.neighbors);
    if s.reopen {
        text += " reopen";
    }
    if s.open != crate::search::OpenUpdate::Lazy {
        text += " d-key";
    }
    text
}

/// One pane: a bordered map titled by its settings, counters below; when
/// it is shown `alone` of two (the terminal too small for both), its title
/// says so.
fn pane(buf: &mut Buffer, area: Rect, lab: &Lab, i: usize, palette: &Palette, alone: bool) {
    let p = &lab.panes[i];
    let marker = if lab.shown().len() > 1 && i == lab.active { "▶" } else { " " };
    let alone = if alone { " · one of two panes fits: Tab shows the other" } else { "" };
    let block = Block::bordered().title(format!("{marker}{}: {}{alone} ", i + 1, settings(p)));
    block.render(area, buf);
    let [map_area, stats_area] = pane_rows(area);
    let s = p.stats(lab.step);
    let counts = match &p.nav {
        Some(run) => {
            super::nav_map::map(buf, map_area, lab, p, run, palette);
            format!("exp {} push {} | {}", s.expanded, s.pushed, super::pane::nav_counts(p.planner(), run))
        }
        None => {
            map(buf, map_area, lab, p, palette);
            format!("exp {} push {} stale {} max open {}", s.expanded, s.pushed, s.stale_pops, s.max_open)
        }
    };
    let answer = match (&p.outcome, &p.nav) {
        (Err(e), _) => e.to_string(),
        (Ok(_), Some(run)) => nav_answer(lab, p, run),
        (Ok(_), None) if !p.done(lab.step) => format!("step {}/{}", lab.step.min(p.len()), p.len()),
        (Ok(Outcome { cost: Some(cost), .. }), None) => {
            format!("cost {cost:.2} steps {} waypoints {}", p.path.len() - 1, p.smoothed.len())
        }
        (Ok(_), None) => "no path".to_string(),
    };
    // A weighted search's heuristic (w·h) is inconsistent by design: its
    // violations are expected, and said to be.
    let planner = p.planner();
    let weighted = planner.expansion() == Expansion::Navmesh || (planner.uses_weight() && p.settings.weight > 1.0);
    let extra = match (s.reopened + s.violations > 0, weighted) {
        (false, _) => String::new(),
        (true, false) => format!(" reopened {} violations {}", s.reopened, s.violations),
        (true, true) => format!(" reopened {} violations {} (w > 1 allows them)", s.reopened, s.violations),
    };
    Paragraph::new(vec![Line::raw(counts), Line::raw(answer + &extra)]).render(stats_area, buf);
}

/// The answer line of an any-angle pane: where it is (search, funnel),
/// then the path's Euclidean length and what it crossed.
fn nav_answer(lab: &Lab, p: &Pane, run: &super::nav::NavRun) -> String {
    let search = p.search_len();
    if !p.done(lab.step) {
        return match run.funnel_at(lab.step.saturating_sub(search)) {
            Some(f) => format!(
                "funnel {}/{}: portal {} apex ({},{}) {} points",
                lab.step - search,
                run.funnel.len(),
                f.portal,
                f.apex.x,
                f.apex.y,
                f.emitted
            ),
            None => format!("search {}/{}", lab.step, search),
        };
    }
    match run.points.len() {
        0 => "no path".to_string(),
        n if run.corners.is_empty() => {
            format!("length {:.2}, {n} points, {} polygons crossed", run.length, run.corridor_polygons.len())
        }
        n => format!("length {:.2}, {n} points, {} corners", run.length, n - 2),
    }
}

/// The map of one pane: terrain, closed and open cells, the node being
/// expanded, at the end the path, and the ends and the cursor.
fn map(buf: &mut Buffer, area: Rect, lab: &Lab, p: &Pane, palette: &Palette) {
    let grid = &lab.level.grid;
    let camera = Camera::new(area, grid, lab.cursor);
    let done = p.done(lab.step);
    let current = p.view.current().filter(|_| !done);
    for (cell, pos) in camera.cells() {
        let (glyph, style) = terrain(grid.tile(cell), palette);
        let node = grid.node(cell);
        buf[pos].set_char(glyph).set_style(style);
        let shade = match p.view.node(node) {
            _ if current == Some(node) => Some(Shade::Current),
            Some(mark) if mark.closed => Some(Shade::Closed),
            Some(_) => Some(Shade::Open),
            None => None,
        };
        if let Some(shade) = shade {
            palette.shade(&mut buf[pos], shade);
        }
    }
    if done {
        let styles = [(&p.path, RAW_PATH, path_style(palette)), (&p.smoothed, WAYPOINT, waypoint_style(palette))];
        for (cells, glyph, style) in styles {
            for &c in cells {
                if let Some(pos) = camera.screen(c) {
                    buf[pos].set_char(glyph).set_style(style);
                }
            }
        }
    }
    ends_and_cursor(buf, &camera, lab, palette);
}

/// The start `S`, the goal `G`, and the cursor (reversed), over a pane's
/// map; an end out of view is marked on the border, where it lies.
pub fn ends_and_cursor(buf: &mut Buffer, camera: &Camera, lab: &Lab, palette: &Palette) {
    let bold = ends_style(palette);
    for (c, glyph) in [(lab.start, 'S'), (lab.goal, 'G')] {
        match camera.screen(c) {
            Some(pos) => {
                buf[pos].set_char(glyph).set_style(bold);
            }
            None => {
                if let Some(pos) = border_mark(camera, c) {
                    buf[pos].set_char(glyph).set_style(bold.add_modifier(Modifier::REVERSED));
                }
            }
        }
    }
    if let Some(pos) = camera.screen(lab.cursor) {
        buf[pos].modifier.insert(Modifier::REVERSED);
    }
}

/// Where a cell out of `camera`'s view is marked: on the pane's left or
/// right border (the side of the view's middle the cell is on), at the
/// row nearest the cell's; `None` when the view is empty or has no border
/// on that side.
fn border_mark(camera: &Camera, cell: Cell) -> Option<Position> {
    let area = camera.area();
    if area.width == 0 || area.height == 0 || area.x == 0 {
        return None;
    }
    let (x, y) = camera.toward(cell);
    let (top, bottom) = (i32::from(area.y), i32::from(area.bottom()) - 1);
    let row = y.clamp(top, bottom) as u16;
    let middle = i32::from(area.x) + i32::from(area.width) / 2;
    Some(Position::new(if x < middle { area.x - 1 } else { area.right() }, row))
}

/// What the active pane knows of the cell under the cursor.
fn cursor_line(lab: &Lab) -> String {
    let grid = &lab.level.grid;
    let c = lab.cursor;
    let here = match grid.entry_cost(c) {
        None => return format!("{c} wall"),
        Some(cost) => format!("{c} cost {cost}"),
    };
    let p = &lab.panes[lab.active];
    if let Some(run) = &p.nav {
        return super::nav_map::cursor_note(lab, p, run, &here);
    }
    let Some(m) = p.view.node(grid.node(c)) else { return format!("{here}: not reached") };
    let parent = if m.parent == grid.node(c) { "-".to_string() } else { grid.cell_of(m.parent).to_string() };
    let state = match m.order {
        Some(n) if m.closed => format!("expanded #{n}"),
        _ => "open".to_string(),
    };
    format!("{here}: g {:.2} h {:.2} f {:.2} parent {parent} {state}", m.g, m.h, m.f)
}

/// The step, the pace, then the keys or the lab's message.
fn status_line(lab: &Lab) -> String {
    let state = if lab.running {
        "running"
    } else if lab.done() {
        "done"
    } else {
        "paused"
    };
    let head = format!("step {}/{} {state} {}/frame", lab.step, lab.steps(), PACES[lab.pace]);
    if lab.message.is_empty() {
        format!("{head} | . step  space run  ⏎ end  Tab pane  ? help  q quit")
    } else {
        format!("{head} | {}", lab.message)
    }
}
