//! `delve scen`: a Moving AI scenario file run through the engine and
//! checked against its optimal lengths.

use super::{CliError, SearchArgs};
use crate::level::{Level, OPTIMAL_TOLERANCE, Scenario, load_scenarios};
use crate::search::{GridPlanner, JUMPS_NEED, SearchSettings, SearchStats};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `delve scen`.
#[derive(clap::Args, Clone, Debug)]
pub struct ScenArgs {
    /// Moving AI scenario file (.scen)
    pub scen: PathBuf,
    /// The map (default: the map named in the scenarios, beside the .scen)
    #[arg(long, value_name = "FILE.map")]
    pub map: Option<PathBuf>,
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
    /// No path found, or an endpoint refused by the map.
    Failed,
}

impl Verdict {
    fn name(self) -> &'static str {
        match self {
            Verdict::Optimal => "optimal",
            Verdict::Suboptimal => "suboptimal",
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
    ran_astar: bool,
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
    failed: usize,
    mean_expanded: f64,
    mean_micros: f64,
    /// Mean and largest cost / optimal length over the paths found.
    mean_ratio: f64,
    worst_ratio: f64,
    /// Build time of the per-grid data the searches used (jump tables).
    preprocess_micros: f64,
    /// Whether a jump point search had to run A* (see [`JUMPS_NEED`]).
    ran_astar: bool,
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
            failed: count(Verdict::Failed),
            mean_expanded: mean(|r| r.expanded as f64),
            mean_micros: mean(|r| r.micros),
            mean_ratio: if ratios.is_empty() { 0.0 } else { ratios.iter().sum::<f64>() / ratios.len() as f64 },
            worst_ratio: ratios.iter().copied().fold(0.0, f64::max),
            preprocess_micros,
            ran_astar: runs.iter().any(|r| r.ran_astar),
        }
    }
}

/// Runs every scenario of `scenarios` on `map` with `settings`; also
/// returns the build time of the per-grid data the searches used.
fn run_scenarios(map: &Level, scenarios: &[Scenario], settings: &SearchSettings) -> (Vec<Run>, f64) {
    let mut planner = GridPlanner::new();
    let runs = scenarios
        .iter()
        .map(|sc| {
            let (cost, stats) = match planner.plan(&map.grid, sc.start, sc.goal, settings) {
                Ok(o) => (o.found.then_some(o.cost), o.stats),
                Err(_) => (None, SearchStats::default()),
            };
            let verdict = match cost {
                None => Verdict::Failed,
                Some(c) if (c - sc.optimal).abs() <= OPTIMAL_TOLERANCE => Verdict::Optimal,
                Some(_) => Verdict::Suboptimal,
            };
            let (expanded, scanned, micros, ran_astar) = (stats.expanded, stats.scanned, stats.micros, stats.ran_astar);
            Run { scenario: sc.clone(), cost, expanded, scanned, micros, ran_astar, verdict }
        })
        .collect();
    (runs, planner.preprocess_micros())
}

/// Runs `delve scen`, writing its answer to `out`.
pub fn scen(args: &ScenArgs, out: &mut impl Write) -> Result<(), CliError> {
    let scenarios = load_scenarios(&args.scen)?;
    let map_path = match (&args.map, scenarios.first()) {
        (Some(p), _) => p.clone(),
        (None, Some(first)) => beside(&args.scen, &first.map),
        (None, None) => return Err(CliError::Usage(format!("{}: no scenarios", args.scen.display()))),
    };
    let map = Level::load(&map_path)?;
    if let Some((i, sc)) =
        scenarios.iter().enumerate().find(|(_, sc)| (sc.width, sc.height) != (map.grid.width(), map.grid.height()))
    {
        return Err(CliError::Usage(format!(
            "{}: scenario {} expects a {}x{} map but {} is {}x{}",
            args.scen.display(),
            i + 1,
            sc.width,
            sc.height,
            map_path.display(),
            map.grid.width(),
            map.grid.height()
        )));
    }
    let settings = args.search.settings();
    let (runs, preprocess_micros) = run_scenarios(&map, &scenarios, &settings);
    let summary = Summary::of(&runs, preprocess_micros);
    let written = if args.json {
        write_json(out, &runs, &summary)
    } else {
        write_table(out, args, &map_path, &settings, &runs, &summary)
    };
    written.map_err(|e| CliError::Usage(format!("cannot write the answer: {e}")))
}

/// The map a scenario names, looked up in the scenario file's folder.
fn beside(scen: &Path, map: &str) -> PathBuf {
    let name = Path::new(map).file_name().unwrap_or(map.as_ref());
    scen.parent().unwrap_or(Path::new("")).join(name)
}

fn write_json(out: &mut impl Write, runs: &[Run], s: &Summary) -> std::io::Result<()> {
    for (i, r) in runs.iter().enumerate() {
        let sc = &r.scenario;
        let line = json!({
            "scenario": i + 1,
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
        writeln!(out, "{line}")?;
    }
    let summary = json!({
        "scenarios": s.scenarios,
        "optimal": s.optimal,
        "suboptimal": s.suboptimal,
        "failed": s.failed,
        "mean_expanded": s.mean_expanded,
        "mean_micros": s.mean_micros,
        "mean_ratio": s.mean_ratio,
        "worst_ratio": s.worst_ratio,
        "preprocess_micros": s.preprocess_micros,
        "ran_astar": s.ran_astar,
    });
    writeln!(out, "{summary}")
}

/// Most mismatches listed in the human table.
const LISTED: usize = 10;

fn write_table(
    out: &mut impl Write,
    args: &ScenArgs,
    map: &Path,
    settings: &SearchSettings,
    runs: &[Run],
    s: &Summary,
) -> std::io::Result<()> {
    writeln!(out, "{} on {}: {} scenarios", args.scen.display(), map.display(), s.scenarios)?;
    writeln!(out, "{settings}")?;
    writeln!(out, "  optimal        {:>8}", s.optimal)?;
    writeln!(out, "  suboptimal     {:>8}", s.suboptimal)?;
    writeln!(out, "  failed         {:>8}", s.failed)?;
    writeln!(out, "  mean expanded  {:>12.1}", s.mean_expanded)?;
    writeln!(out, "  mean µs/search {:>12.1}", s.mean_micros)?;
    writeln!(out, "  cost / optimal {:>12.4} mean, {:.4} worst", s.mean_ratio, s.worst_ratio)?;
    if settings.algorithm.jumps() {
        if s.ran_astar {
            writeln!(out, "  {}: {JUMPS_NEED}", settings.algorithm)?;
        } else {
            writeln!(out, "  grid data built in {:.1} µs", s.preprocess_micros)?;
        }
    }
    let misses: Vec<_> = runs.iter().enumerate().filter(|(_, r)| r.verdict != Verdict::Optimal).collect();
    for (i, r) in misses.iter().take(LISTED) {
        let sc = &r.scenario;
        let got = r.cost.map_or("no path".to_string(), |c| format!("{c:.8}"));
        writeln!(out, "  scenario {}: {} -> {} optimal {:.8}, got {got}", i + 1, sc.start, sc.goal, sc.optimal)?;
    }
    if misses.len() > LISTED {
        writeln!(out, "  ... and {} more", misses.len() - LISTED)?;
    }
    Ok(())
}
