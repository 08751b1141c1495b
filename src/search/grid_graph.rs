//! The tile grid as a search graph: the grid's own expansion policy.

use super::settings::{Heuristic, TieBreak};
use super::{Graph, NodeId, Reversible};
use crate::grid::{Cell, DIAGONAL, DIRECTIONS, Grid, Neighbors};

/// Cost of entering a cell orthogonally, by entry cost 0–9.
const ORTHOGONAL: [f64; 10] = costs(1.0);
/// Cost of entering a cell diagonally: entry cost × √2, computed the same
/// way as [`Grid::step_cost`] so that both agree to the last bit.
const DIAGONAL_COST: [f64; 10] = costs(DIAGONAL);

const fn costs(factor: f64) -> [f64; 10] {
    let mut t = [0.0; 10];
    let mut i = 1;
    while i < 10 {
        t[i] = i as f64 * factor;
        i += 1;
    }
    t
}

/// The orthogonal directions diagonal k (4..8) passes between: its x step
/// is east (0) or west (1), its y step south (2) or north (3).
const SIDES: [(usize, usize); 4] = [(0, 2), (1, 2), (0, 3), (1, 3)];

/// One query's view of a [`Grid`]: moves, heuristic and endpoints.
///
/// Node ids are the grid's padded indices; thanks to the wall border a
/// neighbour index is always inside the array and no bounds check is needed.
pub struct GridGraph<'a> {
    costs: &'a [u8],
    neighbors: Neighbors,
    heuristic: Heuristic,
    /// The grid's cheapest entry cost: the heuristic's scale.
    scale: f64,
    start: Cell,
    goal: Cell,
    /// Index offsets of the eight directions, in [`DIRECTIONS`] order.
    offsets: [isize; 8],
    split: Split,
}

/// Splits padded indices into (x, y) with a multiply and a shift: a
/// hardware division costs more than the rest of an h, or of an edge.
/// `magic` = ⌊2⁴⁰/stride⌋ + 1 is exact for indices below 2⁴⁰/stride, far
/// above any map's node count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Split {
    stride: u64,
    magic: u64,
}

impl Split {
    pub(crate) fn new(stride: usize) -> Split {
        Split { stride: stride as u64, magic: (1u64 << 40) / stride as u64 + 1 }
    }

    /// Padded (x, y) of padded index `i`.
    #[inline(always)]
    pub(crate) fn xy(self, i: usize) -> (usize, usize) {
        let y = (i as u64 * self.magic) >> 40;
        ((i as u64 - y * self.stride) as usize, y as usize)
    }
}

impl<'a> GridGraph<'a> {
    /// The view of `grid` for one query from `start` to `goal`.
    pub fn new(grid: &'a Grid, neighbors: Neighbors, heuristic: Heuristic, start: Cell, goal: Cell) -> Self {
        let stride = grid.stride();
        GridGraph {
            costs: grid.costs(),
            neighbors,
            heuristic,
            scale: f64::from(grid.min_entry_cost()),
            start,
            goal,
            offsets: DIRECTIONS.map(|(dx, dy)| dx as isize + dy as isize * stride as isize),
            split: Split::new(stride),
        }
    }

    /// The cell of a node id.
    #[inline(always)]
    fn cell(&self, node: NodeId) -> Cell {
        let (x, y) = self.split.xy(node as usize);
        Cell::new(x as i32 - 1, y as i32 - 1)
    }
}

