//! Settings of the living world: how monsters search and when they repath.

use super::flocking::{self, WrittenFlock};
use super::species::FLOCK_WEIGHTS;
use super::tactics::{Aim, Lost, Packs};
use crate::grid::Grid;
use crate::hash::{StateHash, StateHasher};
use crate::named::named_enum;
use crate::nav::Navigator;
use crate::search::{Expansion, MAX_WEIGHT, MIN_WEIGHT, PlanError, Planner, SearchSettings};
use crate::steer::FlockWeights;
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
    /// Where monsters plan, as replay files spell it beside
    /// the grid planner (`"nav": "navmesh"`, and the command
    /// `{"setting": "nav", ...}`): read and written there only. In memory
    /// the planner is [`SearchSettings::planner`], whatever it is.
    #[derive(Default)]
    Nav, "planner kind" {
        /// The grid planner of the settings (`algorithm`).
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

    /// How the files spell `planner`: `grid` for a grid planner.
    fn of(planner: Planner) -> Nav {
        match planner.expansion() {
            Expansion::Navmesh => Nav::Navmesh,
            Expansion::Waypoints => Nav::Waypoints,
            _ => Nav::Grid,
        }
    }
}

impl Avoidance {
    fn is_separation(&self) -> bool {
        *self == Avoidance::Separation
    }
}

/// One setting, as a command changes it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "Written", try_from = "Written")]
pub enum Setting {
    /// The planner monsters use. Written as `algorithm` for a grid
    /// planner and as `nav` for an any-angle one, as replay files
    /// spell them; an any-angle planner keeps
    /// [`Settings::grid_planner`], a grid planner becomes it.
    Planner(Planner),
    /// Back to [`Settings::grid_planner`] (written `nav: grid`).
    GridPlanner,
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
    /// Where hunters aim.
    Aim(Aim),
    /// Whether the hunters of a pack split up.
    Packs(Packs),
    /// What a monster that lost the player does.
    Lost(Lost),
}

/// A setting as replay files write it: the planner as two settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "setting", content = "value")]
enum Written {
    Algorithm(Planner),
    Heuristic(crate::search::Heuristic),
    Tie(crate::search::TieBreak),
    Neighbors(crate::grid::Neighbors),
    Weight(f64),
    Reopen(bool),
    Open(crate::search::OpenUpdate),
    Smoothing(bool),
    Repath(RepathPolicy),
    Avoidance(Avoidance),
    Nav(Nav),
    Aim(Aim),
    Packs(Packs),
    Lost(Lost),
}

impl From<Setting> for Written {
    fn from(s: Setting) -> Written {
        match s {
            Setting::Planner(p) => match Nav::of(p) {
                Nav::Grid => Written::Algorithm(p),
                nav => Written::Nav(nav),
            },
            Setting::GridPlanner => Written::Nav(Nav::Grid),
            Setting::Heuristic(h) => Written::Heuristic(h),
            Setting::Tie(t) => Written::Tie(t),
            Setting::Neighbors(n) => Written::Neighbors(n),
            Setting::Weight(w) => Written::Weight(w),
            Setting::Reopen(r) => Written::Reopen(r),
            Setting::Open(o) => Written::Open(o),
            Setting::Smoothing(on) => Written::Smoothing(on),
            Setting::Repath(p) => Written::Repath(p),
            Setting::Avoidance(a) => Written::Avoidance(a),
            Setting::Aim(a) => Written::Aim(a),
            Setting::Packs(p) => Written::Packs(p),
            Setting::Lost(l) => Written::Lost(l),
        }
    }
}

impl TryFrom<Written> for Setting {
    type Error = String;

    fn try_from(w: Written) -> Result<Setting, String> {
        Ok(match w {
            Written::Algorithm(p) => Setting::Planner(grid_planner(p)?),
            Written::Nav(Nav::Grid) => Setting::GridPlanner,
            Written::Nav(Nav::Navmesh) => Setting::Planner(Planner::NAVMESH),
            Written::Nav(Nav::Waypoints) => Setting::Planner(Planner::WAYPOINTS),
            Written::Heuristic(h) => Setting::Heuristic(h),
            Written::Tie(t) => Setting::Tie(t),
            Written::Neighbors(n) => Setting::Neighbors(n),
            Written::Weight(w) => Setting::Weight(w),
            Written::Reopen(r) => Setting::Reopen(r),
            Written::Open(o) => Setting::Open(o),
            Written::Smoothing(on) => Setting::Smoothing(on),
            Written::Repath(p) => Setting::Repath(p),
            Written::Avoidance(a) => Setting::Avoidance(a),
            Written::Aim(a) => Setting::Aim(a),
            Written::Packs(p) => Setting::Packs(p),
            Written::Lost(l) => Setting::Lost(l),
        })
    }
}

