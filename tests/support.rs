//! What the integration tests share: the data on disk, a maze, and an
//! independent string-pulling reference.

pub mod data;
pub mod maze;
pub mod string_pull_reference;
