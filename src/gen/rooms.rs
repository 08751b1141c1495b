//! `rooms`: rooms and corridors by binary space partition.
//!
//! The map inside its outer wall is cut in two, across its longer side at
//! a random place, and each half again, until the pieces (leaves) are at
//! most [`MAX_LEAF`] (and no cut could leave a piece below [`MIN_LEAF`]).
//! Each leaf gets one rectangular room with at least a cell of rock round
//! it, so no two rooms touch. Going back up the tree, the two halves of
//! every cut are joined by an L-shaped corridor from a random cell of a
//! room on one side to one on the other: the rooms form a tree, which the
//! shared loops step then closes into circuits, and the shared doors step
//! puts a door where a corridor enters a room.

use super::canvas::Canvas;
use super::dice::Dice;
use crate::grid::Tile;

/// The smallest leaf a cut may leave: room, rock round it, and a corridor.
const MIN_LEAF: (usize, usize) = (8, 6);
/// A leaf larger than this along either side is cut again (when it can be).
const MAX_LEAF: (usize, usize) = (14, 10);

/// A rectangle of cells: column, row, width, height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x: usize,
    y: usize,
    w: usize,
    h: usize,
}

/// Carves the rooms and corridors.
pub(super) fn carve(canvas: &mut Canvas, dice: &mut Dice) {
    let whole = Rect { x: 1, y: 1, w: canvas.width - 2, h: canvas.height - 2 };
    let mut rooms = Vec::new();
    split(canvas, dice, whole, &mut rooms);
}

/// Partitions `leaf`, carves a room in each piece and joins the halves of
/// every cut; the rooms carved are appended to `rooms`. Returns the range
/// of `rooms` this piece holds.
fn split(canvas: &mut Canvas, dice: &mut Dice, r: Rect, rooms: &mut Vec<Rect>) -> std::ops::Range<usize> {
    let across = r.w >= 2 * MIN_LEAF.0;
    let down = r.h >= 2 * MIN_LEAF.1;
    if (r.w > MAX_LEAF.0 || r.h > MAX_LEAF.1) && (across || down) {
        // Cut the side that is longer for its minimum.
        let vertical = if across && down { r.w * MIN_LEAF.1 >= r.h * MIN_LEAF.0 } else { across };
        let (a, b) = if vertical {
            let cut = dice.between(MIN_LEAF.0, r.w - MIN_LEAF.0);
            (Rect { w: cut, ..r }, Rect { x: r.x + cut, w: r.w - cut, ..r })
        } else {
            let cut = dice.between(MIN_LEAF.1, r.h - MIN_LEAF.1);
            (Rect { h: cut, ..r }, Rect { y: r.y + cut, h: r.h - cut, ..r })
        };
        let first = split(canvas, dice, a, rooms);
        let second = split(canvas, dice, b, rooms);
        let from = rooms[dice.between(first.start, first.end - 1)];
        let to = rooms[dice.between(second.start, second.end - 1)];
        corridor(canvas, dice, from, to);
        return first.start..second.end;
    }
    let w = dice.between(4.min(r.w - 2), r.w - 2);
    let h = dice.between(3.min(r.h - 2), r.h - 2);
    let room = Rect { x: r.x + 1 + dice.below(r.w - 1 - w), y: r.y + 1 + dice.below(r.h - 1 - h), w, h };
    for y in room.y..room.y + room.h {
        for x in room.x..room.x + room.w {
            let i = canvas.at(x, y);
            canvas.carve(i, Tile::Floor(1));
            canvas.room[i] = true;
        }
    }
    rooms.push(room);
    rooms.len() - 1..rooms.len()
}

/// An L-shaped corridor from a random cell of `a` to one of `b`, along a
/// row first or a column first.
fn corridor(canvas: &mut Canvas, dice: &mut Dice, a: Rect, b: Rect) {
    let (x0, y0) = (a.x + dice.below(a.w), a.y + dice.below(a.h));
    let (x1, y1) = (b.x + dice.below(b.w), b.y + dice.below(b.h));
    let corner = if dice.chance(50) { (x1, y0) } else { (x0, y1) };
    for (from, to) in [((x0, y0), corner), (corner, (x1, y1))] {
        for y in from.1.min(to.1)..=from.1.max(to.1) {
            for x in from.0.min(to.0)..=from.0.max(to.0) {
                let i = canvas.at(x, y);
                canvas.carve(i, Tile::Floor(1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::r#gen::connect::regions;
    use crate::r#gen::{Recipe, Size, Style, dice};

    fn carved(seed: u64, size: Size) -> (Canvas, Vec<Rect>) {
        let r = Recipe::new(Style::Rooms, seed, 1, Some(size)).unwrap();
        let mut c = Canvas::new(size);
        let mut rooms = Vec::new();
        let whole = Rect { x: 1, y: 1, w: size.width - 2, h: size.height - 2 };
        split(&mut c, &mut dice::stream(&r, dice::Purpose::Carve), whole, &mut rooms);
        (c, rooms)
    }

    #[test]
    fn rooms_fit_their_leaves_never_touch_and_are_joined() {
        for seed in 0..20 {
            let (c, rooms) = carved(seed, Size { width: 80, height: 40 });
            assert!(rooms.len() >= 12, "seed {seed}: {} rooms", rooms.len());
            for (k, a) in rooms.iter().enumerate() {
                assert!(a.w >= 4 && a.h >= 3 && a.w <= MAX_LEAF.0 && a.h <= MAX_LEAF.1, "{a:?}");
                for b in &rooms[k + 1..] {
                    let apart = a.x + a.w < b.x || b.x + b.w < a.x || a.y + a.h < b.y || b.y + b.h < a.y;
                    assert!(apart, "seed {seed}: {a:?} touches {b:?}");
                }
            }
            assert_eq!(regions(&c).1.len(), 1, "seed {seed}: one region");
            let room_cells: usize = rooms.iter().map(|r| r.w * r.h).sum();
            assert_eq!(c.room.iter().filter(|&&r| r).count(), room_cells);
        }
    }

    #[test]
    fn the_smallest_map_has_two_rooms() {
        for seed in 0..20 {
            let (c, rooms) = carved(seed, Style::Rooms.min_size());
            assert!(rooms.len() >= 2, "seed {seed}");
            assert_eq!(regions(&c).1.len(), 1);
        }
    }
}
