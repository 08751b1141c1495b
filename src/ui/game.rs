//! The game and the replay viewer, as the terminal loop drives them:
//! input, ticks and frames, each at its own pace.
//!
//! Each pass turns the wall time since the last into ticks owed (at the
//! pace it passed in); keys are acted on as they arrive, each command
//! applied between two ticks and stamped with the tick count it precedes,
//! so this is the session a queue emptied before the next tick would give,
//! and the view answers at once even while paused.
//!
//! The world ticks on its [`Worker`]: one tick at a time, the loop taking
//! it back between two (to apply keys, report the tick to the feed and
//! draw). A tick that runs long (a planner building its navigation mesh
//! or HPA* abstraction on a large map the first time a monster searches
//! with it) holds the world, which does not advance meanwhile, but not the
//! loop: the last frame stays on screen with a popup saying what runs,
//! keys wait in order for the world to come back, and `q`, Esc, Ctrl-C and
//! signals end the session at once (the tick is abandoned; a recording
//! keeps everything before it, as an interrupted one). The log notes every
//! tick that ran that long.
//!
//! A replay seeks by playing on (or again from the start) without showing
//! each tick: in slices of [`SLICE`] on the worker, the screen showing the
//! world as it goes with a bar, `q` or Esc stopping it where it got to.

use super::app::{self, App, Exit, Mode};
use super::busy::{self, Busy, SeekBar};
use super::clock::{Clock, MAX_CATCH_UP};
use super::keys::{SEEK_TICKS, Seek};
use super::lab;
use super::log::game_time;
use super::map::Markers;
use super::overlay::Overlay;
use super::palette::Palette;
use super::run::Stop;
use super::run::{FRAME, Front, Terminal};
use super::screen;
use super::sight::Sight;
use super::stakes::Stakes;
use super::title::{Choice, Title, TitleFront};
use super::worker::Worker;
use crate::grid::Cell;
use crate::level::Level;
use crate::replay::feed::{self, Feed};
use crate::search::Planner;
use crate::shown::shown;
use crate::signals::Signals;
use crate::sim::{Command, Outcome, World};
use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind};
use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Longest run of a seek's ticks on the worker before the world comes
/// back: how soon `q` stops a seek.
pub const SLICE: Duration = FRAME;

/// Time between two frames of a seek (the world as it goes, and the bar):
/// fewer than the game's, as each costs the seek the ticks it would run
/// meanwhile.
const SEEK_FRAME: Duration = Duration::from_millis(250);

/// Most events kept while the world is busy; later ones are dropped.
const QUEUED: usize = 1024;

/// One session to play: its world, where its commands come from and go,
/// and what the screen needs besides.
pub struct Session<'a> {
    /// The world, changed only through the feed's and the keys' commands.
    pub world: World,
    /// Where commands come from (a replay) and go (a recording).
    pub feed: &'a mut dyn Feed,
    /// The level the world was made from: its `S` and `G` are drawn.
    pub level: &'a Level,
    /// What rides on it: what the end screen offers.
    pub stakes: Stakes,
    /// Lines the log opens with (the level's description, a recording
    /// that could not be made).
    pub notes: Vec<String>,
}

/// How a session ended (an error from the terminal or the feed ends it
/// too), and its world as it was then: `None` when the session ended while
/// a tick ran (the tick abandoned).
#[derive(Debug)]
pub struct Played {
    /// How it ended.
    pub exit: io::Result<Exit>,
    /// The world as the session left it, if it came home.
    pub world: Option<World>,
}

/// The terminal, playing one session after another. The view (overlay,
/// speed, field of view once chosen) carries over from one session to the
/// next.
pub struct Sessions {
    terminal: Terminal,
    palette: Palette,
    clock: Clock,
    overlay: Overlay,
    /// The field of view as the player last set it; until then each
    /// session starts with it on in a game with a goal, off in a sandbox.
    fov: Option<bool>,
    /// Whether live sessions play in turn mode (`--turns`, or `t`).
    turns: bool,
    /// Whether sessions capture the mouse (`--mouse`, or `M`).
    mouse: bool,
}

impl Sessions {
    /// Takes over the terminal (until this is dropped), playing at the
    /// listed speed nearest to `speed` (times real time).
    pub fn open(palette: Palette, speed: f64, signals: Signals) -> io::Result<Sessions> {
        let terminal = Terminal::open(palette, signals)?;
        let mut clock = Clock::default();
        clock.set_nearest_speed(speed);
        Ok(Sessions { terminal, palette, clock, overlay: Overlay::None, fov: None, turns: false, mouse: false })
    }

    /// Plays the live sessions from now on in turn mode, or in real time;
    /// `t` changes it during a session, and the choice carries over to the
    /// next one.
    pub fn set_turns(&mut self, turns: bool) {
        self.turns = turns;
    }

