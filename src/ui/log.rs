//! The message log under the map: the world's events and the front end's
//! own notes, each stamped with the game time it happened at.
//!
//! World events are read from [`World::events`] by count: the log keeps
//! how many it has taken ([`World::events_total`]) and takes only the ones
//! after, so each shows once however many ticks run between two frames.

use super::palette::Palette;
use crate::sim::{Changed, ErrandKind, Event, Sense, Setting, TICKS_PER_SECOND, World};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use std::collections::VecDeque;

/// Lines kept, for the message history (Ctrl-P) as for the log under the
/// map: a long session's every line up to this many, the oldest dropped
/// after (the history's title says how many), so the memory is bounded.
pub const KEPT: usize = 1000;

/// How a line reads: its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Doors, monsters noticing, settings.
    Plain,
    /// A catch, a loss: the player's trouble.
    Alarm,
    /// The goal, a win.
    Good,
    /// The front end speaking (paused, the recording's end).
    Note,
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub tick: u64,
    pub text: String,
    pub tone: Tone,
    /// How many times the world said it in a row (1: once); the line is
    /// stamped with the last.
    pub times: u32,
}

impl Entry {
    /// The line as the log shows it: its text, and `×N` when the world
    /// said it N times in a row.
    pub fn shown(&self) -> String {
        match self.times {
            0 | 1 => self.text.clone(),
            n => format!("{} ×{n}", self.text),
        }
    }
}

/// The lines so far, oldest first, and how many world events were taken.
#[derive(Clone, Debug, Default)]
pub struct Log {
    entries: VecDeque<Entry>,
    taken: u64,
    /// Lines dropped, the oldest, to keep [`KEPT`].
    dropped: u64,
}

impl Log {
    /// A line from the front end, stamped with `tick`. The same note again
    /// (a held key refused while paused) restamps the last line instead of
    /// filling the log with copies.
    pub fn note(&mut self, tick: u64, text: impl Into<String>) {
        let entry = Entry { tick, text: text.into(), tone: Tone::Note, times: 1 };
        match self.entries.back_mut() {
            Some(last) if last.text == entry.text && last.tone == Tone::Note => last.tick = tick,
            _ => self.push(entry),
        }
    }

    /// Takes the world's events not taken yet. Events that fell out of the
    /// world's bounded list before being taken are skipped.
    pub fn take(&mut self, world: &World) {
        for stamped in world.events_after(self.taken) {
            let (text, tone) = describe(&stamped.event);
            self.said(Entry { tick: stamped.tick, text, tone, times: 1 });
        }
        self.taken = world.events_total();
    }

    /// A world event's line: the same line as the last one (a monster at
    /// the edge of view stopping an exploration again, a monster hearing
    /// each step) counts on the last one, restamped, instead of repeating.
    fn said(&mut self, entry: Entry) {
        match self.entries.back_mut() {
            Some(last) if last.text == entry.text && last.tone == entry.tone && last.tone != Tone::Note => {
                last.times += 1;
                last.tick = entry.tick;
            }
            _ => self.push(entry),
        }
    }

    /// After a replay seeks: the world's events so far are skipped (they
    /// were played again without being shown) and the jump is noted, or
    /// where it stopped when it was `stopped` short.
    pub fn seeked(&mut self, world: &World, stopped: bool) {
        self.taken = world.events_total();
        let verb = if stopped { "seek stopped at" } else { "jumped to" };
        self.note(world.ticks(), format!("{verb} {}", game_time(world.ticks())));
    }

    fn push(&mut self, entry: Entry) {
        if self.entries.len() == KEPT {
            self.entries.pop_front();
            self.dropped += 1;
        }
        self.entries.push_back(entry);
    }

    /// How many of the oldest lines were dropped to keep [`KEPT`].
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Every line kept, oldest first.
    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &Entry> + ExactSizeIterator {
        self.entries.iter()
    }
}

