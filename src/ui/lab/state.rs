//! The lab's state: the level being edited, the query, the two panes and
//! the step they are shown at, and what each key does to them.

use super::keys::{Action, Pointer, Setting};
use super::pane::Pane;
use crate::atomic::{self, AtomicError};
use crate::grid::{Cell, Tile};
use crate::level::Level;
use crate::nav::Navigator;
use crate::picture::check_size;
use crate::search::{MAX_WEIGHT, MIN_WEIGHT, Planner, SearchSettings};
use crate::shown::{shown, shown_path};
use crate::sim::Goal;
use ratatui::crossterm::event::{MouseButton, MouseEventKind};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Expansions per frame, chosen by `+` and `-`.
pub const PACES: [usize; 9] = [1, 2, 5, 10, 20, 50, 100, 200, 500];

/// Entry costs `c` cycles through.
const COSTS: [u8; 4] = [1, 3, 5, 9];

/// One query on one level, searched by two panes in step.
#[derive(Debug)]
pub struct Lab {
    /// The level as edited (its creatures are kept for saving, not shown).
    pub level: Level,
    /// Where `W` writes the level; the picture goes beside it.
    pub save_to: PathBuf,
    pub cursor: Cell,
    pub start: Cell,
    pub goal: Cell,
    pub panes: [Pane; 2],
    /// Both panes side by side, or the active one alone.
    pub split: bool,
    /// The pane the setting keys change.
    pub active: usize,
    /// Steps shown: expansions of each pane (each stops at its end).
    pub step: usize,
    pub running: bool,
    /// Index into [`PACES`].
    pub pace: usize,
    pub help: bool,
    /// The last thing the lab has to say (saved, refused...).
    pub message: String,
    /// A file that exists and will be overwritten if the same save key is
    /// pressed again next.
    confirm: Option<PathBuf>,
    /// Whether `W` writes the start and the goal as the level's `S` and
    /// `G`: when the level had them, or once they are placed. Otherwise
    /// the query's ends are the lab's own (the player's cell, the last
    /// walkable one), and saving leaves the level without them.
    marked: [bool; 2],
    /// The mouse is captured (`--mouse`, `M`).
    pub mouse: bool,
    /// A left button held since a press on this cell: dragged, it paints
    /// the cells it crosses (with `paint`, and from `last`); released
    /// without a drag, it was a click.
    drag: Option<Drag>,
    pub quit: bool,
}

/// A left-button drag under way (see [`Lab::pointer`]).
#[derive(Clone, Copy, Debug)]
struct Drag {
    /// The cell pressed on.
    from: Cell,
    /// The last cell painted, once the drag has moved.
    last: Option<Cell>,
    /// What the drag paints: walls, or floor when it began on a wall.
    paint: Tile,
}

/// What the lab says when `M` turns the mouse on, and off.
pub const MOUSE_ON: &str = "mouse on: click moves the cursor, drag draws walls (from a wall: floor), right-click the goal, middle-click the start";
pub const MOUSE_OFF: &str = "mouse off: the terminal selects text again";

impl Lab {
    /// The lab on `level`, with the query between its S and G markers (or
    /// its player and the last walkable cell), A* on the left and greedy
    /// on the right, shown before the first step.
    pub fn new(level: Level, save_to: PathBuf) -> Lab {
        let grid = &level.grid;
        let mut walkable = grid.cells().filter(|&c| grid.is_walkable(c));
        let first = walkable.next().unwrap_or(Cell::new(0, 0));
        let start = level.start.or(level.player).unwrap_or(first);
        let goal = level.goal.or_else(|| walkable.last()).unwrap_or(start);
        let marked = [level.start.is_some(), level.goal.is_some()];
        let right = SearchSettings { planner: Planner::GREEDY, ..SearchSettings::DEFAULT };
        let panes = [Pane::new(SearchSettings::DEFAULT), Pane::new(right)];
        let mut lab = Lab {
            level,
            save_to,
            cursor: start,
            start,
            goal,
            panes,
            split: true,
            active: 0,
            step: 0,
            running: false,
            pace: 2,
            help: false,
            message: String::new(),
            confirm: None,
            marked,
            mouse: false,
            drag: None,
            quit: false,
        };
        lab.rerun();
        lab
    }

