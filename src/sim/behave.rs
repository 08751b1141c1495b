//! The steering force of each kind of creature, from what it senses at the
//! start of the tick.
//!
//! Every creature reads the same snapshot of bodies, so the order in which
//! they are updated changes nothing, and blends its behaviours the way its
//! kind needs: walls first (priority) for creatures that roam, a weighted
//! blend for monsters whose paths already avoid walls.

use super::Kind;
use super::creature::Creature;
use super::species::{FLOCK_RADIUS, FLOCK_WEIGHTS, SEPARATION_RADIUS, Species, alarm};
use crate::grid::{Cell, Grid};
use crate::steer::{
    Body, PathFollower, SpatialHash, Vec2, arrive, avoid_walls, cell_center, combine_priority, combine_weighted, evade,
    flock, separation,
};

/// What creatures sense this tick.
pub struct Senses<'a> {
    pub grid: &'a Grid,
    /// Every creature's body at the start of the tick.
    pub bodies: &'a [Body],
    pub kinds: &'a [Kind],
    /// All bodies, binned.
    pub hash: &'a SpatialHash,
    pub player: Cell,
    pub player_vel: Vec2,
}

/// Reusable buffers for neighbour queries.
#[derive(Debug, Default)]
pub struct Scratch {
    ids: Vec<u32>,
    near: Vec<Body>,
}

/// The raw steering force of creature `i` (before smoothing). `r` is this
/// tick's uniform draw in [−1, 1] for its wander.
pub fn force(c: &mut Creature, i: usize, senses: &Senses, r: f32, scratch: &mut Scratch) -> Vec2 {
    let sp = Species::of(c.kind);
    let body = senses.bodies[i];
    let walls = || avoid_walls(&body, senses.grid, sp.feeler);
    match c.kind {
        Kind::Monster => {
            let follow = match c.hunt.as_mut() {
                Some(h) if !h.follower.waypoints.is_empty() => follow(&mut h.follower, &body) * sp.follow_gain,
                _ => return roam(c, &body, walls(), r, i, senses, scratch),
            };
            // The wall feelers only nudge: the path already keeps clear of
            // walls, and whiskers brushing a corridor's mouth must not hold
            // the monster back from entering it (the follow gain keeps the
            // path the stronger pull). Collision keeps it out of walls.
            let apart = separate(i, senses, scratch, |k| k == Kind::Monster);
            combine_weighted(body.max_force, &[(follow, 1.0), (walls(), WALL_NUDGE), (apart, 1.0)])
        }
        Kind::Wanderer => roam(c, &body, walls(), r, i, senses, scratch),
        Kind::Fleeing => {
            let (threat, vel, dist) = nearest_threat(&body, i, senses, scratch);
            let wander = c.wander.force(&body, r);
            if c.alarm.update(dist) {
                let run = evade(&body, threat, vel);
                combine_priority(
                    body.max_force,
                    &[walls(), combine_weighted(body.max_force, &[(run, 1.0), (wander, sp.wander_weight)])],
                )
            } else {
                combine_priority(body.max_force, &[walls(), wander])
            }
        }
        Kind::Boid => {
            let player = cell_center(senses.player);
            let wander = c.wander.force(&body, r);
            let scatter = if c.alarm.update(body.pos.distance(player)) {
                evade(&body, player, senses.player_vel)
            } else {
                Vec2::ZERO
            };
            let flock = flock(
                &body,
                near(i, FLOCK_RADIUS, senses, scratch, |k| k == Kind::Boid),
                SEPARATION_RADIUS,
                FLOCK_WEIGHTS,
            );
            combine_priority(
                body.max_force,
                &[
                    walls(),
                    combine_weighted(body.max_force, &[(flock, 1.0), (wander, sp.wander_weight), (scatter, 2.0)]),
                ],
            )
        }
    }
}

/// Weight of wall avoidance for a monster on a planned path.
const WALL_NUDGE: f32 = 0.25;

/// Below this cosine of the turn at a waypoint (a turn sharper than 60°)
/// a monster brakes into the waypoint instead of sweeping past it.
const SHARP_TURN_COS: f32 = 0.5;

/// Path following with corner braking: at a sharp turn the follower would
/// reach the waypoint at full speed and swing wide, out of sight of the
/// next one and into the wall beside a narrow opening; arriving (slowing
/// within the slowing radius) lets it turn on the spot.
fn follow(f: &mut PathFollower, body: &Body) -> Vec2 {
    let force = f.steer(body);
    let i = f.index;
    let (Some(&here), Some(&next)) = (f.waypoints.get(i), f.waypoints.get(i + 1)) else { return force };
    let turn = (here - body.pos).normalized().dot((next - here).normalized());
    if turn < SHARP_TURN_COS { arrive(body, here, f.slowing_radius) } else { force }
}

/// Wandering with walls first and room kept from neighbours of any kind.
fn roam(c: &mut Creature, body: &Body, walls: Vec2, r: f32, i: usize, senses: &Senses, scratch: &mut Scratch) -> Vec2 {
    let wander = c.wander.force(body, r);
    let apart = separate(i, senses, scratch, |_| true);
    combine_priority(body.max_force, &[walls, combine_weighted(body.max_force, &[(wander, 1.0), (apart, 1.5)])])
}

/// Separation from the creatures of the kinds `keep` accepts.
fn separate(i: usize, senses: &Senses, scratch: &mut Scratch, keep: impl Fn(Kind) -> bool) -> Vec2 {
    separation(&senses.bodies[i], near(i, SEPARATION_RADIUS, senses, scratch, keep), SEPARATION_RADIUS)
}

/// The bodies of the other creatures within `radius` of creature `i` whose
/// kind `keep` accepts, in creature order (so sums over them come out the
/// same every run).
fn near<'s>(
    i: usize,
    radius: f32,
    senses: &Senses,
    scratch: &'s mut Scratch,
    keep: impl Fn(Kind) -> bool,
) -> &'s [Body] {
    senses.hash.query(senses.bodies[i].pos, radius, &mut scratch.ids);
    scratch.near.clear();
    scratch.near.extend(
        scratch.ids.iter().map(|&j| j as usize).filter(|&j| j != i && keep(senses.kinds[j])).map(|j| senses.bodies[j]),
    );
    &scratch.near
}

/// The nearest threat to a fleeing creature (the player or a monster): its
/// position, velocity and distance. Monsters farther than the player or
/// than the panic-off distance are not looked for: they could not change
/// the decision.
fn nearest_threat(body: &Body, i: usize, senses: &Senses, scratch: &mut Scratch) -> (Vec2, Vec2, f32) {
    let player = cell_center(senses.player);
    let mut best = (player, senses.player_vel, body.pos.distance(player));
    let reach = alarm(Kind::Fleeing, 0.0).1.min(best.2);
    senses.hash.query(body.pos, reach, &mut scratch.ids);
    for &j in &scratch.ids {
        let j = j as usize;
        if j != i && senses.kinds[j] == Kind::Monster {
            let d = body.pos.distance(senses.bodies[j].pos);
            if d < best.2 {
                best = (senses.bodies[j].pos, senses.bodies[j].vel, d);
            }
        }
    }
    best
}
