//! What a run plays, level after level, and the loop that plays it: one
//! level, the campaign or a descent, each session's start following from
//! how the one before ended (the lives left carry over; a lost campaign
//! level is tried again with the lives it began with; a lost depth ends
//! the descent).

use super::Said;
use super::recording::Recording;
use crate::cli::{CliError, SessionArgs};
use crate::r#gen::{MAX_DEPTH, Recipe};
use crate::level::Level;
use crate::replay::feed::Feed;
use crate::sim::Outcome;
use crate::ui::{self, Exit, Leg, Played, Run, Stakes};

/// What plays one session: the terminal, or a test's headless player.
pub trait Screen {
    /// Plays `session` until it is left (see [`ui::Sessions::play`]).
    fn play(&mut self, session: ui::Session) -> Played;
}

impl Screen for ui::Sessions {
    fn play(&mut self, session: ui::Session) -> Played {
        ui::Sessions::play(self, session)
    }
}

/// What a run plays.
pub enum Course {
    /// One level (a file, or generated with `--gen` from `generator`):
    /// retried at will, nothing after it.
    One { level: Box<Level>, generator: Option<Recipe> },
    /// The campaign's levels, in order.
    Campaign(Vec<Level>),
    /// The descent of `seed`: depth after depth generated from (seed,
    /// depth), a loss the end of it.
    Descent { seed: u64 },
}

/// How a run ended.
#[derive(Debug)]
pub struct Ended {
    /// Every level played, in order, every try added up (the last one
    /// perhaps not won).
    pub legs: Vec<Leg>,
    /// How its last session stood when it was left: won, lost, or running
    /// (quit mid-level, or left while a tick ran).
    pub outcome: Outcome,
    /// Whether that was the course's last level.
    pub last: bool,
}

impl Course {
    /// The level at `index` (from 0), and its recipe if generated.
    pub fn level(&self, index: usize) -> Result<(Level, Option<Recipe>), CliError> {
        Ok(match self {
            Course::One { level, generator } => ((**level).clone(), *generator),
            Course::Campaign(levels) => (levels[index].clone(), None),
            Course::Descent { seed } => {
                let recipe = Recipe::descent(*seed, index as u32 + 1).map_err(|e| CliError::Usage(e.to_string()))?;
                (recipe.generate(), Some(recipe))
            }
        })
    }

    /// How many levels it has.
    fn len(&self) -> usize {
        match self {
            Course::One { .. } => 1,
            Course::Campaign(levels) => levels.len(),
            Course::Descent { .. } => MAX_DEPTH as usize,
        }
    }

    /// What rides on the level at `index`, after `legs`, tried `current` so
    /// far; `leave` is what quitting its end screen does.
    fn stakes(&self, index: usize, legs: &[Leg], current: &Leg, leave: &'static str) -> Stakes {
        let more = index + 1 < self.len();
        let run = |title: String, unit| Some(Run { title, unit, legs: legs.to_vec(), current: current.clone() });
        match self {
            Course::One { .. } => Stakes { leave, ..Stakes::default() },
            Course::Campaign(levels) => Stakes {
                next: more
                    .then(|| format!("next level: {} ({} of {})", levels[index + 1].name, index + 2, levels.len())),
                run: run("The campaign".to_string(), "level"),
                leave,
                ..Stakes::default()
            },
            Course::Descent { seed } => Stakes {
                next: more.then(|| format!("down to depth {}", index + 2)),
                retry: false,
                permadeath: true,
                run: run(format!("Descent {seed}"), "depth"),
                leave,
            },
        }
    }

    /// Plays the course on `screen` until the player leaves it, a loss ends
    /// a descent, or a signal or a hangup stops it (an error, with what was
    /// recorded kept). `session` gives every session's options (its seed
    /// too); `leave` is what quitting an end screen does ("quit", "back to
    /// the title").
    pub fn run(
        &self,
        session: &SessionArgs,
        recording: &mut Recording,
        screen: &mut dyn Screen,
        said: &mut Said,
        leave: &'static str,
    ) -> Result<Ended, CliError> {
        let (mut index, mut lives) = (0, None);
        let mut legs: Vec<Leg> = Vec::new();
        let mut tried: Option<Leg> = None;
        loop {
            let (level, generator) = self.level(index)?;
            let (start, world) = session.start_on(level.clone(), generator, lives)?;
            let leg = tried.take().unwrap_or_else(|| Leg::new(&level.name, start.seed));
            let mut notes = vec![intro(&level)];
            let mut feed = recording.next(&start, &mut notes, said);
            let stakes = self.stakes(index, &legs, &leg, leave);
            let Played { exit, world } =
                screen.play(ui::Session { world, feed: feed.as_mut(), level: &level, stakes, notes });
            let exit = finish(feed.as_mut(), exit, world.as_ref(), said)?;
            let (leg, outcome) = match &world {
                Some(w) => (leg.with_try(w), w.outcome()),
                None => (leg, Outcome::Running),
            };
            match exit {
                Exit::Retry => tried = Some(leg),
                Exit::Next if index + 1 < self.len() => {
                    legs.push(leg);
                    // Won, so a life is left.
                    lives = world.as_ref().and_then(|w| w.lives());
                    index += 1;
                }
                Exit::Quit | Exit::Next | Exit::Stopped(_) => {
                    legs.push(leg);
                    return Ok(Ended { legs, outcome, last: index + 1 == self.len() });
                }
            }
        }
    }
}

