//! Everything that can be wrong with a level, map or scenario file.
//!
//! Each error names the file (`origin`), the 1-based line and, where one
//! character is at fault, the 1-based column, and displays as one line in
//! the `file:line:column: message` shape editors and terminals link to.

use std::fmt;

use crate::grid::{Cell, MAX_SIDE};
use crate::input::ReadError;

/// A side of the map, for size errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Across: columns.
    Width,
    /// Down: rows.
    Height,
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Axis::Width => "width",
            Axis::Height => "height",
        })
    }
}

/// Why a level, Moving AI map or scenario file was rejected.
#[derive(Debug, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum LevelError {
    /// The file could not be read: missing, not a regular file, too large,
    /// not UTF-8, ...
    #[error(transparent)]
    Read(#[from] ReadError),

    /// Metadata and comments but not a single map row.
    #[error("{origin}: empty map (no map rows)")]
    EmptyMap { origin: String },

    /// A blank line between two map rows.
    #[error("{origin}:{line}: blank line inside the map (the map goes on at line {next})")]
    BlankLineInMap { origin: String, line: usize, next: usize },

    /// A map row whose width differs from the first row's (or, in a Moving
    /// AI map, from the header's width).
    #[error("{origin}:{line}: ragged row: {found} cells wide, expected {expected}")]
    Ragged { origin: String, line: usize, expected: usize, found: usize },

    /// A character that is not in the format's glyph table.
    #[error("{origin}:{line}:{column}: unknown glyph {glyph:?} (expected one of {expected})")]
    UnknownGlyph {
        origin: String,
        line: usize,
        column: usize,
        glyph: char,
        /// The format's glyphs, as listed in the message.
        expected: &'static str,
    },

    /// A second `@`: a level has at most one player start.
    #[error(
        "{origin}:{line}:{column}: more than one player start '@': cell {cell} here and cell \
         {first_cell} at line {first_line}, column {first_column}"
    )]
    DuplicatePlayer {
        origin: String,
        line: usize,
        column: usize,
        cell: Cell,
        first_line: usize,
        first_column: usize,
        first_cell: Cell,
    },

    /// A second `S` or `G`: `delve path` needs one start and one goal.
    #[error(
        "{origin}:{line}:{column}: more than one '{marker}' marker: cell {cell} here and cell \
         {first_cell} at line {first_line}, column {first_column}"
    )]
    DuplicateMarker {
        origin: String,
        line: usize,
        column: usize,
        marker: char,
        cell: Cell,
        first_line: usize,
        first_column: usize,
        first_cell: Cell,
    },

    /// A side above [`MAX_SIDE`]; detected before the grid is allocated.
    #[error("{origin}:{line}: map too large: {axis} {size} is above the limit of {MAX_SIDE} cells")]
    TooLarge { origin: String, line: usize, axis: Axis, size: usize },

    /// A `key: value` line before the map with a key other than `name`,
    /// `description`, `goal` or `lives`; rejected so that a typo (`nmae:`) does not pass
    /// silently.
    #[error(
        "{origin}:{line}: unknown metadata key {key:?} (expected name, description, goal, lives, doors or generator)"
    )]
    UnknownKey { origin: String, line: usize, key: String },

    /// A line before the map meant as metadata but not `key: value`
    /// (`name x`, `na me: x`, `: x`).
    #[error(
        "{origin}:{line}: bad metadata line {found}: {problem} (expected `key: value` with key name, description, goal, lives, doors or generator)"
    )]
    BadMetadata {
        origin: String,
        line: usize,
        /// The line, quoted and shortened.
        found: String,
        problem: &'static str,
    },

    /// Metadata once the map has started.
    #[error("{origin}:{line}: metadata after the map (it goes before the first map row, line {first_row})")]
    MetadataAfterMap { origin: String, line: usize, first_row: usize },

    /// The same metadata key twice.
    #[error("{origin}:{line}: metadata key {key:?} given twice (first at line {first_line})")]
    DuplicateKey { origin: String, line: usize, key: String, first_line: usize },

    /// A `goal:`, `lives:` or `doors:` value that does not read.
    #[error("{origin}:{line}: bad {key} {value:?} (expected {expected})")]
    BadValue { origin: String, line: usize, key: &'static str, value: String, expected: &'static str },

    /// A number in a `goal:`, `lives:` or `doors:` value not written as
    /// delve writes numbers (see [`crate::number`]): `lives: 03`, `+20`.
    #[error(
        "{origin}:{line}: bad {key} {value:?}: {number:?} is not a whole number as delve writes one ({})",
        crate::number::WHOLE_SYNTAX
    )]
    BadNumber { origin: String, line: usize, key: &'static str, value: String, number: String },

    /// `goal: reach` on a map without a `G` to reach.
    #[error("{origin}:{line}: `goal: reach` but the map has no 'G' to reach")]
    NothingToReach { origin: String, line: usize },

    /// `doors: cycle N` on a map without a door to cycle.
    #[error("{origin}:{line}: `doors: cycle` but the map has no door (+ or ') to cycle")]
    NoDoors { origin: String, line: usize },

    /// `name:` with nothing after it.
    #[error("{origin}:{line}: empty name (write `name: something`, or drop the line to use the file name)")]
    EmptyName { origin: String, line: usize },

    /// A Moving AI header line that is missing or not what it should be.
    #[error("{origin}:{line}: bad Moving AI header: expected {expected}, found {found}")]
    MovingAiHeader {
        origin: String,
        line: usize,
        expected: &'static str,
        /// The offending line, quoted and shortened, or "end of file".
        found: String,
    },

    /// A Moving AI map with more or fewer rows than its header's height.
    #[error("{origin}:{line}: the header says height {expected} but the map has {found} rows")]
    MovingAiRowCount { origin: String, line: usize, expected: usize, found: usize },

    /// A scenario file whose first line is not `version 1`.
    #[error("{origin}:1: expected `version 1` on the first line, found {found}")]
    ScenarioVersion {
        origin: String,
        /// The first line, quoted and shortened, or "end of file".
        found: String,
    },

    /// A scenario line without exactly 9 tab-separated fields.
    #[error("{origin}:{line}: expected 9 tab-separated fields, found {found}")]
    ScenarioFieldCount { origin: String, line: usize, found: usize },

    /// A scenario field that does not parse or is out of range.
    #[error("{origin}:{line}:{column}: bad {field} {value} (expected {expected})")]
    ScenarioField {
        origin: String,
        line: usize,
        column: usize,
        field: &'static str,
        /// The field, quoted and shortened.
        value: String,
        expected: String,
    },

    /// A scenario whose stated map size is not its map's size: the
    /// scenario file and the map do not belong together.
    #[error("{origin}:{line}: the scenario is for a {width}x{height} map but {map} is {map_width}x{map_height}")]
    ScenarioMapSize {
        origin: String,
        line: usize,
        width: usize,
        height: usize,
        /// The map file, as given or found.
        map: String,
        map_width: usize,
        map_height: usize,
    },

    /// A scenario whose start or goal cannot be stood on in its map.
    #[error("{origin}:{line}: {end} {cell} is on {blocker} of {map}")]
    ScenarioBlocked {
        origin: String,
        line: usize,
        /// `start` or `goal`.
        end: &'static str,
        cell: Cell,
        /// What is there: "a wall" or "a closed door".
        blocker: &'static str,
        map: String,
    },
}

