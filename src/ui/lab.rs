//! The search lab (`delve lab`): one query at a time on a level, no
//! creatures. Place the start and the goal, draw walls and costly cells,
//! step the search one expansion at a time or N per frame, read g, h, f,
//! parent and expansion order under the cursor, and compare two settings
//! side by side on the same query.
//!
//! A pane may run an any-angle planner instead (`A` cycles on to the
//! navmesh and the corner waypoints): the mesh's polygons or the corners
//! are drawn, its search steps over them, and the navmesh's funnel then
//! steps over the corridor found (`nav`, `nav_map`).
//!
//! Each pane runs the query to its end at once, through the engine's
//! [`Observer`](crate::search::Observer), recording a
//! [`Trace`](crate::search::Trace); stepping replays the trace. The engine
//! of the game never records, and pays nothing for the lab. On a large map
//! that takes longer than a frame, so the lab's state lives on a
//! [`Worker`] and every key's work runs there, the terminal loop reading
//! keys and signals meanwhile.

mod chooser;
mod draw;
mod keys;
mod nav;
mod nav_map;
mod pane;
mod preset;
mod state;
mod steer;

use super::busy::{self, Busy};
use super::palette::Palette;
use super::run::{FRAME, Front, Stop, Terminal};
use super::worker::Worker;
use crate::level::Level;
use crate::search::Planner;
use crate::signals::Signals;
use keys::{Action, Pointer};
pub use preset::Preset;
use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::Rect;
use state::Lab;
use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};
pub use steer::{SteerCompare, SteerLab, steer_lab};

/// Most keys kept while the panes search; later ones are dropped.
const QUEUED: usize = 1024;

/// Runs the lab on `level` in the terminal until the user quits (`None`)
/// or a signal or a hangup stops it. `W` writes the level to `save_to`,
/// `p` the picture beside it. `planners` are the panes' (left, right),
/// when given; a `preset` sets both panes' settings; `mouse` captures the
/// mouse (`--mouse`, `M` toggles). The terminal is restored however this
/// returns.
pub fn lab(
    level: Level,
    save_to: PathBuf,
    planners: &[Planner],
    preset: Option<Preset>,
    palette: Palette,
    mouse: bool,
    signals: Signals,
) -> io::Result<Option<Stop>> {
    lab_in(&mut Terminal::open(palette, signals)?, level, save_to, planners, preset, palette, mouse)
}

/// [`lab`] in a terminal already open (the title screen's).
pub(super) fn lab_in(
    terminal: &mut Terminal,
    level: Level,
    save_to: PathBuf,
    planners: &[Planner],
    preset: Option<Preset>,
    palette: Palette,
    mouse: bool,
) -> io::Result<Option<Stop>> {
    let planners = planners.to_vec();
    let name = level.name.clone();
    let make = move || {
        let mut lab = Lab::new(level, save_to);
        match preset {
            Some(preset) => lab.apply_preset(preset),
            None => lab.set_planners(&planners),
        }
        lab.mouse = mouse;
        lab
    };
    let mut front = LabFront {
        lab: Worker::new(make, Some(terminal.waker())),
        palette,
        queued: VecDeque::new(),
        doing: format!("opening {}: the panes search it", crate::shown::shown(&name)),
        dirty: true,
        quit: false,
        last_frame: Instant::now(),
        screen: Rect::default(),
        mouse,
    };
    terminal.run(&mut front)
}

/// The lab in the terminal loop: its state on a worker, for the panes'
/// searches (a query runs to its end at once, and on a large map, or with
/// a navmesh or HPA* to build, that takes longer than a frame).
struct LabFront {
    lab: Worker<Lab>,
    palette: Palette,
    /// Keys and clicks waiting for the lab, in order.
    queued: VecDeque<Input>,
    /// What the lab is away doing, for the popup.
    doing: String,
    dirty: bool,
    quit: bool,
    /// When the running search last stepped.
    last_frame: Instant,
    /// The terminal's area, for reading a click against the layout.
    screen: Rect,
    /// Whether the lab has the mouse captured, as it last said.
    mouse: bool,
}

/// What waits for the lab: a key, raw (an open menu or chooser takes it
/// so, the lab's key map otherwise), or a click's action.
enum Input {
    Key(KeyEvent),
    Action(Action),
}

