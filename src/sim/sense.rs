//! What every creature senses as steering begins: its walls, its
//! neighbours, the nearest threat, and the crowd's figures, all from one
//! snapshot of the bodies.
//!
//! The steering pass's view of the creatures ([`View`]) is laid out in the
//! bin order of a spatial hash of their positions, one array per field, so
//! the one neighbour pass ([`View::sense`]) reads each creature's
//! neighbours as a few runs of consecutive memory instead of gathering
//! bodies from all over the creature list. Every creature's senses are a
//! function of the snapshot alone, so the pass runs over fixed chunks of
//! slots on as many threads as there are: the answers, summed in the
//! hash's slot order (a function of the positions), are the same for any
//! number of threads.
//!
//! Work the blend of behaviours would throw away is not done: where the
//! wall distance field says the feelers reach no wall they are not walked,
//! and a creature whose wall avoidance wins its priority blend outright
//! does not sum its neighbours. The crowd's figures (overlapping pairs and
//! the smallest time to collision among monsters and wanderers) come out
//! of the same pass, from the neighbours each crowd member visits anyway.

use super::Kind;
use super::creature::Creature;
use super::species::{BODY_RADIUS, FLOCK_RADIUS, ORCA, SEPARATION_RADIUS, Species, alarm};
use crate::grid::{Cell, Grid};
use crate::shares::{on_each_thread, split_mut};
use crate::steer::wide::{self, Build, Pass};
use crate::steer::{
    Body, FlockLanes, FlockSums, FlockWeights, LANES, SpatialHash, Vec2, WallDistance, avoid_walls_within, cell_at,
    cell_center, decides, lane_mask, time_to_collision,
};

/// The grain the parallel passes over creatures or slots are cut at into
/// one share per thread (`crate::shares`); the answers never depend on the
/// cut: each creature's is its own.
pub const CHUNK: usize = 512;

/// How far a monster or wanderer looks at its neighbours: the crowd's
/// figures look as far as ORCA does, and separation is within it.
const CROWD_REACH: f32 = ORCA.neighbour_dist;
const _: () = assert!(SEPARATION_RADIUS <= CROWD_REACH);

/// How far a monster or wanderer looks once two crowd members of its
/// share of the pass have touched ([`CrowdFigures::touched`]): what is
/// left to find then, its separation and the overlapping pairs, lies
/// within it. In a jam, where bodies touch every tick, that is a ninth
/// of [`CROWD_REACH`]'s disc.
const TOUCH_REACH: f32 = SEPARATION_RADIUS;
const _: () = assert!(2.0 * BODY_RADIUS <= TOUCH_REACH);

/// The kinds that avoid each other with ORCA when it is on, and whose
/// overlaps are counted.
pub fn in_crowd(kind: Kind) -> bool {
    matches!(kind, Kind::Monster | Kind::Wanderer)
}

/// What a creature does with its neighbours this tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Flocks with the boids around it.
    Boid,
    /// Looks for the nearest threat.
    Fleeing,
    /// A wanderer, or a monster without a path: keeps apart from everyone
    /// unless the walls decide.
    Roaming,
    /// A monster on a path: keeps apart from monsters.
    Following,
}

/// One creature as the steering pass sees it.
#[derive(Clone, Copy, Debug)]
struct Member {
    body: Body,
    kind: Kind,
    role: Role,
}

impl Member {
    /// What a slot holds before the pass fills it.
    const NONE: Member = Member {
        body: Body { pos: Vec2::ZERO, vel: Vec2::ZERO, max_speed: 0.0, max_force: 0.0 },
        kind: Kind::Boid,
        role: Role::Boid,
    };

    fn of(c: &Creature) -> Member {
        let role = match c.kind {
            Kind::Boid => Role::Boid,
            Kind::Fleeing => Role::Fleeing,
            Kind::Monster if c.hunt.as_ref().is_some_and(|h| !h.follower.waypoints.is_empty()) => Role::Following,
            Kind::Monster | Kind::Wanderer => Role::Roaming,
        };
        Member { body: c.body, kind: c.kind, role }
    }
}

