//! JPS+ (Rabin 2015): jump point search whose jumps are read from a table
//! built once per grid instead of scanned at query time.
//!
//! For every cell and each of the eight directions the table holds the
//! distance to the next jump point that way (positive), or minus the
//! number of steps possible before a wall or a blocked diagonal (zero or
//! negative). Jump points are those of online JPS ([`super::jps`]): a
//! straight jump stops where a wall beside the line forces a turn; a
//! diagonal one where a straight component of the move, read from the
//! table, reaches a jump point. The goal is not in the table, so a query
//! adds it (Rabin's target check): a straight jump that passes the goal
//! stops on it, and a diagonal jump that crosses the goal's row or column
//! while the goal lies ahead in both axes reaches it from there if the
//! straight run to it is open. As in online JPS, diagonal jump points are
//! not nodes: a diagonal move runs from one to the next to the end of the
//! diagonal, and its successors are the ends of their straight jumps.
//!
//! A door that opens or closes changes the forced turns in its row and
//! column and their neighbours, so those straight entries are recomputed
//! (three rows and three columns); a diagonal entry depends on its own few
//! cells and on the entry one step further along its diagonal, so only the
//! diagonal entries next to those rows and columns are recomputed, each
//! change carried back along its diagonal until an entry comes out as it
//! was. The rest of the table is untouched.

use super::grid_cache::Derived;
use super::jps::{JumpGraph, JumpQuery, Jumps, public_jump_graph};
use super::{Graph, Heuristic, NodeId, PlanError, Planner, TieBreak};
use crate::grid::{Cell, DIRECTIONS, Grid};

/// Above this share of changed cells (1 in `REBUILD_SHARE`), a repair
/// rebuilds the whole table instead.
const REBUILD_SHARE: usize = 64;

/// The jump distances of every cell of a grid, in [`DIRECTIONS`] order:
/// what JPS+ reads instead of scanning. Build it once per grid
/// ([`JumpTable::new`]), repair it when cells change
/// ([`JumpTable::update`]), and search the [`JpsPlusGraph`] of each query
/// ([`JumpTable::graph`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JumpTable {
    /// Padded width (the grid's stride) and height.
    width: usize,
    height: usize,
    walkable: Vec<bool>,
    jumps: Vec<[i16; 8]>,
}

/// Index in [`DIRECTIONS`] of the move (dx, dy).
const fn dir(dx: isize, dy: isize) -> usize {
    match (dx, dy) {
        (1, 0) => 0,
        (-1, 0) => 1,
        (0, 1) => 2,
        (0, -1) => 3,
        (1, 1) => 4,
        (-1, 1) => 5,
        (1, -1) => 6,
        _ => 7,
    }
}

/// One more step than `next`, the entry one step further on: a jump point
/// stays a jump point one step further away, and so does a wall.
fn extend(next: i16) -> i16 {
    if next > 0 { next + 1 } else { next - 1 }
}

impl Derived for JumpTable {
    type Config = ();

    fn build(grid: &Grid, _: ()) -> JumpTable {
        let (width, height) = (grid.stride(), grid.height() + 2);
        let mut t = JumpTable {
            width,
            height,
            walkable: grid.costs().iter().map(|&c| c != 0).collect(),
            jumps: vec![[0; 8]; width * height],
        };
        for (k, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let (dx, dy) = (dx as isize, dy as isize);
            // Each entry reads the one a step further on: sweep from there.
            let ys: Vec<usize> = if dy > 0 { (1..height - 1).rev().collect() } else { (1..height - 1).collect() };
            let xs: Vec<usize> = if dx > 0 { (1..width - 1).rev().collect() } else { (1..width - 1).collect() };
            for &y in &ys {
                for &x in &xs {
                    let i = y * width + x;
                    t.jumps[i][k] = t.entry(i, dx, dy);
                }
            }
        }
        t
    }

