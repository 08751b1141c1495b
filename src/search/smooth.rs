//! String-pulling: straightening a cell path into the few waypoints a
//! creature actually needs to walk through.
//!
//! The definition is short (see [`string_pull`]); meeting it fast is not,
//! because sight along a path is not monotone: a waypoint lost behind a
//! pillar comes back into view, so the farthest visible one cannot be found
//! by bisection, and the plain scan from the far end checks every later
//! waypoint from every kept one (cubic in a maze's side). This scan still
//! goes from the far end but skips what it can *prove* hidden:
//!
//! - When a sight check fails, the first blocking cell is widened to the
//!   whole run of wall through it, along its row and along its column. A
//!   closed box of walls hides every point whose segment from the viewer
//!   meets the box (its *shadow*): such a segment touches a wall cell, so
//!   the exact check, which visits every cell the segment touches, corners
//!   included, fails too.
//! - A shadow is convex, so a rectangle lies in it when its four corners
//!   do. The path is summarised by the bounding boxes of aligned blocks of
//!   8, 64, 512, ... waypoints, and a block whose box lies in a known
//!   shadow is skipped whole.
//!
//! Only waypoints proven hidden are skipped and every other one gets the
//! exact check, so the result is the definition's, waypoint for waypoint
//! (tests/smooth.rs holds the plain scan and compares the two). In a maze
//! the wall beside the viewer hides most of the rest of the path in one
//! box, so the work grows about linearly with the path instead.

use crate::grid::{Cell, Grid, first_blocked};

/// Replaces `out` with the string-pulled version of `path`: from each kept
/// waypoint, jump to the farthest later waypoint still in exact line of
/// sight ([`line_of_sight`](crate::grid::line_of_sight)), or to the next
/// one when none beyond it is. The result starts and ends where `path`
/// does, and on a path of legal steps consecutive waypoints always see each
/// other.
pub fn string_pull(grid: &Grid, path: &[Cell], out: &mut Vec<Cell>) {
    out.clear();
    let Some(&first) = path.first() else { return };
    out.push(first);
    let blocks = Blocks::new(path);
    let mut i = 0;
    while i + 1 < path.len() {
        i = farthest_in_sight(grid, &blocks, i);
        out.push(path[i]);
    }
}

/// The farthest waypoint after `i + 1` in sight of waypoint `i`, else
/// `i + 1` (adjacent to it on a path of legal steps, so in sight).
fn farthest_in_sight(grid: &Grid, blocks: &Blocks, i: usize) -> usize {
    let path = blocks.path;
    let eye = path[i];
    let mut shadows = Shadows::new(eye);
    let mut j = path.len() - 1;
    while j >= i + 2 {
        let hidden = blocks.hidden_down_from(j + 1, |r| shadows.hide(r));
        if hidden <= j {
            if hidden < i + 2 {
                break;
            }
            j = hidden - 1;
            continue;
        }
        match first_blocked(grid, eye, path[j]) {
            None => return j,
            Some(wall) => {
                shadows.add(wall_run(grid, wall, (1, 0)));
                shadows.add(wall_run(grid, wall, (0, 1)));
                j -= 1;
            }
        }
    }
    i + 1
}

/// A closed axis-aligned rectangle in doubled coordinates, where a cell's
/// centre is (2x + 1, 2y + 1) and its square spans [2x, 2x + 2]: every
/// centre and corner is then an integer and every test exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl Rect {
    /// The centre of `c`, as a rectangle of one point.
    fn centre(c: Cell) -> Rect {
        let (x, y) = (2 * i64::from(c.x) + 1, 2 * i64::from(c.y) + 1);
        Rect { x0: x, y0: y, x1: x, y1: y }
    }

    /// The squares of the cells from `lo` to `hi` (corners), closed.
    fn cells(lo: Cell, hi: Cell) -> Rect {
        let (x0, y0) = (2 * i64::from(lo.x), 2 * i64::from(lo.y));
        let (x1, y1) = (2 * i64::from(hi.x) + 2, 2 * i64::from(hi.y) + 2);
        Rect { x0, y0, x1, y1 }
    }

    fn union(self, o: Rect) -> Rect {
        Rect { x0: self.x0.min(o.x0), y0: self.y0.min(o.y0), x1: self.x1.max(o.x1), y1: self.y1.max(o.y1) }
    }

    fn corners(&self) -> [(i64, i64); 4] {
        [(self.x0, self.y0), (self.x1, self.y0), (self.x0, self.y1), (self.x1, self.y1)]
    }

    fn is_point(&self) -> bool {
        self.x0 == self.x1 && self.y0 == self.y1
    }
}

