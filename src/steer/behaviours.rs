//! The individual Reynolds behaviours: each turns one goal into a steering
//! force, capped at the body's `max_force` where the formula says so.
//!
//! They are pure functions of their inputs (wander keeps its angle in its
//! own struct, and the caller draws its random number), so a tick is a
//! deterministic function of the world state.

use super::{Body, Vec2};
use crate::hash::{StateHash, StateHasher};

/// Head for `target` at full speed: the steering force is the difference
/// between the velocity we want and the one we have.
pub fn seek(body: &Body, target: Vec2) -> Vec2 {
    steer_towards(body, (target - body.pos).normalized() * body.max_speed)
}

/// Run straight away from `threat` at full speed (seek mirrored).
pub fn flee(body: &Body, threat: Vec2) -> Vec2 {
    steer_towards(body, (body.pos - threat).normalized() * body.max_speed)
}

/// Seek that brakes: inside `slowing_radius` the wanted speed falls in
/// proportion to the distance left, so the body comes to rest on the target
/// instead of overshooting and orbiting it. A radius of 0 (or less) never
/// brakes, like seek.
pub fn arrive(body: &Body, target: Vec2, slowing_radius: f32) -> Vec2 {
    let offset = target - body.pos;
    let d = offset.length();
    let speed = if d < slowing_radius {
        // d / radius first: it is below 1, so the product cannot overflow.
        body.max_speed * (d / slowing_radius)
    } else {
        body.max_speed
    };
    steer_towards(body, offset.normalized() * speed)
}

/// Seek where a moving target will be: its position extrapolated by the
/// time we would need to cover the distance to it at full speed.
pub fn pursue(body: &Body, target_pos: Vec2, target_vel: Vec2) -> Vec2 {
    seek(body, predict(body, target_pos, target_vel))
}

/// Flee from where a moving threat will be (pursue's prediction).
pub fn evade(body: &Body, threat_pos: Vec2, threat_vel: Vec2) -> Vec2 {
    flee(body, predict(body, threat_pos, threat_vel))
}

/// `desired − vel`, capped: the core of seek, flee and arrive.
fn steer_towards(body: &Body, desired: Vec2) -> Vec2 {
    (desired - body.vel).clamp_length(body.max_force)
}

/// Where a target moving at `vel` will be after the look-ahead time
/// `|pos − body.pos| / max_speed`. A body that cannot move (max_speed 0)
/// looks no time ahead, and the time is capped at `f32::MAX` so a tiny
/// max_speed never turns `0 × ∞` into NaN.
fn predict(body: &Body, pos: Vec2, vel: Vec2) -> Vec2 {
    let look_ahead = if body.max_speed > 0.0 { (body.pos.distance(pos) / body.max_speed).min(f32::MAX) } else { 0.0 };
    pos + vel * look_ahead
}

/// Wandering as Reynolds drew it: a target slides randomly around a circle
/// held in front of the body, so the heading drifts smoothly instead of
/// twitching every tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wander {
    /// Where the target sits on the circle, in radians.
    pub angle: f32,
    /// Radius of the circle: how hard the body can turn.
    pub radius: f32,
    /// How far ahead of the body the circle's centre is.
    pub distance: f32,
    /// Largest change of `angle` per call: how restless the wandering is.
    pub jitter: f32,
}

impl StateHash for Wander {
    fn hash_into(&self, h: &mut StateHasher) {
        let Wander { angle, radius, distance, jitter } = self;
        h.add(angle);
        h.add(radius);
        h.add(distance);
        h.add(jitter);
    }
}

impl Wander {
    /// The wander force for this tick, with `r` uniform in [−1, 1] drawn by
    /// the caller from its seeded stream (so this stays deterministic and
    /// free of any RNG type). A body at rest (|vel|² ≤ 1e-4) wanders as if
    /// heading along +x. The force is not capped here; integration caps it.
    ///
    /// The angle is kept in [−π, π] (trigonometry through `libm`, identical
    /// on every platform) so that it never grows until `f32` loses its
    /// fraction.
    pub fn force(&mut self, body: &Body, r: f32) -> Vec2 {
        self.angle = wrap_angle(self.angle + r * self.jitter);
        let forward = if body.vel.length_squared() <= 1e-4 { Vec2::new(1.0, 0.0) } else { body.vel.normalized() };
        forward * self.distance + Vec2::new(libm::cosf(self.angle), libm::sinf(self.angle)) * self.radius
    }
}

