//! The message history (Ctrl-P, as in NetHack and DCSS): every line the
//! log keeps ([`KEPT`](super::log::KEPT), the oldest dropped beyond, as
//! the title then says), over the whole screen, scrolled by the keys.
//! Like the help it holds the game and takes every key while open: j k
//! and the arrows scroll a row, PgUp PgDn a page, Home End to the oldest
//! and the newest; Esc, `q` or Ctrl-P close it.

use super::log::{Log, STAMP_WIDTH, entry_rows, wrap};
use super::palette::Palette;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

/// How far the history is scrolled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct History {
    /// Rows scrolled back from the newest (0: the newest row at the
    /// bottom, where it opens).
    pub back: usize,
}

/// Whether `key` is Ctrl-P, which opens the history and closes it.
pub fn is_history_key(key: KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('p')
}

impl History {
    /// A key while the history is open on a `screen` (its width and
    /// height) showing `log`: scrolls, never past the oldest row nor the
    /// newest; true when the key closes the history.
    pub fn key(&mut self, key: KeyEvent, log: &Log, screen: (u16, u16)) -> bool {
        if is_history_key(key) {
            return true;
        }
        let area = Rect::new(0, 0, screen.0, screen.1);
        let page = usize::from(inner(area).height).max(1);
        let most = rows(log, &Palette::MONO, inner(area).width).len().saturating_sub(page);
        let back = self.back.min(most);
        self.back = match key.code {
            KeyCode::Esc | KeyCode::Char('q') => return true,
            KeyCode::Up | KeyCode::Char('k') => back + 1,
            KeyCode::Down | KeyCode::Char('j') => back.saturating_sub(1),
            KeyCode::PageUp => back + page.saturating_sub(1).max(1),
            KeyCode::PageDown => back.saturating_sub(page.saturating_sub(1).max(1)),
            KeyCode::Home => most,
            KeyCode::End => 0,
            _ => back,
        }
        .min(most);
        false
    }
}

/// The rows inside the history's border.
fn inner(area: Rect) -> Rect {
    Block::bordered().inner(area)
}

/// Every row of `log` at `width` columns, oldest first: each line wrapped
/// under its time stamp.
fn rows(log: &Log, p: &Palette, width: u16) -> Vec<Line<'static>> {
    let text_width = usize::from(width).saturating_sub(STAMP_WIDTH).max(1);
    log.entries().flat_map(|e| entry_rows(e, wrap(&e.text, text_width), p)).collect()
}

/// The history's title: how many lines, and how many older ones were
/// dropped, if any.
fn title(log: &Log) -> String {
    let n = log.entries().len();
    let lines = if n == 1 { "1 line".to_string() } else { format!("{n} lines") };
    match log.dropped() {
        0 => format!(" Messages: {lines} "),
        d => format!(" Messages: the last {lines} ({d} older dropped) "),
    }
}

