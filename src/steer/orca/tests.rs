use super::*;

#[test]
fn time_to_collision_matches_closed_forms() {
    let v = Vec2::new;
    let ttc = |pa, va, pb, vb, r| time_to_collision(pa, va, pb, vb, r, 10.0);
    // Head-on: gap 10 − 2 = 8 closed at 2 + 2 = 4 per second.
    assert_eq!(ttc(v(0.0, 0.0), v(2.0, 0.0), v(10.0, 0.0), v(-2.0, 0.0), 2.0), Some(2.0));
    // Parallel, same velocity: never.
    assert_eq!(ttc(v(0.0, 0.0), v(1.0, 0.0), v(0.0, 5.0), v(1.0, 0.0), 1.0), None);
    // Parallel lanes 3 apart, radius 1: they pass without touching.
    assert_eq!(ttc(v(0.0, 0.0), v(1.0, 0.0), v(10.0, 3.0), v(-1.0, 0.0), 1.0), None);
    // Crossing at right angles: b at (0, 5) moving −y at 1, a at rest at
    // (0, 0) with r = 1: |5 − t| = 1 at t = 4.
    assert_eq!(ttc(v(0.0, 0.0), v(0.0, 0.0), v(0.0, 5.0), v(0.0, -1.0), 1.0), Some(4.0));
    // Crossing paths: a from (−4, 0) along +x, b from (0, −4) along +y, both
    // at 1: distance √2·|4 − t| = 1 at t = 4 − 1/√2.
    let t = ttc(v(-4.0, 0.0), v(1.0, 0.0), v(0.0, -4.0), v(0.0, 1.0), 1.0).unwrap();
    assert!((t - (4.0 - std::f32::consts::FRAC_1_SQRT_2)).abs() < 1e-5, "{t}");
    // Grazing: lanes exactly r apart touch once, at closest approach.
    let t = ttc(v(0.0, 0.0), v(1.0, 0.0), v(6.0, 2.0), v(-1.0, 0.0), 2.0).unwrap();
    assert!((t - 3.0).abs() < 1e-3, "{t}");
    // Touching now, or overlapping: zero.
    assert_eq!(ttc(v(0.0, 0.0), v(0.0, 0.0), v(2.0, 0.0), v(5.0, 0.0), 2.0), Some(0.0));
    assert_eq!(ttc(v(0.0, 0.0), v(0.0, 0.0), v(0.5, 0.0), v(0.0, 0.0), 2.0), Some(0.0));
    // Receding: never.
    assert_eq!(ttc(v(0.0, 0.0), v(-1.0, 0.0), v(5.0, 0.0), v(1.0, 0.0), 1.0), None);
    // Beyond the horizon: 8 / 4 = 2 s > 1 s.
    assert_eq!(time_to_collision(v(0.0, 0.0), v(2.0, 0.0), v(10.0, 0.0), v(-2.0, 0.0), 2.0, 1.0), None);
}

fn params() -> Params {
    Params { time_horizon: 2.0, obstacle_horizon: 1.0, neighbour_dist: 5.0, max_neighbours: 10, dt: 0.05 }
}

fn agent(x: f32, y: f32, preferred: Vec2) -> Agent {
    Agent { pos: Vec2::new(x, y), vel: preferred, radius: 0.5, max_speed: 2.0, preferred }
}

#[test]
fn head_on_agents_pass_without_touching() {
    let mut agents = vec![agent(0.0, 0.0, Vec2::new(2.0, 0.0)), agent(10.0, 0.0, Vec2::new(-2.0, 0.0))];
    let goals = [Vec2::new(10.0, 0.0), Vec2::new(0.0, 0.0)];
    let mut orca = Orca::new(params());
    let mut out = Vec::new();
    let mut closest = f32::INFINITY;
    for _ in 0..200 {
        for (a, g) in agents.iter_mut().zip(goals) {
            a.preferred = ((g - a.pos) * 4.0).clamp_length(a.max_speed);
        }
        orca.step(&agents, &Walls::default(), &mut out);
        for (a, &v) in agents.iter_mut().zip(&out) {
            a.vel = v;
            a.pos += v * 0.05;
        }
        closest = closest.min(agents[0].pos.distance(agents[1].pos));
    }
    assert!(closest >= 1.0 - 1e-3, "they touched: {closest}");
    for (a, g) in agents.iter().zip(goals) {
        assert!(a.pos.distance(g) < 0.1, "{a:?} did not reach {g:?}");
    }
}

#[test]
fn coincident_agents_split_deterministically() {
    let a = agent(1.0, 1.0, Vec2::ZERO);
    let mut orca = Orca::new(params());
    let mut out = Vec::new();
    orca.step(&[a, a], &Walls::default(), &mut out);
    assert!(out[0].x * out[1].x < 0.0, "{out:?}");
}

#[test]
fn an_agent_heading_into_a_wall_stops_short_of_it() {
    // A wall face along x = 3, free side at x < 3.
    let walls = Walls::new(vec![Segment { a: Vec2::new(3.0, 10.0), b: Vec2::new(3.0, -10.0) }]);
    let mut a = agent(0.0, 0.0, Vec2::new(2.0, 0.0));
    let mut orca = Orca::new(params());
    let mut out = Vec::new();
    for _ in 0..100 {
        orca.step(&[a], &walls, &mut out);
        a.vel = out[0];
        a.pos += a.vel * 0.05;
    }
    assert!(a.pos.x <= 2.5 + 1e-3 && a.pos.x > 2.3, "{a:?}");
}

mod reference;
