//! `delve path`: one search on a level, drawn and counted.

mod any_angle;

use super::{CliError, SearchArgs, load_level};
use crate::grid::{Cell, Grid};
use crate::level::{DEFAULT_LEVEL_NAME, Level, tile_glyph as glyph};
use crate::nav::{Ends, MAX_RADIUS, Navigator};
use crate::picture::Drawn;
use crate::search::{Fallback, Outcome, PlanError, Planner, SearchSettings, Visit, string_pull};
use crate::shown::shown;
use crate::ui::{RAW_PATH, WAYPOINT};
use serde_json::json;
use std::io::{self, Write};
use std::path::PathBuf;

/// Arguments of `delve path`.
#[derive(clap::Args, Clone, Debug)]
pub struct PathArgs {
    /// Level file: a delve level or a Moving AI map (default: the embedded level)
    pub level: Option<PathBuf>,
    /// Start cell (default: the level's S marker)
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub from: Option<Cell>,
    /// Goal cell (default: the level's G marker)
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub to: Option<Cell>,
    /// How the search runs.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Also string-pull the path into waypoints
    #[arg(long)]
    pub smooth: bool,
    /// Agent radius for navmesh and waypoints, in cells (0 to 0.45): the path keeps that clearance from walls
    #[arg(long, value_name = "R", default_value_t = 0.0, value_parser = parse_radius, allow_negative_numbers = true)]
    pub radius: f64,
    /// Run string-pulled grid A*, the navmesh and the waypoint graph on the same query and compare them
    #[arg(long)]
    pub compare: bool,
    /// Print one JSON object instead of the map
    #[arg(long)]
    pub json: bool,
    /// Also draw the search as an SVG picture in FILE: cells closed and
    /// open, path, smoothed waypoints, settings and counters; one picture
    /// per --algo, in a row. With navmesh or waypoints, the mesh or the
    /// corners and the path; with --compare, the mesh and the three paths
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

fn parse_radius(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(r) if (0.0..=MAX_RADIUS).contains(&r) => Ok(r),
        _ => Err(format!("'{s}' is not a radius from 0 to {MAX_RADIUS}")),
    }
}

/// Largest map drawn whole; larger ones are cropped around the query.
const VIEW_WIDTH: usize = 120;
const VIEW_HEIGHT: usize = 60;
/// Cells of context kept around the query when cropping.
const MARGIN: i32 = 3;

