//! The `flow-field` repath policy: one reverse Dijkstra map from the
//! player's cell ([`GridFlow`]), shared by every hunting monster.
//!
//! The field is brought up to date once a tick, before the queue of
//! searches is served, out of the same allowance of expansions: a door
//! change is repaired at once (`cells_updated`), a player's move starts a
//! fresh computation (`expanded`; see [`crate::search::FlowField`] for why
//! not a repair) that, when the allowance runs out, goes on next tick while
//! monsters keep descending the last complete field. So the policy costs
//! per player move and per door change, not per monster: each hunting
//! monster only reads [`LOOKAHEAD`] cells down the slope from where it
//! stands and string-pulls them into waypoints, when the field changed or
//! it nears the end of the ones it has.
//!
//! **Aims.** A hunter that aims ahead of the player (`sim::foresight`)
//! descends the hunters' map of aims instead, the other shared field:
//! that map's descent from its cell ends at its aim by construction, so
//! it goes there without a search. The map's work is counted where it is
//! made (`sim::world::tactics`); reading it, like reading this field, is
//! not a search.
//!
//! Monsters the fields cannot serve plan with A* through the queue as under
//! the other policies, counted as usual: those heading somewhere other
//! than the player's cell or an aim of this tick's map (searching where
//! they lost it, returning home), which replan when their target moves
//! more than K cells (as under `threshold`) or their path breaks; and
//! hunters standing outside the field, or hunting before the first field
//! is complete.
//!
//! The field decides moves, so it is state: deterministic (a function of
//! the grid, the player's moves and the allowances), and hashed.

use super::creature::{Creature, Hunt};
use super::hunt::Scene;
use super::mind::{Mind, MonsterState};
use super::monsters::Monsters;
use super::settings::{RepathPolicy, Settings};
use super::stats::{SearchReport, Stats};
use crate::grid::{Cell, Grid};
use crate::hash::{StateHash, StateHasher};
use crate::search::{Derived, FieldKey, GridCache, GridFlow};
use crate::steer::{Vec2, cell_at};

/// Cells of descent a monster reads at a time, before string-pulling.
pub const LOOKAHEAD: usize = 8;
/// A monster reads the field again when it comes this close (cells) to
/// the last waypoint it read (unless that is the root), so that it never
/// slows down for the end of a stretch.
const REREAD_CELLS: f32 = 3.0;
/// The field's bound, in route cost per cheapest entry cost: 1.25 × the
/// detection radius, plus a margin of 8. A monster hunts the player it
/// sees within the alarm's range (1.1 × the radius + 1, 45 cells by
/// default) or hears within [`super::HEARING_CELLS`] steps, so it stands
/// inside the field (58 by default) unless walls or costly cells make its
/// route much dearer than the straight line; then it plans with A*. With
/// 500 monsters over 2,000 ticks on `levels/big.txt` the bound of 2 × the
/// radius + 8 did 733 expansions a tick and this one 430, for the same 29
/// catches; on the dungeon 194 and 163, for 30 catches each.
const REACH: f64 = 1.25;
const MARGIN: f64 = 8.0;

/// The shared field and the buffers monsters read it with; empty under
/// the other policies.
#[derive(Debug, Default)]
pub struct Flow {
    field: GridFlow,
    active: bool,
    /// The cells of the hunters heading for the player this tick.
    hunters: Vec<Cell>,
    /// Which cells reach which (a cache of the grid).
    regions: GridCache<Regions>,
    cells: Vec<Cell>,
    nodes: Vec<u32>,
    smoothed: Vec<Cell>,
}

/// Which shared field a monster descends instead of asking for a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Serving {
    /// The field of distances to the player's cell.
    Player,
    /// The hunters' map of aims, toward the aim it gave this tick.
    Aim,
}

impl Flow {
    /// Which field the monster of `mind` at `pos`, heading for `target`,
    /// descends this tick rather than asking for a search, if one: the
    /// policy is on, and the target is the player's cell in a field that
    /// holds its cell, or the aim the map of aims gave it this tick (a
    /// hunter that perceives the player: `sim::world::tactics` set its aim
    /// from the map, the descent's end).
    pub fn serves(&self, mind: &Mind, target: Cell, pos: Vec2, scene: &Scene) -> Option<Serving> {
        if !self.active {
            return None;
        }
        if target == scene.player {
            return self.field.distance(scene.grid, cell_at(pos)).is_some().then_some(Serving::Player);
        }
        let aimed = mind.state == MonsterState::Hunting && mind.last_perceived == scene.tick;
        (aimed && mind.aim == Some(target)).then_some(Serving::Aim)
    }

