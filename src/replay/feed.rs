//! Where a session's commands come from and where they go: the seam that
//! recording and replay plug into, so that the terminal loop and the
//! headless runner drive the world the same way without knowing about
//! files.

use super::{CommandDigest, RecordError, Recorder, Replay, Start};
use crate::sim::{Bot, Command, World};
use std::io;
use std::path::{Path, PathBuf};

/// A source of scheduled commands and a sink for what the world saw.
///
/// The loop calls, for every tick it runs: [`due`](Feed::due) with the
/// tick count the world is at, [`applied`](Feed::applied) for each command
/// it then applies (the feed's own and the keys'), the world's tick, then
/// [`ticked`](Feed::ticked). Key commands are applied between ticks too,
/// each passed to `applied` with the same stamp: `world.ticks()` before the
/// next tick runs. An error from the feed ends the session and is shown.
pub trait Feed {
    /// Commands due before the world's next tick, which will take it from
    /// `tick` to `tick + 1` (a replay file); live play adds none.
    fn due(&mut self, _tick: u64, _out: &mut Vec<Command>) {}

    /// False in replay: keys that move the player or change settings are
    /// ignored; UI-only keys (pause, single tick, speed, overlay, Tab, help,
    /// quit) still work.
    fn live(&self) -> bool;

    /// Every command applied to the world, with the tick it was applied at
    /// (`world.ticks()` before the next tick runs), just before it is
    /// applied: for recording.
    fn applied(&mut self, _tick: u64, _command: &Command) -> io::Result<()> {
        Ok(())
    }

    /// After every world tick: for checkpoints.
    fn ticked(&mut self, _world: &World) -> io::Result<()> {
        Ok(())
    }

    /// The tick the session ends at, if the feed knows (a replay does):
    /// the world is not ticked past it.
    fn end(&self) -> Option<u64> {
        None
    }

    /// A world at the first tick, and the feed back at its start: how a
    /// replay seeks back (the world being deterministic, playing on from
    /// there without drawing reaches any tick; the loop does that in
    /// slices, calling [`due`](Feed::due) and [`applied`](Feed::applied)
    /// as ever but not [`ticked`](Feed::ticked), which a replay has no use
    /// for). `None` for a feed that cannot seek (live play).
    fn restart(&mut self) -> Option<World> {
        None
    }

    /// True for a replay of an interrupted recording, whose end is only
    /// where it stopped.
    fn incomplete(&self) -> bool {
        false
    }

    /// When the session ends, however it ends: a recording is completed.
    fn finish(&mut self, _world: &World) -> io::Result<()> {
        Ok(())
    }

    /// Instead of [`finish`](Feed::finish), when a signal stopped the
    /// session: a recording is kept as an interrupted one, verifiable up to
    /// its last checkpoint. Returns where it is, if there is one.
    fn interrupt(&mut self) -> io::Result<Option<PathBuf>> {
        Ok(None)
    }
}

/// Applies one command between ticks, telling the feed first so that a
/// recording never misses a command the world saw.
pub fn apply(world: &mut World, feed: &mut dyn Feed, command: Command) -> io::Result<()> {
    feed.applied(world.ticks(), &command)?;
    world.apply(command);
    Ok(())
}

/// Runs one tick: the commands the feed has due, the tick, the report. A
/// won or lost world has stopped: nothing is due, ticked or reported (so a
/// loop that goes on ticking writes no second checkpoint for its last tick).
pub fn tick(world: &mut World, feed: &mut dyn Feed) -> io::Result<()> {
    if before_tick(world, feed)? {
        world.tick();
        feed.ticked(world)?;
    }
    Ok(())
}

/// The first half of [`tick`], for a loop that runs the tick itself
/// (elsewhere) and then reports it with [`Feed::ticked`]: applies the
/// commands the feed has due. False when the world is won or lost, and
/// has no tick to run.
pub fn before_tick(world: &mut World, feed: &mut dyn Feed) -> io::Result<bool> {
    if world.outcome().is_over() {
        return Ok(false);
    }
    let mut due = Vec::new();
    feed.due(world.ticks(), &mut due);
    for command in due {
        apply(world, feed, command)?;
    }
    Ok(true)
}

/// Runs one tick of a headless session: the scripted player's command for
/// it, if any, then the tick.
pub fn bot_tick(world: &mut World, feed: &mut dyn Feed, bot: &mut Bot) -> io::Result<()> {
    if let Some(c) = bot.command(world) {
        apply(world, feed, c)?;
    }
    tick(world, feed)
}

