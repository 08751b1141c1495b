//! Packs that split ([`Packs::Split`](super::Packs::Split)): two hunters of
//! one pack take two routes to the player when the second is not much
//! longer, and so come at it from two sides.
//!
//! **What a pack is.** Monsters that start hunting near one another: a
//! monster that notices the player joins the pack of the first hunting
//! monster (in creature order) within [`PACK_CELLS`] of it that has one,
//! and otherwise starts its own, named by its creature index. It stays in
//! that pack while it hunts and leaves it when it stops (it lost the
//! player, or caught it). Packs chain: a monster joining a pack brings no
//! one else in, but a later one may join through it. Whatever the setting,
//! packs form, so the panel can show them; only `split` acts on them.
//!
//! **Splitting.** A pack member planning on the grid plans with the cells
//! of its packmates' current paths made dearer: each step into one costs
//! [`PACK_PENALTY`] × the cheapest entry cost more (× √2 diagonally), so it
//! takes a route that shares fewer of their cells when that costs less
//! than the penalty over the cells it would share. The heuristic stays
//! admissible (penalties only add cost), so the route is the cheapest under
//! those costs; the search is the settings' own ordering (A*, Dijkstra,
//! greedy, weighted, BFS) over a [`Graph`] that adds the penalties to the
//! grid's moves; the jump point searches and HPA*, which need the grid's
//! own costs, run their ordering on the grid (the panel says what ran). Monsters planning with
//! their own incremental search, the shared flow field or an any-angle
//! planner do not split (their plans are their structures').

use super::creature::Creature;
use super::mind::MonsterState;
use super::monsters::Monsters;
use super::surcharge::Surcharged;
use crate::grid::{Cell, Grid};
use crate::search::{
    Expansion, GridGraph, NodeId, Outcome, PlanError, Planner, Query, SearchSettings, Searcher, Visit,
};

/// Cells within which a monster that notices the player joins a hunting
/// monster's pack.
pub const PACK_CELLS: f32 = 8.0;
/// The extra cost of a step into a cell a packmate's path uses, in entries
/// of the cheapest cell: a detour of up to this many cells per shared
/// cell is worth taking.
pub const PACK_PENALTY: f64 = 1.0;

/// Puts every hunting monster without a pack into one (see the module's
/// *What a pack is*), in creature order.
pub fn form(creatures: &mut [Creature], monsters: &Monsters) {
    for i in monsters.indices() {
        let Some(hunt) = creatures[i].hunt.as_ref() else { continue };
        if hunt.mind.state != MonsterState::Hunting || hunt.mind.pack.is_some() {
            continue;
        }
        let pos = creatures[i].body.pos;
        let joined = monsters.iter(creatures).find_map(|(_, c)| {
            let h = c.hunt.as_ref().filter(|h| h.mind.state == MonsterState::Hunting)?;
            h.mind.pack.filter(|_| c.body.pos.distance(pos) <= PACK_CELLS)
        });
        if let Some(h) = creatures[i].hunt.as_mut() {
            h.mind.pack = Some(joined.unwrap_or(i as u32));
        }
    }
}

/// A planner for pack members: the cells to keep clear of, and the engine.
#[derive(Debug, Default)]
pub struct PackPlanner {
    /// Per node: the stamp of the plan that marked it a packmate's cell.
    marks: Vec<u32>,
    stamp: u32,
    /// Whether any cell is marked for the coming plan.
    any: bool,
    searcher: Searcher,
    cells: Vec<Cell>,
}

