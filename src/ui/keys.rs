//! Keys to actions: one table for what each key does, read both by the
//! mapping and by the help popup and status line, so they cannot drift.
//!
//! A key that changes the world becomes a [`Command`] computed from the
//! world's current settings (the next heuristic, the weight plus 0.25), so
//! that every change is recorded and replayed like any other command.

use crate::search::{MAX_WEIGHT, MIN_WEIGHT};
use crate::sim::{Command, Setting, Settings};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// A change to the world: only live play sends these.
    World(Command),
    /// A change to the view or the pace: works in replay too.
    Ui(Ui),
}

/// Actions that never touch the world's state themselves (the travel keys
/// lead to a command once the front end has the cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ui {
    Pause,
    /// One tick while paused; in turn mode, a wait.
    Step,
    /// Turn mode on or off: the world moves only while the player acts.
    Turns,
    /// Open the travel cursor to pick a cell to travel to.
    Travel,
    /// Travel to the level's goal, once the player has seen it.
    TravelGoal,
    Faster,
    Slower,
    Overlay,
    /// The player's field of view (fog of war) on or off.
    Fov,
    /// Watch the next monster: the panel and the search overlay follow it.
    NextMonster,
    /// Watch the previous monster (Shift-Tab).
    PrevMonster,
    /// The camera follows the watched monster, or the player again.
    Follow,
    /// The mouse on or off (`M`): a click on a cell travels there.
    Mouse,
    /// Open the help (which then takes every key: `?` or Esc closes it).
    Help,
    /// `q` or Esc: quit, after a question in a live game.
    Quit,
    /// A replay plays on (or again from the start) to a tick, in slices.
    Seek(Seek),
}

/// Where a replay's seek keys go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seek {
    /// 10 s back (PageUp).
    Back,
    /// 10 s on (PageDown).
    Forward,
    /// The first tick (Home).
    Start,
    /// The recording's last tick (End).
    End,
}

/// Ticks a seek key moves by: 10 s of game time.
pub const SEEK_TICKS: u64 = 10 * crate::sim::TICKS_PER_SECOND as u64;

/// Step of the weight keys.
pub const WEIGHT_STEP: f64 = 0.25;

/// One line of the help: keys and what they do.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    pub keys: &'static [KeyCode],
    /// How the help writes the keys, when not one by one.
    pub label: Option<&'static str>,
    pub what: &'static str,
}

pub(super) const fn bind(keys: &'static [KeyCode], what: &'static str) -> Binding {
    Binding { keys, label: None, what }
}

/// `parts` one after the other, as one table of `N` rows (`N` their
/// lengths summed): how a help lists the shared rows among its own.
pub(super) const fn rows<const N: usize>(parts: &[&[Binding]]) -> [Binding; N] {
    let mut all = [bind(&[], ""); N];
    let (mut i, mut n) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            all[n] = parts[i][j];
            (j, n) = (j + 1, n + 1);
        }
        i += 1;
    }
    assert!(n == N, "N is not the rows' count");
    all
}

/// A search setting, changed by the same key in the game and the lab
/// (the lab's active pane): one spelling, read by both maps from
/// [`search_key`] and listed by both helps from [`SEARCH_KEYS`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Search {
    /// The next planner: the grid searches, then the navmesh and the
    /// waypoint graph.
    Planner,
    Heuristic,
    Tie,
    Open,
    /// Reopening closed nodes on or off.
    Reopen,
    Neighbors,
    /// The weight of weighted A*, moved by this much.
    Weight(f64),
}

/// The search setting `code` changes, in the game and in the lab alike.
pub fn search_key(code: KeyCode) -> Option<Search> {
    Some(match code {
        Char('A') => Search::Planner,
        Char('E') => Search::Heuristic,
        Char('T') => Search::Tie,
        Char('P') => Search::Open,
        Char('X') => Search::Reopen,
        Char('D') => Search::Neighbors,
        Char('[') => Search::Weight(-WEIGHT_STEP),
        Char(']') => Search::Weight(WEIGHT_STEP),
        _ => return None,
    })
}

/// The search settings' rows, the same in both helps.
pub const SEARCH_KEYS: &[Binding] = &[
    bind(&[Char('A')], "next planner (grid searches, navmesh, waypoints)"),
    bind(&[Char('E')], "next heuristic (the estimate)"),
    bind(&[Char('T')], "next tie-break among equal f"),
    bind(&[Char('P'), Char('X')], "open list: lazy or decrease-key; reopening"),
    bind(&[Char('D'), Char('['), Char(']')], "4 or 8 neighbours; weight -/+ 0.25 (1 to 10)"),
];

