//! The title screen a bare `delve` opens, and what it starts: a new
//! descent (which ends on the high-score table), the campaign, the lab.

use super::course::{Course, Ended};
use super::recording::Recording;
use super::{PlayArgs, Said, campaign, needs_a_terminal};
use crate::cli::{CliError, SessionArgs};
use crate::level::{DEFAULT_LEVEL_NAME, Level};
use crate::scores::{End, Score, Table, today};
use crate::signals::{self, Signals};
use crate::sim::Outcome;
use crate::ui::{self, Choice, Title, totals};
use std::path::PathBuf;
use std::time::Instant;

/// The commands, which a bare `delve` given options takes for a level.
const COMMANDS: &[&str] = &["play", "path", "lab", "scen", "gen", "sim", "replay", "completions", "man", "help"];

/// The command `word` is most like, as clap finds one for a word it takes
/// for a command (a bare `delve` takes it for a level instead, so clap
/// says nothing): the likeliest of those over clap's threshold of 0.7.
fn similar_command(word: &str) -> Option<&'static str> {
    let scored = COMMANDS.iter().map(|&c| (strsim::jaro(word, c), c)).filter(|&(score, _)| score > 0.7);
    scored.max_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, c)| c)
}

/// Runs the title screen until the player quits it. `seed`, when given
/// (`delve --seed N`), is every new descent's seed; otherwise each gets a
/// fresh one, shown on the screen before it starts. The other options are
/// those of `delve play`, for every game the screen starts; a level or
/// `--gen` is refused (they are for `delve play`). A descent ends on the
/// high-score table ([`Table`]): a table that cannot be read is set aside
/// and said so, on the screen and on stderr at exit; a score that cannot
/// be written makes the exit status 2.
pub fn title(args: &PlayArgs, seed: Option<u64>) -> Result<(), CliError> {
    let session = &args.session;
    if let Some(level) = &session.level {
        let level = level.display().to_string();
        return Err(CliError::Usage(if COMMANDS.contains(&level.as_str()) {
            format!("'{level}' after an option: the command comes first (`delve {level} [OPTIONS]`)")
        } else if let Some(command) = similar_command(&level) {
            format!("unrecognized subcommand '{level}' (tip: a similar subcommand exists: '{command}')")
        } else {
            format!(
                "unrecognized command '{level}' (to play a level: `delve play {level}`; `delve --help` lists the commands)"
            )
        }));
    }
    if session.generated.style.is_some() {
        return Err(CliError::Usage(
            "--gen: a generated level is played with `delve play --gen STYLE` (the descent generates its own)".into(),
        ));
    }
    session.check_record()?;
    session.threads.install()?;
    let campaign = campaign::levels();
    // Options no level can take (too many creatures for it) are refused
    // before the terminal is taken, on the campaign's first level.
    session.start_on(campaign[0].clone(), None, None)?;
    needs_a_terminal("delve needs a terminal on stdout for its title screen (try `delve sim` for a headless run)")?;
    let signals = Signals::catch()?;
    if session.record.is_some() {
        signals::survive_file_size_limit()?;
    }
    let mut table = Table::open();
    let mut sessions = ui::Sessions::open(args.color.palette(), 1.0, signals)?;
    sessions.set_mouse(args.mouse);
    let mut said = Said::default();
    let mut recording = Recording::new(session.record.as_deref(), session.force, None);
    let mut run =
        TitleRun { session, seed, turns: args.turns, table: &mut table, recording: &mut recording, said: &mut said };
    let result = run.run(&campaign, &mut sessions);
    drop(sessions);
    said.finish(result)
}

/// What the title screen's loop works with.
struct TitleRun<'a> {
    session: &'a SessionArgs,
    seed: Option<u64>,
    /// Turn mode for the campaign (`--turns`); the descent is played in
    /// turn mode whatever it says (`t` switches during play).
    turns: bool,
    table: &'a mut Table,
    recording: &'a mut Recording,
    said: &'a mut Said,
}

