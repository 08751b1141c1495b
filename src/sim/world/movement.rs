//! How creatures move: the `steer`, `avoid` and `crowd` systems.

use super::{DT, World};
use crate::sim::Kind;
use crate::sim::behave::{self, Senses};
use crate::sim::settings::Avoidance;
use crate::sim::species::{AVOID_RADIUS, BODY_RADIUS, KEEP_RIGHT, ORCA, Species};
use crate::steer::{Agent, crowd_check, move_body, resolve_walls};
use rand::RngExt;
use std::ops::ControlFlow;

/// The kinds that avoid each other with ORCA when it is on, and whose
/// overlaps are counted.
fn in_crowd(kind: Kind) -> bool {
    matches!(kind, Kind::Monster | Kind::Wanderer)
}

/// Every creature's steering force from what it senses as the system
/// begins (all bodies as they stand, through a spatial hash), smoothed;
/// integrated at once, or under ORCA, for monsters and wanderers, turned
/// into the preferred velocity `avoid` starts from.
pub(super) fn steer(w: &mut World) -> ControlFlow<()> {
    let player_vel = w.player_velocity();
    let (s, x) = (&mut w.state, &mut w.scratch);
    x.bodies.clear();
    x.bodies.extend(s.creatures.iter().map(|c| c.body));
    x.kinds.clear();
    x.kinds.extend(s.creatures.iter().map(|c| c.kind));
    x.hash.rebuild(x.bodies.iter().map(|b| b.pos));
    let senses = Senses {
        grid: &s.grid,
        bodies: &x.bodies,
        kinds: &x.kinds,
        hash: &x.hash,
        player: s.player.cell,
        player_vel,
        orca: s.settings.avoidance == Avoidance::Orca,
    };
    let crowd = &mut x.crowd;
    crowd.agents.clear();
    crowd.creature_of.clear();
    for (i, c) in s.creatures.iter_mut().enumerate() {
        // One draw per creature per tick, used or not, so that a
        // creature changing behaviour never shifts another's randomness.
        let r = s.wander_rng.random_range(-1.0f32..=1.0);
        let raw = behave::force(c, i, &senses, r, &mut x.behave);
        let force = c.smoother.smooth(raw, Species::of(c.kind).smoothing);
        if senses.orca && in_crowd(c.kind) {
            // The velocity steering asks for is ORCA's preferred one.
            let mut wish = c.body;
            wish.integrate(force, DT);
            crowd.agents.push(Agent {
                pos: c.body.pos,
                vel: c.body.vel,
                radius: AVOID_RADIUS,
                max_speed: c.body.max_speed,
                preferred: wish.vel.rotated(KEEP_RIGHT),
            });
            crowd.creature_of.push(i);
        } else {
            move_body(&mut c.body, force, DT, &s.grid);
        }
    }
    ControlFlow::Continue(())
}

/// Under ORCA, moves the agents `steer` gathered at the velocities ORCA
/// chooses for them, and notes the microseconds it took.
pub(super) fn avoid(w: &mut World) -> ControlFlow<()> {
    let crowd = &mut w.scratch.crowd;
    crowd.orca_micros = 0.0;
    if w.state.settings.avoidance != Avoidance::Orca {
        return ControlFlow::Continue(());
    }
    let start = std::time::Instant::now();
    crowd.step(&w.state.grid);
    crowd.orca_micros = start.elapsed().as_secs_f64() * 1e6;
    for (&i, &v) in crowd.creature_of.iter().zip(&crowd.velocities) {
        let body = &mut w.state.creatures[i].body;
        let prev = body.pos;
        body.vel = v;
        body.pos += v * DT;
        resolve_walls(body, prev, &w.state.grid);
    }
    ControlFlow::Continue(())
}

/// Records the crowd's overlaps and smallest time to collision as the
/// bodies now stand (observation only), with ORCA's time.
pub(super) fn crowd(w: &mut World) -> ControlFlow<()> {
    let crowd = &mut w.scratch.crowd;
    crowd.agents.clear();
    crowd.agents.extend(w.state.creatures.iter().filter(|c| in_crowd(c.kind)).map(|c| Agent {
        pos: c.body.pos,
        vel: c.body.vel,
        radius: BODY_RADIUS,
        max_speed: c.body.max_speed,
        preferred: c.body.vel,
    }));
    crowd.hash.rebuild(crowd.agents.iter().map(|a| a.pos));
    let (overlaps, ttc) =
        crowd_check(&crowd.agents, &crowd.hash, ORCA.neighbour_dist, ORCA.time_horizon, &mut crowd.ids);
    w.session.stats.record_crowd(overlaps, ttc, crowd.orca_micros);
    ControlFlow::Continue(())
}
