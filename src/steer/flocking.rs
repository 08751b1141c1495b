//! Reynolds flocking: separation, alignment and cohesion over a body's
//! neighbours, and [`Flocker`], which runs them for a whole flock through
//! the spatial hash without allocating per boid.

use super::spatial::SpatialHash;
use super::{Body, Vec2};

/// How much each of the three urges counts in [`flock`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlockWeights {
    /// Keep personal space: raise it for loose, spread-out flocks.
    pub separation: f32,
    /// Move together: raise it for schools that turn as one.
    pub alignment: f32,
    /// Stay together: raise it for tight clumps.
    pub cohesion: f32,
}

/// Neighbours closer than this are treated as coincident and ignored by
/// [`separation`]: there is no direction to push them apart along.
const COINCIDENT: f32 = 1e-5;

/// Push away from neighbours closer than `separation_radius`, each
/// contributing its unit direction divided by the distance (close ones push
/// hardest), averaged over those counted. Zero when none is close.
pub fn separation(body: &Body, neighbors: &[Body], separation_radius: f32) -> Vec2 {
    let mut sum = Vec2::ZERO;
    let mut count = 0u32;
    for other in neighbors {
        let away = body.pos - other.pos;
        let d = away.length();
        if d > COINCIDENT && d < separation_radius {
            sum += away.normalized() / d;
            count += 1;
        }
    }
    if count == 0 { Vec2::ZERO } else { sum / count as f32 }
}

/// Match the neighbours' heading: their mean velocity minus ours. Zero
/// without neighbours.
pub fn alignment(body: &Body, neighbors: &[Body]) -> Vec2 {
    mean(neighbors, |b| b.vel).map_or(Vec2::ZERO, |v| v - body.vel)
}

/// Head for the neighbours' centre at full speed (seek their mean
/// position). Zero without neighbours.
pub fn cohesion(body: &Body, neighbors: &[Body]) -> Vec2 {
    mean(neighbors, |b| b.pos).map_or(Vec2::ZERO, |centre| (centre - body.pos).normalized() * body.max_speed - body.vel)
}

/// The three urges weighted and capped at `max_force`. `neighbors` are the
/// bodies within the caller's neighbour radius, the body itself excluded.
pub fn flock(body: &Body, neighbors: &[Body], separation_radius: f32, weights: FlockWeights) -> Vec2 {
    (separation(body, neighbors, separation_radius) * weights.separation
        + alignment(body, neighbors) * weights.alignment
        + cohesion(body, neighbors) * weights.cohesion)
        .clamp_length(body.max_force)
}

/// Mean of `field` over the neighbours, `None` when there are none.
fn mean(neighbors: &[Body], field: impl Fn(&Body) -> Vec2) -> Option<Vec2> {
    if neighbors.is_empty() {
        return None;
    }
    let sum = neighbors.iter().fold(Vec2::ZERO, |s, b| s + field(b));
    Some(sum / neighbors.len() as f32)
}

/// Flock forces for a whole flock per tick: rebuilds the spatial hash from
/// the bodies, finds each body's neighbours within `neighbor_radius` and
/// applies [`flock`]. All buffers are kept between ticks, so a tick
/// allocates nothing once they have grown.
#[derive(Clone, Debug)]
pub struct Flocker {
    /// How far a boid sees its flockmates. May be changed between ticks;
    /// the hash keeps the cell size chosen in [`Flocker::new`], which stays
    /// correct, only slower or faster.
    pub neighbor_radius: f32,
    /// Passed to [`separation`]: how close is too close.
    pub separation_radius: f32,
    /// Passed to [`flock`].
    pub weights: FlockWeights,
    hash: SpatialHash,
    ids: Vec<u32>,
    neighbors: Vec<Body>,
    forces: Vec<Vec2>,
}

