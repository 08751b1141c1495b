//! Hard wall collision on random grids: whatever the forces and time steps,
//! a body never ends a step with its centre in a wall cell, and never turns
//! NaN. Wall avoidance stays finite and capped on the same grids.

use delve::grid::{Grid, Tile};
use delve::steer::*;
use proptest::prelude::*;

/// A random grid with at least one walkable cell, and a point inside a
/// walkable cell of it.
fn grid_and_start() -> impl Strategy<Value = (Grid, Vec2)> {
    (1usize..12, 1usize..12)
        .prop_flat_map(|(w, h)| {
            (
                Just(w),
                Just(h),
                prop::collection::vec(prop::bool::weighted(0.35), w * h),
                any::<prop::sample::Index>(),
                0.0f32..1.0,
                0.0f32..1.0,
            )
        })
        .prop_map(|(w, h, walls, pick, fx, fy)| {
            let mut tiles: Vec<Tile> =
                walls.iter().map(|&wall| if wall { Tile::Wall } else { Tile::Floor(1) }).collect();
            let open: Vec<usize> = (0..tiles.len()).filter(|&i| !walls[i]).collect();
            let start = if open.is_empty() {
                let i = pick.index(tiles.len());
                tiles[i] = Tile::Floor(1);
                i
            } else {
                open[pick.index(open.len())]
            };
            let (x, y) = ((start % w) as f32, (start / w) as f32);
            (Grid::new(w, h, &tiles), Vec2::new(x + fx, y + fy))
        })
}

fn force() -> impl Strategy<Value = Vec2> {
    let c = prop_oneof![Just(0.0f32), -10.0f32..10.0, -1e4f32..1e4];
    (c.clone(), c).prop_map(|(x, y)| Vec2::new(x, y))
}

fn dt() -> impl Strategy<Value = f32> {
    prop_oneof![Just(0.0f32), 0.0f32..0.5, 0.0f32..100.0, -1.0f32..0.0]
}

fn finite(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

proptest! {
    #[test]
    fn bodies_never_end_in_walls(
        (grid, start) in grid_and_start(),
        vel in force(),
        max_speed in prop_oneof![Just(0.0f32), 0.0f32..1e3],
        max_force in prop_oneof![Just(0.0f32), 0.0f32..1e4],
        feeler in prop_oneof![Just(0.0f32), 0.0f32..5.0],
        steps in prop::collection::vec((force(), dt()), 1..40),
    ) {
        let mut body = Body { pos: start, vel, max_speed, max_force };
        for (push, dt) in steps {
            let avoid = avoid_walls(&body, &grid, feeler);
            prop_assert!(finite(avoid) && avoid.length() <= max_force * (1.0 + 1e-5));
            move_body(&mut body, push + avoid, dt, &grid);
            prop_assert!(finite(body.pos) && finite(body.vel), "{body:?}");
            prop_assert!(grid.is_walkable(cell_at(body.pos)), "{body:?} in a wall");
        }
    }

    #[test]
    fn bodies_anywhere_are_pushed_out(
        (grid, _) in grid_and_start(),
        x in -20.0f32..30.0,
        y in -20.0f32..30.0,
        push in force(),
        dt in dt(),
    ) {
        let mut body = Body { pos: Vec2::new(x, y), vel: Vec2::ZERO, max_speed: 5.0, max_force: 5.0 };
        move_body(&mut body, push, dt, &grid);
        prop_assert!(finite(body.pos) && finite(body.vel));
        prop_assert!(grid.is_walkable(cell_at(body.pos)), "{body:?} in a wall");
    }
}

/// The Chebyshev distance from `cell` to the nearest wall cell (outside
/// the map is wall), capped at 4: the definition, by brute force.
fn distance_to_wall(grid: &Grid, cell: delve::grid::Cell) -> u8 {
    (0..4i32)
        .find(|&d| {
            (-d..=d).any(|dy| {
                (-d..=d).any(|dx| {
                    (dx.abs() == d || dy.abs() == d)
                        && !grid.is_walkable(delve::grid::Cell::new(cell.x + dx, cell.y + dy))
                })
            })
        })
        .map_or(4, |d| d as u8)
}

proptest! {
    /// The wall distance field is the brute-force distance, built or
    /// repaired after random changes; where it calls a body clear, the
    /// feelers find no wall, exactly.
    #[test]
    fn wall_distance_is_exact_and_clear_means_no_wall(
        (grid, start) in grid_and_start(),
        changes in prop::collection::vec((0usize..144, prop::bool::ANY), 0..12),
        vel in (-3.0f32..3.0, -3.0f32..3.0),
        feeler in 0.0f32..3.5,
    ) {
        let mut grid = grid;
        let mut field = WallDistance::build(&grid);
        let cells: Vec<_> = grid.cells().collect();
        let mut changed = Vec::new();
        for (i, wall) in changes {
            let c = cells[i % cells.len()];
            if grid.set_tile(c, if wall { Tile::Wall } else { Tile::Floor(1) }) {
                changed.push(c);
            }
        }
        field.repair(&grid, &changed);
        prop_assert_eq!(&field, &WallDistance::build(&grid));
        for &c in &cells {
            prop_assert_eq!(field.cells_to_wall(c), distance_to_wall(&grid, c), "{}", c);
        }
        let body = Body { pos: start, vel: Vec2::new(vel.0, vel.1), max_speed: 4.0, max_force: 8.0 };
        let near = avoid_walls_near(&body, &grid, &field, feeler);
        prop_assert_eq!(near, avoid_walls(&body, &grid, feeler));
        if field.is_clear(body.pos, feeler) {
            prop_assert_eq!(near, Vec2::ZERO);
        }
    }
}
