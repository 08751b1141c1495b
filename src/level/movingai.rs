//! Moving AI benchmark maps (`type octile`), read as walls and plain floor.
//!
//! `.`, `G` and `S` are passable ground (entry cost 1); `@`, `O`, `T` and
//! `W` block. Water `W` blocks because HOG2 never lets ground units enter it,
//! and the benchmark's optimal lengths assume that (see SOURCES.md in the
//! shared benchmark folder, `../shared/movingai`; nothing here reads it, and
//! the tests that do skip visibly when it is absent).

use super::error::{END_OF_FILE, LevelError, quote};
use super::{Axis, Level, default_name, numbered_lines};
use crate::grid::{Grid, MAX_SIDE, Tile};

/// The first line that makes a file a Moving AI map, whatever its name.
const MAGIC: &str = "type octile";

/// The glyphs as listed in an unknown-glyph message.
const EXPECTED: &str = ". G S @ O T W";

/// Whether `text` is meant as a Moving AI map rather than a delve level:
/// its first line starts with the word `type`, in any case. No delve map
/// row starts with a `t`, so `type Octile` is a Moving AI header with a
/// typo, reported as such by [`parse`], not a row of unknown glyphs.
pub(super) fn is_movingai(text: &str) -> bool {
    numbered_lines(text).next().is_some_and(|(_, l)| {
        let word = l.split_whitespace().next().unwrap_or("");
        word.eq_ignore_ascii_case("type")
    })
}

fn tile(c: char) -> Option<Tile> {
    match c {
        '.' | 'G' | 'S' => Some(Tile::Floor(1)),
        '@' | 'O' | 'T' | 'W' => Some(Tile::Wall),
        _ => None,
    }
}

/// Reads a Moving AI map: `type octile`, `height H`, `width W`, `map`, each
/// line exactly so (one space, no other whitespace, H and W written as
/// [`crate::number`] has numbers), then H rows of W glyphs. The sides are
/// checked against [`MAX_SIDE`] before the tiles are allocated.
pub(super) fn parse(text: &str, origin: &str) -> Result<Level, LevelError> {
    let mut lines = numbered_lines(text);
    let magic = header_line(&mut lines, 1, MAGIC_LINE, origin)?;
    if magic != MAGIC {
        return Err(header_error(1, MAGIC_LINE, quote(magic), origin));
    }
    let height = side(&mut lines, 2, Axis::Height, origin)?;
    let width = side(&mut lines, 3, Axis::Width, origin)?;
    let map = header_line(&mut lines, 4, MAP_LINE, origin)?;
    if map != "map" {
        return Err(header_error(4, MAP_LINE, quote(map), origin));
    }

    let mut tiles = Vec::with_capacity(width * height);
    let mut rows = 0;
    let mut next_line = 5;
    for (line, s) in lines.by_ref().take(height) {
        let mut found = 0;
        for (x, c) in s.chars().enumerate() {
            let t = tile(c).ok_or_else(|| LevelError::UnknownGlyph {
                origin: origin.to_owned(),
                line,
                column: x + 1,
                glyph: c,
                expected: EXPECTED,
            })?;
            if x < width {
                tiles.push(t);
            }
            found += 1;
        }
        if found != width {
            return Err(LevelError::Ragged { origin: origin.to_owned(), line, expected: width, found });
        }
        rows += 1;
        next_line = line + 1;
    }
    if rows < height {
        return Err(row_count(next_line, height, rows, origin));
    }
    // Blank lines may follow the map; anything else is an extra row.
    let mut extra = lines.filter(|(_, l)| !l.trim().is_empty());
    if let Some((line, _)) = extra.next() {
        return Err(row_count(line, height, height + 1 + extra.count(), origin));
    }
    Ok(Level {
        name: default_name(origin),
        description: format!("Moving AI benchmark map, {width}x{height}"),
        source: text.to_owned(),
        grid: Grid::new(width, height, &tiles),
        player: None,
        monsters: Vec::new(),
        wanderers: Vec::new(),
        fleeing: Vec::new(),
        boids: Vec::new(),
        start: None,
        goal: None,
        objective: None,
        lives: None,
        doors: None,
        generator: None,
    })
}

