//! The world: a pure function of (level, seed, commands).

use super::Kind;
use super::behave::{self, Scratch, Senses};
use super::command::Command;
use super::creature::Creature;
use super::hash::StateHasher;
use super::hunt::{Hunter, Scene};
use super::rng::{Stream, stream};
use super::settings::{Avoidance, Settings};
use super::species::{AVOID_RADIUS, BODY_RADIUS, CATCH_RADIUS, FLOCK_RADIUS, KEEP_RIGHT, ORCA, Species};
use super::stats::Stats;
use crate::grid::{Cell, DIRECTIONS, Grid, Tile};
use crate::level::Level;
use crate::steer::{Agent, Body, Orca, SpatialHash, Vec2, Walls, cell_center, crowd_check, move_body, resolve_walls};
use rand::RngExt;
use rand_pcg::Pcg32;

/// Simulation ticks per second of game time.
pub const TICKS_PER_SECOND: u32 = 20;
/// Game time of one tick, in seconds.
pub const DT: f32 = 1.0 / TICKS_PER_SECOND as f32;
/// Most creatures a world holds; spawns beyond it are cut short, so a
/// hostile replay file cannot exhaust memory.
pub const MAX_CREATURES: usize = 100_000;
/// Speed the player's steps are taken to have, for creatures that predict
/// where the player goes (cells per second).
const PLAYER_SPEED: f32 = 5.0;
/// Ticks after a step during which the player counts as moving.
const PLAYER_MOVING_TICKS: u64 = 6;
/// Monsters spawned at random keep at least this far from the player.
const MONSTER_SPAWN_DISTANCE: f32 = 8.0;

/// A level that cannot hold a world.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WorldError {
    #[error("level '{0}' has no walkable cell for the player")]
    NoRoom(String),
}

/// The player: a cell, moved one step per command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
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
    spawn_rng: Pcg32,
    wander_rng: Pcg32,
    hunter: Hunter,
    stats: Stats,
    /// The monster whose searches are recorded cell by cell (observation
    /// only: it changes no decision).
    watched: Option<usize>,
    work: Work,
}

