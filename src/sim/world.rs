//! The world: a pure function of (level, seed, commands).

use super::Kind;
use super::behave::{self, Scratch, Senses};
use super::command::Command;
use super::creature::Creature;
use super::doors::Doors;
use super::events::Sense;
use super::events::{Event, Log, Stamped};
use super::hash::StateHasher;
use super::hunt::{Hunter, Scene};
use super::landing::{LANDING_REACH, landing};
use super::mind::Awareness;
use super::pace::{Run, Walk, is_move};
use super::perceive::{Hearing, Percept, sees};
use super::rng::{Stream, stream};
use super::rules::{GRACE_TICKS, Goal, Outcome, Rules};
use super::settings::{Avoidance, Settings};
use super::species::{AVOID_RADIUS, BODY_RADIUS, CATCH_RADIUS, FLOCK_RADIUS, KEEP_RIGHT, ORCA, Species};
use super::stats::Stats;
use crate::grid::{Cell, DIRECTIONS, Grid, Tile, line_of_sight};
use crate::level::Level;
use crate::steer::{
    Agent, Body, Orca, SpatialHash, Vec2, Walls, cell_at, cell_center, crowd_check, move_body, resolve_walls,
};
use rand::RngExt;
use rand_pcg::Pcg32;

/// Simulation ticks per second of game time.
pub const TICKS_PER_SECOND: u32 = 20;
/// Game time of one tick, in seconds.
pub const DT: f32 = 1.0 / TICKS_PER_SECOND as f32;
/// Most creatures any world holds; a smaller level holds fewer (see
/// [`World::capacity`]). Every way in refuses more with a clear error
/// (level markers at load, flags, replay headers and spawn commands, which
/// count what the world already holds); [`World::apply`] itself, which
/// cannot fail, cuts a spawn short at the capacity.
pub const MAX_CREATURES: usize = 100_000;
/// Speed the player's steps are taken to have, for creatures that predict
/// where the player goes (cells per second).
const PLAYER_SPEED: f32 = 5.0;
/// Ticks after a step during which the player counts as moving (seen to
/// move, heard): longer than a diagonal step, so a walking player is heard
/// without a gap.
const PLAYER_MOVING_TICKS: u64 = 6;
/// Monsters spawned at random keep at least this far from the player.
const MONSTER_SPAWN_DISTANCE: f32 = 8.0;

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
        "level '{level}' has {markers} creature markers and {spawns} creatures to spawn: more than the {capacity} it holds (one per free cell, at most {MAX_CREATURES})"
    )]
    TooManyCreatures { level: String, markers: usize, spawns: u64, capacity: usize },
}

/// The player: a cell, moved one step per command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Where the player stands.
    pub cell: Cell,
    /// The last step (dx, dy) and the tick it was taken at.
    pub last_step: Option<(i8, i8, u64)>,
}

/// Everything that lives in a level.
#[derive(Debug)]
pub struct World {
    name: String,
    seed: u64,
    grid: Grid,
    tick: u64,
    settings: Settings,
    player: Player,
    creatures: Vec<Creature>,
    /// Where creatures may be spawned, row by row (see [`free_cells`]):
    /// fixed by the level, since no command turns a wall into floor, so a
    /// spawn never scans the level.
    free: Vec<Cell>,
    spawn_rng: Pcg32,
    wander_rng: Pcg32,
    hunter: Hunter,
    stats: Stats,
    /// The monster whose searches are recorded cell by cell (observation
    /// only: it changes no decision).
    watched: Option<usize>,
    rules: Rules,
    outcome: Outcome,
    /// The tick the session was won or lost at.
    ended_at: Option<u64>,
    /// Catches left before the session is lost; `None`: unlimited.
    lives: Option<u32>,
    /// Ticks left in which no monster can catch the player.
    grace: u32,
    /// The level's `G`, which [`Goal::Reach`] asks for.
    goal_cell: Option<Cell>,
    walk: Walk,
    /// The level's doors that open and close by themselves, if it says so.
    doors: Option<Doors>,
    log: Log,
    work: Work,
}

/// Per-tick buffers, kept to avoid allocating every tick.
#[derive(Debug)]
struct Work {
    bodies: Vec<Body>,
    kinds: Vec<Kind>,
    hash: SpatialHash,
    scratch: Scratch,
    hearing: Hearing,
    crowd: Crowd,
}

