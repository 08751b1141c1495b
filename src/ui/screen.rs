//! The whole screen: map on the left with the message log under it, panel
//! on the right, status line at the bottom; over them the end screen, the
//! help popup and the quit question; or, on a terminal too small to hold
//! them, a message saying so.

use super::app::{App, Mode};
use super::end::EndScreen;
use super::help::{self, key_name};
use super::keys::{self, Action, STATUS};
use super::log::{LogView, game_time};
use super::map::MapView;
use super::overlay::Overlay;
use super::palette::Palette;
use super::panel::{self, Panel};
use crate::level::marker;
use crate::shown::shown;
use crate::sim::{Goal, Outcome, Settings, TICKS_PER_SECOND, World};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

/// Smallest terminal the screen is laid out for.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 20;

/// Lines of the message log on the smallest terminal, and at most.
const LOG_MIN: u16 = 2;
const LOG_MAX: u16 = 8;

/// Whether a terminal of `width` x `height` is too small for the game:
/// the too-small message shows instead, and time stands still.
pub fn is_too_small(width: u16, height: u16) -> bool {
    width < MIN_WIDTH || height < MIN_HEIGHT
}

/// Lines of the message log on a terminal `height` rows tall: two, and
/// one more for every six rows above the smallest.
fn log_rows(height: u16) -> u16 {
    (LOG_MIN + height.saturating_sub(MIN_HEIGHT) / 6).min(LOG_MAX)
}

/// Draws one frame.
pub fn draw(frame: &mut Frame, app: &App, world: &World) {
    let area = frame.area();
    if is_too_small(area.width, area.height) {
        frame.render_widget(too_small(area, app.mode == Mode::Quitting), area);
        return;
    }
    let [main, status] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let [left, side] = Layout::horizontal([Constraint::Fill(1), Constraint::Length(panel::WIDTH)]).areas(main);
    let [map, log] = Layout::vertical([Constraint::Fill(1), Constraint::Length(log_rows(area.height))]).areas(left);
    let mut title = match app.overlay {
        Overlay::None => format!(" {} ", shown(world.name())),
        Overlay::Search if world.flow_field().is_some() => {
            format!(" {} · search overlay: flow field ", shown(world.name()))
        }
        // The watched monster's cells are kept from its next search on.
        Overlay::Search if world.stats().watched_search.is_none() => {
            format!(" {} · search overlay: waiting for the watched monster to search ", shown(world.name()))
        }
        // The any-angle planners search portals or corners, not cells: the
        // overlay says so rather than show an empty map.
        Overlay::Search if world.settings().planner().expansion().any_angle() => {
            format!(" {} · search overlay: {} searches no cells ", shown(world.name()), world.settings().planner())
        }
        Overlay::Paths => format!(" {} · paths overlay ({}) ", shown(world.name()), world.settings().planner()),
        o => format!(" {} · {} overlay ", shown(world.name()), o.name()),
    };
    if app.fov {
        title.push_str("· field of view ");
    }
    let block = Block::bordered().title(title).title_bottom(goal_line(world));
    let inner = block.inner(map);
    frame.render_widget(block, map);
    let sight = app.fov.then_some(&app.sight);
    let focus = world.watched().filter(|_| app.follow).map(|i| world.creatures()[i].cell());
    let view = MapView { world, overlay: app.overlay, palette: &app.palette, markers: app.markers, sight, focus };
    frame.render_widget(view, inner);
    frame.render_widget(LogView { log: &app.log, palette: &app.palette }, log);
    frame.render_widget(Panel::new(world, &app.clock, &app.palette), side);
    frame.render_widget(status_line(app, world), status);
    if world.outcome() != Outcome::Running {
        let end = EndScreen { world, palette: &app.palette, live: app.live, next_level: app.next_level };
        frame.render_widget(end, area);
    }
    match app.mode {
        Mode::Help => help::render(frame, area, &app.palette),
        Mode::Quitting => frame.render_widget(confirm(&app.palette), area),
        Mode::Play | Mode::Ended | Mode::TooSmall | Mode::Seeking => {}
    }
}

/// The goal and the lives, under the map: what a new player needs to know.
fn goal_line(world: &World) -> Line<'static> {
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
    Line::from(format!(" {goal} · {lives} "))
}

/// The question `q` asks mid-session, centred over `area`.
fn confirm(palette: &Palette) -> impl Widget {
    let line = Line::from(vec![
        Span::raw(" Quit this game? "),
        Span::styled("y", Style::new().fg(palette.key)),
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
    lines.push(Line::from(if confirming { "quit? y quits, any other key plays on" } else { "paused; q quits" }));
    Paragraph::new(lines).alignment(Alignment::Center).wrap(Wrap { trim: true })
}

/// Pace and mode, then the most useful keys.
fn status_line(app: &App, world: &World) -> Line<'static> {
    let key = Style::new().fg(app.palette.key);
    let mode = match world.outcome() {
        Outcome::Won => " WON ".to_string(),
        Outcome::Lost => " LOST ".to_string(),
        Outcome::Running if app.mode == Mode::Seeking => " SEEKING ".to_string(),
        Outcome::Running if app.clock.paused() || app.held() => " PAUSED ".to_string(),
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
        spans.push(Span::raw("  "));
        spans.push(Span::styled(names.join(sep), key));
        spans.push(Span::raw(format!(" {name}")));
    }
    Line::from(spans)
}

/// Whether `key` asks for a change to the world, which a replay ignores.
fn changes_world(key: KeyCode) -> bool {
    let press = KeyEvent::new(key, KeyModifiers::NONE);
    matches!(keys::action(press, &Settings::default()), Some(Action::World(_)))
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
        let top = text.iter().position(|l| l.contains("┌ Keys ")).expect("the popup's title");
        let chars: Vec<Vec<char>> = text.iter().map(|l| l.chars().collect()).collect();
        let left = chars[top].iter().position(|&c| c == '┌').unwrap();
        let right = left + chars[top][left..].iter().position(|&c| c == '┐').unwrap();
        let popup: Vec<String> = chars[top..top + BINDINGS.len() + 2]
            .iter()
            .map(|row| row[left + 1..right].iter().collect::<String>().trim_end().to_string())
            .collect();
        let body = [
            "← ↓ ↑ →   move west, south, north, east",
            "h j k l   the same, roguelike",
            "y u b n   move diagonally: NW, NE, SW, SE",
            "Shift     + a move key: run until something happens",
            "e         open or close an adjacent door",
            "A         next planner (grid, navmesh, waypoints)",
            "E         next heuristic (the estimate)",
            "T         next tie-break among equal f",
            "P X       open list: lazy or decrease-key; reopening",
            "D         4 or 8 neighbours",
            "[ ]       weight of weighted A* -/+ 0.25 (1 to 10)",
            "R         repath policy (timer+threshold needs both)",
            "S V       smoothing on/off; avoidance separation/orca",
            "O F       next overlay; field of view (fog) on or off",
            "Tab⇧Tab C watch next / previous monster; camera on it",
            "Space .   pause or resume; one tick while paused",
            "+-PgUp/Dn speed ¼× to 8×; replay -/+10 s, Home/End",
            "? q Esc   this help; quit (y confirms, Ctrl-C at once)",
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
        assert!(text[20].contains("goal: reach G · lives 0"), "{}", text[20]);
        assert!(text[21].contains("M 1 caught you: no lives left"), "{}", text.join("\n"));
        assert!(text[22].contains("you lost"), "{}", text.join("\n"));
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
