//! The steering page of the lab (`delve lab --steer`): two panes run the
//! same crowd (one level, one seed, the same creatures spawned) under two
//! settings, stepped together, each showing its creatures, the crowd
//! figures the world already computes (overlapping pairs, smallest time to
//! collision) and the shape of its flocks ([`FlockFigures`]).
//!
//! What the panes compare ([`SteerCompare`], `--steer-compare`, `c` on the
//! page): the avoidance (separation on the left, ORCA on the right) or the
//! boids' flocking weights (the default on the left, one urge changed on
//! the right). The panes differ in that one setting only.
//!
//! The panes are the sim's own worlds ([`Start::world`]), so what runs
//! is what the game runs; the worlds depend on their seed alone, so the
//! page is deterministic.

use super::super::map::{Camera, glyph, terrain};
use super::super::palette::Palette;
use super::super::run::{FRAME, Front, Stop, Terminal};
use crate::level::Level;
use crate::level::marker::PLAYER;
use crate::named::named_enum;
use crate::replay::{Spawns, Start};
use crate::shown::shown;
use crate::signals::Signals;
use crate::sim::{
    Avoidance, FLOCK_RADIUS, FlockFigures, FlockPreset, Rules, Settings, World, WorldError, describe_flock,
};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Paragraph, Widget};
use std::io;
use std::time::{Duration, Instant};

/// The crowd spawned beside the level's own creatures: enough monsters
/// and wanderers that they meet in the first seconds (the shipped arena
/// brings its two flocks of boids).
pub const CROWD: Spawns = Spawns { monster: 12, wanderer: 24, fleeing: 0, boid: 0 };

named_enum! {
    /// What the two panes of the steering page compare: one setting, the
    /// rest the game's defaults on both sides.
    #[derive(Default)]
    SteerCompare, "steering comparison" {
        /// Separation (left) against ORCA (right): how monsters and
        /// wanderers keep apart.
        #[default]
        Avoidance => "avoidance",
        /// The default flocking weights against cohesion 0: flocks that
        /// drift apart.
        NoCohesion => "no-cohesion",
        /// The default against separation alone: boids that only push
        /// apart, a gas rather than a flock.
        SeparationOnly => "separation-only",
        /// The default against alignment 4: flocks that turn as one.
        StrongAlignment => "strong-alignment",
    }
}

impl SteerCompare {
    /// The settings of each pane, left then right.
    pub fn sides(self) -> [Settings; 2] {
        let d = Settings::DEFAULT;
        let flock = |preset: FlockPreset| Settings { flock: preset.weights(), ..d };
        match self {
            SteerCompare::Avoidance => {
                [Avoidance::Separation, Avoidance::Orca].map(|avoidance| Settings { avoidance, ..d })
            }
            SteerCompare::NoCohesion => [d, flock(FlockPreset::NoCohesion)],
            SteerCompare::SeparationOnly => [d, flock(FlockPreset::SeparationOnly)],
            SteerCompare::StrongAlignment => [d, flock(FlockPreset::StrongAlignment)],
        }
    }

    /// A pane's title: the setting compared, as it is under `settings`.
    fn title(self, settings: &Settings) -> String {
        match self {
            SteerCompare::Avoidance => settings.avoidance.to_string(),
            _ => format!("flock {}", describe_flock(&settings.flock)),
        }
    }
}

/// One side: its title and its world.
#[derive(Debug)]
pub struct Side {
    pub title: String,
    pub world: World,
}

/// Two worlds of the same crowd, stepped together.
#[derive(Debug)]
pub struct SteerLab {
    pub compare: SteerCompare,
    pub sides: [Side; 2],
    pub running: bool,
    pub quit: bool,
    /// What the worlds start from, to start again under another
    /// comparison.
    level: Level,
    seed: u64,
}

