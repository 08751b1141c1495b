//! The descent's high-score table: one file, `scores.json`, in the user's
//! data directory ([`data_dir`]: `$DELVE_DATA_DIR`, else
//! `$XDG_DATA_HOME/delve`, else `~/.local/share/delve`).
//!
//! The file is written whole or not at all, through the shared atomic
//! writer, after reading it again (so that two games finishing one after
//! the other both keep their scores). A table that cannot be read as one
//! (cut short, edited by hand, written by a newer delve) is never a crash
//! and never lost silently: it is renamed aside (`scores.json.damaged`,
//! then `.damaged-2`, ...), the player is told once where it went, and a
//! new table is started. One that cannot be moved aside, or a path that
//! is not a file at all, is left alone and no score is written over it in
//! this run (the player is told that too).

use crate::atomic;
use crate::input::{Limit, ReadError, read_text};
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

/// The environment variable naming the directory the table is kept in,
/// before the XDG defaults: what the tests set, so that they never touch a
/// player's own table.
pub const DATA_DIR_VAR: &str = "DELVE_DATA_DIR";

/// The table's file name in the data directory.
const FILE_NAME: &str = "scores.json";

/// The version of the file's shape, its first key: a table another version
/// wrote is set aside rather than misread.
const FORMAT: u32 = 1;

/// Scores kept in the file, best first.
pub const KEPT: usize = 100;

/// The largest table read: far above what [`KEPT`] scores take (about 150
/// bytes each).
const LIMIT: Limit = Limit { bytes: 1 << 20, what: "a high-score table (1 MiB)" };

/// How a descent ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// Caught with no life left (permadeath).
    Died,
    /// The player quit it.
    Quit,
    /// Every depth won, down to the deepest.
    Won,
}

/// One descent in the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Score {
    /// The descent's seed: the same seed gives the same depths.
    pub seed: u64,
    /// The depth it ended at.
    pub depth: u32,
    /// The depths won.
    pub cleared: u32,
    /// Game time over the whole descent, in ticks.
    pub ticks: u64,
    /// Catches over the whole descent.
    pub catches: u64,
    /// How it ended.
    pub end: End,
    /// The day it ended, UTC, `YYYY-MM-DD`.
    pub date: String,
}

impl Score {
    /// Better first: more depths won, then less game time, then fewer
    /// catches.
    fn rank_key(&self) -> (std::cmp::Reverse<u32>, u64, u64) {
        (std::cmp::Reverse(self.cleared), self.ticks, self.catches)
    }

    /// What no descent can have ended as.
    fn problem(&self) -> Option<String> {
        if self.depth == 0 || self.cleared > self.depth {
            return Some(format!("depth {} with {} depths won", self.depth, self.cleared));
        }
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let parts: Vec<&str> = self.date.split('-').collect();
        if !matches!(parts[..], [y, m, d] if y.len() == 4 && m.len() == 2 && d.len() == 2 && parts.iter().all(|p| digits(p)))
        {
            return Some(format!("date {:?} is not YYYY-MM-DD", self.date));
        }
        None
    }
}

/// The file as written.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    delve_scores: u32,
    scores: Vec<Score>,
}

/// The table, and what the player must be told about it.
#[derive(Debug)]
pub struct Table {
    /// Where it is kept: `None` without a data directory.
    path: Option<PathBuf>,
    /// Best first.
    scores: Vec<Score>,
    /// Whether a new score may be written to `path` (nothing unreadable
    /// that could not be set aside is in the way).
    writable: bool,
    /// What the player has not been told yet.
    notices: Vec<String>,
}

impl Table {
    /// The table in the user's data directory (see [`data_dir`]).
    pub fn open() -> Table {
        match data_dir(|name| std::env::var_os(name)) {
            Some(dir) => Table::load(dir.join(FILE_NAME)),
            None => Table {
                path: None,
                scores: Vec::new(),
                writable: false,
                notices: vec![format!(
                    "no high-score table: set {DATA_DIR_VAR}, XDG_DATA_HOME or HOME to keep one (scores of this run are not kept)"
                )],
            },
        }
    }

