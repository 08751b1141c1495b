//! The world: a pure function of (level, seed, commands).
//!
//! A world is three parts kept apart, each in a module named for it:
//!
//! - `state`: everything that decides what happens next (the grid, the
//!   settings, the player and its pace, the creatures, the hunters' queue
//!   and searches, the doors, the rules and how the session stands, the
//!   generators). [`World::hash`] is the hash of the state, by
//!   construction: every type in it implements [`StateHash`] beside its
//!   definition, taking itself apart field by field.
//! - `session`: what a front end reads and observation only: the level's
//!   name, when the session ended, the message log, the watched monster
//!   and the statistics. Nothing in it decides anything, so none of it is
//!   hashed.
//! - `scratch`: buffers a tick refills before it reads them, kept only to
//!   avoid allocating every tick.
//!
//! A tick runs the systems of `SYSTEMS` in their order, one function each
//! (`player`, `systems` and `movement` hold them), then the tally of its
//! statistics.

mod movement;
mod player;
mod scratch;
mod session;
mod spawn;
mod state;
mod systems;
mod tactics;

pub use state::Player;

use super::Kind;
use super::clock::Span;
use super::command::Command;
use super::creature::Creature;
use super::doors::Doors;
use super::errand::{ErrandKind, PlayerSearch, Route};
use super::events::{Event, Sense, Stamped};
use super::memory::{Memory, sight_radius};
use super::mind::{Awareness, Reason};
use super::pace::{Act, SUBTICKS, is_move, step_duration, step_time};
use super::rules::{Outcome, Rules};
use super::settings::Settings;
use super::sightings::Sightings;
use super::stats::Stats;
use crate::grid::{Cell, Grid};
use crate::hash::{StateHash, StateHasher};
use crate::level::Level;
use crate::steer::Vec2;
use scratch::Scratch;
use session::Session;
use state::State;
use std::ops::ControlFlow;

// Simulation ticks per second of game time: the level format's rate.
pub use crate::level::TICKS_PER_SECOND;
/// Game time of one tick, in seconds.
pub const DT: f32 = 1.0 / TICKS_PER_SECOND as f32;
/// Most creatures any world holds; a smaller level holds fewer (see
/// [`World::capacity`]). Every way in refuses more with a clear error
/// (a level's markers when its world is made, flags, replay headers and
/// spawn commands, which count what the world already holds);
/// [`World::apply`] itself, which cannot fail, cuts a spawn short at the
/// capacity.
pub const MAX_CREATURES: usize = 100_000;
/// Speed the player's steps onto plain floor are taken to have, for
/// creatures that predict where the player goes (cells per second): boids
/// scattering from it, hunters aiming ahead of it (`sim::foresight`); a
/// step into a costly cell is that many times slower.
const PLAYER_SPEED: f32 = 5.0;
/// Ticks after a step onto plain floor during which the player counts as
/// moving (seen to move, heard): longer than a diagonal step, so a walking
/// player is heard without a gap. A slower step (mud, water) counts for as
/// much longer as it lasts.
const PLAYER_MOVING_TICKS: u64 = 6;

/// A level that cannot hold a world.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum WorldError {
    /// The level (named) has no walkable cell to put the player on.
    #[error("level '{0}' has no walkable cell for the player")]
    NoRoom(String),
    /// The level's creature markers and the spawns together exceed the
    /// world's [capacity](World::capacity).
    #[error(
        "level '{level}' has {}: more than the {capacity} it holds (one per free cell, at most {MAX_CREATURES})",
        crowd(*markers, *spawns)
    )]
    TooManyCreatures { level: String, markers: usize, spawns: u64, capacity: usize },
}

/// The creatures a start asks for, as [`WorldError::TooManyCreatures`]
/// counts them.
fn crowd(markers: usize, spawns: u64) -> String {
    match spawns {
        0 => format!("{markers} creature markers"),
        _ => format!("{markers} creature markers and {spawns} creatures to spawn"),
    }
}

