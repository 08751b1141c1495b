//! Optimal reciprocal collision avoidance (ORCA, van den Berg, Guy, Lin and
//! Manocha 2011): each agent turns every neighbour that could be hit within
//! a time horizon into a half-plane of velocities, takes half of the
//! avoidance itself, adds one half-plane per nearby wall segment (which it
//! avoids alone), and picks the permitted velocity nearest the one it
//! prefers with a small linear program ([`lp`]).
//!
//! The formulas follow RVO2's `Agent.cpp`; the obstacle half-planes and the
//! fallback when they cannot all be met follow `dodgy_2d` (a Rust port of
//! RVO2) for isolated segments, so the two can be compared (see the
//! reference test below). Deterministic: neighbours come from the
//! [`SpatialHash`] and are taken nearest first, ties by id; coincident
//! agents split by id instead of at random; no clock.

mod lp;
mod segments;

pub use segments::{Segment, Walls};

use super::{SpatialHash, Vec2};
use lp::{Line, det, perp};

/// The first time within `horizon` at which discs at `pa` and `pb`, moving
/// at `va` and `vb`, come within `combined_radius` of each other:
/// `Some(0.0)` when they already touch or overlap, `None` when they never
/// do within the horizon (parallel, receding, passing wide, or too late).
pub fn time_to_collision(pa: Vec2, va: Vec2, pb: Vec2, vb: Vec2, combined_radius: f32, horizon: f32) -> Option<f32> {
    // |d + v t| = r, d and v being b relative to a.
    let d = pb - pa;
    let v = vb - va;
    let c = d.length_squared() - combined_radius * combined_radius;
    if c <= 0.0 {
        return Some(0.0);
    }
    let a = v.length_squared();
    let b = d.dot(v);
    if a == 0.0 || b >= 0.0 {
        return None;
    }
    let discriminant = b * b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    let t = c / (-b + discriminant.sqrt());
    (t <= horizon).then_some(t)
}

/// One agent as ORCA sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agent {
    /// Centre, world units.
    pub pos: Vec2,
    /// Current velocity, units per second.
    pub vel: Vec2,
    /// Radius of its disc.
    pub radius: f32,
    /// Top speed: the program's disc.
    pub max_speed: f32,
    /// The velocity it would take with nobody around (path following,
    /// steering behaviours).
    pub preferred: Vec2,
}

/// How far ahead agents look and how many neighbours they weigh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Collisions with other agents are avoided this many seconds ahead.
    pub time_horizon: f32,
    /// Collisions with walls are avoided this many seconds ahead (shorter:
    /// a wall does not move out of the way).
    pub obstacle_horizon: f32,
    /// Agents farther than this are not neighbours.
    pub neighbour_dist: f32,
    /// At most this many neighbours, the nearest.
    pub max_neighbours: usize,
    /// The step the velocity is held for: how fast an overlap is undone.
    pub dt: f32,
}

/// Reusable buffers for one ORCA step over many agents.
#[derive(Clone, Debug)]
pub struct Orca {
    /// The parameters every step uses.
    pub params: Params,
    hash: SpatialHash,
    ids: Vec<u32>,
    near: Vec<(f32, u32)>,
    segment_ids: Vec<u32>,
    lines: Vec<Line>,
    scratch: Vec<Line>,
}

