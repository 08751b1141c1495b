//! The end screen, over the map once a session is won or lost: how it
//! ended, how long it took, the catches and lives, what the monsters' AI
//! spent over the whole session, and the keys that go on from here.

use super::log::game_time;
use super::palette::Palette;
use super::panel::num;
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
    /// Whether `n` goes on to another level.
    pub next_level: bool,
}

impl EndScreen<'_> {
    /// The title and the body, line by line.
    fn lines(&self) -> (String, Vec<Line<'static>>) {
        let world = self.world;
        let p = self.palette;
        let total = &world.stats().total;
        let (headline, colour) = match (world.outcome(), world.rules().goal) {
            (Outcome::Won, Goal::Reach) => ("You won: you reached the goal".to_string(), p.goal),
            (Outcome::Won, Goal::Survive { ticks }) => (format!("You won: you survived {}", game_time(ticks)), p.goal),
            (Outcome::Won, Goal::None) => ("You won".to_string(), p.goal),
            (Outcome::Lost, _) => ("You lost: caught with no life left".to_string(), p.monster),
            (Outcome::Running, _) => ("Still running".to_string(), p.key),
        };
        let ended = world.ended_at().unwrap_or_else(|| world.ticks());
        let lives = match (world.lives(), world.rules().lives) {
            (Some(left), Some(of)) => format!("{left} of {of}"),
            _ => "unlimited".to_string(),
        };
        let row = |label: &str, value: String| Line::from(format!(" {label:<12}{value}"));
        let reasons: Vec<String> =
            RepathReason::ALL.iter().map(|&r| format!("{} {}", r.name(), num(total.repaths[r as usize]))).collect();
        let mut lines = vec![
            Line::from(Span::styled(format!(" {headline}"), Style::new().fg(colour).add_modifier(Modifier::BOLD))),
            Line::default(),
            row("Game time", game_time(ended)),
            row("Catches", num(total.catches)),
            row("Lives left", lives),
            Line::default(),
            Line::styled(" What the monsters' AI spent", Style::new().add_modifier(Modifier::BOLD)),
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
            Line::default(),
        ];
        let key = Style::new().fg(p.key);
        let mut keys = Vec::new();
        let mut offer = |k: &'static str, what: String| {
            keys.push(Span::raw(" "));
            keys.push(Span::styled(k, key));
            keys.push(Span::raw(format!(" {what} ")));
        };
        if self.live {
            offer("r", format!("retry (seed {})", world.seed()));
            if self.next_level {
                offer("n", "next level".into());
            }
        }
        offer("q", "quit".into());
        lines.push(Line::from(keys));
        (format!(" {} ", shown(world.name())), lines)
    }
}

impl Widget for EndScreen<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (title, lines) = self.lines();
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
    use crate::sim::Command;
    use crate::ui::map::{MapView, Markers};
    use crate::ui::overlay::Overlay;
    use crate::ui::testing::{game_until_end, lines};

    /// A corridor where the monster sees the player at once.
    const TRAP: &str = "name: trap\nlives: 2\n##########\n#@...M..G#\n##########\n";

    /// The end screen over the map, as a 60x20 terminal's map area shows it.
    fn screen(world: &World, level: &str, live: bool, next_level: bool) -> String {
        let level = Level::parse(level, "test").unwrap();
        let mut buf = Buffer::empty(Rect::new(0, 0, 60, 20));
        let palette = Palette::NAMED;
        let markers = Markers::of(&level);
        MapView { world, overlay: Overlay::None, palette: &palette, markers, sight: None, focus: None, cursor: None }
            .render(buf.area, &mut buf);
        EndScreen { world, palette: &palette, live, next_level }.render(buf.area, &mut buf);
        lines(&buf).join("\n")
    }

    #[test]
    fn lost_with_no_life_left() {
        let world = game_until_end(TRAP, 2000);
        assert_eq!(world.outcome(), Outcome::Lost);
        insta::assert_snapshot!(screen(&world, TRAP, true, true));
    }

    #[test]
    fn won_on_the_goal() {
        let text = "name: step\n#####\n#@.G#\n#####\n";
        let level = Level::parse(text, "test").unwrap();
        let mut world = World::with_rules(&level, 1, Default::default(), crate::sim::Rules::game(&level)).unwrap();
        world.apply(Command::Run { dx: 1, dy: 0 });
        while world.outcome() == Outcome::Running && world.ticks() < 100 {
            world.tick();
        }
        assert_eq!(world.outcome(), Outcome::Won);
        insta::assert_snapshot!(screen(&world, text, true, false));
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
            world.apply(Command::Move { dx, dy });
            for _ in 0..6 {
                world.tick();
            }
        }
        let total = world.stats().total;
        assert!(total.cells_updated > 0, "{total:?}");
        let text = screen(&world, room, true, true);
        let updated = format!("{} updated", num(total.cells_updated));
        assert!(text.contains(&updated), "{text}");
    }

    #[test]
    fn a_replay_offers_only_quit() {
        let world = game_until_end(TRAP, 2000);
        let text = screen(&world, TRAP, false, true);
        assert!(text.contains("q quit"), "{text}");
        assert!(!text.contains("retry") && !text.contains("next level"), "{text}");
    }
}
