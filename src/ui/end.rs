//! The end screen, over the map once a session is won or lost: how it
//! ended, how long it took, the catches and lives, what the monsters' AI
//! spent over the whole session (or, when the session ends a run, the run
//! level by level), and the keys that go on from here.

use super::log::game_time;
use super::palette::Palette;
use super::panel::num;
use super::stakes::{Leg, Stakes, totals};
use crate::shown::shown;
use crate::sim::{Goal, Outcome, RepathReason, World};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

/// The end screen of `world`, which is won or lost.
pub struct EndScreen<'a> {
    pub world: &'a World,
    pub palette: &'a Palette,
    /// False in replay: only quitting is offered.
    pub live: bool,
    /// What the session is part of: what the keys go on to.
    pub stakes: &'a Stakes,
    /// The keys are not taken yet (the moment after the end): they show
    /// dimmed.
    pub waiting: bool,
}

/// Rows of the end screen besides a run's levels: the headline, the
/// session's figures, the run's total, the keys, blank lines and borders.
const FIXED_ROWS: u16 = 11;

impl EndScreen<'_> {
    /// The title and the body, line by line, at most `rows` lines (a
    /// run's levels are cut to fit, the latest kept).
    fn lines(&self, rows: u16) -> (String, Vec<Line<'static>>) {
        let world = self.world;
        let p = self.palette;
        let total = &world.stats().total;
        let over = self.stakes.permadeath && world.outcome() == Outcome::Lost;
        let (headline, colour) = match (world.outcome(), world.rules().goal) {
            (Outcome::Won, Goal::Reach) => ("You won: you reached the goal".to_string(), p.goal),
            (Outcome::Won, Goal::Survive { ticks }) => (format!("You won: you survived {}", game_time(ticks)), p.goal),
            (Outcome::Won, Goal::None) => ("You won".to_string(), p.goal),
            (Outcome::Lost, _) if over => {
                ("You died: caught with no life left, the descent is over".to_string(), p.monster)
            }
            (Outcome::Lost, _) => ("You lost: caught with no life left".to_string(), p.monster),
            (Outcome::Running, _) => ("Still running".to_string(), p.key),
        };
        let ended = world.ended_at().unwrap_or_else(|| world.ticks());
        let lives = match (world.lives(), world.rules().lives) {
            (Some(left), Some(of)) => format!("{left} of {of}"),
            _ => "unlimited".to_string(),
        };
        let row = |label: &str, value: String| Line::from(format!(" {label:<12}{value}"));
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let mut lines = vec![
            Line::from(Span::styled(format!(" {headline}"), Style::new().fg(colour).add_modifier(Modifier::BOLD))),
            Line::default(),
            row("Game time", game_time(ended)),
            row("Catches", num(total.catches)),
            row("Lives left", lives),
            Line::default(),
        ];
        match &self.stakes.run {
            Some(run) if self.stakes.ends_run(world) => {
                let legs = run.with(world);
                let (ticks, catches) = totals(&legs);
                let count = plural(legs.len() as u64, run.unit, &format!("{}s", run.unit));
                let head = format!(" {}: {count} in {}, {}", run.title, game_time(ticks), catches_text(catches));
                lines.push(Line::styled(head, bold));
                lines.extend(leg_lines(&legs, rows.saturating_sub(FIXED_ROWS).max(2) as usize));
            }
            _ => {
                let reasons: Vec<String> = RepathReason::ALL
                    .iter()
                    .map(|&r| format!("{} {}", r.name(), num(total.repaths[r as usize])))
                    .collect();
                lines.extend([
                    Line::styled(" What the monsters' AI spent", bold),
                    row("Searches", format!("{}, {} found", num(total.searches), num(total.found))),
                    row(
                        "Expanded",
                        match total.cells_updated {
                            // Repairs (the incremental policy) also update cells: work
                            // the expansions alone would hide.
                            0 => format!("{} nodes", num(total.expanded)),
                            n => format!("{} nodes, {} updated", num(total.expanded), num(n)),
                        },
                    ),
                    row("Repaths", num(total.repaths.iter().sum())),
                    Line::from(format!("   {}", reasons[..4].join("  "))),
                    Line::from(format!("   {}", reasons[4..].join("  "))),
                ]);
            }
        }
        lines.push(Line::default());
        lines.push(self.keys());
        (format!(" {} ", shown(world.name())), lines)
    }

    /// The keys that go on from here, dimmed while they are not taken yet.
    fn keys(&self) -> Line<'static> {
        let mut key = Style::new().fg(self.palette.key);
        let mut text = Style::new();
        if self.waiting {
            key = key.add_modifier(Modifier::DIM);
            text = text.add_modifier(Modifier::DIM);
        }
        let mut keys = Vec::new();
        let mut offer = |k: &'static str, what: String| {
            keys.push(Span::raw(" "));
            keys.push(Span::styled(k, key));
            keys.push(Span::styled(format!(" {what} "), text));
        };
        let stakes = self.stakes;
        if self.live {
            if stakes.retry {
                offer("r", format!("retry (seed {})", self.world.seed()));
            }
            if let Some(next) = stakes.next.as_ref().filter(|_| self.world.outcome() == Outcome::Won) {
                offer(">", next.clone());
            }
        }
        offer("q", stakes.leave.to_string());
        Line::from(keys)
    }
}

