//! Throttled repathing: which monsters ask for a new path, and which get
//! one this tick.
//!
//! Requests wait in one first-come queue and are served while the tick's
//! budget of node expansions lasts. A search that starts always finishes
//! (a half-finished path is useless), so a tick can overspend; the debt is
//! paid from the next tick's budget. A waiting monster keeps following its
//! old path, up to the first door that closed across it (see
//! [`Hunt::cut_at_closed_doors`]).

use super::creature::{Creature, Hunt};
use super::flow::Flow;
use super::foresight::Foresight;
use super::incremental::Incremental;
use super::monsters::Monsters;
use super::pack::PackPlanner;
use super::settings::{RepathPolicy, Settings};
use super::species::BODY_RADIUS;
use super::stats::{RepathReason, SearchReport, Stats};
use super::tactics::Packs;
use crate::grid::{Cell, Grid};
use crate::hash::{StateHash, StateHasher};
use crate::nav::{Ends, Navigator};
use crate::search::{Fallback, Visit};
use crate::steer::{Vec2, cell_at, cell_center};
use std::collections::VecDeque;

/// The world's repath machinery: the queue and the budget are state (they
/// decide future plans); the navigator and buffers are scratch.
#[derive(Debug)]
pub struct Hunter {
    /// Monsters waiting for a plan, oldest request first.
    pub(super) queue: VecDeque<u32>,
    /// Expansions left for this tick; negative after an overspend.
    pub(super) allowance: i64,
    /// Every planner, with the structures it keeps (jump tables, the
    /// navigation mesh, the corner graph), for the monsters' radius.
    navigator: Navigator,
    /// The monsters' searches under the `incremental` policy.
    pub(super) incremental: Incremental,
    smoothed: Vec<Cell>,
    /// The shared field of the `flow-field` policy.
    pub(super) flow: Flow,
    /// Searches that keep clear of packmates' paths (`sim::pack`).
    pack: PackPlanner,
}

impl Default for Hunter {
    fn default() -> Self {
        Hunter {
            queue: VecDeque::new(),
            allowance: 0,
            navigator: Navigator::new(f64::from(BODY_RADIUS)),
            incremental: Incremental::default(),
            smoothed: Vec::new(),
            flow: Flow::default(),
            pack: PackPlanner::default(),
        }
    }
}

impl StateHash for Hunter {
    fn hash_into(&self, h: &mut StateHasher) {
        let Hunter {
            queue,
            allowance,
            // Every planner's engine, buffers and structures derived from
            // the grid (jump tables, the mesh, the corner graph), reset by
            // every search or rebuilt when the grid changes: a cache.
            navigator: _,
            incremental,
            smoothed: _,
            flow,
            // An engine and the marks of one plan, reset by every search.
            pack: _,
        } = self;
        h.add(queue);
        h.add(allowance);
        h.add(incremental);
        h.add(flow);
    }
}

/// What a tick's planning needs to see of the world.
pub struct Scene<'a> {
    pub grid: &'a Grid,
    pub settings: &'a Settings,
    pub tick: u64,
    /// The player's cell.
    pub player: Cell,
    /// The monster whose searches are recorded cell by cell.
    pub watched: Option<usize>,
    /// The hunters' map of aims (`sim::foresight`), which the `flow-field`
    /// policy has aiming hunters descend.
    pub aims: &'a Foresight,
}

