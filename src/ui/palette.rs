//! Colours of the screen, by role, and how what colour alone would say is
//! said without it.
//!
//! The 16 named colours work on every terminal and follow its theme; RGB
//! shades are used only when `COLORTERM` says the terminal shows them
//! (`truecolor` or `24bit`), because elsewhere they are approximated badly
//! or not at all.
//!
//! Without colour (`NO_COLOR` set, or `--color never`) the screen is drawn
//! in [`Palette::MONO`]: every colour is the terminal's own, and what a
//! colour meant is carried by a glyph or a modifier instead. The search,
//! flow-field and flock overlays shade their cells with `░ ▒ ▓ █`
//! ([`Palette::shade`]), markers and the watched monster are drawn in
//! reverse video ([`Palette::marker`], [`Palette::highlight`]). Drawing
//! goes through these two functions in both modes, so a legend painted
//! with them shows exactly what the map does.

use crate::sim::Kind;
use ratatui::buffer::Cell;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;

delve::named_enum! {
    /// When the screen is drawn in colour (`--color`), as the
    /// <https://no-color.org> convention asks: the flag wins over the
    /// `NO_COLOR` variable.
    ColorChoice, "color" {
        /// In colour unless `NO_COLOR` is set (to anything but nothing).
        Auto => "auto",
        /// In colour, even with `NO_COLOR` set.
        Always => "always",
        /// Without colour, whatever the environment says.
        Never => "never",
    }
}

/// What an overlay or the lab says about a cell by shading it: a
/// background colour, or without colour a shading glyph over the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    /// A cell the search closed (expanded).
    Closed,
    /// A cell on the search's open frontier.
    Open,
    /// A cell an incremental repair updated.
    Updated,
    /// The node being expanded now (the lab, stepping).
    Current,
    /// A flow-field cell in quarter `0..4` of the field's bound, nearest
    /// first.
    Band(usize),
    /// A crowd of boids: `0` one nearby, `1` two or three, `2` more.
    Density(usize),
}

