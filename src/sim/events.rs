//! What happened in the world, for the message log: doors, catches, the
//! goal, monsters noticing or losing the player, settings changed.
//!
//! Events are observation only: they decide nothing, so they are not in
//! the hash. The log keeps the most recent [`LOG_CAPACITY`] and counts all,
//! so a front end that remembers the count it last saw shows each once.

use super::doors::Changed;
use super::errand::ErrandKind;
use super::settings::Setting;
use crate::grid::Cell;
/// Events the log keeps.
pub const LOG_CAPACITY: usize = 256;

/// How a monster perceived the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// In line of sight within the detection radius.
    Sight,
    /// Moving within hearing, measured along walkable cells.
    Hearing,
}

/// One thing that happened. Monsters are named by their ordinal among the
/// monsters, from 1, as the panel shows them.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A monster caught the player; lives left (`None`: unlimited).
    Caught {
        /// The monster's ordinal, from 1.
        monster: usize,
        /// Lives left after the catch; `None` in a sandbox.
        lives_left: Option<u32>,
    },
    /// The player opened the door at this cell.
    DoorOpened(Cell),
    /// The player closed the door at this cell.
    DoorClosed(Cell),
    /// The level's cycling doors moved by themselves (`doors: cycle N`):
    /// how many opened, closed, and wait for their doorway to clear.
    DoorsCycled(Changed),
    /// The door command found no door next to the player.
    NoDoor,
    /// The door could not close: something stands in the doorway.
    DoorBlocked,
    /// The player stands on the goal.
    GoalReached,
    /// The session is won: the world stops.
    Won,
    /// The last life is lost: the world stops.
    Lost,
    /// A monster perceived the player and hunts it.
    Noticed {
        /// The monster's ordinal, from 1.
        monster: usize,
        /// How it perceived the player.
        sense: Sense,
    },
    /// A hunting monster no longer perceives the player, last at `at`.
    LostContact {
        /// The monster's ordinal, from 1.
        monster: usize,
        /// The last cell it perceived the player in.
        at: Cell,
    },
    /// A searching monster gave up and goes back to its post.
    GaveUp {
        /// The monster's ordinal, from 1.
        monster: usize,
    },
    /// A setting was changed (by a key or a replayed command).
    SettingChanged(Setting),
    /// A run, travel or exploration was not started: a monster is in view.
    Refused {
        /// The errand asked for.
        errand: ErrandKind,
        /// The first monster in view (its ordinal, from 1).
        monster: usize,
    },
    /// A run, travel or exploration stopped: a monster came into view.
    Interrupted {
        /// The errand that stopped.
        errand: ErrandKind,
        /// The first monster in view (its ordinal, from 1).
        monster: usize,
    },
    /// A run or an exploration stopped: the goal came into view.
    GoalInView(ErrandKind),
    /// A travel or exploration found no way to its cell (from the start,
    /// or once a door closed across it).
    NoRoute(Cell),
    /// An exploration found no cell left unseen within reach.
    Explored,
    /// An exploration heads for a farther frontier than the nearest: a
    /// monster the player remembers was last seen near that one.
    Wary {
        /// The remembered monster nearest the frontier passed over (its
        /// ordinal, from 1).
        monster: usize,
        /// Where the player last saw it.
        seen: Cell,
        /// How long ago, in ticks.
        ticks_ago: u64,
        /// The nearest frontier, passed over.
        skipped: Cell,
        /// The frontier headed for instead.
        to: Cell,
    },
    /// A planner chosen could not run on the level (the corner graph
    /// beyond its cap): the world went on to the next of the cycle.
    PlannerSkipped {
        /// The planner passed over.
        planner: crate::search::Planner,
        /// Why it cannot run.
        why: crate::search::PlanError,
    },
}

/// An event and the tick it happened in.
#[derive(Clone, Debug, PartialEq)]
pub struct Stamped {
    /// The tick it happened in.
    pub tick: u64,
    /// What happened.
    pub event: Event,
}

/// The bounded log: a vector trimmed by half its length once it holds
/// twice the capacity, so pushing stays cheap and the recent events stay
/// one slice.
#[derive(Clone, Debug, Default)]
pub struct Log {
    kept: Vec<Stamped>,
    total: u64,
}

impl Log {
    pub fn push(&mut self, tick: u64, event: Event) {
        if self.kept.len() == 2 * LOG_CAPACITY {
            self.kept.drain(..LOG_CAPACITY);
        }
        self.kept.push(Stamped { tick, event });
        self.total += 1;
    }

    /// The most recent events (at most [`LOG_CAPACITY`]), oldest first.
    pub fn recent(&self) -> &[Stamped] {
        &self.kept[self.kept.len().saturating_sub(LOG_CAPACITY)..]
    }

    pub fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_latest_and_counts_all() {
        let mut log = Log::default();
        for t in 0..3 * LOG_CAPACITY as u64 + 5 {
            log.push(t, Event::NoDoor);
        }
        assert_eq!(log.total(), 3 * LOG_CAPACITY as u64 + 5);
        let recent = log.recent();
        assert_eq!(recent.len(), LOG_CAPACITY);
        assert_eq!(recent[0].tick, 2 * LOG_CAPACITY as u64 + 5);
        assert_eq!(recent[LOG_CAPACITY - 1].tick, 3 * LOG_CAPACITY as u64 + 4);
    }
}