    /// The table at `path`: empty when there is no file yet; a damaged one
    /// set aside with a notice.
    pub fn load(path: PathBuf) -> Table {
        let mut table = Table { path: Some(path.clone()), scores: Vec::new(), writable: true, notices: Vec::new() };
        match read(&path) {
            Ok(scores) => table.scores = scores,
            Err(Problem::Missing) => {}
            Err(Problem::Unreadable(why)) => {
                table.writable = false;
                table.notices.push(format!("{why}: scores of this run are not kept"));
            }
            Err(Problem::Damaged(why)) => match keep_aside(&path) {
                Ok(aside) => table.notices.push(format!(
                    "the high-score table {} was damaged ({why}); it is kept as {} and a new one is started",
                    path.display(),
                    aside.display()
                )),
                Err(e) => {
                    table.writable = false;
                    table.notices.push(format!(
                        "the high-score table {} is damaged ({why}) and could not be set aside ({e}): it is left as it is, and scores of this run are not kept",
                        path.display()
                    ));
                }
            },
        }
        table
    }

    /// Where the table is kept, if anywhere.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The scores, best first.
    pub fn scores(&self) -> &[Score] {
        &self.scores
    }

    /// What the player is to be told (once: they are taken).
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Adds `score` and writes the table (read again first, so that a score
    /// another game wrote meanwhile stays); its place, from 0, or `None`
    /// when it is below the [`KEPT`] best. A table that cannot be written
    /// keeps the score for this run and says so in a notice; the result is
    /// whether it was written.
    pub fn add(&mut self, score: Score) -> (Option<usize>, bool) {
        if self.writable
            && let Some(path) = self.path.clone()
        {
            let again = Table::load(path);
            self.notices.extend(again.notices);
            self.writable = again.writable;
            if again.writable {
                self.scores = again.scores;
            }
        }
        let at = self.scores.partition_point(|s| s.rank_key() <= score.rank_key());
        self.scores.insert(at, score);
        self.scores.truncate(KEPT);
        let place = (at < KEPT).then_some(at);
        let written = match (&self.path, self.writable) {
            (Some(path), true) => match write(path, &self.scores) {
                Ok(()) => true,
                Err(e) => {
                    self.notices.push(format!("the score could not be saved: {e}"));
                    false
                }
            },
            _ => {
                self.notices.push("the score is not saved (see above)".to_string());
                false
            }
        };
        (place, written)
    }
}

/// The directory the table is kept in, from the environment `var` reads:
/// `$DELVE_DATA_DIR`; else `$XDG_DATA_HOME/delve` when that is an absolute
/// path (the XDG rule: a relative one is ignored); else
/// `$HOME/.local/share/delve`; `None` without any of them.
pub fn data_dir(var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = set(DATA_DIR_VAR) {
        return Some(dir);
    }
    if let Some(xdg) = set("XDG_DATA_HOME").filter(|p| p.is_absolute()) {
        return Some(xdg.join("delve"));
    }
    set("HOME").map(|home| home.join(".local/share/delve"))
}

/// Why a table could not be read.
enum Problem {
    /// There is none yet.
    Missing,
    /// Something that is no table file, or cannot be read (a directory, no
    /// permission): left alone.
    Unreadable(String),
    /// A file that is no table: set aside.
    Damaged(String),
}

fn read(path: &Path) -> Result<Vec<Score>, Problem> {
    let text = read_text(path, LIMIT).map_err(|e| match e {
        ReadError::Io { io, .. } if io.kind() == io::ErrorKind::NotFound => Problem::Missing,
        e @ (ReadError::Io { .. } | ReadError::NotAFile { .. }) => Problem::Unreadable(e.to_string()),
        ReadError::TooLarge { bytes, .. } => Problem::Damaged(format!("{bytes} bytes, more than a table can be")),
        ReadError::Overflows { limit, .. } => {
            Problem::Damaged(format!("more than {} bytes a table can be", limit.bytes))
        }
        ReadError::NotUtf8 { line, offset, .. } => {
            Problem::Damaged(format!("not UTF-8 text at line {line}, byte offset {offset}"))
        }
    })?;
    let file: TableFile = serde_json::from_str(&text).map_err(|e| Problem::Damaged(e.to_string()))?;
    if file.delve_scores != FORMAT {
        return Err(Problem::Damaged(format!("format {} where this delve writes {FORMAT}", file.delve_scores)));
    }
    if let Some((n, problem)) = file.scores.iter().enumerate().find_map(|(n, s)| Some((n, s.problem()?))) {
        return Err(Problem::Damaged(format!("score {}: {problem}", n + 1)));
    }
    let mut scores = file.scores;
    scores.sort_by_key(Score::rank_key);
    scores.truncate(KEPT);
    Ok(scores)
}

/// Writes `scores` to `path`, creating its directory first.
fn write(path: &Path, scores: &[Score]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let file = TableFile { delve_scores: FORMAT, scores: scores.to_vec() };
    atomic::write_whole(path, true, "the high-score table", |out| {
        serde_json::to_writer_pretty(&mut *out, &file)?;
        out.write_all(b"\n")
    })
    .map_err(|e| e.to_string())
}

/// Renames the damaged table at `path` to the first free name of
/// `NAME.damaged`, `NAME.damaged-2`, ...: linked to it (which fails if it
/// is taken) and then unlinked, so that nothing is ever renamed over.
fn keep_aside(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().unwrap_or_default().to_os_string();
    for n in 1..=1000 {
        let mut aside = name.clone();
        aside.push(if n == 1 { ".damaged".to_string() } else { format!(".damaged-{n}") });
        let aside = path.with_file_name(aside);
        match std::fs::hard_link(path, &aside) {
            Ok(()) => {
                std::fs::remove_file(path)?;
                return Ok(aside);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            // A file system without hard links: rename, as the name is free.
            Err(_) if std::fs::symlink_metadata(&aside).is_err() => {
                std::fs::rename(path, &aside)?;
                return Ok(aside);
            }
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, "1000 names for damaged tables are taken"))
}

/// Today's date, UTC, `YYYY-MM-DD` (the wall clock: this is a record for
/// the player, not the world).
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil(secs / 86_400);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(cleared: u32, ticks: u64) -> Score {
        let end = End::Died;
        Score { seed: 7, depth: cleared + 1, cleared, ticks, catches: 3, end, date: "2025-03-04".into() }
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn scores_are_ranked_and_kept_across_runs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("delve").join(FILE_NAME);
        let mut table = Table::load(path.clone());
        assert!(table.scores().is_empty() && table.take_notices().is_empty(), "no file yet: an empty table");
        assert_eq!(table.add(score(2, 900)), (Some(0), true), "the directory is made");
        assert_eq!(table.add(score(5, 4000)), (Some(0), true), "more depths won rank first");
        assert_eq!(table.add(score(2, 800)), (Some(1), true), "then less time");
        assert_eq!(table.add(score(2, 800)), (Some(2), true), "an equal score goes after the earlier one");
        let again = Table::load(path.clone());
        assert_eq!(again.scores(), table.scores());
        let ranks: Vec<(u32, u64)> = again.scores().iter().map(|s| (s.cleared, s.ticks)).collect();
        assert_eq!(ranks, [(5, 4000), (2, 800), (2, 800), (2, 900)]);
        // A score another game wrote meanwhile stays.
        let mut other = Table::load(path.clone());
        other.add(score(9, 1));
        assert_eq!(table.add(score(0, 5)).0, Some(5));
        assert_eq!(Table::load(path.clone()).scores().len(), 6);
        assert!(table.take_notices().is_empty());
        assert_eq!(names(path.parent().unwrap()), [FILE_NAME], "no partial file left");
    }

    #[test]
    fn only_the_best_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut table = Table::load(dir.path().join(FILE_NAME));
        for t in 0..KEPT as u64 {
            table.add(score(1, 100 + t));
        }
        assert_eq!(table.add(score(1, 10_000)), (None, true), "below the kept best");
        assert_eq!(table.add(score(1, 1)), (Some(0), true));
        assert_eq!(Table::load(dir.path().join(FILE_NAME)).scores().len(), KEPT);
    }

