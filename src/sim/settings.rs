//! Settings of the living world: how monsters search and when they repath.

use super::tactics::{Aim, Lost, Packs};
use crate::hash::{StateHash, StateHasher};
use crate::named::named_enum;
use crate::nav::Planner;
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
        /// As fresh as every tick, for the cost of a repair: each monster
        /// keeps a Moving Target D* Lite search and repairs it whenever the
        /// grid changed or it or the player left its path
        /// (`sim::incremental`).
        Incremental => "incremental",
        /// Hunters descend one shared reverse Dijkstra map from the
        /// player's cell (`sim::flow`), computed per player move and
        /// repaired per door change; other monsters plan with A* when
        /// their target moves more than K cells.
        FlowField => "flow-field",
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

named_enum! {
    /// Where monsters plan: on the grid (with [`Settings::search`]) or in
    /// one of the any-angle structures of [`crate::nav`].
    #[derive(Default)]
    Nav, "planner kind" {
        /// Grid searches, the algorithm of [`SearchSettings`]. The
        /// default, as before the any-angle planners.
        #[default]
        Grid => "grid",
        /// The navigation mesh and the funnel ([`crate::nav::NavMesh`]).
        Navmesh => "navmesh",
        /// The corner waypoint graph ([`crate::nav::Waypoints`]).
        Waypoints => "waypoints",
    }
}