/// "1 catch", "3 catches".
fn catches_text(n: u64) -> String {
    plural(n, "catch", "catches")
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", num(n), if n == 1 { one } else { many })
}

/// A run's levels, one line each, at most `rows` lines: the latest, after
/// a line saying how many earlier ones are left out.
fn leg_lines(legs: &[Leg], rows: usize) -> Vec<Line<'static>> {
    let shown_legs = if legs.len() > rows { rows - 1 } else { legs.len() };
    let skipped = legs.len() - shown_legs;
    let name_width = legs.iter().map(|l| shown(&l.name).chars().count()).max().unwrap_or(0).min(28);
    let seed_width = legs.iter().map(|l| l.seed.to_string().len()).max().unwrap_or(0);
    let mut lines = Vec::new();
    if skipped > 0 {
        lines.push(Line::from(format!("   ... {skipped} earlier")));
    }
    for (n, leg) in legs.iter().enumerate().skip(skipped) {
        let name: String = shown(&leg.name).chars().take(name_width).collect();
        let how = match (leg.won, leg.tries) {
            (true, 1) => "won".to_string(),
            (true, t) => format!("won, {t} tries"),
            (false, 1) => "lost".to_string(),
            (false, t) => format!("lost, {t} tries"),
        };
        lines.push(Line::from(format!(
            " {:>2} {name:<name_width$}  seed {:<seed_width$}  {}  {:<10} {how}",
            n + 1,
            leg.seed,
            game_time(leg.ticks),
            catches_text(leg.catches),
        )));
    }
    lines
}