    /// A damaged table is set aside, said once, and a new one started; the
    /// damaged file is kept byte for byte, under a name no later damage
    /// overwrites.
    #[test]
    fn a_damaged_table_is_kept_aside_and_a_new_one_started() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let good = {
            let mut t = Table::load(path.clone());
            t.add(score(3, 700));
            std::fs::read_to_string(&path).unwrap()
        };
        let cut = &good[..good.len() / 2];
        let bad = [
            cut.to_string(),
            good.replace("\"delve_scores\": 1", "\"delve_scores\": 2"),
            good.replace("\"seed\"", "\"sead\""),
            good.replace("\"depth\": 4", "\"depth\": 0"),
            good.replace("2025-03-04", "yesterday"),
            "\u{0}\u{ff}".to_string(),
        ];
        for (n, text) in bad.iter().enumerate() {
            std::fs::write(&path, text).unwrap();
            let mut table = Table::load(path.clone());
            assert!(table.scores().is_empty(), "{n}");
            let notices = table.take_notices();
            let aside =
                if n == 0 { "scores.json.damaged".to_string() } else { format!("scores.json.damaged-{}", n + 1) };
            assert_eq!(notices.len(), 1, "{notices:?}");
            assert!(notices[0].contains("was damaged ("), "{notices:?}");
            assert!(
                notices[0].ends_with(&format!(
                    "it is kept as {} and a new one is started",
                    dir.path().join(&aside).display()
                )),
                "{notices:?}"
            );
            assert_eq!(
                &std::fs::read_to_string(dir.path().join(&aside)).unwrap_or_default(),
                text,
                "{n}: kept as it was"
            );
            assert!(!path.exists(), "{n}");
            assert!(table.take_notices().is_empty(), "said once");
            // The new table is written in its place.
            assert_eq!(table.add(score(1, 5)), (Some(0), true));
            assert_eq!(Table::load(path.clone()).scores().len(), 1);
            std::fs::remove_file(&path).unwrap();
        }
    }

    #[test]
    fn what_cannot_be_read_is_left_alone_and_not_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::create_dir(&path).unwrap();
        let mut table = Table::load(path.clone());
        let notices = table.take_notices();
        assert!(
            notices[0].contains("a directory, not a regular file")
                && notices[0].ends_with("scores of this run are not kept"),
            "{notices:?}"
        );
        assert_eq!(table.add(score(1, 5)), (Some(0), false), "kept for the run, not written");
        assert_eq!(table.take_notices(), ["the score is not saved (see above)"]);
        assert!(path.is_dir());
    }

    #[test]
    fn the_data_directory_follows_xdg_unless_told() {
        fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
            move |name| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| OsString::from(v))
        }
        assert_eq!(data_dir(env(&[("HOME", "/home/a")])), Some(PathBuf::from("/home/a/.local/share/delve")));
        let xdg = [("HOME", "/home/a"), ("XDG_DATA_HOME", "/data")];
        assert_eq!(data_dir(env(&xdg)), Some(PathBuf::from("/data/delve")));
        let relative = [("HOME", "/home/a"), ("XDG_DATA_HOME", "data")];
        assert_eq!(data_dir(env(&relative)), Some(PathBuf::from("/home/a/.local/share/delve")), "relative: ignored");
        let told = [("HOME", "/home/a"), ("XDG_DATA_HOME", "/data"), (DATA_DIR_VAR, "/tmp/scores")];
        assert_eq!(data_dir(env(&told)), Some(PathBuf::from("/tmp/scores")));
        assert_eq!(data_dir(env(&[("HOME", "")])), None);
    }

    #[test]
    fn dates_are_the_proleptic_gregorian_calendar() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(19_782), (2024, 2, 29));
        assert_eq!(civil(20_088), (2024, 12, 31));
        assert_eq!(today().len(), 10);
    }
}
