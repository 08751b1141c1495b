//! Reynolds flocking: separation, alignment and cohesion over a body's
//! neighbours, and [`Flocker`], which runs them for a whole flock through
//! the spatial hash without allocating per boid.
//!
//! All three urges are formed from one running sum per body
//! ([`FlockSums`]), fed one neighbour at a time over a slice of bodies
//! ([`flock`]), or eight at a time straight from the spatial hash's blocks
//! ([`FlockLanes`], which [`Flocker`] and the game use): one sum per lane
//! of a block, kept in vector registers with no branch per neighbour, and
//! the lanes added up at the end. The arithmetic is the same, so the two
//! agree to the bit when [`FlockSums`] sees each lane's neighbours in slot
//! order and the lanes are merged in lane order.

use super::spatial::{Block, LANES, SpatialHash, keep, lane_mask};
use super::wide::{self, Build, Pass};
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

/// What the three urges need to know of a body's neighbours, summed one
/// neighbour at a time: the separation pushes, and the neighbours' offsets
/// and velocities.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockSums {
    /// Sum over the neighbours closer than the separation radius (and not
    /// coincident) of their direction away from the body divided by their
    /// distance: `-offset / d²`.
    pub push: Vec2,
    /// How many pushes `push` sums.
    pub pushes: u32,
    /// Sum of the neighbours' offsets from the body (their position minus
    /// its own): their centre relative to it, times `count`.
    pub offset: Vec2,
    /// Sum of the neighbours' velocities.
    pub velocity: Vec2,
    /// How many neighbours were added.
    pub count: u32,
}

impl FlockSums {
    /// Adds one neighbour at `offset` (its position minus the body's, of
    /// squared length `d2`) moving at `velocity`; it pushes when nearer
    /// than `separation_radius`.
    #[inline]
    pub fn add(&mut self, offset: Vec2, d2: f32, velocity: Vec2, separation_radius: f32) {
        self.add_push(offset, d2, separation_radius);
        self.offset += offset;
        self.velocity += velocity;
        self.count += 1;
    }

    /// Adds only the separation push of a neighbour at `offset` (squared
    /// length `d2`), for bodies that keep apart but do not flock.
    #[inline]
    pub fn add_push(&mut self, offset: Vec2, d2: f32, separation_radius: f32) {
        if d2 > COINCIDENT * COINCIDENT && d2 < separation_radius * separation_radius {
            self.push -= offset * (1.0 / d2);
            self.pushes += 1;
        }
    }

    /// The sums [`FlockLanes`] forms for `body` from `neighbors`, each
    /// given with the lane the query tested it in
    /// ([`SpatialHash::lane_in`]) and in slot order: one sum per lane
    /// over the lane's neighbours, merged in lane order. The plain
    /// reference for what the hash's blocks sum.
    pub fn by_lanes(body: &Body, neighbors: &[(usize, Body)], separation_radius: f32) -> FlockSums {
        let mut sums = FlockSums::default();
        for lane in 0..LANES {
            let mine: Vec<Body> = neighbors.iter().filter(|(l, _)| *l == lane).map(|&(_, b)| b).collect();
            sums.merge(&FlockSums::of(body, &mine, separation_radius));
        }
        sums
    }

    /// Adds another body's sums (of other neighbours) to these.
    pub fn merge(&mut self, o: &FlockSums) {
        self.push += o.push;
        self.pushes += o.pushes;
        self.offset += o.offset;
        self.velocity += o.velocity;
        self.count += o.count;
    }

    /// The sums of the `neighbors` of `body`.
    pub fn of(body: &Body, neighbors: &[Body], separation_radius: f32) -> FlockSums {
        let mut sums = FlockSums::default();
        for other in neighbors {
            let offset = other.pos - body.pos;
            sums.add(offset, offset.length_squared(), other.vel, separation_radius);
        }
        sums
    }

    /// The mean push: zero when none.
    pub fn separation(&self) -> Vec2 {
        if self.pushes == 0 { Vec2::ZERO } else { self.push / self.pushes as f32 }
    }

    /// The neighbours' mean velocity minus the body's: zero without
    /// neighbours.
    pub fn alignment(&self, body: &Body) -> Vec2 {
        if self.count == 0 { Vec2::ZERO } else { self.velocity / self.count as f32 - body.vel }
    }

    /// Seek the neighbours' centre at full speed: zero without neighbours.
    pub fn cohesion(&self, body: &Body) -> Vec2 {
        if self.count == 0 {
            Vec2::ZERO
        } else {
            (self.offset / self.count as f32).normalized() * body.max_speed - body.vel
        }
    }

