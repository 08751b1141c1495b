//! Re-running a recorded session headless and comparing every hash.

use super::feed::{self, ReplayFeed};
use super::format::Checkpoint;
use super::reader::Replay;
use crate::sim::{World, hex};
use std::fmt;

/// The outcome of [`verify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every hash in the file matched. `last` is the last one compared
    /// (`None` when the file has none); `complete` is false for a file
    /// without an end record, whose checkpoints were all that could be
    /// checked.
    Match { checkpoints: usize, last: Option<Checkpoint>, complete: bool },
    /// The first hash that differs.
    Mismatch { tick: u64, expected: u64, actual: u64 },
}

impl Verdict {
    pub fn is_match(&self) -> bool {
        matches!(self, Verdict::Match { .. })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Verdict::Match { checkpoints, last: Some(last), complete: true } => {
                write!(f, "ok: {checkpoints} checkpoints match, final hash {}", hex(last.hash))
            }
            Verdict::Match { checkpoints, last, .. } => {
                write!(f, "ok: {checkpoints} checkpoints match")?;
                if let Some(last) = last {
                    write!(f, " up to tick {}, hash {}", last.tick, hex(last.hash))?;
                }
                write!(f, "; incomplete: no end record (the recording was interrupted)")
            }
            Verdict::Mismatch { tick, expected, actual } => {
                write!(f, "mismatch at tick {tick}: expected {}, actual {}", hex(expected), hex(actual))
            }
        }
    }
}

/// Re-runs the whole session from its start and compares every checkpoint
/// and the end record with the world's hash, stopping at the first that
/// differs. The end record is the only hash taken after the commands of
/// its tick: it is the final world.
pub fn verify(replay: &Replay) -> Verdict {
    let mut world = replay.world();
    let mut matched = 0;
    for &checkpoint in replay.checkpoints() {
        run_to(&mut world, replay, checkpoint.tick);
        if let Some(mismatch) = compare(&world, checkpoint) {
            return mismatch;
        }
        matched += 1;
    }
    let last = replay.checkpoints().last().copied();
    let Some(end) = replay.end() else {
        return Verdict::Match { checkpoints: matched, last, complete: false };
    };
    run_to(&mut world, replay, end.tick);
    let mut feed = ReplayFeed::new(replay);
    for &c in replay.commands_due(end.tick) {
        feed::apply(&mut world, &mut feed, c).expect("a replay feed does no I/O");
    }
    match compare(&world, end) {
        Some(mismatch) => mismatch,
        None => Verdict::Match { checkpoints: matched + 1, last: Some(end), complete: true },
    }
}

/// Applies each tick's commands and ticks until the world reaches `tick`,
/// exactly as the terminal plays the replay, or until the session is won
/// or lost (its clock stops there: a file claiming later ticks is checked
/// against the world it ended as, instead of waiting forever).
fn run_to(world: &mut World, replay: &Replay, tick: u64) {
    let mut feed = ReplayFeed::new(replay);
    while world.ticks() < tick && !world.outcome().is_over() {
        feed::tick(world, &mut feed).expect("a replay feed does no I/O");
    }
}

fn compare(world: &World, checkpoint: Checkpoint) -> Option<Verdict> {
    let actual = world.hash();
    (actual != checkpoint.hash).then_some(Verdict::Mismatch {
        tick: checkpoint.tick,
        expected: checkpoint.hash,
        actual,
    })
}