/// Everything that lives in a level: its state (hashed), its session (what
/// a front end reads) and the buffers of a tick.
#[derive(Debug)]
pub struct World {
    state: State,
    session: Session,
    scratch: Scratch,
}

/// One system of a tick: it reads and changes the world, and breaks off
/// the tick when the session is decided before the systems after it.
type System = fn(&mut World) -> ControlFlow<()>;

/// The systems of a tick, in the order they run, by the names the docs
/// give them (docs/world.md lists them in this order, which a test checks):
///
/// 1. `walk`: the player's queued move or the run's next step, if its pace
///    allows one in the tick starting now.
/// 2. `clock`: the tick counts, and the grace after a catch ends once it
///    has lasted two seconds and the player has moved away (or ten).
/// 3. `goal`: standing on the goal wins before anything can move (and ends
///    the tick).
/// 4. `doors`: cycling doors open and close, before anyone perceives or
///    plans, so that this tick's plans see them.
/// 5. `sight`: what the player sees from where it stands now joins what it
///    has seen.
/// 6. `perceive`: every monster's sight and hearing of the player moves its
///    mind on.
/// 7. `tactics`: hunters form packs and aim ahead of a moving player, and
///    searching monsters sweep (see `sim::tactics`).
/// 8. `request`: monsters heading somewhere queue their requests for a plan.
/// 9. `serve`: the flow field is brought up to date and the queue served
///    while the tick's budget of expansions lasts.
/// 10. `steer`: what every creature senses of the bodies as they stand (the
///     crowd's overlaps and nearest time to collision among it, statistics
///     only), and its steering force (one wander draw each), smoothed and
///     integrated, or, under ORCA, its preferred velocity.
/// 11. `avoid`: under ORCA, the velocities chosen for the crowd, and moves.
/// 12. `catch`: the first monster touching the player catches it (and
///     ends whatever the player was doing).
/// 13. `heed`: an errand stops when a monster (or for a run or an
///     exploration, the goal) comes into view; an exploration that has
///     seen its cell heads for the next.
/// 14. `survive`: staying uncaught long enough wins.
///
/// Then, whether the tick ran to the end or not, the tally closes the
/// tick's statistics.
const SYSTEMS: [(&str, System); 14] = [
    ("walk", player::walk),
    ("clock", systems::clock),
    ("goal", systems::goal),
    ("doors", systems::doors),
    ("sight", player::sight),
    ("perceive", systems::perceive),
    ("tactics", tactics::tactics),
    ("request", systems::request),
    ("serve", systems::serve),
    ("steer", movement::steer),
    ("avoid", movement::avoid),
    ("catch", systems::catch),
    ("heed", player::heed),
    ("survive", systems::survive),
];

impl World {
    /// A sandbox world on `level` (see [`World::with_rules`]).
    pub fn new(level: &Level, seed: u64, settings: Settings) -> Result<World, WorldError> {
        World::with_rules(level, seed, settings, Rules::SANDBOX)
    }

    /// A world on `level` playing by `rules`: the player at `@` (or a
    /// random walkable cell when the level has none) and a creature on
    /// every marker. A level with more markers than the world's
    /// [capacity](World::capacity) is refused before any creature is made:
    /// the level reads any number of markers, the world says how many it
    /// holds.
    pub fn with_rules(level: &Level, seed: u64, settings: Settings, rules: Rules) -> Result<World, WorldError> {
        let state = State::new(level, seed, settings, rules)?;
        let mut world = World { state, session: Session::new(&level.name), scratch: Scratch::new() };
        let markers = [
            (Kind::Monster, &level.monsters),
            (Kind::Wanderer, &level.wanderers),
            (Kind::Fleeing, &level.fleeing),
            (Kind::Boid, &level.boids),
        ];
        let count = markers.iter().map(|(_, cells)| cells.len()).sum();
        if count > world.capacity() {
            let (level, capacity) = (level.name.clone(), world.capacity());
            return Err(WorldError::TooManyCreatures { level, markers: count, spawns: 0, capacity });
        }
        for (kind, cells) in markers {
            for &c in cells.iter() {
                world.add(kind, c);
            }
        }
        world.look();
        Ok(world)
    }