/// The nearest threat to a fleeing creature: the player or a monster.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Threat {
    pub pos: Vec2,
    pub vel: Vec2,
    pub dist: f32,
}

/// What one creature sensed this tick: 20 bytes, read once per creature
/// in creature order as it steers. A fleeing creature's nearest threat is
/// not in it: it is looked for only as that creature steers
/// ([`View::threat`]), so that the crowd of boids does not carry it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sensed {
    /// Its wall avoidance (zero in open floor).
    pub walls: Vec2,
    /// A boid's flocking force; a monster's or wanderer's separation
    /// (zero under ORCA, and where the walls decide).
    pub near: Vec2,
    /// How many cells away the nearest wall is from its cell
    /// ([`WallDistance::cells_to_wall`]): what lets its step skip the
    /// grid ([`crate::steer::move_body_within`]).
    pub clearance: u8,
}

/// The crowd as the tick begins: pairs of monsters and wanderers closer
/// than the sum of their bodies' radii, and the smallest time to
/// collision between one and a neighbour within ORCA's reach, looking
/// ORCA's horizon ahead ([`crate::steer::crowd_check`]'s figures).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CrowdFigures {
    pub overlaps: u64,
    pub min_time_to_collision: Option<f32>,
}

impl CrowdFigures {
    /// Whether two crowd members have touched: the smallest time to
    /// collision is 0, and no pair can lower it (a time is never negative).
    fn touched(&self) -> bool {
        self.min_time_to_collision == Some(0.0)
    }

    /// Counts the pair of crowd members `a` and `b`, `d2` apart squared.
    fn pair(&mut self, a: &Body, b_pos: Vec2, b_vel: Vec2, d2: f32) {
        let r = 2.0 * BODY_RADIUS;
        if d2 < r * r {
            self.overlaps += 1;
        }
        if self.touched() {
            return;
        }
        if let Some(t) = time_to_collision(a.pos, a.vel, b_pos, b_vel, r, ORCA.time_horizon) {
            self.min_time_to_collision = Some(self.min_time_to_collision.map_or(t, |m| m.min(t)));
        }
    }

    /// Both spans' figures: sums and the smaller time, the same in any
    /// order.
    fn merge(self, o: CrowdFigures) -> CrowdFigures {
        let min_time_to_collision = match (self.min_time_to_collision, o.min_time_to_collision) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        CrowdFigures { overlaps: self.overlaps + o.overlaps, min_time_to_collision }
    }
}

/// The world around the creatures this tick.
pub struct Surroundings<'a> {
    pub grid: &'a Grid,
    /// The grid's wall distance field.
    pub walls: &'a WallDistance,
    /// Monsters and wanderers avoid each other with ORCA after steering,
    /// so their steering leaves separation out.
    pub orca: bool,
    /// How boids weigh their three urges (the world's setting).
    pub flock: FlockWeights,
}

/// The steering pass's view of the creatures, in bin order, and what each
/// sensed. Buffers are kept between ticks.
#[derive(Debug)]
pub struct View {
    hash: SpatialHash,
    /// The creatures by slot (taken straight from the creature list in
    /// slot order: no copy by index first, 2.8 MB at 100,000 creatures).
    members: Vec<Member>,
    /// By slot: velocities and kinds, what neighbours are read for, padded
    /// with a block of slots that no query hits (see
    /// [`crate::steer::Block::of`]).
    vx: Vec<f32>,
    vy: Vec<f32>,
    kinds: Vec<Kind>,
    /// By slot: all ones for a boid, zero for the rest (a lane mask, see
    /// [`crate::steer::Block::hit`]): whom a boid flocks with.
    boids: Vec<u32>,
    /// By slot: what each sensed, as the parallel pass leaves it.
    sensed: Vec<Sensed>,
    /// The same by creature: gathered in one pass of its own, whose reads
    /// all overlap, so that the steps after it (in creature order) read
    /// it in order instead of waiting on one scattered read each.
    by_creature: Vec<Sensed>,
}

