//! The `?` popup, in three pages: every key and what it does (from the key
//! table itself), what each glyph on the map means (drawn as the map draws
//! it), and the rules of this game (from the simulation's constants and
//! the world's settings, see [`rules`](super::rules)). While it is open
//! the game is held and it takes every key (see `App`): ← → turn the
//! pages, ↑ ↓ scroll a page taller than the terminal.

use super::keys::{BINDINGS, Binding};
use super::log::wrap;
use super::map::{ARROWS, LAST_SEEN, last_seen_style, letter, terrain};
use super::overlay::{RAW_PATH, WAYPOINT, raw_path_style, waypoint_style};
use super::palette::{Palette, Shade};
use crate::grid::Tile;
use crate::level::marker;
use crate::shown::shown;
use crate::sim::{Kind, World};
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// Width of the keys column.
const KEYS_WIDTH: usize = 10;

/// Narrowest the game's help is drawn (the terminal allowing): room for
/// the rules' sentences.
const MIN_WIDTH: u16 = 66;

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

/// A page of the help.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Page {
    /// Every key.
    #[default]
    Keys,
    /// What the map's glyphs and colours mean.
    Legend,
    /// The rules of this game.
    Rules,
}

impl Page {
    /// Every page, in order.
    const ALL: [Page; 3] = [Page::Keys, Page::Legend, Page::Rules];

    fn title(self) -> &'static str {
        match self {
            Page::Keys => "keys",
            Page::Legend => "legend",
            Page::Rules => "rules",
        }
    }

    fn index(self) -> usize {
        Page::ALL.iter().position(|&p| p == self).unwrap_or(0)
    }
}

/// Which page the help shows, and how far it is scrolled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HelpView {
    pub page: Page,
    /// Rows scrolled past at the top of the page.
    pub scroll: u16,
}

impl HelpView {
    /// A key while the help is open: turns the page or scrolls it; true
    /// when the key closes the help (`?`, Esc).
    pub fn key(&mut self, code: KeyCode) -> bool {
        let turn = |by: usize| Page::ALL[(self.page.index() + by) % Page::ALL.len()];
        match code {
            KeyCode::Char('?') | KeyCode::Esc => return true,
            KeyCode::Right | KeyCode::Tab | KeyCode::Char('l') => *self = HelpView { page: turn(1), scroll: 0 },
            KeyCode::Left | KeyCode::BackTab | KeyCode::Char('h') => {
                *self = HelpView { page: turn(Page::ALL.len() - 1), scroll: 0 };
            }
            KeyCode::Down | KeyCode::Char('j') => self.scroll = self.scroll.saturating_add(1),
            KeyCode::Up | KeyCode::Char('k') => self.scroll = self.scroll.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => self.scroll = self.scroll.saturating_add(10),
            KeyCode::PageUp => self.scroll = self.scroll.saturating_sub(10),
            _ => {}
        }
        false
    }
}

/// Draws the game's help at `view`'s page, centred over `area`, for
/// `world` (its rules) on the level described by `about`.
pub fn render(frame: &mut Frame, area: Rect, palette: &Palette, view: &HelpView, world: &World, about: &str) {
    let keys_width = keys_width(BINDINGS);
    let width = keys_width.max(MIN_WIDTH).min(area.width);
    // Text is wrapped inside the borders, a space either side.
    let text_width = usize::from(width.saturating_sub(4)).max(1);
    let lines = match view.page {
        Page::Keys => key_lines(palette, BINDINGS),
        Page::Legend => legend(palette, usize::from(width.saturating_sub(2))),
        Page::Rules => rules_lines(world, about, text_width),
    };
    let pages: Vec<String> = Page::ALL
        .iter()
        .map(|&p| if p == view.page { p.title().to_uppercase() } else { p.title().to_string() })
        .collect();
    let title = format!(" Help: {} ", pages.join(" · "));
    popup(frame, area, width, lines, &title, " ← → page  ↑ ↓ scroll  ? or Esc closes ", view.scroll);
}

/// Draws a popup titled `title` listing `bindings`, centred over `area`
/// and cut to it (a terminal smaller than the popup shows its top left):
/// the lab's help.
pub fn render_keys(frame: &mut Frame, area: Rect, palette: &Palette, title: &str, bindings: &[Binding]) {
    let lines = key_lines(palette, bindings);
    popup(frame, area, keys_width(bindings), lines, title, " ? or Esc closes ", 0);
}

/// Columns of a keys page, borders included.
fn keys_width(bindings: &[Binding]) -> u16 {
    bindings.iter().map(|b| KEYS_WIDTH + b.what.chars().count()).max().unwrap_or(0) as u16 + 4
}

/// One line per binding: its keys, then what they do.
fn key_lines(palette: &Palette, bindings: &[Binding]) -> Vec<Line<'static>> {
    bindings
        .iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(format!("{:<KEYS_WIDTH$}", keys_text(b)), Style::new().fg(palette.key)),
                Span::raw(b.what),
            ])
        })
        .collect()
}

/// `lines` in a bordered box `width` wide, centred over `area` and cut to
/// it, scrolled by `scroll` rows (no further than its last row).
pub(super) fn popup(
    frame: &mut Frame,
    area: Rect,
    width: u16,
    lines: Vec<Line<'static>>,
    title: &str,
    bottom: &str,
    scroll: u16,
) {
    let rows = lines.len() as u16;
    let popup = area.centered(Constraint::Length(width), Constraint::Length(rows + 2)).intersection(area);
    let scroll = scroll.min(rows.saturating_sub(popup.height.saturating_sub(2)));
    frame.render_widget(Clear, popup);
    let block = Block::bordered().title(title.to_string()).title_bottom(bottom.to_string());
    frame.render_widget(Paragraph::new(lines).block(block).scroll((scroll, 0)), popup);
}