    /// Captures the mouse in the sessions (and the lab) from now on, or
    /// not; `M` changes it, and the choice carries over.
    pub fn set_mouse(&mut self, mouse: bool) {
        self.mouse = mouse;
    }

    /// Plays `session` until the player quits, retries or asks for the
    /// next level, or a signal or a hangup stops it ([`Exit::Stopped`]).
    pub fn play(&mut self, session: Session) -> Played {
        let Session { mut world, feed, level, stakes, notes } = session;
        let mut app = App::new(self.palette, feed.live());
        app.clock = self.clock.clone();
        if app.clock.paused() {
            app.clock.toggle_pause();
        }
        app.overlay = self.overlay;
        app.turns = self.turns && app.live;
        app.mouse = self.mouse;
        let fov_default = app::fov_by_default(&world);
        app.fov = self.fov.unwrap_or(fov_default);
        app.markers = Markers::of(level);
        app.stakes = stakes;
        app.about.clone_from(&level.description);
        for note in notes {
            app.log.note(world.ticks(), shown(&note).into_owned());
        }
        // Something to show in the search overlay soon; watching is
        // observation only.
        world.watch(app::nearest_monster(&world));
        let mut game = Game::new(app, world, feed, Some(&self.terminal));
        let stop = self.terminal.run(&mut game);
        let Game { mut view, world } = game;
        self.clock = view.app.clock.clone();
        self.overlay = view.app.overlay;
        self.mouse = view.app.mouse;
        if view.app.live {
            self.turns = view.app.turns;
        }
        if view.app.fov != fov_default || self.fov.is_some() {
            self.fov = Some(view.app.fov);
        }
        let exit = stop.map(|stop| match stop {
            Some(stop) => Exit::Stopped(stop),
            None => view.app.exit.take().unwrap_or(Exit::Quit),
        });
        Played { exit, world: world.into_state() }
    }
}

impl Sessions {
    /// Shows the title screen until the player chooses (or a signal or a
    /// hangup stops it: [`Choice::Stopped`]).
    pub fn title(&mut self, title: &mut Title) -> io::Result<Choice> {
        let mut front = TitleFront { title, palette: self.palette, choice: None, dirty: true, waiting: false };
        Ok(match self.terminal.run(&mut front)? {
            Some(stop) => Choice::Stopped(stop),
            None => front.choice.unwrap_or(Choice::Quit),
        })
    }

    /// Runs the search lab on `level` until the player quits it (`None`)
    /// or a signal or a hangup stops it (see [`lab`](super::lab)).
    pub fn lab(&mut self, level: Level, save_to: PathBuf, planners: &[Planner]) -> io::Result<Option<Stop>> {
        lab::lab_in(&mut self.terminal, level, save_to, planners, self.palette, self.mouse)
    }
}

/// Plays one session in a terminal of its own (a replay, a single level).
/// `mouse`: capture the mouse (`--mouse`).
pub fn play(session: Session, palette: Palette, speed: f64, mouse: bool, signals: Signals) -> io::Result<Played> {
    let mut sessions = Sessions::open(palette, speed, signals)?;
    sessions.set_mouse(mouse);
    Ok(sessions.play(session))
}

/// The session in the loop: its world on the worker, the rest here.
struct Game<'a> {
    view: View<'a>,
    world: Worker<World>,
}

/// Everything of a session but its world.
struct View<'a> {
    app: App,
    feed: &'a mut dyn Feed,
    /// The wall time of the last look at the clock.
    last: Instant,
    /// Ticks the clock owes, not run yet.
    owed: u32,
    /// Events read while the world was away, acted on once it is back.
    queued: VecDeque<Event>,
    /// What the world is away for.
    job: Option<Job>,
    seeking: Option<Seeking>,
    dirty: bool,
    drawn: Option<Instant>,
    /// The end screen was drawn with its keys not taken yet.
    waiting: bool,
    /// A feed's error, for the next [`Front::work`] to return.
    error: Option<io::Error>,
    /// In turn mode, an errand's step not shown yet: the next tick waits
    /// for a frame, so that a run or a travel is seen step by step.
    unshown_step: bool,
}

/// Why the world is on its worker.
enum Job {
    /// One tick, from `tick`, begun at `began`, with monsters planning as
    /// `planner` says, the player standing on `player`.
    Tick { tick: u64, began: Instant, planner: String, player: Cell },
    /// A slice of a seek from tick `from`, with the commands due in it
    /// (`(tick, command)`, applied up to where it got).
    Slice { from: u64, commands: Vec<(u64, Command)> },
}

/// A seek under way.
struct Seeking {
    target: u64,
    /// Where the ticks it plays started, for the bar.
    from: u64,
    /// Where it goes, as the bar says it.
    to: String,
    /// `q` or Esc: it stops where it got to once the world is back.
    stopped: bool,
    /// Ticks whose commands go with the next slice: grows while slices
    /// finish early, shrinks to what one slice manages.
    span: u64,
    /// The monster watched before, if the player picked it.
    watched: Option<usize>,
}

