//! Steering around and colliding with the walls of the tile grid.
//!
//! Two layers, because steering alone never guarantees anything: the soft
//! one, [`avoid_walls`], feels ahead and turns a body away before it
//! touches a wall; the hard one, [`move_body`] / [`resolve_walls`], makes
//! sure that whatever the forces, no body's centre ends a step inside a
//! wall cell. [`WallDistance`] says where the feelers cannot reach any
//! wall, so that a crowd in open floor does not walk them at all.

use super::{Body, Vec2};
use crate::grid::{Cell, Grid};
use crate::search::Derived;

/// cos and sin of 35°, the angle of the two whiskers either side of the
/// centre feeler (constants rather than runtime trigonometry, so they are
/// the same bits everywhere).
const WHISKER_COS: f32 = 0.819_152;
const WHISKER_SIN: f32 = 0.573_576_4;

/// Whisker length as a fraction of the centre feeler's: they look sideways
/// for walls the body is brushing past, not far ahead.
const WHISKER_SCALE: f32 = 0.5;

/// The cell containing a world point: cell (x, y) covers [x, x+1) ×
/// [y, y+1) (saturating for points far outside).
#[inline]
pub fn cell_at(p: Vec2) -> Cell {
    Cell::new(floor_i32(p.x), floor_i32(p.y))
}

/// `x.floor() as i32` (saturating, NaN to 0), without the call to `floorf`
/// that the baseline x86-64 instruction set (no `roundss`) makes of
/// `floor`: every body's cell is asked for several times a tick.
#[inline]
fn floor_i32(x: f32) -> i32 {
    let t = x as i32;
    if t as f32 > x { t.saturating_sub(1) } else { t }
}

/// The centre of a cell in world units, (x + 0.5, y + 0.5).
pub fn cell_center(cell: Cell) -> Vec2 {
    Vec2::new(cell.x as f32 + 0.5, cell.y as f32 + 0.5)
}

/// Turn away from walls ahead. Three feelers leave the body's centre: one
/// of `feeler_length` along the velocity and two whiskers half as long at
/// ±35°. Each one that enters a wall cell pushes along that wall face's
/// normal with `max_force` times how deep (as a fraction of its length,
/// measured along the normal) its tip lies beyond the face, so the push
/// grows as the wall gets closer and is gentle for a wall merely grazed.
/// The sum is capped at `max_force`.
///
/// Zero for a body at rest (it is not heading anywhere; collision keeps it
/// out of walls), for a non-positive feeler length, and for a body whose
/// centre is inside a wall (collision pushes it out).
pub fn avoid_walls(body: &Body, grid: &Grid, feeler_length: f32) -> Vec2 {
    let forward = body.vel.normalized();
    if forward == Vec2::ZERO || feeler_length <= 0.0 || !grid.is_walkable(cell_at(body.pos)) {
        return Vec2::ZERO;
    }
    let (c, s) = (WHISKER_COS, WHISKER_SIN);
    let left = Vec2::new(forward.x * c + forward.y * s, forward.y * c - forward.x * s);
    let right = Vec2::new(forward.x * c - forward.y * s, forward.y * c + forward.x * s);
    let whisker = feeler_length * WHISKER_SCALE;
    let feelers = [(forward, feeler_length), (left, whisker), (right, whisker)];
    let mut push = Vec2::ZERO;
    for (direction, length) in feelers {
        if let Some(hit) = first_wall(grid, body.pos, direction * length) {
            let depth = (1.0 - hit.t) * -direction.dot(hit.normal);
            push += hit.normal * (depth * body.max_force);
        }
    }
    push.clamp_length(body.max_force)
}

/// [`avoid_walls`] where `field` (built from `grid` as it is) cannot rule
/// out a wall within the feelers' reach; zero, exactly as the feelers
/// would find, where it can.
pub fn avoid_walls_near(body: &Body, grid: &Grid, field: &WallDistance, feeler_length: f32) -> Vec2 {
    avoid_walls_within(body, grid, field.cells_to_wall(cell_at(body.pos)), feeler_length)
}