/// What ORCA and the crowd figures need from tick to tick.
#[derive(Debug)]
struct Crowd {
    orca: Orca,
    /// The grid's walls as segments, and the grid version they were made
    /// from (built on first use under ORCA, again when a door changes).
    walls: Option<(u64, Walls)>,
    /// The monsters and wanderers as ORCA agents, and their creature
    /// indices.
    agents: Vec<Agent>,
    creature_of: Vec<usize>,
    velocities: Vec<Vec2>,
    hash: SpatialHash,
    ids: Vec<u32>,
}

impl Crowd {
    fn new() -> Crowd {
        Crowd {
            orca: Orca::new(ORCA),
            walls: None,
            agents: Vec::new(),
            creature_of: Vec::new(),
            velocities: Vec::new(),
            hash: SpatialHash::new(ORCA.neighbour_dist),
            ids: Vec::new(),
        }
    }

    /// One ORCA step for the agents gathered, against the walls of `grid`
    /// (rebuilt when its version changed).
    fn step(&mut self, grid: &Grid) {
        if self.walls.as_ref().is_none_or(|(v, _)| *v != grid.version()) {
            self.walls = Some((grid.version(), Walls::from_grid(grid)));
        }
        let walls = &self.walls.as_ref().expect("just built").1;
        self.orca.step(&self.agents, walls, &mut self.velocities);
    }
}

/// The kinds that avoid each other with ORCA when it is on, and whose
/// overlaps are counted.
fn in_crowd(kind: Kind) -> bool {
    matches!(kind, Kind::Monster | Kind::Wanderer)
}

impl World {
    /// A sandbox world on `level` (see [`World::with_rules`]).
    pub fn new(level: &Level, seed: u64, settings: Settings) -> Result<World, WorldError> {
        World::with_rules(level, seed, settings, Rules::SANDBOX)
    }

    /// A world on `level` playing by `rules`: the player at `@` (or a
    /// random walkable cell when the level has none) and a creature on
    /// every marker.
    pub fn with_rules(level: &Level, seed: u64, settings: Settings, rules: Rules) -> Result<World, WorldError> {
        let mut spawn_rng = stream(seed, Stream::Spawn);
        let grid = level.grid.clone();
        let free = free_cells(&grid);
        let cell = match level.player {
            Some(c) => c,
            None => {
                if free.is_empty() {
                    return Err(WorldError::NoRoom(level.name.clone()));
                }
                free[spawn_rng.random_range(0..free.len())]
            }
        };
        let mut world = World {
            name: level.name.clone(),
            seed,
            grid,
            tick: 0,
            settings,
            player: Player { cell, last_step: None },
            creatures: Vec::new(),
            free,
            spawn_rng,
            wander_rng: stream(seed, Stream::Wander),
            hunter: Hunter::default(),
            stats: Stats::default(),
            watched: None,
            rules,
            outcome: Outcome::Running,
            ended_at: None,
            lives: rules.lives,
            grace: 0,
            goal_cell: level.goal,
            walk: Walk::default(),
            doors: level.doors.map(|cycle| Doors::new(cycle, &level.grid)),
            log: Log::default(),
            work: Work {
                bodies: Vec::new(),
                kinds: Vec::new(),
                hash: SpatialHash::new(FLOCK_RADIUS),
                scratch: Scratch::default(),
                hearing: Hearing::default(),
                crowd: Crowd::new(),
            },
        };
        let markers = [
            (Kind::Monster, &level.monsters),
            (Kind::Wanderer, &level.wanderers),
            (Kind::Fleeing, &level.fleeing),
            (Kind::Boid, &level.boids),
        ];
        for (kind, cells) in markers {
            for &c in cells.iter() {
                world.add(kind, c);
            }
        }
        Ok(world)
    }