impl Flocker {
    /// The hash's cells are `neighbor_radius` wide, so a query scans at most
    /// 3×3 bins.
    ///
    /// # Panics
    /// When `neighbor_radius` is not positive and finite.
    pub fn new(neighbor_radius: f32, separation_radius: f32, weights: FlockWeights) -> Flocker {
        Flocker {
            neighbor_radius,
            separation_radius,
            weights,
            hash: SpatialHash::new(neighbor_radius),
            ids: Vec::new(),
            neighbors: Vec::new(),
            forces: Vec::new(),
        }
    }

    /// The flock force of every body, in the bodies' order. Neighbours are
    /// the other bodies within `neighbor_radius` (ascending index, so the
    /// sums are formed in a fixed order and the result is deterministic).
    pub fn forces(&mut self, bodies: &[Body]) -> &[Vec2] {
        self.hash.rebuild(bodies.iter().map(|b| b.pos));
        self.forces.clear();
        for (i, body) in bodies.iter().enumerate() {
            self.hash.query(body.pos, self.neighbor_radius, &mut self.ids);
            self.neighbors.clear();
            self.neighbors.extend(self.ids.iter().filter(|&&j| j as usize != i).map(|&j| bodies[j as usize]));
            self.forces.push(flock(body, &self.neighbors, self.separation_radius, self.weights));
        }
        &self.forces
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f32, y: f32) -> Body {
        Body::new(Vec2::new(x, y), 2.0, 1.0)
    }

    fn moving(x: f32, y: f32, vx: f32, vy: f32) -> Body {
        Body { vel: Vec2::new(vx, vy), ..at(x, y) }
    }

    #[test]
    fn separation_weights_by_inverse_distance() {
        let me = at(0.0, 0.0);
        let others = [at(1.0, 0.0), at(0.0, 2.0), at(5.0, 0.0), at(0.0, 0.0)];
        // (−1, 0)/1 and (0, −1)/2 counted; far and coincident ones not.
        assert_eq!(separation(&me, &others, 3.0), Vec2::new(-0.5, -0.25));
        assert_eq!(separation(&me, &others[2..], 3.0), Vec2::ZERO);
        assert_eq!(separation(&me, &others, 0.0), Vec2::ZERO);
    }

    #[test]
    fn alignment_matches_mean_velocity() {
        let me = moving(0.0, 0.0, 1.0, 0.0);
        let others = [moving(1.0, 0.0, 0.0, 2.0), moving(2.0, 0.0, 2.0, 0.0)];
        assert_eq!(alignment(&me, &others), Vec2::new(0.0, 1.0));
        assert_eq!(alignment(&me, &[]), Vec2::ZERO);
    }

    #[test]
    fn cohesion_seeks_the_centre() {
        let me = moving(0.0, 0.0, 0.0, 1.0);
        let others = [at(2.0, 1.0), at(2.0, -1.0)];
        // Centre (2, 0): desired (2, 0) at max speed 2, minus velocity.
        assert_eq!(cohesion(&me, &others), Vec2::new(2.0, -1.0));
        assert_eq!(cohesion(&me, &[]), Vec2::ZERO);
        // Centre on top of us: no direction, only braking.
        assert_eq!(cohesion(&me, &[at(0.0, 0.0)]), Vec2::new(0.0, -1.0));
    }

    #[test]
    fn flock_weights_and_caps() {
        let me = Body { max_force: 100.0, ..moving(0.0, 0.0, 1.0, 0.0) };
        let others = [moving(1.0, 0.0, 0.0, 2.0), moving(0.0, 1.0, 2.0, 0.0)];
        let w = FlockWeights { separation: 2.0, alignment: 0.5, cohesion: 3.0 };
        let expected =
            separation(&me, &others, 1.5) * 2.0 + alignment(&me, &others) * 0.5 + cohesion(&me, &others) * 3.0;
        assert_eq!(flock(&me, &others, 1.5, w), expected);
        let weak = Body { max_force: 0.5, ..me };
        let capped = flock(&weak, &others, 1.5, w);
        assert!((capped.length() - 0.5).abs() < 1e-6);
    }
}
