//! The records of a replay file and what a session starts from.

use crate::level::Level;
use crate::sim::{Command, Kind, Rules, Settings, StateHasher, World, WorldError, hex};
use serde::{Deserialize, Serialize};

/// The version of the file format this build writes and reads. It changes
/// whenever a record changes shape or a hash changes meaning, so an old
/// reader refuses a new file with a clear message instead of misreading
/// it, and a new reader refuses an old one. Version 2 added the command
/// digest to checkpoints and the end record, hashes every setting, and
/// plays by the game's rules (the header's `rules`; the player's pace,
/// runs, lives and monsters' perception), so a version 1 session would not
/// replay the same. Version 3 changed no record and no behaviour: its
/// checkpoints hold the hash of the world's state taken by construction
/// ([`StateHash`](crate::hash::StateHash): every field of the state, the
/// generators' words fed directly), which a version 2 file's hashes are
/// not, so they could not be verified and version 2 files are refused.
pub const FORMAT_VERSION: u32 = 3;

/// Ticks between two checkpoints: 5 seconds of game time, so a crash loses
/// at most that much of a recording. Every one is written, so a reader
/// refuses a file that skips one: the work of verifying a file grows with
/// its size, and a few bytes cannot claim days of ticks.
pub const CHECKPOINT_EVERY: u64 = 100;

/// The latest tick a replay file may speak of: 100 million ticks, 57 days
/// of game time. Anything later is refused rather than simulated for hours.
pub const MAX_TICK: u64 = 100_000_000;

/// Creatures spawned on random free cells before the first tick, beyond
/// the level's markers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Spawns {
    /// Monsters, which hunt the player.
    pub monster: u32,
    /// Wanderers, which roam.
    pub wanderer: u32,
    /// Fleeing creatures, which run from the player and monsters.
    pub fleeing: u32,
    /// Boids, which flock.
    pub boid: u32,
}

impl Spawns {
    /// The spawns as commands, in [`Kind::ALL`] order, skipping zeros.
    pub fn commands(&self) -> Vec<Command> {
        [
            (Kind::Monster, self.monster),
            (Kind::Wanderer, self.wanderer),
            (Kind::Fleeing, self.fleeing),
            (Kind::Boid, self.boid),
        ]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(kind, count)| Command::Spawn { kind, count })
        .collect()
    }

    /// How many creatures the spawns add, all kinds together.
    pub fn total(&self) -> u64 {
        [self.monster, self.wanderer, self.fleeing, self.boid].into_iter().map(u64::from).sum()
    }
}

/// Everything a session starts from: with the commands, it decides the
/// whole session. A live game, `delve sim` and a replay all build their
/// first world through [`Start::world`], so they cannot disagree about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Start {
    /// The level, whose full text the header embeds.
    pub level: Level,
    /// Seed of every random stream in the world.
    pub seed: u64,
    /// Settings before the first command changes any.
    pub settings: Settings,
    /// Creatures spawned before the first tick, beyond the level's markers.
    pub spawns: Spawns,
    /// A game's goal and lives, or the sandbox's none.
    pub rules: Rules,
}

impl Start {
    /// The world before its first tick: the level's creatures, then the
    /// spawns applied as commands stamped 0. Refuses a start whose markers
    /// and spawns together exceed the world's
    /// [capacity](World::capacity) rather than cutting the spawns short.
    pub fn world(&self) -> Result<World, WorldError> {
        let mut world = World::with_rules(&self.level, self.seed, self.settings, self.rules)?;
        let (markers, spawns, capacity) = (world.creatures().len(), self.spawns.total(), world.capacity());
        if markers as u64 + spawns > capacity as u64 {
            return Err(WorldError::TooManyCreatures { level: self.level.name.clone(), markers, spawns, capacity });
        }
        for c in self.spawns.commands() {
            world.apply(c);
        }
        Ok(world)
    }
}

