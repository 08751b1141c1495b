//! `mixed`: Brogue's recipe, rooms of several shapes attached by doors,
//! then lakes (and, in the shared steps, loops and doors).
//!
//! The first room goes in the middle of the map. Every later room is
//! attached to what is there: a *site* is a wall cell beside a floor cell
//! of the map, and a new room (its shape drawn at random: a rectangle, a
//! hall, a cross, a circle or a cave blob grown by the cellular automaton
//! of [`super::caves`], sometimes at the end of a hallway) goes on the
//! far side of it, if it fits where there is only rock, with a cell of
//! rock between it and everything else. The site becomes the doorway
//! between them. Sites are drawn at random from those the rooms so far
//! left, each shape at up to [`SITES_PER_SHAPE`] sites; a site that failed
//! [`SITE_TRIES`] times is dropped. The shapes are drawn once for a level,
//! [`LIBRARY`] of them with the rock each needs round it worked out, and
//! each attempt draws one of those: a blob costs a small automaton to grow,
//! and a large map tries tens of thousands of rooms.
//!
//! Lakes come last: cave blobs of water with a muddy shore (floor of cost
//! 2), or bogs of mud (cost 3, shore 2), laid over rock and floor alike,
//! so that some routes wade and some walk round: a cost-aware planner and
//! a step-counting one part ways. Water and mud are walkable, so a lake
//! never cuts the level apart.

use super::canvas::Canvas;
use super::caves;
use super::dice::Dice;
use super::{Size, connect};
use crate::grid::Tile;

/// Times a site may fail to take a room before it is dropped.
const SITE_TRIES: u8 = 4;
/// Map cells per room shape drawn.
const CELLS_PER_SHAPE: usize = 24;
/// Sites a shape is tried at before the next shape is drawn.
const SITES_PER_SHAPE: usize = 8;
/// Room shapes drawn for a level, each then tried many times.
const LIBRARY: usize = 64;
/// Map cells per lake.
const CELLS_PER_LAKE: usize = 1500;

/// A direction: east, west, south, north.
const DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// A wall cell beside the map's floor, and the way out from that floor
/// (an index into [`DIRS`]).
#[derive(Clone, Copy, Debug)]
struct Site {
    x: i32,
    y: i32,
    dir: usize,
    failures: u8,
}

/// A room's shape, ready to be tried at many sites: its cells (in its own
/// coordinates), the cells within one step of them (which must all be
/// rock where it goes), its bounds, for each direction the cells a
/// doorway from that side can enter, and the sites it leaves round it.
#[derive(Clone, Debug)]
struct Template {
    cells: Vec<(i32, i32)>,
    halo: Vec<(i32, i32)>,
    /// Least and greatest column, least and greatest row.
    bounds: (i32, i32, i32, i32),
    /// For each of [`DIRS`], the cells with no cell of the room on the
    /// side that direction comes from.
    doors: [Vec<(i32, i32)>; 4],
    /// The cells beside the room, each with the direction out of it.
    rim: Vec<((i32, i32), usize)>,
}

impl Template {
    fn new(mut cells: Vec<(i32, i32)>) -> Template {
        cells.sort_unstable();
        cells.dedup();
        let has = |c: (i32, i32)| cells.binary_search(&c).is_ok();
        let mut halo: Vec<(i32, i32)> = cells
            .iter()
            .flat_map(|&(x, y)| (-1..=1).flat_map(move |dy| (-1..=1).map(move |dx| (x + dx, y + dy))))
            .collect();
        halo.sort_unstable();
        halo.dedup();
        let doors = std::array::from_fn(|d| {
            let (dx, dy) = DIRS[d];
            cells.iter().copied().filter(|&(x, y)| !has((x - dx, y - dy))).collect()
        });
        let rim = cells
            .iter()
            .flat_map(|&(x, y)| DIRS.iter().enumerate().map(move |(d, &(dx, dy))| ((x + dx, y + dy), d)))
            .filter(|&(c, _)| !has(c))
            .collect();
        let xs = cells.iter().map(|c| c.0);
        let ys = cells.iter().map(|c| c.1);
        let bounds = (
            xs.clone().min().unwrap_or(0),
            xs.max().unwrap_or(0),
            ys.clone().min().unwrap_or(0),
            ys.max().unwrap_or(0),
        );
        Template { cells, halo, bounds, doors, rim }
    }
}

