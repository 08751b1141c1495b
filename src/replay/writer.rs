//! Writing a replay while the session runs.
//!
//! The file is an [`AtomicFile`]: it grows beside its target under a name
//! of its own, `.NAME.<pid>.<n>.partial`, created new, so two recordings
//! to one name never write the same file. It is written in whole lines and
//! flushed at every checkpoint; [`Recorder::finish`] writes the end record
//! and commits it to NAME in one step, so NAME only ever holds a whole
//! recording (of two sessions recording to one name with `--force`, the
//! last to finish). Unlike a picture's, a recording's partial file is kept
//! when it cannot go on (a full disk, a file-size limit, a signal, a
//! crash): it ends in a whole line, verifies up to its last checkpoint,
//! and the error says where it is.

use super::format::{CHECKPOINT_EVERY, CheckpointRecord, CommandDigest, CommandRecord, EndRecord, Header, Start};
use crate::atomic::{self, AtomicError, AtomicFile, partials};
use crate::sim::{Command, World};
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a recording could not be made or finished.
#[derive(Debug, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum RecordError {
    /// The target exists and `--force` was not given.
    #[error("{0}: already exists (pass --force to overwrite it)")]
    Exists(String),
    #[error(
        "{0}: an unfinished recording of the same name is in the way (interrupted, or still running: check it \
         with `delve replay {0} --verify`, remove it, or pass --force)"
    )]
    /// An interrupted recording's partial file is where this one would grow.
    PartialExists(String),
    /// The target cannot be recorded to (a directory, `-`, a missing parent, not a regular file).
    #[error("{file}: cannot record to it: {why}")]
    Target { file: String, why: String },
    /// Writing the file failed.
    #[error("{file}: cannot write: {io}")]
    Io { file: String, io: io::Error },
    #[error("{why}; the finished recording is kept in {partial}")]
    NotRenamed { partial: String, why: Box<RecordError> },
    #[error(
        "{file}: cannot write: {io}; the recording so far is kept there, up to its last whole line \
         (`delve replay {file} --verify` checks it)"
    )]
    Cut { file: String, io: io::Error },
}

impl From<AtomicError> for RecordError {
    fn from(e: AtomicError) -> RecordError {
        match e {
            AtomicError::Exists { file } => RecordError::Exists(file.display().to_string()),
            AtomicError::Refused { file, why } => RecordError::Target { file: file.display().to_string(), why },
            AtomicError::Io { file, io } => RecordError::Io { file: file.display().to_string(), io },
        }
    }
}

/// What names the recorder in the messages of the file it writes.
const BY: &str = "--record";

/// Records a session as it runs. In a live loop:
///
/// ```text
/// let mut world = start.world()?;
/// let mut recorder = Recorder::create(path, &start, force)?;
/// loop {
///     for command in this tick's commands {
///         recorder.command(world.ticks(), &command)?;
///         world.apply(command);
///     }
///     world.tick();
///     recorder.ticked(&world)?;
/// }
/// recorder.finish(&world)?;
/// ```
///
/// Dropped without [`finish`](Recorder::finish) (a crash, an error), it
/// leaves the partial file, which verifies up to its last checkpoint;
/// [`interrupt`](Recorder::interrupt) keeps everything recorded so far.
#[derive(Debug)]
pub struct Recorder {
    out: Lines<AtomicFile>,
    /// The latest tick written, to catch a caller stamping out of order.
    tick: u64,
    /// The digest of the commands written so far, for the checkpoints.
    commands: CommandDigest,
}

impl Recorder {
    /// Starts a recording of the session `start` begins, to be named
    /// `target`. Refuses a `target` that cannot be written (see the
    /// README's Replays part), and, unless `force`, an existing `target`
    /// or the partial file of another unfinished recording to it.
    pub fn create(target: &Path, start: &Start, force: bool) -> Result<Recorder, RecordError> {
        Recorder::check(target, force)?;
        let mut file = AtomicFile::create(target, force, BY)?;
        file.keep();
        let mut recorder = Recorder { out: Lines::new(file), tick: 0, commands: CommandDigest::default() };
        recorder.line(&Header::of(start))?;
        recorder.flush()?;
        Ok(recorder)
    }

