//! The title screen `delve` opens: a new descent with its seed, the
//! campaign, the search lab, help, quit; under them the descent's
//! high-score table and anything the player must be told about it.
//!
//! No key that opens a screen here is a move key of the game (`d`, `c`,
//! `a`, `?`, `q`, Enter), and when the screen comes back after a game its
//! keys wait for a moment ([`END_GUARD`]), so the keys of a game just
//! left never start another or quit.

use super::app::END_GUARD;
use super::keys::is_interrupt;
use super::log::game_time;
use super::palette::Palette;
use super::run::{Front, Stop};
use crate::scores::{End, Score};
use crate::shown::shown;
use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use std::io;
use std::time::{Duration, Instant};

/// What the player chose on the title screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A new descent with this seed.
    Descent(u64),
    /// The campaign.
    Campaign,
    /// The search lab.
    Lab,
    /// Leave delve.
    Quit,
    /// A signal or a hangup stopped the screen.
    Stopped(Stop),
}

/// The menu: each item's key and name, in order.
const ITEMS: [(char, &str); 5] =
    [('d', "New descent"), ('c', "Campaign"), ('a', "Search lab"), ('?', "Help"), ('q', "Quit")];

/// Scores the table shows at most (the file keeps more).
const TABLE_ROWS: usize = 10;

/// Digits a typed seed may have (`u64::MAX` has 20).
const SEED_DIGITS: usize = 20;

/// What the title screen shows and remembers from one visit to the next.
#[derive(Clone, Debug)]
pub struct Title {
    /// The next descent's seed.
    pub seed: u64,
    /// What the campaign holds, for its line in the menu.
    pub campaign: String,
    /// The high-score table, best first.
    pub scores: Vec<Score>,
    /// Where the table is kept, shown with it.
    pub table: Option<String>,
    /// What the player must be told (a damaged table set aside, a score
    /// not saved), shown until the next choice.
    pub notices: Vec<String>,
    /// The descent that just ended: its place in the table, if it made it,
    /// and what to say about it.
    pub last: Option<(Option<usize>, String)>,
    /// When the screen came back from a game: its keys wait for
    /// [`END_GUARD`] from then.
    pub back: Option<Instant>,
    /// The highlighted item.
    selected: usize,
    /// A seed being typed (`s`).
    typing: Option<String>,
    /// The help is open.
    help: bool,
}

impl Title {
    /// The screen as `delve` first shows it.
    pub fn new(seed: u64, campaign: String, scores: Vec<Score>, table: Option<String>) -> Title {
        Title {
            seed,
            campaign,
            scores,
            table,
            notices: Vec::new(),
            last: None,
            back: None,
            selected: 0,
            typing: None,
            help: false,
        }
    }

    /// How long the keys still wait after a game, if they do.
    fn guard_left(&self) -> Option<Duration> {
        let since = self.back?.elapsed();
        (since < END_GUARD).then(|| END_GUARD - since)
    }

