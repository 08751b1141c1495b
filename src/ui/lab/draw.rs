//! The lab's screen: one or two panes (map, settings, counters), the line
//! about the cell under the cursor, and the status line.

use super::pane::Pane;
use super::state::{Lab, PACES};
use crate::search::Outcome;
use crate::ui::map::{Camera, terrain};
use crate::ui::palette::Palette;
use crate::ui::{RAW_PATH, WAYPOINT};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget};

/// Draws the whole lab.
pub fn draw(frame: &mut Frame, lab: &Lab, palette: &Palette) {
    let area = frame.area();
    let [main, info, status] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(1), Constraint::Length(1)]).areas(area);
    let shown = lab.shown();
    let columns = Layout::horizontal(shown.iter().map(|_| Constraint::Fill(1))).split(main);
    for (&i, &column) in shown.iter().zip(columns.iter()) {
        pane(frame.buffer_mut(), column, lab, i, palette);
    }
    frame.render_widget(Paragraph::new(cursor_line(lab)), info);
    frame.render_widget(Paragraph::new(status_line(lab)), status);
    if lab.help {
        super::keys::render_help(frame, area, palette);
    }
}

/// Settings in a few words: `astar octile fifo 8n`, with the weight,
/// reopening and decrease-key when they apply.
fn settings(pane: &Pane) -> String {
    let planner = pane.planner();
    if planner.expansion().any_angle() {
        return format!("{planner} (A* over its graph, point agent)");
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

/// One pane: a bordered map titled by its settings, counters below.
fn pane(buf: &mut Buffer, area: Rect, lab: &Lab, i: usize, palette: &Palette) {
    let p = &lab.panes[i];
    let marker = if lab.split && i == lab.active { "▶" } else { " " };
    let block = Block::bordered().title(format!("{marker}{}: {} ", i + 1, settings(p)));
    let inner = block.inner(area);
    block.render(area, buf);
    let [map_area, stats_area] = Layout::vertical([Constraint::Min(0), Constraint::Length(2)]).areas(inner);
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
    let extra = if s.reopened + s.violations > 0 {
        format!(" reopened {} violations {}", s.reopened, s.violations)
    } else {
        String::new()
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
        let (glyph, mut style) = terrain(grid.tile(cell), palette);
        let node = grid.node(cell);
        if let Some(mark) = p.view.node(node) {
            style = style.bg(if mark.closed { palette.closed } else { palette.open });
        }
        if current == Some(node) {
            style = style.bg(Color::Magenta);
        }
        buf[pos].set_char(glyph).set_style(style);
    }
    if done {
        let path_style = Style::new().fg(palette.raw_path);
        let waypoint_style = Style::new().fg(palette.waypoint).add_modifier(Modifier::BOLD);
        for (cells, glyph, style) in [(&p.path, RAW_PATH, path_style), (&p.smoothed, WAYPOINT, waypoint_style)] {
            for &c in cells {
                if let Some(pos) = camera.screen(c) {
                    buf[pos].set_char(glyph).set_style(style);
                }
            }
        }
    }
    ends_and_cursor(buf, &camera, lab, palette);
}

/// The start `S`, the goal `G`, and the cursor (reversed), over a pane's map.
pub fn ends_and_cursor(buf: &mut Buffer, camera: &Camera, lab: &Lab, palette: &Palette) {
    let bold = Style::new().fg(palette.player).add_modifier(Modifier::BOLD);
    for (c, glyph) in [(lab.start, 'S'), (lab.goal, 'G')] {
        if let Some(pos) = camera.screen(c) {
            buf[pos].set_char(glyph).set_style(bold);
        }
    }
    if let Some(pos) = camera.screen(lab.cursor) {
        buf[pos].modifier.insert(Modifier::REVERSED);
    }
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
