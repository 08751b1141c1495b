//! What a monster standing in a cell sees, as the evading bot reckons it,
//! kept per cell while the grid stays as it is.
//!
//! Looking was the larger part of the bot's own code on a large map:
//! every cell within the detection radius of every monster, a line of
//! sight to each (on `big`, seed 3, the bot's code outside its searches
//! held 46 % of the run's samples, most of them here). A monster at its post, or
//! roaming round it, stands in the same few cells again and again, and
//! what it sees from one changes only when a door does.

use crate::grid::{Cell, Grid, line_of_sight};
use crate::search::NodeId;
use crate::steer::cell_center;
use std::collections::HashMap;

/// Cells whose view is kept at most: past it the views are forgotten and
/// looked at again (a view on a large open map is some thousands of
/// cells; a few hundred views are a few megabytes).
const MAX_VIEWS: usize = 512;

/// The views looked at since the grid or the radius last changed.
#[derive(Debug, Default)]
pub struct Views {
    /// The grid's identity and version, and the radius's bits, the views
    /// were looked at for.
    key: Option<(u64, u64, u32)>,
    /// By the eye's node: the nodes it sees.
    views: HashMap<NodeId, Vec<NodeId>>,
}

impl Views {
    /// The nodes an eye in `eye` sees: the cells walkable on `open` (the
    /// grid with its doors open: a closed door's cell is no place to
    /// stand) whose centres lie within `radius` of the eye's and in an
    /// exact line of sight on `grid` (closed doors block it), row by row.
    pub fn of(&mut self, grid: &Grid, open: &Grid, eye: Cell, radius: f32) -> &[NodeId] {
        let key = (grid.identity(), grid.version(), radius.to_bits());
        if self.key != Some(key) || self.views.len() >= MAX_VIEWS {
            self.key = Some(key);
            self.views.clear();
        }
        self.views.entry(grid.node(eye)).or_insert_with(|| look(grid, open, eye, radius))
    }
}

/// The nodes an eye in `eye` sees (see [`Views::of`]).
fn look(grid: &Grid, open: &Grid, eye: Cell, radius: f32) -> Vec<NodeId> {
    let centre = cell_center(eye);
    let r = radius.ceil() as i32;
    let square = (eye.y - r..=eye.y + r).flat_map(|y| (eye.x - r..=eye.x + r).map(move |x| Cell::new(x, y)));
    let seen = square
        .filter(|&c| open.is_walkable(c) && centre.distance(cell_center(c)) <= radius && line_of_sight(grid, eye, c));
    seen.map(|c| grid.node(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;
    use crate::level::Level;

    /// A view is the cells in sight within the radius, a closed door
    /// blocks it (the line to its own cell too), and a view looked at
    /// before a door changed is not kept after.
    #[test]
    fn a_view_is_what_is_in_sight_and_follows_the_doors() {
        let mut grid = Level::parse("name: v\n#########\n#...'...#\n#########\n", "v.txt").unwrap().grid;
        let door = Cell::new(4, 1);
        let mut views = Views::default();
        let cells = |g: &Grid, v: &[NodeId]| v.iter().map(|&n| g.cell_of(n).x).collect::<Vec<_>>();
        let open = grid.clone();
        let seen = views.of(&grid, &open, Cell::new(1, 1), 40.0).to_vec();
        assert_eq!(cells(&grid, &seen), [1, 2, 3, 4, 5, 6, 7]);
        let near = views.of(&grid, &open, Cell::new(1, 1), 2.0).to_vec();
        assert_eq!(cells(&grid, &near), [1, 2, 3], "within the radius only");
        grid.set_tile(door, Tile::DoorClosed);
        let seen = views.of(&grid, &open, Cell::new(1, 1), 40.0).to_vec();
        assert_eq!(cells(&grid, &seen), [1, 2, 3], "nothing at or behind the closed door is seen");
    }
}