    /// Reads a key: the choice it makes, if any.
    pub fn key(&mut self, key: KeyEvent) -> Option<Choice> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        if is_interrupt(key) {
            return Some(Choice::Quit);
        }
        if self.guard_left().is_some() {
            return None;
        }
        if self.help {
            self.help = !matches!(key.code, KeyCode::Char('?') | KeyCode::Esc);
            return None;
        }
        if let Some(typed) = &mut self.typing {
            match key.code {
                KeyCode::Char(c) if c.is_ascii_digit() && typed.len() < SEED_DIGITS => typed.push(c),
                KeyCode::Backspace => {
                    typed.pop();
                }
                KeyCode::Enter => {
                    // A number too large for a seed, or none, keeps the old one.
                    if let Ok(seed) = typed.parse() {
                        self.seed = seed;
                    }
                    self.typing = None;
                }
                KeyCode::Esc => self.typing = None,
                _ => {}
            }
            return None;
        }
        match key.code {
            KeyCode::Up | KeyCode::BackTab => self.selected = (self.selected + ITEMS.len() - 1) % ITEMS.len(),
            KeyCode::Down | KeyCode::Tab => self.selected = (self.selected + 1) % ITEMS.len(),
            KeyCode::Enter => return self.choose(ITEMS[self.selected].0),
            KeyCode::Esc => return Some(Choice::Quit),
            KeyCode::Char('s') => self.typing = Some(String::new()),
            KeyCode::Char(c) => return self.choose(c),
            _ => {}
        }
        None
    }

    fn choose(&mut self, item: char) -> Option<Choice> {
        match item {
            'd' => Some(Choice::Descent(self.seed)),
            'c' => Some(Choice::Campaign),
            'a' => Some(Choice::Lab),
            'q' => Some(Choice::Quit),
            '?' => {
                self.help = true;
                None
            }
            _ => None,
        }
    }

    /// Draws the screen over `area`: a box as tall as it needs, centred.
    /// The menu and the table are cut at the box's edge rather than
    /// wrapped, so that their rows stay rows; the notes, which must be read
    /// whole, wrap in their own rows at the bottom, taken before the table's.
    pub fn render(&self, frame: &mut Frame, area: Rect, palette: &Palette) {
        let width = area.width.min(96);
        let menu = self.menu(palette);
        let notes = self.notes(palette);
        // Wrapped at word boundaries, a note may take a line more than its
        // width alone says.
        let inner_width = width.saturating_sub(2).max(1) as usize;
        let note_rows: usize = notes.iter().map(|l| l.width().div_ceil(inner_width).max(1) + 1).sum();
        let table_rows = 2 + self.scores.len().clamp(1, TABLE_ROWS);
        let wanted = (menu.len() + 1 + table_rows + note_rows + 2) as u16;
        let box_area = area.centered(Constraint::Length(width), Constraint::Length(wanted.min(area.height)));
        let block = Block::bordered().title(" delve ").title_bottom(self.footer());
        let inner = block.inner(box_area);
        frame.render_widget(Clear, box_area);
        frame.render_widget(block, box_area);
        let notes_height = (note_rows as u16).min(inner.height.saturating_sub(menu.len() as u16));
        let [top, bottom] = Layout::vertical([Constraint::Fill(1), Constraint::Length(notes_height)]).areas(inner);
        let rows = (top.height as usize).saturating_sub(menu.len() + 1);
        let mut lines = menu;
        lines.push(Line::default());
        lines.extend(self.table_lines(palette, rows));
        frame.render_widget(Paragraph::new(lines), top);
        let notes: Vec<Line> = notes.into_iter().flat_map(|note| [Line::default(), note]).collect();
        frame.render_widget(Paragraph::new(notes).wrap(Wrap { trim: false }), bottom);
        if self.help {
            help(frame, area, palette);
        }
    }

    fn footer(&self) -> Line<'static> {
        match &self.typing {
            Some(_) => Line::from(" digits, Enter sets the seed, Esc keeps the old one "),
            None => Line::from(" ↑ ↓ Enter or a key: d c a ? q; s types a seed "),
        }
    }

    fn menu(&self, palette: &Palette) -> Vec<Line<'static>> {
        let key = Style::new().fg(palette.key);
        let dim = if self.guard_left().is_some() { Modifier::DIM } else { Modifier::empty() };
        let mut lines = vec![
            Line::default(),
            Line::styled(
                "   A dungeon where monsters hunt you with the searches the panel shows.",
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Line::default(),
        ];
        for (n, (k, name)) in ITEMS.iter().enumerate() {
            let what = match k {
                'd' => match &self.typing {
                    Some(typed) => format!("seed {typed}_"),
                    None => format!("seed {}: depth after depth, one life pool, no second chance", self.seed),
                },
                'c' => self.campaign.clone(),
                'a' => "A*, Dijkstra, greedy and more, stepped side by side".to_string(),
                '?' => "keys and rules".to_string(),
                _ => String::new(),
            };
            let marker = if n == self.selected { " > " } else { "   " };
            let style = if n == self.selected { Style::new().add_modifier(Modifier::BOLD) } else { Style::new() };
            lines.push(Line::from(vec![
                Span::raw(marker),
                Span::styled(k.to_string(), key.add_modifier(dim)),
                Span::styled(format!("  {name:<13}"), style.add_modifier(dim)),
                Span::styled(what, Style::new().add_modifier(dim)),
            ]));
        }
        lines
    }

    /// The high-score table, in at most `rows` lines (its heading and
    /// column names included).
    fn table_lines(&self, palette: &Palette, rows: usize) -> Vec<Line<'static>> {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let mut heading = vec![Span::styled(" High scores", bold)];
        if let Some(path) = &self.table {
            heading.push(Span::raw(format!("  ({})", shown(path))));
        }
        let mut lines = vec![Line::from(heading)];
        if self.scores.is_empty() {
            lines.push(Line::from("   none yet: the deepest descents come here"));
            return lines;
        }
        lines.push(Line::from("    #  depth  ended          time    catches  seed                  date"));
        let highlighted = self.last.as_ref().and_then(|(place, _)| *place);
        let room = rows.saturating_sub(2).clamp(1, TABLE_ROWS);
        // The best, and the one just played when it is further down.
        let mut shown_rows: Vec<usize> = (0..self.scores.len().min(room)).collect();
        if let Some(h) = highlighted.filter(|&h| h >= room && h < self.scores.len()) {
            shown_rows.pop();
            shown_rows.push(h);
        }
        for n in shown_rows {
            let s = &self.scores[n];
            let ended = match s.end {
                End::Died => "died",
                End::Quit => "quit",
                End::Won => "won it all",
            };
            let text = format!(
                "  {:>3}  {:>5}  {ended:<13}  {:>6}  {:>7}  {:<20}  {}",
                n + 1,
                s.depth,
                game_time(s.ticks),
                s.catches,
                s.seed,
                shown(&s.date)
            );
            let style = if Some(n) == highlighted {
                Style::new().fg(palette.goal).add_modifier(Modifier::BOLD)
            } else {
                Style::new()
            };
            lines.push(Line::styled(text, style));
        }
        lines
    }

    fn notes(&self, palette: &Palette) -> Vec<Line<'static>> {
        let mut lines: Vec<Line<'static>> = Vec::new();
        if let Some((_, said)) = &self.last {
            lines.push(Line::styled(format!(" {}", shown(said)), Style::new().fg(palette.goal)));
        }
        for note in &self.notices {
            lines.push(Line::styled(format!(" {}", shown(note)), Style::new().fg(palette.monster)));
        }
        lines
    }
}