/// What a pass asks of the worker.
enum Next {
    /// Nothing yet: look again after this long (or on an event).
    Wait(Option<Duration>),
    /// This job, with what it does to the world.
    Start(Job, Box<dyn FnOnce(&mut World) + Send>),
}

impl<'a> Game<'a> {
    fn new(mut app: App, world: World, feed: &'a mut dyn Feed, terminal: Option<&Terminal>) -> Game<'a> {
        app.incomplete = feed.incomplete();
        app.sight.update(&world);
        app.log.take(&world);
        app.settle(&world);
        let view = View {
            app,
            feed,
            last: Instant::now(),
            owed: 0,
            queued: VecDeque::new(),
            job: None,
            seeking: None,
            dirty: true,
            drawn: None,
            waiting: false,
            error: None,
            unshown_step: false,
        };
        Game { view, world: Worker::new(move || world, terminal.map(Terminal::waker)) }
    }
}

impl Front for Game<'_> {
    fn event(&mut self, event: Event) {
        let shown = self.world.away().is_some_and(|d| d >= busy::SAY_AFTER);
        match self.world.get() {
            // Not before a job that came back is seen to (a tick reported
            // to the feed first: a key's command comes after its checkpoint).
            Some(world) if self.view.queued.is_empty() && self.view.job.is_none() => self.view.event(event, world),
            _ => self.view.away(event, shown),
        }
    }

    fn work(&mut self) -> io::Result<Option<Duration>> {
        if let Some(e) = self.view.error.take() {
            return Err(e);
        }
        let Game { view, world } = self;
        let Some(w) = world.get() else { return Ok(None) };
        match view.work(w)? {
            Next::Wait(d) => Ok(d),
            Next::Start(job, f) => {
                view.job = Some(job);
                world.start(f);
                Ok(None)
            }
        }
    }

    fn dirty(&self) -> bool {
        self.view.dirty && self.world.home().is_some()
    }

    /// Game time is ticks, owed for wall time in play: the time spent
    /// suspended is not owed, so the world goes on where it stopped.
    fn resumed(&mut self) {
        self.view.last = Instant::now();
    }

    fn mouse(&self) -> bool {
        self.view.app.mouse
    }

    fn draw(&mut self, frame: &mut Frame) {
        let Some(world) = self.world.home() else { return };
        let view = &mut self.view;
        if view.seeking.is_some() && view.app.fov {
            // What the player sees where the seek has got to (looked at
            // only when shown, the seek's ticks being many).
            view.app.sight.update(world);
        }
        screen::draw(frame, &view.app, world);
        if let Some(s) = &view.seeking {
            let span = s.target.saturating_sub(s.from).max(1);
            let done = world.ticks().saturating_sub(s.from) as f64 / span as f64;
            frame.render_widget(SeekBar { to: &s.to, done, palette: &view.app.palette }, frame.area());
        }
        view.dirty = false;
        view.unshown_step = false;
        view.drawn = Some(Instant::now());
    }

    fn busy(&self) -> Option<Busy> {
        let elapsed = self.world.away().filter(|d| *d >= busy::SAY_AFTER)?;
        let what = match &self.view.job {
            Some(Job::Tick { tick, planner, .. }) => format!("tick {tick}: the monsters plan with {planner}"),
            Some(Job::Slice { .. }) => match &self.view.seeking {
                Some(s) => format!("seeking {}: a tick runs long", s.to),
                None => "seeking".to_string(),
            },
            None => "starting".to_string(),
        };
        let stop = if self.view.app.live {
            "q, Esc or Ctrl-C quits without waiting (a recording keeps the ticks before)"
        } else {
            "q, Esc or Ctrl-C quits without waiting"
        };
        Some(Busy { what, elapsed, stop: stop.to_string() })
    }

    fn finished(&self) -> bool {
        self.view.app.exit.is_some()
    }
}

