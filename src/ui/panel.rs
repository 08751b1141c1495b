//! The side panel: every setting beside its key, the search statistics of
//! the last game second, and the state of the world.
//!
//! Rates are per second of game time (the world's rolling 20-tick window),
//! so they read the same at any speed; "last" is the most recent search.

use super::clock::Clock;
use super::map::{glyph, letter};
use super::palette::Palette;
use crate::shown::shown;
use crate::sim::{Creature, Kind, Reason, RepathPolicy, RepathReason, SearchReport, Settings, WINDOW_TICKS, World};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Gauge, Paragraph, Sparkline, Widget};

/// Columns the panel takes, borders included.
pub const WIDTH: u16 = 34;

/// The panel of one world.
pub struct Panel<'a> {
    pub world: &'a World,
    pub clock: &'a Clock,
    pub palette: &'a Palette,
    /// Mean microseconds per search over the last second: a figure that
    /// depends on the machine, kept as a field so a test can fix it.
    pub micros_per_search: f64,
    /// Whether the session plays in turn mode (the pace line says so).
    pub turns: bool,
    /// What the ticks cost the machine: likewise.
    pub times: TickTimes,
}

/// Milliseconds a tick took over the last second: wall time beside the
/// process's CPU time, and each thread's CPU (the one that ticks, then the
/// crowd's pool's), so that waiting for a core is not taken for work.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TickTimes {
    pub wall_ms: f64,
    pub cpu_ms: f64,
    pub threads_ms: Vec<f64>,
}

/// The tick line's figures before the first tick has run.
const NO_TICK_YET: &str = "no tick run yet";

impl<'a> Panel<'a> {
    pub fn new(world: &'a World, clock: &'a Clock, palette: &'a Palette) -> Panel<'a> {
        let stats = world.stats();
        let w = &stats.window;
        let times = TickTimes {
            wall_ms: w.wall_ms_per_tick(),
            cpu_ms: w.cpu_ms_per_tick(),
            threads_ms: stats.thread_cpu.clone(),
        };
        Panel { world, clock, palette, micros_per_search: w.micros_per_search(), turns: false, times }
    }

    /// Every setting: its key, its label, its value and whether the
    /// current algorithm uses it.
    fn setting_rows(&self) -> Vec<(&'static str, &'static str, String, bool)> {
        let s: &Settings = self.world.settings();
        let q = &s.search;
        let on_off = |b: bool| if b { "on" } else { "off" }.to_string();
        let planner = s.planner();
        // A jump point search that could not run (4 neighbours, weighted
        // cells) says which planner answered in its stead.
        let fallback = self.world.stats().last_search.as_ref().and_then(|r| r.fallback);
        // The any-angle planners (navmesh, waypoints) search their own
        // graphs with their own straight-line heuristic, and their paths
        // are already taut: the grid search's settings do not apply.
        let grid = !planner.expansion().any_angle();
        let algorithm = match fallback {
            Some(ran) if planner.expansion().jumps() => format!("{planner} (ran {ran})"),
            _ => planner.to_string(),
        };
        // Under `incremental` each monster repairs its own D* Lite search
        // on the grid: the grid planner is not what runs.
        let planned = !grid || s.repath != RepathPolicy::Incremental;
        [
            ("A", "Algorithm", algorithm, planned),
            ("E", "Heuristic", q.heuristic.name().to_string(), planner.uses_heuristic()),
            ("T", "Tie-break", q.tie.name().to_string(), grid),
            ("D", "Neighbors", q.neighbors.to_string(), grid),
            ("[]", "Weight", format!("{:.2}", q.weight), planner.uses_weight()),
            ("R", "Repath", s.repath.name().to_string(), true),
            ("S", "Smoothing", on_off(s.smoothing), grid),
        ]
        .into()
    }

    /// One line per setting: key, label, value (dimmed when unused).
    fn settings(&self) -> Vec<Line<'static>> {
        self.setting_rows()
            .into_iter()
            .map(|(key, label, value, used)| {
                Line::from(vec![
                    Span::styled(format!("{key:<3}"), Style::new().fg(self.palette.key)),
                    Span::raw(format!("{label:<11}")),
                    Span::styled(value, value_style(used)),
                ])
            })
            .collect()
    }

