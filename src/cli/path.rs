//! `delve path`: one search on a level, drawn and counted.

mod any_angle;

use super::options::whole_number;
use super::{CliError, GenLevelArgs, SearchArgs, input_name, level_or_generated};
use crate::atomic::{AtomicError, AtomicFile};
use crate::grid::{Cell, Grid};
use crate::level::{DEFAULT_LEVEL_NAME, Level, tile_glyph as glyph};
use crate::nav::{Ends, MAX_RADIUS, Navigator};
use crate::picture::{Drawn, MAX_PANELS, Picture, TooLarge, check_size, write_svg};
use crate::search::{Fallback, Outcome, PlanError, Planner, SearchSettings, string_pull};
use crate::shown::shown;
use crate::ui::{RAW_PATH, WAYPOINT};
use serde_json::json;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

/// Arguments of `delve path`.
#[derive(clap::Args, Clone, Debug)]
pub struct PathArgs {
    /// Level: a file (a delve level or a Moving AI map), a shipped level's name (maze, cave, ...) or
    /// - for standard input (default: the embedded level)
    pub level: Option<PathBuf>,
    /// A generated level instead of a file.
    #[command(flatten)]
    pub generated: GenLevelArgs,
    /// With --gen: the generator's seed
    #[arg(long, default_value_t = 1, requires = "style", value_parser = whole_number::<u64>(0, u64::MAX), allow_hyphen_values = true)]
    pub seed: u64,
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
    #[arg(long, value_name = "R", default_value_t = 0.0, value_parser = parse_radius, allow_hyphen_values = true)]
    pub radius: f64,
    /// Run string-pulled grid A*, the navmesh and the waypoint graph on the same query and compare them
    #[arg(long)]
    pub compare: bool,
    /// Print one JSON object instead of the map
    #[arg(long)]
    pub json: bool,
    /// Also draw the search as an SVG picture in FILE: cells closed and
    /// open, path, smoothed waypoints, settings and counters; one picture
    /// per --algo (at most 16), in a row. With navmesh or waypoints, the
    /// mesh or the corners and the path; with --compare, the mesh and the
    /// three paths. FILE is a file (`-` is refused, not standard output),
    /// written whole or not at all; an existing FILE is kept unless --force
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Overwrite the --svg file if it is a regular file
    #[arg(long, requires = "svg")]
    pub force: bool,
}

fn parse_radius(s: &str) -> Result<f64, String> {
    super::options::decimal(s, 0.0..=MAX_RADIUS, &format!("a radius from 0 to {MAX_RADIUS}"))
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
    let panels = args.search.algorithms.len();
    if panels > MAX_PANELS {
        return Err(CliError::Usage(format!("--algo: {}", TooLarge::Panels { panels })));
    }
    let any_angle = args.compare || args.search.algorithms.iter().any(|p| p.expansion().any_angle());
    if any_angle && panels > 1 {
        // One picture of one query: the planner's, or --compare's three paths.
        let rule = "--algo navmesh, --algo waypoints and --compare take one --algo (several only for grid searches)";
        return Err(CliError::Usage(rule.into()));
    }
    if args.compare && args.search.planner().expansion().any_angle() {
        return Err(CliError::Usage(format!(
            "--compare runs a grid search beside the navmesh and the waypoints: --algo {} is not a grid algorithm",
            args.search.planner()
        )));
    }
    if !any_angle && args.radius != 0.0 {
        let rule = "--radius: only --algo navmesh, --algo waypoints and --compare plan for a radius";
        return Err(CliError::Usage(rule.into()));
    }
    // The picture's file is made before any work, so that a target it
    // cannot be written to is refused before the search, not after it.
    let svg = args.svg.as_ref().map(|target| AtomicFile::create(target, args.force, "--svg")).transpose()?;
    if svg.is_some() {
        // Past `ulimit -f`, a write fails (and the old picture stays)
        // rather than the process ending with its partial file left.
        crate::signals::survive_file_size_limit()?;
    }
    let (level, generated) = level_or_generated(args.level.as_ref(), &args.generated, args.seed)?;
    let file = args
        .level
        .as_deref()
        .map(input_name)
        .unwrap_or_else(|| PathBuf::from(if generated.is_some() { &level.name } else { DEFAULT_LEVEL_NAME }));
    let from = endpoint(args.from, level.start, "--from", "S", &file)?;
    let to = endpoint(args.to, level.goal, "--to", "G", &file)?;
    if any_angle {
        // --compare measures against the corner graph: it needs it too.
        let planner = if args.compare { Planner::WAYPOINTS } else { args.search.planner() };
        let refused = PlanError::check(&level.grid, from, to).and_then(|()| Navigator::check(planner, &level.grid));
        refused.map_err(|source| CliError::Plan { file, source })?;
        let svg = svg.map(|file| Svg::new(file, &level.grid, 1)).transpose()?;
        return if args.compare {
            any_angle::compare(args, &level, from, to, out, svg)
        } else {
            any_angle::plan(args, &level, from, to, out, svg)
        };
    }
    args.search.grid_only("--svg")?;
    let mut picture = match svg {
        Some(file) => Some(Svg::new(file, &level.grid, panels)?.begin(&level.grid, panels)?),
        None => None,
    };
    let mut navigator = Navigator::new(0.0);
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
        if let Some(picture) = &mut picture {
            let found = outcome.found;
            let drawn = Drawn {
                settings,
                stats: outcome.stats,
                cost: outcome.cost,
                finished: true,
                cells: navigator.visited(&level.grid).collect(),
                current: None,
                path: if found { navigator.path().to_vec() } else { Vec::new() },
                smoothed: if found { smoothed } else { Vec::new() },
                nav: None,
            };
            picture.panel(&level.grid, from, to, &drawn)?;
        }
    }
    picture.map_or(Ok(()), SvgRow::end)
}

