//! Reading a replay file: every line parsed and checked before anything
//! runs, so a damaged file is one error message and never a panic.

use super::error::ReplayError;
use super::format::{
    CHECKPOINT_EVERY, Checkpoint, CheckpointRecord, CommandRecord, EndRecord, FORMAT_VERSION, HEADER_KEY, Header,
    MAX_TICK, Start, level_checksum,
};
use super::json::Unique;
use crate::input::{Limit, read_text};
use crate::level::Level;
use crate::sim::{Command, MAX_CREATURES, TICKS_PER_SECOND, World, hex};
use serde_json::Value;
use std::path::Path;

/// The largest replay file read: 16 bytes a tick over the longest session
/// ([`MAX_TICK`] ticks), room for what the scripted player of `delve sim`
/// records over it (a move line of about 45 bytes every 5 ticks, a
/// checkpoint every 100) with the largest level in the header.
pub const MAX_REPLAY_BYTES: Limit =
    Limit { bytes: 16 * MAX_TICK, what: "a replay (16 bytes a tick over the longest session delve replays)" };

/// A parsed replay: how the session started, its commands by tick and the
/// hashes it promises.
#[derive(Debug)]
pub struct Replay {
    start: Start,
    /// The tick stamp of each command, non-decreasing.
    ticks: Vec<u64>,
    commands: Vec<Command>,
    checkpoints: Vec<Checkpoint>,
    end: Option<Checkpoint>,
}

impl Replay {
    /// Reads and checks the replay at `path`: a regular file of at most
    /// [`MAX_REPLAY_BYTES`] bytes.
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let text = read_text(path, MAX_REPLAY_BYTES)?;
        Replay::parse(&text, &path.display().to_string())
    }

    /// Reads and checks a replay from its text; `file` is the name errors
    /// are reported against.
    pub fn parse(text: &str, file: &str) -> Result<Replay, ReplayError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let lines: Vec<&str> = text.lines().collect();
        let Some((first, rest)) = lines.split_first() else {
            return Err(ReplayError::Empty { file: file.to_string() });
        };
        // Only the last line can have been cut off mid-write.
        let cut = (!text.ends_with('\n')).then_some(lines.len());
        let parser = Parser { file, cut };
        let (start, mut creatures, capacity) = parser.header(parser.json(first, 1)?)?;
        let mut replay = Replay { start, ticks: Vec::new(), commands: Vec::new(), checkpoints: Vec::new(), end: None };
        let mut previous = 0;
        let mut next_checkpoint = CHECKPOINT_EVERY;
        let mut end_line = None;
        for (line, text) in (2..).zip(rest) {
            let value = parser.json(text, line)?;
            if let Some(end_line) = end_line {
                return Err(ReplayError::AfterEnd { file: file.to_string(), line, end_line });
            }
            let record = parser.record(value, line)?;
            let tick = record.tick();
            if tick > MAX_TICK {
                let days = MAX_TICK / u64::from(TICKS_PER_SECOND) / 86_400;
                return Err(ReplayError::TooLong { file: file.to_string(), line, tick, max: MAX_TICK, days });
            }
            if tick < previous {
                return Err(ReplayError::Backwards { file: file.to_string(), line, tick, previous });
            }
            previous = tick;
            match &record {
                Record::Checkpoint(_) if tick != next_checkpoint => {
                    let message = format!(
                        "checkpoint {tick} where checkpoint {next_checkpoint} belongs (delve writes one every {CHECKPOINT_EVERY} ticks)"
                    );
                    return Err(parser.bad(line, "checkpoint", message));
                }
                Record::Checkpoint(_) => next_checkpoint += CHECKPOINT_EVERY,
                // The checkpoint at T is written on reaching T, before the
                // commands stamped T and before an end record at T.
                _ if tick >= next_checkpoint => {
                    let (file, tick, every) = (file.to_string(), next_checkpoint, CHECKPOINT_EVERY);
                    return Err(ReplayError::MissingCheckpoint { file, line, tick, every });
                }
                Record::Command(CommandRecord { command, .. }) => {
                    parser.check(line, command, &mut creatures, capacity)?
                }
                Record::End(_) => end_line = Some(line),
            }
            replay.add(record);
        }
        Ok(replay)
    }

    /// What the session started from.
    pub fn start(&self) -> &Start {
        &self.start
    }

    /// The world before its first tick.
    pub fn world(&self) -> World {
        // `parse` built this same world once and refused the file if it
        // could not, and building a world is a pure function of `start`.
        self.start.world().expect("Replay::parse checked that the world can be built")
    }

    /// The commands to apply, in order, before the tick that leaves
    /// `world.ticks() == tick`.
    pub fn commands_due(&self, tick: u64) -> &[Command] {
        let from = self.ticks.partition_point(|&t| t < tick);
        let to = self.ticks.partition_point(|&t| t <= tick);
        &self.commands[from..to]
    }

    /// The periodic checkpoints, in tick order.
    pub fn checkpoints(&self) -> &[Checkpoint] {
        &self.checkpoints
    }

    /// The end record: `None` for a recording that was interrupted.
    pub fn end(&self) -> Option<Checkpoint> {
        self.end
    }

    /// The last tick the file speaks for: its end record's, or, for an
    /// interrupted recording, its last checkpoint's or command's.
    pub fn last_tick(&self) -> Option<u64> {
        match self.end {
            Some(end) => Some(end.tick),
            None => self.checkpoints.last().map(|c| c.tick).into_iter().chain(self.ticks.last().copied()).max(),
        }
    }

    fn add(&mut self, record: Record) {
        match record {
            Record::Command(CommandRecord { tick, command }) => {
                self.ticks.push(tick);
                self.commands.push(command);
            }
            Record::Checkpoint(CheckpointRecord { checkpoint, hash, commands }) => {
                self.checkpoints.push(Checkpoint { tick: checkpoint, hash, commands });
            }
            Record::End(EndRecord { end, hash, commands }) => self.end = Some(Checkpoint { tick: end, hash, commands }),
        }
    }
}

