//! Crowds crossing a room: 40 agents on a circle swap to the opposite
//! side. Under ORCA no two ever overlap and all arrive; under the
//! separation force they do overlap (so the first test can fail).

use delve::grid::Grid;
use delve::level::Level;
use delve::steer::*;

const DT: f32 = 0.05;
const RADIUS: f32 = 0.4;
const MAX_SPEED: f32 = 2.0;
const AGENTS: usize = 40;
/// The radius ORCA avoids with: a skin of a tenth over the body's, because
/// its answers lie on the boundary of what is permitted and, in a jam, the
/// least-violating velocity of the 3-D program crosses it by a hair.
const AVOID_RADIUS: f32 = RADIUS * 1.1;

/// A 34x34 room with a wall border, and the agents' starts and goals:
/// evenly on a circle of radius 13 about the centre, each bound for the
/// point opposite.
fn room() -> (Grid, Vec<Vec2>, Vec<Vec2>) {
    let side = 34;
    let mut text = String::new();
    for y in 0..side {
        for x in 0..side {
            text.push(if x == 0 || y == 0 || x == side - 1 || y == side - 1 { '#' } else { '.' });
        }
        text.push('\n');
    }
    let grid = Level::parse(&text, "room").unwrap().grid;
    let centre = Vec2::new(17.0, 17.0);
    let at = |k: usize| {
        let a = std::f32::consts::TAU * k as f32 / AGENTS as f32;
        centre + Vec2::new(libm::cosf(a), libm::sinf(a)) * 13.0
    };
    let starts = (0..AGENTS).map(at).collect();
    let goals = (0..AGENTS).map(|k| at(k + AGENTS / 2)).collect();
    (grid, starts, goals)
}

/// The velocity an agent wants: toward its goal at full speed, slowing
/// within half a cell of it, turned a little to the right. A circle of
/// agents bound for the opposite points is perfectly symmetric, and ORCA
/// then stalls them all at the centre, each waiting for the others; a
/// shared bias to one side, as pedestrians keep right, turns the jam into
/// a roundabout.
fn preferred(pos: Vec2, goal: Vec2) -> Vec2 {
    ((goal - pos) * 2.0).clamp_length(MAX_SPEED).rotated(KEEP_RIGHT)
}

/// The bias of [`preferred`], radians.
const KEEP_RIGHT: f32 = 0.1;

/// Pairs closer than the sum of their radii.
fn overlaps(positions: &[Vec2]) -> usize {
    let mut n = 0;
    for (i, a) in positions.iter().enumerate() {
        n += positions[i + 1..].iter().filter(|b| a.distance(**b) < 2.0 * RADIUS).count();
    }
    n
}

/// Runs the scene for `ticks`; the overlaps summed over ticks and the
/// final positions.
fn run(orca: bool, ticks: usize) -> (usize, Vec<Vec2>, Vec<Vec2>) {
    let (grid, starts, goals) = room();
    let walls = Walls::from_grid(&grid);
    let mut solver = Orca::new(OrcaParams {
        time_horizon: 2.0,
        obstacle_horizon: 1.0,
        neighbour_dist: 5.0,
        max_neighbours: 10,
        dt: DT,
    });
    let mut bodies: Vec<Body> = starts.iter().map(|&p| Body::new(p, MAX_SPEED, 8.0)).collect();
    let mut agents = Vec::new();
    let mut velocities = Vec::new();
    let mut total = 0;
    for _ in 0..ticks {
        if orca {
            agents.clear();
            agents.extend(bodies.iter().zip(&goals).map(|(b, &g)| Agent {
                pos: b.pos,
                vel: b.vel,
                radius: AVOID_RADIUS,
                max_speed: MAX_SPEED,
                preferred: preferred(b.pos, g),
            }));
            solver.step(&agents, &walls, &mut velocities);
            for (b, &v) in bodies.iter_mut().zip(&velocities) {
                let prev = b.pos;
                b.vel = v;
                b.pos += v * DT;
                resolve_walls(b, prev, &grid);
            }
        } else {
            let snapshot = bodies.clone();
            for (i, (b, &g)) in bodies.iter_mut().zip(&goals).enumerate() {
                let near: Vec<Body> = snapshot
                    .iter()
                    .enumerate()
                    .filter(|&(j, o)| j != i && o.pos.distance(b.pos) < 1.0)
                    .map(|(_, o)| *o)
                    .collect();
                let want = preferred(b.pos, g) - b.vel;
                let force = combine_weighted(b.max_force, &[(want / DT, 1.0), (separation(b, &near, 1.0), 1.5)]);
                move_body(b, force, DT, &grid);
            }
        }
        let positions: Vec<Vec2> = bodies.iter().map(|b| b.pos).collect();
        total += overlaps(&positions);
    }
    (total, bodies.iter().map(|b| b.pos).collect(), goals)
}

#[test]
fn forty_agents_swap_sides_with_orca_without_overlapping() {
    let (overlaps, ends, goals) = run(true, 1200);
    assert_eq!(overlaps, 0, "agents overlapped under ORCA");
    for (k, (end, goal)) in ends.iter().zip(&goals).enumerate() {
        assert!(end.distance(*goal) < 0.25, "agent {k} ended at {end:?}, bound for {goal:?}");
    }
}

#[test]
fn the_same_crossing_under_separation_overlaps() {
    let (overlaps, _, _) = run(false, 1200);
    assert!(overlaps > 0, "separation kept every pair apart: the ORCA test proves nothing");
}

mod totality {
    use super::*;
    use proptest::prelude::*;

    fn vec(r: f32) -> impl Strategy<Value = Vec2> {
        // Half-cell steps make coincident agents and touching discs common.
        (-2 * r as i32..=2 * r as i32, -2 * r as i32..=2 * r as i32)
            .prop_map(|(x, y)| Vec2::new(x as f32 * 0.5, y as f32 * 0.5))
    }

    fn agent() -> impl Strategy<Value = Agent> {
        (vec(5.0), vec(3.0), 0.0f32..1.0, 0.0f32..4.0, vec(6.0))
            .prop_map(|(pos, vel, radius, max_speed, preferred)| Agent { pos, vel, radius, max_speed, preferred })
    }

    proptest! {
        /// Whatever the agents and walls (coincident agents, zero radius,
        /// zero speed, agents inside walls, segments of no length), every
        /// velocity is finite and within the agent's top speed.
        #[test]
        fn orca_velocities_are_finite_and_capped(
            agents in prop::collection::vec(agent(), 1..8),
            segments in prop::collection::vec((vec(5.0), vec(5.0)), 0..6),
        ) {
            let walls = Walls::new(segments.into_iter().map(|(a, b)| Segment { a, b }).collect());
            let mut orca = Orca::new(OrcaParams {
                time_horizon: 1.5,
                obstacle_horizon: 0.5,
                neighbour_dist: 3.0,
                max_neighbours: 4,
                dt: DT,
            });
            let mut out = Vec::new();
            orca.step(&agents, &walls, &mut out);
            prop_assert_eq!(out.len(), agents.len());
            for (a, v) in agents.iter().zip(&out) {
                prop_assert!(v.x.is_finite() && v.y.is_finite(), "{:?} for {:?}", v, a);
                prop_assert!(v.length() <= a.max_speed * (1.0 + 1e-4) + 1e-5, "{:?} for {:?}", v, a);
            }
        }
    }
}
