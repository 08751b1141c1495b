//! Everything that can be wrong with a replay file.
//!
//! Each error names the file and, where one line is at fault, its 1-based
//! number, and displays as one line in the `file:line: message` shape of
//! the level errors.

use crate::input::ReadError;
use crate::level::LevelError;
use crate::sim::WorldError;

/// Why a replay file cannot be used.
#[derive(Debug, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum ReplayError {
    /// The file could not be read: missing, not a regular file, too large,
    /// not UTF-8, ...
    #[error(transparent)]
    Read(#[from] ReadError),

    /// Not a single byte (or only a byte order mark).
    #[error("{file}: empty file (a delve replay starts with its header line)")]
    Empty { file: String },

    /// A line that is not JSON at all.
    #[error("{file}:{line}: not JSON: {message}")]
    NotJson { file: String, line: usize, message: String },

    /// An object that gives the same key twice: JSON readers disagree
    /// about which one counts, so delve takes neither.
    #[error("{file}:{line}: {message}")]
    DuplicateKey { file: String, line: usize, message: String },

    /// The last line has no newline and is not complete JSON: the file was
    /// cut short while being written or copied.
    #[error(
        "{file}:{line}: truncated: the last line is cut off (delete it to verify the rest up to its last checkpoint)"
    )]
    Truncated { file: String, line: usize },

    /// The first line is JSON but not a replay header.
    #[error("{file}:1: not a delve replay: the first line must be the header {{\"delve_replay\":{version},...}}")]
    NoHeader { file: String, version: u32 },

    /// A header of another format version.
    #[error("{file}:1: replay format version {found} is not supported (this delve reads version {supported})")]
    Version { file: String, found: String, supported: u32 },

    /// JSON that is none of the record kinds.
    #[error(
        "{file}:{line}: unknown record kind (expected {{\"tick\":...}}, {{\"checkpoint\":...}} or {{\"end\":...}})"
    )]
    UnknownRecord { file: String, line: usize },

    /// A record of a known kind with missing, extra or bad fields; for a
    /// command, one that does not exist or cannot apply. `what` names the
    /// kind, `message` is serde's or the check's.
    #[error("{file}:{line}: bad {what}: {message}")]
    BadRecord { file: String, line: usize, what: &'static str, message: String },

    /// The level text in the header does not parse.
    #[error("{file}:1: the recorded level does not parse: {source}")]
    Level { file: String, source: Box<LevelError> },

    /// The level text does not match its checksum: it was edited.
    #[error("{file}:1: wrong level: the level text has checksum {actual} but the header says {expected}")]
    WrongLevel { file: String, expected: String, actual: String },

    /// The level cannot hold a world.
    #[error("{file}:1: {source}")]
    World { file: String, source: WorldError },

    /// A record stamped earlier than the one before it.
    #[error("{file}:{line}: tick {tick} goes backwards (the record before it is at tick {previous})")]
    Backwards { file: String, line: usize, tick: u64, previous: u64 },

    /// A tick past [`MAX_TICK`](super::MAX_TICK): verifying it would
    /// simulate for hours or days.
    #[error(
        "{file}:{line}: tick {tick} is past the longest session delve replays ({max} ticks, {days} days of game time)"
    )]
    TooLong { file: String, line: usize, tick: u64, max: u64, days: u64 },

    /// A record past a tick whose checkpoint is not in the file: delve
    /// writes one every [`CHECKPOINT_EVERY`](super::CHECKPOINT_EVERY)
    /// ticks, so the file was edited (or a few bytes claim a long session).
    #[error("{file}:{line}: checkpoint {tick} is missing before this record (delve writes one every {every} ticks)")]
    MissingCheckpoint { file: String, line: usize, tick: u64, every: u64 },

    /// Anything after the end record.
    #[error("{file}:{line}: record after the end record at line {end_line}")]
    AfterEnd { file: String, line: usize, end_line: usize },
}