    /// Brings the field up to date (dropping it under another policy) and
    /// lets every monster it serves read it; returns the work spent, to be
    /// taken from the tick's `allowance` (which a computation keeps within;
    /// a repair may overspend, as a search does).
    pub fn update(
        &mut self,
        creatures: &mut [Creature],
        monsters: &Monsters,
        scene: &Scene,
        allowance: i64,
        stats: &mut Stats,
    ) -> u64 {
        if scene.settings.repath != RepathPolicy::FlowField {
            if self.active {
                *self = Flow::default();
            }
            return 0;
        }
        self.active = true;
        let (grid, s) = (scene.grid, scene.settings);
        let limit = limit(s, grid);
        // The hunters heading for the player's cell: the field is for them,
        // and only as far as they stand. Those no route within the bound
        // can reach (a cell farther than it at the cheapest cost per step)
        // plan with A* and do not hold the field open.
        self.hunters.clear();
        let cheapest = f64::from(grid.min_entry_cost());
        let regions = self.regions.get(grid, ());
        let region = regions.of(grid, scene.player);
        for (_, c) in monsters.iter(creatures) {
            let Some(hunt) = c.hunt.as_ref() else { continue };
            let cell = cell_at(c.body.pos);
            let steps = (cell.x - scene.player.x).abs().max((cell.y - scene.player.y).abs());
            // Shut out by closed doors, or too far at the cheapest cost per
            // step: the field cannot hold it, so it does not wait for it.
            if hunt.mind.target(c.body.pos, cell_at(c.home)) == Some(scene.player)
                && f64::from(steps) * cheapest <= limit
                && region.is_some()
                && regions.of(grid, cell) == region
            {
                self.hunters.push(cell);
            }
        }
        // Nobody to serve: no work, and the field waits as it is (a door
        // changed since is repaired when a hunter needs it again).
        let mut work = 0;
        let hunters = !self.hunters.is_empty();
        if hunters {
            let allowance = allowance.max(0) as u64;
            let done =
                self.field.update_covering(grid, scene.player, s.search.neighbors, limit, allowance, &self.hunters);
            work = done.expanded + done.cells_updated;
            if work > 0 {
                // A search in the counters (its work, its time), but no path:
                // `found` and the path means count the paths monsters follow.
                let report = SearchReport { tick: scene.tick, found: false, stats: done, ..SearchReport::default() };
                stats.record_search(&report);
            }
        }
        for (_, c) in monsters.iter_mut(creatures) {
            let (pos, home) = (c.body.pos, cell_at(c.home));
            let Some(hunt) = c.hunt.as_mut() else { continue };
            let Some(target) = hunt.mind.target(pos, home) else { continue };
            // The test `request` made, on the field as it is now: a monster
            // it let through asked for a search, which this takes back.
            match self.serves(&hunt.mind, target, pos, scene) {
                Some(Serving::Player) if hunters => {
                    self.read(hunt, pos, scene);
                    // A field still being computed afresh is of an older
                    // grid: its descent is followed only up to a door that
                    // closed since, as a stale path is while its request
                    // waits.
                    if hunt.version != grid.version() {
                        hunt.cut_at_closed_doors(grid, cell_at(pos));
                    }
                }
                Some(Serving::Aim) => self.read_aim(hunt, target, pos, scene),
                _ => {}
            }
        }
        work
    }

    /// Gives `hunt`, aiming at `aim`, the next stretch of the map of aims'
    /// descent from `pos`, unless the one it follows leads to this aim on
    /// this grid and has some way to go. Any route it follows to the aim
    /// is a shortest one (a search's, or an earlier map's descent), so a
    /// new map with the same aim is no reason to read again.
    fn read_aim(&mut self, hunt: &mut Hunt, aim: Cell, pos: Vec2, scene: &Scene) {
        let (grid, s) = (scene.grid, scene.settings);
        let last = hunt.follower.waypoints.last().copied();
        let ending = last.is_some_and(|w| w.distance(pos) < REREAD_CELLS && cell_at(w) != aim);
        let current =
            hunt.goal == Some(aim) && hunt.version == grid.version() && hunt.planned_with == Some(s.plan_key());
        hunt.request = None;
        if current && last.is_some() && !ending && !hunt.is_stuck(scene.tick) {
            return;
        }
        scene.aims.descent(grid, cell_at(pos), LOOKAHEAD, &mut self.nodes, &mut self.cells);
        hunt.restart(aim, grid.version(), s.plan_key(), scene.tick);
        hunt.follow_cells(grid, &self.cells, s.smoothing, &mut self.smoothed);
    }