/// Runs `delve path`, writing its answer to `out`.
/// With several `--algo` values (only with `--svg`), answers each in turn.
pub fn path(args: &PathArgs, out: &mut impl Write) -> Result<(), CliError> {
    if args.svg.is_none() {
        args.search.one_algorithm()?;
    }
    let level = load_level(args.level.as_ref())?;
    let file = args.level.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_LEVEL_NAME));
    let from = endpoint(args.from, level.start, "--from", "S", &file)?;
    let to = endpoint(args.to, level.goal, "--to", "G", &file)?;
    let any_angle = args.compare || args.search.algorithms.iter().any(|p| p.expansion().any_angle());
    if any_angle {
        if args.search.algorithms.len() > 1 {
            // One picture of one query: the planner's, or --compare's three paths.
            let rule =
                "--algo navmesh, --algo waypoints and --compare take one --algo (several only for grid searches)";
            return Err(CliError::Usage(rule.into()));
        }
        // --compare measures against the corner graph: it needs it too.
        let planner = if args.compare { Planner::WAYPOINTS } else { args.search.planner() };
        let refused = PlanError::check(&level.grid, from, to).and_then(|()| Navigator::check(planner, &level.grid));
        refused.map_err(|source| CliError::Plan { file, source })?;
        return if args.compare {
            any_angle::compare(args, &level, from, to, out)
        } else {
            any_angle::plan(args, &level, from, to, out)
        };
    }
    if args.radius != 0.0 {
        let rule = "--radius: only --algo navmesh, --algo waypoints and --compare plan for a radius";
        return Err(CliError::Usage(rule.into()));
    }
    let mut navigator = Navigator::new(0.0);
    let mut pictured = Vec::new();
    for settings in args.search.all_settings() {
        // A jump point search that cannot run here runs its ordering on
        // every cell, and the answer says so (`ran`).
        let ends = Ends::cells(from, to);
        let planned = navigator.plan_observed(&level.grid, ends, &settings, Fallback::Grid, &mut ());
        let outcome = planned.map_err(|source| CliError::Plan { file: file.clone(), source })?;
        let mut smoothed = Vec::new();
        if args.smooth || args.svg.is_some() {
            string_pull(&level.grid, navigator.path(), &mut smoothed);
        }
        let answer = Answer {
            outcome,
            path: navigator.path(),
            smoothed: args.smooth.then_some(&smoothed[..]),
            preprocess_micros: navigator.preprocess_micros(),
            asked: settings.planner,
            ran: navigator.ran(),
        };
        let written = if args.json {
            writeln!(out, "{}", answer.json())
        } else {
            write_human(out, &level, from, to, &settings, &answer)
        };
        written.map_err(CliError::Output)?;
        if args.svg.is_some() {
            let cells: Vec<(Cell, Visit)> = navigator.visited(&level.grid).collect();
            pictured.push((settings, outcome, cells, navigator.path().to_vec(), smoothed));
        }
    }
    let Some(svg) = &args.svg else { return Ok(()) };
    let drawn: Vec<Drawn> = pictured
        .into_iter()
        .map(|(settings, o, cells, path, smoothed)| Drawn {
            settings,
            stats: o.stats,
            cost: o.cost,
            finished: true,
            cells,
            current: None,
            path: if o.found { path } else { Vec::new() },
            smoothed: if o.found { smoothed } else { Vec::new() },
            nav: None,
        })
        .collect();
    write_svg(svg, &crate::picture::svg(&level.grid, from, to, &drawn))
}

/// Writes the picture to `file`.
fn write_svg(file: &std::path::Path, picture: &str) -> Result<(), CliError> {
    std::fs::write(file, picture).map_err(|e| CliError::Usage(format!("cannot write {}: {e}", file.display())))
}

/// A cell from the command line, or else the level's marker.
fn endpoint(
    given: Option<Cell>,
    marker: Option<Cell>,
    flag: &str,
    glyph: &str,
    file: &std::path::Path,
) -> Result<Cell, CliError> {
    given
        .or(marker)
        .ok_or_else(|| CliError::Usage(format!("{}: the level has no {glyph} marker; give {flag} X,Y", file.display())))
}

struct Answer<'a> {
    outcome: Outcome,
    path: &'a [Cell],
    smoothed: Option<&'a [Cell]>,
    /// Build time of the per-grid data the search used (jump table).
    preprocess_micros: f64,
    /// The planner asked for, and the one that answered (its fallback
    /// where it could not run).
    asked: Planner,
    ran: Planner,
}

impl Answer<'_> {
    fn steps(&self) -> usize {
        self.path.len().saturating_sub(1)
    }

    fn json(&self) -> serde_json::Value {
        let cells = |p: &[Cell]| p.iter().map(|c| [c.x, c.y]).collect::<Vec<_>>();
        let s = &self.outcome.stats;
        let mut v = json!({
            "found": self.outcome.found,
            "steps": self.steps(),
            "cost": self.outcome.cost,
            "expanded": s.expanded,
            "pushed": s.pushed,
            "stale_pops": s.stale_pops,
            "max_open": s.max_open,
            "reopened": s.reopened,
            "violations": s.violations,
            "micros": s.micros,
            "scanned": s.scanned,
            "ran": self.ran.to_string(),
            "ran_astar": self.ran != self.asked,
            "preprocess_micros": self.preprocess_micros,
            "path": cells(self.path),
        });
        if let Some(smoothed) = self.smoothed {
            v["smoothed"] = json!(cells(smoothed));
        }
        v
    }
}

