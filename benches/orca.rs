//! Local avoidance per tick for 100, 500 and 2,000 agents: delve's ORCA
//! step beside `dodgy_2d`'s (0.5, a Rust port of RVO2) and beside the
//! separation force, on the same scene, parameters, neighbours and wall
//! segments, side by side in one run; with the overlaps each leaves per
//! second. Then the game's `levels/crossing.txt` under both settings.
//!
//! The scene: agents on distinct cells of a square room with a wall border
//! and a lattice of 2×2 pillars (about one agent per 12 free cells), each
//! bound for the cell mirrored through the centre, so every agent crosses
//! the room through the others. Each method runs its own copy of the scene
//! for 400 ticks of 1/20 s; per tick it pays for everything: binning the
//! agents, finding each one's 10 nearest neighbours within 3 cells (the
//! same spatial hash and order for delve and dodgy) and the wall segments
//! in reach, choosing velocities, moving. dodgy gets its agents and
//! obstacles built once per tick and borrowed, as its API intends.
//!
//! Run with `cargo bench --bench orca` (release profile, thin LTO).

#[path = "support/timing.rs"]
mod timing;

use std::borrow::Cow;
use std::hint::black_box;
use std::time::Instant;
use timing::median;

use delve::grid::{Cell, Grid, Tile};
use delve::level::Level;
use delve::sim::{Avoidance, Bot, Settings, World};
use delve::steer::{
    Agent, Body, Orca, OrcaParams, SpatialHash, Vec2, Walls, arrive, combine_weighted, move_body, resolve_walls,
    separation,
};
use dodgy_2d::{Agent as DAgent, AvoidanceOptions, Obstacle, Vec2 as DVec2};

const DT: f32 = 0.05;
const TICKS: usize = 400;
const BODY_RADIUS: f32 = 0.35;
/// The world's: four tenths of skin over the body.
const AVOID_RADIUS: f32 = BODY_RADIUS * 1.4;
const MAX_SPEED: f32 = 2.0;
const MAX_FORCE: f32 = 8.0;
const KEEP_RIGHT: f32 = 0.1;
const SEPARATION_RADIUS: f32 = 1.0;
const PARAMS: OrcaParams =
    OrcaParams { time_horizon: 1.5, obstacle_horizon: 0.5, neighbour_dist: 3.0, max_neighbours: 10, dt: DT };

/// xorshift32: a deterministic scene without a RNG dependency.
struct XorShift(u32);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0 as usize % n
    }
}

struct Scene {
    grid: Grid,
    walls: Walls,
    starts: Vec<Vec2>,
    goals: Vec<Vec2>,
}

/// `n` agents in a room sized for them, pillars symmetric about the
/// centre, each bound for its mirror cell.
fn scene(n: usize) -> Scene {
    let side = ((n * 16) as f64).sqrt() as i32 + 8;
    let mut grid = Grid::filled(side as usize, side as usize, Tile::Floor(1));
    for y in 0..side {
        for x in 0..side {
            let border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
            let pillar = |v: i32| v % 10 == 5 || v % 10 == 6;
            let (mx, my) = (side - 1 - x, side - 1 - y);
            if border || (pillar(x) && pillar(y)) || (pillar(mx) && pillar(my)) {
                grid.set_tile(Cell::new(x, y), Tile::Wall);
            }
        }
    }
    let centre = |c: Cell| Vec2::new(c.x as f32 + 0.5, c.y as f32 + 0.5);
    let mut rng = XorShift(0x2545_f491);
    let mut taken = vec![false; (side * side) as usize];
    let (mut starts, mut goals) = (Vec::new(), Vec::new());
    while starts.len() < n {
        let c = Cell::new(rng.below(side as usize) as i32, rng.below(side as usize) as i32);
        let m = Cell::new(side - 1 - c.x, side - 1 - c.y);
        let i = (c.y * side + c.x) as usize;
        if taken[i] || !grid.is_walkable(c) || !grid.is_walkable(m) {
            continue;
        }
        taken[i] = true;
        starts.push(centre(c));
        goals.push(centre(m));
    }
    Scene { walls: Walls::from_grid(&grid), grid, starts, goals }
}

fn preferred(pos: Vec2, goal: Vec2) -> Vec2 {
    ((goal - pos) * 2.0).clamp_length(MAX_SPEED).rotated(KEEP_RIGHT)
}

