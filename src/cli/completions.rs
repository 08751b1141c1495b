//! `delve completions SHELL`: the shell's completion script for delve's
//! commands, flags and the possible values of its settings.

use super::CliError;
use clap_complete::Shell;
use std::io::Write;

/// The arguments of `delve completions`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Load it in the running shell, e.g. for bash: source <(delve completions bash); \
                        docs/cli.md says where each shell keeps them for good.")]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Writes the completion script of `command` (delve's whole command line)
/// for the shell asked for to `out`. The script is made whole first, so
/// that a write that fails is an error like any other (clap_complete
/// panics on one).
pub fn completions(args: &CompletionsArgs, mut command: clap::Command, out: &mut impl Write) -> Result<(), CliError> {
    let mut script = Vec::new();
    let name = command.get_name().to_string();
    clap_complete::generate(args.shell, &mut command, name, &mut script);
    out.write_all(&script).map_err(CliError::Output)
}
