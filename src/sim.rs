//! The living dungeon: a deterministic simulation of hunters, wanderers,
//! prey and flocks, with throttled repathing and live statistics.
//!
//! The world is a pure function of (level, seed, commands): seeded streams
//! per subsystem, no wall-clock time in any decision, a fixed update order,
//! and a stable hash of the state to prove it.

mod behave;
mod bot;
mod command;
mod creature;
mod hash;
mod hunt;
mod rng;
mod settings;
mod species;
mod stats;
mod world;

pub use bot::Bot;
pub use command::Command;
pub use creature::{Creature, Hunt, Kind};
pub use hash::{StateHasher, hex};
pub use settings::{Avoidance, DEFAULT_BUDGET, MAX_REPATH_TICKS, RepathPolicy, Setting, Settings};
pub use species::Species;
pub use stats::{Counters, HISTORY_TICKS, RepathReason, SearchReport, Stats, WINDOW_TICKS};
pub use world::{DT, MAX_CREATURES, Player, TICKS_PER_SECOND, World, WorldError};