/// [`Level::to_movingai`]: the map in this format, or `None` when its grid
/// has a tile the format cannot hold.
pub(super) fn write(level: &Level) -> Option<String> {
    let grid = &level.grid;
    let written = |t: Tile| match t {
        Tile::Floor(1) => Some('.'),
        Tile::Wall => Some('@'),
        _ => None,
    };
    let (width, height) = (grid.width(), grid.height());
    // The glyphs of the map it was read from, row by row, if it was one.
    let source = level.is_movingai().then(|| numbered_lines(&level.source).skip(4)).into_iter().flatten();
    let mut original: Vec<Vec<char>> = source.take(height).map(|(_, row)| row.chars().collect()).collect();
    original.resize(height, Vec::new());
    let eol = if level.source.split('\n').next().is_some_and(|l| l.ends_with('\r')) { "\r\n" } else { "\n" };
    let mut out = format!("{MAGIC}{eol}height {height}{eol}width {width}{eol}map{eol}");
    out.reserve((width + eol.len()) * height);
    for (y, row) in original.iter().enumerate() {
        for x in 0..width {
            let t = grid.tile(crate::grid::Cell::new(x as i32, y as i32));
            let kept = row.get(x).copied().filter(|&c| tile(c) == Some(t));
            out.push(kept.or_else(|| written(t))?);
        }
        out.push_str(eol);
    }
    Some(out)
}

const MAGIC_LINE: &str = "`type octile`";
const MAP_LINE: &str = "`map`";

/// Reads the `height H` (line 2) or `width W` (line 3) header line.
fn side<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    line: usize,
    axis: Axis,
    origin: &str,
) -> Result<usize, LevelError> {
    let expected = match axis {
        Axis::Height => "`height H` with H a whole number above 0",
        Axis::Width => "`width W` with W a whole number above 0",
    };
    let text = header_line(lines, line, expected, origin)?;
    // Exactly `height H`: one space, H as every number is written.
    let key = axis.to_string();
    let number = text.strip_prefix(key.as_str()).and_then(|rest| rest.strip_prefix(' '));
    let size = number.and_then(crate::number::whole).filter(|&n| n > 0);
    let Some(size) = size.map(|n| usize::try_from(n).unwrap_or(usize::MAX)) else {
        return Err(header_error(line, expected, quote(text), origin));
    };
    if size > MAX_SIDE {
        return Err(LevelError::TooLarge { origin: origin.to_owned(), line, axis, size });
    }
    Ok(size)
}

/// The next header line, which should be line number `line`.
fn header_line<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    line: usize,
    expected: &'static str,
    origin: &str,
) -> Result<&'a str, LevelError> {
    lines.next().map(|(_, text)| text).ok_or_else(|| header_error(line, expected, END_OF_FILE.to_owned(), origin))
}

fn header_error(line: usize, expected: &'static str, found: String, origin: &str) -> LevelError {
    LevelError::MovingAiHeader { origin: origin.to_owned(), line, expected, found }
}

