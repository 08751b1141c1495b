//! Re-running a recorded session headless and comparing every hash.

use super::feed::{self, ReplayFeed};
use super::format::Checkpoint;
use super::reader::Replay;
use crate::r#gen::Recipe;
use crate::sim::{World, hex};
use std::fmt;

/// The outcome of [`verify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "each variant's doc describes its fields")]
pub enum Verdict {
    /// Every hash in the file matched. `last` is the last one compared
    /// (`None` when the file has none); `complete` is false for a file
    /// without an end record, whose checkpoints were all that could be
    /// checked.
    Match { checkpoints: usize, last: Option<Checkpoint>, complete: bool },
    /// The first state hash that differs.
    Mismatch { tick: u64, expected: u64, actual: u64 },
    /// The first command digest that differs: the commands applied before
    /// `tick` are not the ones recorded (one was added, dropped, changed or
    /// re-stamped).
    Edited { tick: u64, expected: u64, actual: u64 },
    /// The level text is not what the header's generator makes: `line` is
    /// the first line (from 1) where the two differ.
    NotGenerated { recipe: Recipe, line: usize },
}

impl Verdict {
    /// Whether every hash compared matched (a complete file or not).
    pub fn is_match(&self) -> bool {
        matches!(self, Verdict::Match { .. })
    }
}

impl Verdict {
    /// The verdict on `replay` as JSON, for `delve replay --verify
    /// --json`: `ok`; `verdict` (`match`, `state_mismatch`,
    /// `commands_mismatch`, `level_not_generated`); `complete` (whether
    /// the file has its end record, `null` when it did not come to that);
    /// `checkpoints` (how many matched); `ticks` (the last tick the file
    /// speaks for); `tick` (the last tick compared, or the first that
    /// differs), `mismatch_tick` (that tick when it differs, else `null`),
    /// `expected_hash` and `actual_hash` (the state hashes there, `null`
    /// where none was compared), `expected_commands` and
    /// `actual_commands` (the command digests when they differ); and
    /// `generator`: `null` for a level from a file, else the recipe the
    /// header names, whether its level is the recorded text, and the first
    /// line where they differ.
    pub fn json(&self, replay: &Replay) -> serde_json::Value {
        use serde_json::{Value, json};
        let hash = |h: u64| json!(hex(h));
        let (verdict, complete, checkpoints, tick, mismatch, hashes, commands) = match *self {
            Verdict::Match { checkpoints, last, complete } => {
                let last_hash = last.map_or(Value::Null, |c| hash(c.hash));
                let tick = last.map(|c| c.tick);
                ("match", json!(complete), checkpoints, tick, None, [last_hash.clone(), last_hash], None)
            }
            Verdict::Mismatch { tick, expected, actual } => (
                "state_mismatch",
                Value::Null,
                matched_before(replay, tick),
                Some(tick),
                Some(tick),
                [hash(expected), hash(actual)],
                None,
            ),
            Verdict::Edited { tick, expected, actual } => (
                "commands_mismatch",
                Value::Null,
                matched_before(replay, tick),
                Some(tick),
                Some(tick),
                [Value::Null, Value::Null],
                Some([hash(expected), hash(actual)]),
            ),
            Verdict::NotGenerated { .. } => {
                ("level_not_generated", Value::Null, 0, None, None, [Value::Null, Value::Null], None)
            }
        };
        let generator = replay.start().generator.map_or(Value::Null, |recipe| {
            let line = match *self {
                Verdict::NotGenerated { line, .. } => Some(line),
                _ => None,
            };
            json!({"recipe": recipe.to_string(), "ok": line.is_none(), "first_different_line": line})
        });
        let [expected, actual] = hashes;
        let mut out = json!({
            "ok": self.is_match(),
            "verdict": verdict,
            "complete": complete,
            "checkpoints": checkpoints,
            "ticks": replay.last_tick(),
            "tick": tick,
            "mismatch_tick": mismatch,
            "expected_hash": expected,
            "actual_hash": actual,
        });
        if let Some([expected, actual]) = commands {
            out["expected_commands"] = expected;
            out["actual_commands"] = actual;
        }
        out["generator"] = generator;
        out
    }
}

/// How many of `replay`'s checkpoints come before `tick`, all of which
/// matched when the first mismatch is at `tick`.
fn matched_before(replay: &Replay, tick: u64) -> usize {
    replay.checkpoints().iter().take_while(|c| c.tick < tick).count()
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
            Verdict::NotGenerated { recipe, line } => {
                write!(f, "mismatch in the level: line {line} of its text is not what its generator ({recipe}) makes")
            }
            Verdict::Edited { tick, expected, actual } => write!(
                f,
                "mismatch at tick {tick}: commands digest expected {}, actual {} (the commands before it are not the ones recorded)",
                hex(expected),
                hex(actual)
            ),
        }
    }
}

