//! The map view: terrain, creatures and the player, seen through a camera
//! that follows the player across levels larger than the screen.

use super::overlay::{self, Overlay};
use super::palette::Palette;
use crate::grid::{Cell, Grid, Tile};
use crate::level::marker;
use crate::sim::{Creature, Kind, World};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;

/// Which map cells the view shows, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Camera {
    area: Rect,
    /// The map cell drawn at the area's top-left corner; negative when a
    /// map narrower or shorter than the view is centred in it.
    origin: Cell,
    map_width: i32,
    map_height: i32,
}

impl Camera {
    /// A view of `area` on a `grid`, centred on `focus` and held inside the
    /// map (no empty margin while the map is larger than the view).
    pub fn new(area: Rect, grid: &Grid, focus: Cell) -> Camera {
        let (map_width, map_height) = (grid.width() as i32, grid.height() as i32);
        Camera {
            area,
            origin: Cell::new(axis(area.width, map_width, focus.x), axis(area.height, map_height, focus.y)),
            map_width,
            map_height,
        }
    }

    /// Where `cell` is drawn, if it is on the map and in view.
    pub fn screen(&self, cell: Cell) -> Option<Position> {
        let on_map = (0..self.map_width).contains(&cell.x) && (0..self.map_height).contains(&cell.y);
        let (dx, dy) = (cell.x - self.origin.x, cell.y - self.origin.y);
        let in_view = (0..i32::from(self.area.width)).contains(&dx) && (0..i32::from(self.area.height)).contains(&dy);
        (on_map && in_view).then(|| Position::new(self.area.x + dx as u16, self.area.y + dy as u16))
    }

    /// Every map cell in view, row by row, with where it is drawn.
    pub fn cells(&self) -> impl Iterator<Item = (Cell, Position)> + '_ {
        let (w, h) = (i32::from(self.area.width), i32::from(self.area.height));
        (0..h)
            .flat_map(move |dy| (0..w).map(move |dx| Cell::new(self.origin.x + dx, self.origin.y + dy)))
            .filter_map(|c| self.screen(c).map(|p| (c, p)))
    }
}

/// The first map coordinate shown on one axis.
fn axis(view: u16, map: i32, focus: i32) -> i32 {
    let view = i32::from(view);
    if map <= view { -((view - map) / 2) } else { (focus - view / 2).clamp(0, map - view) }
}

/// The map of a world, with an overlay.
pub struct MapView<'a> {
    pub world: &'a World,
    pub overlay: Overlay,
    pub palette: &'a Palette,
}

impl Widget for MapView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (world, p) = (self.world, self.palette);
        let camera = Camera::new(area, world.grid(), world.player().cell);
        for (cell, pos) in camera.cells() {
            let (glyph, style) = terrain(world.grid().tile(cell), p);
            buf[pos].set_char(glyph).set_style(style);
        }
        overlay::paint(self.overlay, world, &camera, p, buf);
        // Back to front: flocks under prey under wanderers under monsters.
        for kind in Kind::ALL.iter().rev() {
            for c in world.creatures().iter().filter(|c| c.kind == *kind) {
                if let Some(pos) = camera.screen(c.cell()) {
                    buf[pos]
                        .set_char(glyph(c))
                        .set_style(Style::new().fg(p.creature(c.kind)).add_modifier(Modifier::BOLD));
                }
            }
        }
        if let Some(c) = world.watched().and_then(|i| world.creatures().get(i))
            && let Some(pos) = camera.screen(c.cell())
        {
            buf[pos].set_char(glyph(c)).set_style(Style::new().fg(p.player).bg(p.watched).add_modifier(Modifier::BOLD));
        }
        if let Some(pos) = camera.screen(world.player().cell) {
            buf[pos].set_char(marker::PLAYER).set_style(Style::new().fg(p.player).add_modifier(Modifier::BOLD));
        }
    }
}

/// A tile's glyph (as in level files) and colour.
pub(super) fn terrain(tile: Tile, p: &Palette) -> (char, Style) {
    let style = Style::new();
    let glyph = crate::level::tile_glyph(tile);
    let style = match tile {
        Tile::Wall => style.fg(p.wall),
        Tile::Floor(1) => style.fg(p.floor),
        Tile::Floor(_) => style.fg(p.mud),
        Tile::Water => style.fg(p.water),
        Tile::DoorClosed | Tile::DoorOpen => style.fg(p.door).add_modifier(Modifier::BOLD),
    };
    (glyph, style)
}

