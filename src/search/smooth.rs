//! String-pulling: straightening a cell path into the few waypoints a
//! creature actually needs to walk through.

use crate::grid::{Cell, Grid, line_of_sight};

/// Replaces `out` with the string-pulled version of `path`: from each kept
/// waypoint, jump to the farthest later waypoint still in exact line of
/// sight ([`line_of_sight`]). The result starts and ends where `path` does,
/// and consecutive waypoints always see each other.
///
/// Scanning from the far end finds the farthest visible waypoint even when
/// sight is lost and regained along the way (a path bending around a
/// pillar); sight checks stop at the first wall, so the scan stays cheap.
pub fn string_pull(grid: &Grid, path: &[Cell], out: &mut Vec<Cell>) {
    out.clear();
    let Some(&first) = path.first() else { return };
    out.push(first);
    let mut i = 0;
    while i + 1 < path.len() {
        // path[i + 1] is adjacent to path[i] on any valid path, hence in
        // sight; the scan always finds at least it.
        let j = (i + 2..path.len()).rev().find(|&j| line_of_sight(grid, path[i], path[j])).unwrap_or(i + 1);
        out.push(path[j]);
        i = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    fn cells(v: &[(i32, i32)]) -> Vec<Cell> {
        v.iter().map(|&(x, y)| Cell::new(x, y)).collect()
    }

    #[test]
    fn open_field_becomes_one_segment() {
        let g = Grid::filled(6, 3, Tile::Floor(1));
        let mut out = Vec::new();
        string_pull(&g, &cells(&[(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2)]), &mut out);
        assert_eq!(out, cells(&[(0, 0), (5, 2)]));
    }

    #[test]
    fn keeps_the_corners_around_a_wall() {
        // Walls at (1,0) and (1,1); the path walks around them.
        let mut g = Grid::filled(3, 3, Tile::Floor(1));
        g.set_tile(Cell::new(1, 0), Tile::Wall);
        g.set_tile(Cell::new(1, 1), Tile::Wall);
        let path = cells(&[(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)]);
        let mut out = Vec::new();
        string_pull(&g, &path, &mut out);
        assert_eq!(out, cells(&[(0, 0), (0, 2), (2, 2), (2, 0)]));
    }

    #[test]
    fn jumps_to_a_waypoint_seen_again_after_losing_sight() {
        // A loop around the wall at (1,1) that comes back beside its start:
        // (0,0) is the last waypoint seen before sight is lost, but (0,2),
        // the end, is in sight again; the farthest one wins.
        let mut g = Grid::filled(3, 3, Tile::Floor(1));
        g.set_tile(Cell::new(1, 1), Tile::Wall);
        let path = cells(&[(0, 1), (0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]);
        let mut out = Vec::new();
        string_pull(&g, &path, &mut out);
        assert_eq!(out, cells(&[(0, 1), (0, 2)]));
    }

    #[test]
    fn empty_and_single() {
        let g = Grid::filled(2, 2, Tile::Floor(1));
        let mut out = vec![Cell::new(9, 9)];
        string_pull(&g, &[], &mut out);
        assert!(out.is_empty());
        string_pull(&g, &cells(&[(1, 1)]), &mut out);
        assert_eq!(out, cells(&[(1, 1)]));
    }
}
