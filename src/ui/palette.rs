//! Colours of the screen, by role.
//!
//! The 16 named colours work on every terminal and follow its theme; RGB
//! shades are used only when `COLORTERM` says the terminal shows them
//! (`truecolor` or `24bit`), because elsewhere they are approximated badly
//! or not at all.

use crate::sim::Kind;
use ratatui::style::Color;

/// One colour per thing drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Walls.
    pub wall: Color,
    /// Floor of entry cost 1.
    pub floor: Color,
    /// Floor that costs 2–9 to enter.
    pub mud: Color,
    /// Water.
    pub water: Color,
    /// Doors, open or closed.
    pub door: Color,
    /// The player.
    pub player: Color,
    /// Monsters.
    pub monster: Color,
    /// Wanderers.
    pub wanderer: Color,
    /// Fleeing creatures.
    pub fleeing: Color,
    /// Boids.
    pub boid: Color,
    /// Background of the watched monster.
    pub watched: Color,
    /// Paths overlay: the raw cell path and the smoothed waypoints.
    pub raw_path: Color,
    /// The smoothed waypoints.
    pub waypoint: Color,
    /// Search overlay: backgrounds of closed cells and of the open frontier.
    pub closed: Color,
    /// Background of the open frontier.
    pub open: Color,
    /// Background of the cells an incremental repair updated.
    pub updated: Color,
    /// Flock overlay: backgrounds from sparse to crowded.
    pub density: [Color; 3],
    /// Keys shown in the panel and the status line.
    pub key: Color,
    /// Backgrounds of the goal `G` and the start `S`, and their letters.
    pub goal: Color,
    /// Background of the start `S`.
    pub start: Color,
    /// The letters `G` and `S` on their backgrounds.
    pub marker_text: Color,
}

impl Palette {
    /// The 16 named colours.
    pub const NAMED: Palette = Palette {
        wall: Color::Gray,
        floor: Color::DarkGray,
        mud: Color::Yellow,
        water: Color::Blue,
        door: Color::Yellow,
        player: Color::White,
        monster: Color::LightRed,
        wanderer: Color::Green,
        fleeing: Color::LightCyan,
        boid: Color::LightMagenta,
        watched: Color::Red,
        raw_path: Color::Red,
        waypoint: Color::LightRed,
        closed: Color::Blue,
        open: Color::Cyan,
        updated: Color::Green,
        density: [Color::DarkGray, Color::Magenta, Color::LightMagenta],
        key: Color::LightYellow,
        goal: Color::LightGreen,
        start: Color::Cyan,
        marker_text: Color::Black,
    };

    /// Softer shades for terminals with 24-bit colour.
    pub const TRUECOLOR: Palette = Palette {
        wall: Color::Rgb(150, 140, 125),
        floor: Color::Rgb(80, 80, 80),
        mud: Color::Rgb(170, 125, 60),
        water: Color::Rgb(70, 120, 220),
        door: Color::Rgb(200, 160, 70),
        player: Color::Rgb(255, 255, 255),
        monster: Color::Rgb(255, 85, 70),
        wanderer: Color::Rgb(110, 200, 100),
        fleeing: Color::Rgb(110, 220, 230),
        boid: Color::Rgb(230, 130, 230),
        watched: Color::Rgb(140, 30, 30),
        raw_path: Color::Rgb(140, 65, 60),
        waypoint: Color::Rgb(255, 140, 110),
        closed: Color::Rgb(30, 45, 100),
        open: Color::Rgb(25, 115, 125),
        updated: Color::Rgb(40, 110, 50),
        density: [Color::Rgb(55, 30, 65), Color::Rgb(100, 40, 115), Color::Rgb(160, 60, 170)],
        key: Color::Rgb(255, 220, 110),
        goal: Color::Rgb(90, 220, 110),
        start: Color::Rgb(70, 150, 170),
        marker_text: Color::Rgb(0, 0, 0),
    };

    /// The palette for a terminal whose `COLORTERM` is `colorterm`.
    pub fn for_colorterm(colorterm: Option<&str>) -> Palette {
        match colorterm {
            Some(v) if v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit") => Palette::TRUECOLOR,
            _ => Palette::NAMED,
        }
    }

    /// The palette for this process's terminal.
    pub fn detect() -> Palette {
        Palette::for_colorterm(std::env::var("COLORTERM").ok().as_deref())
    }

    /// The colour of a creature of `kind`.
    pub fn creature(&self, kind: Kind) -> Color {
        match kind {
            Kind::Monster => self.monster,
            Kind::Wanderer => self.wanderer,
            Kind::Fleeing => self.fleeing,
            Kind::Boid => self.boid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_only_when_the_terminal_says_so() {
        assert_eq!(Palette::for_colorterm(Some("truecolor")), Palette::TRUECOLOR);
        assert_eq!(Palette::for_colorterm(Some("24bit")), Palette::TRUECOLOR);
        assert_eq!(Palette::for_colorterm(Some("TrueColor")), Palette::TRUECOLOR);
        assert_eq!(Palette::for_colorterm(Some("256")), Palette::NAMED);
        assert_eq!(Palette::for_colorterm(Some("")), Palette::NAMED);
        assert_eq!(Palette::for_colorterm(None), Palette::NAMED);
    }

    #[test]
    fn the_named_palette_uses_only_the_sixteen_colours() {
        let p = Palette::NAMED;
        let all = [
            p.wall,
            p.floor,
            p.mud,
            p.water,
            p.door,
            p.player,
            p.monster,
            p.wanderer,
            p.fleeing,
            p.boid,
            p.watched,
            p.raw_path,
            p.waypoint,
            p.closed,
            p.open,
            p.updated,
            p.density[0],
            p.density[1],
            p.density[2],
            p.key,
            p.goal,
            p.start,
            p.marker_text,
        ];
        for c in all {
            assert!(!matches!(c, Color::Rgb(..) | Color::Indexed(_) | Color::Reset), "{c:?}");
        }
    }
}