use KeyCode::{BackTab, Char, Down, End, Esc, Home, Left, PageDown, PageUp, Right, Tab, Up};

/// The run keys: a move key with Shift.
pub(super) const RUN_KEYS: &[KeyCode] =
    &[Char('H'), Char('J'), Char('K'), Char('L'), Char('Y'), Char('U'), Char('B'), Char('N')];

/// The game's own rows before the search settings.
const GAME_FIRST: &[Binding] = &[
    Binding {
        keys: &[Char('h'), Char('j'), Char('k'), Char('l'), Left, Down, Up, Right],
        label: Some("hjkl ←↓↑→"),
        what: "move west, south, north, east",
    },
    bind(&[Char('y'), Char('u'), Char('b'), Char('n')], "move diagonally: NW, NE, SW, SE; the numpad too"),
    Binding { keys: RUN_KEYS, label: Some("Shift"), what: "+ a move key: run until something happens" },
    bind(&[Char('t'), Char('s')], "turn mode on/off; wait a step (. too in turns)"),
    bind(&[Char('_'), Char('>')], "travel: pick a cell; to the goal G once seen"),
    bind(&[Char('o'), Char('e')], "explore the unseen; open or close a door"),
];

/// The game's own rows after the search settings.
const GAME_LAST: &[Binding] = &[
    bind(&[Char('R'), Char('S'), Char('V')], "repath policy; smoothing; avoidance (sep./orca)"),
    bind(&[Char('O'), Char('F'), Char('M')], "next overlay; field of view (fog); mouse on/off"),
    Binding {
        keys: &[Tab, BackTab, Char('C')],
        label: Some("Tab⇧Tab C"),
        what: "watch next / previous monster; camera on it",
    },
    bind(&[Char(' '), Char('.')], "pause or resume; one tick while paused"),
    Binding {
        keys: &[Char('+'), Char('='), Char('-'), PageUp, PageDown, Home, End],
        label: Some("+-PgUp/Dn"),
        what: "speed ¼× to 8×; replay -/+10 s, Home/End",
    },
    bind(&[Char('?'), Char('q'), Esc], "this help; quit (q confirms, Ctrl-C at once)"),
    // Keys with Ctrl, which the help writes as `^P`.
    Binding { keys: &[], label: Some("^P ^Z"), what: "message history; suspend (fg resumes)" },
];

const GAME_ROWS: usize = GAME_FIRST.len() + SEARCH_KEYS.len() + GAME_LAST.len();

/// Every key of the game, in the order the help lists them (18 lines: the
/// help fits the smallest terminal); the search settings' rows are the
/// lab's too.
pub const BINDINGS: &[Binding] = &rows::<GAME_ROWS>(&[GAME_FIRST, SEARCH_KEYS, GAME_LAST]);

/// The most useful keys, most useful first, as the status line names them
/// (it is cut at the terminal's width; a replay leaves out those that
/// change the world, as they do nothing there).
pub const STATUS: &[(&[KeyCode], &str)] = &[
    (&[Char('?')], "help"),
    (&[Char('q')], "quit"),
    (&[Char('h'), Char('j'), Char('k'), Char('l')], "move"),
    (&[Char('H'), Char('J'), Char('K'), Char('L')], "run"),
    (&[Char('e')], "door"),
    (&[Char(' ')], "pause"),
    (&[Char('.')], "step"),
    (&[Char('+'), Char('-')], "speed"),
    (&[Char('O')], "overlay"),
    (&[Char('F')], "sight"),
    (&[Tab], "monster"),
];