impl TitleRun<'_> {
    fn run(&mut self, campaign: &[Level], sessions: &mut ui::Sessions) -> Result<(), CliError> {
        let shown_path = self.table.path().map(|p| p.display().to_string());
        let mut screen = Title::new(
            self.seed.unwrap_or_else(fresh_seed),
            campaign_line(campaign),
            self.table.scores().to_vec(),
            shown_path,
        );
        screen.notices = self.notices();
        loop {
            let choice = sessions.title(&mut screen)?;
            screen.notices.clear();
            screen.last = None;
            match choice {
                Choice::Descent(seed) => {
                    sessions.set_turns(true);
                    let ended = descend(self.session, seed, self.recording, sessions, self.said)?;
                    let score = score_of(seed, &ended);
                    let (place, written) = self.table.add(score.clone());
                    if !written {
                        self.said.unsaved += 1;
                    }
                    screen.notices = self.notices();
                    screen.scores = self.table.scores().to_vec();
                    screen.last = Some((place, about(&score, place)));
                    if self.seed.is_none() {
                        screen.seed = fresh_seed();
                    }
                    screen.back = Some(Instant::now());
                }
                Choice::Campaign => {
                    sessions.set_turns(self.turns);
                    let course = Course::Campaign(campaign.to_vec());
                    course.run(self.session, self.recording, sessions, self.said, "back to the title")?;
                    screen.back = Some(Instant::now());
                }
                Choice::Lab => {
                    let save_to = PathBuf::from(format!("{DEFAULT_LEVEL_NAME}.txt"));
                    if let Some(stop) = sessions.lab(Level::embedded_default(), save_to, &[])? {
                        return Err(CliError::stopped(stop, None));
                    }
                    // The lab's `q`, pressed twice, does not quit delve.
                    screen.back = Some(Instant::now());
                }
                Choice::Quit => return Ok(()),
                Choice::Stopped(stop) => return Err(CliError::stopped(stop, None)),
            }
        }
    }

    /// The table's notices, for the screen; said on stderr at exit too.
    fn notices(&mut self) -> Vec<String> {
        let notices = self.table.take_notices();
        self.said.lines.extend(notices.iter().cloned());
        notices
    }
}

/// Plays the descent of `seed` until it ends: every session on the
/// descent's seed, with the other options as given.
pub fn descend(
    session: &SessionArgs,
    seed: u64,
    recording: &mut Recording,
    screen: &mut dyn super::course::Screen,
    said: &mut Said,
) -> Result<Ended, CliError> {
    let session = SessionArgs { seed, ..session.clone() };
    Course::Descent { seed }.run(&session, recording, screen, said, "back to the title")
}

/// The descent of `seed`, as the table keeps it.
pub fn score_of(seed: u64, ended: &Ended) -> Score {
    let (ticks, catches) = totals(&ended.legs);
    let end = match ended.outcome {
        Outcome::Lost => End::Died,
        Outcome::Won if ended.last => End::Won,
        Outcome::Won | Outcome::Running => End::Quit,
    };
    let cleared = ended.legs.iter().filter(|l| l.won).count() as u32;
    Score { seed, depth: ended.legs.len() as u32, cleared, ticks, catches, end, date: today() }
}

/// What the title screen says of the descent that just ended.
fn about(score: &Score, place: Option<usize>) -> String {
    let how = match score.end {
        End::Died => format!("died at depth {}", score.depth),
        End::Quit => format!("quit at depth {}", score.depth),
        End::Won => format!("won all {} depths", score.depth),
    };
    let time = ui::game_time(score.ticks);
    let placed = match place {
        Some(0) => "the best in the table".to_string(),
        Some(n) => format!("number {} in the table", n + 1),
        None => format!("not among the {} best", crate::scores::KEPT),
    };
    let won = match score.cleared {
        1 => "1 depth won".to_string(),
        n => format!("{n} depths won"),
    };
    format!("Your descent (seed {}): {how} after {time}, {won}: {placed}.", score.seed)
}

/// The campaign's line on the title screen.
fn campaign_line(levels: &[Level]) -> String {
    let names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
    format!("{} levels: {}", levels.len(), names.join(", "))
}

/// A seed for a new descent, from 1 to 999,999 (short enough to read out
/// and type again): from the wall clock and the process, as it only
/// chooses which descent to play.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    crate::rng::splitmix64(nanos ^ (u64::from(std::process::id()) << 32)) % 999_999 + 1
}
