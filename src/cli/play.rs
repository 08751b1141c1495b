//! `delve play`: the game in the terminal, optionally recorded. Without a
//! level it is the campaign: the shipped levels in order, the next one
//! offered when a level ends.

mod campaign;

pub use campaign::levels as campaign_levels;

use super::{CliError, SessionArgs, load_level};
use crate::level::Level;
use crate::replay::feed::{self, Feed, RecordFeed};
use crate::replay::{Recorder, Start, partials};
use crate::shown::shown;
use crate::signals::Signals;
use crate::ui::{self, Exit, Palette, Played};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Arguments of `delve play`.
#[derive(clap::Args, Clone, Debug)]
#[command(mut_arg("level", |a| a.help("Level file: a delve level or a Moving AI map (default: the campaign, levels/campaign.txt)")))]
pub struct PlayArgs {
    /// The session: level, seed, spawns, settings, recording.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// Names tried for one later session's recording before giving up.
const NAME_TRIES: u32 = 1000;

/// Runs `delve play` until the user quits: one level, or the campaign
/// when no level is given. Everything that can fail on input is checked
/// before the terminal enters raw mode, so a bad level or an existing
/// record file is one line on a terminal left as it was. A caught signal
/// or a hangup ends the session with the terminal restored and the
/// recording kept as an interrupted one ([`CliError::Interrupted`],
/// [`CliError::HungUp`]).
///
/// With `--record FILE`, the first session goes to FILE and each one after
/// it (a retry, the next level) to FILE with `-2`, `-3`, ... before its
/// extension, stepping over names already taken (by a file, or the partial
/// file of an unfinished recording) unless `--force` is given; the log
/// says where a session is recorded when it is not the next number, and
/// so does stderr at exit. A session that cannot be recorded at all is
/// played anyway, says so in its log, and at exit on stderr with status 2.
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
    let first = args.session.feed(&start)?;
    let mut sessions = ui::Sessions::open(Palette::detect(), 1.0, signals)?;
    let mut said = Said::default();
    let result = run(args, &levels, first, &mut sessions, &mut said);
    // The terminal is restored before anything is said on stderr.
    drop(sessions);
    let mut stderr = std::io::stderr();
    for line in &said.lines {
        let _ = writeln!(stderr, "delve: {}", shown(line));
    }
    match (result, said.unrecorded) {
        (Ok(()), 1) => Err(CliError::Usage("a session of this run was not recorded (see above)".into())),
        (Ok(()), n @ 2..) => Err(CliError::Usage(format!("{n} sessions of this run were not recorded (see above)"))),
        (result, _) => result,
    }
}

/// What `play` says on stderr once the terminal is restored.
#[derive(Default)]
struct Said {
    lines: Vec<String>,
    /// Sessions that could not be recorded, which make the exit status 2.
    unrecorded: usize,
}

/// The sessions of one run, one after another, until one ends the run.
fn run(
    args: &PlayArgs,
    levels: &[Level],
    first: Box<dyn Feed>,
    sessions: &mut ui::Sessions,
    said: &mut Said,
) -> Result<(), CliError> {
    let mut first = Some(first);
    let (mut index, mut number) = (0, 1);
    loop {
        let level = &levels[index];
        let (start, world) = args.session.start_on(level.clone())?;
        let mut notes = vec![intro(level)];
        let mut feed: Box<dyn Feed> = match (first.take(), args.session.record.as_deref()) {
            (Some(feed), _) => feed,
            (None, Some(path)) => match record_next(path, number, &start, args.session.force) {
                Ok(next) => {
                    number = next.number;
                    if let Some(note) = next.note {
                        notes.push(note.clone());
                        said.lines.push(note);
                    }
                    next.feed
                }
                Err(e) => {
                    let note = format!("session {number} is not recorded: {e}");
                    notes.push(note.clone());
                    said.lines.push(note);
                    said.unrecorded += 1;
                    Box::new(feed::LiveFeed)
                }
            },
            (None, None) => Box::new(feed::LiveFeed),
        };
        let session = ui::Session { world, feed: feed.as_mut(), level, next_level: index + 1 < levels.len(), notes };
        let Played { exit, world } = sessions.play(session);
        let exit = match (exit, world) {
            (Ok(Exit::Stopped(stop)), _) => return Err(CliError::stopped(stop, feed.interrupt()?)),
            // However else the session ended, what was played is kept.
            (exit, Some(world)) => {
                let finished = feed.finish(&world);
                let exit = exit?;
                finished?;
                exit
            }
            // Left while a tick ran: everything before it is kept, as an
            // interrupted recording.
            (exit, None) => {
                if let Some(kept) = feed.interrupt()? {
                    let kept = kept.display();
                    said.lines.push(format!(
                        "quit while a tick ran; the recording so far is in {kept} (`delve replay {kept} --verify` checks it)"
                    ));
                }
                exit?
            }
        };
        match exit {
            Exit::Quit | Exit::Stopped(_) => return Ok(()),
            Exit::Retry => {}
            Exit::Next => index = (index + 1).min(levels.len() - 1),
        }
        number += 1;
    }
}