impl Orca {
    /// Buffers for steps with `params`.
    pub fn new(params: Params) -> Orca {
        Orca {
            params,
            hash: SpatialHash::new(params.neighbour_dist.max(f32::MIN_POSITIVE)),
            ids: Vec::new(),
            near: Vec::new(),
            segment_ids: Vec::new(),
            lines: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// One step: replaces `out` with every agent's new velocity, each
    /// chosen from the same snapshot `agents` (so the order changes
    /// nothing), avoiding the other agents and `walls`.
    pub fn step(&mut self, agents: &[Agent], walls: &Walls, out: &mut Vec<Vec2>) {
        self.hash.rebuild(agents.iter().map(|a| a.pos));
        out.clear();
        for i in 0..agents.len() {
            self.neighbours(agents, i);
            let v = self.velocity(agents, i, walls);
            out.push(v);
        }
    }

    /// Fills `self.near` with agent `i`'s neighbours, nearest first (ties
    /// by id), at most `max_neighbours`.
    fn neighbours(&mut self, agents: &[Agent], i: usize) {
        let me = agents[i].pos;
        self.hash.query(me, self.params.neighbour_dist, &mut self.ids);
        self.near.clear();
        self.near.extend(
            self.ids.iter().filter(|&&j| j as usize != i).map(|&j| ((agents[j as usize].pos - me).length_squared(), j)),
        );
        let by_distance = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        let k = self.params.max_neighbours;
        if self.near.len() > k {
            if k == 0 {
                self.near.clear();
                return;
            }
            self.near.select_nth_unstable_by(k - 1, by_distance);
            self.near.truncate(k);
        }
        self.near.sort_unstable_by(by_distance);
    }

    /// Agent `i`'s new velocity against the neighbours in `self.near`.
    fn velocity(&mut self, agents: &[Agent], i: usize, walls: &Walls) -> Vec2 {
        let me = agents[i];
        let p = self.params;
        let range = p.obstacle_horizon * me.max_speed + me.radius;
        walls.near(me.pos, range, &mut self.segment_ids);
        self.lines.clear();
        self.push_wall_lines(&me, me.vel, walls);
        let rigid = self.lines.len();
        for &(_, j) in &self.near {
            let other = agents[j as usize];
            let side = if (j as usize) < i { 1.0 } else { -1.0 };
            self.lines.push(neighbour_line(&me, &other, p.time_horizon, p.dt, side));
        }
        match lp::solve(&self.lines, rigid, me.max_speed, me.preferred, &mut self.scratch) {
            Ok(v) => v,
            Err(_) => {
                // The walls cannot all be kept clear at the current
                // velocity: build their lines as if at rest, which a
                // standstill always meets, and take the least-violating
                // answer (dodgy_2d's fallback).
                // In place: the new wall lines go to the end, then first.
                self.lines.drain(..rigid);
                let neighbours = self.lines.len();
                self.push_wall_lines(&me, Vec2::ZERO, walls);
                let rigid = self.lines.len() - neighbours;
                self.lines.rotate_right(rigid);
                match lp::solve(&self.lines, rigid, me.max_speed, me.preferred, &mut self.scratch) {
                    Ok(v) | Err(lp::RigidInfeasible(v)) => v,
                }
            }
        }
    }

    fn push_wall_lines(&mut self, me: &Agent, vel: Vec2, walls: &Walls) {
        let horizon = self.params.obstacle_horizon;
        for &s in &self.segment_ids {
            let segment = walls.segments()[s as usize];
            if let Some(line) = segment_line(me.pos, vel, me.radius, horizon, segment) {
                self.lines.push(line);
            }
        }
    }
}

/// The half-plane of velocities agent `me` may take so as not to hit
/// `other` within `horizon`, taking half of the change (RVO2's
/// `computeNewVelocity`). Already overlapping, the cut-off is at `dt`, so
/// the overlap is undone within one step. `side` (±1) picks the way out
/// for two agents at the same place with the same velocity, opposite for
/// the two.
fn neighbour_line(me: &Agent, other: &Agent, horizon: f32, dt: f32, side: f32) -> Line {
    let rel_pos = other.pos - me.pos;
    let rel_vel = me.vel - other.vel;
    let dist_sq = rel_pos.length_squared();
    let r = me.radius + other.radius;
    let r_sq = r * r;
    let (direction, u);
    if dist_sq > r_sq {
        // w: from the cut-off circle's centre to the relative velocity.
        let w = rel_vel - rel_pos / horizon;
        let w_len_sq = w.length_squared();
        let dot = w.dot(rel_pos);
        if dot < 0.0 && dot * dot > r_sq * w_len_sq {
            // Project on the cut-off circle.
            let w_len = w_len_sq.sqrt();
            let unit_w = w / w_len;
            direction = Vec2::new(unit_w.y, -unit_w.x);
            u = unit_w * (r / horizon - w_len);
        } else {
            // Project on a leg of the cone.
            let leg = (dist_sq - r_sq).sqrt();
            direction = if det(rel_pos, w) > 0.0 {
                Vec2::new(rel_pos.x * leg - rel_pos.y * r, rel_pos.x * r + rel_pos.y * leg) / dist_sq
            } else {
                -Vec2::new(rel_pos.x * leg + rel_pos.y * r, -rel_pos.x * r + rel_pos.y * leg) / dist_sq
            };
            u = direction * rel_vel.dot(direction) - rel_vel;
        }
    } else {
        let w = rel_vel - rel_pos / dt;
        let w_len = w.length();
        let unit_w = if w_len > 0.0 { w / w_len } else { Vec2::new(side, 0.0) };
        direction = Vec2::new(unit_w.y, -unit_w.x);
        u = unit_w * (r / dt - w_len);
    }
    Line { point: me.vel + u * 0.5, direction }
}

/// The half-plane keeping an agent at `pos` (moving at `vel`, radius
/// `margin`) off `segment` for `horizon` seconds, or `None` when the agent
/// is behind it (a back face, which the wall's front faces cover) or the
/// segment has no length. The
/// agent avoids the wall alone. `dodgy_2d`'s `get_line_for_agent_to_edge`
/// (RVO2's obstacle loop) for a segment whose ends are both convex and
/// that has no neighbouring edges.
fn segment_line(pos: Vec2, vel: Vec2, margin: f32, horizon: f32, segment: Segment) -> Option<Line> {
    let (mut left, mut right) = (segment.a, segment.b);
    let rel_left = left - pos;
    let rel_right = right - pos;
    let edge = right - left;
    // Behind the face, or a segment of no length (no face at all).
    if det(-rel_left, edge) < 0.0 || edge.length_squared() == 0.0 {
        return None;
    }
    let edge_unit = edge.normalized();
    let dist_left_sq = rel_left.length_squared();
    let dist_right_sq = rel_right.length_squared();
    let r_sq = margin * margin;
    let edge_t = (-rel_left).dot(edge) / edge.length_squared();
    let dist_line_sq = (edge * edge_t + rel_left).length_squared();

    // Already touching: keep from going deeper.
    if edge_t < 0.0 && dist_left_sq <= r_sq {
        return Some(Line { point: Vec2::ZERO, direction: perp(rel_left).normalized() });
    }
    if edge_t > 1.0 && dist_right_sq <= r_sq {
        return Some(Line { point: Vec2::ZERO, direction: perp(rel_right).normalized() });
    }
    if (0.0..=1.0).contains(&edge_t) && dist_line_sq <= r_sq {
        return Some(Line { point: Vec2::ZERO, direction: -edge_unit });
    }

    // The legs of the segment's velocity obstacle (its shadow).
    let tangents = |rel: Vec2, dist_sq: f32| {
        let leg = (dist_sq - r_sq).sqrt();
        ((rel * leg + perp(rel) * margin) / dist_sq, (rel * leg - perp(rel) * margin) / dist_sq)
    };
    let (mut left_leg, mut right_leg);
    let (mut left_covered, mut right_covered) = (false, false);
    if edge_t < 0.0 && dist_line_sq <= r_sq {
        // Seen end-on from beyond the left end: only that end's shadow.
        (left_leg, right_leg) = tangents(rel_left, dist_left_sq);
        if det(right_leg, right - left) <= 0.0 {
            right_leg = edge_unit;
            right_covered = true;
        }
        right = left;
    } else if edge_t > 1.0 && dist_line_sq <= r_sq {
        (left_leg, right_leg) = tangents(rel_right, dist_right_sq);
        if det(left_leg, left - right) >= 0.0 {
            left_leg = -edge_unit;
            left_covered = true;
        }
        left = right;
    } else {
        left_leg = tangents(rel_left, dist_left_sq).0;
        right_leg = tangents(rel_right, dist_right_sq).1;
    }

    let left_cutoff = (left - pos) / horizon;
    let right_cutoff = (right - pos) / horizon;
    let cutoff = right_cutoff - left_cutoff;
    let degenerate = left == right;
    let t_cutoff = if degenerate { 0.5 } else { (vel - left_cutoff).dot(cutoff) / cutoff.length_squared() };
    let t_left = (vel - left_cutoff).dot(left_leg);
    let t_right = (vel - right_cutoff).dot(right_leg);
    let offset = margin / horizon;

    // Project on the left end's cut-off circle, or the right end's.
    if (t_cutoff < 0.0 && t_left < 0.0) || (degenerate && t_left < 0.0 && t_right < 0.0) {
        let w = (vel - left_cutoff).normalized();
        return Some(Line { point: left_cutoff + w * offset, direction: -perp(w) });
    }
    if t_cutoff > 1.0 && t_right < 0.0 {
        let w = (vel - right_cutoff).normalized();
        return Some(Line { point: right_cutoff + w * offset, direction: -perp(w) });
    }
    // Otherwise on the cut-off segment or a leg, whichever is nearest.
    let dist_cutoff = if !(0.0..=1.0).contains(&t_cutoff) || degenerate {
        f32::INFINITY
    } else {
        (vel - (left_cutoff + cutoff * t_cutoff)).length_squared()
    };
    let dist_left =
        if t_left < 0.0 { f32::INFINITY } else { (vel - (left_cutoff + left_leg * t_left)).length_squared() };
    let dist_right =
        if t_right < 0.0 { f32::INFINITY } else { (vel - (right_cutoff + right_leg * t_right)).length_squared() };
    if dist_cutoff <= dist_left && dist_cutoff <= dist_right {
        let direction = -cutoff.normalized();
        Some(Line { point: left_cutoff + perp(direction) * offset, direction })
    } else if dist_left <= dist_right {
        (!left_covered).then(|| Line { point: left_cutoff + perp(left_leg) * offset, direction: left_leg })
    } else {
        (!right_covered).then(|| Line { point: right_cutoff - perp(right_leg) * offset, direction: -right_leg })
    }
}

/// What a crowd looks like this tick: pairs of agents closer than the sum
/// of their radii, and the smallest [`time_to_collision`] between an agent
/// and a neighbour within `reach`, looking `horizon` seconds ahead.
/// `hash` must hold the agents' positions.
pub fn crowd_check(
    agents: &[Agent],
    hash: &SpatialHash,
    reach: f32,
    horizon: f32,
    ids: &mut Vec<u32>,
) -> (u64, Option<f32>) {
    let mut overlaps = 0;
    let mut min_ttc: Option<f32> = None;
    for (i, a) in agents.iter().enumerate() {
        hash.query(a.pos, reach, ids);
        for &j in ids.iter().filter(|&&j| j as usize > i) {
            let b = &agents[j as usize];
            let r = a.radius + b.radius;
            if (b.pos - a.pos).length_squared() < r * r {
                overlaps += 1;
            }
            if let Some(t) = time_to_collision(a.pos, a.vel, b.pos, b.vel, r, horizon) {
                min_ttc = Some(min_ttc.map_or(t, |m| m.min(t)));
            }
        }
    }
    (overlaps, min_ttc)
}

#[cfg(test)]
mod tests;
