//! Perception: how a monster notices the player, and how its mind moves
//! between idle, hunting, searching and returning.
//!
//! A monster sees the player along an exact line of sight
//! ([`line_of_sight`]) within the detection radius, and hears it move
//! within [`HEARING_CELLS`] steps along walkable cells (a closed door is
//! not walkable, so it muffles). Perception replaces the old smell through
//! walls: a player standing still behind a wall is never found.

use super::events::{Event, Sense};
use super::mind::{Mind, MonsterState, Reason};
use super::tactics::Lost;
use super::world::TICKS_PER_SECOND;
use crate::grid::{Cell, DIRECTIONS, Grid, line_of_sight};
use crate::steer::{Hysteresis, Vec2, cell_center};
use std::collections::VecDeque;

/// How far a step is heard, in steps along walkable cells.
pub const HEARING_CELLS: i32 = 8;
/// Ticks a hunting monster keeps the player in mind without perceiving it
/// (half a second), so a glimpse lost for a moment at a corner is not
/// contact lost.
pub const CONTACT_TICKS: u64 = 10;
/// Ticks a monster searches around the last-known cell before giving up.
pub const SEARCH_TICKS: u64 = 3 * TICKS_PER_SECOND as u64;
/// Cells a searching monster strays from the last-known cell before it
/// heads back to it.
pub const SEARCH_RADIUS: f32 = 4.0;
/// Ticks after which a monster that cannot reach where it is going (a door
/// closed on the way) gives up anyway: 10 seconds.
pub const GIVE_UP_TICKS: u64 = 10 * TICKS_PER_SECOND as u64;

const SIDE: usize = 2 * HEARING_CELLS as usize + 1;

/// The cells from which the player's last step is heard: a breadth-first
/// search of at most [`HEARING_CELLS`] steps around the player, in a
/// window around it.
#[derive(Debug, Default)]
pub struct Hearing {
    /// The player's cell at the centre of the window; `None`: the player
    /// is not moving, nothing is heard.
    origin: Option<Cell>,
    heard: Vec<bool>,
    queue: VecDeque<(Cell, i32)>,
}

impl Hearing {
    /// Works out who hears a player at `player`, or no one when the player
    /// has not moved lately.
    pub fn update(&mut self, grid: &Grid, player: Cell, moving: bool) {
        self.origin = moving.then_some(player);
        if !moving {
            return;
        }
        self.heard.clear();
        self.heard.resize(SIDE * SIDE, false);
        self.queue.clear();
        self.mark(player, player);
        self.queue.push_back((player, 0));
        while let Some((c, d)) = self.queue.pop_front() {
            if d == HEARING_CELLS {
                continue;
            }
            for (dx, dy) in DIRECTIONS {
                let n = Cell::new(c.x + dx, c.y + dy);
                if grid.can_step(c, dx, dy) && self.mark(player, n) {
                    self.queue.push_back((n, d + 1));
                }
            }
        }
    }

    /// Marks `c` heard; false when it already was.
    fn mark(&mut self, origin: Cell, c: Cell) -> bool {
        let i = window_index(origin, c).expect("a cell within the hearing steps is within the window");
        !std::mem::replace(&mut self.heard[i], true)
    }

    /// Whether a monster in `cell` hears the player.
    pub fn hears(&self, cell: Cell) -> bool {
        self.origin.and_then(|o| window_index(o, cell)).is_some_and(|i| self.heard[i])
    }
}

fn window_index(origin: Cell, c: Cell) -> Option<usize> {
    let (x, y) = (c.x - origin.x + HEARING_CELLS, c.y - origin.y + HEARING_CELLS);
    let side = SIDE as i32;
    ((0..side).contains(&x) && (0..side).contains(&y)).then(|| (y * side + x) as usize)
}

