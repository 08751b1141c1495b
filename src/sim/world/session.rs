//! The session around a world's state: what a front end reads and
//! observation only. Nothing here decides what happens next, so none of it
//! is hashed: a replay watched on another monster, or on a slower machine,
//! still verifies.

use crate::sim::errand::PlayerSearch;
use crate::sim::events::Log;
use crate::sim::stats::Stats;

/// What a front end reads of a session besides the state.
#[derive(Debug)]
pub(super) struct Session {
    /// The level's name.
    pub(super) name: String,
    /// The tick the session was won or lost at.
    pub(super) ended_at: Option<u64>,
    /// The message log.
    pub(super) log: Log,
    /// The monster whose searches are recorded cell by cell.
    pub(super) watched: Option<usize>,
    /// Search, repath and crowd statistics (their times are wall clock).
    pub(super) stats: Stats,
    /// The player's last search for a travel or an exploration.
    pub(super) player_search: Option<PlayerSearch>,
}

impl Session {
    /// A session on the level `name`, before anything happened.
    pub(super) fn new(name: &str) -> Session {
        Session {
            name: name.to_string(),
            ended_at: None,
            log: Log::default(),
            watched: None,
            stats: Stats::default(),
            player_search: None,
        }
    }
}
