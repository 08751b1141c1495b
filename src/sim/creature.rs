//! The creatures of the world and the state each carries between ticks.

use super::species::{ARRIVAL_RADIUS, SLOWING_RADIUS, Species};
use super::stats::RepathReason;
use crate::grid::Cell;
use crate::named::named_enum;
use crate::steer::{Body, Hysteresis, PathFollower, Smoother, Vec2, Wander};

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
    pub kind: Kind,
    pub body: Body,
    /// Where it was spawned; a monster returns here after a catch.
    pub home: Vec2,
    pub wander: Wander,
    /// Low-pass filter on its steering force.
    pub smoother: Smoother,
    /// Its alarm: a monster's detection, a fleeing creature's panic, a
    /// boid's scatter (thresholds from [`Species::alarm`]).
    pub alarm: Hysteresis,
    /// A monster's hunt; `None` for other kinds.
    pub hunt: Option<Hunt>,
}

impl Creature {
    /// A creature of `kind` at rest at `pos`, its wander circle turned to
    /// `angle`. Monsters detect the player within `detection` cells.
    pub fn new(kind: Kind, pos: Vec2, angle: f32, detection: f32) -> Creature {
        let sp = Species::of(kind);
        let alarm = match kind {
            Kind::Monster => Hysteresis::new(detection, detection * 1.1 + 1.0),
            _ => Hysteresis::new(sp.alarm.0, sp.alarm.1),
        };
        Creature {
            kind,
            body: Body::new(pos, sp.max_speed, sp.max_force),
            home: pos,
            wander: Wander { angle, radius: sp.wander_radius, distance: sp.wander_distance, jitter: sp.wander_jitter },
            smoother: Smoother::new(),
            alarm,
            hunt: (kind == Kind::Monster).then(Hunt::default),
        }
    }

    /// The cell its centre is in.
    pub fn cell(&self) -> Cell {
        Cell::new(libm::floorf(self.body.pos.x) as i32, libm::floorf(self.body.pos.y) as i32)
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
    /// The tick of the last plan.
    pub planned_at: Option<u64>,
    /// A pending request for a plan: since when, and why.
    pub request: Option<(u64, RepathReason)>,
}

impl Default for Hunt {
    fn default() -> Self {
        Hunt {
            path: Vec::new(),
            follower: PathFollower::new(Vec::new(), ARRIVAL_RADIUS, SLOWING_RADIUS),
            goal: None,
            version: 0,
            planned_at: None,
            request: None,
        }
    }
}

impl Hunt {
    /// Forgets the plan: the next hunt starts from scratch.
    pub fn forget(&mut self) {
        self.path.clear();
        self.follower.waypoints.clear();
        self.follower.index = 0;
        self.goal = None;
        self.planned_at = None;
        self.request = None;
    }
}
