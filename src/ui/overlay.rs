//! Overlays drawn between the terrain and the creatures, to show what the
//! monsters think: their paths, one search's closed and open cells, and
//! where boids crowd.

use super::legend::Legend;
use super::map::Camera;
use super::palette::{Palette, Shade};
use crate::grid::Cell;
use crate::search::GridFlow;
use crate::sim::{Kind, World};
use ratatui::buffer::Buffer;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;

/// What is drawn over the map; `O` cycles them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    None,
    /// Each monster's raw cell path (dim) and its smoothed waypoints ahead
    /// (bright).
    Paths,
    /// The watched monster's last search: closed cells and the open
    /// frontier; under `incremental`, the cells its last repair updated;
    /// under `flow-field`, the shared field, shaded by distance.
    Search,
    /// How many boids are within a cell of each cell.
    Flock,
}

impl Overlay {
    pub fn next(self) -> Overlay {
        match self {
            Overlay::None => Overlay::Paths,
            Overlay::Paths => Overlay::Search,
            Overlay::Search => Overlay::Flock,
            Overlay::Flock => Overlay::None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Overlay::None => "none",
            Overlay::Paths => "paths",
            Overlay::Search => "search",
            Overlay::Flock => "flock",
        }
    }
}

/// Glyphs of a raw cell path and of its smoothed waypoints: the paths
/// overlay and `delve path` draw them alike.
pub const RAW_PATH: char = '*';
/// Glyph of a smoothed waypoint.
pub const WAYPOINT: char = 'o';

/// The style of a raw cell path: dim, under the waypoints.
pub fn raw_path_style(p: &Palette) -> Style {
    Style::new().fg(p.raw_path).add_modifier(Modifier::DIM)
}

/// The style of a waypoint ahead: bold.
pub fn waypoint_style(p: &Palette) -> Style {
    Style::new().fg(p.waypoint).add_modifier(Modifier::BOLD)
}

/// Draws `overlay` over the terrain already in `buf`.
pub fn paint(overlay: Overlay, world: &World, camera: &Camera, p: &Palette, buf: &mut Buffer) {
    match overlay {
        Overlay::None => {}
        Overlay::Paths => paths(world, camera, p, buf),
        Overlay::Search => search(world, camera, p, buf),
        Overlay::Flock => flock(world, camera, p, buf),
    }
}

/// The one-line legend under the map naming what `overlay` draws and in
/// which colours (or glyphs): each sample is drawn as the map draws it.
pub fn legend(overlay: Overlay, world: &World, p: &Palette) -> Legend {
    let legend = Legend::default();
    match overlay {
        Overlay::None => legend,
        Overlay::Paths => legend
            .key(Span::styled(RAW_PATH.to_string(), raw_path_style(p)), "each monster's path")
            .key(Span::styled(WAYPOINT.to_string(), waypoint_style(p)), "its waypoints ahead")
            .detail(format!("({})", world.settings().planner())),
        Overlay::Search => search_legend(world, p),
        Overlay::Flock => {
            let legend = legend.words("boids within a cell:");
            crowd_ranges().iter().enumerate().fold(legend, |l, (d, range)| l.key(p.swatch(Shade::Density(d)), range))
        }
    }
}

/// The search overlay's legend: the flow field's bands, the watched
/// monster's cells, or why there is nothing to shade.
fn search_legend(world: &World, p: &Palette) -> Legend {
    let legend = Legend::default();
    if let Some(key) = world.flow_field().and_then(GridFlow::key) {
        let bands = (0..BANDS).map(|b| p.swatch(Shade::Band(b))).collect();
        return legend
            .detail("flow field to you,")
            .words("near")
            .part(bands)
            .words("far")
            .detail(format!("(quarters of {})", crate::ui::rules::number(key.limit)));
    }
    if world.settings().planner().expansion().any_angle() {
        return legend
            .words(format!("{}: no cells to shade", world.settings().planner()))
            .detail("(it searches portals or corners)");
    }
    let Some(report) = &world.stats().watched_search else {
        return legend.words(match world.watched() {
            Some(_) => "waiting for the watched monster to search",
            None => "no monster watched (Tab picks one)",
        });
    };
    let legend = legend.detail("the watched monster's last search:");
    let repaired = !report.updated.is_empty();
    let legend =
        if !repaired || !report.closed.is_empty() { legend.key(p.swatch(Shade::Closed), "closed") } else { legend };
    let legend = if !repaired || !report.open.is_empty() { legend.key(p.swatch(Shade::Open), "open") } else { legend };
    if repaired { legend.key(p.swatch(Shade::Updated), "updated by its repair") } else { legend }
}

