//! String-pulling as the README defines it, written the plain way (it was
//! the library's until the scan learnt to skip hidden waypoints): from each
//! kept waypoint, check every later one from the far end and keep the first
//! in sight. Cubic in a maze's side; the reference the fast one must match
//! waypoint for waypoint (tests/smooth.rs) and the baseline it is timed
//! against (benches/smooth.rs).

use delve::grid::{Cell, Grid, line_of_sight};

pub fn string_pull_reference(grid: &Grid, path: &[Cell], out: &mut Vec<Cell>) {
    out.clear();
    let Some(&first) = path.first() else { return };
    out.push(first);
    let mut i = 0;
    while i + 1 < path.len() {
        let j = (i + 2..path.len()).rev().find(|&j| line_of_sight(grid, path[i], path[j])).unwrap_or(i + 1);
        out.push(path[j]);
        i = j;
    }
}