impl Front for LabFront {
    fn event(&mut self, event: Event) {
        self.dirty = true;
        let key = match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => key,
            Event::Resize(width, height) => return self.screen = Rect::new(0, 0, width, height),
            Event::Mouse(mouse) => {
                if let Some(pointer) = Pointer::of(mouse, self.screen)
                    && self.queued.len() < QUEUED
                {
                    self.queued.push_back(Input::Action(Action::Pointer(pointer)));
                }
                return;
            }
            _ => return,
        };
        // While the popup says the panes are busy, q and Esc quit at once
        // (the popup's question cannot wait for the search).
        let shown = self.lab.away().is_some_and(|d| d >= busy::SAY_AFTER);
        if super::keys::is_interrupt(key) || (shown && matches!(key.code, KeyCode::Char('q') | KeyCode::Esc)) {
            self.quit = true;
            return;
        }
        if self.queued.len() < QUEUED {
            self.queued.push_back(Input::Key(key));
        }
    }

    fn work(&mut self) -> io::Result<Option<Duration>> {
        let Some(lab) = self.lab.get() else { return Ok(None) };
        self.mouse = lab.mouse;
        if lab.quit {
            self.quit = true;
            return Ok(None);
        }
        if !self.queued.is_empty() {
            let inputs: Vec<Input> = self.queued.drain(..).collect();
            self.doing = "the panes search again".to_string();
            self.lab.start(move |lab: &mut Lab| {
                for input in inputs {
                    match input {
                        Input::Key(key) => lab.press(key),
                        Input::Action(action) => lab.handle(action),
                    }
                    if lab.quit {
                        break;
                    }
                }
            });
            self.dirty = true;
            return Ok(None);
        }
        if !lab.running {
            return Ok(None);
        }
        let since = self.last_frame.elapsed();
        if since < FRAME {
            return Ok(Some(FRAME - since));
        }
        self.last_frame = Instant::now();
        self.doing = "the panes step on".to_string();
        self.lab.start(Lab::advance);
        self.dirty = true;
        Ok(None)
    }

    fn dirty(&self) -> bool {
        self.dirty && self.lab.home().is_some()
    }

    fn draw(&mut self, frame: &mut Frame) {
        if let Some(lab) = self.lab.home() {
            draw::draw(frame, lab, &self.palette);
            self.dirty = false;
        }
    }

    fn busy(&self) -> Option<Busy> {
        let elapsed = self.lab.away().filter(|d| *d >= busy::SAY_AFTER)?;
        let stop = "q, Esc or Ctrl-C quits without waiting (what is not written is lost)".to_string();
        Some(Busy { what: self.doing.clone(), elapsed, stop })
    }

    fn finished(&self) -> bool {
        self.quit
    }

    fn mouse(&self) -> bool {
        self.mouse
    }
}

