//! The lab's keys: what each does, and the `?` popup listing them.

use crate::ui::help::key_name;
use crate::ui::keys::Binding;
use crate::ui::palette::Palette;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// A search setting the active pane's keys change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setting {
    Algorithm,
    Heuristic,
    Tie,
    Open,
    Neighbors,
    Reopen,
    /// Weight of weighted A*, changed by this much.
    Weight(f64),
}

/// What a key asks of the lab.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Move the cursor by (dx, dy) cells.
    Move(i32, i32),
    /// Put the start, or the goal, under the cursor.
    Start,
    Goal,
    /// Wall or floor under the cursor.
    Wall,
    /// Next entry cost (1, 3, 5, 9) under the cursor.
    Cost,
    /// One expansion.
    Step,
    /// Run at the pace, or pause.
    Run,
    /// More or fewer expansions per frame.
    Faster,
    Slower,
    /// To the end of the search.
    End,
    /// Back to the first step.
    Restart,
    /// Change a setting of the active pane.
    Set(Setting),
    /// The other pane becomes the active one.
    SwapPane,
    /// One pane or two side by side.
    Split,
    /// Write the level, or the picture (a second press overwrites).
    Save,
    Picture,
    Help,
    Quit,
}

/// Cells moved by a Shift+direction key.
pub const RUN: i32 = 8;
/// Step of the weight keys.
pub const WEIGHT_STEP: f64 = 0.25;

use KeyCode::{Backspace, Char, Down, End, Enter, Esc, Left, Right, Tab, Up};

/// Every key of the lab, for the help popup.
pub const BINDINGS: &[Binding] = &[
    Binding { keys: &[Left, Down, Up, Right], what: "move the cursor" },
    Binding { keys: &[Char('h'), Char('j'), Char('k'), Char('l')], what: "the same, roguelike (yubn diagonally)" },
    Binding { keys: &[Char('H'), Char('J'), Char('K'), Char('L')], what: "move the cursor 8 cells (YUBN too)" },
    Binding { keys: &[Char('s'), Char('g')], what: "put the start / the goal under the cursor" },
    Binding { keys: &[Char('w')], what: "draw or erase a wall" },
    Binding { keys: &[Char('c')], what: "entry cost of the cell: 1, 3, 5, 9" },
    Binding { keys: &[Char('.')], what: "one expansion" },
    Binding { keys: &[Char(' ')], what: "run (N expansions per frame) or pause" },
    Binding { keys: &[Char('+'), Char('-')], what: "more or fewer expansions per frame" },
    Binding { keys: &[Enter, End], what: "to the end of the search" },
    Binding { keys: &[Char('r'), Backspace], what: "back to the first step" },
    Binding { keys: &[Char('A')], what: "next algorithm (active pane)" },
    Binding { keys: &[Char('E')], what: "next heuristic" },
    Binding { keys: &[Char('T')], what: "next tie-break among equal f" },
    Binding { keys: &[Char('P')], what: "open list: lazy deletion or decrease-key" },
    Binding { keys: &[Char('D')], what: "4 or 8 neighbours" },
    Binding { keys: &[Char('R')], what: "reopening closed nodes on or off" },
    Binding { keys: &[Char('['), Char(']')], what: "weight of weighted A* -/+ 0.25 (1 to 10)" },
    Binding { keys: &[Char('v')], what: "one pane or two side by side" },
    Binding { keys: &[Tab], what: "the other pane takes the setting keys" },
    Binding { keys: &[Char('W')], what: "write the level file (twice to overwrite)" },
    Binding { keys: &[Char('p')], what: "save the picture as SVG (twice to overwrite)" },
    Binding { keys: &[Char('?')], what: "this help" },
    Binding { keys: &[Char('q'), Esc], what: "quit (Esc closes this help first; Ctrl-C too)" },
];

