//! The comparisons a teacher reaches for, each a pair of pane settings:
//! `delve lab --preset NAME` opens on one, the `m` menu switches to one.
//! A preset sets both panes' settings whole (from the defaults, so that
//! nothing of the previous pair lingers) and shows the two side by side.

use super::state::Lab;
use crate::search::{Heuristic, OpenUpdate, Planner, SearchSettings, TieBreak};
use crate::ui::palette::Palette;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

delve::named_enum! {
    /// A pair of settings shown side by side, left then right.
    Preset, "preset" {
        /// A* beside Dijkstra: what the heuristic saves.
        AstarDijkstra => "astar-dijkstra",
        /// A* beside greedy best-first: optimal against fast and wrong.
        AstarGreedy => "astar-greedy",
        /// A* beside weighted A* (w = 2): bounded suboptimality.
        AstarWeighted => "astar-weighted",
        /// A* on the grid beside the navmesh: cells against polygons.
        GridNavmesh => "grid-navmesh",
        /// The navmesh at its default w = 1.3 beside w = 1 (plain A*,
        /// consistent): what the weight buys and what it breaks.
        NavmeshWeights => "navmesh-weights",
        /// A* with lazy deletion beside decrease-key: the same nodes
        /// expanded, stale pops against none.
        LazyDecreaseKey => "lazy-decrease-key",
        /// A* breaking ties in insertion order beside smaller h first.
        FifoLowH => "fifo-low-h",
        /// A* with the octile heuristic beside Manhattan, which
        /// overestimates on 8 neighbours.
        OctileManhattan => "octile-manhattan",
    }
}

impl Preset {
    /// The panes' settings, left then right.
    pub fn panes(self) -> [SearchSettings; 2] {
        let astar = SearchSettings::DEFAULT;
        let with = |planner| SearchSettings { planner, ..astar };
        match self {
            Preset::AstarDijkstra => [astar, with(Planner::DIJKSTRA)],
            Preset::AstarGreedy => [astar, with(Planner::GREEDY)],
            Preset::AstarWeighted => [astar, SearchSettings { weight: 2.0, ..with(Planner::WEIGHTED) }],
            Preset::GridNavmesh => [astar, with(Planner::NAVMESH)],
            Preset::NavmeshWeights => {
                [with(Planner::NAVMESH), SearchSettings { navmesh_weight: 1.0, ..with(Planner::NAVMESH) }]
            }
            Preset::LazyDecreaseKey => [astar, SearchSettings { open: OpenUpdate::DecreaseKey, ..astar }],
            Preset::FifoLowH => [astar, SearchSettings { tie: TieBreak::LowH, ..astar }],
            Preset::OctileManhattan => [astar, SearchSettings { heuristic: Heuristic::Manhattan, ..astar }],
        }
    }

    /// What the pair shows, for the menu.
    pub fn what(self) -> &'static str {
        match self {
            Preset::AstarDijkstra => "A* beside Dijkstra: what the heuristic saves",
            Preset::AstarGreedy => "A* beside greedy: optimal against fast",
            Preset::AstarWeighted => "A* beside weighted A* (w = 2): bounded cost",
            Preset::GridNavmesh => "A* on the grid beside the navmesh",
            Preset::NavmeshWeights => "navmesh at w = 1.3 beside w = 1 (consistent)",
            Preset::LazyDecreaseKey => "lazy deletion beside decrease-key",
            Preset::FifoLowH => "fifo ties beside low-h ties",
            Preset::OctileManhattan => "octile beside Manhattan (too high on 8)",
        }
    }
}

/// The preset menu: which line is highlighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Menu {
    pub selected: usize,
}

impl Lab {
    /// Sets both panes to `preset`'s settings and shows them side by side.
    pub fn apply_preset(&mut self, preset: Preset) {
        for (pane, settings) in self.panes.iter_mut().zip(preset.panes()) {
            pane.settings = settings;
        }
        self.split = true;
        self.rerun();
        self.message = format!("preset {preset}: {}", preset.what());
    }