    /// The level's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The seed every random stream of the world derives from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The tiles as they are now (doors open and close).
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Ticks simulated so far.
    pub fn ticks(&self) -> u64 {
        self.tick
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The player.
    pub fn player(&self) -> &Player {
        &self.player
    }

    /// Every creature, in a fixed order (markers row by row, monsters
    /// first, then spawns in the order they were made).
    pub fn creatures(&self) -> &[Creature] {
        &self.creatures
    }

    /// The field hunters descend under the `flow-field` policy (the last
    /// complete one); `None` under the other policies.
    pub fn flow_field(&self) -> Option<&crate::search::GridFlow> {
        self.hunter.flow.field()
    }

    /// Search and repath statistics, live and over the recent window.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The rules the session plays by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// How the session stands; a won or lost world no longer changes.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// The tick the session was won or lost at; `None` while it runs.
    pub fn ended_at(&self) -> Option<u64> {
        self.ended_at
    }

    /// Catches the player can still take; `None`: unlimited (a sandbox).
    pub fn lives(&self) -> Option<u32> {
        self.lives
    }

    /// Ticks of grace left after a catch (the player's cell flashes).
    pub fn grace_ticks_left(&self) -> u32 {
        self.grace
    }

    /// The most recent events (at most [`LOG_CAPACITY`](super::LOG_CAPACITY)),
    /// oldest first.
    pub fn events(&self) -> &[Stamped] {
        self.log.recent()
    }

    /// Events raised since the world began: a front end keeps the count it
    /// last showed and shows the ones after it.
    pub fn events_total(&self) -> u64 {
        self.log.total()
    }

    /// The state of creature `index`'s mind and why; `None` when it is not
    /// a monster.
    pub fn awareness(&self, index: usize) -> Option<Awareness> {
        Some(self.creatures.get(index)?.hunt.as_ref()?.mind.awareness())
    }

    /// The level's `G`, which [`Goal::Reach`] asks the player to stand on.
    pub fn goal_cell(&self) -> Option<Cell> {
        self.goal_cell
    }

    /// The level's cycling doors, if it has them (`doors: cycle N`).
    pub fn doors(&self) -> Option<&Doors> {
        self.doors.as_ref()
    }

    /// The move waiting for the player's pace, if any.
    pub fn queued_move(&self) -> Option<(i8, i8)> {
        self.walk.queued
    }

    /// The direction the player is running in, if running.
    pub fn running(&self) -> Option<(i8, i8)> {
        self.walk.run.as_ref().map(|r| (r.dx, r.dy))
    }

    /// Whether a move given now would be taken at the coming tick: nothing
    /// waits and the pace allows a step.
    pub fn ready(&self) -> bool {
        self.walk.queued.is_none() && self.walk.run.is_none() && self.walk.is_free(self.tick)
    }

    /// The 1-based ordinal of creature `index` among the monsters, as the
    /// panel and the events name it.
    pub fn monster_ordinal(&self, index: usize) -> usize {
        1 + self.creatures[..index.min(self.creatures.len())].iter().filter(|c| c.kind == Kind::Monster).count()
    }

    fn event(&mut self, event: Event) {
        self.log.push(self.tick, event);
    }

    /// The monster whose searches are recorded cell by cell.
    pub fn watched(&self) -> Option<usize> {
        self.watched
    }

    /// Chooses the monster to watch. Observation only: the simulation runs
    /// the same whichever is watched, so the front end may call this
    /// directly (it is not a [`Command`]).
    pub fn watch(&mut self, creature: Option<usize>) {
        self.watched = creature.filter(|&i| self.creatures.get(i).is_some_and(|c| c.kind == Kind::Monster));
        self.stats.watched_search = None;
    }

    /// Most creatures this world holds: one per free cell (floor or
    /// water), at most [`MAX_CREATURES`]. Denser crowds cost every creature
    /// that many neighbours each tick (99,000 boids on the 1,167 cells of
    /// the dungeon took 20 s a tick), so a few bytes of replay could ask
    /// for hours.
    pub fn capacity(&self) -> usize {
        self.free.len().min(MAX_CREATURES)
    }

    /// How many creatures of each kind, in [`Kind::ALL`] order.
    pub fn counts(&self) -> [usize; 4] {
        let mut n = [0; 4];
        for c in &self.creatures {
            n[c.kind as usize] += 1;
        }
        n
    }

    /// The player's velocity as creatures perceive it: the last step's
    /// direction at walking speed for a few ticks after the step.
    pub fn player_velocity(&self) -> Vec2 {
        match self.player.last_step {
            Some((dx, dy, _)) if self.player_moving() => {
                Vec2::new(f32::from(dx), f32::from(dy)).normalized() * PLAYER_SPEED
            }
            _ => Vec2::ZERO,
        }
    }

    /// Whether the player stepped within the last few ticks.
    fn player_moving(&self) -> bool {
        self.player.last_step.is_some_and(|(_, _, at)| self.tick - at <= PLAYER_MOVING_TICKS)
    }

    /// Applies one command. Commands that cannot apply (no door nearby, a
    /// move that is not one cell) change nothing; every command but a run
    /// ends a run; a won or lost world takes no commands.
    pub fn apply(&mut self, command: Command) {
        if self.outcome.is_over() {
            return;
        }
        if !matches!(command, Command::Run { .. }) {
            self.walk.run = None;
        }
        match command {
            Command::Move { dx, dy } => {
                if is_move(dx, dy) {
                    self.walk.queued = Some((dx, dy));
                }
            }
            Command::Run { dx, dy } => {
                if is_move(dx, dy) {
                    self.walk.queued = None;
                    let mut run = Run { dx, dy, sides: [false; 2], seen: Vec::new() };
                    run.sides = run.sides_at(&self.grid, self.player.cell);
                    self.monsters_in_view(&mut run.seen);
                    self.walk.run = Some(run);
                }
            }
            Command::Stop => self.walk.queued = None,
            Command::Door => self.toggle_door(),
            Command::Set(setting) => {
                // A planner that cannot run on the level is passed over.
                let (applied, skipped) = self.settings.apply_on(&self.grid, setting);
                for (planner, why) in skipped {
                    self.event(Event::PlannerSkipped { planner, why });
                }
                self.event(Event::SettingChanged(applied));
            }
            Command::Spawn { kind, count } => self.spawn(kind, count),
        }
    }

    /// Takes the waiting move or the run's next step, if the pace allows
    /// one in the tick starting now; whether the player stepped.
    fn walk(&mut self) -> bool {
        let now = self.tick;
        if !self.walk.is_free(now) {
            return false;
        }
        let (dx, dy) = match (self.walk.queued.take(), &self.walk.run) {
            (Some(m), _) => m,
            (None, Some(r)) => (r.dx, r.dy),
            (None, None) => return false,
        };
        let (x, y) = (i32::from(dx), i32::from(dy));
        if !self.grid.can_step(self.player.cell, x, y) {
            self.walk.run = None;
            return false;
        }
        let to = Cell::new(self.player.cell.x + x, self.player.cell.y + y);
        self.player.cell = to;
        self.player.last_step = Some((dx, dy, now));
        self.walk.stepped(now, dx, dy);
        if let Some(mut run) = self.walk.run.take() {
            let mut seen = Vec::new();
            self.monsters_in_view(&mut seen);
            let new_sight = seen.iter().any(|i| run.seen.binary_search(i).is_err());
            let blocked = !self.grid.can_step(to, x, y);
            if !(blocked || new_sight || run.opening_beside(&self.grid, to)) {
                run.sides = run.sides_at(&self.grid, to);
                run.seen = seen;
                self.walk.run = Some(run);
            }
        }
        true
    }

    /// The monsters the player can see (line of sight within the detection
    /// radius), by index, ascending.
    fn monsters_in_view(&self, out: &mut Vec<u32>) {
        let p = self.player.cell;
        let r = self.settings.detection_radius;
        out.clear();
        for (i, c) in self.creatures.iter().enumerate() {
            if c.kind == Kind::Monster
                && cell_center(p).distance(c.body.pos) <= r
                && line_of_sight(&self.grid, p, c.cell())
            {
                out.push(i as u32);
            }
        }
    }

    fn toggle_door(&mut self) {
        let p = self.player.cell;
        let door = DIRECTIONS
            .iter()
            .map(|&(dx, dy)| Cell::new(p.x + dx, p.y + dy))
            .find(|&c| matches!(self.grid.tile(c), Tile::DoorOpen | Tile::DoorClosed));
        let Some(door) = door else { return self.event(Event::NoDoor) };
        let event = match self.grid.tile(door) {
            Tile::DoorClosed => {
                self.grid.set_tile(door, Tile::DoorOpen);
                Event::DoorOpened(door)
            }
            _ if self.creatures.iter().any(|c| c.cell() == door) => Event::DoorBlocked,
            _ => {
                self.grid.set_tile(door, Tile::DoorClosed);
                Event::DoorClosed(door)
            }
        };
        if let Some(doors) = self.doors.as_mut() {
            doors.toggled(door);
        }
        self.event(event);
    }

    /// Adds up to `count` creatures of `kind` on random free cells (never
    /// the player's, and for monsters not within a few cells of it): each
    /// one draws an index into the free cells that are far enough, in row
    /// order. Those are counted by skipping the few near the player, found
    /// around it, so a spawn costs the same on a level of any size.
    fn spawn(&mut self, kind: Kind, count: u32) {
        let count = (count as usize).min(self.capacity().saturating_sub(self.creatures.len()));
        if count == 0 {
            return;
        }
        let near = if kind == Kind::Monster { MONSTER_SPAWN_DISTANCE } else { 1.0 };
        let mut avoid = self.free_within(near);
        // On a level too small to keep the distance, anywhere but the
        // player's own cell will do.
        if avoid.len() == self.free.len() {
            avoid = self.free_within(f32::MIN_POSITIVE);
        }
        let choices = self.free.len() - avoid.len();
        if choices == 0 {
            return;
        }
        for _ in 0..count {
            let mut i = self.spawn_rng.random_range(0..choices);
            for &a in &avoid {
                if a > i {
                    break;
                }
                i += 1;
            }
            self.add(kind, self.free[i]);
        }
    }

    /// The indices in `free`, ascending, of the free cells whose centres
    /// are nearer than `distance` to the player's (its own cell included).
    fn free_within(&self, distance: f32) -> Vec<usize> {
        let (p, centre) = (self.player.cell, cell_center(self.player.cell));
        let reach = distance.ceil() as i32;
        let mut near: Vec<usize> = (-reach..=reach)
            .flat_map(|dy| (-reach..=reach).map(move |dx| Cell::new(p.x + dx, p.y + dy)))
            .filter(|&c| cell_center(c).distance(centre) < distance)
            .filter_map(|c| self.free.binary_search_by(|f| (f.y, f.x).cmp(&(c.y, c.x))).ok())
            .collect();
        near.sort_unstable();
        near
    }

    fn add(&mut self, kind: Kind, cell: Cell) {
        let angle = self.spawn_rng.random_range(0.0..std::f32::consts::TAU);
        let mut c = Creature::new(kind, cell_center(cell), angle, self.settings.detection_radius);
        if kind == Kind::Boid {
            // Boids start moving, each its own way, so flocks form at once.
            let sp = Species::of(kind);
            c.body.vel = Vec2::new(libm::cosf(angle), libm::sinf(angle)) * (sp.max_speed * 0.5);
        }
        self.creatures.push(c);
    }

    /// Advances the world by one tick of [`DT`] seconds.
    /// A won or lost world does not change.
    pub fn tick(&mut self) {
        if self.outcome.is_over() {
            return;
        }
        self.walk();
        self.tick += 1;
        self.grace = self.grace.saturating_sub(1);
        // Standing on the goal wins before anything can move.
        if self.rules.goal == Goal::Reach && Some(self.player.cell) == self.goal_cell {
            self.event(Event::GoalReached);
            self.end(Outcome::Won);
            return self.stats.end_tick(self.hunter.queue.len());
        }
        self.cycle_doors_at(self.tick);
        self.perceive();
        let player_vel = self.player_velocity();
        let w = &mut self.work;
        w.bodies.clear();
        w.bodies.extend(self.creatures.iter().map(|c| c.body));
        w.kinds.clear();
        w.kinds.extend(self.creatures.iter().map(|c| c.kind));
        w.hash.rebuild(w.bodies.iter().map(|b| b.pos));

        let scene = Scene {
            grid: &self.grid,
            settings: &self.settings,
            tick: self.tick,
            player: self.player.cell,
            watched: self.watched,
        };
        self.hunter.request(&mut self.creatures, &scene);
        self.hunter.serve(&mut self.creatures, &scene, &mut self.stats);

        let senses = Senses {
            grid: &self.grid,
            bodies: &w.bodies,
            kinds: &w.kinds,
            hash: &w.hash,
            player: self.player.cell,
            player_vel,
            orca: self.settings.avoidance == Avoidance::Orca,
        };
        let crowd = &mut w.crowd;
        crowd.agents.clear();
        crowd.creature_of.clear();
        for (i, c) in self.creatures.iter_mut().enumerate() {
            // One draw per creature per tick, used or not, so that a
            // creature changing behaviour never shifts another's randomness.
            let r = self.wander_rng.random_range(-1.0f32..=1.0);
            let raw = behave::force(c, i, &senses, r, &mut w.scratch);
            let force = c.smoother.smooth(raw, Species::of(c.kind).smoothing);
            if senses.orca && in_crowd(c.kind) {
                // The velocity steering asks for is ORCA's preferred one.
                let mut wish = c.body;
                wish.integrate(force, DT);
                crowd.agents.push(Agent {
                    pos: c.body.pos,
                    vel: c.body.vel,
                    radius: AVOID_RADIUS,
                    max_speed: c.body.max_speed,
                    preferred: wish.vel.rotated(KEEP_RIGHT),
                });
                crowd.creature_of.push(i);
            } else {
                move_body(&mut c.body, force, DT, &self.grid);
            }
        }
        let orca_micros = if senses.orca { self.avoid() } else { 0.0 };
        self.count_crowd(orca_micros);
        self.catch();
        self.stats.end_tick(self.hunter.queue.len());
        if let Goal::Survive { ticks } = self.rules.goal
            && self.tick >= ticks
            && !self.outcome.is_over()
        {
            self.event(Event::GoalReached);
            self.end(Outcome::Won);
        }
    }

    /// The level's doors open and close by themselves (see [`Doors`]),
    /// before anyone perceives or plans, so that this tick's plans see them.
    fn cycle_doors_at(&mut self, tick: u64) {
        let Some(doors) = self.doors.as_mut() else { return };
        let (player, creatures) = (self.player.cell, &self.creatures);
        let occupied = |door: Cell| player == door || creatures.iter().any(|c| c.cell() == door);
        if let Some(event) = doors.step(&mut self.grid, tick, occupied) {
            self.log.push(tick, event);
        }
    }

    /// Moves the ORCA agents gathered this tick at the velocities ORCA
    /// chooses for them; returns the microseconds it took.
    fn avoid(&mut self) -> f64 {
        let crowd = &mut self.work.crowd;
        let start = std::time::Instant::now();
        crowd.step(&self.grid);
        let micros = start.elapsed().as_secs_f64() * 1e6;
        for (&i, &v) in crowd.creature_of.iter().zip(&crowd.velocities) {
            let body = &mut self.creatures[i].body;
            let prev = body.pos;
            body.vel = v;
            body.pos += v * DT;
            resolve_walls(body, prev, &self.grid);
        }
        micros
    }

    /// Records the crowd's overlaps and smallest time to collision at the
    /// end of the tick (observation only), with ORCA's time.
    fn count_crowd(&mut self, orca_micros: f64) {
        let crowd = &mut self.work.crowd;
        crowd.agents.clear();
        crowd.agents.extend(self.creatures.iter().filter(|c| in_crowd(c.kind)).map(|c| Agent {
            pos: c.body.pos,
            vel: c.body.vel,
            radius: BODY_RADIUS,
            max_speed: c.body.max_speed,
            preferred: c.body.vel,
        }));
        crowd.hash.rebuild(crowd.agents.iter().map(|a| a.pos));
        let (overlaps, ttc) =
            crowd_check(&crowd.agents, &crowd.hash, ORCA.neighbour_dist, ORCA.time_horizon, &mut crowd.ids);
        self.stats.record_crowd(overlaps, ttc, orca_micros);
    }

    /// Every monster's perception of the player this tick, and its mind
    /// moved on by it.
    fn perceive(&mut self) {
        let p = self.player.cell;
        let moving = self.player_moving();
        let hearing = &mut self.work.hearing;
        hearing.update(&self.grid, p, moving);
        let (mut dropped, mut ordinal) = (false, 0);
        for c in &mut self.creatures {
            let Some(hunt) = c.hunt.as_mut() else { continue };
            ordinal += 1;
            let sense = if sees(&self.grid, &mut c.alarm, c.body.pos, p) {
                Some(Sense::Sight)
            } else {
                hearing.hears(cell_at(c.body.pos)).then_some(Sense::Hearing)
            };
            let percept = Percept { tick: self.tick, sense, player: p, pos: c.body.pos, home: cell_at(c.home) };
            let (event, stale) = hunt.mind.perceive(&percept, ordinal);
            if stale {
                dropped |= hunt.request.is_some();
                hunt.forget();
            }
            if let Some(e) = event {
                self.log.push(self.tick, e);
            }
        }
        if dropped {
            self.hunter.drop_forgotten(&self.creatures);
        }
    }

    /// The first monster (in creature order) touching the player, unless
    /// the player is in grace, catches it: a life lost, the monster sent
    /// home, two seconds of grace; the last life lost loses the session.
    fn catch(&mut self) {
        if self.grace > 0 {
            return;
        }
        let player = cell_center(self.player.cell);
        let Some(i) =
            self.creatures.iter().position(|c| c.hunt.is_some() && c.body.pos.distance(player) < CATCH_RADIUS)
        else {
            return;
        };
        self.stats.record_catch();
        let c = &mut self.creatures[i];
        if let Some(hunt) = c.hunt.as_mut() {
            let dropped = hunt.request.is_some();
            hunt.forget();
            hunt.mind = Default::default();
            if dropped {
                self.hunter.drop_forgotten(&self.creatures);
            }
        }
        let spot = self.landing(i);
        let c = &mut self.creatures[i];
        c.body = Body::new(spot, c.body.max_speed, c.body.max_force);
        c.smoother = Default::default();
        self.grace = GRACE_TICKS;
        self.lives = self.lives.map(|n| n.saturating_sub(1));
        let monster = self.monster_ordinal(i);
        self.event(Event::Caught { monster, lives_left: self.lives });
        if self.lives == Some(0) {
            self.end(Outcome::Lost);
        }
    }

    /// Where creature `i`, sent home, lands: its post, or the nearest
    /// cell to it that no other creature is within two avoidance radii of
    /// (see [`landing`]).
    fn landing(&self, i: usize) -> Vec2 {
        let post = cell_at(self.creatures[i].home);
        let near = |p: Vec2| {
            let reach = (LANDING_REACH + 1) as f32;
            (p.x - cell_center(post).x).abs() <= reach && (p.y - cell_center(post).y).abs() <= reach
        };
        let others: Vec<Vec2> = (self.creatures.iter().enumerate())
            .filter(|&(j, o)| j != i && near(o.body.pos))
            .map(|(_, o)| o.body.pos)
            .collect();
        cell_center(landing(&self.grid, post, &others, 2.0 * AVOID_RADIUS))
    }

    /// Ends the session: the world stops here.
    fn end(&mut self, outcome: Outcome) {
        self.outcome = outcome;
        self.ended_at = Some(self.tick);
        self.event(if outcome == Outcome::Won { Event::Won } else { Event::Lost });
    }

    /// A stable 64-bit hash of the authoritative state: everything that
    /// decides what happens next, and nothing that merely observes it.
    pub fn hash(&self) -> u64 {
        let mut h = StateHasher::default();
        h.u64(self.seed);
        h.u64(self.tick);
        self.settings.hash_into(&mut h);
        h.u64(self.grid.version());
        for c in self.grid.cells() {
            h.bytes(&[tile_code(self.grid.tile(c))]);
        }
        h.i32(self.player.cell.x);
        h.i32(self.player.cell.y);
        h.bool(self.player.last_step.is_some());
        if let Some((dx, dy, at)) = self.player.last_step {
            h.bytes(&[dx as u8, dy as u8]);
            h.u64(at);
        }
        h.u64(self.creatures.len() as u64);
        for c in &self.creatures {
            hash_creature(&mut h, c);
        }
        h.u64(self.hunter.queue.len() as u64);
        for &i in &self.hunter.queue {
            h.u32(i);
        }
        h.u64(self.hunter.allowance as u64);
        self.hunter.incremental.hash_into(&mut h);
        self.hunter.flow.hash_into(&mut h);
        hash_rules(&mut h, &self.rules);
        h.bytes(&[self.outcome as u8]);
        h.bool(self.lives.is_some());
        h.u32(self.lives.unwrap_or(0));
        h.u32(self.grace);
        hash_walk(&mut h, &self.walk);
        // Only a level with cycling doors adds to the hash, so the hashes
        // of every other level (and their replays) stay what they were.
        if let Some(doors) = &self.doors {
            doors.hash_into(&mut h);
        }
        // The generators' state as serde writes it (rand_pcg exposes it no
        // other way); Cargo.lock pins the crate, and so the bytes.
        h.bytes(&serde_json::to_vec(&self.spawn_rng).unwrap_or_default());
        h.bytes(&serde_json::to_vec(&self.wander_rng).unwrap_or_default());
        h.finish()
    }
}

/// Walkable cells that are not doors, row by row: where creatures may be
/// spawned.
fn free_cells(grid: &Grid) -> Vec<Cell> {
    grid.cells().filter(|&c| matches!(grid.tile(c), Tile::Floor(_) | Tile::Water)).collect()
}

fn tile_code(t: Tile) -> u8 {
    match t {
        Tile::Wall => 0,
        Tile::Floor(c) => c,
        Tile::Water => 10,
        Tile::DoorClosed => 11,
        Tile::DoorOpen => 12,
    }
}

fn hash_vec(h: &mut StateHasher, v: Vec2) {
    h.f32(v.x);
    h.f32(v.y);
}

fn hash_rules(h: &mut StateHasher, r: &Rules) {
    let (goal, ticks) = match r.goal {
        Goal::None => (0, 0),
        Goal::Reach => (1, 0),
        Goal::Survive { ticks } => (2, ticks),
    };
    h.bytes(&[goal]);
    h.u64(ticks);
    h.bool(r.lives.is_some());
    h.u32(r.lives.unwrap_or(0));
}

fn hash_walk(h: &mut StateHasher, w: &Walk) {
    h.u64(w.free_at);
    h.bool(w.queued.is_some());
    if let Some((dx, dy)) = w.queued {
        h.bytes(&[dx as u8, dy as u8]);
    }
    h.bool(w.run.is_some());
    if let Some(r) = &w.run {
        h.bytes(&[r.dx as u8, r.dy as u8, u8::from(r.sides[0]), u8::from(r.sides[1])]);
        h.u64(r.seen.len() as u64);
        for &i in &r.seen {
            h.u32(i);
        }
    }
}

fn hash_creature(h: &mut StateHasher, c: &Creature) {
    h.bytes(&[c.kind as u8]);
    hash_vec(h, c.body.pos);
    hash_vec(h, c.body.vel);
    h.f32(c.body.max_speed);
    h.f32(c.body.max_force);
    hash_vec(h, c.home);
    h.f32(c.wander.angle);
    h.bool(c.alarm.is_active());
    h.bool(c.smoother.value().is_some());
    if let Some(v) = c.smoother.value() {
        hash_vec(h, v);
    }
    let Some(hunt) = &c.hunt else { return };
    h.u64(hunt.path.len() as u64);
    for p in &hunt.path {
        h.i32(p.x);
        h.i32(p.y);
    }
    h.u64(hunt.follower.waypoints.len() as u64);
    for &w in &hunt.follower.waypoints {
        hash_vec(h, w);
    }
    h.u64(hunt.follower.index as u64);
    h.bool(hunt.goal.is_some());
    if let Some(g) = hunt.goal {
        h.i32(g.x);
        h.i32(g.y);
    }
    h.u64(hunt.version);
    h.bool(hunt.request.is_some());
    if let Some((since, reason)) = hunt.request {
        h.u64(since);
        h.bytes(&[reason as u8]);
    }
    let (index, best, since) = hunt.progress;
    h.u64(index as u64);
    h.f32(best);
    h.u64(since);
    let m = &hunt.mind;
    h.bytes(&[m.state as u8]);
    h.bool(m.last_known.is_some());
    if let Some(c) = m.last_known {
        h.i32(c.x);
        h.i32(c.y);
    }
    h.u64(m.since);
    h.u64(m.last_perceived);
    h.bool(m.searching_since.is_some());
    h.u64(m.searching_since.unwrap_or(0));
}

#[cfg(test)]
mod tests;
