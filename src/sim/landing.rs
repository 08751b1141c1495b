//! Where a monster sent home after a catch lands: out of the player's
//! sight, as near its post as that allows, and never on another creature.
//!
//! A catch moves a monster in one jump, which no avoidance can foresee: put
//! on its post while another creature stands on or beside it, the two
//! overlap until they push apart (every overlap ORCA left on
//! `levels/crossing.txt` was one of these). And a post the player can see
//! is no way home: the monster would see the player again at once and
//! catch it again when the grace ends (three lives in six seconds at the
//! dungeon's guard-room door, issue 25), so it lands where the player's
//! sight does not reach.

use crate::grid::{Cell, DIRECTIONS, Grid, Tile, line_of_sight};
use crate::steer::{Vec2, cell_center};
use std::collections::VecDeque;

/// How far from its post, in steps, a monster may land when it cannot
/// hide from the player.
pub const LANDING_REACH: i32 = 8;
/// How far from its post, in steps, a monster looks for a cell out of the
/// player's sight.
pub const HIDING_REACH: i32 = 32;

/// Cells from the player within which a hidden landing is still too near:
/// the monster would stand round the corner of the player's way, within
/// the hearing of its steps.
pub const LANDING_AWAY: f32 = 8.0;

/// Whom a landing hides from: the player's cell and how far sight reaches
/// (the monsters' detection radius).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hide {
    pub player: Cell,
    pub sight: f32,
}

impl Hide {
    /// Whether the player sees the centre of `c`.
    fn sees(&self, grid: &Grid, c: Cell) -> bool {
        cell_center(self.player).distance(cell_center(c)) <= self.sight && line_of_sight(grid, self.player, c)
    }
}

/// The cell a monster caught with the player in sight lands on: of the
/// free cells (floor or water, not a door) reachable from `post` within
/// [`HIDING_REACH`] steps, the first in breadth-first order from the post
/// (so the fewest steps from it) whose centre is out of `hide`'s sight, at
/// least [`LANDING_AWAY`] from the player, and has no position of `others`
/// within `clearance`; failing that, the first out of sight however near;
/// failing that, the first out of sight anywhere the post reaches, however
/// far (a long corridor in the player's sight); when every reachable cell
/// is in sight (an open arena), the nearest to the post that keeps clear,
/// as [`landing`] finds it. A pure function of the
/// grid and the positions.
pub fn hidden_landing(grid: &Grid, post: Cell, others: &[Vec2], clearance: f32, hide: Hide) -> Cell {
    let clear = |c: Cell| others.iter().all(|&o| o.distance(cell_center(c)) >= clearance);
    let hidden = |c: Cell| free(grid, c) && clear(c) && !hide.sees(grid, c);
    let away = |c: Cell| cell_center(c).distance(cell_center(hide.player)) >= LANDING_AWAY;
    // The whole map, when nothing within reach is hidden: a one-wide maze
    // corridor can run in the player's sight for longer than the reach.
    let everywhere = grid.width().max(grid.height()) as i32;
    (breadth_first(grid, post, HIDING_REACH, |c| hidden(c) && away(c)))
        .or_else(|| breadth_first(grid, post, HIDING_REACH, hidden))
        .or_else(|| breadth_first(grid, post, everywhere, hidden))
        .unwrap_or_else(|| landing(grid, post, others, clearance))
}

/// Whether a monster may land on `c`: floor or water (not a door).
fn free(grid: &Grid, c: Cell) -> bool {
    matches!(grid.tile(c), Tile::Floor(_) | Tile::Water)
}

/// The first cell breadth-first from `from`, within `reach` steps of it
/// (as a square window), that `wanted` accepts.
fn breadth_first(grid: &Grid, from: Cell, reach: i32, mut wanted: impl FnMut(Cell) -> bool) -> Option<Cell> {
    let side = 2 * reach + 1;
    let slot = |c: Cell| ((c.y - from.y + reach) * side + (c.x - from.x + reach)) as usize;
    let mut seen = vec![false; (side * side) as usize];
    seen[slot(from)] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        if wanted(c) {
            return Some(c);
        }
        for &(sx, sy) in &DIRECTIONS {
            let next = Cell::new(c.x + sx, c.y + sy);
            let near = (next.x - from.x).abs() <= reach && (next.y - from.y).abs() <= reach;
            if near && !seen[slot(next)] && grid.can_step(c, sx, sy) {
                seen[slot(next)] = true;
                queue.push_back(next);
            }
        }
    }
    None
}

