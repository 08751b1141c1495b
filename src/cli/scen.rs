//! `delve scen`: a Moving AI scenario file run through the engine and
//! checked against its optimal lengths, each scenario on the map it names.

use super::progress::Progress;
use super::{CliError, SearchArgs, input_name, is_stdin};
use crate::input::ReadError;
use crate::level::{
    Level, LevelError, MAX_SCENARIO_BYTES, OPTIMAL_TOLERANCE, Scenario, load_scenarios, parse_scenarios,
};
use crate::nav::Navigator;
use crate::search::{Fallback, PlanError, Planner, SearchSettings};
use crate::shown::shown_path;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `delve scen`.
#[derive(clap::Args, Clone, Debug)]
pub struct ScenArgs {
    /// Moving AI scenario file (.scen), or - for standard input
    pub scen: PathBuf,
    /// The map, which every scenario must name (default: each scenario's
    /// own map, beside the .scen; in the current directory for -)
    #[arg(long, value_name = "FILE.map")]
    pub map: Option<PathBuf>,
    /// How the search runs.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print a JSON line per scenario and a summary object as the last line
    #[arg(long)]
    pub json: bool,
}

/// How one scenario came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Optimal,
    Suboptimal,
    /// Cheaper than the file's optimal length: the file's optimum is wrong
    /// (or the file was made under other rules).
    BetterThanOptimal,
    /// No path found.
    Failed,
}

impl Verdict {
    fn of(cost: Option<f64>, optimal: f64) -> Verdict {
        match cost {
            None => Verdict::Failed,
            Some(c) if (c - optimal).abs() <= OPTIMAL_TOLERANCE => Verdict::Optimal,
            Some(c) if c < optimal => Verdict::BetterThanOptimal,
            Some(_) => Verdict::Suboptimal,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Verdict::Optimal => "optimal",
            Verdict::Suboptimal => "suboptimal",
            Verdict::BetterThanOptimal => "better_than_optimal",
            Verdict::Failed => "failed",
        }
    }
}

/// One scenario's result.
#[derive(Clone, Debug)]
struct Run {
    scenario: Scenario,
    cost: Option<f64>,
    expanded: u64,
    scanned: u64,
    micros: f64,
    /// What answered instead of the planner asked for, if it could not run.
    fallback: Option<Planner>,
    verdict: Verdict,
}

impl Run {
    /// The path's cost over the file's optimal length (1 for an empty
    /// query); `None` when no path was found.
    fn ratio(&self) -> Option<f64> {
        let optimal = self.scenario.optimal;
        self.cost.map(|c| if optimal > 0.0 { c / optimal } else { 1.0 })
    }
}

/// Totals over a scenario file.
#[derive(Clone, Debug)]
struct Summary {
    scenarios: usize,
    optimal: usize,
    suboptimal: usize,
    better_than_optimal: usize,
    failed: usize,
    mean_expanded: f64,
    mean_micros: f64,
    /// Mean and largest cost / optimal length over the paths found.
    mean_ratio: f64,
    worst_ratio: f64,
    /// Build time of the per-grid data the searches used (jump tables,
    /// clusters), summed over the maps.
    preprocess_micros: f64,
    /// The planner that answered instead of the one asked for, which
    /// could not run (jump points on 4 neighbours or weighted cells).
    fallback: Option<Planner>,
}

impl Summary {
    fn of(runs: &[Run], preprocess_micros: f64) -> Summary {
        let n = runs.len();
        let ratios: Vec<f64> = runs.iter().filter_map(Run::ratio).collect();
        let count = |v| runs.iter().filter(|r| r.verdict == v).count();
        let mean = |f: fn(&Run) -> f64| if n == 0 { 0.0 } else { runs.iter().map(f).sum::<f64>() / n as f64 };
        Summary {
            scenarios: n,
            optimal: count(Verdict::Optimal),
            suboptimal: count(Verdict::Suboptimal),
            better_than_optimal: count(Verdict::BetterThanOptimal),
            failed: count(Verdict::Failed),
            mean_expanded: mean(|r| r.expanded as f64),
            mean_micros: mean(|r| r.micros),
            mean_ratio: if ratios.is_empty() { 0.0 } else { ratios.iter().sum::<f64>() / ratios.len() as f64 },
            worst_ratio: ratios.iter().copied().fold(0.0, f64::max),
            preprocess_micros,
            fallback: runs.iter().find_map(|r| r.fallback),
        }
    }
}

/// The maps a scenario file runs on, each loaded once, in the order the
/// file first names them.
struct Maps {
    /// Each map's path (as found or given) and level.
    loaded: Vec<(PathBuf, Level)>,
    /// For each scenario, its map's index in `loaded`.
    of_scenario: Vec<usize>,
}

