//! Levels: delve's own text format and Moving AI benchmark maps, read into a
//! [`Grid`] plus where everything starts; and Moving AI scenario files.
//!
//! A file whose first line starts with the word `type` is a Moving AI map
//! whatever its name (and then has to say `type octile`); anything else is a delve level (format in `levels/README.md`).
//! Bad input never panics: it is a [`LevelError`] naming the file, line and
//! column, shown as one line.

mod error;
mod glyph;
mod meta;
mod movingai;
mod scenario;
mod text;

use std::path::Path;

pub use error::{Axis, LevelError};
pub use glyph::{marker, tile_glyph};
pub use meta::{DoorCycle, Goal, MAX_DOOR_CYCLE, MIN_DOOR_CYCLE, TICKS_PER_SECOND};
pub use scenario::{MAX_SCENARIO_BYTES, OPTIMAL_TOLERANCE, Scenario, load_scenarios, parse_scenarios};
pub use text::{MAX_LIVES, MAX_SURVIVE_SECONDS};

use crate::grid::{Cell, Grid, MAX_SIDE, Tile};
use crate::input::{Limit, read_text};

/// A map and where everything on it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// From `name:`, else the file name without its extension.
    pub name: String,
    /// From `description:`, else empty.
    pub description: String,
    /// The whole file text exactly as read, so a replay can embed the level
    /// it was played on.
    pub source: String,
    /// The tiles, with the markers' cells as floor.
    pub grid: Grid,
    /// The player start `@`, if any.
    pub player: Option<Cell>,
    /// Spawn cells, each list in row-major order.
    pub monsters: Vec<Cell>,
    /// Wanderer spawn cells `w`.
    pub wanderers: Vec<Cell>,
    /// Fleeing-creature spawn cells `f`.
    pub fleeing: Vec<Cell>,
    /// Boid spawn cells `b`.
    pub boids: Vec<Cell>,
    /// The `S` and `G` markers `delve path` uses when no cells are given.
    pub start: Option<Cell>,
    /// The `G` marker, if any.
    pub goal: Option<Cell>,
    /// From `goal:`; `None` leaves the default to the game's rules.
    pub objective: Option<Goal>,
    /// From `lives:`; `None` leaves the default to the game's rules.
    pub lives: Option<u32>,
    /// From `doors:`: the doors open and close by themselves; `None`: only
    /// the player moves them.
    pub doors: Option<DoorCycle>,
    /// From `generator:`: the recipe that generated the level
    /// (`rooms seed 7 depth 2 size 80x40`, see `crate::r#gen::Recipe`), as
    /// written; the level does not check it.
    pub generator: Option<String>,
}

/// The largest level file: a map of [`MAX_SIDE`] rows of [`MAX_SIDE`]
/// cells with CRLF line ends, and as much again for metadata and comments.
/// Larger files are refused before they are read, and so is larger level
/// text from a replay.
pub const MAX_LEVEL_BYTES: Limit = Limit {
    bytes: 2 * MAX_SIDE as u64 * (MAX_SIDE as u64 + 2),
    what: "a level (a 2048x2048 map and as much again for metadata and comments)",
};

/// The `name:` (and file stem in `levels/`) of the level embedded as the
/// default.
pub const DEFAULT_LEVEL_NAME: &str = "dungeon";

/// The default level's text, built into the binary so that `delve` plays
/// without any file around it.
const DEFAULT_LEVEL: &str = include_str!("../levels/dungeon.txt");

/// Every level shipped in `levels/`, by file name without `.txt`, with its
/// text: built into the binary, so that the campaign plays, a level can be
/// named (`delve play maze`) and the lab's chooser opens it, from any
/// directory. A unit test proves every file of `levels/` is here.
pub const SHIPPED: &[(&str, &str)] = &[
    ("arena", include_str!("../levels/arena.txt")),
    ("big", include_str!("../levels/big.txt")),
    ("cave", include_str!("../levels/cave.txt")),
    ("crossing", include_str!("../levels/crossing.txt")),
    (DEFAULT_LEVEL_NAME, DEFAULT_LEVEL),
    ("gates", include_str!("../levels/gates.txt")),
    ("keep", include_str!("../levels/keep.txt")),
    ("maze", include_str!("../levels/maze.txt")),
    ("room", include_str!("../levels/room.txt")),
];

/// The names of the shipped levels, in alphabetical order: what
/// [`Level::shipped`] takes.
pub fn shipped_names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|&(name, _)| name)
}

