//! The player's pace: at most one cell per step time, one move waiting, and
//! runs.
//!
//! Time is kept in fixed point ([`SUBTICKS`] per tick) so that diagonal
//! steps of 4·√2 ticks add up exactly over a long walk instead of rounding
//! to whole ticks: a held diagonal walks 0, 6, 12, 17, 23, ... A step is
//! taken on the first tick at which the player is free; when the player
//! was already free a tick earlier (standing still), the clock restarts
//! from this tick, so standing never banks steps.

use crate::grid::{Cell, Grid, Tile};
use crate::hash::{StateHash, StateHasher};

/// Fixed-point units per tick.
pub const SUBTICKS: u64 = 1_000_000;
/// Step time of an orthogonal step: 4 ticks (1/5 s).
pub const ORTHOGONAL_STEP: u64 = 4 * SUBTICKS;
/// Step time of a diagonal step: 4·√2 ticks, rounded to the nearest unit.
pub const DIAGONAL_STEP: u64 = 5_656_854;

/// The step time of a move by (dx, dy), in [`SUBTICKS`].
pub fn step_time(dx: i8, dy: i8) -> u64 {
    if dx != 0 && dy != 0 { DIAGONAL_STEP } else { ORTHOGONAL_STEP }
}

/// Whether (dx, dy) is a one-cell move.
pub fn is_move(dx: i8, dy: i8) -> bool {
    (dx, dy) != (0, 0) && dx.abs() <= 1 && dy.abs() <= 1
}

/// A run in progress: its direction, and what the last step saw, to stop
/// when that changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub dx: i8,
    pub dy: i8,
    /// Whether each side cell (left, right of the direction) was walkable
    /// at the last cell: a side that opens is a junction.
    pub sides: [bool; 2],
    /// The monsters in view at the last step, by creature index, ascending.
    pub seen: Vec<u32>,
}

impl Run {
    /// The two cells beside `at` across the direction of the run.
    pub fn side_cells(&self, at: Cell) -> [Cell; 2] {
        let (dx, dy) = (i32::from(self.dx), i32::from(self.dy));
        [Cell::new(at.x - dy, at.y + dx), Cell::new(at.x + dy, at.y - dx)]
    }

    /// Whether each side of `at` is walkable.
    pub fn sides_at(&self, grid: &Grid, at: Cell) -> [bool; 2] {
        self.side_cells(at).map(|c| grid.is_walkable(c))
    }

    /// Whether a step into `at` ends the run by what is beside it: a side
    /// that was walled and is now open (a junction, a room's mouth), or a
    /// door beside.
    pub fn opening_beside(&self, grid: &Grid, at: Cell) -> bool {
        let now = self.sides_at(grid, at);
        let door = self.side_cells(at).iter().any(|&c| matches!(grid.tile(c), Tile::DoorOpen | Tile::DoorClosed));
        door || (0..2).any(|i| now[i] && !self.sides[i])
    }
}

/// The player's walking state: when it is next free to step, the move
/// waiting for that, and a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    /// The time (in [`SUBTICKS`] since tick 0) from which the next step
    /// may be taken.
    pub free_at: u64,
    /// One move waiting for the player to be free; a newer one replaces it.
    pub queued: Option<(i8, i8)>,
    pub run: Option<Run>,
}

impl Walk {
    /// Whether a step may be taken in the tick that starts at `tick`.
    pub fn is_free(&self, tick: u64) -> bool {
        self.free_at <= tick.saturating_mul(SUBTICKS)
    }

    /// Takes a step of (dx, dy) in the tick that starts at `tick`: the
    /// step's exact time is when the player became free if that was within
    /// the last tick (walking on), else this tick (starting from rest).
    pub fn stepped(&mut self, tick: u64, dx: i8, dy: i8) {
        let now = tick.saturating_mul(SUBTICKS);
        let at = if self.free_at + SUBTICKS > now { self.free_at } else { now };
        self.free_at = at + step_time(dx, dy);
    }
}

impl StateHash for Run {
    fn hash_into(&self, h: &mut StateHasher) {
        let Run { dx, dy, sides, seen } = self;
        h.add(dx);
        h.add(dy);
        h.add(sides);
        h.add(seen);
    }
}

impl StateHash for Walk {
    fn hash_into(&self, h: &mut StateHasher) {
        let Walk { free_at, queued, run } = self;
        h.add(free_at);
        h.add(queued);
        h.add(run);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ticks at which a player holding (dx, dy) from tick 0 steps.
    fn held(dx: i8, dy: i8, ticks: u64) -> Vec<u64> {
        let mut w = Walk::default();
        (0..ticks)
            .filter(|&t| {
                let free = w.is_free(t);
                if free {
                    w.stepped(t, dx, dy);
                }
                free
            })
            .collect()
    }

    #[test]
    fn orthogonal_steps_come_every_four_ticks() {
        assert_eq!(held(1, 0, 17), [0, 4, 8, 12, 16]);
    }

    #[test]
    fn diagonal_steps_keep_the_exact_pace_over_a_long_walk() {
        assert_eq!(held(1, 1, 24), [0, 6, 12, 17, 23]);
        // 1000 steps of 4·√2 ticks end within a tick of 5656.854.
        let steps = held(-1, 1, 6000);
        assert_eq!(steps.len(), 1061);
        assert_eq!(steps[1000], 5657);
    }

    #[test]
    fn standing_still_banks_no_steps() {
        let mut w = Walk::default();
        w.stepped(0, 1, 0);
        assert!(!w.is_free(3));
        assert!(w.is_free(50));
        w.stepped(50, 1, 0);
        assert!(!w.is_free(53), "a rest is not credit for later");
        assert!(w.is_free(54));
    }
}