/// Whether a monster at `pos` sees the player in `player`: within its
/// `range` (its alarm: on within the detection radius, off only a little
/// farther out, so a player at the edge does not flicker in and out of
/// sight) and along a line of sight.
pub fn sees(grid: &Grid, range: &mut Hysteresis, pos: Vec2, player: Cell) -> bool {
    range.update(pos.distance(cell_center(player))) && line_of_sight(grid, crate::steer::cell_at(pos), player)
}

/// What a monster perceives this tick and where it stands.
pub struct Percept {
    pub tick: u64,
    pub sense: Option<Sense>,
    pub player: Cell,
    /// The direction of the player's last step, while it is moving.
    pub heading: Option<(i8, i8)>,
    pub pos: Vec2,
    pub home: Cell,
    /// How a monster that lost the player searches.
    pub lost: Lost,
    /// Under [`Lost::Sweep`]: its sweep has no unseen cell left to look at.
    pub swept: bool,
}

impl Mind {
    /// Moves the mind on by one tick of perception; returns the event the
    /// change raises (named by `monster`, its ordinal) and whether the
    /// monster's target changed (so its plan is stale).
    pub fn perceive(&mut self, p: &Percept, monster: usize) -> (Option<Event>, bool) {
        // A calm monster (it caught the player) perceives nothing.
        if let Some(sense) = p.sense.filter(|_| p.tick >= self.calm_until) {
            let noticed = self.state != MonsterState::Hunting;
            *self = Mind {
                state: MonsterState::Hunting,
                reason: Some(if sense == Sense::Sight { Reason::Saw } else { Reason::Heard }),
                last_known: Some(p.player),
                since: if noticed { p.tick } else { self.since },
                last_perceived: p.tick,
                heading: p.heading,
                searching_since: None,
                // A hunt goes on with its aim and its pack; a new one
                // starts without.
                aim: self.aim.filter(|_| !noticed),
                pack: self.pack.filter(|_| !noticed),
                calm_until: self.calm_until,
            };
            return (noticed.then_some(Event::Noticed { monster, sense }), noticed);
        }
        let here = crate::steer::cell_at(p.pos);
        match self.state {
            MonsterState::Idle => (None, false),
            MonsterState::Hunting if p.tick - self.last_perceived > CONTACT_TICKS => {
                let at = self.last_known.unwrap_or(here);
                self.become_(MonsterState::Searching, Some(Reason::LostAt(at)), p.tick);
                (Some(Event::LostContact { monster, at }), false)
            }
            MonsterState::Hunting => (None, false),
            MonsterState::Searching => {
                let spot = self.last_known.unwrap_or(here);
                if self.searching_since.is_none() && here == spot {
                    self.searching_since = Some(p.tick);
                }
                // A sweep ends when it has seen all it could; lingering, after
                // a while near the spot.
                let searched = match p.lost {
                    Lost::Linger => self.searching_since.is_some_and(|t| p.tick - t >= SEARCH_TICKS),
                    Lost::Sweep => p.swept,
                };
                if searched || p.tick - self.since >= GIVE_UP_TICKS {
                    self.become_(MonsterState::Returning, Some(Reason::GaveUp), p.tick);
                    return (Some(Event::GaveUp { monster }), true);
                }
                (None, false)
            }
            MonsterState::Returning => {
                if here == p.home || p.tick - self.since >= GIVE_UP_TICKS {
                    self.become_(MonsterState::Idle, None, p.tick);
                    return (None, true);
                }
                (None, false)
            }
        }
    }

    fn become_(&mut self, state: MonsterState, reason: Option<Reason>, tick: u64) {
        self.state = state;
        self.reason = reason;
        self.since = tick;
        self.searching_since = None;
        // Aims and packs are a hunt's (a sweep gives its own aim).
        self.aim = None;
        self.pack = None;
    }