impl Level {
    /// Reads a level or Moving AI map from its text; `origin` is the file
    /// name errors are reported against.
    pub fn parse(text: &str, origin: &str) -> Result<Level, LevelError> {
        let bytes = text.len() as u64;
        if bytes > MAX_LEVEL_BYTES.bytes {
            let origin = origin.to_owned();
            return Err(crate::input::ReadError::TooLarge { origin, bytes, limit: MAX_LEVEL_BYTES }.into());
        }
        if movingai::is_movingai(text) { movingai::parse(text, origin) } else { text::parse(text, origin) }
    }

    /// Reads the level or Moving AI map at `path`.
    pub fn load(path: &Path) -> Result<Level, LevelError> {
        let (text, origin) = read(path, MAX_LEVEL_BYTES)?;
        Level::parse(&text, &origin)
    }

    /// The default level, built into the binary.
    pub fn embedded_default() -> Level {
        Level::shipped(DEFAULT_LEVEL_NAME).expect("the default level is shipped")
    }

    /// The shipped level called `name` (`levels/NAME.txt`, one of
    /// [`shipped_names`]), built into the binary; `None` for any other
    /// name. Errors in it would be reported against `levels/NAME.txt`.
    pub fn shipped(name: &str) -> Option<Level> {
        let &(name, text) = SHIPPED.iter().find(|&&(n, _)| n == name)?;
        // A unit test proves every shipped text parses, so this cannot
        // fail at run time.
        Some(Level::parse(text, &format!("levels/{name}.txt")).expect("a shipped level parses"))
    }

    /// The level in the delve text format: `name:`, `description:` (when
    /// not empty), `generator:`, `goal:`, `lives:` and `doors:` (when set; `doors:` only
    /// while the map has a door), then the map with every marker in place.
    /// Reading it back gives the same level, apart from `source` (comments
    /// and spacing go), for every level [`marker_problem`](Level::marker_problem)
    /// finds nothing wrong with, as every level read from a file; a level
    /// holding a Moving AI map is written as a delve level (see
    /// [`to_movingai`](Level::to_movingai) for its own format).
    pub fn to_text(&self) -> String {
        let (width, height) = (self.grid.width(), self.grid.height());
        let mut map: Vec<char> = self.grid.cells().map(|c| tile_glyph(self.grid.tile(c))).collect();
        for (spawn, cells) in self.markers() {
            for &c in cells.iter().filter(|&&c| self.grid.in_bounds(c)) {
                map[c.y as usize * width + c.x as usize] = glyph::spawn_glyph(spawn);
            }
        }
        let mut out = format!("name: {}\n", self.name);
        if !self.description.is_empty() {
            out += &format!("description: {}\n", self.description);
        }
        if let Some(generator) = &self.generator {
            out += &format!("generator: {generator}\n");
        }
        if let Some(goal) = self.objective {
            out += &format!("goal: {}\n", text::goal_text(goal));
        }
        if let Some(lives) = self.lives {
            out += &format!("lives: {lives}\n");
        }
        // A map whose doors were all edited away has nothing to cycle, and
        // `doors:` on it would not read back.
        if let Some(cycle) = self.doors.filter(|_| has_door(&self.grid)) {
            out += &format!("doors: cycle {}\n", cycle.period);
        }
        out.reserve((width + 1) * height);
        for row in map.chunks(width) {
            out.extend(row);
            out.push('\n');
        }
        out
    }

    /// The level as a Moving AI map, `None` when its grid holds what that
    /// format cannot: entry costs, water or doors. A cell keeps the glyph
    /// of the map it was read from while its tile is unchanged (`T` stays
    /// `T`); a changed cell is written `.` or `@`. Markers have no place in
    /// the format and are left out.
    pub fn to_movingai(&self) -> Option<String> {
        movingai::write(self)
    }

    /// Whether the level was read from a Moving AI map.
    pub fn is_movingai(&self) -> bool {
        movingai::is_movingai(&self.source)
    }

    /// What keeps the level from being written as text and read back the
    /// same (see [`to_text`](Level::to_text)): a marker outside the map or
    /// on a cell that is not plain floor (the format's markers stand on
    /// plain floor), or two markers on one cell (a cell holds one glyph).
    /// `None` for every level read from a file.
    pub fn marker_problem(&self) -> Option<String> {
        let mut taken: Vec<Option<char>> = vec![None; self.grid.width() * self.grid.height()];
        for (spawn, cells) in self.markers() {
            let g = glyph::spawn_glyph(spawn);
            for &c in cells {
                if !self.grid.in_bounds(c) {
                    return Some(format!("'{g}' at {c} is outside the map"));
                }
                let tile = self.grid.tile(c);
                if tile != Tile::Floor(1) {
                    return Some(format!(
                        "'{g}' at {c} stands on '{}': a marker stands on plain floor",
                        tile_glyph(tile)
                    ));
                }
                let slot = &mut taken[c.y as usize * self.grid.width() + c.x as usize];
                if let Some(other) = slot.replace(g) {
                    return Some(format!("'{other}' and '{g}' are both at {c}: a cell holds one marker"));
                }
            }
        }
        None
    }

