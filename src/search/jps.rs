//! Jump point search, online (Harabor & Grastien 2011), on 8-neighbour
//! grids without corner cutting and with one entry cost on every walkable
//! cell.
//!
//! JPS is A* over a sparser graph: from a node it does not push every
//! neighbour but jumps straight or diagonally over cells whose every
//! optimal route is already covered by another ordering of the same moves,
//! stopping only at *jump points*, cells where a wall beside the line makes
//! a turn necessary (a forced neighbour), or at the goal. The engine
//! searches that graph ([`JumpGraph`]) with the same open list, records
//! and counters as A*; only the successor function differs, and it needs
//! the direction a node was reached from, which is why
//! [`Graph::successors_from`] hands it the parent.
//!
//! Without corner cutting (delve's moves), the pruning rules are those of
//! Harabor & Grastien's 2014 variant: a diagonal move has no forced
//! neighbours, and a straight move east at (x, y) is forced to turn north
//! where (x − 1, y − 1) is a wall and (x, y − 1) is not (and likewise
//! south); a diagonal jump stops at a cell from which one of its two
//! straight components reaches a jump point or the goal. (JPS+ goes on
//! past such cells instead, see [`super::jps_plus`]; the graph code here
//! serves both kinds of edge: a diagonal run, then a straight one.)
//!
//! Straight jumps are the hot loop and read walkability as bits: a line of
//! cells (a row, or a column in the transposed copy; each also mirrored, so
//! that every direction scans toward larger positions) is a run of `u64`
//! words, and one step of a scan tests 64 cells at once: the first wall on
//! the line, and the first cell whose side cell is open while the side
//! cell before it is a wall (`side & !(side << 1)` in scan order). This is
//! how warthog, the research reference, scans.
//!
//! Costs are exactly A*'s: an edge of k diagonal and m straight steps
//! costs k·c·√2 + m·c, with c the shared entry cost and √2 the dyadic
//! [`DIAGONAL`]. Every such product and every sum of them is an exact
//! binary fraction on maps within [`crate::grid::MAX_SIDE`] (at most 34
//! significant bits each), so it equals, bit for bit, the sum of single
//! steps A* forms along the same cells; and every optimal path has the same
//! numbers of straight and diagonal steps (√2 has no small rational
//! multiple), so JPS and A* report one float for the optimum.

use super::grid_cache::Derived;
use super::grid_graph::{GridGraph, Split};
use super::{Graph, Heuristic, NodeId, PlanError, Planner, TieBreak};
use crate::grid::{Cell, DIAGONAL, DIRECTIONS, Grid, Neighbors};
use std::cell::Cell as Counter;

/// Walkability bits of lines of equal length, one line after another.
#[derive(Clone, Debug, Default)]
struct Lines {
    /// Words per line: every position, plus one zero word so that a 64-bit
    /// window starting at any position reads inside the line.
    words: usize,
    bits: Vec<u64>,
}

impl Lines {
    fn new(lines: usize, len: usize) -> Lines {
        let words = len / 64 + 2;
        Lines { words, bits: vec![0; lines * words] }
    }