/// Game time as the log stamps it: minutes and seconds, `mm:ss`.
pub fn game_time(tick: u64) -> String {
    let seconds = tick / u64::from(TICKS_PER_SECOND);
    format!("{:02}:{:02}", seconds / 60, seconds % 60)
}

/// An event as the log words it.
pub fn describe(event: &Event) -> (String, Tone) {
    use Tone::{Alarm, Good, Plain};
    match event {
        Event::Caught { monster, lives_left } => {
            let left = match lives_left {
                None => String::new(),
                Some(0) => ": no lives left".into(),
                Some(1) => ": 1 life left".into(),
                Some(n) => format!(": {n} lives left"),
            };
            (format!("M {monster} caught you{left}"), Alarm)
        }
        Event::DoorOpened(at) => (format!("door opened at {at}"), Plain),
        Event::DoorClosed(at) => (format!("door closed at {at}"), Plain),
        Event::DoorsCycled(c) => (doors_text(c), Plain),
        Event::NoDoor => ("no door here".into(), Plain),
        Event::DoorBlocked => ("something stands in the doorway".into(), Plain),
        Event::GoalReached => ("you reached the goal".into(), Good),
        Event::Won => ("you won".into(), Good),
        Event::Lost => ("you lost".into(), Alarm),
        Event::Noticed { monster, sense: Sense::Sight } => (format!("M {monster} saw you"), Alarm),
        Event::Noticed { monster, sense: Sense::Hearing } => (format!("M {monster} heard you"), Alarm),
        Event::LostContact { monster, at } => (format!("M {monster} lost you at {at}"), Plain),
        Event::GaveUp { monster } => (format!("M {monster} gave up the search"), Plain),
        Event::SettingChanged(setting) => (setting_text(setting), Plain),
        Event::Refused { errand, monster } => (format!("M {monster} is in view: no {}", errand_text(*errand)), Alarm),
        Event::Interrupted { errand, monster } => {
            (format!("M {monster} comes into view: {} stopped", errand_text(*errand)), Alarm)
        }
        Event::GoalInView(errand) => (format!("the goal is in view: {} stopped", errand_text(*errand)), Good),
        Event::NoRoute(to) => (format!("no way to {to}"), Plain),
        Event::Explored => ("nothing left to explore within reach".into(), Plain),
        Event::Wary { monster, seen, ticks_ago, skipped, to } => (
            format!(
                "exploring {to}, not {skipped}: M {monster} was seen at {seen} {:.0} s ago",
                *ticks_ago as f64 / crate::sim::TICKS_PER_SECOND as f64
            ),
            Plain,
        ),
        Event::PlannerSkipped { planner, why } => (format!("{planner} skipped: {why}"), Plain),
    }
}

/// An errand as the log names it: `run`, `travel`, `exploring`.
fn errand_text(errand: ErrandKind) -> &'static str {
    match errand {
        ErrandKind::Run => "run",
        ErrandKind::Travel => "travel",
        ErrandKind::Explore => "exploring",
    }
}

/// The cycling doors' change as the log words it: `doors: 2 opened, 3
/// closed, 1 waits for its doorway to clear`.
fn doors_text(c: &Changed) -> String {
    let mut parts = Vec::new();
    if c.opened > 0 {
        parts.push(format!("{} opened", c.opened));
    }
    if c.closed > 0 {
        parts.push(format!("{} closed", c.closed));
    }
    match c.waiting {
        0 => {}
        1 => parts.push("1 waits for its doorway to clear".into()),
        n => parts.push(format!("{n} wait for their doorways to clear")),
    }
    format!("doors: {}", parts.join(", "))
}

/// A setting change as the log words it: `heuristic: chebyshev`.
fn setting_text(setting: &Setting) -> String {
    // The replay file's spelling of a setting is its one name (`named`).
    match serde_json::to_value(setting) {
        Ok(v) => {
            let name = v["setting"].as_str().unwrap_or("setting").to_string();
            let value = match &v["value"] {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Bool(b) => if *b { "on" } else { "off" }.to_string(),
                other => other.to_string(),
            };
            format!("{name}: {value}")
        }
        Err(_) => format!("{setting:?}"),
    }
}