/// The action of `key`, given the world's current `settings`; `None` for
/// key releases, unbound keys and a weight already at its limit.
pub fn action(key: KeyEvent, settings: &Settings) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return is_interrupt(key).then_some(Action::Ui(Ui::Quit));
    }
    if key.modifiers.contains(KeyModifiers::ALT) {
        return None;
    }
    let s = &settings.search;
    let set = |setting| Some(Action::World(Command::Set(setting)));
    let ui = |u| Some(Action::Ui(u));
    if let Some((dx, dy)) = direction(key.code) {
        // Shift runs: a capital letter, or Shift held (arrows; terminals
        // that report the letter in lower case with Shift).
        let run = key.modifiers.contains(KeyModifiers::SHIFT) || matches!(key.code, Char(c) if c.is_ascii_uppercase());
        let command = if run { Command::Run { dx, dy } } else { Command::Move { dx, dy } };
        return Some(Action::World(command));
    }
    if let Some(search) = search_key(key.code) {
        return match search {
            Search::Planner => set(settings.next_planner()),
            Search::Heuristic => set(Setting::Heuristic(s.heuristic.next())),
            Search::Tie => set(Setting::Tie(s.tie.next())),
            Search::Open => set(Setting::Open(s.open.next())),
            Search::Reopen => set(Setting::Reopen(!s.reopen)),
            Search::Neighbors => set(Setting::Neighbors(s.neighbors.next())),
            Search::Weight(step) => weight(s.weight, step),
        };
    }
    match key.code {
        Char('e') => Some(Action::World(Command::Door)),
        Char('s') => Some(Action::World(Command::Wait)),
        Char('o') => Some(Action::World(Command::Explore)),
        Char('t') => ui(Ui::Turns),
        Char('_') => ui(Ui::Travel),
        Char('>') => ui(Ui::TravelGoal),
        Char('R') => set(Setting::Repath(settings.repath.next())),
        Char('S') => set(Setting::Smoothing(!settings.smoothing)),
        Char('V') => set(Setting::Avoidance(settings.avoidance.next())),
        Char('O') => ui(Ui::Overlay),
        Char('F') => ui(Ui::Fov),
        Char('M') => ui(Ui::Mouse),
        Tab => ui(Ui::NextMonster),
        BackTab => ui(Ui::PrevMonster),
        Char('C') => ui(Ui::Follow),
        Char(' ') => ui(Ui::Pause),
        Char('.') => ui(Ui::Step),
        Char('+' | '=') => ui(Ui::Faster),
        Char('-') => ui(Ui::Slower),
        PageUp => ui(Ui::Seek(Seek::Back)),
        PageDown => ui(Ui::Seek(Seek::Forward)),
        Home => ui(Ui::Seek(Seek::Start)),
        End => ui(Ui::Seek(Seek::End)),
        Char('?') => ui(Ui::Help),
        Char('q') | Esc => ui(Ui::Quit),
        _ => None,
    }
}

/// The step a move or run key asks for: arrows, `h j k l` and `y u b n`,
/// in either case.
pub fn direction(code: KeyCode) -> Option<(i8, i8)> {
    let c = match code {
        Left => 'h',
        Down => 'j',
        Up => 'k',
        Right => 'l',
        Char(c) => c.to_ascii_lowercase(),
        _ => return None,
    };
    MOVES.iter().find(|&&(k, _)| k == c).map(|&(_, d)| d)
}

/// The move keys, small, and the step of each.
const MOVES: [(char, (i8, i8)); 8] = [
    ('h', (-1, 0)),
    ('j', (0, 1)),
    ('k', (0, -1)),
    ('l', (1, 0)),
    ('y', (-1, -1)),
    ('u', (1, -1)),
    ('b', (-1, 1)),
    ('n', (1, 1)),
];

/// A key of the roguelike numpad: a step to the cell of its place on the
/// pad, or the middle key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pad {
    Step(i8, i8),
    Middle,
}

/// The numpad key `code` is, as the game and the lab read it: the digits
/// 1-9 (NumLock on, which terminals send as plain digits) and, NumLock
/// off, Home, PgUp, End, PgDn and the middle key (`KeypadBegin`).
pub fn pad(code: KeyCode) -> Option<Pad> {
    Some(match code {
        Char('7') | Home => Pad::Step(-1, -1),
        Char('8') => Pad::Step(0, -1),
        Char('9') | PageUp => Pad::Step(1, -1),
        Char('4') => Pad::Step(-1, 0),
        Char('5') | KeyCode::KeypadBegin => Pad::Middle,
        Char('6') => Pad::Step(1, 0),
        Char('1') | End => Pad::Step(-1, 1),
        Char('2') => Pad::Step(0, 1),
        Char('3') | PageDown => Pad::Step(1, 1),
        _ => return None,
    })
}