    fn set(&mut self, line: usize, pos: usize, walkable: bool) {
        let word = &mut self.bits[line * self.words + pos / 64];
        let bit = 1u64 << (pos % 64);
        if walkable {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    /// The 64 cells of `line` from `pos` on, the cell at `pos` in bit 0.
    #[inline(always)]
    fn window(&self, line: usize, pos: usize) -> u64 {
        let i = line * self.words + pos / 64;
        let s = pos % 64;
        // `(hi << 1) << (63 - s)` is `hi << (64 - s)` without the shift by
        // 64 (which Rust rejects) when s is 0.
        (self.bits[i] >> s) | ((self.bits[i + 1] << 1) << (63 - s))
    }

    /// Walks `line` from `from` (exclusive) toward larger positions.
    /// Returns the first cell with a forced neighbour and `true`, or the
    /// last walkable cell before a wall and `false`. `line` must have a
    /// line on each side, and the line must end in a wall (the border).
    #[inline]
    fn scan(&self, line: usize, from: usize) -> (usize, bool) {
        let mut pos = from + 1;
        loop {
            let here = self.window(line, pos);
            let (a, a_behind) = (self.window(line - 1, pos), self.window(line - 1, pos - 1));
            let (b, b_behind) = (self.window(line + 1, pos), self.window(line + 1, pos - 1));
            let forced = (a & !a_behind) | (b & !b_behind);
            let stops = forced | !here;
            if stops != 0 {
                let i = stops.trailing_zeros() as usize;
                return if here >> i & 1 == 1 { (pos + i, true) } else { (pos + i - 1, false) };
            }
            pos += 64;
        }
    }
}

/// A grid's walkability as bit lines four ways, what online jump point
/// search scans: rows (scanned east), mirrored rows (west), columns
/// (south) and mirrored columns (north), all in the grid's padded
/// coordinates. Build it once per grid ([`WalkBits::new`]), bring it up to
/// date when cells change ([`WalkBits::update`]), and search the
/// [`JpsGraph`] of each query ([`WalkBits::graph`]).
#[derive(Clone, Debug, Default)]
pub struct WalkBits {
    /// Padded width (the grid's stride) and height.
    width: usize,
    height: usize,
    east: Lines,
    west: Lines,
    south: Lines,
    north: Lines,
}

impl Derived for WalkBits {
    type Config = ();

    fn build(grid: &Grid, _: ()) -> WalkBits {
        WalkBits::new(grid)
    }

    fn repair(&mut self, grid: &Grid, changed: &[usize]) {
        for &i in changed {
            self.set(i, grid.costs()[i] != 0);
        }
    }
}

impl WalkBits {
    /// The bits of `grid` as it is now.
    pub fn new(grid: &Grid) -> WalkBits {
        let (width, height) = (grid.stride(), grid.height() + 2);
        let mut bits = WalkBits {
            width,
            height,
            east: Lines::new(height, width),
            west: Lines::new(height, width),
            south: Lines::new(width, height),
            north: Lines::new(width, height),
        };
        for (i, &c) in grid.costs().iter().enumerate() {
            if c != 0 {
                bits.set(i, true);
            }
        }
        bits
    }

    /// Brings the bits up to date with `grid` after the cells `changed`
    /// became walkable or not (doors).
    pub fn update(&mut self, grid: &Grid, changed: &[Cell]) {
        for &c in changed {
            self.set(grid.node(c) as usize, grid.is_walkable(c));
        }
    }

    /// The jump point graph of one query from `from` to `to` on `grid`
    /// (the grid these bits describe as it is now), with `heuristic`
    /// scaled by the grid's entry cost. Refused where jump point search
    /// cannot run: an end off the map or blocked, or walkable cells of
    /// different costs.
    pub fn graph<'a>(
        &'a self,
        grid: &'a Grid,
        heuristic: Heuristic,
        from: Cell,
        to: Cell,
    ) -> Result<JpsGraph<'a>, PlanError> {
        let query = JumpQuery::checked(grid, Planner::JPS, heuristic, from, to)?;
        Ok(JpsGraph(JumpGraph { query, jumps: Scan::new(self) }))
    }

    /// Records that the cell of padded index `i` became walkable or not.
    pub(crate) fn set(&mut self, i: usize, walkable: bool) {
        let (x, y) = (i % self.width, i / self.width);
        self.east.set(y, x, walkable);
        self.west.set(y, self.width - 1 - x, walkable);
        self.south.set(x, y, walkable);
        self.north.set(x, self.height - 1 - y, walkable);
    }
}

/// The last move of an edge from padded (x, y) `a` to `b`: an edge is a
/// diagonal run then a straight one (either possibly empty), so it ends
/// diagonally when both legs are equal and straight along the longer axis
/// otherwise. (0, 0) when `a == b`.
#[inline(always)]
pub(crate) fn arrival(a: (usize, usize), b: (usize, usize)) -> (isize, isize) {
    let (dx, dy) = (b.0 as isize - a.0 as isize, b.1 as isize - a.1 as isize);
    match dx.abs().cmp(&dy.abs()) {
        std::cmp::Ordering::Equal => (dx.signum(), dy.signum()),
        std::cmp::Ordering::Greater => (dx.signum(), 0),
        std::cmp::Ordering::Less => (0, dy.signum()),
    }
}

/// Bit k (0..8) set for each move of [`DIRECTIONS`] to try from a node
/// reached by `(dx, dy)` ((0, 0) for the start), given the walkability of
/// cells around it: the natural moves, plus the forced ones.
#[inline(always)]
pub(crate) fn pruned_moves(dx: isize, dy: isize, walk: impl Fn(isize, isize) -> bool) -> u32 {
    let bit = |mx: isize, my: isize| 1u32 << DIRECTIONS.iter().position(|&d| d == (mx as i32, my as i32)).unwrap_or(8);
    match (dx, dy) {
        (0, 0) => 0xff,
        (_, 0) => {
            let mut m = bit(dx, 0);
            for side in [1, -1] {
                if !walk(-dx, side) && walk(0, side) {
                    m |= bit(0, side) | bit(dx, side);
                }
            }
            m
        }
        (0, _) => {
            let mut m = bit(0, dy);
            for side in [1, -1] {
                if !walk(side, -dy) && walk(side, 0) {
                    m |= bit(side, 0) | bit(side, dy);
                }
            }
            m
        }
        _ => bit(dx, 0) | bit(0, dy) | bit(dx, dy),
    }
}