impl Graph for GridGraph<'_> {
    fn node_count(&self) -> usize {
        self.costs.len()
    }

    #[inline]
    fn successors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let i = node as usize;
        let c = self.costs;
        let at = |k: usize| i.wrapping_add_signed(self.offsets[k]);
        for k in 0..4 {
            let v = at(k);
            let cost = c[v];
            if cost != 0 {
                visit(v as NodeId, ORTHOGONAL[cost as usize]);
            }
        }
        if self.neighbors == Neighbors::Four {
            return;
        }
        for (k, (sx, sy)) in SIDES.into_iter().enumerate() {
            let v = at(k + 4);
            let cost = c[v];
            if cost != 0 && c[at(sx)] != 0 && c[at(sy)] != 0 {
                visit(v as NodeId, DIAGONAL_COST[cost as usize]);
            }
        }
    }

    fn heuristic(&self, node: NodeId) -> f64 {
        let p = self.cell(node);
        let dx = f64::from((p.x - self.goal.x).abs());
        let dy = f64::from((p.y - self.goal.y).abs());
        self.heuristic.distance(dx, dy) * self.scale
    }

    /// Exact keys. `cross` is |(cell − goal) × (start − goal)|, an integer
    /// below 2·2048² < 2³². `low-h` is h in fixed point with 16 fraction
    /// bits: h stays below 2¹⁶ on any map within [`crate::grid::MAX_SIDE`],
    /// and two different h values on such a map differ by far more than
    /// 2⁻¹⁶ (the closest pair of octile values, a + b(√2 − 1) with b at most
    /// 2048, is 3.6e-4 apart; distinct square roots of integers below 2²³
    /// are 1.7e-4 apart), so the fixed-point key preserves their order
    /// exactly.
    fn tie_key(&self, node: NodeId, h: f64, tie: TieBreak) -> u32 {
        match tie {
            TieBreak::Fifo => 0,
            // Rounded to nearest (the cast truncates a non-negative value).
            TieBreak::LowH => (h * 65536.0 + 0.5) as u32,
            TieBreak::Cross => {
                let p = self.cell(node);
                let (dx1, dy1) = (i64::from(p.x - self.goal.x), i64::from(p.y - self.goal.y));
                let (dx2, dy2) = (i64::from(self.start.x - self.goal.x), i64::from(self.start.y - self.goal.y));
                (dx1 * dy2 - dx2 * dy1).unsigned_abs() as u32
            }
        }
    }
}

/// Every move is reversible on a grid, so the edges entering a cell are
/// its walkable neighbours' moves into it, at its own entry cost; a wall
/// (or closed door) has none.
impl Reversible for GridGraph<'_> {
    #[inline]
    fn predecessors(&self, node: NodeId, mut visit: impl FnMut(NodeId, f64)) {
        let i = node as usize;
        let c = self.costs;
        let cost = c[i];
        if cost == 0 {
            return;
        }
        let at = |k: usize| i.wrapping_add_signed(self.offsets[k]);
        for k in 0..4 {
            let u = at(k);
            if c[u] != 0 {
                visit(u as NodeId, ORTHOGONAL[cost as usize]);
            }
        }
        if self.neighbors == Neighbors::Four {
            return;
        }
        // A diagonal move passes the same two orthogonal cells both ways.
        for (k, (sx, sy)) in SIDES.into_iter().enumerate() {
            let u = at(k + 4);
            if c[u] != 0 && c[at(sx)] != 0 && c[at(sy)] != 0 {
                visit(u as NodeId, DIAGONAL_COST[cost as usize]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;
    use rand::{RngExt, SeedableRng};

    /// Predecessors are exactly the successor edges read backwards, with
    /// the same costs, on random weighted grids and both neighbourhoods.
    #[test]
    fn predecessors_invert_successors() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        for round in 0..20 {
            let (w, h) = (rng.random_range(1..12), rng.random_range(1..12));
            let tiles: Vec<Tile> = (0..w * h)
                .map(|_| if rng.random_bool(0.3) { Tile::Wall } else { Tile::Floor(rng.random_range(1..10)) })
                .collect();
            let grid = Grid::new(w, h, &tiles);
            let neighbors = if round % 2 == 0 { Neighbors::Eight } else { Neighbors::Four };
            let c = Cell::new(0, 0);
            let g = GridGraph::new(&grid, neighbors, Heuristic::Octile, c, c);
            let (mut forward, mut backward) = (Vec::new(), Vec::new());
            for cell in grid.cells().filter(|&c| grid.is_walkable(c)) {
                let n = grid.node(cell);
                g.successors(n, |v, cost| forward.push((n, v, cost.to_bits())));
                g.predecessors(n, |u, cost| backward.push((u, n, cost.to_bits())));
            }
            forward.sort_unstable();
            backward.sort_unstable();
            assert_eq!(forward, backward, "round {round}");
        }
    }
}
