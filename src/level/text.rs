//! The delve level text format: metadata, comments, then the map rows.
//!
//! Reading happens in two passes so that a map above the size limit is
//! rejected before its tiles are allocated: [`layout`] sorts the lines into
//! metadata and map rows (counting, not keeping, rows past the limit), then
//! [`cells`] reads the glyphs of rows already known to fit.

use super::error::{LevelError, quote};
use super::glyph::{self, Spawn};
use super::{
    Axis, DoorCycle, Goal, Level, MAX_DOOR_CYCLE, MIN_DOOR_CYCLE, TICKS_PER_SECOND, default_name, numbered_lines,
};
use crate::grid::{Cell, Grid, MAX_SIDE, Tile};

/// Reads a delve level; `origin` names the file in error messages.
pub(super) fn parse(text: &str, origin: &str) -> Result<Level, LevelError> {
    let (meta, rows) = layout(text, origin)?;
    let map = cells(&rows, origin)?;
    let objective = meta.goal.as_ref().map(|(line, v)| goal(v, *line, origin)).transpose()?;
    if let (Some(Goal::Reach), Some((line, _)), None) = (objective, &meta.goal, &map.goal) {
        return Err(LevelError::NothingToReach { origin: origin.to_owned(), line: *line });
    }
    let lives = meta.lives.as_ref().map(|(line, v)| lives(v, *line, origin)).transpose()?;
    let doors = meta.doors.as_ref().map(|(line, v)| doors(v, *line, origin)).transpose()?;
    let grid = Grid::new(map.width, rows.len(), &map.tiles);
    if let (Some(_), Some((line, _))) = (doors, &meta.doors)
        && !super::has_door(&grid)
    {
        return Err(LevelError::NoDoors { origin: origin.to_owned(), line: *line });
    }
    Ok(Level {
        name: meta.name.map_or_else(|| default_name(origin), |(_, n)| n),
        description: meta.description.map(|(_, d)| d).unwrap_or_default(),
        source: text.to_owned(),
        grid,
        player: map.player.map(|p| p.cell),
        monsters: map.monsters,
        wanderers: map.wanderers,
        fleeing: map.fleeing,
        boids: map.boids,
        start: map.start.map(|p| p.cell),
        goal: map.goal.map(|p| p.cell),
        objective,
        lives,
        doors,
        generator: meta.generator.map(|(_, g)| g),
    })
}

/// Most lives a level may give.
pub const MAX_LIVES: u32 = 99;
/// Longest `survive N`, in seconds (a day of game time).
pub const MAX_SURVIVE_SECONDS: u64 = 86_400;

/// `goal:` as the format writes it: `none`, `reach` or `survive N` (N in
/// seconds of game time).
pub(super) fn goal_text(goal: Goal) -> String {
    match goal {
        Goal::None => "none".to_owned(),
        Goal::Reach => "reach".to_owned(),
        Goal::Survive { ticks } => format!("survive {}", ticks / u64::from(TICKS_PER_SECOND)),
    }
}

fn goal(value: &str, line: usize, origin: &str) -> Result<Goal, LevelError> {
    let mut words = value.split_whitespace();
    let goal = match (words.next(), words.next(), words.next()) {
        (Some("none"), None, _) => Some(Goal::None),
        (Some("reach"), None, _) => Some(Goal::Reach),
        (Some("survive"), Some(n), None) => number(n, 1..=MAX_SURVIVE_SECONDS, ("goal", value, line, origin))?
            .map(|n| Goal::Survive { ticks: n * u64::from(TICKS_PER_SECOND) }),
        _ => None,
    };
    goal.ok_or_else(|| LevelError::BadValue {
        origin: origin.to_owned(),
        line,
        key: "goal",
        value: value.to_owned(),
        expected: "reach, none, or survive N with N seconds from 1 to 86400",
    })
}