/// What a jump graph knows of one query besides its jumps: the grid as A*
/// sees it (heuristic, tie keys), the goal and the cost of a step.
pub(crate) struct JumpQuery<'a> {
    cells: GridGraph<'a>,
    costs: &'a [u8],
    /// Padded width (the grid's stride).
    pub(crate) width: usize,
    split: Split,
    /// Padded (x, y) of the goal.
    pub(crate) goal: (usize, usize),
    /// Cost of one straight and one diagonal step.
    pub(crate) straight: f64,
    pub(crate) diagonal: f64,
}

impl<'a> JumpQuery<'a> {
    /// The query from `from` to `to` on `grid` for `planner` (which names
    /// itself in a refusal), if jump points can be searched there.
    pub(crate) fn checked(
        grid: &'a Grid,
        planner: Planner,
        heuristic: Heuristic,
        from: Cell,
        to: Cell,
    ) -> Result<JumpQuery<'a>, PlanError> {
        PlanError::check(grid, from, to)?;
        let cost = grid.uniform_cost().ok_or(PlanError::Jumps { planner })?;
        let cells = GridGraph::new(grid, Neighbors::Eight, heuristic, from, to);
        Ok(JumpQuery::new(grid, cells, grid.node(to), cost))
    }

    /// `cells` must be built on `grid`, whose walkable cells all cost
    /// `cost`.
    pub(crate) fn new(grid: &'a Grid, cells: GridGraph<'a>, goal: NodeId, cost: u8) -> Self {
        let width = grid.stride();
        let split = Split::new(width);
        JumpQuery {
            cells,
            costs: grid.costs(),
            width,
            split,
            goal: split.xy(goal as usize),
            straight: f64::from(cost),
            diagonal: f64::from(cost) * DIAGONAL,
        }
    }

    #[inline(always)]
    pub(crate) fn walk(&self, x: usize, y: usize) -> bool {
        self.costs[y * self.width + x] != 0
    }
}

/// How one kind of jump point search finds the successors of a node in
/// one unpruned direction.
pub(crate) trait Jumps {
    /// Visits the successors of padded index `i`, at padded `xy`, in move
    /// `k` of [`DIRECTIONS`], `step` = (mx, my), with their costs from `i`.
    fn jump(
        &self,
        q: &JumpQuery,
        i: usize,
        xy: (usize, usize),
        k: usize,
        step: (isize, isize),
        visit: &mut impl FnMut(NodeId, f64),
    );
}

/// The public face of a jump graph (`$name` wrapping a [`JumpGraph`]):
/// the cells of a path of its jump points, and its inner graph's `Graph`.
macro_rules! public_jump_graph {
    ($name:ident) => {
        impl $name<'_> {
            /// The cells of `path` (jump points, as the engine returns them),
            /// start and goal included, each step to a neighbour.
            pub fn cells(&self, path: &[NodeId]) -> Vec<Cell> {
                self.0.query.cells_of(path)
            }
        }

        impl Graph for $name<'_> {
            fn node_count(&self) -> usize {
                self.0.node_count()
            }

            fn successors(&self, node: NodeId, visit: impl FnMut(NodeId, f64)) {
                self.0.successors(node, visit);
            }

            #[inline(always)]
            fn successors_from(&self, node: NodeId, parent: NodeId, visit: impl FnMut(NodeId, f64)) {
                self.0.successors_from(node, parent, visit);
            }

            fn heuristic(&self, node: NodeId) -> f64 {
                self.0.heuristic(node)
            }

            fn tie_key(&self, node: NodeId, h: f64, tie: TieBreak) -> u32 {
                self.0.tie_key(node, h, tie)
            }
        }
    };
}
pub(crate) use public_jump_graph;

/// One query's jump graph: nodes are the grid's padded indices, edges the
/// jumps `J` finds from a node in the directions left after pruning.
pub(crate) struct JumpGraph<'a, J> {
    pub(crate) query: JumpQuery<'a>,
    pub(crate) jumps: J,
}