    /// What [`create`](Recorder::create) refuses, found without creating
    /// anything: for a session to check its target before it starts.
    pub fn check(target: &Path, force: bool) -> Result<(), RecordError> {
        atomic::check(target, force, BY)?;
        if !force {
            let found = partials(target).map_err(|io| RecordError::Io { file: target.display().to_string(), io })?;
            if let Some(partial) = found.first() {
                return Err(RecordError::PartialExists(partial.display().to_string()));
            }
        }
        Ok(())
    }

    /// Where the recording grows until it is finished.
    pub fn partial(&self) -> &Path {
        self.out.out.partial()
    }

    /// Records `command`, applied when `world.ticks()` was `tick`.
    pub fn command(&mut self, tick: u64, command: &Command) -> Result<(), RecordError> {
        debug_assert!(tick >= self.tick, "command stamped {tick} after tick {}", self.tick);
        self.tick = tick;
        self.commands.add(tick, *command);
        self.line(&CommandRecord { tick, command: *command })
    }

    /// Call after every `world.tick()`: writes a checkpoint and flushes
    /// every [`CHECKPOINT_EVERY`] ticks.
    pub fn ticked(&mut self, world: &World) -> Result<(), RecordError> {
        self.tick = world.ticks();
        if !self.tick.is_multiple_of(CHECKPOINT_EVERY) {
            return Ok(());
        }
        self.line(&CheckpointRecord { checkpoint: self.tick, hash: world.hash(), commands: self.commands.value() })?;
        self.flush()
    }

    /// Ends the recording with the final world's hash, makes it durable,
    /// and renames it to its target.
    pub fn finish(mut self, world: &World) -> Result<(), RecordError> {
        self.line(&EndRecord { end: world.ticks(), hash: world.hash(), commands: self.commands.value() })?;
        self.sync()?;
        let partial = self.partial().display().to_string();
        // The target may have appeared since `create` checked: the commit
        // then fails, and the recording stays where it is.
        self.out.out.commit().map_err(|e| RecordError::NotRenamed { partial, why: Box::new(e.into()) })
    }

    /// Ends the recording where it is, as an interrupted one (no end
    /// record): everything recorded so far is written and made durable.
    /// Returns the partial file, which verifies as incomplete.
    pub fn interrupt(mut self) -> Result<PathBuf, RecordError> {
        self.sync()?;
        Ok(self.partial().to_path_buf())
    }

    fn line(&mut self, record: &impl Serialize) -> Result<(), RecordError> {
        let line = serde_json::to_vec(record).map_err(|e| self.cut(e.into()))?;
        self.out.push(&line).map_err(|io| self.cut(io))
    }

    fn flush(&mut self) -> Result<(), RecordError> {
        self.out.flush().map_err(|io| self.cut(io))
    }

    fn sync(&mut self) -> Result<(), RecordError> {
        self.flush()?;
        self.out.out.sync().map_err(|io| self.cut(io))
    }

    /// A write error: the partial file is kept, in whole lines.
    fn cut(&self, io: io::Error) -> RecordError {
        RecordError::Cut { file: self.partial().display().to_string(), io }
    }
}

/// A file that can be cut back to a length: what [`Lines`] writes to.
trait Truncate: Write {
    fn truncate(&mut self, len: u64) -> io::Result<()>;
}

impl Truncate for AtomicFile {
    fn truncate(&mut self, len: u64) -> io::Result<()> {
        self.set_len(len)
    }
}

/// Lines on their way to a file that only ever holds whole lines: they
/// gather in memory and are written out together; when a write fails
/// part way (a full disk, a file-size limit), the file is cut back to the
/// end of the last whole line in it, and nothing more is written.
#[derive(Debug)]
struct Lines<W> {
    out: W,
    pending: Vec<u8>,
    /// Bytes of whole lines in the file.
    written: u64,
    /// Set once a write has failed: what failed, for every later call.
    failed: Option<io::ErrorKind>,
}