impl Hunter {
    /// Queues the requests this tick calls for, for every monster heading
    /// somewhere (its [`target`](super::mind::Mind::target)); a monster
    /// heading nowhere forgets its plan.
    pub fn request(&mut self, creatures: &mut [Creature], monsters: &Monsters, scene: &Scene) {
        let mut dropped = false;
        let incremental = scene.settings.repath == RepathPolicy::Incremental;
        if !incremental {
            self.incremental.clear();
        }
        for (i, c) in monsters.iter_mut(creatures) {
            let Some(hunt) = c.hunt.as_mut() else { continue };
            if hunt.goal.is_none() {
                // A forgotten plan (caught, lost the player): its search goes too.
                self.incremental.forget(i);
            }
            let Some(target) = hunt.mind.target(c.body.pos, cell_at(c.home)) else {
                dropped |= hunt.request.is_some();
                hunt.forget();
                continue;
            };
            hunt.track_progress(c.body.pos, scene.tick);
            // A hunter a shared field serves asks for no search.
            let served = self.flow.serves(&hunt.mind, target, c.body.pos, scene).is_some();
            if !served && hunt.request.is_none() {
                let due = incremental && self.incremental.due(i, cell_at(c.body.pos), hunt.leg(), target);
                if let Some(reason) = reason(hunt, i, target, scene, due) {
                    hunt.request = Some((scene.tick, reason));
                    self.queue.push_back(i as u32);
                }
            }
            // Whether it waits for a search or for the field, a plan older
            // than the grid is followed only up to a door that closed since.
            if hunt.version != scene.grid.version() {
                hunt.cut_at_closed_doors(scene.grid, cell_at(c.body.pos));
            }
        }
        if dropped {
            self.drop_forgotten(creatures);
        }
    }

    /// Takes out of the queue the monsters that no longer ask for a plan
    /// (they lost the player, or caught it): one pass, order kept.
    pub fn drop_forgotten(&mut self, creatures: &[Creature]) {
        self.queue.retain(|&j| creatures[j as usize].hunt.as_ref().is_some_and(|h| h.request.is_some()));
    }

    /// Serves queued requests while the budget lasts.
    pub fn serve(&mut self, creatures: &mut [Creature], monsters: &Monsters, scene: &Scene, stats: &mut Stats) {
        let budget = i64::from(scene.settings.budget.max(1));
        self.allowance = (self.allowance + budget).min(budget);
        self.allowance -= self.flow.update(creatures, monsters, scene, self.allowance, stats) as i64;
        // A pack member's fresh grid search keeps clear of its packmates'
        // paths; an incremental repair or an any-angle query takes no
        // marks, so none are made for them (marking walks every monster
        // and its packmates' paths for each plan: at 500 monsters on the
        // gates under `incremental`, 14 % of the run's instructions for
        // marks never read, 3,065 M against 2,637 M over 600 ticks).
        let settings = &scene.settings;
        let marks = settings.packs == Packs::Split
            && settings.repath != RepathPolicy::Incremental
            && !settings.planner().expansion().any_angle();
        while self.allowance > 0 {
            let Some(i) = self.queue.pop_front() else { break };
            let i = i as usize;
            self.pack.begin(scene.grid);
            if marks {
                self.pack.mark_packmates(scene.grid, creatures, monsters, i);
            }
            let c = &mut creatures[i];
            let (from, home, pos) = (c.cell(), cell_at(c.home), c.body.pos);
            let Some(hunt) = c.hunt.as_mut() else { continue };
            let Some((since, reason)) = hunt.request.take() else { continue };
            let Some(to) = hunt.mind.target(c.body.pos, home) else { continue };
            stats.record_wait(scene.tick - since);
            let work = self.plan(hunt, pos, from, to, i, reason, scene, stats);
            self.allowance -= work.max(1) as i64;
        }
    }