impl View<'_> {
    /// An event while the world is home.
    fn event(&mut self, event: Event, world: &mut World) {
        self.dirty = true;
        let command = match event {
            Event::Resize(w, h) => return self.app.resized(w, h, world),
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                if self.app.mode == Mode::Seeking {
                    return self.seek_key(key);
                }
                self.app.key(key, world)
            }
            Event::Mouse(mouse) => self.app.mouse(mouse, world),
            _ => return,
        };
        if let Some(command) = command {
            if let Err(e) = feed::apply(world, self.feed, command) {
                self.error = Some(e);
            }
            // A door or a setting shows at once, even while paused.
            self.app.sight.update(world);
            self.app.log.take(world);
        }
        if let Some(to) = self.app.seek.take() {
            self.start_seek(to, world);
        }
    }

    /// An event while the world is away: Ctrl-C quits; so do `q` and Esc
    /// once the popup says the world is busy; a seek reads its own keys;
    /// other events wait for the world, in order.
    fn away(&mut self, event: Event, shown: bool) {
        if let Event::Key(key) = event
            && key.kind != KeyEventKind::Release
        {
            let quit = matches!(key.code, KeyCode::Char('q') | KeyCode::Esc);
            if super::keys::is_interrupt(key) || (shown && quit) {
                self.app.exit = Some(Exit::Quit);
                return;
            }
            if self.app.mode == Mode::Seeking {
                return self.seek_key(key);
            }
        }
        if self.queued.len() < QUEUED {
            self.queued.push_back(event);
        }
    }

    /// A key during a seek: `q` or Esc stops it, Ctrl-C quits, the rest
    /// wait for its end... and are dropped, as the world they would act on
    /// is not the one on screen yet.
    fn seek_key(&mut self, key: KeyEvent) {
        if super::keys::is_interrupt(key) {
            self.app.exit = Some(Exit::Quit);
        } else if matches!(key.code, KeyCode::Char('q') | KeyCode::Esc)
            && let Some(s) = &mut self.seeking
        {
            s.stopped = true;
        }
    }

    /// A pass with the world home: what came back, what waited, then the
    /// next job.
    fn work(&mut self, world: &mut World) -> io::Result<Next> {
        match self.job.take() {
            Some(Job::Tick { tick, began, planner, player }) => {
                self.ticked(world, tick, began, &planner)?;
                self.unshown_step = self.app.turns && world.errand().is_some() && world.player().cell != player;
            }
            Some(Job::Slice { from, commands }) => self.sliced(world, from, &commands)?,
            None => {}
        }
        while let Some(event) = self.queued.pop_front() {
            self.event(event, world);
        }
        if self.app.exit.is_some() {
            return Ok(Next::Wait(None));
        }
        // A frame shows the world as it is before it goes again.
        let frame_due = self.dirty && self.drawn.is_none_or(|t| t.elapsed() >= self.frame_gap());
        if self.seeking.is_some() {
            return Ok(if frame_due { Next::Wait(Some(Duration::ZERO)) } else { self.slice(world) });
        }
        let now = Instant::now();
        let elapsed = now.duration_since(self.last);
        self.last = now;
        // Held time (help, a question, a tiny terminal, the end) is never
        // made up, as paused time is not. In turn mode the clock gives no
        // ticks: the world runs while the player's act lasts, as fast as it
        // goes, and waits for the player otherwise.
        if self.app.held() {
            self.owed = 0;
        } else if self.app.turns {
            self.owed = u32::from(!world.ready() && !self.app.clock.paused());
        } else {
            self.owed = (self.owed + self.app.clock.advance(elapsed) + self.app.clock.take_steps()).min(MAX_CATCH_UP);
        }
        let at_end = self.feed.end().is_some_and(|end| world.ticks() >= end);
        if self.owed == 0 || at_end || world.outcome() != Outcome::Running {
            self.owed = 0;
            // The end screen's keys show dimmed until they are taken: a
            // frame when they are.
            if let Some(left) = self.app.end_guard_left() {
                self.waiting = true;
                return Ok(Next::Wait(Some(left)));
            }
            if std::mem::take(&mut self.waiting) {
                self.dirty = true;
            }
            let clocked = !self.app.held() && !self.app.turns;
            let next = clocked.then(|| self.app.clock.until_next_tick()).flatten();
            return Ok(Next::Wait(next));
        }
        if frame_due {
            return Ok(Next::Wait(Some(Duration::ZERO)));
        }
        if self.unshown_step {
            let gap = self.drawn.map_or(Duration::ZERO, |t| self.frame_gap().saturating_sub(t.elapsed()));
            return Ok(Next::Wait(Some(gap)));
        }
        if !feed::before_tick(world, self.feed)? {
            return Ok(Next::Wait(None));
        }
        self.owed -= 1;
        let job = Job::Tick {
            tick: world.ticks(),
            began: Instant::now(),
            planner: world.settings().planner().to_string(),
            player: world.player().cell,
        };
        Ok(Next::Start(job, Box::new(World::tick)))
    }

    /// How long between two frames: a seek shows its bar less often than
    /// the game its ticks, the world playing on between.
    fn frame_gap(&self) -> Duration {
        if self.seeking.is_some() { SEEK_FRAME } else { FRAME }
    }

    /// A tick came back: reported, seen, logged.
    fn ticked(&mut self, world: &mut World, tick: u64, began: Instant, planner: &str) -> io::Result<()> {
        self.feed.ticked(world)?;
        self.app.sight.update(world);
        self.app.watch_the_hunt(world);
        self.app.log.take(world);
        let took = began.elapsed();
        if took >= busy::SAY_AFTER {
            let note = format!("tick {tick} took {:.1} s (the monsters plan with {planner})", took.as_secs_f64());
            self.app.log.note(world.ticks(), note);
        }
        self.app.recording_ends(world, self.feed.end());
        self.app.settle(world);
        self.dirty = true;
        Ok(())
    }

    /// Starts a seek from the world as it is: back means from the first
    /// tick again. Live play has nothing to seek in; a seek to where the
    /// world is does nothing.
    fn start_seek(&mut self, to: Seek, world: &mut World) {
        if self.app.live {
            return;
        }
        let now = world.ticks();
        let target = match to {
            Seek::Back => now.saturating_sub(SEEK_TICKS),
            Seek::Forward => now.saturating_add(SEEK_TICKS),
            Seek::Start => 0,
            Seek::End => u64::MAX,
        };
        let end = self.feed.end();
        let target = end.map_or(target, |end| target.min(end));
        if target == now || (target > now && world.outcome().is_over()) {
            return;
        }
        let watched = self.app.picked.then(|| world.watched()).flatten();
        if target < now {
            let Some(fresh) = self.feed.restart() else { return };
            *world = fresh;
        }
        let to = match to {
            Seek::End => format!("to the end ({})", game_time(target)),
            Seek::Start => "to the start".to_string(),
            Seek::Back | Seek::Forward => format!("to {}", game_time(target)),
        };
        self.seeking = Some(Seeking { target, from: world.ticks(), to, stopped: false, span: 64, watched });
        self.app.mode = Mode::Seeking;
        self.app.sight = Sight::default();
    }

    /// The next slice of the seek, or its end.
    fn slice(&mut self, world: &mut World) -> Next {
        let Some(s) = &self.seeking else { return Next::Wait(None) };
        let now = world.ticks();
        if s.stopped || now >= s.target || world.outcome().is_over() {
            self.end_seek(world);
            return Next::Wait(Some(Duration::ZERO));
        }
        let until = s.target.min(now.saturating_add(s.span));
        let mut commands = Vec::new();
        let mut due = Vec::new();
        for tick in now..until {
            self.feed.due(tick, &mut due);
            commands.extend(due.drain(..).map(|c| (tick, c)));
        }
        let job = Job::Slice { from: now, commands: commands.clone() };
        Next::Start(job, Box::new(move |w: &mut World| play_on(w, &commands, until, SLICE)))
    }

    /// A slice came back: the feed hears of the commands the world took,
    /// the next slice is sized to what this one managed.
    fn sliced(&mut self, world: &World, from: u64, commands: &[(u64, Command)]) -> io::Result<()> {
        let reached = world.ticks();
        for (tick, command) in commands.iter().take_while(|(t, _)| *t < reached) {
            self.feed.applied(*tick, command)?;
        }
        if let Some(s) = &mut self.seeking {
            let ran = reached.saturating_sub(from).max(1);
            s.span = if ran >= s.span { s.span * 2 } else { ran * 2 }.clamp(64, 1 << 20);
        }
        self.dirty = true;
        Ok(())
    }

    /// The seek is over (done, or stopped): the watched monster stays the
    /// one picked (or the nearest hunting one), what the player saw is
    /// seen again from here, the log notes where the world is, and the end
    /// of the recording will be announced again.
    fn end_seek(&mut self, world: &mut World) {
        let Some(s) = self.seeking.take() else { return };
        world.watch(if self.app.picked { s.watched } else { app::nearest_monster(world) });
        self.app.recording_ended = false;
        self.app.sight = Sight::default();
        self.app.sight.update(world);
        let stopped = s.stopped && world.ticks() < s.target;
        self.app.log.seeked(world, stopped);
        self.app.mode = Mode::Play;
        self.app.settle(world);
        self.app.recording_ends(world, self.feed.end());
        self.last = Instant::now();
        self.dirty = true;
    }
}

