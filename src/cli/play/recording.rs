//! Where a run's sessions are recorded: the first to `--record FILE`,
//! each later one (a retry, the next level, the next depth, a later game
//! from the title screen) beside it, to FILE with `-2`, `-3`, ... before
//! its extension, stepping over names already taken.

use super::Said;
use crate::cli::CliError;
use crate::replay::feed::{self, Feed, RecordFeed};
use crate::replay::{Recorder, Start, partials};
use std::path::{Path, PathBuf};

/// Names tried for one later session's recording before giving up.
const NAME_TRIES: u32 = 1000;

/// The recording of a run, session after session.
pub struct Recording {
    /// `--record`'s FILE, if recording.
    path: Option<PathBuf>,
    force: bool,
    /// The number the next session's name is tried with.
    number: u32,
    /// The first session's feed, made before the terminal was taken (so
    /// that a target that cannot be written is refused on a terminal left
    /// as it was).
    first: Option<Box<dyn Feed>>,
}

impl Recording {
    /// Recording to `path` (or not, without one), starting with `first`
    /// when that is made already.
    pub fn new(path: Option<&Path>, force: bool, first: Option<Box<dyn Feed>>) -> Recording {
        Recording { path: path.map(Path::to_path_buf), force, number: 1, first }
    }

    /// The feed of the next session, which starts as `start`: recorded to
    /// the next free name. Where that is not the number asked for, the
    /// session's log and stderr at exit (`said`) name it; a session that
    /// cannot be recorded is played anyway, and they say that.
    pub fn next(&mut self, start: &Start, notes: &mut Vec<String>, said: &mut Said) -> Box<dyn Feed> {
        let number = self.number;
        self.number += 1;
        if let Some(feed) = self.first.take() {
            return feed;
        }
        let Some(path) = &self.path else { return Box::new(feed::LiveFeed) };
        match record_next(path, number, start, self.force) {
            Ok(next) => {
                self.number = next.number + 1;
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
        }
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
    use crate::level::Level;
    use crate::replay::Replay;

    fn start() -> Start {
        Start {
            level: Level::embedded_default(),
            seed: 1,
            settings: Default::default(),
            spawns: Default::default(),
            rules: Default::default(),
            generator: None,
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
