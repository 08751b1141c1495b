//! The spatial hash answers exactly like the brute-force neighbour list (the
//! same ids, in the hash's slot order), and Flocker's forces equal per-body
//! flocking over the brute-force neighbours taken in that order, one sum
//! per lane of the hash's blocks.

use delve::steer::*;
use proptest::prelude::*;

/// Coordinates in a small area (so neighbours are common), often integers
/// (so points sit exactly on bin boundaries), sometimes repeated.
fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![-20.0f32..20.0, (-6i32..6).prop_map(|i| i as f32), Just(0.5f32)]
}

fn point() -> impl Strategy<Value = Vec2> {
    (coord(), coord()).prop_map(|(x, y)| Vec2::new(x, y))
}

/// Any finite coordinate, of any magnitude.
fn wild() -> impl Strategy<Value = Vec2> {
    let c = prop::num::f32::NORMAL | prop::num::f32::SUBNORMAL | prop::num::f32::ZERO;
    (c, c).prop_map(|(x, y)| Vec2::new(x, y))
}

fn radius() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.0f32), 0.0f32..8.0, (0u8..6).prop_map(f32::from)]
}

fn cell_size() -> impl Strategy<Value = f32> {
    prop_oneof![0.05f32..10.0, (1u8..5).prop_map(f32::from)]
}

fn check(points: &[Vec2], queries: &[Vec2], cell: f32, r: f32) -> Result<(), TestCaseError> {
    let mut hash = SpatialHash::new(cell);
    hash.rebuild(points.iter().copied());
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    for &q in queries.iter().chain(points) {
        hash.query(q, r, &mut fast);
        neighbors_brute_force(points, q, r, &mut slow);
        let slot = |id: u32| hash.slots()[id as usize];
        prop_assert!(fast.windows(2).all(|w| slot(w[0]) < slot(w[1])), "slot order: {:?}", fast);
        fast.sort_unstable();
        prop_assert_eq!(&fast, &slow, "query {:?} radius {}", q, r);
    }
    Ok(())
}

proptest! {
    #[test]
    fn hash_equals_brute_force(
        points in prop::collection::vec(point(), 0..120),
        queries in prop::collection::vec(point(), 0..20),
        cell in cell_size(),
        r in radius(),
    ) {
        check(&points, &queries, cell, r)?;
    }

    #[test]
    fn hash_equals_brute_force_at_any_scale(
        points in prop::collection::vec(prop_oneof![wild(), point()], 0..60),
        queries in prop::collection::vec(wild(), 0..10),
        cell in prop_oneof![cell_size(), prop::num::f32::POSITIVE.prop_filter("finite", |c| c.is_finite())],
        r in prop_oneof![radius(), prop::num::f32::POSITIVE],
    ) {
        check(&points, &queries, cell, r)?;
    }

    #[test]
    fn flocker_equals_brute_force_flocking(
        states in prop::collection::vec((point(), point()), 0..80),
        neighbor_radius in 0.1f32..6.0,
        separation_radius in 0.0f32..3.0,
        w in (0.0f32..3.0, 0.0f32..3.0, 0.0f32..3.0),
    ) {
        let bodies: Vec<Body> = states
            .iter()
            .map(|&(pos, vel)| Body { pos, vel: vel * 0.1, max_speed: 2.0, max_force: 3.0 })
            .collect();
        let weights = FlockWeights { separation: w.0, alignment: w.1, cohesion: w.2 };
        let mut flocker = Flocker::new(neighbor_radius, separation_radius, weights);
        let forces = flocker.forces(&bodies).to_vec();
        let positions: Vec<Vec2> = bodies.iter().map(|b| b.pos).collect();
        // The order the flocker sums in: one sum per lane of the blocks of
        // a hash of the same cell size (half the radius) over the same
        // positions, each lane in slot order, then the lanes in lane order.
        let mut hash = SpatialHash::new(neighbor_radius * 0.5);
        hash.rebuild(positions.iter().copied());
        let mut ids = Vec::new();
        let lane = |hash: &SpatialHash, me: &Body, slot| {
            hash.lane_in(me.pos, neighbor_radius, slot).expect("a neighbour is in one of the query's runs")
        };
        for (i, me) in bodies.iter().enumerate() {
            neighbors_brute_force(&positions, me.pos, neighbor_radius, &mut ids);
            ids.retain(|&j| j as usize != i);
            ids.sort_by_key(|&j| hash.slots()[j as usize]);
            let neighbors: Vec<(usize, Body)> =
                ids.iter().map(|&j| (lane(&hash, me, hash.slots()[j as usize] as usize), bodies[j as usize])).collect();
            let sums = FlockSums::by_lanes(me, &neighbors, separation_radius);
            prop_assert_eq!(forces[i], sums.force(me, weights));
        }
    }
}