impl Default for View {
    fn default() -> View {
        View {
            // Half the flocking radius: a boid's query scans 5×5 bins,
            // 1.8 times its disc (3×3 bins a radius wide scan 2.9 times it).
            hash: SpatialHash::new(FLOCK_RADIUS * 0.5),
            members: Vec::new(),
            vx: Vec::new(),
            vy: Vec::new(),
            kinds: Vec::new(),
            boids: Vec::new(),
            sensed: Vec::new(),
            by_creature: Vec::new(),
        }
    }
}

impl View {
    /// Takes the snapshot of `creatures` as they stand on `grid` (whose
    /// extent the bins cover: bodies stay on the map).
    ///
    /// The counting sort (whose first pass reads the positions out of the
    /// creatures) and the copies into slots, one pass that fills every
    /// array, run in fixed shares, one per thread (`crate::shares`).
    pub fn update(&mut self, creatures: &[Creature], grid: &Grid) {
        let extent = Vec2::new(grid.width() as f32, grid.height() as f32);
        self.hash.rebuild_within(creatures, |c| c.body.pos, Vec2::ZERO, extent);
        let n = creatures.len();
        // Sized once (grown as creatures are added) and every slot written
        // below, so that no serial fill runs each tick; only the padding is.
        self.members.resize(n, Member::NONE);
        for padded in [&mut self.vx, &mut self.vy] {
            padded.resize(n + LANES, 0.0);
            padded[n..].fill(0.0);
        }
        self.kinds.resize(n + LANES, Kind::Monster);
        self.kinds[n..].fill(Kind::Monster);
        self.boids.resize(n + LANES, 0);
        self.boids[n..].fill(0);
        let ids = self.hash.ids();
        let shares = (split_mut(&mut self.members, CHUNK).into_iter())
            .zip(split_mut(&mut self.vx[..n], CHUNK))
            .zip(split_mut(&mut self.vy[..n], CHUNK))
            .zip(split_mut(&mut self.kinds[..n], CHUNK))
            .zip(split_mut(&mut self.boids[..n], CHUNK))
            .map(|(((((first, m), (_, vx)), (_, vy)), (_, kinds)), (_, boids))| (first, m, vx, vy, kinds, boids))
            .collect();
        on_each_thread(shares, |(first, members, vx, vy, kinds, boids)| {
            for (j, &i) in ids[first..first + members.len()].iter().enumerate() {
                let m = Member::of(&creatures[i as usize]);
                (members[j], vx[j], vy[j], kinds[j], boids[j]) =
                    (m, m.body.vel.x, m.body.vel.y, m.kind, lane_mask(m.kind == Kind::Boid));
            }
        });
    }

    /// Every creature's senses of the snapshot, and the crowd's figures:
    /// in parallel on the current rayon pool, in fixed shares of the
    /// slots, one per thread (`crate::shares`).
    pub fn sense(&mut self, around: &Surroundings) -> CrowdFigures {
        let View { hash, members, vx, vy, kinds, boids, sensed, by_creature } = self;
        sensed.resize(members.len(), Sensed::default());
        let look = Look { hash, members, vx, vy, kinds, boids, around };
        let figures =
            on_each_thread(split_mut(sensed, CHUNK), |(first, out)| wide::run(SenseChunk { look: &look, first, out }));
        // Gathered in fixed shares of the creatures too; sized once, every
        // entry written.
        by_creature.resize(sensed.len(), Sensed::default());
        let (slots, sensed) = (hash.slots(), &sensed[..]);
        on_each_thread(split_mut(by_creature, CHUNK), |(first, out)| {
            for (o, &k) in out.iter_mut().zip(&slots[first..]) {
                *o = sensed[k as usize];
            }
        });
        figures.into_iter().fold(CrowdFigures::default(), CrowdFigures::merge)
    }

