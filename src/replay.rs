//! Record and replay: a session written down as (level, seed, settings,
//! spawns, commands by tick) with state-hash checkpoints, read back and
//! re-run to prove the world still does exactly the same thing.
//!
//! # The file
//!
//! JSON lines, one record per line, so a person can read a recording and
//! `diff` two of them:
//!
//! ```text
//! {"delve_replay":1,"delve":"0.1.0","seed":7,"level":"room","level_checksum":"…","settings":{…},"spawns":{"monster":0,"wanderer":0,"fleeing":0,"boid":2},"level_text":"name: room\n…"}
//! {"tick":0,"cmd":"move","dx":1,"dy":0}
//! {"tick":40,"cmd":"set","setting":"algorithm","value":"greedy"}
//! {"checkpoint":100,"hash":"3f0c9a6b1d2e4f58"}
//! {"tick":135,"cmd":"door"}
//! {"end":150,"hash":"9a0b1c2d3e4f5061"}
//! ```
//!
//! - The first line is the [header](Start): format version
//!   ([`FORMAT_VERSION`]), the delve version that recorded it, the seed, the
//!   level's name, its full text and an FNV-1a checksum of that text (a
//!   hand-edited level is refused as the wrong level), the initial settings,
//!   the spawn counts and the [rules](crate::sim::Rules) (a header without
//!   them is a sandbox).
//! - `{"tick":T, …command…}`: a [`Command`](crate::sim::Command) and its
//!   tick stamp.
//! - `{"checkpoint":T,"hash":H}`: [`World::hash`](crate::sim::World::hash)
//!   when the world reaches tick T, every [`CHECKPOINT_EVERY`] ticks.
//! - `{"end":T,"hash":H}`: the last line of a finished recording, the hash
//!   of the final world. A file without it is a recording that was
//!   interrupted: its checkpoints still verify.
//!
//! # The tick-stamp rule
//!
//! A command is stamped with `world.ticks()` at the moment it is applied,
//! that is before the `tick()` that follows it. Replaying applies, before
//! each `tick()`, every command stamped with the current `world.ticks()`, in
//! file order. The header's spawn counts are applied first of all, as spawn
//! commands stamped 0 in the kind order monster, wanderer, fleeing, boid
//! ([`Start::world`]). A checkpoint at T is the hash on reaching T, before
//! the commands stamped T; the end record is the hash of the final world,
//! after every command in the file.

mod error;
pub mod feed;
mod format;
mod reader;
mod verify;
mod writer;

pub use error::ReplayError;
pub use format::{
    CHECKPOINT_EVERY, Checkpoint, FORMAT_VERSION, MAX_TICK, Spawns, Start, level_checksum, looks_like_replay,
};
pub use reader::Replay;
pub use verify::{Verdict, verify};
pub use writer::{RecordError, Recorder, partial_path};