/// A later session's recording, as [`record_next`] starts it.
struct Next {
    feed: Box<dyn Feed>,
    /// The number its name has.
    number: u32,
    /// What to say when that is not the number asked for.
    note: Option<String>,
}

/// The recording of a later session of a run: to [`numbered`]`(path,
/// number)`, or, when that name is taken (a file is there, or the partial
/// file of an unfinished recording to it) and `force` is not given, to the
/// next number whose name is free.
fn record_next(path: &Path, number: u32, start: &Start, force: bool) -> Result<Next, CliError> {
    let taken = |p: &Path| !force && (p.symlink_metadata().is_ok() || partials(p).is_ok_and(|found| !found.is_empty()));
    let Some(used) = (number..number.saturating_add(NAME_TRIES)).find(|&n| !taken(&numbered(path, n))) else {
        let (first, last) = (numbered(path, number), numbered(path, number + NAME_TRIES - 1));
        return Err(CliError::Usage(format!(
            "{} to {} are all taken (pass --force to overwrite)",
            first.display(),
            last.display()
        )));
    };
    let target = numbered(path, used);
    let feed = Box::new(RecordFeed::new(Recorder::create(&target, start, force)?));
    let note = (used != number).then(|| {
        let taken = match used - number {
            1 => format!("{} is taken", numbered(path, number).display()),
            _ => format!("{} to {} are taken", numbered(path, number).display(), numbered(path, used - 1).display()),
        };
        format!("this session is recorded to {} ({taken})", target.display())
    });
    Ok(Next { feed, number: used, note })
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
    use crate::replay::Replay;

    fn start() -> Start {
        Start {
            level: Level::embedded_default(),
            seed: 1,
            settings: Default::default(),
            spawns: Default::default(),
            rules: Default::default(),
        }
    }

    /// Records a session through `record_next` and ends it; the number
    /// and the note.
    fn record(path: &Path, number: u32, force: bool) -> Result<(u32, Option<String>), CliError> {
        let mut next = record_next(path, number, &start(), force)?;
        next.feed.finish(&start().world().unwrap()).unwrap();
        Ok((next.number, next.note))
    }

    #[test]
    fn a_retry_steps_over_taken_names_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("taken.jsonl");
        let name = |n| numbered(&path, n).display().to_string();
        // Free: the number asked for, nothing to say.
        assert_eq!(record(&path, 2, false).unwrap(), (2, None));
        // Taken by the session before, by a file, by an unfinished
        // recording's partial file: the next free one.
        std::fs::write(numbered(&path, 4), "precious").unwrap();
        std::fs::write(dir.path().join(".taken-5.jsonl.999.0.partial"), "{}").unwrap();
        let (used, note) = record(&path, 2, false).unwrap();
        assert_eq!(used, 3);
        assert_eq!(note.unwrap(), format!("this session is recorded to {} ({} is taken)", name(3), name(2)));
        let (used, note) = record(&path, 4, false).unwrap();
        assert_eq!(used, 6);
        assert_eq!(
            note.unwrap(),
            format!("this session is recorded to {} ({} to {} are taken)", name(6), name(4), name(5))
        );
        assert_eq!(std::fs::read_to_string(numbered(&path, 4)).unwrap(), "precious");
        // With --force the name asked for is overwritten.
        assert_eq!(record(&path, 4, true).unwrap(), (4, None));
        assert!(Replay::load(&numbered(&path, 4)).is_ok());
    }

    #[test]
    fn a_retry_with_every_name_taken_is_not_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("full.jsonl");
        for n in 2..2 + NAME_TRIES {
            std::fs::write(numbered(&path, n), "").unwrap();
        }
        let e = record(&path, 2, false).unwrap_err().to_string();
        let (first, last) = (numbered(&path, 2), numbered(&path, 1 + NAME_TRIES));
        assert_eq!(e, format!("{} to {} are all taken (pass --force to overwrite)", first.display(), last.display()));
        // A directory that is gone is no name to step over.
        let gone = dir.path().join("gone").join("x.jsonl");
        assert!(matches!(record(&gone, 2, false), Err(CliError::Record(_))));
    }

    #[test]
    fn later_sessions_are_recorded_beside_the_first() {
        assert_eq!(numbered(Path::new("runs/a.jsonl"), 1), Path::new("runs/a.jsonl"));
        assert_eq!(numbered(Path::new("runs/a.jsonl"), 2), Path::new("runs/a-2.jsonl"));
        assert_eq!(numbered(Path::new("a"), 12), Path::new("a-12"));
        assert_eq!(numbered(Path::new("x.tar.gz"), 3), Path::new("x.tar-3.gz"));
    }
}
