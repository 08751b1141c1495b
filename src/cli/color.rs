//! `--color`: whether the terminal commands (play, replay, lab) draw in
//! colour. The flag wins over the `NO_COLOR` variable, as
//! <https://no-color.org> asks of a program that has one.

use super::names::names;
use crate::ui::{ColorChoice, Palette};

/// The `--color` flag of the commands that draw on the terminal.
#[derive(clap::Args, Clone, Debug)]
pub struct ColorArgs {
    /// When to draw in colour: auto (unless NO_COLOR is set), always, or never (shading glyphs and reverse video
    /// then say what colour would)
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = names(ColorChoice::ALL))]
    pub color: ColorChoice,
}

impl ColorArgs {
    /// The palette the flag and the environment give.
    pub fn palette(&self) -> Palette {
        Palette::choose(self.color)
    }
}
