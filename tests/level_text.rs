//! Writing a level back is the spec of the lab's `W`: `Level::to_text`
//! read back gives the same level (grid, markers, metadata) that plays the
//! same (the same rules and state hash under `delve sim --rules game`'s
//! conditions), for every shipped level and for random levels with every
//! kind of metadata; a Moving AI map written back in its own format is the
//! same bytes (a last line gains the line end it lacked).

use crate::support::data::{self, fixture_dir, shipped_levels};
use delve::grid::Tile;
use delve::level::Level;
use delve::sim::{Bot, BotKind, Rules, Settings, World};
use proptest::prelude::*;

/// The level without the text it was read from, which writing it back
/// does not keep (comments, spacing, the order of metadata lines).
fn without_source(level: &Level) -> Level {
    Level { source: String::new(), ..level.clone() }
}

/// How a game on `level` plays: its rules and the state hash after
/// `ticks` ticks of the random bot (or why no world can start on it).
fn plays(level: &Level, ticks: u64) -> Result<(Rules, u64), String> {
    let rules = Rules::game(level);
    let mut world = World::with_rules(level, 11, Settings::default(), rules).map_err(|e| e.to_string())?;
    let mut bot = Bot::of(BotKind::Random, 11);
    for _ in 0..ticks {
        if let Some(command) = bot.command(&world) {
            world.apply(command);
        }
        world.tick();
    }
    Ok((rules, world.hash()))
}

/// `level` written as text and read back: the same level, playing the same.
fn round_trips(level: &Level, ticks: u64) -> Result<(), TestCaseError> {
    prop_assert_eq!(level.marker_problem(), None);
    let written = level.to_text();
    let again = Level::parse(&written, "written.txt").map_err(|e| TestCaseError::fail(format!("{e}\n{written}")))?;
    prop_assert_eq!(without_source(&again), without_source(level), "{}", written);
    prop_assert_eq!(plays(&again, ticks), plays(level, ticks));
    prop_assert_eq!(again.to_text(), written, "written once, written the same ever after");
    Ok(())
}

#[test]
fn every_shipped_level_writes_back_the_same() {
    for (name, level) in shipped_levels() {
        round_trips(&level, 400).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn a_moving_ai_map_writes_back_as_its_own_bytes() {
    let mut maps = data::files_with(&fixture_dir(), "map");
    if let Some(dir) = data::shared_movingai_or_skip("a_moving_ai_map_writes_back_as_its_own_bytes") {
        maps.extend(data::files_with(&dir, "map"));
    }
    for path in maps {
        let level = Level::load(&path).unwrap();
        let written = level.to_movingai().unwrap();
        // Each line ends as in the file; a last line without one gets one.
        let source = &level.source;
        let same = written == *source || written.strip_suffix(['\n']).map(|w| w.trim_end_matches('\r')) == Some(source);
        assert!(same, "{}: written back otherwise", path.display());
    }
}

/// The glyphs of a random map.
const GLYPHS: &[char] = &['#', '.', '.', '.', '2', '5', '9', '~', '+', '\'', '@', 'M', 'w', 'f', 'b', 'S', 'G'];

/// A random level's text: metadata of every kind (some absent), comments,
/// then a map with at most one `@`, `S` and `G`.
fn level_text() -> impl Strategy<Value = String> {
    let map = (1usize..=20, 1usize..=10).prop_flat_map(|(w, h)| {
        prop::collection::vec(prop::sample::select(GLYPHS), w * h).prop_map(move |mut cells| {
            for unique in ['@', 'S', 'G'] {
                let mut seen = false;
                for c in cells.iter_mut().filter(|c| **c == unique) {
                    if seen {
                        *c = '.';
                    }
                    seen = true;
                }
            }
            cells.chunks(w).map(|row| row.iter().collect::<String>()).collect::<Vec<_>>()
        })
    });
    let name = prop::option::of("[A-Za-z0-9][A-Za-z0-9 _:;'!é-]{0,11}");
    let description = prop::option::of("[ -~é✓]{0,24}");
    let goal = prop::option::of(prop_oneof![
        Just("none".to_string()),
        Just("reach".to_string()),
        (1u64..=86_400).prop_map(|n| format!("survive {n}"))
    ]);
    let lives = prop::option::of(1u32..=99);
    let doors = prop::option::of(20u32..=72_000);
    let crlf = any::<bool>();
    (map, name, description, goal, lives, doors, crlf).prop_map(|(map, name, description, goal, lives, doors, crlf)| {
        let has = |glyphs: &str| map.iter().any(|row| row.chars().any(|c| glyphs.contains(c)));
        let mut lines = vec!["; a random level".to_string()];
        lines.extend(name.map(|n| format!("name: {}", n.trim_end())));
        lines.extend(description.map(|d| format!("description: {d}")));
        // `goal: reach` needs a G and `doors:` a door: the others only.
        lines.extend(goal.filter(|g| g != "reach" || has("G")).map(|g| format!("goal: {g}")));
        lines.extend(lives.map(|n| format!("lives: {n}")));
        lines.extend(doors.filter(|_| has("+'")).map(|n| format!("doors: cycle {n}")));
        lines.push(String::new());
        lines.extend(map);
        let eol = if crlf { "\r\n" } else { "\n" };
        lines.iter().map(|l| format!("{l}{eol}")).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn a_random_level_writes_back_the_same(text in level_text()) {
        let level = Level::parse(&text, "random.txt").map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        round_trips(&level, 120)?;
        // Its grid in the Moving AI format, where the format can hold it.
        let plain = level.grid.cells().all(|c| matches!(level.grid.tile(c), Tile::Wall | Tile::Floor(1)));
        prop_assert_eq!(level.to_movingai().is_some(), plain);
        if let Some(map) = level.to_movingai() {
            let read = Level::parse(&map, "random.map").unwrap();
            prop_assert!(level.grid.cells().all(|c| read.grid.tile(c) == level.grid.tile(c)));
        }
    }
}