impl SteerLab {
    /// The two worlds of `compare` on `level`, seed `seed`, with
    /// [`CROWD`] spawned.
    pub fn new(level: &Level, seed: u64, compare: SteerCompare) -> Result<SteerLab, WorldError> {
        let [left, right] = Self::sides(level, seed, compare)?;
        Ok(SteerLab { compare, sides: [left, right], running: false, quit: false, level: level.clone(), seed })
    }

    fn sides(level: &Level, seed: u64, compare: SteerCompare) -> Result<[Side; 2], WorldError> {
        let side = |settings: Settings| {
            let start =
                Start { level: level.clone(), seed, settings, spawns: CROWD, rules: Rules::SANDBOX, generator: None };
            Ok(Side { title: compare.title(&settings), world: start.world()? })
        };
        let [left, right] = compare.sides();
        Ok([side(left)?, side(right)?])
    }

    /// One tick of both worlds.
    pub fn step(&mut self) {
        for side in &mut self.sides {
            side.world.tick();
        }
    }

    /// Both worlds again from their first tick, comparing `compare`
    /// (paused). The level and seed made worlds once, so they make them
    /// again.
    pub fn compare(&mut self, compare: SteerCompare) {
        if let Ok(sides) = Self::sides(&self.level, self.seed, compare) {
            (self.compare, self.sides, self.running) = (compare, sides, false);
        }
    }

    /// Acts on a key: `.` one tick, Space run or pause, `c` the next
    /// comparison (from the first tick), `q` or Esc quits.
    pub fn key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Char('.') => {
                self.running = false;
                self.step();
            }
            KeyCode::Char(' ') => self.running = !self.running,
            KeyCode::Char('c') => self.compare(self.compare.next()),
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
    let text = format!(
        "{}: tick {} {state}, comparing {} | . one tick  space run/pause  c next comparison  q quit",
        shown(world.name()),
        world.ticks(),
        lab.compare
    );
    frame.render_widget(Paragraph::new(text), status);
}

/// One side: its map with the creatures, its figures below.
fn pane(buf: &mut Buffer, area: Rect, side: &Side, palette: &Palette) {
    let block = Block::bordered().title(format!(" {} ", side.title));
    let inner = block.inner(area);
    block.render(area, buf);
    let [map_area, figures] = Layout::vertical([Constraint::Min(0), Constraint::Length(3)]).areas(inner);
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
        flock_line(&FlockFigures::of(creatures)),
    ];
    Paragraph::new(lines.join("\n")).render(figures, buf);
}

