//! A serpentine maze: the worst case for string-pulling, a path that
//! crosses the whole map row after row. Shared by tests/smooth.rs and
//! benches/smooth.rs.

use delve::grid::{Cell, Grid, Tile};

/// A `side × side` maze of corridors on the even rows, joined by one gap
/// at alternate ends of the wall rows between them, with the cells where a
/// walk from the first corridor's start must end: the far end of the last.
pub fn serpentine(side: usize) -> (Grid, Cell, Cell) {
    let mut tiles = vec![Tile::Floor(1); side * side];
    for y in (1..side).step_by(2) {
        // Wall row y has its gap on the right when y / 2 is even.
        let gap = if (y / 2).is_multiple_of(2) { side - 1 } else { 0 };
        for x in (0..side).filter(|&x| x != gap) {
            tiles[y * side + x] = Tile::Wall;
        }
    }
    let last = (side - 1) / 2 * 2;
    let goal_x = if (last / 2).is_multiple_of(2) { side - 1 } else { 0 };
    (Grid::new(side, side, &tiles), Cell::new(0, 0), Cell::new(goal_x as i32, last as i32))
}