    fn repair(&mut self, grid: &Grid, changed: &[usize]) {
        if changed.len() * REBUILD_SHARE > self.jumps.len() {
            *self = JumpTable::build(grid, ());
            return;
        }
        for &i in changed {
            self.walkable[i] = grid.costs()[i] != 0;
        }
        let (w, h) = (self.width, self.height);
        // Straight entries: rows y - 1 ..= y + 1 (east, west) and columns
        // x - 1 ..= x + 1 (south, north) of every changed cell, each line
        // swept from its far end.
        for &i in changed {
            let (x, y) = (i % w, i / w);
            for row in y.saturating_sub(1).max(1)..=(y + 1).min(h - 2) {
                for k in [0, 1] {
                    let (dx, _) = DIRECTIONS[k];
                    let xs: Vec<usize> = if dx > 0 { (1..w - 1).rev().collect() } else { (1..w - 1).collect() };
                    for x in xs {
                        self.jumps[row * w + x][k] = self.entry(row * w + x, dx as isize, 0);
                    }
                }
            }
            for col in x.saturating_sub(1).max(1)..=(x + 1).min(w - 2) {
                for k in [2, 3] {
                    let (_, dy) = DIRECTIONS[k];
                    let ys: Vec<usize> = if dy > 0 { (1..h - 1).rev().collect() } else { (1..h - 1).collect() };
                    for y in ys {
                        self.jumps[y * w + col][k] = self.entry(y * w + col, 0, dy as isize);
                    }
                }
            }
        }
        // Diagonal entries whose own inputs may have changed: those within
        // two rows or two columns of a changed cell. Each is recomputed in
        // sweep order, and a changed one carries back along its diagonal.
        let mut seeds = Vec::new();
        for &i in changed {
            let (x, y) = (i % w, i / w);
            for row in y.saturating_sub(2).max(1)..=(y + 2).min(h - 2) {
                seeds.extend((1..w - 1).map(|x| row * w + x));
            }
            for col in x.saturating_sub(2).max(1)..=(x + 2).min(w - 2) {
                seeds.extend((1..h - 1).map(|y| y * w + col));
            }
        }
        for (k, &(dx, dy)) in DIRECTIONS.iter().enumerate().skip(4) {
            let (dx, dy) = (dx as isize, dy as isize);
            // Sweep order: the cell a step further on comes first.
            seeds.sort_unstable_by_key(|&i| (-(dy * (i / w) as isize), -(dx * (i % w) as isize)));
            seeds.dedup();
            for &seed in &seeds {
                let mut i = seed;
                loop {
                    let entry = self.entry(i, dx, dy);
                    if entry == self.jumps[i][k] {
                        break;
                    }
                    self.jumps[i][k] = entry;
                    i = i.wrapping_add_signed(-(dx + dy * w as isize));
                    if !(1..w - 1).contains(&(i % w)) || !(1..h - 1).contains(&(i / w)) {
                        break;
                    }
                }
            }
        }
    }
}

impl JumpTable {
    /// The table of `grid` as it is now.
    pub fn new(grid: &Grid) -> JumpTable {
        JumpTable::build(grid, ())
    }

    /// Brings the table up to date with `grid` after the cells `changed`
    /// became walkable or not (doors): only the rows, columns and
    /// diagonals they can affect are recomputed.
    pub fn update(&mut self, grid: &Grid, changed: &[Cell]) {
        let changed: Vec<usize> = changed.iter().map(|&c| grid.node(c) as usize).collect();
        self.repair(grid, &changed);
    }

