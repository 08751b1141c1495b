//! Commands: the only way anything changes the world.
//!
//! The terminal front end, the replay player and the scripted bot all speak
//! in commands, so a session is fully described by its seed, its level and
//! the commands applied at each tick.

use super::Kind;
use super::settings::Setting;
use super::world::MAX_CREATURES;
use serde::{Deserialize, Serialize};

/// One change to the world.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "cmd")]
#[allow(missing_docs, reason = "each variant's doc describes its fields")]
pub enum Command {
    /// Step the player one cell by (dx, dy), each −1, 0 or 1, as soon as
    /// its pace allows (4 ticks a step, 4·√2 diagonally). One move waits;
    /// a newer one replaces it. Ignored when the step is not legal (a wall,
    /// a cut corner) when its time comes.
    Move { dx: i8, dy: i8 },
    /// Keep stepping by (dx, dy) at the pace until a wall is ahead, a side
    /// opens (a junction, a door beside), a monster comes into view, or
    /// another command comes.
    Run { dx: i8, dy: i8 },
    /// Drop the waiting move and end a run.
    Stop,
    /// Open or close the first door next to the player (in neighbour
    /// order). A door with a creature in it stays open.
    Door,
    /// Change one setting.
    Set(Setting),
    /// Add `count` creatures of `kind` on random free cells.
    Spawn { kind: Kind, count: u32 },
}

impl Command {
    /// What is wrong with a command delve never issues (a hand-edited
    /// replay, a library caller's typo): a step that is no step, a spawn of
    /// no creature or of more than [`MAX_CREATURES`], a setting out of its
    /// range. `None` for a command the world can take as it is. The world
    /// still copes with such a command (it ignores the step, clamps the
    /// weight, cuts the spawn at the cap), but a recording that holds one
    /// was not made by delve.
    pub fn problem(&self) -> Option<String> {
        match *self {
            Command::Move { dx, dy } => step_problem("move", dx, dy),
            Command::Run { dx, dy } => step_problem("run", dx, dy),
            Command::Spawn { count: 0, .. } => Some("spawn of 0 creatures".to_string()),
            Command::Spawn { count, .. } if count as usize > MAX_CREATURES => {
                Some(format!("spawn of {count} creatures is above the cap of {MAX_CREATURES} creatures"))
            }
            Command::Set(setting) => setting.problem(),
            _ => None,
        }
    }
}

/// What is wrong with a step (dx, dy) of a move or a run, if anything.
fn step_problem(what: &str, dx: i8, dy: i8) -> Option<String> {
    if !(-1..=1).contains(&dx) || !(-1..=1).contains(&dy) {
        Some(format!("{what} ({dx}, {dy}) is not a step: dx and dy are each -1, 0 or 1"))
    } else if (dx, dy) == (0, 0) {
        Some(format!("{what} (0, 0) is not a step"))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_as_json_lines() {
        let cases = [
            (Command::Move { dx: 1, dy: -1 }, r#"{"cmd":"move","dx":1,"dy":-1}"#),
            (Command::Door, r#"{"cmd":"door"}"#),
            (Command::Run { dx: 0, dy: 1 }, r#"{"cmd":"run","dx":0,"dy":1}"#),
            (Command::Stop, r#"{"cmd":"stop"}"#),
            (
                Command::Set(Setting::Planner(crate::search::Planner::GREEDY)),
                r#"{"cmd":"set","setting":"algorithm","value":"greedy"}"#,
            ),
            (Command::Spawn { kind: Kind::Boid, count: 3 }, r#"{"cmd":"spawn","kind":"boid","count":3}"#),
        ];
        for (cmd, text) in cases {
            assert_eq!(serde_json::to_string(&cmd).unwrap(), text);
            assert_eq!(serde_json::from_str::<Command>(text).unwrap(), cmd);
        }
    }

    #[test]
    fn only_commands_delve_could_issue_have_no_problem() {
        let fine = [
            Command::Move { dx: -1, dy: 1 },
            Command::Move { dx: 0, dy: -1 },
            Command::Run { dx: 1, dy: 1 },
            Command::Stop,
            Command::Door,
            Command::Spawn { kind: Kind::Boid, count: 1 },
            Command::Spawn { kind: Kind::Monster, count: MAX_CREATURES as u32 },
            Command::Set(Setting::Weight(2.0)),
        ];
        for c in fine {
            assert_eq!(c.problem(), None, "{c:?}");
        }
        let bad = [
            (Command::Move { dx: 5, dy: 0 }, "move (5, 0) is not a step: dx and dy are each -1, 0 or 1"),
            (Command::Move { dx: 0, dy: -2 }, "move (0, -2) is not a step: dx and dy are each -1, 0 or 1"),
            (Command::Move { dx: 0, dy: 0 }, "move (0, 0) is not a step"),
            (Command::Run { dx: 0, dy: 0 }, "run (0, 0) is not a step"),
            (Command::Run { dx: -3, dy: 1 }, "run (-3, 1) is not a step: dx and dy are each -1, 0 or 1"),
            (Command::Spawn { kind: Kind::Boid, count: 0 }, "spawn of 0 creatures"),
            (
                Command::Spawn { kind: Kind::Boid, count: u32::MAX },
                "spawn of 4294967295 creatures is above the cap of 100000 creatures",
            ),
            (Command::Set(Setting::Weight(-1e308)), "weight -1e308 is not from 1 to 10"),
        ];
        for (c, message) in bad {
            assert_eq!(c.problem().as_deref(), Some(message), "{c:?}");
        }
    }
}
