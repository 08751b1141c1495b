//! Runs (Shift and a move key): which way the next step of a run goes, and
//! where the ground says it ends.
//!
//! A run goes on at the player's pace, in one of two ways, chosen again at
//! every cell from the cells ahead: the cells a legal step from here
//! reaches that no legal step from the cell before reached (so not back,
//! nor beside the way it came):
//!
//! - **along a corridor**: one such cell, on a run already following a
//!   corridor, or round a corner from a cell of a one-wide corridor (at
//!   most two walkable orthogonal neighbours), and the run turns into it,
//!   round a corner or a bend. (One way straight on, as between two
//!   pillars, leaves a run in the open as it was.) Where a corridor it followed
//!   opens (a junction, a side passage, a room's mouth: two cells or more
//!   ahead) the run ends there; at a dead end (none) too.
//! - **in the open** (a room, a wide corridor): straight on until a wall is
//!   ahead, or an opening in a wall beside it: a side that has been a wall
//!   for two cells or more and opens. A side that is a wall for one cell (a
//!   pillar) and opens again is no opening, so a pillared hall is crossed
//!   in one run.
//!
//! Either way a run ends where a door comes beside it (orthogonally, or
//! underfoot) that was not beside the cell before; the world ends it too
//! when a monster comes into view, the goal comes into view, a catch, or
//! any command (see `World::apply`).

use crate::grid::{Cell, DIRECTIONS, Grid, Tile};
use crate::hash::{StateHash, StateHasher};

/// A run in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The direction of the next step.
    pub dx: i8,
    pub dy: i8,
    /// Whether the run is following a one-wide corridor.
    pub corridor: bool,
    /// For each side of the direction (left, right), for how many cells in
    /// a row it has been a wall, at most 2.
    pub walls: [u8; 2],
}

impl Run {
    /// A run by (dx, dy) from `at`, if its first step is legal. It starts
    /// in a corridor when both sides of an orthogonal first step are walls.
    pub fn start(grid: &Grid, at: Cell, dx: i8, dy: i8) -> Option<Run> {
        if !grid.can_step(at, i32::from(dx), i32::from(dy)) {
            return None;
        }
        let mut run = Run { dx, dy, corridor: false, walls: [0; 2] };
        let sides = run.sides_walled(grid, at);
        run.walls = sides.map(u8::from);
        run.corridor = (dx == 0 || dy == 0) && sides == [true, true];
        Some(run)
    }

    /// The two cells beside `at` across the direction of the run.
    fn side_cells(&self, at: Cell) -> [Cell; 2] {
        let (dx, dy) = (i32::from(self.dx), i32::from(self.dy));
        [Cell::new(at.x - dy, at.y + dx), Cell::new(at.x + dy, at.y - dx)]
    }

    /// Whether each side of `at` is a wall (anything not walkable).
    fn sides_walled(&self, grid: &Grid, at: Cell) -> [bool; 2] {
        self.side_cells(at).map(|c| !grid.is_walkable(c))
    }

    /// After the run's step from `from` into `at`: chooses the next step's
    /// direction, and says whether the run goes on.
    pub fn after_step(&mut self, grid: &Grid, from: Cell, at: Cell) -> bool {
        if new_door_beside(grid, from, at) {
            return false;
        }
        let mut ahead = DIRECTIONS.iter().filter(|&&(dx, dy)| {
            let to = Cell::new(at.x + dx, at.y + dy);
            grid.can_step(at, dx, dy) && to != from && !reaches(grid, from, to)
        });
        match (ahead.next(), ahead.next()) {
            (None, _) => false,
            (Some(&(dx, dy)), None)
                if self.corridor || ((dx as i8, dy as i8) != (self.dx, self.dy) && narrow(grid, at)) =>
            {
                (self.dx, self.dy, self.corridor) = (dx as i8, dy as i8, true);
                self.walls = self.sides_walled(grid, at).map(u8::from);
                true
            }
            (Some(_), Some(_)) if self.corridor => false,
            _ => {
                let walled = self.sides_walled(grid, at);
                let opening = (0..2).any(|i| !walled[i] && self.walls[i] >= 2);
                for (walls, &walled) in self.walls.iter_mut().zip(&walled) {
                    *walls = if walled { (*walls + 1).min(2) } else { 0 };
                }
                !opening && grid.can_step(at, i32::from(self.dx), i32::from(self.dy))
            }
        }
    }
}

/// Whether `at` is a corridor's cell: at most two of its four orthogonal
/// neighbours are walkable. A single way on from a cell in the open (the
/// corner of a pillar a diagonal run meets) is no corridor to turn into.
fn narrow(grid: &Grid, at: Cell) -> bool {
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .iter()
        .filter(|&&(dx, dy)| grid.is_walkable(Cell::new(at.x + dx, at.y + dy)))
        .count()
        <= 2
}