/// The cell a monster lands on: of the free cells (floor or water, not a
/// door) reachable from `post` within [`LANDING_REACH`] steps, those whose
/// centre has no position of `others` within `clearance`, the nearest to
/// `post` (ties by row, then column); `post` itself when none is. Reachable
/// keeps the monster on its side of the walls. A pure function of the
/// grid and the positions, so the world stays deterministic.
pub fn landing(grid: &Grid, post: Cell, others: &[Vec2], clearance: f32) -> Cell {
    let side = 2 * LANDING_REACH + 1;
    let slot = |c: Cell| ((c.y - post.y + LANDING_REACH) * side + (c.x - post.x + LANDING_REACH)) as usize;
    let mut seen = vec![false; (side * side) as usize];
    seen[slot(post)] = true;
    let mut queue = VecDeque::from([post]);
    let mut best: Option<(i32, i32, i32, Cell)> = None;
    while let Some(c) = queue.pop_front() {
        let (dx, dy) = (c.x - post.x, c.y - post.y);
        let key = (dx * dx + dy * dy, c.y, c.x, c);
        if free(grid, c)
            && best.is_none_or(|b| key < b)
            && others.iter().all(|&o| o.distance(cell_center(c)) >= clearance)
        {
            best = Some(key);
        }
        for &(sx, sy) in &DIRECTIONS {
            let next = Cell::new(c.x + sx, c.y + sy);
            let near = (next.x - post.x).abs() <= LANDING_REACH && (next.y - post.y).abs() <= LANDING_REACH;
            if near && !seen[slot(next)] && grid.can_step(c, sx, sy) {
                seen[slot(next)] = true;
                queue.push_back(next);
            }
        }
    }
    best.map_or(post, |b| b.3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn grid(rows: &str) -> Grid {
        Level::parse(&format!("name: t\n{rows}"), "t.txt").unwrap().grid
    }

    #[test]
    fn an_empty_post_is_where_it_lands() {
        let g = grid("#####\n#...#\n#...#\n#####\n");
        let post = Cell::new(2, 1);
        assert_eq!(landing(&g, post, &[], 0.9), post);
        // Someone a cell away leaves the post clear.
        assert_eq!(landing(&g, post, &[cell_center(Cell::new(3, 1))], 0.9), post);
    }

    #[test]
    fn an_occupied_post_gives_the_nearest_clear_cell_in_row_order() {
        let g = grid("#####\n#...#\n#...#\n#####\n");
        let post = Cell::new(2, 1);
        // The post taken: the nearest are (1,1), (3,1) and (2,2); row order
        // then column order picks (1,1).
        assert_eq!(landing(&g, post, &[cell_center(post)], 0.9), Cell::new(1, 1));
        // Someone between the post and (1,1) rules out both.
        let between = cell_center(post) + Vec2::new(-0.5, 0.0);
        assert_eq!(landing(&g, post, &[between], 0.9), Cell::new(3, 1));
    }

    #[test]
    fn a_caught_monster_lands_out_of_the_players_sight() {
        // A room split by a wall with a gap along the bottom row: the post
        // in the gap's row west of the wall, the player east of it.
        let g = grid("#########\n#...#...#\n#...#...#\n#.......#\n#########\n");
        let (post, player) = (Cell::new(1, 3), Cell::new(7, 3));
        let hide = Hide { player, sight: 40.0 };
        assert!(hide.sees(&g, post), "the post is in sight through the gap");
        let spot = hidden_landing(&g, post, &[], 0.9, hide);
        assert!(!hide.sees(&g, spot), "landed at {spot}, in sight");
        // The nearest hidden cell to the post: north of it, behind the
        // corner of the wall.
        assert_eq!(spot, Cell::new(1, 2));
        // Beyond sight counts as hidden: a post 1 cell away is far enough
        // for a sight of 0.5.
        assert_eq!(hidden_landing(&g, post, &[], 0.9, Hide { player: Cell::new(3, 1), sight: 0.5 }), post);
        // With nowhere out of sight, the nearest clear cell to the post.
        let open = grid("#####\n#...#\n#...#\n#####\n");
        let hide = Hide { player: Cell::new(3, 2), sight: 40.0 };
        assert_eq!(hidden_landing(&open, Cell::new(2, 1), &[], 0.9, hide), Cell::new(2, 1));
    }

    /// A one-wide corridor in the player's sight for longer than the
    /// hiding reach, turning a corner at its far end: the monster lands
    /// round that corner, farther from its post than the reach, not in
    /// sight near the post.
    #[test]
    fn a_long_corridor_in_sight_sends_it_round_the_far_corner() {
        let row = |fill: &str, end: &str| format!("#{}{end}#\n", fill.repeat(HIDING_REACH as usize + 6));
        let rows = [row("#", "#"), row(".", "."), row("#", "."), row("#", "."), row("#", "#")].concat();
        let g = grid(&rows);
        let corner = Cell::new(HIDING_REACH + 7, 2);
        assert!(g.is_walkable(corner), "the corridor turns down at its end");
        let (post, player) = (Cell::new(3, 1), Cell::new(1, 1));
        let hide = Hide { player, sight: 80.0 };
        let spot = hidden_landing(&g, post, &[], 0.9, hide);
        assert!(!hide.sees(&g, spot), "landed at {spot}, in sight");
        assert_eq!(spot.x, corner.x, "round the far corner, {spot}");
    }

    #[test]
    fn it_never_lands_across_a_wall_and_falls_back_to_the_post() {
        // The post's side of the wall has only the post.
        let g = grid("#####\n#.#.#\n#####\n");
        let post = Cell::new(1, 1);
        assert_eq!(landing(&g, post, &[cell_center(post)], 0.9), post);
    }
}