/// Pending bytes past which [`Lines::push`] writes them out without
/// waiting for a flush.
const PENDING_MAX: usize = 1 << 16;

impl<W: Truncate> Lines<W> {
    fn new(out: W) -> Lines<W> {
        Lines { out, pending: Vec::new(), written: 0, failed: None }
    }

    /// Adds `line` and its newline.
    fn push(&mut self, line: &[u8]) -> io::Result<()> {
        self.check()?;
        self.pending.extend_from_slice(line);
        self.pending.push(b'\n');
        if self.pending.len() > PENDING_MAX { self.flush() } else { Ok(()) }
    }

    /// Writes out every pending line, or, on an error, cuts the file back
    /// to its last whole line and returns the error.
    fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        let mut done = 0;
        let failure = loop {
            if done == self.pending.len() {
                break None;
            }
            match self.out.write(&self.pending[done..]) {
                Ok(0) => break Some(io::Error::from(io::ErrorKind::WriteZero)),
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => break Some(e),
            }
        };
        let whole = match failure {
            None => done,
            Some(_) => self.pending[..done].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
        };
        self.written += whole as u64;
        self.pending.clear();
        let Some(e) = failure else { return self.out.flush() };
        self.failed = Some(e.kind());
        if whole < done {
            self.out.truncate(self.written)?;
        }
        Err(e)
    }

    /// The earlier failure, if there was one.
    fn check(&self) -> io::Result<()> {
        match self.failed {
            Some(kind) => Err(io::Error::new(kind, "an earlier write failed")),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disk with room for `room` bytes that takes at most `chunk` bytes
    /// per write, as a file that reaches its size limit does.
    struct Short {
        data: Vec<u8>,
        room: usize,
        chunk: usize,
    }

    impl Write for Short {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let n = buf.len().min(self.chunk).min(self.room - self.data.len());
            if n == 0 {
                return Err(io::Error::from(io::ErrorKind::StorageFull));
            }
            self.data.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Truncate for Short {
        fn truncate(&mut self, len: u64) -> io::Result<()> {
            self.data.truncate(len as usize);
            Ok(())
        }
    }

    fn short(room: usize, chunk: usize) -> Lines<Short> {
        Lines::new(Short { data: Vec::new(), room, chunk })
    }

    #[test]
    fn a_full_disk_leaves_whole_lines_only() {
        for chunk in [1, 3, 7, 100] {
            let mut lines = short(23, chunk);
            lines.push(b"first line").unwrap();
            lines.flush().unwrap();
            lines.push(b"second").unwrap();
            lines.push(b"third line").unwrap();
            let e = lines.flush().unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::StorageFull);
            // "first line\nsecond\n" fits in 23 bytes; "third line" does not.
            assert_eq!(String::from_utf8_lossy(&lines.out.data), "first line\nsecond\n", "chunk {chunk}");
            // Nothing more is written after a failure.
            assert!(lines.push(b"x").is_err() && lines.flush().is_err());
            assert_eq!(lines.out.data.len(), 18);
        }
    }

    #[test]
    fn a_line_longer_than_the_room_leaves_the_lines_before_it() {
        let mut lines = short(12, 5);
        lines.push(b"ok").unwrap();
        lines.push(b"far too long a line").unwrap();
        assert!(lines.flush().is_err());
        assert_eq!(lines.out.data, b"ok\n");
        let mut empty = short(4, 4);
        empty.push(b"long line").unwrap();
        assert!(empty.flush().is_err());
        assert!(empty.out.data.is_empty());
    }

    #[test]
    fn lines_are_written_out_when_many_are_pending() {
        let mut lines = short(1 << 20, 1 << 20);
        let line = [b'a'; 1000];
        for _ in 0..PENDING_MAX / 1000 {
            lines.push(&line).unwrap();
        }
        assert!(lines.out.data.is_empty());
        lines.push(&line).unwrap();
        assert_eq!(lines.out.data.len(), (PENDING_MAX / 1000 + 1) * 1001);
    }
}