    /// The three urges weighted and capped at the body's `max_force`.
    // An inline hint, which the AVX2 pass (`steer::wide`) does not take: it
    // calls it, built for the baseline, but directly, not through the
    // GOT. Forced in (`#[inline(always)]`) it left `cohesion` and
    // `clamp_length` out of line instead and the flock bench's step ran
    // more instructions (715.7 M against 707.0 M by callgrind).
    #[inline]
    pub fn force(&self, body: &Body, weights: FlockWeights) -> Vec2 {
        (self.separation() * weights.separation
            + self.alignment(body) * weights.alignment
            + self.cohesion(body) * weights.cohesion)
            .clamp_length(body.max_force)
    }
}

/// [`FlockSums`] per lane of the spatial hash's blocks
/// ([`SpatialHash::visit_blocks`]), fed a whole block at a time: every lane
/// computes every term and keeps those of the neighbours it takes, so the
/// loop has no branch and stays in vector registers.
#[derive(Clone, Copy, Debug, Default)]
pub struct FlockLanes {
    push_x: [f32; LANES],
    push_y: [f32; LANES],
    pushes: [u32; LANES],
    offset_x: [f32; LANES],
    offset_y: [f32; LANES],
    vel_x: [f32; LANES],
    vel_y: [f32; LANES],
    count: [u32; LANES],
}

impl FlockLanes {
    /// Adds the lanes of `block` that the mask `take` (of
    /// [`Block::hit`]'s kind) says are neighbours, moving at `vx`, `vy`
    /// (the block's lanes of the velocities by slot, see [`Block::of`]),
    /// as [`FlockSums::add`] would one by one.
    #[inline(always)]
    pub fn add(
        &mut self,
        block: &Block,
        take: &[u32; LANES],
        vx: &[f32; LANES],
        vy: &[f32; LANES],
        separation_radius: f32,
    ) {
        let sep2 = separation_radius * separation_radius;
        for lane in 0..LANES {
            let (dx, dy, d2, t) = (block.dx[lane], block.dy[lane], block.d2[lane], take[lane]);
            let push = t & lane_mask(d2 > COINCIDENT * COINCIDENT) & lane_mask(d2 < sep2);
            // Computed in every lane; kept only where it pushes.
            let inv = 1.0 / d2;
            self.push_x[lane] -= keep(dx * inv, push);
            self.push_y[lane] -= keep(dy * inv, push);
            // A mask is all ones, -1: taking it away counts one.
            self.pushes[lane] = self.pushes[lane].wrapping_sub(push);
            self.offset_x[lane] += keep(dx, t);
            self.offset_y[lane] += keep(dy, t);
            self.vel_x[lane] += keep(vx[lane], t);
            self.vel_y[lane] += keep(vy[lane], t);
            self.count[lane] = self.count[lane].wrapping_sub(t);
        }
    }

    /// The sums of every lane, merged in lane order.
    #[inline]
    pub fn sums(self) -> FlockSums {
        let mut sums = FlockSums::default();
        for lane in 0..LANES {
            sums.merge(&FlockSums {
                push: Vec2::new(self.push_x[lane], self.push_y[lane]),
                pushes: self.pushes[lane],
                offset: Vec2::new(self.offset_x[lane], self.offset_y[lane]),
                velocity: Vec2::new(self.vel_x[lane], self.vel_y[lane]),
                count: self.count[lane],
            });
        }
        sums
    }
}

/// Push away from neighbours closer than `separation_radius`, each
/// contributing its unit direction divided by the distance (close ones push
/// hardest), averaged over those counted. Zero when none is close.
pub fn separation(body: &Body, neighbors: &[Body], separation_radius: f32) -> Vec2 {
    FlockSums::of(body, neighbors, separation_radius).separation()
}

/// Match the neighbours' heading: their mean velocity minus ours. Zero
/// without neighbours.
pub fn alignment(body: &Body, neighbors: &[Body]) -> Vec2 {
    FlockSums::of(body, neighbors, 0.0).alignment(body)
}

/// Head for the neighbours' centre at full speed (seek their mean
/// position). Zero without neighbours.
pub fn cohesion(body: &Body, neighbors: &[Body]) -> Vec2 {
    FlockSums::of(body, neighbors, 0.0).cohesion(body)
}

/// The three urges weighted and capped at `max_force`. `neighbors` are the
/// bodies within the caller's neighbour radius, the body itself excluded.
pub fn flock(body: &Body, neighbors: &[Body], separation_radius: f32, weights: FlockWeights) -> Vec2 {
    FlockSums::of(body, neighbors, separation_radius).force(body, weights)
}

/// Flock forces for a whole flock per tick: rebuilds the spatial hash from
/// the bodies, lays their velocities out in the hash's slot order, and
/// sums each body's neighbours within `neighbor_radius` straight from those
/// arrays, a block of slots at a time ([`FlockLanes`]), bodies taken in
/// slot order too (neighbouring bodies read neighbouring memory). All buffers are kept between ticks,
/// so a tick allocates nothing once they have grown.
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
    /// The bodies in slot order, and their velocities as two arrays
    /// (padded with a block of zeros, see [`Block::of`]).
    sorted: Vec<Body>,
    vx: Vec<f32>,
    vy: Vec<f32>,
    /// Forces by slot, then by body.
    by_slot: Vec<Vec2>,
    forces: Vec<Vec2>,
}

