//! The whole screen: map on the left with the message log under it, panel
//! on the right, status line at the bottom; over them the end screen, the
//! help popup and the quit question; or, on a terminal too small to hold
//! them, a message saying so.

use super::app::{App, Mode};
use super::end::EndScreen;
use super::help::{self, key_name};
use super::keys::{self, Action, STATUS, Ui};
use super::log::{LogView, game_time};
use super::map::{Camera, MapView};
use super::overlay::{self, Overlay};
use super::palette::Palette;
use super::panel::{self, Panel};
use super::senses::Senses;
use crate::grid::{Cell, Tile, WATER_COST};
use crate::level::marker;
use crate::shown::shown;
use crate::sim::{Goal, Outcome, Settings, TICKS_PER_SECOND, World};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Alignment, Constraint, Layout, Position, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

/// Smallest terminal the screen is laid out for.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 20;

/// Lines of the message log on the smallest terminal, at 80x24, and at
/// most.
const LOG_MIN: u16 = 2;
const LOG_AT_FLOOR: u16 = 3;
const LOG_MAX: u16 = 8;

/// The terminal every screen is laid out for in full (smaller ones still
/// work, with less shown): 80x24.
pub const FLOOR: (u16, u16) = (80, 24);

/// Whether a terminal of `width` x `height` is too small for the game:
/// the too-small message shows instead, and time stands still.
pub fn is_too_small(width: u16, height: u16) -> bool {
    width < MIN_WIDTH || height < MIN_HEIGHT
}

/// Lines of the message log on a terminal `height` rows tall: two below
/// 80x24, three there, and one more for every six rows above.
fn log_rows(height: u16) -> u16 {
    match height.checked_sub(FLOOR.1) {
        None => LOG_MIN,
        Some(above) => (LOG_AT_FLOOR + above / 6).min(LOG_MAX),
    }
}

/// Where a frame draws what, on a terminal's `area` that is not too
/// small: what the renderer lays out, and what a click is read against.
struct Areas {
    /// The map's block, border included.
    map: Rect,
    log: Rect,
    side: Rect,
    status: Rect,
    /// Where the map's cells are drawn.
    view: Rect,
    /// The overlay's legend, on the map's last row while one is shown.
    legend: Option<Rect>,
}

fn areas(area: Rect, app: &App) -> Areas {
    let [main, status] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let [left, side] = Layout::horizontal([Constraint::Fill(1), Constraint::Length(panel::WIDTH)]).areas(main);
    let [map, log] = Layout::vertical([Constraint::Fill(1), Constraint::Length(log_rows(area.height))]).areas(left);
    let inner = Block::bordered().inner(map);
    // An overlay names its colours on the map's last row.
    let (view, legend) = match app.overlay {
        Overlay::None => (inner, None),
        _ if inner.height < 2 => (inner, None),
        _ => {
            let [view, legend] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(inner);
            (view, Some(legend))
        }
    };
    Areas { map, log, side, status, view, legend }
}

/// The cell the map's camera centres on: the travel cursor while it is
/// open, the watched monster while the camera follows it, else the player.
fn focus(app: &App, world: &World) -> Cell {
    let followed = world.watched().filter(|_| app.follow).and_then(|i| world.creatures().get(i));
    match app.mode {
        Mode::Cursor => app.cursor,
        _ => followed.map_or(world.player().cell, |c| c.cell()),
    }
}

/// The map cell drawn at `pos` on a terminal of `area` (a mouse click),
/// laid out as [`draw`] lays it out: none on the borders, the panel, the
/// log, the status line, the overlay's legend, the margin round a small
/// map, or a terminal too small for the game.
pub fn cell_at(area: Rect, pos: Position, app: &App, world: &World) -> Option<Cell> {
    if is_too_small(area.width, area.height) {
        return None;
    }
    Camera::new(areas(area, app).view, world.grid(), focus(app, world)).cell(pos)
}