/// [`avoid_walls_near`] for a body whose cell's nearest wall is
/// `clearance` cells away ([`WallDistance::cells_to_wall`]), for a caller
/// that keeps the clearance for [`move_body_within`].
#[inline]
pub fn avoid_walls_within(body: &Body, grid: &Grid, clearance: u8, feeler_length: f32) -> Vec2 {
    if clear_within(clearance, feeler_length) { Vec2::ZERO } else { avoid_walls(body, grid, feeler_length) }
}

/// Whether no point within `reach` of a point lies in a wall cell, for a
/// point in a cell whose nearest wall is `clearance` cells away: it is at
/// least `clearance − 1` units from every wall.
#[inline]
fn clear_within(clearance: u8, reach: f32) -> bool {
    f32::from(clearance) - 1.0 > reach
}

/// Distances counted up to this many cells: a field tells the feelers
/// apart from walls up to `CAP - 1` units long.
const CAP: u8 = 4;

/// For every cell, how many cells away the nearest wall cell is (the
/// Chebyshev distance, everything outside the map counting as wall), up
/// to a cap of 4: what lets [`avoid_walls_near`] skip the feelers in open
/// floor. A point in a cell whose nearest wall is `d` cells away is at
/// least `d − 1` units from every wall, so no segment shorter than that
/// from it enters one.
///
/// Two bytes per cell: the distance, and the distance along the cell's
/// row, from which the distance is the smallest of `max(|dy|, row
/// distance)` over the rows within the cap. A changed cell changes only
/// the row distances within the cap of it on its row, and the distances
/// within the cap of it: [`WallDistance::repair`] recomputes those, so a
/// door costs the same on a map of any size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WallDistance {
    width: usize,
    height: usize,
    /// Distance to the nearest wall on the cell's row, capped, row by row.
    row: Vec<u8>,
    /// Distance to the nearest wall, capped, row by row.
    dist: Vec<u8>,
}

impl WallDistance {
    /// The field of `grid` as it is.
    pub fn build(grid: &Grid) -> WallDistance {
        let (width, height) = (grid.width(), grid.height());
        let mut field = WallDistance { width, height, row: vec![0; width * height], dist: vec![0; width * height] };
        for y in 0..height as i32 {
            field.fill_row(grid, y, 0, width as i32 - 1);
        }
        field.fill(0, 0, width as i32 - 1, height as i32 - 1);
        field
    }

    /// Brings the field up to date with `grid`, of which only the tiles of
    /// `changed` changed since the field was built or last repaired.
    pub fn repair(&mut self, grid: &Grid, changed: &[Cell]) {
        if (grid.width(), grid.height()) != (self.width, self.height) {
            *self = WallDistance::build(grid);
            return;
        }
        let cap = i32::from(CAP);
        for c in changed.iter().filter(|c| grid.in_bounds(**c)) {
            self.fill_row(grid, c.y, c.x - cap, c.x + cap);
        }
        for c in changed.iter().filter(|c| grid.in_bounds(**c)) {
            self.fill(c.x - cap, c.y - cap, c.x + cap, c.y + cap);
        }
    }

    /// The nearest wall cell's distance from `cell`, in cells (Chebyshev),
    /// capped at 4; 0 for a wall and anything outside the map.
    pub fn cells_to_wall(&self, cell: Cell) -> u8 {
        if cell.x < 0 || cell.y < 0 || cell.x as usize >= self.width || cell.y as usize >= self.height {
            return 0;
        }
        self.dist[cell.y as usize * self.width + cell.x as usize]
    }

    /// Whether no point within `reach` of `pos` lies in a wall cell, as
    /// far as the field can tell (it answers `false` when in doubt).
    #[inline]
    pub fn is_clear(&self, pos: Vec2, reach: f32) -> bool {
        clear_within(self.cells_to_wall(cell_at(pos)), reach)
    }

    /// Recomputes the row distances of row `y` from column `x0` to `x1`
    /// (clipped to the map) from the tiles.
    fn fill_row(&mut self, grid: &Grid, y: i32, x0: i32, x1: i32) {
        let cap = i32::from(CAP);
        let wall = |x: i32| !grid.is_walkable(Cell::new(x, y));
        for x in x0.max(0)..=x1.min(self.width as i32 - 1) {
            let d = (0..cap).find(|&d| wall(x - d) || wall(x + d)).unwrap_or(cap);
            self.row[y as usize * self.width + x as usize] = d as u8;
        }
    }

