//! The map a generator carves: tiles row by row, which cells belong to
//! rooms, and the counting every step shares.
//!
//! The outermost ring of cells is always wall (no step carves it), so the
//! eight neighbours of any walkable cell are on the map and a cell's
//! neighbours are found by adding [`Canvas::offsets`] to its index, with
//! no bounds check.

use super::Size;
use crate::grid::{Cell, Grid, Tile};

/// The map being generated.
#[derive(Clone, Debug)]
pub(super) struct Canvas {
    pub width: usize,
    pub height: usize,
    /// Row by row: cell (x, y) is `tiles[y * width + x]`.
    pub tiles: Vec<Tile>,
    /// Whether each cell is inside a room (doors go where a corridor
    /// meets one).
    pub room: Vec<bool>,
}

impl Canvas {
    /// A map of solid rock.
    pub fn new(size: Size) -> Canvas {
        let cells = size.area();
        Canvas { width: size.width, height: size.height, tiles: vec![Tile::Wall; cells], room: vec![false; cells] }
    }

    /// The index of cell (x, y).
    pub fn at(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// The column and row of index `i`.
    pub fn xy(&self, i: usize) -> (usize, usize) {
        (i % self.width, i / self.width)
    }

    /// The grid cell of index `i` (a canvas and the grids made from it
    /// share their coordinates).
    pub fn cell(&self, i: usize) -> Cell {
        let (x, y) = self.xy(i);
        Cell::new(x as i32, y as i32)
    }

    /// Whether `i` is off the outer ring, where carving may happen.
    pub fn inside(&self, i: usize) -> bool {
        let (x, y) = self.xy(i);
        x > 0 && y > 0 && x + 1 < self.width && y + 1 < self.height
    }

    /// Whether a creature can stand on `i` once its door (if any) is open:
    /// what connectivity is about.
    pub fn walkable(&self, i: usize) -> bool {
        self.tiles[i] != Tile::Wall
    }

    /// Whether `i` is plain floor (cost 1, no door): where things are placed.
    pub fn plain(&self, i: usize) -> bool {
        self.tiles[i] == Tile::Floor(1)
    }

    /// Index offsets of the four orthogonal neighbours: east, west, south,
    /// north.
    pub fn offsets(&self) -> [isize; 4] {
        let w = self.width as isize;
        [1, -1, w, -w]
    }

    /// The orthogonal neighbours of a cell off the outer ring.
    pub fn around(&self, i: usize) -> [usize; 4] {
        self.offsets().map(|o| i.wrapping_add_signed(o))
    }

    /// Carves `i` to `tile` unless it is on the outer ring.
    pub fn carve(&mut self, i: usize, tile: Tile) {
        if self.inside(i) {
            self.tiles[i] = tile;
        }
    }

    /// Walkable cells.
    pub fn walkable_count(&self) -> usize {
        self.tiles.iter().filter(|&&t| t != Tile::Wall).count()
    }

    /// The map as a grid on which every walkable cell costs 1 and every
    /// door is open: route costs on it are walking distances.
    pub fn walking_grid(&self) -> Grid {
        let tiles: Vec<Tile> =
            self.tiles.iter().map(|&t| if t == Tile::Wall { Tile::Wall } else { Tile::Floor(1) }).collect();
        Grid::new(self.width, self.height, &tiles)
    }

    /// Whether `i` is a doorway: walkable, with walkable cells on two
    /// opposite sides and walls on the other two.
    pub fn is_doorway(&self, i: usize) -> bool {
        if !self.inside(i) || !self.walkable(i) {
            return false;
        }
        let [e, w, s, n] = self.around(i).map(|j| self.walkable(j));
        (e && w && !s && !n) || (s && n && !e && !w)
    }
}

#[cfg(test)]
impl Canvas {
    /// A canvas drawn with `#` (wall), `~` (water), `+` (closed door),
    /// `'` (open door) and `.` or anything else (floor); `r` marks room floor.
    pub fn drawn(rows: &[&str]) -> Canvas {
        let mut c = Canvas::new(Size { width: rows[0].len(), height: rows.len() });
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let i = c.at(x, y);
                c.tiles[i] = match ch {
                    '#' => Tile::Wall,
                    '~' => Tile::Water,
                    '+' => Tile::DoorClosed,
                    '\'' => Tile::DoorOpen,
                    _ => Tile::Floor(1),
                };
                c.room[i] = ch == 'r';
            }
        }
        c
    }

    /// The canvas drawn as [`Canvas::drawn`] reads it (room floor as `.`).
    pub fn picture(&self) -> Vec<String> {
        let glyph = |t: &Tile| match t {
            Tile::Wall => '#',
            Tile::Water => '~',
            Tile::DoorClosed => '+',
            Tile::DoorOpen => '\'',
            Tile::Floor(1) => '.',
            Tile::Floor(c) => char::from(b'0' + c),
        };
        self.tiles.chunks(self.width).map(|r| r.iter().map(glyph).collect()).collect()
    }
}