    /// Gives the panes `planners`, left then right (those not given keep
    /// theirs), and runs the query again.
    pub fn set_planners(&mut self, planners: &[Planner]) {
        for (pane, &planner) in self.panes.iter_mut().zip(planners) {
            pane.set_planner(planner);
        }
        self.rerun();
    }

    /// The panes on screen, by index.
    pub fn shown(&self) -> Vec<usize> {
        if self.split { vec![0, 1] } else { vec![self.active] }
    }

    /// Steps until every pane on screen is at its end.
    pub fn steps(&self) -> usize {
        self.shown().into_iter().map(|i| self.panes[i].len()).max().unwrap_or(0)
    }

    /// Whether every pane on screen is at its end.
    pub fn done(&self) -> bool {
        self.step >= self.steps()
    }

    /// Runs the query again in both panes (after an edit or a setting),
    /// shown from its first step.
    fn rerun(&mut self) {
        for pane in &mut self.panes {
            pane.run(&self.level.grid, self.start, self.goal);
        }
        self.seek(0);
        self.running = false;
    }

    fn seek(&mut self, step: usize) {
        self.step = step.min(self.steps());
        for pane in &mut self.panes {
            pane.seek(self.step);
        }
    }

    /// One frame of running: [`PACES`]`[pace]` steps, stopping at the end.
    pub fn advance(&mut self) {
        if self.running {
            self.seek(self.step + PACES[self.pace]);
            self.running = !self.done();
        }
    }

    /// Acts on one key's action.
    pub fn handle(&mut self, action: Action) {
        if self.help {
            // The popup takes the keys that close it; the rest act behind it.
            if matches!(action, Action::Help | Action::Quit) {
                self.help = false;
                return;
            }
        }
        let confirm = self.confirm.take();
        self.message.clear();
        match action {
            Action::Move(dx, dy) => {
                let (w, h) = (self.level.grid.width() as i32, self.level.grid.height() as i32);
                self.cursor = Cell::new((self.cursor.x + dx).clamp(0, w - 1), (self.cursor.y + dy).clamp(0, h - 1));
            }
            Action::Start | Action::Goal => self.place(action == Action::Start),
            Action::Mouse => {
                self.mouse = !self.mouse;
                self.message = if self.mouse { MOUSE_ON } else { MOUSE_OFF }.to_string();
            }
            Action::Pointer(pointer) => self.pointer(pointer),
            Action::Wall => {
                let wall = self.level.grid.tile(self.cursor) == Tile::Wall;
                self.edit(if wall { Tile::Floor(1) } else { Tile::Wall });
            }
            Action::Cost => {
                let next = match self.level.grid.tile(self.cursor) {
                    Tile::Floor(c) => COSTS.iter().copied().find(|&k| k > c).unwrap_or(COSTS[0]),
                    _ => COSTS[1],
                };
                self.edit(Tile::Floor(next));
            }
            Action::Step => {
                self.running = false;
                self.seek(self.step + 1);
            }
            Action::Run => self.running = !self.running && !self.done(),
            Action::Faster => self.pace = (self.pace + 1).min(PACES.len() - 1),
            Action::Slower => self.pace = self.pace.saturating_sub(1),
            Action::End => {
                self.running = false;
                self.seek(usize::MAX);
            }
            Action::Restart => {
                self.running = false;
                self.seek(0);
            }
            Action::Set(setting) => {
                let pane = &mut self.panes[self.active];
                let s = &mut pane.settings;
                match setting {
                    Setting::Planner => {
                        let (next, skipped) = Navigator::next_in_cycle(pane.planner(), &self.level.grid);
                        pane.set_planner(next);
                        if let Some((planner, why)) = skipped.first() {
                            self.message = format!("{planner} skipped: {why}");
                        }
                    }
                    Setting::Heuristic => s.heuristic = s.heuristic.next(),
                    Setting::Tie => s.tie = s.tie.next(),
                    Setting::Open => s.open = s.open.next(),
                    Setting::Neighbors => s.neighbors = s.neighbors.next(),
                    Setting::Reopen => s.reopen = !s.reopen,
                    Setting::Weight(d) => s.weight = (s.weight + d).clamp(MIN_WEIGHT, MAX_WEIGHT),
                }
                self.rerun();
            }
            Action::SwapPane => {
                self.active = 1 - self.active;
                self.seek(self.step);
            }
            Action::Split => {
                self.split = !self.split;
                self.seek(self.step);
            }
            Action::Save => match self.saved() {
                Ok(Saved { path, text, how }) => {
                    self.write(path, confirm, how, |out| out.write_all(text.as_bytes()));
                }
                Err(why) => self.message = format!("not saved: {why}"),
            },
            Action::Picture => match check_size(&self.level.grid, self.shown().len()) {
                Ok(()) => {
                    let path = self.save_to.with_extension("svg");
                    let picture = |out: &mut dyn Write| self.write_picture(out);
                    let written = self.written(&path, confirm.as_ref(), picture);
                    self.said(path, written, "");
                }
                Err(e) => self.message = format!("no picture: {e}"),
            },
            Action::Help => self.help = true,
            Action::Quit => self.quit = true,
        }
    }