    /// Plans a path for monster `i` at `pos`, in cell `from`, to `to`: a
    /// fresh search, under `incremental` a repair of its own, or with an
    /// any-angle planner a query on its structure; returns the work it cost
    /// (expansions, cells updated and entries re-keyed). A jump point
    /// search that cannot run on the level (4 neighbours, weighted cells)
    /// runs its ordering on the grid instead, and the report says so.
    #[allow(clippy::too_many_arguments)]
    fn plan(
        &mut self,
        hunt: &mut Hunt,
        pos: Vec2,
        from: Cell,
        to: Cell,
        i: usize,
        reason: RepathReason,
        scene: &Scene,
        stats: &mut Stats,
    ) -> u64 {
        let grid = scene.grid;
        hunt.restart(to, grid.version(), scene.settings.plan_key(), scene.tick);
        if scene.settings.planner().expansion().any_angle() {
            return super::any_angle::plan(&mut self.navigator, scene, hunt, pos, to, i, reason, stats);
        }
        let incremental = scene.settings.repath == RepathPolicy::Incremental;
        // Marks were made only for a fresh grid search (`serve`).
        let split = self.pack.splits();
        let outcome = if incremental {
            self.incremental.repair(i, grid, from, to, &scene.settings.search, scene.watched == Some(i))
        } else if split {
            self.pack.plan(grid, from, to, &scene.settings.search)
        } else {
            let ends = Ends::cells(from, to);
            self.navigator.plan_observed(grid, ends, &scene.settings.search, Fallback::Grid, &mut ())
        };
        let Ok(outcome) = outcome else {
            // The monster stands where no plan can start (pushed into a
            // door as it closed): it waits for its next turn.
            return 0;
        };
        let path = match (incremental, split) {
            (true, _) => self.incremental.path(),
            (false, true) => self.pack.path(),
            (false, false) => self.navigator.path(),
        };
        let asked = scene.settings.planner();
        let ran = if split { self.pack.ran(asked) } else { self.navigator.ran() };
        let fallback = (!incremental && ran != asked).then_some(ran);
        hunt.follow_cells(grid, path, scene.settings.smoothing, &mut self.smoothed);
        let mut report = SearchReport {
            creature: i,
            tick: scene.tick,
            reason: Some(reason),
            found: outcome.found,
            stats: outcome.stats,
            steps: path.len().saturating_sub(1),
            waypoints: self.smoothed.len(),
            fallback,
            ..SearchReport::default()
        };
        stats.record_search(&report);
        stats.last_search = Some(report.clone());
        if scene.watched == Some(i) && incremental {
            report.updated = self.incremental.updated(i, grid);
            stats.watched_search = Some(report);
        } else if scene.watched == Some(i) {
            let visited: Vec<(Cell, Visit)> =
                if split { self.pack.visited(grid).collect() } else { self.navigator.visited(grid).collect() };
            for (cell, visit) in visited {
                match visit {
                    Visit::Closed => report.closed.push(cell),
                    Visit::Open => report.open.push(cell),
                }
            }
            stats.watched_search = Some(report);
        }
        outcome.stats.expanded + outcome.stats.cells_updated + outcome.stats.rekeyed
    }
}

/// Why monster `i`, heading for `target`, should plan now, if it should;
/// `due`: under `incremental`, it or its target changed cell since its
/// last repair.
fn reason(hunt: &Hunt, i: usize, target: Cell, scene: &Scene, due: bool) -> Option<RepathReason> {
    let Some(goal) = hunt.goal else { return Some(RepathReason::Start) };
    if hunt.version != scene.grid.version() {
        let blocked = hunt.path.iter().any(|&c| !scene.grid.is_walkable(c));
        return Some(if blocked { RepathReason::Blocked } else { RepathReason::Version });
    }
    let s = scene.settings;
    if hunt.planned_with != Some(s.plan_key()) {
        return Some(RepathReason::Settings);
    }
    if hunt.is_stuck(scene.tick) {
        return Some(RepathReason::Stuck);
    }
    let period = u64::from(s.repath_ticks.max(1));
    // Staggered: monster i's timer comes round on its own tick of the period.
    let slot = (scene.tick + i as u64).is_multiple_of(period);
    // The target moved K cells from the plan's goal, or the monster stands
    // at the goal while the target is elsewhere: a plan that ended short
    // of the target (an aim that moved, a player two cells on) would
    // otherwise hold it there for good.
    let moved = cell_center(goal).distance(cell_center(target)) > s.repath_cells || (goal != target && hunt.arrived());
    match s.repath {
        RepathPolicy::EveryTick => Some(RepathReason::EveryTick),
        RepathPolicy::Timer => slot.then_some(RepathReason::Timer),
        RepathPolicy::Threshold => moved.then_some(RepathReason::Threshold),
        RepathPolicy::TimerThreshold => (slot && moved).then_some(RepathReason::Threshold),
        RepathPolicy::Incremental => due.then_some(RepathReason::Moved),
        RepathPolicy::FlowField => moved.then_some(RepathReason::Threshold),
    }
}