/// One line after the header.
enum Record {
    Command(CommandRecord),
    Checkpoint(CheckpointRecord),
    End(EndRecord),
}

impl Record {
    fn tick(&self) -> u64 {
        match *self {
            Record::Command(CommandRecord { tick, .. }) => tick,
            Record::Checkpoint(CheckpointRecord { checkpoint, .. }) => checkpoint,
            Record::End(EndRecord { end, .. }) => end,
        }
    }
}

/// Turns lines into records, with errors that say where.
struct Parser<'a> {
    file: &'a str,
    /// The number of the last line when it has no newline.
    cut: Option<usize>,
}

impl Parser<'_> {
    fn json(&self, text: &str, line: usize) -> Result<Value, ReplayError> {
        serde_json::from_str(text).map(|Unique(value)| value).map_err(|e| {
            let file = self.file.to_string();
            if self.cut == Some(line) {
                return ReplayError::Truncated { file, line };
            }
            // serde's message ends with the position within the line,
            // which as a column is what a reader needs.
            let message = e.to_string();
            let position = format!(" at line {} column {}", e.line(), e.column());
            let message = format!("{} at column {}", message.strip_suffix(&position).unwrap_or(&message), e.column());
            match e.classify() {
                // Valid JSON that breaks the one rule `Unique` adds.
                serde_json::error::Category::Data => ReplayError::DuplicateKey { file, line, message },
                _ => ReplayError::NotJson { file, line, message },
            }
        })
    }

    fn bad(&self, line: usize, what: &'static str, message: impl ToString) -> ReplayError {
        ReplayError::BadRecord { file: self.file.to_string(), line, what, message: message.to_string() }
    }

    /// A command delve could have recorded: one that applies as it is
    /// (see [`Command::problem`]) and, for a spawn, keeps the world's
    /// `creatures` (counted as if every spawn found room) within its
    /// [`capacity`](World::capacity).
    fn check(&self, line: usize, command: &Command, creatures: &mut u64, capacity: u64) -> Result<(), ReplayError> {
        if let Some(problem) = command.problem() {
            return Err(self.bad(line, "command", problem));
        }
        if let Command::Spawn { count, .. } = *command {
            *creatures += u64::from(count);
            if *creatures > capacity {
                let message = format!(
                    "spawn of {count} makes {creatures} creatures, more than the {capacity} this level holds (one per free cell, at most {MAX_CREATURES})"
                );
                return Err(self.bad(line, "command", message));
            }
        }
        Ok(())
    }

    /// Refuses a command line with a key its command does not have
    /// (`{"tick":15,"cmd":"door","extra":1}`), which serde would pass over:
    /// a command means one thing, and the digest covers it as delve writes
    /// it. A command writes every key it has, so the keys of its own line
    /// are the ones it knows.
    fn known_keys(&self, line: usize, record: &CommandRecord, keys: &[String]) -> Result<(), ReplayError> {
        let canonical = serde_json::to_value(record).unwrap_or_default();
        let known: Vec<&String> = canonical.as_object().map_or(Vec::new(), |o| o.keys().collect());
        let Some(unknown) = keys.iter().find(|k| !known.contains(k)) else { return Ok(()) };
        let name = canonical.get("cmd").and_then(Value::as_str).unwrap_or("command").to_owned();
        let list: Vec<&str> = known.iter().map(|k| k.as_str()).collect();
        let message = format!("unknown key {unknown:?} (a {name} has the keys {})", list.join(", "));
        Err(self.bad(line, "command", message))
    }

    /// The session's start, how many creatures its world begins with, and
    /// how many it can hold.
    fn header(&self, value: Value) -> Result<(Start, u64, u64), ReplayError> {
        let file = self.file.to_string();
        let Some(version) = value.get(HEADER_KEY) else {
            return Err(ReplayError::NoHeader { file, version: FORMAT_VERSION });
        };
        if version.as_u64() != Some(u64::from(FORMAT_VERSION)) {
            return Err(ReplayError::Version { file, found: version.to_string(), supported: FORMAT_VERSION });
        }
        let header: Header = serde_json::from_value(value).map_err(|e| self.bad(1, "header", e))?;
        if let Some(problem) = header.settings.problem() {
            return Err(self.bad(1, "header", problem));
        }
        let actual = level_checksum(&header.level_text);
        if actual != header.level_checksum {
            return Err(ReplayError::WrongLevel { file, expected: hex(header.level_checksum), actual: hex(actual) });
        }
        let level = Level::parse(&header.level_text, &header.level)
            .map_err(|source| ReplayError::Level { file: file.clone(), source: Box::new(source) })?;
        if level.name != header.level {
            let message = format!("level {:?} but the level text is named {:?}", header.level, level.name);
            return Err(self.bad(1, "header", message));
        }
        if let Some(problem) = header.rules.problem(&level) {
            return Err(self.bad(1, "header", problem));
        }
        let start =
            Start { level, seed: header.seed, settings: header.settings, spawns: header.spawns, rules: header.rules };
        let world = start.world().map_err(|source| ReplayError::World { file, source })?;
        Ok((start, world.creatures().len() as u64, world.capacity() as u64))
    }

    fn record(&self, value: Value, line: usize) -> Result<Record, ReplayError> {
        let has = |key| value.get(key).is_some();
        if has("tick") {
            let keys: Vec<String> = value.as_object().map_or(Vec::new(), |o| o.keys().cloned().collect());
            let record: CommandRecord = serde_json::from_value(value).map_err(|e| self.bad(line, "command", e))?;
            self.known_keys(line, &record, &keys)?;
            Ok(Record::Command(record))
        } else if has("checkpoint") {
            serde_json::from_value(value).map(Record::Checkpoint).map_err(|e| self.bad(line, "checkpoint", e))
        } else if has("end") {
            serde_json::from_value(value).map(Record::End).map_err(|e| self.bad(line, "end record", e))
        } else {
            Err(ReplayError::UnknownRecord { file: self.file.to_string(), line })
        }
    }
}
