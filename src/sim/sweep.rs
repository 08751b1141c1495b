//! A searcher that sweeps ([`Lost::Sweep`](super::Lost::Sweep)): a
//! monster that lost the player looks at the cells near where it lost it
//! that it has not seen yet, nearest first, instead of standing on the
//! last-known cell.
//!
//! The sweep covers a square window of side 2 × [`SWEEP_REACH`] + 1 round
//! a centre: the last-known cell, moved [`LEAN`] steps on along the
//! heading the player last had when the monster perceived it (where the
//! walls allow), since the player went on from there. Every cell of the
//! window the monster sees from where it stands (a line of sight within
//! its detection radius) counts as seen, marked each time it enters a new
//! cell. Its aim is then the nearest unseen cell it can reach without
//! leaving the window (breadth first from its cell, in the fixed order of
//! the eight directions), so it walks to the corners and doorways behind
//! which the player could stand, and each step it takes uncovers more.
//! Outside the window it heads for the centre. When no unseen cell is
//! left within reach, the sweep is done and the monster gives up
//! (`sim::perceive`); a sweep that cannot finish gives up after
//! [`GIVE_UP_TICKS`](super::perceive::GIVE_UP_TICKS) like any search.
//!
//! A sweep decides where the monster goes, so it is state: its window,
//! what it has seen, where it last looked from and whether it is done
//! enter the world's hash.

use crate::grid::{Cell, DIRECTIONS, Grid, line_of_sight};
use crate::hash::{StateHash, StateHasher};
use crate::steer::cell_center;
use std::collections::VecDeque;

/// Half the side of the window a sweep covers, in cells.
pub const SWEEP_REACH: i32 = 8;
/// Steps the window's centre leans from the last-known cell along the
/// player's heading.
pub const LEAN: i32 = 3;

const SIDE: i32 = 2 * SWEEP_REACH + 1;
const WORDS: usize = ((SIDE * SIDE) as usize).div_ceil(64);

/// One monster's sweep: inactive until it loses the player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sweep {
    /// The window's centre, while sweeping.
    centre: Option<Cell>,
    /// The tick the search it belongs to began (its mind's `since`).
    since: u64,
    /// The cells of the window seen, a bit each, row by row.
    seen: [u64; WORDS],
    /// The cell the monster last looked from.
    from: Option<Cell>,
    /// The nearest unseen cell from there, if any.
    aim: Option<Cell>,
    /// No unseen cell is left within reach.
    done: bool,
}

impl Sweep {
    /// Whether the sweep has seen all it can reach: the search is over.
    pub fn is_done(&self) -> bool {
        self.centre.is_some() && self.done
    }

    /// Whether this is the sweep of the search that began at `since`.
    pub fn belongs_to(&self, since: u64) -> bool {
        self.centre.is_some() && self.since == since
    }

    /// Ends the sweep (the monster found the player, or gave up).
    pub fn clear(&mut self) {
        if self.centre.is_some() {
            *self = Sweep::default();
        }
    }

    /// Starts the sweep of a search that began at `since`, round
    /// `last_known`, leaning along `heading`.
    pub fn start(&mut self, grid: &Grid, last_known: Cell, heading: Option<(i8, i8)>, since: u64) {
        let mut centre = last_known;
        if let Some((dx, dy)) = heading {
            let (dx, dy) = (i32::from(dx), i32::from(dy));
            for _ in 0..LEAN {
                if !grid.can_step(centre, dx, dy) {
                    break;
                }
                centre = Cell::new(centre.x + dx, centre.y + dy);
            }
        }
        *self = Sweep { centre: Some(centre), since, ..Sweep::default() };
    }

    /// The cell to head for from `here`: the nearest unseen cell within
    /// the window, after marking what the monster sees from `here` within
    /// `sight`; the centre while outside the window; `None` once done.
    pub fn aim(&mut self, grid: &Grid, here: Cell, sight: f32) -> Option<Cell> {
        let centre = self.centre?;
        if self.from == Some(here) {
            return self.aim;
        }
        self.from = Some(here);
        self.aim = match slot(centre, here) {
            None => Some(centre),
            Some(_) => {
                self.mark(grid, centre, here, sight);
                let unseen = self.nearest_unseen(grid, centre, here);
                self.done = unseen.is_none();
                unseen
            }
        };
        self.aim
    }

    /// Marks every cell of the window in sight of `here`.
    fn mark(&mut self, grid: &Grid, centre: Cell, here: Cell, sight: f32) {
        let eye = cell_center(here);
        for y in centre.y - SWEEP_REACH..=centre.y + SWEEP_REACH {
            for x in centre.x - SWEEP_REACH..=centre.x + SWEEP_REACH {
                let c = Cell::new(x, y);
                let Some(i) = slot(centre, c) else { continue };
                if self.seen[i / 64] & (1 << (i % 64)) == 0
                    && grid.is_walkable(c)
                    && eye.distance(cell_center(c)) <= sight
                    && line_of_sight(grid, here, c)
                {
                    self.seen[i / 64] |= 1 << (i % 64);
                }
            }
        }
    }