/// The boid counts of each density shade, as the flock legend words them:
/// `1`, `2-3`, `4+`.
fn crowd_ranges() -> Vec<String> {
    /// Counts looked at; the last shade holds every count from some point on.
    const UP_TO: u32 = 64;
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    for n in 1..=UP_TO {
        let d = crowd(n).expect("a count of one or more has a shade");
        match ranges.get_mut(d) {
            Some(r) => r.1 = n,
            None => ranges.push((n, n)),
        }
    }
    let last = ranges.len() - 1;
    ranges
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| match () {
            () if i == last => format!("{a}+"),
            () if a == b => a.to_string(),
            () => format!("{a}-{b}"),
        })
        .collect()
}

fn paths(world: &World, camera: &Camera, p: &Palette, buf: &mut Buffer) {
    let hunts = || world.creatures().iter().filter_map(|c| c.hunt.as_ref());
    for cell in hunts().flat_map(|h| h.path.iter().copied()) {
        if let Some(pos) = camera.screen(cell) {
            buf[pos].set_char(RAW_PATH).set_style(raw_path_style(p));
        }
    }
    let ahead = hunts().flat_map(|h| h.follower.waypoints.iter().skip(h.follower.index));
    for w in ahead {
        let cell = Cell::new(libm::floorf(w.x) as i32, libm::floorf(w.y) as i32);
        if let Some(pos) = camera.screen(cell) {
            buf[pos].set_char(WAYPOINT).set_style(waypoint_style(p));
        }
    }
}

fn search(world: &World, camera: &Camera, p: &Palette, buf: &mut Buffer) {
    if let Some(field) = world.flow_field() {
        return flow_field(field, world, camera, p, buf);
    }
    let Some(report) = &world.stats().watched_search else { return };
    for (cells, shade) in
        [(&report.closed, Shade::Closed), (&report.open, Shade::Open), (&report.updated, Shade::Updated)]
    {
        for pos in cells.iter().filter_map(|&c| camera.screen(c)) {
            p.shade(&mut buf[pos], shade);
        }
    }
}

/// The flow field's cells shaded by their distance to the player, in
/// quarters of how far the field reaches (its bound, or short of it where
/// its hunters stand nearer): the brightest nearest, the search's closed
/// colour for the farthest quarter; cells outside the field are left as
/// they are.
fn flow_field(field: &GridFlow, world: &World, camera: &Camera, p: &Palette, buf: &mut Buffer) {
    let Some(reach) = field.reach() else { return };
    for (cell, pos) in camera.cells() {
        if let Some(d) = field.distance(world.grid(), cell) {
            let quarter = ((d / reach.max(f64::MIN_POSITIVE)) * BANDS as f64) as usize;
            p.shade(&mut buf[pos], Shade::Band(quarter.min(BANDS - 1)));
        }
    }
}

/// Bands of the flow-field overlay: quarters of the field's bound.
pub const BANDS: usize = 4;

/// The density shade of a cell with `boids` boids within a cell of it:
/// none, one, two or three, more.
fn crowd(boids: u32) -> Option<usize> {
    match boids {
        0 => None,
        1 => Some(0),
        2 | 3 => Some(1),
        _ => Some(2),
    }
}

