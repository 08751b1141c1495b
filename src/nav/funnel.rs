//! The simple stupid funnel algorithm (Mononen, "Simple Stupid Funnel
//! Algorithm", Digesting Duck, 2010): the shortest path through a sequence
//! of portals.
//!
//! A funnel is an apex and two rays through the left and right ends of the
//! portals seen so far. Each portal narrows it; when one side would cross
//! the other, the crossed side's end is a corner of the path: it becomes the
//! new apex and the scan restarts from the portal after it. Restarting
//! makes the worst case quadratic in the portal count, and linear on the
//! corridors a mesh gives (few restarts, short rescans), which is why
//! Recast/Detour ships it rather than the deque version (Lee and Preparata).

use super::Vec2;

/// Twice the signed area of the triangle (a, b, c): in screen coordinates
/// (y down) it is positive when c lies to the *right* of the ray a→b as one
/// walks along it, negative to its left. (Mononen's `triarea2` is its
/// negative: Recast's ground plane is seen from below.)
fn area2(a: Vec2, b: Vec2, c: Vec2) -> f64 {
    (b - a).cross(c - a)
}

/// The shortest path through `portals`: the first is `(start, start)`, the
/// last `(goal, goal)`, and each in between is a segment `(left, right)`
/// as seen walking through it, in screen coordinates (y grows downward).
/// The path starts at the start, ends at the goal, and bends only at portal
/// ends; consecutive duplicate points are dropped. Empty input gives an
/// empty path.
///
/// The portals must form a corridor (consecutive portals bound one convex
/// polygon); the path then stays inside it.
pub fn string_pull(portals: &[(Vec2, Vec2)]) -> Vec<Vec2> {
    let mut path = Vec::new();
    let Some(&(start, start_right)) = portals.first() else { return path };
    path.push(start);
    let (mut apex, mut left, mut right) = (start, start, start_right);
    let (mut left_at, mut right_at) = (0, 0);
    let mut i = 1;
    while i < portals.len() {
        let (l, r) = portals[i];
        // The right side: narrow it, or, when it crosses the left one, the
        // left end is a corner.
        if area2(apex, right, r) <= 0.0 {
            if apex == right || area2(apex, left, r) > 0.0 {
                (right, right_at) = (r, i);
            } else {
                push_distinct(&mut path, left);
                (apex, right, right_at) = (left, left, left_at);
                i = left_at + 1;
                continue;
            }
        }
        // The left side, the mirror image.
        if area2(apex, left, l) >= 0.0 {
            if apex == left || area2(apex, right, l) < 0.0 {
                (left, left_at) = (l, i);
            } else {
                push_distinct(&mut path, right);
                (apex, left, left_at) = (right, right, right_at);
                i = right_at + 1;
                continue;
            }
        }
        i += 1;
    }
    if let Some(&(goal, _)) = portals.last() {
        push_distinct(&mut path, goal);
    }
    path
}

fn push_distinct(path: &mut Vec<Vec2>, p: Vec2) {
    if path.last() != Some(&p) {
        path.push(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> Vec2 {
        Vec2::new(x, y)
    }

    fn with_ends(start: Vec2, goal: Vec2, inner: &[(Vec2, Vec2)]) -> Vec<(Vec2, Vec2)> {
        let mut p = vec![(start, start)];
        p.extend_from_slice(inner);
        p.push((goal, goal));
        p
    }

    #[test]
    fn l_shaped_corridor_of_the_issue() {
        let portals = with_ends(
            v(0.5, 1.0),
            v(3.0, 5.5),
            &[
                (v(1.0, 0.0), v(1.0, 2.0)),
                (v(2.0, 0.0), v(2.0, 2.0)),
                (v(4.0, 3.0), v(2.0, 3.0)),
                (v(4.0, 4.0), v(2.0, 4.0)),
            ],
        );
        assert_eq!(string_pull(&portals), vec![v(0.5, 1.0), v(2.0, 2.0), v(3.0, 5.5)]);
    }

    #[test]
    fn mirrored_l_bends_at_the_left_end() {
        // The same corridor reflected top to bottom: walking east the left
        // side is now the inner corner.
        let portals = with_ends(
            v(0.5, 5.0),
            v(3.0, 0.5),
            &[
                (v(1.0, 4.0), v(1.0, 6.0)),
                (v(2.0, 4.0), v(2.0, 6.0)),
                (v(2.0, 3.0), v(4.0, 3.0)),
                (v(2.0, 2.0), v(4.0, 2.0)),
            ],
        );
        assert_eq!(string_pull(&portals), vec![v(0.5, 5.0), v(2.0, 4.0), v(3.0, 0.5)]);
    }

    #[test]
    fn straight_corridor_is_one_segment() {
        let inner: Vec<_> = (1..10).map(|x| (v(f64::from(x), 0.0), v(f64::from(x), 2.0))).collect();
        assert_eq!(string_pull(&with_ends(v(0.5, 1.0), v(9.5, 1.5), &inner)), vec![v(0.5, 1.0), v(9.5, 1.5)]);
    }

    #[test]
    fn zigzag_bends_at_each_inner_corner() {
        // Openings alternate between the top and the bottom of a corridor
        // running east: walls hang from y=0 down to y=2 at x=2 (opening
        // below) and rise from y=3 up to y=1 at x=4 (opening above).
        let inner = [(v(2.0, 2.0), v(2.0, 3.0)), (v(4.0, 0.0), v(4.0, 1.0))];
        let path = string_pull(&with_ends(v(0.5, 0.5), v(5.5, 2.5), &inner));
        assert_eq!(path, vec![v(0.5, 0.5), v(2.0, 2.0), v(4.0, 1.0), v(5.5, 2.5)]);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(string_pull(&[]).is_empty());
        let s = v(1.0, 1.0);
        assert_eq!(string_pull(&[(s, s)]), vec![s]);
        assert_eq!(string_pull(&[(s, s), (s, s)]), vec![s]);
        // A portal of zero width is a point the path must pass through.
        let pinch = v(3.0, 5.0);
        assert_eq!(string_pull(&with_ends(s, v(5.0, 1.0), &[(pinch, pinch)])), vec![s, pinch, v(5.0, 1.0)]);
    }

    #[test]
    fn corner_shared_by_consecutive_portals_is_kept_once() {
        // Around the outside of a wall corner at (2,2): three portals all
        // end there, as the rectangles of a mesh meet at a corner.
        let c = v(2.0, 2.0);
        let inner = [(v(2.0, 0.0), c), (v(4.0, 2.0), c), (v(4.0, 3.0), v(2.0, 3.0))];
        let path = string_pull(&with_ends(v(0.5, 1.0), v(3.0, 5.5), &inner));
        assert_eq!(path, vec![v(0.5, 1.0), c, v(3.0, 5.5)]);
    }
}
