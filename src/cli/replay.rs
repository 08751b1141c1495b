//! `delve replay`: plays a recorded session in the terminal, or checks it
//! headless.

use super::progress::Progress;
use super::{CliError, ColorArgs, ThreadsArgs, input_name, is_stdin};
use crate::replay::feed::ReplayFeed;
use crate::replay::{Replay, ReplayError, verify_watched};
use crate::signals::Signals;
use crate::ui::{self, Exit, SPEED_RANGE};
use std::io::IsTerminal;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `delve replay`.
#[derive(clap::Args, Clone, Debug)]
pub struct ReplayArgs {
    /// Replay file (written by `--record`), or - for standard input with --verify
    pub file: PathBuf,
    /// Re-run the session headless and compare every checkpoint
    #[arg(long)]
    pub verify: bool,
    /// With --verify: print the verdict as one JSON object
    #[arg(long, requires = "verify")]
    pub json: bool,
    /// Playback speed, from 0.25 to 8 times real time (played at the
    /// nearest of ¼ ½ 1 2 4 8, which + and - then change)
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = parse_speed, conflicts_with = "verify", allow_hyphen_values = true)]
    pub speed: f64,
    /// Colour or not.
    #[command(flatten)]
    pub color: ColorArgs,
    /// Capture the mouse, as `play --mouse` does (`M` toggles it); a
    /// replay takes no travel, so a click on a cell is refused as the
    /// travel keys are. While captured the terminal's text selection needs
    /// Shift
    #[arg(long)]
    pub mouse: bool,
    /// How many threads the crowd runs on.
    #[command(flatten)]
    pub threads: ThreadsArgs,
}

fn parse_speed(s: &str) -> Result<f64, String> {
    let what = format!("a speed from {} to {}", SPEED_RANGE.start(), SPEED_RANGE.end());
    super::options::decimal(s, SPEED_RANGE, &what)
}

/// Runs `delve replay`. Without `--verify`, plays the session in the
/// terminal (player keys ignored; pause, single tick, speed, overlays,
/// seeks and the panel work), stops at its last tick and shows the end
/// screen of a session that was won or lost; a signal or a hangup ends it
/// with its status. With `--verify`, prints the
/// verdict and exits 0 when every hash matches (also for an interrupted
/// recording, whose verdict says so) and 1 at the first mismatch. A file
/// that cannot be used is an error (exit 2).
pub fn replay(args: &ReplayArgs, out: &mut impl Write) -> Result<ExitCode, CliError> {
    args.threads.install()?;
    let replay = if is_stdin(&args.file) {
        if !args.verify {
            return Err(CliError::Usage(
                "-: playing a replay reads its keys from the terminal, so it cannot read the replay from standard \
                 input (`delve replay - --verify` checks one from there)"
                    .into(),
            ));
        }
        let text = crate::input::read_stdin(crate::replay::MAX_REPLAY_BYTES).map_err(ReplayError::from)?;
        Replay::parse(&text, crate::input::STDIN)?
    } else {
        Replay::load(&args.file)?
    };
    if !args.verify {
        if !std::io::stdout().is_terminal() {
            return Err(CliError::Usage(format!(
                "playing a replay needs a terminal on stdout (check it headless with `delve replay {} --verify`)",
                args.file.display()
            )));
        }
        let signals = Signals::catch()?;
        let session = ui::Session {
            world: replay.world(),
            feed: &mut ReplayFeed::new(&replay),
            level: &replay.start().level,
            stakes: ui::Stakes { retry: false, ..ui::Stakes::default() },
            notes: Vec::new(),
        };
        return match ui::play(session, args.color.palette(), args.speed, args.mouse, signals)?.exit? {
            Exit::Stopped(stop) => Err(CliError::stopped(stop, None)),
            Exit::Quit | Exit::Retry | Exit::Next => Ok(ExitCode::SUCCESS),
        };
    }
    let progress = Progress::on_stderr("ticks", replay.last_tick().unwrap_or(0));
    let verdict = verify_watched(&replay, |tick| progress.set(tick));
    drop(progress);
    let code = if verdict.is_match() { ExitCode::SUCCESS } else { ExitCode::FAILURE };
    let written = if args.json {
        let mut object = serde_json::Map::new();
        object.insert("file".into(), serde_json::json!(input_name(&args.file).to_string_lossy()));
        if let serde_json::Value::Object(fields) = verdict.json(&replay) {
            object.extend(fields);
        }
        writeln!(out, "{}", serde_json::Value::Object(object))
    } else {
        writeln!(out, "{verdict}")
    };
    match written.map_err(CliError::Output) {
        // The status is the verdict too: a closed pipe does not turn a
        // mismatch into a success.
        Err(e) if !e.is_closed_pipe() => Err(e),
        _ => Ok(code),
    }
}