/// Draws one frame.
pub fn draw(frame: &mut Frame, app: &App, world: &World) {
    let area = frame.area();
    if is_too_small(area.width, area.height) {
        frame.render_widget(too_small(area, app.mode == Mode::Quitting), area);
        return;
    }
    let Areas { map, log, side, status, view: view_area, legend: legend_area } = areas(area, app);
    let p = &app.palette;
    // The bottom border: the goal on the left, the senses on the right,
    // each as long as the room the other leaves.
    let room = map.width.saturating_sub(2);
    let goal = goal_line(world, room);
    let senses = Senses::of(world).line(p, room.saturating_sub(goal.width() as u16 + 1));
    let block = Block::bordered().title(map_title(app, world, room)).title_bottom(goal).title_bottom(senses);
    frame.render_widget(block, map);
    let sight = app.fov.then_some(&app.sight);
    let cursor = (app.mode == Mode::Cursor).then_some(app.cursor);
    let followed = world.watched().filter(|_| app.follow).and_then(|i| world.creatures().get(i));
    let focus = Some(focus(app, world));
    // Under the field of view the camera on a monster shows what it sees.
    let mut eyes = app.eyes.borrow_mut();
    let eyes = match (sight, followed.filter(|_| cursor.is_none())) {
        (Some(_), Some(monster)) => {
            let radius = libm::ceilf(world.settings().detection_radius.max(0.0)) as i32;
            eyes.see(world.grid(), monster.cell(), radius);
            Some(&*eyes)
        }
        _ => None,
    };
    let view = MapView { world, overlay: app.overlay, palette: p, markers: app.markers, sight, eyes, focus, cursor };
    frame.render_widget(view, view_area);
    if let Some(legend) = legend_area {
        let line = overlay::legend(app.overlay, world, p).fit(legend.width);
        frame.render_widget(Clear, legend);
        frame.render_widget(line, legend);
    }
    frame.render_widget(LogView { log: &app.log, palette: p }, log);
    frame.render_widget(Panel { turns: app.turns, ..Panel::new(world, &app.clock, p) }, side);
    let status_line =
        if app.mode == Mode::Cursor { cursor_line(app, world) } else { status_line(app, world, area.width) };
    frame.render_widget(status_line, status);
    if world.outcome() != Outcome::Running {
        let waiting = app.live && app.end_guard_left().is_some();
        let end = EndScreen { world, palette: p, live: app.live, stakes: &app.stakes, waiting };
        frame.render_widget(end, area);
    }
    match app.mode {
        Mode::Help => help::render(frame, area, p, &app.help, world, &app.about),
        Mode::History => super::history::render(frame, area, p, &app.log, &app.history),
        Mode::Quitting => frame.render_widget(confirm(p, app.stakes.permadeath), area),
        Mode::Play | Mode::Ended | Mode::TooSmall | Mode::Seeking | Mode::Cursor => {}
    }
}

/// The map's title: the level, then what the view shows, as much as fits
/// in `room` columns, the camera first (the view is not of the player).
fn map_title(app: &App, world: &World, room: u16) -> String {
    let mut parts = vec![shown(world.name()).into_owned()];
    if app.follow {
        parts.push(match world.watched() {
            Some(i) => format!("camera on M {} (C: back to you)", world.monster_ordinal(i)),
            None => "camera: no monster watched (Tab)".to_string(),
        });
    }
    match app.overlay {
        Overlay::None => {}
        // The paths are the planner's: it is named.
        Overlay::Paths => parts.push(format!("paths overlay ({})", world.settings().planner())),
        o => parts.push(format!("{} overlay", o.name())),
    }
    if app.fov {
        parts.push(if app.follow && world.watched().is_some() { "what it sees" } else { "field of view" }.into());
    }
    let mut title = String::new();
    for part in parts {
        let next = if title.is_empty() { part } else { format!("{title} · {part}") };
        if title.is_empty() || next.chars().count() + 2 <= usize::from(room) {
            title = next;
        }
    }
    format!(" {title} ")
}

