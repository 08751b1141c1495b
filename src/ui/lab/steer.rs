//! The steering page of the lab (`delve lab --steer`): two panes run the
//! same crowd (one level, one seed, the same creatures spawned) under two
//! avoidance settings, separation on the left and ORCA on the right,
//! stepped together, each showing its creatures and the crowd figures the
//! world already computes (overlapping pairs, smallest time to collision).
//!
//! The panes are the sim's own worlds ([`Start::world`]), so what runs
//! is what the game runs; the worlds depend on their seed alone, so the
//! page is deterministic.

use super::super::map::{Camera, glyph, terrain};
use super::super::palette::Palette;
use super::super::run::{FRAME, Front, Stop, Terminal};
use crate::level::Level;
use crate::level::marker::PLAYER;
use crate::replay::{Spawns, Start};
use crate::shown::shown;
use crate::signals::Signals;
use crate::sim::{Avoidance, Rules, Settings, World, WorldError};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Paragraph, Widget};
use std::io;
use std::time::{Duration, Instant};

/// The crowd spawned beside the level's own creatures: enough monsters
/// and wanderers that they meet in the first seconds.
pub const CROWD: Spawns = Spawns { monster: 12, wanderer: 24, fleeing: 0, boid: 0 };

/// The avoidance of each pane, left then right.
pub const SIDES: [Avoidance; 2] = [Avoidance::Separation, Avoidance::Orca];

/// One side: its avoidance and its world.
#[derive(Debug)]
pub struct Side {
    pub avoidance: Avoidance,
    pub world: World,
}

/// Two worlds of the same crowd, stepped together.
#[derive(Debug)]
pub struct SteerLab {
    pub sides: [Side; 2],
    pub running: bool,
    pub quit: bool,
}

impl SteerLab {
    /// The two worlds of `level`, seed `seed`, with [`CROWD`] spawned,
    /// the monsters' settings the defaults but for the avoidance.
    pub fn new(level: &Level, seed: u64) -> Result<SteerLab, WorldError> {
        let side = |avoidance| {
            let settings = Settings { avoidance, ..Settings::DEFAULT };
            let start =
                Start { level: level.clone(), seed, settings, spawns: CROWD, rules: Rules::SANDBOX, generator: None };
            Ok(Side { avoidance, world: start.world()? })
        };
        Ok(SteerLab { sides: [side(SIDES[0])?, side(SIDES[1])?], running: false, quit: false })
    }

    /// One tick of both worlds.
    pub fn step(&mut self) {
        for side in &mut self.sides {
            side.world.tick();
        }
    }

    /// Acts on a key: `.` one tick, Space run or pause, `q` or Esc quits.
    pub fn key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Char('.') => {
                self.running = false;
                self.step();
            }
            KeyCode::Char(' ') => self.running = !self.running,
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            _ => {}
        }
    }
}

/// Runs the steering page on `level` in the terminal until the user quits
/// (`None`) or a signal or a hangup stops it.
pub fn steer_lab(lab: SteerLab, palette: Palette, signals: Signals) -> io::Result<Option<Stop>> {
    let mut front = SteerFront { lab, palette, dirty: true, last_frame: Instant::now() };
    Terminal::open(palette, signals)?.run(&mut front)
}

struct SteerFront {
    lab: SteerLab,
    palette: Palette,
    dirty: bool,
    last_frame: Instant,
}

impl Front for SteerFront {
    fn event(&mut self, event: Event) {
        self.dirty = true;
        let Event::Key(key) = event else { return };
        if key.kind == KeyEventKind::Release {
            return;
        }
        if super::super::keys::is_interrupt(key) {
            self.lab.quit = true;
            return;
        }
        self.lab.key(key.code);
    }

    fn work(&mut self) -> io::Result<Option<Duration>> {
        if !self.lab.running {
            return Ok(None);
        }
        let since = self.last_frame.elapsed();
        if since < FRAME {
            return Ok(Some(FRAME - since));
        }
        self.last_frame = Instant::now();
        self.lab.step();
        self.dirty = true;
        Ok(Some(FRAME))
    }

    fn dirty(&self) -> bool {
        self.dirty
    }

    fn draw(&mut self, frame: &mut Frame) {
        draw(frame, &self.lab, &self.palette);
        self.dirty = false;
    }

    fn busy(&self) -> Option<super::super::busy::Busy> {
        None
    }

    fn finished(&self) -> bool {
        self.lab.quit
    }
}

/// Draws both panes side by side, and the status line.
pub fn draw(frame: &mut Frame, lab: &SteerLab, palette: &Palette) {
    let [main, status] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(frame.area());
    let halves = Layout::horizontal([Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)]).split(main);
    for (side, &area) in lab.sides.iter().zip(halves.iter()) {
        pane(frame.buffer_mut(), area, side, palette);
    }
    let world = &lab.sides[0].world;
    let state = if lab.running { "running" } else { "paused" };
    let text = format!("{}: tick {} {state} | . one tick  space run/pause  q quit", shown(world.name()), world.ticks());
    frame.render_widget(Paragraph::new(text), status);
}

