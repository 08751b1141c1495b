//! Errands: what the player keeps doing over many steps until it is done
//! or something stops it. A run (Shift and a move key, see
//! [`Run`](super::run::Run)), a travel to a chosen cell, and auto-explore to
//! the nearest cell the player has not seen.
//!
//! Travel and explore walk a [`Route`] planned inside the world, by the
//! same grid search, with the same settings, that the monsters plan with
//! (`GridPlanner`, the world's search settings): a weighted or greedy
//! search walks the player the way it walks them. Explore first finds its
//! target with a Dijkstra search from the player that stops at the first
//! cell the player has not seen ([`nearest_unseen`]): the nearest by
//! walking time, reached through cells the player has seen. Near a monster
//! the player remembers ([`Sightings`]) the walking time is surcharged, so
//! explore heads for a frontier away from it; while any monster is
//! remembered the route is that wary search's own path, which keeps away
//! too (the monsters' planner knows nothing of what the player remembers).
//!
//! Every errand stops when a monster comes into view (none starts with one
//! in view), when a door comes beside the player, at a catch and at any
//! command; runs and explore also stop when the goal comes into view.

use super::memory::Memory;
use super::run::Run;
use super::sightings::Sightings;
use crate::grid::{Cell, DIAGONAL, DIRECTIONS, Grid};
use crate::hash::{StateHash, StateHasher};
use crate::named::named_enum;
use crate::search::{SearchStats, astar};

named_enum! {
    /// Which errand, as the log and the panel name it.
    ErrandKind, "errand" {
        /// Shift and a move key.
        Run => "run",
        /// To a chosen cell.
        Travel => "travel",
        /// To the nearest cell not seen yet.
        Explore => "explore",
    }
}

/// An errand under way.
#[derive(Clone, Debug, PartialEq)]
pub struct Errand {
    pub task: Task,
    /// Whether the goal was in view after the last tick: an errand not
    /// going there stops when it comes into view.
    pub goal_in_view: bool,
}

/// What the errand does.
#[derive(Clone, Debug, PartialEq)]
pub enum Task {
    Run(Run),
    Travel(Route),
    Explore(Route),
}

impl Errand {
    /// Which errand it is.
    pub fn kind(&self) -> ErrandKind {
        match self.task {
            Task::Run(_) => ErrandKind::Run,
            Task::Travel(_) => ErrandKind::Travel,
            Task::Explore(_) => ErrandKind::Explore,
        }
    }

    /// The route it walks, for travel and explore.
    pub fn route(&self) -> Option<&Route> {
        match &self.task {
            Task::Run(_) => None,
            Task::Travel(r) | Task::Explore(r) => Some(r),
        }
    }
}

/// A planned way to a cell: the cells to walk, the next first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// Where it goes.
    pub to: Cell,
    /// The planned path, from the cell it was planned from to `to`.
    pub path: Vec<Cell>,
    /// The index in `path` of the next cell to step into.
    pub next: usize,
    /// The grid version it was planned on.
    pub version: u64,
}

impl Route {
    /// The step (dx, dy) into the route's next cell from `at`, if the route
    /// still holds: planned on the grid as it is, with the step legal.
    pub fn next_step(&self, grid: &Grid, at: Cell) -> Option<(i8, i8)> {
        let to = *self.path.get(self.next)?;
        let (dx, dy) = (to.x - at.x, to.y - at.y);
        let holds = self.version == grid.version() && dx.abs() <= 1 && dy.abs() <= 1 && grid.can_step(at, dx, dy);
        holds.then_some((dx as i8, dy as i8))
    }
}

/// The player's last search for an errand, for the panel: the player's own
/// searches are apart from the monsters' figures and budget.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSearch {
    /// The tick it ran at.
    pub tick: u64,
    /// The errand it planned for.
    pub errand: ErrandKind,
    /// The cell searched for.
    pub to: Cell,
    /// The planner that planned the route (the monsters', on the grid).
    pub planner: crate::search::Planner,
    /// Whether a route was found.
    pub found: bool,
    /// The route's steps (0 when none was found).
    pub steps: usize,
    /// The route search's expansions.
    pub expanded: u64,
    /// Explore: the expansions of the search for the nearest unseen cell.
    pub picked: Option<u64>,
}

/// The way from `from` to the nearest walkable cell (by walking time:
/// entry costs, diagonals √2, no corner cutting, plus `wary`'s surcharge
/// near the monsters the player remembers) that `memory` does not hold,
/// reached through cells it holds: the cells from `from` to it; `None` when
/// every cell within reach is seen. A Dijkstra search over the project's
/// engine, stopping at the first such cell it closes; its figures come
/// with it.
pub fn nearest_unseen(grid: &Grid, from: Cell, memory: &Memory, wary: &Sightings) -> (Option<Vec<Cell>>, SearchStats) {
    // Only seen cells are expanded: an unseen one is a goal, and the
    // search ends at the first goal it closes.
    let successors = |&c: &Cell| {
        DIRECTIONS.iter().filter_map(move |&(dx, dy)| {
            let to = Cell::new(c.x + dx, c.y + dy);
            let cost = grid.step_cost(c, dx, dy)?;
            // Nothing remembered: the costs are the grid's, exactly.
            Some(match wary.surcharge(to) {
                0.0 => (to, cost),
                extra if dx != 0 && dy != 0 => (to, cost + extra * DIAGONAL),
                extra => (to, cost + extra),
            })
        })
    };
    let found = astar(&from, successors, |_| 0.0, |&c| !memory.seen(c));
    (found.path.map(|(path, _)| path), found.stats)
}