    /// The cell the monster is heading for, if any: while hunting, its aim
    /// (a cell ahead of the player) or else the player's last-known cell;
    /// while searching, the sweep's aim, or else that cell (until it is
    /// reached, and again if it strays too far from it); its post while
    /// returning.
    pub fn target(&self, pos: Vec2, home: Cell) -> Option<Cell> {
        match self.state {
            MonsterState::Idle => None,
            MonsterState::Hunting => self.aim.or(self.last_known),
            MonsterState::Searching if self.aim.is_some() => self.aim,
            MonsterState::Searching => {
                let spot = self.last_known?;
                let near = pos.distance(cell_center(spot)) <= SEARCH_RADIUS;
                (self.searching_since.is_none() || !near).then_some(spot)
            }
            MonsterState::Returning => Some(home),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn grid(text: &str) -> Grid {
        Level::parse(text, "t").unwrap().grid
    }

    #[test]
    fn hearing_reaches_eight_steps_along_the_floor_and_not_through_doors() {
        // A corridor folded behind a wall: 2 cells apart as the crow flies,
        // far more along the floor.
        let g = grid("..........\n#########.\n..........\n");
        let mut h = Hearing::default();
        h.update(&g, Cell::new(0, 0), true);
        assert!(h.hears(Cell::new(8, 0)));
        assert!(!h.hears(Cell::new(9, 1)), "9 steps away");
        assert!(!h.hears(Cell::new(0, 2)), "behind the wall");
        h.update(&g, Cell::new(0, 0), false);
        assert!(!h.hears(Cell::new(1, 0)), "a player standing still makes no sound");
        let g = grid("..+..\n");
        h.update(&g, Cell::new(0, 0), true);
        assert!(h.hears(Cell::new(1, 0)));
        assert!(!h.hears(Cell::new(3, 0)), "a closed door muffles");
    }

    #[test]
    fn the_mind_hunts_searches_gives_up_and_returns() {
        let home = Cell::new(0, 0);
        let mut m = Mind::default();
        let at = |tick, sense, pos: Cell| Percept {
            tick,
            sense,
            player: Cell::new(5, 5),
            heading: None,
            pos: cell_center(pos),
            home,
            lost: Lost::Linger,
            swept: false,
        };
        assert_eq!(m.perceive(&at(1, None, home), 1), (None, false));
        assert_eq!(
            m.perceive(&at(2, Some(Sense::Hearing), home), 1),
            (Some(Event::Noticed { monster: 1, sense: Sense::Hearing }), true)
        );
        assert_eq!(m.target(cell_center(home), home), Some(Cell::new(5, 5)));
        assert_eq!(m.perceive(&at(2 + CONTACT_TICKS, None, home), 1), (None, false), "still in mind");
        let (e, _) = m.perceive(&at(3 + CONTACT_TICKS, None, home), 1);
        assert_eq!(e, Some(Event::LostContact { monster: 1, at: Cell::new(5, 5) }));
        assert_eq!(m.state, MonsterState::Searching);
        assert_eq!(m.target(cell_center(home), home), Some(Cell::new(5, 5)), "walks to the last-known cell");
        m.perceive(&at(20, None, Cell::new(5, 5)), 1);
        assert_eq!(m.target(cell_center(Cell::new(6, 5)), home), None, "wanders near it");
        assert_eq!(m.target(cell_center(Cell::new(10, 5)), home), Some(Cell::new(5, 5)), "but not far");
        assert_eq!(m.perceive(&at(20 + SEARCH_TICKS - 1, None, Cell::new(6, 6)), 1), (None, false));
        assert_eq!(
            m.perceive(&at(20 + SEARCH_TICKS, None, Cell::new(6, 6)), 1),
            (Some(Event::GaveUp { monster: 1 }), true)
        );
        assert_eq!(m.target(cell_center(Cell::new(6, 6)), home), Some(home));
        assert_eq!(m.perceive(&at(100, None, home), 1), (None, true));
        assert_eq!(m.state, MonsterState::Idle);
    }
}