    /// Recomputes the distances of the cells in the rectangle from
    /// (`x0`, `y0`) to (`x1`, `y1`) (clipped to the map) from the row
    /// distances; rows outside the map are walls.
    fn fill(&mut self, x0: i32, y0: i32, x1: i32, y1: i32) {
        let (w, h, cap) = (self.width as i32, self.height as i32, i32::from(CAP));
        for y in y0.max(0)..=y1.min(h - 1) {
            for x in x0.max(0)..=x1.min(w - 1) {
                let mut d = cap;
                for dy in -cap + 1..cap {
                    let r = y + dy;
                    let along = if (0..h).contains(&r) { i32::from(self.row[(r * w + x) as usize]) } else { 0 };
                    d = d.min(along.max(dy.abs()));
                }
                self.dist[(y * w + x) as usize] = d as u8;
            }
        }
    }
}

/// Kept in the search layer's cache of data derived from a grid: built once
/// per grid, repaired where doors changed.
impl Derived for WallDistance {
    type Config = ();
    fn build(grid: &Grid, _: ()) -> WallDistance {
        WallDistance::build(grid)
    }
    fn repair(&mut self, grid: &Grid, changed: &[usize]) {
        let cells: Vec<Cell> = changed.iter().map(|&i| grid.cell_of(i as u32)).collect();
        WallDistance::repair(self, grid, &cells);
    }
}

/// Where a segment first enters a wall cell.
struct Hit {
    /// Fraction of the segment before the wall face, in [0, 1].
    t: f32,
    /// Unit normal of the face entered, pointing out of the wall.
    normal: Vec2,
}

/// Walks the cells along `from → from + segment` (Amanatides–Woo) and
/// reports the first wall cell entered. `from` must lie in a walkable cell;
/// the walk then ends at the map's border at the latest, as everything
/// outside the map is wall. At an exact corner crossing the vertical step
/// is taken first.
fn first_wall(grid: &Grid, from: Vec2, segment: Vec2) -> Option<Hit> {
    let mut cell = cell_at(from);
    // Per axis: step direction, t of the first cell boundary, t per cell.
    let axis = |p: f32, d: f32, c: i32| {
        if d > 0.0 {
            (1, ((c + 1) as f32 - p) / d, 1.0 / d)
        } else if d < 0.0 {
            (-1, (c as f32 - p) / d, -1.0 / d)
        } else {
            (0, f32::INFINITY, f32::INFINITY)
        }
    };
    let (step_x, mut next_x, delta_x) = axis(from.x, segment.x, cell.x);
    let (step_y, mut next_y, delta_y) = axis(from.y, segment.y, cell.y);
    loop {
        let (t, normal) = if next_x < next_y {
            let t = next_x;
            cell.x += step_x;
            next_x += delta_x;
            (t, Vec2::new(-step_x as f32, 0.0))
        } else {
            let t = next_y;
            cell.y += step_y;
            next_y += delta_y;
            (t, Vec2::new(0.0, -step_y as f32))
        };
        if t > 1.0 {
            return None;
        }
        if !grid.is_walkable(cell) {
            return Some(Hit { t, normal });
        }
    }
}

/// Integrates the body ([`Body::integrate`]) and then resolves its move
/// against the walls ([`resolve_walls`]): the one call the simulation makes
/// per body and tick.
#[inline]
pub fn move_body(body: &mut Body, force: Vec2, dt: f32, grid: &Grid) {
    let prev_pos = body.pos;
    body.integrate(force, dt);
    resolve_walls(body, prev_pos, grid);
}

