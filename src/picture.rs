//! SVG pictures of searches: the map with the closed and open cells
//! shaded, the path, its string-pulled waypoints, the start and the goal,
//! and a caption with the settings and the counters; several searches of
//! one query side by side in a row.
//!
//! The any-angle planners ([`crate::nav`]) are drawn in world units over
//! the same map: the navigation mesh's polygons (light outlines), the
//! corridor's portals, the corner waypoints, and each planner's path in a
//! colour of its own, named in a legend under the map.
//!
//! Every shape carries a class (`wall`, `cost`, `closed`, `open`,
//! `current`, `path`, `smoothed`, `waypoint`, `start`, `goal`, `caption`;
//! for the nav layer `mesh`, `portal`, `corner`, `key`, and the planner's
//! name on its path: `grid_smoothed`, `navmesh`, `waypoints`) so that a
//! reader can restyle the picture and a test can count shapes.

use crate::grid::{Cell, Grid, MAX_SIDE};
use crate::nav::Vec2;
use crate::search::{SearchSettings, SearchStats, Visit};
use std::io::{self, Write};

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
    /// What an any-angle planner built and found (`None` for a grid search).
    pub nav: Option<NavDrawn>,
}

/// What the picture draws of the any-angle planners, in world units (a
/// cell is 1 × 1, y down).
#[derive(Clone, Debug, Default)]
pub struct NavDrawn {
    /// The first caption line, in place of the search settings.
    pub title: String,
    /// The navigation mesh: each polygon's corners in order.
    pub polygons: Vec<Vec<Vec2>>,
    /// The portals of the corridor found, as (left, right).
    pub portals: Vec<(Vec2, Vec2)>,
    /// The corner waypoints.
    pub corners: Vec<Vec2>,
    /// The paths, each in its planner's colour with a line of the legend.
    pub paths: Vec<NavLine>,
}

/// One any-angle path of a picture.
#[derive(Clone, Debug)]
pub struct NavLine {
    /// The planner: `grid_smoothed`, `navmesh` or `waypoints` (its class
    /// and colour).
    pub planner: &'static str,
    /// Its points, start to goal (empty when it found no path).
    pub points: Vec<Vec2>,
}

/// Each any-angle planner's path: its class, colour, stroke (drawn in this
/// order, widest under, so that equal paths all show) and legend words.
const NAV_LINES: [(&str, &str, &str, &str); 3] = [
    ("grid_smoothed", "#e08e0b", "stroke-width:2.5", "string-pulled grid A*"),
    ("navmesh", "#1f77b4", "stroke-width:5;stroke-opacity:0.6", "navmesh + funnel"),
    ("waypoints", "#2ca02c", "stroke-width:1.5;stroke-dasharray:4 2", "corner waypoints"),
];
/// Widest a map is drawn, in pixels: cells shrink to fit, down to 2 px.
const MAP_PIXELS: usize = 480;
/// Largest cell, in pixels.
const MAX_CELL: usize = 16;
/// Space between two searches, and around the row.
const GAP: usize = 16;
/// Height of one caption line.
const LINE: usize = 16;
/// Caption lines under each map of a grid search.
const CAPTION_LINES: usize = 3;

/// Most searches one picture draws side by side (`delve path --algo
/// a,b,...`): a row of 16 is 8,000 pixels wide already.
pub const MAX_PANELS: usize = 16;

/// Most cells one picture draws, all its maps together: one map of the
/// largest size a level may have ([`MAX_SIDE`]²), four of 1024x1024, or
/// the sixteen maps of [`MAX_PANELS`] at 512x512. The SVG grows with the
/// cells drawn (a rectangle per wall run and per searched cell), and so
/// does the time it takes.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// A picture refused before any work is done.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum TooLarge {
    /// More maps side by side than [`MAX_PANELS`].
    #[error("{panels} searches in one picture: at most {MAX_PANELS} are drawn side by side")]
    Panels { panels: usize },
    /// More cells in all than [`MAX_CELLS`].
    #[error(
        "{panels} map(s) of {width}x{height} cells are {cells} cells to draw, more than the {MAX_CELLS} one picture \
         holds (one {MAX_SIDE}x{MAX_SIDE} map): draw fewer searches or a smaller level"
    )]
    Cells { panels: usize, width: usize, height: usize, cells: u128 },
}

