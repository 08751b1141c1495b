//! What the player has seen: every cell that was ever in its field of view
//! ([`field_of_view`]), whether or not the screen draws the fog of war.
//! Auto-explore heads for the nearest walkable cell outside it, and the fog
//! draws it dimmed, so the two never disagree.
//!
//! The memory is state (explore decides by it) and hashed; it grows each
//! time the player's eye, the grid or the radius changes, by looking only
//! at the cells it does not hold yet and that some eye could ever see.

use crate::grid::{Cell, Grid, Tile, field_of_view};
use crate::hash::{StateHash, StateHasher};

/// The cells the player has seen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    width: usize,
    /// One bit per cell, row by row.
    bits: Vec<u64>,
    /// How many cells are seen (the bits set).
    count: u64,
    /// The eye, grid version and radius it was last brought up to date
    /// for: looking again from there adds nothing.
    from: Option<(Cell, u64, i32)>,
}

/// The radius the player sees within for a detection radius of `cells`:
/// as far as monsters see it, rounded up to whole cells.
pub fn sight_radius(cells: f32) -> i32 {
    libm::ceilf(cells.max(0.0)) as i32
}

/// The cells no eye ever sees on `grid`, row by row: walls with no
/// walkable cell and no door beside them (the rock between rooms). The line
/// to a cell passes a neighbour of it last, which for such a wall is a wall,
/// and only doors change: the memory never needs to look at them.
pub fn hidden_cells(grid: &Grid) -> Vec<bool> {
    let opens = |c: Cell| grid.is_walkable(c) || matches!(grid.tile(c), Tile::DoorOpen | Tile::DoorClosed);
    grid.cells()
        .map(|c| !opens(c) && (-1..=1).all(|dy| (-1..=1).all(|dx| !opens(Cell::new(c.x + dx, c.y + dy)))))
        .collect()
}

impl Memory {
    /// Nothing seen yet, on a grid of `grid`'s size.
    pub fn new(grid: &Grid) -> Memory {
        let cells = grid.width() * grid.height();
        Memory { width: grid.width(), bits: vec![0; cells.div_ceil(64)], count: 0, from: None }
    }

    fn index(&self, c: Cell) -> Option<usize> {
        let height = (self.bits.len() * 64).checked_div(self.width).unwrap_or(0);
        let inside = (0..self.width as i32).contains(&c.x) && (0..height as i32).contains(&c.y);
        inside.then(|| c.y as usize * self.width + c.x as usize)
    }

    /// Whether the player has seen `c` (never outside the map).
    pub fn seen(&self, c: Cell) -> bool {
        self.index(c).is_some_and(|i| self.bits[i / 64] >> (i % 64) & 1 == 1)
    }

    /// How many cells the player has seen.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Adds what the eye at `eye` sees on `grid` within `radius` cells
    /// (`hidden`: `hidden_cells` of the grid); nothing when that is what
    /// it last looked from.
    pub fn look(&mut self, grid: &Grid, eye: Cell, radius: i32, hidden: &[bool]) {
        let key = (eye, grid.version(), radius);
        if self.from == Some(key) {
            return;
        }
        self.from = Some(key);
        let width = self.width;
        let mut new = Vec::new();
        let known = |c: Cell| {
            let i = c.y as usize * width + c.x as usize;
            hidden[i] || self.bits[i / 64] >> (i % 64) & 1 == 1
        };
        field_of_view(grid, eye, radius, known, |c| new.push(c));
        for c in new {
            let i = c.y as usize * width + c.x as usize;
            self.bits[i / 64] |= 1 << (i % 64);
            self.count += 1;
        }
    }
}

impl StateHash for Memory {
    fn hash_into(&self, h: &mut StateHasher) {
        let Memory {
            width,
            bits,
            // The number of bits set.
            count: _,
            // Where it last looked from: looking again adds nothing.
            from: _,
        } = self;
        h.u64(*width as u64);
        h.u64(bits.len() as u64);
        for &word in bits {
            h.u64(word);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn level(text: &str) -> Grid {
        Level::parse(text, "t").unwrap().grid
    }

    /// The memory drawn as `*` seen, ` ` not.
    fn drawn(m: &Memory, g: &Grid) -> Vec<String> {
        (0..g.height() as i32)
            .map(|y| (0..g.width() as i32).map(|x| if m.seen(Cell::new(x, y)) { '*' } else { ' ' }).collect())
            .collect()
    }

    #[test]
    fn it_keeps_what_was_seen_and_adds_what_comes_into_view() {
        let mut g = level("#########\n#...#...#\n#...+...#\n#...#...#\n#########\n");
        let hidden = hidden_cells(&g);
        let mut m = Memory::new(&g);
        m.look(&g, Cell::new(1, 2), 40, &hidden);
        assert_eq!(drawn(&m, &g), ["*****    ", "*****    ", "*****    ", "*****    ", "*****    "]);
        assert_eq!(m.count(), 25);
        g.set_tile(Cell::new(4, 2), Tile::DoorOpen);
        m.look(&g, Cell::new(5, 2), 40, &hidden);
        g.set_tile(Cell::new(4, 2), Tile::DoorClosed);
        m.look(&g, Cell::new(6, 2), 40, &hidden);
        assert_eq!(m.count(), 45, "everything, once");
        assert!((0..9).all(|x| m.seen(Cell::new(x, 2))));
        assert!(!m.seen(Cell::new(9, 2)) && !m.seen(Cell::new(-1, 0)));
    }

    /// Skipping what it holds and the hidden rock, the memory marks what
    /// looking at every cell from every eye marks, on the shipped levels.
    #[test]
    fn it_marks_what_the_whole_field_of_view_marks() {
        for name in ["dungeon", "keep", "cave"] {
            let path = format!("{}/levels/{name}.txt", env!("CARGO_MANIFEST_DIR"));
            let g = Level::load(std::path::Path::new(&path)).unwrap().grid;
            let hidden = hidden_cells(&g);
            let mut m = Memory::new(&g);
            let mut all = vec![false; g.width() * g.height()];
            let eyes: Vec<Cell> = g.cells().filter(|&c| g.is_walkable(c)).step_by(37).collect();
            for &eye in &eyes {
                m.look(&g, eye, 12, &hidden);
                field_of_view(&g, eye, 12, |_| false, |c| all[c.y as usize * g.width() + c.x as usize] = true);
            }
            for c in g.cells() {
                assert_eq!(m.seen(c), all[c.y as usize * g.width() + c.x as usize], "{name}: {c}");
            }
            assert!(g.cells().all(|c| !(hidden[c.y as usize * g.width() + c.x as usize] && m.seen(c))));
        }
    }
}