/// The goal and the lives, under the map: what a new player needs to know
/// (shorter when `room` columns do not hold it).
fn goal_line(world: &World, room: u16) -> Line<'static> {
    let goal = match world.rules().goal {
        Goal::None => "no goal: a sandbox".to_string(),
        Goal::Reach => format!("goal: reach {}", marker::GOAL),
        Goal::Survive { ticks } => {
            let left = ticks.saturating_sub(world.ticks());
            format!("goal: survive {} more", game_time(left + u64::from(TICKS_PER_SECOND) - 1))
        }
    };
    let lives = match world.lives() {
        Some(n) => format!("lives {n}"),
        None => "lives unlimited".to_string(),
    };
    let line = format!(" {goal} · {lives} ");
    if line.chars().count() + SENSES_ROOM <= usize::from(room) {
        Line::from(line)
    } else {
        Line::from(format!(" {goal} "))
    }
}

/// Columns the goal line leaves for the senses before it shortens: the
/// shortest indicator, `unseen · silent`, and its spaces.
const SENSES_ROOM: usize = 18;

/// The question `q` asks mid-session, centred over `area`; `permadeath`:
/// quitting ends the run it is part of (the descent).
fn confirm(palette: &Palette, permadeath: bool) -> impl Widget {
    let key = Style::new().fg(palette.key);
    let question = if permadeath { " Quit? The descent ends here. " } else { " Quit this game? " };
    let line = Line::from(vec![
        Span::raw(question),
        Span::styled("q", key),
        Span::raw(" or "),
        Span::styled("Enter", key),
        Span::raw(" quits, any other key plays on "),
    ]);
    Confirm(line)
}

/// A one-line question in a box, centred.
struct Confirm(Line<'static>);

impl Widget for Confirm {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let popup = area.centered(Constraint::Length(self.0.width() as u16 + 2), Constraint::Length(3));
        Clear.render(popup, buf);
        Paragraph::new(self.0).block(Block::bordered()).render(popup, buf);
    }
}

/// The message shown instead of the screen on a small terminal.
fn too_small(area: Rect, confirming: bool) -> Paragraph<'static> {
    let text = format!("terminal too small (need {MIN_WIDTH}x{MIN_HEIGHT}, have {}x{})", area.width, area.height);
    let pad = area.height.saturating_sub(1) / 2;
    let mut lines = vec![Line::default(); pad as usize];
    lines.push(Line::from(text).bold());
    lines.push(Line::from(if confirming {
        "quit? q or Enter quits, any other key plays on"
    } else {
        "paused; q quits"
    }));
    Paragraph::new(lines).alignment(Alignment::Center).wrap(Wrap { trim: true })
}

/// Pace and mode, then the most useful keys: as many whole ones as fit in
/// `width` columns (the help lists them all).
fn status_line(app: &App, world: &World, width: u16) -> Line<'static> {
    let key = Style::new().fg(app.palette.key);
    let mode = match world.outcome() {
        Outcome::Won => " WON ".to_string(),
        Outcome::Lost => " LOST ".to_string(),
        Outcome::Running if app.mode == Mode::Seeking => " SEEKING ".to_string(),
        Outcome::Running if app.clock.paused() || app.held() => " PAUSED ".to_string(),
        Outcome::Running if app.turns => " TURNS ".to_string(),
        Outcome::Running => format!(" {} ", app.clock.speed_label()),
    };
    let mut spans = vec![Span::raw(mode).reversed()];
    if !app.live {
        spans.push(Span::raw(" REPLAY ").reversed().bold());
    }
    for (keys, name) in STATUS {
        if !app.live && changes_world(keys[0]) {
            continue;
        }
        let names: Vec<String> = keys.iter().map(|&k| key_name(k)).collect();
        let sep = if names.iter().all(|n| n.chars().count() == 1) { "" } else { "/" };
        let entry = [Span::raw("  "), Span::styled(names.join(sep), key), Span::raw(format!(" {name}"))];
        let used: usize = spans.iter().chain(&entry).map(Span::width).sum();
        if used > usize::from(width) {
            break;
        }
        spans.extend(entry);
    }
    Line::from(spans)
}

