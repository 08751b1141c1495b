//! The sight and noise indicator: whether a monster sees or hears the
//! player right now, read from the world's perception of the last tick
//! (never changing it), and whether the player's steps can be heard at
//! all (standing still is silent).

use super::legend::Legend;
use super::palette::Palette;
use crate::sim::{Kind, Sense, World};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// What the monsters perceive of the player now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Senses {
    /// The monsters (by ordinal, as the log names them) that see the player.
    pub seen_by: Vec<usize>,
    /// The monsters that hear the player without seeing it.
    pub heard_by: Vec<usize>,
    /// Whether the player's steps can be heard: it moved lately.
    pub audible: bool,
}

impl Senses {
    /// What the monsters of `world` perceived of the player in its last tick.
    pub fn of(world: &World) -> Senses {
        let mut senses = Senses { audible: world.player_moving(), ..Senses::default() };
        let monsters = world.creatures().iter().enumerate().filter(|(_, c)| c.kind == Kind::Monster);
        for (ordinal, (i, _)) in monsters.enumerate() {
            match world.perceived(i) {
                Some(Sense::Sight) => senses.seen_by.push(ordinal + 1),
                Some(Sense::Hearing) => senses.heard_by.push(ordinal + 1),
                None => {}
            }
        }
        senses
    }

    /// The indicator as a legend: `SEEN by M 2` or `unseen`, then `HEARD
    /// by M 1`, `audible` (walking) or `silent` (standing still); who is
    /// left out when the line is narrow, the alarm never.
    pub fn legend(&self, p: &Palette) -> Legend {
        let alarm = p.highlight(p.player, p.monster);
        let who = |ordinals: &[usize]| {
            let names: Vec<String> = ordinals.iter().map(|n| format!("M {n}")).collect();
            format!("by {}", names.join(", "))
        };
        let legend = match self.seen_by.as_slice() {
            [] => Legend::default().words("unseen ·"),
            seen => Legend::default().part(vec![Span::styled("SEEN", alarm)]).detail(who(seen)).words("·"),
        };
        match (self.heard_by.as_slice(), self.audible) {
            ([], false) => legend.words("silent"),
            ([], true) => legend.part(vec![Span::styled("audible", Style::new().fg(p.key))]),
            (heard, _) => legend.part(vec![Span::styled("HEARD", alarm)]).detail(who(heard)),
        }
    }

    /// The indicator fitted to `width` columns, with a space after it (it
    /// sits on the map's bottom border, right-aligned).
    pub fn line(&self, p: &Palette, width: u16) -> Line<'static> {
        let mut line = self.legend(p).fit(width.saturating_sub(1));
        line.spans.push(Span::raw(" "));
        line.right_aligned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::sim::{Command, Settings};

    fn world(text: &str) -> World {
        World::new(&Level::parse(text, "t").unwrap(), 1, Settings::default()).unwrap()
    }

    /// Seen along the corridor; heard round the corner; nothing while the
    /// player stands still behind the wall; and reading it changes nothing.
    #[test]
    fn the_indicator_says_who_sees_and_who_hears_now() {
        let mut w = world("#######\n#@...M#\n#######\n");
        assert_eq!(Senses::of(&w), Senses::default(), "before any tick nothing is perceived");
        w.tick();
        let hash = w.hash();
        assert_eq!(Senses::of(&w), Senses { seen_by: vec![1], heard_by: vec![], audible: false });
        assert_eq!(w.hash(), hash);
        let p = Palette::NAMED;
        assert_eq!(Senses::of(&w).legend(&p).text(), " SEEN by M 1 · silent");
        // Round a corner, walking: heard, not seen.
        let mut w = world("#########\n#......M#\n#######.#\n#.@.....#\n#########\n");
        w.apply(Command::Move { dx: -1, dy: 0 });
        w.tick();
        let senses = Senses::of(&w);
        assert_eq!(senses, Senses { seen_by: vec![], heard_by: vec![1], audible: true });
        assert_eq!(senses.legend(&p).text(), " unseen · HEARD by M 1");
        assert_eq!(senses.legend(&p).fit(16).to_string(), " unseen · HEARD");
        // Standing still there: silent once the step has died away (the
        // monster hunting the player may come round the corner and see it
        // later).
        for _ in 0..7 {
            w.tick();
        }
        let senses = Senses::of(&w);
        assert!(!senses.audible && senses.heard_by.is_empty(), "{senses:?}");
        assert!(senses.legend(&p).text().ends_with("· silent"));
    }
}
