//! Doors that open and close by themselves: a level's `doors: cycle N`.
//!
//! Every door toggles every N ticks, at the ticks that are multiples of N:
//! an open door is scheduled to close and a closed one to open. Opening
//! happens at once. Closing waits for a clear doorway: a door never closes
//! on the player or on a creature (a body whose centre is in the doorway),
//! which would push it out to whichever side is nearest, through a wall it
//! could not cross, or shut it in. Such a door stays open and *waits*,
//! closing at the first tick its doorway is clear; if the next toggle
//! comes first, the door is scheduled open again and simply stays open.
//!
//! The doors are the level's own (no command makes or removes one), and
//! what they do is a function of the tick, the grid and who stands where,
//! all of which the world hashes; the waiting doors are hashed too. The
//! player's `e` still opens and closes a door in between; a door it
//! closes stops waiting, and the next toggle treats it like any other.

use super::events::Event;
use crate::grid::{Cell, Grid, Tile};
use crate::hash::{StateHash, StateHasher};
use crate::level::DoorCycle;

/// A world's cycling doors: the cycle, the doors it moves and those
/// waiting for a clear doorway to close.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doors {
    cycle: DoorCycle,
    /// Every door cell of the level, row by row.
    doors: Vec<Cell>,
    /// Open doors scheduled to close whose doorway was not clear, row by
    /// row: state, hashed.
    waiting: Vec<Cell>,
}

/// What one tick of the cycle did, for the message log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// Doors that opened.
    pub opened: usize,
    /// Doors that closed.
    pub closed: usize,
    /// Doors scheduled to close that wait for their doorway to clear.
    pub waiting: usize,
}

impl Doors {
    /// The cycling doors of `grid`.
    pub fn new(cycle: DoorCycle, grid: &Grid) -> Doors {
        let doors = grid.cells().filter(|&c| matches!(grid.tile(c), Tile::DoorOpen | Tile::DoorClosed)).collect();
        Doors { cycle, doors, waiting: Vec::new() }
    }

    /// The cycle.
    pub fn cycle(&self) -> DoorCycle {
        self.cycle
    }

    /// The doors waiting for a clear doorway to close, row by row.
    pub fn waiting(&self) -> &[Cell] {
        &self.waiting
    }

    /// Moves the doors at `tick`: every door toggles when the tick is a
    /// multiple of the period, and waiting doors whose doorway is clear
    /// close. `occupied` says whether someone stands in a doorway. Every
    /// change goes through [`Grid::set_tile`], so it bumps the grid's
    /// version. Returns the event to log, if anything changed.
    pub fn step(&mut self, grid: &mut Grid, tick: u64, occupied: impl Fn(Cell) -> bool) -> Option<Event> {
        let mut changed = Changed::default();
        if tick > 0 && tick.is_multiple_of(u64::from(self.cycle.period)) {
            let waited = std::mem::take(&mut self.waiting);
            for &door in &self.doors {
                match grid.tile(door) {
                    Tile::DoorClosed => {
                        grid.set_tile(door, Tile::DoorOpen);
                        changed.opened += 1;
                    }
                    // Scheduled closed and now open again: it stops waiting.
                    _ if waited.binary_search_by(|w| row_major(*w, door)).is_ok() => {}
                    _ if occupied(door) => self.waiting.push(door),
                    _ => {
                        grid.set_tile(door, Tile::DoorClosed);
                        changed.closed += 1;
                    }
                }
            }
            changed.waiting = self.waiting.len();
            return Some(Event::DoorsCycled(changed));
        }
        let before = self.waiting.len();
        self.waiting.retain(|&d| {
            if occupied(d) {
                return true;
            }
            grid.set_tile(d, Tile::DoorClosed);
            false
        });
        changed.closed = before - self.waiting.len();
        changed.waiting = self.waiting.len();
        (changed.closed > 0).then_some(Event::DoorsCycled(changed))
    }

    /// The player's `e` toggled `door`: a door the player closed or opened
    /// no longer waits to close.
    pub fn toggled(&mut self, door: Cell) {
        self.waiting.retain(|&w| w != door);
    }
}

impl StateHash for DoorCycle {
    fn hash_into(&self, h: &mut StateHasher) {
        let DoorCycle { period } = self;
        h.add(period);
    }
}

impl StateHash for Doors {
    fn hash_into(&self, h: &mut StateHasher) {
        let Doors { cycle, doors, waiting } = self;
        h.add(cycle);
        h.add(doors);
        h.add(waiting);
    }
}

