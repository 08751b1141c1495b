//! The level chooser (`o` in the lab): another level without leaving the
//! lab. It lists the shipped levels by name and a generated level of each
//! style (←/→ change its seed), and takes a file path, a shipped name or
//! `STYLE SEED` typed in. The level opens with its own start and goal and
//! the panes keep their settings; a file that cannot be read or is not a
//! level is one line in the lab, which stays on the level it had.

use super::state::Lab;
use crate::r#gen::{Recipe, Style};
use crate::level::{Level, SHIPPED};
use crate::shown::shown;
use crate::ui::palette::Palette;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style as Look;
use ratatui::text::{Line, Span};
use std::path::PathBuf;

/// Longest text the chooser takes (a path).
const MAX_TYPED: usize = 4096;

/// The chooser's state: the highlighted row, each style's seed, and what
/// has been typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chooser {
    pub selected: usize,
    /// The seed of each [`Style::ALL`] row.
    pub seeds: Vec<u64>,
    pub typed: String,
}

impl Default for Chooser {
    fn default() -> Self {
        Chooser { selected: 0, seeds: vec![1; Style::ALL.len()], typed: String::new() }
    }
}

/// What the chooser opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    Shipped(&'static str),
    Generated(Style, u64),
    File(PathBuf),
}

impl Chooser {
    /// Rows: the shipped levels, then a generated level of each style.
    fn rows() -> usize {
        SHIPPED.len() + Style::ALL.len()
    }

    /// The choice of the highlighted row.
    fn row(&self) -> Choice {
        match SHIPPED.get(self.selected) {
            Some((name, _)) => Choice::Shipped(name),
            None => {
                let i = self.selected - SHIPPED.len();
                Choice::Generated(Style::ALL[i], self.seeds[i])
            }
        }
    }

    /// What the typed text names: a shipped level, `STYLE SEED`, else a
    /// file path.
    fn typed(&self) -> Choice {
        let text = self.typed.trim();
        if let Some((name, _)) = SHIPPED.iter().find(|(n, _)| *n == text) {
            return Choice::Shipped(name);
        }
        let mut words = text.split_whitespace();
        if let (Some(style), Some(seed), None) = (words.next(), words.next(), words.next())
            && let (Ok(style), Some(seed)) = (style.parse::<Style>(), crate::number::whole(seed))
            && let Ok(seed) = u64::try_from(seed)
        {
            return Choice::Generated(style, seed);
        }
        Choice::File(PathBuf::from(&self.typed))
    }
}

/// The level a choice opens and where `W` saves it, or the one line that
/// says why it cannot open.
fn open(choice: &Choice) -> Result<(Level, PathBuf), String> {
    match choice {
        Choice::Shipped(name) => {
            let level = Level::shipped(name).ok_or_else(|| format!("no shipped level {name}"))?;
            Ok((level, PathBuf::from(format!("{name}.txt"))))
        }
        Choice::Generated(style, seed) => {
            let recipe = Recipe::new(*style, *seed, 1, None).map_err(|e| e.to_string())?;
            Ok((recipe.generate(), PathBuf::from(recipe.file_name())))
        }
        Choice::File(path) => Level::load(path).map(|level| (level, path.clone())).map_err(|e| e.to_string()),
    }
}

impl Lab {
    /// A key while the chooser is open: ↑ ↓ move, ← → change a generated
    /// row's seed, characters and Backspace edit the typed text, Enter
    /// opens what it names (or the highlighted row when nothing is typed),
    /// Esc closes.
    pub(super) fn chooser_key(&mut self, mut chooser: Chooser, key: KeyEvent) {
        let rows = Chooser::rows();
        let generated = chooser.selected.checked_sub(SHIPPED.len());
        match key.code {
            KeyCode::Esc => {
                self.chooser = None;
                return;
            }
            KeyCode::Up => chooser.selected = chooser.selected.checked_sub(1).unwrap_or(rows - 1),
            KeyCode::Down => chooser.selected = (chooser.selected + 1) % rows,
            KeyCode::Left | KeyCode::Right => {
                if let Some(i) = generated {
                    let seed = &mut chooser.seeds[i];
                    *seed = if key.code == KeyCode::Left { seed.saturating_sub(1) } else { seed.saturating_add(1) };
                }
            }
            KeyCode::Backspace => {
                chooser.typed.pop();
            }
            KeyCode::Char(c) if chooser.typed.len() < MAX_TYPED && !c.is_control() => chooser.typed.push(c),
            KeyCode::Enter => {
                let choice = if chooser.typed.trim().is_empty() { chooser.row() } else { chooser.typed() };
                match open(&choice) {
                    Ok((level, save_to)) => {
                        self.chooser = None;
                        self.open_level(level, save_to);
                    }
                    Err(why) => {
                        self.message = format!("not opened: {}", shown(why.lines().next().unwrap_or("")));
                        self.chooser = Some(chooser);
                    }
                }
                return;
            }
            _ => {}
        }
        self.chooser = Some(chooser);
    }

    /// Puts `level` in the lab, saved to `save_to`, with its own start and
    /// goal (as [`Lab::new`] finds them); the panes keep their settings,
    /// the view its pace and layout.
    pub fn open_level(&mut self, level: Level, save_to: PathBuf) {
        let name = level.name.clone();
        let settings = [self.panes[0].settings, self.panes[1].settings];
        let (split, active, pace) = (self.split, self.active, self.pace);
        *self = Lab::new(level, save_to);
        for (pane, s) in self.panes.iter_mut().zip(settings) {
            pane.settings = s;
        }
        (self.split, self.active, self.pace) = (split, active, pace);
        self.rerun();
        let (w, h) = (self.level.grid.width(), self.level.grid.height());
        self.message = format!("opened {} ({w}x{h})", shown(&name));
    }
}