    /// The level's name.
    pub fn name(&self) -> &str {
        &self.session.name
    }

    /// The seed every random stream of the world derives from.
    pub fn seed(&self) -> u64 {
        self.state.seed
    }

    /// The tiles as they are now (doors open and close).
    pub fn grid(&self) -> &Grid {
        &self.state.grid
    }

    /// Ticks simulated so far.
    pub fn ticks(&self) -> u64 {
        self.state.tick
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.state.settings
    }

    /// The player.
    pub fn player(&self) -> &Player {
        &self.state.player
    }

    /// Every creature, in a fixed order (markers row by row, monsters
    /// first, then spawns in the order they were made).
    pub fn creatures(&self) -> &[Creature] {
        &self.state.creatures
    }

    /// The field hunters descend under the `flow-field` policy (the last
    /// complete one); `None` under the other policies.
    pub fn flow_field(&self) -> Option<&crate::search::GridFlow> {
        self.state.hunter.flow.field()
    }

    /// Search and repath statistics, live and over the recent window.
    pub fn stats(&self) -> &Stats {
        &self.session.stats
    }

    /// The rules the session plays by.
    pub fn rules(&self) -> &Rules {
        &self.state.rules
    }

    /// How the session stands; a won or lost world no longer changes.
    pub fn outcome(&self) -> Outcome {
        self.state.outcome
    }

    /// The tick the session was won or lost at; `None` while it runs.
    pub fn ended_at(&self) -> Option<u64> {
        self.session.ended_at
    }

    /// Catches the player can still take; `None`: unlimited (a sandbox).
    pub fn lives(&self) -> Option<u32> {
        self.state.lives
    }

    /// Ticks the grace after a catch lasts at most from now (the player's
    /// cell flashes): to two seconds after the catch once the player has
    /// moved away from where it was caught, else to ten (see [`Grace`]);
    /// 0 when there is none.
    ///
    /// [`Grace`]: super::Grace
    pub fn grace_ticks_left(&self) -> u32 {
        self.state.grace.map_or(0, |g| g.ticks_left(self.state.tick, self.state.player.cell))
    }

    /// The most recent events (at most [`LOG_CAPACITY`](super::LOG_CAPACITY)),
    /// oldest first.
    pub fn events(&self) -> &[Stamped] {
        self.session.log.recent()
    }

    /// Events raised since the world began: a front end keeps the count it
    /// last showed and shows the ones after it.
    pub fn events_total(&self) -> u64 {
        self.session.log.total()
    }

    /// The events raised after the first `taken` ([`World::events_total`]
    /// when they were last taken), oldest first; those that fell out of
    /// the bounded log since are skipped.
    pub fn events_after(&self, taken: u64) -> &[Stamped] {
        let new = usize::try_from(self.events_total().saturating_sub(taken)).unwrap_or(usize::MAX);
        let events = self.events();
        &events[events.len().saturating_sub(new)..]
    }

    /// The state of creature `index`'s mind and why; `None` when it is not
    /// a monster.
    pub fn awareness(&self, index: usize) -> Option<Awareness> {
        Some(self.state.creatures.get(index)?.hunt.as_ref()?.mind.awareness())
    }

    /// How monster `index` perceived the player in the last tick: by sight
    /// (which wins when it could also hear), by hearing, or not at all
    /// (`None`, also for a creature that is not a monster). Read from its
    /// mind, for a front end that tells the player whether they are seen
    /// or heard right now.
    pub fn perceived(&self, index: usize) -> Option<Sense> {
        let mind = &self.state.creatures.get(index)?.hunt.as_ref()?.mind;
        let now = mind.last_perceived == self.state.tick;
        match mind.reason {
            Some(Reason::Saw) if now => Some(Sense::Sight),
            Some(Reason::Heard) if now => Some(Sense::Hearing),
            _ => None,
        }
    }

    /// The level's `G`, which [`Goal::Reach`](super::Goal::Reach) asks the
    /// player to stand on.
    pub fn goal_cell(&self) -> Option<Cell> {
        self.state.goal_cell
    }

