//! Adding creatures: on the level's markers, and by spawn commands on
//! random free cells.

use super::World;
use crate::grid::{Cell, Grid, Tile};
use crate::sim::Kind;
use crate::sim::creature::Creature;
use crate::sim::species::Species;
use crate::steer::{Vec2, cell_center};
use rand::RngExt;

/// Monsters spawned at random keep at least this far from the player.
const MONSTER_SPAWN_DISTANCE: f32 = 8.0;

/// The node ids ([`Grid::node`]) of the walkable cells that are not
/// doors, ascending (row by row): where creatures may be spawned. Ids, not
/// cells: four bytes a cell instead of eight, on a level of a million
/// cells 4 MB.
pub(super) fn free_cells(grid: &Grid) -> Vec<u32> {
    grid.cells().filter(|&c| matches!(grid.tile(c), Tile::Floor(_) | Tile::Water)).map(|c| grid.node(c)).collect()
}

impl World {
    /// Adds up to `count` creatures of `kind` on random free cells (never
    /// the player's, and for monsters not within a few cells of it): each
    /// one draws an index into the free cells that are far enough, in row
    /// order. Those are counted by skipping the few near the player, found
    /// around it, so a spawn costs the same on a level of any size.
    pub(super) fn spawn(&mut self, kind: Kind, count: u32) {
        let count = (count as usize).min(self.capacity().saturating_sub(self.state.creatures.len()));
        if count == 0 {
            return;
        }
        let near = if kind == Kind::Monster { MONSTER_SPAWN_DISTANCE } else { 1.0 };
        let mut avoid = self.free_within(near);
        // On a level too small to keep the distance, anywhere but the
        // player's own cell will do.
        if avoid.len() == self.state.free.len() {
            avoid = self.free_within(f32::MIN_POSITIVE);
        }
        let choices = self.state.free.len() - avoid.len();
        if choices == 0 {
            return;
        }
        // Exactly what is added, not the doubling of one push at a time: a
        // crowd of 100,000 would hold room for 131,072.
        self.state.creatures.reserve_exact(count);
        for _ in 0..count {
            let mut i = self.state.spawn_rng.random_range(0..choices);
            for &a in &avoid {
                if a > i {
                    break;
                }
                i += 1;
            }
            self.add(kind, self.state.grid.cell_of(self.state.free[i]));
        }
    }

    /// The indices in `free`, ascending, of the free cells whose centres
    /// are nearer than `distance` to the player's (its own cell included).
    fn free_within(&self, distance: f32) -> Vec<usize> {
        let (p, centre) = (self.state.player.cell, cell_center(self.state.player.cell));
        let (free, grid) = (&self.state.free, &self.state.grid);
        let reach = distance.ceil() as i32;
        let mut near: Vec<usize> = (-reach..=reach)
            .flat_map(|dy| (-reach..=reach).map(move |dx| Cell::new(p.x + dx, p.y + dy)))
            .filter(|&c| grid.in_bounds(c) && cell_center(c).distance(centre) < distance)
            .filter_map(|c| free.binary_search(&grid.node(c)).ok())
            .collect();
        near.sort_unstable();
        near
    }

    /// Adds a creature of `kind` at rest on `cell`, its wander circle
    /// turned at random.
    pub(super) fn add(&mut self, kind: Kind, cell: Cell) {
        let s = &mut self.state;
        let angle = s.spawn_rng.random_range(0.0..std::f32::consts::TAU);
        let mut c = Creature::new(kind, cell_center(cell), angle, s.settings.detection_radius);
        if kind == Kind::Boid {
            // Boids start moving, each its own way, so flocks form at once.
            let sp = Species::of(kind);
            c.body.vel = Vec2::new(libm::cosf(angle), libm::sinf(angle)) * (sp.max_speed * 0.5);
        }
        if kind == Kind::Monster {
            s.monsters.push(s.creatures.len());
        }
        s.creatures.push(c);
    }
}