/// The flock figures as a pane's third line.
fn flock_line(f: &FlockFigures) -> String {
    format!(
        "boids {}: {:.1} within {FLOCK_RADIUS} each, {} alone, aligned {:.2}",
        f.boids, f.mean_neighbours, f.alone, f.alignment
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Kind;
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
        let mut lab = SteerLab::new(&arena(), 3, SteerCompare::Avoidance).unwrap();
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
        let mut again = SteerLab::new(&arena(), 3, SteerCompare::Avoidance).unwrap();
        for _ in 0..300 {
            again.step();
        }
        for (x, y) in lab.sides.iter().zip(&again.sides) {
            assert_eq!(x.world.hash(), y.world.hash(), "deterministic");
        }
    }

    /// A weights comparison: the panes' settings differ in the flocking
    /// weights alone, the worlds share their seed and their crowd, and
    /// they part as the boids flock; the figures show what each urge
    /// does, measured over the ticks from the 100th to the 400th.
    #[test]
    fn a_weights_pair_differs_only_by_the_weights() {
        let positions = |s: &Side| s.world.creatures().iter().map(|c| (c.kind, c.body.pos)).collect::<Vec<_>>();
        let mut means = Vec::new();
        for compare in [SteerCompare::NoCohesion, SteerCompare::SeparationOnly, SteerCompare::StrongAlignment] {
            let mut lab = SteerLab::new(&arena(), 3, compare).unwrap();
            let [a, b] = lab.sides.each_ref().map(|s| *s.world.settings());
            assert_eq!(a, Settings::DEFAULT, "{compare}: the default on the left");
            assert_ne!(a.flock, b.flock, "{compare}");
            assert_eq!(Settings { flock: a.flock, ..b }, a, "{compare}: only the weights differ");
            assert_eq!(lab.sides[0].world.seed(), lab.sides[1].world.seed());
            assert_eq!(positions(&lab.sides[0]), positions(&lab.sides[1]), "{compare}: the same crowd");
            assert_eq!(lab.sides[1].title, format!("flock {}", describe_flock(&b.flock)));
            let mut sums = [FlockFigures::default(); 2];
            for t in 0..400 {
                lab.step();
                if t >= 100 {
                    for (sum, side) in sums.iter_mut().zip(&lab.sides) {
                        let f = FlockFigures::of(side.world.creatures());
                        sum.mean_neighbours += f.mean_neighbours / 300.0;
                        sum.alignment += f.alignment / 300.0;
                    }
                }
            }
            let boids = |s: &Side| positions(s).into_iter().filter(|(k, _)| *k == Kind::Boid).collect::<Vec<_>>();
            assert_ne!(boids(&lab.sides[0]), boids(&lab.sides[1]), "{compare}: the boids part");
            means.push((compare, sums));
        }
        let [(_, loose), (_, gas), (_, aligned)] = &means[..] else { unreachable!() };
        assert!(loose[1].mean_neighbours < loose[0].mean_neighbours, "no cohesion gathers fewer: {loose:?}");
        assert!(gas[1].alignment < gas[0].alignment, "no alignment, headings agree less: {gas:?}");
        assert!(aligned[1].alignment > aligned[0].alignment, "strong alignment agrees more: {aligned:?}");
    }

    /// `c` cycles the comparisons, each from the first tick, paused.
    #[test]
    fn c_compares_the_next_pair_from_the_first_tick() {
        let mut lab = SteerLab::new(&arena(), 1, SteerCompare::Avoidance).unwrap();
        lab.key(KeyCode::Char(' '));
        lab.step();
        lab.key(KeyCode::Char('c'));
        assert_eq!((lab.compare, lab.running), (SteerCompare::NoCohesion, false));
        assert_eq!(lab.sides.each_ref().map(|s| s.world.ticks()), [0, 0]);
        assert_eq!(lab.sides[1].world.settings().flock, FlockPreset::NoCohesion.weights());
        for _ in 1..SteerCompare::ALL.len() {
            lab.key(KeyCode::Char('c'));
        }
        assert_eq!(lab.compare, SteerCompare::Avoidance);
        assert_eq!(lab.sides.each_ref().map(|s| s.title.as_str()), ["separation", "orca"]);
    }

    #[test]
    fn keys_step_run_and_quit() {
        let mut lab = SteerLab::new(&arena(), 1, SteerCompare::Avoidance).unwrap();
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
        let mut lab = SteerLab::new(&arena(), 3, SteerCompare::Avoidance).unwrap();
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

    /// The page comparing flocking weights: both titles name their
    /// weights, the figures below each pane.
    #[test]
    fn the_steering_page_comparing_weights() {
        let mut lab = SteerLab::new(&arena(), 3, SteerCompare::StrongAlignment).unwrap();
        for _ in 0..60 {
            lab.step();
        }
        let mut terminal = Terminal::new(TestBackend::new(140, 30)).unwrap();
        terminal.draw(|frame| draw(frame, &lab, &Palette::NAMED)).unwrap();
        let text = crate::ui::testing::lines(terminal.backend().buffer()).join("\n");
        assert!(text.contains(" flock default (s 6 a 1 c 0.3) "), "{text}");
        assert!(text.contains(" flock strong-alignment (s 6 a 4 c 0.3) "), "{text}");
        assert!(text.contains("comparing strong-alignment"), "{text}");
        insta::assert_snapshot!("steer_page_weights", text);
    }
}
