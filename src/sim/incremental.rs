//! The `incremental` repath policy's memory: one Moving Target D* Lite
//! search ([`MtDStarLite`]) per hunting monster, repaired instead of
//! restarted when the monster, its target or the grid changed.
//!
//! A state lives while its monster hunts with one plan: it is dropped when
//! the monster forgets its plan (it caught the player, lost it, or heads
//! nowhere), when its start or goal is not walkable, and all states go when
//! another policy is chosen. A state built for other search settings (the
//! neighbours, the heuristic) or another cheapest entry cost (the
//! heuristic's scale) is searched afresh; so is one whose grid the shared
//! change log no longer covers. Each restart counts all it expands.
//!
//! The search ignores the algorithm, tie-break and weight settings (it is
//! its own algorithm); it uses the neighbours and the heuristic, except that
//! manhattan, which overestimates a diagonal, becomes octile under 8
//! neighbours (MT-D* Lite needs a consistent heuristic).
//!
//! States are state: they decide which of several shortest paths a monster
//! follows, so they depend only on the world (never on which monster is
//! watched) and a summary of each enters the world's hash.

use crate::grid::{Cell, Grid, Neighbors, supercover};
use crate::hash::{StateHash, StateHasher};
use crate::search::{GridChanges, GridGraph, Heuristic, MtDStarLite, NodeId, Outcome, PlanError, SearchSettings};

/// Every hunting monster's incremental search, by creature index.
#[derive(Debug, Default)]
pub struct Incremental {
    states: Vec<Option<Box<State>>>,
    /// Cells changed by grid version, shared by all states.
    changes: GridChanges,
    /// Scratch: the nodes a repair must look at again, and a path.
    changed: Vec<NodeId>,
    path: Vec<Cell>,
}

#[derive(Debug)]
struct State {
    search: MtDStarLite,
    /// The grid (identity, version) of the last repair.
    grid: (u64, u64),
    /// Neighbours, heuristic and its scale the search was keyed with.
    config: (Neighbors, Heuristic, u8),
    /// (monster's cell, goal) of the last repair.
    ends: (Cell, Cell),
    /// The path it found (empty if none).
    path: Vec<Cell>,
    /// The work of its last repair.
    last: u64,
}

impl Incremental {
    /// Whether monster `i` standing in `from` and heading for `to` needs a
    /// repair: it has no search, or it or its target left the path of the
    /// last repair. While both stand on that path, the monster before its
    /// target, the part between them is a shortest path (a part of one is),
    /// as a fresh search would find, and the monster follows it at no cost;
    /// the next repair takes in the moves since. (A changed grid is a
    /// repath reason of its own.)
    ///
    /// A monster following a string-pulled plan walks the straight `leg`
    /// between two cells of the path (the cell it left and the waypoint it
    /// heads for), crossing cells beside the path: on a cell of that leg it
    /// is on its plan, at the leg's end, as much as on the path itself.
    pub fn due(&self, i: usize, from: Cell, leg: Option<(Cell, Cell)>, to: Cell) -> bool {
        let Some(s) = self.state(i) else { return true };
        if s.ends == (from, to) {
            return false;
        }
        let on_path = |cell: Cell| s.path.iter().position(|&c| c == cell);
        let at = on_path(from).or_else(|| {
            let (a, b) = leg?;
            let b_at = on_path(b)?;
            (on_path(a).is_some_and(|a_at| a_at <= b_at) && supercover(a, b).any(|c| c == from)).then_some(b_at)
        });
        let Some(a) = at else { return true };
        !s.path[a..].contains(&to)
    }

    fn state(&self, i: usize) -> Option<&State> {
        self.states.get(i).and_then(|s| s.as_deref())
    }

    /// Drops monster `i`'s search: its next plan starts afresh.
    pub fn forget(&mut self, i: usize) {
        if let Some(s) = self.states.get_mut(i) {
            *s = None;
        }
    }

    /// Drops every search (another policy was chosen).
    pub fn clear(&mut self) {
        self.states.clear();
    }

    /// Repairs monster `i`'s search for a path from `from` to `to` on
    /// `grid`, or searches afresh; `record` keeps the cells it updates for
    /// [`Incremental::updated`]. The path is [`Incremental::path`].
    pub fn repair(
        &mut self,
        i: usize,
        grid: &Grid,
        from: Cell,
        to: Cell,
        settings: &SearchSettings,
        record: bool,
    ) -> Result<Outcome, PlanError> {
        self.path.clear();
        if let Err(e) = PlanError::check(grid, from, to) {
            self.forget(i);
            return Err(e);
        }
        let heuristic = match (settings.neighbors, settings.heuristic) {
            (Neighbors::Eight, Heuristic::Manhattan) => Heuristic::Octile,
            (_, h) => h,
        };
        let config = (settings.neighbors, heuristic, grid.min_entry_cost());
        if self.states.len() <= i {
            self.states.resize_with(i + 1, || None);
        }
        let state = self.states[i].get_or_insert_with(|| {
            Box::new(State {
                search: MtDStarLite::new(),
                grid: (0, 0),
                config,
                ends: (from, to),
                path: Vec::new(),
                last: 0,
            })
        });
        self.changed.clear();
        let (identity, version) = state.grid;
        // A repair that cost more than a search from scratch would have
        // (about the path's length: short hunts in a crowd, where A* finds
        // the path in a few expansions and the tree's deletions and
        // re-keyed entries outweigh them) saved nothing: when an end moves
        // again, the plan starts afresh, which also trims the tree back to
        // what one search grows. A repair for a changed grid alone keeps
        // the tree: it costs nothing where the change missed it.
        let worth = state.last < state.path.len() as u64 || state.ends == (from, to);
        let known = state.search.start().is_some()
            && state.config == config
            && worth
            && self.changes.since_near(grid, identity, version, state.search.nodes(), &mut self.changed);
        if !known {
            state.search.clear();
            self.changed.clear();
            // Brings the shared log to this version, for the next repair.
            self.changes.since(grid, grid.identity(), grid.version(), &mut self.changed);
            self.changed.clear();
        }
        state.grid = (grid.identity(), grid.version());
        state.config = config;
        state.ends = (from, to);
        state.search.record_updates(record);
        let graph = GridGraph::new(grid, settings.neighbors, heuristic, from, to);
        let outcome = state.search.repair(&graph, grid.node(from), grid.node(to), self.changed.iter().copied());
        state.last = outcome.stats.expanded + outcome.stats.cells_updated + outcome.stats.rekeyed;
        self.path.extend(state.search.path().iter().map(|&n| grid.cell_of(n)));
        state.path.clone_from(&self.path);
        Ok(outcome)
    }