impl<J: Jumps> Graph for JumpGraph<'_, J> {
    fn node_count(&self) -> usize {
        self.query.cells.node_count()
    }

    fn successors(&self, node: NodeId, visit: impl FnMut(NodeId, f64)) {
        self.successors_from(node, node, visit);
    }

    #[inline]
    fn successors_from(&self, node: NodeId, parent: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let q = &self.query;
        let i = node as usize;
        let (x, y) = q.split.xy(i);
        let (dx, dy) = arrival(q.split.xy(parent as usize), (x, y));
        let walk = |ox: isize, oy: isize| q.walk(x.wrapping_add_signed(ox), y.wrapping_add_signed(oy));
        let moves = pruned_moves(dx, dy, walk);
        for (k, &(mx, my)) in DIRECTIONS.iter().enumerate() {
            if moves >> k & 1 != 0 {
                self.jumps.jump(q, i, (x, y), k, (mx as isize, my as isize), &mut visit);
            }
        }
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        self.query.cells.heuristic(node)
    }

    fn tie_key(&self, node: NodeId, h: f64, tie: TieBreak) -> u32 {
        self.query.cells.tie_key(node, h, tie)
    }
}

/// Online JPS: jumps scanned in the walkability bits.
pub(crate) struct Scan<'a> {
    pub(crate) bits: &'a WalkBits,
    scanned: Counter<u64>,
}

impl<'a> Scan<'a> {
    /// `bits` must be built from the query's grid as it is now.
    pub(crate) fn new(bits: &'a WalkBits) -> Self {
        Scan { bits, scanned: Counter::new(0) }
    }

    /// Cells looked at so far.
    pub(crate) fn scanned(&self) -> u64 {
        self.scanned.get()
    }

    /// Steps from (x, y) in the straight direction (dx, dy) to the first
    /// jump point or the goal, if any before a wall.
    #[inline]
    fn jump_straight(&self, q: &JumpQuery, x: usize, y: usize, dx: isize, dy: isize) -> Option<usize> {
        let b = self.bits;
        let (gx, gy) = q.goal;
        let (lines, line, pos, goal_line, goal_pos) = match (dx, dy) {
            (1, _) => (&b.east, y, x, gy, gx),
            (-1, _) => (&b.west, y, b.width - 1 - x, gy, b.width - 1 - gx),
            (_, 1) => (&b.south, x, y, gx, gy),
            _ => (&b.north, x, b.height - 1 - y, gx, b.height - 1 - gy),
        };
        let (end, forced) = lines.scan(line, pos);
        self.scanned.set(self.scanned.get() + (end - pos) as u64);
        if line == goal_line && goal_pos > pos && goal_pos <= end {
            return Some(goal_pos - pos);
        }
        forced.then_some(end - pos)
    }

    /// Steps from (x, y) in the diagonal direction (dx, dy) to the first
    /// cell that is the goal or from which a straight component reaches a
    /// jump point or the goal, if any before the diagonal is blocked.
    ///
    /// That cell becomes a node, and its straight jumps are scanned again
    /// when it is expanded. Not making it a node, as JPS+ does
    /// ([`super::jps_plus`]), would mean walking every diagonal to its
    /// end: fewer nodes, but on the Moving AI maps the extra scanning cost
    /// more than the nodes saved (Aftershock 60% slower).
    #[inline]
    fn jump_diagonal(&self, q: &JumpQuery, x: usize, y: usize, dx: isize, dy: isize) -> Option<usize> {
        let (mut x, mut y) = (x, y);
        let mut steps = 0;
        let found = loop {
            let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
            if !(q.walk(nx, y) && q.walk(x, ny) && q.walk(nx, ny)) {
                break None;
            }
            (x, y) = (nx, ny);
            steps += 1;
            if (x, y) == q.goal
                || self.jump_straight(q, x, y, dx, 0).is_some()
                || self.jump_straight(q, x, y, 0, dy).is_some()
            {
                break Some(steps);
            }
        };
        self.scanned.set(self.scanned.get() + steps as u64);
        found
    }
}

impl Jumps for Scan<'_> {
    #[inline(always)]
    fn jump(
        &self,
        q: &JumpQuery,
        i: usize,
        (x, y): (usize, usize),
        _: usize,
        (mx, my): (isize, isize),
        visit: &mut impl FnMut(NodeId, f64),
    ) {
        let (steps, cost) = if mx == 0 || my == 0 {
            (self.jump_straight(q, x, y, mx, my), q.straight)
        } else {
            (self.jump_diagonal(q, x, y, mx, my), q.diagonal)
        };
        if let Some(n) = steps {
            let to = i.wrapping_add_signed((mx + my * q.width as isize) * n as isize);
            visit(to as NodeId, n as f64 * cost);
        }
    }
}

