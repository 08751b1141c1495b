//! What a level's metadata asks of a session played on it: a goal, and
//! doors that cycle by themselves, in game time.
//!
//! The level owns these values and the bounds its format accepts; the
//! simulation plays by them (`sim::Rules` takes the goal, `sim::Doors` the
//! cycle) and validates what reaches it by another way, such as a
//! hand-edited replay header. Keeping them here keeps `level` below `sim`.

use serde::{Deserialize, Serialize};

/// Ticks in a second of game time. A level's times are ticks (a door
/// cycle) or seconds counted in ticks (a survival goal), so the rate belongs
/// to the level format; the world steps at it (`sim` re-exports it).
pub const TICKS_PER_SECOND: u32 = 20;

/// What wins a session (level metadata `goal:`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[allow(missing_docs, reason = "the variant's doc describes its field")]
pub enum Goal {
    /// Nothing: a sandbox that only a loss of every life ends.
    #[default]
    None,
    /// Stand on the level's `G`.
    Reach,
    /// Stay uncaught (with a life left) until this many ticks have passed.
    Survive { ticks: u64 },
}

/// Shortest door cycle: one second. A door toggling faster than the player
/// can take a few steps (a step every 4 ticks) only flickers.
pub const MIN_DOOR_CYCLE: u32 = TICKS_PER_SECOND;
/// Longest door cycle: one hour of game time.
pub const MAX_DOOR_CYCLE: u32 = 3600 * TICKS_PER_SECOND;

/// How the doors of a level change by themselves (level metadata
/// `doors: cycle N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoorCycle {
    /// Ticks between two toggles, [`MIN_DOOR_CYCLE`] to [`MAX_DOOR_CYCLE`].
    pub period: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn door_cycles_run_from_a_second_to_an_hour() {
        assert_eq!((MIN_DOOR_CYCLE, MAX_DOOR_CYCLE), (20, 72_000));
    }
}