/// The last lines of a log that fit an area, newest at the bottom.
pub struct LogView<'a> {
    pub log: &'a Log,
    pub palette: &'a Palette,
}

/// Columns of the time stamp, ` mm:ss `, before each line's text.
pub(super) const STAMP_WIDTH: usize = 7;

impl Widget for LogView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let p = self.palette;
        let text_width = (area.width as usize).saturating_sub(STAMP_WIDTH).max(1);
        let rows = area.height as usize;
        // Newest first, each entry's rows wrapped at the width, until the
        // area is full; then put back in reading order. Every entry shown
        // starts at its beginning: one too long for the rows left shows
        // its first rows, the last ending in `…`, and nothing older.
        let mut lines: Vec<Line> = Vec::new();
        for e in self.log.entries().rev() {
            let left = rows - lines.len();
            let mut wrapped = wrap(&e.shown(), text_width);
            if wrapped.len() > left {
                // The rows that fit, the last one shortened for the `…`.
                wrapped.truncate(left);
                if let Some(last) = wrapped.last_mut() {
                    *last = folded(last, text_width);
                }
            }
            let rows_of_entry = entry_rows(e, wrapped, p);
            lines.extend(rows_of_entry.into_iter().rev());
            if lines.len() >= rows {
                break;
            }
        }
        lines.truncate(rows);
        lines.reverse();
        // Bottom-aligned: the newest line sits right under the map, where
        // the eye is, whether or not the log is full.
        let pad = area.height.saturating_sub(lines.len() as u16);
        let area = Rect { y: area.y + pad, height: area.height - pad, ..area };
        Paragraph::new(lines).render(area, buf);
    }
}

/// The rows of `e`, its text already `wrapped`: the time stamp before
/// the first, blanks under it, the text in the style of its tone.
pub(super) fn entry_rows(e: &Entry, wrapped: Vec<String>, p: &Palette) -> Vec<Line<'static>> {
    let style = match e.tone {
        Tone::Plain => Style::new(),
        Tone::Alarm => Style::new().fg(p.monster).add_modifier(Modifier::BOLD),
        Tone::Good => Style::new().fg(p.goal).add_modifier(Modifier::BOLD),
        Tone::Note => Style::new().fg(p.key),
    };
    let stamp = Span::styled(format!(" {} ", game_time(e.tick)), Style::new().add_modifier(Modifier::DIM));
    let blank = Span::raw(" ".repeat(STAMP_WIDTH));
    wrapped
        .into_iter()
        .enumerate()
        .map(|(i, row)| Line::from(vec![if i == 0 { stamp.clone() } else { blank.clone() }, Span::styled(row, style)]))
        .collect()
}

/// A row of at most `width` characters that ends in `…`: `row`, less
/// its last words if they leave no room for it.
fn folded(row: &str, width: usize) -> String {
    let mut kept = row.trim_end().to_string();
    while kept.chars().count() + 1 > width {
        match kept.rfind(' ') {
            Some(i) if i > 0 => kept.truncate(i),
            _ => kept = kept.chars().take(width.saturating_sub(1)).collect(),
        }
        kept.truncate(kept.trim_end().len());
    }
    format!("{kept}…")
}