fn write_human(
    out: &mut impl Write,
    level: &Level,
    from: Cell,
    to: Cell,
    settings: &SearchSettings,
    answer: &Answer,
) -> io::Result<()> {
    let grid = &level.grid;
    writeln!(out, "{} ({}x{}): {} -> {}", shown(&level.name), grid.width(), grid.height(), from, to)?;
    writeln!(out, "{settings}")?;
    out.write_all(draw(grid, from, to, answer).as_bytes())?;
    let o = &answer.outcome;
    match o.cost {
        Some(cost) => writeln!(out, "path: {} steps, cost {cost:.4}", answer.steps())?,
        None => writeln!(out, "no path")?,
    }
    let s = &o.stats;
    writeln!(
        out,
        "expanded {} | pushed {} | stale pops {} | max open {} | reopened {} | violations {} | {:.1} µs",
        s.expanded, s.pushed, s.stale_pops, s.max_open, s.reopened, s.violations, s.micros
    )?;
    if answer.ran != answer.asked {
        writeln!(out, "{}; ran {} instead", PlanError::Jumps { planner: answer.asked }, answer.ran)?;
    } else if answer.asked.expansion().jumps() {
        writeln!(out, "scanned {} | grid data built in {:.1} µs", s.scanned, answer.preprocess_micros)?;
    }
    if let Some(smoothed) = answer.smoothed {
        let list: Vec<String> = smoothed.iter().map(Cell::to_string).collect();
        writeln!(out, "smoothed: {} waypoints: {}", smoothed.len(), list.join(" -> "))?;
    }
    Ok(())
}

/// The map with the path drawn on it: `*` path cells, `o` smoothed
/// waypoints, `S` and `G` the ends. Maps larger than the view are cropped
/// to the query's bounding box plus a margin.
fn draw(grid: &Grid, from: Cell, to: Cell, answer: &Answer) -> String {
    let (x0, y0, x1, y1) = if grid.width() <= VIEW_WIDTH && grid.height() <= VIEW_HEIGHT {
        (0, 0, grid.width() as i32 - 1, grid.height() as i32 - 1)
    } else {
        let all = answer.path.iter().chain([&from, &to]);
        let (mut x0, mut y0, mut x1, mut y1) = (from.x, from.y, from.x, from.y);
        for c in all {
            (x0, y0, x1, y1) = (x0.min(c.x), y0.min(c.y), x1.max(c.x), y1.max(c.y));
        }
        (
            (x0 - MARGIN).max(0),
            (y0 - MARGIN).max(0),
            (x1 + MARGIN).min(grid.width() as i32 - 1),
            (y1 + MARGIN).min(grid.height() as i32 - 1),
        )
    };
    let w = (x1 - x0 + 1) as usize;
    let mut rows: Vec<Vec<char>> =
        (y0..=y1).map(|y| (x0..=x1).map(|x| glyph(grid.tile(Cell::new(x, y)))).collect()).collect();
    let mut put = |c: &Cell, ch: char| rows[(c.y - y0) as usize][(c.x - x0) as usize] = ch;
    answer.path.iter().for_each(|c| put(c, RAW_PATH));
    answer.smoothed.unwrap_or(&[]).iter().for_each(|c| put(c, WAYPOINT));
    put(&from, 'S');
    put(&to, 'G');
    let mut text = String::with_capacity((w + 1) * rows.len() + 64);
    if (x0, y0, x1, y1) != (0, 0, grid.width() as i32 - 1, grid.height() as i32 - 1) {
        text.push_str(&format!("(columns {x0}-{x1}, rows {y0}-{y1})\n"));
    }
    for row in rows {
        text.extend(row);
        text.push('\n');
    }
    text
}
