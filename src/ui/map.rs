//! The map view: terrain, creatures and the player, seen through a camera
//! that follows the player across levels larger than the screen.

use super::overlay::{self, Overlay};
use super::palette::Palette;
use super::sight::Sight;
use crate::grid::{Cell, Grid, Tile};
use crate::level::{Level, marker};
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

    /// The map cell drawn at screen `pos` (a mouse click), if `pos` is in
    /// the view and shows a cell of the map: the inverse of
    /// [`screen`](Camera::screen).
    pub fn cell(&self, pos: Position) -> Option<Cell> {
        let cell = Cell::new(
            self.origin.x + i32::from(pos.x) - i32::from(self.area.x),
            self.origin.y + i32::from(pos.y) - i32::from(self.area.y),
        );
        (self.area.contains(pos) && self.screen(cell) == Some(pos)).then_some(cell)
    }

    /// The screen area the view fills.
    pub fn area(&self) -> Rect {
        self.area
    }

    /// Where `cell` would be drawn, in view or not (screen columns and
    /// rows, which may be off the area or negative).
    pub fn toward(&self, cell: Cell) -> (i32, i32) {
        (i32::from(self.area.x) + cell.x - self.origin.x, i32::from(self.area.y) + cell.y - self.origin.y)
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
    /// The level's `S` and `G` markers.
    pub markers: Markers,
    /// The fog of war, when the field of view is on.
    pub sight: Option<&'a Sight>,
    /// What the watched monster sees, shown besides what the player sees
    /// while the camera follows it under the field of view.
    pub eyes: Option<&'a Sight>,
    /// The cell the camera follows instead of the player's (the watched
    /// monster's, on request; the travel cursor's while it is open).
    pub focus: Option<Cell>,
    /// The travel cursor, drawn in reverse video over its cell.
    pub cursor: Option<Cell>,
}

impl<'a> MapView<'a> {
    /// The map of `world` as a test draws it: `level`'s markers, no fog,
    /// no watched monster's eyes, the camera on the player, no cursor (a
    /// test sets the one field it is about with `..`).
    #[cfg(test)]
    pub(crate) fn plain(world: &'a World, level: &Level, overlay: Overlay, palette: &'a Palette) -> MapView<'a> {
        let markers = Markers::of(level);
        MapView { world, overlay, palette, markers, sight: None, eyes: None, focus: None, cursor: None }
    }
}

/// The path markers a level places: drawn in play, since `G` is the goal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Markers {
    pub start: Option<Cell>,
    pub goal: Option<Cell>,
}

impl Markers {
    pub fn of(level: &Level) -> Markers {
        Markers { start: level.start, goal: level.goal }
    }
}

/// Ticks of each half of the player's flash during grace after a catch.
const FLASH_TICKS: u64 = 3;

/// Glyph of the cell where a monster now out of sight was last seen.
pub const LAST_SEEN: char = 'm';

/// The style of a monster's last-seen mark: the monsters' colour, not
/// bold (the monsters themselves are).
pub fn last_seen_style(p: &Palette) -> Style {
    Style::new().fg(p.monster)
}

