//! One flock step (neighbour query within radius 3, flock forces,
//! integration, wall collision) for 10,000 boids on an open 200×200 area
//! with a wall border, through the spatial hash, on one thread; beside it
//! the brute-force O(n²) neighbour search for 2,000 boids. Prints the
//! medians over the timed steps of the wall time and of the thread's CPU
//! time (which waiting for a core on a busy machine does not inflate), in
//! ms per step, and the CPU ns per boid.
//!
//! The steps run inside a rayon pool of one thread, whose thread is the one
//! timed: the hash's rebuild hands its counting sort to the current pool
//! (`crate::shares`), and from a thread outside any pool that is the global
//! pool, whose threads would sort while the timed thread sleeps, so that its
//! CPU time left the sort out (about a fifth of the step's instructions).
//!
//! Run with `cargo bench --bench flock` (release profile, thin LTO).

#[path = "support/timing.rs"]
mod timing;

use std::hint::black_box;
use std::time::Instant;
use timing::median;

use delve::grid::{Cell, Grid, Tile};
use delve::sim::clock::thread_cpu;
use delve::steer::{Body, FlockWeights, Flocker, SpatialHash, Vec2, flock, move_body, neighbors_brute_force};

const SIDE: usize = 200;
const NEIGHBOR_RADIUS: f32 = 3.0;
const SEPARATION_RADIUS: f32 = 1.0;
const WEIGHTS: FlockWeights = FlockWeights { separation: 1.5, alignment: 1.0, cohesion: 1.0 };
const MAX_SPEED: f32 = 2.0;
const MAX_FORCE: f32 = 4.0;
const DT: f32 = 0.1;
const WARMUP_STEPS: usize = 5;
const TIMED_STEPS: usize = 50;

/// xorshift32: deterministic positions without a RNG dependency.
struct XorShift(u32);

impl XorShift {
    /// Uniform in [0, 1).
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }
}

/// The open area: every cell floor except a one-cell wall ring.
fn arena() -> Grid {
    let mut grid = Grid::filled(SIDE, SIDE, Tile::Floor(1));
    let last = SIDE as i32 - 1;
    for i in 0..SIDE as i32 {
        for cell in [Cell::new(i, 0), Cell::new(i, last), Cell::new(0, i), Cell::new(last, i)] {
            grid.set_tile(cell, Tile::Wall);
        }
    }
    grid
}

/// `n` boids spread uniformly over the floor, heading in random directions.
fn boids(n: usize) -> Vec<Body> {
    let mut rng = XorShift(0x9e37_79b9);
    let inner = (SIDE - 2) as f32;
    (0..n)
        .map(|_| {
            let pos = Vec2::new(1.0 + rng.next() * inner, 1.0 + rng.next() * inner);
            let vel = Vec2::new(rng.next() * 2.0 - 1.0, rng.next() * 2.0 - 1.0) * MAX_SPEED;
            Body { pos, vel: vel.clamp_length(MAX_SPEED), max_speed: MAX_SPEED, max_force: MAX_FORCE }
        })
        .collect()
}

/// One step through the spatial hash. Kept out of line so that a profiler
/// can count exactly one step (callgrind's `--toggle-collect=*hashed_step*`).
#[inline(never)]
fn hashed_step(flocker: &mut Flocker, bodies: &mut [Body], grid: &Grid) {
    let forces = flocker.forces(bodies);
    for (body, &force) in bodies.iter_mut().zip(forces) {
        move_body(body, force, DT, grid);
    }
}

/// Buffers for the brute-force step, reused like Flocker's.
#[derive(Default)]
struct BruteForce {
    positions: Vec<Vec2>,
    ids: Vec<u32>,
    neighbors: Vec<Body>,
    forces: Vec<Vec2>,
}

/// One step with an O(n²) neighbour search, otherwise the same work.
fn brute_step(buffers: &mut BruteForce, bodies: &mut [Body], grid: &Grid) {
    buffers.positions.clear();
    buffers.positions.extend(bodies.iter().map(|b| b.pos));
    buffers.forces.clear();
    for (i, body) in bodies.iter().enumerate() {
        neighbors_brute_force(&buffers.positions, body.pos, NEIGHBOR_RADIUS, &mut buffers.ids);
        buffers.neighbors.clear();
        buffers.neighbors.extend(buffers.ids.iter().filter(|&&j| j as usize != i).map(|&j| bodies[j as usize]));
        buffers.forces.push(flock(body, &buffers.neighbors, SEPARATION_RADIUS, WEIGHTS));
    }
    for (body, &force) in bodies.iter_mut().zip(&buffers.forces) {
        move_body(body, force, DT, grid);
    }
}

/// Runs the warm-up and timed steps; returns the median step in ms, by
/// wall and by the thread's CPU time.
fn median_ms(bodies: &mut [Body], mut step: impl FnMut(&mut [Body])) -> (f64, f64) {
    for _ in 0..WARMUP_STEPS {
        step(bodies);
    }
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for _ in 0..TIMED_STEPS {
        let (start, cpu_start) = (Instant::now(), thread_cpu());
        step(black_box(&mut *bodies));
        black_box(&*bodies);
        wall.push(start.elapsed().as_secs_f64() * 1e3);
        cpu.push(cpu_start.zip(thread_cpu()).map_or(0.0, |(a, b)| (b - a) * 1e3));
    }
    (median(&mut wall), median(&mut cpu))
}

/// Mean number of neighbours per boid at the end, for context.
fn mean_neighbors(bodies: &[Body]) -> f64 {
    let positions: Vec<Vec2> = bodies.iter().map(|b| b.pos).collect();
    let mut hash = SpatialHash::new(NEIGHBOR_RADIUS);
    hash.rebuild(positions.iter().copied());
    let mut ids = Vec::new();
    let total: usize = positions
        .iter()
        .map(|&p| {
            hash.query(p, NEIGHBOR_RADIUS, &mut ids);
            ids.len() - 1
        })
        .sum();
    total as f64 / bodies.len() as f64
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool of one thread");
    pool.install(run);
}

/// The rows, on the calling thread (the one-thread pool's).
fn run() {
    let grid = arena();
    println!(
        "flock step: radius {NEIGHBOR_RADIUS}, {SIDE}x{SIDE} area with a wall border, one thread, \
         medians of {TIMED_STEPS} steps after {WARMUP_STEPS} warm-up (wall, and the thread's CPU)"
    );
    println!(
        "{:<28} {:>6} {:>10} {:>10} {:>12} {:>10}",
        "method", "boids", "wall ms", "cpu ms", "cpu ns/boid", "neighbours"
    );
    let rows: [(&str, usize, bool); 3] =
        [("spatial hash", 10_000, true), ("spatial hash", 2_000, true), ("brute force O(n^2)", 2_000, false)];
    for (name, n, hashed) in rows {
        let mut bodies = boids(n);
        let (wall, cpu) = if hashed {
            let mut flocker = Flocker::new(NEIGHBOR_RADIUS, SEPARATION_RADIUS, WEIGHTS);
            median_ms(&mut bodies, |b| hashed_step(&mut flocker, b, &grid))
        } else {
            let mut buffers = BruteForce::default();
            median_ms(&mut bodies, |b| brute_step(&mut buffers, b, &grid))
        };
        println!(
            "{:<28} {:>6} {:>10.3} {:>10.3} {:>12.0} {:>10.1}",
            name,
            n,
            wall,
            cpu,
            cpu * 1e6 / n as f64,
            mean_neighbors(&bodies)
        );
    }
}