impl StateHash for Errand {
    fn hash_into(&self, h: &mut StateHasher) {
        let Errand { task, goal_in_view } = self;
        match task {
            Task::Run(run) => {
                h.u8(0);
                h.add(run);
            }
            Task::Travel(route) => {
                h.u8(1);
                h.add(route);
            }
            Task::Explore(route) => {
                h.u8(2);
                h.add(route);
            }
        }
        h.add(goal_in_view);
    }
}

impl StateHash for Route {
    fn hash_into(&self, h: &mut StateHasher) {
        let Route { to, path, next, version } = self;
        h.add(to);
        h.add(path);
        h.add(next);
        h.add(version);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::sim::memory::hidden_cells;

    #[test]
    fn the_nearest_unseen_cell_is_nearest_by_walking_time_through_what_was_seen() {
        // Seen within 2 cells of the player: the unseen cells nearest in
        // steps are 3 steps away on either side, east through two cells of
        // water (cost 5 each), west over plain floor.
        let level = Level::parse("#############\n#.....@~~...#\n#############\n", "t").unwrap();
        let g = &level.grid;
        let hidden = hidden_cells(g);
        let mut memory = Memory::new(g);
        let at = level.player.unwrap();
        memory.look(g, at, 2, &hidden);
        assert!(memory.seen(Cell::new(8, 1)) && !memory.seen(Cell::new(9, 1)) && !memory.seen(Cell::new(3, 1)));
        let (path, stats) = nearest_unseen(g, at, &memory, &Sightings::default());
        assert_eq!(path.as_ref().and_then(|p| p.last()), Some(&Cell::new(3, 1)), "west, 3 against 11 in time");
        assert_eq!(path.unwrap().first(), Some(&at));
        assert!(stats.expanded > 0);
        // Everything seen: nothing left.
        for x in 1..12 {
            memory.look(g, Cell::new(x, 1), 2, &hidden);
        }
        assert_eq!(nearest_unseen(g, at, &memory, &Sightings::default()).0, None);
    }

    /// A monster the player remembers beside the nearest frontier: explore
    /// heads for the other one, farther, by a way that keeps clear of it;
    /// forgotten, the nearest again.
    #[test]
    fn a_remembered_monster_beside_the_nearest_frontier_sends_explore_to_the_other() {
        // Seen within 3 cells of the player at 10,1: unseen from 6,1 west
        // and 14,1 east, the west one nearer (4 against 8: the water at
        // 13,1 costs 5); a monster was last seen at 5,1, beside it.
        let level =
            Level::parse("#########################\n#.........@..~..........#\n#########################\n", "t")
                .unwrap();
        let g = &level.grid;
        let hidden = hidden_cells(g);
        let mut memory = Memory::new(g);
        let at = level.player.unwrap();
        memory.look(g, at, 3, &hidden);
        let target = |wary: &Sightings| nearest_unseen(g, at, &memory, wary).0.and_then(|p| p.last().copied());
        assert_eq!(target(&Sightings::default()), Some(Cell::new(6, 1)), "west: 4 steps against 3 + water");
        let mut wary = Sightings::default();
        wary.update(0, [(0, Cell::new(5, 1))].into_iter(), |_| true);
        assert_eq!(target(&wary), Some(Cell::new(14, 1)), "east, away from the monster");
        wary.update(crate::sim::SIGHTING_TICKS, [(0, Cell::new(2, 1))].into_iter(), |_| false);
        assert!(wary.is_empty());
        assert_eq!(target(&wary), Some(Cell::new(6, 1)), "forgotten: west again");
    }

    #[test]
    fn a_route_holds_while_its_next_step_is_legal_on_the_grid_it_was_planned_on() {
        let mut g = Level::parse("#####\n#...#\n#####\n", "t").unwrap().grid;
        let route = Route {
            to: Cell::new(3, 1),
            path: vec![Cell::new(1, 1), Cell::new(2, 1), Cell::new(3, 1)],
            next: 1,
            version: g.version(),
        };
        assert_eq!(route.next_step(&g, Cell::new(1, 1)), Some((1, 0)));
        let on = Route { next: 2, ..route.clone() };
        assert_eq!(on.next_step(&g, Cell::new(1, 1)), None, "not a step from there");
        g.set_tile(Cell::new(2, 1), crate::grid::Tile::Floor(3));
        assert_eq!(route.next_step(&g, Cell::new(1, 1)), None, "planned on another version");
    }
}