/// A seek's slice, on the worker: ticks towards `until`, with `commands`
/// (in order of their ticks) applied before the ticks they are due at,
/// until the world is won or lost or `budget` has passed.
fn play_on(world: &mut World, commands: &[(u64, Command)], until: u64, budget: Duration) {
    let began = Instant::now();
    let mut next = commands.iter().peekable();
    while world.ticks() < until && !world.outcome().is_over() {
        let tick = world.ticks();
        while let Some((_, command)) = next.next_if(|(t, _)| *t <= tick) {
            world.apply(*command);
        }
        world.tick();
        if began.elapsed() >= budget {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::Replay;
    use crate::replay::feed::{self, LiveFeed, RecordFeed, ReplayFeed};
    use crate::replay::{Recorder, Start};
    use crate::search::Heuristic;
    use crate::sim::Bot;
    use crate::sim::Settings;
    use ratatui::crossterm::event::{KeyEvent, KeyModifiers};

    const LONG: Duration = Duration::from_secs(60);

    fn press(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn key(c: char) -> Event {
        press(KeyCode::Char(c))
    }

    fn world() -> World {
        World::new(&Level::embedded_default(), 1, Settings::default()).unwrap()
    }

    /// The game on `world` and `feed` with the clock paused (so that only
    /// keys make it tick), its world home.
    fn game<'a>(world: World, feed: &'a mut dyn Feed) -> Game<'a> {
        let mut app = App::new(Palette::NAMED, feed.live());
        app.clock.toggle_pause();
        let mut game = Game::new(app, world, feed, None);
        assert!(game.world.wait(LONG));
        game
    }

    /// One pass of the loop: the work due, and a frame if one is wanted.
    fn pass(game: &mut Game) {
        game.work().unwrap();
        if game.dirty() {
            let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
            terminal.draw(|frame| game.draw(frame)).unwrap();
        }
    }

    /// Passes of the loop until two in a row find the world home with
    /// nothing under way, owed or to draw.
    fn settle(game: &mut Game) {
        let mut idle = 0;
        for _ in 0..1_000_000 {
            game.world.wait(LONG);
            pass(game);
            let v = &game.view;
            let quiet = v.job.is_none() && v.seeking.is_none() && v.owed == 0 && !v.dirty;
            idle = if quiet && game.world.home().is_some() { idle + 1 } else { 0 };
            if idle == 2 {
                return;
            }
        }
        panic!("the game never settled");
    }

    fn said(game: &Game) -> Vec<String> {
        game.view.app.log.entries().map(|e| e.text.clone()).collect()
    }

    fn ticks(game: &Game) -> u64 {
        game.world.home().expect("the world is home").ticks()
    }

    /// A recording of `ticks` ticks of the scripted player on the default
    /// level, seed 2, and the hash it ends with.
    fn recording(dir: &tempfile::TempDir, ticks: u64) -> (Replay, u64) {
        let path = dir.path().join("seek.jsonl");
        let start = Start {
            level: Level::embedded_default(),
            seed: 2,
            settings: Default::default(),
            spawns: Default::default(),
            rules: Default::default(),
            generator: None,
        };
        let mut live = RecordFeed::new(Recorder::create(&path, &start, false).unwrap());
        let (mut w, mut bot) = (start.world().unwrap(), Bot::new(2));
        for _ in 0..ticks {
            feed::bot_tick(&mut w, &mut live, &mut bot).unwrap();
        }
        live.finish(&w).unwrap();
        (Replay::load(&path).unwrap(), w.hash())
    }

    #[test]
    fn keys_change_the_world_at_once_when_live() {
        let mut feed = LiveFeed;
        let mut g = game(world(), &mut feed);
        g.event(key('E'));
        g.event(key('E'));
        // Two presses before any tick are two steps of the cycle, each in
        // the log at once.
        assert_eq!(g.world.home().unwrap().settings().search.heuristic, Heuristic::Zero);
        assert_eq!(said(&g), ["heuristic: chebyshev", "heuristic: zero"]);
        // `.` steps one tick, on the worker.
        g.event(key('.'));
        settle(&mut g);
        assert_eq!(ticks(&g), 1);
    }

    /// Suspended (Ctrl-Z) for ten seconds of wall time, the real-time
    /// game owes no ticks for them on resume: the world goes on where it
    /// stopped instead of jumping (without `resumed`, the catch-up would
    /// run at once).
    #[test]
    fn time_suspended_is_not_owed() {
        let mut feed = LiveFeed;
        let mut g = game(world(), &mut feed);
        g.event(key(' '));
        pass(&mut g);
        assert!(!g.view.dirty && g.view.job.is_none() && !g.view.app.clock.paused());
        let stopped = Instant::now().checked_sub(Duration::from_secs(10)).unwrap();
        g.view.last = stopped;
        g.resumed();
        g.work().unwrap();
        assert!(g.view.job.is_none() && g.view.owed == 0, "ticks owed for the time suspended");
        // What it would have owed: the catch-up, a tick under way at once.
        g.view.last = stopped;
        g.work().unwrap();
        assert!(g.view.job.is_some() && g.view.owed == MAX_CATCH_UP - 1);
    }

    /// The seek keys move a replay 10 s back and on, to its start and its
    /// end, keeping the pace and the picked monster; live play does not
    /// seek.
    #[test]
    fn seek_keys_move_a_replay_and_keep_the_view() {
        let dir = tempfile::tempdir().unwrap();
        let (replay, end_hash) = recording(&dir, 500);
        let mut feed = ReplayFeed::new(&replay);
        let mut g = game(replay.world(), &mut feed);
        g.event(press(KeyCode::Tab));
        let picked = g.world.home().unwrap().watched();
        g.event(key('+'));
        let pace = g.view.app.clock.speed_label();
        g.event(press(KeyCode::PageDown));
        assert_eq!(g.view.app.mode, Mode::Seeking);
        settle(&mut g);
        assert_eq!(ticks(&g), SEEK_TICKS);
        g.event(press(KeyCode::PageDown));
        settle(&mut g);
        g.event(press(KeyCode::PageUp));
        settle(&mut g);
        assert_eq!(ticks(&g), SEEK_TICKS);
        g.event(press(KeyCode::End));
        settle(&mut g);
        let w = g.world.home().unwrap();
        assert_eq!((w.ticks(), w.hash()), (500, end_hash));
        assert!(g.view.app.recording_ended && g.view.app.clock.paused(), "paused at the end");
        g.event(press(KeyCode::Home));
        settle(&mut g);
        let w = g.world.home().unwrap();
        assert_eq!((w.ticks(), w.hash()), (0, replay.world().hash()));
        assert!(!g.view.app.recording_ended, "the end will be announced again");
        assert_eq!((w.watched(), g.view.app.clock.speed_label()), (picked, pace));
        assert_eq!(g.view.app.mode, Mode::Play);
        assert_eq!(said(&g).last().map(String::as_str), Some("jumped to 00:00"), "{:?}", said(&g));
        // Live play has nothing to seek in.
        let mut live = LiveFeed;
        let mut g = game(world(), &mut live);
        g.event(key('.'));
        settle(&mut g);
        g.event(press(KeyCode::Home));
        settle(&mut g);
        assert_eq!((ticks(&g), g.view.app.mode), (1, Mode::Play));
    }

    /// Seeking in slices gives the world that playing straight on gives,
    /// commands and all (the feed's digest of them too).
    #[test]
    fn a_sliced_seek_gives_the_world_of_playing_straight_on() {
        let dir = tempfile::tempdir().unwrap();
        let (replay, _) = recording(&dir, 900);
        let straight = |t: u64| {
            let (mut w, mut feed) = (replay.world(), ReplayFeed::new(&replay));
            while w.ticks() < t {
                feed::tick(&mut w, &mut feed).unwrap();
            }
            (w.hash(), feed.commands())
        };
        let mut feed = ReplayFeed::new(&replay);
        let mut g = game(replay.world(), &mut feed);
        g.event(press(KeyCode::PageDown));
        settle(&mut g);
        g.event(press(KeyCode::PageDown));
        settle(&mut g);
        g.event(press(KeyCode::PageUp));
        settle(&mut g);
        let hash = g.world.home().unwrap().hash();
        drop(g);
        assert_eq!((hash, feed.commands()), straight(SEEK_TICKS));
    }

    /// After a won replay reaches its end screen, Home, PageUp and
    /// PageDown still seek.
    #[test]
    fn the_seek_keys_work_from_the_end_screen() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/replays/dungeon-won.jsonl");
        let replay = Replay::load(std::path::Path::new(path)).unwrap();
        let end = replay.last_tick().unwrap();
        let mut feed = ReplayFeed::new(&replay);
        let mut g = game(replay.world(), &mut feed);
        g.event(press(KeyCode::End));
        settle(&mut g);
        assert_eq!((ticks(&g), g.view.app.mode), (end, Mode::Ended));
        assert_eq!(g.world.home().unwrap().outcome(), Outcome::Won);
        g.event(press(KeyCode::PageUp));
        settle(&mut g);
        assert_eq!((ticks(&g), g.view.app.mode), (end - SEEK_TICKS, Mode::Play));
        g.event(press(KeyCode::PageDown));
        settle(&mut g);
        assert_eq!((ticks(&g), g.view.app.mode), (end, Mode::Ended));
        g.event(press(KeyCode::Home));
        settle(&mut g);
        assert_eq!((ticks(&g), g.view.app.mode), (0, Mode::Play));
    }

    /// `q` or Esc stops a seek where it got to, without quitting; Ctrl-C
    /// quits.
    #[test]
    fn q_stops_a_seek_where_it_got_to() {
        let dir = tempfile::tempdir().unwrap();
        let (replay, _) = recording(&dir, 3_000);
        let mut feed = ReplayFeed::new(&replay);
        let mut g = game(replay.world(), &mut feed);
        g.event(press(KeyCode::End));
        // A frame at the start, one slice, then q.
        pass(&mut g);
        pass(&mut g);
        assert!(g.world.away().is_some(), "the first slice runs");
        g.event(key('q'));
        settle(&mut g);
        let reached = ticks(&g);
        assert!(reached < 3_000, "the seek stopped short, at {reached}");
        assert_eq!((g.view.app.mode, g.view.app.exit), (Mode::Play, None));
        let stopped = format!("seek stopped at {}", game_time(reached));
        assert_eq!(said(&g).last(), Some(&stopped));
        g.event(press(KeyCode::End));
        g.event(Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)));
        assert_eq!(g.view.app.exit, Some(Exit::Quit));
    }

    #[test]
    fn replay_ignores_world_keys_but_not_view_keys() {
        /// Live play except that world keys are refused, as in replay.
        struct Replay;
        impl Feed for Replay {
            fn live(&self) -> bool {
                false
            }
            fn applied(&mut self, _tick: u64, command: &Command) -> io::Result<()> {
                panic!("replay applied a key's command: {command:?}")
            }
        }
        let mut feed = Replay;
        let mut g = game(world(), &mut feed);
        let before = g.world.home().unwrap().hash();
        for c in ['E', 'l', 'L', 'e', ']', 'R'] {
            g.event(key(c));
        }
        assert_eq!(g.world.home().unwrap().hash(), before);
        g.event(key(' '));
        assert!(!g.view.app.clock.paused());
        g.event(press(KeyCode::Tab));
        assert!(g.world.home().unwrap().watched().is_some());
        g.event(key('q'));
        assert_eq!(g.view.app.exit, Some(Exit::Quit));
    }

    /// A key read just as a tick comes back acts after the tick is reported
    /// (its checkpoint written): the recording verifies.
    #[test]
    fn a_key_after_a_tick_waits_for_its_checkpoint() {
        use crate::replay::{CHECKPOINT_EVERY, Recorder, Start, verify};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys.jsonl");
        let start = Start {
            level: Level::embedded_default(),
            seed: 5,
            settings: Settings::default(),
            spawns: Default::default(),
            rules: Default::default(),
            generator: None,
        };
        let mut feed = RecordFeed::new(Recorder::create(&path, &start, false).unwrap());
        let mut g = game(start.world().unwrap(), &mut feed);
        for _ in 1..CHECKPOINT_EVERY {
            g.event(key('.'));
            settle(&mut g);
        }
        // The checkpoint's tick: started, back, and a key before the loop
        // has seen to it.
        g.event(key('.'));
        while g.view.job.is_none() {
            pass(&mut g);
        }
        assert!(g.world.wait(LONG), "the tick is back, not seen to");
        g.event(key('E'));
        settle(&mut g);
        let world = g.world.into_state().unwrap();
        assert_eq!(world.ticks(), CHECKPOINT_EVERY);
        feed.finish(&world).unwrap();
        let verdict = verify(&Replay::load(&path).unwrap());
        assert!(verdict.is_match(), "{verdict}");
    }

    /// While a tick holds the world longer than a moment, the popup says
    /// so, keys wait for the world in order, and `q` quits without waiting
    /// for it (the world is left to the tick).
    #[test]
    fn a_long_tick_holds_the_world_but_not_the_keys() {
        let mut feed = LiveFeed;
        let mut g = game(world(), &mut feed);
        let (release, gate) = std::sync::mpsc::channel::<()>();
        // A tick that takes until released, as a planner's build would.
        g.view.job = Some(Job::Tick { tick: 0, began: Instant::now(), planner: "hpa".into(), player: Cell::default() });
        g.world.start(move |w: &mut World| {
            let _ = gate.recv();
            w.tick();
        });
        assert_eq!(g.busy(), None, "not said at once");
        assert!(!g.dirty(), "nothing to draw without the world");
        g.event(key('E'));
        g.event(key('q'));
        assert_eq!(g.view.app.exit, None, "q waits in line before the popup shows");
        std::thread::sleep(busy::SAY_AFTER);
        let busy = g.busy().expect("the popup shows");
        assert_eq!(busy.what, "tick 0: the monsters plan with hpa");
        assert!(busy.stop.starts_with("q, Esc or Ctrl-C quits without waiting"), "{}", busy.stop);
        // Back: the keys that waited act in order (E, then q asks).
        release.send(()).unwrap();
        settle(&mut g);
        assert_eq!(ticks(&g), 1);
        assert_eq!(g.world.home().unwrap().settings().search.heuristic, Heuristic::Chebyshev);
        assert_eq!(g.view.app.mode, Mode::Quitting);
        let long = said(&g).into_iter().find(|l| l.starts_with("tick 0 took "));
        assert!(long.is_some_and(|l| l.ends_with(" s (the monsters plan with hpa)")), "{:?}", said(&g));
        g.event(key('n'));
        // Held again, past the popup's delay: q quits at once.
        let (_release, gate) = std::sync::mpsc::channel::<()>();
        g.view.job = Some(Job::Tick { tick: 1, began: Instant::now(), planner: "hpa".into(), player: Cell::default() });
        g.world.start(move |_: &mut World| {
            let _ = gate.recv();
        });
        std::thread::sleep(busy::SAY_AFTER);
        g.event(key('q'));
        assert_eq!(g.view.app.exit, Some(Exit::Quit));
        assert!(g.finished());
        assert!(g.world.into_state().is_none(), "the world is left to its tick");
    }
}