    /// Puts the start or the goal under the cursor, if walkable.
    fn place(&mut self, start: bool) {
        if !self.level.grid.is_walkable(self.cursor) {
            self.message = format!("{} is not walkable", self.cursor);
            return;
        }
        *(if start { &mut self.start } else { &mut self.goal }) = self.cursor;
        self.marked[usize::from(!start)] = true;
        self.rerun();
    }

    /// A mouse event with the mouse on: a left click puts the cursor on
    /// the cell; a left drag paints walls on every cell it crosses (floor
    /// when it began on a wall), the search run again once per event, the
    /// cursor left where it was (so the view holds still under the drag);
    /// a right click puts the goal on the cell, a middle click the start.
    /// Events off the panes' maps do nothing.
    fn pointer(&mut self, pointer: Pointer) {
        if !self.mouse || self.help {
            return;
        }
        let cell = super::draw::cell_at(self, pointer.screen, pointer.at);
        match (pointer.kind, cell) {
            (MouseEventKind::Down(MouseButton::Left), Some(c)) => {
                let paint = if self.level.grid.tile(c) == Tile::Wall { Tile::Floor(1) } else { Tile::Wall };
                self.drag = Some(Drag { from: c, last: None, paint });
            }
            (MouseEventKind::Drag(MouseButton::Left), Some(c)) => {
                let Some(drag) = self.drag.as_mut() else { return };
                let from = drag.last.unwrap_or(drag.from);
                if drag.last == Some(c) {
                    return;
                }
                drag.last = Some(c);
                let paint = drag.paint;
                let mut changed = false;
                // Every cell the segment touches: a drag faster than the
                // terminal reports cells leaves no gap, nor a diagonal one.
                for cell in crate::grid::supercover(from, c) {
                    let end = cell == self.start || cell == self.goal;
                    changed |= !(end && paint.entry_cost().is_none()) && self.level.grid.set_tile(cell, paint);
                }
                if changed {
                    self.rerun();
                }
            }
            (MouseEventKind::Up(MouseButton::Left), _) => {
                if let Some(Drag { from, last: None, .. }) = self.drag.take() {
                    self.cursor = from;
                }
            }
            (MouseEventKind::Down(button @ (MouseButton::Right | MouseButton::Middle)), Some(c)) => {
                self.cursor = c;
                self.place(button == MouseButton::Middle);
            }
            _ => {}
        }
    }

    /// Puts `tile` under the cursor, except on the start and the goal.
    fn edit(&mut self, tile: Tile) {
        if (self.cursor == self.start || self.cursor == self.goal) && tile.entry_cost().is_none() {
            self.message = "the start and the goal stay walkable".into();
            return;
        }
        if self.level.grid.set_tile(self.cursor, tile) {
            self.rerun();
        }
    }

