//! The world: a pure function of (level, seed, commands).

use super::Kind;
use super::behave::{self, Scratch, Senses};
use super::command::Command;
use super::creature::Creature;
use super::hash::StateHasher;
use super::hunt::{Hunter, Scene};
use super::rng::{Stream, stream};
use super::settings::Settings;
use super::species::{CATCH_RADIUS, FLOCK_RADIUS, Species};
use super::stats::Stats;
use crate::grid::{Cell, DIRECTIONS, Grid, Tile};
use crate::level::Level;
use crate::steer::{Body, SpatialHash, Vec2, cell_center, move_body};
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
/// Ticks after a step during which the player counts as moving.
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
    work: Work,
}

/// Per-tick buffers, kept to avoid allocating every tick.
#[derive(Debug)]
struct Work {
    bodies: Vec<Body>,
    kinds: Vec<Kind>,
    hash: SpatialHash,
    scratch: Scratch,
}

impl World {
    /// A world on `level`: the player at `@` (or a random walkable cell when
    /// the level has none) and a creature on every marker.
    pub fn new(level: &Level, seed: u64, settings: Settings) -> Result<World, WorldError> {
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
            work: Work {
                bodies: Vec::new(),
                kinds: Vec::new(),
                hash: SpatialHash::new(FLOCK_RADIUS),
                scratch: Scratch::default(),
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

    /// Search and repath statistics, live and over the recent window.
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
        };
        for (i, c) in self.creatures.iter_mut().enumerate() {
            // One draw per creature per tick, used or not, so that a
            // creature changing behaviour never shifts another's randomness.
            let r = self.wander_rng.random_range(-1.0f32..=1.0);
            let raw = behave::force(c, i, &senses, r, &mut w.scratch);
            let force = c.smoother.smooth(raw, Species::of(c.kind).smoothing);
            move_body(&mut c.body, force, DT, &self.grid);
        }
        self.catch();
        self.stats.end_tick(self.hunter.queue.len());
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
