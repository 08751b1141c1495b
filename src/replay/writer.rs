//! Writing a replay while the session runs.
//!
//! The file grows beside its target as `.NAME.partial` and is flushed at
//! every checkpoint, so a crash leaves a file whose checkpoints still
//! verify; [`Recorder::finish`] writes the end record and renames it to
//! its name. Every record goes to the buffer as one whole line, so the
//! buffer only ever reaches the disk in whole lines.

use super::format::{CHECKPOINT_EVERY, CheckpointRecord, CommandRecord, EndRecord, Header, Start};
use crate::sim::{Command, World};
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why a recording could not be made or finished.
#[derive(Debug, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum RecordError {
    /// The target exists and `--force` was not given.
    #[error("{0}: already exists (pass --force to overwrite it)")]
    Exists(String),
    #[error(
        "{0}: an interrupted recording is in the way (check it with `delve replay {0} --verify`, \
         remove it, or pass --force)"
    )]
    /// An interrupted recording's partial file is where this one would grow.
    PartialExists(String),
    /// The target names no file (a directory, an empty name).
    #[error("{0}: not a file name to record to")]
    NotAFile(String),
    /// Writing the file failed.
    #[error("{file}: cannot write: {io}")]
    Io { file: String, io: std::io::Error },
}

/// Where the recording for `target` grows until it is finished:
/// `.NAME.partial` in the same directory, so the final rename never
/// crosses file systems. `None` when `target` names no file.
pub fn partial_path(target: &Path) -> Option<PathBuf> {
    let name = target.file_name()?;
    let mut partial = std::ffi::OsString::from(".");
    partial.push(name);
    partial.push(".partial");
    Some(target.with_file_name(partial))
}

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
/// leaves the partial file, which verifies up to its last checkpoint.
#[derive(Debug)]
pub struct Recorder {
    out: BufWriter<File>,
    partial: PathBuf,
    target: PathBuf,
    force: bool,
    /// The latest tick written, to catch a caller stamping out of order.
    tick: u64,
}

impl Recorder {
    /// Starts a recording of the session `start` begins, to be named
    /// `target`. Refuses an existing `target`, or a partial file left by
    /// an interrupted recording, unless `force`.
    pub fn create(target: &Path, start: &Start, force: bool) -> Result<Recorder, RecordError> {
        let shown = target.display().to_string();
        let partial = partial_path(target).ok_or_else(|| RecordError::NotAFile(shown.clone()))?;
        if !force && target.exists() {
            return Err(RecordError::Exists(shown));
        }
        let mut options = OpenOptions::new();
        options.write(true);
        if force {
            options.create(true).truncate(true);
        } else {
            options.create_new(true);
        }
        let file = options.open(&partial).map_err(|io| match io.kind() {
            std::io::ErrorKind::AlreadyExists => RecordError::PartialExists(partial.display().to_string()),
            _ => RecordError::Io { file: partial.display().to_string(), io },
        })?;
        let mut recorder =
            Recorder { out: BufWriter::new(file), partial, target: target.to_path_buf(), force, tick: 0 };
        recorder.line(&Header::of(start))?;
        recorder.flush()?;
        Ok(recorder)
    }

    /// Records `command`, applied when `world.ticks()` was `tick`.
    pub fn command(&mut self, tick: u64, command: &Command) -> Result<(), RecordError> {
        debug_assert!(tick >= self.tick, "command stamped {tick} after tick {}", self.tick);
        self.tick = tick;
        self.line(&CommandRecord { tick, command: *command })
    }

    /// Call after every `world.tick()`: writes a checkpoint and flushes
    /// every [`CHECKPOINT_EVERY`] ticks.
    pub fn ticked(&mut self, world: &World) -> Result<(), RecordError> {
        self.tick = world.ticks();
        if !self.tick.is_multiple_of(CHECKPOINT_EVERY) {
            return Ok(());
        }
        self.line(&CheckpointRecord { checkpoint: self.tick, hash: world.hash() })?;
        self.flush()
    }

    /// Ends the recording with the final world's hash, makes it durable,
    /// and renames it to its target.
    pub fn finish(mut self, world: &World) -> Result<(), RecordError> {
        self.line(&EndRecord { end: world.ticks(), hash: world.hash() })?;
        self.flush()?;
        self.out.get_ref().sync_all().map_err(|io| self.io_error(io))?;
        // The target may have appeared since `create` checked.
        if !self.force && self.target.exists() {
            return Err(RecordError::Exists(self.target.display().to_string()));
        }
        std::fs::rename(&self.partial, &self.target)
            .map_err(|io| RecordError::Io { file: self.target.display().to_string(), io })
    }

    fn line(&mut self, record: &impl Serialize) -> Result<(), RecordError> {
        let mut line = serde_json::to_vec(record).map_err(|e| self.io_error(e.into()))?;
        line.push(b'\n');
        self.out.write_all(&line).map_err(|io| self.io_error(io))
    }

    fn flush(&mut self) -> Result<(), RecordError> {
        self.out.flush().map_err(|io| self.io_error(io))
    }

    fn io_error(&self, io: std::io::Error) -> RecordError {
        RecordError::Io { file: self.partial.display().to_string(), io }
    }
}
