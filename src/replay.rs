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
//! {"delve_replay":3,"delve":"0.1.0","seed":7,"level":"room","level_checksum":"…","settings":{…},"spawns":{"monster":0,"wanderer":0,"fleeing":0,"boid":2},"rules":{"goal":"none","lives":null},"level_text":"name: room\n…"}
//! {"tick":0,"cmd":"move","dx":1,"dy":0}
//! {"tick":40,"cmd":"set","setting":"algorithm","value":"greedy"}
//! {"checkpoint":100,"hash":"3f0c9a6b1d2e4f58","commands":"5e06248c52da8711"}
//! {"tick":135,"cmd":"door"}
//! {"end":150,"hash":"9a0b1c2d3e4f5061","commands":"28351fe081646898"}
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
//! - `{"checkpoint":T,"hash":H,"commands":D}`: on reaching tick T, every
//!   [`CHECKPOINT_EVERY`] ticks without a gap, H is
//!   [`World::hash`](crate::sim::World::hash) (the whole state, every
//!   setting included) and D the [`CommandDigest`] of the commands applied
//!   so far: FNV-1a over each one's line as delve writes it, newline
//!   included (for a file delve wrote, the lines in the file). A line
//!   written otherwise that reads as the same command digests the same; a
//!   key a command does not have is refused. The state hash alone cannot
//!   see an edit the world forgets (a step re-stamped earlier that ends on
//!   the same cell); D sees every command and its tick.
//! - `{"end":T,"hash":H,"commands":D}`: the last line of a finished
//!   recording, for the final world and every command in the file. A file
//!   without it is a recording that was interrupted: its checkpoints still
//!   verify.
//!
//! # What the reader refuses
//!
//! Each as one line naming the file and line ([`ReplayError`]): a record
//! that is not JSON or that gives a key twice (JSON readers disagree about
//! which one counts) or a key it does not have (in a command, the header,
//! its settings or rules), a header of another format version, a command delve
//! never issues (a step other than one cell, a spawn of 0 creatures or
//! past the level's [capacity](crate::sim::World::capacity), a weight out
//! of range), ticks going backwards or past [`MAX_TICK`], and a record past
//! a checkpoint that is not in the file, so that verifying costs time in
//! proportion to the file's size. [`verify`] then reports the first
//! checkpoint whose digest ([`Verdict::Edited`]) or state hash
//! ([`Verdict::Mismatch`]) differs.
//!
//! # The tick-stamp rule
//!
//! A command is stamped with `world.ticks()` at the moment it is applied,
//! that is before the `tick()` that follows it. Replaying applies, before
//! each `tick()`, every command stamped with the current `world.ticks()`, in
//! file order. The header's spawn counts are applied first of all, as spawn
//! commands stamped 0 in the kind order monster, wanderer, fleeing, boid
//! ([`Start::world`]); they are part of the header, not of the digest. A
//! checkpoint at T is the hash and digest on reaching T, before the
//! commands stamped T; the end record is taken after every command in the
//! file.

mod error;
pub mod feed;
mod format;
mod json;
mod reader;
mod verify;
mod writer;

pub use crate::atomic::partials;
pub use error::ReplayError;
pub use format::{
    CHECKPOINT_EVERY, Checkpoint, CommandDigest, FORMAT_VERSION, MAX_TICK, Spawns, Start, level_checksum,
    looks_like_replay,
};
pub use reader::{MAX_REPLAY_BYTES, Replay};
pub use verify::{Verdict, verify, verify_watched};
pub use writer::{RecordError, Recorder};