fn flock(world: &World, camera: &Camera, p: &Palette, buf: &mut Buffer) {
    // Each boid counts towards the 3x3 cells around it: linear in boids and
    // cells, so a spawned swarm of thousands stays cheap to draw.
    let mut near = vec![0u32; buf.content().len()];
    for b in world.creatures().iter().filter(|c| c.kind == Kind::Boid).map(|c| c.cell()) {
        for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
            if let Some(pos) = camera.screen(Cell::new(b.x + dx, b.y + dy)) {
                near[buf.index_of(pos.x, pos.y)] += 1;
            }
        }
    }
    for (_, pos) in camera.cells() {
        let Some(crowd) = crowd(near[buf.index_of(pos.x, pos.y)]) else { continue };
        p.shade(&mut buf[pos], Shade::Density(crowd));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::sim::Settings;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;

    #[test]
    fn cycle_wraps_through_all_four() {
        let mut o = Overlay::None;
        let names: Vec<&str> = (0..5)
            .map(|_| {
                let n = o.name();
                o = o.next();
                n
            })
            .collect();
        assert_eq!(names, ["none", "paths", "search", "flock", "none"]);
    }

    /// The player steps west to 1,1, where the monster at 6,3 hears it
    /// (7 walkable cells away) and plans round the wall; ticked until the
    /// first plan.
    fn world() -> World {
        world_with(Settings::default())
    }

    fn world_with(settings: Settings) -> World {
        let level = Level::parse("##########\n#.@......#\n#.######.#\n#.....M..#\n##########\n", "t").unwrap();
        let mut w = World::new(&level, 1, settings).unwrap();
        w.watch(Some(0));
        w.apply(crate::sim::Command::Move { dx: -1, dy: 0 });
        while w.stats().watched_search.is_none() && w.ticks() < 40 {
            w.tick();
        }
        w
    }

    fn painted(overlay: Overlay, world: &World) -> Buffer {
        let area = Rect::new(0, 0, 10, 5);
        let mut buf = Buffer::empty(area);
        paint(overlay, world, &Camera::new(area, world.grid(), world.player().cell), &Palette::NAMED, &mut buf);
        buf
    }

    #[test]
    fn paths_show_raw_cells_and_waypoints() {
        let w = world();
        assert!(!w.creatures()[0].hunt.as_ref().unwrap().path.is_empty());
        let buf = painted(Overlay::Paths, &w);
        // The monster at 6,3 goes round the wall the short way, along row 3
        // and up column 1 to the player at 1,1: raw cells dim, waypoints
        // (the corner and the end) over them.
        assert_eq!(w.player().cell, Cell::new(1, 1));
        let expected = ["          ", " o        ", " *        ", " o*****   ", "          "];
        assert_eq!(crate::ui::testing::lines(&buf), expected);
        let p = Palette::NAMED;
        assert_eq!((buf[(1, 2)].fg, buf[(6, 3)].fg), (p.raw_path, p.raw_path));
        assert!(buf[(6, 3)].modifier.contains(Modifier::DIM));
        assert_eq!((buf[(1, 1)].fg, buf[(1, 3)].fg), (p.waypoint, p.waypoint));
        assert_eq!(painted(Overlay::None, &w), Buffer::empty(Rect::new(0, 0, 10, 5)));
    }

    /// An any-angle path is drawn as the cells its segments cross, with its
    /// points (the corner, offset from the wall, and the end) over them.
    #[test]
    fn paths_show_any_angle_paths_by_the_cells_they_cross() {
        for planner in [crate::search::Planner::NAVMESH, crate::search::Planner::WAYPOINTS] {
            let w = world_with(Settings::default().with_planner(planner));
            let buf = painted(Overlay::Paths, &w);
            let expected = ["          ", " o        ", " *        ", " o*****   ", "          "];
            assert_eq!(crate::ui::testing::lines(&buf), expected, "{planner}");
            // The bend is the wall's corner (2, 3) moved away from it by
            // the body radius, not a cell centre.
            let bend = w.creatures()[0].hunt.as_ref().unwrap().follower.waypoints[0];
            let r = crate::sim::BODY_RADIUS;
            assert!((bend.x - (2.0 - r)).abs() < 1e-4 && (bend.y - (3.0 + r)).abs() < 1e-4, "{planner}: {bend:?}");
        }
    }

    #[test]
    fn search_shades_closed_and_open_cells_of_the_watched_monster() {
        let w = world();
        let report = w.stats().watched_search.as_ref().unwrap();
        let buf = painted(Overlay::Search, &w);
        let bg = |c: Cell| buf[(c.x as u16, c.y as u16)].bg;
        assert!(report.closed.iter().all(|&c| bg(c) == Palette::NAMED.closed));
        assert!(report.open.iter().all(|&c| bg(c) == Palette::NAMED.open));
        assert!(!report.closed.is_empty());
    }

    /// Under `flow-field` the search overlay shades the shared field by
    /// distance, in quarters of how far it reaches: as far as the one
    /// monster hunting the player (4 cells down the corridor), short of its
    /// bound (15.5 with a detection radius of 6). The map, then each cell's
    /// shade (1 nearest, `.` none).
    #[test]
    fn search_shows_the_flow_field_under_flow_field() {
        let text = "############\n#@+........#\n#.#........#\n#.#........#\n#.######...#\n#M.........#\n############\n";
        let level = Level::parse(text, "t").unwrap();
        let settings =
            Settings { repath: crate::sim::RepathPolicy::FlowField, detection_radius: 6.0, ..Settings::default() };
        let mut w = World::new(&level, 1, settings).unwrap();
        w.tick();
        let field = w.flow_field().unwrap();
        assert_eq!(field.key().map(|k| k.limit), Some(15.5));
        assert!(field.reach().is_some_and(|r| (4.0..15.5).contains(&r)), "{:?}", field.reach());
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 7));
        let palette = Palette::NAMED;
        crate::ui::map::MapView::plain(&w, &level, Overlay::Search, &palette).render(buf.area, &mut buf);
        let p = Palette::NAMED;
        let shades = [p.density[2], p.density[1], p.density[0], p.closed];
        let shade = |x: u16, y: u16| match shades.iter().position(|&c| c == buf[(x, y)].bg) {
            Some(i) => char::from(b'1' + i as u8),
            None => '.',
        };
        let field: Vec<String> = (0..7).map(|y| (0..12).map(|x| shade(x, y)).collect()).collect();
        let shown = [crate::ui::testing::lines(&buf), field].concat().join("\n");
        insta::assert_snapshot!(shown);
    }

    #[test]
    fn search_shades_the_cells_an_incremental_repair_updated() {
        let level = Level::parse("##########\n#.@......#\n#.######.#\n#.....M..#\n##########\n", "t").unwrap();
        let settings = Settings { repath: crate::sim::RepathPolicy::Incremental, ..Settings::default() };
        let mut w = World::new(&level, 1, settings).unwrap();
        w.watch(Some(0));
        w.apply(crate::sim::Command::Move { dx: -1, dy: 0 });
        while w.stats().watched_search.is_none() && w.ticks() < 40 {
            w.tick();
        }
        let report = w.stats().watched_search.as_ref().unwrap();
        assert!(report.closed.is_empty() && report.open.is_empty() && !report.updated.is_empty());
        let buf = painted(Overlay::Search, &w);
        let bg = |c: Cell| buf[(c.x as u16, c.y as u16)].bg;
        assert!(report.updated.iter().all(|&c| bg(c) == Palette::NAMED.updated));
    }

    #[test]
    fn flock_shades_by_boids_nearby() {
        let level = Level::parse("@.........\n.bb.......\n.bb...b...\n..........\n..........\n", "t").unwrap();
        let w = World::new(&level, 1, Settings::default()).unwrap();
        let buf = painted(Overlay::Flock, &w);
        let bg = |x: u16, y: u16| buf[(x, y)].bg;
        let d = Palette::NAMED.density;
        // A clump of four boids at 1-2,1-2 and one alone at 6,2.
        assert_eq!(bg(1, 2), d[2]);
        assert_eq!(bg(3, 1), d[1]);
        assert_eq!(bg(3, 3), d[0]);
        assert_eq!(bg(6, 2), d[0]);
        assert_eq!(bg(0, 1), d[1]);
        assert_eq!(bg(4, 0), ratatui::style::Color::Reset);
    }
}