/// Where a room goes: its template moved by `offset`, and the cells of the
/// hallway (map coordinates) that leads from the site to it, if any.
struct Placement<'a> {
    template: &'a Template,
    offset: (i32, i32),
    hall: Vec<(i32, i32)>,
}

impl Placement<'_> {
    /// Whether the room and its hallway lie off the outer ring with
    /// nothing but rock within a step of any of their cells.
    fn fits(&self, canvas: &Canvas) -> bool {
        let (w, h) = (canvas.width as i32, canvas.height as i32);
        let (ox, oy) = self.offset;
        let (x0, x1, y0, y1) = self.template.bounds;
        let rock = |x: i32, y: i32| !canvas.walkable(canvas.at(x as usize, y as usize));
        x0 + ox >= 1
            && y0 + oy >= 1
            && x1 + ox <= w - 2
            && y1 + oy <= h - 2
            && self.template.halo.iter().all(|&(x, y)| rock(x + ox, y + oy))
            && self.hall.iter().all(|&(x, y)| {
                (1..=w - 2).contains(&x)
                    && (1..=h - 2).contains(&y)
                    && (-1..=1).all(|dy| (-1..=1).all(|dx| rock(x + dx, y + dy)))
            })
    }

    /// Carves the room (as room) and the hallway, and adds the sites round
    /// the room.
    fn stamp(&self, canvas: &mut Canvas, sites: &mut Vec<Site>) {
        let (ox, oy) = self.offset;
        for &(x, y) in &self.template.cells {
            let i = canvas.at((x + ox) as usize, (y + oy) as usize);
            canvas.carve(i, Tile::Floor(1));
            canvas.room[i] = true;
        }
        for &(x, y) in &self.hall {
            let i = canvas.at(x as usize, y as usize);
            canvas.carve(i, Tile::Floor(1));
        }
        sites.extend(self.template.rim.iter().map(|&((x, y), dir)| Site { x: x + ox, y: y + oy, dir, failures: 0 }));
    }
}

/// Carves the rooms and lakes.
pub(super) fn carve(canvas: &mut Canvas, dice: &mut Dice) {
    let shapes = canvas.tiles.len() / CELLS_PER_SHAPE + 20;
    let library: Vec<Template> = (0..shapes.min(LIBRARY)).map(|_| Template::new(room_shape(dice))).collect();
    let mut sites = Vec::new();
    first_room(canvas, &library[0], &mut sites);
    for _ in 0..shapes {
        let template = &library[dice.below(library.len())];
        for _ in 0..SITES_PER_SHAPE {
            if sites.is_empty() {
                break;
            }
            let k = dice.below(sites.len());
            let site = sites[k];
            if !is_site(canvas, site) {
                sites.swap_remove(k);
                continue;
            }
            let placement = attach(template, site, dice);
            if placement.fits(canvas) {
                let at = canvas.at(site.x as usize, site.y as usize);
                canvas.carve(at, Tile::Floor(1));
                placement.stamp(canvas, &mut sites);
                break;
            }
            sites[k].failures += 1;
            if sites[k].failures >= SITE_TRIES {
                sites.swap_remove(k);
            }
        }
    }
    lakes(canvas, dice);
}

/// The first room, in the middle of the map (a small rectangle when
/// `template` does not fit).
fn first_room(canvas: &mut Canvas, template: &Template, sites: &mut Vec<Site>) {
    let (w, h) = (canvas.width as i32, canvas.height as i32);
    let small = Template::new(rectangle(3, 3));
    for t in [template, &small] {
        let (x0, x1, y0, y1) = t.bounds;
        let placement =
            Placement { template: t, offset: (w / 2 - (x0 + x1) / 2, h / 2 - (y0 + y1) / 2), hall: Vec::new() };
        if placement.fits(canvas) {
            placement.stamp(canvas, sites);
            return;
        }
    }
}

/// Whether `site` still is one: a wall off the outer ring, with floor on
/// the side it faces away from and walls on its two flanks (so that it
/// makes a doorway).
fn is_site(canvas: &Canvas, site: Site) -> bool {
    let cell = |dx: i32, dy: i32| canvas.at((site.x + dx) as usize, (site.y + dy) as usize);
    let (dx, dy) = DIRS[site.dir];
    let here = cell(0, 0);
    canvas.inside(here)
        && !canvas.walkable(here)
        && canvas.walkable(cell(-dx, -dy))
        && !canvas.walkable(cell(dy, dx))
        && !canvas.walkable(cell(-dy, -dx))
}