impl Widget for EndScreen<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (title, lines) = self.lines(area.height);
        let width = lines.iter().map(Line::width).max().unwrap_or(0).max(title.chars().count()) as u16 + 3;
        let popup = area.centered(Constraint::Length(width), Constraint::Length(lines.len() as u16 + 2));
        Clear.render(popup, buf);
        Paragraph::new(lines).block(Block::bordered().title(title)).render(popup, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::ui::map::MapView;
    use crate::ui::overlay::Overlay;
    use crate::ui::stakes::Run;
    use crate::ui::testing::{game_until_end, game_won, lines};

    /// A corridor where the monster sees the player at once.
    const TRAP: &str = "name: trap\nlives: 2\n##########\n#@...M..G#\n##########\n";

    /// The end screen over the map, as a 60x20 terminal's map area shows it.
    fn screen(world: &World, level: &str, live: bool, stakes: &Stakes) -> String {
        render(world, level, live, stakes, false).0
    }

    /// The screen's text, and the style of the cell at the start of its
    /// keys line.
    fn render(world: &World, level: &str, live: bool, stakes: &Stakes, waiting: bool) -> (String, Style) {
        let level = Level::parse(level, "test").unwrap();
        let mut buf = Buffer::empty(Rect::new(0, 0, 60, 20));
        let palette = Palette::NAMED;
        MapView::plain(world, &level, Overlay::None, &palette).render(buf.area, &mut buf);
        EndScreen { world, palette: &palette, live, stakes, waiting }.render(buf.area, &mut buf);
        let text = lines(&buf);
        let keys = text.iter().rposition(|l| l.contains(" quit") || l.contains(" title")).unwrap_or(0);
        let x = text[keys].find(['r', 'q']).map_or(0, |b| text[keys][..b].chars().count());
        (text.join("\n"), buf[(x as u16, keys as u16)].style())
    }

    /// The stakes of a campaign level with more after it.
    fn campaign(run: Option<Run>) -> Stakes {
        Stakes { next: Some("next level: maze (2 of 6)".into()), run, ..Stakes::default() }
    }

    fn leg(name: &str, seed: u64, ticks: u64, catches: u64, tries: u32) -> Leg {
        Leg { name: name.into(), seed, ticks, catches, tries, won: true }
    }

    /// A loss offers retry and quit, never the next level.
    #[test]
    fn lost_with_no_life_left() {
        let world = game_until_end(TRAP, 2000);
        assert_eq!(world.outcome(), Outcome::Lost);
        let text = screen(&world, TRAP, true, &campaign(None));
        assert!(!text.contains("next level"), "{text}");
        insta::assert_snapshot!(text);
    }

    #[test]
    fn won_on_the_goal() {
        let world = game_won();
        insta::assert_snapshot!(screen(&world, "name: step\n#####\n#@G.#\n#####\n", true, &Stakes::default()));
    }

    #[test]
    fn a_won_level_offers_the_next_with_a_key_no_move_takes() {
        let world = game_won();
        let text = screen(&world, "name: step\n#####\n#@G.#\n#####\n", true, &campaign(None));
        assert!(text.contains("r retry (seed 1)  > next level: maze (2 of 6)  q quit"), "{text}");
    }

    /// Winning the campaign's last level sums up the run.
    #[test]
    fn the_last_level_sums_up_the_campaign() {
        let world = game_won();
        let legs = vec![leg("dungeon", 7, 2_660, 1, 1), leg("maze", 7, 4_400, 3, 3)];
        let run = Run { title: "The campaign".into(), unit: "level", legs, current: leg("step", 1, 80, 0, 1) };
        let stakes = Stakes { run: Some(run), ..Stakes::default() };
        insta::assert_snapshot!(screen(&world, "name: step\n#####\n#@G.#\n#####\n", true, &stakes));
    }

    /// A loss in a descent is the end of it: the summary, no retry, and
    /// back to the title; a long descent shows its latest depths.
    #[test]
    fn a_death_ends_the_descent() {
        let world = game_until_end(TRAP, 2000);
        let legs = (1..=12).map(|d| leg(&format!("rooms 5 (depth {d})"), 5, 900 + d * 40, d % 3, 1)).collect();
        let run = Run { title: "Descent 5".into(), unit: "depth", legs, current: Leg::new("trap", 1) };
        let stakes = Stakes {
            next: Some("down to depth 14".into()),
            retry: false,
            permadeath: true,
            run: Some(run),
            leave: "back to the title",
        };
        let text = screen(&world, TRAP, true, &stakes);
        assert!(!text.contains("retry") && !text.contains("depth 14"), "{text}");
        insta::assert_snapshot!(text);
    }

    /// Under `incremental` the cells its repairs updated are shown beside
    /// the expansions.
    #[test]
    fn repairs_show_the_cells_they_updated() {
        let room = "name: room\nlives: 9\n##########\n#@.......#\n#........#\n#.......M#\n##########\n";
        let level = Level::parse(room, "test").unwrap();
        let settings = crate::sim::Settings { repath: crate::sim::RepathPolicy::Incremental, ..Default::default() };
        let mut world = World::with_rules(&level, 1, settings, crate::sim::Rules::game(&level)).unwrap();
        // The player zigzags across the monster's path, so that repairs
        // move the search.
        for (dx, dy) in [(0, 1), (1, 0), (1, -1), (1, 1), (0, 1), (-1, -1)] {
            world.apply(crate::sim::Command::Move { dx, dy });
            for _ in 0..6 {
                world.tick();
            }
        }
        let total = world.stats().total;
        assert!(total.cells_updated > 0, "{total:?}");
        let text = screen(&world, room, true, &Stakes::default());
        let updated = format!("{} updated", num(total.cells_updated));
        assert!(text.contains(&updated), "{text}");
    }

    #[test]
    fn a_replay_offers_only_quit() {
        let world = game_until_end(TRAP, 2000);
        let text = screen(&world, TRAP, false, &campaign(None));
        assert!(text.contains("q quit"), "{text}");
        assert!(!text.contains("retry") && !text.contains("next level"), "{text}");
    }

    /// The moment after the end, the keys show dimmed: they are not taken
    /// yet.
    #[test]
    fn the_keys_are_dimmed_while_they_wait() {
        let world = game_until_end(TRAP, 2000);
        let (_, waiting) = render(&world, TRAP, true, &Stakes::default(), true);
        assert!(waiting.add_modifier.contains(Modifier::DIM), "{waiting:?}");
        let (_, ready) = render(&world, TRAP, true, &Stakes::default(), false);
        assert!(!ready.add_modifier.contains(Modifier::DIM), "{ready:?}");
    }
}