/// `planner` if it is a grid planner, as `algorithm` must be in a file.
fn grid_planner(planner: Planner) -> Result<Planner, String> {
    match Nav::of(planner) {
        Nav::Grid => Ok(planner),
        nav => Err(format!("algorithm {planner} is written as nav \"{nav}\"")),
    }
}

/// Everything a user can change about how monsters plan.
///
/// Set the planner with [`Settings::with_planner`] or
/// [`Settings::apply`], which keep [`Settings::grid_planner`] in step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "WrittenSettings", try_from = "WrittenSettings")]
pub struct Settings {
    /// How each monster's search runs, the planner included.
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
    /// How monsters and wanderers keep apart.
    pub avoidance: Avoidance,
    /// While monsters plan any-angle (`search.planner` is navmesh or
    /// waypoints): the grid planner chosen last, which
    /// [`Setting::GridPlanner`] goes back to. Replay files
    /// write the planner as this grid planner (`algorithm`) and `nav`, and
    /// the world hash counts both, so it is state. Not read while
    /// `search.planner` is a grid planner (it is then that planner).
    pub grid_planner: Planner,
    /// Where hunters aim (see [`Aim`]).
    pub aim: Aim,
    /// Whether the hunters of a pack split up (see [`Packs`]).
    pub packs: Packs,
    /// What a monster that lost the player does (see [`Lost`]).
    pub lost: Lost,
    /// How much a boid's separation, alignment and cohesion count
    /// (`sim::flocking`; [`FLOCK_WEIGHTS`] by default).
    pub flock: FlockWeights,
}

/// The settings as replay files write them: the planner as a
/// grid planner in `search.algorithm` and, when it is any-angle, `nav`;
/// `avoidance`, `nav` and `flock` only when not the default, so that files made
/// before they existed read back, and are written back, unchanged.
/// A key it does not know is refused (a replay header's settings mean one
/// thing).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenSettings {
    search: SearchSettings,
    smoothing: bool,
    repath: RepathPolicy,
    repath_ticks: u32,
    repath_cells: f32,
    budget: u32,
    detection_radius: f32,
    #[serde(default, skip_serializing_if = "Avoidance::is_separation")]
    avoidance: Avoidance,
    #[serde(default, skip_serializing_if = "Nav::is_grid")]
    nav: Nav,
    #[serde(default)]
    aim: Aim,
    #[serde(default)]
    packs: Packs,
    #[serde(default)]
    lost: Lost,
    #[serde(default = "WrittenFlock::default_weights", skip_serializing_if = "WrittenFlock::is_default")]
    flock: WrittenFlock,
}

impl From<Settings> for WrittenSettings {
    fn from(s: Settings) -> WrittenSettings {
        let (algorithm, nav) = s.written_planner();
        WrittenSettings {
            search: SearchSettings { planner: algorithm, ..s.search },
            smoothing: s.smoothing,
            repath: s.repath,
            repath_ticks: s.repath_ticks,
            repath_cells: s.repath_cells,
            budget: s.budget,
            detection_radius: s.detection_radius,
            avoidance: s.avoidance,
            nav,
            aim: s.aim,
            packs: s.packs,
            lost: s.lost,
            flock: s.flock.into(),
        }
    }
}

impl TryFrom<WrittenSettings> for Settings {
    type Error = String;

    fn try_from(w: WrittenSettings) -> Result<Settings, String> {
        let grid = grid_planner(w.search.planner)?;
        let planner = match w.nav {
            Nav::Grid => grid,
            Nav::Navmesh => Planner::NAVMESH,
            Nav::Waypoints => Planner::WAYPOINTS,
        };
        Ok(Settings {
            search: SearchSettings { planner, ..w.search },
            smoothing: w.smoothing,
            repath: w.repath,
            repath_ticks: w.repath_ticks,
            repath_cells: w.repath_cells,
            budget: w.budget,
            detection_radius: w.detection_radius,
            avoidance: w.avoidance,
            grid_planner: grid,
            aim: w.aim,
            packs: w.packs,
            lost: w.lost,
            flock: w.flock.into(),
        })
    }
}

