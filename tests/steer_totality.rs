//! Totality: every steering behaviour returns a finite vector for finite
//! input, including the degenerate cases the game produces (bodies at rest,
//! coincident agents, zero radii, zero dt, zero max_speed), and the capped
//! ones respect `max_force`. The capped ones stay finite for finite input of
//! any magnitude; the uncapped sums (alignment, cohesion, wander, the
//! integrated position) only where their result fits in `f32`, which the
//! game-sized ranges below respect.

use delve::steer::*;
use proptest::prelude::*;

/// Finite values biased towards the degenerate ones.
fn scalar() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.0f32), Just(-0.0f32), Just(1e-6f32), -1.0f32..1.0, -1e3f32..1e3, -1e6f32..1e6,]
}

/// Non-negative limits and radii, zero included.
fn limit() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.0f32), Just(1e-30f32), 0.0f32..1.0, 0.0f32..1e4]
}

fn vec2() -> impl Strategy<Value = Vec2> {
    prop_oneof![Just(Vec2::ZERO), Just(Vec2::new(1e-6, -1e-6)), (scalar(), scalar()).prop_map(|(x, y)| Vec2::new(x, y)),]
}

/// Any finite value, of any magnitude up to `f32::MAX`.
fn wild() -> impl Strategy<Value = f32> {
    prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO
}

fn wild_limit() -> impl Strategy<Value = f32> {
    (prop::num::f32::POSITIVE | prop::num::f32::ZERO).prop_filter("finite", |v| v.is_finite())
}