    /// The first unseen cell breadth first from `here` within the window.
    fn nearest_unseen(&self, grid: &Grid, centre: Cell, here: Cell) -> Option<Cell> {
        let mut visited = [0u64; WORDS];
        let start = slot(centre, here)?;
        visited[start / 64] |= 1 << (start % 64);
        let mut queue = VecDeque::from([here]);
        while let Some(c) = queue.pop_front() {
            let i = slot(centre, c)?;
            if self.seen[i / 64] & (1 << (i % 64)) == 0 {
                return Some(c);
            }
            for (dx, dy) in DIRECTIONS {
                let next = Cell::new(c.x + dx, c.y + dy);
                let Some(j) = slot(centre, next) else { continue };
                if visited[j / 64] & (1 << (j % 64)) == 0 && grid.can_step(c, dx, dy) {
                    visited[j / 64] |= 1 << (j % 64);
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// The window's centre while sweeping.
    pub fn centre(&self) -> Option<Cell> {
        self.centre
    }

    /// Whether the sweep has seen `c` (false outside its window).
    pub fn has_seen(&self, c: Cell) -> bool {
        self.centre.and_then(|centre| slot(centre, c)).is_some_and(|i| self.seen[i / 64] & (1 << (i % 64)) != 0)
    }
}

/// The index of `c` in the window round `centre`, if it is in it.
fn slot(centre: Cell, c: Cell) -> Option<usize> {
    let (x, y) = (c.x - centre.x + SWEEP_REACH, c.y - centre.y + SWEEP_REACH);
    ((0..SIDE).contains(&x) && (0..SIDE).contains(&y)).then(|| (y * SIDE + x) as usize)
}

impl StateHash for Sweep {
    fn hash_into(&self, h: &mut StateHasher) {
        let Sweep { centre, since, seen, from, aim, done } = self;
        h.add(centre);
        h.add(since);
        h.add(seen);
        h.add(from);
        h.add(aim);
        h.add(done);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn grid(rows: &str) -> Grid {
        Level::parse(&format!("name: t\n{rows}"), "t.txt").unwrap().grid
    }

    /// A corridor running east into a room with an alcove behind a pillar
    /// wall: from the corridor's mouth the alcove is out of sight.
    const ROOMS: &str = "\
############
#..........#
#.######...#
#.#....#...#
#.#....#...#
#...........
############
";

    #[test]
    fn a_sweep_walks_to_what_it_has_not_seen_until_it_has_seen_it_all() {
        let g = grid(ROOMS);
        let mut s = Sweep::default();
        assert_eq!(s.aim(&g, Cell::new(1, 5), 40.0), None, "no sweep before the player is lost");
        s.start(&g, Cell::new(1, 5), None, 7);
        assert!(s.belongs_to(7) && !s.belongs_to(8));
        let mut here = Cell::new(1, 5);
        let mut visited = vec![here];
        for _ in 0..200 {
            let Some(aim) = s.aim(&g, here, 40.0) else { break };
            assert!(!s.has_seen(aim), "it aims at an unseen cell, {aim}");
            // Step toward the aim along the floor, as a plan would.
            let mut planner = crate::search::GridPlanner::new();
            planner.plan(&g, here, aim, &crate::search::SearchSettings::default()).unwrap();
            here = planner.path()[1];
            visited.push(here);
        }
        assert!(s.is_done(), "the sweep ends; it visited {visited:?}");
        // Every floor cell of the window was seen on the way.
        for c in g.cells().filter(|&c| g.is_walkable(c) && slot(Cell::new(1, 5), c).is_some()) {
            assert!(s.has_seen(c), "{c} not seen");
        }
        assert!(visited.iter().any(|c| c.x >= 3 && (3..=4).contains(&c.y)), "it looked into the alcove");
        s.clear();
        assert!(!s.is_done() && s.centre().is_none());
    }

    #[test]
    fn the_window_leans_along_the_heading_as_far_as_the_walls_allow() {
        let g = grid(ROOMS);
        let mut s = Sweep::default();
        s.start(&g, Cell::new(2, 5), Some((1, 0)), 0);
        assert_eq!(s.centre(), Some(Cell::new(5, 5)));
        s.start(&g, Cell::new(1, 2), Some((-1, 0)), 0);
        assert_eq!(s.centre(), Some(Cell::new(1, 2)), "a wall at once: no lean");
        // Far from the window, the aim is its centre.
        s.start(&g, Cell::new(10, 1), None, 0);
        assert_eq!(s.aim(&g, Cell::new(1, 5), 40.0), Some(Cell::new(10, 1)));
    }
}