    /// The level's cycling doors, if it has them (`doors: cycle N`).
    pub fn doors(&self) -> Option<&Doors> {
        self.state.doors.as_ref()
    }

    /// The acts that wait for the player's pace: the next one, and the one
    /// typed ahead of it.
    pub fn queued(&self) -> [Option<Act>; 2] {
        [self.state.walk.queued, self.state.walk.ahead]
    }

    /// The errand the player is on (a run, a travel, an exploration), if any.
    pub fn errand(&self) -> Option<ErrandKind> {
        self.state.walk.errand.as_ref().map(|e| e.kind())
    }

    /// The route a travel or an exploration walks, if one is under way.
    pub fn route(&self) -> Option<&Route> {
        self.state.walk.errand.as_ref()?.route()
    }

    /// Whether the player is doing nothing: no act waits, no errand, and
    /// the pace allows an act at the coming tick. A move given now would be
    /// taken then; in turn mode the world waits for the player while this
    /// holds, and runs while it does not.
    pub fn ready(&self) -> bool {
        self.state.walk.is_idle(self.state.tick)
    }

    /// What the player has seen: auto-explore's map, and the fog of war's.
    pub fn memory(&self) -> &Memory {
        &self.state.memory
    }

    /// Where the player last saw the monsters it remembers (by its own
    /// field of view): auto-explore's wariness, and the screen's
    /// last-seen marks.
    pub fn sightings(&self) -> &Sightings {
        &self.state.sightings
    }

    /// How far the player sees, in cells: as far as monsters see it.
    pub fn sight_radius(&self) -> i32 {
        sight_radius(self.state.settings.detection_radius)
    }

    /// The player's last search for a travel or an exploration.
    pub fn player_search(&self) -> Option<&PlayerSearch> {
        self.session.player_search.as_ref()
    }

    /// The 1-based ordinal of creature `index` among the monsters, as the
    /// panel and the events name it.
    pub fn monster_ordinal(&self, index: usize) -> usize {
        self.state.monsters.ordinal(index)
    }

    /// The monster whose searches are recorded cell by cell.
    pub fn watched(&self) -> Option<usize> {
        self.session.watched
    }

    /// Chooses the monster to watch. Observation only: the simulation runs
    /// the same whichever is watched, so the front end may call this
    /// directly (it is not a [`Command`]).
    pub fn watch(&mut self, creature: Option<usize>) {
        let creatures = &self.state.creatures;
        self.session.watched = creature.filter(|&i| creatures.get(i).is_some_and(|c| c.kind == Kind::Monster));
        self.session.stats.watched_search = None;
    }

    /// Most creatures this world holds: one per free cell (floor or
    /// water), at most [`MAX_CREATURES`]. Denser crowds cost every creature
    /// that many neighbours each tick (99,000 boids on the 1,167 cells of
    /// the dungeon took 20 s a tick), so a few bytes of replay could ask
    /// for hours.
    pub fn capacity(&self) -> usize {
        self.state.free.len().min(MAX_CREATURES)
    }

    /// How many creatures of each kind, in [`Kind::ALL`] order.
    pub fn counts(&self) -> [usize; 4] {
        let mut n = [0; 4];
        for c in &self.state.creatures {
            n[c.kind as usize] += 1;
        }
        n
    }

    /// The player's velocity as creatures perceive it: the last step's
    /// direction at its speed (walking speed over its cell's entry cost)
    /// for as long as the player counts as moving after it.
    pub fn player_velocity(&self) -> Vec2 {
        match self.state.player.last_step {
            Some((dx, dy, _)) if self.player_moving() => {
                let cost = f32::from(self.state.grid.entry_cost(self.state.player.cell).unwrap_or(1));
                Vec2::new(f32::from(dx), f32::from(dy)).normalized() * (PLAYER_SPEED / cost)
            }
            _ => Vec2::ZERO,
        }
    }