    /// The path of the last repair, start and goal included (empty if none).
    pub fn path(&self) -> &[Cell] {
        &self.path
    }

    /// The cells monster `i`'s last repair expanded or updated, each once
    /// (none unless it was asked to record them).
    pub fn updated(&self, i: usize, grid: &Grid) -> Vec<Cell> {
        let Some(state) = self.state(i) else { return Vec::new() };
        let mut nodes = state.search.updated().to_vec();
        nodes.sort_unstable();
        nodes.dedup();
        nodes.into_iter().map(|n| grid.cell_of(n)).collect()
    }
}

impl StateHash for Incremental {
    fn hash_into(&self, h: &mut StateHasher) {
        let Incremental {
            states,
            // The grid's changes by version: what each state's repair reads
            // is told by the versions, which the states feed.
            changes: _,
            // Scratch of the last repair.
            changed: _,
            path: _,
        } = self;
        h.add(states);
    }
}

/// A search is summarised by its ends, its keys, the path it found and the
/// size of its memory: its records themselves are the search's own
/// ([`MtDStarLite`] keeps them private).
impl StateHash for State {
    fn hash_into(&self, h: &mut StateHasher) {
        let State {
            search,
            // Process-local grid identity (never a decision), and version.
            grid: (_, version),
            config,
            ends,
            path,
            last,
        } = self;
        h.add(&search.records());
        h.add(version);
        h.add(config);
        h.add(ends);
        h.add(path);
        h.add(last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    /// A repair is due only when the monster or its target leaves the last
    /// path, or the target gets behind the monster on it.
    #[test]
    fn due_only_off_the_path() {
        let grid = Grid::filled(12, 3, Tile::Floor(1));
        let mut inc = Incremental::default();
        let (from, to) = (Cell::new(0, 1), Cell::new(10, 1));
        let due = |inc: &Incremental, i, from, to| inc.due(i, from, None, to);
        assert!(due(&inc, 0, from, to), "no search yet");
        let o = inc.repair(0, &grid, from, to, &SearchSettings::default(), false).unwrap();
        assert!(o.found && o.stats.expanded > 0);
        let path = inc.path().to_vec();
        assert_eq!(path.len(), 11);
        assert!(!due(&inc, 0, from, to));
        assert!(!due(&inc, 0, path[3], to), "stepped along the path");
        assert!(!due(&inc, 0, path[3], path[7]), "the target came along it");
        assert!(due(&inc, 0, path[7], path[3]), "the target is behind");
        assert!(due(&inc, 0, Cell::new(1, 0), to), "pushed off the path");
        assert!(due(&inc, 0, from, Cell::new(11, 1)), "the target left the path");
        assert!(due(&inc, 1, from, to), "another monster");
        // A repair after steps along the path keeps most of the tree.
        let o = inc.repair(0, &grid, path[3], Cell::new(11, 2), &SearchSettings::default(), true).unwrap();
        assert!(o.cost.is_some_and(|c| (c - (7.0 + crate::grid::DIAGONAL)).abs() < 1e-9), "{o:?}");
        assert_eq!(inc.path().first(), Some(&path[3]));
        assert!(!inc.updated(0, &grid).is_empty());
        inc.forget(0);
        assert!(due(&inc, 0, path[3], Cell::new(11, 2)));
    }

    /// A monster walking the straight leg between two cells of its path,
    /// across cells beside it, is on its plan; beside the path anywhere
    /// else, or on a leg that runs backwards, it is not.
    #[test]
    fn the_leg_walked_is_on_the_plan() {
        let grid = Grid::filled(12, 5, Tile::Floor(1));
        let mut inc = Incremental::default();
        let (from, to) = (Cell::new(0, 0), Cell::new(10, 4));
        inc.repair(0, &grid, from, to, &SearchSettings::default(), false).unwrap();
        let path = inc.path().to_vec();
        let leg = (path[0], *path.last().unwrap());
        let beside = supercover(leg.0, leg.1).find(|c| !path.contains(c)).expect("the straight line leaves the path");
        assert!(inc.due(0, beside, None, to), "off the path without a leg");
        assert!(!inc.due(0, beside, Some(leg), to), "on the leg");
        assert!(inc.due(0, beside, Some((leg.1, leg.0)), to), "a leg backwards");
        let away = Cell::new(0, 4);
        assert!(!path.contains(&away) && inc.due(0, away, Some(leg), to), "off the leg");
    }
}
