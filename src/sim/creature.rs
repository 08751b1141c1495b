//! The creatures of the world and the state each carries between ticks.

use super::mind::Mind;
use super::settings::PlanKey;
use super::species::{ARRIVAL_RADIUS, SLOWING_RADIUS, Species, alarm};
use super::stats::RepathReason;
use super::sweep::Sweep;
use crate::grid::{Cell, Grid, Tile, supercover};
use crate::hash::{StateHash, StateHasher};
use crate::named::named_enum;
use crate::search::string_pull;
use crate::steer::{Body, Hysteresis, PathFollower, Smoother, Vec2, Wander, cell_at, cell_center};

named_enum! {
    /// The kinds of creature besides the player.
    Kind, "creature kind" {
        /// Hunts the player with planned paths.
        Monster => "monster",
        /// Roams aimlessly.
        Wanderer => "wanderer",
        /// Runs from the player and monsters when they come close.
        Fleeing => "fleeing",
        /// Flocks with other boids.
        Boid => "boid",
    }
}
/// One creature: its body and what it remembers.
#[derive(Clone, Debug, PartialEq)]
pub struct Creature {
    /// What it is, which decides how it behaves.
    pub kind: Kind,
    /// Where it is and how it moves.
    pub body: Body,
    /// Where it was spawned; a monster returns here after a catch.
    pub home: Vec2,
    /// Its wander state: where on the wander circle it aims.
    pub wander: Wander,
    /// Low-pass filter on its steering force.
    pub smoother: Smoother,
    /// Its alarm: a monster's range of sight, a fleeing creature's panic,
    /// a boid's scatter (thresholds from the kind, `species::alarm`).
    pub alarm: Hysteresis,
    /// A monster's hunt; `None` for other kinds. Boxed: a hunt is most of
    /// a monster's size, and keeping it out of line keeps every creature
    /// small, so the passes over a crowd of boids read a third of the
    /// memory.
    pub hunt: Option<Box<Hunt>>,
}

impl Creature {
    /// A creature of `kind` at rest at `pos`, its wander circle turned to
    /// `angle`. Monsters detect the player within `detection` cells (a
    /// negative or non-finite radius counts as 0: they never hunt).
    pub fn new(kind: Kind, pos: Vec2, angle: f32, detection: f32) -> Creature {
        let detection = if detection.is_finite() { detection.max(0.0) } else { 0.0 };
        let sp = Species::of(kind);
        let (on, off) = alarm(kind, detection);
        Creature {
            kind,
            body: Body::new(pos, sp.max_speed, sp.max_force),
            home: pos,
            wander: Wander { angle, radius: sp.wander_radius, distance: sp.wander_distance, jitter: sp.wander_jitter },
            smoother: Smoother::new(),
            alarm: Hysteresis::new(on, off),
            hunt: (kind == Kind::Monster).then(Box::default),
        }
    }

    /// The cell its centre is in.
    pub fn cell(&self) -> Cell {
        cell_at(self.body.pos)
    }
}

/// A monster's plan and its bookkeeping for the repath policies.
#[derive(Clone, Debug, PartialEq)]
pub struct Hunt {
    /// The raw cell path of the last plan (empty when none or not found).
    pub path: Vec<Cell>,
    /// The waypoints being followed: smoothed or raw cell centres.
    pub follower: PathFollower,
    /// The player's cell when the last plan was made.
    pub goal: Option<Cell>,
    /// The grid version the last plan was made on.
    pub version: u64,
    /// A pending request for a plan: since when, and why.
    pub request: Option<(u64, RepathReason)>,
    /// Progress toward the current waypoint: its index, the closest the
    /// monster has come to it, and the tick it last came closer.
    pub progress: (usize, f32, u64),
    /// What it knows of the player, and so where it is going.
    pub mind: Mind,
    /// The search settings (the planner included) and smoothing the last plan was
    /// made with.
    pub planned_with: Option<PlanKey>,
    /// Its sweep of the cells near where it lost the player, under
    /// [`Lost::Sweep`](super::Lost::Sweep).
    pub sweep: Sweep,
}

impl StateHash for Creature {
    fn hash_into(&self, h: &mut StateHasher) {
        let Creature { kind, body, home, wander, smoother, alarm, hunt } = self;
        h.add(kind);
        h.add(body);
        h.add(home);
        h.add(wander);
        h.add(smoother);
        h.add(alarm);
        h.add(hunt);
    }
}