impl PackPlanner {
    /// Forgets the marks of the last plan: the next marks are a new set.
    pub fn begin(&mut self, grid: &Grid) {
        if self.marks.len() < grid.node_count() {
            self.marks.resize(grid.node_count(), 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.any = false;
    }

    /// Marks the cells of a packmate's path.
    pub fn mark(&mut self, grid: &Grid, path: &[Cell]) {
        for &c in path {
            if grid.in_bounds(c) {
                self.marks[grid.node(c) as usize] = self.stamp;
                self.any = true;
            }
        }
    }

    /// Marks, for monster `i` about to plan, the paths of its packmates:
    /// the other hunting monsters of its pack.
    pub fn mark_packmates(&mut self, grid: &Grid, creatures: &[Creature], monsters: &Monsters, i: usize) {
        self.begin(grid);
        let Some(pack) = creatures[i].hunt.as_ref().and_then(|h| h.mind.pack) else { return };
        for (j, c) in monsters.iter(creatures) {
            if let Some(h) = c.hunt.as_ref().filter(|h| j != i && h.mind.pack == Some(pack)) {
                self.mark(grid, &h.path);
            }
        }
    }

    /// Whether the coming plan has packmates' cells to keep clear of.
    pub fn splits(&self) -> bool {
        self.any
    }

    /// Plans from `from` to `to` on `grid` with `settings`, the marked
    /// cells made dearer. The path, when found, is [`PackPlanner::path`].
    pub fn plan(&mut self, grid: &Grid, from: Cell, to: Cell, settings: &SearchSettings) -> Result<Outcome, PlanError> {
        self.cells.clear();
        PlanError::check(grid, from, to)?;
        let (marks, stamp) = (&self.marks, self.stamp);
        let penalty = PACK_PENALTY * f64::from(grid.min_entry_cost());
        let graph = Surcharged {
            moves: GridGraph::new(grid, settings.neighbors, settings.heuristic, from, to),
            stride: grid.stride(),
            surcharge: |n: NodeId| if marks[n as usize] == stamp { penalty } else { 0.0 },
        };
        // The jump point searches and HPA* need the grid's own costs: their
        // ordering runs on the surcharged grid.
        let query = Query {
            order: settings.planner.order(),
            tie: settings.tie,
            weight: settings.weight,
            reopen: settings.reopen,
            open: settings.open,
        };
        let outcome = self.searcher.search(&graph, grid.node(from), grid.node(to), &query);
        self.cells.extend(self.searcher.path().iter().map(|&n| grid.cell_of(n)));
        Ok(outcome)
    }

    /// What a plan asked of `asked` runs: its ordering on the grid (the
    /// jump point searches and HPA* cannot add the penalties).
    pub fn ran(&self, asked: Planner) -> Planner {
        if asked.expansion() == Expansion::Grid { asked } else { Planner::grid(asked.order()) }
    }

    /// The last plan's path, start and goal included (empty if none).
    pub fn path(&self) -> &[Cell] {
        &self.cells
    }

    /// Cells the last plan generated on `grid`, closed or still open.
    pub fn visited<'a>(&'a self, grid: &'a Grid) -> impl Iterator<Item = (Cell, Visit)> + 'a {
        self.searcher.visited().into_iter().map(|(n, v)| (grid.cell_of(n), v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::search::GridPlanner;

    /// Two ways from the west room to the east one: the short corridor
    /// along row 1 and a longer one round through row 5.
    const TWO_WAYS: &str = "\
###############
#.............#
#.###########.#
#.###########.#
#.###########.#
#.............#
###############
";

    #[test]
    fn a_second_hunter_takes_the_other_way_when_it_is_not_much_longer() {
        let g = Level::parse(&format!("name: t\n{TWO_WAYS}"), "t.txt").unwrap().grid;
        let (from, to) = (Cell::new(1, 2), Cell::new(13, 2));
        let settings = SearchSettings::default();
        let mut first = GridPlanner::new();
        first.plan(&g, from, to, &settings).unwrap();
        assert!(first.path().iter().any(|c| c.y == 1), "the first goes along row 1");
        let mut pack = PackPlanner::default();
        pack.begin(&g);
        assert!(!pack.splits());
        // With no packmate's path it plans as the grid planner does.
        let alone = pack.plan(&g, from, to, &settings).unwrap();
        assert_eq!(pack.path(), first.path());
        pack.begin(&g);
        pack.mark(&g, first.path());
        assert!(pack.splits());
        let split = pack.plan(&g, from, to, &settings).unwrap();
        assert!(split.found);
        assert!(pack.path().iter().any(|c| c.y == 5), "the second goes round by row 5: {:?}", pack.path());
        assert_eq!(pack.ran(settings.planner), settings.planner);
        assert!(split.cost > alone.cost);
        // A new set of marks forgets the old ones.
        pack.begin(&g);
        pack.plan(&g, from, to, &settings).unwrap();
        assert_eq!(pack.path(), first.path());
        // JPS cannot run with penalties: A* on the grid does, and says so.
        let jps = SearchSettings { planner: Planner::JPS, ..settings };
        pack.mark(&g, first.path());
        assert!(pack.plan(&g, from, to, &jps).unwrap().found);
        assert_eq!(pack.ran(jps.planner), Planner::ASTAR);
    }

    #[test]
    fn a_much_longer_way_is_not_worth_the_split() {
        // Between the ends of row 1 the way round is 18 cells longer than
        // the 12 it would not share: at a penalty of 1 a cell, not taken.
        let wall = "#.###########.#\n".repeat(8);
        let deep = format!("###############\n#.............#\n{wall}#.............#\n###############\n");
        let g = Level::parse(&format!("name: t\n{deep}"), "t.txt").unwrap().grid;
        let (from, to) = (Cell::new(1, 1), Cell::new(13, 1));
        let mut first = GridPlanner::new();
        first.plan(&g, from, to, &SearchSettings::default()).unwrap();
        let mut pack = PackPlanner::default();
        pack.begin(&g);
        pack.mark(&g, first.path());
        pack.plan(&g, from, to, &SearchSettings::default()).unwrap();
        assert_eq!(pack.path(), first.path());
    }
}
