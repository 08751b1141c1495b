//! Reynolds steering: how every creature that is not the player moves.
//!
//! Behaviours ([`seek`], [`flee`], [`arrive`], [`pursue`], [`evade`],
//! [`Wander`], [`avoid_obstacle`], [`avoid_walls`], [`flock`], a
//! [`PathFollower`]) each turn a goal into a force; [`combine_weighted`] or
//! [`combine_priority`] blend them into the one force a [`Body`] applies;
//! [`move_body`] integrates it and keeps the body out of the grid's walls.
//! [`SpatialHash`] and [`Flocker`] make flocking O(n) per tick (the hash
//! keeps its points in bin order, so a query streams), [`WallDistance`]
//! spares the wall feelers in open floor, and
//! [`Smoother`] and [`Hysteresis`] keep forces and decisions from
//! flip-flopping. [`Orca`] replaces separation with reciprocal collision
//! avoidance: velocities that cannot hit a neighbour or a wall within a
//! time horizon, and [`time_to_collision`] says how soon two discs meet.
//!
//! Everything is pure and deterministic: no clock, no hidden randomness
//! (wander takes its random number from the caller), trigonometry through
//! `libm`, fixed iteration orders. Every behaviour returns a finite vector
//! for finite inputs, including the degenerate ones (zero velocity,
//! coincident agents, zero radius, zero dt, zero max_speed). The forces
//! capped at `max_force` stay finite for finite inputs of any magnitude;
//! the uncapped sums (alignment, cohesion, wander, the integrated position)
//! as long as their result fits in `f32`, i.e. for anything world-sized.
//! The property tests in `tests/steer_*.rs` hold the library to this.

#![warn(missing_docs)]

mod behaviours;
mod body;
mod combine;
mod flocking;
mod follow;
mod jitter;
mod orca;
mod spatial;
mod vec2;
mod walls;
pub(crate) mod wide;

pub use behaviours::{Circle, Wander, arrive, avoid_obstacle, evade, flee, pursue, seek};
pub use body::Body;
pub use combine::{combine_priority, combine_weighted, decides};
pub use flocking::{FlockLanes, FlockSums, FlockWeights, Flocker, alignment, cohesion, flock, separation};
pub use follow::PathFollower;
pub use jitter::{Hysteresis, Smoother};
pub use orca::{Agent, Orca, Params as OrcaParams, Segment, Walls, crowd_check, time_to_collision};
pub use spatial::{Block, LANES, SpatialHash, keep, lane_mask, neighbors_brute_force, within_radius};
pub use vec2::{MIN_LENGTH, Vec2};
pub use walls::{
    WallDistance, avoid_walls, avoid_walls_near, avoid_walls_within, cell_at, cell_center, move_body, move_body_within,
    resolve_walls,
};