    /// What creature `i` sensed at the last [`View::sense`].
    pub fn sensed(&self, i: usize) -> &Sensed {
        &self.by_creature[i]
    }

    /// The nearest threat to creature `i` in the snapshot of the last
    /// [`View::update`], with the player at `player` moving at
    /// `player_vel`: the player, or a monster nearer (ties go to the
    /// player, then to the monster first in creature order). Monsters
    /// farther than the player or than the panic-off distance are not
    /// looked for: they could not change the decision. What a fleeing
    /// creature reads as it steers: a function of the snapshot, so the
    /// same whenever it is asked.
    pub fn threat(&self, i: usize, player: Cell, player_vel: Vec2) -> Threat {
        let k = self.hash.slots()[i] as usize;
        let body = &self.members[k].body;
        let player = cell_center(player);
        let mut best = Threat { pos: player, vel: player_vel, dist: body.pos.distance(player) };
        let mut best_id = None;
        let reach = alarm(Kind::Fleeing, 0.0).1.min(best.dist);
        self.hash.visit(body.pos, reach, |j, _, _, d2| {
            if j == k || self.kinds[j] != Kind::Monster {
                return;
            }
            let (d, id) = (d2.sqrt(), self.hash.ids()[j]);
            if d < best.dist || (d == best.dist && best_id.is_some_and(|b| id < b)) {
                let m = &self.members[j].body;
                best = Threat { pos: m.pos, vel: m.vel, dist: d };
                best_id = Some(id);
            }
        });
        best
    }
}

/// The snapshot one slot's senses read.
struct Look<'a> {
    hash: &'a SpatialHash,
    members: &'a [Member],
    vx: &'a [f32],
    vy: &'a [f32],
    kinds: &'a [Kind],
    boids: &'a [u32],
    around: &'a Surroundings<'a>,
}

/// One chunk of [`View::sense`]: the senses of the slots from `first`
/// into `out`, and the crowd's figures among them.
struct SenseChunk<'a> {
    look: &'a Look<'a>,
    first: usize,
    out: &'a mut [Sensed],
}

impl Pass for SenseChunk<'_> {
    type Output = CrowdFigures;

    #[inline(always)]
    fn run<B: Build>(self) -> CrowdFigures {
        let mut figures = CrowdFigures::default();
        for (k, o) in (self.first..).zip(self.out) {
            *o = self.look.sense::<B>(k, &mut figures);
        }
        figures
    }
}