/// The status line while the travel cursor is open: where it is, what is
/// there, and the keys.
fn cursor_line(app: &App, world: &World) -> Line<'static> {
    let key = Style::new().fg(app.palette.key);
    let c = app.cursor;
    let known = !app.fov || world.memory().seen(c);
    let what = match world.grid().tile(c) {
        _ if !known => "not seen".to_string(),
        _ if c == world.player().cell => "you".to_string(),
        _ if Some(c) == world.goal_cell() => "the goal".to_string(),
        Tile::Wall => "wall".to_string(),
        Tile::Floor(1) => "floor".to_string(),
        Tile::Floor(cost) => format!("mud, cost {cost}"),
        Tile::Water => format!("water, cost {WATER_COST}"),
        Tile::DoorClosed => "closed door".to_string(),
        Tile::DoorOpen => "open door".to_string(),
    };
    let mut spans = vec![Span::raw(format!(" TRAVEL {c} ({what}) ")).reversed()];
    for (keys, name) in
        [("hjklyubn", "move"), ("HJKL", "8 cells"), (">", "goal"), ("Enter", "travel"), ("Esc", "cancel")]
    {
        spans.push(Span::raw("  "));
        spans.push(Span::styled(keys, key));
        spans.push(Span::raw(format!(" {name}")));
    }
    Line::from(spans)
}