    /// The settings packed several to a line, key and value (the labels are
    /// in the help), for a short terminal: `A astar  E octile  T fifo`.
    fn settings_packed(&self, width: usize) -> Vec<Line<'static>> {
        let mut lines: Vec<Line<'static>> = Vec::new();
        let mut line: Vec<Span<'static>> = Vec::new();
        for (key, _, value, used) in self.setting_rows() {
            let entry = [
                Span::styled(format!("{key} "), Style::new().fg(self.palette.key)),
                Span::styled(value, value_style(used)),
            ];
            let entry_width: usize = entry.iter().map(Span::width).sum();
            let used_width: usize = line.iter().map(Span::width).sum();
            if !line.is_empty() && used_width + 2 + entry_width > width {
                lines.push(Line::from(std::mem::take(&mut line)));
            }
            if !line.is_empty() {
                line.push(Span::raw("  "));
            }
            line.extend(entry);
        }
        lines.push(Line::from(line));
        lines
    }

    /// The search block's title: the open list and reopening where the
    /// grid search uses them, else what searches instead (keys P and X do
    /// nothing there, and the title says so); as much as fits `width`.
    fn search_title(&self, width: usize) -> String {
        let s = self.world.settings();
        let q = &s.search;
        let grid_search = |open: String, reopen: &str| {
            let reopen = if q.reopen { reopen } else { "" };
            format!("{open}{reopen}")
        };
        let short_open =
            if q.open == crate::search::OpenUpdate::DecreaseKey { "d-key".to_string() } else { q.open.to_string() };
        let grid = !s.planner().expansion().any_angle();
        let candidates = match (grid, s.repath) {
            (true, RepathPolicy::Incremental) => vec!["MT-D* Lite, no P X".to_string()],
            (true, RepathPolicy::FlowField) => vec![
                format!("field + A* {}", grid_search(q.open.to_string(), " · reopen")),
                format!("field + A* {}", grid_search(short_open.clone(), "+reopen")),
            ],
            (true, _) => {
                vec![grid_search(q.open.to_string(), " · reopen"), grid_search(short_open, "+reopen")]
            }
            (false, _) => vec![format!("{}, no P X", s.planner())],
        };
        let fits = |t: &String| t.chars().count() + " Search ·  ".chars().count() <= width;
        let text = candidates.iter().find(|t| fits(t)).unwrap_or(&candidates[candidates.len() - 1]);
        format!(" Search · {text} ")
    }

    /// The search figures: per second, then the last search's, then the
    /// repaths and the budget. `packed` (a short terminal) puts two
    /// per-second figures to a line and lists only the repath reasons that
    /// happened; a line too long for `width` folds onto the next.
    fn search(&self, packed: bool, width: usize) -> Vec<Line<'static>> {
        let stats = self.world.stats();
        let (w, last) = (&stats.window, stats.last_search.as_ref());
        let last_stat = |f: fn(&SearchReport) -> u64| last.map_or("-".to_string(), |r| num(f(r)));
        let reasons = |rs: &[RepathReason]| {
            let cell = |&r: &RepathReason| format!("{:<10}{:>4}", r.name(), num(w.repaths(r)));
            format!("  {}", rs.iter().map(cell).collect::<Vec<_>>().join("  "))
        };
        let path = match last {
            Some(r) => path_words(r, self.world.settings()),
            None => "-".to_string(),
        };
        // No time to show before a search in the window.
        let micros = if w.searches == 0 { "-".to_string() } else { micros_text(self.micros_per_search) };
        // Under timer+threshold a repath needs both the monster's timer
        // tick and the player K cells away: one alone does nothing.
        let both = if self.world.settings().repath == RepathPolicy::TimerThreshold { "  needs both" } else { "" };
        // Per-second figures first, then the last search's, never mixed in a row.
        let per_second = if packed {
            vec![
                match w.searches {
                    0 => format!("{:<10} {:>4}  0 found", "Searches/s", 0),
                    _ => format!(
                        "{:<10} {:>4}  {} found, {}",
                        "Searches/s",
                        short(w.searches),
                        num(w.found),
                        search_time(self.micros_per_search)
                    ),
                },
                format!(
                    "{:<10} {:>4}  stale {}, upd {}",
                    "Expanded/s",
                    short(w.expanded),
                    num(w.stale_pops),
                    num(w.cells_updated)
                ),
            ]
        } else {
            vec![
                format!("{:<11}{:>6}  {} found", "Searches/s", num(w.searches), num(w.found)),
                format!("{:<11}{:>6}  stale {}/s", "Expanded/s", num(w.expanded), num(w.stale_pops)),
                format!("{:<11}{:>6}  updated {}/s", "µs/search", micros, num(w.cells_updated)),
            ]
        };
        let last_lines = [
            format!(
                "Last: expanded {} updated {}",
                last_stat(|r| r.stats.expanded),
                last_stat(|r| r.stats.cells_updated)
            ),
            match last.filter(|r| r.stats.scanned > 0) {
                // A jump point search also counts the cells it scanned.
                Some(r) => format!(
                    "  stale {} max open {} scan {}",
                    num(r.stats.stale_pops),
                    num(r.stats.max_open),
                    num(r.stats.scanned)
                ),
                None => format!(
                    "  stale {} max open {}",
                    last_stat(|r| r.stats.stale_pops),
                    last_stat(|r| r.stats.max_open)
                ),
            },
            format!("  reopened {} violations {}", last_stat(|r| r.stats.reopened), last_stat(|r| r.stats.violations)),
            format!("  path {path}"),
        ];
        let repaths = if packed {
            let happened: Vec<String> = RepathReason::ALL
                .iter()
                .filter(|&&r| w.repaths(r) > 0)
                .map(|&r| format!("{} {}", r.name(), num(w.repaths(r))))
                .collect();
            let reasons = if happened.is_empty() { String::new() } else { format!(": {}", happened.join(" ")) };
            let line = format!("Repaths/s {}{reasons}", num(w.total_repaths()));
            // "needs both" is a detail the R key's help also gives: kept
            // only where it fits.
            let with_both = format!("{line}{both}");
            vec![if with_both.chars().count() <= width { with_both } else { line }]
        } else {
            vec![
                format!("{:<11}{:>6}{both}", "Repaths/s", num(w.total_repaths())),
                reasons(&[RepathReason::Start, RepathReason::Timer]),
                reasons(&[RepathReason::Threshold, RepathReason::Blocked]),
                reasons(&[RepathReason::Version, RepathReason::Stuck]),
                reasons(&[RepathReason::EveryTick, RepathReason::Settings]),
                reasons(&[RepathReason::Moved]),
            ]
        };
        let budget = format!("{:<13}{:>4}/s  queued {:>3}", "Budget waits", num(w.budget_waits), stats.queued);
        per_second
            .into_iter()
            .chain(last_lines)
            .chain(repaths)
            .chain([budget])
            .flat_map(|text| fold(&text, width))
            .map(Line::from)
            .collect()
    }

    fn world_lines(&self) -> Vec<Line<'static>> {
        let world = self.world;
        let p = self.palette;
        let mode = if self.turns { "turns" } else { self.clock.speed_label() };
        let pace = if self.clock.paused() {
            Span::styled(format!("PAUSED ({mode})"), Style::new().reversed())
        } else if self.turns {
            Span::raw("turn mode")
        } else {
            Span::raw(format!("speed {mode}"))
        };
        let counts = world.counts();
        let kind = |k: Kind| {
            // Boids mostly fly, and the map draws a flying one as an arrow.
            let sample = if k == Kind::Boid { '>' } else { letter(k) };
            vec![
                Span::styled(format!("{sample} "), Style::new().fg(p.creature(k)).bold()),
                Span::raw(count_field(plural(k), counts[k as usize] as u64)),
            ]
        };
        let pair = |a: Vec<Span<'static>>, b: Vec<Span<'static>>| {
            let mut spans = a;
            spans.push(Span::raw("  "));
            spans.extend(b);
            Line::from(spans)
        };
        let mut lines = vec![
            Line::from(vec![Span::raw(format!("Tick {:<9}", world.ticks())), pace]),
            pair(kind(Kind::Monster), kind(Kind::Wanderer)),
            pair(kind(Kind::Fleeing), kind(Kind::Boid)),
            Line::from(format!("Catches {:<8}seed {}", world.stats().total.catches, world.seed())),
        ];
        // Flocking weights other than the default (`--flock`) decide how
        // the boids above move, so they are named under their count.
        let flock = world.settings().flock;
        if flock != crate::sim::FLOCK_WEIGHTS {
            let width = usize::from(WIDTH) - 2;
            lines.push(
                format!("Flock {}", crate::sim::describe_flock(&flock)).chars().take(width).collect::<String>().into(),
            );
        }
        lines.push(self.crowd());
        lines.push(self.times());
        lines.extend(self.watched());
        lines.extend(self.player_search());
        lines
    }

    /// The player's own last search, for a travel or an exploration: what
    /// for, and what it cost (for an exploration, the search for the
    /// nearest unseen cell, then the route's).
    fn player_search(&self) -> Vec<Line<'static>> {
        let Some(r) = self.world.player_search() else { return Vec::new() };
        let head = format!("You        {} → {}", r.errand, r.to);
        let expanded = match r.picked {
            Some(picked) => format!("{} + {}", num(picked), num(r.expanded)),
            None => num(r.expanded),
        };
        let outcome = if r.found { format!("path {}", r.steps) } else { "no path".into() };
        vec![head.into(), format!("  {expanded} expanded, {outcome}").into()]
    }

    /// What a tick costs in ms over the last second: wall, CPU, and the
    /// CPU of each thread (cut short with `…` when they do not fit; the
    /// threads' clocks are read once a second, so the first second has
    /// none); before the first tick has run there is nothing to show, and
    /// it says so.
    fn times(&self) -> Line<'static> {
        let t = &self.times;
        if self.world.stats().total.ticks == 0 {
            return format!("Tick cpu ms: {NO_TICK_YET}").into();
        }
        let mut line = format!("Tick {} cpu {} ms", ms_figure(t.wall_ms), ms_figure(t.cpu_ms));
        if !t.threads_ms.is_empty() {
            let threads: Vec<String> = t.threads_ms.iter().map(|&ms| ms_figure(ms)).collect();
            line = format!("{line}: {}", threads.join(" "));
        }
        let width = usize::from(WIDTH) - 2;
        if line.chars().count() > width {
            line = line.chars().take(width - 1).chain(['…']).collect();
        }
        line.into()
    }

    /// Over the last second, among monsters and wanderers: overlapping
    /// pairs, the smallest time to collision and ORCA's time per tick
    /// (the avoidance itself is named in the block's title).
    fn crowd(&self) -> Line<'static> {
        let w = &self.world.stats().window;
        let ttc = w.min_time_to_collision.map_or("-".to_string(), |t| format!("{t:.1}s"));
        let micros = if w.ticks > 0 { w.orca_micros / w.ticks as f64 } else { 0.0 };
        format!("{:<9}{:>4}/s ttc {ttc:<5}{micros:>5.0}µs", "Overlaps", num(w.overlaps)).into()
    }

    /// The watched monster, its state of mind and why, and its last search.
    fn watched(&self) -> [Line<'static>; 4] {
        let world = self.world;
        // One pass: the watched monster's ordinal among the monsters, and
        // how many there are.
        let (mut watched, mut monsters): (Option<(usize, usize, &Creature)>, usize) = (None, 0);
        for (i, c) in world.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster) {
            if world.watched() == Some(i) {
                watched = Some((monsters, i, c));
            }
            monsters += 1;
        }
        let Some((n, index, c)) = watched else {
            return ["Watching   none (Tab)".into(), "".into(), "".into(), "".into()];
        };
        let mind = world.awareness(index).map_or_else(String::new, |a| {
            let why = match a.reason {
                None => String::new(),
                Some(Reason::Saw) => ": saw you".into(),
                Some(Reason::Heard) => ": heard you".into(),
                Some(Reason::LostAt(at)) => format!(": lost you at {at}"),
                Some(Reason::GaveUp) => ": gave up".into(),
                Some(Reason::Caught) => ": caught you".into(),
            };
            // The tactic at work (`--aim`, `--lost`): the cell ahead it
            // cuts the player off at, or the next cell of its sweep; and
            // the pack it hunts in (`--packs`).
            let hunt = c.hunt.as_ref();
            let aim = hunt.and_then(|h| h.mind.aim).map_or_else(String::new, |at| format!(" → {at}"));
            let pack = hunt.and_then(|h| h.mind.pack).map_or_else(String::new, |p| format!(" (pack {p})"));
            format!("  {}{pack}{why}{aim}", a.state.name())
        });
        let cell = c.cell();
        let head = Line::from(vec![
            Span::raw("Watching   "),
            Span::styled(glyph(c).to_string(), Style::new().fg(self.palette.player).bg(self.palette.watched).bold()),
            Span::raw(format!(" {}/{} at {},{}", n + 1, monsters, cell.x, cell.y)),
        ]);
        match &world.stats().watched_search {
            Some(r) => {
                let reason = r.reason.map_or("", |r| r.name());
                // Shorter than the search block's words, beside the count.
                let outcome = match () {
                    () if !r.found => "no path".to_string(),
                    () if world.settings().planner().expansion().any_angle() => format!("{} points", r.waypoints),
                    () => format!("path {} → {}", r.steps, r.waypoints),
                };
                [
                    head,
                    mind.into(),
                    format!("  tick {} {reason} search", r.tick).into(),
                    format!("  {} expanded, {outcome}", num(r.stats.expanded)).into(),
                ]
            }
            None => [head, mind.into(), "  no search since selected".into(), "".into()],
        }
    }
}

