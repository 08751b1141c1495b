//! The whole screen: map on the left, panel on the right, status line at
//! the bottom, the help popup over them; or, on a terminal too small to
//! hold them, a message saying so.

use super::app::App;
use super::help::{self, key_name};
use super::keys::{self, Action, STATUS};
use super::map::MapView;
use super::overlay::Overlay;
use super::panel::{self, Panel};
use crate::sim::{Settings, World};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

/// Smallest terminal the screen is laid out for.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 20;

/// Draws one frame.
pub fn draw(frame: &mut Frame, app: &App, world: &World) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        frame.render_widget(too_small(area), area);
        return;
    }
    let [main, status] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(area);
    let [map, side] = Layout::horizontal([Constraint::Fill(1), Constraint::Length(panel::WIDTH)]).areas(main);
    let title = match app.overlay {
        Overlay::None => format!(" {} ", world.name()),
        // The watched monster's cells are kept from its next search on.
        Overlay::Search if world.stats().watched_search.is_none() => {
            format!(" {} · search overlay: waiting for the watched monster to search ", world.name())
        }
        o => format!(" {} · {} overlay ", world.name(), o.name()),
    };
    let block = Block::bordered().title(title);
    let inner = block.inner(map);
    frame.render_widget(block, map);
    frame.render_widget(MapView { world, overlay: app.overlay, palette: &app.palette }, inner);
    frame.render_widget(Panel::new(world, &app.clock, &app.palette), side);
    frame.render_widget(status_line(app), status);
    if app.help {
        help::render(frame, area, &app.palette);
    }
}

/// The message shown instead of the screen on a small terminal.
fn too_small(area: Rect) -> Paragraph<'static> {
    let text = format!("terminal too small (need {MIN_WIDTH}x{MIN_HEIGHT}, have {}x{})", area.width, area.height);
    let pad = area.height.saturating_sub(1) / 2;
    let mut lines = vec![Line::default(); pad as usize];
    lines.push(Line::from(text).bold());
    lines.push(Line::from("q quits"));
    Paragraph::new(lines).alignment(Alignment::Center).wrap(Wrap { trim: true })
}

/// Pace and mode, then the most useful keys.
fn status_line(app: &App) -> Line<'static> {
    let key = Style::new().fg(app.palette.key);
    let mut spans = vec![if app.clock.paused() {
        Span::raw(" PAUSED ").reversed()
    } else {
        Span::raw(format!(" {} ", app.clock.speed_label())).reversed()
    }];
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
        assert_eq!(text[10].trim(), "q quits");
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
        app.help = true;
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
            "e         open or close an adjacent door",
            "A         next search algorithm",
            "H         next heuristic",
            "T         next tie-break among equal f",
            "L         open list: lazy deletion or decrease-key",
            "D         4 or 8 neighbours",
            "[ ]       weight of weighted A* -/+ 0.25 (1 to 10)",
            "R         next repath policy",
            "S V       smoothing on/off; avoidance separation/orca",
            "O         overlay: none, paths, search, flock",
            "Tab       watch the next monster",
            "Space .   pause or resume; one tick while paused",
            "+ -       faster or slower (¼× to 8×)",
            "?         this help",
            "q Esc     quit (Esc closes this help first; Ctrl-C too)",
        ];
        assert_eq!(popup[1..=body.len()], body, "{}", text.join("\n"));
        assert!(popup.last().unwrap().contains("? or Esc closes"));
    }

    #[test]
    fn help_fits_the_smallest_terminal() {
        let mut app = App::new(Palette::NAMED, true);
        app.help = true;
        let text = screen(MIN_WIDTH, MIN_HEIGHT, &app, &played(0));
        for b in BINDINGS {
            assert!(text.iter().any(|l| l.contains(b.what)), "{} is cut:\n{}", b.what, text.join("\n"));
        }
        assert!(text.iter().any(|l| l.contains("? or Esc closes")), "{}", text.join("\n"));
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
            " 1×   ? help  q quit  hjkl move  e door  Space pause  . step  +- speed  O overlay  Tab monster"
        );
        app.clock.toggle_pause();
        app.live = false;
        let text = screen(120, 40, &app, &world);
        assert!(text[39].starts_with(" PAUSED  REPLAY   ? help "), "{}", text[39]);
        assert_eq!(
            text[39].trim_end(),
            " PAUSED  REPLAY   ? help  q quit  Space pause  . step  +- speed  O overlay  Tab monster"
        );
    }
}
