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
    pull(portals, &mut ())
}

/// One step of the funnel, as [`string_pull_traced`] records it: the
/// funnel after `portal` was looked at (narrowing a side, or turning a
/// corner and restarting from the new apex).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FunnelStep {
    /// The portal just looked at (index into the portals given).
    pub portal: usize,
    /// The funnel's apex: the last corner of the path so far.
    pub apex: Vec2,
    /// The end of its left side.
    pub left: Vec2,
    /// The end of its right side.
    pub right: Vec2,
    /// How many points of the path are emitted at this step (the first
    /// `emitted` of the final path).
    pub emitted: usize,
}

/// [`string_pull`] with a record of every step, for a picture of the
/// funnel at work (the lab). The path is the same as `string_pull`'s; the
/// last step has the whole path emitted.
pub fn string_pull_traced(portals: &[(Vec2, Vec2)]) -> (Vec<Vec2>, Vec<FunnelStep>) {
    let mut steps = Vec::new();
    let path = pull(portals, &mut steps);
    (path, steps)
}

/// Who watches the funnel: nobody (`()`, which compiles to nothing, so
/// [`string_pull`] pays nothing for the trace), or a record of its steps.
trait Watch {
    fn step(&mut self, step: FunnelStep);
}

impl Watch for () {
    #[inline(always)]
    fn step(&mut self, _: FunnelStep) {}
}

impl Watch for Vec<FunnelStep> {
    fn step(&mut self, step: FunnelStep) {
        self.push(step);
    }
}

/// The funnel, telling `watch` each step.
fn pull<W: Watch>(portals: &[(Vec2, Vec2)], watch: &mut W) -> Vec<Vec2> {
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
                watch.step(FunnelStep { portal: i, apex, left, right, emitted: path.len() });
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
                watch.step(FunnelStep { portal: i, apex, left, right, emitted: path.len() });
                i = right_at + 1;
                continue;
            }
        }
        watch.step(FunnelStep { portal: i, apex, left, right, emitted: path.len() });
        i += 1;
    }
    if let Some(&(goal, _)) = portals.last() {
        push_distinct(&mut path, goal);
        watch.step(FunnelStep { portal: portals.len() - 1, apex: goal, left: goal, right: goal, emitted: path.len() });
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
        let (traced, steps) = string_pull_traced(&portals);
        assert_eq!(traced, string_pull(&portals));
        // The corner (2, 2) is emitted when the left end of the portal at
        // y=4 crosses the right side, and the scan restarts from the apex there.
        let turn = steps.iter().find(|s| s.emitted == 2).unwrap();
        assert_eq!((turn.portal, turn.apex, turn.left, turn.right), (4, v(2.0, 2.0), v(2.0, 2.0), v(2.0, 2.0)));
        assert!(steps.iter().take_while(|s| s.portal < 4).all(|s| s.emitted == 1 && s.apex == v(0.5, 1.0)));
        assert_eq!(steps.last().unwrap().emitted, 3);
    }

    /// A random corridor running east: vertical portals at x = 1, 2, ...,
    /// each (top, bottom) overlapping nothing in particular (consecutive
    /// portals bound a trapezoid, always convex).
    fn random_corridor(seed: u64) -> Vec<(Vec2, Vec2)> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let n = rng.random_range(0..12);
        let inner: Vec<_> = (1..=n)
            .map(|x| {
                let top = rng.random_range(0..8) as f64;
                let bottom = top + rng.random_range(0..4) as f64;
                (v(f64::from(x), top), v(f64::from(x), bottom))
            })
            .collect();
        let (ys, yg) = (rng.random_range(0..10) as f64 + 0.5, rng.random_range(0..10) as f64 + 0.5);
        with_ends(v(0.5, ys), v(f64::from(n) + 0.5, yg), &inner)
    }

    #[test]
    fn the_trace_ends_on_the_path_of_string_pull() {
        for seed in 0..500 {
            let portals = random_corridor(seed);
            let (traced, steps) = string_pull_traced(&portals);
            let path = string_pull(&portals);
            assert_eq!(traced, path, "seed {seed}");
            let last = steps.last().unwrap();
            assert_eq!((last.emitted, last.portal), (path.len(), portals.len() - 1), "seed {seed}");
            // The apex of every step is a point already emitted, and the
            // count never runs back.
            for w in steps.windows(2) {
                assert!(w[0].emitted <= w[1].emitted, "seed {seed}");
            }
            for s in &steps {
                assert_eq!(s.apex, path[s.emitted.max(1) - 1], "seed {seed}: {s:?}");
            }
        }
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
