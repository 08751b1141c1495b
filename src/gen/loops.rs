//! Loops: rock between two cells that are far apart by path is knocked
//! out, so that there are alternative routes (Brogue's "add loops").
//!
//! A candidate is a straight run of one to [`MAX_RUN`] wall cells along a
//! row or a column, with a walkable cell at each end and walls on both
//! flanks of every cell of the run: knocking it out joins its two ends by
//! a doorway (or a short tunnel). Brogue's loops are the runs of one cell;
//! the longer ones give small maps, whose rooms are further apart, a loop
//! too, and a map with no such run at all gets one tunnel through a longer
//! run, or, when it is a single room with no wall to knock out, a pillar. The candidates are tried in a random order; one is knocked out
//! when the walk between its two ends, without it, takes more than the
//! plan's threshold of orthogonal steps (found by a breadth-first search
//! that gives up at the threshold, so each test costs at most the cells
//! within that many steps). At most the plan's budget of loops is added,
//! and at least one when there is any candidate: the one whose ends were
//! farthest apart. Every loop added encloses rock, so the level has two
//! routes round it.

use super::Style;
use super::canvas::Canvas;
use super::dice::Dice;
use crate::grid::Tile;

/// How many loops, and how long a detour earns one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    /// A detour longer than this many steps earns a loop.
    pub threshold: u32,
    /// Map cells per loop: at most `area / cells_per_loop` loops (and 1).
    pub cells_per_loop: usize,
    /// Candidates tried per loop of the budget, at most.
    pub tries_per_loop: usize,
}

impl Plan {
    /// The plan of a style: Brogue's threshold of 20 steps for `mixed`,
    /// longer detours and fewer loops for the tree of `rooms`.
    pub fn for_style(style: Style) -> Plan {
        match style {
            Style::Mixed => Plan { threshold: 20, cells_per_loop: 400, tries_per_loop: 30 },
            _ => Plan { threshold: 30, cells_per_loop: 600, tries_per_loop: 30 },
        }
    }
}

/// The longest run of wall a loop knocks out.
pub(super) const MAX_RUN: usize = 3;

/// A run of wall starting at `first` and going on by `step` (1 along a
/// row, the width down a column).
#[derive(Clone, Copy, Debug)]
struct Run {
    first: usize,
    step: usize,
    /// The most wall cells it may cross.
    max: usize,
}

impl Run {
    /// The two walkable ends of the run and its length, while it is a
    /// candidate: 1 to `max` wall cells off the outer ring between two
    /// walkable cells, with walls on both flanks of each.
    fn ends(self, canvas: &Canvas) -> Option<(usize, usize, usize)> {
        let before = self.first.checked_sub(self.step)?;
        if !canvas.walkable(before) {
            return None;
        }
        let flank = if self.step == 1 { canvas.width } else { 1 };
        let mut i = self.first;
        for len in 0..=self.max {
            if canvas.walkable(i) {
                return (len > 0).then_some((before, i, len));
            }
            if len == self.max || !canvas.inside(i) || canvas.walkable(i + flank) || canvas.walkable(i - flank) {
                return None;
            }
            i += self.step;
        }
        None
    }

    fn knock_out(self, canvas: &mut Canvas, len: usize) {
        for k in 0..len {
            canvas.tiles[self.first + k * self.step] = Tile::Floor(1);
        }
    }
}

/// Every candidate run of at most `max` wall cells, along rows then columns
/// from each cell in turn.
fn runs(canvas: &Canvas, max: usize) -> Vec<Run> {
    (0..canvas.tiles.len())
        .flat_map(|first| [Run { first, step: 1, max }, Run { first, step: canvas.width, max }])
        .filter(|run| run.ends(canvas).is_some())
        .collect()
}

/// Adds loops to `canvas` by `plan`; returns the runs knocked out.
pub(super) fn add(canvas: &mut Canvas, dice: &mut Dice, plan: Plan) -> usize {
    let mut candidates = runs(canvas, MAX_RUN);
    let mut budget = (canvas.tiles.len() / plan.cells_per_loop).max(1);
    if candidates.is_empty() {
        // Rooms too far apart for short runs: one long tunnel, the loop
        // every level gets.
        candidates = runs(canvas, canvas.width.max(canvas.height));
        budget = 1;
    }
    dice.shuffle(&mut candidates);
    let tries = budget.saturating_mul(plan.tries_per_loop);
    let mut search = Detour::new(canvas.tiles.len());
    let mut added = 0;
    // The farthest apart of the candidates tried, for the loop every level gets.
    let mut best: Option<(u32, Run, usize)> = None;
    for &run in candidates.iter().take(tries) {
        let Some((a, b, len)) = run.ends(canvas) else { continue };
        let steps = search.steps(canvas, a, b, plan.threshold);
        if steps > plan.threshold {
            run.knock_out(canvas, len);
            added += 1;
            if added == budget {
                break;
            }
        } else if best.is_none_or(|(s, _, _)| steps > s) {
            best = Some((steps, run, len));
        }
    }
    if added == 0
        && let Some((_, run, len)) = best
    {
        run.knock_out(canvas, len);
        added = 1;
    }
    if candidates.is_empty() {
        added += pillar(canvas, dice);
    }
    added
}