/// The FNV-1a hash of a level's text, as the header stores it.
pub fn level_checksum(text: &str) -> u64 {
    let mut h = StateHasher::default();
    h.bytes(text.as_bytes());
    h.finish()
}

/// What the file claims for a tick: the world's state hash and the digest
/// of the commands applied before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The tick the world had reached.
    pub tick: u64,
    /// [`World::hash`](crate::sim::World::hash) at that tick.
    pub hash: u64,
    /// The digest of the command lines applied before it (see [`CommandDigest`]).
    pub commands: u64,
}

/// The running digest of a session's commands: FNV-1a over each command's
/// record line exactly as delve writes it (`{"tick":T,"cmd":…}` and its
/// newline), in the order applied. The state hash alone misses edits the
/// world forgets (a step re-stamped a few ticks earlier that ends in the
/// same cell, a setting that decides nothing); the digest does not, since
/// it covers each command and its tick.
#[derive(Clone, Debug, Default)]
pub struct CommandDigest(StateHasher);

impl CommandDigest {
    /// Adds `command`, applied when the world was at `tick`.
    pub fn add(&mut self, tick: u64, command: Command) {
        self.0.bytes(&CommandRecord { tick, command }.line());
    }

    /// The digest of every command added so far.
    pub fn value(&self) -> u64 {
        self.0.finish()
    }
}

/// The first line. Field order is the order written: the short facts
/// first, the long level text last, so the line reads well in a pager.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Header {
    /// The format version; also the key that marks a delve replay.
    pub delve_replay: u32,
    /// The delve version that recorded the file (for people: a file from
    /// another version is still read if the format version matches).
    pub delve: String,
    pub seed: u64,
    pub level: String,
    #[serde(with = "hex_hash")]
    pub level_checksum: u64,
    pub settings: Settings,
    pub spawns: Spawns,
    /// The rules played by; a header without them is a sandbox session.
    #[serde(default)]
    pub rules: Rules,
    pub level_text: String,
}

/// The key that marks the header.
pub(super) const HEADER_KEY: &str = "delve_replay";

/// Whether `text` begins like a replay file (its header's first key), so
/// that a replay handed over where a level belongs can be named as such.
pub fn looks_like_replay(text: &[u8]) -> bool {
    let key = format!("{{\"{HEADER_KEY}\"");
    text.starts_with(key.as_bytes())
}

impl Header {
    pub fn of(start: &Start) -> Header {
        Header {
            delve_replay: FORMAT_VERSION,
            delve: env!("CARGO_PKG_VERSION").to_string(),
            seed: start.seed,
            level: start.level.name.clone(),
            level_checksum: level_checksum(&start.level.source),
            settings: start.settings,
            spawns: start.spawns,
            rules: start.rules,
            level_text: start.level.source.clone(),
        }
    }
}

/// `{"tick":T, …command…}`.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct CommandRecord {
    pub tick: u64,
    #[serde(flatten)]
    pub command: Command,
}

impl CommandRecord {
    /// The record as one line of the file, newline included.
    pub fn line(&self) -> Vec<u8> {
        let mut line = serde_json::to_vec(self).expect("a command record has only string keys, so it serializes");
        line.push(b'\n');
        line
    }
}

/// `{"checkpoint":T,"hash":H,"commands":D}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CheckpointRecord {
    pub checkpoint: u64,
    #[serde(with = "hex_hash")]
    pub hash: u64,
    #[serde(with = "hex_hash")]
    pub commands: u64,
}

/// `{"end":T,"hash":H,"commands":D}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EndRecord {
    pub end: u64,
    #[serde(with = "hex_hash")]
    pub hash: u64,
    #[serde(with = "hex_hash")]
    pub commands: u64,
}