/// `text` in rows of at most `width` characters, broken at spaces where a
/// row has one, else inside a word.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut rows = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while rest.len() > width {
        let cut = rest[..=width].iter().rposition(|&c| c == ' ').filter(|&i| i > 0).unwrap_or(width);
        rows.push(rest[..cut].iter().collect::<String>().trim_end().to_string());
        rest.drain(..cut);
        while rest.first() == Some(&' ') {
            rest.remove(0);
        }
    }
    rows.push(rest.into_iter().collect());
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use crate::search::Heuristic;

    #[test]
    fn game_time_is_minutes_and_seconds() {
        assert_eq!(game_time(0), "00:00");
        assert_eq!(game_time(19), "00:00");
        assert_eq!(game_time(20), "00:01");
        assert_eq!(game_time(20 * 75), "01:15");
        assert_eq!(game_time(20 * 3600 * 2), "120:00");
    }

    #[test]
    fn events_read_as_the_issue_words_them() {
        let said = |e: Event| describe(&e).0;
        assert_eq!(said(Event::Caught { monster: 3, lives_left: Some(2) }), "M 3 caught you: 2 lives left");
        assert_eq!(said(Event::Caught { monster: 1, lives_left: Some(1) }), "M 1 caught you: 1 life left");
        assert_eq!(said(Event::Caught { monster: 1, lives_left: Some(0) }), "M 1 caught you: no lives left");
        assert_eq!(said(Event::Caught { monster: 2, lives_left: None }), "M 2 caught you");
        assert_eq!(said(Event::DoorOpened(Cell::new(4, 5))), "door opened at 4,5");
        assert_eq!(said(Event::DoorBlocked), "something stands in the doorway");
        let cycled = |opened, closed, waiting| said(Event::DoorsCycled(Changed { opened, closed, waiting }));
        assert_eq!(cycled(2, 3, 0), "doors: 2 opened, 3 closed");
        assert_eq!(cycled(0, 1, 1), "doors: 1 closed, 1 waits for its doorway to clear");
        assert_eq!(cycled(4, 0, 2), "doors: 4 opened, 2 wait for their doorways to clear");
        assert_eq!(said(Event::NoDoor), "no door here");
        assert_eq!(said(Event::Noticed { monster: 2, sense: Sense::Hearing }), "M 2 heard you");
        assert_eq!(said(Event::LostContact { monster: 4, at: Cell::new(7, 1) }), "M 4 lost you at 7,1");
        assert_eq!(said(Event::SettingChanged(Setting::Heuristic(Heuristic::Chebyshev))), "heuristic: chebyshev");
        assert_eq!(said(Event::SettingChanged(Setting::Smoothing(false))), "smoothing: off");
        assert_eq!(said(Event::SettingChanged(Setting::Weight(2.5))), "weight: 2.5");
        assert_eq!(said(Event::Refused { errand: ErrandKind::Run, monster: 2 }), "M 2 is in view: no run");
        assert_eq!(
            said(Event::Interrupted { errand: ErrandKind::Explore, monster: 1 }),
            "M 1 comes into view: exploring stopped"
        );
        assert_eq!(said(Event::GoalInView(ErrandKind::Run)), "the goal is in view: run stopped");
        assert_eq!(said(Event::NoRoute(Cell::new(3, 9))), "no way to 3,9");
        assert_eq!(said(Event::Explored), "nothing left to explore within reach");
        let wary = Event::Wary {
            monster: 2,
            seen: Cell::new(5, 1),
            ticks_ago: 100,
            skipped: Cell::new(6, 1),
            to: Cell::new(14, 1),
        };
        assert_eq!(said(wary), "exploring 14,1, not 6,1: M 2 was seen at 5,1 5 s ago");
        let planner = crate::search::Planner::WAYPOINTS;
        assert_eq!(said(Event::SettingChanged(Setting::Planner(planner))), "nav: waypoints");
        let why = crate::search::PlanError::TooManyCorners { corners: 76173, cap: 10000 };
        assert_eq!(
            said(Event::PlannerSkipped { planner, why }),
            "waypoints skipped: the level has 76173 wall corners, more than the 10000 the corner waypoint graph takes"
        );
    }

    #[test]
    fn long_lines_wrap_at_spaces() {
        assert_eq!(wrap("short", 10), ["short"]);
        assert_eq!(wrap("", 10), [""]);
        assert_eq!(wrap("a corridor with a monster", 10), ["a corridor", "with a", "monster"]);
        assert_eq!(wrap("abcdefghijkl", 5), ["abcde", "fghij", "kl"]);
        assert_eq!(wrap("abc  def", 3), ["abc", "def"]);
    }

    #[test]
    fn the_view_shows_the_newest_rows_under_their_stamps() {
        let mut log = Log::default();
        log.note(0, "the first line, long enough to wrap");
        log.note(40, "second");
        let render = |height| {
            let mut buf = Buffer::empty(Rect::new(0, 0, 27, height));
            LogView { log: &log, palette: &Palette::NAMED }.render(buf.area, &mut buf);
            crate::ui::testing::lines(&buf).into_iter().map(|l| l.trim_end().to_string()).collect::<Vec<_>>()
        };
        assert_eq!(render(4), ["", " 00:00 the first line, long", "       enough to wrap", " 00:02 second"]);
        // Never from the middle of an entry: its first row, folded.
        assert_eq!(render(2), [" 00:00 the first line,…", " 00:02 second"]);
        assert_eq!(render(1), [" 00:02 second"]);
    }

    #[test]
    fn a_repeated_note_is_one_line() {
        let mut log = Log::default();
        log.note(1, "a");
        log.note(2, "a");
        log.note(3, "b");
        log.note(4, "a");
        let got: Vec<(u64, &str)> = log.entries().map(|e| (e.tick, e.text.as_str())).collect();
        assert_eq!(got, [(2, "a"), (3, "b"), (4, "a")]);
    }

    /// The world saying the same twice in a row ("M 1 comes into view:
    /// exploring stopped", the monster stepping out of view and back) is
    /// one line that counts them; a note between starts a new one.
    #[test]
    fn the_world_saying_the_same_again_is_one_line_with_a_count() {
        let mut log = Log::default();
        let stopped = Event::Interrupted { errand: ErrandKind::Explore, monster: 1 };
        let line = |tick| Entry { tick, text: describe(&stopped).0, tone: Tone::Alarm, times: 1 };
        log.said(line(5));
        log.said(line(9));
        let shown: Vec<(u64, String)> = log.entries().map(|e| (e.tick, e.shown())).collect();
        assert_eq!(shown, [(9, "M 1 comes into view: exploring stopped ×2".to_string())]);
        log.note(10, "paused");
        log.said(line(12));
        assert_eq!(log.entries().last().map(Entry::shown).as_deref(), Some("M 1 comes into view: exploring stopped"));
    }

    #[test]
    fn the_log_keeps_a_bounded_tail() {
        let mut log = Log::default();
        for t in 0..KEPT as u64 + 10 {
            log.note(t, format!("{t}"));
        }
        assert_eq!(log.entries().len(), KEPT);
        assert_eq!(log.entries().next().unwrap().tick, 10);
    }
}

