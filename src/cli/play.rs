//! `delve play`: the game in the terminal, optionally recorded. Without a
//! level it is the campaign: the shipped levels in order, the next one
//! offered when a level ends.

mod campaign;

pub use campaign::levels as campaign_levels;

use super::{CliError, SessionArgs, load_level};
use crate::level::Level;
use crate::replay::feed::{self, Feed};
use crate::signals::Signals;
use crate::ui::{self, Exit, Palette};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Arguments of `delve play`.
#[derive(clap::Args, Clone, Debug)]
#[command(mut_arg("level", |a| a.help("Level file: a delve level or a Moving AI map (default: the campaign, levels/campaign.txt)")))]
pub struct PlayArgs {
    /// The session: level, seed, spawns, settings, recording.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// Runs `delve play` until the user quits: one level, or the campaign
/// when no level is given. Everything that can fail on input is checked
/// before the terminal enters raw mode, so a bad level or an existing
/// record file is one line on a terminal left as it was. A caught signal
/// ends the session with the terminal restored and the recording kept as
/// an interrupted one ([`CliError::Interrupted`]).
///
/// With `--record FILE`, the first session goes to FILE and each one after
/// it (a retry, the next level) to FILE with `-2`, `-3`, ... before its
/// extension; one that cannot be recorded is played anyway and says so in
/// its log.
pub fn play(args: &PlayArgs) -> Result<(), CliError> {
    args.session.check_record()?;
    let levels = match &args.session.level {
        Some(path) => vec![load_level(Some(path))?],
        None => campaign::levels(),
    };
    let (start, _) = args.session.start_on(levels[0].clone())?;
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage(
            "delve play needs a terminal on stdout (try `delve sim` for a headless run)".into(),
        ));
    }
    let signals = Signals::catch()?;
    let mut first = Some(args.session.feed(&start)?);
    let mut terminal = ui::Terminal::open(Palette::detect(), 1.0, signals)?;
    let (mut index, mut number) = (0, 1);
    loop {
        let level = &levels[index];
        let (start, mut world) = args.session.start_on(level.clone())?;
        let mut notes = vec![intro(level)];
        let mut feed: Box<dyn Feed> = match first.take() {
            Some(feed) => feed,
            None => match args.session.record.as_deref().map(|path| numbered(path, number)) {
                Some(path) => feed::live(Some(&path), &start, args.session.force).unwrap_or_else(|e| {
                    notes.push(format!("not recorded: {e}"));
                    Box::new(feed::LiveFeed)
                }),
                None => Box::new(feed::LiveFeed),
            },
        };
        let session =
            ui::Session { world: &mut world, feed: feed.as_mut(), level, next_level: index + 1 < levels.len(), notes };
        let played = terminal.play(session);
        if let Ok(Exit::Signal(signal)) = played {
            return Err(CliError::Interrupted { signal, kept: feed.interrupt()? });
        }
        // However else the session ended, what was played is kept.
        let finished = feed.finish(&world);
        let exit = played?;
        finished?;
        match exit {
            Exit::Quit | Exit::Signal(_) => return Ok(()),
            Exit::Retry => {}
            Exit::Next => index = (index + 1).min(levels.len() - 1),
        }
        number += 1;
    }
}

/// The log's first line: the level and what it is about.
fn intro(level: &Level) -> String {
    if level.description.is_empty() { level.name.clone() } else { format!("{}: {}", level.name, level.description) }
}

/// Where the `number`th session of a recorded run goes: `path` itself for
/// the first, `stem-N.ext` beside it after that.
fn numbered(path: &Path, number: u32) -> PathBuf {
    if number <= 1 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{number}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{number}"),
    };
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_sessions_are_recorded_beside_the_first() {
        assert_eq!(numbered(Path::new("runs/a.jsonl"), 1), Path::new("runs/a.jsonl"));
        assert_eq!(numbered(Path::new("runs/a.jsonl"), 2), Path::new("runs/a-2.jsonl"));
        assert_eq!(numbered(Path::new("a"), 12), Path::new("a-12"));
        assert_eq!(numbered(Path::new("x.tar.gz"), 3), Path::new("x.tar-3.gz"));
    }
}
