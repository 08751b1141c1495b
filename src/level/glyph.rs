//! The delve level glyph table, in one place so that reading a level and
//! writing one back can never disagree.

use crate::grid::Tile;

/// Something that starts on a cell; every spawn stands on floor of cost 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spawn {
    Player,
    Monster,
    Wanderer,
    Fleeing,
    Boid,
    Start,
    Goal,
}

/// What one glyph puts on its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Glyph {
    pub tile: Tile,
    pub spawn: Option<Spawn>,
}

/// The spawn markers. Public so that the map draws each creature with the
/// letter a level places it with.
pub mod marker {
    /// The player's start.
    pub const PLAYER: char = '@';
    /// A monster, which hunts the player.
    pub const MONSTER: char = 'M';
    /// A wanderer, which roams.
    pub const WANDERER: char = 'w';
    /// A fleeing creature, which runs from the player and monsters.
    pub const FLEEING: char = 'f';
    /// A boid, which flocks.
    pub const BOID: char = 'b';
    /// The start of `delve path`'s default query.
    pub const START: char = 'S';
    /// The goal of `delve path`'s default query.
    pub const GOAL: char = 'G';
}

const fn tile(tile: Tile) -> Glyph {
    Glyph { tile, spawn: None }
}

const fn spawn(spawn: Spawn) -> Glyph {
    Glyph { tile: Tile::Floor(1), spawn: Some(spawn) }
}

/// Every glyph of the format. Reading looks a character up here; writing
/// takes the first entry that matches, so `.` (listed before `1`) is how
/// plain floor is written back.
const TABLE: [(char, Glyph); 21] = [
    ('#', tile(Tile::Wall)),
    ('.', tile(Tile::Floor(1))),
    ('1', tile(Tile::Floor(1))),
    ('2', tile(Tile::Floor(2))),
    ('3', tile(Tile::Floor(3))),
    ('4', tile(Tile::Floor(4))),
    ('5', tile(Tile::Floor(5))),
    ('6', tile(Tile::Floor(6))),
    ('7', tile(Tile::Floor(7))),
    ('8', tile(Tile::Floor(8))),
    ('9', tile(Tile::Floor(9))),
    ('~', tile(Tile::Water)),
    ('+', tile(Tile::DoorClosed)),
    ('\'', tile(Tile::DoorOpen)),
    (marker::PLAYER, spawn(Spawn::Player)),
    (marker::MONSTER, spawn(Spawn::Monster)),
    (marker::WANDERER, spawn(Spawn::Wanderer)),
    (marker::FLEEING, spawn(Spawn::Fleeing)),
    (marker::BOID, spawn(Spawn::Boid)),
    (marker::START, spawn(Spawn::Start)),
    (marker::GOAL, spawn(Spawn::Goal)),
];

/// The glyphs as listed in an unknown-glyph message.
pub(super) const EXPECTED: &str = "# . 1-9 ~ + ' @ M w f b S G";

/// The meaning of `c` in a delve level, `None` when it is not a glyph.
pub(super) fn glyph(c: char) -> Option<Glyph> {
    TABLE.iter().find(|(g, _)| *g == c).map(|&(_, glyph)| glyph)
}

/// How a bare tile is written in a delve level. Every tile has a glyph:
/// floor costs outside 1–9 (which no level can produce) are clamped into
/// that range, so a cost of 0 is written as `.` and one above 9 as `9`.
pub fn tile_glyph(t: Tile) -> char {
    let t = match t {
        Tile::Floor(c) => Tile::Floor(c.clamp(1, 9)),
        other => other,
    };
    TABLE.iter().find(|(_, g)| *g == tile(t)).map_or('#', |&(c, _)| c)
}

/// How a spawn is written in a delve level.
pub(super) fn spawn_glyph(s: Spawn) -> char {
    TABLE.iter().find(|(_, g)| g.spawn == Some(s)).map_or('.', |&(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_is_listed_in_the_message() {
        for &(c, _) in TABLE.iter() {
            let listed = if c.is_ascii_digit() {
                EXPECTED.contains("1-9")
            } else {
                EXPECTED.split(' ').any(|g| g == c.to_string())
            };
            assert!(listed, "{c:?} missing from EXPECTED");
        }
    }

    #[test]
    fn writing_then_reading_gives_the_same_tile() {
        let mut tiles = vec![Tile::Wall, Tile::Water, Tile::DoorClosed, Tile::DoorOpen];
        tiles.extend((1..=9).map(Tile::Floor));
        for t in tiles {
            assert_eq!(glyph(tile_glyph(t)), Some(tile(t)), "{t:?}");
        }
        assert_eq!(tile_glyph(Tile::Floor(1)), '.');
        assert_eq!(tile_glyph(Tile::Floor(0)), '.');
        assert_eq!(tile_glyph(Tile::Floor(10)), '9');
        assert_eq!(tile_glyph(Tile::Floor(u8::MAX)), '9');
    }

    #[test]
    fn spawns_stand_on_plain_floor() {
        for s in
            [Spawn::Player, Spawn::Monster, Spawn::Wanderer, Spawn::Fleeing, Spawn::Boid, Spawn::Start, Spawn::Goal]
        {
            assert_eq!(glyph(spawn_glyph(s)), Some(spawn(s)));
        }
        assert_eq!(glyph(' '), None);
        assert_eq!(glyph('0'), None);
    }
}
