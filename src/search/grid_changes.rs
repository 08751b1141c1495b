//! Which cells of a grid changed since a given version: what an
//! incremental search needs to repair itself, told once for all searches.

use super::NodeId;
use super::grid_cache::{Derived, GridCache};
use crate::grid::{DIRECTIONS, Grid};
use std::collections::VecDeque;

/// Versions of change a log keeps: a search that last looked longer ago
/// than this starts afresh.
const KEPT: usize = 1024;

/// A log of the cells of one grid that changed, by version, kept up to
/// date by diffing the grid's costs (as the per-grid caches do): many searches
/// share one log instead of each keeping a copy of the map.
#[derive(Debug, Default)]
pub struct GridChanges {
    log: GridCache<Log>,
}

#[derive(Debug)]
struct Log {
    identity: u64,
    /// The oldest version the log can answer from.
    base: u64,
    /// (version, padded indices of the cells changed since the entry before).
    entries: VecDeque<(u64, Vec<usize>)>,
}

impl Derived for Log {
    type Config = ();
    fn build(grid: &Grid, _: ()) -> Log {
        Log { identity: grid.identity(), base: grid.version(), entries: VecDeque::new() }
    }
    fn repair(&mut self, grid: &Grid, changed: &[usize]) {
        self.entries.push_back((grid.version(), changed.to_vec()));
        if self.entries.len() > KEPT
            && let Some((version, _)) = self.entries.pop_front()
        {
            self.base = version;
        }
    }
}

impl GridChanges {
    /// A log that starts with the first grid it is asked about.
    pub fn new() -> GridChanges {
        GridChanges::default()
    }

    /// Pushes on `out` (sorted, without repeats) every node of `grid`
    /// whose incoming edges may have changed since the grid was at
    /// (`identity`, `version`): each changed cell and its eight
    /// neighbours, whose moves into it or diagonally past it it decides.
    /// False when the log cannot tell (another grid, or a version older
    /// than it keeps): the caller starts afresh. The log notes changes by
    /// the versions it was asked at, so asking from a version it was never
    /// asked at names a few more cells than changed, never fewer (a search
    /// that syncs at each version it repairs on always gets the exact set).
    pub fn since(&mut self, grid: &Grid, identity: u64, version: u64, out: &mut Vec<NodeId>) -> bool {
        let log = self.log.get(grid, ());
        if identity != log.identity || version < log.base {
            return false;
        }
        let stride = grid.stride() as isize;
        let start = out.len();
        for (_, cells) in log.entries.iter().filter(|(v, _)| *v > version) {
            for &i in cells {
                out.push(i as NodeId);
                out.extend(
                    DIRECTIONS
                        .iter()
                        .map(|&(dx, dy)| i.wrapping_add_signed(dx as isize + dy as isize * stride) as NodeId),
                );
            }
        }
        out[start..].sort_unstable();
        let mut kept = start;
        for k in start..out.len() {
            if k == start || out[k] != out[kept - 1] {
                out[kept] = out[k];
                kept += 1;
            }
        }
        out.truncate(kept);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Tile};

    #[test]
    fn names_changed_cells_and_their_neighbours_since_a_version() {
        let mut g = Grid::filled(10, 10, Tile::Floor(1));
        let mut log = GridChanges::new();
        let mut out = Vec::new();
        assert!(log.since(&g, g.identity(), g.version(), &mut out));
        assert!(out.is_empty());
        let v0 = g.version();
        g.set_tile(Cell::new(4, 4), Tile::Wall);
        let v1 = g.version();
        assert!(log.since(&g, g.identity(), v1, &mut out));
        assert!(out.is_empty(), "nothing since the version it has now");
        g.set_tile(Cell::new(5, 4), Tile::Floor(3));
        assert!(log.since(&g, g.identity(), v0, &mut out));
        let mut want: Vec<NodeId> =
            (3..=6).flat_map(|x| (3..=5).map(move |y| (x, y))).map(|(x, y)| g.node(Cell::new(x, y))).collect();
        want.sort_unstable();
        assert_eq!(out, want);
        out.clear();
        assert!(log.since(&g, g.identity(), v1, &mut out));
        assert_eq!(out.len(), 9, "only the second change");
        assert!(!log.since(&g, g.identity() + 1, v1, &mut out), "another grid");
        assert!(!log.since(&g.clone(), g.identity(), v1, &mut out), "a clone is another grid");
    }
}