/// Whether `key` asks for a change to the world (or leads to one, as the
/// travel keys and turn mode do), which a replay ignores.
fn changes_world(key: KeyCode) -> bool {
    let press = KeyEvent::new(key, KeyModifiers::NONE);
    matches!(
        keys::action(press, &Settings::default()),
        Some(Action::World(_) | Action::Ui(Ui::Travel | Ui::TravelGoal | Ui::Turns))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::keys::BINDINGS;
    use crate::ui::palette::Palette;
    use crate::ui::testing::{lines, played};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn screen(width: u16, height: u16, app: &App, world: &World) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(frame, app, world)).unwrap();
        lines(terminal.backend().buffer())
    }

    /// Where `c` is drawn on the screen `buf`, found by its glyph.
    fn drawn(buf: &ratatui::buffer::Buffer, glyph: &str, left_of: u16) -> Position {
        let area = buf.area;
        (area.top()..area.bottom())
            .flat_map(|y| (area.left()..left_of).map(move |x| Position::new(x, y)))
            .find(|&p| buf[p].symbol() == glyph)
            .expect("drawn")
    }

    /// A click maps to the cell the renderer draws there, through the
    /// same layout (the camera scrolled over a map larger than the view,
    /// an overlay's legend row); clicks on the borders, the panel, the log
    /// and the status line, or on a terminal too small, are no cell.
    #[test]
    fn a_click_maps_to_the_cell_drawn_under_it() {
        let world = played(0);
        for (w, h, overlay) in [(80, 24, Overlay::None), (120, 40, Overlay::Search), (200, 60, Overlay::None)] {
            let mut app = App::new(Palette::NAMED, true);
            app.overlay = overlay;
            let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
            terminal.draw(|frame| draw(frame, &app, &world)).unwrap();
            let buf = terminal.backend().buffer().clone();
            let area = Rect::new(0, 0, w, h);
            let at = drawn(&buf, "@", w - panel::WIDTH);
            assert_eq!(cell_at(area, at, &app, &world), Some(world.player().cell), "{w}x{h}");
            // The cell beside the player is the one drawn beside it.
            let right = Position::new(at.x + 1, at.y);
            let p = world.player().cell;
            assert_eq!(cell_at(area, right, &app, &world), Some(Cell::new(p.x + 1, p.y)), "{w}x{h}");
            let nothing = [
                Position::new(0, 0),
                Position::new(0, at.y),
                Position::new(w - 1, 5),
                Position::new(w - panel::WIDTH + 3, at.y),
                Position::new(3, h - 1),
                Position::new(3, h - 2),
            ];
            for pos in nothing {
                assert_eq!(cell_at(area, pos, &app, &world), None, "{w}x{h} {pos:?}");
            }
            if overlay != Overlay::None {
                let Areas { legend, .. } = areas(area, &app);
                let legend = legend.expect("a legend row");
                assert_eq!(cell_at(area, legend.as_position(), &app, &world), None, "the legend row");
            }
        }
        let app = App::new(Palette::NAMED, true);
        assert_eq!(cell_at(Rect::new(0, 0, 59, 20), Position::new(10, 5), &app, &world), None, "too small");
    }

    #[test]
    fn a_small_terminal_gets_a_message_and_no_panic() {
        let world = played(0);
        let app = App::new(Palette::NAMED, true);
        let text = screen(59, 20, &app, &world);
        assert_eq!(text[9].trim(), "terminal too small (need 60x20, have 59x20)");
        assert_eq!(text[10].trim(), "paused; q quits");
        let text = screen(80, 19, &app, &world);
        assert_eq!(text[9].trim(), "terminal too small (need 60x20, have 80x19)");
        for (w, h) in [(0, 0), (1, 1), (10, 3), (59, 100), (300, 5)] {
            let text = screen(w, h, &app, &world);
            assert!(!text.iter().any(|l| l.contains("Settings")), "{w}x{h}: {text:#?}");
            if w >= 59 {
                let message = format!("terminal too small (need 60x20, have {w}x{h})");
                assert_eq!(text[(h as usize - 1) / 2].trim(), message);
            }
        }
        let text = screen(60, 20, &app, &world);
        assert!(text[0].contains("Settings"), "{text:#?}");
    }

    #[test]
    fn help_lists_every_key() {
        let world = played(0);
        let mut app = App::new(Palette::NAMED, true);
        app.mode = Mode::Help;
        let text = screen(120, 40, &app, &world);
        let top = text.iter().position(|l| l.contains("┌ Help: KEYS · legend · rules ")).expect("the popup's title");
        let chars: Vec<Vec<char>> = text.iter().map(|l| l.chars().collect()).collect();
        let left = chars[top].iter().position(|&c| c == '┌').unwrap();
        let right = left + chars[top][left..].iter().position(|&c| c == '┐').unwrap();
        let popup: Vec<String> = chars[top..top + BINDINGS.len() + 2]
            .iter()
            .map(|row| row[left + 1..right].iter().collect::<String>().trim_end().to_string())
            .collect();
        let body = [
            "hjkl ←↓↑→ move west, south, north, east",
            "y u b n   move diagonally: NW, NE, SW, SE; the numpad too",
            "Shift     + a move key: run until something happens",
            "t s       turn mode on/off; wait a step (. too in turns)",
            "_ >       travel: pick a cell; to the goal G once seen",
            "o e       explore the unseen; open or close a door",
            "A         next planner (grid searches, navmesh, waypoints)",
            "E         next heuristic (the estimate)",
            "T         next tie-break among equal f",
            "P X       open list: lazy or decrease-key; reopening",
            "D [ ]     4 or 8 neighbours; weight -/+ 0.25 (1 to 10)",
            "R S V     repath policy; smoothing; avoidance (sep./orca)",
            "O F M     next overlay; field of view (fog); mouse on/off",
            "Tab⇧Tab C watch next / previous monster; camera on it",
            "Space .   pause or resume; one tick while paused",
            "+-PgUp/Dn speed ¼× to 8×; replay -/+10 s, Home/End",
            "? q Esc   this help; quit (q confirms, Ctrl-C at once)",
            "^P ^Z     message history; suspend (fg resumes)",
        ];
        assert_eq!(popup[1..=body.len()], body, "{}", text.join("\n"));
        assert!(popup.last().unwrap().contains("? or Esc closes"));
    }

    #[test]
    fn help_fits_the_smallest_terminal() {
        let mut app = App::new(Palette::NAMED, true);
        app.mode = Mode::Help;
        let text = screen(MIN_WIDTH, MIN_HEIGHT, &app, &played(0));
        for b in BINDINGS {
            assert!(text.iter().any(|l| l.contains(b.what)), "{} is cut:\n{}", b.what, text.join("\n"));
        }
        assert!(text.iter().any(|l| l.contains("? or Esc closes")), "{}", text.join("\n"));
    }

    #[test]
    fn a_lost_game_shows_its_end_over_the_map_and_the_log_below() {
        let world = crate::ui::testing::game_until_end("lives: 1\n######\n#@.M.G\n######\n", 2000);
        let mut app = App::new(Palette::NAMED, true);
        app.log.take(&world);
        let text = screen(80, 24, &app, &world);
        assert!(text[23].starts_with(" LOST "), "{}", text[23]);
        assert!(text.iter().any(|l| l.contains("You lost: caught with no life left")), "{}", text.join("\n"));
        assert!(text.iter().any(|l| l.contains("r retry (seed 1)")));
        // At 80x24 the log has three lines.
        assert!(text[19].starts_with("└ goal: reac"), "{}", text[19]);
        assert!(text[20].contains("M 1 saw you"), "{}", text.join("\n"));
        assert!(text[21].contains("M 1 caught you: no lives left"), "{}", text.join("\n"));
        assert!(text[22].contains("you lost"), "{}", text.join("\n"));
    }

    /// Issue 25: under the field of view, the camera on a watched monster
    /// out of the player's sight showed a blank map and nothing said the
    /// camera had moved; now it shows what the monster sees, and the title
    /// says whose eyes these are.
    #[test]
    fn the_camera_on_a_monster_under_the_field_of_view_shows_what_it_sees() {
        let mut world = played(300);
        let mut app = App::new(Palette::NAMED, true);
        app.fov = true;
        app.sight.update(&world);
        let far =
            world.creatures().iter().position(|c| c.kind == crate::sim::Kind::Monster && !app.sight.visible(c.cell()));
        let far = far.expect("a monster out of the player's sight");
        world.watch(Some(far));
        app.follow = true;
        let text = screen(120, 40, &app, &world);
        assert!(text[0].contains(&format!("camera on M {}", world.monster_ordinal(far))), "{}", text[0]);
        assert!(text[0].contains("what it sees"), "{}", text[0]);
        // The view is centred on the monster: its row has terrain drawn.
        let map_rows = &text[1..30];
        let drawn = |row: &String| row.chars().skip(1).take(80).filter(|&c| c == '#' || c == '.').count();
        assert!(map_rows.iter().map(drawn).sum::<usize>() > 100, "a blank map:\n{}", text.join("\n"));
        assert!(map_rows.iter().any(|r| r.contains('M')), "the monster is drawn:\n{}", text.join("\n"));
    }

    #[test]
    fn the_screen_has_map_panel_and_status_line() {
        let world = played(300);
        let mut app = App::new(Palette::NAMED, true);
        app.overlay = Overlay::Paths;
        let text = screen(120, 40, &app, &world);
        assert!(text[0].starts_with("┌ dungeon · paths overlay "), "{}", text[0]);
        assert!(text[0].ends_with("┌ Settings ──────────────────────┐"));
        assert!(text.iter().any(|l| l.contains('@')));
        assert_eq!(
            text[39].trim_end(),
            " 1×   ? help  q quit  hjkl move  HJKL run  e door  Space pause  . step  +- speed  O overlay  F sight  Tab monster"
        );
        app.clock.toggle_pause();
        app.live = false;
        let text = screen(120, 40, &app, &world);
        assert!(text[39].starts_with(" PAUSED  REPLAY   ? help "), "{}", text[39]);
        assert_eq!(
            text[39].trim_end(),
            " PAUSED  REPLAY   ? help  q quit  Space pause  . step  +- speed  O overlay  F sight  Tab monster"
        );
    }
}