/// Row-major order of cells, as the door lists keep them.
fn row_major(a: Cell, b: Cell) -> std::cmp::Ordering {
    (a.y, a.x).cmp(&(b.y, b.x))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corridor `.'.+.`: an open door at 1,0 and a closed one at 3,0.
    fn corridor() -> Grid {
        let f = Tile::Floor(1);
        Grid::new(5, 1, &[f, Tile::DoorOpen, f, Tile::DoorClosed, f])
    }

    const OPEN: Cell = Cell::new(1, 0);
    const SHUT: Cell = Cell::new(3, 0);

    #[test]
    fn every_door_toggles_at_each_multiple_of_the_period() {
        let mut grid = corridor();
        let mut doors = Doors::new(DoorCycle { period: 20 }, &grid);
        for tick in 1..20 {
            assert_eq!(doors.step(&mut grid, tick, |_| false), None);
        }
        assert_eq!(grid.version(), 0, "nothing moves between toggles");
        let e = doors.step(&mut grid, 20, |_| false);
        assert_eq!(e, Some(Event::DoorsCycled(Changed { opened: 1, closed: 1, waiting: 0 })));
        assert_eq!((grid.tile(OPEN), grid.tile(SHUT)), (Tile::DoorClosed, Tile::DoorOpen));
        assert_eq!(grid.version(), 2, "each change bumps the version");
        doors.step(&mut grid, 40, |_| false);
        assert_eq!((grid.tile(OPEN), grid.tile(SHUT)), (Tile::DoorOpen, Tile::DoorClosed));
    }

    #[test]
    fn a_door_waits_for_its_doorway_to_clear_before_closing() {
        let mut grid = corridor();
        let mut doors = Doors::new(DoorCycle { period: 20 }, &grid);
        let e = doors.step(&mut grid, 20, |c| c == OPEN);
        assert_eq!(e, Some(Event::DoorsCycled(Changed { opened: 1, closed: 0, waiting: 1 })));
        assert_eq!(grid.tile(OPEN), Tile::DoorOpen, "never closes on whoever stands in it");
        assert_eq!(doors.waiting(), [OPEN]);
        assert_eq!(doors.step(&mut grid, 21, |c| c == OPEN), None, "still occupied");
        let e = doors.step(&mut grid, 22, |_| false);
        assert_eq!(e, Some(Event::DoorsCycled(Changed { opened: 0, closed: 1, waiting: 0 })));
        assert_eq!(grid.tile(OPEN), Tile::DoorClosed);
        assert!(doors.waiting().is_empty());
    }

    #[test]
    fn a_door_still_waiting_at_the_next_toggle_stays_open() {
        let mut grid = corridor();
        let mut doors = Doors::new(DoorCycle { period: 20 }, &grid);
        doors.step(&mut grid, 20, |c| c == OPEN);
        // Both doors are open now; at 40 the one at 3,0 is scheduled to
        // close and does, the waiting one is scheduled open and stops waiting.
        let e = doors.step(&mut grid, 40, |c| c == OPEN);
        assert_eq!(e, Some(Event::DoorsCycled(Changed { opened: 0, closed: 1, waiting: 0 })));
        assert_eq!((grid.tile(OPEN), grid.tile(SHUT)), (Tile::DoorOpen, Tile::DoorClosed));
        assert!(doors.waiting().is_empty());
        assert_eq!(doors.step(&mut grid, 41, |_| false), None, "it no longer waits");
        assert_eq!(grid.tile(OPEN), Tile::DoorOpen);
        doors.step(&mut grid, 60, |_| false);
        assert_eq!((grid.tile(OPEN), grid.tile(SHUT)), (Tile::DoorClosed, Tile::DoorOpen), "back in step");
    }

    #[test]
    fn the_player_closing_a_waiting_door_ends_its_wait() {
        let mut grid = corridor();
        let mut doors = Doors::new(DoorCycle { period: 20 }, &grid);
        doors.step(&mut grid, 20, |c| c == OPEN);
        grid.set_tile(OPEN, Tile::DoorClosed);
        doors.toggled(OPEN);
        assert!(doors.waiting().is_empty());
        let version = grid.version();
        assert_eq!(doors.step(&mut grid, 21, |_| false), None);
        assert_eq!(grid.version(), version);
    }

    #[test]
    fn the_waiting_doors_are_hashed() {
        let grid = corridor();
        let doors = Doors::new(DoorCycle { period: 20 }, &grid);
        let waiting = Doors { waiting: vec![OPEN], ..doors.clone() };
        let other = Doors::new(DoorCycle { period: 21 }, &grid);
        let hash = crate::hash::hash_of::<Doors>;
        assert_ne!(hash(&doors), hash(&waiting));
        assert_ne!(hash(&doors), hash(&other));
    }
}
