//! The linear program ORCA solves for each agent: the velocity nearest the
//! preferred one inside a disc of radius `max_speed` and on the permitted
//! side of every half-plane, after RVO2's `linearProgram1/2/3`
//! (van den Berg et al., `Agent.cpp`).
//!
//! Lines come obstacles first: those are rigid. When the half-planes leave
//! no room, the neighbours' ones are relaxed together (the 3-D program) and
//! the velocity that violates the worst of them least is returned, so the
//! program never fails. Buffers are the caller's, so a tick allocates
//! nothing once they have grown.

use crate::steer::Vec2;

/// Below this |det| two lines count as parallel (RVO2's `RVO_EPSILON`).
const EPSILON: f32 = 1e-5;

/// A half-plane of permitted velocities: those on the left of `direction`
/// through `point` (`det(direction, point − v) ≤ 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// A point on the boundary.
    pub point: Vec2,
    /// The boundary's direction, a unit vector.
    pub direction: Vec2,
}

/// The 2-D cross product a × b.
pub fn det(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// a turned a quarter counter-clockwise (in x-right, y-up terms): (−y, x).
pub fn perp(a: Vec2) -> Vec2 {
    Vec2::new(-a.y, a.x)
}

/// What the program optimises: nearness to a point, or extent along a unit
/// direction (the 3-D program's sub-problems).
#[derive(Clone, Copy)]
enum Goal {
    Point(Vec2),
    Direction(Vec2),
}

/// Why [`solve`] gave up on the rigid lines: the velocity reached so far,
/// which satisfies the lines before the one that failed.
pub struct RigidInfeasible(pub Vec2);

/// The velocity closest to `preferred` with length at most `radius` that
/// every line permits; the first `rigid` lines are obstacles. When only
/// neighbour lines conflict, the least-violating velocity (RVO2's
/// `linearProgram3`); when a rigid line cannot be met, `Err` with the
/// partial answer, for the caller to retry with easier obstacle lines.
/// `scratch` holds the 3-D program's projected lines.
pub fn solve(
    lines: &[Line],
    rigid: usize,
    radius: f32,
    preferred: Vec2,
    scratch: &mut Vec<Line>,
) -> Result<Vec2, RigidInfeasible> {
    match program2(lines, radius, Goal::Point(preferred)) {
        Ok(v) => Ok(v),
        Err((failed, partial)) if failed < rigid => Err(RigidInfeasible(partial)),
        Err((failed, partial)) => Ok(program3(lines, rigid, failed, radius, partial, scratch)),
    }
}

/// RVO2's `linearProgram1`: the best point on line `lines[n]` within the
/// disc and permitted by `lines[..n]`; `None` when there is none.
fn program1(lines: &[Line], n: usize, radius: f32, goal: Goal) -> Option<Vec2> {
    let mut line = lines[n];
    // Measured from the line's point nearest the origin rather than from
    // wherever it was given: the 3-D program makes lines through points
    // thousands of units away (two nearly opposite lines meet far off),
    // and RVO2's dot² + r² − |p|² then loses every digit of the disc in
    // f32 rounding, returning velocities beyond the speed limit.
    line.point = line.point - line.direction * line.point.dot(line.direction);
    let discriminant = radius * radius - line.point.length_squared();
    if discriminant < 0.0 {
        return None;
    }
    let root = discriminant.sqrt();
    let (mut t_left, mut t_right) = (-root, root);
    for other in &lines[..n] {
        let denominator = det(line.direction, other.direction);
        let numerator = det(other.direction, line.point - other.point);
        if denominator.abs() <= EPSILON {
            // Parallel: all of this line is permitted by the other, or none.
            if numerator < 0.0 {
                return None;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = t_right.min(t);
        } else {
            t_left = t_left.max(t);
        }
        if t_left > t_right {
            return None;
        }
    }
    let t = match goal {
        Goal::Direction(d) => {
            if d.dot(line.direction) > 0.0 {
                t_right
            } else {
                t_left
            }
        }
        Goal::Point(p) => line.direction.dot(p - line.point).clamp(t_left, t_right),
    };
    Some(line.point + line.direction * t)
}

/// RVO2's `linearProgram2`: incremental 2-D program. `Err((i, v))` when line
/// `i` cannot be met, `v` satisfying the lines before it.
fn program2(lines: &[Line], radius: f32, goal: Goal) -> Result<Vec2, (usize, Vec2)> {
    let mut best = match goal {
        Goal::Direction(d) => d * radius,
        Goal::Point(p) if p.length_squared() > radius * radius => p.normalized() * radius,
        Goal::Point(p) => p,
    };
    for (i, line) in lines.iter().enumerate() {
        if det(line.direction, line.point - best) > 0.0 {
            match program1(lines, i, radius, goal) {
                Some(v) => best = v,
                None => return Err((i, best)),
            }
        }
    }
    Ok(best)
}

/// RVO2's `linearProgram3`: from line `begin` on, moves every neighbour
/// line back by the same distance until the program is feasible; the rigid
/// lines stay put.
fn program3(lines: &[Line], rigid: usize, begin: usize, radius: f32, start: Vec2, projected: &mut Vec<Line>) -> Vec2 {
    let mut best = start;
    let mut distance = 0.0;
    for i in begin..lines.len() {
        let line = lines[i];
        if det(line.direction, line.point - best) <= distance {
            continue;
        }
        projected.clear();
        projected.extend_from_slice(&lines[..rigid]);
        for other in &lines[rigid..i] {
            let denominator = det(line.direction, other.direction);
            let point = if denominator.abs() <= EPSILON {
                if line.direction.dot(other.direction) > 0.0 {
                    // Same direction: meeting this line meets the other.
                    continue;
                }
                (line.point + other.point) * 0.5
            } else {
                line.point + line.direction * (det(other.direction, line.point - other.point) / denominator)
            };
            projected.push(Line { point, direction: (other.direction - line.direction).normalized() });
        }
        // A failure here is rounding (the optimum is feasible by
        // construction): keep the previous answer, as RVO2 does.
        if let Ok(v) = program2(projected, radius, Goal::Direction(perp(line.direction))) {
            best = v;
        }
        distance = det(line.direction, line.point - best);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(px: f32, py: f32, dx: f32, dy: f32) -> Line {
        Line { point: Vec2::new(px, py), direction: Vec2::new(dx, dy).normalized() }
    }

    fn close(a: Vec2, b: Vec2) -> bool {
        a.distance(b) < 1e-5
    }

    #[test]
    fn no_lines_gives_preferred_within_the_disc() {
        let mut s = Vec::new();
        let v = solve(&[], 0, 2.0, Vec2::new(1.0, 0.5), &mut s).ok().unwrap();
        assert_eq!(v, Vec2::new(1.0, 0.5));
        let v = solve(&[], 0, 2.0, Vec2::new(4.0, 0.0), &mut s).ok().unwrap();
        assert!(close(v, Vec2::new(2.0, 0.0)));
    }

    #[test]
    fn one_line_projects_the_preferred_velocity() {
        // Permitted: left of +x through (0, 1), i.e. y ≥ 1.
        let l = line(0.0, 1.0, 1.0, 0.0);
        let mut s = Vec::new();
        let v = solve(&[l], 0, 5.0, Vec2::new(2.0, 0.0), &mut s).ok().unwrap();
        assert!(close(v, Vec2::new(2.0, 1.0)), "{v:?}");
        // Already permitted: unchanged.
        let v = solve(&[l], 0, 5.0, Vec2::new(2.0, 3.0), &mut s).ok().unwrap();
        assert_eq!(v, Vec2::new(2.0, 3.0));
    }

    #[test]
    fn conflicting_neighbour_lines_split_the_violation() {
        // y ≥ 1 and y ≤ −1 cannot both hold: the least violation is y = 0.
        let lines = [line(0.0, 1.0, 1.0, 0.0), line(0.0, -1.0, -1.0, 0.0)];
        let mut s = Vec::new();
        let v = solve(&lines, 0, 5.0, Vec2::new(0.0, 0.3), &mut s).ok().unwrap();
        assert!(v.y.abs() < 1e-5, "{v:?}");
    }

    /// Two nearly opposite neighbour lines meet thousands of units away;
    /// the 3-D program's answer must still be within the speed disc (RVO2's
    /// formula, in f32, gave a speed of 4.9 for a limit of 4 here, a case
    /// from `levels/crossing.txt`).
    #[test]
    fn far_away_intersections_keep_the_speed_limit() {
        let l = |px: f32, py: f32, dx: f32, dy: f32| Line { point: Vec2::new(px, py), direction: Vec2::new(dx, dy) };
        let lines = [
            l(2.2157598, -0.7138754, 0.080963135, 0.9967171),
            l(-3.9765148, -0.34996367, -0.9919004, -0.12701781),
            l(-3.2764034, -0.18853526, -0.029065398, 0.9995775),
            l(-3.2536497, 0.30715197, -0.5719486, 0.82028943),
            l(-4.137763, 1.4726641, -0.99639326, -0.08485551),
            l(-3.2284997, 0.083604455, -0.35727936, 0.9339976),
            l(-4.000573, -0.16209736, 0.9918975, 0.12704071),
        ];
        let mut s = Vec::new();
        let v = solve(&lines, 1, 4.0, Vec2::new(-2.7476454, 0.4345164), &mut s).ok().unwrap();
        assert!(v.length() <= 4.0 + 1e-3, "{v:?} is {} long", v.length());
    }

    #[test]
    fn rigid_conflict_is_reported() {
        let lines = [line(0.0, 1.0, 1.0, 0.0), line(0.0, -1.0, -1.0, 0.0)];
        let mut s = Vec::new();
        assert!(solve(&lines, 2, 5.0, Vec2::ZERO, &mut s).is_err());
        // Outside the speed disc: infeasible too.
        assert!(solve(&[line(0.0, 9.0, 1.0, 0.0)], 1, 5.0, Vec2::ZERO, &mut s).is_err());
    }
}