/// One query's graph of jump points found online ([`WalkBits::graph`]):
/// node ids are the grid's ([`Grid::node`]), edges are jumps, and the
/// engine searches it with any ordering but BFS (a jump is many steps).
/// [`JpsGraph::cells`] turns a path of jump points into cells.
pub struct JpsGraph<'a>(JumpGraph<'a, Scan<'a>>);

impl JpsGraph<'_> {
    /// Cells looked at while jumping, so far.
    pub fn scanned(&self) -> u64 {
        self.0.jumps.scanned()
    }
}

public_jump_graph!(JpsGraph);

impl JumpQuery<'_> {
    /// The cells of a path of jump points on this query's grid.
    pub(crate) fn cells_of(&self, path: &[NodeId]) -> Vec<Cell> {
        let mut cells = Vec::new();
        fill_in(self.width, path, |n| {
            let (x, y) = self.split.xy(n as usize);
            cells.push(Cell::new(x as i32 - 1, y as i32 - 1));
        });
        cells
    }
}

/// Fills in the cells between consecutive jump points of `path` (padded
/// indices on a grid `width` wide) into `out`: each edge is a diagonal run
/// then a straight one.
pub(crate) fn fill_in(width: usize, path: &[NodeId], mut out: impl FnMut(NodeId)) {
    let Some(&first) = path.first() else { return };
    out(first);
    for pair in path.windows(2) {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        let (dx, dy) = ((b % width) as isize - (a % width) as isize, (b / width) as isize - (a / width) as isize);
        let diagonal = dx.abs().min(dy.abs());
        let mut i = a;
        for _ in 0..diagonal {
            i = i.wrapping_add_signed(dx.signum() + dy.signum() * width as isize);
            out(i as NodeId);
        }
        let (sx, sy) = arrival((i % width, i / width), (b % width, b / width));
        while i != b {
            i = i.wrapping_add_signed(sx + sy * width as isize);
            out(i as NodeId);
        }
    }
}

/// A grid from rows of `#` (wall) and anything else (floor of cost 1),
/// for the tests of the grid searches.
#[cfg(test)]
pub(crate) fn test_grid(rows: &[&str]) -> Grid {
    use crate::grid::Tile;
    let tiles: Vec<Tile> =
        rows.iter().flat_map(|r| r.chars().map(|c| if c == '#' { Tile::Wall } else { Tile::Floor(1) })).collect();
    Grid::new(rows[0].len(), rows.len(), &tiles)
}

#[cfg(test)]
mod tests {
    use super::test_grid as grid;
    use super::*;
    use crate::grid::Cell;
    use crate::search::Heuristic;

    #[test]
    fn scans_stop_at_walls_and_forced_neighbours_across_words() {
        // A 150-wide corridor: the only forced cell is past a wall corner at x = 100.
        let mut rows = ["#".repeat(150), ".".repeat(150), "#".repeat(150)];
        rows[0].replace_range(100..101, ".");
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let g = grid(&rows);
        let bits = WalkBits::new(&g);
        // Padded: row 2, x + 1. East from x = 0: the open cell above at 100
        // (its left neighbour above is wall) forces a turn there.
        assert_eq!(bits.east.scan(2, 1), (101, true));
        // Past it, the corridor runs to the border.
        assert_eq!(bits.east.scan(2, 101), (150, false));
        // West from the east end: the cell above x = 100 has a wall on its
        // east side behind it, so x = 100 is forced going west too.
        assert_eq!(bits.west.scan(2, 151 - 150), (151 - 101, true));
    }

    #[test]
    fn jump_costs_are_step_sums() {
        let g = grid(&["......", "......", "......"]);
        let bits = WalkBits::new(&g);
        let (s, t) = (Cell::new(0, 0), Cell::new(5, 2));
        let cells = GridGraph::new(&g, crate::grid::Neighbors::Eight, Heuristic::Octile, s, t);
        let jg = JumpGraph { query: JumpQuery::new(&g, cells, g.node(t), 1), jumps: Scan::new(&bits) };
        let mut seen = Vec::new();
        jg.successors(g.node(s), |v, c| seen.push((g.cell_of(v), c)));
        // East reaches no jump point; south neither; the diagonal stops at
        // (2, 2), in line with the goal, after two steps.
        assert_eq!(seen, vec![(Cell::new(2, 2), 2.0 * DIAGONAL)]);
        let mut path = Vec::new();
        fill_in(g.stride(), &[g.node(s), g.node(t)], |n| path.push(g.cell_of(n)));
        let want: Vec<Cell> = [(0, 0), (1, 1), (2, 2), (3, 2), (4, 2), (5, 2)].map(|(x, y)| Cell::new(x, y)).to_vec();
        assert_eq!(path, want);
        assert!(jg.jumps.scanned() > 0);
    }
}