fn lives(value: &str, line: usize, origin: &str) -> Result<u32, LevelError> {
    number(value, 1..=MAX_LIVES, ("lives", value, line, origin))?.ok_or_else(|| LevelError::BadValue {
        origin: origin.to_owned(),
        line,
        key: "lives",
        value: value.to_owned(),
        expected: "a whole number from 1 to 99",
    })
}

/// `doors: cycle N`: every door toggles every N ticks.
fn doors(value: &str, line: usize, origin: &str) -> Result<DoorCycle, LevelError> {
    let mut words = value.split_whitespace();
    let period = match (words.next(), words.next(), words.next()) {
        (Some("cycle"), Some(n), None) => number(n, MIN_DOOR_CYCLE..=MAX_DOOR_CYCLE, ("doors", value, line, origin))?,
        _ => None,
    };
    period.map(|period| DoorCycle { period }).ok_or_else(|| LevelError::BadValue {
        origin: origin.to_owned(),
        line,
        key: "doors",
        value: value.to_owned(),
        expected: "cycle N: every door toggles every N ticks, N from 20 (one second) to 72000 (an hour)",
    })
}

/// `text`, a number in the value of a `key:` line, read as every number
/// of the format is ([`crate::number::whole`]): `None` when it is out of
/// `range` (the caller says what the key expects), an error naming the
/// rule when it is not written as a number.
fn number<T: TryFrom<i128> + Copy + PartialOrd>(
    text: &str,
    range: std::ops::RangeInclusive<T>,
    (key, value, line, origin): (&'static str, &str, usize, &str),
) -> Result<Option<T>, LevelError> {
    let Some(n) = crate::number::whole(text) else {
        let (origin, value, number) = (origin.to_owned(), value.to_owned(), text.to_owned());
        return Err(LevelError::BadNumber { origin, line, key, value, number });
    };
    Ok(T::try_from(n).ok().filter(|n| range.contains(n)))
}

/// The metadata values with the line each came from (for duplicate errors).
#[derive(Default)]
struct Metadata {
    name: Option<(usize, String)>,
    description: Option<(usize, String)>,
    goal: Option<(usize, String)>,
    lives: Option<(usize, String)>,
    doors: Option<(usize, String)>,
    generator: Option<(usize, String)>,
}

/// One map row: its 1-based line number and its text.
struct Row<'a> {
    line: usize,
    text: &'a str,
}

fn is_comment(line: &str) -> bool {
    line.starts_with(';')
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// `key: value` when the line is metadata: a key of letters, digits, `_`
/// or `-`, then a colon. No map glyph is a colon, so no map row matches.
fn metadata_line(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let key = key.trim();
    let is_key = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    is_key.then(|| (key, value.trim()))
}

/// What is wrong with a line that is not metadata but was meant as
/// metadata, or `None` for a line meant as a map row. A line was meant as
/// metadata when it has a colon with nothing or a letter that is no glyph
/// before it (`: x`, `na me: x`), or opens with a word of two letters or
/// more, one of them no glyph, followed by a space or the end of the line
/// (`name x`, `nmae`). Rows with a stray character (`#x#`, `#:#`) stay map
/// rows, reported as unknown glyphs.
fn meant_as_metadata(line: &str) -> Option<&'static str> {
    let foreign = |c: char| c.is_alphabetic() && glyph::glyph(c).is_none();
    if let Some((key, _)) = line.split_once(':') {
        let key = key.trim();
        if key.is_empty() {
            return Some("no key before the colon");
        }
        return key.chars().any(foreign).then_some("the key is not one word of letters, digits, _ or -");
    }
    let line = line.trim_start();
    let word_end = line.find(|c: char| !c.is_alphabetic()).unwrap_or(line.len());
    let (word, rest) = line.split_at(word_end);
    let is_word = word.chars().count() >= 2 && word.chars().any(foreign);
    (is_word && rest.chars().next().is_none_or(char::is_whitespace)).then_some("no colon after the key")
}

