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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Algorithm;

    #[test]
    fn commands_read_as_json_lines() {
        let cases = [
            (Command::Move { dx: 1, dy: -1 }, r#"{"cmd":"move","dx":1,"dy":-1}"#),
            (Command::Door, r#"{"cmd":"door"}"#),
            (Command::Run { dx: 0, dy: 1 }, r#"{"cmd":"run","dx":0,"dy":1}"#),
            (Command::Stop, r#"{"cmd":"stop"}"#),
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