/// Live play: keys drive the world and nothing is kept.
#[derive(Clone, Copy, Debug, Default)]
pub struct LiveFeed;

impl Feed for LiveFeed {
    fn live(&self) -> bool {
        true
    }
}

/// The feed of a live session: recorded to `record` when given (refusing
/// an existing file unless `force`), otherwise kept nowhere.
pub fn live(record: Option<&Path>, start: &Start, force: bool) -> Result<Box<dyn Feed>, RecordError> {
    Ok(match record {
        Some(path) => Box::new(RecordFeed::new(Recorder::create(path, start, force)?)),
        None => Box::new(LiveFeed),
    })
}

/// Live play, recorded: every command and checkpoint goes to a replay file.
#[derive(Debug)]
pub struct RecordFeed {
    /// `None` once finished.
    recorder: Option<Recorder>,
}

impl RecordFeed {
    /// A feed writing to `recorder`.
    pub fn new(recorder: Recorder) -> RecordFeed {
        RecordFeed { recorder: Some(recorder) }
    }
}

impl Feed for RecordFeed {
    fn live(&self) -> bool {
        true
    }

    fn applied(&mut self, tick: u64, command: &Command) -> io::Result<()> {
        match &mut self.recorder {
            Some(r) => r.command(tick, command).map_err(io::Error::other),
            None => Ok(()),
        }
    }

    fn ticked(&mut self, world: &World) -> io::Result<()> {
        match &mut self.recorder {
            Some(r) => r.ticked(world).map_err(io::Error::other),
            None => Ok(()),
        }
    }

    fn finish(&mut self, world: &World) -> io::Result<()> {
        match self.recorder.take() {
            Some(r) => r.finish(world).map_err(io::Error::other),
            None => Ok(()),
        }
    }

    fn interrupt(&mut self) -> io::Result<Option<PathBuf>> {
        self.recorder.take().map(|r| r.interrupt().map_err(io::Error::other)).transpose()
    }
}

/// A recorded session played back: its commands at their ticks, player
/// keys ignored, and no ticks past the recording's end.
#[derive(Debug)]
pub struct ReplayFeed<'a> {
    replay: &'a Replay,
    /// The digest of the commands applied so far, as the recorder kept it.
    applied: CommandDigest,
}

impl<'a> ReplayFeed<'a> {
    /// A feed playing `replay` from its first tick.
    pub fn new(replay: &'a Replay) -> ReplayFeed<'a> {
        ReplayFeed { replay, applied: CommandDigest::default() }
    }

    /// The digest of every command applied through this feed, to compare
    /// with a checkpoint's.
    pub fn commands(&self) -> u64 {
        self.applied.value()
    }
}

impl Feed for ReplayFeed<'_> {
    fn due(&mut self, tick: u64, out: &mut Vec<Command>) {
        out.extend_from_slice(self.replay.commands_due(tick));
    }

    fn live(&self) -> bool {
        false
    }

    fn applied(&mut self, tick: u64, command: &Command) -> io::Result<()> {
        self.applied.add(tick, *command);
        Ok(())
    }

    fn end(&self) -> Option<u64> {
        self.replay.last_tick()
    }

    fn incomplete(&self) -> bool {
        self.replay.end().is_none()
    }

    fn restart(&mut self) -> Option<World> {
        self.applied = CommandDigest::default();
        Some(self.replay.world())
    }
}

