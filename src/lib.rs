//! delve: a terminal dungeon where monsters hunt the player with throttled A*
//! and string-pulled paths while other creatures move by Reynolds steering.
//!
//! The library holds everything but the command line, layered so that each
//! module only knows the ones below it (see docs/architecture.md).

#![warn(missing_docs)]

pub mod atomic;
pub mod cli;
pub mod grid;
pub mod input;
pub mod level;
mod named;
pub mod nav;
pub mod number;
pub mod picture;
pub mod replay;
pub mod search;
pub mod shown;
pub mod signals;
pub mod sim;
pub mod steer;
pub mod ui;
