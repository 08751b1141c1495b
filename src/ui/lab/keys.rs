//! The lab's keys: what each does, and the `?` popup listing them.

use crate::ui::keys::{Binding, Pad, RUN_KEYS, SEARCH_KEYS, bind, direction, is_interrupt, pad, rows, search_key};
use crate::ui::palette::Palette;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

/// A search setting the active pane's keys change: the game's keys for
/// the same settings.
pub use crate::ui::keys::Search as Setting;

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
    /// The mouse on or off (`M`).
    Mouse,
    /// A mouse button pressed, dragged or released (with the mouse on).
    Pointer(Pointer),
    Help,
    Quit,
}

/// A mouse event as the lab reads it: where, on a screen of what size
/// (to find the cell through the panes' layout), and what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pointer {
    pub at: Position,
    pub screen: Rect,
    pub kind: MouseEventKind,
}

impl Pointer {
    /// The lab's reading of `event` on a `screen`: presses, drags and
    /// releases (moves with no button held are nothing to it).
    pub fn of(event: MouseEvent, screen: Rect) -> Option<Pointer> {
        let kind = event.kind;
        matches!(kind, MouseEventKind::Down(_) | MouseEventKind::Drag(_) | MouseEventKind::Up(_)).then_some(Pointer {
            at: Position::new(event.column, event.row),
            screen,
            kind,
        })
    }
}

/// Cells moved by a Shift+direction key.
pub const RUN: i32 = 8;

use KeyCode::{Backspace, Char, Enter, Esc, Left, Right, Tab, Up};

/// The lab's own rows before the search settings (a row added here or
/// below is listed by the help and counted for the table by itself).
const LAB_FIRST: &[Binding] = &[
    Binding {
        keys: &[
            Left,
            KeyCode::Down,
            Up,
            Right,
            Char('h'),
            Char('j'),
            Char('k'),
            Char('l'),
            Char('y'),
            Char('u'),
            Char('b'),
            Char('n'),
        ],
        label: Some("hjkl ←↓↑→"),
        what: "move the cursor (yubn diagonally; the numpad too)",
    },
    Binding { keys: RUN_KEYS, label: Some("Shift"), what: "+ a move key: move the cursor 8 cells" },
    bind(&[Char('s'), Char('g')], "put the start / the goal under the cursor"),
    bind(&[Char('w')], "draw or erase a wall"),
    bind(&[Char('c')], "entry cost of the cell: 1, 3, 5, 9"),
    bind(&[Char('.')], "one expansion (numpad 5 too)"),
    bind(&[Char(' ')], "run (N expansions per frame) or pause"),
    bind(&[Char('+'), Char('='), Char('-')], "more or fewer expansions per frame"),
    bind(&[Enter], "to the end of the search"),
    Binding { keys: &[Char('r'), Backspace], label: Some("r Bksp"), what: "back to the first step" },
];

/// The lab's own rows after the search settings.
const LAB_LAST: &[Binding] = &[
    bind(&[Char('v')], "one pane or two side by side"),
    bind(&[Tab], "the other pane takes the setting keys"),
    bind(&[Char('W')], "write the level file (twice to overwrite)"),
    bind(&[Char('p')], "save the picture as SVG (twice to overwrite)"),
    bind(&[Char('M')], "mouse on/off: click, drag walls, right: goal"),
    bind(&[Char('?')], "this help"),
    bind(&[Char('q'), Esc], "quit (Esc closes this help first; Ctrl-C too)"),
];

const LAB_ROWS: usize = LAB_FIRST.len() + SEARCH_KEYS.len() + LAB_LAST.len();

/// Every key of the lab, for the help popup: the search settings' rows
/// are the game's.
pub const BINDINGS: &[Binding] = &rows::<LAB_ROWS>(&[LAB_FIRST, SEARCH_KEYS, LAB_LAST]);