impl Nav {
    fn is_grid(&self) -> bool {
        *self == Nav::Grid
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
    /// The search algorithm.
    Algorithm(crate::search::Algorithm),
    /// The search heuristic.
    Heuristic(crate::search::Heuristic),
    /// The search's tie-break.
    Tie(crate::search::TieBreak),
    /// 4- or 8-neighbour movement for searches.
    Neighbors(crate::grid::Neighbors),
    /// w of weighted A*.
    Weight(f64),
    /// Whether searches reopen closed nodes.
    Reopen(bool),
    /// How the open list takes a cheaper route.
    Open(crate::search::OpenUpdate),
    /// Whether monsters string-pull their paths.
    Smoothing(bool),
    /// When monsters plan a new path.
    Repath(RepathPolicy),
    /// How monsters and wanderers keep apart.
    Avoidance(Avoidance),
    /// Plan on the grid or an any-angle structure. Choosing an
    /// [`Algorithm`](Setting::Algorithm) goes back to the grid.
    Nav(Nav),
    /// Where hunters aim.
    Aim(Aim),
    /// Whether the hunters of a pack split up.
    Packs(Packs),
    /// What a monster that lost the player does.
    Lost(Lost),
}

/// Everything a user can change about how monsters plan. A key it does
/// not know is refused (a replay header's settings mean one thing).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// How each monster's search runs.
    pub search: SearchSettings,
    /// String-pull paths before following them.
    pub smoothing: bool,
    /// When a monster plans a new path.
    pub repath: RepathPolicy,
    /// N of the timer policies, in ticks.
    pub repath_ticks: u32,
    /// K of the threshold policies, in cells.
    pub repath_cells: f32,
    /// Node expansions allowed per tick across all monsters.
    pub budget: u32,
    /// Monsters see the player along a line of sight up to this many cells.
    pub detection_radius: f32,
    /// Written only when not `separation`, so that settings recorded
    /// before it existed read back, and are written back, unchanged.
    #[serde(default, skip_serializing_if = "Avoidance::is_separation")]
    pub avoidance: Avoidance,
    /// Where monsters plan. Written only when not `grid`, like
    /// `avoidance`.
    #[serde(default, skip_serializing_if = "Nav::is_grid")]
    pub nav: Nav,
    /// Where hunters aim (see [`Aim`]).
    #[serde(default)]
    pub aim: Aim,
    /// Whether the hunters of a pack split up (see [`Packs`]).
    #[serde(default)]
    pub packs: Packs,
    /// What a monster that lost the player does (see [`Lost`]).
    #[serde(default)]
    pub lost: Lost,
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
        nav: Nav::Grid,
        aim: Aim::Goal,
        packs: Packs::Split,
        lost: Lost::Sweep,
    };

    /// The planner monsters use.
    pub fn planner(&self) -> Planner {
        match self.nav {
            Nav::Grid => Planner::Grid(self.search.algorithm),
            Nav::Navmesh => Planner::Navmesh,
            Nav::Waypoints => Planner::Waypoints,
        }
    }

    /// These settings with monsters planning with `planner` (a grid
    /// planner sets the algorithm; an any-angle one leaves it be).
    pub fn with_planner(mut self, planner: Planner) -> Settings {
        self.apply(match planner {
            Planner::Grid(a) => Setting::Algorithm(a),
            Planner::Navmesh => Setting::Nav(Nav::Navmesh),
            Planner::Waypoints => Setting::Nav(Nav::Waypoints),
        });
        self
    }

    /// The change to the next planner in the `A` key's cycle: the grid
    /// algorithms in order, then `navmesh`, `waypoints`, and round to the
    /// first grid algorithm.
    pub fn next_planner(&self) -> Setting {
        let first = crate::search::Algorithm::ALL[0];
        match self.nav {
            Nav::Grid if self.search.algorithm.next() == first => Setting::Nav(Nav::Navmesh),
            Nav::Grid => Setting::Algorithm(self.search.algorithm.next()),
            Nav::Navmesh => Setting::Nav(Nav::Waypoints),
            Nav::Waypoints => Setting::Algorithm(first),
        }
    }

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

    /// The settings a plan depends on: a plan made under others is
    /// replanned at once (repath reason `settings`).
    pub(super) fn plan_key(&self) -> (SearchSettings, bool, Nav) {
        (self.search, self.smoothing, self.nav)
    }

    /// Applies one change; a weight is clamped to the accepted range.
    pub fn apply(&mut self, setting: Setting) {
        let s = &mut self.search;
        match setting {
            Setting::Algorithm(a) => {
                s.algorithm = a;
                self.nav = Nav::Grid;
            }
            Setting::Heuristic(h) => s.heuristic = h,
            Setting::Tie(t) => s.tie = t,
            Setting::Neighbors(n) => s.neighbors = n,
            Setting::Weight(w) => s.weight = if w.is_finite() { w.clamp(MIN_WEIGHT, MAX_WEIGHT) } else { s.weight },
            Setting::Reopen(r) => s.reopen = r,
            Setting::Open(o) => s.open = o,
            Setting::Smoothing(on) => self.smoothing = on,
            Setting::Repath(p) => self.repath = p,
            Setting::Avoidance(a) => self.avoidance = a,
            Setting::Nav(n) => self.nav = n,
            Setting::Aim(a) => self.aim = a,
            Setting::Packs(p) => self.packs = p,
            Setting::Lost(l) => self.lost = l,
        }
    }
}

impl Setting {
    /// What is wrong with a change no key could make (a hand-edited
    /// replay); `None` when it is one delve makes.
    pub fn problem(&self) -> Option<String> {
        match *self {
            Setting::Weight(w) if !(MIN_WEIGHT..=MAX_WEIGHT).contains(&w) => {
                Some(format!("weight {w:?} is not from {MIN_WEIGHT} to {MAX_WEIGHT}"))
            }
            _ => None,
        }
    }
}

/// Every setting, taken apart field by field, so that a setting added
/// later fails to compile here until it is hashed too: a replay edited to
/// drop a change of any setting, even one that decides nothing (the
/// open-list update), cannot verify.
impl StateHash for Settings {
    fn hash_into(&self, h: &mut StateHasher) {
        let Settings {
            search,
            smoothing,
            repath,
            repath_ticks,
            repath_cells,
            budget,
            detection_radius,
            avoidance,
            nav,
            aim,
            packs,
            lost,
        } = self;
        h.add(search);
        h.add(smoothing);
        h.add(repath);
        h.add(repath_ticks);
        h.add(repath_cells);
        h.add(budget);
        h.add(detection_radius);
        h.add(avoidance);
        h.add(nav);
        h.add(aim);
        h.add(packs);
        h.add(lost);
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
        assert_eq!(RepathPolicy::TimerThreshold.next(), RepathPolicy::Incremental);
        assert_eq!(RepathPolicy::ALL.last().unwrap().next(), RepathPolicy::EveryTick);
        assert_eq!(RepathPolicy::Incremental.next(), RepathPolicy::FlowField);
        assert_eq!(RepathPolicy::FlowField.next(), RepathPolicy::EveryTick);
    }

