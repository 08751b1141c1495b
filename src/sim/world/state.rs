//! The world's state: everything that decides what happens next, and so
//! everything the world's hash covers. Its [`StateHash`] takes it apart
//! field by field, as every type in it does its own fields: a field added
//! here or in any of them is hashed, or named as not state, before it
//! compiles.

use super::WorldError;
use super::spawn::free_cells;
use crate::grid::{Cell, Grid};
use crate::hash::{StateHash, StateHasher};
use crate::level::Level;
use crate::sim::creature::Creature;
use crate::sim::doors::Doors;
use crate::sim::foresight::Foresight;
use crate::sim::hunt::Hunter;
use crate::sim::memory::{Memory, hidden_cells};
use crate::sim::monsters::Monsters;
use crate::sim::pace::Walk;
use crate::sim::rng::{Pcg32, Stream, stream};
use crate::sim::rules::{Grace, Outcome, Rules};
use crate::sim::settings::Settings;
use crate::sim::sightings::Sightings;
use rand::RngExt;

/// The player: a cell, moved one step per command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player {
    /// Where the player stands.
    pub cell: Cell,
    /// The last step (dx, dy) and the tick it was taken at.
    pub last_step: Option<(i8, i8, u64)>,
}

impl StateHash for Player {
    fn hash_into(&self, h: &mut StateHasher) {
        let Player { cell, last_step } = self;
        h.add(cell);
        h.add(last_step);
    }
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
    /// The player's pace, the acts that wait and the errand.
    pub(super) walk: Walk,
    /// What the player has seen.
    pub(super) memory: Memory,
    /// Where the player last saw each monster it remembers.
    pub(super) sightings: Sightings,
    pub(super) creatures: Vec<Creature>,
    /// Which creatures are monsters, for the systems that visit only them.
    pub(super) monsters: Monsters,
    /// The repath queue, the budget, and the searches and field the repath
    /// policies keep between ticks.
    pub(super) hunter: Hunter,
    /// The map hunters aim ahead of the player with.
    pub(super) foresight: Foresight,
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
    /// The grace after the last catch, while it lasts: no monster can
    /// catch the player.
    pub(super) grace: Option<Grace>,
    pub(super) spawn_rng: Pcg32,
    pub(super) wander_rng: Pcg32,
    /// Where creatures may be spawned, as node ids row by row (see
    /// [`free_cells`]):
    /// fixed by the level, since no command turns a wall into floor, so a
    /// spawn never scans the level.
    pub(super) free: Vec<u32>,
    /// The cells no eye ever sees, row by row ([`hidden_cells`]): fixed by
    /// the level's walls, as the free cells are.
    pub(super) hidden: Vec<bool>,
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
            None => level.grid.cell_of(free[spawn_rng.random_range(0..free.len())]),
        };
        Ok(State {
            seed,
            tick: 0,
            grid: level.grid.clone(),
            settings,
            player: Player { cell, last_step: None },
            walk: Walk::default(),
            memory: Memory::new(&level.grid),
            sightings: Sightings::default(),
            creatures: Vec::new(),
            monsters: Monsters::default(),
            hunter: Hunter::default(),
            foresight: Foresight::default(),
            doors: level.doors.map(|cycle| Doors::new(cycle, &level.grid)),
            rules,
            goal_cell: level.goal,
            outcome: Outcome::Running,
            lives: rules.lives,
            grace: None,
            spawn_rng,
            wander_rng: stream(seed, Stream::Wander),
            free,
            hidden: hidden_cells(&level.grid),
        })
    }
}

impl StateHash for State {
    fn hash_into(&self, h: &mut StateHasher) {
        let State {
            seed,
            tick,
            grid,
            settings,
            player,
            walk,
            memory,
            sightings,
            creatures,
            // A function of the creatures' kinds.
            monsters: _,
            hunter,
            foresight,
            doors,
            rules,
            goal_cell,
            outcome,
            lives,
            grace,
            spawn_rng,
            wander_rng,
            // A function of the grid's tiles: the floor and water cells,
            // which no command changes.
            free: _,
            // A function of the grid's walls, which no command changes.
            hidden: _,
        } = self;
        h.add(seed);
        h.add(tick);
        h.add(grid);
        h.add(settings);
        h.add(player);
        h.add(walk);
        h.add(memory);
        h.add(sightings);
        h.add(creatures);
        h.add(hunter);
        h.add(foresight);
        h.add(doors);
        h.add(rules);
        h.add(goal_cell);
        h.add(outcome);
        h.add(lives);
        h.add(grace);
        h.add(spawn_rng);
        h.add(wander_rng);
    }
}