impl Maps {
    /// Loads the map of every scenario: the file the scenario names,
    /// beside the scenario file, or `given` (`--map`), which every
    /// scenario must name. Checks each scenario against its map before
    /// any search runs.
    fn load(scen: &Path, scenarios: &[Scenario], given: Option<&Path>) -> Result<Maps, CliError> {
        let origin = scen.display().to_string();
        let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
        let mut maps = Maps { loaded: Vec::new(), of_scenario: Vec::with_capacity(scenarios.len()) };
        for sc in scenarios {
            let name = sc.map_file_name();
            let index = match by_name.get(name) {
                Some(&i) => i,
                None => {
                    let path = map_path(scen, sc, given)?;
                    let level = Level::load(&path).map_err(|e| match e {
                        LevelError::Read(ReadError::Io { io, .. }) => CliError::Usage(format!(
                            "{origin}:{}: cannot read map {} named by the scenario: {io}",
                            sc.line,
                            path.display()
                        )),
                        other => CliError::Level(other),
                    })?;
                    maps.loaded.push((path, level));
                    by_name.insert(name, maps.loaded.len() - 1);
                    maps.loaded.len() - 1
                }
            };
            let (path, level) = &maps.loaded[index];
            sc.check_map(&level.grid, &origin, &path.display().to_string())?;
            maps.of_scenario.push(index);
        }
        Ok(maps)
    }

    /// The map scenario `i` runs on.
    fn of(&self, i: usize) -> &Level {
        &self.loaded[self.of_scenario[i]].1
    }

    /// The maps' paths, for the summary's title.
    fn paths(&self) -> String {
        let paths: Vec<String> = self.loaded.iter().map(|(p, _)| shown_path(p)).collect();
        paths.join(", ")
    }
}

/// Where the map of `sc` is: `given` when the scenario names that file,
/// otherwise the file it names in the scenario file's folder.
fn map_path(scen: &Path, sc: &Scenario, given: Option<&Path>) -> Result<PathBuf, CliError> {
    let name = sc.map_file_name();
    let Some(given) = given else {
        return Ok(scen.parent().unwrap_or(Path::new("")).join(name));
    };
    if given.file_name().is_some_and(|g| g == name) {
        Ok(given.to_path_buf())
    } else {
        Err(CliError::Usage(format!(
            "{}:{}: the scenario is on map {:?}, not on --map {}",
            scen.display(),
            sc.line,
            sc.map,
            given.display()
        )))
    }
}

/// Runs every scenario on its map with `settings`, reporting each one done
/// to a progress bar on a terminal and handing it to `each` (with its
/// number) before the next one runs, so that its line can go out at once.
/// Also returns the build time of the per-grid data the searches used,
/// summed over the maps (one planner per map, so that a file that goes
/// back and forth between maps builds each map's data once).
fn run_scenarios(
    scen: &Path,
    maps: &Maps,
    scenarios: &[Scenario],
    settings: &SearchSettings,
    mut each: impl FnMut(usize, &Run) -> Result<(), CliError>,
) -> Result<(Vec<Run>, f64), CliError> {
    let progress = Progress::on_stderr("scenarios", scenarios.len() as u64);
    let mut planners: Vec<Navigator> = maps.loaded.iter().map(|_| Navigator::new(0.0)).collect();
    let mut runs = Vec::with_capacity(scenarios.len());
    for (i, sc) in scenarios.iter().enumerate() {
        // `Maps::load` checked the endpoints, so a refusal here would be a
        // bug; it is still reported against the scenario's line.
        // A jump point search that cannot run on the map runs its ordering
        // on every cell, as `delve path` does, and the summary says so.
        let planner = &mut planners[maps.of_scenario[i]];
        let ends = crate::nav::Ends::cells(sc.start, sc.goal);
        let o = planner
            .plan_observed(&maps.of(i).grid, ends, settings, Fallback::Grid, &mut ())
            .map_err(|e| CliError::Usage(format!("{}:{}: {e}", scen.display(), sc.line)))?;
        let fallback = (planner.ran() != settings.planner).then(|| planner.ran());
        let verdict = Verdict::of(o.cost, sc.optimal);
        let (expanded, scanned, micros) = (o.stats.expanded, o.stats.scanned, o.stats.micros);
        let run = Run { scenario: sc.clone(), cost: o.cost, expanded, scanned, micros, fallback, verdict };
        each(i + 1, &run)?;
        runs.push(run);
        progress.set(i as u64 + 1);
    }
    Ok((runs, planners.iter().map(Navigator::preprocess_micros).sum()))
}