/// Re-runs the whole session from its start and compares every checkpoint
/// and the end record, commands digest first, then state hash, with the
/// commands applied and the world, stopping at the first that differs.
/// The end record is the only one taken after the commands of its tick:
/// it is the final world. A generated level is first made again from the
/// header's generator and compared with the level text.
pub fn verify(replay: &Replay) -> Verdict {
    verify_watched(replay, |_| {})
}

/// [`verify`], calling `on_tick` with the world's tick after every tick it
/// runs (for a progress bar).
pub fn verify_watched(replay: &Replay, mut on_tick: impl FnMut(u64)) -> Verdict {
    if let Some(recipe) = replay.start().generator
        && let Some(line) = first_difference(&recipe.generate().source, &replay.start().level.source)
    {
        return Verdict::NotGenerated { recipe, line };
    }
    let mut world = replay.world();
    let mut feed = ReplayFeed::new(replay);
    let mut matched = 0;
    for &checkpoint in replay.checkpoints() {
        run_to(&mut world, &mut feed, checkpoint.tick, &mut on_tick);
        if let Some(mismatch) = compare(&world, &feed, checkpoint) {
            return mismatch;
        }
        matched += 1;
    }
    let last = replay.checkpoints().last().copied();
    let Some(end) = replay.end() else {
        return Verdict::Match { checkpoints: matched, last, complete: false };
    };
    run_to(&mut world, &mut feed, end.tick, &mut on_tick);
    for &c in replay.commands_due(end.tick) {
        feed::apply(&mut world, &mut feed, c).expect("a replay feed does no I/O");
    }
    match compare(&world, &feed, end) {
        Some(mismatch) => mismatch,
        None => Verdict::Match { checkpoints: matched + 1, last: Some(end), complete: true },
    }
}

/// Applies each tick's commands and ticks until the world reaches `tick`,
/// exactly as the terminal plays the replay, or until the session is won
/// or lost (its clock stops there: a file claiming later ticks is checked
/// against the world it ended as, instead of waiting forever).
fn run_to(world: &mut World, feed: &mut ReplayFeed, tick: u64, on_tick: &mut impl FnMut(u64)) {
    while world.ticks() < tick && !world.outcome().is_over() {
        feed::tick(world, feed).expect("a replay feed does no I/O");
        on_tick(world.ticks());
    }
}

/// The first line (from 1) where `a` and `b` differ, if they do.
fn first_difference(a: &str, b: &str) -> Option<usize> {
    if a == b {
        return None;
    }
    let (mut x, mut y) = (a.split_inclusive('\n'), b.split_inclusive('\n'));
    (1..).find(|_| x.next() != y.next())
}

fn compare(world: &World, feed: &ReplayFeed, checkpoint: Checkpoint) -> Option<Verdict> {
    let (tick, expected) = (checkpoint.tick, checkpoint.commands);
    let actual = feed.commands();
    if actual != expected {
        return Some(Verdict::Edited { tick, expected, actual });
    }
    let actual = world.hash();
    (actual != checkpoint.hash).then_some(Verdict::Mismatch { tick, expected: checkpoint.hash, actual })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_different_line_is_found() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(first_difference("a\nb\n", "a\nc\n"), Some(2));
        assert_eq!(first_difference("a\nb\n", "a\nb\nc\n"), Some(3));
        assert_eq!(first_difference("a\nb\n", "a\nb"), Some(2), "a missing newline is a difference");
        assert_eq!(first_difference("x", ""), Some(1));
    }

    #[test]
    fn a_level_its_generator_does_not_make_is_named_in_the_json() {
        let text = include_str!("../../tests/replays/descent-5-depth-4.jsonl");
        let replay = Replay::parse(text, "t").unwrap();
        let recipe = replay.start().generator.unwrap();
        let v = Verdict::NotGenerated { recipe, line: 7 }.json(&replay);
        assert_eq!(v["ok"], false);
        assert_eq!(v["verdict"], "level_not_generated");
        assert_eq!(v["mismatch_tick"], serde_json::Value::Null);
        let generator = serde_json::json!({"recipe": recipe.to_string(), "ok": false, "first_different_line": 7});
        assert_eq!(v["generator"], generator);
        assert_eq!(verify(&replay).json(&replay)["generator"]["ok"], true);
    }
}