/// The numpad in live play: each [`pad`] key becomes the move key of its
/// place, the middle key waiting (`s`); modifiers are kept, so Shift runs.
/// A replay keeps Home, End, PgUp and PgDn for seeking, so only live play
/// asks for this.
pub fn numpad(key: KeyEvent) -> KeyEvent {
    let letter = match pad(key.code) {
        Some(Pad::Middle) => Some('s'),
        Some(Pad::Step(dx, dy)) => MOVES.iter().find(|&&(_, d)| d == (dx, dy)).map(|&(c, _)| c),
        None => None,
    };
    letter.map_or(key, |c| KeyEvent { code: Char(c), ..key })
}

/// Ctrl-C: raw mode turns it into a key; it quits at once, whatever is
/// on screen (the reflex is honoured, no question asked).
pub fn is_interrupt(key: KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == Char('c')
}

/// The weight moved by `step` within [1, 10], or nothing when it would not
/// change (so a held key at the limit records no commands).
fn weight(current: f64, step: f64) -> Option<Action> {
    let next = (current + step).clamp(MIN_WEIGHT, MAX_WEIGHT);
    (next != current).then_some(Action::World(Command::Set(Setting::Weight(next))))
}

/// Each numpad key and the step it gives, for the game's tests and the
/// lab's: the same pad in both.
#[cfg(test)]
pub(super) const NUMPAD: [(KeyCode, i8, i8); 12] = [
    (Char('1'), -1, 1),
    (Char('2'), 0, 1),
    (Char('3'), 1, 1),
    (Char('4'), -1, 0),
    (Char('6'), 1, 0),
    (Char('7'), -1, -1),
    (Char('8'), 0, -1),
    (Char('9'), 1, -1),
    (Home, -1, -1),
    (PageUp, 1, -1),
    (End, -1, 1),
    (PageDown, 1, 1),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Neighbors;
    use crate::search::{Heuristic, OpenUpdate, Planner, TieBreak};
    use crate::sim::RepathPolicy;

    fn press(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn act(code: KeyCode) -> Option<Action> {
        action(press(code), &Settings::default())
    }

    fn set(setting: Setting) -> Option<Action> {
        Some(Action::World(Command::Set(setting)))
    }

    #[test]
    fn movement_keys_step_the_player() {
        let cases = [
            (Left, -1, 0),
            (Right, 1, 0),
            (Up, 0, -1),
            (Down, 0, 1),
            (Char('h'), -1, 0),
            (Char('j'), 0, 1),
            (Char('k'), 0, -1),
            (Char('l'), 1, 0),
            (Char('y'), -1, -1),
            (Char('u'), 1, -1),
            (Char('b'), -1, 1),
            (Char('n'), 1, 1),
        ];
        for (code, dx, dy) in cases {
            assert_eq!(act(code), Some(Action::World(Command::Move { dx, dy })), "{code:?}");
        }
        assert_eq!(act(Char('e')), Some(Action::World(Command::Door)));
        assert_eq!(act(Char('s')), Some(Action::World(Command::Wait)));
        assert_eq!(act(Char('o')), Some(Action::World(Command::Explore)));
        assert_eq!(act(Char('t')), Some(Action::Ui(Ui::Turns)));
        assert_eq!(act(Char('_')), Some(Action::Ui(Ui::Travel)));
        assert_eq!(act(Char('>')), Some(Action::Ui(Ui::TravelGoal)));
    }

    #[test]
    fn the_numpad_moves_and_waits_in_live_play() {
        let live = |code| action(numpad(press(code)), &Settings::default());
        for (code, dx, dy) in NUMPAD {
            assert_eq!(live(code), Some(Action::World(Command::Move { dx, dy })), "{code:?}");
            let shifted = numpad(KeyEvent::new(code, KeyModifiers::SHIFT));
            assert_eq!(action(shifted, &Settings::default()), Some(Action::World(Command::Run { dx, dy })), "{code:?}");
        }
        assert_eq!(live(Char('5')), Some(Action::World(Command::Wait)));
        assert_eq!(live(KeyCode::KeypadBegin), Some(Action::World(Command::Wait)));
        // Everything else is left as it is, and a replay still seeks.
        assert_eq!(numpad(press(Char('0'))), press(Char('0')));
        assert_eq!(numpad(press(Char('h'))), press(Char('h')));
        assert_eq!(act(Home), Some(Action::Ui(Ui::Seek(Seek::Start))));
    }

    #[test]
    fn shift_and_a_move_key_runs() {
        let cases = [
            (Char('H'), -1, 0),
            (Char('J'), 0, 1),
            (Char('K'), 0, -1),
            (Char('L'), 1, 0),
            (Char('Y'), -1, -1),
            (Char('U'), 1, -1),
            (Char('B'), -1, 1),
            (Char('N'), 1, 1),
        ];
        for (code, dx, dy) in cases {
            assert_eq!(act(code), Some(Action::World(Command::Run { dx, dy })), "{code:?}");
            // Terminals that report Shift with the capital letter run too,
            // and those that report it with the small one.
            let shifted = KeyEvent::new(code, KeyModifiers::SHIFT);
            assert_eq!(action(shifted, &Settings::default()), act(code), "{code:?}");
            let Char(c) = code else { unreachable!() };
            let small = KeyEvent::new(Char(c.to_ascii_lowercase()), KeyModifiers::SHIFT);
            assert_eq!(action(small, &Settings::default()), act(code), "{code:?}");
        }
        let d = Settings::default();
        for (code, dx, dy) in [(Left, -1, 0), (Down, 0, 1), (Up, 0, -1), (Right, 1, 0)] {
            let shifted = KeyEvent::new(code, KeyModifiers::SHIFT);
            assert_eq!(action(shifted, &d), Some(Action::World(Command::Run { dx, dy })), "{code:?}");
        }
        // No setting sits on a move or run letter.
        for c in "hjklyubnHJKLYUBN".chars() {
            assert!(matches!(act(Char(c)), Some(Action::World(Command::Move { .. } | Command::Run { .. }))), "{c}");
        }
    }

    #[test]
    fn setting_keys_send_the_next_value() {
        let d = Settings::default();
        assert_eq!(d.search.planner, Planner::ASTAR);
        assert_eq!(act(Char('A')), set(Setting::Planner(Planner::GREEDY)));
        assert_eq!(act(Char('E')), set(Setting::Heuristic(Heuristic::Chebyshev)));
        assert_eq!(act(Char('T')), set(Setting::Tie(TieBreak::LowH)));
        assert_eq!(act(Char('P')), set(Setting::Open(OpenUpdate::DecreaseKey)));
        assert_eq!(act(Char('X')), set(Setting::Reopen(true)));
        assert_eq!(act(Char('D')), set(Setting::Neighbors(Neighbors::Four)));
        assert_eq!(act(Char('S')), set(Setting::Smoothing(false)));
        assert_eq!(act(Char('R')), set(Setting::Repath(RepathPolicy::Incremental)));
        assert_eq!(act(Char('[')), set(Setting::Weight(1.25)));
        assert_eq!(act(Char(']')), set(Setting::Weight(1.75)));
    }

    /// Presses `code` `n` times, applying each command, and returns the settings.
    fn press_n(code: KeyCode, n: usize) -> Settings {
        let mut s = Settings::default();
        for _ in 0..n {
            if let Some(Action::World(Command::Set(setting))) = action(press(code), &s) {
                s.apply(setting);
            }
        }
        s
    }

    /// `A` runs through the library's cycle ([`Planner::CYCLE`]): every
    /// grid planner, then the navmesh and the waypoint graph, and back to
    /// the grid, each planner once.
    #[test]
    fn the_algorithm_key_reaches_the_any_angle_planners_and_comes_back() {
        let n = Planner::CYCLE.len();
        let seen: Vec<Planner> = (0..n).map(|k| press_n(Char('A'), k).planner()).collect();
        let from_astar = Planner::CYCLE.iter().position(|&p| p == Planner::ASTAR).unwrap();
        let want: Vec<Planner> =
            Planner::CYCLE[from_astar..].iter().chain(&Planner::CYCLE[..from_astar]).copied().collect();
        assert_eq!(seen, want);
        assert!(want.contains(&Planner::NAVMESH) && want.contains(&Planner::WAYPOINTS));
        assert_eq!(press_n(Char('A'), n).planner(), Planner::ASTAR);
    }

    #[test]
    fn cycles_wrap_back_to_the_start() {
        let d = Settings::default();
        assert_eq!(press_n(Char('A'), Planner::CYCLE.len()), d);
        assert_eq!(press_n(Char('A'), 2).search.planner, Planner::WEIGHTED);
        assert_eq!(press_n(Char('E'), Heuristic::ALL.len()), d);
        assert_eq!(press_n(Char('T'), TieBreak::ALL.len()), d);
        assert_eq!(press_n(Char('P'), OpenUpdate::ALL.len()), d);
        assert_eq!(press_n(Char('R'), RepathPolicy::ALL.len()), d);
        assert_eq!(press_n(Char('D'), 2), d);
        assert_eq!(press_n(Char('S'), 2), d);
        assert_eq!(press_n(Char('V'), 2), d);
        assert_eq!(press_n(Char('V'), 1).avoidance, crate::sim::Avoidance::Orca);
        assert_ne!(press_n(Char('E'), 1), d);
    }

    #[test]
    fn weight_clamps_at_one_and_ten() {
        assert_eq!(press_n(Char('['), 100).search.weight, MIN_WEIGHT);
        assert_eq!(press_n(Char(']'), 100).search.weight, MAX_WEIGHT);
        let mut at_max = Settings::default();
        at_max.search.weight = MAX_WEIGHT;
        assert_eq!(action(press(Char(']')), &at_max), None);
        assert_eq!(action(press(Char('[')), &at_max), set(Setting::Weight(MAX_WEIGHT - WEIGHT_STEP)));
    }

    #[test]
    fn view_keys_and_modifiers() {
        assert_eq!(act(Char('O')), Some(Action::Ui(Ui::Overlay)));
        assert_eq!(act(Char('F')), Some(Action::Ui(Ui::Fov)));
        assert_eq!(act(Char('C')), Some(Action::Ui(Ui::Follow)));
        assert_eq!(act(Tab), Some(Action::Ui(Ui::NextMonster)));
        assert_eq!(act(Char(' ')), Some(Action::Ui(Ui::Pause)));
        assert_eq!(act(Char('.')), Some(Action::Ui(Ui::Step)));
        assert_eq!(act(Char('+')), Some(Action::Ui(Ui::Faster)));
        assert_eq!(act(Char('-')), Some(Action::Ui(Ui::Slower)));
        assert_eq!(act(Char('?')), Some(Action::Ui(Ui::Help)));
        assert_eq!(act(PageUp), Some(Action::Ui(Ui::Seek(Seek::Back))));
        assert_eq!(act(PageDown), Some(Action::Ui(Ui::Seek(Seek::Forward))));
        assert_eq!(act(Home), Some(Action::Ui(Ui::Seek(Seek::Start))));
        assert_eq!(act(End), Some(Action::Ui(Ui::Seek(Seek::End))));
        assert_eq!(act(Char('q')), Some(Action::Ui(Ui::Quit)));
        assert_eq!(act(Esc), Some(Action::Ui(Ui::Quit)));
        assert_eq!(act(Char('x')), None);
        let d = Settings::default();
        let ctrl = |c| KeyEvent::new(Char(c), KeyModifiers::CONTROL);
        assert_eq!(action(ctrl('c'), &d), Some(Action::Ui(Ui::Quit)));
        assert_eq!(action(ctrl('h'), &d), None);
        assert_eq!(action(KeyEvent::new(Char('h'), KeyModifiers::ALT), &d), None);
        let shifted = KeyEvent::new(Char('E'), KeyModifiers::SHIFT);
        assert_eq!(action(shifted, &d), act(Char('E')));
    }

    #[test]
    fn presses_and_repeats_act_releases_do_not() {
        let d = Settings::default();
        let mut key = press(Char('l'));
        key.kind = KeyEventKind::Repeat;
        assert!(action(key, &d).is_some());
        key.kind = KeyEventKind::Release;
        assert_eq!(action(key, &d), None);
    }

    /// The help lists exactly the keys that do something.
    #[test]
    fn bindings_list_every_bound_key_and_only_those() {
        let d = Settings::default();
        let listed: Vec<KeyCode> = BINDINGS.iter().flat_map(|b| b.keys.iter().copied()).collect();
        let in_status = STATUS.iter().flat_map(|(keys, _)| keys.iter());
        for &code in listed.iter().chain(in_status) {
            assert!(act(code).is_some(), "{code:?} is listed but does nothing");
        }
        let mut all: Vec<KeyCode> = (' '..='~').map(Char).collect();
        all.extend([Left, Right, Up, Down, Tab, Esc, PageUp, PageDown, Home, End, KeyCode::Enter, KeyCode::Backspace]);
        for code in all {
            if action(press(code), &d).is_some() {
                assert!(listed.contains(&code), "{code:?} does something but the help does not list it");
            }
        }
    }
}