/// Completes a session's recording however it ended, and gives its exit:
/// a signal or a hangup is an error naming what was kept.
fn finish(
    feed: &mut dyn Feed,
    exit: std::io::Result<Exit>,
    world: Option<&crate::sim::World>,
    said: &mut Said,
) -> Result<Exit, CliError> {
    match (exit, world) {
        (Ok(Exit::Stopped(stop)), _) => Err(CliError::stopped(stop, feed.interrupt()?)),
        // However else the session ended, what was played is kept.
        (exit, Some(world)) => {
            let finished = feed.finish(world);
            let exit = exit?;
            finished?;
            Ok(exit)
        }
        // Left while a tick ran: everything before it is kept, as an
        // interrupted recording.
        (exit, None) => {
            if let Some(kept) = feed.interrupt()? {
                let kept = kept.display();
                said.lines.push(format!(
                    "quit while a tick ran; the recording so far is in {kept} (`delve replay {kept} --verify` checks it)"
                ));
            }
            Ok(exit?)
        }
    }
}

/// The log's first line: the level and what it is about.
fn intro(level: &Level) -> String {
    if level.description.is_empty() { level.name.clone() } else { format!("{}: {}", level.name, level.description) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Replay, feed, verify};
    use crate::sim::{Bot, BotKind, World};
    use clap::Parser;

    #[derive(Parser)]
    struct Options {
        #[command(flatten)]
        session: SessionArgs,
    }

    fn options(args: &[&str]) -> SessionArgs {
        Options::parse_from(std::iter::once("delve").chain(args.iter().copied())).session
    }

    /// A session as the headless player saw it begin.
    #[derive(Debug)]
    struct Seen {
        level: String,
        lives: Option<u32>,
        stakes: Stakes,
        /// The lives left when it was left.
        left: Option<u32>,
    }

    /// Plays every session with the goal bot until it is won or lost (or
    /// 5,000 ticks pass), then leaves it as `leave` says.
    struct Headless {
        leave: fn(&World, &[Seen]) -> Exit,
        seen: Vec<Seen>,
    }

    impl Screen for Headless {
        fn play(&mut self, session: ui::Session) -> Played {
            let ui::Session { mut world, feed, level, stakes, .. } = session;
            self.seen.push(Seen { level: level.name.clone(), lives: world.lives(), stakes, left: None });
            let mut bot = Bot::of(BotKind::Goal, world.seed());
            while !world.outcome().is_over() && world.ticks() < 5_000 {
                feed::bot_tick(&mut world, feed, &mut bot).unwrap();
            }
            self.seen.last_mut().unwrap().left = world.lives();
            Played { exit: Ok((self.leave)(&world, &self.seen)), world: Some(world) }
        }
    }

    /// A corridor the goal bot crosses past a monster: caught once, won.
    fn corridor(name: &str) -> Level {
        Level::parse(&format!("name: {name}\n#########\n#@..M..G#\n#########\n"), name).unwrap()
    }

    /// Lives carry over from level to level; a lost level is tried again
    /// with the lives it began with, and never offers the next.
    #[test]
    fn the_campaign_carries_lives_and_retries_a_loss() {
        let course = Course::Campaign(vec![corridor("one"), corridor("two"), corridor("three")]);
        let leave = |w: &World, seen: &[Seen]| match w.outcome() {
            Outcome::Won => Exit::Next,
            _ if seen.iter().filter(|s| s.level == "three").count() < 2 => Exit::Retry,
            _ => Exit::Quit,
        };
        let mut screen = Headless { leave, seen: Vec::new() };
        let mut recording = Recording::new(None, false, None);
        let ended = course.run(&options(&[]), &mut recording, &mut screen, &mut Said::default(), "quit").unwrap();
        let lives: Vec<(&str, Option<u32>)> = screen.seen.iter().map(|s| (s.level.as_str(), s.lives)).collect();
        assert_eq!(lives, [("one", Some(3)), ("two", Some(2)), ("three", Some(1)), ("three", Some(1))]);
        assert_eq!(screen.seen[0].stakes.next.as_deref(), Some("next level: two (2 of 3)"));
        assert_eq!(screen.seen[2].stakes.next, None, "the last level");
        let run = screen.seen[3].stakes.run.as_ref().unwrap();
        assert_eq!((run.legs.len(), run.current.tries), (2, 1), "the retry knows the levels and the try before");
        assert!(screen.seen.iter().all(|s| s.stakes.retry && !s.stakes.permadeath));
        assert_eq!((ended.outcome, ended.last), (Outcome::Lost, true));
        let legs: Vec<(&str, u32, bool)> = ended.legs.iter().map(|l| (l.name.as_str(), l.tries, l.won)).collect();
        assert_eq!(legs, [("one", 1, true), ("two", 1, true), ("three", 2, false)]);
        assert_eq!(ended.legs.iter().map(|l| l.catches).sum::<u64>(), 4);
    }

    /// `--lives` gives the first level's lives; the carried ones win over it
    /// after that.
    #[test]
    fn lives_given_start_the_run_only() {
        let course = Course::Campaign(vec![corridor("one"), corridor("two")]);
        let leave = |w: &World, _: &[Seen]| if w.outcome() == Outcome::Won { Exit::Next } else { Exit::Quit };
        let mut screen = Headless { leave, seen: Vec::new() };
        let mut recording = Recording::new(None, false, None);
        course.run(&options(&["--lives", "5"]), &mut recording, &mut screen, &mut Said::default(), "quit").unwrap();
        let lives: Vec<Option<u32>> = screen.seen.iter().map(|s| s.lives).collect();
        assert_eq!(lives, [Some(5), Some(4)]);
    }

    /// A level's `lives:` caps the lives carried into it: three carried
    /// into a level of `lives: 1` are one there, and one carried on into a
    /// level of `lives: 2` stays one.
    #[test]
    fn a_levels_lives_cap_what_is_carried_into_it() {
        let tight = |name: &str, lives: u32| {
            let text = format!("name: {name}\nlives: {lives}\n#########\n#@.....G#\n#########\n");
            Level::parse(&text, name).unwrap()
        };
        let course = Course::Campaign(vec![corridor("one"), tight("two", 1), tight("three", 2)]);
        let leave = |w: &World, _: &[Seen]| if w.outcome() == Outcome::Won { Exit::Next } else { Exit::Quit };
        let mut screen = Headless { leave, seen: Vec::new() };
        let mut recording = Recording::new(None, false, None);
        course.run(&options(&[]), &mut recording, &mut screen, &mut Said::default(), "quit").unwrap();
        let lives: Vec<(&str, Option<u32>)> = screen.seen.iter().map(|s| (s.level.as_str(), s.lives)).collect();
        assert_eq!(lives, [("one", Some(3)), ("two", Some(1)), ("three", Some(1))]);
    }

    /// Depth after depth from the seed, lives carried, each depth recorded
    /// beside the first with its generator in the header (so that it
    /// verifies against the level made again); a loss ends it.
    #[test]
    fn a_descent_goes_down_until_a_loss_or_a_quit() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("descent.jsonl");
        let leave = |w: &World, seen: &[Seen]| match w.outcome() {
            Outcome::Won if seen.len() < 3 => Exit::Next,
            _ => Exit::Quit,
        };
        let mut screen = Headless { leave, seen: Vec::new() };
        let mut recording = Recording::new(Some(&file), false, None);
        let session = options(&["--seed", "2"]);
        let ended = Course::Descent { seed: 2 }
            .run(&session, &mut recording, &mut screen, &mut Said::default(), "back to the title")
            .unwrap();
        let names: Vec<&str> = screen.seen.iter().map(|s| s.level.as_str()).collect();
        assert_eq!(names[0], "mixed 2 (depth 1)", "{names:?}");
        for (n, seen) in screen.seen.iter().enumerate() {
            assert!(seen.stakes.permadeath && !seen.stakes.retry, "{n}");
            assert_eq!(seen.stakes.next, Some(format!("down to depth {}", n + 2)));
            assert_eq!(seen.stakes.run.as_ref().unwrap().legs.len(), n);
            let recorded = if n == 0 { file.clone() } else { dir.path().join(format!("descent-{}.jsonl", n + 1)) };
            let replay = Replay::load(&recorded).unwrap();
            assert_eq!(replay.start().generator, Some(Recipe::descent(2, n as u32 + 1).unwrap()));
            assert_eq!(replay.start().rules.lives, seen.lives);
            assert!(verify(&replay).is_match(), "{}", verify(&replay));
        }
        for pair in screen.seen.windows(2) {
            assert_eq!(pair[1].lives, pair[0].left, "the next depth begins with the lives the last was won with");
        }
        assert!(ended.legs.iter().rev().skip(1).all(|l| l.won));
        assert_eq!(ended.legs.len(), screen.seen.len());
        assert!(ended.outcome == Outcome::Lost || ended.legs.len() == 3, "{ended:?}");
    }
}