/// [`move_body`] for a body whose cell before the move has its nearest
/// wall `clearance` cells away ([`WallDistance::cells_to_wall`] of the
/// grid as it is): the same move, found without reading the grid when the
/// step ends within `clearance − 1` cells of where it began (every cell
/// the sweeps of [`resolve_walls`] would test is then floor, so they would
/// move the body to its target untouched). What keeps a crowd's steps
/// from reading the tiles of a large map in random order: the clearance
/// comes from the pass that already read the field in bin order.
pub fn move_body_within(body: &mut Body, force: Vec2, dt: f32, grid: &Grid, clearance: u8) {
    let prev_pos = body.pos;
    body.integrate(force, dt);
    let (from, to) = (cell_at(prev_pos), cell_at(body.pos));
    let reach = u32::from(clearance.saturating_sub(1));
    if clearance > 0 && from.x.abs_diff(to.x) <= reach && from.y.abs_diff(to.y) <= reach {
        return;
    }
    resolve_walls(body, prev_pos, grid);
}

/// Makes the move from `prev_pos` to `body.pos` legal. The displacement is
/// swept along x, then along y, cell by cell, so a fast body cannot tunnel
/// through a thin wall and cannot squeeze diagonally between two walls that
/// meet at a corner. Where a sweep meets a wall cell the body stops just
/// short of the face (still in the last walkable cell) and that velocity
/// component is zeroed; the other one is kept, so the body slides along the
/// wall.
///
/// A body whose `prev_pos` is not in a walkable cell (spawned in a wall, or
/// a door closed on it) is instead moved to the centre of the walkable cell
/// nearest to `prev_pos` and stopped; ties go to the cell first in row-major
/// order. On a grid with no walkable cell at all it stays at `prev_pos`,
/// stopped.
// Inline, for its test of the common case (`shared_cell`): a move within
// one walkable cell, where both sweeps would cross nothing; the rest is
// out of line.
#[inline]
pub fn resolve_walls(body: &mut Body, prev_pos: Vec2, grid: &Grid) {
    if shared_cell(prev_pos, body.pos).is_some_and(|cell| grid.is_walkable(cell)) {
        return;
    }
    resolve_move(body, prev_pos, grid);
}

/// The cell that holds both `a` and `b` ([`cell_at`]), if both are
/// nonnegative (not NaN) and in one cell; `None` otherwise. For a
/// nonnegative coordinate the floor is the saturating conversion's
/// truncation, so each coordinate takes one conversion, not
/// [`floor_i32`]'s two and its fix-up; a huge one saturates as there,
/// off the map.
#[inline]
fn shared_cell(a: Vec2, b: Vec2) -> Option<Cell> {
    // `&`, not `&&`: four compares and one branch.
    if !((a.x >= 0.0) & (a.y >= 0.0) & (b.x >= 0.0) & (b.y >= 0.0)) {
        return None;
    }
    let (ax, ay) = (a.x as i32, a.y as i32);
    (ax == b.x as i32 && ay == b.y as i32).then(|| Cell::new(ax, ay))
}

/// [`resolve_walls`] for every move [`shared_cell`] does not settle: one
/// that leaves the cell of `prev_pos`, starts or ends outside the
/// walkable cells, has a negative coordinate, or a NaN one (which
/// [`cell_at`] puts in cell 0, so that a NaN move within a walkable cell
/// 0 stays as it is).
fn resolve_move(body: &mut Body, prev_pos: Vec2, grid: &Grid) {
    let target = body.pos;
    let from = cell_at(prev_pos);
    if cell_at(target) == from && grid.is_walkable(from) {
        return;
    }
    body.pos = prev_pos;
    if !grid.is_walkable(from) {
        if let Some(cell) = nearest_walkable(grid, prev_pos) {
            body.pos = cell_center(cell);
        }
        body.vel = Vec2::ZERO;
        return;
    }
    sweep_axis(grid, body, target.x, Axis::X);
    sweep_axis(grid, body, target.y, Axis::Y);
}

#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
}

