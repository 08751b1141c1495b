//! Following a path of waypoints, as monsters follow their string-pulled
//! paths.

use super::{Body, Vec2, arrive, seek};
use crate::hash::{StateHash, StateHasher};

/// Walks a body along `waypoints`: seek each in turn, switching to the next
/// once within `arrival_radius`, and arrive (brake to a stop) on the last.
#[derive(Clone, Debug, PartialEq)]
pub struct PathFollower {
    /// The path in world units, typically cell centres of a smoothed path.
    pub waypoints: Vec<Vec2>,
    /// The waypoint being steered for.
    pub index: usize,
    /// How close counts as reaching an intermediate waypoint: larger values
    /// cut corners more smoothly.
    pub arrival_radius: f32,
    /// Braking distance before the final waypoint (see [`arrive`]).
    pub slowing_radius: f32,
}

impl StateHash for PathFollower {
    fn hash_into(&self, h: &mut StateHasher) {
        let PathFollower { waypoints, index, arrival_radius, slowing_radius } = self;
        h.add(waypoints);
        h.add(index);
        h.add(arrival_radius);
        h.add(slowing_radius);
    }
}

impl PathFollower {
    /// A follower at the start of `waypoints`.
    pub fn new(waypoints: Vec<Vec2>, arrival_radius: f32, slowing_radius: f32) -> PathFollower {
        PathFollower { waypoints, index: 0, arrival_radius, slowing_radius }
    }

    /// Forgets the path (keeping its storage), ready for a new one.
    pub fn clear(&mut self) {
        self.waypoints.clear();
        self.index = 0;
    }

    /// This tick's force. Advances at most one waypoint per call, so a
    /// path whose waypoints crowd together still takes one tick each. An
    /// empty path asks for nothing; an index past the end (the caller
    /// shortened the path) is treated as the last waypoint.
    pub fn steer(&mut self, body: &Body) -> Vec2 {
        let Some(last) = self.waypoints.len().checked_sub(1) else {
            return Vec2::ZERO;
        };
        self.index = self.index.min(last);
        if self.index < last && body.pos.distance(self.waypoints[self.index]) < self.arrival_radius {
            self.index += 1;
        }
        let target = self.waypoints[self.index];
        if self.index == last { arrive(body, target, self.slowing_radius) } else { seek(body, target) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path() -> PathFollower {
        PathFollower::new(vec![Vec2::new(1.0, 0.0), Vec2::new(1.0, 4.0), Vec2::new(5.0, 4.0)], 0.5, 2.0)
    }

    #[test]
    fn seeks_then_advances_then_arrives() {
        let mut f = path();
        let mut body = Body::new(Vec2::ZERO, 1.0, 2.0);
        assert_eq!(f.steer(&body), seek(&body, Vec2::new(1.0, 0.0)));
        assert_eq!(f.index, 0);
        body.pos = Vec2::new(0.8, 0.1);
        assert_eq!(f.steer(&body), seek(&body, Vec2::new(1.0, 4.0)));
        assert_eq!(f.index, 1);
        body.pos = Vec2::new(1.0, 3.7);
        assert_eq!(f.steer(&body), arrive(&body, Vec2::new(5.0, 4.0), 2.0));
        assert_eq!(f.index, 2);
        // On the last waypoint it stays there, arriving.
        body.pos = Vec2::new(5.0, 4.0);
        assert_eq!(f.steer(&body), Vec2::ZERO);
        assert_eq!(f.index, 2);
    }

    #[test]
    fn walks_a_body_to_the_end() {
        let mut f = path();
        let mut body = Body::new(Vec2::ZERO, 2.0, 4.0);
        for _ in 0..600 {
            let force = f.steer(&body);
            body.integrate(force, 0.05);
        }
        assert_eq!(f.index, 2);
        assert!(body.pos.distance(Vec2::new(5.0, 4.0)) < 0.01, "{body:?}");
    }

    #[test]
    fn empty_and_overrun_paths() {
        let body = Body::new(Vec2::ZERO, 1.0, 1.0);
        let mut empty = PathFollower::new(Vec::new(), 1.0, 1.0);
        assert_eq!(empty.steer(&body), Vec2::ZERO);
        let mut f = path();
        f.index = 7;
        assert_eq!(f.steer(&body), arrive(&body, Vec2::new(5.0, 4.0), 2.0));
        assert_eq!(f.index, 2);
    }
}