/// A legend entry: samples drawn as the map draws them, then words,
/// wrapped under themselves to lines of at most `width` columns.
fn entry(samples: Vec<Span<'static>>, what: &str, width: usize) -> Vec<Line<'static>> {
    let used: usize = samples.iter().map(|s| s.width()).sum();
    let column = KEYS_WIDTH.max(used + 1);
    let rows = wrap(what, width.saturating_sub(column).max(1));
    let mut lines = Vec::new();
    for (i, row) in rows.into_iter().enumerate() {
        let mut spans = if i == 0 { samples.clone() } else { Vec::new() };
        let pad = if i == 0 { column - used } else { column };
        spans.push(Span::raw(" ".repeat(pad)));
        spans.push(Span::raw(row));
        lines.push(Line::from(spans));
    }
    lines
}

/// The glyph legend, in lines of at most `width` columns: every glyph of
/// the map in its style, from the level's glyph table and the map's own
/// drawing functions.
fn legend(p: &Palette, width: usize) -> Vec<Line<'static>> {
    let bold = |c: char, colour| Span::styled(c.to_string(), Style::new().fg(colour).add_modifier(Modifier::BOLD));
    let tile = |t: Tile| {
        let (g, style) = terrain(t, p);
        Span::styled(g.to_string(), style)
    };
    let gap = || Span::raw(" ");
    let creature = |k: Kind| bold(letter(k), p.creature(k));
    let shade = |s: Shade| p.swatch(s);
    let entry = |samples: Vec<Span<'static>>, what: &str| entry(samples, what, width);
    let heading = |text: &str| {
        wrap(text, width.saturating_sub(1).max(1)).into_iter().map(|r| Line::from(format!(" {r}"))).collect()
    };
    let groups: Vec<Vec<Line<'static>>> = vec![
        entry(vec![bold(marker::PLAYER, p.player)], "you"),
        entry(
            vec![
                creature(Kind::Monster),
                gap(),
                Span::styled(letter(Kind::Monster).to_string(), p.highlight(p.player, p.watched)),
            ],
            "a monster: it hunts you; highlighted, the one watched (Tab)",
        ),
        entry(
            vec![Span::styled(LAST_SEEN.to_string(), last_seen_style(p))],
            "where a monster now out of sight was last seen",
        ),
        entry(vec![creature(Kind::Wanderer), gap(), creature(Kind::Fleeing)], "a wanderer, fleeing prey: harmless"),
        entry(
            [creature(Kind::Boid), gap()].into_iter().chain(ARROWS.map(|a| bold(a, p.boid))).collect(),
            "a boid, or the way it flies: harmless",
        ),
        entry(vec![tile(Tile::Wall), gap(), tile(Tile::Floor(1))], "wall, floor"),
        entry(
            vec![tile(Tile::Floor(2)), Span::raw("-"), tile(Tile::Floor(9)), gap(), tile(Tile::Water)],
            &format!("mud (the digit is its cost), water (cost {})", crate::grid::WATER_COST),
        ),
        entry(vec![tile(Tile::DoorClosed), gap(), tile(Tile::DoorOpen)], "a door, closed or open (e)"),
        entry(
            vec![
                Span::styled(marker::START.to_string(), p.marker(p.start)),
                gap(),
                Span::styled(marker::GOAL.to_string(), p.marker(p.goal)),
            ],
            "the level's start and goal",
        ),
        vec![Line::default()],
        heading("O shows an overlay; a line under the map names its colours:"),
        entry(
            vec![
                Span::styled(RAW_PATH.to_string(), raw_path_style(p)),
                gap(),
                Span::styled(WAYPOINT.to_string(), waypoint_style(p)),
            ],
            "paths: each monster's path and its waypoints",
        ),
        entry(
            vec![shade(Shade::Closed), gap(), shade(Shade::Open), gap(), shade(Shade::Updated)],
            "search: closed, open, repaired cells",
        ),
        entry(
            (0..super::overlay::BANDS).map(|b| shade(Shade::Band(b))).collect(),
            "search under flow-field: the field, near to far",
        ),
        entry((0..3).map(|d| shade(Shade::Density(d))).collect(), "flock: where boids crowd, few to many"),
    ];
    groups.concat()
}

/// The rules page: the level and what it is about, then the rules, each
/// wrapped to `width` with its continuation indented.
fn rules_lines(world: &World, about: &str, width: usize) -> Vec<Line<'static>> {
    let mut paragraphs = Vec::new();
    let name = shown(world.name()).into_owned();
    paragraphs.push(if about.is_empty() { name } else { format!("{name}: {}", shown(about)) });
    paragraphs.extend(super::rules::rules(world));
    let mut lines = Vec::new();
    for (i, paragraph) in paragraphs.iter().enumerate() {
        if i > 0 {
            lines.push(Line::default());
        }
        let rows = wrap(paragraph, width.saturating_sub(1).max(1));
        let style = if i == 0 { Style::new().add_modifier(Modifier::BOLD) } else { Style::new() };
        lines.extend(rows.into_iter().map(|row| Line::from(Span::styled(format!(" {row}"), style))));
    }
    lines
}
