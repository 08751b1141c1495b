//! The rules of a session: what wins it, how many catches lose it, and how
//! it stands.
//!
//! A sandbox (`delve sim` by default) has no goal and unlimited lives, so
//! benchmarks run as long as asked; a game takes its goal and lives from
//! the level's metadata. The rules are part of a session's start (a replay
//! header holds them) and of the world's hash.

use super::TICKS_PER_SECOND;
use crate::grid::Cell;
use crate::hash::{StateHash, StateHasher};
use crate::level::{Goal, Level, MAX_LIVES, MAX_SURVIVE_SECONDS};
use serde::{Deserialize, Serialize};

/// Lives of a game whose level does not say.
pub const DEFAULT_LIVES: u32 = 3;

/// Ticks of grace after a catch at least, during which no monster can
/// catch the player again (2 seconds).
pub const GRACE_TICKS: u32 = 2 * TICKS_PER_SECOND;
/// After its first [`GRACE_TICKS`] the grace lasts until the player stands
/// this many steps (king's moves) from the cell it was caught in: a player
/// who has not moved away yet cannot be caught again.
pub const GRACE_CELLS: i32 = 3;
/// The longest grace (10 seconds): a player who stands where it was caught
/// has had its chance to act, and standing still would otherwise be a
/// shield (a `survive` goal won by one catch).
pub const MAX_GRACE_TICKS: u32 = 10 * TICKS_PER_SECOND;
/// Ticks a monster that caught the player forgets it (10 seconds): it
/// perceives nothing, so it cannot come straight back for another catch.
pub const FORGET_TICKS: u64 = 10 * TICKS_PER_SECOND as u64;

/// The grace after a catch: since when, and where the player was caught.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grace {
    /// The tick of the catch.
    pub since: u64,
    /// The player's cell at the catch.
    pub at: Cell,
}

impl Grace {
    /// Whether the player, in `player` at `tick`, has moved away from
    /// where it was caught.
    fn moved_away(&self, player: Cell) -> bool {
        (player.x - self.at.x).abs().max((player.y - self.at.y).abs()) >= GRACE_CELLS
    }

    /// Ticks the grace lasts at most from `tick` on, for a player in
    /// `player`: to the end of its first [`GRACE_TICKS`] once the player
    /// has moved away, else to [`MAX_GRACE_TICKS`]; 0 when it is over.
    pub fn ticks_left(&self, tick: u64, player: Cell) -> u32 {
        let end = if self.moved_away(player) { GRACE_TICKS } else { MAX_GRACE_TICKS };
        let elapsed = tick.saturating_sub(self.since);
        u32::try_from(u64::from(end).saturating_sub(elapsed)).unwrap_or(0)
    }
}

/// The rules a world plays by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// What wins the session.
    pub goal: Goal,
    /// Catches the player can take; `None` is a sandbox (unlimited).
    pub lives: Option<u32>,
}

impl Rules {
    /// No goal and unlimited lives: the world runs as long as asked.
    pub const SANDBOX: Rules = Rules { goal: Goal::None, lives: None };

    /// The rules of a game on `level`: its `goal:` (else reach when it has
    /// a `G`, none otherwise) and its `lives:` (else [`DEFAULT_LIVES`]).
    pub fn game(level: &Level) -> Rules {
        let goal = level.objective.unwrap_or(if level.goal.is_some() { Goal::Reach } else { Goal::None });
        Rules { goal, lives: Some(level.lives.unwrap_or(DEFAULT_LIVES)) }
    }
}

impl Rules {
    /// What is wrong with rules no level could give (a hand-edited replay
    /// header): lives or a survival time outside what `lives:` and `goal:`
    /// accept, or a goal to reach on a level without a `G`. `None` for
    /// rules delve plays by.
    pub fn problem(&self, level: &Level) -> Option<String> {
        let most = MAX_SURVIVE_SECONDS * u64::from(TICKS_PER_SECOND);
        match (self.goal, self.lives) {
            (_, Some(lives)) if !(1..=MAX_LIVES).contains(&lives) => {
                Some(format!("lives {lives} is not from 1 to {MAX_LIVES}"))
            }
            (Goal::Survive { ticks }, _) if ticks == 0 || ticks > most || ticks % u64::from(TICKS_PER_SECOND) != 0 => {
                Some(format!("survive {ticks} ticks is not a whole number of seconds from 1 to {MAX_SURVIVE_SECONDS}"))
            }
            (Goal::Reach, _) if level.goal.is_none() => Some("goal reach but the level has no 'G' to reach".into()),
            _ => None,
        }
    }
}

/// How a session stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    /// Neither won nor lost yet (a sandbox always).
    #[default]
    Running,
    /// The goal was met.
    Won,
    /// The last life was lost.
    Lost,
}

impl Outcome {
    /// As `delve sim --json` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Running => "running",
            Outcome::Won => "won",
            Outcome::Lost => "lost",
        }
    }

    /// Whether the session is over (the world no longer changes).
    pub fn is_over(self) -> bool {
        self != Outcome::Running
    }
}

