//! How creatures move: the `steer` and `avoid` systems.

use super::{DT, World};
use crate::shares::{on_each_thread, split_mut};
use crate::sim::behave::{self, PlayerSeen};
use crate::sim::creature::Creature;
use crate::sim::sense::{CHUNK, Surroundings, in_crowd};
use crate::sim::settings::Avoidance;
use crate::sim::species::{AVOID_RADIUS, KEEP_RIGHT, Species};
use crate::steer::{Agent, Vec2, move_body_within, resolve_walls};
use rand::RngExt;
use std::ops::ControlFlow;

/// Every creature's steering force from what it senses as the system
/// begins (all bodies as they stand, through the bin-ordered view),
/// smoothed; integrated at once, or under ORCA, for monsters and
/// wanderers, turned into the preferred velocity `avoid` starts from.
/// The crowd's figures come out of the same look at the neighbours.
///
/// Sensing and steering run in parallel on the current rayon pool, the
/// steps in fixed shares of the creatures, one per thread: each creature
/// reads the snapshot and changes only itself, and its wander draw is its
/// place in one stream in creature order, so any number of threads makes
/// the same world.
pub(super) fn steer(w: &mut World) -> ControlFlow<()> {
    let player = PlayerSeen { cell: w.state.player.cell, vel: w.player_velocity() };
    let (s, x) = (&mut w.state, &mut w.scratch);
    let orca = s.settings.avoidance == Avoidance::Orca;
    let field = x.walls.get(&s.grid, ());
    let n = s.creatures.len();
    x.view.update(&s.creatures, &s.grid);
    let flock = s.settings.flock;
    let around = Surroundings { grid: &s.grid, walls: field, orca, flock };
    let figures = x.view.sense(&around);
    w.session.stats.record_crowd(figures.overlaps, figures.min_time_to_collision);
    let (view, grid) = (&x.view, &s.grid);
    // One creature's step: its force, smoothed, and its move, or under
    // ORCA for a crowd member the velocity it asks for (ORCA's preferred).
    let step = |i: usize, c: &mut Creature, r: f32| -> Option<Vec2> {
        let sensed = view.sensed(i);
        let raw = behave::force(c, sensed, r, player, || view.threat(i, player.cell, player.vel));
        let force = c.smoother.smooth(raw, Species::of(c.kind).smoothing);
        if orca && in_crowd(c.kind) {
            let mut wanted = c.body;
            wanted.integrate(force, DT);
            Some(wanted.vel.rotated(KEEP_RIGHT))
        } else {
            move_body_within(&mut c.body, force, DT, grid, sensed.clearance);
            None
        }
    };
    // Fixed shares of the creatures, one per thread (`crate::shares`); without
    // ORCA no wishes are kept (0.8 MB a tick at 100,000 creatures).
    x.wishes.clear();
    let creatures = split_mut(&mut s.creatures, CHUNK);
    let wishes: Vec<&mut [Vec2]> = if orca {
        x.wishes.resize(n, Vec2::ZERO);
        split_mut(&mut x.wishes, CHUNK).into_iter().map(|(_, w)| w).collect()
    } else {
        creatures.iter().map(|_| <&mut [Vec2]>::default()).collect()
    };
    // One draw per creature per tick, used or not, so that a creature
    // changing behaviour never shifts another's randomness: the wander
    // stream in creature order, each share drawing its creatures' from its
    // own place in it (an f32 in a range takes one word of the stream), so
    // no thread draws the whole crowd's while the others wait.
    let wander = &s.wander_rng;
    on_each_thread(creatures.into_iter().zip(wishes).collect(), |((first, creatures), wishes)| {
        let mut draws = wander.clone();
        draws.advance(first as u64);
        for (j, c) in creatures.iter_mut().enumerate() {
            // `step` wishes only under ORCA, where every share has its slots.
            if let Some(v) = step(first + j, c, draws.random_range(-1.0f32..=1.0)) {
                wishes[j] = v;
            }
        }
    });
    s.wander_rng.advance(n as u64);
    let crowd = &mut x.crowd;
    crowd.agents.clear();
    crowd.creature_of.clear();
    if orca {
        for (i, c) in s.creatures.iter().enumerate().filter(|(_, c)| in_crowd(c.kind)) {
            crowd.agents.push(Agent {
                pos: c.body.pos,
                vel: c.body.vel,
                radius: AVOID_RADIUS,
                max_speed: c.body.max_speed,
                preferred: x.wishes[i],
            });
            crowd.creature_of.push(i);
        }
    }
    ControlFlow::Continue(())
}

/// Under ORCA, moves the agents `steer` gathered at the velocities ORCA
/// chooses for them, and notes the microseconds it took.
pub(super) fn avoid(w: &mut World) -> ControlFlow<()> {
    if w.state.settings.avoidance != Avoidance::Orca {
        return ControlFlow::Continue(());
    }
    let crowd = &mut w.scratch.crowd;
    let start = std::time::Instant::now();
    crowd.step(&w.state.grid);
    w.session.stats.record_orca(start.elapsed().as_secs_f64() * 1e6);
    for (&i, &v) in crowd.creature_of.iter().zip(&crowd.velocities) {
        let body = &mut w.state.creatures[i].body;
        let prev = body.pos;
        body.vel = v;
        body.pos += v * DT;
        resolve_walls(body, prev, &w.state.grid);
    }
    ControlFlow::Continue(())
}
