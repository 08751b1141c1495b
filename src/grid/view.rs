//! The player's field of view: which cells an eye sees within a radius.
//!
//! One definition, read by the world (what the player has seen, which
//! auto-explore heads beyond, and which monsters are in view) and by the
//! fog of war on screen, so that the map never shows a cell the world says
//! is unseen, nor the other way round.
//!
//! A cell is in view when its centre is within the radius of the eye's
//! (x² + y² ≤ r², in whole cells) and the segment between the centres
//! touches only walkable cells before it ([`supercover`], the exact line
//! of sight monsters see by): a wall in view is seen, what lies behind it
//! is not. A wall or a closed door is seen too when a walkable cell beside
//! it is in view, so that rooms show their walls whole.

use super::{Cell, Grid, supercover};

/// Whether `cell` is in view from `eye` within `radius` cells (see the
/// module docs): the cell itself may be a wall, which is what the eye sees
/// of it.
pub fn in_view(grid: &Grid, eye: Cell, cell: Cell, radius: i32) -> bool {
    let (dx, dy) = (i64::from(cell.x - eye.x), i64::from(cell.y - eye.y));
    let r = i64::from(radius.max(0));
    if dx * dx + dy * dy > r * r {
        return false;
    }
    let mut line = supercover(eye, cell).peekable();
    std::iter::from_fn(|| line.next().filter(|_| line.peek().is_some())).all(|p| grid.is_walkable(p))
}

/// The largest radius that sees anything more on `grid`: every cell of it
/// is nearer the eye than its width plus its height. A larger radius
/// (a setting of 1e30 cells) is cut to it, so the field is never looked
/// for beyond the map.
pub fn radius_on(grid: &Grid, radius: i32) -> i32 {
    radius.clamp(0, (grid.width() + grid.height()) as i32)
}

/// Calls `mark` once for every cell of `grid` the eye at `eye` sees within
/// `radius` cells, row by row: the cells [`in_view`], and the walls and
/// closed doors beside a walkable cell in view. Cells `skip` accepts are
/// not looked at nor marked (a caller that remembers what was seen skips
/// what it knows); the cells beside them are judged as ever.
pub fn field_of_view(
    grid: &Grid,
    eye: Cell,
    radius: i32,
    mut skip: impl FnMut(Cell) -> bool,
    mut mark: impl FnMut(Cell),
) {
    let r = radius_on(grid, radius);
    let side = (2 * r + 1) as usize;
    // Whether each cell of the square around the eye is in view: 0 not
    // looked at yet, 1 no, 2 yes. A wall's neighbours are looked at once.
    let mut memo = vec![0u8; side * side];
    let mut sees = |c: Cell| {
        let (ox, oy) = (c.x - eye.x + r, c.y - eye.y + r);
        if !(0..side as i32).contains(&ox) || !(0..side as i32).contains(&oy) {
            return false;
        }
        let k = oy as usize * side + ox as usize;
        if memo[k] == 0 {
            memo[k] = 1 + u8::from(in_view(grid, eye, c, r));
        }
        memo[k] == 2
    };
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    for y in (eye.y - r).max(0)..=(eye.y + r).min(h - 1) {
        for x in (eye.x - r).max(0)..=(eye.x + r).min(w - 1) {
            let c = Cell::new(x, y);
            if skip(c) {
                continue;
            }
            let seen = sees(c)
                || (!grid.is_walkable(c)
                    && (-1..=1)
                        .flat_map(|dy| (-1..=1).map(move |dx| Cell::new(x + dx, y + dy)))
                        .any(|n| grid.is_walkable(n) && sees(n)));
            if seen {
                mark(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    /// A grid from rows of `#` and `.`.
    fn grid(rows: &[&str]) -> Grid {
        Level::parse(&rows.join("\n"), "t").unwrap().grid
    }

    fn seen(grid: &Grid, eye: Cell, radius: i32) -> Vec<String> {
        let mut marks = vec![vec![' '; grid.width()]; grid.height()];
        field_of_view(grid, eye, radius, |_| false, |c| marks[c.y as usize][c.x as usize] = '*');
        marks.into_iter().map(|r| r.into_iter().collect()).collect()
    }

    #[test]
    fn a_room_is_seen_with_its_walls_and_nothing_behind_them() {
        let g = grid(&["#######", "#..#..#", "#..#..#", "#######"]);
        assert_eq!(seen(&g, Cell::new(1, 1), 40), ["****   ", "****   ", "****   ", "****   "]);
    }

    #[test]
    fn the_radius_is_a_circle_of_cell_centres() {
        let g = grid(&[".........", ".........", ".........", ".........", "........."]);
        let shown = seen(&g, Cell::new(4, 2), 2);
        assert_eq!(shown, ["    *    ", "   ***   ", "  *****  ", "   ***   ", "    *    "]);
        assert!(in_view(&g, Cell::new(0, 0), Cell::new(3, 4), 5));
        assert!(!in_view(&g, Cell::new(0, 0), Cell::new(4, 4), 5));
    }

    #[test]
    fn skipped_cells_are_not_marked_and_do_not_change_their_neighbours() {
        let g = grid(&["#####", "#...#", "#####"]);
        let all = seen(&g, Cell::new(1, 1), 40);
        let mut marks = Vec::new();
        field_of_view(&g, Cell::new(1, 1), 40, |c| c == Cell::new(2, 1), |c| marks.push(c));
        let want: Vec<Cell> = (0..3)
            .flat_map(|y| (0..5).map(move |x| Cell::new(x, y)))
            .filter(|c| all[c.y as usize].as_bytes()[c.x as usize] == b'*' && *c != Cell::new(2, 1))
            .collect();
        assert_eq!(marks, want, "the walls beside the skipped cell are still seen");
    }

    #[test]
    fn a_huge_radius_sees_the_whole_map_and_no_further() {
        let g = grid(&["...", "..."]);
        let mut n = 0;
        field_of_view(&g, Cell::new(0, 0), i32::MAX, |_| false, |_| n += 1);
        assert_eq!(n, 6);
        assert_eq!(radius_on(&g, i32::MAX), 5);
        assert_eq!(radius_on(&g, -3), 0);
    }
}
