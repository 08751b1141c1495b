//! Where a monster sent home after a catch lands: its post, or when
//! someone stands there, the nearest cell to it with room for its body.
//!
//! A catch moves a monster in one jump, which no avoidance can foresee: put
//! on its post while another creature stands on or beside it, the two
//! overlap until they push apart (every overlap ORCA left on
//! `levels/crossing.txt` was one of these).

use crate::grid::{Cell, DIRECTIONS, Grid, Tile};
use crate::steer::{Vec2, cell_center};
use std::collections::VecDeque;

/// How far from its post, in steps, a monster may land.
pub const LANDING_REACH: i32 = 8;

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
        let free = matches!(grid.tile(c), Tile::Floor(_) | Tile::Water);
        if free && best.is_none_or(|b| key < b) && others.iter().all(|&o| o.distance(cell_center(c)) >= clearance) {
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
    fn it_never_lands_across_a_wall_and_falls_back_to_the_post() {
        // The post's side of the wall has only the post.
        let g = grid("#####\n#.#.#\n#####\n");
        let post = Cell::new(1, 1);
        assert_eq!(landing(&g, post, &[cell_center(post)], 0.9), post);
    }
}
