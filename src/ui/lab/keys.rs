//! The lab's keys: what each does, and the `?` popup listing them.

use crate::ui::keys::{Binding, bind};
use crate::ui::palette::Palette;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;

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
    /// Open the menu of presets (pairs of pane settings).
    Presets,
    /// Open the level chooser (shipped, generated, a file).
    Load,
    Help,
    Quit,
}

/// Cells moved by a Shift+direction key.
pub const RUN: i32 = 8;
/// Step of the weight keys.
pub const WEIGHT_STEP: f64 = 0.25;

use KeyCode::{Backspace, Char, Down, End, Enter, Esc, Left, Right, Tab, Up};

/// The run keys: a move key with Shift.
const RUN_KEYS: &[KeyCode] = &[Char('H'), Char('J'), Char('K'), Char('L'), Char('Y'), Char('U'), Char('B'), Char('N')];

/// Every key of the lab, for the help popup.
pub const BINDINGS: &[Binding] = &[
    bind(&[Left, Down, Up, Right], "move the cursor"),
    bind(&[Char('h'), Char('j'), Char('k'), Char('l')], "the same, roguelike (yubn diagonally)"),
    Binding { keys: RUN_KEYS, label: Some("Shift"), what: "+ a move key: move the cursor 8 cells" },
    bind(&[Char('s'), Char('g')], "put the start / the goal under the cursor"),
    bind(&[Char('w')], "draw or erase a wall"),
    bind(&[Char('c')], "entry cost of the cell: 1, 3, 5, 9"),
    bind(&[Char('.')], "one expansion"),
    bind(&[Char(' ')], "run (N expansions per frame) or pause"),
    bind(&[Char('+'), Char('-')], "more or fewer expansions per frame"),
    bind(&[Enter, End], "to the end of the search"),
    bind(&[Char('r'), Backspace], "back to the first step"),
    bind(&[Char('A')], "next algorithm (active pane), then navmesh, waypoints"),
    bind(&[Char('E')], "next heuristic"),
    bind(&[Char('T')], "next tie-break among equal f"),
    bind(&[Char('P')], "open list: lazy deletion or decrease-key"),
    bind(&[Char('D')], "4 or 8 neighbours"),
    bind(&[Char('R')], "reopening closed nodes on or off"),
    bind(&[Char('['), Char(']')], "weight of weighted A* (of the navmesh on its pane) -/+ 0.25 (1 to 10)"),
    bind(&[Char('v')], "one pane or two side by side"),
    bind(&[Tab], "the other pane takes the setting keys"),
    bind(&[Char('W')], "write the level file (twice to overwrite)"),
    bind(&[Char('p')], "save the picture as SVG (twice to overwrite)"),
    bind(&[Char('m')], "presets: A* vs Dijkstra, grid vs navmesh, ..."),
    bind(&[Char('o')], "open another level: shipped, generated or a file"),
    bind(&[Char('?')], "this help"),
    bind(&[Char('q'), Esc], "quit (Esc closes this help first; Ctrl-C too)"),
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
        Char('m') => Action::Presets,
        Char('o') => Action::Load,
        Char('?') => Action::Help,
        Char('q') | Esc => Action::Quit,
        _ => return None,
    })
}

/// Draws the help popup centred over `area`.
pub fn render_help(frame: &mut Frame, area: Rect, palette: &Palette) {
    crate::ui::help::render_keys(frame, area, palette, " Lab keys ", BINDINGS);
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