/// Draws the history of `log` over `area`, scrolled as `view` says.
pub fn render(frame: &mut Frame, area: Rect, palette: &Palette, log: &Log, view: &History) {
    let inner = inner(area);
    let all = rows(log, palette, inner.width);
    let page = usize::from(inner.height);
    let back = view.back.min(all.len().saturating_sub(page));
    let end = all.len() - back;
    let start = end.saturating_sub(page);
    let shown: Vec<Line> = if all.is_empty() {
        vec![Line::styled(" nothing has happened yet", Style::new().add_modifier(Modifier::DIM))]
    } else {
        all[start..end].to_vec()
    };
    let place = match all.len() {
        0 => String::new(),
        n => format!(" rows {}-{end} of {n} ", start + 1),
    };
    let block = Block::bordered()
        .title(title(log))
        .title_bottom(" j k ↑ ↓ PgUp PgDn Home End scroll  Esc q ^P close ")
        .title_bottom(Line::from(place).right_aligned());
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(shown).block(block), area);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::testing::lines;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn log(n: usize) -> Log {
        let mut log = Log::default();
        for i in 0..n {
            log.note(i as u64 * 20, format!("message {i}"));
        }
        log
    }

    fn shown(log: &Log, view: &History, w: u16, h: u16) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|frame| render(frame, frame.area(), &Palette::NAMED, log, view)).unwrap();
        lines(terminal.backend().buffer())
    }

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    /// The log keeps every line up to [`KEPT`](super::super::log::KEPT),
    /// then drops the oldest, and the title says how many.
    #[test]
    fn the_log_keeps_a_thousand_lines_and_says_what_it_dropped() {
        use crate::ui::log::KEPT;
        let full = log(KEPT);
        assert_eq!((full.entries().len(), full.dropped()), (KEPT, 0));
        assert_eq!(title(&full), " Messages: 1000 lines ");
        let over = log(KEPT + 5);
        assert_eq!((over.entries().len(), over.dropped()), (KEPT, 5));
        assert_eq!(over.entries().next().unwrap().text, "message 5");
        assert_eq!(over.entries().last().unwrap().text, "message 1004");
        assert_eq!(title(&over), " Messages: the last 1000 lines (5 older dropped) ");
        let text = shown(&over, &History::default(), 80, 24);
        assert!(text[0].contains("(5 older dropped)"), "{}", text[0]);
    }

    #[test]
    fn keys_scroll_within_the_log_and_close_it() {
        let log = log(100);
        let screen = (80, 24);
        let page = 22;
        let mut view = History::default();
        let text = shown(&log, &view, 80, 24);
        assert!(text[22].contains("message 99") && text[1].contains("message 78"), "{text:#?}");
        assert!(!view.key(press(KeyCode::Char('k')), &log, screen));
        assert_eq!(view.back, 1);
        view.key(press(KeyCode::Up), &log, screen);
        view.key(press(KeyCode::Char('j')), &log, screen);
        assert_eq!(view.back, 1);
        view.key(press(KeyCode::Home), &log, screen);
        assert_eq!(view.back, 100 - page);
        let text = shown(&log, &view, 80, 24);
        assert!(text[1].contains("message 0") && text[23].contains("rows 1-22 of 100"), "{text:#?}");
        view.key(press(KeyCode::Up), &log, screen);
        assert_eq!(view.back, 100 - page, "never past the oldest");
        view.key(press(KeyCode::PageDown), &log, screen);
        assert_eq!(view.back, 100 - page - (page - 1));
        view.key(press(KeyCode::End), &log, screen);
        assert_eq!(view.back, 0);
        view.key(press(KeyCode::Down), &log, screen);
        assert_eq!(view.back, 0, "never past the newest");
        view.key(press(KeyCode::PageUp), &log, screen);
        assert_eq!(view.back, page - 1);
        // Other keys wait; Esc, q and Ctrl-P close.
        assert!(!view.key(press(KeyCode::Char('l')), &log, screen));
        for key in
            [press(KeyCode::Esc), press(KeyCode::Char('q')), KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL)]
        {
            assert!(view.key(key, &log, screen), "{key:?}");
        }
        // A log shorter than the page does not scroll.
        let short = self::log(3);
        let mut view = History::default();
        view.key(press(KeyCode::Home), &short, screen);
        assert_eq!(view.back, 0);
    }

    #[test]
    fn long_lines_wrap_under_their_stamp_and_tiny_screens_do_not_panic() {
        let mut log = Log::default();
        log.note(20 * 61, "a line long enough to wrap on a narrow terminal, word by word, under its stamp");
        let text = shown(&log, &History::default(), 40, 8);
        assert!(text[1].starts_with("│ 01:01 a line long enough to wrap on a│"), "{text:#?}");
        assert!(text[2].starts_with("│       narrow terminal, word by word,"), "{text:#?}");
        for (w, h) in [(0, 0), (1, 1), (5, 2), (10, 3)] {
            shown(&log, &History { back: 7 }, w, h);
            History::default().key(press(KeyCode::Home), &log, (w, h));
        }
        let empty = shown(&Log::default(), &History::default(), 40, 8);
        assert!(empty[1].contains("nothing has happened yet"), "{empty:#?}");
    }
}