impl StateHash for Hunt {
    fn hash_into(&self, h: &mut StateHasher) {
        let Hunt { path, follower, goal, version, request, progress, mind, planned_with, sweep } = self;
        h.add(path);
        h.add(follower);
        h.add(goal);
        h.add(version);
        h.add(request);
        h.add(progress);
        h.add(mind);
        h.add(planned_with);
        h.add(sweep);
    }
}

/// A monster that has not come closer to its waypoint for this many ticks
/// (one second) is stuck: pressed against a wall after swinging wide round
/// a corner, or pushed off its path by the crowd.
pub const STUCK_TICKS: u64 = 20;
/// Coming closer by less than this (cells) is not progress.
const PROGRESS_EPSILON: f32 = 0.05;

impl Default for Hunt {
    fn default() -> Self {
        Hunt {
            path: Vec::new(),
            follower: PathFollower::new(Vec::new(), ARRIVAL_RADIUS, SLOWING_RADIUS),
            goal: None,
            version: 0,
            request: None,
            progress: (0, f32::INFINITY, 0),
            mind: Mind::default(),
            planned_with: None,
            sweep: Sweep::default(),
        }
    }
}

impl Hunt {
    /// Notes how close the body at `pos` is to its current waypoint.
    pub fn track_progress(&mut self, pos: Vec2, tick: u64) {
        let index = self.follower.index;
        let Some(&target) = self.follower.waypoints.get(index) else {
            self.progress = (index, f32::INFINITY, tick);
            return;
        };
        let d = pos.distance(target);
        let (i, best, _) = self.progress;
        if i != index || d < best - PROGRESS_EPSILON {
            self.progress = (index, d, tick);
        }
    }

    /// Whether the monster has made no progress for `STUCK_TICKS` ticks, short
    /// of its last waypoint (where waiting is arriving, not being stuck).
    pub fn is_stuck(&self, tick: u64) -> bool {
        let (_, _, since) = self.progress;
        !self.follower.waypoints.is_empty() && !self.arrived() && tick.saturating_sub(since) > STUCK_TICKS
    }

    /// Whether the monster has come to the end of its plan: its last
    /// waypoint within the arrival radius, or a plan with none left.
    pub fn arrived(&self) -> bool {
        let (index, best, _) = self.progress;
        index + 1 >= self.follower.waypoints.len() && best < self.follower.arrival_radius
    }

    /// Starts a new plan toward `goal`, made on grid `version` under the
    /// settings `key`: the old path, waypoints and progress go.
    pub(super) fn restart(&mut self, goal: Cell, version: u64, key: PlanKey, tick: u64) {
        self.goal = Some(goal);
        self.version = version;
        self.planned_with = Some(key);
        self.progress = (0, f32::INFINITY, tick);
        self.path.clear();
        self.follower.clear();
    }

    /// Follows the cell path `path` (after [`Hunt::restart`]), string-pulled
    /// into `smoothed` when `smoothing`. The first waypoint is the monster's
    /// own cell, left out: steering back to its centre would only make it
    /// stutter.
    pub(super) fn follow_cells(&mut self, grid: &Grid, path: &[Cell], smoothing: bool, smoothed: &mut Vec<Cell>) {
        self.path.extend_from_slice(path);
        if smoothing {
            string_pull(grid, path, smoothed);
        } else {
            smoothed.clear();
            smoothed.extend_from_slice(path);
        }
        let skip = usize::from(smoothed.len() > 1);
        self.follower.waypoints.extend(smoothed[skip..].iter().map(|&c| cell_center(c)));
    }

    /// Cuts the waypoints still to reach at the first leg that crosses a
    /// closed door, for a monster standing in `here` whose plan is older
    /// than `grid` and waits for a new one: it goes on up to the last
    /// waypoint before the door, or holds its own cell when the leg it is
    /// on crosses one, and never walks into a door that closed under its
    /// path. Legs are checked as the plan's sight did (every cell the
    /// segment between two centres touches); a door is the only cell a
    /// world ever closes, so nothing else on a leg is new.
    pub fn cut_at_closed_doors(&mut self, grid: &Grid, here: Cell) {
        let f = &mut self.follower;
        if f.waypoints.is_empty() {
            return;
        }
        let closed = |a: Cell, b: Cell| supercover(a, b).any(|c| grid.tile(c) == Tile::DoorClosed);
        let index = f.index.min(f.waypoints.len() - 1);
        let mut from = here;
        for k in index..f.waypoints.len() {
            let to = cell_at(f.waypoints[k]);
            if closed(from, to) {
                f.waypoints.truncate(k);
                if k == index {
                    f.waypoints.push(cell_center(here));
                }
                f.index = index.min(f.waypoints.len() - 1);
                return;
            }
            from = to;
        }
    }