impl Widget for MapView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (world, p) = (self.world, self.palette);
        let camera = Camera::new(area, world.grid(), self.focus.unwrap_or(world.player().cell));
        let eyes = |c: Cell| self.eyes.is_some_and(|s| s.visible(c));
        let shown = |c: Cell| self.sight.is_none_or(|s| s.seen(c)) || eyes(c);
        let in_sight = |c: Cell| self.sight.is_none_or(|s| s.visible(c)) || eyes(c);
        for (cell, pos) in camera.cells().filter(|&(c, _)| shown(c)) {
            let (glyph, style) = terrain(world.grid().tile(cell), p);
            // Remembered, not seen: dimmed.
            let style = if in_sight(cell) { style } else { style.fg(p.floor).add_modifier(Modifier::DIM) };
            buf[pos].set_char(glyph).set_style(style);
        }
        let markers = [(self.markers.start, marker::START, p.start), (self.markers.goal, marker::GOAL, p.goal)];
        for (cell, glyph, colour) in markers.into_iter().filter_map(|(c, g, k)| Some((c?, g, k))) {
            if let Some(pos) = camera.screen(cell).filter(|_| shown(cell)) {
                buf[pos].set_char(glyph).set_style(p.marker(colour));
            }
        }
        overlay::paint(self.overlay, world, &camera, p, buf);
        // Where monsters now out of sight were last seen.
        if let Some(sight) = self.sight {
            for (i, at) in sight.last_seen(world) {
                let monster = world.creatures()[i].cell();
                if let Some(pos) = camera.screen(at).filter(|_| !in_sight(monster) && !in_sight(at)) {
                    buf[pos].set_char(LAST_SEEN).set_style(last_seen_style(p));
                }
            }
        }
        // Only the creatures in view are drawn (one pass over the list, a
        // cheap test each, so 100,000 creatures cost the view's few);
        // back to front: flocks under prey under wanderers under monsters,
        // each kind in creature order; out of sight, nothing.
        let mut shown: Vec<(usize, &Creature, Position)> = world
            .creatures()
            .iter()
            .filter_map(|c| Some((c, camera.screen(c.cell())?)))
            .filter(|&(c, _)| in_sight(c.cell()))
            .map(|(c, pos)| (Kind::ALL.len() - 1 - c.kind as usize, c, pos))
            .collect();
        shown.sort_by_key(|&(layer, _, _)| layer);
        // A monster on the player's own cell would hide under `@`: the
        // player's cell then wears the monsters' colour, as in the grace
        // after a catch, for as long as it stands there.
        let player = world.player().cell;
        let shared = shown.iter().any(|&(_, c, _)| c.kind == Kind::Monster && c.cell() == player);
        for (_, c, pos) in shown {
            buf[pos].set_char(glyph(c)).set_style(Style::new().fg(p.creature(c.kind)).add_modifier(Modifier::BOLD));
        }
        if let Some(c) = world.watched().and_then(|i| world.creatures().get(i)).filter(|c| in_sight(c.cell()))
            && let Some(pos) = camera.screen(c.cell())
        {
            buf[pos].set_char(glyph(c)).set_style(p.highlight(p.player, p.watched));
        }
        if let Some(pos) = camera.screen(world.player().cell) {
            // After a catch the player's cell flashes while the grace lasts.
            let flash = world.grace_ticks_left() > 0 && (world.ticks() / FLASH_TICKS).is_multiple_of(2);
            let style = if flash || shared {
                p.highlight(p.player, p.monster)
            } else {
                Style::new().fg(p.player).add_modifier(Modifier::BOLD)
            };
            buf[pos].set_char(marker::PLAYER).set_style(style);
        }
        if let Some(pos) = self.cursor.and_then(|c| camera.screen(c)) {
            let cell = &mut buf[pos];
            cell.set_style(cell.style().add_modifier(Modifier::REVERSED | Modifier::BOLD));
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

/// The arrows a flying boid is drawn as: east, west, south, north.
pub const ARROWS: [char; 4] = ['>', '<', 'v', '^'];

/// A creature's glyph: its level letter, or for a moving boid an arrow of
/// its heading along the dominant axis, so that flocks show their flow.
pub fn glyph(c: &Creature) -> char {
    let v = c.body.vel;
    match c.kind {
        Kind::Boid if v.length_squared() < BOID_STILL * BOID_STILL => letter(Kind::Boid),
        Kind::Boid if v.x.abs() >= v.y.abs() => ARROWS[usize::from(v.x <= 0.0)],
        Kind::Boid => ARROWS[2 + usize::from(v.y <= 0.0)],
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
    use ratatui::style::Color;

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

    /// A click maps back to the cell drawn there, through the camera's
    /// offset; the margin round a small map and anything outside the view
    /// are no cell.
    #[test]
    fn a_screen_position_maps_back_to_its_cell() {
        let big = grid(100, 50);
        let area = Rect::new(3, 2, 20, 10);
        let camera = Camera::new(area, &big, Cell::new(60, 30));
        for (cell, pos) in camera.cells() {
            assert_eq!(camera.cell(pos), Some(cell));
        }
        assert_eq!(camera.cell(Position::new(3, 2)), camera.cells().next().map(|(c, _)| c));
        assert_eq!(camera.cell(Position::new(3, 2)), Some(Cell::new(50, 25)));
        for outside in [Position::new(2, 2), Position::new(23, 5), Position::new(5, 12), Position::new(0, 0)] {
            assert_eq!(camera.cell(outside), None, "{outside:?}");
        }
        let small = grid(4, 3);
        let centred = Camera::new(area, &small, Cell::new(0, 0));
        assert_eq!(centred.cell(Position::new(3, 2)), None, "the margin round a small map");
        let drawn = centred.screen(Cell::new(0, 0)).unwrap();
        assert_eq!(centred.cell(drawn), Some(Cell::new(0, 0)));
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
        let view = MapView::plain(&world, &level, Overlay::None, &Palette::NAMED);
        view.render(buf.area, &mut buf);
        assert_eq!(lines(&buf), [" ##### ", " #@.M# ", " #~+'# ", " ##### "]);
        assert_eq!(buf[(4, 1)].fg, Palette::NAMED.monster);
        assert_eq!(buf[(3, 1)].fg, Palette::NAMED.floor);
    }

    #[test]
    fn a_monster_on_the_players_cell_colours_it() {
        let level = Level::parse("#######\n#@...M#\n#######\n", "t").unwrap();
        let mut world = World::new(&level, 1, Settings::default()).unwrap();
        let p = Palette::NAMED;
        let player_cell = |world: &World| {
            let buf = view(world, &level, None);
            (buf[(1, 1)].symbol().to_string(), buf[(1, 1)].bg)
        };
        assert_eq!(player_cell(&world), ("@".to_string(), Color::Reset), "alone: plain");
        // In the sandbox a hunter walks onto the player and stays there.
        while world.creatures()[0].cell() != world.player().cell && world.ticks() < 400 {
            world.tick();
        }
        assert_eq!(world.creatures()[0].cell(), world.player().cell, "the hunter never reached the player");
        assert_eq!(player_cell(&world), ("@".to_string(), p.monster), "the monster shows round the player");
    }

    #[test]
    fn the_camera_follows_the_focus_when_given() {
        // A corridor wider than the view: the player at the west end, a
        // monster at the east end.
        let row = format!("@{}M", ".".repeat(40));
        let level = Level::parse(&format!("{row}\n"), "t").unwrap();
        let world = World::new(&level, 1, Settings::default()).unwrap();
        let monster = world.creatures()[0].cell();
        let draw = |focus| {
            let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
            MapView { focus, ..MapView::plain(&world, &level, Overlay::None, &Palette::NAMED) }
                .render(buf.area, &mut buf);
            lines(&buf)[0].clone()
        };
        assert!(draw(None).starts_with('@'), "{}", draw(None));
        assert!(draw(Some(monster)).ends_with('M'), "{}", draw(Some(monster)));
    }

    fn view<'a>(world: &'a World, level: &Level, sight: Option<&'a Sight>) -> Buffer {
        let area = Rect::new(0, 0, world.grid().width() as u16, world.grid().height() as u16);
        let mut buf = Buffer::empty(area);
        MapView { sight, ..MapView::plain(world, level, Overlay::None, &Palette::NAMED) }.render(area, &mut buf);
        buf
    }

    #[test]
    fn the_goal_and_start_have_colours_of_their_own() {
        let level = Level::parse("#######\n#@S..G#\n#######\n", "t").unwrap();
        let world = World::new(&level, 1, Settings::default()).unwrap();
        let buf = view(&world, &level, None);
        assert_eq!(lines(&buf)[1], "#@S..G#");
        let p = Palette::NAMED;
        assert_eq!((buf[(5, 1)].bg, buf[(2, 1)].bg), (p.goal, p.start));
        assert!(buf[(5, 1)].modifier.contains(Modifier::BOLD));
        assert_ne!(p.goal, p.start);
    }

    #[test]
    fn the_fog_hides_the_unseen_and_dims_the_remembered() {
        let level = Level::parse("#########\n#.M.+@..#\n#########\n", "t").unwrap();
        let mut world = World::new(&level, 1, Settings::default()).unwrap();
        // The door opened and shut again: what was seen through it is
        // remembered.
        world.apply(crate::sim::Command::Door);
        world.apply(crate::sim::Command::Door);
        let mut sight = Sight::default();
        sight.update(&world);
        let buf = view(&world, &level, Some(&sight));
        // The monster behind the closed door is out of sight, marked where
        // it was seen through the door; the cells seen through it are
        // remembered, dimmed.
        assert_eq!(lines(&buf)[1], "#.m.+@..#");
        assert!(buf[(2, 1)].modifier.contains(Modifier::DIM));
        assert!(!buf[(6, 1)].modifier.contains(Modifier::DIM));
        let far = view(&world, &level, Some(&Sight::default()));
        // A view that has not looked yet: only the player, and the monster
        // where the world remembers it.
        assert_eq!(lines(&far)[1], "  m  @   ", "nothing seen yet");
        let clear = view(&world, &level, None);
        assert_eq!(lines(&clear)[1], "#.M.+@..#");
    }
}
