//! Exact line of sight between cell centres.
//!
//! The segment between two centres is walked cell by cell in integer
//! arithmetic (a "supercover" walk): every cell whose interior the segment
//! touches is visited, and where the segment passes exactly through a grid
//! vertex both cells beside the vertex are visited too. A wall there blocks
//! the sight, so a path never squeezes through two walls meeting at a corner
//! nor clips the corner of one.

use super::{Cell, Grid};

/// Every cell the segment between the centres of `a` and `b` touches, in
/// order from `a` to `b`. At an exact vertex crossing the two side cells come
/// before the diagonal cell (the x-side first).
pub fn supercover(a: Cell, b: Cell) -> Supercover {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    Supercover {
        cell: a,
        sx: dx.signum(),
        sy: dy.signum(),
        nx: i64::from(dx.unsigned_abs()),
        ny: i64::from(dy.unsigned_abs()),
        ix: 0,
        iy: 0,
        // The first cell comes out first, through the queue.
        pending: [Some(a), None],
    }
}

/// Whether the segment between the centres of `a` and `b` touches only
/// walkable cells.
pub fn line_of_sight(grid: &Grid, a: Cell, b: Cell) -> bool {
    first_blocked(grid, a, b).is_none()
}

/// The first cell blocking the sight from `a` to `b` (walking from `a`), or
/// `None` when `b` is in sight. Knowing *what* blocks lets string-pulling
/// rule out everything else that cell hides.
pub fn first_blocked(grid: &Grid, a: Cell, b: Cell) -> Option<Cell> {
    supercover(a, b).find(|&c| !grid.is_walkable(c))
}

/// Iterator behind [`supercover`].
#[derive(Clone, Debug)]
pub struct Supercover {
    cell: Cell,
    sx: i32,
    sy: i32,
    nx: i64,
    ny: i64,
    ix: i64,
    iy: i64,
    /// Cells queued to come out next: the first cell, or after a vertex
    /// crossing the second side cell and the diagonal cell.
    pending: [Option<Cell>; 2],
}

impl Iterator for Supercover {
    type Item = Cell;

    fn next(&mut self) -> Option<Cell> {
        if let Some(c) = self.pending[0].take() {
            self.pending[0] = self.pending[1].take();
            return Some(c);
        }
        if self.ix >= self.nx && self.iy >= self.ny {
            return None;
        }
        // The segment leaves the current cell through a vertical side at
        // parameter (0.5 + ix) / nx and through a horizontal side at
        // (0.5 + iy) / ny; compare them without division.
        let tx = (1 + 2 * self.ix) * self.ny;
        let ty = (1 + 2 * self.iy) * self.nx;
        let c = self.cell;
        if self.iy >= self.ny || (self.ix < self.nx && tx < ty) {
            self.ix += 1;
            self.cell = Cell::new(c.x + self.sx, c.y);
        } else if self.ix >= self.nx || ty < tx {
            self.iy += 1;
            self.cell = Cell::new(c.x, c.y + self.sy);
        } else {
            // Exactly through a vertex: both side cells touch the segment.
            self.ix += 1;
            self.iy += 1;
            self.cell = Cell::new(c.x + self.sx, c.y + self.sy);
            self.pending = [Some(Cell::new(c.x, c.y + self.sy)), Some(self.cell)];
            return Some(Cell::new(c.x + self.sx, c.y));
        }
        Some(self.cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    fn cells(v: &[(i32, i32)]) -> Vec<Cell> {
        v.iter().map(|&(x, y)| Cell::new(x, y)).collect()
    }

    #[test]
    fn straight_and_single() {
        let a = Cell::new(2, 2);
        assert_eq!(supercover(a, a).collect::<Vec<_>>(), cells(&[(2, 2)]));
        assert_eq!(supercover(a, Cell::new(5, 2)).collect::<Vec<_>>(), cells(&[(2, 2), (3, 2), (4, 2), (5, 2)]));
        assert_eq!(supercover(a, Cell::new(2, 0)).collect::<Vec<_>>(), cells(&[(2, 2), (2, 1), (2, 0)]));
    }

    #[test]
    fn diagonal_visits_both_side_cells() {
        assert_eq!(
            supercover(Cell::new(0, 0), Cell::new(2, 2)).collect::<Vec<_>>(),
            cells(&[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)])
        );
    }

    #[test]
    fn shallow_line_touches_exact_cells() {
        // From (0.5,0.5) to (3.5,1.5): crosses y=1 at x=2.0, exactly a
        // vertex, so (2,0) and (1,1) are both touched.
        assert_eq!(
            supercover(Cell::new(0, 0), Cell::new(3, 1)).collect::<Vec<_>>(),
            cells(&[(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (3, 1)])
        );
        // From (0.5,0.5) to (2.5,1.5): crosses y=1 at x=1.5, inside cell 1.
        assert_eq!(
            supercover(Cell::new(0, 0), Cell::new(2, 1)).collect::<Vec<_>>(),
            cells(&[(0, 0), (1, 0), (1, 1), (2, 1)])
        );
    }

    #[test]
    fn symmetric_cell_sets() {
        for (a, b) in [((0, 0), (5, 3)), ((4, 1), (0, 6)), ((3, 3), (0, 0)), ((1, 7), (6, 2))] {
            let (a, b) = (Cell::new(a.0, a.1), Cell::new(b.0, b.1));
            let mut f: Vec<_> = supercover(a, b).collect();
            let mut r: Vec<_> = supercover(b, a).collect();
            f.sort();
            r.sort();
            assert_eq!(f, r, "{a} -> {b}");
        }
    }

    #[test]
    fn corner_blocks_sight() {
        let mut g = Grid::filled(3, 3, Tile::Floor(1));
        assert!(line_of_sight(&g, Cell::new(0, 0), Cell::new(2, 2)));
        g.set_tile(Cell::new(1, 0), Tile::Wall);
        assert!(!line_of_sight(&g, Cell::new(0, 0), Cell::new(1, 1)));
        assert!(line_of_sight(&g, Cell::new(0, 1), Cell::new(2, 1)));
        assert!(!line_of_sight(&g, Cell::new(0, 0), Cell::new(2, 0)));
    }
}
