//! One walkable region: pockets of floor found, then joined or walled.
//!
//! Regions are 4-connected (orthogonal steps), the stricter rule: a
//! region joined that way can be walked with 4 neighbours, and with 8
//! neighbours without corner cutting too. Doors count as walkable.

use super::canvas::Canvas;
use crate::grid::Tile;

/// No region: the label of a wall.
const NONE: u32 = u32::MAX;

/// The 4-connected regions of walkable cells: each cell's region (or
/// [`NONE`]), and each region's size, regions numbered in row-major order
/// of their first cell.
pub(super) fn regions(canvas: &Canvas) -> (Vec<u32>, Vec<usize>) {
    let mut label = vec![NONE; canvas.tiles.len()];
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    for first in 0..canvas.tiles.len() {
        if label[first] != NONE || !canvas.walkable(first) {
            continue;
        }
        let id = sizes.len() as u32;
        label[first] = id;
        stack.push(first);
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            for j in canvas.around(i) {
                if label[j] == NONE && canvas.walkable(j) {
                    label[j] = id;
                    stack.push(j);
                }
            }
        }
        sizes.push(size);
    }
    (label, sizes)
}

/// The largest region's label (the first of the largest).
fn largest(sizes: &[usize]) -> Option<u32> {
    let best = sizes.iter().copied().max()?;
    sizes.iter().position(|&s| s == best).map(|i| i as u32)
}

/// Walls every walkable cell outside the largest region, so that what is
/// left is one region. Returns the cells walled.
pub(super) fn keep_largest(canvas: &mut Canvas) -> usize {
    let (label, sizes) = regions(canvas);
    let Some(main) = largest(&sizes) else { return 0 };
    let mut walled = 0;
    for (i, &l) in label.iter().enumerate() {
        if l != NONE && l != main {
            canvas.tiles[i] = Tile::Wall;
            canvas.room[i] = false;
            walled += 1;
        }
    }
    walled
}

/// Joins every region of at least `min_pocket` cells to the largest by a
/// tunnel (the shortest run of rock between them, found by one
/// breadth-first search through rock from the largest region), and fills
/// the smaller ones with rock. Returns (pockets joined, pockets filled).
pub(super) fn join_pockets(canvas: &mut Canvas, min_pocket: usize) -> (usize, usize) {
    let (label, sizes) = regions(canvas);
    let Some(main) = largest(&sizes) else { return (0, 0) };
    let mut filled = 0;
    for (i, &l) in label.iter().enumerate() {
        if l != NONE && l != main && sizes[l as usize] < min_pocket {
            canvas.tiles[i] = Tile::Wall;
        }
    }
    for (r, &size) in sizes.iter().enumerate() {
        filled += usize::from(r as u32 != main && size < min_pocket);
    }
    // Breadth-first from the main region through anything but the outer
    // ring: the first cell of each pocket reached is its nearest to the
    // main region, and the parents lead back there.
    let mut parent = vec![usize::MAX; canvas.tiles.len()];
    let mut queue = std::collections::VecDeque::new();
    for (i, &l) in label.iter().enumerate() {
        if l == main {
            parent[i] = i;
            queue.push_back(i);
        }
    }
    let mut joined_from = vec![usize::MAX; sizes.len()];
    while let Some(i) = queue.pop_front() {
        for j in canvas.around(i) {
            if parent[j] == usize::MAX && canvas.inside(j) {
                parent[j] = i;
                queue.push_back(j);
                let l = label[j];
                if l != NONE && l != main && canvas.walkable(j) && joined_from[l as usize] == usize::MAX {
                    joined_from[l as usize] = j;
                }
            }
        }
    }
    let mut joined = 0;
    for &start in joined_from.iter().filter(|&&s| s != usize::MAX) {
        let mut i = start;
        while parent[i] != i {
            if canvas.tiles[i] == Tile::Wall {
                canvas.tiles[i] = Tile::Floor(1);
            }
            i = parent[i];
        }
        joined += 1;
    }
    (joined, filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_orthogonal() {
        let c = Canvas::drawn(&["#####", "#.#.#", "##.##", "#####"]);
        let (_, sizes) = regions(&c);
        assert_eq!(sizes, [1, 1, 1], "diagonal neighbours are apart");
    }

    #[test]
    fn keep_largest_walls_the_rest() {
        let mut c = Canvas::drawn(&["########", "#...#..#", "#...#..#", "########"]);
        assert_eq!(keep_largest(&mut c), 4);
        assert_eq!(c.picture(), ["########", "#...####", "#...####", "########"]);
    }

    #[test]
    fn pockets_are_tunnelled_or_filled() {
        let mut c = Canvas::drawn(&[
            "############",
            "#....###..##",
            "#....###..##",
            "#....#######",
            "##########.#",
            "############",
        ]);
        assert_eq!(join_pockets(&mut c, 3), (1, 1));
        assert_eq!(
            c.picture(),
            ["############", "#.........##", "#....###..##", "#....#######", "############", "############",]
        );
        let (_, sizes) = regions(&c);
        assert_eq!(sizes.len(), 1);
    }
}
