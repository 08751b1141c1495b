//! Per-tick buffers: each is refilled before it is read, so none carries
//! anything from one tick to the next that could decide a move; they are
//! kept only so that a tick does not allocate.

use crate::grid::Grid;
use crate::search::GridPlanner;
use crate::sim::Kind;
use crate::sim::behave;
use crate::sim::perceive::Hearing;
use crate::sim::species::{FLOCK_RADIUS, ORCA};
use crate::steer::{Agent, Body, Orca, SpatialHash, Vec2, Walls};

/// The buffers of a tick.
#[derive(Debug)]
pub(super) struct Scratch {
    /// Every creature's body and kind as the tick's steering began, and a
    /// spatial hash of their positions: what neighbours see.
    pub(super) bodies: Vec<Body>,
    pub(super) kinds: Vec<Kind>,
    pub(super) hash: SpatialHash,
    pub(super) behave: behave::Scratch,
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
            bodies: Vec::new(),
            kinds: Vec::new(),
            hash: SpatialHash::new(FLOCK_RADIUS),
            behave: behave::Scratch::default(),
            hearing: Hearing::default(),
            crowd: Crowd::new(),
            planner: GridPlanner::new(),
        }
    }
}

/// What ORCA and the crowd figures need within a tick.
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
    pub(super) hash: SpatialHash,
    pub(super) ids: Vec<u32>,
    /// The microseconds this tick's ORCA step took (statistics only).
    pub(super) orca_micros: f64,
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
            orca_micros: 0.0,
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
