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
//! of the game never records, and pays nothing for the lab.

mod draw;
mod keys;
mod nav;
mod nav_map;
mod pane;
mod state;

use super::palette::Palette;
use crate::level::Level;
use crate::search::Planner;
use crate::signals::{Signal, Signals};
use ratatui::crossterm::event::{self, Event};
use ratatui::crossterm::{cursor, execute};
use state::Lab;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Time between two frames while running: 30 a second.
const FRAME: Duration = Duration::from_nanos(1_000_000_000 / 30);
/// Longest wait for a key, so that a caught signal is seen within it.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// Runs the lab on `level` in the terminal until the user quits (`None`)
/// or one of `signals` is caught. `W` writes the level to `save_to`, `p`
/// the picture beside it. `planners` are the panes' (left, right), when
/// given. The terminal is restored however this returns.
pub fn lab(
    level: Level,
    save_to: PathBuf,
    planners: &[Planner],
    palette: Palette,
    signals: &Signals,
) -> io::Result<Option<Signal>> {
    let _restore = Restore;
    let mut terminal = ratatui::try_init()?;
    let mut lab = Lab::new(level, save_to);
    lab.set_planners(planners);
    let mut last_frame = Instant::now();
    loop {
        if let Some(signal) = signals.caught() {
            return Ok(Some(signal));
        }
        terminal.draw(|frame| draw::draw(frame, &lab, &palette))?;
        let wait = if lab.running { FRAME.saturating_sub(last_frame.elapsed()) } else { SIGNAL_CHECK };
        if event::poll(wait)? {
            while event::poll(Duration::ZERO)? {
                if let Some(action) = match event::read()? {
                    Event::Key(key) => keys::action(key),
                    _ => None,
                } {
                    lab.handle(action);
                }
                if lab.quit {
                    return Ok(None);
                }
            }
        }
        if last_frame.elapsed() >= FRAME {
            lab.advance();
            last_frame = Instant::now();
        }
    }
}

/// Leaves raw mode and the alternate screen and shows the cursor when
/// dropped, including while unwinding from a panic.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        ratatui::restore();
        let _ = execute!(io::stdout(), cursor::Show);
    }
}

#[cfg(test)]
mod tests {
    use super::keys::{Action, Setting};
    use super::*;
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
    /// right, after `steps` steps, drawn on a 120×46 screen (the whole
    /// level, in one pane).
    fn navmesh_screen(steps: usize, split: bool) -> String {
        let mut actions = vec![Action::SwapPane];
        actions.extend(vec![Action::Set(Setting::Algorithm); TO_NAVMESH]);
        if !split {
            actions.push(Action::Split);
        }
        actions.extend(vec![Action::Step; steps]);
        screen(&actions, 120, 46)
    }

    #[test]
    fn a_navmesh_pane_searches_then_pulls_the_funnel() {
        let mut lab = Lab::new(Level::embedded_default(), PathBuf::from("unused.txt"));
        lab.handle(Action::SwapPane);
        for _ in 0..TO_NAVMESH {
            lab.handle(Action::Set(Setting::Algorithm));
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
        let svg = lab.picture();
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let count = |class| doc.descendants().filter(|n| n.attribute("class") == Some(class)).count();
        let polygons = lab.panes[1].nav.as_ref().unwrap().polygons.len();
        assert_eq!((count("mesh"), count("navmesh"), count("path")), (polygons, 1, 1), "A* beside the navmesh");
        // A second A goes on to the waypoints, a third back to the grid.
        lab.handle(Action::Set(Setting::Algorithm));
        assert_eq!(lab.panes[1].planner(), Planner::WAYPOINTS);
        lab.handle(Action::End);
        assert!(lab.panes[1].outcome.as_ref().unwrap().found);
        lab.handle(Action::Set(Setting::Algorithm));
        assert_eq!(lab.panes[1].planner(), Planner::CYCLE[0]);
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