#[cfg(test)]
mod snapshots {
    use super::*;
    use crate::ui::testing::{game_until_end, lines};

    /// The log of a lost game, with a note of the front end's among the
    /// world's events, as the screen shows its last six lines.
    #[test]
    fn log_of_a_lost_game() {
        let world = game_until_end("name: trap\nlives: 2\n##########\n#@...M..G#\n##########\n", 2000);
        let mut log = Log::default();
        log.note(0, "trap: a corridor with a monster in it");
        log.take(&world);
        log.note(world.ticks(), crate::ui::app::PAUSED_MOVE);
        let mut buf = Buffer::empty(Rect::new(0, 0, 60, 6));
        LogView { log: &log, palette: &Palette::NAMED }.render(buf.area, &mut buf);
        let shown = lines(&buf);
        assert_eq!(shown[5].trim_start().split_once(' ').unwrap().1.trim_end(), crate::ui::app::PAUSED_MOVE);
        insta::assert_snapshot!(shown.join("\n"));
    }

    #[test]
    fn each_event_is_taken_once() {
        let world = game_until_end("name: trap\nlives: 2\n##########\n#@...M..G#\n##########\n", 2000);
        let mut log = Log::default();
        log.take(&world);
        let once = log.entries().len();
        assert_eq!(once as u64, world.events_total());
        log.take(&world);
        assert_eq!(log.entries().len(), once);
    }
}
