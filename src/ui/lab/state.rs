//! The lab's state: the level being edited, the query, the two panes and
//! the step they are shown at, and what each key does to them.

use super::keys::{Action, Setting};
use super::pane::Pane;
use crate::grid::{Cell, Tile};
use crate::level::Level;
use crate::nav::Navigator;
use crate::search::{MAX_WEIGHT, MIN_WEIGHT, Planner, SearchSettings};
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
    pub quit: bool,
}

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
                    Setting::Algorithm => {
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
            Action::Save => {
                let text = self.level_text();
                self.write(self.save_to.clone(), &text, confirm);
            }
            Action::Picture => {
                let text = self.picture();
                self.write(self.save_to.with_extension("svg"), &text, confirm);
            }
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
        self.rerun();
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

    /// The level as a delve level file, with the query as its S and G.
    pub fn level_text(&self) -> String {
        let level = Level { start: Some(self.start), goal: Some(self.goal), ..self.level.clone() };
        level.to_text()
    }

    /// The SVG picture of the panes on screen, at their current step.
    pub fn picture(&self) -> String {
        let grid = &self.level.grid;
        let drawn: Vec<_> = self.shown().into_iter().map(|i| self.panes[i].drawn(grid, self.step)).collect();
        crate::picture::svg(grid, self.start, self.goal, &drawn)
    }

    /// Writes `text` to `path`, unless it exists and the same write was not
    /// asked for just before (`confirmed`); says what happened.
    fn write(&mut self, path: PathBuf, text: &str, confirmed: Option<PathBuf>) {
        if path.exists() && confirmed.as_ref() != Some(&path) {
            self.message = format!("{} exists: press the key again to overwrite it", path.display());
            self.confirm = Some(path);
            return;
        }
        self.message = match write_whole(&path, text) {
            Ok(()) => format!("wrote {}", path.display()),
            Err(e) => format!("cannot write {}: {e}", path.display()),
        };
    }
}

/// Writes `text` to a file beside `path`, then renames it over `path`, so
/// that a failed write leaves the old file whole.
fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    let partial = path.with_file_name(name);
    std::fs::write(&partial, text).and_then(|()| std::fs::rename(&partial, path)).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
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
        lab.handle(Action::Set(Setting::Algorithm));
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
}