/// The `--svg` picture on its way to its file: sized before any search,
/// written as the searches are drawn, committed whole at the end.
struct Svg {
    file: AtomicFile,
}

impl Svg {
    /// The picture of `panels` maps of `grid` to `file`, refused when too
    /// large to draw.
    fn new(file: AtomicFile, grid: &Grid, panels: usize) -> Result<Svg, CliError> {
        check_size(grid, panels).map_err(|e| CliError::Usage(format!("--svg: {e}")))?;
        Ok(Svg { file })
    }

    /// Starts a row of `panels` grid searches.
    fn begin(self, grid: &Grid, panels: usize) -> Result<SvgRow, CliError> {
        let target = self.file.target().to_path_buf();
        let picture = Picture::begin(BufWriter::new(self.file), grid, panels);
        Ok(SvgRow { picture: picture.map_err(|io| write_error(&target, io))?, target })
    }

    /// Writes the whole picture of `searches` and commits it.
    fn write(self, grid: &Grid, from: Cell, to: Cell, searches: &[Drawn]) -> Result<(), CliError> {
        let target = self.file.target().to_path_buf();
        let mut out = BufWriter::new(self.file);
        write_svg(&mut out, grid, from, to, searches).map_err(|io| write_error(&target, io))?;
        commit(out, &target)
    }
}

/// A row of grid searches' pictures being written.
struct SvgRow {
    picture: Picture<BufWriter<AtomicFile>>,
    target: PathBuf,
}

impl SvgRow {
    fn panel(&mut self, grid: &Grid, from: Cell, to: Cell, drawn: &Drawn) -> Result<(), CliError> {
        self.picture.panel(grid, from, to, drawn).map_err(|io| write_error(&self.target, io))
    }

    fn end(self) -> Result<(), CliError> {
        let target = self.target;
        let out = self.picture.end().map_err(|io| write_error(&target, io))?;
        commit(out, &target)
    }
}

/// Puts the written picture in its target's place.
fn commit(out: BufWriter<AtomicFile>, target: &std::path::Path) -> Result<(), CliError> {
    let file = out.into_inner().map_err(|e| write_error(target, e.into_error()))?;
    Ok(file.commit()?)
}

/// A failed write of the picture, named by its target (its partial file
/// goes, and the target is left as it was).
fn write_error(target: &std::path::Path, io: io::Error) -> CliError {
    AtomicError::Io { file: target.to_path_buf(), io }.into()
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