/// A pillar on a random cell whose eight neighbours are all walkable (the
/// loop of a level that is one room): the ring round it stays joined, and
/// goes both ways round. Returns the pillars put (0 without such a cell).
fn pillar(canvas: &mut Canvas, dice: &mut Dice) -> usize {
    let w = canvas.width;
    let ring = |i: usize| [i - w - 1, i - w, i - w + 1, i - 1, i + 1, i + w - 1, i + w, i + w + 1];
    let open: Vec<usize> = (0..canvas.tiles.len())
        .filter(|&i| canvas.inside(i) && canvas.walkable(i) && ring(i).iter().all(|&j| canvas.walkable(j)))
        .collect();
    if open.is_empty() {
        return 0;
    }
    let i = dice.pick(&open);
    canvas.tiles[i] = Tile::Wall;
    canvas.room[i] = false;
    1
}

/// A breadth-first search that is reused: its marks are stamped with the
/// search's number, so a new search clears nothing.
struct Detour {
    mark: Vec<u32>,
    stamp: u32,
    queue: std::collections::VecDeque<(usize, u32)>,
}

impl Detour {
    fn new(cells: usize) -> Detour {
        Detour { mark: vec![0; cells], stamp: 0, queue: std::collections::VecDeque::new() }
    }

    /// Orthogonal steps from `a` to `b` over walkable cells, or `limit + 1`
    /// when it takes more than `limit`.
    fn steps(&mut self, canvas: &Canvas, a: usize, b: usize, limit: u32) -> u32 {
        self.stamp += 1;
        self.queue.clear();
        self.mark[a] = self.stamp;
        self.queue.push_back((a, 0));
        while let Some((i, d)) = self.queue.pop_front() {
            if i == b {
                return d;
            }
            if d == limit {
                continue;
            }
            for j in canvas.around(i) {
                if self.mark[j] != self.stamp && canvas.walkable(j) {
                    self.mark[j] = self.stamp;
                    self.queue.push_back((j, d + 1));
                }
            }
        }
        limit + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_far_detour_earns_a_loop_and_a_near_one_does_not() {
        // Two corridors joined at the far east end: from one side of the
        // wall at x, 2 to the other is a long walk.
        let rows = ["##############", "#............#", "############.#", "#............#", "##############"];
        let far = Plan { threshold: 10, cells_per_loop: 1000, tries_per_loop: 100 };
        let mut c = Canvas::drawn(&rows);
        assert_eq!(add(&mut c, &mut test_dice(), far), 1);
        let knocked: Vec<usize> = (0..c.width).filter(|&x| c.walkable(c.at(x, 2))).collect();
        assert_eq!(knocked.len(), 2, "the east end and one loop");
        // From x, 1 to x, 3 is 2 (12 - x) + 2 steps: more than 10 west of x = 8.
        assert!(knocked[0] < 8, "only a wall far from the east end qualifies: {knocked:?}");
    }

    #[test]
    fn every_level_with_a_candidate_gets_one_loop() {
        let rows = ["#######", "#.....#", "#####.#", "#.....#", "#######"];
        let mut c = Canvas::drawn(&rows);
        let never = Plan { threshold: 1000, cells_per_loop: 1, tries_per_loop: 100 };
        assert_eq!(add(&mut c, &mut test_dice(), never), 1, "the farthest-apart candidate");
        assert!(c.walkable(c.at(1, 2)), "the wall at 1,2 had its sides 10 steps apart: {:?}", c.picture());
        let mut solid = Canvas::drawn(&["#####", "#...#", "#####"]);
        assert_eq!(add(&mut solid, &mut test_dice(), never), 0, "no candidate");
    }

    #[test]
    fn a_far_room_gets_a_long_tunnel_and_a_lone_room_a_pillar() {
        let never = Plan { threshold: 1000, cells_per_loop: 1, tries_per_loop: 100 };
        let rows = ["###########", "#..#####..#", "#..#####..#", "##.#####.##", "##.......##", "###########"];
        let mut c = Canvas::drawn(&rows);
        assert_eq!(add(&mut c, &mut test_dice(), never), 1);
        assert_eq!(c.picture()[1], "#.........#", "the run of 5 with its ends 12 steps apart");
        assert_eq!(c.picture()[2], rows[2]);
        let mut room = Canvas::drawn(&["#####", "#...#", "#...#", "#...#", "#####"]);
        assert_eq!(add(&mut room, &mut test_dice(), never), 1);
        assert_eq!(room.picture(), ["#####", "#...#", "#.#.#", "#...#", "#####"]);
    }

    #[test]
    fn detours_count_steps_and_give_up_at_the_limit() {
        let c = Canvas::drawn(&["#######", "#.....#", "#####.#", "#.....#", "#######"]);
        let mut d = Detour::new(c.tiles.len());
        let (a, b) = (c.at(1, 1), c.at(1, 3));
        assert_eq!(d.steps(&c, a, b, 100), 10);
        assert_eq!(d.steps(&c, a, b, 9), 10, "beyond the limit: limit + 1");
        assert_eq!(d.steps(&c, a, a, 0), 0);
    }

    fn test_dice() -> Dice {
        let r = crate::r#gen::Recipe::new(Style::Mixed, 1, 1, None).unwrap();
        crate::r#gen::dice::stream(&r, crate::r#gen::dice::Purpose::Loops)
    }
}
