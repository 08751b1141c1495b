//! What a monster knows of the player: a small deterministic state machine
//! driven by perception.
//!
//! ```text
//! Idle ──perceives──▶ Hunting ──loses contact──▶ Searching ──gives up──▶ Returning ──home──▶ Idle
//!  ▲                     ▲ │                         │                        │
//!  │                     └─┼──────perceives──────────┴────────────────────────┘
//!  └──────catches (calm)───┘
//! ```
//!
//! A monster that catches the player is idle and *calm* for
//! [`FORGET_TICKS`](super::FORGET_TICKS): it perceives nothing until then.

use crate::grid::Cell;
use crate::hash::{StateHash, StateHasher};

/// Where a monster's mind is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MonsterState {
    /// Roaming, unaware of the player.
    #[default]
    Idle,
    /// Perceives the player and plans to its cell.
    Hunting,
    /// Lost the player: walks to the last cell it perceived it in and
    /// searches around it for a while.
    Searching,
    /// Gave up: walks back to its post.
    Returning,
}

impl MonsterState {
    /// As the panel names it.
    pub fn name(self) -> &'static str {
        match self {
            MonsterState::Idle => "idle",
            MonsterState::Hunting => "hunting",
            MonsterState::Searching => "searching",
            MonsterState::Returning => "returning",
        }
    }
}

/// Why a monster is in its state, for the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// It sees the player (or last did).
    Saw,
    /// It heard the player move.
    Heard,
    /// It lost the player at this cell.
    LostAt(Cell),
    /// It searched and gave up.
    GaveUp,
    /// It caught the player, and forgets it for a while.
    Caught,
}

/// A monster's state and why, as [`World::awareness`](super::World::awareness)
/// reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Awareness {
    /// What it is doing.
    pub state: MonsterState,
    /// Why; `None` for a monster that never perceived the player.
    pub reason: Option<Reason>,
}

/// A monster's mind: its state, why, and what it remembers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mind {
    pub state: MonsterState,
    pub reason: Option<Reason>,
    /// The last cell it perceived the player in.
    pub last_known: Option<Cell>,
    /// The tick its state began.
    pub since: u64,
    /// The tick it last perceived the player.
    pub last_perceived: u64,
    /// The direction of the player's last step when it last perceived the
    /// player moving; `None` when the player stood still.
    pub heading: Option<(i8, i8)>,
    /// The tick its search around `last_known` began (it reached the
    /// cell); `None` while it walks there.
    pub searching_since: Option<u64>,
    /// The cell it heads for instead of `last_known`, when its tactics
    /// give one: the cell ahead where a hunter cuts the player off
    /// (`sim::foresight`), the next unseen cell of a sweep (`sim::sweep`).
    pub aim: Option<Cell>,
    /// The pack it hunts with (`sim::pack`): the creature index of the
    /// pack's first hunter; `None` when not hunting.
    pub pack: Option<u32>,
    /// The tick before which it perceives nothing: it caught the player.
    pub calm_until: u64,
}

impl Mind {
    pub fn awareness(&self) -> Awareness {
        Awareness { state: self.state, reason: self.reason }
    }

    /// The mind of a monster that caught the player at `tick`: idle, and
    /// calm for [`FORGET_TICKS`](super::FORGET_TICKS).
    pub fn caught(tick: u64) -> Mind {
        Mind { reason: Some(Reason::Caught), since: tick, calm_until: tick + super::FORGET_TICKS, ..Mind::default() }
    }
}

impl StateHash for MonsterState {
    fn hash_into(&self, h: &mut StateHasher) {
        h.u8(match self {
            MonsterState::Idle => 0,
            MonsterState::Hunting => 1,
            MonsterState::Searching => 2,
            MonsterState::Returning => 3,
        });
    }
}

impl StateHash for Reason {
    fn hash_into(&self, h: &mut StateHasher) {
        match self {
            Reason::Saw => h.u8(0),
            Reason::Heard => h.u8(1),
            Reason::LostAt(cell) => {
                h.u8(2);
                h.add(cell);
            }
            Reason::GaveUp => h.u8(3),
            Reason::Caught => h.u8(4),
        }
    }
}

impl StateHash for Mind {
    fn hash_into(&self, h: &mut StateHasher) {
        let Mind { state, reason, last_known, since, last_perceived, heading, searching_since, aim, pack, calm_until } =
            self;
        h.add(state);
        h.add(reason);
        h.add(last_known);
        h.add(since);
        h.add(last_perceived);
        h.add(heading);
        h.add(searching_since);
        h.add(aim);
        h.add(pack);
        h.add(calm_until);
    }
}