/// Whether a legal step from `from` reaches `to`.
fn reaches(grid: &Grid, from: Cell, to: Cell) -> bool {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0) && grid.can_step(from, dx, dy)
}

/// Whether a door is underfoot at `at` or orthogonally beside it that was
/// neither under nor beside `from`.
pub fn new_door_beside(grid: &Grid, from: Cell, at: Cell) -> bool {
    let near = |c: Cell, d: Cell| (c.x - d.x).abs() + (c.y - d.y).abs() <= 1;
    let door = |c: Cell| matches!(grid.tile(c), Tile::DoorOpen | Tile::DoorClosed);
    [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)]
        .iter()
        .map(|&(dx, dy)| Cell::new(at.x + dx, at.y + dy))
        .any(|d| door(d) && !near(from, d))
}

impl StateHash for Run {
    fn hash_into(&self, h: &mut StateHasher) {
        let Run { dx, dy, corridor, walls } = self;
        h.add(dx);
        h.add(dy);
        h.add(corridor);
        h.add(walls);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    /// Where a run by (dx, dy) from the level's `@` ends, walking its
    /// steps on the grid alone (no world: no monsters, no pace).
    fn run(text: &str, dx: i8, dy: i8) -> Cell {
        let level = Level::parse(text, "t").unwrap();
        let (grid, mut at) = (level.grid, level.player.unwrap());
        let Some(mut r) = Run::start(&grid, at, dx, dy) else { return at };
        for _ in 0..1000 {
            let from = at;
            at = Cell::new(at.x + i32::from(r.dx), at.y + i32::from(r.dy));
            if !r.after_step(&grid, from, at) {
                return at;
            }
        }
        panic!("the run never ended")
    }

    #[test]
    fn a_run_follows_a_corridor_round_its_corners_to_its_end() {
        let bends = "\
#########
#@....###
#####.###
#####...#
#######.#
#######.#
#########
";
        assert_eq!(run(bends, 1, 0), Cell::new(7, 5), "round three corners, to the dead end");
        let stairs = "\
########
#@.#####
##..####
###..###
####...#
########
";
        assert_eq!(run(stairs, 1, 0), Cell::new(6, 4), "down a staircase of corners");
    }

    #[test]
    fn a_corridor_run_stops_where_the_corridor_opens() {
        let junction = "\
##########
#####.####
#@.......#
##########
";
        assert_eq!(run(junction, 1, 0), Cell::new(5, 2), "at the side passage");
        let room = "\
###########
#@...#....#
####......#
#####.....#
###########
";
        assert_eq!(run(room, 1, 0), Cell::new(5, 2), "one step into the room it led to");
    }

    #[test]
    fn an_open_run_crosses_a_pillared_hall_and_stops_at_an_opening_in_a_wall() {
        let pillars = "\
###############
#.............#
#@.#..#..#..#.#
#.............#
#.#..#..#..#..#
#.............#
###############
";
        assert_eq!(run(pillars, 1, 1), Cell::new(2, 3), "a diagonal into a pillar's row stops at the pillar");
        let hall = "\
###############
#.............#
#.#..#..#..#..#
#@............#
#.#..#..#..#..#
#.............#
###############
";
        assert_eq!(run(hall, 1, 0), Cell::new(13, 3), "between two rows of pillars to the far wall");
        let wall = "\
###############
#@............#
#.............#
########.######
";
        assert_eq!(run(wall, 1, 1), Cell::new(2, 2), "along the south wall...");
        let along = "\
###############
#.............#
#@............#
########.######
";
        assert_eq!(run(along, 1, 0), Cell::new(8, 2), "...to where it opens");
    }

    #[test]
    fn a_run_stops_where_a_door_comes_beside_it_or_underfoot() {
        let beside = "\
###########
######'####
#@........#
###########
";
        assert_eq!(run(beside, 1, 0), Cell::new(6, 2));
        let ahead = "\
###########
#@....+...#
###########
";
        assert_eq!(run(ahead, 1, 0), Cell::new(5, 1), "before a closed door");
        let open = "\
###########
#@...'....#
###########
";
        assert_eq!(run(open, 1, 0), Cell::new(4, 1), "before an open one...");
        let through = "\
###########
#...@'....#
###########
";
        assert_eq!(run(through, 1, 0), Cell::new(9, 1), "...and from beside it on through it");
    }

    #[test]
    fn a_run_into_a_wall_does_not_start() {
        let level = Level::parse("####\n#@.#\n####\n", "t").unwrap();
        let at = level.player.unwrap();
        assert!(Run::start(&level.grid, at, -1, 0).is_none());
        assert!(Run::start(&level.grid, at, 1, 1).is_none());
        assert!(Run::start(&level.grid, at, 1, 0).is_some());
    }
}
