//! The world's state: everything that decides what happens next, and so
//! everything the world's hash covers.

use super::WorldError;
use super::spawn::free_cells;
use crate::grid::{Cell, Grid, Tile};
use crate::level::Level;
use crate::sim::creature::Creature;
use crate::sim::doors::Doors;
use crate::sim::hash::StateHasher;
use crate::sim::hunt::Hunter;
use crate::sim::pace::Walk;
use crate::sim::rng::{Pcg32, Stream, stream};
use crate::sim::rules::{Goal, Outcome, Rules};
use crate::sim::settings::Settings;
use crate::steer::Vec2;
use rand::RngExt;

/// The player: a cell, moved one step per command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Where the player stands.
    pub cell: Cell,
    /// The last step (dx, dy) and the tick it was taken at.
    pub last_step: Option<(i8, i8, u64)>,
}

/// Everything that decides what happens next.
#[derive(Debug)]
pub(super) struct State {
    /// The seed every random stream derives from.
    pub(super) seed: u64,
    /// Ticks simulated so far.
    pub(super) tick: u64,
    /// The tiles as they are now (doors open and close).
    pub(super) grid: Grid,
    pub(super) settings: Settings,
    pub(super) player: Player,
    /// The player's pace, queued move and run.
    pub(super) walk: Walk,
    pub(super) creatures: Vec<Creature>,
    /// The repath queue, the budget, and the searches and field the repath
    /// policies keep between ticks.
    pub(super) hunter: Hunter,
    /// The level's doors that open and close by themselves, if it says so.
    pub(super) doors: Option<Doors>,
    pub(super) rules: Rules,
    /// The level's `G`, which the goal `reach` asks for.
    pub(super) goal_cell: Option<Cell>,
    /// How the session stands: a won or lost world takes no more commands
    /// or ticks.
    pub(super) outcome: Outcome,
    /// Catches left before the session is lost; `None`: unlimited.
    pub(super) lives: Option<u32>,
    /// Ticks left in which no monster can catch the player.
    pub(super) grace: u32,
    pub(super) spawn_rng: Pcg32,
    pub(super) wander_rng: Pcg32,
    /// Where creatures may be spawned, row by row (see [`free_cells`]):
    /// fixed by the level, since no command turns a wall into floor, so a
    /// spawn never scans the level.
    pub(super) free: Vec<Cell>,
}

impl State {
    /// The state of a world on `level` before any creature is added: the
    /// player at `@`, or on a random free cell when the level has none.
    pub(super) fn new(level: &Level, seed: u64, settings: Settings, rules: Rules) -> Result<State, WorldError> {
        let mut spawn_rng = stream(seed, Stream::Spawn);
        let free = free_cells(&level.grid);
        let cell = match level.player {
            Some(c) => c,
            None if free.is_empty() => return Err(WorldError::NoRoom(level.name.clone())),
            None => free[spawn_rng.random_range(0..free.len())],
        };
        Ok(State {
            seed,
            tick: 0,
            grid: level.grid.clone(),
            settings,
            player: Player { cell, last_step: None },
            walk: Walk::default(),
            creatures: Vec::new(),
            hunter: Hunter::default(),
            doors: level.doors.map(|cycle| Doors::new(cycle, &level.grid)),
            rules,
            goal_cell: level.goal,
            outcome: Outcome::Running,
            lives: rules.lives,
            grace: 0,
            spawn_rng,
            wander_rng: stream(seed, Stream::Wander),
            free,
        })
    }
}

impl State {
    /// Feeds the state into `h`.
    pub(super) fn hash_into(&self, h: &mut StateHasher) {
        h.u64(self.seed);
        h.u64(self.tick);
        self.settings.hash_into(h);
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
            hash_creature(h, c);
        }
        h.u64(self.hunter.queue.len() as u64);
        for &i in &self.hunter.queue {
            h.u32(i);
        }
        h.u64(self.hunter.allowance as u64);
        self.hunter.incremental.hash_into(h);
        self.hunter.flow.hash_into(h);
        hash_rules(h, &self.rules);
        h.bytes(&[self.outcome as u8]);
        h.bool(self.lives.is_some());
        h.u32(self.lives.unwrap_or(0));
        h.u32(self.grace);
        hash_walk(h, &self.walk);
        // Only a level with cycling doors adds to the hash, so the hashes
        // of every other level (and their replays) stay what they were.
        if let Some(doors) = &self.doors {
            doors.hash_into(h);
        }
        // The generators' state as serde writes it (as it wrote rand_pcg's).
        h.bytes(&serde_json::to_vec(&self.spawn_rng).unwrap_or_default());
        h.bytes(&serde_json::to_vec(&self.wander_rng).unwrap_or_default());
    }
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
