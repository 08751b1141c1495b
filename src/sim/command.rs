//! Commands: the only way anything changes the world.
//!
//! The terminal front end, the replay player and the scripted bot all speak
//! in commands, so a session is fully described by its seed, its level and
//! the commands applied at each tick.

use super::Kind;
use super::settings::Setting;
use serde::{Deserialize, Serialize};

/// One change to the world.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "cmd")]
#[allow(missing_docs, reason = "each variant's doc describes its fields")]
pub enum Command {
    /// Step the player one cell by (dx, dy), each −1, 0 or 1. Ignored when
    /// the step is not legal (a wall, a cut corner).
    Move { dx: i8, dy: i8 },
    /// Open or close the first door next to the player (in neighbour
    /// order). A door with a creature in it stays open.
    Door,
    /// Change one setting.
    Set(Setting),
    /// Add `count` creatures of `kind` on random free cells.
    Spawn { kind: Kind, count: u32 },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Algorithm;

    #[test]
    fn commands_read_as_json_lines() {
        let cases = [
            (Command::Move { dx: 1, dy: -1 }, r#"{"cmd":"move","dx":1,"dy":-1}"#),
            (Command::Door, r#"{"cmd":"door"}"#),
            (
                Command::Set(Setting::Algorithm(Algorithm::Greedy)),
                r#"{"cmd":"set","setting":"algorithm","value":"greedy"}"#,
            ),
            (Command::Spawn { kind: Kind::Boid, count: 3 }, r#"{"cmd":"spawn","kind":"boid","count":3}"#),
        ];
        for (cmd, text) in cases {
            assert_eq!(serde_json::to_string(&cmd).unwrap(), text);
            assert_eq!(serde_json::from_str::<Command>(text).unwrap(), cmd);
        }
    }
}