impl Shade {
    /// The glyph that stands for the shade without colour.
    pub const fn glyph(self) -> char {
        match self {
            Shade::Closed => '░',
            Shade::Open => '▒',
            Shade::Updated => '▓',
            Shade::Current => '█',
            // Nearest densest, as the colours are brightest there.
            Shade::Band(0) => '█',
            Shade::Band(1) => '▓',
            Shade::Band(2) => '▒',
            Shade::Band(_) => '░',
            Shade::Density(0) => '░',
            Shade::Density(1) => '▒',
            Shade::Density(_) => '▓',
        }
    }
}

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
    /// Without colour: every colour above is the terminal's own, and
    /// shades, markers and highlights are glyphs and reverse video.
    pub mono: bool,
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
        mono: false,
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
        mono: false,
    };

    /// No colour at all: the terminal's own foreground and background
    /// everywhere, meaning carried by glyphs and modifiers.
    pub const MONO: Palette = Palette {
        wall: Color::Reset,
        floor: Color::Reset,
        mud: Color::Reset,
        water: Color::Reset,
        door: Color::Reset,
        player: Color::Reset,
        monster: Color::Reset,
        wanderer: Color::Reset,
        fleeing: Color::Reset,
        boid: Color::Reset,
        watched: Color::Reset,
        raw_path: Color::Reset,
        waypoint: Color::Reset,
        closed: Color::Reset,
        open: Color::Reset,
        updated: Color::Reset,
        density: [Color::Reset; 3],
        key: Color::Reset,
        goal: Color::Reset,
        start: Color::Reset,
        marker_text: Color::Reset,
        mono: true,
    };

    /// The palette for a terminal whose `COLORTERM` is `colorterm`.
    pub fn for_colorterm(colorterm: Option<&str>) -> Palette {
        match colorterm {
            Some(v) if v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit") => Palette::TRUECOLOR,
            _ => Palette::NAMED,
        }
    }

    /// The palette `choice` gives in an environment whose `NO_COLOR` and
    /// `COLORTERM` are `no_color` and `colorterm`: without colour when
    /// asked (`never`), or by default when `NO_COLOR` is set and not empty;
    /// else as `COLORTERM` says.
    pub fn for_env(choice: ColorChoice, no_color: Option<&str>, colorterm: Option<&str>) -> Palette {
        let colour = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => no_color.is_none_or(str::is_empty),
        };
        if colour { Palette::for_colorterm(colorterm) } else { Palette::MONO }
    }

    /// The palette `choice` gives for this process's terminal.
    pub fn choose(choice: ColorChoice) -> Palette {
        let var = |name| std::env::var(name).ok();
        Palette::for_env(choice, var("NO_COLOR").as_deref(), var("COLORTERM").as_deref())
    }

    /// Shades `cell` as `shade`: its background colour, or without colour
    /// the shade's glyph in place of the cell's.
    pub fn shade(&self, cell: &mut Cell, shade: Shade) {
        if self.mono {
            cell.set_char(shade.glyph());
        } else {
            cell.set_bg(self.shade_colour(shade));
        }
    }

    /// A legend's sample of `shade`: two cells shaded as the map shades
    /// one (a blank on its colour, or the shading glyph).
    pub fn swatch(&self, shade: Shade) -> Span<'static> {
        let mut cell = Cell::new(" ");
        self.shade(&mut cell, shade);
        Span::styled(cell.symbol().repeat(2), cell.style())
    }

    /// The background colour of `shade`.
    fn shade_colour(&self, shade: Shade) -> Color {
        match shade {
            Shade::Closed => self.closed,
            Shade::Open => self.open,
            Shade::Updated => self.updated,
            Shade::Current => Color::Magenta,
            Shade::Band(0) => self.density[2],
            Shade::Band(1) => self.density[1],
            Shade::Band(2) => self.density[0],
            Shade::Band(_) => self.closed,
            Shade::Density(d) => self.density[d.min(2)],
        }
    }

    /// The style of a marker letter (`S`, `G`) on its `background`: in
    /// reverse video without colour.
    pub fn marker(&self, background: Color) -> Style {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        if self.mono { bold.add_modifier(Modifier::REVERSED) } else { bold.fg(self.marker_text).bg(background) }
    }

    /// The style of the watched monster (and of the player flashing after
    /// a catch): `fg` on `bg`, or reverse video without colour.
    pub fn highlight(&self, fg: Color, bg: Color) -> Style {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        if self.mono { bold.add_modifier(Modifier::REVERSED) } else { bold.fg(fg).bg(bg) }
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
    fn no_color_and_the_flag_choose_the_palette() {
        use ColorChoice::{Always, Auto, Never};
        let truecolor = Some("truecolor");
        assert_eq!(Palette::for_env(Auto, None, truecolor), Palette::TRUECOLOR);
        assert_eq!(Palette::for_env(Auto, Some(""), None), Palette::NAMED, "an empty NO_COLOR is not set");
        assert_eq!(Palette::for_env(Auto, Some("1"), truecolor), Palette::MONO);
        assert_eq!(Palette::for_env(Auto, Some("yes"), None), Palette::MONO);
        // The flag wins over the variable, either way.
        assert_eq!(Palette::for_env(Always, Some("1"), None), Palette::NAMED);
        assert_eq!(Palette::for_env(Always, Some("1"), truecolor), Palette::TRUECOLOR);
        assert_eq!(Palette::for_env(Never, None, truecolor), Palette::MONO);
        assert_eq!("never".parse::<ColorChoice>(), Ok(Never));
        assert!("sometimes".parse::<ColorChoice>().is_err());
    }

    #[test]
    fn without_colour_shades_are_glyphs_and_markers_reversed() {
        let mono = Palette::MONO;
        let all = [Shade::Closed, Shade::Open, Shade::Updated, Shade::Current];
        let bands = (0..4).map(Shade::Band);
        let crowds = (0..3).map(Shade::Density);
        for shade in all.into_iter().chain(bands).chain(crowds) {
            let mut cell = Cell::new(".");
            mono.shade(&mut cell, shade);
            assert_eq!((cell.symbol(), cell.bg), (shade.glyph().to_string().as_str(), Color::Reset), "{shade:?}");
            let mut cell = Cell::new(".");
            Palette::NAMED.shade(&mut cell, shade);
            assert_eq!(cell.symbol(), ".", "{shade:?}: in colour the glyph stays");
            assert_ne!(cell.bg, Color::Reset, "{shade:?}");
        }
        // Each overlay's shades are told apart without colour.
        let distinct =
            |glyphs: Vec<char>| glyphs.iter().collect::<std::collections::BTreeSet<_>>().len() == glyphs.len();
        assert!(distinct(vec![
            Shade::Closed.glyph(),
            Shade::Open.glyph(),
            Shade::Updated.glyph(),
            Shade::Current.glyph()
        ]));
        assert!(distinct((0..4).map(|b| Shade::Band(b).glyph()).collect()));
        assert!(distinct((0..3).map(|d| Shade::Density(d).glyph()).collect()));
        assert!(mono.marker(mono.goal).add_modifier.contains(Modifier::REVERSED));
        assert!(mono.highlight(mono.player, mono.watched).add_modifier.contains(Modifier::REVERSED));
        assert!(!Palette::NAMED.marker(Palette::NAMED.goal).add_modifier.contains(Modifier::REVERSED));
        // Nothing in the monochrome palette is a colour.
        assert!(mono.mono && !Palette::NAMED.mono && !Palette::TRUECOLOR.mono);
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