/// A recording of `ticks` ticks of the scripted player with `seed` on the
/// default level, made to `path`; and the hash it ends with.
#[cfg(test)]
pub(crate) fn bot_recording(path: &Path, seed: u64, ticks: u64) -> (Replay, u64) {
    let start = Start {
        level: crate::level::Level::embedded_default(),
        seed,
        settings: Default::default(),
        spawns: Default::default(),
        rules: Default::default(),
    };
    let mut live = RecordFeed::new(Recorder::create(path, &start, false).unwrap());
    let mut w = start.world().unwrap();
    let mut bot = Bot::new(seed);
    for _ in 0..ticks {
        bot_tick(&mut w, &mut live, &mut bot).unwrap();
    }
    live.finish(&w).unwrap();
    (Replay::load(path).unwrap(), w.hash())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::sim::Settings;

    /// A replay-like feed: scheduled commands in, everything seen logged.
    #[derive(Default)]
    struct Script {
        schedule: Vec<(u64, Command)>,
        log: Vec<String>,
    }

    impl Feed for Script {
        fn due(&mut self, tick: u64, out: &mut Vec<Command>) {
            out.extend(self.schedule.iter().filter(|(t, _)| *t == tick).map(|(_, c)| *c));
        }

        fn live(&self) -> bool {
            false
        }

        fn applied(&mut self, tick: u64, command: &Command) -> io::Result<()> {
            self.log.push(format!("{tick}: {}", serde_json::to_string(command).unwrap()));
            Ok(())
        }

        fn ticked(&mut self, world: &World) -> io::Result<()> {
            self.log.push(format!("ticked {}", world.ticks()));
            Ok(())
        }
    }

    fn world() -> World {
        World::new(&Level::embedded_default(), 1, Settings::default()).unwrap()
    }

    #[test]
    fn commands_are_stamped_with_the_tick_they_precede() {
        let mut w = world();
        let mut feed =
            Script { schedule: vec![(1, Command::Door), (1, Command::Move { dx: 1, dy: 0 })], ..Script::default() };
        tick(&mut w, &mut feed).unwrap();
        apply(&mut w, &mut feed, Command::Move { dx: 0, dy: 1 }).unwrap();
        tick(&mut w, &mut feed).unwrap();
        assert_eq!(
            feed.log,
            [
                "ticked 1",
                r#"1: {"cmd":"move","dx":0,"dy":1}"#,
                r#"1: {"cmd":"door"}"#,
                r#"1: {"cmd":"move","dx":1,"dy":0}"#,
                "ticked 2",
            ]
        );
    }

    /// A lost world is over: nothing due is applied, and it is neither
    /// ticked nor reported, however long the loop goes on.
    #[test]
    fn an_ended_world_is_not_ticked_or_reported() {
        let cage = Level::parse("#####\n#@.M#\n#####\n", "t").unwrap();
        let rules = crate::sim::Rules { goal: crate::sim::Goal::None, lives: Some(1) };
        let mut w = World::with_rules(&cage, 1, Settings::default(), rules).unwrap();
        let mut feed = Script::default();
        while !w.outcome().is_over() {
            tick(&mut w, &mut feed).unwrap();
            assert!(w.ticks() < 200, "never caught");
        }
        let (end, log) = (w.ticks(), feed.log.len());
        feed.schedule.push((end, Command::Door));
        for _ in 0..(2 * crate::replay::CHECKPOINT_EVERY) {
            tick(&mut w, &mut feed).unwrap();
        }
        assert_eq!((w.ticks(), feed.log.len()), (end, log));
    }

    /// A replay restarts at its first tick with its digest of commands
    /// back at nothing; live play cannot.
    #[test]
    fn a_replay_restarts_from_its_first_tick() {
        let dir = tempfile::tempdir().unwrap();
        let (replay, _) = bot_recording(&dir.path().join("restart.jsonl"), 3, 100);
        let mut feed = ReplayFeed::new(&replay);
        let mut w = replay.world();
        while w.ticks() < 100 {
            tick(&mut w, &mut feed).unwrap();
        }
        assert_ne!(feed.commands(), CommandDigest::default().value(), "the bot moved");
        let again = feed.restart().unwrap();
        assert_eq!((again.ticks(), again.hash()), (0, replay.world().hash()));
        assert_eq!(feed.commands(), CommandDigest::default().value());
        assert!(LiveFeed.restart().is_none());
    }

    /// Replaying what a feed recorded gives the same world.
    #[test]
    fn a_recorded_session_replays_to_the_same_hash() {
        let mut live = world();
        let mut recorder = Script::default();
        for t in 0..40u64 {
            if t % 7 == 3 {
                apply(&mut live, &mut recorder, Command::Move { dx: 1, dy: 1 }).unwrap();
            }
            tick(&mut live, &mut recorder).unwrap();
        }
        let schedule = recorder
            .log
            .iter()
            .filter_map(|l| l.split_once(": "))
            .map(|(t, c)| (t.parse().unwrap(), serde_json::from_str(c).unwrap()))
            .collect();
        let mut replayed = world();
        let mut player = Script { schedule, ..Script::default() };
        for _ in 0..40 {
            tick(&mut replayed, &mut player).unwrap();
        }
        assert_eq!(replayed.player().cell, live.player().cell);
        assert_eq!(replayed.hash(), live.hash());
    }
}