fn row_count(line: usize, expected: usize, found: usize, origin: &str) -> LevelError {
    LevelError::MovingAiRowCount { origin: origin.to_owned(), line, expected, found }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;

    fn parse_err(text: &str) -> LevelError {
        match parse(text, "maps/m.map") {
            Ok(_) => panic!("parsed: {text:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn reads_passable_and_blocked_glyphs() {
        let l = parse("type octile\nheight 2\nwidth 4\nmap\n.GS@\nOTW.\n", "maps/m.map").unwrap();
        assert_eq!(l.name, "m");
        assert_eq!((l.grid.width(), l.grid.height()), (4, 2));
        let walkable: Vec<bool> = l.grid.cells().map(|c| l.grid.is_walkable(c)).collect();
        assert_eq!(walkable, [true, true, true, false, false, false, false, true]);
        assert_eq!(l.grid.entry_cost(Cell::new(2, 0)), Some(1));
        assert_eq!(l.player, None);
    }

    #[test]
    fn crlf_without_final_newline_and_trailing_blank_lines() {
        assert!(parse("type octile\r\nheight 1\r\nwidth 2\r\nmap\r\n..", "m").is_ok());
        assert!(parse("type octile\nheight 1\nwidth 2\nmap\n..\n\n\n", "m").is_ok());
    }

    #[test]
    fn bad_header_lines() {
        let cases = [
            ("type octile\n", 2, "end of file"),
            ("type octile\nwidth 2\nheight 1\nmap\n..\n", 2, "\"width 2\""),
            ("type octile\nheight x\nwidth 2\nmap\n..\n", 2, "\"height x\""),
            ("type octile\nheight 0\nwidth 2\nmap\n", 2, "\"height 0\""),
            ("type octile\nheight 1 2\nwidth 2\nmap\n", 2, "\"height 1 2\""),
            ("type octile\nheight 1\nwidth -2\nmap\n", 3, "\"width -2\""),
            ("type octile\nheight 1\nwidth 2\nmop\n..\n", 4, "\"mop\""),
            ("type octile\nheight 1\nwidth 2\n", 4, "end of file"),
            ("type Octile\nheight 1\nwidth 2\nmap\n..\n", 1, "\"type Octile\""),
            ("TYPE octile\nheight 1\nwidth 2\nmap\n..\n", 1, "\"TYPE octile\""),
            ("type  octile\nheight 1\nwidth 2\nmap\n..\n", 1, "\"type  octile\""),
            ("type tile\n", 1, "\"type tile\""),
            // Every header line is exactly as the format has it.
            ("type octile \nheight 1\nwidth 2\nmap\n..\n", 1, "\"type octile \""),
            ("type octile\t\nheight 1\nwidth 2\nmap\n..\n", 1, "\"type octile\\t\""),
            ("type octile\nheight 1 \nwidth 2\nmap\n..\n", 2, "\"height 1 \""),
            ("type octile\nheight  1\nwidth 2\nmap\n..\n", 2, "\"height  1\""),
            ("type octile\n height 1\nwidth 2\nmap\n..\n", 2, "\" height 1\""),
            ("type octile\nheight +1\nwidth 2\nmap\n..\n", 2, "\"height +1\""),
            ("type octile\nheight 01\nwidth 2\nmap\n..\n", 2, "\"height 01\""),
            ("type octile\nheight 1\nwidth 0x2\nmap\n..\n", 3, "\"width 0x2\""),
            ("type octile\nheight 1\nwidth 2\nmap \n..\n", 4, "\"map \""),
        ];
        for (text, line, found) in cases {
            let e = parse_err(text);
            assert!(
                matches!(e, LevelError::MovingAiHeader { line: l, found: ref f, .. } if l == line && f == found),
                "{text:?}: {e:?}"
            );
        }
        assert_eq!(
            parse_err("type octile\nheight 1\nwidth 2\nmop\n..\n").to_string(),
            "maps/m.map:4: bad Moving AI header: expected `map`, found \"mop\""
        );
        // A typo in the first line is a header error too, not a delve level
        // full of unknown glyphs.
        let e = Level::parse("type Octile\nheight 1\nwidth 2\nmap\n..\n", "maps/m.map").unwrap_err();
        assert_eq!(e.to_string(), "maps/m.map:1: bad Moving AI header: expected `type octile`, found \"type Octile\"");
        assert!(!is_movingai("typed\n") && !is_movingai("name: type\n") && is_movingai("Type x\n"));
    }

    #[test]
    fn too_large_header_is_rejected_before_allocating() {
        let e = parse_err("type octile\nheight 100000000\nwidth 100000000\nmap\n");
        assert!(matches!(e, LevelError::TooLarge { line: 2, axis: Axis::Height, size: 100_000_000, .. }));
        assert_eq!(e.to_string(), "maps/m.map:2: map too large: height 100000000 is above the limit of 2048 cells");
        let e = parse_err("type octile\nheight 1\nwidth 2049\nmap\n");
        assert!(matches!(e, LevelError::TooLarge { line: 3, axis: Axis::Width, size: 2049, .. }));
    }

    #[test]
    fn row_count_mismatch() {
        let e = parse_err("type octile\nheight 3\nwidth 2\nmap\n..\n..\n");
        assert!(matches!(e, LevelError::MovingAiRowCount { line: 7, expected: 3, found: 2, .. }));
        assert_eq!(e.to_string(), "maps/m.map:7: the header says height 3 but the map has 2 rows");
        let e = parse_err("type octile\nheight 1\nwidth 2\nmap\n..\n..\n\n..\n");
        assert!(matches!(e, LevelError::MovingAiRowCount { line: 6, expected: 1, found: 3, .. }));
    }

    #[test]
    fn width_mismatch_and_unknown_glyph() {
        let e = parse_err("type octile\nheight 2\nwidth 3\nmap\n...\n....\n");
        assert!(matches!(e, LevelError::Ragged { line: 6, expected: 3, found: 4, .. }));
        let e = parse_err("type octile\nheight 1\nwidth 3\nmap\n.#.\n");
        assert!(matches!(e, LevelError::UnknownGlyph { line: 5, column: 2, glyph: '#', .. }));
        assert_eq!(e.to_string(), "maps/m.map:5:2: unknown glyph '#' (expected one of . G S @ O T W)");
    }
}
