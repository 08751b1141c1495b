//! Moving AI scenario files (`.map.scen`): path queries with their optimal
//! lengths, which `delve scen` checks the search against.

use std::path::Path;

use super::error::{END_OF_FILE, LevelError, quote};
use super::{numbered_lines, read};
use crate::grid::{Cell, Grid, MAX_SIDE, Tile};
use crate::input::Limit;

/// The largest scenario file read: a hundred times the largest benchmark
/// file (0.7 MB), over a million scenarios.
pub const MAX_SCENARIO_BYTES: Limit =
    Limit { bytes: 64 << 20, what: "a scenario file (a hundred times the largest benchmark file)" };

/// A cost within this of a scenario's `optimal` length is optimal: the
/// files print lengths with 8 decimals, and √2 sums drift in the last ones.
pub const OPTIMAL_TOLERANCE: f64 = 1e-4;

/// One benchmark query: find a path from `start` to `goal` on `map`; the
/// best one costs `optimal` (8 neighbours, √2 diagonals, no corner cutting).
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The 1-based line of the scenario file it was read from, for
    /// messages about it.
    pub line: usize,
    /// floor(optimal / 4): groups queries of similar length.
    pub bucket: u32,
    /// Base name of the map file, e.g. `arena.map`.
    pub map: String,
    /// The map's size as the scenario file states it (width first, the
    /// opposite of the map header).
    pub width: usize,
    /// The map's height as the scenario file states it.
    pub height: usize,
    /// Where the query starts.
    pub start: Cell,
    /// Where the query ends.
    pub goal: Cell,
    /// The file's optimal path length, which answers are checked against.
    pub optimal: f64,
}

impl Scenario {
    /// The map's file name without any folder (the files of some releases
    /// write `maps/dao/arena.map`): the map is looked up by this name.
    pub fn map_file_name(&self) -> &str {
        self.map.rsplit(['/', '\\']).next().unwrap_or(&self.map)
    }

    /// Checks that this scenario, read from the file `origin`, belongs to
    /// `grid`, the map read from `map`: the size it states is the map's,
    /// and its start and goal can be stood on. A scenario file run on
    /// another map fails here, before any search.
    pub fn check_map(&self, grid: &Grid, origin: &str, map: &str) -> Result<(), LevelError> {
        if (self.width, self.height) != (grid.width(), grid.height()) {
            return Err(LevelError::ScenarioMapSize {
                origin: origin.to_owned(),
                line: self.line,
                width: self.width,
                height: self.height,
                map: map.to_owned(),
                map_width: grid.width(),
                map_height: grid.height(),
            });
        }
        for (end, cell) in [("start", self.start), ("goal", self.goal)] {
            if !grid.is_walkable(cell) {
                let blocker = if grid.tile(cell) == Tile::DoorClosed { "a closed door" } else { "a wall" };
                return Err(LevelError::ScenarioBlocked {
                    origin: origin.to_owned(),
                    line: self.line,
                    end,
                    cell,
                    blocker,
                    map: map.to_owned(),
                });
            }
        }
        Ok(())
    }
}

/// Reads a scenario file: `version 1` (or `version 1.0`) on line 1, then
/// one scenario per line as 9 tab-separated fields: bucket, map, width,
/// height, start x, start y, goal x, goal y, optimal length. Blank lines are
/// skipped; start and goal must lie inside the stated size.
pub fn parse_scenarios(text: &str, origin: &str) -> Result<Vec<Scenario>, LevelError> {
    let mut lines = numbered_lines(text);
    let found = match lines.next() {
        Some((_, l)) if matches!(l.trim_end(), "version 1" | "version 1.0") => None,
        Some((_, l)) => Some(quote(l)),
        None => Some(END_OF_FILE.to_owned()),
    };
    if let Some(found) = found {
        return Err(LevelError::ScenarioVersion { origin: origin.to_owned(), found });
    }
    lines.filter(|(_, l)| !l.trim().is_empty()).map(|(line, l)| scenario(l, line, origin)).collect()
}