/// Pairs of bodies closer than twice the body radius.
fn overlaps(bodies: &[Body], hash: &mut SpatialHash, ids: &mut Vec<u32>) -> u64 {
    hash.rebuild(bodies.iter().map(|b| b.pos));
    let mut n = 0;
    for (i, b) in bodies.iter().enumerate() {
        hash.query(b.pos, 2.0 * BODY_RADIUS, ids);
        n += ids
            .iter()
            .filter(|&&j| j as usize > i && bodies[j as usize].pos.distance(b.pos) < 2.0 * BODY_RADIUS)
            .count() as u64;
    }
    n
}

#[derive(Clone, Copy)]
enum Method {
    Delve,
    Dodgy,
    Separation,
}

/// Runs the scene with `method`: median ms per tick, overlaps per second,
/// and the mean share of the way to its goal an agent has covered (so
/// that standing still does not pass for avoiding well).
fn run(s: &Scene, method: Method) -> (f64, f64, f64) {
    let mut bodies: Vec<Body> = s.starts.iter().map(|&p| Body::new(p, MAX_SPEED, MAX_FORCE)).collect();
    let mut orca = Orca::new(PARAMS);
    let mut hash = SpatialHash::new(PARAMS.neighbour_dist);
    let (mut agents, mut velocities, mut ids, mut near, mut seg) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut count_hash = SpatialHash::new(1.0);
    let mut others: Vec<Body> = Vec::new();
    let obstacles: Vec<Obstacle> =
        s.walls.segments().iter().map(|g| Obstacle::Open { vertices: vec![d(g.a), d(g.b)] }).collect();
    let options = AvoidanceOptions {
        obstacle_margin: AVOID_RADIUS,
        time_horizon: PARAMS.time_horizon,
        obstacle_time_horizon: PARAMS.obstacle_horizon,
    };
    let (mut times, mut total_overlaps) = (Vec::with_capacity(TICKS), 0);
    for _ in 0..TICKS {
        let began = Instant::now();
        match method {
            Method::Delve => {
                agents.clear();
                agents.extend(bodies.iter().zip(&s.goals).map(|(b, &g)| Agent {
                    pos: b.pos,
                    vel: b.vel,
                    radius: AVOID_RADIUS,
                    max_speed: MAX_SPEED,
                    preferred: preferred(b.pos, g),
                }));
                orca.step(&agents, &s.walls, &mut velocities);
                advance(&mut bodies, &velocities, &s.grid);
            }
            Method::Dodgy => {
                let them: Vec<DAgent> = bodies
                    .iter()
                    .map(|b| DAgent {
                        position: d(b.pos),
                        velocity: d(b.vel),
                        radius: AVOID_RADIUS,
                        avoidance_responsibility: 1.0,
                    })
                    .collect();
                hash.rebuild(bodies.iter().map(|b| b.pos));
                velocities.clear();
                for (i, (b, &g)) in bodies.iter().zip(&s.goals).enumerate() {
                    nearest(&hash, &bodies, i, &mut ids, &mut near);
                    let neighbours: Vec<Cow<DAgent>> =
                        near.iter().map(|&(_, j)| Cow::Borrowed(&them[j as usize])).collect();
                    s.walls.near(b.pos, PARAMS.obstacle_horizon * MAX_SPEED + AVOID_RADIUS, &mut seg);
                    let walls: Vec<Cow<Obstacle>> =
                        seg.iter().map(|&k| Cow::Borrowed(&obstacles[k as usize])).collect();
                    let v = them[i].compute_avoiding_velocity(
                        &neighbours,
                        &walls,
                        d(preferred(b.pos, g)),
                        MAX_SPEED,
                        DT,
                        &options,
                    );
                    velocities.push(Vec2::new(v.x, v.y));
                }
                advance(&mut bodies, &velocities, &s.grid);
            }
            Method::Separation => {
                hash.rebuild(bodies.iter().map(|b| b.pos));
                let snapshot = bodies.clone();
                for (i, (b, &g)) in bodies.iter_mut().zip(&s.goals).enumerate() {
                    hash.query(b.pos, SEPARATION_RADIUS, &mut ids);
                    others.clear();
                    others.extend(ids.iter().filter(|&&j| j as usize != i).map(|&j| snapshot[j as usize]));
                    let want = arrive(b, g, 1.0);
                    let force =
                        combine_weighted(MAX_FORCE, &[(want, 1.0), (separation(b, &others, SEPARATION_RADIUS), 1.5)]);
                    move_body(b, force, DT, &s.grid);
                }
            }
        }
        times.push(began.elapsed().as_secs_f64() * 1e3);
        total_overlaps += overlaps(&bodies, &mut count_hash, &mut ids);
        black_box(&bodies);
    }
    let progress = bodies
        .iter()
        .zip(&s.goals)
        .zip(&s.starts)
        .map(|((b, g), p)| 1.0 - f64::from(b.pos.distance(*g)) / f64::from(p.distance(*g)).max(1.0))
        .sum::<f64>()
        / bodies.len() as f64;
    (median(&mut times), total_overlaps as f64 / (TICKS as f64 * f64::from(DT)), progress * 100.0)
}

