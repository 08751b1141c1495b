//! The grids the evading bot plans on, derived from the world's grid and
//! made again only when it changes (a door opens or closes): the bot's own
//! moves (every door counted open) and the monsters' (every walkable cell
//! one walked cell).
//!
//! The bot plans at every one of its steps; two copies of a large grid
//! and a scan of every cell at each step were work for a result that
//! changes only when a door does.

use crate::grid::{Grid, Tile};

/// The grids, with the grid they were made from.
#[derive(Debug)]
pub struct Maps {
    /// The identity and version of the grid the maps were made from.
    key: Option<(u64, u64)>,
    /// The grid with its closed doors open: the bot's own moves.
    pub open: Grid,
    /// The grid with every walkable cell of entry cost 1: the monsters'
    /// moves by the cells they walk (their speed is the same on any
    /// ground).
    pub walked: Grid,
}

impl Default for Maps {
    /// Maps made from no grid yet: the first [`Maps::update`] makes them.
    fn default() -> Maps {
        let none = Grid::filled(1, 1, Tile::Wall);
        Maps { key: None, open: none.clone(), walked: none }
    }
}

impl Maps {
    /// Makes the maps again if `grid` changed since they were made.
    pub fn update(&mut self, grid: &Grid) {
        let key = (grid.identity(), grid.version());
        if self.key != Some(key) {
            self.key = Some(key);
            self.open = with_doors_open(grid);
            self.walked = walked(grid);
        }
    }
}

/// `grid` with every walkable ground of entry cost 1.
fn walked(grid: &Grid) -> Grid {
    let mut flat = grid.clone();
    for c in grid.cells() {
        if matches!(grid.tile(c), Tile::Water | Tile::Floor(2..)) {
            flat.set_tile(c, Tile::Floor(1));
        }
    }
    flat
}

/// `grid` with its closed doors open.
fn with_doors_open(grid: &Grid) -> Grid {
    let mut open = grid.clone();
    for c in grid.cells() {
        if grid.tile(c) == Tile::DoorClosed {
            open.set_tile(c, Tile::DoorOpen);
        }
    }
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use crate::level::Level;

    /// The maps are made again when a door changes: a closed door is
    /// open in the bot's moves (it opens doors) and closed in the
    /// monsters' (they cannot); water is one walked cell to a monster.
    #[test]
    fn the_maps_follow_the_grid_and_count_doors_open() {
        let mut grid = Level::parse("name: d\n######\n#@'~G#\n######\n", "d.txt").unwrap().grid;
        let (door, pool) = (Cell::new(2, 1), Cell::new(3, 1));
        let mut maps = Maps::default();
        maps.update(&grid);
        assert_eq!(maps.walked.tile(door), Tile::DoorOpen);
        assert_eq!(maps.walked.entry_cost(pool), Some(1), "a monster is not slowed by water");
        assert_eq!(maps.open.entry_cost(pool), grid.entry_cost(pool), "the bot is");
        grid.set_tile(door, Tile::DoorClosed);
        maps.update(&grid);
        assert_eq!(maps.open.tile(door), Tile::DoorOpen, "the bot's moves open the door");
        assert_eq!(maps.walked.tile(door), Tile::DoorClosed, "the monsters' do not");
    }
}