/// Reads the scenario file at `path` (see [`parse_scenarios`]).
pub fn load_scenarios(path: &Path) -> Result<Vec<Scenario>, LevelError> {
    let (text, origin) = read(path, MAX_SCENARIO_BYTES)?;
    parse_scenarios(&text, &origin)
}

/// The 9 fields of one scenario line, for parsing them with errors that
/// point at the right column.
struct Fields<'a> {
    origin: &'a str,
    line: usize,
    fields: [&'a str; 9],
}

fn scenario(text: &str, line: usize, origin: &str) -> Result<Scenario, LevelError> {
    let fields: [&str; 9] = text.split('\t').collect::<Vec<_>>().try_into().map_err(|all: Vec<&str>| {
        LevelError::ScenarioFieldCount { origin: origin.to_owned(), line, found: all.len() }
    })?;
    let f = Fields { origin, line, fields };
    let bucket = f.number(0, "bucket", "a whole number", |_: &u32| true)?;
    let map = fields[1].trim();
    if map.is_empty() {
        return Err(f.error(1, "map", "a map file name"));
    }
    let size = format!("a whole number from 1 to {MAX_SIDE}");
    let width = f.number(2, "map width", &size, |&n: &usize| (1..=MAX_SIDE).contains(&n))?;
    let height = f.number(3, "map height", &size, |&n: &usize| (1..=MAX_SIDE).contains(&n))?;
    let column = format!("a column from 0 to {}", width - 1);
    let row = format!("a row from 0 to {}", height - 1);
    // Both sides are at most MAX_SIDE, so the coordinates fit an i32.
    let cell = |i: usize| -> Result<Cell, LevelError> {
        let names = ["start x", "start y", "goal x", "goal y"];
        let x = f.number(i, names[i - 4], &column, |&n: &usize| n < width)?;
        let y = f.number(i + 1, names[i - 3], &row, |&n: &usize| n < height)?;
        Ok(Cell::new(x as i32, y as i32))
    };
    Ok(Scenario {
        line,
        bucket,
        map: map.to_owned(),
        width,
        height,
        start: cell(4)?,
        goal: cell(6)?,
        optimal: f.number(8, "optimal length", "a finite length >= 0", |&n: &f64| n.is_finite() && n >= 0.0)?,
    })
}

