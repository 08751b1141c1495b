//! The `delve` binary: the terminal game and its command line, built on the
//! `delve` library (feature `game`).
//!
//! `main` only parses the command line and hands each subcommand to its
//! function in [`cli`]. The binary's own modules (the subcommands, the
//! terminal front end, signal handling, escaping for the terminal) are not
//! part of the library: a library user compiles none of them, nor their
//! dependencies (ratatui, crossterm, clap, indicatif, signal-hook).

mod cli;
mod scores;
mod shown;
mod signals;
mod ui;

// The library's modules at the binary's root, so that the binary's modules
// name them `crate::sim::World` as they name their own.
use delve::{atomic, r#gen, grid, input, level, named, nav, number, picture, replay, rng, search, sim};
// Steering reaches the front end through the world; only a test names it.
#[cfg(test)]
use delve::steer;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use shown::shown;
use std::io::{self, Write};
use std::process::ExitCode;

/// A terminal dungeon where monsters hunt you with throttled A* and
/// creatures move by Reynolds steering.
#[derive(Parser, Debug)]
#[command(
    name = "delve",
    version,
    args_conflicts_with_subcommands = true,
    // The title screen's options are those of `delve play`: listed there.
    mut_args(|a| a.hide(true)),
    after_help = "Without a command, delve opens its title screen: a new descent, the campaign, the lab. It takes \
                  the options of `delve play` (see `delve play --help`) for the games it starts."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The options of the title screen's games.
    #[command(flatten)]
    title: cli::PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a level in the terminal, or the campaign without one
    Play(cli::PlayArgs),
    /// Run one search on a level and show the path and its statistics
    Path(cli::PathArgs),
    /// The search lab: place start, goal and walls, step searches side by side
    Lab(cli::LabArgs),
    /// Run a Moving AI scenario file and check every cost against its optimum
    Scen(cli::ScenArgs),
    /// Generate a dungeon (rooms, caves, maze, mixed) as a level, or as a Moving AI map and scenarios
    Gen(cli::GenArgs),
    /// Run the world headless with a scripted player and print its statistics
    Sim(cli::SimArgs),
    /// Play a recorded session in the terminal, or check it headless with --verify
    Replay(cli::ReplayArgs),
    /// Print the completion script of a shell for delve's commands, flags and settings
    Completions(cli::CompletionsArgs),
    /// Print the manual page (roff) of delve or of one of its commands
    Man(cli::ManArgs),
}

fn main() -> ExitCode {
    let parsed = Cli::command().try_get_matches().and_then(|m| Ok((Cli::from_arg_matches(&m)?, m)));
    let (args, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => return usage_error(e),
    };
    if let Some(e) = stdout::problem() {
        return finish(Err(cli::CliError::Output(e)));
    }
    let done = |r: Result<(), cli::CliError>| r.map(|()| ExitCode::SUCCESS);
    let Some(command) = args.command else {
        // A bare `delve` opens the title screen; `--seed` fixes the seed
        // of its descents (they get a fresh one each without it).
        let seed = (matches.value_source("seed") == Some(ValueSource::CommandLine)).then_some(args.title.session.seed);
        return finish(done(cli::title(&args.title, seed)));
    };
    match command {
        // The game draws on the terminal itself.
        Command::Play(a) => finish(done(cli::play(&a))),
        Command::Path(a) => to_stdout(|out| done(cli::path(&a, out))),
        Command::Lab(a) => finish(done(cli::lab(&a))),
        Command::Scen(a) => to_stdout(|out| done(cli::scen(&a, out))),
        Command::Gen(a) => to_stdout(|out| done(cli::generate(&a, out))),
        Command::Sim(a) => to_stdout(|out| done(cli::sim(&a, out))),
        Command::Replay(a) => to_stdout(|out| cli::replay(&a, out)),
        Command::Completions(a) => to_stdout(|out| done(cli::completions(&a, Cli::command(), out))),
        Command::Man(a) => to_stdout(|out| done(cli::man(&a, Cli::command(), out))),
    }
}

/// Runs a command that writes its answer to stdout. Stdout is
/// line-buffered, so every line is written as it is made: a failed write
/// (a full disk, a closed pipe) stops the command at the line that failed.
fn to_stdout(run: impl FnOnce(&mut io::StdoutLock<'static>) -> Result<ExitCode, cli::CliError>) -> ExitCode {
    let mut out = io::stdout().lock();
    let result = run(&mut out);
    let flushed = out.flush().map_err(cli::CliError::Output);
    finish(result.and_then(|code| flushed.map(|()| code)))
}

/// The command's exit status, or its error as one line on stderr and the
/// error's status (2, or 128 + a signal's number).
/// A closed stdout pipe is no error to the user (the reader has what it
/// wanted, as with `| head -1`): the command stops there, silently, with
/// status 0.
fn finish(result: Result<ExitCode, cli::CliError>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) if e.is_closed_pipe() => ExitCode::SUCCESS,
        Err(e) => fail(&e.to_string(), e.exit_status()),
    }
}

