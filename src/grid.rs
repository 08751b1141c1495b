//! The tile grid: what each cell is, what entering it costs, and which cells
//! are next to which.
//!
//! Cells are stored with a one-cell wall border around the map ("padding") so
//! that neighbour lookups in the search hot loop never need a bounds check:
//! every neighbour of an in-map cell exists in the array, and the border is a
//! wall. A cell's index in that padded array is its node id in the search
//! graph ([`Grid::node`], [`Grid::cell_of`]).

mod sight;

pub use sight::{first_blocked, line_of_sight, supercover};

use crate::hash::{StateHash, StateHasher};
use crate::named::named_enum;
use std::fmt;

/// A cell position: column `x` from the left, row `y` from the top, both
/// from 0. Signed so that neighbour arithmetic can step off the map.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, from 0 at the left.
    pub x: i32,
    /// Row, from 0 at the top.
    pub y: i32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Cell { x, y }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A cell written the way users type it: `x,y`, two whole numbers as
/// [`crate::number`] writes them and a comma, no spaces.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a cell (expected x,y: two whole numbers and a comma, no spaces, e.g. 3,4; a number is {syntax})", syntax = crate::number::WHOLE_SYNTAX)]
pub struct BadCell(String);

impl std::str::FromStr for Cell {
    type Err = BadCell;

    fn from_str(s: &str) -> Result<Cell, BadCell> {
        let bad = || BadCell(s.to_string());
        let (x, y) = s.split_once(',').ok_or_else(bad)?;
        let coordinate = |t: &str| crate::number::whole(t).and_then(|n| i32::try_from(n).ok()).ok_or_else(bad);
        Ok(Cell::new(coordinate(x)?, coordinate(y)?))
    }
}

/// What stands on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// Blocks movement and sight.
    Wall,
    /// Walkable ground whose entry cost is 1–9.
    Floor(u8),
    /// Walkable, entry cost 5.
    Water,
    /// A closed door blocks like a wall until it is opened.
    DoorClosed,
    /// An open door is walkable at cost 1.
    DoorOpen,
}

impl Tile {
    /// Entry cost of walking onto this tile, or `None` when it blocks.
    pub const fn entry_cost(self) -> Option<u8> {
        match self {
            Tile::Wall | Tile::DoorClosed => None,
            Tile::Floor(c) => Some(c),
            Tile::Water => Some(WATER_COST),
            Tile::DoorOpen => Some(1),
        }
    }
}

/// Entry cost of water (`~`).
pub const WATER_COST: u8 = 5;

named_enum! {
    /// 4- or 8-neighbour movement.
    Neighbors, "neighbour count" {
        /// Orthogonal steps only.
        Four => "4",
        /// Orthogonal and diagonal steps (no corner cutting).
        Eight => "8",
    }
}

impl Neighbors {
    /// How many neighbours a cell has: 4 or 8.
    pub const fn count(self) -> usize {
        match self {
            Neighbors::Four => 4,
            Neighbors::Eight => 8,
        }
    }
}

/// Step directions in the order every search expands them; the statistics
/// (and so the tests and golden traces) depend on this order: east, west,
/// south, north, then south-east, south-west, north-east, north-west.
pub const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The length of a diagonal step: √2 rounded to a multiple of 2⁻³²
/// (6074001000 / 2³², 1.1e-11 above √2).
///
/// Why not `f64::consts::SQRT_2`: with it, two routes of the same length
/// (two diagonals then a straight step, or the other way round) sum to
/// floats that differ in the last bit, so mathematically equal f values
/// compare unequal and every tie-break rule degenerates into rounding
/// noise. With a dyadic √2, every grid path cost and every octile estimate
/// is an exact binary fraction (exact up to a total of 2²¹ ≈ 2 million), so
/// equal costs are equal floats and ties are real. Over a thousand diagonal
/// steps the error is 1e-8, far inside any benchmark's tolerance.
pub const DIAGONAL: f64 = 6_074_001_000.0 / 4_294_967_296.0;

/// Largest accepted map side, in cells. 2048 × 2048 is four times the
/// largest Moving AI map and keeps a search's node records (20 bytes each)
/// near 80 MiB at worst.
pub const MAX_SIDE: usize = 2048;