#[cfg(test)]
mod tests {
    use super::keys::{Action, Setting};
    use super::*;
    use crate::search::SearchSettings;
    use crate::ui::testing::lines;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// The default level's lab after `actions`, drawn on a `w`×`h` screen.
    fn screen(actions: &[Action], w: u16, h: u16) -> String {
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        for &a in actions {
            lab.handle(a);
        }
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|frame| draw::draw(frame, &lab, &Palette::NAMED)).unwrap();
        let buf = terminal.backend().buffer();
        format!("{}\n\nsearch layer (c closed, o open, x expanding):\n{}", lines(buf).join("\n"), search_layer(buf))
    }

    /// The cells' backgrounds as letters, which the text alone does not show.
    fn search_layer(buf: &ratatui::buffer::Buffer) -> String {
        let p = Palette::NAMED;
        let area = buf.area;
        let letter = |x, y| match buf[(x, y)].bg {
            bg if bg == p.closed => 'c',
            bg if bg == p.open => 'o',
            ratatui::style::Color::Magenta => 'x',
            _ => ' ',
        };
        let rows =
            (area.top()..area.bottom()).map(|y| (area.left()..area.right()).map(|x| letter(x, y)).collect::<String>());
        rows.map(|r| r.trim_end().to_string()).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn a_half_finished_search() {
        // One pane, A*: thirty expansions, the cursor moved onto the frontier.
        let mut actions = vec![Action::Split];
        actions.extend([Action::Step; 30]);
        actions.extend([Action::Move(1, 0); 4]);
        insta::assert_snapshot!(screen(&actions, 90, 30));
    }

    #[test]
    fn side_by_side_panes() {
        // A* octile and greedy, both at step 40, then to the end; the
        // second pane switched to decrease-key.
        let mut actions = vec![Action::SwapPane, Action::Set(Setting::Open), Action::SwapPane];
        actions.extend([Action::Step; 40]);
        insta::assert_snapshot!("side_by_side_mid", screen(&actions, 120, 30));
        actions.push(Action::End);
        insta::assert_snapshot!("side_by_side_end", screen(&actions, 120, 30));
    }

    /// Presses of `A` from the right pane's greedy to the navmesh: past
    /// the grid algorithms after greedy.
    const TO_NAVMESH: usize = 5;

    /// The default level's lab with A* on the left and the navmesh on the
    /// right, after `steps` steps, drawn on a 150×46 screen (the whole
    /// level, in one pane or two side by side).
    fn navmesh_screen(steps: usize, split: bool) -> String {
        let mut actions = vec![Action::SwapPane];
        actions.extend(vec![Action::Set(Setting::Planner); TO_NAVMESH]);
        if !split {
            actions.push(Action::Split);
        }
        actions.extend(vec![Action::Step; steps]);
        screen(&actions, 150, 46)
    }

    #[test]
    fn a_navmesh_pane_searches_then_pulls_the_funnel() {
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        lab.handle(Action::SwapPane);
        for _ in 0..TO_NAVMESH {
            lab.handle(Action::Set(Setting::Planner));
        }
        assert_eq!(lab.panes[1].planner(), Planner::NAVMESH, "A cycles on from the grid searches");
        let pane = &lab.panes[1];
        let (search, all) = (pane.search_len(), pane.len());
        assert!(search > 3 && all > search, "{search} search steps, {all} in all");
        assert!(!pane.done(search) && pane.done(all), "the funnel steps after the search");
        insta::assert_snapshot!("navmesh_mid_search", navmesh_screen(search / 2, false));
        insta::assert_snapshot!("navmesh_mid_funnel", navmesh_screen(search + (all - search) / 2, false));
        insta::assert_snapshot!("navmesh_done", navmesh_screen(all, false));
        insta::assert_snapshot!("grid_beside_navmesh", navmesh_screen(all, true));
        // The picture the lab saves draws the mesh and the pulled path.
        lab.handle(Action::End);
        let mut svg = Vec::new();
        lab.write_picture(&mut svg).unwrap();
        let svg = String::from_utf8(svg).unwrap();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let count = |class| doc.descendants().filter(|n| n.attribute("class") == Some(class)).count();
        let polygons = lab.panes[1].nav.as_ref().unwrap().polygons.len();
        assert_eq!((count("mesh"), count("navmesh"), count("path")), (polygons, 1, 1), "A* beside the navmesh");
        // A second A goes on to the waypoints, a third back to the grid.
        lab.handle(Action::Set(Setting::Planner));
        assert_eq!(lab.panes[1].planner(), Planner::WAYPOINTS);
        lab.handle(Action::End);
        assert!(lab.panes[1].outcome.as_ref().unwrap().found);
        lab.handle(Action::Set(Setting::Planner));
        assert_eq!(lab.panes[1].planner(), Planner::CYCLE[0]);
    }

    /// The navmesh's own weight, from the weight keys on its pane: at the
    /// default 1.3 its portal search reopens or breaks consistency on the
    /// built-in level, at 1 (two presses of `[`) it is plain A*, consistent
    /// (no reopening, no violation), and the title says which runs.
    #[test]
    fn the_navmesh_weight_goes_down_to_one_and_the_search_is_consistent() {
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        lab.handle(Action::SwapPane);
        for _ in 0..TO_NAVMESH {
            lab.handle(Action::Set(Setting::Planner));
        }
        let at_end = |lab: &mut Lab| {
            lab.handle(Action::End);
            let s = lab.panes[1].stats(lab.step);
            (s.reopened + s.violations, lab.panes[1].outcome.as_ref().unwrap().found)
        };
        let (broken, found) = at_end(&mut lab);
        assert!(broken > 0 && found, "w = 1.3: {broken} reopenings and violations");
        let title = |lab: &Lab| {
            let mut terminal = Terminal::new(TestBackend::new(150, 46)).unwrap();
            terminal.draw(|frame| draw::draw(frame, lab, &Palette::NAMED)).unwrap();
            lines(terminal.backend().buffer()).join("\n")
        };
        assert!(title(&lab).contains("2: navmesh: weighted A* w=1.30 over portals"), "{}", title(&lab));
        lab.handle(Action::Set(Setting::Weight(-crate::ui::keys::WEIGHT_STEP)));
        lab.handle(Action::Set(Setting::Weight(-crate::ui::keys::WEIGHT_STEP)));
        assert_eq!(lab.panes[1].settings.navmesh_weight, 1.0);
        assert_eq!(lab.panes[1].settings.weight, SearchSettings::DEFAULT.weight, "weighted A*'s own w untouched");
        assert_eq!(at_end(&mut lab), (0, true), "w = 1: a consistent search");
        assert!(title(&lab).contains("2: navmesh: A* (w=1) over portals"), "{}", title(&lab));
        assert!(!title(&lab).contains("w > 1 allows them"), "{}", title(&lab));
        lab.handle(Action::Set(Setting::Weight(crate::ui::keys::WEIGHT_STEP)));
        assert!(title(&lab).contains("weighted A* w=1.25"), "{}", title(&lab));
    }

    /// The default lab (A* beside greedy) at 80x24, 100x30 and 120x40, in
    /// colour and without, twenty steps in: where two panes do not each
    /// show the whole level the active one shows it alone and says so
    /// (issue 27: at 120x40 each pane was 60 columns and the `G` was off
    /// screen); the legend names closed, open, expanding now, path and
    /// waypoints in the panes' own styles.
    #[test]
    fn the_lab_at_three_sizes_in_colour_and_without() {
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        for _ in 0..20 {
            lab.handle(Action::Step);
        }
        for (mode, palette) in [("colour", Palette::NAMED), ("mono", Palette::MONO)] {
            for (w, h) in [(80, 24), (100, 30), (120, 40)] {
                let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
                terminal.draw(|frame| draw::draw(frame, &lab, &palette)).unwrap();
                let buf = terminal.backend().buffer();
                let text = lines(buf);
                let legend = &text[h as usize - 3];
                for wanted in ["closed", "open", "expanding now", "path", "waypoints"] {
                    assert!(legend.contains(wanted), "{w}x{h} {mode}: no {wanted} in {legend:?}");
                }
                let all = text.join("\n");
                assert!(all.contains('G') && all.contains('S'), "{w}x{h} {mode}: the ends are shown:\n{all}");
                if (w, h) == (120, 40) {
                    assert!(text[0].contains("one of two panes fits: Tab shows the other"), "{}", text[0]);
                    assert!(!all.contains("2: greedy"), "one pane alone:\n{all}");
                }
                insta::assert_snapshot!(format!("lab_{w}x{h}_{mode}"), crate::ui::testing::styled(buf));
            }
        }
    }

    /// The preset menu over the lab, its second line highlighted.
    #[test]
    fn the_preset_menu() {
        let text = screen(&[Action::Presets], 100, 30);
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        lab.handle(Action::Presets);
        lab.press(KeyEvent::new(KeyCode::Down, ratatui::crossterm::event::KeyModifiers::NONE));
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        terminal.draw(|frame| draw::draw(frame, &lab, &Palette::MONO)).unwrap();
        for preset in Preset::ALL {
            assert!(text.contains(preset.name()), "{preset} listed:\n{text}");
        }
        insta::assert_snapshot!("preset_menu", crate::ui::testing::styled(terminal.backend().buffer()));
    }

    /// The level chooser over the lab, a generated row highlighted with
    /// its seed moved on, a path half typed.
    #[test]
    fn the_level_chooser() {
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        lab.handle(Action::Load);
        let press = |lab: &mut Lab, code| lab.press(KeyEvent::new(code, ratatui::crossterm::event::KeyModifiers::NONE));
        for _ in 0..crate::level::SHIPPED.len() + 2 {
            press(&mut lab, KeyCode::Down);
        }
        press(&mut lab, KeyCode::Right);
        for c in "levels/ma".chars() {
            press(&mut lab, KeyCode::Char(c));
        }
        let mut terminal = Terminal::new(TestBackend::new(100, 30)).unwrap();
        terminal.draw(|frame| draw::draw(frame, &lab, &Palette::MONO)).unwrap();
        let text = lines(terminal.backend().buffer()).join("\n");
        assert!(text.contains("maze 2") && text.contains("> levels/ma_"), "{text}");
        insta::assert_snapshot!("level_chooser", crate::ui::testing::styled(terminal.backend().buffer()));
    }

    /// The mouse in the lab, read through the panes' layout: a click
    /// moves the cursor, a drag draws walls (from a wall, floor) on every
    /// cell it crosses without moving the cursor, a right click puts the
    /// goal, a middle click the start; off (the default), nothing; off the
    /// maps (a border, the status lines), nothing.
    #[test]
    fn the_mouse_moves_the_cursor_draws_walls_and_places_the_ends() {
        use crate::grid::{Cell, Tile};
        use ratatui::crossterm::event::{MouseButton::*, MouseEventKind};
        use ratatui::layout::Position;
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        let screen = Rect::new(0, 0, 150, 46);
        let mut terminal = Terminal::new(TestBackend::new(150, 46)).unwrap();
        terminal.draw(|frame| draw::draw(frame, &lab, &Palette::NAMED)).unwrap();
        let buf = terminal.backend().buffer().clone();
        // The start is drawn in each pane, and each maps back to it.
        // Above the legend, which names S too.
        let starts: Vec<Position> = (0..43)
            .flat_map(|y| (0..150).map(move |x| Position::new(x, y)))
            .filter(|&p| buf[p].symbol() == "S")
            .collect();
        assert_eq!(starts.len(), 2, "one S a pane");
        for &at in &starts {
            assert_eq!(draw::cell_at(&lab, screen, at), Some(lab.start), "{at:?}");
        }
        for off in [Position::new(0, 0), Position::new(75, 10), Position::new(3, 45), Position::new(3, 43)] {
            assert_eq!(draw::cell_at(&lab, screen, off), None, "{off:?}");
        }
        // Four floor cells in a row, east of one the left pane shows.
        let grid = &lab.level.grid;
        let floor = |c: Cell| grid.tile(c) == Tile::Floor(1) && c != lab.start && c != lab.goal;
        let (at, first) = (0..46)
            .flat_map(|y| (0..75).map(move |x| Position::new(x, y)))
            .filter_map(|p| draw::cell_at(&lab, screen, p).map(|c| (p, c)))
            .find(|&(_, c)| (0..4).all(|k| floor(Cell::new(c.x + k, c.y))))
            .unwrap();
        let east = |k: u16| Position::new(at.x + k, at.y);
        let ptr = |kind, at| Action::Pointer(Pointer { at, screen, kind });
        let cursor = lab.cursor;
        lab.handle(ptr(MouseEventKind::Down(Left), at));
        lab.handle(ptr(MouseEventKind::Up(Left), at));
        assert_eq!(lab.cursor, cursor, "the mouse is off");
        lab.handle(Action::Mouse);
        assert!(lab.mouse && lab.message.starts_with("mouse on"));
        lab.handle(ptr(MouseEventKind::Down(Left), east(1)));
        lab.handle(ptr(MouseEventKind::Up(Left), east(1)));
        assert_eq!(lab.cursor, Cell::new(first.x + 1, first.y), "a click moves the cursor");
        // A drag from the first cell to the fourth, skipping the cells
        // between as a fast drag does: all four become walls.
        let cursor = lab.cursor;
        lab.handle(ptr(MouseEventKind::Down(Left), at));
        lab.handle(ptr(MouseEventKind::Drag(Left), east(3)));
        lab.handle(ptr(MouseEventKind::Up(Left), east(3)));
        for k in 0..4 {
            assert_eq!(lab.level.grid.tile(Cell::new(first.x + k, first.y)), Tile::Wall, "{k}");
        }
        assert_eq!(lab.cursor, cursor, "a drag leaves the cursor");
        // From a wall, a drag gives floor back.
        lab.handle(ptr(MouseEventKind::Down(Left), east(3)));
        lab.handle(ptr(MouseEventKind::Drag(Left), east(2)));
        lab.handle(ptr(MouseEventKind::Up(Left), east(2)));
        assert_eq!(lab.level.grid.tile(Cell::new(first.x + 2, first.y)), Tile::Floor(1));
        assert_eq!(lab.level.grid.tile(Cell::new(first.x + 3, first.y)), Tile::Floor(1));
        lab.handle(ptr(MouseEventKind::Down(Right), east(3)));
        assert_eq!(lab.goal, Cell::new(first.x + 3, first.y));
        lab.handle(ptr(MouseEventKind::Down(Middle), east(2)));
        assert_eq!(lab.start, Cell::new(first.x + 2, first.y));
        lab.handle(Action::Mouse);
        assert!(!lab.mouse);
    }

    #[test]
    fn tiny_terminals_draw_without_panicking() {
        for (w, h) in [(0, 0), (1, 1), (10, 3), (30, 8)] {
            screen(&[Action::Help], w, h);
            screen(&[Action::Step], w, h);
        }
    }

    #[test]
    fn the_help_lists_the_lab_keys() {
        let text = screen(&[Action::Help], 100, 32);
        assert!(text.contains("Lab keys") && text.contains("one expansion"), "{text}");
    }
}