/// A search's path as the panel words it: cell steps and the waypoints
/// smoothed from them on the grid (or, unsmoothed, said so rather than
/// "30 → 31 waypoints"); points and straight legs for an any-angle
/// planner, whose path is points, not cells.
fn path_words(r: &SearchReport, settings: &Settings) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match () {
        () if !r.found => "not found".to_string(),
        () if settings.planner().expansion().any_angle() => {
            format!("{}, {}", plural(r.waypoints, "point", "points"), plural(r.steps, "leg", "legs"))
        }
        () if settings.smoothing => {
            format!("{} → {}", plural(r.steps, "step", "steps"), plural(r.waypoints, "waypoint", "waypoints"))
        }
        () => format!("{}, not smoothed", plural(r.steps, "step", "steps")),
    }
}

/// `text` folded into lines of at most `width` characters at its spaces,
/// each line after the first indented by two: never cut.
fn fold(text: &str, width: usize) -> Vec<String> {
    if text.chars().count() <= width {
        return vec![text.to_string()];
    }
    let indent = text.chars().take_while(|&c| c == ' ').count() + 2;
    let rows = super::log::wrap(text, width);
    let (first, rest) = rows.split_first().expect("wrap gives a row");
    let rest = rest.join(" ");
    let mut out = vec![first.clone()];
    out.extend(
        super::log::wrap(&rest, width.saturating_sub(indent).max(1))
            .into_iter()
            .map(|r| format!("{}{r}", " ".repeat(indent))),
    );
    out
}