    /// The JPS+ graph of one query from `from` to `to` on `grid` (the grid
    /// this table describes as it is now), with `heuristic` scaled by the
    /// grid's entry cost. Refused as [`super::WalkBits::graph`] refuses.
    pub fn graph<'a>(
        &'a self,
        grid: &'a Grid,
        heuristic: Heuristic,
        from: Cell,
        to: Cell,
    ) -> Result<JpsPlusGraph<'a>, PlanError> {
        let query = JumpQuery::checked(grid, Planner::JPS_PLUS, heuristic, from, to)?;
        Ok(JpsPlusGraph(JumpGraph { query, jumps: Table { table: self } }))
    }

    /// The entry of cell `i` for the move (dx, dy), from the walkability
    /// around it and the entries one step further on.
    fn entry(&self, i: usize, dx: isize, dy: isize) -> i16 {
        let w = self.width as isize;
        let walk = |ox: isize, oy: isize| self.walkable[i.wrapping_add_signed(ox + oy * w)];
        let next = i.wrapping_add_signed(dx + dy * w);
        if dx == 0 || dy == 0 {
            if !walk(dx, dy) {
                return 0;
            }
            // Does the cell a step on force a turn? Moving along x, a side
            // cell (a row up or down) is open while the one behind it is
            // not; along y likewise with columns.
            let forced = [1, -1].into_iter().any(|side| {
                let (sx, sy, bx, by) = if dy == 0 { (dx, side, 0, side) } else { (side, dy, side, 0) };
                walk(sx, sy) && !walk(bx, by)
            });
            if forced { 1 } else { extend(self.jumps[next][dir(dx, dy)]) }
        } else {
            if !(walk(dx, 0) && walk(0, dy) && walk(dx, dy)) {
                return 0;
            }
            let t = &self.jumps[next];
            if t[dir(dx, 0)] > 0 || t[dir(0, dy)] > 0 { 1 } else { extend(t[dir(dx, dy)]) }
        }
    }
}

/// JPS+: jumps read from a [`JumpTable`].
pub(crate) struct Table<'a> {
    /// Built from the query's grid as it is now.
    pub(crate) table: &'a JumpTable,
}

impl Table<'_> {
    /// How far the goal lies from padded (x, y) along x and y, counted in
    /// the move's direction (mx, my) (positive: ahead).
    #[inline(always)]
    fn ahead(q: &JumpQuery, (x, y): (usize, usize), mx: isize, my: isize) -> (isize, isize) {
        ((q.goal.0 as isize - x as isize) * mx, (q.goal.1 as isize - y as isize) * my)
    }
}

impl Jumps for Table<'_> {
    #[inline(always)]
    fn jump(
        &self,
        q: &JumpQuery,
        i: usize,
        xy: (usize, usize),
        k: usize,
        (mx, my): (isize, isize),
        visit: &mut impl FnMut(NodeId, f64),
    ) {
        if mx != 0 && my != 0 {
            // The successors of cell `i` in diagonal direction k = (mx, my): the
            // diagonal runs from jump point to jump point of the table, and each
            // one's two straight jumps are visited, as is the goal where the
            // diagonal crosses its row or column and a straight run reaches it.
            // The diagonal jump points are not nodes (see [`super::jps`]).
            let (x, y) = xy;
            let w = q.width as isize;
            let table = &self.table.jumps;
            let (sx, sy) = (dir(mx, 0), dir(0, my));
            let (mut base, mut steps) = (i, 0);
            loop {
                let d = table[base][k] as isize;
                let here = (x.wrapping_add_signed(mx * steps), y.wrapping_add_signed(my * steps));
                let (gx, gy) = Table::ahead(q, here, mx, my);
                let cross = gx.min(gy);
                if gx > 0 && gy > 0 && cross <= d.abs() {
                    // The diagonal meets the goal's column (or row) here; the
                    // goal is the rest of the way straight on, if open.
                    let cell = base.wrapping_add_signed((mx + my * w) * cross);
                    let (rest, s) = if gx > gy { (gx - gy, sx) } else { (gy - gx, sy) };
                    if rest <= (table[cell][s] as isize).abs() {
                        let g = (steps + cross) as f64 * q.diagonal + rest as f64 * q.straight;
                        visit((q.goal.1 * q.width + q.goal.0) as NodeId, g);
                    }
                }
                if d <= 0 {
                    return;
                }
                base = base.wrapping_add_signed((mx + my * w) * d);
                steps += d;
                let g = steps as f64 * q.diagonal;
                for (s, step) in [(sx, mx), (sy, my * w)] {
                    let e = table[base][s] as isize;
                    if e > 0 {
                        visit(base.wrapping_add_signed(step * e) as NodeId, g + e as f64 * q.straight);
                    }
                }
            }
        }
        let d = self.table.jumps[i][k] as isize;
        // The goal on this line (not off it, either side), ahead, before
        // the jump ends.
        let (gx, gy) = Table::ahead(q, xy, mx, my);
        let (off_x, off_y) = Table::ahead(q, xy, 1, 1);
        let (along, across) = if my == 0 { (gx, off_y) } else { (gy, off_x) };
        let to_goal = (across == 0 && along > 0 && along <= d.abs()).then_some(along);
        if let Some(n) = to_goal.or((d > 0).then_some(d)) {
            let to = i.wrapping_add_signed((mx + my * q.width as isize) * n);
            visit(to as NodeId, n as f64 * q.straight);
        }
    }
}

