//! `maze`: a perfect maze by the recursive backtracker, then braided.
//!
//! The maze's cells sit at odd columns and rows, with a wall cell between
//! two neighbours; on a map of even width (height) the last column (row)
//! stays wall. The recursive backtracker (the growing tree algorithm that
//! always grows from the newest cell) walks from a random cell to a random
//! unvisited neighbour, knocking out the wall between, and backs up when
//! it is stuck: a perfect maze, one route between any two cells, with long
//! winding corridors. Braiding then visits the dead ends in a random order
//! and knocks a wall out of each with the depth's braid factor
//! ([`Difficulty::braid_percent`]), toward a neighbouring dead end when
//! there is one (which removes two at once): every wall knocked out closes
//! a loop. At least one is, so a braided maze always has two routes
//! between some cells.

use super::canvas::Canvas;
use super::dice::Dice;
use super::difficulty::Difficulty;
use crate::grid::Tile;

/// Carves the maze.
pub(super) fn carve(canvas: &mut Canvas, dice: &mut Dice, difficulty: &Difficulty) {
    let cells = Cells::of(canvas);
    backtrack(canvas, &cells, dice);
    braid(canvas, &cells, dice, difficulty.braid_percent());
}

/// The maze's cells: every odd column and row inside the outer ring.
struct Cells {
    columns: usize,
    rows: usize,
}

impl Cells {
    fn of(canvas: &Canvas) -> Cells {
        Cells { columns: (canvas.width - 1) / 2, rows: (canvas.height - 1) / 2 }
    }

    /// The canvas index of maze cell (cx, cy).
    fn index(&self, canvas: &Canvas, cx: usize, cy: usize) -> usize {
        canvas.at(2 * cx + 1, 2 * cy + 1)
    }

    /// The maze cells beside (cx, cy), with the wall cell between: east,
    /// west, south, north.
    fn beside(&self, canvas: &Canvas, cx: usize, cy: usize) -> impl Iterator<Item = ((usize, usize), usize)> {
        let here = self.index(canvas, cx, cy);
        let (columns, rows, width) = (self.columns, self.rows, canvas.width);
        [(1isize, 0isize), (-1, 0), (0, 1), (0, -1)].into_iter().filter_map(move |(dx, dy)| {
            let (nx, ny) = (cx.checked_add_signed(dx)?, cy.checked_add_signed(dy)?);
            (nx < columns && ny < rows).then(|| {
                let wall = here.wrapping_add_signed(dx + dy * width as isize);
                ((nx, ny), wall)
            })
        })
    }
}

/// The perfect maze: a depth-first walk with an explicit stack.
fn backtrack(canvas: &mut Canvas, cells: &Cells, dice: &mut Dice) {
    let mut visited = vec![false; cells.columns * cells.rows];
    let first = (dice.below(cells.columns), dice.below(cells.rows));
    visited[first.1 * cells.columns + first.0] = true;
    let i = cells.index(canvas, first.0, first.1);
    canvas.tiles[i] = Tile::Floor(1);
    let mut stack = vec![first];
    let mut options = Vec::with_capacity(4);
    while let Some(&(cx, cy)) = stack.last() {
        options.clear();
        options.extend(cells.beside(canvas, cx, cy).filter(|&((nx, ny), _)| !visited[ny * cells.columns + nx]));
        if options.is_empty() {
            stack.pop();
            continue;
        }
        let ((nx, ny), wall) = dice.pick(&options);
        visited[ny * cells.columns + nx] = true;
        canvas.tiles[wall] = Tile::Floor(1);
        let i = cells.index(canvas, nx, ny);
        canvas.tiles[i] = Tile::Floor(1);
        stack.push((nx, ny));
    }
}

/// Open sides of maze cell (cx, cy): how many of its walls are knocked out.
fn openings(canvas: &Canvas, cells: &Cells, cx: usize, cy: usize) -> usize {
    cells.beside(canvas, cx, cy).filter(|&(_, wall)| canvas.walkable(wall)).count()
}