/// The style of a setting's value: bold, or dimmed when the current
/// algorithm ignores it.
fn value_style(used: bool) -> Style {
    if used { Style::new().add_modifier(Modifier::BOLD) } else { Style::new().dim() }
}

/// A kind's name in the panel's creature count.
fn plural(k: Kind) -> &'static str {
    match k {
        Kind::Monster => "monsters",
        Kind::Wanderer => "wanderers",
        Kind::Fleeing => "fleeing",
        Kind::Boid => "boids",
    }
}

/// Milliseconds to a tenth below 10, whole above: a big crowd's tick and
/// its threads' figures still fit one line.
fn ms_figure(ms: f64) -> String {
    if ms < 9.95 { format!("{ms:.1}") } else { format!("{ms:.0}") }
}

/// Columns of a kind's name and count in the panel's creature lines.
const COUNT_FIELD: usize = 13;

/// `name` and its count `n` right-aligned in [`COUNT_FIELD`] columns, the
/// count as [`num`] writes it where that fits after a space, else in
/// thousands (`99k`): a crowd of 100,000 must not push the second kind
/// off the line.
fn count_field(name: &str, n: u64) -> String {
    let room = COUNT_FIELD - name.len();
    let full = num(n);
    let count = if full.len() < room { full } else { format!("{}k", n / 1000) };
    format!("{name}{count:>room$}")
}

/// A count in at most four columns, for the packed panel whose labels
/// leave no more: `9999`, `362k`, `12M`.
fn short(n: u64) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..1_000_000 => format!("{}k", n / 1000),
        _ => format!("{}M", (n / 1_000_000).min(999)),
    }
}

/// Microseconds for the six-column `µs/search` field: one decimal while
/// it fits (`12.5`, `9999.9`), whole microseconds up to `999999` beyond,
/// so that a slow machine never pushes the row past the panel's border.
fn micros_text(micros: f64) -> String {
    if micros < 9999.95 { format!("{micros:.1}") } else { format!("{:.0}", micros.min(999_999.0)) }
}

/// A search's time with its unit in at most six columns, for the packed
/// row that has no room for more: `12.3µs`, `456µs`, `12ms`, `9999ms`.
/// The unit stays whole whatever the machine, so that tests can find it.
fn search_time(micros: f64) -> String {
    if micros < 99.95 {
        format!("{micros:.1}µs")
    } else if micros < 9999.5 {
        format!("{micros:.0}µs")
    } else {
        format!("{:.0}ms", (micros / 1000.0).min(9999.0))
    }
}