impl Look<'_> {
    /// What the creature in slot `k` senses; a crowd member counts its
    /// pairs with the members after it (by creature index) in `figures`.
    ///
    /// Generic over the build it runs in (`wide::Build`), so that the flock
    /// closure is a type of its own in each build, and inlined (always, as
    /// is [`Look::flock`]) into each build of [`SenseChunk`]: with `#[inline]`
    /// the compiler kept both out of line, compiled for the baseline, and
    /// the AVX2 build ran the baseline's block loop (167 instructions a
    /// block against 84; 4.48 G instructions over 200 ticks of the 10k
    /// world against 3.69 G, callgrind).
    #[inline(always)]
    fn sense<B: Build>(&self, k: usize, figures: &mut CrowdFigures) -> Sensed {
        let Member { body, kind, role } = self.members[k];
        let around = self.around;
        let clearance = around.walls.cells_to_wall(cell_at(body.pos));
        let walls = avoid_walls_within(&body, around.grid, clearance, Species::of(kind).feeler);
        let mut sensed = Sensed { walls, near: Vec2::ZERO, clearance };
        match role {
            // Walls first in a boid's priority blend: when they decide, its
            // flock is never read.
            Role::Boid if !decides(walls) => sensed.near = self.flock::<B>(k, &body),
            // Its threat is looked for as it steers (`View::threat`).
            Role::Boid | Role::Fleeing => {}
            Role::Roaming | Role::Following => {
                // A roaming creature's separation is after the walls in
                // its priority blend; a follower's is weighed beside them.
                let apart = !around.orca && (role == Role::Following || !decides(walls));
                sensed.near = self.crowd::<B>(k, &body, role, apart, figures);
            }
        }
        sensed
    }

    /// The flocking force of the boid in slot `k` among the boids within
    /// the flocking radius, summed a block of slots at a time.
    #[inline(always)]
    fn flock<B: Build>(&self, k: usize, body: &Body) -> Vec2 {
        let mut lanes = FlockLanes::default();
        // As long as the blocks' positions: one bounds check a block.
        let padded = self.hash.padded_len();
        let (boids, vx, vy) = (&self.boids[..padded], &self.vx[..padded], &self.vy[..padded]);
        self.hash.visit_blocks(body.pos, FLOCK_RADIUS, |b| {
            let mut take = b.hit_except(k);
            for (t, &boid) in take.iter_mut().zip(b.of(boids)) {
                *t &= boid;
            }
            lanes.add(b, &take, b.of(vx), b.of(vy), SEPARATION_RADIUS);
        });
        lanes.sums().force(body, self.around.flock)
    }

    /// One look around the crowd member in slot `k`: its pairs with the
    /// crowd members after it within [`CROWD_REACH`] counted, and, if it
    /// keeps `apart`, its separation from everyone (roaming) or from
    /// monsters (following a path).
    ///
    /// Once `figures` (the share's so far) have two members touching, the
    /// look goes only as far as [`TOUCH_REACH`]: every neighbour that
    /// still counts is within it, and the hash visits them in slot order
    /// at any radius, so the sums are the same to the bit. At 500 monsters
    /// on the gates (`incremental`, 2,000 ticks) the crowd's looks ran
    /// 11.3 G instructions instead of 15.2 G (callgrind).
    ///
    /// Generic over the build and inlined always, as [`Look::flock`] is: out
    /// of line it was compiled for the baseline only, and its blocks'
    /// tests ran in 128-bit halves in the AVX2 build too (the AVX2 pass ran
    /// 10.46 G instructions over the same run instead of 11.59 G).
    #[inline(always)]
    fn crowd<B: Build>(&self, k: usize, body: &Body, role: Role, apart: bool, figures: &mut CrowdFigures) -> Vec2 {
        let me = self.hash.ids()[k];
        let mut sums = FlockSums::default();
        let reach = if figures.touched() { TOUCH_REACH } else { CROWD_REACH };
        self.hash.visit(body.pos, reach, |j, dx, dy, d2| {
            if j == k {
                return;
            }
            let other = self.kinds[j];
            let offset = Vec2::new(dx, dy);
            if apart && (role == Role::Roaming || other == Kind::Monster) {
                sums.add_push(offset, d2, SEPARATION_RADIUS);
            }
            if in_crowd(other) && self.hash.ids()[j] > me {
                let pos = Vec2::new(self.hash.xs()[j], self.hash.ys()[j]);
                figures.pair(body, pos, Vec2::new(self.vx[j], self.vy[j]), d2);
            }
        });
        sums.separation()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;
    use crate::sim::species::FLOCK_WEIGHTS;
    use crate::steer::{Agent, crowd_check};

    /// A 40x30 room with a wall border and some creatures of every kind at
    /// scattered positions and velocities.
    fn scene() -> (Grid, Vec<Creature>) {
        let mut grid = Grid::filled(40, 30, Tile::Floor(1));
        for x in 0..40 {
            grid.set_tile(Cell::new(x, 0), Tile::Wall);
            grid.set_tile(Cell::new(x, 29), Tile::Wall);
        }
        for y in 0..30 {
            grid.set_tile(Cell::new(0, y), Tile::Wall);
            grid.set_tile(Cell::new(39, y), Tile::Wall);
        }
        let kinds = [Kind::Monster, Kind::Wanderer, Kind::Boid, Kind::Boid, Kind::Fleeing, Kind::Boid];
        let mut creatures: Vec<Creature> = (0..600)
            .map(|i| {
                let t = i as f32;
                let pos = Vec2::new(1.0 + (t * 7.31) % 38.0, 1.0 + (t * 3.17) % 28.0);
                let mut c = Creature::new(kinds[i % kinds.len()], pos, t, 10.0);
                c.body.vel = Vec2::new(((t * 1.3) % 3.0) - 1.5, ((t * 0.7) % 3.0) - 1.5);
                c
            })
            .collect();
        // Some monsters with a wanderer on top of them.
        for i in (0..600).step_by(60) {
            creatures[i + 1].body.pos = creatures[i].body.pos + Vec2::new(0.2, 0.1);
        }
        (grid, creatures)
    }

    fn sensed(grid: &Grid, creatures: &[Creature], orca: bool) -> (View, CrowdFigures) {
        let walls = WallDistance::build(grid);
        let flock = FLOCK_WEIGHTS;
        let around = Surroundings { grid, walls: &walls, orca, flock };
        let mut view = View::default();
        view.update(creatures, grid);
        let figures = view.sense(&around);
        (view, figures)
    }

    /// The crowd's figures out of the steering pass are those of a check
    /// of its own over the monsters and wanderers as they stand.
    #[test]
    fn the_crowd_figures_are_the_crowd_checks() {
        let (grid, creatures) = scene();
        let (_, figures) = sensed(&grid, &creatures, false);
        let agents: Vec<Agent> = creatures
            .iter()
            .filter(|c| in_crowd(c.kind))
            .map(|c| Agent {
                pos: c.body.pos,
                vel: c.body.vel,
                radius: BODY_RADIUS,
                max_speed: c.body.max_speed,
                preferred: c.body.vel,
            })
            .collect();
        let mut hash = SpatialHash::new(CROWD_REACH);
        hash.rebuild(agents.iter().map(|a| a.pos));
        let (overlaps, ttc) = crowd_check(&agents, &hash, CROWD_REACH, ORCA.time_horizon, &mut Vec::new());
        assert!(overlaps > 0 && ttc.is_some(), "a crowd dense enough to check: {overlaps} {ttc:?}");
        assert_eq!(figures, CrowdFigures { overlaps, min_time_to_collision: ttc });
    }

    /// A boid flocks with the boids around it, summed per lane of the
    /// query's blocks in slot order, then lane by lane; one
    /// whose walls decide its priority blend, and every roaming creature
    /// whose walls do, sum nothing; under ORCA nobody separates.
    #[test]
    fn senses_are_what_the_blend_reads() {
        let (grid, creatures) = scene();
        let (view, _) = sensed(&grid, &creatures, false);
        let (mut flocked, mut decided) = (0, 0);
        for (i, c) in creatures.iter().enumerate() {
            let s = view.sensed(i);
            assert_eq!(s.walls, crate::steer::avoid_walls(&c.body, &grid, Species::of(c.kind).feeler));
            if c.kind != Kind::Boid {
                continue;
            }
            if decides(s.walls) {
                assert_eq!(s.near, Vec2::ZERO);
                decided += 1;
                continue;
            }
            let mut ids = Vec::new();
            view.hash.query(c.body.pos, FLOCK_RADIUS, &mut ids);
            let near: Vec<(usize, Body)> = ids
                .iter()
                .map(|&j| j as usize)
                .filter(|&j| j != i && creatures[j].kind == Kind::Boid)
                .map(|j| (view.hash.slots()[j] as usize, creatures[j].body))
                .map(|(slot, b)| (view.hash.lane_in(c.body.pos, FLOCK_RADIUS, slot).expect("in a run"), b))
                .collect();
            flocked += usize::from(!near.is_empty());
            assert_eq!(s.near, FlockSums::by_lanes(&c.body, &near, SEPARATION_RADIUS).force(&c.body, FLOCK_WEIGHTS));
        }
        assert!(flocked > 50 && decided > 5, "{flocked} flocked, {decided} walled");
        let (orca, _) = sensed(&grid, &creatures, true);
        for (i, c) in creatures.iter().enumerate().filter(|(_, c)| in_crowd(c.kind)) {
            assert_eq!(orca.sensed(i).near, Vec2::ZERO, "{c:?}");
        }
    }

    /// The sensing pass's AVX2 build (where the processor has it) and its
    /// baseline build give the same senses and figures to the bit.
    #[test]
    fn both_builds_of_the_pass_agree() {
        let (grid, creatures) = scene();
        let walls = WallDistance::build(&grid);
        let around = Surroundings { grid: &grid, walls: &walls, orca: false, flock: FLOCK_WEIGHTS };
        let mut view = View::default();
        view.update(&creatures, &grid);
        let chosen_figures = view.sense(&around);
        let View { hash, members, vx, vy, kinds, boids, sensed, .. } = &view;
        let look = Look { hash, members, vx, vy, kinds, boids, around: &around };
        let mut baseline = vec![Sensed::default(); sensed.len()];
        let figures = SenseChunk { look: &look, first: 0, out: &mut baseline }.run::<wide::Baseline>();
        assert!(sensed.iter().filter(|s| s.near != Vec2::ZERO).count() > 100);
        let bits = |v: &[Sensed]| {
            v.iter()
                .map(|s| {
                    (s.walls.x.to_bits(), s.walls.y.to_bits(), s.near.x.to_bits(), s.near.y.to_bits(), s.clearance)
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(sensed), bits(&baseline));
        assert_eq!(figures, chosen_figures);
    }

    /// Once two crowd members have touched, the crowd's looks go only as
    /// far as [`TOUCH_REACH`], and every monster's and wanderer's
    /// separation is still its sum over all its neighbours within
    /// [`CROWD_REACH`], in slot order, to the bit.
    #[test]
    fn a_jam_looks_less_far_and_senses_the_same() {
        let (grid, creatures) = scene();
        let (view, figures) = sensed(&grid, &creatures, false);
        assert!(figures.touched(), "a scene where bodies touch");
        let mut apart = 0;
        for (i, c) in creatures.iter().enumerate().filter(|(_, c)| in_crowd(c.kind)) {
            let (s, k) = (view.sensed(i), view.hash.slots()[i] as usize);
            let mut sums = FlockSums::default();
            // Monsters without a path roam: apart from everyone, unless
            // the walls decide.
            if !decides(s.walls) {
                view.hash.visit(c.body.pos, CROWD_REACH, |j, dx, dy, d2| {
                    if j != k {
                        sums.add_push(Vec2::new(dx, dy), d2, SEPARATION_RADIUS);
                    }
                });
            }
            let want = sums.separation();
            apart += usize::from(want != Vec2::ZERO);
            assert_eq!((s.near.x.to_bits(), s.near.y.to_bits()), (want.x.to_bits(), want.y.to_bits()), "{c:?}");
        }
        assert!(apart > 20, "{apart} kept apart");
    }

    /// Sensing on a pool of any size gives the same senses and figures.
    #[test]
    fn any_number_of_threads_senses_alike() {
        let (grid, creatures) = scene();
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let (view, figures) = sensed(&grid, &creatures, false);
                ((0..creatures.len()).map(|i| *view.sensed(i)).collect::<Vec<_>>(), figures)
            })
        };
        let one = run(1);
        assert_eq!(run(3), one);
        assert_eq!(run(8), one);
    }
}
