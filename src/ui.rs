//! The terminal front end: a view of the world and its statistics, and
//! keys turned into commands.
//!
//! The front end reads `&World` to draw and changes the world only through
//! [`Command`](crate::sim::Command)s (plus choosing which monster to watch,
//! which is observation). Where commands come from and where they are
//! reported is a [`Feed`](crate::replay::feed::Feed): live play, a recording or
//! a replay.

mod app;
mod busy;
mod clock;
mod end;
mod game;
mod help;
mod history;
mod keys;
mod lab;
mod legend;
mod log;
mod map;
mod overlay;
mod palette;
mod panel;
mod rules;
mod run;
mod screen;
mod senses;
mod sight;
mod stakes;
#[cfg(test)]
mod testing;
mod title;
mod tty;
mod worker;

pub use app::Exit;
pub use clock::SPEED_RANGE;
pub use game::{Played, Session, Sessions, play};
pub use lab::{Preset, SteerCompare, SteerLab, lab, steer_lab};
pub use log::game_time;
pub use overlay::{RAW_PATH, WAYPOINT};
pub use palette::{ColorChoice, Palette};
pub use run::Stop;
pub use stakes::{Leg, Run, Stakes, totals};
pub use title::{Choice, Title};
