//! Helpers shared by the front end's tests.

use crate::level::Level;
use crate::sim::{Bot, Outcome, Rules, Settings, World};
use ratatui::buffer::Buffer;

/// The buffer's text, one string per row.
pub fn lines(buf: &Buffer) -> Vec<String> {
    let area = buf.area;
    (area.top()..area.bottom()).map(|y| (area.left()..area.right()).map(|x| buf[(x, y)].symbol()).collect()).collect()
}

/// The default level, seed 1, its first monster watched, after `ticks`
/// ticks of the scripted player walking about.
pub fn played(ticks: u64) -> World {
    let mut w = World::new(&Level::embedded_default(), 1, Settings::default()).unwrap();
    w.watch(super::app::next_monster(&w));
    let mut bot = Bot::new(1);
    for _ in 0..ticks {
        if let Some(c) = bot.command(&w) {
            w.apply(c);
        }
        w.tick();
    }
    w
}

/// A game on the level `text` (its goal and lives), run with the player
/// standing still until it is won or lost, or `ticks` have passed.
pub fn game_until_end(text: &str, ticks: u64) -> World {
    let level = Level::parse(text, "test").unwrap();
    let mut w = World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap();
    w.watch(super::app::next_monster(&w));
    while w.outcome() == Outcome::Running && w.ticks() < ticks {
        w.tick();
    }
    w
}

/// A game on a corridor whose goal is one step east, won by that step.
pub fn game_won() -> World {
    let level = Level::parse("name: step\n#####\n#@G.#\n#####\n", "test").unwrap();
    let mut w = World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap();
    w.apply(crate::sim::Command::Move { dx: 1, dy: 0 });
    while w.outcome() == Outcome::Running && w.ticks() < 100 {
        w.tick();
    }
    assert_eq!(w.outcome(), Outcome::Won);
    w
}

/// The buffer with its machine-dependent timings blanked to `~` in the
/// plain style, so that a snapshot of a whole screen does not depend on how
/// fast the tests run: a figure just before `µs` or `ms`, with the spaces
/// before it, up to the next border, the six-column field after a
/// `µs/search` label, and the panel's line of what a tick costs
/// (`Tick 2.5 cpu 4.8 ms: ...`) after its `Tick`.
pub fn mask_timing(buf: &mut Buffer) {
    use ratatui::style::Style;
    let area = buf.area;
    for y in area.top()..area.bottom() {
        let row: Vec<&str> = (area.left()..area.right()).map(|x| buf[(x, y)].symbol()).collect();
        let text = |from: usize, n: usize| row.get(from..from + n).map(|s| s.concat());
        let Some(at) = (0..row.len()).find(|&i| text(i, 5).as_deref() == Some("Tick ")) else { continue };
        let end = (at..row.len()).find(|&i| row[i] == "│").unwrap_or(row.len());
        if !(at..end).any(|i| text(i, 5).as_deref() == Some(" cpu ")) {
            continue;
        }
        for x in at + 5..end {
            buf[(area.left() + x as u16, y)].set_symbol("~").set_style(Style::reset());
        }
    }
    let digit = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.');
    for y in area.top()..area.bottom() {
        let symbol = |x: u16| buf[(x, y)].symbol();
        // A unit is `µ`, or `m` then `s` right after a digit (`12ms`).
        let ms = |x: u16| symbol(x) == "m" && x + 1 < area.right() && symbol(x + 1) == "s" && digit(symbol(x - 1));
        let units: Vec<u16> = (area.left() + 1..area.right()).filter(|&x| symbol(x) == "µ" || ms(x)).collect();
        let spans: Vec<(u16, u16)> = units
            .into_iter()
            .filter_map(|unit| {
                Some(if digit(symbol(unit - 1)) {
                    // Back over the figure and the padding before it, which a
                    // right-aligned field widens or narrows with the figure.
                    let mut start = unit - 1;
                    while start > area.left() && (digit(symbol(start - 1)) || symbol(start - 1) == " ") {
                        start -= 1;
                    }
                    (start, (unit..area.right()).find(|&x| symbol(x) == "│").unwrap_or(area.right()))
                } else if symbol(unit) == "µ"
                    && unit + 2 < area.right()
                    && symbol(unit + 1) == "s"
                    && symbol(unit + 2) == "/"
                {
                    ((unit + 11).min(area.right()), (unit + 17).min(area.right()))
                } else {
                    return None;
                })
            })
            .collect();
        for (start, end) in spans {
            for x in start..end {
                buf[(x, y)].set_symbol("~").set_style(Style::reset());
            }
        }
    }
}

/// The buffer's text, then its styles: the same rows with one letter per
/// distinct style (a space for the plain one), then what each letter is,
/// so that a snapshot shows colours and modifiers as well as glyphs.
pub fn styled(buf: &Buffer) -> String {
    use ratatui::style::{Color, Modifier};
    const LETTERS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let area = buf.area;
    let mut styles: Vec<(Color, Color, Modifier)> = Vec::new();
    let mut rows = Vec::new();
    for y in area.top()..area.bottom() {
        let mut row = String::new();
        for x in area.left()..area.right() {
            let cell = &buf[(x, y)];
            let style = (cell.fg, cell.bg, cell.modifier);
            if style == (Color::Reset, Color::Reset, Modifier::empty()) {
                row.push(' ');
                continue;
            }
            let i = styles.iter().position(|&s| s == style).unwrap_or_else(|| {
                styles.push(style);
                styles.len() - 1
            });
            row.push(LETTERS.chars().nth(i).unwrap_or('?'));
        }
        rows.push(row.trim_end().to_string());
    }
    let key = styles.iter().zip(LETTERS.chars()).map(|(&(fg, bg, m), letter)| {
        let mut parts = Vec::new();
        if fg != Color::Reset {
            parts.push(format!("fg {fg}"));
        }
        if bg != Color::Reset {
            parts.push(format!("bg {bg}"));
        }
        if !m.is_empty() {
            parts.push(format!("{m:?}").to_lowercase());
        }
        format!("{letter}: {}", parts.join(", "))
    });
    format!("{}\n\nstyles:\n{}\n\n{}", lines(buf).join("\n"), rows.join("\n"), key.collect::<Vec<_>>().join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    /// A row written on a fast and on a slow machine masks to one text.
    fn masked(row: &str) -> String {
        let mut buf = Buffer::empty(Rect::new(0, 0, 34, 1));
        buf.set_string(0, 0, format!("│{row:<32}│"), ratatui::style::Style::default());
        mask_timing(&mut buf);
        lines(&buf).concat()
    }

    #[test]
    fn timings_mask_alike_whatever_their_width() {
        let fast = masked("Searches/s    4  2 found, 12.3µs");
        for slow in ["Searches/s    4  2 found, 456µs", "Searches/s    4  2 found, 12ms"] {
            assert_eq!(masked(slow), fast, "{slow}");
        }
        assert_eq!(fast, "│Searches/s    4  2 found,~~~~~~~│");
        let overlaps = masked("Overlaps   3/s ttc 0.0s     4µs");
        assert_eq!(masked("Overlaps   3/s ttc 0.0s  1234µs"), overlaps);
        // Text without a unit after a figure is left alone.
        assert_eq!(masked("Monsters 12 ms"), "│Monsters 12 ms                  │");
    }
}