/// Where `template` goes to be entered through `site`: by one of its
/// door cells, next to the site or (two times in five) at the end of a
/// straight hallway of 2 to 6 cells from it.
fn attach<'a>(template: &'a Template, site: Site, dice: &mut Dice) -> Placement<'a> {
    let (dx, dy) = DIRS[site.dir];
    let door = dice.pick(&template.doors[site.dir]);
    let length = if dice.chance(40) { dice.between(2, 6) as i32 } else { 0 };
    // The door cell lands `length + 1` steps beyond the site.
    let at = (site.x + dx * (length + 1), site.y + dy * (length + 1));
    let hall = (1..=length).map(|k| (site.x + dx * k, site.y + dy * k)).collect();
    Placement { template, offset: (at.0 - door.0, at.1 - door.1), hall }
}

/// A room of a random shape, in its own coordinates.
fn room_shape(dice: &mut Dice) -> Vec<(i32, i32)> {
    match dice.below(100) {
        0..35 => rectangle(dice.between(3, 8), dice.between(3, 6)),
        35..45 => rectangle(dice.between(8, 14), dice.between(5, 8)),
        45..65 => {
            let (long_w, short_h) = (dice.between(5, 11), dice.between(3, 4));
            let (short_w, long_h) = (dice.between(3, 4), dice.between(5, 9));
            let across =
                rectangle(long_w, short_h).into_iter().map(|(x, y)| (x - long_w as i32 / 2, y - short_h as i32 / 2));
            let down =
                rectangle(short_w, long_h).into_iter().map(|(x, y)| (x - short_w as i32 / 2, y - long_h as i32 / 2));
            across.chain(down).collect()
        }
        65..80 => circle(dice.between(2, 5) as i32),
        _ => {
            let size = Size { width: dice.between(8, 14), height: dice.between(6, 10) };
            blob(dice, size, 10).unwrap_or_else(|| rectangle(4, 3))
        }
    }
}

/// The cells of a `w × h` rectangle from (0, 0).
fn rectangle(w: usize, h: usize) -> Vec<(i32, i32)> {
    (0..h as i32).flat_map(|y| (0..w as i32).map(move |x| (x, y))).collect()
}

/// The cells of a disc of radius `r` round (0, 0): x² + y² ≤ r² + r,
/// which rounds its rim the way the eye expects.
fn circle(r: i32) -> Vec<(i32, i32)> {
    (-r..=r).flat_map(|y| (-r..=r).map(move |x| (x, y))).filter(|&(x, y)| x * x + y * y <= r * r + r).collect()
}

/// A cave blob grown in a box of `size` (inside a ring of rock) by three
/// rounds of the 4-5 rule from 45 % rock: its largest region, when it has
/// at least `min_cells` cells.
fn blob(dice: &mut Dice, size: Size, min_cells: usize) -> Option<Vec<(i32, i32)>> {
    let mut scratch = Canvas::new(Size { width: size.width + 2, height: size.height + 2 });
    let mut rock: Vec<u8> = (0..scratch.tiles.len()).map(|i| u8::from(!scratch.inside(i) || dice.chance(45))).collect();
    for _ in 0..3 {
        rock = caves::step(&scratch, &rock, false);
    }
    for (i, &r) in rock.iter().enumerate() {
        scratch.tiles[i] = if r == 1 { Tile::Wall } else { Tile::Floor(1) };
    }
    connect::keep_largest(&mut scratch);
    let cells: Vec<(i32, i32)> = (0..scratch.tiles.len())
        .filter(|&i| scratch.walkable(i))
        .map(|i| {
            let (x, y) = scratch.xy(i);
            (x as i32, y as i32)
        })
        .collect();
    (cells.len() >= min_cells).then_some(cells)
}