    /// Every marker's cells, in the order the format lists them.
    fn markers(&self) -> [(glyph::Spawn, &[Cell]); 7] {
        [
            (glyph::Spawn::Player, self.player.as_slice()),
            (glyph::Spawn::Monster, self.monsters.as_slice()),
            (glyph::Spawn::Wanderer, self.wanderers.as_slice()),
            (glyph::Spawn::Fleeing, self.fleeing.as_slice()),
            (glyph::Spawn::Boid, self.boids.as_slice()),
            (glyph::Spawn::Start, self.start.as_slice()),
            (glyph::Spawn::Goal, self.goal.as_slice()),
        ]
    }
}

/// Whether `grid` has a door, open or closed: what `doors: cycle` needs.
fn has_door(grid: &Grid) -> bool {
    grid.cells().any(|c| matches!(grid.tile(c), Tile::DoorOpen | Tile::DoorClosed))
}

/// Reads a file for a parser (a regular file of at most `limit` bytes,
/// see [`read_text`]): its text and the name to report errors against.
fn read(path: &Path, limit: Limit) -> Result<(String, String), LevelError> {
    Ok((read_text(path, limit)?, path.display().to_string()))
}

/// The lines of `text` numbered from 1, without line endings (`\n` or
/// `\r\n`) and without a leading byte order mark, which some editors add.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().enumerate().map(|(i, l)| (i + 1, l))
}