    /// The level as `W` saves it: as loaded, with the edits made, and the
    /// query's start and goal as its `S` and `G` where it had them or they
    /// were placed. A level that had no `G` and no `goal:` gets `goal:
    /// none` with a placed `G`, so that it plays as before (a `G` alone
    /// would make it a game to reach it).
    fn level_to_save(&self) -> Level {
        let mut level = self.level.clone();
        if self.marked[0] {
            level.start = Some(self.start);
        }
        if self.marked[1] {
            if level.goal.is_none() && level.objective.is_none() {
                level.objective = Some(Goal::None);
            }
            level.goal = Some(self.goal);
        }
        level
    }

    /// What `W` writes, where, and how to say it. A Moving AI map is saved
    /// in its own format under its own name, or, when the edits put in what
    /// that format cannot hold (costs), as a delve level under a new
    /// `.txt` name: it is never overwritten with another format.
    fn saved(&self) -> Result<Saved, String> {
        let level = self.level_to_save();
        if let Some(why) = level.marker_problem() {
            return Err(why);
        }
        if !self.level.is_movingai() {
            return Ok(Saved { path: self.save_to.clone(), text: level.to_text(), how: "" });
        }
        Ok(match level.to_movingai() {
            Some(text) => Saved {
                path: self.save_to.clone(),
                text,
                how: " as a Moving AI map (without the start and goal, which it cannot hold)",
            },
            None => Saved {
                path: text_name(&self.save_to),
                text: level.to_text(),
                how: " as a delve level (a Moving AI map cannot hold entry costs)",
            },
        })
    }

    /// Writes the SVG picture of the panes on screen, at their current
    /// step, to `out` (see [`check_size`] for its bounds).
    pub fn write_picture(&self, out: &mut dyn Write) -> io::Result<()> {
        let grid = &self.level.grid;
        let drawn: Vec<_> = self.shown().into_iter().map(|i| self.panes[i].drawn(grid, self.step)).collect();
        crate::picture::write_svg(out, grid, self.start, self.goal, &drawn)
    }

    /// Writes `path` through `body`, whole or not at all ([`crate::atomic`]),
    /// unless it exists and the same write was not asked for just before
    /// (`confirmed`); says what happened, `how` after the name.
    fn write(
        &mut self,
        path: PathBuf,
        confirmed: Option<PathBuf>,
        how: &str,
        body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) {
        let written = self.written(&path, confirmed.as_ref(), body);
        self.said(path, written, how);
    }

