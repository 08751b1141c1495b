//! The player's pace: one act at a time (a step or a rest), each lasting
//! its time, the acts typed ahead, and the errand (a run, a travel, an
//! exploration) that chooses the next step when nothing is typed.
//!
//! Time is kept in fixed point ([`SUBTICKS`] per tick) so that diagonal
//! steps of 4·√2 ticks add up exactly over a long walk instead of rounding
//! to whole ticks: a held diagonal walks 0, 6, 12, 17, 23, ... An act is
//! taken on the first tick at which the player is free; when the player
//! was already free a tick earlier (standing still), the clock restarts
//! from this tick, so standing never banks steps.
//!
//! A step into a cell takes the plain step time times the cell's entry
//! cost: plain floor and open doors cost 1 and walk at the pace above,
//! mud (`2`-`9`) and water (`~`, 5) take that many times as long. So the
//! cost a search adds up along a route is its walking time in plain steps,
//! and the cheapest route is the quickest for the player too.

use super::errand::Errand;
use crate::hash::{StateHash, StateHasher};

/// Fixed-point units per tick.
pub const SUBTICKS: u64 = 1_000_000;
/// Step time of an orthogonal step onto plain floor: 4 ticks (1/5 s).
pub const ORTHOGONAL_STEP: u64 = 4 * SUBTICKS;
/// Step time of a diagonal step onto plain floor: 4·√2 ticks, rounded to
/// the nearest unit.
pub const DIAGONAL_STEP: u64 = 5_656_854;

/// The time of a move by (dx, dy) onto plain floor, in [`SUBTICKS`].
pub fn step_time(dx: i8, dy: i8) -> u64 {
    if dx != 0 && dy != 0 { DIAGONAL_STEP } else { ORTHOGONAL_STEP }
}

/// The time of a move by (dx, dy) into a cell of entry cost `cost`: the
/// plain step's time `cost` times over.
pub fn step_duration(dx: i8, dy: i8, cost: u8) -> u64 {
    step_time(dx, dy) * u64::from(cost.max(1))
}

/// Whether (dx, dy) is a one-cell move.
pub fn is_move(dx: i8, dy: i8) -> bool {
    (dx, dy) != (0, 0) && dx.abs() <= 1 && dy.abs() <= 1
}

/// What the player does with one turn of its pace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// One step by (dx, dy).
    Step(i8, i8),
    /// Standing still for an orthogonal step's time (the wait of turn
    /// mode): silent, as standing is.
    Rest,
}

/// The player's walking state: when it is next free to act, the acts
/// waiting for that, and an errand.
///
/// Two acts are kept: the one waiting for the pace, and one typed ahead
/// of it. A third replaces the one typed ahead (the newest wins), so ten
/// presses in a burst walk two cells, and a held key stops at most one
/// step after it is released.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Walk {
    /// The time (in [`SUBTICKS`] since tick 0) from which the next act may
    /// be taken.
    pub free_at: u64,
    /// The act waiting for the player to be free.
    pub queued: Option<Act>,
    /// The act typed ahead of it, taken after it.
    pub ahead: Option<Act>,
    /// What chooses the next step when no act waits.
    pub errand: Option<Errand>,
}

impl Walk {
    /// Whether an act may be taken in the tick that starts at `tick`.
    pub fn is_free(&self, tick: u64) -> bool {
        self.free_at <= tick.saturating_mul(SUBTICKS)
    }

    /// Whether the player is doing nothing and could act in the tick that
    /// starts at `tick`: free, no act waiting, no errand.
    pub fn is_idle(&self, tick: u64) -> bool {
        self.queued.is_none() && self.errand.is_none() && self.is_free(tick)
    }

    /// Queues `act`: it waits for the pace, or is typed ahead of the one
    /// that waits, replacing what was typed ahead before.
    pub fn push(&mut self, act: Act) {
        if self.queued.is_none() {
            self.queued = Some(act);
        } else {
            self.ahead = Some(act);
        }
    }