/// Refuses a picture of `panels` maps of `grid` beyond [`MAX_PANELS`] or
/// [`MAX_CELLS`], before any search is run for it.
pub fn check_size(grid: &Grid, panels: usize) -> Result<(), TooLarge> {
    if panels > MAX_PANELS {
        return Err(TooLarge::Panels { panels });
    }
    let (width, height) = (grid.width(), grid.height());
    let cells = panels as u128 * width as u128 * height as u128;
    if cells > MAX_CELLS as u128 {
        return Err(TooLarge::Cells { panels, width, height, cells });
    }
    Ok(())
}

/// The picture of `searches` of the query `start` → `goal` on `grid`, in a
/// row, written to `out` as it is made (never whole in memory). The caller
/// bounds it first with [`check_size`].
pub fn write_svg(out: impl Write, grid: &Grid, start: Cell, goal: Cell, searches: &[Drawn]) -> io::Result<()> {
    let lines = searches.iter().map(|s| caption_lines(s).len()).max().unwrap_or(CAPTION_LINES);
    let mut picture = Picture::begin_with(out, grid, searches.len(), lines)?;
    for search in searches {
        picture.panel(grid, start, goal, search)?;
    }
    picture.end().map(drop)
}

/// A row of grid searches' pictures on its way to `out`, one map at a time,
/// so that only the search being drawn is in memory: [`begin`](Picture::begin),
/// a [`panel`](Picture::panel) per search, [`end`](Picture::end).
#[derive(Debug)]
pub struct Picture<W: Write> {
    out: W,
    /// A cell's side, in pixels.
    cell: usize,
    /// Maps drawn so far.
    drawn: usize,
}

impl<W: Write> Picture<W> {
    /// Writes the head of a picture of `panels` grid searches (three
    /// caption lines each) on `grid`.
    pub fn begin(out: W, grid: &Grid, panels: usize) -> io::Result<Picture<W>> {
        Picture::begin_with(out, grid, panels, CAPTION_LINES)
    }

    /// The head of a picture of `panels` maps with `lines` caption lines.
    fn begin_with(mut out: W, grid: &Grid, panels: usize, lines: usize) -> io::Result<Picture<W>> {
        let (w, h) = (grid.width(), grid.height());
        let cell = (MAP_PIXELS / w.max(1)).clamp(2, MAX_CELL);
        let (map_w, map_h) = (w * cell, h * cell);
        let n = panels.max(1);
        let width = GAP + n * (map_w + GAP);
        let height = GAP + map_h + LINE * lines + GAP;
        writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">"#
        )?;
        out.write_all(STYLE.as_bytes())?;
        for (class, colour, stroke, _) in NAV_LINES {
            writeln!(out, "<style>.{class}{{fill:none;stroke:{colour};{stroke}}}</style>")?;
        }
        writeln!(out, r#"<rect width="{width}" height="{height}" fill="white"/>"#)?;
        Ok(Picture { out, cell, drawn: 0 })
    }