/// For each cell of a `width × height` map, how many cells of the
/// `(2r+1)²` square centred on it are marked in `marks` (1 or 0), cells
/// beyond the map counting `outside` (1 or 0) each. Two sliding sums over
/// a copy padded with `r` cells of `outside` all round, one along the rows
/// and one down the columns: linear in the map's size whatever `r`, with
/// no bounds to test in the loops.
pub(super) fn box_counts(marks: &[u8], width: usize, height: usize, r: usize, outside: u8) -> Vec<u16> {
    let (pw, ph) = (width + 2 * r, height + 2 * r);
    let mut padded = vec![u16::from(outside); pw * ph];
    for y in 0..height {
        let row = &marks[y * width..(y + 1) * width];
        for (p, &m) in padded[(y + r) * pw + r..][..width].iter_mut().zip(row) {
            *p = u16::from(m);
        }
    }
    // Along the rows: `across[y * width + x]` sums padded row y over the
    // columns x..=x + 2r (centred on map column x).
    let side = 2 * r + 1;
    let mut across = vec![0u16; width * ph];
    for y in 0..ph {
        let row = &padded[y * pw..(y + 1) * pw];
        let mut sum: u16 = row[..side].iter().sum();
        let out = &mut across[y * width..(y + 1) * width];
        for x in 0..width {
            out[x] = sum;
            if x + side < pw {
                sum = sum + row[x + side] - row[x];
            }
        }
    }
    // Down the columns.
    let mut counts = vec![0u16; width * height];
    let mut sums: Vec<u16> = (0..width).map(|x| (0..side).map(|y| across[y * width + x]).sum()).collect();
    for y in 0..height {
        counts[y * width..(y + 1) * width].copy_from_slice(&sums);
        if y + side < ph {
            let (enter, leave) = (&across[(y + side) * width..][..width], &across[y * width..][..width]);
            for ((s, &e), &l) in sums.iter_mut().zip(enter).zip(leave) {
                *s = *s + e - l;
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square counts the slow way.
    fn direct(marks: &[u8], width: usize, height: usize, r: usize, outside: u8) -> Vec<u16> {
        let r = r as isize;
        (0..width * height)
            .map(|i| {
                let (x, y) = ((i % width) as isize, (i / width) as isize);
                let mut n = 0;
                for dy in -r..=r {
                    for dx in -r..=r {
                        let (cx, cy) = (x + dx, y + dy);
                        let on = cx >= 0 && cy >= 0 && cx < width as isize && cy < height as isize;
                        n += u16::from(if on { marks[cy as usize * width + cx as usize] } else { outside });
                    }
                }
                n
            })
            .collect()
    }

    #[test]
    fn box_counts_match_counting_each_square() {
        let (w, h) = (13, 7);
        let marks: Vec<u8> = (0..w * h).map(|i| u8::from((i * 7 + i / 3) % 5 < 2)).collect();
        for r in 0..4 {
            for outside in [0, 1] {
                assert_eq!(box_counts(&marks, w, h, r, outside), direct(&marks, w, h, r, outside), "r {r}");
            }
        }
    }

    #[test]
    fn doorways_have_walls_on_two_sides() {
        let mut c = Canvas::new(Size { width: 5, height: 5 });
        for x in 1..4 {
            c.carve(c.at(x, 2), Tile::Floor(1));
        }
        assert!(c.is_doorway(c.at(2, 2)));
        assert!(!c.is_doorway(c.at(1, 2)), "a dead end");
        c.carve(c.at(2, 1), Tile::Floor(1));
        assert!(!c.is_doorway(c.at(2, 2)), "a junction");
        c.carve(c.at(0, 2), Tile::Floor(1));
        assert_eq!(c.tiles[c.at(0, 2)], Tile::Wall, "the outer ring is never carved");
    }

    #[test]
    fn the_walking_grid_costs_one_everywhere_and_opens_doors() {
        let mut c = Canvas::new(Size { width: 4, height: 3 });
        c.carve(c.at(1, 1), Tile::Water);
        c.carve(c.at(2, 1), Tile::DoorClosed);
        let g = c.walking_grid();
        assert_eq!(g.uniform_cost(), Some(1));
        assert!(g.is_walkable(crate::grid::Cell::new(2, 1)));
        assert_eq!(c.walkable_count(), 2);
    }
}
