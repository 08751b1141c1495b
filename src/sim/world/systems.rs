//! The systems of a tick besides the player's and the movers': the clock,
//! the goals, the doors, perception, planning, catches and the tally.

use super::World;
use crate::grid::Cell;
use crate::level::Goal;
use crate::sim::creature::Creature;
use crate::sim::events::{Event, Sense};
use crate::sim::hunt::Scene;
use crate::sim::landing::{HIDING_REACH, Hide, LANDING_REACH, hidden_landing};
use crate::sim::mind::Mind;
use crate::sim::perceive::{Percept, sees};
use crate::sim::rules::{Grace, Outcome};
use crate::sim::species::{AVOID_RADIUS, CATCH_RADIUS};
use crate::steer::{Body, Vec2, cell_at, cell_center};
use std::ops::ControlFlow;

/// The tick counts; the grace after a catch ends once it has lasted two
/// seconds and the player has moved away from where it was caught, or
/// ten seconds (see [`Grace`](crate::sim::Grace)).
pub(super) fn clock(w: &mut World) -> ControlFlow<()> {
    let s = &mut w.state;
    s.tick += 1;
    if s.grace.is_some_and(|g| g.ticks_left(s.tick, s.player.cell) == 0) {
        s.grace = None;
    }
    ControlFlow::Continue(())
}

/// Standing on the goal wins, before anything can move: the tick ends.
pub(super) fn goal(w: &mut World) -> ControlFlow<()> {
    if w.state.rules.goal == Goal::Reach && Some(w.state.player.cell) == w.state.goal_cell {
        w.event(Event::GoalReached);
        w.end(Outcome::Won);
        return ControlFlow::Break(());
    }
    ControlFlow::Continue(())
}

/// The level's doors open and close by themselves (see
/// [`Doors`](crate::sim::Doors)), never on anyone in a doorway.
pub(super) fn doors(w: &mut World) -> ControlFlow<()> {
    let s = &mut w.state;
    let Some(doors) = s.doors.as_mut() else { return ControlFlow::Continue(()) };
    let (player, creatures) = (s.player.cell, &s.creatures);
    let occupied = |door: Cell| player == door || creatures.iter().any(|c| c.cell() == door);
    if let Some(event) = doors.step(&mut s.grid, s.tick, occupied) {
        w.session.log.push(s.tick, event);
    }
    ControlFlow::Continue(())
}

/// Every monster's perception of the player this tick, and its mind
/// moved on by it.
pub(super) fn perceive(w: &mut World) -> ControlFlow<()> {
    let (moving, heading) = (w.player_moving(), w.player_heading());
    let (s, hearing, log) = (&mut w.state, &mut w.scratch.hearing, &mut w.session.log);
    let p = s.player.cell;
    hearing.update(&s.grid, p, moving);
    let (mut dropped, mut ordinal) = (false, 0);
    for (_, c) in s.monsters.iter_mut(&mut s.creatures) {
        let Some(hunt) = c.hunt.as_mut() else { continue };
        ordinal += 1;
        let sense = if sees(&s.grid, &mut c.alarm, c.body.pos, p) {
            Some(Sense::Sight)
        } else {
            hearing.hears(cell_at(c.body.pos)).then_some(Sense::Hearing)
        };
        let swept = hunt.sweep.is_done();
        let (home, lost) = (cell_at(c.home), s.settings.lost);
        let percept = Percept { tick: s.tick, sense, player: p, heading, pos: c.body.pos, home, lost, swept };
        let (event, stale) = hunt.mind.perceive(&percept, ordinal);
        if stale {
            dropped |= hunt.request.is_some();
            hunt.forget();
        }
        if let Some(e) = event {
            log.push(s.tick, e);
        }
    }
    if dropped {
        s.hunter.drop_forgotten(&s.creatures);
    }
    ControlFlow::Continue(())
}

/// What planning sees of the world; `watched` is observation (it only
/// decides which searches are recorded cell by cell).
macro_rules! scene {
    ($w:expr) => {
        Scene {
            grid: &$w.state.grid,
            settings: &$w.state.settings,
            tick: $w.state.tick,
            player: $w.state.player.cell,
            watched: $w.session.watched,
            aims: &$w.state.foresight,
        }
    };
}