/// Draws the chooser centred over `area`: the rows, the highlighted one
/// in reverse video, then the typed text.
pub fn render(frame: &mut Frame, area: Rect, palette: &Palette, chooser: &Chooser) {
    let row = |i: usize, text: String| {
        let look = if i == chooser.selected { Look::new().reversed() } else { Look::new() };
        Line::from(Span::styled(text, look))
    };
    let mut lines: Vec<Line<'static>> = vec![Line::raw(" shipped:")];
    for (i, (name, _)) in SHIPPED.iter().enumerate() {
        lines.push(row(i, format!("   {name}")));
    }
    lines.push(Line::raw(" generated (← → seed):"));
    for (i, style) in Style::ALL.iter().enumerate() {
        lines.push(row(SHIPPED.len() + i, format!("   {style} {}", chooser.seeds[i])));
    }
    lines.push(Line::raw(" or type a file, a name or STYLE SEED:"));
    let typed = shown(&chooser.typed).into_owned();
    let tail: String = typed.chars().rev().take(44).collect::<Vec<_>>().into_iter().rev().collect();
    lines.push(Line::from(vec![Span::raw(" > "), Span::styled(tail + "_", Look::new().fg(palette.key))]));
    let bottom = " ↑ ↓ choose, Enter opens, Esc closes ";
    crate::ui::help::popup(frame, area, 50, lines, " Open a level ", bottom, 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn typed(lab: &mut Lab, text: &str) {
        for c in text.chars() {
            lab.press(key(KeyCode::Char(c)));
        }
    }

    #[test]
    fn typed_text_names_a_level_a_recipe_or_a_file() {
        let with = |typed: &str| Chooser { typed: typed.into(), ..Chooser::default() }.typed();
        assert_eq!(with("maze"), Choice::Shipped("maze"));
        assert_eq!(with(" caves  42 "), Choice::Generated(Style::Caves, 42));
        assert_eq!(with("caves 42 x"), Choice::File("caves 42 x".into()));
        assert_eq!(with("levels/maze.txt"), Choice::File("levels/maze.txt".into()));
        assert_eq!(with("rooms -1"), Choice::File("rooms -1".into()));
    }

    /// A shipped level, a generated one and a file open with their own
    /// start and goal, the panes keeping their settings; what cannot open
    /// is one line, and the lab keeps its level.
    #[test]
    fn the_chooser_opens_shipped_generated_and_files() {
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        lab.handle(super::super::keys::Action::SwapPane);
        lab.handle(super::super::keys::Action::Set(super::super::keys::Setting::Tie));
        let right = lab.panes[1].settings;
        // The shipped maze, by name.
        lab.handle(super::super::keys::Action::Load);
        typed(&mut lab, "maze");
        lab.press(key(KeyCode::Enter));
        let maze = Level::shipped("maze").unwrap();
        assert_eq!(lab.chooser, None);
        assert_eq!(lab.level.name, "maze");
        assert_eq!((Some(lab.start), Some(lab.goal)), (maze.start.or(maze.player), maze.goal));
        assert_eq!((lab.panes[1].settings, lab.active, lab.step), (right, 1, 0));
        assert_eq!(lab.save_to, PathBuf::from("maze.txt"));
        assert!(lab.message.starts_with("opened maze"), "{}", lab.message);
        // A generated level, from its row with the seed moved on.
        lab.handle(super::super::keys::Action::Load);
        for _ in 0..SHIPPED.len() + 1 {
            lab.press(key(KeyCode::Down));
        }
        lab.press(key(KeyCode::Right));
        lab.press(key(KeyCode::Enter));
        let recipe = Recipe::new(Style::ALL[1], 2, 1, None).unwrap();
        assert_eq!(lab.level.grid, recipe.generate().grid);
        assert_eq!(lab.save_to, PathBuf::from(recipe.file_name()));
        // A file that is not a level: one line, the lab as it was.
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, "S..\n.Z.\n..G\n").unwrap();
        let before = lab.level.clone();
        lab.handle(super::super::keys::Action::Load);
        typed(&mut lab, bad.to_str().unwrap());
        lab.press(key(KeyCode::Enter));
        assert!(lab.chooser.is_some(), "the chooser stays open to try again");
        assert!(lab.message.starts_with("not opened: ") && !lab.message.contains('\n'), "{}", lab.message);
        assert!(lab.message.contains("bad.txt"), "names the file: {}", lab.message);
        assert_eq!(lab.level, before);
        // A file that does not exist, then a good one typed over it.
        for _ in 0..MAX_TYPED {
            lab.press(key(KeyCode::Backspace));
        }
        typed(&mut lab, "/no/such/level.txt");
        lab.press(key(KeyCode::Enter));
        assert!(lab.message.starts_with("not opened: "), "{}", lab.message);
        let good = dir.path().join("good.txt");
        std::fs::write(&good, "S..#\n...#\n..G.\n").unwrap();
        lab.chooser.as_mut().unwrap().typed = good.to_str().unwrap().into();
        lab.press(key(KeyCode::Enter));
        assert_eq!(
            (lab.level.grid.width(), lab.start, lab.goal),
            (4, crate::grid::Cell::new(0, 0), crate::grid::Cell::new(2, 2))
        );
        assert_eq!(lab.save_to, good);
        // Esc closes without opening.
        lab.handle(super::super::keys::Action::Load);
        typed(&mut lab, "maze");
        lab.press(key(KeyCode::Esc));
        assert_eq!((lab.chooser.as_ref(), lab.level.grid.width(), lab.quit), (None, 4, false));
    }
}
