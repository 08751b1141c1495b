//! `delve man [COMMAND]`: the manual page, in roff, made by clap_mangen
//! from the same command line as `--help` (so it never lags behind it).

use super::CliError;
use std::io::Write;

/// The arguments of `delve man`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Read it with: delve man | man -l -   Install it with: \
                        delve man > ~/.local/share/man/man1/delve.1 (and delve man play > .../delve-play.1, ...)")]
pub struct ManArgs {
    /// The command whose page to write, as delve-COMMAND(1) (default:
    /// delve(1), which lists every command)
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Writes the manual page of `command` (delve's whole command line), or
/// of the subcommand asked for, to `out`. The page is made whole first,
/// so that nothing is written for a command that does not exist.
pub fn man(args: &ManArgs, command: clap::Command, out: &mut impl Write) -> Result<(), CliError> {
    // As clap_mangen's own generate_to: no `help` command in the pages,
    // and each subcommand named `delve-NAME` (set by `build`).
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let page = match &args.command {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
                return Err(CliError::Usage(format!("unknown command '{name}' (the commands: {})", names.join(", "))));
            }
        },
    };
    let mut roff = Vec::new();
    // Every page says which delve it documents (a subcommand has no version of its own).
    let source = format!("delve {}", env!("CARGO_PKG_VERSION"));
    clap_mangen::Man::new(page).source(source).render(&mut roff).map_err(CliError::Output)?;
    out.write_all(&roff).map_err(CliError::Output)
}