/// The walkable map, with a version that changes whenever a cell does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    height: usize,
    /// Tiles in the padded layout, row by row.
    tiles: Vec<Tile>,
    /// Entry cost per padded index, 0 for a blocking cell: the hot loop reads
    /// only this.
    costs: Vec<u8>,
    /// How many in-map cells have each entry cost 0..=9, so the minimum
    /// entry cost stays exact as doors open and close.
    cost_counts: [u32; 10],
    version: u64,
    /// Which grid this is, for caches of derived data (jump tables).
    identity: Identity,
}

/// A number unique to each grid value in this process: a fresh one for every
/// grid built or cloned, so (identity, version) names one exact content.
/// It keys caches of data derived from a grid and never enters a decision;
/// grids compare equal whatever their identities.
#[derive(Debug)]
struct Identity(u64);

impl Identity {
    fn fresh() -> Identity {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Identity(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for Identity {
    fn clone(&self) -> Identity {
        Identity::fresh()
    }
}

impl PartialEq for Identity {
    fn eq(&self, _: &Identity) -> bool {
        true
    }
}

impl Eq for Identity {}

impl Grid {
    /// A grid of `width × height` cells, `tiles` row by row.
    ///
    /// # Panics
    /// When `tiles.len() != width * height` or a side is 0 or above
    /// [`MAX_SIDE`]: the level loader checks these and reports them as input
    /// errors before building a grid.
    pub fn new(width: usize, height: usize, tiles: &[Tile]) -> Grid {
        assert!(
            (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height),
            "grid side out of range: {width}x{height}"
        );
        assert_eq!(tiles.len(), width * height, "tile count does not match size");
        let stride = width + 2;
        let mut grid = Grid {
            width,
            height,
            tiles: vec![Tile::Wall; stride * (height + 2)],
            costs: vec![0; stride * (height + 2)],
            cost_counts: [0; 10],
            version: 0,
            identity: Identity::fresh(),
        };
        grid.cost_counts[0] = (width * height) as u32;
        for (i, &tile) in tiles.iter().enumerate() {
            let cell = Cell::new((i % width) as i32, (i / width) as i32);
            grid.put(cell, tile);
        }
        grid
    }

    /// A grid where every cell is `tile`.
    pub fn filled(width: usize, height: usize, tile: Tile) -> Grid {
        Grid::new(width, height, &vec![tile; width * height])
    }

    /// Columns, the padding border not counted.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows, the padding border not counted.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Increases every time a cell changes, so a path can be tied to the
    /// grid it was planned on.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// A number no other grid value of this process has (a clone gets a new
    /// one): with [`Grid::version`], it tells a cache whether it was built
    /// from this very grid as it is now.
    pub fn identity(&self) -> u64 {
        self.identity.0
    }

    /// Whether `cell` is on the map (the border is not).
    pub fn in_bounds(&self, cell: Cell) -> bool {
        cell.x >= 0 && cell.y >= 0 && (cell.x as usize) < self.width && (cell.y as usize) < self.height
    }

    /// The tile at `cell`; outside the map everything is wall.
    pub fn tile(&self, cell: Cell) -> Tile {
        if self.in_bounds(cell) { self.tiles[self.index(cell)] } else { Tile::Wall }
    }

    /// Whether a creature may stand on `cell`; never outside the map.
    pub fn is_walkable(&self, cell: Cell) -> bool {
        self.entry_cost(cell).is_some()
    }

    /// Entry cost of `cell`, `None` when it blocks or lies outside the map.
    pub fn entry_cost(&self, cell: Cell) -> Option<u8> {
        self.tile(cell).entry_cost()
    }

    /// The cheapest entry cost of any walkable cell (1 on a grid with no
    /// walkable cell). Heuristics are scaled by it to stay admissible on
    /// weighted grids.
    pub fn min_entry_cost(&self) -> u8 {
        (1..=9).find(|&c| self.cost_counts[c] > 0).unwrap_or(1) as u8
    }

    /// The entry cost every walkable cell shares, if they all share one
    /// (`None` on weighted terrain, and on a grid with no walkable cell).
    pub fn uniform_cost(&self) -> Option<u8> {
        let mut costs = (1..=9u8).filter(|&c| self.cost_counts[c as usize] > 0);
        match (costs.next(), costs.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    }

    /// Replaces the tile at `cell` and bumps the version when it changed.
    /// Returns whether anything changed; cells outside the map never change.
    pub fn set_tile(&mut self, cell: Cell, tile: Tile) -> bool {
        if !self.in_bounds(cell) || self.tile(cell) == tile {
            return false;
        }
        self.put(cell, tile);
        self.version += 1;
        true
    }

    fn put(&mut self, cell: Cell, tile: Tile) {
        let i = self.index(cell);
        let old = self.costs[i];
        let new = tile.entry_cost().unwrap_or(0);
        debug_assert!(new <= 9, "entry cost above 9");
        self.cost_counts[old as usize] -= 1;
        self.cost_counts[new as usize] += 1;
        self.tiles[i] = tile;
        self.costs[i] = new;
    }

    /// Whether a step from `from` by `(dx, dy)` (each −1, 0 or 1) is legal:
    /// the target is walkable and, for a diagonal, both orthogonal cells
    /// beside it are walkable too (no corner cutting).
    pub fn can_step(&self, from: Cell, dx: i32, dy: i32) -> bool {
        let to = Cell::new(from.x + dx, from.y + dy);
        self.is_walkable(to)
            && (dx == 0
                || dy == 0
                || (self.is_walkable(Cell::new(from.x + dx, from.y))
                    && self.is_walkable(Cell::new(from.x, from.y + dy))))
    }

    /// Cost of a legal step from `from` by `(dx, dy)`: the target's entry
    /// cost, times √2 ([`DIAGONAL`]) on a diagonal. `None` when the step is
    /// not legal.
    pub fn step_cost(&self, from: Cell, dx: i32, dy: i32) -> Option<f64> {
        if !self.can_step(from, dx, dy) {
            return None;
        }
        let c = f64::from(self.entry_cost(Cell::new(from.x + dx, from.y + dy))?);
        Some(if dx != 0 && dy != 0 { c * DIAGONAL } else { c })
    }

    /// Row length of the padded layout.
    pub fn stride(&self) -> usize {
        self.width + 2
    }

    /// Number of node ids: the padded cell count.
    pub fn node_count(&self) -> usize {
        self.costs.len()
    }

    /// The node id of an in-map cell.
    pub fn node(&self, cell: Cell) -> u32 {
        debug_assert!(self.in_bounds(cell));
        self.index(cell) as u32
    }

    /// The cell of a node id (may be a border cell, at −1 or width/height).
    pub fn cell_of(&self, node: u32) -> Cell {
        let stride = self.stride();
        let i = node as usize;
        Cell::new((i % stride) as i32 - 1, (i / stride) as i32 - 1)
    }

    /// Entry costs by node id, 0 for blocking cells and the border.
    pub fn costs(&self) -> &[u8] {
        &self.costs
    }

    fn index(&self, cell: Cell) -> usize {
        (cell.y as usize + 1) * self.stride() + cell.x as usize + 1
    }

    /// Every in-map cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.height as i32).flat_map(move |y| (0..self.width as i32).map(move |x| Cell::new(x, y)))
    }
}

impl StateHash for Cell {
    fn hash_into(&self, h: &mut StateHasher) {
        let Cell { x, y } = self;
        h.i32(*x);
        h.i32(*y);
    }
}

/// One byte: a floor by its cost (1–9), the others by codes above it.
impl StateHash for Tile {
    fn hash_into(&self, h: &mut StateHasher) {
        h.u8(match *self {
            Tile::Wall => 0,
            Tile::Floor(cost) => cost,
            Tile::Water => 10,
            Tile::DoorClosed => 11,
            Tile::DoorOpen => 12,
        });
    }
}

impl StateHash for Grid {
    fn hash_into(&self, h: &mut StateHasher) {
        let Grid {
            width,
            height,
            tiles,
            // A function of the tiles.
            costs: _,
            cost_counts: _,
            version,
            // Process-local, for caches: never a decision.
            identity: _,
        } = self;
        h.add(width);
        h.add(height);
        h.add(version);
        // The padded layout: its border is wall on every grid of this size.
        h.add(tiles);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room() -> Grid {
        // 3x3 with a wall in the middle of the top row.
        let f = Tile::Floor(1);
        Grid::new(3, 3, &[f, Tile::Wall, f, f, Tile::Floor(4), Tile::Water, f, f, f])
    }

    #[test]
    fn tiles_and_costs() {
        let g = room();
        assert_eq!(g.tile(Cell::new(1, 0)), Tile::Wall);
        assert_eq!(g.entry_cost(Cell::new(1, 1)), Some(4));
        assert_eq!(g.entry_cost(Cell::new(2, 1)), Some(5));
        assert_eq!(g.tile(Cell::new(-1, 0)), Tile::Wall);
        assert_eq!(g.tile(Cell::new(3, 0)), Tile::Wall);
        assert_eq!(g.min_entry_cost(), 1);
    }

    #[test]
    fn cells_parse_from_user_text() {
        assert_eq!("3,4".parse(), Ok(Cell::new(3, 4)));
        assert_eq!("-1,7".parse(), Ok(Cell::new(-1, 7)));
        for bad in ["3", "a,b", " 1 , 2 ", "+1,+2", "1, 2", "01,2", "1,2,3", "1.0,2", "9999999999,1"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad:?}");
        }
        assert_eq!(Cell::new(3, 4).to_string(), "3,4");
    }

    #[test]
    fn node_ids_round_trip() {
        let g = room();
        for c in g.cells() {
            assert_eq!(g.cell_of(g.node(c)), c);
        }
        assert_eq!(g.node_count(), 25);
        assert_eq!(g.cell_of(0), Cell::new(-1, -1));
    }

    #[test]
    fn diagonal_needs_both_sides() {
        let g = room();
        // (0,1) -> (1,0) is a wall anyway; (0,0) -> (1,1) passes beside the
        // wall at (1,0): forbidden.
        assert!(!g.can_step(Cell::new(0, 0), 1, 1));
        assert!(g.can_step(Cell::new(0, 1), 1, 1));
        let d = g.step_cost(Cell::new(0, 1), 1, 1).unwrap();
        assert_eq!(d, DIAGONAL);
        assert!((d - std::f64::consts::SQRT_2).abs() < 2e-11);
        assert_eq!(g.step_cost(Cell::new(0, 0), 0, 1), Some(1.0));
        assert_eq!(g.step_cost(Cell::new(0, 1), 1, 0), Some(4.0));
    }

    #[test]
    fn version_tracks_changes_and_min_cost() {
        let mut g = Grid::filled(2, 1, Tile::Floor(3));
        assert_eq!(g.min_entry_cost(), 3);
        assert!(g.set_tile(Cell::new(0, 0), Tile::DoorClosed));
        assert_eq!(g.version(), 1);
        assert!(!g.set_tile(Cell::new(0, 0), Tile::DoorClosed));
        assert!(!g.set_tile(Cell::new(5, 0), Tile::Floor(1)));
        assert_eq!(g.version(), 1);
        assert!(g.set_tile(Cell::new(0, 0), Tile::DoorOpen));
        assert_eq!(g.min_entry_cost(), 1);
        assert!(g.set_tile(Cell::new(0, 0), Tile::Wall));
        assert_eq!(g.min_entry_cost(), 3);
        assert_eq!(g.version(), 3);
    }

    #[test]
    fn uniform_cost_and_identity() {
        let mut g = Grid::filled(2, 1, Tile::Floor(3));
        assert_eq!(g.uniform_cost(), Some(3));
        g.set_tile(Cell::new(0, 0), Tile::DoorOpen);
        assert_eq!(g.uniform_cost(), None, "costs 1 and 3");
        g.set_tile(Cell::new(1, 0), Tile::Wall);
        assert_eq!(g.uniform_cost(), Some(1));
        g.set_tile(Cell::new(0, 0), Tile::Wall);
        assert_eq!(g.uniform_cost(), None, "nothing walkable");
        let copy = g.clone();
        assert_eq!(copy, g, "identity does not enter equality");
        assert_ne!(copy.identity(), g.identity());
    }
}