    #[test]
    fn only_weights_out_of_range_are_problems() {
        for w in [MIN_WEIGHT, 2.5, MAX_WEIGHT] {
            assert_eq!(Setting::Weight(w).problem(), None);
        }
        for w in [-1e308, MIN_WEIGHT - 0.01, MAX_WEIGHT + 0.01, f64::NAN, f64::INFINITY] {
            let e = Setting::Weight(w).problem().unwrap();
            assert_eq!(e, format!("weight {w:?} is not from {MIN_WEIGHT} to {MAX_WEIGHT}"));
        }
        assert_eq!(Setting::Reopen(true).problem(), None);
    }

    /// Every setting changes the hash, the open-list update included.
    #[test]
    fn every_setting_is_hashed() {
        let hash = |s: &Settings| {
            let mut h = StateHasher::default();
            s.hash_into(&mut h);
            h.finish()
        };
        let base = Settings::default();
        let changes = [
            Setting::Algorithm(Algorithm::Greedy),
            Setting::Heuristic(crate::search::Heuristic::Manhattan),
            Setting::Tie(crate::search::TieBreak::Cross),
            Setting::Neighbors(crate::grid::Neighbors::Four),
            Setting::Weight(2.0),
            Setting::Reopen(!base.search.reopen),
            Setting::Open(crate::search::OpenUpdate::DecreaseKey),
            Setting::Smoothing(!base.smoothing),
            Setting::Repath(RepathPolicy::Timer),
            Setting::Avoidance(Avoidance::Orca),
            Setting::Nav(Nav::Navmesh),
            Setting::Aim(Aim::Heading),
            Setting::Packs(Packs::Together),
            Setting::Lost(Lost::Linger),
        ];
        for change in changes {
            let mut s = base;
            s.apply(change);
            assert_ne!(s, base, "{change:?} changes nothing");
            assert_ne!(hash(&s), hash(&base), "{change:?} is not hashed");
        }
        for change in [
            |s: &mut Settings| s.repath_ticks += 1,
            |s: &mut Settings| s.repath_cells += 1.0,
            |s: &mut Settings| s.budget += 1,
            |s: &mut Settings| s.detection_radius += 1.0,
        ] {
            let mut s = base;
            change(&mut s);
            assert_ne!(hash(&s), hash(&base), "{s:?}");
        }
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

    /// A header written before the any-angle planners (no `nav` key)
    /// reads as grid planning, and grid settings are written without it;
    /// the others round-trip.
    #[test]
    fn nav_is_written_only_when_not_grid() {
        let json = serde_json::to_string(&Settings::DEFAULT).unwrap();
        assert!(!json.contains("nav"), "{json}");
        for nav in Nav::ALL.iter().copied().filter(|&n| n != Nav::Grid) {
            let s = Settings { nav, ..Settings::DEFAULT };
            let json = serde_json::to_string(&s).unwrap();
            assert!(json.contains(&format!(r#""nav":"{nav}""#)), "{json}");
            assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), s);
        }
        let nav = Setting::Nav(Nav::Waypoints);
        assert_eq!(serde_json::to_string(&nav).unwrap(), r#"{"setting":"nav","value":"waypoints"}"#);
    }

    #[test]
    fn choosing_an_algorithm_goes_back_to_the_grid() {
        let s = Settings::DEFAULT.with_planner(Planner::Navmesh);
        assert_eq!(s.planner(), Planner::Navmesh);
        assert_eq!(s.search.algorithm, Settings::DEFAULT.search.algorithm);
        let g = s.with_planner(Planner::Grid(Algorithm::Greedy));
        assert_eq!((g.nav, g.planner()), (Nav::Grid, Planner::Grid(Algorithm::Greedy)));
    }
}