    /// The straight leg the monster walks: from the cell of the waypoint
    /// it last reached (the plan's first cell before the first) to the cell
    /// of the one it heads for; `None` without waypoints.
    pub fn leg(&self) -> Option<(Cell, Cell)> {
        let f = &self.follower;
        let to = *f.waypoints.get(f.index)?;
        let from = match f.index.checked_sub(1) {
            Some(k) => cell_at(f.waypoints[k]),
            None => *self.path.first()?,
        };
        Some((from, cell_at(to)))
    }

    /// Forgets the plan: the next hunt starts from scratch.
    pub fn forget(&mut self) {
        self.path.clear();
        self.follower.clear();
        self.goal = None;
        self.request = None;
        self.progress = (0, f32::INFINITY, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonsense_detection_radius_never_hunts_and_never_panics() {
        for d in [f32::NAN, f32::INFINITY, -5.0] {
            let mut c = Creature::new(Kind::Monster, Vec2::new(1.0, 1.0), 0.0, d);
            assert!(!c.alarm.update(0.5), "{d}");
        }
        let mut c = Creature::new(Kind::Monster, Vec2::new(1.0, 1.0), 0.0, 10.0);
        assert!(c.alarm.update(9.0));
        assert!(c.alarm.update(11.5), "hysteresis keeps hunting up to 12");
        assert!(!c.alarm.update(12.5));
    }

    /// `#.+.#` above a corridor: the door at 2,0 closed under a plan that
    /// goes 0,1 -> 2,0 -> 4,0 (made while it was open).
    fn corridor() -> Grid {
        let (f, w) = (Tile::Floor(1), Tile::Wall);
        Grid::new(5, 2, &[f, f, Tile::DoorClosed, f, f, f, f, w, f, f])
    }

    fn planned(cells: &[(i32, i32)]) -> Hunt {
        let mut h = Hunt::default();
        h.follower.waypoints = cells.iter().map(|&(x, y)| cell_center(Cell::new(x, y))).collect();
        h
    }

    fn waypoints(h: &Hunt) -> Vec<Cell> {
        h.follower.waypoints.iter().map(|&w| cell_at(w)).collect()
    }

    #[test]
    fn a_stale_plan_stops_short_of_a_door_that_closed_on_it() {
        let grid = corridor();
        let mut h = planned(&[(1, 1), (1, 0), (3, 0), (4, 1)]);
        h.cut_at_closed_doors(&grid, Cell::new(0, 1));
        assert_eq!(waypoints(&h), [Cell::new(1, 1), Cell::new(1, 0)], "up to the last waypoint before the door");
        assert_eq!(h.follower.index, 0);
        let mut h = planned(&[(1, 1), (3, 0)]);
        h.follower.index = 1;
        h.cut_at_closed_doors(&grid, Cell::new(1, 0));
        assert_eq!(waypoints(&h), [Cell::new(1, 1), Cell::new(1, 0)], "the leg it is on crosses it: it holds");
        assert_eq!(h.follower.index, 1);
        let mut h = planned(&[(0, 1), (4, 1)]);
        h.cut_at_closed_doors(&grid, Cell::new(0, 0));
        assert_eq!(waypoints(&h), [Cell::new(0, 1), Cell::new(4, 1)], "no door on the way: nothing cut");
        let mut h = planned(&[]);
        h.cut_at_closed_doors(&grid, Cell::new(0, 0));
        assert!(h.follower.waypoints.is_empty());
    }

    #[test]
    fn stuck_only_short_of_the_last_waypoint() {
        let mut h = Hunt::default();
        h.follower.waypoints = vec![Vec2::new(5.5, 0.5), Vec2::new(9.5, 0.5)];
        h.track_progress(Vec2::new(0.5, 0.5), 0);
        assert!(!h.is_stuck(STUCK_TICKS));
        assert!(h.is_stuck(STUCK_TICKS + 1), "no progress for a second");
        h.track_progress(Vec2::new(1.5, 0.5), STUCK_TICKS + 1);
        assert!(!h.is_stuck(STUCK_TICKS + 2), "progress resets the clock");
        h.follower.index = 1;
        h.track_progress(Vec2::new(9.4, 0.5), 100);
        assert!(!h.is_stuck(1000), "waiting at the last waypoint is arriving");
    }
}
