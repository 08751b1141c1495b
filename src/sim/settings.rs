//! Settings of the living world: how monsters search and when they repath.

use crate::named::named_enum;
use crate::search::{MAX_WEIGHT, MIN_WEIGHT, SearchSettings};
use serde::{Deserialize, Serialize};

named_enum! {
    /// When a hunting monster plans a new path. Whatever the policy, it
    /// also replans when its path is blocked or the grid changed under it.
    RepathPolicy, "repath policy" {
        /// Every tick: always fresh, and the most searches.
        EveryTick => "every-tick",
        /// Every N ticks, staggered by monster.
        Timer => "timer",
        /// Only when the player has moved more than K cells from the goal
        /// of the last plan.
        Threshold => "threshold",
        /// At most every N ticks, and only when the player moved more than K.
        TimerThreshold => "timer+threshold",
    }
}

/// One setting, as a command changes it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "setting", content = "value")]
pub enum Setting {
    Algorithm(crate::search::Algorithm),
    Heuristic(crate::search::Heuristic),
    Tie(crate::search::TieBreak),
    Neighbors(crate::grid::Neighbors),
    Weight(f64),
    Reopen(bool),
    Open(crate::search::OpenUpdate),
    Smoothing(bool),
    Repath(RepathPolicy),
}

/// Everything a user can change about how monsters plan.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub search: SearchSettings,
    /// String-pull paths before following them.
    pub smoothing: bool,
    pub repath: RepathPolicy,
    /// N of the timer policies, in ticks.
    pub repath_ticks: u32,
    /// K of the threshold policies, in cells.
    pub repath_cells: f32,
    /// Node expansions allowed per tick across all monsters.
    pub budget: u32,
    /// Monsters see the player along a line of sight up to this many cells.
    pub detection_radius: f32,
}

/// Longest timer period, in ticks (500 s): a longer one is a typo.
pub const MAX_REPATH_TICKS: u32 = 10_000;

/// Default budget of expansions per tick. The engine expands 10–20 million
/// nodes a second on this class of machine, so 20,000 keeps search time near
/// 1–2 ms per tick.
pub const DEFAULT_BUDGET: u32 = 20_000;

impl Default for Settings {
    fn default() -> Self {
        Settings::DEFAULT
    }
}

impl Settings {
    /// The defaults, as a constant so that the command line can show them.
    pub const DEFAULT: Settings = Settings {
        search: SearchSettings::DEFAULT,
        smoothing: true,
        repath: RepathPolicy::TimerThreshold,
        repath_ticks: 10,
        repath_cells: 3.0,
        budget: DEFAULT_BUDGET,
        detection_radius: 40.0,
    };

    /// What is wrong with settings no command line could give (a
    /// hand-edited replay header, say); `None` when all is well. The world
    /// still copes with such values (it clamps them), but a recording that
    /// holds them was not made by delve.
    pub fn problem(&self) -> Option<String> {
        let weight = self.search.weight;
        if !(MIN_WEIGHT..=MAX_WEIGHT).contains(&weight) {
            return Some(format!("weight {weight} is not from {MIN_WEIGHT} to {MAX_WEIGHT}"));
        }
        if !(self.detection_radius >= 0.0 && self.detection_radius.is_finite()) {
            return Some(format!("detection_radius {} is not a finite number ≥ 0", self.detection_radius));
        }
        if !(self.repath_cells >= 0.0 && self.repath_cells.is_finite()) {
            return Some(format!("repath_cells {} is not a finite number ≥ 0", self.repath_cells));
        }
        if !(1..=MAX_REPATH_TICKS).contains(&self.repath_ticks) {
            return Some(format!("repath_ticks {} is not from 1 to {MAX_REPATH_TICKS}", self.repath_ticks));
        }
        if self.budget == 0 {
            return Some("budget 0 is below the least of 1 expansion a tick".to_string());
        }
        None
    }

    /// Applies one change; a weight is clamped to the accepted range.
    pub fn apply(&mut self, setting: Setting) {
        let s = &mut self.search;
        match setting {
            Setting::Algorithm(a) => s.algorithm = a,
            Setting::Heuristic(h) => s.heuristic = h,
            Setting::Tie(t) => s.tie = t,
            Setting::Neighbors(n) => s.neighbors = n,
            Setting::Weight(w) => s.weight = if w.is_finite() { w.clamp(MIN_WEIGHT, MAX_WEIGHT) } else { s.weight },
            Setting::Reopen(r) => s.reopen = r,
            Setting::Open(o) => s.open = o,
            Setting::Smoothing(on) => self.smoothing = on,
            Setting::Repath(p) => self.repath = p,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Algorithm;

    #[test]
    fn apply_changes_one_thing_and_clamps_weight() {
        let mut s = Settings::default();
        s.apply(Setting::Algorithm(Algorithm::Greedy));
        assert_eq!(s.search.algorithm, Algorithm::Greedy);
        s.apply(Setting::Weight(99.0));
        assert_eq!(s.search.weight, MAX_WEIGHT);
        s.apply(Setting::Weight(f64::NAN));
        assert_eq!(s.search.weight, MAX_WEIGHT);
        s.apply(Setting::Open(crate::search::OpenUpdate::DecreaseKey));
        assert_eq!(s.search.open, crate::search::OpenUpdate::DecreaseKey);
        s.apply(Setting::Repath(RepathPolicy::Timer));
        assert_eq!(s.repath.next(), RepathPolicy::Threshold);
        assert_eq!(RepathPolicy::TimerThreshold.next(), RepathPolicy::EveryTick);
    }

    #[test]
    fn settings_serialize_readably() {
        let json = serde_json::to_string(&Setting::Repath(RepathPolicy::TimerThreshold)).unwrap();
        assert_eq!(json, r#"{"setting":"repath","value":"timer+threshold"}"#);
        let open = Setting::Open(crate::search::OpenUpdate::DecreaseKey);
        assert_eq!(serde_json::to_string(&open).unwrap(), r#"{"setting":"open","value":"decrease-key"}"#);
    }
}