/// One query's JPS+ graph ([`JumpTable::graph`]): node ids are the grid's
/// ([`Grid::node`]), edges are jumps read from the table, and the engine
/// searches it with any ordering but BFS. [`JpsPlusGraph::cells`] turns a
/// path of jump points into cells.
pub struct JpsPlusGraph<'a>(JumpGraph<'a, Table<'a>>);

public_jump_graph!(JpsPlusGraph);

#[cfg(test)]
mod tests {
    use super::super::jps::test_grid as grid;
    use super::*;
    use crate::grid::{DIAGONAL, Tile};
    use crate::search::GridGraph;

    #[test]
    fn entries_count_to_jump_points_and_walls() {
        let g = grid(&["..#...", "......", "......"]);
        let t = JumpTable::build(&g, ());
        let at = |x, y| t.jumps[g.node(Cell::new(x, y)) as usize];
        // East along row 1: at x = 3 the cell above is open and the one
        // above behind it (x = 2) is a wall: a forced turn.
        assert_eq!(at(0, 1)[dir(1, 0)], 3);
        // Row 2 has no forced turn: 5 steps to the border.
        assert_eq!(at(0, 2)[dir(1, 0)], -5);
        // Into a wall at once.
        assert_eq!(at(1, 0)[dir(1, 0)], 0);
        // South-east from (0, 0): (1, 1) has its east component reaching
        // the jump point at (3, 1).
        assert_eq!(at(0, 0)[dir(1, 1)], 1);
    }

    #[test]
    fn the_goal_is_reached_across_a_diagonal_and_never_off_its_line() {
        let g = grid(&[".....", "....."]);
        let t = JumpTable::build(&g, ());
        let (s, goal) = (Cell::new(0, 0), Cell::new(3, 1));
        let cells = GridGraph::new(&g, crate::grid::Neighbors::Eight, crate::search::Heuristic::Octile, s, goal);
        let jumps = JumpGraph { query: JumpQuery::new(&g, cells, g.node(goal), 1), jumps: Table { table: &t } };
        let mut seen = Vec::new();
        jumps.successors(g.node(s), |v, c| seen.push((g.cell_of(v), c)));
        // East passes the goal's column on row 0, not its cell: nothing;
        // south-east crosses row 1 at (1, 1), from which the goal is 2 on.
        assert_eq!(seen, vec![(goal, DIAGONAL + 2.0)]);
    }

    #[test]
    fn repairs_equal_a_fresh_build() {
        let mut g = grid(&["..#.....", "........", "...#....", "........", ".#......"]);
        let mut t = JumpTable::build(&g, ());
        for (x, y) in [(4, 1), (2, 0), (6, 3), (4, 1), (0, 4)] {
            let c = Cell::new(x, y);
            let tile = if g.is_walkable(c) { Tile::DoorClosed } else { Tile::DoorOpen };
            g.set_tile(c, tile);
            t.repair(&g, &[g.node(c) as usize]);
            assert_eq!(t, JumpTable::build(&g, ()), "after toggling {c}");
        }
    }
}
