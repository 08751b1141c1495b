//! Data derived from a grid (walkability bits, jump tables), built once and
//! repaired where cells changed.

use crate::grid::Grid;
use std::time::Instant;

/// Something computed from a grid that can be brought up to date when
/// some cells change.
pub(crate) trait Derived {
    /// What else the data depends on (`()` for most).
    type Config: Copy + PartialEq + std::fmt::Debug;
    fn build(grid: &Grid, config: Self::Config) -> Self;
    /// Brings `self`, built from an earlier version of `grid`, up to date;
    /// `changed` holds the padded indices of the cells whose entry cost
    /// changed since.
    fn repair(&mut self, grid: &Grid, changed: &[usize]);
}

/// One grid's derived data, keyed by the grid's identity and version: a
/// query on the same grid reuses it, a query after cells changed repairs
/// it, a query on another grid rebuilds it.
#[derive(Debug)]
pub(crate) struct GridCache<T: Derived> {
    /// (identity, version) of the grid `data` describes, and its config.
    key: Option<(u64, u64)>,
    config: Option<T::Config>,
    /// That grid's entry costs, to find what changed.
    costs: Vec<u8>,
    data: Option<T>,
    changed: Vec<usize>,
    /// Microseconds of the last build or repair (statistics only).
    micros: f64,
}

impl<T: Derived> Default for GridCache<T> {
    fn default() -> Self {
        GridCache { key: None, config: None, costs: Vec::new(), data: None, changed: Vec::new(), micros: 0.0 }
    }
}

impl<T: Derived> GridCache<T> {
    /// The data for `grid` as it is now, built with `config`.
    pub(crate) fn get(&mut self, grid: &Grid, config: T::Config) -> &T {
        let key = (grid.identity(), grid.version());
        if self.config != Some(config) {
            self.data = None;
            self.key = None;
            self.config = Some(config);
        }
        if self.key != Some(key) {
            let began = Instant::now();
            let costs = grid.costs();
            match &mut self.data {
                Some(data) if self.key.map(|k| k.0) == Some(key.0) && self.costs.len() == costs.len() => {
                    self.changed.clear();
                    diff(&self.costs, costs, &mut self.changed);
                    data.repair(grid, &self.changed);
                }
                _ => self.data = Some(T::build(grid, config)),
            }
            self.costs.clear();
            self.costs.extend_from_slice(costs);
            self.key = Some(key);
            self.micros = began.elapsed().as_secs_f64() * 1e6;
        }
        self.data.as_ref().expect("built above")
    }

    /// The data as last built or repaired, without bringing it up to date.
    pub(crate) fn cached(&self) -> Option<&T> {
        self.data.as_ref()
    }

    /// Microseconds the last build or repair took.
    pub(crate) fn micros(&self) -> f64 {
        self.micros
    }
}

/// Pushes the indices where `old` and `new` (of one length) differ,
/// comparing 32 bytes at a time.
pub(crate) fn diff(old: &[u8], new: &[u8], out: &mut Vec<usize>) {
    const CHUNK: usize = 32;
    for (c, (a, b)) in old.chunks(CHUNK).zip(new.chunks(CHUNK)).enumerate() {
        if a != b {
            out.extend(a.iter().zip(b).enumerate().filter(|(_, (x, y))| x != y).map(|(i, _)| c * CHUNK + i));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Tile};

    /// Counts builds and remembers the last repair.
    struct Probe {
        builds: usize,
        repaired: Vec<usize>,
    }

    impl Derived for Probe {
        type Config = u8;
        fn build(_: &Grid, _: u8) -> Self {
            Probe { builds: 1, repaired: Vec::new() }
        }
        fn repair(&mut self, _: &Grid, changed: &[usize]) {
            self.repaired = changed.to_vec();
        }
    }

    #[test]
    fn builds_once_repairs_changes_and_rebuilds_for_another_grid() {
        let mut g = Grid::filled(40, 3, Tile::Floor(1));
        let mut cache = GridCache::<Probe>::default();
        assert_eq!(cache.get(&g, 0).builds, 1);
        g.set_tile(Cell::new(35, 1), Tile::Wall);
        g.set_tile(Cell::new(2, 0), Tile::Wall);
        let p = cache.get(&g, 0);
        assert_eq!(
            (p.builds, p.repaired.clone()),
            (1, vec![g.node(Cell::new(2, 0)) as usize, g.node(Cell::new(35, 1)) as usize])
        );
        // A clone is another grid: built afresh.
        let other = g.clone();
        let p = cache.get(&other, 0);
        assert!(p.repaired.is_empty());
        // Another config is built afresh too.
        g.set_tile(Cell::new(1, 1), Tile::Wall);
        assert!(cache.get(&g, 1).repaired.is_empty());
    }
}