    /// Draws the next map: `search` of the query `start` → `goal`.
    pub fn panel(&mut self, grid: &Grid, start: Cell, goal: Cell, search: &Drawn) -> io::Result<()> {
        let (out, cell) = (&mut self.out, self.cell);
        let x0 = GAP + self.drawn * (grid.width() * cell + GAP);
        writeln!(out, r#"<g transform="translate({x0},{GAP})">"#)?;
        map(out, grid, cell, search)?;
        if let Some(nav) = &search.nav {
            nav_layer(out, cell, nav)?;
        }
        ends(out, cell, start, goal)?;
        caption(out, grid.height() * cell, search)?;
        out.write_all(b"</g>\n")?;
        self.drawn += 1;
        Ok(())
    }

    /// Closes the picture, flushes it, and gives its writer back.
    pub fn end(mut self) -> io::Result<W> {
        self.out.write_all(b"</svg>\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

const STYLE: &str = "<style>
.floor{fill:#f4f1ea}.wall{fill:#3a3a3a}.cost{fill:#c9a66b}
.closed{fill:#7da7d9;fill-opacity:0.75}.open{fill:#7fd1b9;fill-opacity:0.85}.current{fill:#e05780}
.path{fill:none;stroke:#d1495b;stroke-width:2}.smoothed{fill:none;stroke:#222;stroke-width:1.5;stroke-dasharray:4 2}
.waypoint{fill:#222}.start{fill:#2a9d3f}.goal{fill:#d1495b}.caption{fill:#222}
.mesh{fill:none;stroke:#9aa5b1;stroke-width:0.75}.portal{stroke:#e05780;stroke-width:2}.corner{fill:#6c4f9e}
</style>
";

/// One cell's square.
fn rect(out: &mut impl Write, class: &str, c: Cell, cell: usize) -> io::Result<()> {
    let (x, y) = (c.x as usize * cell, c.y as usize * cell);
    writeln!(out, r#"<rect class="{class}" x="{x}" y="{y}" width="{cell}" height="{cell}"/>"#)
}

/// The terrain, the cells searched, and the path.
fn map(out: &mut impl Write, grid: &Grid, cell: usize, search: &Drawn) -> io::Result<()> {
    let (w, h) = (grid.width() * cell, grid.height() * cell);
    writeln!(out, r#"<rect class="floor" width="{w}" height="{h}"/>"#)?;
    // Terrain in runs along each row of one entry cost (0: wall), a
    // rectangle a run: a tenth of the shapes of one a cell.
    for y in 0..grid.height() as i32 {
        let mut x = 0;
        while x < grid.width() as i32 {
            let cost = grid.entry_cost(Cell::new(x, y));
            let end = (x..grid.width() as i32).find(|&e| grid.entry_cost(Cell::new(e, y)) != cost);
            let end = end.unwrap_or(grid.width() as i32);
            let (px, py, pw) = (x as usize * cell, y as usize * cell, (end - x) as usize * cell);
            let shape =
                |class: &str| format!(r#"<rect class="{class}" x="{px}" y="{py}" width="{pw}" height="{cell}""#);
            match cost {
                None => writeln!(out, "{}/>", shape("wall"))?,
                Some(1) => {}
                // Darker for dearer cells.
                Some(c) => writeln!(out, r#"{} fill-opacity="{:.2}"/>"#, shape("cost"), f64::from(c) / 9.0)?,
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
        rect(out, class, c, cell)?;
    }
    let centre = |c: &Cell| {
        let half = cell as f64 / 2.0;
        format!("{},{}", c.x as f64 * cell as f64 + half, c.y as f64 * cell as f64 + half)
    };
    for (class, cells) in [("path", &search.path), ("smoothed", &search.smoothed)] {
        if cells.len() > 1 {
            let points: Vec<String> = cells.iter().map(centre).collect();
            writeln!(out, r#"<polyline class="{class}" points="{}"/>"#, points.join(" "))?;
        }
    }
    let r = (cell as f64 / 5.0).max(1.0);
    for c in &search.smoothed {
        let p = centre(c);
        let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
        writeln!(out, r#"<circle class="waypoint" cx="{x}" cy="{y}" r="{r}"/>"#)?;
    }
    Ok(())
}

/// The start and goal markers.
fn ends(out: &mut impl Write, cell: usize, start: Cell, goal: Cell) -> io::Result<()> {
    let half = cell as f64 / 2.0;
    let r = (cell as f64 / 2.5).max(1.5);
    for (class, c) in [("start", start), ("goal", goal)] {
        let (x, y) = (c.x as f64 * cell as f64 + half, c.y as f64 * cell as f64 + half);
        writeln!(out, r#"<circle class="{class}" cx="{x}" cy="{y}" r="{r}"/>"#)?;
    }
    Ok(())
}

/// The nav layer over the map: mesh, portals, corners, paths.
fn nav_layer(out: &mut impl Write, cell: usize, nav: &NavDrawn) -> io::Result<()> {
    let k = cell as f64;
    let xy = |p: &Vec2| format!("{},{}", p.x * k, p.y * k);
    let list = |ps: &[Vec2]| ps.iter().map(xy).collect::<Vec<_>>().join(" ");
    for polygon in &nav.polygons {
        writeln!(out, r#"<polygon class="mesh" points="{}"/>"#, list(polygon))?;
    }
    for (a, b) in &nav.portals {
        let (x1, y1, x2, y2) = (a.x * k, a.y * k, b.x * k, b.y * k);
        writeln!(out, r#"<line class="portal" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#)?;
    }
    let r = (k / 6.0).max(1.0);
    for c in &nav.corners {
        writeln!(out, r#"<circle class="corner" cx="{}" cy="{}" r="{r}"/>"#, c.x * k, c.y * k)?;
    }
    for line in nav.paths.iter().filter(|l| l.points.len() > 1) {
        writeln!(out, r#"<polyline class="{}" points="{}"/>"#, line.planner, list(&line.points))?;
    }
    Ok(())
}

/// The caption's lines: settings (or the nav title), counters, and the
/// answer (or one legend line per any-angle path, with its colour).
fn caption_lines(search: &Drawn) -> Vec<(Option<&'static str>, String)> {
    let s = &search.stats;
    let counters = format!(
        "expanded {} | pushed {} | stale pops {} | max open {}",
        s.expanded, s.pushed, s.stale_pops, s.max_open
    );
    if let Some(nav) = &search.nav {
        let mut lines = vec![(None, nav.title.clone())];
        if s.pushed > 0 {
            lines.push((None, counters));
        }
        for line in &nav.paths {
            let (_, colour, _, words) = NAV_LINES.iter().find(|l| l.0 == line.planner).copied().unwrap_or(NAV_LINES[0]);
            let length = match line.points.len() {
                0 => "no path".to_string(),
                _ => format!("length {:.3}, {} points", crate::nav::path_length(&line.points), line.points.len()),
            };
            lines.push((Some(colour), format!("{words}: {length}")));
        }
        return lines;
    }
    let answer = match (search.finished, search.cost) {
        (false, _) => "searching...".to_string(),
        (true, Some(cost)) => format!(
            "path cost {cost:.2}, {} steps, {} waypoints",
            search.path.len().saturating_sub(1),
            search.smoothed.len()
        ),
        (true, None) => "no path".to_string(),
    };
    vec![(None, search.settings.to_string()), (None, counters), (None, answer)]
}

/// Settings, counters and the answer (or the legend) under the map.
fn caption(out: &mut impl Write, map_h: usize, search: &Drawn) -> io::Result<()> {
    for (i, (key, line)) in caption_lines(search).iter().enumerate() {
        let y = map_h + LINE * (i + 1);
        let x = match key {
            Some(colour) => {
                let top = y - LINE / 2 - 1;
                writeln!(out, r#"<rect class="key" x="0" y="{top}" width="12" height="4" fill="{colour}"/>"#)?;
                16
            }
            None => 0,
        };
        writeln!(out, r#"<text class="caption" x="{x}" y="{y}">{}</text>"#, escape(line))?;
    }
    Ok(())
}

/// `text` with the characters XML reserves escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