/// Whether the closed segment from `p` to `q` meets the closed rectangle
/// `r`: their extents overlap on both axes and the corners of `r` are not
/// all strictly on one side of the segment's line (the separating-axis
/// test; products in `i128`, so exact for any `i32` cells).
fn segment_meets(p: (i64, i64), q: (i64, i64), r: &Rect) -> bool {
    if p.0.max(q.0) < r.x0 || p.0.min(q.0) > r.x1 || p.1.max(q.1) < r.y0 || p.1.min(q.1) > r.y1 {
        return false;
    }
    let (dx, dy) = (i128::from(q.0 - p.0), i128::from(q.1 - p.1));
    let side = |(x, y): (i64, i64)| (dx * i128::from(y - p.1) - dy * i128::from(x - p.0)).signum();
    let sides = r.corners().map(side);
    !(sides.iter().all(|&s| s > 0) || sides.iter().all(|&s| s < 0))
}

/// How many wall boxes one viewer remembers (the oldest is forgotten
/// first): enough for the walls around it, few enough to test them all.
const SHADOWS: usize = 8;

/// Boxes of blocking cells found from one viewer.
struct Shadows {
    eye: (i64, i64),
    walls: [Rect; SHADOWS],
    len: usize,
    next: usize,
}

impl Shadows {
    fn new(eye: Cell) -> Shadows {
        let e = Rect::centre(eye);
        Shadows { eye: (e.x0, e.y0), walls: [e; SHADOWS], len: 0, next: 0 }
    }

    fn add(&mut self, wall: Rect) {
        if !self.walls[..self.len].contains(&wall) {
            self.walls[self.next] = wall;
            self.next = (self.next + 1) % SHADOWS;
            self.len = (self.len + 1).min(SHADOWS);
        }
    }

    /// Whether all of `r` lies in the shadow of one remembered box: then
    /// no cell centre in `r` is in sight of the viewer.
    fn hide(&self, r: &Rect) -> bool {
        let corners = if r.is_point() { &r.corners()[..1] } else { &r.corners()[..] };
        self.walls[..self.len].iter().any(|w| corners.iter().all(|&c| segment_meets(self.eye, c, w)))
    }
}

/// The straight run of blocking cells through the blocking cell `wall`
/// along `(dx, dy)`, kept within the map's one-cell border (beyond it all
/// is wall, and no path goes there).
fn wall_run(grid: &Grid, wall: Cell, (dx, dy): (i32, i32)) -> Rect {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let inside = |c: Cell| (-1..=w).contains(&c.x) && (-1..=h).contains(&c.y);
    let blocked = |c: Cell| inside(c) && !grid.is_walkable(c);
    let (mut lo, mut hi) = (wall, wall);
    while inside(lo) && blocked(Cell::new(lo.x - dx, lo.y - dy)) {
        lo = Cell::new(lo.x - dx, lo.y - dy);
    }
    while inside(hi) && blocked(Cell::new(hi.x + dx, hi.y + dy)) {
        hi = Cell::new(hi.x + dx, hi.y + dy);
    }
    Rect::cells(lo, hi)
}

/// Waypoints per block, and blocks per block of the next level.
const FANOUT: usize = 8;