/// A count in at most six columns: `12,345`, `123k`, `12M`.
pub fn num(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=99_999 => format!("{},{:03}", n / 1000, n % 1000),
        100_000..=9_999_999 => format!("{}k", n / 1000),
        _ => format!("{}M", n / 1_000_000),
    }
}

fn block(title: String) -> Block<'static> {
    Block::bordered().title(title)
}

impl Panel<'_> {
    /// The world block's title: the avoidance (key V) decides the overlaps
    /// in it, so it is named there, as the open list is in the search's.
    fn world_title(&self) -> String {
        format!(" World: {} · {} ", shown(self.world.name()), self.world.settings().avoidance)
    }

    /// The panel on a terminal too short for its three blocks in full (an
    /// 80x24 one): one box, its parts under rules that carry their titles;
    /// the search figures and the repath reasons packed, the settings too
    /// unless there is room for one a line. Below 80x24 the search figures
    /// lose lines from their end, then the world its own.
    fn render_packed(&self, area: Rect, buf: &mut Buffer, world: Vec<Line<'static>>) {
        let width = usize::from(area.width.saturating_sub(2));
        let rows = usize::from(area.height.saturating_sub(2));
        let mut search = self.search(true, width);
        let mut world = world;
        let full = self.settings();
        // Two rules between the three parts.
        let fixed = 2 + search.len() + world.len();
        let settings = if fixed + full.len() <= rows { full } else { self.settings_packed(width) };
        // Below 80x24: a blank line goes first, then search figures from
        // the end, then the world's lines from the end.
        if settings.len() + 2 + search.len() + world.len() > rows && world.last().is_some_and(|l| l.width() == 0) {
            world.pop();
        }
        while settings.len() + 2 + search.len() + world.len() > rows && search.len() > 3 {
            search.pop();
        }
        while settings.len() + 2 + search.len() + world.len() > rows && !world.is_empty() {
            world.pop();
        }
        let outer = block(" Settings ".into());
        let inner = outer.inner(area);
        outer.render(area, buf);
        let sections = [(None, settings), (Some(self.search_title(width)), search), (Some(self.world_title()), world)];
        let mut y = inner.y;
        for (title, lines) in sections {
            if let Some(title) = title {
                if y >= inner.bottom() {
                    break;
                }
                rule(buf, area, y, &title);
                y += 1;
            }
            for line in lines {
                if y >= inner.bottom() {
                    break;
                }
                line.render(Rect { y, height: 1, ..inner }, buf);
                y += 1;
            }
        }
    }
}

/// A rule across the panel's box at row `y`, carrying `title` as a block's
/// border does: `├ Search · lazy ───┤`.
fn rule(buf: &mut Buffer, area: Rect, y: u16, title: &str) {
    let width = usize::from(area.width.saturating_sub(2));
    let title: String = title.chars().take(width).collect();
    let fill = "─".repeat(width - title.chars().count());
    buf.set_string(area.x, y, format!("├{title}{fill}┤"), Style::new());
}

