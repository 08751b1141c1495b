//! The `delve` binary: parses the command line and hands each subcommand to
//! its library function.

use clap::{Parser, Subcommand};
use delve::cli;
use std::io::{self, Write};
use std::process::ExitCode;

/// A terminal dungeon where monsters hunt you with throttled A* and
/// creatures move by Reynolds steering.
#[derive(Parser, Debug)]
#[command(name = "delve", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run one search on a level and show the path and its statistics
    Path(cli::PathArgs),
    /// Run a Moving AI scenario file and check every cost against its optimum
    Scen(cli::ScenArgs),
    /// Run the world headless with a scripted player and print its statistics
    Sim(cli::SimArgs),
    /// Check a recorded session: re-run it headless and compare every state hash
    Replay(cli::ReplayArgs),
}

fn main() -> ExitCode {
    let args = match Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return usage_error(e),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let done = ExitCode::SUCCESS;
    let result = match args.command {
        Some(Command::Path(a)) => cli::path(&a, &mut out).map(|()| done),
        Some(Command::Scen(a)) => cli::scen(&a, &mut out).map(|()| done),
        Some(Command::Sim(a)) => cli::sim(&a, &mut out).map(|()| done),
        Some(Command::Replay(a)) => cli::replay(&a, &mut out),
        None => match Cli::parse_from(["delve", "path", "--smooth"]).command {
            // Until the game lands, a bare `delve` shows a search on the default level.
            Some(Command::Path(a)) => cli::path(&a, &mut out).map(|()| done),
            _ => unreachable!("the literal arguments above parse as `path`"),
        },
    };
    let flushed = out.flush();
    match result {
        Ok(code) if flushed.is_ok() => code,
        Ok(_) => ExitCode::from(2),
        Err(e) => {
            eprintln!("delve: {e}");
            ExitCode::from(2)
        }
    }
}

/// Help and version print as clap formats them; a usage error is one line.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind::{DisplayHelp, DisplayHelpOnMissingArgumentOrSubcommand, DisplayVersion};
    if matches!(e.kind(), DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or("invalid arguments");
    eprintln!("delve: {}", first.trim_start_matches("error: "));
    ExitCode::from(2)
}