    /// Whether the player stepped within the last few ticks: within
    /// a few ticks (`PLAYER_MOVING_TICKS`) of a step onto plain floor, and as many
    /// ticks longer as a slower step (into the cell it stands on) lasted.
    pub fn player_moving(&self) -> bool {
        self.player_heading().is_some()
    }

    /// The direction of the player's last step while it is moving (see
    /// [`World::player_moving`]): where monsters see it heading.
    fn player_heading(&self) -> Option<(i8, i8)> {
        let (dx, dy, at) = self.state.player.last_step?;
        let cost = self.state.grid.entry_cost(self.state.player.cell).unwrap_or(1);
        let slower = (step_duration(dx, dy, cost) - step_time(dx, dy)) / SUBTICKS;
        (self.state.tick - at <= PLAYER_MOVING_TICKS + slower).then_some((dx, dy))
    }

    /// Applies one command. Commands that cannot apply (no door nearby, a
    /// move that is not one cell, a move into a wall when the player could
    /// take it now) change nothing; every command ends an errand, and a
    /// run, travel or explore starts another unless a monster is in view;
    /// a won or lost world takes no commands. What the player sees is
    /// brought up to date (a door opened shows what is behind it at once).
    pub fn apply(&mut self, command: Command) {
        if self.state.outcome.is_over() {
            return;
        }
        self.state.walk.errand = None;
        match command {
            Command::Move { dx, dy } => {
                let s = &mut self.state;
                let idle = s.walk.is_idle(s.tick);
                if is_move(dx, dy) && (!idle || s.grid.can_step(s.player.cell, i32::from(dx), i32::from(dy))) {
                    s.walk.push(Act::Step(dx, dy));
                }
            }
            Command::Wait => self.state.walk.push(Act::Rest),
            Command::Run { dx, dy } => {
                if is_move(dx, dy) {
                    self.start_run(dx, dy);
                }
            }
            Command::Travel { x, y } => self.start_travel(Cell::new(x, y)),
            Command::Explore => self.start_explore(),
            Command::Stop => self.state.walk.clear(),
            Command::Door => self.toggle_door(),
            Command::Set(setting) => {
                // A planner that cannot run on the level is passed over.
                let (applied, skipped) = self.state.settings.apply_on(&self.state.grid, setting);
                for (planner, why) in skipped {
                    self.event(Event::PlannerSkipped { planner, why });
                }
                self.event(Event::SettingChanged(applied));
            }
            Command::Spawn { kind, count } => self.spawn(kind, count),
        }
        self.look();
    }

    /// Advances the world by one tick of [`DT`] seconds: its systems in
    /// one fixed order (walk, clock, goal, doors, sight, perceive, tactics,
    /// request, serve, steer, avoid, catch, heed, survive; see
    /// docs/world.md), then the tally of its statistics. A won or lost
    /// world does not change.
    pub fn tick(&mut self) {
        if self.state.outcome.is_over() {
            return;
        }
        let span = Span::start();
        for (_, system) in SYSTEMS {
            if system(self).is_break() {
                break;
            }
        }
        let (wall, cpu) = span.micros();
        self.session.stats.record_time(wall, cpu);
        systems::tally(self);
        self.session.stats.sample_threads();
    }

    /// Logs `event` at the current tick.
    fn event(&mut self, event: Event) {
        self.session.log.push(self.state.tick, event);
    }

    /// Ends the session: the world stops here.
    fn end(&mut self, outcome: Outcome) {
        self.state.outcome = outcome;
        self.session.ended_at = Some(self.state.tick);
        self.event(if outcome == Outcome::Won { Event::Won } else { Event::Lost });
    }

    /// A stable 64-bit hash of the authoritative state: everything that
    /// decides what happens next, and nothing that merely observes it
    /// (the session) or is refilled before it is read (the scratch). It
    /// is the state's [`StateHash`], so a field added to any part of the
    /// state is hashed, or named as not state, before it compiles.
    pub fn hash(&self) -> u64 {
        let mut h = StateHasher::default();
        self.state.hash_into(&mut h);
        h.finish()
    }
}

#[cfg(test)]
mod tests;