/// Lays the lakes and bogs: one per [`CELLS_PER_LAKE`] cells of the map.
/// One laid over rock away from the rooms is a pocket of its own, which
/// the shared connect step walls.
fn lakes(canvas: &mut Canvas, dice: &mut Dice) {
    for _ in 0..(canvas.tiles.len() / CELLS_PER_LAKE).max(1) {
        let size = Size { width: dice.between(6, 18), height: dice.between(4, 10) };
        if size.width + 2 > canvas.width || size.height + 2 > canvas.height {
            continue;
        }
        // A small box can smooth down to nothing: draw again, a few times.
        let Some(cells) = (0..4).find_map(|_| blob(dice, size, 6)) else { continue };
        let has = |c: (i32, i32)| cells.binary_search(&c).is_ok();
        let (core, shore) =
            if dice.chance(67) { (Tile::Water, Tile::Floor(2)) } else { (Tile::Floor(3), Tile::Floor(2)) };
        let x0 = dice.below(canvas.width - size.width - 1) as i32;
        let y0 = dice.below(canvas.height - size.height - 1) as i32;
        for &(x, y) in &cells {
            let edge = DIRS.iter().any(|&(dx, dy)| !has((x + dx, y + dy)));
            let (cx, cy) = ((x + x0) as usize, (y + y0) as usize);
            let i = canvas.at(cx, cy);
            canvas.carve(i, if edge { shore } else { core });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::r#gen::connect::regions;
    use crate::r#gen::{Recipe, Style, dice};

    fn carved(seed: u64, size: Size) -> Canvas {
        let r = Recipe::new(Style::Mixed, seed, 1, Some(size)).unwrap();
        let mut c = Canvas::new(size);
        carve(&mut c, &mut dice::stream(&r, dice::Purpose::Carve));
        c
    }

    #[test]
    fn shapes_have_their_cells_halo_and_doors() {
        assert_eq!(rectangle(3, 2), [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]);
        assert_eq!(circle(1).len(), 9, "r² + r = 2 takes the corners of a 3×3");
        assert_eq!(circle(2).len(), 21, "a 5×5 without its four corners");
        let t = Template::new(rectangle(3, 2));
        assert_eq!(t.doors[0], [(0, 0), (0, 1)], "heading east: entered from the west");
        assert_eq!(t.doors[3], [(0, 1), (1, 1), (2, 1)], "heading north: entered from the south");
        assert_eq!(t.halo.len(), 5 * 4);
        assert_eq!(t.rim.len(), 2 * 3 + 2 * 2);
        assert_eq!(t.bounds, (0, 2, 0, 1));
    }

    #[test]
    fn a_room_lands_beyond_its_site_or_its_hallway() {
        let mut d = dice::stream(&Recipe::new(Style::Mixed, 9, 1, None).unwrap(), dice::Purpose::Carve);
        let t = Template::new(rectangle(4, 3));
        let mut lengths = std::collections::BTreeSet::new();
        for _ in 0..100 {
            let site = Site { x: 10, y: 20, dir: 0, failures: 0 };
            let p = attach(&t, site, &mut d);
            let hall = p.hall.len() as i32;
            lengths.insert(hall);
            assert_eq!(p.hall, (1..=hall).map(|k| (10 + k, 20)).collect::<Vec<_>>(), "east of the site");
            let room: Vec<(i32, i32)> = t.cells.iter().map(|&(x, y)| (x + p.offset.0, y + p.offset.1)).collect();
            assert!(room.contains(&(11 + hall, 20)), "the door cell is next: {room:?}");
            assert!(room.iter().all(|&(x, _)| x > 10 + hall), "nothing back toward the site");
        }
        assert_eq!(lengths.into_iter().collect::<Vec<_>>(), [0, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn rooms_and_lakes_fill_the_map_in_one_piece() {
        for seed in 0..20 {
            let c = carved(seed, Size { width: 80, height: 40 });
            let (label, sizes) = regions(&c);
            let rooms_region = label[c.room.iter().position(|&r| r).unwrap()];
            let in_rooms = c.room.iter().enumerate().filter(|&(i, &r)| r && label[i] == rooms_region).count();
            assert_eq!(in_rooms, c.room.iter().filter(|&&r| r).count(), "seed {seed}: every room attached");
            let open = sizes[rooms_region as usize] * 100 / c.tiles.len();
            assert!(open >= 35, "seed {seed}: {open} % of the map in rooms");
            let water = c.tiles.iter().filter(|&&t| t == Tile::Water).count();
            let mud = c.tiles.iter().filter(|&&t| matches!(t, Tile::Floor(2) | Tile::Floor(3))).count();
            assert!(water + mud > 0, "seed {seed}: a lake or a bog");
        }
    }
}