/// A level's name when its file gives none: the file name without its
/// directory and extension.
fn default_name(origin: &str) -> String {
    Path::new(origin)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unnamed".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::ReadError;

    #[test]
    fn embedded_default_parses() {
        let l = Level::embedded_default();
        assert_eq!(l.name, DEFAULT_LEVEL_NAME);
        assert_eq!(l.source, DEFAULT_LEVEL);
        assert!(l.player.is_some());
    }

    #[test]
    fn every_level_file_is_shipped_and_parses_under_its_name() {
        let mut in_folder: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/levels"))
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|f| Some(f.strip_suffix(".txt")?.to_string()))
            .filter(|f| f != "campaign" && f != "README")
            .collect();
        in_folder.sort();
        assert_eq!(in_folder, shipped_names().collect::<Vec<_>>(), "every level file is in SHIPPED, in order");
        for name in shipped_names() {
            let level = Level::shipped(name).unwrap();
            let file = format!("{}/levels/{name}.txt", env!("CARGO_MANIFEST_DIR"));
            assert_eq!(level.source, std::fs::read_to_string(file).unwrap(), "{name}");
            assert_eq!(level.name, name, "levels/{name}.txt is named for its file");
        }
        assert_eq!(Level::shipped(DEFAULT_LEVEL_NAME), Some(Level::embedded_default()));
        assert_eq!(Level::shipped("nope"), None);
        assert_eq!(Level::shipped("maze.txt"), None, "a name, not a file name");
    }

    #[test]
    fn type_octile_decides_the_format_not_the_file_name() {
        let map = "type octile\nheight 1\nwidth 2\nmap\n.@\n";
        let l = Level::parse(map, "levels/odd.txt").unwrap();
        assert_eq!(l.grid.tile(Cell::new(1, 0)), Tile::Wall);
        assert_eq!(l.player, None, "'@' is out of bounds in a Moving AI map");
        let l = Level::parse(".@\n", "maps/odd.map").unwrap();
        assert_eq!(l.player, Some(Cell::new(1, 0)));
    }

    #[test]
    fn a_byte_order_mark_is_skipped_but_kept_in_source() {
        let text = "\u{feff}name: x\n.@\n";
        let l = Level::parse(text, "t").unwrap();
        assert_eq!(l.name, "x");
        assert_eq!(l.source, text);
        assert!(Level::parse("\u{feff}type octile\nheight 1\nwidth 1\nmap\n.\n", "t").is_ok());
    }

    #[test]
    fn unreadable_files_are_io_errors() {
        let missing = Path::new("levels/does-not-exist.txt");
        let e = Level::load(missing).unwrap_err();
        assert!(matches!(e, LevelError::Read(ReadError::Io { .. })), "{e:?}");
        assert!(e.to_string().starts_with("levels/does-not-exist.txt: cannot read: "), "{e}");
        let e = load_scenarios(Path::new("src")).unwrap_err();
        assert_eq!(e.to_string(), "src: cannot read: a directory, not a regular file");
    }

    #[test]
    fn level_text_above_the_limit_is_refused() {
        let mut text = "; comment\n".repeat(MAX_LEVEL_BYTES.bytes as usize / 10);
        text.push_str(".\n");
        let e = Level::parse(&text, "big.txt").unwrap_err();
        assert!(matches!(e, LevelError::Read(ReadError::TooLarge { .. })), "{e:?}");
        assert_eq!(
            e.to_string(),
            "big.txt: cannot read: 8396802 bytes is more than a level (a 2048x2048 map and as much again for \
             metadata and comments) can be (8396800 bytes at most)"
        );
        text.truncate(text.len() - 12);
        text.push_str(".\n");
        assert!(Level::parse(&text, "big.txt").is_ok());
    }

    #[test]
    fn to_text_writes_a_level_that_reads_back() {
        let text = "name: Round\ndescription: trip\n#.2~+'\n@MwfbS\nG1....\n";
        let l = Level::parse(text, "t").unwrap();
        let written = l.to_text();
        assert_eq!(written, "name: Round\ndescription: trip\n#.2~+'\n@MwfbS\nG.....\n");
        let again = Level::parse(&written, "t").unwrap();
        assert_eq!(again, Level { source: written, ..l });
    }

    #[test]
    fn to_text_keeps_the_door_cycle_while_the_map_has_a_door() {
        let mut l = Level::parse("doors: cycle 40\n@+.\n", "t").unwrap();
        assert_eq!(l.to_text(), "name: t\ndoors: cycle 40\n@+.\n");
        // The lab can wall the last door up: `doors:` would not read back.
        l.grid.set_tile(Cell::new(1, 0), Tile::Wall);
        let written = l.to_text();
        assert_eq!(written, "name: t\n@#.\n");
        assert_eq!(Level::parse(&written, "t").unwrap().doors, None);
    }

    #[test]
    fn the_generator_line_is_kept_as_written_and_written_back() {
        let text = "name: g\ngenerator: rooms seed 7 depth 2 size 3x1\n@.G\n";
        let l = Level::parse(text, "t").unwrap();
        assert_eq!(l.generator.as_deref(), Some("rooms seed 7 depth 2 size 3x1"));
        assert_eq!(l.to_text(), text);
        let e = Level::parse("generator: a\ngenerator: b\n.\n", "t").unwrap_err();
        assert_eq!(e.to_string(), "t:2: metadata key \"generator\" given twice (first at line 1)");
    }

    #[test]
    fn markers_that_text_cannot_hold_are_named() {
        let mut l = Level::parse("name: m\n@.2\n.G.\n", "t").unwrap();
        assert_eq!(l.marker_problem(), None);
        l.start = Some(Cell::new(0, 0));
        assert_eq!(l.marker_problem().unwrap(), "'@' and 'S' are both at 0,0: a cell holds one marker");
        l.start = Some(Cell::new(2, 0));
        assert_eq!(l.marker_problem().unwrap(), "'S' at 2,0 stands on '2': a marker stands on plain floor");
        l.start = Some(Cell::new(3, 0));
        assert_eq!(l.marker_problem().unwrap(), "'S' at 3,0 is outside the map");
        l.start = Some(Cell::new(1, 0));
        assert_eq!(l.marker_problem(), None);
        assert_eq!(Level::parse(&l.to_text(), "t").unwrap().start, l.start);
    }

    #[test]
    fn a_moving_ai_map_writes_back_in_its_own_format() {
        let text = "type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n.GT@\r\nSOW.\r\n";
        let mut l = Level::parse(text, "maps/m.map").unwrap();
        assert!(l.is_movingai() && !Level::embedded_default().is_movingai());
        assert_eq!(l.to_movingai().unwrap(), text, "unchanged: the same bytes");
        l.grid.set_tile(Cell::new(0, 0), Tile::Wall);
        l.grid.set_tile(Cell::new(2, 0), Tile::Floor(1));
        let written = l.to_movingai().unwrap();
        assert_eq!(written, "type octile\r\nheight 2\r\nwidth 4\r\nmap\r\n@G.@\r\nSOW.\r\n");
        let again = Level::parse(&written, "maps/m.map").unwrap();
        assert!(l.grid.cells().all(|c| again.grid.tile(c) == l.grid.tile(c)));
        l.grid.set_tile(Cell::new(1, 0), Tile::Floor(3));
        assert_eq!(l.to_movingai(), None, "no costs in the format");
        // A delve level without costs, water or doors can be written too.
        let d = Level::parse("name: d\n#.\n.#\n", "d.txt").unwrap();
        assert_eq!(d.to_movingai().unwrap(), "type octile\nheight 2\nwidth 2\nmap\n@.\n.@\n");
    }

    #[test]
    fn default_name_is_the_file_stem() {
        assert_eq!(default_name("levels/cave.txt"), "cave");
        assert_eq!(default_name("arena.map"), "arena");
        assert_eq!(default_name(""), "unnamed");
    }
}