/// Snapshots of the styled screen (glyphs, colours and modifiers) at the
/// sizes the layout is made for, 80x24 being the floor, in colour and
/// without it.
#[cfg(test)]
mod snapshots {
    use super::*;
    use crate::level::Level;
    use crate::ui::help::Page;
    use crate::ui::map::Markers;
    use crate::ui::palette::Palette;
    use crate::ui::testing::{lines, played, styled};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// Both palettes, by the name the snapshots take.
    const MODES: [(&str, Palette); 2] = [("colour", Palette::NAMED), ("mono", Palette::MONO)];

    fn buffer(width: u16, height: u16, app: &App, world: &World) -> ratatui::buffer::Buffer {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(frame, app, world)).unwrap();
        let mut buf = terminal.backend().buffer().clone();
        crate::ui::testing::mask_timing(&mut buf);
        buf
    }

    /// The default level played for a while, its nearest hunting monster
    /// watched once it has searched.
    fn hunted() -> World {
        let mut world = played(300);
        world.watch(crate::ui::app::nearest_monster(&world));
        while world.stats().watched_search.is_none() && world.ticks() < 1000 {
            world.tick();
        }
        assert!(world.stats().watched_search.is_some(), "the watched monster searched");
        world
    }

    /// The default level as a game shows it: its markers and its opening
    /// line in the log, the watched monster's search overlaid.
    fn app(palette: Palette, world: &World) -> App {
        let level = Level::embedded_default();
        let mut app = App::new(palette, true);
        app.markers = Markers::of(&level);
        app.about.clone_from(&level.description);
        app.log.note(0, format!("{}: {}", level.name, level.description));
        app.log.take(world);
        app.overlay = Overlay::Search;
        app
    }

    /// The game at 80x24, 100x30 and 120x40: at 80x24 the description
    /// folds instead of starting mid-sentence, the panel packs and keeps
    /// its repath and watching lines, the status line keeps whole entries
    /// (issue 27); the search overlay names its shades under the map.
    #[test]
    fn the_game_at_three_sizes_in_colour_and_without() {
        // At the start, the description is the log's one line: it folds,
        // from its beginning.
        let start = played(0);
        for (w, h) in [(80, 24), (100, 30), (120, 40)] {
            let text = lines(&buffer(w, h, &app(Palette::NAMED, &start), &start));
            let log = &text[h as usize - 1 - log_rows(h) as usize..h as usize - 1];
            let first = log.iter().position(|l| !l[..l.find('│').unwrap_or(l.len())].trim().is_empty()).unwrap();
            assert!(log[first].starts_with(" 00:00 dungeon: The first level"), "{w}x{h}: {log:#?}");
        }
        let world = hunted();
        for (mode, palette) in MODES {
            let app = app(palette, &world);
            for (w, h) in [(80, 24), (100, 30), (120, 40)] {
                let buf = buffer(w, h, &app, &world);
                let text = lines(&buf);
                for wanted in ["Repaths/s", "Watching", "closed", "open", "SEEN", "silent"] {
                    assert!(
                        text.iter().any(|l| l.contains(wanted)),
                        "{w}x{h} {mode}: no {wanted}:\n{}",
                        text.join("\n")
                    );
                }
                insta::assert_snapshot!(format!("game_{w}x{h}_{mode}"), styled(&buf));
            }
        }
    }

    /// Without colour the overlays, markers and the watched monster are
    /// glyphs and reverse video (issue 27: under NO_COLOR they vanished).
    #[test]
    fn without_colour_the_overlays_and_markers_keep_their_meaning() {
        let world = hunted();
        let report = world.stats().watched_search.clone().expect("the watched monster searched");
        for overlay in [Overlay::Paths, Overlay::Search, Overlay::Flock] {
            for (mode, palette) in MODES {
                let mut app = app(palette, &world);
                app.overlay = overlay;
                let buf = buffer(80, 24, &app, &world);
                insta::assert_snapshot!(format!("overlay_{}_{mode}", overlay.name()), styled(&buf));
            }
        }
        // The search overlay's closed cells, in view, are shaded `░` in
        // monochrome, and the goal is in reverse video.
        let mut app = app(Palette::MONO, &world);
        app.overlay = Overlay::Search;
        let buf = buffer(120, 40, &app, &world);
        let shaded = buf.content().iter().filter(|c| c.symbol() == "░").count();
        assert!(shaded > 0 && !report.closed.is_empty(), "no closed cell shaded");
        let goal = buf.content().iter().find(|c| c.symbol() == "G").expect("the goal is in view");
        assert!(goal.modifier.contains(ratatui::style::Modifier::REVERSED));
    }

    /// Under `flow-field` the search overlay shades the field in four
    /// bands (once a monster hunts by it) and the legend under the map
    /// names them, near to far.
    #[test]
    fn the_flow_field_bands_have_a_legend() {
        let mut world = played(0);
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Repath(crate::sim::RepathPolicy::FlowField)));
        world.apply(crate::sim::Command::Move { dx: 1, dy: 0 });
        // The field is computed only while a monster hunts by it.
        while world.flow_field().and_then(|f| f.key()).is_none() && world.ticks() < 3000 {
            world.tick();
        }
        assert!(world.flow_field().and_then(|f| f.key()).is_some(), "the field is up");
        for (mode, palette) in MODES {
            let app = app(palette, &world);
            let buf = buffer(100, 30, &app, &world);
            let text = lines(&buf);
            assert!(text.iter().any(|l| l.contains(" near ") && l.contains(" far ")), "{}", text.join("\n"));
            insta::assert_snapshot!(format!("flow_field_{mode}"), styled(&buf));
        }
    }

    /// The message history (Ctrl-P) over a game at 80x24 and 120x40:
    /// every line of a long game's log, not just the few under the map,
    /// opened on the newest, and scrolled back to the oldest.
    #[test]
    fn the_message_history() {
        let mut world = hunted();
        for (mode, palette) in MODES {
            let mut app = app(palette, &world);
            for i in 0..40 {
                app.log.note(i * 20, format!("note {i}: a line of the front end's, to fill the history"));
            }
            let ctrl_p = KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL);
            app.key(ctrl_p, &mut world);
            assert!(app.mode == Mode::History && app.held());
            for (width, height) in [(80, 24), (120, 40)] {
                app.screen = Some((width, height));
                app.history = Default::default();
                let buf = buffer(width, height, &app, &world);
                let text = lines(&buf);
                assert!(text[height as usize - 2].contains("note 39"), "{}", text.join("\n"));
                insta::assert_snapshot!(format!("history_{width}x{height}_{mode}"), styled(&buf));
                app.key(KeyEvent::new(KeyCode::Home, KeyModifiers::NONE), &mut world);
                let text = lines(&buffer(width, height, &app, &world));
                assert!(
                    text[1].contains(&format!("{}: ", world.name())),
                    "the oldest line first:\n{}",
                    text.join("\n")
                );
            }
            app.key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE), &mut world);
            assert_eq!(app.mode, Mode::Play);
        }
    }

    /// The help's three pages at 80x24: the keys, the glyph legend, and
    /// the rules made from the simulation's constants.
    #[test]
    fn the_help_pages() {
        let world = played(0);
        for (mode, palette) in MODES {
            let mut app = app(palette, &world);
            app.mode = Mode::Help;
            for page in [Page::Keys, Page::Legend, Page::Rules] {
                app.help.page = page;
                let buf = buffer(80, 24, &app, &world);
                insta::assert_snapshot!(format!("help_{page:?}_{mode}").to_lowercase(), styled(&buf));
            }
        }
    }
}
