//! SVG pictures of searches: the map with the closed and open cells
//! shaded, the path, its string-pulled waypoints, the start and the goal,
//! and a caption with the settings and the counters; several searches of
//! one query side by side in a row.
//!
//! Every shape carries a class (`wall`, `cost`, `closed`, `open`,
//! `current`, `path`, `smoothed`, `waypoint`, `start`, `goal`, `caption`)
//! so that a reader can restyle the picture and a test can count shapes.

use crate::grid::{Cell, Grid};
use crate::search::{SearchSettings, SearchStats, Visit};
use std::fmt::Write;

/// One search as the picture draws it.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// Its settings, for the caption.
    pub settings: SearchSettings,
    /// Its counters (at the step drawn).
    pub stats: SearchStats,
    /// The path's cost, when a path was found and is drawn.
    pub cost: Option<f64>,
    /// Whether the search ran to its end (else it is drawn mid-way).
    pub finished: bool,
    /// Every cell generated, closed or still open.
    pub cells: Vec<(Cell, Visit)>,
    /// The cell being expanded, for a search drawn mid-way.
    pub current: Option<Cell>,
    /// The path found (empty if none or not finished).
    pub path: Vec<Cell>,
    /// Its string-pulled waypoints.
    pub smoothed: Vec<Cell>,
}

/// Widest a map is drawn, in pixels: cells shrink to fit, down to 2 px.
const MAP_PIXELS: usize = 480;
/// Largest cell, in pixels.
const MAX_CELL: usize = 16;
/// Space between two searches, and around the row.
const GAP: usize = 16;
/// Height of one caption line.
const LINE: usize = 16;
/// Caption lines under each map.
const CAPTION_LINES: usize = 3;

/// The picture of `searches` of the query `start` → `goal` on `grid`, in a row.
pub fn svg(grid: &Grid, start: Cell, goal: Cell, searches: &[Drawn]) -> String {
    let (w, h) = (grid.width(), grid.height());
    let cell = (MAP_PIXELS / w.max(1)).clamp(2, MAX_CELL);
    let (map_w, map_h) = (w * cell, h * cell);
    let n = searches.len().max(1);
    let width = GAP + n * (map_w + GAP);
    let height = GAP + map_h + LINE * CAPTION_LINES + GAP;
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">"#
    );
    out.push_str(STYLE);
    let _ = writeln!(out, r#"<rect width="{width}" height="{height}" fill="white"/>"#);
    for (i, search) in searches.iter().enumerate() {
        let x0 = GAP + i * (map_w + GAP);
        let _ = writeln!(out, r#"<g transform="translate({x0},{GAP})">"#);
        map(&mut out, grid, cell, search);
        ends(&mut out, cell, start, goal);
        caption(&mut out, map_h, search);
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

const STYLE: &str = "<style>
.floor{fill:#f4f1ea}.wall{fill:#3a3a3a}.cost{fill:#c9a66b}
.closed{fill:#7da7d9;fill-opacity:0.75}.open{fill:#7fd1b9;fill-opacity:0.85}.current{fill:#e05780}
.path{fill:none;stroke:#d1495b;stroke-width:2}.smoothed{fill:none;stroke:#222;stroke-width:1.5;stroke-dasharray:4 2}
.waypoint{fill:#222}.start{fill:#2a9d3f}.goal{fill:#d1495b}.caption{fill:#222}
</style>
";

/// One cell's square.
fn rect(out: &mut String, class: &str, c: Cell, cell: usize) {
    let (x, y) = (c.x as usize * cell, c.y as usize * cell);
    let _ = writeln!(out, r#"<rect class="{class}" x="{x}" y="{y}" width="{cell}" height="{cell}"/>"#);
}

/// The terrain, the cells searched, and the path.
fn map(out: &mut String, grid: &Grid, cell: usize, search: &Drawn) {
    let (w, h) = (grid.width() * cell, grid.height() * cell);
    let _ = writeln!(out, r#"<rect class="floor" width="{w}" height="{h}"/>"#);
    // Terrain in runs along each row of one entry cost (0: wall), a
    // rectangle a run: a tenth of the shapes of one a cell.
    for y in 0..grid.height() as i32 {
        let mut x = 0;
        while x < grid.width() as i32 {
            let cost = grid.entry_cost(Cell::new(x, y));
            let end = (x..grid.width() as i32).find(|&e| grid.entry_cost(Cell::new(e, y)) != cost);
            let end = end.unwrap_or(grid.width() as i32);
            let (px, py, pw) = (x as usize * cell, y as usize * cell, (end - x) as usize * cell);
            let shape = |class: &str, extra: String| {
                format!(r#"<rect class="{class}" x="{px}" y="{py}" width="{pw}" height="{cell}"{extra}/>"#)
            };
            match cost {
                None => _ = writeln!(out, "{}", shape("wall", String::new())),
                Some(1) => {}
                // Darker for dearer cells.
                Some(c) => {
                    _ = writeln!(out, "{}", shape("cost", format!(r#" fill-opacity="{:.2}""#, f64::from(c) / 9.0)))
                }
            }
            x = end;
        }
    }
    for &(c, visit) in &search.cells {
        let class = if Some(c) == search.current {
            "current"
        } else if visit == Visit::Closed {
            "closed"
        } else {
            "open"
        };
        rect(out, class, c, cell);
    }
    let centre = |c: &Cell| {
        let half = cell as f64 / 2.0;
        format!("{},{}", c.x as f64 * cell as f64 + half, c.y as f64 * cell as f64 + half)
    };
    for (class, cells) in [("path", &search.path), ("smoothed", &search.smoothed)] {
        if cells.len() > 1 {
            let points: Vec<String> = cells.iter().map(centre).collect();
            let _ = writeln!(out, r#"<polyline class="{class}" points="{}"/>"#, points.join(" "));
        }
    }
    let r = (cell as f64 / 5.0).max(1.0);
    for c in &search.smoothed {
        let p = centre(c);
        let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
        let _ = writeln!(out, r#"<circle class="waypoint" cx="{x}" cy="{y}" r="{r}"/>"#);
    }
}

/// The start and goal markers.
fn ends(out: &mut String, cell: usize, start: Cell, goal: Cell) {
    let half = cell as f64 / 2.0;
    let r = (cell as f64 / 2.5).max(1.5);
    for (class, c) in [("start", start), ("goal", goal)] {
        let (x, y) = (c.x as f64 * cell as f64 + half, c.y as f64 * cell as f64 + half);
        let _ = writeln!(out, r#"<circle class="{class}" cx="{x}" cy="{y}" r="{r}"/>"#);
    }
}

/// Settings, counters and the answer under the map.
fn caption(out: &mut String, map_h: usize, search: &Drawn) {
    let s = &search.stats;
    let answer = match (search.finished, search.cost) {
        (false, _) => "searching...".to_string(),
        (true, Some(cost)) => format!(
            "path cost {cost:.2}, {} steps, {} waypoints",
            search.path.len().saturating_sub(1),
            search.smoothed.len()
        ),
        (true, None) => "no path".to_string(),
    };
    let lines = [
        search.settings.to_string(),
        format!(
            "expanded {} | pushed {} | stale pops {} | max open {}",
            s.expanded, s.pushed, s.stale_pops, s.max_open
        ),
        answer,
    ];
    for (i, line) in lines.iter().enumerate() {
        let y = map_h + LINE * (i + 1);
        let _ = writeln!(out, r#"<text class="caption" x="0" y="{y}">{}</text>"#, escape(line));
    }
}

/// `text` with the characters XML reserves escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
