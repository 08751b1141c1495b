//! String-pulling skips the waypoints it proves hidden instead of checking
//! them all; these check that it still answers exactly as the plain scan
//! does (the definition, kept in tests/support), waypoint for waypoint, on
//! random grids with paths from every search, on paths of any cells at all,
//! on the shipped levels, and on the serpentine mazes it was made fast for.

use crate::support::data;
use crate::support::maze;
use crate::support::string_pull_reference as reference;

use delve::grid::{Cell, DIRECTIONS, Grid, Neighbors, Tile};
use delve::search::{Fallback, GridPlanner, Planner, SearchSettings, string_pull};
use maze::serpentine;
use proptest::prelude::*;
use reference::string_pull_reference;

/// Both string-pullings of `path`, fast then reference.
fn both(grid: &Grid, path: &[Cell]) -> (Vec<Cell>, Vec<Cell>) {
    let (mut fast, mut plain) = (Vec::new(), Vec::new());
    string_pull(grid, path, &mut fast);
    string_pull_reference(grid, path, &mut plain);
    (fast, plain)
}

/// A grid of up to 40 × 40 whose cells are walls with the given odds,
/// else floor of cost 1–3.
fn grid() -> impl Strategy<Value = Grid> {
    (1usize..40, 1usize..40, 0.0f64..0.5).prop_flat_map(|(w, h, walls)| {
        proptest::collection::vec((0.0f64..1.0, 1u8..4), w * h).prop_map(move |cells| {
            let tiles: Vec<Tile> =
                cells.iter().map(|&(r, cost)| if r < walls { Tile::Wall } else { Tile::Floor(cost) }).collect();
            Grid::new(w, h, &tiles)
        })
    })
}

/// A cell of `grid`, from two fractions of its sides.
fn cell_at(grid: &Grid, (fx, fy): (f64, f64)) -> Cell {
    Cell::new((fx * grid.width() as f64) as i32, (fy * grid.height() as f64) as i32)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn same_waypoints_on_paths_from_the_search(
        grid in grid(),
        from in (0.0f64..1.0, 0.0f64..1.0),
        to in (0.0f64..1.0, 0.0f64..1.0),
        eight in any::<bool>(),
        algorithm in proptest::sample::select(&Planner::CYCLE[..8]),
    ) {
        let (from, to) = (cell_at(&grid, from), cell_at(&grid, to));
        let neighbors = if eight { Neighbors::Eight } else { Neighbors::Four };
        let settings = SearchSettings { planner: algorithm, neighbors, weight: 2.0, ..SearchSettings::default() };
        let mut planner = GridPlanner::new();
        if planner.plan_observed(&grid, from, to, &settings, Fallback::Grid, &mut ()).is_ok_and(|o| o.found) {
            let (fast, plain) = both(&grid, planner.path());
            prop_assert_eq!(fast, plain);
        }
    }

    /// Random walks loop back on themselves, so sight is lost and regained
    /// along them; they may cross walls too.
    #[test]
    fn same_waypoints_on_random_walks(grid in grid(), start in (0.0f64..1.0, 0.0f64..1.0), steps in proptest::collection::vec(0usize..8, 0..400)) {
        let mut path = vec![cell_at(&grid, start)];
        for d in steps {
            let (dx, dy) = DIRECTIONS[d];
            let c = *path.last().unwrap();
            let next = Cell::new(c.x + dx, c.y + dy);
            if grid.in_bounds(next) {
                path.push(next);
            }
        }
        let (fast, plain) = both(&grid, &path);
        prop_assert_eq!(fast, plain);
    }

    /// The definition holds for any list of cells, legal steps or not, on
    /// the map or off it.
    #[test]
    fn same_waypoints_on_any_cells(grid in grid(), path in proptest::collection::vec((-3i32..45, -3i32..45), 0..120)) {
        let path: Vec<Cell> = path.into_iter().map(|(x, y)| Cell::new(x, y)).collect();
        let (fast, plain) = both(&grid, &path);
        prop_assert_eq!(fast, plain);
    }
}

#[test]
fn same_waypoints_through_serpentine_mazes() {
    let mut planner = GridPlanner::new();
    for side in (1..=24).chain([63, 64, 128]) {
        let (grid, from, to) = serpentine(side);
        let outcome = planner.plan(&grid, from, to, &SearchSettings::default()).unwrap();
        assert!(outcome.found, "side {side}");
        let (fast, plain) = both(&grid, planner.path());
        assert_eq!(fast, plain, "side {side}");
        if side >= 4 {
            // Every turn of the maze keeps its corners: more than one
            // waypoint per corridor.
            assert!(fast.len() > side / 2, "side {side}: {} waypoints", fast.len());
        }
    }
}

#[test]
fn same_waypoints_on_the_shipped_levels() {
    let mut planner = GridPlanner::new();
    for (name, level) in data::shipped_levels() {
        let grid = &level.grid;
        let open: Vec<Cell> = grid.cells().filter(|&c| grid.is_walkable(c)).collect();
        // Queries between cells spread over the level by two strides.
        for k in 0..25 {
            let (from, to) = (open[k * 7_919 % open.len()], open[(k * 104_729 + open.len() / 2) % open.len()]);
            if planner.plan(grid, from, to, &SearchSettings::default()).is_ok_and(|o| o.found) {
                let (fast, plain) = both(grid, planner.path());
                assert_eq!(fast, plain, "{name}: {from} -> {to}");
            }
        }
    }
}
