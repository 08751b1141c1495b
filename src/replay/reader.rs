//! Reading a replay file: every line parsed and checked before anything
//! runs, so a damaged file is one error message and never a panic.

use super::error::ReplayError;
use super::format::{
    Checkpoint, CheckpointRecord, CommandRecord, EndRecord, FORMAT_VERSION, HEADER_KEY, Header, MAX_TICK, Start,
    level_checksum,
};
use crate::level::Level;
use crate::sim::{Command, TICKS_PER_SECOND, World, hex};
use serde_json::Value;
use std::path::Path;

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
    /// Reads and checks the replay at `path`.
    pub fn load(path: &Path) -> Result<Replay, ReplayError> {
        let file = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => Replay::parse(&text, &file),
            Err(io) => Err(ReplayError::Io { file, io }),
        }
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
        let start = parser.header(parser.json(first, 1)?)?;
        let mut replay = Replay { start, ticks: Vec::new(), commands: Vec::new(), checkpoints: Vec::new(), end: None };
        let mut previous = 0;
        let mut end_line = None;
        for (line, text) in (2..).zip(rest) {
            let value = parser.json(text, line)?;
            if let Some(end_line) = end_line {
                return Err(ReplayError::AfterEnd { file: file.to_string(), line, end_line });
            }
            let tick = replay.add(parser.record(value, line)?);
            if tick > MAX_TICK {
                let days = MAX_TICK / u64::from(TICKS_PER_SECOND) / 86_400;
                return Err(ReplayError::TooLong { file: file.to_string(), line, tick, max: MAX_TICK, days });
            }
            if tick < previous {
                return Err(ReplayError::Backwards { file: file.to_string(), line, tick, previous });
            }
            previous = tick;
            if replay.end.is_some() {
                end_line = Some(line);
            }
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

    /// Adds a record; returns its tick.
    fn add(&mut self, record: Record) -> u64 {
        match record {
            Record::Command(CommandRecord { tick, command }) => {
                self.ticks.push(tick);
                self.commands.push(command);
                tick
            }
            Record::Checkpoint(CheckpointRecord { checkpoint, hash }) => {
                self.checkpoints.push(Checkpoint { tick: checkpoint, hash });
                checkpoint
            }
            Record::End(EndRecord { end, hash }) => {
                self.end = Some(Checkpoint { tick: end, hash });
                end
            }
        }
    }
}

/// One line after the header.
enum Record {
    Command(CommandRecord),
    Checkpoint(CheckpointRecord),
    End(EndRecord),
}

/// Turns lines into records, with errors that say where.
struct Parser<'a> {
    file: &'a str,
    /// The number of the last line when it has no newline.
    cut: Option<usize>,
}

impl Parser<'_> {
    fn json(&self, text: &str, line: usize) -> Result<Value, ReplayError> {
        serde_json::from_str(text).map_err(|e| {
            if self.cut == Some(line) {
                return ReplayError::Truncated { file: self.file.to_string(), line };
            }
            // serde's message ends with the position within the line,
            // which as a column is what a reader needs.
            let message = e.to_string();
            let position = format!(" at line {} column {}", e.line(), e.column());
            let message = message.strip_suffix(&position).unwrap_or(&message);
            ReplayError::NotJson {
                file: self.file.to_string(),
                line,
                message: format!("{message} at column {}", e.column()),
            }
        })
    }

    fn bad(&self, line: usize, what: &'static str, message: impl ToString) -> ReplayError {
        ReplayError::BadRecord { file: self.file.to_string(), line, what, message: message.to_string() }
    }

    fn header(&self, value: Value) -> Result<Start, ReplayError> {
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
        let start =
            Start { level, seed: header.seed, settings: header.settings, spawns: header.spawns, rules: header.rules };
        start.world().map_err(|source| ReplayError::World { file, source })?;
        Ok(start)
    }

    fn record(&self, value: Value, line: usize) -> Result<Record, ReplayError> {
        let has = |key| value.get(key).is_some();
        if has("tick") {
            serde_json::from_value(value).map(Record::Command).map_err(|e| self.bad(line, "command", e))
        } else if has("checkpoint") {
            serde_json::from_value(value).map(Record::Checkpoint).map_err(|e| self.bad(line, "checkpoint", e))
        } else if has("end") {
            serde_json::from_value(value).map(Record::End).map_err(|e| self.bad(line, "end record", e))
        } else {
            Err(ReplayError::UnknownRecord { file: self.file.to_string(), line })
        }
    }
}
