//! The `?` popup: every key and what it does, from the key table itself.
//! While it is open the game is held and it takes every key (see `App`).

use super::keys::{BINDINGS, Binding};
use super::palette::Palette;
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// Width of the keys column.
const KEYS_WIDTH: usize = 10;

/// How a key is written in the help and the status line.
pub fn key_name(code: KeyCode) -> String {
    match code {
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        other => other.to_string(),
    }
}

/// The keys of one binding: its label, or the keys space-separated.
fn keys_text(b: &Binding) -> String {
    b.label.map_or_else(|| b.keys.iter().map(|&k| key_name(k)).collect::<Vec<_>>().join(" "), str::to_string)
}

/// Draws the popup centred over `area`.
pub fn render(frame: &mut Frame, area: Rect, palette: &Palette) {
    let lines: Vec<Line> = BINDINGS
        .iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(format!("{:<KEYS_WIDTH$}", keys_text(b)), Style::new().fg(palette.key)),
                Span::raw(b.what),
            ])
        })
        .collect();
    let width = BINDINGS.iter().map(|b| KEYS_WIDTH + b.what.chars().count()).max().unwrap_or(0) as u16 + 4;
    let popup = area.centered(Constraint::Length(width), Constraint::Length(lines.len() as u16 + 2));
    frame.render_widget(Clear, popup);
    let block = Block::bordered().title(" Keys ").title_bottom(" ? or Esc closes ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}