    /// A key while the menu is open: ↑ ↓ (or k j) move, Enter or a digit
    /// chooses, Esc or q closes; the others do nothing.
    pub(super) fn menu_key(&mut self, mut menu: Menu, key: KeyEvent) {
        let last = Preset::ALL.len() - 1;
        let chosen = match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                menu.selected = menu.selected.checked_sub(1).unwrap_or(last);
                None
            }
            KeyCode::Down | KeyCode::Char('j') => {
                menu.selected = if menu.selected == last { 0 } else { menu.selected + 1 };
                None
            }
            KeyCode::Enter => Some(menu.selected),
            KeyCode::Char(c) => match c.to_digit(10) {
                Some(d) if (1..=Preset::ALL.len() as u32).contains(&d) => Some(d as usize - 1),
                _ if c == 'q' => {
                    self.menu = None;
                    return;
                }
                _ => None,
            },
            KeyCode::Esc => {
                self.menu = None;
                return;
            }
            _ => None,
        };
        self.menu = Some(menu);
        if let Some(i) = chosen {
            self.menu = None;
            self.apply_preset(Preset::ALL[i]);
        }
    }
}

/// Draws the menu centred over `area`: a numbered line per preset, the
/// highlighted one in reverse video.
pub fn render(frame: &mut Frame, area: Rect, palette: &Palette, menu: Menu) {
    let lines: Vec<Line<'static>> = Preset::ALL
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let style = if i == menu.selected { Style::new().reversed() } else { Style::new() };
            Line::from(vec![
                Span::styled(format!(" {} ", i + 1), Style::new().fg(palette.key)),
                Span::styled(format!("{:<18} {}", p.name(), p.what()), style),
            ])
        })
        .collect();
    let width = lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 3;
    let bottom = format!(" ↑ ↓ or 1-{}, Enter chooses, Esc closes ", Preset::ALL.len());
    crate::ui::help::popup(frame, area, width.max(bottom.chars().count() as u16 + 2), lines, " Presets ", &bottom, 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use ratatui::crossterm::event::KeyModifiers;
    use std::path::PathBuf;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    fn lab() -> Lab {
        Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"))
    }

    /// Each preset sets both panes whole, shows two, and its two panes
    /// differ in the one setting it names; every pair runs on the
    /// built-in level.
    #[test]
    fn a_preset_sets_both_panes_and_shows_two() {
        for &preset in Preset::ALL {
            let mut lab = lab();
            lab.handle(super::super::keys::Action::Split);
            lab.panes[0].settings.reopen = true;
            lab.apply_preset(preset);
            assert!(lab.split, "{preset}");
            let [left, right] = preset.panes();
            assert_eq!((lab.panes[0].settings, lab.panes[1].settings), (left, right), "{preset}");
            assert_ne!(left, right, "{preset}");
            assert!(!left.reopen, "{preset}: nothing of the previous settings lingers");
            assert!(lab.message.contains(preset.what()), "{}", lab.message);
            lab.handle(super::super::keys::Action::End);
            for pane in &lab.panes {
                assert!(pane.outcome.as_ref().is_ok_and(|o| o.found), "{preset}: {:?}", pane.outcome);
            }
        }
        let [grid, mesh] = Preset::GridNavmesh.panes();
        assert_eq!((grid.planner, mesh.planner), (Planner::ASTAR, Planner::NAVMESH));
        let [_, lazy] = Preset::NavmeshWeights.panes();
        assert_eq!(lazy.navmesh_weight, 1.0);
    }

    /// The menu: ↓ then Enter picks the second preset, a digit picks its
    /// own, Esc closes and changes nothing, other keys do nothing.
    #[test]
    fn the_menu_chooses_by_arrows_or_digits() {
        let mut lab = lab();
        lab.handle(super::super::keys::Action::Presets);
        assert_eq!(lab.menu, Some(Menu { selected: 0 }));
        lab.press(key(KeyCode::Down));
        lab.press(key(KeyCode::Char('x')));
        assert_eq!(lab.menu, Some(Menu { selected: 1 }));
        lab.press(key(KeyCode::Enter));
        assert_eq!(lab.menu, None);
        assert_eq!(lab.panes[1].settings, Preset::ALL[1].panes()[1]);
        lab.press(key(KeyCode::Char('m')));
        lab.press(key(KeyCode::Up));
        assert_eq!(lab.menu, Some(Menu { selected: Preset::ALL.len() - 1 }), "↑ wraps");
        lab.press(key(KeyCode::Char('4')));
        assert_eq!(lab.menu, None);
        assert_eq!(lab.panes[1].planner(), Planner::NAVMESH);
        lab.press(key(KeyCode::Char('m')));
        lab.press(key(KeyCode::Char('9')));
        assert!(lab.menu.is_some(), "no ninth preset");
        lab.press(key(KeyCode::Esc));
        assert_eq!((lab.menu, lab.quit), (None, false), "Esc closes the menu, not the lab");
        assert_eq!(lab.panes[1].planner(), Planner::NAVMESH);
    }
}
