//! What the screen shows while work runs that a frame cannot wait for: a
//! popup over the last frame while a front's state is away on its worker
//! (a tick building a planner's structure, the lab searching a large map),
//! and the bar of a replay's seek.

use super::palette::Palette;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Gauge, Paragraph, Widget};
use std::time::Duration;

/// How long a front's state may be away before the screen says so: longer
/// than a frame and than any tick of a normal game, short enough that a
/// frozen screen is never what the user sees.
pub const SAY_AFTER: Duration = Duration::from_millis(200);

/// How often the busy popup's clock is redrawn.
pub const REDRAW: Duration = Duration::from_millis(100);

/// Work under way on a worker, as the popup tells it.
#[derive(Clone, Debug, PartialEq)]
pub struct Busy {
    /// What is being done, e.g. "tick 1,234 (the monsters plan with hpa)".
    pub what: String,
    /// How long it has run.
    pub elapsed: Duration,
    /// What stopping it costs, e.g. "q, Esc or Ctrl-C quits (the
    /// recording is kept as an interrupted one)".
    pub stop: String,
}

/// The spinner's frames, one per [`REDRAW`].
const SPINNER: [char; 4] = ['|', '/', '-', '\\'];

/// The busy popup, centred.
pub struct BusyPopup<'a> {
    pub busy: &'a Busy,
    pub palette: &'a Palette,
}

impl Widget for BusyPopup<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let b = self.busy;
        let turn = (b.elapsed.as_millis() / REDRAW.as_millis()) as usize % SPINNER.len();
        let key = Style::new().fg(self.palette.key);
        let lines = vec![
            Line::from(format!(" {} {} ", SPINNER[turn], b.what)),
            Line::from(format!("   running for {:.1} s ", b.elapsed.as_secs_f64())),
            Line::from(vec![Span::raw("   "), Span::styled(b.stop.clone(), key), Span::raw(" ")]),
        ];
        let width = lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 2;
        let popup = area.centered(Constraint::Length(width.min(area.width)), Constraint::Length(5.min(area.height)));
        Clear.render(popup, buf);
        Paragraph::new(lines).block(Block::bordered().title(" Working ")).render(popup, buf);
    }
}

/// The bar of a seek under way: where it is going, how far it has got, and
/// how to stop it.
pub struct SeekBar<'a> {
    /// "to 10:00", "to the end (52:03)".
    pub to: &'a str,
    /// From 0 to 1.
    pub done: f64,
    pub palette: &'a Palette,
}

impl Widget for SeekBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let title = format!(" Seeking {} · q or Esc stops here ", self.to);
        let width = (title.chars().count() as u16 + 2).max(40).min(area.width);
        let popup = area.centered(Constraint::Length(width), Constraint::Length(3.min(area.height)));
        Clear.render(popup, buf);
        let done = self.done.clamp(0.0, 1.0);
        Gauge::default()
            .block(Block::bordered().title(title))
            .gauge_style(Style::new().fg(self.palette.key))
            .ratio(done)
            .label(format!("{:.0}%", done * 100.0))
            .render(popup, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::testing::lines;

    fn drawn(widget: impl Widget, w: u16, h: u16) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        widget.render(buf.area, &mut buf);
        lines(&buf)
    }

    #[test]
    fn the_popup_says_what_runs_for_how_long_and_how_to_stop_it() {
        let busy = Busy {
            what: "tick 40 (the monsters plan with hpa)".into(),
            elapsed: Duration::from_millis(2_340),
            stop: "q quits".into(),
        };
        let text = drawn(BusyPopup { busy: &busy, palette: &Palette::NAMED }, 80, 12).join("\n");
        assert!(text.contains("tick 40 (the monsters plan with hpa)"), "{text}");
        assert!(text.contains("running for 2.3 s"), "{text}");
        assert!(text.contains("q quits") && text.contains("Working"), "{text}");
        // Any size, no panic.
        for (w, h) in [(0, 0), (1, 1), (10, 2)] {
            drawn(BusyPopup { busy: &busy, palette: &Palette::NAMED }, w, h);
            drawn(SeekBar { to: "to 00:10", done: 0.5, palette: &Palette::NAMED }, w, h);
        }
    }

    #[test]
    fn the_seek_bar_shows_how_far_it_got() {
        let text = drawn(SeekBar { to: "to the end (52:03)", done: 0.63, palette: &Palette::NAMED }, 80, 9);
        let text = text.join("\n");
        assert!(text.contains("Seeking to the end (52:03) · q or Esc stops here"), "{text}");
        assert!(text.contains("63%"), "{text}");
    }
}