/// The action of a key press, if any.
pub fn action(key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return is_interrupt(key).then_some(Action::Quit);
    }
    if key.modifiers.contains(KeyModifiers::ALT) {
        return None;
    }
    let step = direction(key.code).or(match pad(key.code) {
        Some(Pad::Step(dx, dy)) => Some((dx, dy)),
        _ => None,
    });
    if let Some((dx, dy)) = step {
        let run = key.modifiers.contains(KeyModifiers::SHIFT) || matches!(key.code, Char(c) if c.is_ascii_uppercase());
        let n = if run { RUN } else { 1 };
        return Some(Action::Move(n * i32::from(dx), n * i32::from(dy)));
    }
    if let Some(setting) = search_key(key.code) {
        return Some(Action::Set(setting));
    }
    Some(match key.code {
        Char('s') => Action::Start,
        Char('g') => Action::Goal,
        Char('w') => Action::Wall,
        Char('c') => Action::Cost,
        Char('.') => Action::Step,
        _ if pad(key.code) == Some(Pad::Middle) => Action::Step,
        Char(' ') => Action::Run,
        Char('+' | '=') => Action::Faster,
        Char('-') => Action::Slower,
        Enter => Action::End,
        Char('r') | Backspace => Action::Restart,
        Char('v') => Action::Split,
        Tab => Action::SwapPane,
        Char('W') => Action::Save,
        Char('p') => Action::Picture,
        Char('M') => Action::Mouse,
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
        assert_eq!(action(KeyEvent::new(Left, KeyModifiers::SHIFT)), Some(Action::Move(-RUN, 0)));
        assert_eq!(action(key(Char('E'))), Some(Action::Set(Setting::Heuristic)));
        assert_eq!(action(KeyEvent::new(Char('c'), KeyModifiers::CONTROL)), Some(Action::Quit));
        assert_eq!(action(key(Char('c'))), Some(Action::Cost));
        assert_eq!(action(key(Char('x'))), None);
        assert_eq!(action(key(Char('R'))), None, "reopening is X, as in the game");
        assert_eq!(action(key(Char('X'))), Some(Action::Set(Setting::Reopen)));
    }

    /// The numpad moves the cursor as it moves the player: digits with
    /// NumLock, Home, PgUp, End and PgDn without; the middle key steps
    /// the search one expansion (the game's wait), and Shift moves 8.
    #[test]
    fn the_numpad_moves_the_cursor() {
        for (code, dx, dy) in crate::ui::keys::NUMPAD {
            let (dx, dy) = (i32::from(dx), i32::from(dy));
            assert_eq!(action(key(code)), Some(Action::Move(dx, dy)), "{code:?}");
            let shifted = KeyEvent::new(code, KeyModifiers::SHIFT);
            assert_eq!(action(shifted), Some(Action::Move(dx * RUN, dy * RUN)), "{code:?}");
        }
        assert_eq!(action(key(Char('5'))), Some(Action::Step));
        assert_eq!(action(key(KeyCode::KeypadBegin)), Some(Action::Step));
        assert_eq!(action(key(Enter)), Some(Action::End));
    }

    /// The help lists exactly the keys that do something.
    #[test]
    fn the_help_lists_every_bound_key_and_only_those() {
        let listed: Vec<KeyCode> = BINDINGS.iter().flat_map(|b| b.keys.iter().copied()).collect();
        for &k in &listed {
            assert!(action(key(k)).is_some(), "{k:?} is listed but does nothing");
        }
        let mut all: Vec<KeyCode> = (' '..='~').filter(|c| !c.is_ascii_digit()).map(Char).collect();
        all.extend([Left, Right, Up, KeyCode::Down, Tab, Esc, Enter, Backspace]);
        for code in all {
            if action(key(code)).is_some() {
                let run = matches!(code, Char(c) if c.is_ascii_uppercase() && direction(code).is_some());
                assert!(listed.contains(&code) || run, "{code:?} does something but the help does not list it");
            }
        }
    }

    /// Issue 27: one key map. Reopening was `R` in the lab and `X` in the
    /// game, where `R` is the repath policy. Every action the lab and the
    /// game share has the same key in both: the search settings, the
    /// moves (and Shift), the numpad, pause/run, one step, the pace, the
    /// mouse, the help and quit.
    #[test]
    fn shared_actions_have_the_same_keys_in_the_game_and_the_lab() {
        use crate::sim::{Command, Setting as World, Settings};
        use crate::ui::keys::{self as game, Action as Game, Ui};
        let d = Settings::default();
        let in_game = |k: KeyEvent| game::action(k, &d);
        // The game's command for each search setting the lab changes.
        let same = |lab: Setting, world: &World| {
            matches!(
                (lab, world),
                (Setting::Planner, World::Planner(_))
                    | (Setting::Heuristic, World::Heuristic(_))
                    | (Setting::Tie, World::Tie(_))
                    | (Setting::Open, World::Open(_))
                    | (Setting::Reopen, World::Reopen(_))
                    | (Setting::Neighbors, World::Neighbors(_))
            ) || matches!((lab, world), (Setting::Weight(step), World::Weight(w)) if *w == d.search.weight + step)
        };
        let mut all: Vec<KeyCode> = (' '..='~').map(Char).collect();
        all.extend([Left, Right, Up, KeyCode::Down, Tab, Esc, Enter, Backspace]);
        let mut settings = 0;
        for code in all {
            let (lab, game) = (action(key(code)), in_game(key(code)));
            match lab {
                Some(Action::Set(s)) => {
                    settings += 1;
                    assert!(
                        matches!(&game, Some(Game::World(Command::Set(w))) if same(s, w)),
                        "{code:?}: {s:?} in the lab, {game:?} in the game"
                    );
                }
                _ => {
                    let search = |w: &World| {
                        matches!(
                            w,
                            World::Planner(_)
                                | World::Heuristic(_)
                                | World::Tie(_)
                                | World::Open(_)
                                | World::Reopen(_)
                                | World::Neighbors(_)
                                | World::Weight(_)
                        )
                    };
                    assert!(
                        !matches!(&game, Some(Game::World(Command::Set(w))) if search(w)),
                        "{code:?} is a search setting in the game ({game:?}) but {lab:?} in the lab"
                    );
                }
            }
        }
        assert_eq!(settings, 8, "A E T P X D [ ]");
        // The moves, with Shift, and the numpad of live play.
        let mut moves = 0;
        for code in [Left, Right, Up, KeyCode::Down].into_iter().chain("hjklyubn123456789".chars().map(Char)) {
            for modifiers in [KeyModifiers::NONE, KeyModifiers::SHIFT] {
                let k = KeyEvent::new(code, modifiers);
                let Some(Action::Move(x, y)) = action(k) else {
                    assert_eq!(code, Char('5'));
                    continue;
                };
                let n = if modifiers.is_empty() { 1 } else { RUN };
                let (dx, dy) = (i8::try_from(x / n).unwrap(), i8::try_from(y / n).unwrap());
                let want = if modifiers.is_empty() { Command::Move { dx, dy } } else { Command::Run { dx, dy } };
                assert_eq!(in_game(game::numpad(k)), Some(Game::World(want)), "{k:?}");
                moves += 1;
            }
        }
        assert_eq!(moves, 2 * 20);
        for (code, lab, game) in [
            (Char(' '), Action::Run, Ui::Pause),
            (Char('.'), Action::Step, Ui::Step),
            (Char('+'), Action::Faster, Ui::Faster),
            (Char('='), Action::Faster, Ui::Faster),
            (Char('-'), Action::Slower, Ui::Slower),
            (Char('?'), Action::Help, Ui::Help),
            (Char('M'), Action::Mouse, Ui::Mouse),
            (Char('q'), Action::Quit, Ui::Quit),
            (Esc, Action::Quit, Ui::Quit),
        ] {
            assert_eq!((action(key(code)), in_game(key(code))), (Some(lab), Some(Game::Ui(game))), "{code:?}");
        }
        let ctrl_c = KeyEvent::new(Char('c'), KeyModifiers::CONTROL);
        assert_eq!((action(ctrl_c), in_game(ctrl_c)), (Some(Action::Quit), Some(Game::Ui(Ui::Quit))));
        // Both helps list the search settings from the same rows.
        let rows = |b: &[Binding]| b.iter().map(|r| r.what).collect::<Vec<_>>();
        for row in rows(SEARCH_KEYS) {
            assert!(rows(BINDINGS).contains(&row) && rows(game::BINDINGS).contains(&row), "{row}");
        }
    }
}
