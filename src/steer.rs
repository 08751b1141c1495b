//! Reynolds steering: how every creature that is not the player moves.
//!
//! Everything is pure and deterministic: no clock, no hidden randomness,
//! trigonometry through `libm`, fixed iteration orders.

mod body;
mod vec2;

pub use body::Body;
pub use vec2::{MIN_LENGTH, Vec2};