impl StateHash for Goal {
    fn hash_into(&self, h: &mut StateHasher) {
        match *self {
            Goal::None => h.u8(0),
            Goal::Reach => h.u8(1),
            Goal::Survive { ticks } => {
                h.u8(2);
                h.add(&ticks);
            }
        }
    }
}

impl StateHash for Rules {
    fn hash_into(&self, h: &mut StateHasher) {
        let Rules { goal, lives } = self;
        h.add(goal);
        h.add(lives);
    }
}

impl StateHash for Grace {
    fn hash_into(&self, h: &mut StateHasher) {
        let Grace { since, at } = self;
        h.add(since);
        h.add(at);
    }
}

impl StateHash for Outcome {
    fn hash_into(&self, h: &mut StateHasher) {
        h.u8(match self {
            Outcome::Running => 0,
            Outcome::Won => 1,
            Outcome::Lost => 2,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_takes_the_level_metadata_or_the_defaults() {
        let with_g = Level::parse("@.G\n", "t").unwrap();
        assert_eq!(Rules::game(&with_g), Rules { goal: Goal::Reach, lives: Some(DEFAULT_LIVES) });
        let without = Level::parse("@..\n", "t").unwrap();
        assert_eq!(Rules::game(&without), Rules { goal: Goal::None, lives: Some(DEFAULT_LIVES) });
        let movingai = Level::parse("type octile\nheight 1\nwidth 3\nmap\n.GS\n", "t").unwrap();
        assert_eq!(Rules::game(&movingai).goal, Goal::None, "a Moving AI 'G' is terrain");
        let meta = Level::parse("goal: survive 30\nlives: 1\n@.G\n", "t").unwrap();
        assert_eq!(Rules::game(&meta), Rules { goal: Goal::Survive { ticks: 600 }, lives: Some(1) });
    }

    #[test]
    fn only_rules_a_level_could_give_have_no_problem() {
        let with_g = Level::parse("@.G\n", "t").unwrap();
        let without = Level::parse("@..\n", "t").unwrap();
        let rules = |goal, lives| Rules { goal, lives };
        for fine in [Rules::SANDBOX, rules(Goal::Reach, Some(1)), rules(Goal::Survive { ticks: 20 }, Some(99))] {
            assert_eq!(fine.problem(&with_g), None, "{fine:?}");
        }
        let bad = [
            (rules(Goal::None, Some(0)), "lives 0 is not from 1 to 99"),
            (rules(Goal::None, Some(100)), "lives 100 is not from 1 to 99"),
            (
                rules(Goal::Survive { ticks: 0 }, None),
                "survive 0 ticks is not a whole number of seconds from 1 to 86400",
            ),
            (
                rules(Goal::Survive { ticks: 21 }, None),
                "survive 21 ticks is not a whole number of seconds from 1 to 86400",
            ),
            (
                rules(Goal::Survive { ticks: 86_401 * 20 }, None),
                "survive 1728020 ticks is not a whole number of seconds from 1 to 86400",
            ),
        ];
        for (r, message) in bad {
            assert_eq!(r.problem(&with_g).as_deref(), Some(message), "{r:?}");
        }
        let reach = rules(Goal::Reach, Some(3));
        assert_eq!(reach.problem(&without).as_deref(), Some("goal reach but the level has no 'G' to reach"));
    }

    #[test]
    fn the_grace_lasts_until_the_player_has_moved_away() {
        let grace = Grace { since: 100, at: Cell::new(10, 10) };
        let (here, near, away) = (Cell::new(10, 10), Cell::new(12, 8), Cell::new(13, 10));
        assert_eq!(grace.ticks_left(100, here), MAX_GRACE_TICKS);
        assert_eq!(grace.ticks_left(100, away), GRACE_TICKS, "two seconds at least, even moved away");
        let after = 100 + u64::from(GRACE_TICKS);
        assert_eq!(grace.ticks_left(after, away), 0, "moved away after the two seconds: over");
        assert_eq!(grace.ticks_left(after, near), MAX_GRACE_TICKS - GRACE_TICKS, "two steps is not away");
        assert_eq!(grace.ticks_left(100 + u64::from(MAX_GRACE_TICKS), here), 0, "ten seconds at most");
        assert_eq!(grace.ticks_left(u64::MAX, here), 0);
    }

    #[test]
    fn rules_serialize_readably() {
        let r = Rules { goal: Goal::Survive { ticks: 600 }, lives: Some(2) };
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(text, r#"{"goal":{"survive":{"ticks":600}},"lives":2}"#);
        assert_eq!(serde_json::from_str::<Rules>(&text).unwrap(), r);
        assert_eq!(serde_json::to_string(&Rules::SANDBOX).unwrap(), r#"{"goal":"none","lives":null}"#);
    }
}