    /// Gives `hunt` the next stretch of the field's descent from `pos`,
    /// unless the one it follows is of this field and has some way to go.
    fn read(&mut self, hunt: &mut Hunt, pos: Vec2, scene: &Scene) {
        let Some(key) = self.field.key() else { return };
        let s = scene.settings;
        let last = hunt.follower.waypoints.last().copied();
        let ending = last.is_some_and(|w| w.distance(pos) < REREAD_CELLS && cell_at(w) != key.root);
        let current =
            hunt.goal == Some(key.root) && hunt.version == key.version && hunt.planned_with == Some(s.plan_key());
        if current && last.is_some() && !ending && !hunt.is_stuck(scene.tick) {
            hunt.request = None;
            return;
        }
        let grid = scene.grid;
        self.field.descent(grid, cell_at(pos), LOOKAHEAD, &mut self.cells);
        hunt.request = None;
        hunt.restart(key.root, key.version, s.plan_key(), scene.tick);
        hunt.follow_cells(grid, &self.cells, s.smoothing, &mut self.smoothed);
    }

    /// The field monsters descend, while the policy is on.
    pub fn field(&self) -> Option<&GridFlow> {
        (self.active && self.field.key().is_some()).then_some(&self.field)
    }
}

/// The field is summarised by what it was computed for and what is being
/// computed (its distances are kept private by [`GridFlow`]): a complete
/// field is a function of its key and the grid; how far a computation
/// under way got is not seen until it completes, when its key moves to
/// the ready one.
impl StateHash for Flow {
    fn hash_into(&self, h: &mut StateHasher) {
        let Flow {
            field,
            active,
            // Refilled every tick from the creatures, which are hashed.
            hunters: _,
            // A function of the grid.
            regions: _,
            // Buffers a monster reads the field into, refilled each read.
            cells: _,
            nodes: _,
            smoothed: _,
        } = self;
        h.add(active);
        // How far the ready field reaches: a computation covering its
        // hunters ends short of the key's limit.
        h.add(&field.reach());
        for key in [field.key(), field.pending()] {
            h.bool(key.is_some());
            if let Some(FieldKey {
                // Process-local, for caches: never a decision.
                identity: _,
                version,
                root,
                neighbors,
                limit,
            }) = key
            {
                h.add(&version);
                h.add(&root);
                h.add(&neighbors);
                h.add(&limit);
            }
        }
    }
}

/// The grid's walkable cells labelled by the region each belongs to (the
/// cells a creature can walk between: diagonal moves never cut a corner,
/// so a region is joined through sides), so that a hunter the doors shut
/// away from the player is known at once.
#[derive(Debug)]
struct Regions {
    /// By cell, row by row: its region, or `u32::MAX` for a blocked cell.
    label: Vec<u32>,
}

impl Regions {
    fn of(&self, grid: &Grid, cell: Cell) -> Option<u32> {
        if !grid.in_bounds(cell) {
            return None;
        }
        let l = self.label[cell.y as usize * grid.width() + cell.x as usize];
        (l != u32::MAX).then_some(l)
    }
}

impl Derived for Regions {
    type Config = ();
    fn build(grid: &Grid, _: ()) -> Regions {
        let (w, h) = (grid.width(), grid.height());
        let mut label = vec![u32::MAX; w * h];
        let (mut next, mut stack) = (0, Vec::new());
        for start in 0..w * h {
            let cell = Cell::new((start % w) as i32, (start / w) as i32);
            if label[start] != u32::MAX || !grid.is_walkable(cell) {
                continue;
            }
            label[start] = next;
            stack.push(cell);
            while let Some(c) = stack.pop() {
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let n = Cell::new(c.x + dx, c.y + dy);
                    if grid.is_walkable(n) {
                        let i = n.y as usize * w + n.x as usize;
                        if label[i] == u32::MAX {
                            label[i] = next;
                            stack.push(n);
                        }
                    }
                }
            }
            next += 1;
        }
        Regions { label }
    }
    /// A door joins or splits regions: labelled afresh (a pass over the
    /// map when a door changes, not per tick).
    fn repair(&mut self, grid: &Grid, _: &[usize]) {
        *self = Regions::build(grid, ());
    }
}

/// The field's bound under `settings` on `grid` (see [`REACH`]).
fn limit(settings: &Settings, grid: &Grid) -> f64 {
    (REACH * f64::from(settings.detection_radius) + MARGIN) * f64::from(grid.min_entry_cost())
}