/// Hashes as 16 lowercase hex digits, the way `delve sim` prints them.
mod hex_hash {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(hash: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::hex(*hash))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        match u64::from_str_radix(&text, 16) {
            Ok(hash) if text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(hash),
            _ => Err(D::Error::custom(format!("hash {text:?} is not 16 hex digits"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Setting;

    #[test]
    fn records_read_back_as_written() {
        let text = r#"{"tick":40,"cmd":"set","setting":"algorithm","value":"greedy"}"#;
        let r: CommandRecord = serde_json::from_str(text).unwrap();
        assert_eq!((r.tick, r.command), (40, Command::Set(Setting::Planner(crate::search::Planner::GREEDY))));
        assert_eq!(serde_json::to_string(&r).unwrap(), text);
        let text = r#"{"checkpoint":100,"hash":"00000000000000ab","commands":"00000000000000cd"}"#;
        let c: CheckpointRecord = serde_json::from_str(text).unwrap();
        assert_eq!((c.checkpoint, c.hash, c.commands), (100, 0xab, 0xcd));
        assert_eq!(serde_json::to_string(&c).unwrap(), text);
    }

    #[test]
    fn hashes_are_exactly_16_hex_digits() {
        for bad in ["ab", "+0000000000000ab", "00000000000000ag", "00000000000000000"] {
            let text = format!(r#"{{"end":1,"hash":"{bad}","commands":"0000000000000000"}}"#);
            let e = serde_json::from_str::<EndRecord>(&text).unwrap_err();
            assert!(e.to_string().contains("is not 16 hex digits"), "{bad}: {e}");
        }
    }

    #[test]
    fn spawns_become_commands_in_kind_order() {
        let s = Spawns { monster: 0, wanderer: 2, fleeing: 0, boid: 5 };
        assert_eq!(
            s.commands(),
            [Command::Spawn { kind: Kind::Wanderer, count: 2 }, Command::Spawn { kind: Kind::Boid, count: 5 }]
        );
        assert_eq!(serde_json::from_str::<Spawns>(r#"{"boid":5,"wanderer":2}"#).unwrap(), s);
    }

    /// The digest is FNV-1a over the lines as written, so anyone can
    /// recompute it from the file; the tick is part of what it covers.
    #[test]
    fn the_digest_covers_each_command_line_and_its_tick() {
        let door = r#"{"tick":29,"cmd":"door"}"#;
        let step = r#"{"tick":30,"cmd":"move","dx":1,"dy":0}"#;
        let mut d = CommandDigest::default();
        d.add(29, Command::Door);
        d.add(30, Command::Move { dx: 1, dy: 0 });
        assert_eq!(d.value(), level_checksum(&format!("{door}\n{step}\n")));
        let mut early = CommandDigest::default();
        early.add(2, Command::Door);
        early.add(30, Command::Move { dx: 1, dy: 0 });
        assert_ne!(early.value(), d.value());
        assert_eq!(CommandDigest::default().value(), level_checksum(""));
    }

    #[test]
    fn a_start_beyond_the_capacity_is_refused() {
        // Five free cells: the player's, two markers, two more.
        let level = Level::parse("name: pen\n#######\n#@MM..#\n#######\n", "pen.txt").unwrap();
        let start = |monster| Start {
            level: level.clone(),
            seed: 1,
            settings: Settings::default(),
            spawns: Spawns { monster, ..Spawns::default() },
            rules: Rules::SANDBOX,
        };
        assert_eq!(start(3).world().unwrap().creatures().len(), 5);
        let e = start(4).world().unwrap_err();
        assert_eq!(
            e.to_string(),
            "level 'pen' has 2 creature markers and 4 creatures to spawn: more than the 5 it holds (one per free cell, at most 100000)"
        );
        let all = Spawns { monster: u32::MAX, wanderer: u32::MAX, fleeing: u32::MAX, boid: u32::MAX };
        let s = Start { spawns: all, ..start(0) };
        assert!(matches!(s.world(), Err(WorldError::TooManyCreatures { spawns: 17_179_869_180, capacity: 5, .. })));
    }
}