/// A creature's glyph: its level letter, or for a moving boid an arrow of
/// its heading along the dominant axis, so that flocks show their flow.
pub fn glyph(c: &Creature) -> char {
    let v = c.body.vel;
    match c.kind {
        Kind::Boid if v.length_squared() < BOID_STILL * BOID_STILL => letter(Kind::Boid),
        Kind::Boid if v.x.abs() >= v.y.abs() => {
            if v.x > 0.0 {
                '>'
            } else {
                '<'
            }
        }
        Kind::Boid => {
            if v.y > 0.0 {
                'v'
            } else {
                '^'
            }
        }
        kind => letter(kind),
    }
}

/// A kind's letter, the marker that places it in a level.
pub fn letter(kind: Kind) -> char {
    match kind {
        Kind::Monster => marker::MONSTER,
        Kind::Wanderer => marker::WANDERER,
        Kind::Fleeing => marker::FLEEING,
        Kind::Boid => marker::BOID,
    }
}

/// Below this speed (cells per second) a boid has no heading worth showing.
const BOID_STILL: f32 = 0.2;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::sim::Settings;
    use crate::steer::Vec2;
    use crate::ui::testing::lines;

    fn grid(w: usize, h: usize) -> Grid {
        Grid::filled(w, h, Tile::Floor(1))
    }

    #[test]
    fn camera_follows_the_focus_inside_the_map() {
        let area = Rect::new(5, 2, 10, 4);
        let g = grid(100, 50);
        let cam = Camera::new(area, &g, Cell::new(50, 25));
        assert_eq!(cam.screen(Cell::new(50, 25)), Some(Position::new(10, 4)));
        assert_eq!(cam.screen(Cell::new(45, 23)), Some(Position::new(5, 2)));
        assert_eq!(cam.screen(Cell::new(44, 23)), None);
        assert_eq!(cam.cells().count(), 40);
        // Near a corner the view stops at the map's edge.
        let cam = Camera::new(area, &g, Cell::new(0, 49));
        assert_eq!(cam.screen(Cell::new(0, 46)), Some(Position::new(5, 2)));
        assert_eq!(cam.screen(Cell::new(9, 49)), Some(Position::new(14, 5)));
    }

    #[test]
    fn a_small_map_is_centred() {
        let cam = Camera::new(Rect::new(0, 0, 10, 5), &grid(4, 1), Cell::new(0, 0));
        assert_eq!(cam.screen(Cell::new(0, 0)), Some(Position::new(3, 2)));
        assert_eq!(cam.screen(Cell::new(-1, 0)), None);
        assert_eq!(cam.cells().count(), 4);
    }

    #[test]
    fn boids_show_their_heading() {
        let mut c = Creature::new(Kind::Boid, Vec2::new(0.5, 0.5), 0.0, 1.0);
        for (v, g) in [((0.0, 0.0), 'b'), ((1.0, 0.5), '>'), ((-1.0, 0.5), '<'), ((0.2, 1.0), 'v'), ((0.2, -1.0), '^')]
        {
            c.body.vel = Vec2::new(v.0, v.1);
            assert_eq!(glyph(&c), g, "{v:?}");
        }
    }

    #[test]
    fn letters_are_the_level_markers() {
        for &kind in Kind::ALL {
            let level = Level::parse(&format!("@{}\n", letter(kind)), "t").unwrap();
            let world = World::new(&level, 1, Settings::default()).unwrap();
            assert_eq!(world.creatures()[0].kind, kind);
        }
    }

    #[test]
    fn draws_terrain_creatures_and_player() {
        let level = Level::parse("#####\n#@.M#\n#~+'#\n#####\n", "t").unwrap();
        let world = World::new(&level, 1, Settings::default()).unwrap();
        let mut buf = Buffer::empty(Rect::new(0, 0, 7, 4));
        MapView { world: &world, overlay: Overlay::None, palette: &Palette::NAMED }.render(buf.area, &mut buf);
        assert_eq!(lines(&buf), [" ##### ", " #@.M# ", " #~+'# ", " ##### "]);
        assert_eq!(buf[(4, 1)].fg, Palette::NAMED.monster);
        assert_eq!(buf[(3, 1)].fg, Palette::NAMED.floor);
    }
}