/// `angle` brought into [−π, π]: `remainderf(angle, 2π)`, 0 when not
/// finite. Below 9 in size (every wander step from a wrapped angle with a
/// jitter under 5.8) one subtraction of 2π gives the same bits as the
/// remainder, which is exact (the difference of two floats within a factor
/// of two of each other is exact; a zero keeps the angle's sign), without
/// its cost.
fn wrap_angle(angle: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if !angle.is_finite() {
        0.0
    } else if angle.abs() <= PI {
        angle
    } else if angle.abs() < 9.0 {
        let r = angle - TAU.copysign(angle);
        if r == 0.0 { 0.0f32.copysign(angle) } else { r }
    } else {
        libm::remainderf(angle, TAU)
    }
}

/// A round obstacle (a pillar, a boulder, another creature's body).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    /// Centre in world units.
    pub center: Vec2,
    /// Radius in world units; 0 is a point obstacle.
    pub radius: f32,
}

/// Steer around `obstacle` before touching it: a feeler of `feeler_length`
/// points along the velocity (along +x for a body at rest); when its tip is
/// inside the obstacle grown by `agent_radius`, push the tip straight out
/// at full force. Zero otherwise, so it combines cleanly by priority.
pub fn avoid_obstacle(body: &Body, obstacle: Circle, agent_radius: f32, feeler_length: f32) -> Vec2 {
    let direction = match body.vel.normalized() {
        Vec2::ZERO => Vec2::new(1.0, 0.0),
        d => d,
    };
    let tip = body.pos + direction * feeler_length;
    let away = tip - obstacle.center;
    if away.length() >= obstacle.radius + agent_radius { Vec2::ZERO } else { away.normalized() * body.max_force }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_the_wander_angle_is_the_remainder() {
        use std::f32::consts::{PI, TAU};
        let mut samples: Vec<f32> = (-400_000..=400_000).map(|i| i as f32 * (4.0 * PI / 400_000.0)).collect();
        for edge in [PI, 3.0 * PI, TAU, 1.5 * TAU] {
            for x in [edge, edge.next_up(), edge.next_down()] {
                samples.extend([x, -x]);
            }
        }
        samples.extend([0.0, -0.0, 1e-30, 100.0, -1e7, f32::MAX, f32::NAN, f32::INFINITY]);
        for x in samples {
            let want = if x.is_finite() { libm::remainderf(x, TAU) } else { 0.0 };
            assert_eq!(wrap_angle(x).to_bits(), want.to_bits(), "{x}");
        }
    }

    /// Runs `steps` of "compute force, integrate" and returns pos.x and
    /// vel.x at each step (step 0 the initial state), to three decimals.
    fn trace(mut body: Body, steps: usize, dt: f32, force: impl Fn(&Body) -> Vec2) -> (Vec<String>, Vec<String>) {
        let (mut xs, mut vs) = (Vec::new(), Vec::new());
        for step in 0..=steps {
            if step > 0 {
                let f = force(&body);
                body.integrate(f, dt);
            }
            xs.push(format!("{:.3}", body.pos.x));
            vs.push(format!("{:.3}", body.vel.x));
        }
        (xs, vs)
    }

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|s| s.to_string()).collect()
    }

    const SEEK_X: [&str; 9] = ["0.000", "0.200", "0.560", "1.048", "1.638", "2.311", "3.049", "3.839", "4.671"];
    const SEEK_V: [&str; 9] = ["0.000", "1.000", "1.800", "2.440", "2.952", "3.362", "3.689", "3.951", "4.161"];

    #[test]
    fn seek_trace() {
        let body = Body::new(Vec2::ZERO, 5.0, 10.0);
        let (xs, vs) = trace(body, 8, 0.2, |b| seek(b, Vec2::new(10.0, 0.0)));
        assert_eq!(xs, strings(&SEEK_X));
        assert_eq!(vs, strings(&SEEK_V));
    }

    #[test]
    fn flee_trace() {
        let body = Body::new(Vec2::new(2.0, 0.0), 4.0, 8.0);
        let (xs, vs) = trace(body, 5, 0.2, |b| flee(b, Vec2::ZERO));
        assert_eq!(xs, strings(&["2.000", "2.160", "2.448", "2.838", "3.311", "3.849"]));
        assert_eq!(vs, strings(&["0.000", "0.800", "1.440", "1.952", "2.362", "2.689"]));
    }

    #[test]
    fn arrive_trace() {
        let body = Body::new(Vec2::ZERO, 5.0, 10.0);
        let (xs, vs) = trace(body, 15, 0.2, |b| arrive(b, Vec2::new(10.0, 0.0), 5.0));
        assert_eq!(xs[..9], strings(&SEEK_X)[..]);
        assert_eq!(vs[..9], strings(&SEEK_V)[..]);
        assert_eq!(xs[9..], strings(&["5.537", "6.408", "7.249", "8.031", "8.736", "9.350", "9.868"])[..]);
        assert_eq!(vs[9..], strings(&["4.329", "4.356", "4.203", "3.913", "3.524", "3.072", "2.587"])[..]);
    }

    #[test]
    fn arrive_comes_to_rest_on_target() {
        let mut body = Body::new(Vec2::ZERO, 5.0, 10.0);
        let target = Vec2::new(10.0, 0.0);
        for _ in 0..400 {
            let f = arrive(&body, target, 5.0);
            body.integrate(f, 0.05);
        }
        assert!(body.pos.distance(target) < 0.01, "{body:?}");
        assert!(body.vel.length() < 0.01, "{body:?}");
    }

    #[test]
    fn pursue_leads_and_evade_mirrors() {
        let body = Body::new(Vec2::ZERO, 2.0, 100.0);
        // Target 4 away, moving up at 1: look-ahead 2, predicted (4, 2).
        let (pos, vel) = (Vec2::new(4.0, 0.0), Vec2::new(0.0, 1.0));
        let predicted = Vec2::new(4.0, 2.0);
        assert_eq!(pursue(&body, pos, vel), seek(&body, predicted));
        assert_eq!(evade(&body, pos, vel), flee(&body, predicted));
        assert_eq!(evade(&body, pos, vel), -pursue(&body, pos, vel));
    }

    #[test]
    fn pursue_with_no_speed_is_finite() {
        let mut body = Body::new(Vec2::ZERO, 0.0, 1.0);
        body.vel = Vec2::new(0.5, 0.0);
        // Cannot move: the only force left is braking to a stop.
        let f = pursue(&body, Vec2::new(3.0, 0.0), Vec2::new(0.0, 1.0));
        assert_eq!(f, Vec2::new(-0.5, 0.0));
        let tiny = Body::new(Vec2::ZERO, 1e-30, 1.0);
        let f = evade(&tiny, Vec2::new(3.0, 0.0), Vec2::new(0.0, 5.0));
        assert!(f.x.is_finite() && f.y.is_finite());
    }

    #[test]
    fn wander_moves_target_around_circle_ahead() {
        let mut w = Wander { angle: 0.0, radius: 1.0, distance: 2.0, jitter: 0.5 };
        let mut body = Body::new(Vec2::ZERO, 1.0, 1.0);
        // At rest: forward is +x; angle 0 + 1 × 0.5.
        let f = w.force(&body, 1.0);
        assert_eq!(w.angle, 0.5);
        assert_eq!(f, Vec2::new(2.0 + libm::cosf(0.5), libm::sinf(0.5)));
        // Heading down: the circle sits below the body.
        body.vel = Vec2::new(0.0, 3.0);
        let f = w.force(&body, -1.0);
        assert_eq!(w.angle, 0.0);
        assert_eq!(f, Vec2::new(1.0, 2.0));
    }

    #[test]
    fn wander_angle_stays_wrapped() {
        let mut w = Wander { angle: 3.0, radius: 1.0, distance: 1.0, jitter: 1.0 };
        let body = Body::new(Vec2::ZERO, 1.0, 1.0);
        for _ in 0..1000 {
            w.force(&body, 1.0);
            assert!(w.angle.abs() <= std::f32::consts::PI);
        }
    }

    #[test]
    fn avoid_obstacle_pushes_the_feeler_tip_out() {
        let mut body = Body::new(Vec2::ZERO, 1.0, 3.0);
        body.vel = Vec2::new(1.0, 0.0);
        // Tip at (4, 0); obstacle centre (4, 1), grown radius 1.5: inside.
        let rock = Circle { center: Vec2::new(4.0, 1.0), radius: 1.0 };
        assert_eq!(avoid_obstacle(&body, rock, 0.5, 4.0), Vec2::new(0.0, -3.0));
        // Grown radius 1.0 exactly reaches the tip: not a hit.
        assert_eq!(avoid_obstacle(&body, rock, 0.0, 4.0), Vec2::ZERO);
        // A body at rest feels along +x.
        body.vel = Vec2::ZERO;
        assert_eq!(avoid_obstacle(&body, rock, 0.5, 4.0), Vec2::new(0.0, -3.0));
        // Heading away: the feeler misses.
        body.vel = Vec2::new(-1.0, 0.0);
        assert_eq!(avoid_obstacle(&body, rock, 0.5, 4.0), Vec2::ZERO);
    }
}
