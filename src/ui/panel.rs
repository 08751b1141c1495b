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

/// Lines of the world block kept on a short terminal: tick, creatures,
/// catches.
const WORLD_SHORT: usize = 4;

/// The panel of one world.
pub struct Panel<'a> {
    pub world: &'a World,
    pub clock: &'a Clock,
    pub palette: &'a Palette,
    /// Mean microseconds per search over the last second: the one figure
    /// that depends on the machine, kept as a field so a test can fix it.
    pub micros_per_search: f64,
}

impl<'a> Panel<'a> {
    pub fn new(world: &'a World, clock: &'a Clock, palette: &'a Palette) -> Panel<'a> {
        Panel { world, clock, palette, micros_per_search: world.stats().window.micros_per_search() }
    }

    fn settings(&self) -> Vec<Line<'static>> {
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
        .into_iter()
        .map(|(key, label, value, used)| {
            // A setting the current algorithm ignores is dimmed.
            let value_style = if used { Style::new().add_modifier(Modifier::BOLD) } else { Style::new().dim() };
            Line::from(vec![
                Span::styled(format!("{key:<3}"), Style::new().fg(self.palette.key)),
                Span::raw(format!("{label:<11}")),
                Span::styled(value, value_style),
            ])
        })
        .collect()
    }

