//! The terminal front end: a view of the world and its statistics, and
//! keys turned into commands.
//!
//! The front end reads `&World` to draw and changes the world only through
//! [`Command`](crate::sim::Command)s (plus choosing which monster to watch,
//! which is observation). Where commands come from and where they are
//! reported is a [`Feed`](crate::replay::feed::Feed): live play, a recording or
//! a replay.

mod app;
mod clock;
mod end;
mod help;
mod keys;
mod log;
mod map;
mod overlay;
mod palette;
mod panel;
mod run;
mod screen;
mod sight;
#[cfg(test)]
mod testing;

pub use app::Exit;
pub use clock::SPEED_RANGE;
pub use overlay::{RAW_PATH, WAYPOINT};
pub use palette::Palette;
pub use run::{Session, Terminal, play};