/// First pass: metadata before the map, comments anywhere, blank lines
/// around the map but not inside it, at most [`MAX_SIDE`] rows.
fn layout<'a>(text: &'a str, origin: &str) -> Result<(Metadata, Vec<Row<'a>>), LevelError> {
    let mut meta = Metadata::default();
    let mut rows: Vec<Row<'a>> = Vec::new();
    // The first blank line after the map started: fine if the file ends
    // there, an error if another map row follows.
    let mut blank_after_rows = None;
    let mut lines = numbered_lines(text);
    while let Some((line, s)) = lines.next() {
        if is_comment(s) {
            continue;
        }
        if is_blank(s) {
            if !rows.is_empty() && blank_after_rows.is_none() {
                blank_after_rows = Some(line);
            }
            continue;
        }
        if let Some(first) = rows.first() {
            if metadata_line(s).is_some() || meant_as_metadata(s).is_some() {
                let origin = origin.to_owned();
                return Err(LevelError::MetadataAfterMap { origin, line, first_row: first.line });
            }
        } else if let Some((key, value)) = metadata_line(s) {
            set_metadata(&mut meta, key, value, line, origin)?;
            continue;
        } else if let Some(problem) = meant_as_metadata(s) {
            return Err(LevelError::BadMetadata { origin: origin.to_owned(), line, found: quote(s), problem });
        }
        if let Some(blank) = blank_after_rows {
            return Err(LevelError::BlankLineInMap { origin: origin.to_owned(), line: blank, next: line });
        }
        if rows.len() == MAX_SIDE {
            let more = lines.by_ref().take_while(|(_, s)| !is_blank(s)).filter(|(_, s)| !is_comment(s)).count();
            return Err(LevelError::TooLarge {
                origin: origin.to_owned(),
                line,
                axis: Axis::Height,
                size: MAX_SIDE + 1 + more,
            });
        }
        rows.push(Row { line, text: s });
    }
    if rows.is_empty() {
        return Err(LevelError::EmptyMap { origin: origin.to_owned() });
    }
    Ok((meta, rows))
}

fn set_metadata(meta: &mut Metadata, key: &str, value: &str, line: usize, origin: &str) -> Result<(), LevelError> {
    let slot = match key {
        "name" => &mut meta.name,
        "description" => &mut meta.description,
        "goal" => &mut meta.goal,
        "lives" => &mut meta.lives,
        "doors" => &mut meta.doors,
        "generator" => &mut meta.generator,
        _ => {
            return Err(LevelError::UnknownKey { origin: origin.to_owned(), line, key: key.to_owned() });
        }
    };
    if let Some((first_line, _)) = slot {
        return Err(LevelError::DuplicateKey {
            origin: origin.to_owned(),
            line,
            key: key.to_owned(),
            first_line: *first_line,
        });
    }
    if key == "name" && value.is_empty() {
        return Err(LevelError::EmptyName { origin: origin.to_owned(), line });
    }
    *slot = Some((line, value.to_owned()));
    Ok(())
}

/// Where a single-use marker (`@`, `S`, `G`) was found.
#[derive(Clone, Copy)]
struct Placed {
    cell: Cell,
    line: usize,
    column: usize,
}

/// The tiles and spawns of the map rows.
#[derive(Default)]
struct Map {
    width: usize,
    tiles: Vec<Tile>,
    player: Option<Placed>,
    monsters: Vec<Cell>,
    wanderers: Vec<Cell>,
    fleeing: Vec<Cell>,
    boids: Vec<Cell>,
    start: Option<Placed>,
    goal: Option<Placed>,
}