impl Flocker {
    /// The hash's cells are half of `neighbor_radius` wide, so a query
    /// scans at most 5×5 bins, about 1.8 times the disc's area (3×3 bins a
    /// radius wide scan 2.9 times it).
    ///
    /// # Panics
    /// When `neighbor_radius` is not positive and finite.
    pub fn new(neighbor_radius: f32, separation_radius: f32, weights: FlockWeights) -> Flocker {
        assert!(
            neighbor_radius > 0.0 && neighbor_radius.is_finite(),
            "neighbour radius must be positive and finite, got {neighbor_radius}"
        );
        Flocker {
            neighbor_radius,
            separation_radius,
            weights,
            hash: SpatialHash::new(neighbor_radius * 0.5),
            sorted: Vec::new(),
            vx: Vec::new(),
            vy: Vec::new(),
            by_slot: Vec::new(),
            forces: Vec::new(),
        }
    }

    /// The flock force of every body, in the bodies' order. Neighbours are
    /// the other bodies within `neighbor_radius`, summed per lane in the
    /// hash's slot order and the lanes in lane order ([`FlockLanes`]): a
    /// function of the positions, so the result is deterministic.
    pub fn forces(&mut self, bodies: &[Body]) -> &[Vec2] {
        let hash = &mut self.hash;
        hash.rebuild(bodies.iter().map(|b| b.pos));
        hash.gather(bodies, &mut self.sorted);
        self.vx.clear();
        self.vx.extend(self.sorted.iter().map(|b| b.vel.x).chain([0.0; LANES]));
        self.vy.clear();
        self.vy.extend(self.sorted.iter().map(|b| b.vel.y).chain([0.0; LANES]));
        self.by_slot.clear();
        wide::run(FlockPass {
            hash,
            sorted: &self.sorted,
            vx: &self.vx,
            vy: &self.vy,
            radius: self.neighbor_radius,
            separation_radius: self.separation_radius,
            weights: self.weights,
            out: &mut self.by_slot,
        });
        self.forces.clear();
        self.forces.extend(hash.slots().iter().map(|&k| self.by_slot[k as usize]));
        &self.forces
    }
}

/// [`Flocker::forces`]' neighbour loop: each body's flock force, in slot
/// order, into `out`.
struct FlockPass<'a> {
    hash: &'a SpatialHash,
    sorted: &'a [Body],
    vx: &'a [f32],
    vy: &'a [f32],
    radius: f32,
    separation_radius: f32,
    weights: FlockWeights,
    out: &'a mut Vec<Vec2>,
}

impl Pass for FlockPass<'_> {
    type Output = ();

    #[inline(always)]
    fn run<B: Build>(self) {
        let FlockPass { hash, sorted, vx, vy, radius, separation_radius, weights, out } = self;
        for (k, body) in sorted.iter().enumerate() {
            let mut lanes = FlockLanes::default();
            hash.visit_blocks(body.pos, radius, |b| {
                lanes.add(b, &b.hit_except(k), b.of(vx), b.of(vy), separation_radius);
            });
            out.push(lanes.sums().force(body, weights));
        }
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

    /// The pass's AVX2 build (where the processor has it) and its baseline
    /// build give the same forces to the bit.
    #[test]
    fn both_builds_of_the_pass_agree() {
        let bodies: Vec<Body> = (0..3000)
            .map(|i| {
                let t = i as f32;
                moving((t * 7.31) % 60.0, (t * 3.17) % 40.0, (t * 1.3) % 3.0 - 1.5, (t * 0.7) % 3.0 - 1.5)
            })
            .chain([at(5.0, 5.0), at(5.0, 5.0)])
            .collect();
        let w = FlockWeights { separation: 1.5, alignment: 1.0, cohesion: 0.5 };
        let mut flocker = Flocker::new(3.0, 1.0, w);
        flocker.forces(&bodies);
        let chosen = flocker.by_slot.clone();
        let mut baseline = Vec::new();
        FlockPass {
            hash: &flocker.hash,
            sorted: &flocker.sorted,
            vx: &flocker.vx,
            vy: &flocker.vy,
            radius: 3.0,
            separation_radius: 1.0,
            weights: w,
            out: &mut baseline,
        }
        .run::<wide::Baseline>();
        assert!(chosen.iter().filter(|f| **f != Vec2::ZERO).count() > 2000);
        let bits = |v: &[Vec2]| v.iter().map(|f| (f.x.to_bits(), f.y.to_bits())).collect::<Vec<_>>();
        assert_eq!(bits(&chosen), bits(&baseline));
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