impl Fields<'_> {
    /// Field `i` as a number that satisfies `ok`.
    fn number<T: std::str::FromStr>(
        &self,
        i: usize,
        name: &'static str,
        expected: &str,
        ok: impl Fn(&T) -> bool,
    ) -> Result<T, LevelError> {
        match self.fields[i].trim().parse::<T>() {
            Ok(n) if ok(&n) => Ok(n),
            _ => Err(self.error(i, name, expected)),
        }
    }

    fn error(&self, i: usize, name: &'static str, expected: &str) -> LevelError {
        // 1-based column where field `i` starts: the fields before it plus
        // one tab after each.
        let column = 1 + self.fields[..i].iter().map(|f| f.chars().count() + 1).sum::<usize>();
        LevelError::ScenarioField {
            origin: self.origin.to_owned(),
            line: self.line,
            column,
            field: name,
            value: quote(self.fields[i]),
            expected: expected.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_err(text: &str) -> LevelError {
        match parse_scenarios(text, "s.scen") {
            Ok(_) => panic!("parsed: {text:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn reads_scenarios() {
        let text = "version 1\r\n0\tarena.map\t49\t49\t19\t26\t19\t29\t3.00000000\r\n\r\n\
                    1\tarena.map\t49\t49\t0\t0\t48\t48\t4.5\r\n";
        let s = parse_scenarios(text, "s.scen").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(
            s[0],
            Scenario {
                line: 2,
                bucket: 0,
                map: "arena.map".into(),
                width: 49,
                height: 49,
                start: Cell::new(19, 26),
                goal: Cell::new(19, 29),
                optimal: 3.0,
            }
        );
        assert_eq!(s[1].goal, Cell::new(48, 48));
        assert_eq!(s[1].line, 4, "the blank line 3 still counts");
        assert!(parse_scenarios("version 1.0\n", "s").unwrap().is_empty());
    }

    #[test]
    fn bad_version() {
        for (text, found) in [("", "end of file"), ("version 2\n", "\"version 2\"")] {
            let e = parse_err(text);
            assert!(matches!(e, LevelError::ScenarioVersion { found: ref f, .. } if f == found));
        }
        assert_eq!(
            parse_err("0\tarena.map\n").to_string(),
            "s.scen:1: expected `version 1` on the first line, found \"0\\tarena.map\""
        );
    }

    #[test]
    fn wrong_field_count() {
        let e = parse_err("version 1\n0 arena.map 49 49 1 1 2 2 1.0\n");
        assert!(matches!(e, LevelError::ScenarioFieldCount { line: 2, found: 1, .. }));
        assert_eq!(e.to_string(), "s.scen:2: expected 9 tab-separated fields, found 1");
        let e = parse_err("version 1\n0\tm\t4\t4\t1\t1\t2\t2\t1.0\textra\n");
        assert!(matches!(e, LevelError::ScenarioFieldCount { found: 10, .. }));
    }

    #[test]
    fn bad_fields_point_at_their_column() {
        let e = parse_err("version 1\n0\tm\t4\t4\t1\tx\t2\t2\t1.0\n");
        assert!(matches!(e, LevelError::ScenarioField { line: 2, column: 11, field: "start y", .. }));
        assert_eq!(e.to_string(), "s.scen:2:11: bad start y \"x\" (expected a row from 0 to 3)");
        let cases = [
            ("-1\tm\t4\t4\t1\t1\t2\t2\t1.0", "bucket"),
            ("0\t \t4\t4\t1\t1\t2\t2\t1.0", "map"),
            ("0\tm\t0\t4\t1\t1\t2\t2\t1.0", "map width"),
            ("0\tm\t4\t9999\t1\t1\t2\t2\t1.0", "map height"),
            ("0\tm\t4\t4\t4\t1\t2\t2\t1.0", "start x"),
            ("0\tm\t4\t4\t1\t1\t2\t-2\t1.0", "goal y"),
            ("0\tm\t4\t4\t1\t1\t2\t2\tNaN", "optimal length"),
            ("0\tm\t4\t4\t1\t1\t2\t2\t-1", "optimal length"),
            ("0\tm\t4\t4\t1\t1\t2\t2\t", "optimal length"),
        ];
        for (line, field) in cases {
            let e = parse_err(&format!("version 1\n{line}\n"));
            assert!(matches!(e, LevelError::ScenarioField { field: f, .. } if f == field), "{line:?}: {e:?}");
        }
    }

    #[test]
    fn map_file_name_drops_the_folder() {
        let s = parse_scenarios("version 1\n0\tmaps/dao/arena.map\t4\t4\t1\t1\t2\t2\t1.0\n", "s").unwrap();
        assert_eq!(s[0].map_file_name(), "arena.map");
        let s = parse_scenarios("version 1\n0\tarena.map\t4\t4\t1\t1\t2\t2\t1.0\n", "s").unwrap();
        assert_eq!(s[0].map_file_name(), "arena.map");
    }

    #[test]
    fn check_map_names_the_line_and_what_is_wrong() {
        let text = "version 1\n\n0\tm.map\t3\t2\t0\t0\t2\t1\t2.4\n";
        let s = &parse_scenarios(text, "s.scen").unwrap()[0];
        let grid = |rows: &str| crate::level::Level::parse(rows, "m.map").unwrap().grid;
        assert!(s.check_map(&grid("...\n...\n"), "s.scen", "m.map").is_ok());
        let e = s.check_map(&grid("#..\n...\n"), "s.scen", "m.map").unwrap_err();
        assert_eq!(e.to_string(), "s.scen:3: start 0,0 is on a wall of m.map");
        let e = s.check_map(&grid("...\n..+\n"), "s.scen", "m.map").unwrap_err();
        assert_eq!(e.to_string(), "s.scen:3: goal 2,1 is on a closed door of m.map");
        let e = s.check_map(&grid("....\n....\n"), "s.scen", "m.map").unwrap_err();
        assert_eq!(e.to_string(), "s.scen:3: the scenario is for a 3x2 map but m.map is 4x2");
    }
}
