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
    /// Play in the terminal (the campaign without a level): the default when no command is given
    Play(cli::PlayArgs),
    /// Run one search on a level and show the path and its statistics
    Path(cli::PathArgs),
    /// Run a Moving AI scenario file and check every cost against its optimum
    Scen(cli::ScenArgs),
    /// Run the world headless with a scripted player and print its statistics
    Sim(cli::SimArgs),
    /// Play a recorded session in the terminal, or check it headless with --verify
    Replay(cli::ReplayArgs),
}

fn main() -> ExitCode {
    let args = match Cli::try_parse() {
        Ok(args) => args,
        Err(e) => return usage_error(e),
    };
    // A bare `delve` plays the campaign with every default.
    let Some(command) = args.command.or_else(|| Cli::parse_from(["delve", "play"]).command) else {
        unreachable!("`delve play` parses as a command");
    };
    let done = |r: Result<(), cli::CliError>| r.map(|()| ExitCode::SUCCESS);
    match command {
        // The game draws on the terminal itself, not through a buffer.
        Command::Play(a) => finish(done(cli::play(&a)), Ok(())),
        Command::Path(a) => buffered(|out| done(cli::path(&a, out))),
        Command::Scen(a) => buffered(|out| done(cli::scen(&a, out))),
        Command::Sim(a) => buffered(|out| done(cli::sim(&a, out))),
        Command::Replay(a) => buffered(|out| cli::replay(&a, out)),
    }
}

/// Runs a command that writes its answer to a buffered stdout.
fn buffered(
    run: impl FnOnce(&mut io::BufWriter<io::StdoutLock<'static>>) -> Result<ExitCode, cli::CliError>,
) -> ExitCode {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = run(&mut out);
    let flushed = out.flush();
    finish(result, flushed)
}

/// The command's exit status, or 2 with its error as one line.
fn finish(result: Result<ExitCode, cli::CliError>, flushed: io::Result<()>) -> ExitCode {
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
    eprintln!("delve: {}", one_line(&e.render().to_string()));
    ExitCode::from(2)
}

/// Clap's message up to its first blank line (the usage and tip that
/// follow are for a terminal, not a log), folded into one line: "the
/// following required arguments were not provided: <FILE>".
fn one_line(text: &str) -> String {
    let head: Vec<&str> = text.lines().map(str::trim).take_while(|l| !l.is_empty()).collect();
    let joined = head.join(" ");
    let message = joined.trim_start_matches("error: ");
    if message.is_empty() { "invalid arguments".to_string() } else { message.to_string() }
}
