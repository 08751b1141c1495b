//! `delve replay`: checks a recorded session headless.

use super::CliError;
use crate::replay::{Replay, verify};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `delve replay`.
#[derive(clap::Args, Clone, Debug)]
pub struct ReplayArgs {
    /// Replay file (written by `--record`)
    pub file: PathBuf,
    /// Re-run the session headless and compare every checkpoint
    #[arg(long)]
    pub verify: bool,
    /// Playback speed, from 0.1 to 100 times real time
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = parse_speed, conflicts_with = "verify")]
    pub speed: f64,
}

/// Slowest and fastest playback speeds.
const SPEEDS: std::ops::RangeInclusive<f64> = 0.1..=100.0;

fn parse_speed(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if SPEEDS.contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a speed from {} to {}", SPEEDS.start(), SPEEDS.end())),
    }
}

/// Runs `delve replay`: with `--verify`, prints the verdict and exits 0 when
/// every hash matches (also for an interrupted recording, whose verdict
/// says so) and 1 at the first mismatch; a file that cannot be used is an
/// error (exit 2).
pub fn replay(args: &ReplayArgs, out: &mut impl Write) -> Result<ExitCode, CliError> {
    if !args.verify {
        return Err(CliError::Usage(format!(
            "terminal playback is not in this build yet; check the file with `delve replay {} --verify`",
            args.file.display()
        )));
    }
    let replay = Replay::load(&args.file)?;
    let verdict = verify(&replay);
    writeln!(out, "{verdict}").map_err(|e| CliError::Usage(format!("cannot write the verdict: {e}")))?;
    Ok(if verdict.is_match() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
