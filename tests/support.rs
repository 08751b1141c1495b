//! What the integration tests share: the data on disk, a maze, the binary
//! run under a deadline (`run`), and an
//! independent string-pulling reference.

pub mod data;
pub mod maze;
pub mod run;
pub mod string_pull_reference;