/// The path with the bounding boxes of its waypoint centres in aligned
/// blocks of `FANOUT`, `FANOUT²`, ... waypoints.
struct Blocks<'a> {
    path: &'a [Cell],
    /// Level 1's boxes, then level 2's, ...
    boxes: Vec<Rect>,
    /// Where each level's boxes start in `boxes`, then where the last ends.
    starts: Vec<usize>,
}

impl<'a> Blocks<'a> {
    fn new(path: &'a [Cell]) -> Blocks<'a> {
        let bound = |rects: &mut dyn Iterator<Item = Rect>| rects.reduce(Rect::union).expect("a block is never empty");
        let mut boxes: Vec<Rect> =
            path.chunks_exact(FANOUT).map(|block| bound(&mut block.iter().map(|&c| Rect::centre(c)))).collect();
        let mut starts = vec![0];
        loop {
            let from = *starts.last().expect("starts with level 1");
            let count = boxes.len() - from;
            if count < FANOUT {
                break;
            }
            for k in 0..count / FANOUT {
                let block = from + k * FANOUT;
                let b = bound(&mut boxes[block..block + FANOUT].iter().copied());
                boxes.push(b);
            }
            starts.push(from + count);
        }
        starts.push(boxes.len());
        Blocks { path, boxes, starts }
    }

    /// The box of block `index` of `level` (level 0: single waypoints).
    fn rect(&self, level: usize, index: usize) -> Rect {
        if level == 0 { Rect::centre(self.path[index]) } else { self.boxes[self.starts[level - 1] + index] }
    }

    /// The smallest `e` such that every waypoint in `e..end` has its box
    /// hidden by `hide` (`end` when the one before it is not): climbs to
    /// bigger blocks while they are hidden and goes back down when one is
    /// not.
    fn hidden_down_from(&self, end: usize, hide: impl Fn(&Rect) -> bool) -> usize {
        let top = self.starts.len() - 1;
        let (mut e, mut level, mut size) = (end, 0, 1);
        loop {
            // `e` is a multiple of `size`, so the block ending there is one
            // of this level's.
            if e >= size && hide(&self.rect(level, e / size - 1)) {
                e -= size;
                if level < top && e % (size * FANOUT) == 0 {
                    level += 1;
                    size *= FANOUT;
                }
            } else if level == 0 {
                return e;
            } else {
                level -= 1;
                size /= FANOUT;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Tile, supercover};

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
    fn a_segment_meets_a_cell_square_exactly_when_sight_visits_the_cell() {
        // The skip rests on this: a segment meeting a wall's closed square
        // is one the exact sight check refuses. Every pair of cells in a
        // 6×6 patch against every cell of a 8×8 patch around it.
        let cells: Vec<Cell> = (0..6).flat_map(|y| (0..6).map(move |x| Cell::new(x, y))).collect();
        for &a in &cells {
            for &b in &cells {
                let visited: Vec<Cell> = supercover(a, b).collect();
                let (p, q) = (Rect::centre(a), Rect::centre(b));
                for y in -1..7 {
                    for x in -1..7 {
                        let w = Cell::new(x, y);
                        let meets = segment_meets((p.x0, p.y0), (q.x0, q.y0), &Rect::cells(w, w));
                        assert_eq!(meets, visited.contains(&w), "{a} -> {b} against {w}");
                    }
                }
            }
        }
    }

    #[test]
    fn blocks_skip_only_hidden_waypoints() {
        // A straight path of 100 waypoints; "hidden" is x in 20..=90.
        let path: Vec<Cell> = (0..100).map(|x| Cell::new(x, 0)).collect();
        let blocks = Blocks::new(&path);
        let hide = |r: &Rect| r.x0 >= 41 && r.x1 <= 181;
        assert_eq!(blocks.hidden_down_from(91, hide), 20);
        assert_eq!(blocks.hidden_down_from(92, hide), 92);
        assert_eq!(blocks.hidden_down_from(64, hide), 20);
        assert_eq!(blocks.hidden_down_from(100, |_| true), 0);
        assert_eq!(Blocks::new(&path[..3]).hidden_down_from(3, |_| true), 0);
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
