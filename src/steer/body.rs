//! A steered body and its integration step.

use super::Vec2;
use crate::hash::{StateHash, StateHasher};

/// A point mass (mass 1, so a force is an acceleration) with the two limits
/// that make Reynolds steering look alive: a top speed and a cap on how hard
/// it can turn or brake.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Position of the centre in world units (the cell is its floor).
    pub pos: Vec2,
    /// Velocity in world units per second.
    pub vel: Vec2,
    /// Top speed: what makes a rat quicker than a golem.
    pub max_speed: f32,
    /// Largest steering force (= acceleration): how sharply it can turn
    /// and brake, i.e. how heavy it feels.
    pub max_force: f32,
}

impl StateHash for Body {
    fn hash_into(&self, h: &mut StateHasher) {
        let Body { pos, vel, max_speed, max_force } = self;
        h.add(pos);
        h.add(vel);
        h.add(max_speed);
        h.add(max_force);
    }
}

impl Body {
    /// A body at rest at `pos`: how creatures are spawned.
    pub const fn new(pos: Vec2, max_speed: f32, max_force: f32) -> Body {
        Body { pos, vel: Vec2::ZERO, max_speed, max_force }
    }

    /// One semi-implicit Euler step: the force is capped at `max_force`, the
    /// new velocity at `max_speed`, and the position moves by the *new*
    /// velocity. Semi-implicit rather than explicit Euler because it stays
    /// stable for springy forces (arrive, cohesion) at game-sized steps.
    /// Inline: it runs once per body and tick, and is a few instructions
    /// beside its call.
    #[inline]
    pub fn integrate(&mut self, force: Vec2, dt: f32) {
        let force = force.clamp_length(self.max_force);
        self.vel = (self.vel + force * dt).clamp_length(self.max_speed);
        self.pos += self.vel * dt;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn force_and_speed_are_capped() {
        let mut b = Body::new(Vec2::ZERO, 2.0, 1.0);
        b.integrate(Vec2::new(100.0, 0.0), 1.0);
        assert_eq!(b.vel, Vec2::new(1.0, 0.0));
        assert_eq!(b.pos, Vec2::new(1.0, 0.0));
        b.integrate(Vec2::new(1.0, 0.0), 1.0);
        b.integrate(Vec2::new(1.0, 0.0), 1.0);
        assert_eq!(b.vel, Vec2::new(2.0, 0.0));
        assert_eq!(b.pos, Vec2::new(5.0, 0.0));
    }

    #[test]
    fn zero_dt_changes_nothing() {
        let mut b = Body::new(Vec2::new(1.0, 2.0), 2.0, 1.0);
        b.vel = Vec2::new(0.5, 0.0);
        let before = b;
        b.integrate(Vec2::new(1.0, 1.0), 0.0);
        assert_eq!(b, before);
    }
}
