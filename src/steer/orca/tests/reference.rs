//! delve's ORCA against `dodgy_2d` (0.5, a maintained Rust port of RVO2) on
//! random scenes: agents in a walled level with pillars, random
//! velocities and preferred velocities, the same neighbours and wall
//! segments handed to both in the same order.
//!
//! Where they differ by design:
//! - A neighbour whose relative velocity is *outside* its velocity obstacle
//!   (no collision within the horizon) gets, in dodgy, a half-plane at the
//!   obstacle's boundary (the whole of u); RVO2 and the paper, which delve
//!   follows, put it halfway (u / 2) so that two agents together never
//!   cross the boundary. Only when such a half-plane is *active* at delve's
//!   answer can the answers differ, so those agents are compared less
//!   strictly: dodgy's answer must satisfy its own looser half-plane there.
//! - When the half-planes leave no room (the 3-D program), the
//!   least-violating velocity depends on all the lines, so where some
//!   differ as above the agent is counted, not compared; where all are
//!   the same (every neighbour inside its obstacle), it is compared.
//!
//! Everything else must agree within [`TOLERANCE`].

use super::*;
use crate::level::Level;
use dodgy_2d::{Agent as DAgent, AvoidanceOptions, Obstacle, Vec2 as DVec2};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use std::borrow::Cow;

/// Largest difference between the two velocities, in cells per second
/// (speeds are up to 4): float rounding in two orders of operations.
const TOLERANCE: f32 = 1e-3;

const LEVEL: &str = "\
######################
#....................#
#..##.........#......#
#..##.........#......#
#.......###..........#
#....................#
#.............##.....#
#..#..........##.....#
#....................#
######################
";

fn d(v: Vec2) -> DVec2 {
    DVec2::new(v.x, v.y)
}

fn uniform(rng: &mut Pcg32, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * (rng.next_u32() as f32 / u32::MAX as f32)
}

fn random_vel(rng: &mut Pcg32, max: f32) -> Vec2 {
    Vec2::new(uniform(rng, -max, max), uniform(rng, -max, max)).clamp_length(max)
}

/// Agents on random walkable points of the level.
fn scene(rng: &mut Pcg32, grid: &crate::grid::Grid, n: usize) -> Vec<Agent> {
    let mut agents = Vec::new();
    while agents.len() < n {
        let pos = Vec2::new(uniform(rng, 0.0, grid.width() as f32), uniform(rng, 0.0, grid.height() as f32));
        if !grid.is_walkable(crate::steer::cell_at(pos)) {
            continue;
        }
        let max_speed = uniform(rng, 1.0, 4.0);
        // Mostly steady motion (the current velocity near the preferred
        // one), as in a crowd between two ticks.
        let preferred = random_vel(rng, max_speed * 1.2);
        let vel = (preferred + random_vel(rng, max_speed * 0.3)).clamp_length(max_speed);
        agents.push(Agent { pos, vel, radius: uniform(rng, 0.2, 0.45), max_speed, preferred });
    }
    agents
}

#[derive(Default, Debug)]
struct Tally {
    equal: usize,
    outside_active: usize,
    relaxed_equal: usize,
    relaxed: usize,
}

#[test]
fn velocities_match_dodgy_2d() {
    let grid = Level::parse(LEVEL, "reference").unwrap().grid;
    let walls = Walls::from_grid(&grid);
    let p = Params { time_horizon: 2.0, obstacle_horizon: 1.0, neighbour_dist: 4.0, max_neighbours: 10, dt: 0.05 };
    let options = AvoidanceOptions {
        obstacle_margin: 0.0,
        time_horizon: p.time_horizon,
        obstacle_time_horizon: p.obstacle_horizon,
    };
    let mut orca = Orca::new(p);
    let mut rng = Pcg32::seed_from_u64(17);
    let mut tally = Tally::default();
    for _ in 0..60 {
        let n = 5 + (rng.next_u32() % 20) as usize;
        let agents = scene(&mut rng, &grid, n);
        orca.hash.rebuild(agents.iter().map(|a| a.pos));
        let as_dodgy = |a: &Agent| DAgent {
            position: d(a.pos),
            velocity: d(a.vel),
            radius: a.radius,
            avoidance_responsibility: 1.0,
        };
        for (i, me) in agents.iter().enumerate() {
            orca.neighbours(&agents, i);
            let ours = orca.velocity(&agents, i, &walls);
            let neighbours: Vec<Cow<DAgent>> =
                orca.near.iter().map(|&(_, j)| Cow::Owned(as_dodgy(&agents[j as usize]))).collect();
            let obstacles: Vec<Cow<Obstacle>> = orca
                .segment_ids
                .iter()
                .map(|&s| {
                    let s = walls.segments()[s as usize];
                    Cow::Owned(Obstacle::Open { vertices: vec![d(s.a), d(s.b)] })
                })
                .collect();
            let options = AvoidanceOptions { obstacle_margin: me.radius, ..options.clone() };
            let theirs = as_dodgy(me).compute_avoiding_velocity(
                &neighbours,
                &obstacles,
                d(me.preferred),
                me.max_speed,
                p.dt,
                &options,
            );
            let theirs = Vec2::new(theirs.x, theirs.y);

            // Classify with delve's own lines for this agent. A neighbour
            // is outside its velocity obstacle when they would not collide
            // within the horizon.
            let rigid = orca.lines.len() - orca.near.len();
            let violation = |l: &Line, v: Vec2| det(l.direction, l.point - v);
            let outside: Vec<bool> = orca
                .near
                .iter()
                .map(|&(_, j)| {
                    let o = &agents[j as usize];
                    time_to_collision(me.pos, me.vel, o.pos, o.vel, me.radius + o.radius, p.time_horizon).is_none()
                })
                .collect();
            if orca.lines.iter().any(|l| violation(l, ours) > 1e-3) {
                // Infeasible: the 3-D program. With every neighbour inside
                // its obstacle both build the very same lines, so the same
                // answer is due.
                if outside.iter().any(|&o| o) {
                    tally.relaxed += 1;
                } else {
                    assert!(
                        ours.distance(theirs) <= TOLERANCE,
                        "agent {i} of {agents:?}: delve {ours:?}, dodgy {theirs:?} (3-D)"
                    );
                    tally.relaxed_equal += 1;
                }
                continue;
            }
            let active_outside: Vec<usize> = (0..orca.near.len())
                .filter(|&k| outside[k] && violation(&orca.lines[rigid + k], ours) > -1e-4)
                .collect();
            if active_outside.is_empty() {
                assert!(
                    ours.distance(theirs) <= TOLERANCE,
                    "agent {i} of {agents:?}: delve {ours:?}, dodgy {theirs:?}"
                );
                tally.equal += 1;
            } else {
                // dodgy's half-plane for those neighbours lies u / 2 further
                // into the obstacle; its answer must respect that one.
                for k in active_outside {
                    let ours_line = orca.lines[rigid + k];
                    let looser = Line { point: ours_line.point * 2.0 - me.vel, direction: ours_line.direction };
                    assert!(violation(&looser, theirs) <= 1e-3, "agent {i}: dodgy {theirs:?} beyond {looser:?}");
                }
                tally.outside_active += 1;
            }
        }
    }
    println!("compared with dodgy_2d: {tally:?}");
    let total = tally.equal + tally.outside_active + tally.relaxed_equal + tally.relaxed;
    // Most scenes are crowded on purpose; still, a good share must be
    // comparable exactly, or the test would prove little.
    assert!(tally.equal * 3 > total && tally.equal >= 200, "too few agents compared exactly: {tally:?}");
}