fn wild_vec2() -> impl Strategy<Value = Vec2> {
    (wild(), wild()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn wild_body() -> impl Strategy<Value = Body> {
    (wild_vec2(), wild_vec2(), wild_limit(), wild_limit()).prop_map(|(pos, vel, max_speed, max_force)| Body {
        pos,
        vel,
        max_speed,
        max_force,
    })
}

fn body() -> impl Strategy<Value = Body> {
    (vec2(), vec2(), limit(), limit()).prop_map(|(pos, vel, max_speed, max_force)| Body {
        pos,
        vel,
        max_speed,
        max_force,
    })
}

/// A body and neighbours, some of them on top of it.
fn crowd() -> impl Strategy<Value = (Body, Vec<Body>)> {
    (body(), prop::collection::vec((body(), any::<bool>()), 0..8)).prop_map(|(me, others)| {
        let others =
            others.into_iter().map(|(b, coincident)| if coincident { Body { pos: me.pos, ..b } } else { b }).collect();
        (me, others)
    })
}

fn finite(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

/// Finite and no longer than `max` (with rounding slack).
fn capped(v: Vec2, max: f32) -> bool {
    finite(v) && v.length() <= max * (1.0 + 1e-5) + 1e-30
}

proptest! {
    #[test]
    fn vec2_primitives_are_total(v in vec2(), max in limit()) {
        let n = v.normalized();
        prop_assert!(finite(n));
        prop_assert!(n == Vec2::ZERO || (n.length() - 1.0).abs() < 1e-5);
        prop_assert!(capped(v.clamp_length(max), max));
    }

    #[test]
    fn vec2_survives_any_finite_magnitude(
        x in prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO,
        y in prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO,
        max in prop::num::f32::POSITIVE,
    ) {
        let v = Vec2::new(x, y);
        prop_assert!(finite(v.normalized()));
        prop_assert!(finite(v.clamp_length(max)));
    }

    #[test]
    fn seek_family_is_total_and_capped(b in body(), target in vec2(), vel in vec2(), r in limit()) {
        prop_assert!(capped(seek(&b, target), b.max_force));
        prop_assert!(capped(flee(&b, target), b.max_force));
        prop_assert!(capped(arrive(&b, target, r), b.max_force));
        prop_assert!(capped(pursue(&b, target, vel), b.max_force));
        prop_assert!(capped(evade(&b, target, vel), b.max_force));
    }

    #[test]
    fn capped_behaviours_survive_any_magnitude(
        b in wild_body(),
        others in prop::collection::vec(wild_body(), 0..5),
        target in wild_vec2(),
        vel in wild_vec2(),
        r in wild_limit(),
        w in (wild(), wild(), wild()),
    ) {
        prop_assert!(capped(seek(&b, target), b.max_force));
        prop_assert!(capped(flee(&b, target), b.max_force));
        prop_assert!(capped(arrive(&b, target, r), b.max_force));
        prop_assert!(capped(pursue(&b, target, vel), b.max_force));
        prop_assert!(capped(evade(&b, target, vel), b.max_force));
        let rock = Circle { center: target, radius: r };
        prop_assert!(capped(avoid_obstacle(&b, rock, r, r), b.max_force));
        let weights = FlockWeights { separation: w.0, alignment: w.1, cohesion: w.2 };
        prop_assert!(capped(flock(&b, &others, r, weights), b.max_force));
        prop_assert!(finite(separation(&b, &others, r)));
        let parts = [(target, w.0), (vel, w.1)];
        prop_assert!(capped(combine_weighted(b.max_force, &parts), b.max_force));
        prop_assert!(capped(combine_priority(b.max_force, &[target, vel]), b.max_force));
    }

    #[test]
    fn wander_is_total(
        b in body(),
        angle in scalar(),
        radius in scalar(),
        distance in scalar(),
        jitter in scalar(),
        rs in prop::collection::vec(-1.0f32..=1.0, 1..20),
    ) {
        let mut w = Wander { angle, radius, distance, jitter };
        for r in rs {
            prop_assert!(finite(w.force(&b, r)));
            prop_assert!(w.angle.is_finite());
        }
    }

    #[test]
    fn obstacle_avoidance_is_total(
        b in body(),
        center in vec2(),
        radius in limit(),
        agent in limit(),
        feeler in limit(),
    ) {
        let f = avoid_obstacle(&b, Circle { center, radius }, agent, feeler);
        prop_assert!(capped(f, b.max_force));
    }

    #[test]
    fn combinations_are_total_and_capped(
        parts in prop::collection::vec((vec2(), scalar()), 0..6),
        max in limit(),
    ) {
        prop_assert!(capped(combine_weighted(max, &parts), max));
        let forces: Vec<Vec2> = parts.iter().map(|p| p.0).collect();
        prop_assert!(capped(combine_priority(max, &forces), max));
    }

    #[test]
    fn flocking_is_total((me, others) in crowd(), radius in limit(), w in (scalar(), scalar(), scalar())) {
        prop_assert!(finite(separation(&me, &others, radius)));
        prop_assert!(finite(alignment(&me, &others)));
        prop_assert!(finite(cohesion(&me, &others)));
        let weights = FlockWeights { separation: w.0, alignment: w.1, cohesion: w.2 };
        prop_assert!(capped(flock(&me, &others, radius, weights), me.max_force));
    }

    #[test]
    fn path_following_is_total(
        b in body(),
        waypoints in prop::collection::vec(vec2(), 0..6),
        index in 0usize..8,
        arrival in limit(),
        slowing in limit(),
    ) {
        let mut path = PathFollower { waypoints, index, arrival_radius: arrival, slowing_radius: slowing };
        for _ in 0..8 {
            prop_assert!(capped(path.steer(&b), b.max_force));
            prop_assert!(path.waypoints.is_empty() || path.index < path.waypoints.len());
        }
    }

    #[test]
    fn smoothing_is_total(raws in prop::collection::vec((vec2(), -1.0f32..2.0), 1..20)) {
        let mut s = Smoother::new();
        for (raw, factor) in raws {
            prop_assert!(finite(s.smooth(raw, factor)));
        }
    }

    #[test]
    fn integration_is_total(mut b in body(), steps in prop::collection::vec((vec2(), limit()), 1..20)) {
        for (force, dt) in steps {
            b.integrate(force, dt);
            prop_assert!(finite(b.pos) && finite(b.vel));
            prop_assert!(b.vel.length() <= b.max_speed * (1.0 + 1e-5) + 1e-30);
        }
    }
}