    /// [`write`](Lab::write) without the message: `None` when it waits for
    /// a second press.
    fn written(
        &self,
        path: &Path,
        confirmed: Option<&PathBuf>,
        body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Option<Result<(), AtomicError>> {
        let exists = std::fs::symlink_metadata(path).is_ok();
        if exists && confirmed.map(PathBuf::as_path) != Some(path) {
            return None;
        }
        Some(atomic::write_whole(path, true, "the lab", body))
    }

    /// Says how a write to `path` went, and asks for the second press
    /// when it waits for one.
    fn said(&mut self, path: PathBuf, written: Option<Result<(), AtomicError>>, how: &str) {
        let name = shown_path(&path);
        self.message = match written {
            None => {
                self.confirm = Some(path);
                format!("{name} exists: press the key again to overwrite it")
            }
            Some(Ok(())) => format!("wrote {name}{how}"),
            Some(Err(e)) => shown(&e.to_string()).into_owned(),
        };
    }
}

/// What `W` writes and where.
struct Saved {
    path: PathBuf,
    text: String,
    /// How it was saved, for the message, after the file's name.
    how: &'static str,
}

/// A new `.txt` name beside a Moving AI map: `NAME.txt`, or
/// `NAME.delve.txt` when the map itself is called `NAME.txt`.
fn text_name(map: &Path) -> PathBuf {
    let txt = map.with_extension("txt");
    if txt == map { map.with_extension("delve.txt") } else { txt }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn lab() -> Lab {
        Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"))
    }

    #[test]
    fn steps_run_to_the_end_and_back() {
        let mut lab = lab();
        assert_eq!(lab.step, 0);
        lab.handle(Action::Step);
        assert_eq!(lab.step, 1);
        assert_eq!(lab.panes[0].stats(1).expanded, 1);
        lab.handle(Action::Run);
        while lab.running {
            lab.advance();
        }
        assert!(lab.done());
        assert!(lab.panes.iter().all(|p| p.done(lab.step)));
        lab.handle(Action::Restart);
        assert_eq!(lab.step, 0);
    }

    #[test]
    fn a_wall_on_the_path_changes_the_search_and_a_setting_only_its_pane() {
        let mut lab = lab();
        lab.handle(Action::End);
        let before = lab.panes[0].path.clone();
        let right = lab.panes[1].path.clone();
        lab.cursor = before[before.len() / 2];
        lab.handle(Action::Wall);
        assert_eq!(lab.step, 0, "an edit starts the query again");
        lab.handle(Action::End);
        assert!(!lab.panes[0].path.contains(&lab.cursor));
        lab.handle(Action::Wall);
        lab.handle(Action::SwapPane);
        lab.handle(Action::Set(Setting::Planner));
        assert_eq!(lab.panes[1].settings.planner, Planner::WEIGHTED);
        assert_eq!(lab.panes[0].settings.planner, Planner::ASTAR);
        lab.handle(Action::End);
        assert_eq!(lab.panes[0].path, before);
        assert_ne!(lab.panes[1].path, right, "weighted A* is not greedy here");
        lab.cursor = lab.start;
        lab.handle(Action::Wall);
        assert_eq!(lab.level.grid.tile(lab.start), Tile::Floor(1));
    }

    #[test]
    fn saving_refuses_to_overwrite_until_asked_twice() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("level.txt");
        std::fs::write(&file, "old").unwrap();
        let mut lab = Lab::new(Level::embedded_default(), file.clone());
        lab.handle(Action::Save);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "old");
        assert!(lab.message.contains("exists"), "{}", lab.message);
        lab.handle(Action::Save);
        let saved = Level::load(&file).unwrap();
        assert_eq!((saved.start, saved.goal), (Some(lab.start), Some(lab.goal)));
        assert_eq!(saved.grid, lab.level.grid);
        // Another key in between asks again.
        lab.handle(Action::Save);
        lab.handle(Action::Move(1, 0));
        lab.handle(Action::Save);
        assert!(lab.message.contains("exists"));
    }

    /// How `delve sim LEVEL --rules game` would see the level: its rules
    /// and the state hash after 300 ticks of a random bot.
    fn plays(level: &Level) -> (crate::sim::Rules, u64) {
        let rules = crate::sim::Rules::game(level);
        let mut world = crate::sim::World::with_rules(level, 7, crate::sim::Settings::default(), rules).unwrap();
        let mut bot = crate::sim::Bot::of(crate::sim::BotKind::Random, 7);
        for _ in 0..300 {
            if let Some(command) = bot.command(&world) {
                world.apply(command);
            }
            world.tick();
        }
        (rules, world.hash())
    }

    fn tiles(level: &Level) -> Vec<Tile> {
        level.grid.cells().map(|c| level.grid.tile(c)).collect()
    }

    /// The lab on `text` saved to a file in `dir`, and what `W` pressed
    /// (twice when needed) after `actions` wrote there.
    fn saved_after(dir: &Path, name: &str, text: &str, actions: &[Action]) -> (Lab, Level) {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let mut lab = Lab::new(Level::load(&file).unwrap(), file.clone());
        for &a in actions {
            lab.handle(a);
        }
        lab.handle(Action::Save);
        lab.handle(Action::Save);
        assert!(lab.message.starts_with("wrote"), "{}", lab.message);
        let saved = Level::load(&file).unwrap();
        (lab, saved)
    }

    #[test]
    fn saving_an_unedited_level_keeps_how_it_plays() {
        let dir = tempfile::tempdir().unwrap();
        let sandbox = "name: sb\n@.......\n...M....\n........\n";
        let (_, saved) = saved_after(dir.path(), "sb.txt", sandbox, &[]);
        let original = Level::parse(sandbox, "sb.txt").unwrap();
        assert_eq!(saved.player, original.player, "@ stays @");
        assert_eq!((saved.start, saved.goal, saved.objective), (None, None, None), "no S, no G added");
        assert_eq!(Level { source: String::new(), ..saved.clone() }, Level { source: String::new(), ..original });
        assert_eq!(plays(&saved), plays(&Level::parse(sandbox, "sb.txt").unwrap()));
        for shipped in ["levels/dungeon.txt", "levels/gates.txt", "levels/keep.txt"] {
            let text = std::fs::read_to_string(shipped).unwrap();
            let (_, saved) = saved_after(dir.path(), "copy.txt", &text, &[]);
            let original = Level::parse(&text, "copy.txt").unwrap();
            assert_eq!(Level { source: String::new(), ..saved.clone() }, Level { source: String::new(), ..original });
            assert_eq!(plays(&saved), plays(&Level::parse(&text, "copy.txt").unwrap()), "{shipped}");
        }
    }

    #[test]
    fn a_goal_placed_on_a_level_without_one_keeps_it_a_sandbox() {
        let dir = tempfile::tempdir().unwrap();
        let text = "name: sb\n@.......\n...M....\n........\n";
        let (lab, saved) = saved_after(dir.path(), "sb.txt", text, &[Action::Move(1, 0), Action::Goal]);
        assert_eq!(saved.goal, Some(lab.goal));
        assert_eq!(saved.objective, Some(Goal::None), "written `goal: none`");
        assert_eq!(saved.start, None, "the start was not placed");
        assert_eq!(crate::sim::Rules::game(&saved).goal, Goal::None);
        // Placing the start on the player's cell cannot be written.
        let file = dir.path().join("sb.txt");
        let mut lab = Lab::new(Level::parse(text, "sb.txt").unwrap(), file.clone());
        lab.handle(Action::Start);
        let before = std::fs::read_to_string(&file).unwrap();
        lab.handle(Action::Save);
        assert_eq!(lab.message, "not saved: '@' and 'S' are both at 0,0: a cell holds one marker");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    }

    #[test]
    fn a_moving_ai_map_is_saved_as_one_or_under_a_new_name() {
        let dir = tempfile::tempdir().unwrap();
        let map = "type octile\nheight 2\nwidth 4\nmap\n.T..\n..@.\n";
        let (lab, saved) = saved_after(dir.path(), "m.map", map, &[]);
        assert!(lab.message.contains("as a Moving AI map"), "{}", lab.message);
        assert_eq!(std::fs::read_to_string(dir.path().join("m.map")).unwrap(), map, "the same bytes");
        assert_eq!(tiles(&saved), tiles(&Level::parse(map, "m.map").unwrap()));
        // A wall drawn (the cursor starts on the start, 0,0) and one taken
        // away are kept in the map's own format.
        let edits = [Action::Move(1, 0), Action::Wall, Action::Move(2, 0), Action::Wall];
        let (lab, saved) = saved_after(dir.path(), "m.map", map, &edits);
        assert_eq!(std::fs::read_to_string(dir.path().join("m.map")).unwrap(), map.replace("\n.T..", "\n...@"));
        assert_eq!(tiles(&saved), tiles(&lab.level));
        // A cost it cannot hold: a delve level beside it, the map untouched.
        let file = dir.path().join("m.map");
        std::fs::write(&file, map).unwrap();
        let mut lab = Lab::new(Level::load(&file).unwrap(), file.clone());
        lab.cursor = Cell::new(2, 0);
        lab.handle(Action::Cost);
        lab.handle(Action::Save);
        let txt = dir.path().join("m.txt");
        assert_eq!(
            lab.message,
            format!("wrote {} as a delve level (a Moving AI map cannot hold entry costs)", txt.display())
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), map);
        assert_eq!(tiles(&Level::load(&txt).unwrap()), tiles(&lab.level));
        assert_eq!(text_name(Path::new("a/odd.txt")), Path::new("a/odd.delve.txt"));
    }

    #[test]
    fn a_picture_too_large_is_refused_with_the_bound() {
        let side = crate::grid::MAX_SIDE;
        let level = Level::parse(&format!("{}\n", ".".repeat(side)).repeat(side), "big.txt").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut lab = Lab::new(level, dir.path().join("big.txt"));
        lab.handle(Action::Picture);
        assert!(lab.message.starts_with("no picture: 2 map(s) of 2048x2048 cells"), "{}", lab.message);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