/// Knocks a wall out of `percent` of the dead ends, and out of one at
/// least. Returns the walls knocked out.
fn braid(canvas: &mut Canvas, cells: &Cells, dice: &mut Dice, percent: u32) -> usize {
    let mut dead_ends: Vec<(usize, usize)> = (0..cells.rows)
        .flat_map(|cy| (0..cells.columns).map(move |cx| (cx, cy)))
        .filter(|&(cx, cy)| openings(canvas, cells, cx, cy) == 1)
        .collect();
    dice.shuffle(&mut dead_ends);
    let mut knocked = 0;
    for (n, &(cx, cy)) in dead_ends.iter().enumerate() {
        let last_chance = knocked == 0 && n + 1 == dead_ends.len();
        if openings(canvas, cells, cx, cy) != 1 || !(dice.chance(percent) || last_chance) {
            continue;
        }
        let walls: Vec<((usize, usize), usize)> =
            cells.beside(canvas, cx, cy).filter(|&(_, wall)| !canvas.walkable(wall)).collect();
        let toward_dead_end: Vec<usize> =
            walls.iter().filter(|&&((nx, ny), _)| openings(canvas, cells, nx, ny) == 1).map(|&(_, w)| w).collect();
        let pool = if toward_dead_end.is_empty() { walls.iter().map(|&(_, w)| w).collect() } else { toward_dead_end };
        if pool.is_empty() {
            continue;
        }
        let wall = dice.pick(&pool);
        canvas.tiles[wall] = Tile::Floor(1);
        knocked += 1;
    }
    knocked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::r#gen::connect::regions;
    use crate::r#gen::{Recipe, Size, Style, dice};

    fn carved(seed: u64, size: Size, percent: Option<u32>) -> Canvas {
        let r = Recipe::new(Style::Maze, seed, 1, Some(size)).unwrap();
        let mut c = Canvas::new(size);
        let cells = Cells::of(&c);
        let mut d = dice::stream(&r, dice::Purpose::Carve);
        backtrack(&mut c, &cells, &mut d);
        if let Some(p) = percent {
            braid(&mut c, &cells, &mut d, p);
        }
        c
    }

    /// Walkable cells and the orthogonal links between them.
    fn cells_and_links(c: &Canvas) -> (usize, usize) {
        let cells = c.walkable_count();
        let links = (0..c.tiles.len())
            .filter(|&i| c.walkable(i))
            .map(|i| [1, c.width].iter().filter(|&&o| c.walkable(i + o)).count())
            .sum();
        (cells, links)
    }

    #[test]
    fn the_backtracker_makes_a_perfect_maze() {
        for seed in 0..10 {
            let c = carved(seed, Size { width: 31, height: 21 }, None);
            let (cells, links) = cells_and_links(&c);
            assert_eq!(cells, 15 * 10 + (15 * 10 - 1), "every maze cell and one wall per tree edge");
            assert_eq!(links, cells - 1, "a tree: one route between any two cells");
            assert_eq!(regions(&c).1.len(), 1);
        }
    }

    #[test]
    fn braiding_closes_loops_and_removes_dead_ends() {
        let size = Size { width: 41, height: 31 };
        for seed in 0..10 {
            let perfect = carved(seed, size, None);
            let braided = carved(seed, size, Some(60));
            let cells = Cells::of(&braided);
            let dead = |c: &Canvas| {
                (0..cells.rows)
                    .flat_map(|y| (0..cells.columns).map(move |x| (x, y)))
                    .filter(|&(x, y)| openings(c, &cells, x, y) == 1)
                    .count()
            };
            // 60 % of the dead ends visited lose a wall, some of them two
            // dead ends at once.
            assert!(dead(&braided) * 10 <= dead(&perfect) * 6, "seed {seed}: {} of {}", dead(&braided), dead(&perfect));
            let (n, links) = cells_and_links(&braided);
            assert!(links > n, "seed {seed}: loops");
            // Even a braid factor of 0 knocks one wall out.
            let (n, links) = cells_and_links(&carved(seed, size, Some(0)));
            assert_eq!(links, n, "seed {seed}: exactly one loop");
        }
    }

    #[test]
    fn even_sides_leave_the_last_column_and_row_wall() {
        let c = carved(3, Size { width: 12, height: 8 }, Some(50));
        for y in 0..8 {
            assert_eq!(c.tiles[c.at(10, y)], Tile::Wall);
            assert_eq!(c.tiles[c.at(11, y)], Tile::Wall);
        }
        assert!((0..12).all(|x| c.tiles[c.at(x, 7)] == Tile::Wall && c.tiles[c.at(x, 6)] == Tile::Wall));
    }
}