/// Monsters heading somewhere queue their requests for a plan.
pub(super) fn request(w: &mut World) -> ControlFlow<()> {
    let scene = scene!(w);
    w.state.hunter.request(&mut w.state.creatures, &w.state.monsters, &scene);
    ControlFlow::Continue(())
}

/// The flow field is brought up to date, and the queue is served while
/// the tick's budget of expansions lasts.
pub(super) fn serve(w: &mut World) -> ControlFlow<()> {
    let scene = scene!(w);
    w.state.hunter.serve(&mut w.state.creatures, &w.state.monsters, &scene, &mut w.session.stats);
    ControlFlow::Continue(())
}

/// The first monster (in creature order) touching the player, unless the
/// player is in grace or the monster is calm, catches it: a life lost; the
/// monster lands out of the player's sight, as near its post as that
/// allows, and forgets the player for
/// [`FORGET_TICKS`](crate::sim::FORGET_TICKS); the player has grace until
/// it has moved away (see [`Grace`]); whatever the player was doing (the
/// acts typed ahead, a run, a travel) ends, so that nothing carries it on
/// through the catch. The last life lost loses the session.
pub(super) fn catch(w: &mut World) -> ControlFlow<()> {
    if w.state.grace.is_some() {
        return ControlFlow::Continue(());
    }
    let (player, tick) = (cell_center(w.state.player.cell), w.state.tick);
    let creatures = &mut w.state.creatures;
    // A calm monster (it caught the player a moment ago) catches no one.
    let catches = |c: &Creature| {
        c.hunt.as_ref().is_some_and(|h| tick >= h.mind.calm_until) && c.body.pos.distance(player) < CATCH_RADIUS
    };
    let Some(i) = w.state.monsters.iter(creatures).find(|(_, c)| catches(c)).map(|(i, _)| i) else {
        return ControlFlow::Continue(());
    };
    w.session.stats.record_catch();
    w.state.walk.clear();
    if let Some(hunt) = creatures[i].hunt.as_mut() {
        let dropped = hunt.request.is_some();
        hunt.forget();
        hunt.mind = Mind::caught(w.state.tick);
        if dropped {
            w.state.hunter.drop_forgotten(creatures);
        }
    }
    let spot = w.landing(i);
    let c = &mut w.state.creatures[i];
    c.body = Body::new(spot, c.body.max_speed, c.body.max_force);
    c.smoother = Default::default();
    w.state.grace = Some(Grace { since: w.state.tick, at: w.state.player.cell });
    w.state.lives = w.state.lives.map(|n| n.saturating_sub(1));
    let monster = w.monster_ordinal(i);
    w.event(Event::Caught { monster, lives_left: w.state.lives });
    if w.state.lives == Some(0) {
        w.end(Outcome::Lost);
    }
    ControlFlow::Continue(())
}

/// Staying uncaught (with a life left) until the goal's tick wins.
pub(super) fn survive(w: &mut World) -> ControlFlow<()> {
    if let Goal::Survive { ticks } = w.state.rules.goal
        && w.state.tick >= ticks
        && !w.state.outcome.is_over()
    {
        w.event(Event::GoalReached);
        w.end(Outcome::Won);
    }
    ControlFlow::Continue(())
}

/// Closes the tick's statistics, however the tick ended.
pub(super) fn tally(w: &mut World) {
    w.session.stats.end_tick(w.state.hunter.queue.len());
}

impl World {
    /// Where creature `i`, caught with the player, lands: the nearest cell
    /// to its post out of the player's sight that no other creature is
    /// within two avoidance radii of, or when none is, the nearest such
    /// cell to its post (see [`hidden_landing`]).
    fn landing(&self, i: usize) -> Vec2 {
        let creatures = &self.state.creatures;
        let post = cell_at(creatures[i].home);
        let near = |p: Vec2| {
            let reach = (HIDING_REACH.max(LANDING_REACH) + 1) as f32;
            (p.x - cell_center(post).x).abs() <= reach && (p.y - cell_center(post).y).abs() <= reach
        };
        let others: Vec<Vec2> = (creatures.iter().enumerate())
            .filter(|&(j, o)| j != i && near(o.body.pos))
            .map(|(_, o)| o.body.pos)
            .collect();
        let hide = Hide { player: self.state.player.cell, sight: self.state.settings.detection_radius };
        cell_center(hidden_landing(&self.state.grid, post, &others, 2.0 * AVOID_RADIUS, hide))
    }
}