/// Per-tick buffers, kept to avoid allocating every tick.
#[derive(Debug)]
struct Work {
    bodies: Vec<Body>,
    kinds: Vec<Kind>,
    hash: SpatialHash,
    scratch: Scratch,
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
    /// A world on `level`: the player at `@` (or a random walkable cell when
    /// the level has none) and a creature on every marker.
    pub fn new(level: &Level, seed: u64, settings: Settings) -> Result<World, WorldError> {
        let mut spawn_rng = stream(seed, Stream::Spawn);
        let grid = level.grid.clone();
        let cell = match level.player {
            Some(c) => c,
            None => {
                let free = free_cells(&grid);
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
            spawn_rng,
            wander_rng: stream(seed, Stream::Wander),
            hunter: Hunter::default(),
            stats: Stats::default(),
            watched: None,
            work: Work {
                bodies: Vec::new(),
                kinds: Vec::new(),
                hash: SpatialHash::new(FLOCK_RADIUS),
                scratch: Scratch::default(),
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

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Ticks simulated so far.
    pub fn ticks(&self) -> u64 {
        self.tick
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn player(&self) -> &Player {
        &self.player
    }

    /// Every creature, in a fixed order (markers row by row, monsters
    /// first, then spawns in the order they were made).
    pub fn creatures(&self) -> &[Creature] {
        &self.creatures
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
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
            Some((dx, dy, at)) if self.tick - at <= PLAYER_MOVING_TICKS => {
                Vec2::new(f32::from(dx), f32::from(dy)).normalized() * PLAYER_SPEED
            }
            _ => Vec2::ZERO,
        }
    }

    /// Applies one command. Commands that cannot apply (a step into a wall,
    /// no door nearby) change nothing.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Move { dx, dy } => self.step(dx, dy),
            Command::Door => self.toggle_door(),
            Command::Set(setting) => self.settings.apply(setting),
            Command::Spawn { kind, count } => self.spawn(kind, count),
        }
    }

    fn step(&mut self, dx: i8, dy: i8) {
        let (x, y) = (i32::from(dx), i32::from(dy));
        if (x, y) == (0, 0) || x.abs() > 1 || y.abs() > 1 || !self.grid.can_step(self.player.cell, x, y) {
            return;
        }
        self.player.cell = Cell::new(self.player.cell.x + x, self.player.cell.y + y);
        self.player.last_step = Some((dx, dy, self.tick));
    }

    fn toggle_door(&mut self) {
        let p = self.player.cell;
        let door = DIRECTIONS
            .iter()
            .map(|&(dx, dy)| Cell::new(p.x + dx, p.y + dy))
            .find(|&c| matches!(self.grid.tile(c), Tile::DoorOpen | Tile::DoorClosed));
        let Some(door) = door else { return };
        match self.grid.tile(door) {
            Tile::DoorClosed => {
                self.grid.set_tile(door, Tile::DoorOpen);
            }
            _ if self.creatures.iter().any(|c| c.cell() == door) => {}
            _ => {
                self.grid.set_tile(door, Tile::DoorClosed);
            }
        }
    }

    /// Adds up to `count` creatures of `kind` on random free cells (never
    /// the player's, and for monsters not within a few cells of it).
    fn spawn(&mut self, kind: Kind, count: u32) {
        let room = MAX_CREATURES.saturating_sub(self.creatures.len());
        let player = cell_center(self.player.cell);
        let near = if kind == Kind::Monster { MONSTER_SPAWN_DISTANCE } else { 1.0 };
        let mut free = free_cells(&self.grid);
        free.retain(|&c| c != self.player.cell);
        let far: Vec<Cell> = free.iter().copied().filter(|&c| cell_center(c).distance(player) >= near).collect();
        // On a level too small to keep the distance, anywhere but the
        // player's own cell will do.
        if !far.is_empty() {
            free = far;
        }
        if free.is_empty() {
            return;
        }
        for _ in 0..(count as usize).min(room) {
            let c = free[self.spawn_rng.random_range(0..free.len())];
            self.add(kind, c);
        }
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
    pub fn tick(&mut self) {
        self.tick += 1;
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
            player: self.player.cell,
            tick: self.tick,
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

    /// Monsters touching the player score a catch and go home.
    fn catch(&mut self) {
        let player = cell_center(self.player.cell);
        let mut dropped = false;
        for c in &mut self.creatures {
            let Some(hunt) = c.hunt.as_mut() else { continue };
            if c.body.pos.distance(player) >= CATCH_RADIUS {
                continue;
            }
            self.stats.record_catch();
            dropped |= hunt.request.is_some();
            hunt.forget();
            c.body = Body::new(c.home, c.body.max_speed, c.body.max_force);
            c.smoother = Default::default();
        }
        if dropped {
            self.hunter.drop_forgotten(&self.creatures);
        }
    }

    /// A stable 64-bit hash of the authoritative state: everything that
    /// decides what happens next, and nothing that merely observes it.
    pub fn hash(&self) -> u64 {
        let mut h = StateHasher::default();
        h.u64(self.seed);
        h.u64(self.tick);
        hash_settings(&mut h, &self.settings);
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

/// The open-list update is left out: lazy deletion and decrease-key find
/// the same paths, so it decides nothing (only the stale-pop count differs).
fn hash_settings(h: &mut StateHasher, s: &Settings) {
    let q = &s.search;
    h.bytes(&[q.algorithm as u8, q.heuristic as u8, q.tie as u8, q.neighbors as u8, s.repath as u8]);
    h.f64(q.weight);
    h.bool(q.reopen);
    h.bool(s.smoothing);
    h.u32(s.repath_ticks);
    h.f32(s.repath_cells);
    h.u32(s.budget);
    h.f32(s.detection_radius);
    // Hashed only when not the default, so that sessions recorded before
    // the setting existed keep their hashes.
    if s.avoidance != Avoidance::Separation {
        h.bytes(&[s.avoidance as u8]);
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
}