/// Second pass: the glyphs. The first row sets the width; every row is
/// checked for unknown glyphs before its width, so a stray trailing space
/// shows up as the glyph it is rather than as a ragged row.
fn cells(rows: &[Row<'_>], origin: &str) -> Result<Map, LevelError> {
    let first = &rows[0];
    let width = first.text.chars().count();
    if width > MAX_SIDE {
        return Err(LevelError::TooLarge {
            origin: origin.to_owned(),
            line: first.line,
            axis: Axis::Width,
            size: width,
        });
    }
    let mut map = Map { width, tiles: Vec::with_capacity(width * rows.len()), ..Map::default() };
    for (y, row) in rows.iter().enumerate() {
        let mut found = 0;
        for (x, c) in row.text.chars().enumerate() {
            let column = x + 1;
            let Some(g) = glyph::glyph(c) else {
                return Err(LevelError::UnknownGlyph {
                    origin: origin.to_owned(),
                    line: row.line,
                    column,
                    glyph: c,
                    expected: glyph::EXPECTED,
                });
            };
            found = column;
            if x >= width {
                continue;
            }
            map.tiles.push(g.tile);
            if let Some(spawn) = g.spawn {
                let cell = Cell::new(x as i32, y as i32);
                let placed = Placed { cell, line: row.line, column };
                map.add(spawn, placed, origin)?;
            }
        }
        if found != width {
            return Err(LevelError::Ragged { origin: origin.to_owned(), line: row.line, expected: width, found });
        }
    }
    Ok(map)
}

impl Map {
    /// Records a spawn; a second `@`, `S` or `G` is an error naming both.
    fn add(&mut self, spawn: Spawn, at: Placed, origin: &str) -> Result<(), LevelError> {
        let list = match spawn {
            Spawn::Player => {
                return place_once(&mut self.player, at, |first| LevelError::DuplicatePlayer {
                    origin: origin.to_owned(),
                    line: at.line,
                    column: at.column,
                    cell: at.cell,
                    first_line: first.line,
                    first_column: first.column,
                    first_cell: first.cell,
                });
            }
            Spawn::Start => return place_marker(&mut self.start, 'S', at, origin),
            Spawn::Goal => return place_marker(&mut self.goal, 'G', at, origin),
            Spawn::Monster => &mut self.monsters,
            Spawn::Wanderer => &mut self.wanderers,
            Spawn::Fleeing => &mut self.fleeing,
            Spawn::Boid => &mut self.boids,
        };
        list.push(at.cell);
        Ok(())
    }
}

fn place_marker(slot: &mut Option<Placed>, marker: char, at: Placed, origin: &str) -> Result<(), LevelError> {
    place_once(slot, at, |first| LevelError::DuplicateMarker {
        origin: origin.to_owned(),
        line: at.line,
        column: at.column,
        marker,
        cell: at.cell,
        first_line: first.line,
        first_column: first.column,
        first_cell: first.cell,
    })
}

/// Fills an empty slot, or reports `duplicate(first)` when it is taken.
fn place_once(
    slot: &mut Option<Placed>,
    at: Placed,
    duplicate: impl FnOnce(Placed) -> LevelError,
) -> Result<(), LevelError> {
    match *slot {
        Some(first) => Err(duplicate(first)),
        None => {
            *slot = Some(at);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Level {
        parse(text, "levels/t.txt").unwrap_or_else(|e| panic!("{e}"))
    }

    fn parse_err(text: &str) -> LevelError {
        match parse(text, "levels/t.txt") {
            Ok(_) => panic!("parsed: {text:?}"),
            Err(e) => e,
        }
    }

    /// A level is a map: how many creatures a world holds is the world's
    /// to say (`sim::World::capacity`), so a level of nothing but markers
    /// reads as it is.
    #[test]
    fn creature_markers_are_the_levels_and_the_cap_the_worlds() {
        let rows = |width: usize, height: usize| format!("{}\n", "M".repeat(width)).repeat(height);
        assert_eq!(parse_ok(&rows(317, 317)).monsters.len(), 317 * 317);
    }

    #[test]
    fn reads_every_glyph_and_spawn_in_row_major_order() {
        let text = "; a comment before the metadata\n\
                    name: Test room\n\
                    description:  all glyphs  \n\
                    \n\
                    #.123~+'\n\
                    ; a comment inside the map\n\
                    @MwfbSG9\n\
                    bMwf....\n\
                    \n\
                    ; trailing comment\n";
        let l = parse_ok(text);
        assert_eq!(l.name, "Test room");
        assert_eq!(l.description, "all glyphs");
        assert_eq!(l.source, text);
        assert_eq!((l.grid.width(), l.grid.height()), (8, 3));
        let row0: Vec<Tile> = (0..8).map(|x| l.grid.tile(Cell::new(x, 0))).collect();
        use Tile::*;
        assert_eq!(row0, [Wall, Floor(1), Floor(1), Floor(2), Floor(3), Water, DoorClosed, DoorOpen]);
        for x in 0..7 {
            assert_eq!(l.grid.tile(Cell::new(x, 1)), Floor(1), "spawns stand on floor");
        }
        assert_eq!(l.grid.tile(Cell::new(7, 1)), Floor(9));
        assert_eq!(l.player, Some(Cell::new(0, 1)));
        assert_eq!(l.monsters, [Cell::new(1, 1), Cell::new(1, 2)]);
        assert_eq!(l.wanderers, [Cell::new(2, 1), Cell::new(2, 2)]);
        assert_eq!(l.fleeing, [Cell::new(3, 1), Cell::new(3, 2)]);
        assert_eq!(l.boids, [Cell::new(4, 1), Cell::new(0, 2)]);
        assert_eq!(l.start, Some(Cell::new(5, 1)));
        assert_eq!(l.goal, Some(Cell::new(6, 1)));
    }

    #[test]
    fn name_defaults_to_the_file_stem_and_markers_are_optional() {
        let l = parse_ok("...\n");
        assert_eq!(l.name, "t");
        assert_eq!(l.description, "");
        assert_eq!((l.player, l.start, l.goal), (None, None, None));
    }

    #[test]
    fn crlf_and_a_missing_final_newline_are_fine() {
        let l = parse_ok("name: x\r\n\r\n#.#\r\n.@.");
        assert_eq!(l.name, "x");
        assert_eq!((l.grid.width(), l.grid.height()), (3, 2));
        assert_eq!(l.player, Some(Cell::new(1, 1)));
    }

    #[test]
    fn empty_map() {
        for text in ["", "\n\n", "name: x\n; only a comment\n\n"] {
            let e = parse_err(text);
            assert!(matches!(e, LevelError::EmptyMap { .. }), "{e:?}");
            assert_eq!(e.to_string(), "levels/t.txt: empty map (no map rows)");
        }
    }

    #[test]
    fn blank_line_inside_the_map() {
        let e = parse_err("name: x\n###\n\n###\n");
        assert!(matches!(e, LevelError::BlankLineInMap { line: 3, next: 4, .. }));
        assert_eq!(e.to_string(), "levels/t.txt:3: blank line inside the map (the map goes on at line 4)");
    }

    #[test]
    fn ragged_row() {
        let e = parse_err("####\n#..#\n#.#\n");
        assert!(matches!(e, LevelError::Ragged { line: 3, expected: 4, found: 3, .. }));
        assert_eq!(e.to_string(), "levels/t.txt:3: ragged row: 3 cells wide, expected 4");
        assert!(matches!(parse_err("###\n####\n"), LevelError::Ragged { found: 4, .. }));
    }

    #[test]
    fn unknown_glyph_with_line_and_column() {
        let e = parse_err("name: x\n#####\n#..x#\n");
        assert!(matches!(e, LevelError::UnknownGlyph { line: 3, column: 4, glyph: 'x', .. }));
        assert_eq!(e.to_string(), "levels/t.txt:3:4: unknown glyph 'x' (expected one of # . 1-9 ~ + ' @ M w f b S G)");
        // Whitespace is a glyph error too, even when it also makes the row
        // ragged, and so is a digit 0 and a non-ASCII character.
        assert!(matches!(parse_err("###\n#.# \n"), LevelError::UnknownGlyph { line: 2, column: 4, glyph: ' ', .. }));
        assert!(matches!(parse_err("#\t#\n"), LevelError::UnknownGlyph { column: 2, glyph: '\t', .. }));
        assert!(matches!(parse_err("#0#\n"), LevelError::UnknownGlyph { glyph: '0', .. }));
        assert!(matches!(parse_err("é.#\n"), LevelError::UnknownGlyph { column: 1, glyph: 'é', .. }));
        // Stray characters in a row stay glyph errors, not metadata ones.
        assert!(matches!(parse_err("#:#\n"), LevelError::UnknownGlyph { column: 2, glyph: ':', .. }));
        assert!(matches!(parse_err("x\n"), LevelError::UnknownGlyph { column: 1, glyph: 'x', .. }));
        assert!(matches!(parse_err("ab#\n"), LevelError::UnknownGlyph { column: 1, glyph: 'a', .. }));
        assert!(matches!(parse_err("Mw x\n"), LevelError::UnknownGlyph { column: 3, glyph: ' ', .. }));
    }

    #[test]
    fn more_than_one_player() {
        let e = parse_err("#@#\n.@.\n");
        assert!(matches!(e, LevelError::DuplicatePlayer { line: 2, column: 2, first_line: 1, first_column: 2, .. }));
        assert_eq!(
            e.to_string(),
            "levels/t.txt:2:2: more than one player start '@': cell 1,1 here and cell 1,0 \
             at line 1, column 2"
        );
    }

    #[test]
    fn duplicate_start_or_goal() {
        let e = parse_err("S.S\n");
        assert!(matches!(e, LevelError::DuplicateMarker { marker: 'S', column: 3, first_column: 1, .. }));
        assert_eq!(
            e.to_string(),
            "levels/t.txt:1:3: more than one 'S' marker: cell 2,0 here and cell 0,0 at line 1, column 1"
        );
        assert!(matches!(parse_err("G..\n..G\n"), LevelError::DuplicateMarker { marker: 'G', line: 2, .. }));
    }

    #[test]
    fn too_wide() {
        let e = parse_err(&format!("name: x\n{}\n", ".".repeat(MAX_SIDE + 1)));
        assert!(matches!(
            e,
            LevelError::TooLarge { line: 2, axis: Axis::Width, size, .. } if size == MAX_SIDE + 1
        ));
        assert_eq!(e.to_string(), "levels/t.txt:2: map too large: width 2049 is above the limit of 2048 cells");
        assert!(parse(&format!("{}\n", ".".repeat(MAX_SIDE)), "t").is_ok());
    }

    #[test]
    fn too_tall_is_caught_before_reading_the_cells() {
        // The extra rows are ragged, which would be reported if the cells
        // were read first; the height is counted to the end of the map.
        let mut text = "name: x\n".to_owned() + &".\n".repeat(MAX_SIDE);
        text += "..\n; comment\n..\n\n";
        let e = parse_err(&text);
        assert!(matches!(
            e,
            LevelError::TooLarge { axis: Axis::Height, line, size, .. }
                if line == MAX_SIDE + 2 && size == MAX_SIDE + 2
        ));
        assert!(e.to_string().ends_with("map too large: height 2050 is above the limit of 2048 cells"));
        assert!(parse(&".\n".repeat(MAX_SIDE), "t").is_ok());
    }

    #[test]
    fn metadata_errors() {
        let e = parse_err("name: x\nnmae: y\n#\n");
        assert!(matches!(e, LevelError::UnknownKey { line: 2, ref key, .. } if key == "nmae"));
        assert_eq!(
            e.to_string(),
            "levels/t.txt:2: unknown metadata key \"nmae\" (expected name, description, goal, lives, doors or generator)"
        );
        let e = parse_err("description: a\nname: x\ndescription: b\n#\n");
        assert!(matches!(e, LevelError::DuplicateKey { line: 3, first_line: 1, .. }));
        assert_eq!(e.to_string(), "levels/t.txt:3: metadata key \"description\" given twice (first at line 1)");
        let e = parse_err("name:   \n#\n");
        assert!(matches!(e, LevelError::EmptyName { line: 1, .. }));
        // Keys are case-sensitive.
        assert!(matches!(parse_err("Name: x\n#\n"), LevelError::UnknownKey { .. }));
    }

    #[test]
    fn metadata_typos_are_metadata_errors() {
        let cases = [
            ("name x\n#\n", "\"name x\": no colon after the key"),
            ("nmae\n#\n", "\"nmae\": no colon after the key"),
            ("na me: x\n#\n", "\"na me: x\": the key is not one word of letters, digits, _ or -"),
            (": x\n#\n", "\": x\": no key before the colon"),
            ("name: x\ndescription  a long one\n#\n", "\"description  a long one\": no colon after the key"),
        ];
        for (text, message) in cases {
            let e = parse_err(text);
            assert!(matches!(e, LevelError::BadMetadata { .. }), "{text:?}: {e:?}");
            let line = if text.starts_with("name: x") { 2 } else { 1 };
            assert_eq!(
                e.to_string(),
                format!(
                    "levels/t.txt:{line}: bad metadata line {message} (expected `key: value` with key name, description, goal, lives, doors or generator)"
                )
            );
        }
    }

    #[test]
    fn goal_and_lives_metadata() {
        let l = parse_ok("goal: survive 90\nlives: 5\n@.G\n");
        assert_eq!((l.objective, l.lives), (Some(Goal::Survive { ticks: 1800 }), Some(5)));
        assert_eq!(l.to_text(), "name: t\ngoal: survive 90\nlives: 5\n@.G\n");
        assert_eq!(parse_ok("goal: reach\n@.G\n").objective, Some(Goal::Reach));
        assert_eq!(parse_ok("goal:  none \n@..\n").objective, Some(Goal::None));
        let l = parse_ok("@.G\n");
        assert_eq!((l.objective, l.lives), (None, None), "the defaults are the rules'");
        for (text, line) in [
            (
                "goal: win\n@\n",
                "levels/t.txt:1: bad goal \"win\" (expected reach, none, or survive N with N seconds from 1 to 86400)",
            ),
            (
                "goal: survive 0\n@\n",
                "levels/t.txt:1: bad goal \"survive 0\" (expected reach, none, or survive N with N seconds from 1 to 86400)",
            ),
            (
                "goal: survive 10 s\n@\n",
                "levels/t.txt:1: bad goal \"survive 10 s\" (expected reach, none, or survive N with N seconds from 1 to 86400)",
            ),
            ("name: x\nlives: 0\n@\n", "levels/t.txt:2: bad lives \"0\" (expected a whole number from 1 to 99)"),
            ("lives: -1\n@\n", "levels/t.txt:1: bad lives \"-1\" (expected a whole number from 1 to 99)"),
            ("lives: 100\n@\n", "levels/t.txt:1: bad lives \"100\" (expected a whole number from 1 to 99)"),
            ("goal: reach\n@..\n", "levels/t.txt:1: `goal: reach` but the map has no 'G' to reach"),
            ("lives: 2\nlives: 3\n@\n", "levels/t.txt:2: metadata key \"lives\" given twice (first at line 1)"),
        ] {
            assert_eq!(parse_err(text).to_string(), line, "{text:?}");
        }
    }

    #[test]
    fn doors_metadata() {
        let l = parse_ok("doors: cycle 60\n@+.'G\n");
        assert_eq!(l.doors, Some(DoorCycle { period: 60 }));
        assert_eq!(l.to_text(), "name: t\ndoors: cycle 60\n@+.'G\n");
        assert_eq!(parse_ok(&l.to_text()).doors, l.doors, "written back as read");
        assert_eq!(parse_ok("doors:  cycle   20 \n+\n").doors, Some(DoorCycle { period: 20 }));
        assert_eq!(parse_ok("doors: cycle 72000\n'\n").doors, Some(DoorCycle { period: 72_000 }));
        assert_eq!(parse_ok("@+G\n").doors, None);
        let expected =
            "(expected cycle N: every door toggles every N ticks, N from 20 (one second) to 72000 (an hour))";
        for (text, value) in [
            ("doors: cycle 0\n+\n", "cycle 0"),
            ("doors: cycle 19\n+\n", "cycle 19"),
            ("doors: cycle 72001\n+\n", "cycle 72001"),
            ("doors: cycle 99999999999999999999\n+\n", "cycle 99999999999999999999"),
            ("doors: cycle -5\n+\n", "cycle -5"),
            ("doors: cycle\n+\n", "cycle"),
            ("doors: cycle 60 ticks\n+\n", "cycle 60 ticks"),
            ("doors: 60\n+\n", "60"),
            ("doors: open\n+\n", "open"),
        ] {
            assert_eq!(parse_err(text).to_string(), format!("levels/t.txt:1: bad doors {value:?} {expected}"));
        }
        assert_eq!(
            parse_err("name: x\ndoors: cycle 40\n@..\n").to_string(),
            "levels/t.txt:2: `doors: cycle` but the map has no door (+ or ') to cycle"
        );
        assert_eq!(
            parse_err("doors: cycle 40\ndoors: cycle 40\n+\n").to_string(),
            "levels/t.txt:2: metadata key \"doors\" given twice (first at line 1)"
        );
    }

    /// One spelling of a number for every value: plain decimal digits.
    #[test]
    fn metadata_numbers_have_one_spelling() {
        assert_eq!(parse_ok("lives: 3\n@\n").lives, Some(3));
        let rule = "is not a whole number as delve writes one (decimal digits, without + or leading zeros)";
        for (text, key, value, number) in [
            ("lives: 03\n@\n", "lives", "03", "03"),
            ("lives: 0x3\n@\n", "lives", "0x3", "0x3"),
            ("lives: +3\n@\n", "lives", "+3", "+3"),
            ("lives: 3.0\n@\n", "lives", "3.0", "3.0"),
            ("lives: three\n@\n", "lives", "three", "three"),
            ("doors: cycle +20\n+\n", "doors", "cycle +20", "+20"),
            ("doors: cycle 020\n+\n", "doors", "cycle 020", "020"),
            ("doors: cycle 6.5\n+\n", "doors", "cycle 6.5", "6.5"),
            ("goal: survive 1e2\n@\n", "goal", "survive 1e2", "1e2"),
            ("goal: survive 090\n@\n", "goal", "survive 090", "090"),
        ] {
            assert_eq!(
                parse_err(text).to_string(),
                format!("levels/t.txt:1: bad {key} {value:?}: {number:?} {rule}"),
                "{text:?}"
            );
        }
    }

    #[test]
    fn metadata_after_the_map_says_so() {
        for text in ["###\nname: x\n", ";c\n###\n###\n\ndescription: y\n", "###\nname x\n"] {
            let e = parse_err(text);
            assert!(matches!(e, LevelError::MetadataAfterMap { first_row: 1 | 2, .. }), "{text:?}: {e:?}");
        }
        assert_eq!(
            parse_err(";c\n###\n###\n\ndescription: y\n").to_string(),
            "levels/t.txt:5: metadata after the map (it goes before the first map row, line 2)"
        );
    }

    #[test]
    fn an_empty_description_is_allowed() {
        assert_eq!(parse_ok("description:\n#\n").description, "");
    }
}