/// One side: its map with the creatures, its figures below.
fn pane(buf: &mut Buffer, area: Rect, side: &Side, palette: &Palette) {
    let block = Block::bordered().title(format!(" {} ", side.avoidance));
    let inner = block.inner(area);
    block.render(area, buf);
    let [map_area, figures] = Layout::vertical([Constraint::Min(0), Constraint::Length(2)]).areas(inner);
    let grid = side.world.grid();
    let creatures = side.world.creatures();
    // The monsters hunt the player, so the crowd gathers around it.
    let player = side.world.player().cell;
    let camera = Camera::new(map_area, grid, player);
    for (cell, at) in camera.cells() {
        let (ch, style) = terrain(grid.tile(cell), palette);
        buf[at].set_char(ch).set_style(style);
    }
    for c in creatures {
        if let Some(Position { x, y }) = camera.screen(c.cell()) {
            buf[(x, y)]
                .set_char(glyph(c))
                .set_style(Style::new().fg(palette.creature(c.kind)).add_modifier(Modifier::BOLD));
        }
    }
    if let Some(at) = camera.screen(player) {
        buf[at].set_char(PLAYER).set_style(Style::new().fg(palette.player).add_modifier(Modifier::BOLD));
    }
    let (now, all) = (&side.world.stats().last_tick, &side.world.stats().total);
    let ttc = |t: Option<f32>| t.map_or("none".to_string(), |t| format!("{t:.2} s"));
    let lines = [
        format!("overlapping pairs {} now, {} summed over the ticks", now.overlaps, all.overlaps),
        format!(
            "time to collision {} now, {} least | {} bodies",
            ttc(now.min_time_to_collision),
            ttc(all.min_time_to_collision),
            creatures.len()
        ),
    ];
    Paragraph::new(lines.join("\n")).render(figures, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn arena() -> Level {
        Level::shipped("arena").unwrap()
    }

    /// Both panes step the same ticks, from the same crowd; ORCA's
    /// overlaps differ from separation's on the crowded start (it keeps
    /// bodies apart, so fewer), and the page is the same run after run.
    #[test]
    fn both_panes_step_together_and_orca_overlaps_less() {
        let mut lab = SteerLab::new(&arena(), 3).unwrap();
        let positions = |s: &Side| s.world.creatures().iter().map(|c| c.body.pos).collect::<Vec<_>>();
        assert_eq!(positions(&lab.sides[0]), positions(&lab.sides[1]), "the same crowd on both sides");
        lab.key(KeyCode::Char('.'));
        for _ in 0..299 {
            lab.step();
        }
        let [sep, orca] = &lab.sides;
        assert_eq!((sep.world.ticks(), orca.world.ticks()), (300, 300));
        let (a, b) = (sep.world.stats().total.overlaps, orca.world.stats().total.overlaps);
        assert_ne!(a, b, "separation {a}, ORCA {b}");
        assert!(b < a, "ORCA keeps bodies apart: separation {a}, ORCA {b}");
        let mut again = SteerLab::new(&arena(), 3).unwrap();
        for _ in 0..300 {
            again.step();
        }
        for (x, y) in lab.sides.iter().zip(&again.sides) {
            assert_eq!(x.world.hash(), y.world.hash(), "deterministic");
        }
    }

    #[test]
    fn keys_step_run_and_quit() {
        let mut lab = SteerLab::new(&arena(), 1).unwrap();
        lab.key(KeyCode::Char(' '));
        assert!(lab.running);
        lab.key(KeyCode::Char('.'));
        assert!(!lab.running);
        assert_eq!(lab.sides.each_ref().map(|s| s.world.ticks()), [1, 1]);
        lab.key(KeyCode::Char('q'));
        assert!(lab.quit);
    }

    #[test]
    fn the_steering_page() {
        let mut lab = SteerLab::new(&arena(), 3).unwrap();
        for _ in 0..60 {
            lab.step();
        }
        let mut terminal = Terminal::new(TestBackend::new(120, 30)).unwrap();
        terminal.draw(|frame| draw(frame, &lab, &Palette::NAMED)).unwrap();
        let text = crate::ui::testing::lines(terminal.backend().buffer()).join("\n");
        assert!(text.contains(" separation ") && text.contains(" orca "), "{text}");
        assert!(text.contains("tick 60"), "{text}");
        insta::assert_snapshot!("steer_page", text);
        for (w, h) in [(0, 0), (1, 1), (20, 5)] {
            Terminal::new(TestBackend::new(w, h)).unwrap().draw(|frame| draw(frame, &lab, &Palette::NAMED)).unwrap();
        }
    }
}