/// Longest piece of input quoted in a message, in characters: enough to
/// recognise the line, short enough to keep the message on one line.
const QUOTE_LIMIT: usize = 40;

/// `text` quoted with escapes, cut to [`QUOTE_LIMIT`] characters, for
/// showing user input inside a message.
pub(crate) fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(QUOTE_LIMIT).collect();
    if chars.next().is_some() { format!("{head:?}...") } else { format!("{head:?}") }
}

/// What a message shows for a line that should be there but is not.
pub(crate) const END_OF_FILE: &str = "end of file";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_and_shortens() {
        assert_eq!(quote("a\tb"), "\"a\\tb\"");
        let long = "x".repeat(100);
        assert_eq!(quote(&long), format!("\"{}\"...", "x".repeat(QUOTE_LIMIT)));
    }

    #[test]
    fn messages_are_one_line() {
        let e = LevelError::UnknownGlyph {
            origin: "levels/foo.txt".into(),
            line: 12,
            column: 5,
            glyph: 'x',
            expected: "# .",
        };
        assert_eq!(e.to_string(), "levels/foo.txt:12:5: unknown glyph 'x' (expected one of # .)");
        let e = LevelError::UnknownGlyph { origin: "a".into(), line: 1, column: 1, glyph: '\n', expected: "#" };
        assert!(!e.to_string().contains('\n'));
    }
}