impl Widget for Panel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let width = usize::from(area.width.saturating_sub(2));
        let settings = self.settings();
        let world = self.world_lines();
        let search = self.search(false, width);
        // Three blocks in full, or one packed box on a short terminal.
        if usize::from(area.height) < settings.len() + search.len() + world.len() + 6 {
            return self.render_packed(area, buf, world);
        }
        let [top, middle, bottom] = Layout::vertical([
            Constraint::Length(settings.len() as u16 + 2),
            Constraint::Fill(1),
            Constraint::Length(world.len() as u16 + 2),
        ])
        .areas(area);
        Paragraph::new(settings).block(block(" Settings ".into())).render(top, buf);
        Paragraph::new(world).block(block(self.world_title())).render(bottom, buf);

        // The open-list update decides the stale pops below, so it is
        // named here rather than in a settings row of its own.
        let search_block = block(self.search_title(width));
        let inner = search_block.inner(middle);
        search_block.render(middle, buf);
        // The figures come first; the sparkline and the gauge follow when
        // at least three rows are left, the sparkline taking any spare rows.
        let figures = search.len() as u16;
        if inner.height < figures + 3 {
            Paragraph::new(search).render(inner, buf);
            return;
        }
        let [text, label, spark, gauge] = Layout::vertical([
            Constraint::Length(figures),
            Constraint::Length(1),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(inner);
        Paragraph::new(search).render(text, buf);
        let history = &self.world.stats().history;
        let recent = |n: usize| history.iter().skip(history.len().saturating_sub(n)).copied();
        let shown: Vec<u64> = recent(spark.width as usize).collect();
        // Two peaks over two windows: each says which.
        let seconds = shown.len().div_ceil(WINDOW_TICKS);
        let shown_peak = num(shown.iter().copied().max().unwrap_or(0));
        Line::from(format!("Expanded/tick, peak {shown_peak} in {seconds} s")).render(label, buf);
        Sparkline::default().data(&shown).style(Style::new().fg(self.palette.waypoint)).render(spark, buf);
        // The busiest tick of the last second against the budget: the last
        // tick alone is mostly zero with staggered repaths.
        let budget = u64::from(self.world.settings().budget.max(1));
        let peak = recent(WINDOW_TICKS).max().unwrap_or(0);
        Gauge::default()
            .ratio((peak as f64 / budget as f64).min(1.0))
            .label(format!("1 s peak {} of {} budget", num(peak), num(budget)))
            .gauge_style(Style::new().fg(self.palette.open))
            .use_unicode(true)
            .render(gauge, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::testing::{lines, played};

    #[test]
    fn counts_fit_six_columns() {
        assert_eq!(num(0), "0");
        assert_eq!(num(999), "999");
        assert_eq!(num(1_000), "1,000");
        assert_eq!(num(99_999), "99,999");
        assert_eq!(num(100_000), "100k");
        assert_eq!(num(9_999_999), "9999k");
        assert_eq!(num(12_345_678), "12M");
        assert_eq!(num(u64::MAX).len(), "18446744073709M".len());
    }

    /// A crowd's counts keep their line: two kinds side by side fit the
    /// panel whatever the counts (99,000 boids once showed as `990`).
    #[test]
    fn creature_counts_fit_beside_each_other() {
        assert_eq!(count_field("monsters", 5), "monsters    5");
        assert_eq!(count_field("wanderers", 999), "wanderers 999");
        assert_eq!(count_field("wanderers", 1_500), "wanderers  1k");
        assert_eq!(count_field("boids", 99_000), "boids  99,000");
        assert_eq!(count_field("boids", 100_000), "boids    100k");
        for name in ["monsters", "wanderers", "fleeing", "boids"] {
            for n in [0, 9, 99, 999, 1_000, 9_999, 10_000, 99_999, 100_000] {
                assert_eq!(count_field(name, n).chars().count(), COUNT_FIELD, "{name} {n}");
            }
        }
    }

    /// A big crowd's tick line keeps every thread's figure (a tick of
    /// 131.9 ms once left the second pool thread cut off).
    #[test]
    fn a_big_tick_keeps_every_thread_on_the_line() {
        let world = played(1);
        let clock = Clock::default();
        let times = TickTimes { wall_ms: 131.9, cpu_ms: 42.8, threads_ms: vec![3.6, 22.5, 16.6] };
        let panel = Panel { times, ..Panel::new(&world, &clock, &Palette::NAMED) };
        assert_eq!(panel.times().to_string(), "Tick 132 cpu 43 ms: 3.6 22 17");
        assert_eq!(ms_figure(9.94), "9.9");
        assert_eq!(ms_figure(9.96), "10");
    }

    /// At tick 0 no tick has run: the line says so instead of showing
    /// `Tick 0.0 cpu 0.0 ms:` with no thread figures.
    #[test]
    fn before_the_first_tick_the_tick_line_says_none_has_run() {
        let world = played(0);
        let clock = Clock::default();
        let panel = Panel::new(&world, &clock, &Palette::NAMED);
        assert_eq!(panel.times().to_string(), "Tick cpu ms: no tick run yet");
        let world = played(1);
        let line = Panel::new(&world, &clock, &Palette::NAMED).times().to_string();
        assert!(line.starts_with("Tick ") && line.ends_with(" ms"), "no thread figures in the first second: {line}");
    }

    fn render(world: &World, clock: &Clock, height: u16) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, height));
        let times = TickTimes { wall_ms: 2.5, cpu_ms: 4.75, threads_ms: vec![0.25, 2.25, 2.25] };
        let panel = Panel { micros_per_search: 12.5, times, ..Panel::new(world, clock, &Palette::NAMED) };
        panel.render(buf.area, &mut buf);
        lines(&buf)
    }

    /// The whole panel of a fixed session, timing fixed at 12.5 µs.
    #[test]
    fn panel_snapshot() {
        let world = played(300);
        let got = render(&world, &Clock::default(), 37);
        insta::assert_snapshot!(got.join("\n"));
    }

    #[test]
    fn search_times_keep_to_their_columns() {
        let times = [0.0, 12.34, 99.94, 99.96, 9999.4, 9999.96, 1e6, 1e12];
        let field: Vec<String> = times.map(micros_text).to_vec();
        assert_eq!(field, ["0.0", "12.3", "99.9", "100.0", "9999.4", "10000", "999999", "999999"]);
        let packed: Vec<String> = times.map(search_time).to_vec();
        assert_eq!(packed, ["0.0µs", "12.3µs", "99.9µs", "100µs", "9999µs", "10ms", "1000ms", "9999ms"]);
        assert!(field.iter().chain(&packed).all(|t| t.chars().count() <= 6));
    }

    #[test]
    fn short_counts_keep_to_four_columns() {
        let shown: Vec<String> = [0, 9_999, 10_000, 999_999, 1_000_000, u64::MAX].map(short).to_vec();
        assert_eq!(shown, ["0", "9999", "10k", "999k", "1M", "999M"]);
    }

    #[test]
    fn settings_follow_the_world_and_unused_ones_are_dimmed() {
        let mut world = played(0);
        let mut clock = Clock::default();
        clock.toggle_pause();
        let text = render(&world, &clock, 37);
        assert!(text.iter().any(|l| l.contains("Tick 0        PAUSED (1×)")), "{text:#?}");
        let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, 37));
        Panel::new(&world, &clock, &Palette::NAMED).render(buf.area, &mut buf);
        // Row 5 is the weight: unused by A*.
        assert!(buf[(15, 5)].modifier.contains(Modifier::DIM));
        assert!(!buf[(15, 1)].modifier.contains(Modifier::DIM));

        world.apply(crate::sim::Command::Set(crate::sim::Setting::Planner(crate::search::Planner::WEIGHTED)));
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Repath(crate::sim::RepathPolicy::EveryTick)));
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Open(crate::search::OpenUpdate::DecreaseKey)));
        let text = render(&world, &clock, 37);
        assert_eq!(text[1], "│A  Algorithm  weighted          │");
        assert_eq!(text[9], "┌ Search · decrease-key ─────────┐");
        assert_eq!(text[6], "│R  Repath     every-tick        │");
        // Only timer+threshold says that a repath needs both.
        assert!(!text.iter().any(|l| l.contains("needs both")), "{text:#?}");
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Repath(crate::sim::RepathPolicy::TimerThreshold)));
        let text = render(&world, &clock, 37);
        assert!(text.iter().any(|l| l.contains("Repaths/s       0  needs both")), "{text:#?}");
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Reopen(true)));
        assert_eq!(render(&world, &clock, 37)[9], "┌ Search · decrease-key · reopen ┐");
        let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, 37));
        Panel::new(&world, &clock, &Palette::NAMED).render(buf.area, &mut buf);
        assert!(!buf[(15, 5)].modifier.contains(Modifier::DIM));
    }

    #[test]
    fn a_jump_point_search_shows_its_scans_and_says_when_astar_ran() {
        use crate::sim::{Command, Setting, Settings, World};
        let clock = Clock::default();
        let jps = Command::Set(Setting::Planner(crate::search::Planner::JPS));
        // The room costs 1 everywhere: JPS runs, and counts its scans. Run
        // until a monster has noticed the player and searched.
        let room = crate::level::Level::parse(include_str!("../../levels/room.txt"), "room.txt").unwrap();
        let mut world = World::new(&room, 1, Settings::default()).unwrap();
        world.apply(jps);
        while world.stats().last_search.is_none() && world.ticks() < 2000 {
            world.tick();
        }
        let text = render(&world, &clock, 37);
        assert_eq!(text[1], "│A  Algorithm  jps               │");
        assert!(text[14].starts_with("│  stale") && text[14].contains(" scan"), "{text:#?}");
        // The default level has water: A* answers, and the panel says so.
        let mut world = played(0);
        world.apply(jps);
        while world.stats().last_search.is_none() && world.ticks() < 2000 {
            world.tick();
        }
        let text = render(&world, &clock, 37);
        assert_eq!(text[1], "│A  Algorithm  jps (ran astar)   │");
        assert!(text[14].starts_with("│  stale") && !text[14].contains(" scan"), "{text:#?}");
    }

    #[test]
    fn the_watched_monster_is_numbered_among_the_monsters() {
        // A spawned monster comes after every other creature.
        let mut world = played(0);
        world.apply(crate::sim::Command::Spawn { kind: Kind::Monster, count: 1 });
        let monsters: Vec<usize> =
            world.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster).map(|(i, _)| i).collect();
        let n = monsters.len();
        assert!(monsters[n - 1] > n, "{monsters:?}");
        world.watch(Some(monsters[n - 1]));
        // Tall enough for the whole world block (37 rows).
        let text = render(&world, &Clock::default(), 37);
        let shown = format!("Watching   M {n}/{n} at ");
        assert!(text.iter().any(|l| l.contains(&shown)), "{text:#?}");
        world.watch(None);
        let text = render(&world, &Clock::default(), 37);
        assert!(text.iter().any(|l| l.contains("Watching   none (Tab)")), "{text:#?}");
    }

    #[test]
    fn the_watched_monster_shows_its_state_and_why() {
        let level = crate::level::Level::parse("########\n#@....M#\n########\n", "t").unwrap();
        let mut world = World::new(&level, 1, Settings::default()).unwrap();
        world.watch(Some(0));
        let text = render(&world, &Clock::default(), 40);
        assert!(text.iter().any(|l| l.starts_with("│  idle ")), "{text:#?}");
        while world.awareness(0).is_some_and(|a| a.state == crate::sim::MonsterState::Idle) && world.ticks() < 40 {
            world.tick();
        }
        let text = render(&world, &Clock::default(), 40);
        assert!(text.iter().any(|l| l.starts_with("│  hunting (pack 0): saw you")), "{text:#?}");
    }

    /// An any-angle path is points, not cells: the panel says "2 points, 1
    /// leg" where it said "1 steps → 2 waypoints" (issue 25), in the
    /// search figures and in the watched monster's lines.
    #[test]
    fn an_any_angle_path_is_told_in_points_and_legs() {
        let level = crate::level::Level::parse("########\n#@....M#\n########\n", "t").unwrap();
        for planner in [crate::search::Planner::NAVMESH, crate::search::Planner::WAYPOINTS] {
            let mut world = World::new(&level, 1, Settings::default().with_planner(planner)).unwrap();
            world.watch(Some(0));
            while world.stats().watched_search.is_none() && world.ticks() < 40 {
                world.tick();
            }
            let text = render(&world, &Clock::default(), 40).join("\n");
            assert!(text.contains("│  path 2 points, 1 leg "), "{planner}: {text}");
            assert!(text.contains("│  1 expanded, 2 points "), "{planner}: {text}");
            assert!(!text.contains(" → "), "{planner}: {text}");
        }
        let mut world = World::new(&level, 1, Settings::default()).unwrap();
        world.watch(Some(0));
        while world.stats().watched_search.is_none() && world.ticks() < 40 {
            world.tick();
        }
        assert!(render(&world, &Clock::default(), 40).join("\n").contains(" steps → 2 waypoints "));
    }

    /// The search block's title names what searches and whether `P` and
    /// `X` (the open list, reopening) apply: not under `incremental`, whose
    /// MT-D* Lite keeps its own queue, nor for the any-angle planners;
    /// under `flow-field` only the A* of monsters the field does not
    /// serve uses them (issue 25: the title said decrease-key regardless).
    #[test]
    fn the_search_title_says_what_the_open_list_applies_to() {
        use crate::sim::{Command, RepathPolicy, Setting};
        let title = |repath, planner: Option<crate::search::Planner>| {
            let mut world = played(0);
            world.apply(Command::Set(Setting::Open(crate::search::OpenUpdate::DecreaseKey)));
            world.apply(Command::Set(Setting::Repath(repath)));
            if let Some(planner) = planner {
                world.apply(Command::Set(Setting::Planner(planner)));
            }
            render(&world, &Clock::default(), 40).into_iter().find(|l| l.contains("Search ·")).unwrap()
        };
        assert_eq!(title(RepathPolicy::Timer, None), "┌ Search · decrease-key ─────────┐");
        assert_eq!(title(RepathPolicy::Incremental, None), "┌ Search · MT-D* Lite, no P X ───┐");
        assert_eq!(title(RepathPolicy::FlowField, None), "┌ Search · field + A* d-key ─────┐");
        assert_eq!(
            title(RepathPolicy::Timer, Some(crate::search::Planner::NAVMESH)),
            "┌ Search · navmesh, no P X ──────┐"
        );
    }

    /// Each settings row names the keys that change that very setting.
    #[test]
    fn setting_rows_name_their_keys() {
        use crate::sim::Setting;
        use crate::ui::keys::{Action, action};
        use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let text = render(&played(0), &Clock::default(), 36);
        let rows: Vec<(String, String)> = text[1..=7]
            .iter()
            .map(|row| {
                let row: Vec<char> = row.chars().collect();
                let key: String = row[1..4].iter().collect();
                let label: String = row[4..15].iter().collect();
                (key.trim().to_string(), label.trim().to_string())
            })
            .collect();
        let labels: Vec<&str> = rows.iter().map(|(_, label)| label.as_str()).collect();
        assert_eq!(labels, ["Algorithm", "Heuristic", "Tie-break", "Neighbors", "Weight", "Repath", "Smoothing"]);
        let d = Settings::default();
        for (keys, label) in &rows {
            assert!(!keys.is_empty(), "{label} has no key");
            for k in keys.chars() {
                let Some(Action::World(crate::sim::Command::Set(setting))) =
                    action(KeyEvent::new(KeyCode::Char(k), KeyModifiers::NONE), &d)
                else {
                    panic!("{k:?}, listed for {label}, sets nothing");
                };
                let right = match setting {
                    Setting::Planner(_) | Setting::GridPlanner => label == "Algorithm",
                    Setting::Heuristic(_) => label == "Heuristic",
                    Setting::Tie(_) => label == "Tie-break",
                    Setting::Neighbors(_) => label == "Neighbors",
                    Setting::Weight(_) => label == "Weight",
                    Setting::Repath(_) => label == "Repath",
                    Setting::Smoothing(_) => label == "Smoothing",
                    // Named in the search block's title, above the stale
                    // pops it decides.
                    Setting::Open(_) => false,
                    Setting::Reopen(_) => false,
                    // Named in the world block's title, above the
                    // overlaps it decides.
                    Setting::Avoidance(_) => false,
                    // The hunters' tactics are shown in the watched
                    // monster's lines, where they act.
                    Setting::Aim(_) | Setting::Packs(_) | Setting::Lost(_) => false,
                };
                assert!(right, "{k:?}, listed for {label}, sets {setting:?}");
            }
        }
    }

    /// An 80x24 terminal leaves the panel 23 rows: one box, the settings
    /// packed, every figure, the repaths and the watched monster kept
    /// (issue 27: they were lost); a 100x30 one, 29 rows, has room for the
    /// settings one a line. Styles are in the snapshot, as the packed
    /// settings are dimmed where unused.
    #[test]
    fn a_short_panel_folds_and_keeps_the_repaths_and_the_watched_monster() {
        let world = played(300);
        let styled = |height| {
            let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, height));
            let times = TickTimes { wall_ms: 2.5, cpu_ms: 4.75, threads_ms: vec![0.25, 2.25, 2.25] };
            Panel { micros_per_search: 12.5, times, ..Panel::new(&world, &Clock::default(), &Palette::NAMED) }
                .render(buf.area, &mut buf);
            crate::ui::testing::styled(&buf)
        };
        insta::assert_snapshot!("panel_at_80x24", styled(23));
        insta::assert_snapshot!("panel_at_100x30", styled(29));
        for height in [23, 29] {
            let text = render(&world, &Clock::default(), height);
            for wanted in ["Repaths/s", "Watching   M 1/4", "Budget waits", "Catches", "Overlaps", "  path "] {
                assert!(text.iter().any(|l| l.contains(wanted)), "{height}: {wanted}: {text:#?}");
            }
        }
        assert!(render(&world, &Clock::default(), 29).iter().any(|l| l.contains("A  Algorithm  astar")));
    }

    /// However short, the panel never panics and its box is closed at the
    /// bottom; below 80x24 it keeps its world block's first lines.
    #[test]
    fn a_panel_of_any_height_is_closed_and_never_panics() {
        let world = played(300);
        for height in 0..40 {
            let text = render(&world, &Clock::default(), height);
            if height >= 2 {
                assert_eq!(text[height as usize - 1], "└────────────────────────────────┘", "{height}");
            }
            if height >= 19 {
                assert!(text.iter().any(|l| l.contains("World: dungeon")), "{height}: {text:#?}");
                assert!(text.iter().any(|l| l.contains("Tick 300")), "{height}: {text:#?}");
            }
        }
        let text = render(&world, &Clock::default(), 30);
        assert!(text.iter().any(|l| l.contains("Searches/s")));
    }
}
