//! Which cells of a grid changed since a given version: what an
//! incremental search needs to repair itself, told once for all searches.

use super::NodeId;
use super::grid_cache::{Derived, GridCache};
use super::grid_graph::Split;
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
        self.collect(grid, identity, version, |_| Area::WHOLE, out)
    }

    /// [`GridChanges::since`] for a search that holds records of `nodes`
    /// and of no other node: a node that is none of them and has none of
    /// them for a neighbour (its only possible predecessors) is left out,
    /// as nothing the search knows reaches it and a repair would change
    /// nothing there. Kept: the nodes within the rectangle that bounds
    /// `nodes`, grown by one cell (`nodes` is read only when something
    /// changed). A search's records lie around its hunter, the doors that
    /// change all over the map: at 500 monsters on the gates a repair
    /// after the doors toggled looked at about 320 nodes, most of them
    /// far from its tree.
    pub fn since_near(
        &mut self,
        grid: &Grid,
        identity: u64,
        version: u64,
        nodes: impl IntoIterator<Item = NodeId>,
        out: &mut Vec<NodeId>,
    ) -> bool {
        self.collect(grid, identity, version, |split| Area::around(split, nodes), out)
    }

    /// The changes since (`identity`, `version`) within the area `area`
    /// gives (asked only when there are some), as [`GridChanges::since`].
    fn collect(
        &mut self,
        grid: &Grid,
        identity: u64,
        version: u64,
        area: impl FnOnce(Split) -> Area,
        out: &mut Vec<NodeId>,
    ) -> bool {
        let log = self.log.get(grid, ());
        if identity != log.identity || version < log.base {
            return false;
        }
        // Entries are in the order of their versions.
        let newer = log.entries.partition_point(|(v, _)| *v <= version);
        if newer == log.entries.len() {
            return true;
        }
        let split = Split::new(grid.stride());
        let area = area(split);
        let stride = grid.stride() as isize;
        let start = out.len();
        for (_, cells) in log.entries.range(newer..) {
            for &i in cells {
                let nodes = std::iter::once(i).chain(
                    DIRECTIONS.iter().map(|&(dx, dy)| i.wrapping_add_signed(dx as isize + dy as isize * stride)),
                );
                out.extend(nodes.filter(|&n| area.holds(split, n)).map(|n| n as NodeId));
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

/// A rectangle of padded coordinates, both ends included: the nodes a
/// caller wants to hear of.
#[derive(Clone, Copy, Debug)]
struct Area {
    x: (usize, usize),
    y: (usize, usize),
}

impl Area {
    /// Every node.
    const WHOLE: Area = Area { x: (0, usize::MAX), y: (0, usize::MAX) };

    /// The rectangle that bounds `nodes`, grown by one cell (empty when
    /// there are none).
    fn around(split: Split, nodes: impl IntoIterator<Item = NodeId>) -> Area {
        let mut area = Area { x: (usize::MAX, 0), y: (usize::MAX, 0) };
        for n in nodes {
            let (x, y) = split.xy(n as usize);
            area.x = (area.x.0.min(x), area.x.1.max(x));
            area.y = (area.y.0.min(y), area.y.1.max(y));
        }
        Area { x: (area.x.0.saturating_sub(1), area.x.1 + 1), y: (area.y.0.saturating_sub(1), area.y.1 + 1) }
    }

    fn holds(self, split: Split, node: usize) -> bool {
        let (x, y) = split.xy(node);
        (self.x.0..=self.x.1).contains(&x) && (self.y.0..=self.y.1).contains(&y)
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

    /// Near a search's nodes, only the changed nodes next to one of them
    /// (or within the rectangle they span) are named; with nothing
    /// changed, the nodes are not even read.
    #[test]
    fn names_only_the_changes_near_a_search() {
        let mut g = Grid::filled(20, 10, Tile::Floor(1));
        let mut log = GridChanges::new();
        let mut out = Vec::new();
        assert!(log.since(&g, g.identity(), g.version(), &mut out));
        let v0 = g.version();
        g.set_tile(Cell::new(4, 4), Tile::Wall);
        g.set_tile(Cell::new(15, 4), Tile::Wall);
        let search = [Cell::new(1, 2), Cell::new(2, 3)].map(|c| g.node(c));
        assert!(log.since_near(&g, g.identity(), v0, search, &mut out));
        // The rectangle (1..=2, 2..=3) grown by one meets (4, 4)'s square
        // in column 3.
        let want: Vec<NodeId> = [Cell::new(3, 3), Cell::new(3, 4)].map(|c| g.node(c)).to_vec();
        assert_eq!(out, want, "the cells of (4, 4)'s square that touch the rectangle grown by one");
        out.clear();
        let unread = std::iter::from_fn(|| -> Option<NodeId> { panic!("nothing changed: the nodes are not read") });
        assert!(log.since_near(&g, g.identity(), g.version(), unread, &mut out));
        assert!(out.is_empty());
    }
}
