//! Reynolds steering: how every creature that is not the player moves.
//!
//! Everything is pure and deterministic: no clock, no hidden randomness,
//! trigonometry through `libm`, fixed iteration orders.

mod behaviours;
mod body;
mod combine;
mod flocking;
mod follow;
mod jitter;
mod spatial;
mod vec2;

pub use behaviours::{Circle, Wander, arrive, avoid_obstacle, evade, flee, pursue, seek};
pub use body::Body;
pub use combine::{combine_priority, combine_weighted};
pub use flocking::{FlockWeights, Flocker, alignment, cohesion, flock, separation};
pub use follow::PathFollower;
pub use jitter::{Hysteresis, Smoother};
pub use spatial::{SpatialHash, neighbors_brute_force, within_radius};
pub use vec2::{MIN_LENGTH, Vec2};