/// The help over the title: its keys and the rules of the game in brief.
fn help(frame: &mut Frame, area: Rect, palette: &Palette) {
    let key = Style::new().fg(palette.key);
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let row =
        |k: &str, what: &str| Line::from(vec![Span::styled(format!(" {k:<10}"), key), Span::raw(what.to_string())]);
    let text = |t: &str| Line::from(format!(" {t}"));
    let lines = vec![
        Line::styled(" Keys", bold),
        row("d", "a new descent: generated level after level, deeper and harder"),
        row("c", "the campaign: the shipped levels in order"),
        row("a", "the search lab (no monsters: searches stepped side by side)"),
        row("s", "type the descent's seed: the same seed, the same depths"),
        row("↑ ↓ Enter", "choose; q or Esc quits, ? or Esc closes this"),
        Line::default(),
        Line::styled(" The game", bold),
        text("Reach the G of each level. Monsters see and hear you and hunt you"),
        text("with the search the panel shows. A catch costs a life, and lives"),
        text("carry over from level to level. In the campaign a lost level is"),
        text("played again; in the descent a loss is the end (permadeath), and"),
        text("the descent goes on the high-score table. In the game, ? lists"),
        text("every key; the end of a level takes no key for a moment."),
    ];
    let width = lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 3;
    let popup = area.centered(Constraint::Length(width), Constraint::Length(lines.len() as u16 + 2)).intersection(area);
    frame.render_widget(Clear, popup);
    let block = Block::bordered().title(" Help ").title_bottom(" ? or Esc closes ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

/// The title screen in the terminal loop.
pub(super) struct TitleFront<'a> {
    pub title: &'a mut Title,
    pub palette: Palette,
    pub choice: Option<Choice>,
    pub dirty: bool,
    /// Drawn with its keys still waiting: drawn again when they are taken.
    pub waiting: bool,
}

impl Front for TitleFront<'_> {
    fn event(&mut self, event: Event) {
        self.dirty = true;
        if let Event::Key(key) = event {
            self.choice = self.title.key(key);
        }
    }

    fn work(&mut self) -> io::Result<Option<Duration>> {
        if let Some(left) = self.title.guard_left() {
            self.waiting = true;
            return Ok(Some(left));
        }
        if std::mem::take(&mut self.waiting) {
            self.dirty = true;
        }
        Ok(None)
    }

    fn dirty(&self) -> bool {
        self.dirty
    }

    fn draw(&mut self, frame: &mut Frame) {
        self.title.render(frame, frame.area(), &self.palette);
        self.dirty = false;
    }

    fn busy(&self) -> Option<super::busy::Busy> {
        None
    }

    fn finished(&self) -> bool {
        self.choice.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::testing::lines;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::KeyModifiers;

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn title() -> Title {
        let score = |depth, end, seed| Score {
            seed,
            depth,
            cleared: depth - 1,
            ticks: u64::from(depth) * 2_400,
            catches: u64::from(depth),
            end,
            date: "2025-06-01".into(),
        };
        let scores = vec![score(7, End::Died, 4821), score(3, End::Quit, 77), score(2, End::Died, 90_210)];
        let table = Some("/home/you/.local/share/delve/scores.json".to_string());
        Title::new(48_213, "6 levels: dungeon, maze, keep, cave, arena, big".into(), scores, table)
    }

    fn screen(t: &Title, width: u16, height: u16) -> String {
        let mut terminal = ratatui::Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|f| t.render(f, f.area(), &Palette::NAMED)).unwrap();
        lines(terminal.backend().buffer()).join("\n")
    }

    #[test]
    fn the_title_screen() {
        insta::assert_snapshot!(screen(&title(), 100, 30));
    }

    #[test]
    fn the_title_after_a_descent_with_a_damaged_table() {
        let mut t = title();
        t.last = Some((Some(1), "Your descent: died at depth 3 after 04:00, 2nd of 3.".into()));
        t.notices.push("the high-score table /x/scores.json was damaged (EOF while parsing a value at line 3 column 0); it is kept as /x/scores.json.damaged and a new one is started".into());
        insta::assert_snapshot!(screen(&t, 100, 30));
        // The smallest terminal still shows the menu and the notes.
        let small = screen(&t, 60, 20);
        assert!(small.contains("New descent") && small.contains("Quit") && small.contains("damaged"), "{small}");
    }

    #[test]
    fn the_help_names_the_keys_and_the_rules() {
        let mut t = title();
        assert_eq!(t.key(press(KeyCode::Char('?'))), None);
        let text = screen(&t, 100, 30);
        assert!(
            text.contains("permadeath") && text.contains("lives") && text.contains("type the descent's seed"),
            "{text}"
        );
        assert_eq!(t.key(press(KeyCode::Char('d'))), None, "the help takes every key");
        t.key(press(KeyCode::Esc));
        assert_eq!(t.key(press(KeyCode::Char('d'))), Some(Choice::Descent(48_213)));
    }

    #[test]
    fn keys_choose_and_move_keys_do_not() {
        let mut t = title();
        for c in "hjklyubnHJKLYUBN".chars() {
            assert_eq!(t.key(press(KeyCode::Char(c))), None, "{c}");
        }
        assert_eq!(t.key(press(KeyCode::Char('c'))), Some(Choice::Campaign));
        assert_eq!(t.key(press(KeyCode::Char('a'))), Some(Choice::Lab));
        assert_eq!(t.key(press(KeyCode::Char('q'))), Some(Choice::Quit));
        assert_eq!(t.key(press(KeyCode::Esc)), Some(Choice::Quit));
        assert_eq!(t.key(press(KeyCode::Enter)), Some(Choice::Descent(48_213)), "the first item is highlighted");
        t.key(press(KeyCode::Down));
        assert_eq!(t.key(press(KeyCode::Enter)), Some(Choice::Campaign));
        t.key(press(KeyCode::Up));
        t.key(press(KeyCode::Up));
        assert_eq!(t.key(press(KeyCode::Enter)), Some(Choice::Quit), "wraps");
        assert_eq!(t.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Some(Choice::Quit));
    }

    #[test]
    fn a_seed_is_typed() {
        let mut t = title();
        t.key(press(KeyCode::Char('s')));
        for c in "12x3".chars() {
            assert_eq!(t.key(press(KeyCode::Char(c))), None, "typing takes the keys");
        }
        t.key(press(KeyCode::Backspace));
        assert!(screen(&t, 100, 30).contains("seed 12_"));
        t.key(press(KeyCode::Enter));
        assert_eq!(t.key(press(KeyCode::Char('d'))), Some(Choice::Descent(12)));
        // Esc keeps the old seed; a number past u64 is not a seed.
        t.key(press(KeyCode::Char('s')));
        t.key(press(KeyCode::Char('9')));
        t.key(press(KeyCode::Esc));
        t.key(press(KeyCode::Char('s')));
        for _ in 0..SEED_DIGITS + 3 {
            t.key(press(KeyCode::Char('9')));
        }
        t.key(press(KeyCode::Enter));
        assert_eq!(t.key(press(KeyCode::Char('d'))), Some(Choice::Descent(12)));
    }

    /// Back from a game, the keys wait a moment: the `q` that left the
    /// game's end screen, pressed twice, does not quit delve.
    #[test]
    fn back_from_a_game_the_keys_wait_a_moment() {
        let mut t = title();
        t.back = Some(Instant::now());
        assert_eq!(t.key(press(KeyCode::Char('q'))), None);
        assert_eq!(t.key(press(KeyCode::Char('d'))), None);
        t.back = t.back.and_then(|b| b.checked_sub(END_GUARD));
        assert_eq!(t.key(press(KeyCode::Char('q'))), Some(Choice::Quit));
    }
}
