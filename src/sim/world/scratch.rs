//! Per-tick buffers: each is refilled before it is read, so none carries
//! anything from one tick to the next that could decide a move; they are
//! kept only so that a tick does not allocate.

use crate::grid::Grid;
use crate::search::{GridCache, GridPlanner};
use crate::sim::perceive::Hearing;
use crate::sim::sense::View;
use crate::sim::species::ORCA;
use crate::steer::{Agent, Orca, Vec2, WallDistance, Walls};

/// The buffers of a tick.
#[derive(Debug)]
pub(super) struct Scratch {
    /// The steering pass's view of the creatures as the tick's steering
    /// began (in bin order), and what each sensed.
    pub(super) view: View,
    /// The grid's wall distance field, repaired when a door changes: a
    /// cache of the grid.
    pub(super) walls: GridCache<WallDistance>,
    /// Under ORCA, each crowd member's preferred velocity, by creature.
    pub(super) wishes: Vec<Vec2>,
    /// Who hears the player this tick.
    pub(super) hearing: Hearing,
    pub(super) crowd: Crowd,
    /// The search engine and buffers of the player's travel and explore
    /// (reset by every search).
    pub(super) planner: GridPlanner,
}

impl Scratch {
    pub(super) fn new() -> Scratch {
        Scratch {
            view: View::default(),
            walls: GridCache::default(),
            wishes: Vec::new(),
            hearing: Hearing::default(),
            crowd: Crowd::new(),
            planner: GridPlanner::new(),
        }
    }
}

/// What ORCA needs within a tick.
#[derive(Debug)]
pub(super) struct Crowd {
    orca: Orca,
    /// The grid's walls as segments, and the grid version they were made
    /// from (built on first use under ORCA, again when a door changes): a
    /// cache of the grid.
    walls: Option<(u64, Walls)>,
    /// The monsters and wanderers as ORCA agents, and their creature
    /// indices.
    pub(super) agents: Vec<Agent>,
    pub(super) creature_of: Vec<usize>,
    pub(super) velocities: Vec<Vec2>,
}

impl Crowd {
    fn new() -> Crowd {
        Crowd {
            orca: Orca::new(ORCA),
            walls: None,
            agents: Vec::new(),
            creature_of: Vec::new(),
            velocities: Vec::new(),
        }
    }

    /// One ORCA step for the agents gathered, against the walls of `grid`
    /// (rebuilt when its version changed).
    pub(super) fn step(&mut self, grid: &Grid) {
        if self.walls.as_ref().is_none_or(|(v, _)| *v != grid.version()) {
            self.walls = Some((grid.version(), Walls::from_grid(grid)));
        }
        let walls = &self.walls.as_ref().expect("just built").1;
        self.orca.step(&self.agents, walls, &mut self.velocities);
    }
}