/// The action of a key press, if any.
pub fn action(key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return (key.code == Char('c')).then_some(Action::Quit);
    }
    let direction = |c: char| match c {
        'h' => Some((-1, 0)),
        'j' => Some((0, 1)),
        'k' => Some((0, -1)),
        'l' => Some((1, 0)),
        'y' => Some((-1, -1)),
        'u' => Some((1, -1)),
        'b' => Some((-1, 1)),
        'n' => Some((1, 1)),
        _ => None,
    };
    Some(match key.code {
        Left => Action::Move(-1, 0),
        Down => Action::Move(0, 1),
        Up => Action::Move(0, -1),
        Right => Action::Move(1, 0),
        Char(c) if direction(c).is_some() => direction(c).map(|(dx, dy)| Action::Move(dx, dy))?,
        Char(c) if c.is_ascii_uppercase() && direction(c.to_ascii_lowercase()).is_some() => {
            direction(c.to_ascii_lowercase()).map(|(dx, dy)| Action::Move(dx * RUN, dy * RUN))?
        }
        Char('s') => Action::Start,
        Char('g') => Action::Goal,
        Char('w') => Action::Wall,
        Char('c') => Action::Cost,
        Char('.') => Action::Step,
        Char(' ') => Action::Run,
        Char('+') | Char('=') => Action::Faster,
        Char('-') => Action::Slower,
        Enter | End => Action::End,
        Char('r') | Backspace => Action::Restart,
        Char('A') => Action::Set(Setting::Algorithm),
        Char('E') => Action::Set(Setting::Heuristic),
        Char('T') => Action::Set(Setting::Tie),
        Char('P') => Action::Set(Setting::Open),
        Char('D') => Action::Set(Setting::Neighbors),
        Char('R') => Action::Set(Setting::Reopen),
        Char('[') => Action::Set(Setting::Weight(-WEIGHT_STEP)),
        Char(']') => Action::Set(Setting::Weight(WEIGHT_STEP)),
        Char('v') => Action::Split,
        Tab => Action::SwapPane,
        Char('W') => Action::Save,
        Char('p') => Action::Picture,
        Char('?') => Action::Help,
        Char('q') | Esc => Action::Quit,
        _ => return None,
    })
}

/// Width of the keys column of the help.
const KEYS_WIDTH: usize = 12;

/// Draws the help popup centred over `area`.
pub fn render_help(frame: &mut Frame, area: Rect, palette: &Palette) {
    let keys = |b: &Binding| b.keys.iter().map(|&k| key_name(k)).collect::<Vec<_>>().join(" ");
    let lines: Vec<Line> = BINDINGS
        .iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(format!("{:<KEYS_WIDTH$}", keys(b)), Style::new().fg(palette.key)),
                Span::raw(b.what),
            ])
        })
        .collect();
    let width = BINDINGS.iter().map(|b| KEYS_WIDTH + b.what.chars().count()).max().unwrap_or(0) as u16 + 4;
    // Cut to the screen: a terminal smaller than the popup shows its top left.
    let popup = area.centered(Constraint::Length(width), Constraint::Length(lines.len() as u16 + 2)).intersection(area);
    frame.render_widget(Clear, popup);
    let block = Block::bordered().title(" Lab keys ").title_bottom(" ? or Esc closes ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn movement_keys_and_shift_runs() {
        assert_eq!(action(key(Char('y'))), Some(Action::Move(-1, -1)));
        assert_eq!(action(key(Char('L'))), Some(Action::Move(RUN, 0)));
        assert_eq!(action(key(Char('E'))), Some(Action::Set(Setting::Heuristic)));
        assert_eq!(action(KeyEvent::new(Char('c'), KeyModifiers::CONTROL)), Some(Action::Quit));
        assert_eq!(action(key(Char('c'))), Some(Action::Cost));
        assert_eq!(action(key(Char('x'))), None);
    }

    #[test]
    fn every_listed_key_does_something() {
        for b in BINDINGS {
            for &k in b.keys {
                assert!(action(key(k)).is_some(), "{k:?} is listed but does nothing");
            }
        }
    }
}