/// What the key of the plan a monster follows holds: a plan made under
/// other search settings or smoothing is replanned at once. The planner
/// is kept as the files write it (the grid planner, then `nav`), so the
/// key hashes as it always has.
pub type PlanKey = (SearchSettings, bool, Nav);

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
        grid_planner: Planner::ASTAR,
        aim: Aim::Goal,
        packs: Packs::Split,
        lost: Lost::Sweep,
        flock: FLOCK_WEIGHTS,
    };

    /// The planner monsters use.
    pub fn planner(&self) -> Planner {
        self.search.planner
    }

    /// These settings with monsters planning with `planner` (an any-angle
    /// planner keeps the grid planner to go back to).
    pub fn with_planner(mut self, planner: Planner) -> Settings {
        self.apply(Setting::Planner(planner));
        self
    }

    /// The change to the next planner in the `A` key's cycle
    /// ([`Planner::next`]); the world passes over one that cannot run on
    /// its level ([`Settings::apply_on`]).
    pub fn next_planner(&self) -> Setting {
        Setting::Planner(self.planner().next())
    }

    /// The grid planner and the `nav` replay files write for the planner.
    fn written_planner(&self) -> (Planner, Nav) {
        let planner = self.search.planner;
        match Nav::of(planner) {
            Nav::Grid => (planner, Nav::Grid),
            nav => (self.grid_planner, nav),
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
        let weight = self.search.navmesh_weight;
        if !(MIN_WEIGHT..=MAX_WEIGHT).contains(&weight) {
            return Some(format!("navmesh_weight {weight} is not from {MIN_WEIGHT} to {MAX_WEIGHT}"));
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
        flocking::problem(&self.flock)
    }

    /// The settings a plan depends on: a plan made under others is
    /// replanned at once (repath reason `settings`).
    pub(super) fn plan_key(&self) -> PlanKey {
        let (algorithm, nav) = self.written_planner();
        (SearchSettings { planner: algorithm, ..self.search }, self.smoothing, nav)
    }

    /// Applies `setting` in a world on `grid`: as [`Settings::apply`],
    /// except that a planner that cannot run there
    /// ([`Navigator::check`]: the corner graph beyond its cap) is passed
    /// over for the next of the cycle that can, as the `A` key does. Returns
    /// the setting applied and the planners passed over, with why.
    pub fn apply_on(&mut self, grid: &Grid, setting: Setting) -> (Setting, Vec<(Planner, PlanError)>) {
        let (setting, skipped) = match setting {
            Setting::Planner(p) if Navigator::check(p, grid).is_err() => {
                let (next, mut skipped) = Navigator::next_in_cycle(p, grid);
                if let Err(e) = Navigator::check(p, grid) {
                    skipped.insert(0, (p, e));
                }
                (Setting::Planner(next), skipped)
            }
            other => (other, Vec::new()),
        };
        self.apply(setting);
        (setting, skipped)
    }

    /// Applies one change; a weight is clamped to the accepted range.
    pub fn apply(&mut self, setting: Setting) {
        let s = &mut self.search;
        match setting {
            Setting::Planner(p) => {
                s.planner = p;
                if Nav::of(p) == Nav::Grid {
                    self.grid_planner = p;
                }
            }
            Setting::GridPlanner => s.planner = self.grid_planner,
            Setting::Heuristic(h) => s.heuristic = h,
            Setting::Tie(t) => s.tie = t,
            Setting::Neighbors(n) => s.neighbors = n,
            Setting::Weight(w) => s.weight = if w.is_finite() { w.clamp(MIN_WEIGHT, MAX_WEIGHT) } else { s.weight },
            Setting::Reopen(r) => s.reopen = r,
            Setting::Open(o) => s.open = o,
            Setting::Smoothing(on) => self.smoothing = on,
            Setting::Repath(p) => self.repath = p,
            Setting::Avoidance(a) => self.avoidance = a,
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
            grid_planner: _,
            aim,
            packs,
            lost,
            flock,
        } = self;
        // The planner as the files write it (a grid planner as `algorithm`
        // and `nav`), which covers `grid_planner`.
        let (algorithm, nav) = self.written_planner();
        h.add(&SearchSettings { planner: algorithm, ..*search });
        h.add(smoothing);
        h.add(repath);
        h.add(repath_ticks);
        h.add(repath_cells);
        h.add(budget);
        h.add(detection_radius);
        h.add(avoidance);
        h.add(&nav);
        h.add(aim);
        h.add(packs);
        h.add(lost);
        // Only when set, as headers write it: recordings made before it
        // was a setting hash as they always did.
        if *flock != FLOCK_WEIGHTS {
            let FlockWeights { separation, alignment, cohesion } = flock;
            h.add(separation);
            h.add(alignment);
            h.add(cohesion);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Order;

    #[test]
    fn apply_changes_one_thing_and_clamps_weight() {
        let mut s = Settings::default();
        s.apply(Setting::Planner(Planner::GREEDY));
        assert_eq!(s.search.planner, Planner::GREEDY);
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
            Setting::Planner(Planner::GREEDY),
            Setting::Planner(Planner::new(Order::Dijkstra, Expansion::Jps).unwrap()),
            Setting::Heuristic(crate::search::Heuristic::Manhattan),
            Setting::Tie(crate::search::TieBreak::Cross),
            Setting::Neighbors(crate::grid::Neighbors::Four),
            Setting::Weight(2.0),
            Setting::Reopen(!base.search.reopen),
            Setting::Open(crate::search::OpenUpdate::DecreaseKey),
            Setting::Smoothing(!base.smoothing),
            Setting::Repath(RepathPolicy::Timer),
            Setting::Avoidance(Avoidance::Orca),
            Setting::Planner(Planner::NAVMESH),
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
            |s: &mut Settings| s.flock.separation += 1.0,
            |s: &mut Settings| s.flock.alignment += 1.0,
            |s: &mut Settings| s.flock.cohesion += 1.0,
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

    /// The default flocking weights are left out of a header, and hashed
    /// as nothing, so that recordings made before the setting read, write
    /// and hash the same; other weights round-trip, and a header holding
    /// bad ones is refused.
    #[test]
    fn flock_is_written_and_hashed_only_when_not_the_default() {
        let hash = |s: &Settings| {
            let mut h = StateHasher::default();
            s.hash_into(&mut h);
            h.finish()
        };
        let json = serde_json::to_string(&Settings::DEFAULT).unwrap();
        assert!(!json.contains("flock"), "{json}");
        let loose = Settings { flock: flocking::FlockPreset::NoCohesion.weights(), ..Settings::DEFAULT };
        let json = serde_json::to_string(&loose).unwrap();
        assert!(json.ends_with(r#","flock":{"separation":6.0,"alignment":1.0,"cohesion":0.0}}"#), "{json}");
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), loose);
        // The default written out reads as the default, and hashes so.
        let explicit = json.replace(r#""cohesion":0.0"#, r#""cohesion":0.3"#);
        let read = serde_json::from_str::<Settings>(&explicit).unwrap();
        assert_eq!((read, hash(&read)), (Settings::DEFAULT, hash(&Settings::DEFAULT)));
        for (bad, why) in [
            (r#""cohesion":0.0}"#, r#""cohesion":0.0,"speed":1}"#),
            (r#","alignment":1.0"#, ""),
            (r#"{"separation":6.0,"alignment":1.0,"cohesion":0.0}"#, "null"),
        ] {
            assert!(serde_json::from_str::<Settings>(&json.replace(bad, why)).is_err(), "{bad} -> {why}");
        }
        let negative = serde_json::from_str::<Settings>(&json.replace(r#""cohesion":0.0"#, r#""cohesion":-2.0"#));
        assert_eq!(negative.unwrap().problem().as_deref(), Some("flock cohesion -2 is not from 0 to 100"));
    }

    /// A header written before the any-angle planners (no `nav` key)
    /// reads as grid planning, and grid settings are written without it;
    /// the others round-trip, and commands are spelled as before.
    #[test]
    fn nav_is_written_only_when_not_grid() {
        let json = serde_json::to_string(&Settings::DEFAULT).unwrap();
        assert!(!json.contains("nav"), "{json}");
        for planner in [Planner::NAVMESH, Planner::WAYPOINTS] {
            let s = Settings::DEFAULT.with_planner(Planner::HPA).with_planner(planner);
            let json = serde_json::to_string(&s).unwrap();
            assert!(json.contains(&format!(r#""nav":"{planner}""#)), "{json}");
            assert!(json.contains(r#""algorithm":"hpa""#), "{json}");
            assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), s);
        }
        let nav = Setting::Planner(Planner::WAYPOINTS);
        assert_eq!(serde_json::to_string(&nav).unwrap(), r#"{"setting":"nav","value":"waypoints"}"#);
        let jps = Setting::Planner(Planner::JPS_PLUS);
        assert_eq!(serde_json::to_string(&jps).unwrap(), r#"{"setting":"algorithm","value":"jps+"}"#);
        let back = serde_json::from_str::<Setting>(r#"{"setting":"nav","value":"grid"}"#).unwrap();
        assert_eq!(back, Setting::GridPlanner);
        assert_eq!(serde_json::to_string(&back).unwrap(), r#"{"setting":"nav","value":"grid"}"#);
        // An any-angle planner has one spelling.
        let e = serde_json::from_str::<Setting>(r#"{"setting":"algorithm","value":"navmesh"}"#).unwrap_err();
        assert!(e.to_string().contains("algorithm navmesh is written as nav \"navmesh\""), "{e}");
    }

    /// The header of the golden replays, byte for byte: the settings are
    /// written as replay files have always written them, whatever the type
    /// in memory, and the hunters' tactics after them.
    #[test]
    fn the_header_reads_and_writes_as_recordings_hold_it() {
        let header = r#"{"search":{"algorithm":"astar","heuristic":"octile","tie":"fifo","neighbors":"8","weight":1.5,"reopen":false},"smoothing":true,"repath":"timer+threshold","repath_ticks":10,"repath_cells":3.0,"budget":20000,"detection_radius":40.0,"aim":"goal","packs":"split","lost":"sweep"}"#;
        assert_eq!(serde_json::to_string(&Settings::DEFAULT).unwrap(), header);
        // A header written before the hunters' tactics reads with their
        // defaults.
        let before = header.replace(r#","aim":"goal","packs":"split","lost":"sweep""#, "");
        assert_eq!(serde_json::from_str::<Settings>(&before).unwrap(), Settings::DEFAULT);
        assert_eq!(serde_json::from_str::<Settings>(header).unwrap(), Settings::DEFAULT);
    }

    /// The hash of a planner is the hash recordings gave the pair
    /// (algorithm, nav): the grid planner's code, then the `nav` byte for
    /// an any-angle one, remembered across it.
    #[test]
    fn the_planner_hashes_as_the_pair_it_is_written_as() {
        let hash = |s: &Settings| {
            let mut h = StateHasher::default();
            s.hash_into(&mut h);
            h.finish()
        };
        let (greedy, hpa) =
            (Settings::DEFAULT.with_planner(Planner::GREEDY), Settings::DEFAULT.with_planner(Planner::HPA));
        let (a, b) = (greedy.with_planner(Planner::NAVMESH), hpa.with_planner(Planner::NAVMESH));
        assert_eq!(a.planner(), b.planner());
        assert_ne!(hash(&a), hash(&b), "the grid planner to go back to is state");
        let mut back = b;
        back.apply(Setting::GridPlanner);
        assert_eq!((back, hash(&back)), (hpa, hash(&hpa)));
        let code = |p: Planner| {
            let mut h = StateHasher::default();
            h.add(&p);
            h.finish()
        };
        let byte = |b: u8| {
            let mut h = StateHasher::default();
            h.u8(b);
            h.finish()
        };
        assert_eq!([code(Planner::BFS), code(Planner::JPS), code(Planner::HPA)], [byte(0), byte(5), byte(7)]);
        let mut codes: Vec<u64> = Order::ALL
            .iter()
            .flat_map(|&o| Expansion::ALL.iter().filter_map(move |&e| Planner::new(o, e).ok()))
            .filter(|p| Nav::of(*p) == Nav::Grid)
            .map(code)
            .collect();
        let n = codes.len();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), n, "two grid planners share a hash code");
    }

    /// The world passes over the corner graph on a level beyond its cap,
    /// to the next planner of the cycle, and says which it passed.
    #[test]
    fn a_planner_that_cannot_run_on_the_level_is_passed_over() {
        let rows: Vec<String> =
            (0..150).map(|y| (0..150).map(|x| if x % 2 + y % 2 == 0 { '#' } else { '.' }).collect()).collect();
        let grid = crate::level::Level::parse(&rows.join("\n"), "t").unwrap().grid;
        let mut s = Settings::DEFAULT.with_planner(Planner::NAVMESH);
        let (applied, skipped) = s.apply_on(&grid, s.next_planner());
        assert_eq!(applied, Setting::Planner(Planner::BFS));
        assert!(matches!(skipped[..], [(Planner::WAYPOINTS, PlanError::TooManyCorners { .. })]), "{skipped:?}");
        assert_eq!(s.planner(), Planner::BFS);
        let small = crate::level::Level::parse("....\n.#..", "t").unwrap().grid;
        let mut s = Settings::DEFAULT.with_planner(Planner::NAVMESH);
        assert_eq!(s.apply_on(&small, s.next_planner()), (Setting::Planner(Planner::WAYPOINTS), Vec::new()));
    }

    #[test]
    fn choosing_a_grid_planner_goes_back_to_the_grid() {
        let s = Settings::DEFAULT.with_planner(Planner::NAVMESH);
        assert_eq!(s.planner(), Planner::NAVMESH);
        assert_eq!(s.grid_planner, Settings::DEFAULT.search.planner);
        let g = s.with_planner(Planner::GREEDY);
        assert_eq!((g.grid_planner, g.planner()), (Planner::GREEDY, Planner::GREEDY));
    }
}
