//! `delve sim` given a list for a setting (`--repath
//! every-tick,incremental,flow-field`, `--algo astar,jps`): every
//! combination run in turn on the same level, seed, creatures and ticks,
//! and printed side by side, a row each: the search work, the expansions,
//! the re-keyed entries, a tick's wall and CPU time, the catches and the
//! outcome (the table of docs/performance.md). The runs share one thread
//! pool and run one after another, never at once, so that each one's
//! times are its own.

use super::super::progress::Progress;
use super::super::session::Variant;
use super::{CliError, SimArgs, Summary, run};
use crate::sim::{Kind, World, hex};
use serde_json::json;
use std::io::Write;

/// One row: the values of the compared flags, and how the run went.
struct Row {
    axes: Vec<(&'static str, String)>,
    world: World,
    summary: Summary,
}

/// Runs every variant for `args.ticks` ticks and writes the table, or
/// with `--json` one object a row (the single run's keys, plus `level`
/// and the setting of every flag a list may be given for).
pub fn compare(args: &SimArgs, variants: &[Variant], out: &mut impl Write) -> Result<(), CliError> {
    if args.session.record.is_some() {
        return Err(CliError::Usage(format!(
            "--record records one session, and a list of settings runs {} (record each with one value)",
            variants.len()
        )));
    }
    // Loaded once: standard input can be read only once.
    let (level, generator) = args.session.level_to_play()?;
    let name = args.session.level_shown(&level);
    let progress = Progress::on_stderr("ticks", args.ticks.saturating_mul(variants.len() as u64));
    let mut rows = Vec::with_capacity(variants.len());
    for (i, variant) in variants.iter().enumerate() {
        let before = args.ticks * i as u64;
        let on_tick = |done| progress.set(before + done);
        let (_, world, summary) = run(args, &variant.session, (level.clone(), generator), on_tick)?;
        rows.push(Row { axes: variant.axes.clone(), world, summary });
    }
    drop(progress);
    let written = if args.json {
        rows.iter().try_for_each(|row| writeln!(out, "{}", json_row(row, &name)))
    } else {
        write_table(out, args, &name, &rows)
    };
    written.map_err(CliError::Output)
}

/// A row as JSON: the summary of a single run, after `level` and the
/// settings a comparison can vary (`avoid` is among the summary's keys).
fn json_row(row: &Row, level: &str) -> serde_json::Value {
    let s = row.world.settings();
    let mut object = serde_json::Map::new();
    object.insert("level".into(), json!(level));
    object.insert("algo".into(), json!(s.planner().to_string()));
    object.insert("repath".into(), json!(s.repath.to_string()));
    object.insert("aim".into(), json!(s.aim.to_string()));
    object.insert("packs".into(), json!(s.packs.to_string()));
    object.insert("lost".into(), json!(s.lost.to_string()));
    if let serde_json::Value::Object(summary) = row.summary.json() {
        object.extend(summary);
    }
    serde_json::Value::Object(object)
}

/// The table's numeric columns: heading and width.
const COLUMNS: [(&str, usize); 11] = [
    ("searches", 10),
    ("expanded", 12),
    ("updated", 10),
    ("rekeyed", 10),
    ("stale pops", 12),
    ("work/tick", 10),
    ("search ms", 10),
    ("wall ms", 9),
    ("cpu ms", 8),
    ("catches", 8),
    ("outcome", 16),
];

fn write_table(out: &mut impl Write, args: &SimArgs, level: &str, rows: &[Row]) -> std::io::Result<()> {
    let first = &rows[0];
    writeln!(out, "{level}: {} ticks, seed {}, {} runs one after another", args.ticks, args.session.seed, rows.len())?;
    let compared: Vec<String> = first.axes.iter().map(|(flag, _)| format!("--{flag}")).collect();
    let s = first.world.settings();
    let smoothing = if s.smoothing { "on" } else { "off" };
    writeln!(
        out,
        "settings of the first row: {}, repath {}, smoothing {smoothing}, avoid {}; each row sets {}",
        s.search,
        s.repath,
        s.avoidance,
        compared.join(", ")
    )?;
    let counts = first.world.counts();
    let agents: Vec<String> = Kind::ALL.iter().map(|&k| format!("{} {}", counts[k as usize], k)).collect();
    writeln!(out, "creatures: {}", agents.join(", "))?;
    writeln!(
        out,
        "work: expanded + cells updated + rekeyed, per tick; search ms, wall ms, cpu ms: per tick (cpu: the process's, all threads)"
    )?;
    // The compared flags' columns, each as wide as its widest value.
    let widths: Vec<usize> = (0..first.axes.len())
        .map(|i| rows.iter().map(|r| r.axes[i].1.len()).chain([first.axes[i].0.len()]).max().unwrap_or(0))
        .collect();
    let mut heading = String::new();
    for ((flag, _), width) in first.axes.iter().zip(&widths) {
        heading += &format!("{flag:<width$}  ");
    }
    for (name, width) in COLUMNS {
        heading += &format!("{name:>width$}");
    }
    writeln!(out, "{}  hash", heading.trim_end())?;
    for row in rows {
        let t = &row.summary.total;
        let ticks = row.summary.ticks;
        let per_tick = |x: f64| if ticks == 0 { 0.0 } else { x / ticks as f64 };
        let outcome = match row.summary.ended_at {
            Some(at) => format!("{} at {at}", row.summary.outcome.name()),
            None => row.summary.outcome.name().to_string(),
        };
        let cells = [
            grouped(t.searches),
            grouped(t.expanded),
            grouped(t.cells_updated),
            grouped(t.rekeyed),
            grouped(t.stale_pops),
            format!("{:.1}", per_tick(t.work() as f64)),
            format!("{:.3}", per_tick(t.micros / 1000.0)),
            format!("{:.3}", t.wall_ms_per_tick()),
            format!("{:.3}", t.cpu_ms_per_tick()),
            grouped(t.catches),
            outcome,
        ];
        let mut line = String::new();
        for ((_, value), width) in row.axes.iter().zip(&widths) {
            line += &format!("{value:<width$}  ");
        }
        for (cell, (_, width)) in cells.iter().zip(COLUMNS) {
            line += &format!("{cell:>width$}");
        }
        writeln!(out, "{line}  {}", hex(row.summary.hash))?;
    }
    Ok(())
}

/// A count with its thousands grouped by commas, as the tables in the
/// docs have them: `1,769,029`.
fn grouped(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0u64), "0");
        assert_eq!(grouped(999u64), "999");
        assert_eq!(grouped(1000u64), "1,000");
        assert_eq!(grouped(1_769_029u64), "1,769,029");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }
}