/// Moves every body at its chosen velocity, out of the walls.
fn advance(bodies: &mut [Body], velocities: &[Vec2], grid: &Grid) {
    for (b, &v) in bodies.iter_mut().zip(velocities) {
        let prev = b.pos;
        b.vel = v;
        b.pos += v * DT;
        resolve_walls(b, prev, grid);
    }
}

fn d(v: Vec2) -> DVec2 {
    DVec2::new(v.x, v.y)
}

/// Agent `i`'s 10 nearest within reach, ties by id: the order delve's
/// `Orca` takes them in.
fn nearest(hash: &SpatialHash, bodies: &[Body], i: usize, ids: &mut Vec<u32>, near: &mut Vec<(f32, u32)>) {
    let me = bodies[i].pos;
    hash.query(me, PARAMS.neighbour_dist, ids);
    near.clear();
    near.extend(ids.iter().filter(|&&j| j as usize != i).map(|&j| ((bodies[j as usize].pos - me).length_squared(), j)));
    near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near.truncate(PARAMS.max_neighbours);
}

/// `levels/crossing.txt` with the scripted player, under each avoidance:
/// overlaps per second and ORCA's time per tick.
fn crossing() {
    let level = Level::load(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/crossing.txt")))
        .expect("levels/crossing.txt");
    let ticks = 4000;
    println!();
    println!("levels/crossing.txt, 24 monsters and 4 wanderers, scripted player, {ticks} ticks (200 s), seeds 1-3");
    println!("{:>11} {:>6} {:>10} {:>12} {:>8}", "avoidance", "seed", "overlaps", "overlaps/s", "orca ms");
    for avoidance in [Avoidance::Separation, Avoidance::Orca] {
        for seed in 1..=3 {
            let settings = Settings { avoidance, ..Settings::default() };
            let mut world = World::new(&level, seed, settings).expect("a world");
            let mut bot = Bot::new(seed);
            for _ in 0..ticks {
                if let Some(c) = bot.command(&world) {
                    world.apply(c);
                }
                world.tick();
            }
            let t = world.stats().total;
            println!(
                "{:>11} {:>6} {:>10} {:>12.2} {:>8.4}",
                avoidance.name(),
                seed,
                t.overlaps,
                t.overlaps as f64 / (ticks as f64 * f64::from(DT)),
                t.orca_micros / 1000.0 / ticks as f64
            );
        }
    }
}

fn main() {
    println!(
        "avoidance per tick: room with pillars, agents crossing to mirrored cells, {TICKS} ticks of {DT} s, one core"
    );
    println!(
        "ms: median per tick (neighbours, walls, velocities, moves); overlaps/s: pairs closer than 2 x {BODY_RADIUS}"
    );
    println!(
        "{:>6} {:>10} {:>10} {:>10} {:>9} {:>9} {:>11} {:>11} {:>11} {:>14}",
        "agents",
        "delve ms",
        "dodgy ms",
        "sep ms",
        "dodgy/dl",
        "sep/dl",
        "delve ov/s",
        "dodgy ov/s",
        "sep ov/s",
        "progress %"
    );
    for n in [100, 500, 2000] {
        let s = scene(n);
        let (dl, dl_ov, dl_go) = run(&s, Method::Delve);
        let (dg, dg_ov, dg_go) = run(&s, Method::Dodgy);
        let (sp, sp_ov, sp_go) = run(&s, Method::Separation);
        println!(
            "{n:>6} {dl:>10.3} {dg:>10.3} {sp:>10.3} {:>8.2}x {:>8.2}x {dl_ov:>11.1} {dg_ov:>11.1} {sp_ov:>11.1} {:>14}",
            dg / dl,
            sp / dl,
            format!("{dl_go:.0}/{dg_go:.0}/{sp_go:.0}")
        );
    }
    println!("progress: mean share of the way to its goal each agent covered, delve/dodgy/separation");
    crossing();
}
