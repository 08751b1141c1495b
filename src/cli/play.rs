//! `delve play`: the game in the terminal, optionally recorded.

use super::{CliError, SessionArgs};
use crate::signals::Signals;
use crate::ui::{self, Palette};
use std::io::IsTerminal;

/// Arguments of `delve play`.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// The session: level, seed, spawns, settings, recording.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// Runs `delve play` until the user quits. Everything that can fail on
/// input is checked before the terminal enters raw mode, so a bad level or
/// an existing record file is one line on a terminal left as it was. A
/// caught signal ends the session with the terminal restored and the
/// recording kept as an interrupted one ([`CliError::Interrupted`]).
pub fn play(args: &PlayArgs) -> Result<(), CliError> {
    let (start, mut world) = args.session.start()?;
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "delve play needs a terminal on stdout (try `delve sim` for a headless run)".into(),
        ));
    }
    let signals = Signals::catch()?;
    let mut feed = args.session.feed(&start)?;
    let played = ui::play(&mut world, feed.as_mut(), Palette::detect(), 1.0, &signals);
    if let Ok(Some(signal)) = played {
        return Err(CliError::Interrupted { signal, kept: feed.interrupt()? });
    }
    // However else the session ended, what was played is kept.
    let finished = feed.finish(&world);
    played?;
    Ok(finished?)
}
