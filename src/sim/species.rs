//! What each kind of creature is like: speeds, reach, and the radii of its
//! senses. Tuned by watching them at 20 ticks a second on the shipped
//! levels; all distances are in cells, times in seconds.

use super::Kind;
use crate::steer::FlockWeights;

/// How one kind moves and senses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Species {
    /// Top speed, in cells per second.
    pub max_speed: f32,
    /// Largest steering force: how sharply it turns and brakes.
    pub max_force: f32,
    /// Wander circle: radius, distance ahead, and jitter per tick (radians
    /// at r = ±1).
    pub wander_radius: f32,
    /// How far ahead of the body the wander circle sits.
    pub wander_distance: f32,
    /// How far the wander target jitters per tick (radians at r = ±1).
    pub wander_jitter: f32,
    /// Weight of the wander force among the kind's other forces.
    pub wander_weight: f32,
    /// Length of the wall feelers.
    pub feeler: f32,
    /// How far a force moves toward its new value each tick (see
    /// `Smoother`): lower is smoother, higher is more responsive.
    pub smoothing: f32,
    /// Gain on the path-following force. Reynolds' forces ask for the
    /// velocity change to happen within a second, which is far too lazy for
    /// a hunter in a one-cell corridor; a gain of g asks for it within 1/g
    /// seconds (still capped by `max_force`).
    pub follow_gain: f32,
}

impl Species {
    /// The species of `kind`.
    pub const fn of(kind: Kind) -> Species {
        match kind {
            Kind::Monster => Species {
                max_speed: 4.0,
                max_force: 32.0,
                wander_radius: 1.0,
                wander_distance: 2.0,
                wander_jitter: 0.6,
                wander_weight: 1.0,
                feeler: 0.9,
                smoothing: 0.6,
                follow_gain: 6.0,
            },
            Kind::Wanderer => Species {
                max_speed: 1.6,
                max_force: 6.0,
                wander_radius: 1.0,
                wander_distance: 2.0,
                wander_jitter: 0.8,
                wander_weight: 1.0,
                feeler: 1.2,
                smoothing: 0.4,
                follow_gain: 1.0,
            },
            Kind::Fleeing => Species {
                max_speed: 4.5,
                max_force: 14.0,
                wander_radius: 1.0,
                wander_distance: 2.0,
                wander_jitter: 0.8,
                wander_weight: 0.3,
                feeler: 1.2,
                smoothing: 0.5,
                follow_gain: 1.0,
            },
            Kind::Boid => Species {
                max_speed: 3.0,
                max_force: 8.0,
                wander_radius: 0.6,
                wander_distance: 1.5,
                wander_jitter: 0.5,
                wander_weight: 0.2,
                feeler: 1.0,
                smoothing: 0.5,
                follow_gain: 1.0,
            },
        }
    }
}

/// A kind's alarm thresholds in cells: on below the first distance, off
/// only beyond the second. A monster's range of sight comes from the settings
/// (off 10 % and a cell farther out), a fleeing creature panics, a boid
/// scatters; a wanderer's never sounds (no distance is below 0).
pub fn alarm(kind: Kind, detection: f32) -> (f32, f32) {
    match kind {
        Kind::Monster => (detection, detection * 1.1 + 1.0),
        Kind::Wanderer => (0.0, 1.0),
        Kind::Fleeing => (6.0, 9.0),
        Kind::Boid => (4.0, 6.0),
    }
}

/// Flocking weights: separation strongest so that a crowd keeps its
/// spacing (10,000 boids stay near 13 neighbours each), cohesion weakest so
/// flocks stay loose enough to flow around walls.
pub const FLOCK_WEIGHTS: FlockWeights = FlockWeights { separation: 6.0, alignment: 1.0, cohesion: 0.3 };

/// Boids flock with boids nearer than this.
pub const FLOCK_RADIUS: f32 = 2.5;
/// Boids and wanderers keep at least about this far apart.
pub const SEPARATION_RADIUS: f32 = 1.0;
/// A monster nearer than this to the player's centre catches the player.
pub const CATCH_RADIUS: f32 = 0.75;
/// A monster moves on to its next waypoint within this distance.
pub const ARRIVAL_RADIUS: f32 = 0.5;
/// A monster brakes within this distance of its last waypoint.
pub const SLOWING_RADIUS: f32 = 1.5;