    /// Takes the act that waits; the one typed ahead waits next.
    pub fn take(&mut self) -> Option<Act> {
        let act = self.queued.take();
        self.queued = self.ahead.take();
        act
    }

    /// Drops every act that waits and the errand.
    pub fn clear(&mut self) {
        self.queued = None;
        self.ahead = None;
        self.errand = None;
    }

    /// Takes an act lasting `duration` (in [`SUBTICKS`]) in the tick that
    /// starts at `tick`: it starts when the player became free if that was
    /// within the last tick (walking on), else at this tick (from rest).
    pub fn acted(&mut self, tick: u64, duration: u64) {
        let now = tick.saturating_mul(SUBTICKS);
        let at = if self.free_at + SUBTICKS > now { self.free_at } else { now };
        self.free_at = at + duration;
    }
}

impl StateHash for Act {
    fn hash_into(&self, h: &mut StateHasher) {
        match *self {
            Act::Step(dx, dy) => {
                h.u8(0);
                h.add(&dx);
                h.add(&dy);
            }
            Act::Rest => h.u8(1),
        }
    }
}

impl StateHash for Walk {
    fn hash_into(&self, h: &mut StateHasher) {
        let Walk { free_at, queued, ahead, errand } = self;
        h.add(free_at);
        h.add(queued);
        h.add(ahead);
        h.add(errand);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ticks at which a player holding (dx, dy) over cells of entry
    /// cost `cost` from tick 0 steps.
    fn held(dx: i8, dy: i8, cost: u8, ticks: u64) -> Vec<u64> {
        let mut w = Walk::default();
        (0..ticks)
            .filter(|&t| {
                let free = w.is_free(t);
                if free {
                    w.acted(t, step_duration(dx, dy, cost));
                }
                free
            })
            .collect()
    }

    #[test]
    fn orthogonal_steps_come_every_four_ticks() {
        assert_eq!(held(1, 0, 1, 17), [0, 4, 8, 12, 16]);
    }

    #[test]
    fn diagonal_steps_keep_the_exact_pace_over_a_long_walk() {
        assert_eq!(held(1, 1, 1, 24), [0, 6, 12, 17, 23]);
        // 1000 steps of 4·√2 ticks end within a tick of 5656.854.
        let steps = held(-1, 1, 1, 6000);
        assert_eq!(steps.len(), 1061);
        assert_eq!(steps[1000], 5657);
    }

    #[test]
    fn costly_cells_take_their_cost_in_step_times() {
        // Water (5): a step every 20 ticks, 5·4·√2 = 28.28 diagonally.
        assert_eq!(held(0, 1, 5, 61), [0, 20, 40, 60]);
        assert_eq!(held(1, -1, 5, 90), [0, 29, 57, 85]);
        assert_eq!(held(1, 0, 9, 73), [0, 36, 72]);
        assert_eq!(step_duration(1, 0, 0), ORTHOGONAL_STEP, "no cell walks faster than plain floor");
    }

    #[test]
    fn standing_still_banks_no_steps() {
        let mut w = Walk::default();
        w.acted(0, ORTHOGONAL_STEP);
        assert!(!w.is_free(3));
        assert!(w.is_free(50));
        w.acted(50, ORTHOGONAL_STEP);
        assert!(!w.is_free(53), "a rest is not credit for later");
        assert!(w.is_free(54));
    }

    #[test]
    fn one_act_waits_and_one_is_typed_ahead() {
        let mut w = Walk::default();
        for _ in 0..10 {
            w.push(Act::Step(1, 0));
        }
        w.push(Act::Rest);
        assert_eq!((w.queued, w.ahead), (Some(Act::Step(1, 0)), Some(Act::Rest)), "the newest typed ahead wins");
        assert_eq!(w.take(), Some(Act::Step(1, 0)));
        assert_eq!(w.take(), Some(Act::Rest));
        assert_eq!(w.take(), None);
        assert!(w.is_idle(0));
        w.push(Act::Step(0, 1));
        assert!(!w.is_idle(0));
        w.clear();
        assert!(w.is_idle(0));
    }
}