/// Moves `body.pos` along `axis` towards `target`, through walkable cells
/// only (the body's cell is walkable). Stops just before the first wall
/// cell, zeroing the velocity along the axis.
fn sweep_axis(grid: &Grid, body: &mut Body, target: f32, axis: Axis) {
    let here = cell_at(body.pos);
    let (from, to) = match axis {
        Axis::X => (here.x, floor_i32(target)),
        Axis::Y => (here.y, floor_i32(target)),
    };
    let blocked = |c: i32| match axis {
        Axis::X => !grid.is_walkable(Cell::new(c, here.y)),
        Axis::Y => !grid.is_walkable(Cell::new(here.x, c)),
    };
    // The face where the body stops: the largest float below a wall ahead
    // in + direction (so it still floors to the last walkable cell), the
    // wall's far edge behind in − direction.
    let stop = if to > from {
        (from + 1..=to).find(|&c| blocked(c)).map(|c| (c as f32).next_down())
    } else {
        (to..from).rev().find(|&c| blocked(c)).map(|c| (c + 1) as f32)
    };
    let (pos, vel) = match axis {
        Axis::X => (&mut body.pos.x, &mut body.vel.x),
        Axis::Y => (&mut body.pos.y, &mut body.vel.y),
    };
    match stop {
        Some(face) => {
            *pos = face;
            *vel = 0.0;
        }
        None => *pos = target,
    }
}

