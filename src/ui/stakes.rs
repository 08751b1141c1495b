//! What rides on a session: what its end screen offers (retry, the next
//! level), what quitting it ends, and the run it is part of (the campaign,
//! a descent), summed up level by level once the run is over.

use crate::sim::{Outcome, World};

/// What a session is part of and what its end screen offers. The default
/// is one level on its own: retried at will, nothing after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Stakes {
    /// What `>` (or Enter) goes on to once the level is won ("maze, level
    /// 2 of 6", "depth 4"); `None` when nothing follows it.
    pub next: Option<String>,
    /// Whether `r` plays the level again (not in a descent: a loss there
    /// is final, and a won depth leads down).
    pub retry: bool,
    /// A loss ends the run for good (the descent): the summary shows then,
    /// and the quit question says that quitting ends the run too.
    pub permadeath: bool,
    /// The run so far, summed up on the end screen of the session that
    /// ends it: the last level won, or (with `permadeath`) any loss.
    pub run: Option<Run>,
    /// What `q` does on the end screen: "quit", "back to the title".
    pub leave: &'static str,
}

impl Default for Stakes {
    fn default() -> Stakes {
        Stakes { next: None, retry: true, permadeath: false, run: None, leave: "quit" }
    }
}

impl Stakes {
    /// Whether `world`, won or lost, ends the run: its end screen shows the
    /// run's summary.
    pub fn ends_run(&self, world: &World) -> bool {
        self.run.is_some()
            && match world.outcome() {
                Outcome::Won => self.next.is_none(),
                Outcome::Lost => self.permadeath,
                Outcome::Running => false,
            }
    }
}

/// A run of levels as its summary shows it: the levels finished before
/// this session's, and this level's earlier tries.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// What the run is: "The campaign", "Descent 4821".
    pub title: String,
    /// What its levels are called: "level", "depth".
    pub unit: &'static str,
    /// The levels before this one, in order.
    pub legs: Vec<Leg>,
    /// This level so far: its tries before this session.
    pub current: Leg,
}

impl Run {
    /// Every level of the run, this one with the try `world` plays.
    pub fn with(&self, world: &World) -> Vec<Leg> {
        let mut legs = self.legs.clone();
        legs.push(self.current.with_try(world));
        legs
    }
}

/// One level of a run, every try at it added up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    /// The level's name.
    pub name: String,
    /// The session seed it was played with.
    pub seed: u64,
    /// Game time over every try, in ticks.
    pub ticks: u64,
    /// Catches over every try.
    pub catches: u64,
    /// Sessions played on it.
    pub tries: u32,
    /// Whether the last try won it.
    pub won: bool,
}

impl Leg {
    /// A level not tried yet.
    pub fn new(name: &str, seed: u64) -> Leg {
        Leg { name: name.to_string(), seed, ticks: 0, catches: 0, tries: 0, won: false }
    }

    /// This level with one more try: the session `world` played (as far
    /// as it went).
    pub fn with_try(&self, world: &World) -> Leg {
        Leg {
            ticks: self.ticks + world.ended_at().unwrap_or_else(|| world.ticks()),
            catches: self.catches + world.stats().total.catches,
            tries: self.tries + 1,
            won: world.outcome() == Outcome::Won,
            ..self.clone()
        }
    }
}

/// The totals of a run: game time in ticks and catches.
pub fn totals(legs: &[Leg]) -> (u64, u64) {
    legs.iter().fold((0, 0), |(t, c), leg| (t + leg.ticks, c + leg.catches))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::testing::game_until_end;

    const TRAP: &str = "name: trap\nlives: 1\n#######\n#@.M.G#\n#######\n";

    #[test]
    fn a_leg_adds_up_its_tries() {
        let lost = game_until_end(TRAP, 2000);
        assert_eq!(lost.outcome(), Outcome::Lost);
        let once = Leg::new("trap", 1).with_try(&lost);
        assert_eq!((once.tries, once.catches, once.won), (1, 1, false));
        assert_eq!(once.ticks, lost.ended_at().unwrap());
        let twice = once.with_try(&lost);
        assert_eq!((twice.tries, twice.catches, twice.ticks), (2, 2, 2 * once.ticks));
        assert_eq!(totals(&[once.clone(), twice]), (3 * once.ticks, 3));
    }

    #[test]
    fn the_summary_shows_when_the_run_ends() {
        let lost = game_until_end(TRAP, 2000);
        let run = Run { title: "The campaign".into(), unit: "level", legs: Vec::new(), current: Leg::new("trap", 1) };
        let campaign = Stakes { next: Some("maze".into()), run: Some(run.clone()), ..Stakes::default() };
        assert!(!campaign.ends_run(&lost), "a campaign's loss is retried");
        let descent = Stakes { permadeath: true, retry: false, ..campaign.clone() };
        assert!(descent.ends_run(&lost), "a descent's loss is final");
        assert!(!Stakes::default().ends_run(&lost), "one level has no run to sum up");
        let won = crate::ui::testing::game_won();
        assert!(!campaign.ends_run(&won), "a level follows");
        assert!(Stakes { next: None, ..campaign }.ends_run(&won), "the last level won");
    }
}
