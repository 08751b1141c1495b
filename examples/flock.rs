//! A flock stepped without the game: boids in a walled arena, their flock
//! forces from a [`Flocker`] (neighbours through a spatial hash), wall
//! avoidance put first by [`combine_priority`], and each move kept out of
//! the walls by [`move_body`]. The boids start heading
//! every which way and end up flying in groups; the printed alignment is,
//! averaged over the boids, the length of the mean heading of a boid and
//! its flockmates (near 0: every which way, 1: each group as one).
//!
//! Run with `cargo run --example flock`.

use delve::grid::{Cell, Grid, Tile};
use delve::steer::{Body, FlockWeights, Flocker, Vec2, avoid_walls, cell_at, combine_priority, move_body};

const SIDE: usize = 40;
const BOIDS: usize = 150;
const DT: f32 = 0.1;
const STEPS: usize = 400;

/// An open floor with a one-cell wall ring.
fn arena() -> Grid {
    let mut grid = Grid::filled(SIDE, SIDE, Tile::Floor(1));
    let last = SIDE as i32 - 1;
    for i in 0..=last {
        for cell in [Cell::new(i, 0), Cell::new(i, last), Cell::new(0, i), Cell::new(last, i)] {
            grid.set_tile(cell, Tile::Wall);
        }
    }
    grid
}

/// How far a boid sees its flockmates.
const NEIGHBOUR_RADIUS: f32 = 3.0;

/// The mean, over the boids, of the length of the mean unit heading of
/// the boid and its flockmates.
fn alignment(bodies: &[Body]) -> f32 {
    let local = |b: &Body| {
        let mates = bodies.iter().filter(|o| o.pos.distance(b.pos) <= NEIGHBOUR_RADIUS);
        let (sum, n) = mates.fold((Vec2::ZERO, 0), |(sum, n), o| (sum + o.vel.normalized(), n + 1));
        sum.length() / n as f32
    };
    bodies.iter().map(local).sum::<f32>() / bodies.len() as f32
}

fn main() {
    let grid = arena();
    // A deterministic scatter (xorshift) of boids heading every which way.
    let mut state = 0x9e37_79b9u32;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut bodies: Vec<Body> = (0..BOIDS)
        .map(|_| {
            let pos = Vec2::new(1.0 + random() * (SIDE - 2) as f32, 1.0 + random() * (SIDE - 2) as f32);
            let angle = random() * std::f32::consts::TAU;
            let vel = Vec2::new(libm::cosf(angle), libm::sinf(angle)) * 2.0;
            Body { vel, ..Body::new(pos, 3.0, 6.0) }
        })
        .collect();
    let weights = FlockWeights { separation: 2.0, alignment: 1.5, cohesion: 0.5 };
    let mut flocker = Flocker::new(NEIGHBOUR_RADIUS, 1.0, weights);

    println!("step    alignment");
    for step in 0..=STEPS {
        if step % 100 == 0 {
            println!("{step:>4}    {:.2}", alignment(&bodies));
        }
        let flocking = flocker.forces(&bodies);
        for (body, &flock) in bodies.iter_mut().zip(flocking) {
            // Walls first: the flock force gets what force is left.
            let force = combine_priority(body.max_force, &[avoid_walls(body, &grid, 1.5), flock]);
            move_body(body, force, DT, &grid);
        }
    }
    assert!(bodies.iter().all(|b| grid.is_walkable(cell_at(b.pos))), "move_body keeps every boid on the floor");
}
