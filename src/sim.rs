//! The living dungeon: a deterministic simulation of hunters, wanderers,
//! prey and flocks, with throttled repathing and live statistics.
//!
//! The world is a pure function of (level, seed, commands): seeded streams
//! per subsystem, no wall-clock time in any decision, a fixed update order,
//! and a stable hash of the state to prove it.

mod any_angle;
mod behave;
mod bot;
pub mod clock;
mod command;
mod creature;
mod doors;
mod errand;
mod events;
mod flocking;
mod flow;
mod foresight;
mod hunt;
mod incremental;
mod landing;
mod memory;
mod mind;
mod monsters;
mod pace;
mod pack;
mod perceive;
mod rng;
mod rules;
mod run;
mod sense;
mod settings;
mod sightings;
mod species;
mod stats;
mod surcharge;
mod sweep;
mod tactics;
mod world;

pub use crate::hash::{StateHash, StateHasher, hex};
pub use crate::steer::FlockWeights;
pub use bot::{Bot, BotKind};
pub use command::Command;
pub use creature::{Creature, Hunt, Kind};
pub use doors::{Changed, Doors};
pub use errand::{ErrandKind, PlayerSearch, Route};
pub use events::{Event, LOG_CAPACITY, Sense, Stamped};
pub use flocking::{FlockFigures, FlockPreset, MAX_FLOCK_WEIGHT, describe as describe_flock, parse as parse_flock};
pub use memory::Memory;
pub use mind::{Awareness, MonsterState, Reason};
pub use pace::{Act, DIAGONAL_STEP, ORTHOGONAL_STEP, SUBTICKS, step_duration, step_time};
pub use perceive::{CONTACT_TICKS, HEARING_CELLS, SEARCH_TICKS};
pub use rules::{DEFAULT_LIVES, FORGET_TICKS, GRACE_CELLS, GRACE_TICKS, Grace, MAX_GRACE_TICKS, Outcome, Rules};
pub use settings::{Avoidance, DEFAULT_BUDGET, MAX_REPATH_TICKS, Nav, PlanKey, RepathPolicy, Setting, Settings};
pub use sightings::{SIGHTING_TICKS, Sighting, Sightings, WARY_RADIUS, WARY_SURCHARGE};
pub use species::{BODY_RADIUS, FLOCK_RADIUS, FLOCK_WEIGHTS, Species};
pub use stats::{Counters, HISTORY_TICKS, RepathReason, SearchReport, Stats, WINDOW_TICKS};
pub use tactics::{Aim, Lost, Packs};
pub use world::{DT, MAX_CREATURES, Player, TICKS_PER_SECOND, World, WorldError};
// The level's own data the world plays by, under the names sim's users know.
pub use crate::level::{DoorCycle, Goal, MAX_DOOR_CYCLE, MIN_DOOR_CYCLE};