/// The walkable cell whose centre is nearest to `p` (clamped into the map),
/// searched ring by ring around `p`'s cell; ties go to the first in
/// row-major order within the nearest ring. `None` when no cell is
/// walkable.
fn nearest_walkable(grid: &Grid, p: Vec2) -> Option<Cell> {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let q = Vec2::new(p.x.clamp(0.0, w as f32), p.y.clamp(0.0, h as f32));
    let start = Cell::new((q.x.floor() as i32).min(w - 1), (q.y.floor() as i32).min(h - 1));
    let mut best: Option<(f32, Cell)> = None;
    for r in 0..=w.max(h) {
        // q lies in `start`, so every centre on ring r is at least r − ½
        // away: once that beats the best, no later ring can win.
        if let Some((d2, _)) = best {
            let bound = r as f32 - 0.5;
            if bound * bound >= d2 {
                break;
            }
        }
        for y in start.y - r..=start.y + r {
            let on_edge_row = (y - start.y).abs() == r;
            let step = if on_edge_row { 1 } else { (2 * r).max(1) as usize };
            for x in (start.x - r..=start.x + r).step_by(step) {
                let cell = Cell::new(x, y);
                if !grid.is_walkable(cell) {
                    continue;
                }
                let d2 = (cell_center(cell) - q).length_squared();
                if best.is_none_or(|(b, _)| d2 < b) {
                    best = Some((d2, cell));
                }
            }
        }
    }
    best.map(|(_, cell)| cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Tile;

    /// A grid from rows of `#` (wall) and `.` (floor).
    fn grid(rows: &[&str]) -> Grid {
        let tiles: Vec<Tile> =
            rows.iter().flat_map(|r| r.chars()).map(|c| if c == '#' { Tile::Wall } else { Tile::Floor(1) }).collect();
        Grid::new(rows[0].len(), rows.len(), &tiles)
    }

    fn body(x: f32, y: f32, vx: f32, vy: f32) -> Body {
        Body { pos: Vec2::new(x, y), vel: Vec2::new(vx, vy), max_speed: 100.0, max_force: 4.0 }
    }

    /// Open 10×6 room with a wall column at x = 5.
    fn column() -> Grid {
        grid(&[".....#....", ".....#....", ".....#....", ".....#....", ".....#....", ".....#...."])
    }

    /// Moving with the clearance the field gives is moving: in open floor,
    /// beside walls and across them, for steps short and long.
    #[test]
    fn a_move_within_the_clearance_is_the_move() {
        let g =
            grid(&["##########", "#........#", "#........#", "#...##...#", "#........#", "#........#", "##########"]);
        let field = WallDistance::build(&g);
        let (mut skipped, mut resolved) = (0, 0);
        for i in 0..400 {
            let t = i as f32;
            let start =
                body(1.0 + (t * 0.731) % 8.0, 1.0 + (t * 0.377) % 5.0, (t * 1.3) % 9.0 - 4.5, (t * 0.7) % 9.0 - 4.5);
            let force = Vec2::new((t * 2.1) % 8.0 - 4.0, (t * 1.7) % 8.0 - 4.0);
            let dt = [0.05, 0.2, 0.5][i % 3];
            let clearance = field.cells_to_wall(cell_at(start.pos));
            let (mut a, mut b) = (start, start);
            move_body(&mut a, force, dt, &g);
            move_body_within(&mut b, force, dt, &g, clearance);
            assert_eq!(a, b, "{start:?} {force:?} {dt} {clearance}");
            let (from, to) = (cell_at(start.pos), cell_at(a.pos));
            if clearance >= 2 && from != to && from.x.abs_diff(to.x) < 2 && from.y.abs_diff(to.y) < 2 {
                skipped += 1;
            } else if clearance < 2 && from != to {
                resolved += 1;
            }
        }
        assert!(skipped > 20 && resolved > 20, "{skipped} crossings in open floor, {resolved} beside walls");
    }

    #[test]
    fn floor_is_the_saturating_floor() {
        let samples = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            2.999_999_8,
            -2.999_999_8,
            1e-40,
            -1e-40,
            2147483520.0,
            2147483648.0,
            -2147483648.0,
            -2147483904.0,
            3e9,
            -3e9,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for x in samples.into_iter().chain((-400..400).map(|i| i as f32 * 0.37)) {
            assert_eq!(floor_i32(x), x.floor() as i32, "{x}");
        }
    }

    /// The common case's one conversion a coordinate finds [`cell_at`]'s
    /// cells, at the edges of the map and of the conversions: signed zeros,
    /// the last float below a side, the sides, 2^24, the saturation limits,
    /// the infinities and NaN (cell 0 for `cell_at`, never a shared cell),
    /// on a map with floor in cell 0 and walls; and `resolve_walls` with it
    /// is the move it made without it ([`resolve_move`]), to the bit.
    #[test]
    fn the_shared_cell_is_cell_at_s() {
        let g = grid(&["..#..", ".....", "#...."]);
        let edges = [
            0.0,
            -0.0,
            1e-40,
            -1e-40,
            0.5,
            -0.5,
            -1.0,
            0.999_999_94,
            1.0,
            2.5,
            3.0,
            2.999_999_8,
            4.999_999_5,
            5.0,
            5.5,
            16_777_216.0,
            16_777_215.0,
            2147483520.0,
            2147483648.0,
            -2147483904.0,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        let points: Vec<Vec2> = edges.iter().flat_map(|&x| edges.iter().map(move |&y| Vec2::new(x, y))).collect();
        let mut shared = 0;
        for &a in &points {
            for &b in points.iter().step_by(7).chain([&Vec2::new(0.25, 0.75), &Vec2::new(1.5, 1.5)]) {
                let nonnegative = [a.x, a.y, b.x, b.y].iter().all(|&v| v >= 0.0);
                let cell = cell_at(a);
                let expected = (nonnegative && cell_at(b) == cell).then_some(cell);
                assert_eq!(shared_cell(a, b), expected, "{a:?} {b:?}");
                shared += usize::from(expected.is_some_and(|c| g.in_bounds(c)));
                let start = Body { pos: b, vel: Vec2::new(0.5, -0.25), max_speed: 1.0, max_force: 1.0 };
                let (mut fast, mut slow) = (start, start);
                resolve_walls(&mut fast, a, &g);
                resolve_move(&mut slow, a, &g);
                let bits = |b: &Body| [b.pos.x, b.pos.y, b.vel.x, b.vel.y].map(f32::to_bits);
                assert_eq!(bits(&fast), bits(&slow), "{a:?} {b:?}");
            }
        }
        assert!(shared > 50, "{shared} moves within one cell of the map");
    }

    #[test]
    fn feeler_pushes_back_from_a_wall_ahead() {
        let g = column();
        // Tip at x 5.5, face at 5: a quarter of the feeler inside.
        let b = body(3.5, 2.5, 1.0, 0.0);
        assert_eq!(avoid_walls(&b, &g, 2.0), Vec2::new(-1.0, 0.0));
        // Closer, deeper, stronger.
        let near = body(4.5, 2.5, 1.0, 0.0);
        assert!(avoid_walls(&near, &g, 2.0).x < -1.0);
        // Heading away or far from the wall: nothing.
        assert_eq!(avoid_walls(&body(3.5, 2.5, -1.0, 0.0), &g, 2.0), Vec2::ZERO);
        assert_eq!(avoid_walls(&body(1.5, 2.5, 1.0, 0.0), &g, 2.0), Vec2::ZERO);
    }

    #[test]
    fn whisker_feels_a_wall_alongside() {
        let g = grid(&["##########", "..........", ".........."]);
        // Running along the top wall 0.3 below its face: only the left
        // whisker (towards −y) reaches it.
        let b = body(2.5, 1.3, 1.0, 0.0);
        let f = avoid_walls(&b, &g, 2.0);
        assert_eq!(f.x, 0.0);
        assert!(f.y > 0.0, "{f:?}");
    }

    #[test]
    fn no_avoidance_at_rest_or_inside_a_wall() {
        let g = column();
        assert_eq!(avoid_walls(&body(4.5, 2.5, 0.0, 0.0), &g, 2.0), Vec2::ZERO);
        assert_eq!(avoid_walls(&body(5.5, 2.5, 1.0, 0.0), &g, 2.0), Vec2::ZERO);
        assert_eq!(avoid_walls(&body(4.5, 2.5, 1.0, 0.0), &g, 0.0), Vec2::ZERO);
    }

    #[test]
    fn map_edge_counts_as_wall() {
        let g = grid(&["....", "...."]);
        let f = avoid_walls(&body(3.5, 1.0, 1.0, 0.0), &g, 1.0);
        assert_eq!(f, Vec2::new(-2.0, 0.0));
    }

    #[test]
    fn slides_along_a_wall() {
        let g = column();
        let mut b = body(4.5, 2.5, 1.0, 1.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(5.0f32.next_down(), 3.5));
        assert_eq!(b.vel, Vec2::new(0.0, 1.0));
    }

    #[test]
    fn fast_body_does_not_tunnel() {
        let g = column();
        let mut b = body(0.5, 2.5, 100.0, 0.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(5.0f32.next_down(), 2.5));
        assert_eq!(b.vel, Vec2::ZERO);
        // Leftwards from the far side it stops on the wall's right face.
        let mut b = body(9.5, 2.5, -100.0, 0.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(6.0, 2.5));
        // Off the map's edge.
        let mut b = body(7.5, 2.5, 0.0, 100.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(7.5, 6.0f32.next_down()));
        assert_eq!(b.vel, Vec2::ZERO);
    }

    #[test]
    fn no_squeezing_between_diagonal_walls() {
        let g = grid(&["....", "...#", "..#.", "...."]);
        let mut b = body(2.5, 1.5, 1.0, 1.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(3.0f32.next_down(), 2.0f32.next_down()));
        assert_eq!(b.vel, Vec2::ZERO);
    }

    #[test]
    fn body_inside_a_wall_is_pushed_to_the_nearest_centre() {
        let g = column();
        let mut b = body(5.2, 2.5, 3.0, 0.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(4.5, 2.5));
        assert_eq!(b.vel, Vec2::ZERO);
        let mut b = body(5.8, 2.5, 0.0, 0.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(6.5, 2.5));
        // Equidistant: the first cell in row-major order wins.
        let mut b = body(5.5, 2.5, 0.0, 0.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(4.5, 2.5));
        // Far outside the map: the nearest cell to the clamped point.
        let mut b = body(-40.0, 100.0, 0.0, 0.0);
        move_body(&mut b, Vec2::ZERO, 1.0, &g);
        assert_eq!(b.pos, Vec2::new(0.5, 5.5));
    }

    #[test]
    fn nowhere_to_go_stays_put() {
        let g = grid(&["##", "##"]);
        let mut b = body(0.5, 0.5, 1.0, 0.0);
        move_body(&mut b, Vec2::new(1.0, 1.0), 1.0, &g);
        assert_eq!(b.pos, Vec2::new(0.5, 0.5));
        assert_eq!(b.vel, Vec2::ZERO);
    }

    #[test]
    fn nearest_search_stops_early_but_finds_far_cells() {
        let mut rows = vec!["##########"; 10];
        rows[9] = "#########.";
        let g = grid(&rows);
        assert_eq!(nearest_walkable(&g, Vec2::new(0.5, 0.5)), Some(Cell::new(9, 9)));
    }
}