    fn search(&self) -> Vec<Line<'static>> {
        let stats = self.world.stats();
        let (w, last) = (&stats.window, stats.last_search.as_ref());
        let last_stat = |f: fn(&SearchReport) -> u64| last.map_or("-".to_string(), |r| num(f(r)));
        let reasons = |rs: &[RepathReason]| {
            let cell = |&r: &RepathReason| format!("{:<10}{:>4}", r.name(), num(w.repaths(r)));
            format!("  {}", rs.iter().map(cell).collect::<Vec<_>>().join("  "))
        };
        // Without smoothing the waypoints are the path's cells: say so
        // rather than show "30 → 31 waypoints".
        let smoothing = self.world.settings().smoothing;
        let path = match last {
            Some(r) if r.found && smoothing => format!("{} steps → {} waypoints", r.steps, r.waypoints),
            Some(r) if r.found => format!("{} steps, not smoothed", r.steps),
            Some(_) => "not found".to_string(),
            None => "-".to_string(),
        };
        // No time to show before a search in the window.
        let micros = if w.searches == 0 { "-".to_string() } else { format!("{:.1}", self.micros_per_search) };
        // Per-second figures first, then the last search's, never mixed in a row.
        [
            format!("{:<11}{:>6}  {} found", "Searches/s", num(w.searches), num(w.found)),
            format!("{:<11}{:>6}  stale {}/s", "Expanded/s", num(w.expanded), num(w.stale_pops)),
            format!("{:<11}{:>6}  updated {}/s", "µs/search", micros, num(w.cells_updated)),
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
            // Under timer+threshold a repath needs both the monster's timer
            // tick and the player K cells away: one alone does nothing.
            match self.world.settings().repath {
                RepathPolicy::TimerThreshold => {
                    format!("{:<11}{:>6}  needs both", "Repaths/s", num(w.total_repaths()))
                }
                _ => format!("{:<11}{:>6}", "Repaths/s", num(w.total_repaths())),
            },
            reasons(&[RepathReason::Start, RepathReason::Timer]),
            reasons(&[RepathReason::Threshold, RepathReason::Blocked]),
            reasons(&[RepathReason::Version, RepathReason::Stuck]),
            reasons(&[RepathReason::EveryTick, RepathReason::Settings]),
            reasons(&[RepathReason::Moved]),
            format!("{:<13}{:>4}/s  queued {:>3}", "Budget waits", num(w.budget_waits), stats.queued),
        ]
        .into_iter()
        .map(Line::from)
        .collect()
    }

    fn world_lines(&self) -> Vec<Line<'static>> {
        let world = self.world;
        let p = self.palette;
        let pace = if self.clock.paused() {
            Span::styled(format!("PAUSED ({})", self.clock.speed_label()), Style::new().reversed())
        } else {
            Span::raw(format!("speed {}", self.clock.speed_label()))
        };
        let counts = world.counts();
        let kind = |k: Kind| {
            // Boids mostly fly, and the map draws a flying one as an arrow.
            let sample = if k == Kind::Boid { '>' } else { letter(k) };
            vec![
                Span::styled(format!("{sample} "), Style::new().fg(p.creature(k)).bold()),
                Span::raw(format!("{:<10}{:>3}", plural(k), counts[k as usize])),
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
        lines.push(self.crowd());
        lines.extend(self.watched());
        lines
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
                let outcome = if r.found { format!("path {} → {}", r.steps, r.waypoints) } else { "no path".into() };
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

/// A kind's name in the panel's creature count.
fn plural(k: Kind) -> &'static str {
    match k {
        Kind::Monster => "monsters",
        Kind::Wanderer => "wanderers",
        Kind::Fleeing => "fleeing",
        Kind::Boid => "boids",
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

impl Widget for Panel<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let settings = self.settings();
        let world = self.world_lines();
        let search = self.search();
        // Settings first; then the search figures before the watched
        // monster, which a short terminal drops from the world block.
        let below = area.height.saturating_sub(settings.len() as u16 + 2);
        let world_rows = if below >= (world.len() + search.len()) as u16 + 4 { world.len() } else { WORLD_SHORT };
        let [top, middle, bottom] = Layout::vertical([
            Constraint::Length(settings.len() as u16 + 2),
            Constraint::Fill(1),
            Constraint::Length(world_rows as u16 + 2),
        ])
        .areas(area);
        Paragraph::new(settings).block(block(" Settings ".into())).render(top, buf);
        // The avoidance (key V) decides the overlaps in this block, so it
        // is named in its title, as the open list is in the search's.
        let title = format!(" World: {} · {} ", shown(self.world.name()), self.world.settings().avoidance);
        Paragraph::new(world).block(block(title)).render(bottom, buf);

        // The open-list update decides the stale pops below, so it is
        // named here rather than in a settings row of its own (one more
        // row would push the figures off an 80x24 terminal).
        let q = &self.world.settings().search;
        // Short enough for the block's width beside `decrease-key`.
        let reopening = if q.reopen { " · reopen" } else { "" };
        let search_block = block(format!(" Search · {}{reopening} ", q.open));
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

    fn render(world: &World, clock: &Clock, height: u16) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, height));
        let panel = Panel { micros_per_search: 12.5, ..Panel::new(world, clock, &Palette::NAMED) };
        panel.render(buf.area, &mut buf);
        lines(&buf)
    }

    /// The whole panel of a fixed session, timing fixed at 12.5 µs.
    #[test]
    fn panel_snapshot() {
        let world = played(300);
        let got = render(&world, &Clock::default(), 36);
        insta::assert_snapshot!(got.join("\n"));
    }

    #[test]
    fn settings_follow_the_world_and_unused_ones_are_dimmed() {
        let mut world = played(0);
        let mut clock = Clock::default();
        clock.toggle_pause();
        let text = render(&world, &clock, 36);
        assert!(text.iter().any(|l| l.contains("Tick 0        PAUSED (1×)")), "{text:#?}");
        let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, 36));
        Panel::new(&world, &clock, &Palette::NAMED).render(buf.area, &mut buf);
        // Row 5 is the weight: unused by A*.
        assert!(buf[(15, 5)].modifier.contains(Modifier::DIM));
        assert!(!buf[(15, 1)].modifier.contains(Modifier::DIM));

        world.apply(crate::sim::Command::Set(crate::sim::Setting::Planner(crate::search::Planner::WEIGHTED)));
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Repath(crate::sim::RepathPolicy::EveryTick)));
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Open(crate::search::OpenUpdate::DecreaseKey)));
        let text = render(&world, &clock, 36);
        assert_eq!(text[1], "│A  Algorithm  weighted          │");
        assert_eq!(text[9], "┌ Search · decrease-key ─────────┐");
        assert_eq!(text[6], "│R  Repath     every-tick        │");
        // Only timer+threshold says that a repath needs both.
        assert!(!text.iter().any(|l| l.contains("needs both")), "{text:#?}");
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Repath(crate::sim::RepathPolicy::TimerThreshold)));
        let text = render(&world, &clock, 36);
        assert!(text.iter().any(|l| l.contains("Repaths/s       0  needs both")), "{text:#?}");
        world.apply(crate::sim::Command::Set(crate::sim::Setting::Reopen(true)));
        assert_eq!(render(&world, &clock, 36)[9], "┌ Search · decrease-key · reopen ┐");
        let mut buf = Buffer::empty(Rect::new(0, 0, WIDTH, 36));
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
        let text = render(&world, &clock, 36);
        assert_eq!(text[1], "│A  Algorithm  jps               │");
        assert!(text[14].starts_with("│  stale") && text[14].contains(" scan"), "{text:#?}");
        // The default level has water: A* answers, and the panel says so.
        let mut world = played(0);
        world.apply(jps);
        while world.stats().last_search.is_none() && world.ticks() < 2000 {
            world.tick();
        }
        let text = render(&world, &clock, 36);
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
        let text = render(&world, &Clock::default(), 36);
        let shown = format!("Watching   M {n}/{n} at ");
        assert!(text.iter().any(|l| l.contains(&shown)), "{text:#?}");
        world.watch(None);
        let text = render(&world, &Clock::default(), 36);
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

    #[test]
    fn a_short_panel_keeps_the_figures_and_never_panics() {
        // An 80x24 terminal leaves 23 rows: every setting, the main
        // figures, and the world without the watched monster.
        let text = render(&played(300), &Clock::default(), 23);
        assert_eq!(text[8], "└────────────────────────────────┘");
        assert_eq!(text[9], "┌ Search · lazy ─────────────────┐");
        assert_eq!(text[12], "│µs/search    12.5  updated 0/s  │");
        assert_eq!(text[17], "┌ World: dungeon · separation ───┐");
        let catches = format!("│Catches {:<8}seed 1          │", played(300).stats().total.catches);
        assert_eq!(text[21], catches);
        let world = played(300);
        // However short, the panel keeps the world block, closed at the
        // bottom.
        for height in 0..36 {
            let text = render(&world, &Clock::default(), height);
            if height >= 2 {
                assert!(text.iter().any(|l| l.starts_with("┌ World: dungeon ")), "{height}: {text:#?}");
                assert_eq!(text[height as usize - 1], "└────────────────────────────────┘", "{height}");
            }
        }
        let text = render(&world, &Clock::default(), 30);
        assert!(text.iter().any(|l| l.contains("Searches/s")));
        assert!(!text.iter().any(|l| l.contains("budget/tick")));
    }
}
