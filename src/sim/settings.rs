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

named_enum! {
    /// How monsters and wanderers keep out of each other's way.
    #[derive(Default)]
    Avoidance, "avoidance" {
        /// A separation force among the steering forces: cheap, soft, and
        /// crowds overlap when pushed. The default, as before ORCA.
        #[default]
        Separation => "separation",
        /// Reciprocal velocity obstacles (`steer::Orca`): velocities that
        /// cannot collide within a horizon, walls included.
        Orca => "orca",
    }
}

impl Avoidance {
    fn is_separation(&self) -> bool {
        *self == Avoidance::Separation
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
    Avoidance(Avoidance),
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
    /// Monsters hunt a player nearer than this many cells.
    pub detection_radius: f32,
    /// Written only when not `separation`, so that settings recorded
    /// before it existed read back, and are written back, unchanged.
    #[serde(default, skip_serializing_if = "Avoidance::is_separation")]
    pub avoidance: Avoidance,
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
        avoidance: Avoidance::Separation,
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
            Setting::Avoidance(a) => self.avoidance = a,
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
        let orca = Setting::Avoidance(Avoidance::Orca);
        assert_eq!(serde_json::to_string(&orca).unwrap(), r#"{"setting":"avoidance","value":"orca"}"#);
    }

    #[test]
    fn default_avoidance_is_left_out_so_old_headers_read_the_same() {
        let json = serde_json::to_string(&Settings::DEFAULT).unwrap();
        assert!(!json.contains("avoidance"), "{json}");
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), Settings::DEFAULT);
        let orca = Settings { avoidance: Avoidance::Orca, ..Settings::DEFAULT };
        let json = serde_json::to_string(&orca).unwrap();
        assert!(json.contains(r#""avoidance":"orca""#), "{json}");
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), orca);
    }
}
