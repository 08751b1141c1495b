//! The steering force of each kind of creature, from what it sensed at the
//! start of the tick (see [`super::sense`]).
//!
//! Every creature sensed the same snapshot of bodies, so the order in which
//! they are updated changes nothing, and each one's force depends only on
//! its own state, its senses and its wander draw: the creatures are
//! updated in parallel. Each blends its behaviours the way its kind needs:
//! walls first (priority) for creatures that roam, a weighted blend for
//! monsters whose paths already avoid walls.

use super::Kind;
use super::creature::Creature;
use super::sense::{Sensed, Threat};
use super::species::Species;
use crate::grid::Cell;
use crate::steer::{Body, PathFollower, Vec2, arrive, cell_center, combine_priority, combine_weighted, evade};

/// The player as creatures perceive it this tick.
#[derive(Clone, Copy, Debug)]
pub struct PlayerSeen {
    pub cell: Cell,
    pub vel: Vec2,
}

/// The raw steering force of creature `c` (before smoothing), from what it
/// sensed. `r` is this tick's uniform draw in [−1, 1] for its wander;
/// `threat` finds a fleeing creature's nearest threat (asked only of one).
pub fn force(c: &mut Creature, sensed: &Sensed, r: f32, player: PlayerSeen, threat: impl FnOnce() -> Threat) -> Vec2 {
    let sp = Species::of(c.kind);
    let body = c.body;
    let walls = sensed.walls;
    match c.kind {
        Kind::Monster => {
            let follow = match c.hunt.as_mut() {
                Some(h) if !h.follower.waypoints.is_empty() => follow(&mut h.follower, &body) * sp.follow_gain,
                _ => return roam(c, &body, sensed, r),
            };
            // The wall feelers only nudge: the path already keeps clear of
            // walls, and whiskers brushing a corridor's mouth must not hold
            // the monster back from entering it (the follow gain keeps the
            // path the stronger pull). Collision keeps it out of walls.
            combine_weighted(body.max_force, &[(follow, 1.0), (walls, WALL_NUDGE), (sensed.near, 1.0)])
        }
        Kind::Wanderer => roam(c, &body, sensed, r),
        Kind::Fleeing => {
            let threat = threat();
            let wander = c.wander.force(&body, r);
            if c.alarm.update(threat.dist) {
                let run = evade(&body, threat.pos, threat.vel);
                combine_priority(
                    body.max_force,
                    &[walls, combine_weighted(body.max_force, &[(run, 1.0), (wander, sp.wander_weight)])],
                )
            } else {
                combine_priority(body.max_force, &[walls, wander])
            }
        }
        Kind::Boid => {
            let centre = cell_center(player.cell);
            let wander = c.wander.force(&body, r);
            let scatter =
                if c.alarm.update(body.pos.distance(centre)) { evade(&body, centre, player.vel) } else { Vec2::ZERO };
            combine_priority(
                body.max_force,
                &[
                    walls,
                    combine_weighted(body.max_force, &[(sensed.near, 1.0), (wander, sp.wander_weight), (scatter, 2.0)]),
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

/// Wandering with walls first and room kept from neighbours of any kind
/// (sensed as `near`, none under ORCA).
fn roam(c: &mut Creature, body: &Body, sensed: &Sensed, r: f32) -> Vec2 {
    let wander = c.wander.force(body, r);
    combine_priority(
        body.max_force,
        &[sensed.walls, combine_weighted(body.max_force, &[(wander, 1.0), (sensed.near, 1.5)])],
    )
}