/// Runs `delve scen`, writing its answer to `out`.
pub fn scen(args: &ScenArgs, out: &mut impl Write) -> Result<(), CliError> {
    args.search.grid_only("delve scen")?;
    let scenarios = if is_stdin(&args.scen) {
        let text = crate::input::read_stdin(MAX_SCENARIO_BYTES).map_err(LevelError::from)?;
        parse_scenarios(&text, crate::input::STDIN)?
    } else {
        load_scenarios(&args.scen)?
    };
    // `<stdin>` for `-`, whose maps are looked for in the current directory.
    let scen = input_name(&args.scen);
    if scenarios.is_empty() {
        return Err(CliError::Usage(format!("{}: no scenarios", scen.display())));
    }
    let maps = Maps::load(&scen, &scenarios, args.map.as_deref())?;
    args.search.one_algorithm()?;
    let settings = args.search.settings();
    // Each JSON line goes out as soon as its scenario ran: a reader that
    // stops reading stops the run.
    let (runs, preprocess_micros) = run_scenarios(&scen, &maps, &scenarios, &settings, |number, run| {
        if args.json { write_json_line(out, number, run).map_err(CliError::Output) } else { Ok(()) }
    })?;
    let summary = Summary::of(&runs, preprocess_micros);
    let written = if args.json {
        write_json_summary(out, &summary)
    } else {
        write_table(out, args, &maps.paths(), &settings, &runs, &summary)
    };
    written.map_err(CliError::Output)
}

/// The JSON line of the `number`th scenario.
fn write_json_line(out: &mut impl Write, number: usize, r: &Run) -> std::io::Result<()> {
    let sc = &r.scenario;
    let line = json!({
        "scenario": number,
        "line": sc.line,
        "map": sc.map,
        "bucket": sc.bucket,
        "start": [sc.start.x, sc.start.y],
        "goal": [sc.goal.x, sc.goal.y],
        "optimal_length": sc.optimal,
        "cost": r.cost,
        "expanded": r.expanded,
        "scanned": r.scanned,
        "micros": r.micros,
        "verdict": r.verdict.name(),
    });
    writeln!(out, "{line}")
}

/// The JSON summary, the last line.
fn write_json_summary(out: &mut impl Write, s: &Summary) -> std::io::Result<()> {
    let summary = json!({
        "scenarios": s.scenarios,
        "optimal": s.optimal,
        "suboptimal": s.suboptimal,
        "better_than_optimal": s.better_than_optimal,
        "failed": s.failed,
        "mean_expanded": s.mean_expanded,
        "mean_micros": s.mean_micros,
        "mean_ratio": s.mean_ratio,
        "worst_ratio": s.worst_ratio,
        "preprocess_micros": s.preprocess_micros,
        "ran_astar": s.fallback.is_some(),
    });
    writeln!(out, "{summary}")
}

/// Most mismatches listed in the human table.
const LISTED: usize = 10;

fn write_table(
    out: &mut impl Write,
    args: &ScenArgs,
    maps: &str,
    settings: &SearchSettings,
    runs: &[Run],
    s: &Summary,
) -> std::io::Result<()> {
    writeln!(out, "{} on {maps}: {} scenarios", shown_path(&input_name(&args.scen)), s.scenarios)?;
    writeln!(out, "{settings}")?;
    writeln!(out, "  optimal             {:>8}", s.optimal)?;
    writeln!(out, "  suboptimal          {:>8}", s.suboptimal)?;
    writeln!(out, "  better than optimal {:>8}", s.better_than_optimal)?;
    writeln!(out, "  failed              {:>8}", s.failed)?;
    writeln!(out, "  mean expanded       {:>12.1}", s.mean_expanded)?;
    writeln!(out, "  mean µs/search      {:>12.1}", s.mean_micros)?;
    writeln!(out, "  cost / optimal      {:>12.4} mean, {:.4} worst", s.mean_ratio, s.worst_ratio)?;
    if let Some(ran) = s.fallback {
        writeln!(out, "  {}; ran {ran} instead", PlanError::Jumps { planner: settings.planner })?;
    } else if settings.planner.expansion().jumps() {
        writeln!(out, "  grid data built in {:.1} µs", s.preprocess_micros)?;
    }
    let misses: Vec<_> = runs.iter().enumerate().filter(|(_, r)| r.verdict != Verdict::Optimal).collect();
    for (i, r) in misses.iter().take(LISTED) {
        let sc = &r.scenario;
        let got = r.cost.map_or("no path".to_string(), |c| format!("{c:.8}"));
        writeln!(
            out,
            "  scenario {} (line {}): {} -> {} optimal {:.8}, got {got}: {}",
            i + 1,
            sc.line,
            sc.start,
            sc.goal,
            sc.optimal,
            r.verdict.name()
        )?;
    }
    if misses.len() > LISTED {
        writeln!(out, "  ... and {} more", misses.len() - LISTED)?;
    }
    Ok(())
}