/// Prints `message` as one line, control characters escaped (a file name
/// may hold a newline or an escape sequence), and gives exit status
/// `status`. Nothing is left to do when stderr itself cannot be written.
fn fail(message: &str, status: u8) -> ExitCode {
    let _ = writeln!(io::stderr(), "delve: {}", shown(message));
    ExitCode::from(status)
}

/// Help and version print as clap formats them; a usage error is one line.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind::{DisplayHelp, DisplayHelpOnMissingArgumentOrSubcommand, DisplayVersion};
    if matches!(e.kind(), DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand) {
        if let Some(e) = stdout::problem() {
            return finish(Err(cli::CliError::Output(e)));
        }
        let printed = e.print().and_then(|()| io::stdout().flush());
        return finish(printed.map(|()| ExitCode::SUCCESS).map_err(cli::CliError::Output));
    }
    fail(&one_line(&e.render().to_string()), 2)
}
/// Clap's message up to its first blank line, folded into one line, and
/// its tips after it in parentheses: "unrecognized subcommand 'pth' (tip:
/// a similar subcommand exists: 'path')". The usage and the pointer to
/// `--help` that follow are for a terminal, not a log.
fn one_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim);
    let head: Vec<&str> = lines.by_ref().take_while(|l| !l.is_empty()).collect();
    let tips: Vec<&str> = lines.take_while(|l| !l.starts_with("Usage:")).filter(|l| l.starts_with("tip: ")).collect();
    let joined = head.join(" ");
    let message = joined.trim_start_matches("error: ");
    let message = if message.is_empty() { "invalid arguments" } else { message };
    if tips.is_empty() { message.to_string() } else { format!("{message} ({})", tips.join("; ")) }
}

/// Whether stdout can be written at all, asked before anything is done.
///
/// The standard library hides two ways it cannot: it reopens a stdout
/// closed at start (`delve path >&-`) on `/dev/null` before `main`, and
/// its stdout takes a write that fails with EBADF (a descriptor open only
/// for reading, `1</etc/hostname`) for a success. Either would run the
/// command and exit 0 with its answer nowhere, so both are found here and
/// refused as the write errors they are.
mod stdout {
    use std::fs::File;
    use std::io::{self, Write};
    use std::os::fd::AsFd;

    /// Why stdout cannot be written, if it cannot: closed at start, or a
    /// write of nothing to it fails (not open for writing, a full device).
    pub fn problem() -> Option<io::Error> {
        if closed_at_start::was() {
            return Some(closed_at_start::error());
        }
        // A copy of the descriptor, written to directly: no buffer, and
        // nothing of std's stdout that would hide the error.
        let copy = io::stdout().as_fd().try_clone_to_owned();
        copy.map(File::from).and_then(|mut out| out.write(&[])).err()
    }

    #[cfg(target_os = "linux")]
    mod closed_at_start {
        use std::io;
        use std::os::fd::AsFd;
        use std::sync::atomic::{AtomicBool, Ordering};

        static CLOSED: AtomicBool = AtomicBool::new(false);

        /// Runs before `main`, and before the standard library reopens a
        /// closed stdout: duplicating a closed descriptor fails.
        extern "C" fn look() {
            CLOSED.store(io::stdout().as_fd().try_clone_to_owned().is_err(), Ordering::Relaxed);
        }

        // SAFETY: `.init_array` holds plain `extern "C" fn()` pointers the
        // loader calls once before `main`; `look` only stores a flag.
        #[used]
        #[unsafe(link_section = ".init_array")]
        static LOOK: extern "C" fn() = look;

        pub fn was() -> bool {
            CLOSED.load(Ordering::Relaxed)
        }

        /// EBADF, what writing to a closed descriptor gives.
        pub fn error() -> io::Error {
            io::Error::from_raw_os_error(9)
        }
    }

    /// Elsewhere a closed stdout goes unseen, as the standard library has it.
    #[cfg(not(target_os = "linux"))]
    mod closed_at_start {
        pub fn was() -> bool {
            false
        }

        pub fn error() -> std::io::Error {
            std::io::ErrorKind::Other.into()
        }
    }
}
