//! Scripted players for headless runs: one that walks to random reachable
//! cells, lingering a while at each, so monsters have someone to hunt; one
//! that heads for the level's `G`; one that heads for it while evading the
//! monsters ([`evade`]); one that stands still.

mod evade;
mod maps;
mod sight;

use super::Command;
use super::World;
use super::rng::{Pcg32, Stream, stream};
use crate::grid::Cell;
use crate::named::named_enum;
use crate::search::{GridPlanner, SearchSettings};
use rand::RngExt;

named_enum! {
    /// Which scripted player `delve sim --bot` runs.
    BotKind, "bot" {
        /// Walks to random reachable cells and lingers at each.
        Random => "random",
        /// Walks to the level's `G` at the player's pace, replanning at
        /// every step.
        Goal => "goal",
        /// Heads for the level's `G` off the monsters, and on its last
        /// life out of their sight and reach: waits for patrols to pass,
        /// opens doors and closes them behind it (see `sim::bot::evade`).
        Evade => "evade",
        /// Stands still.
        Idle => "idle",
    }
}

/// Ticks between the random bot's steps at least: 4 cells a second, as
/// fast as a monster (the player's pace allows 5).
const PACE: u64 = 5;
/// Longest pause at a goal, in ticks.
const MAX_LINGER: u64 = 60;
/// Goals tried per tick before giving up until the next tick.
const TRIES: usize = 4;

/// The scripted player. Its randomness is its own stream, so whether it
/// runs changes nothing else's numbers.
#[derive(Debug)]
pub struct Bot {
    kind: BotKind,
    rng: Pcg32,
    planner: GridPlanner,
    route: Vec<Cell>,
    next: usize,
    /// Tick before which the bot stays put.
    rest_until: u64,
    /// The evading bot's memory.
    evader: evade::Evader,
}

impl Bot {
    /// The random bot, whose choices come from its own stream of `seed`.
    pub fn new(seed: u64) -> Bot {
        Bot::of(BotKind::Random, seed)
    }

    /// A bot of `kind`, whose choices come from its own stream of `seed`.
    pub fn of(kind: BotKind, seed: u64) -> Bot {
        Bot {
            kind,
            rng: stream(seed, Stream::Bot),
            planner: GridPlanner::new(),
            route: Vec::new(),
            next: 0,
            rest_until: 0,
            evader: evade::Evader::default(),
        }
    }

    /// The bot's command for the world's coming tick, if any. A bot moves
    /// only when the move would be taken at once ([`World::ready`]), so it
    /// never plans from a cell the player is about to leave.
    pub fn command(&mut self, world: &World) -> Option<Command> {
        if !world.ready() {
            return None;
        }
        match self.kind {
            BotKind::Random => self.wander(world),
            BotKind::Goal => self.seek_goal(world),
            BotKind::Evade => self.evader.command(world),
            BotKind::Idle => None,
        }
    }

    /// The goal bot: the first step of a fresh plan to `G`.
    fn seek_goal(&mut self, world: &World) -> Option<Command> {
        let (here, goal) = (world.player().cell, world.goal_cell()?);
        let found = self.planner.plan(world.grid(), here, goal, &SearchSettings::default()).ok()?.found;
        let &to = self.planner.path().get(1).filter(|_| found)?;
        Some(Command::Move { dx: (to.x - here.x) as i8, dy: (to.y - here.y) as i8 })
    }

    fn wander(&mut self, world: &World) -> Option<Command> {
        let tick = world.ticks();
        if tick < self.rest_until {
            return None;
        }
        let here = world.player().cell;
        if self.next >= self.route.len() {
            if !self.route.is_empty() {
                self.route.clear();
                self.rest_until = tick + self.rng.random_range(0..=MAX_LINGER);
                return None;
            }
            self.choose_goal(world, here);
        }
        let to = *self.route.get(self.next)?;
        let (dx, dy) = (to.x - here.x, to.y - here.y);
        if !world.grid().can_step(here, dx, dy) {
            // A door closed across the route: find another goal.
            self.route.clear();
            return None;
        }
        self.next += 1;
        self.rest_until = tick + PACE;
        Some(Command::Move { dx: dx as i8, dy: dy as i8 })
    }

    fn choose_goal(&mut self, world: &World, here: Cell) {
        let grid = world.grid();
        let settings = SearchSettings::default();
        for _ in 0..TRIES {
            let goal = Cell::new(
                self.rng.random_range(0..grid.width() as i32),
                self.rng.random_range(0..grid.height() as i32),
            );
            if goal == here || !grid.is_walkable(goal) {
                continue;
            }
            if let Ok(o) = self.planner.plan(grid, here, goal, &settings)
                && o.found
            {
                self.route.clear();
                self.route.extend_from_slice(&self.planner.path()[1..]);
                self.next = 0;
                return;
            }
        }
    }
}
