//! The shipped levels and the Moving AI benchmark files read cleanly and are
//! what they claim to be; any input at all reads without a panic; a level
//! written back as text (the lab's `W`) reads back the same level (grid,
//! markers, metadata) that plays the same (the same rules and state hash
//! under `delve sim --rules game`), for every shipped level and random
//! levels with every kind of metadata; a Moving AI map written back in its
//! own format is the same bytes (a last line gains the line end it lacked).

use std::collections::VecDeque;
use std::path::Path;

use delve::grid::{Cell, DIRECTIONS, Grid, Tile};
use delve::level::{DEFAULT_LEVEL_NAME, Level, load_scenarios, parse_scenarios};
use delve::sim::{Bot, BotKind, Rules, Settings, World};
use proptest::prelude::*;

use crate::support::data;
use data::{files_with, fixture_dir, shared_movingai_or_skip, shipped_level, shipped_levels};

/// Fewest steps from `from` to `to` over `grid.can_step` moves (the first
/// `n` of the standard directions: 4 or 8), `None` when unreachable.
fn steps(grid: &Grid, from: Cell, to: Cell, n: usize) -> Option<usize> {
    let index = |c: Cell| c.y as usize * grid.width() + c.x as usize;
    let mut dist = vec![usize::MAX; grid.width() * grid.height()];
    dist[index(from)] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        if c == to {
            return Some(dist[index(c)]);
        }
        for &(dx, dy) in &DIRECTIONS[..n] {
            let next = Cell::new(c.x + dx, c.y + dy);
            if grid.can_step(c, dx, dy) && dist[index(next)] == usize::MAX {
                dist[index(next)] = dist[index(c)] + 1;
                queue.push_back(next);
            }
        }
    }
    None
}

#[test]
fn every_shipped_level_is_playable() {
    let levels = shipped_levels();
    let names: Vec<&str> = levels.iter().map(|(n, _)| n.as_str()).collect();
    for expected in ["arena", "big", "cave", "dungeon", "keep", "maze", "room"] {
        assert!(names.contains(&expected), "levels/{expected}.txt missing");
    }
    for (file, l) in &levels {
        assert_eq!(&l.name, file, "{file}: name: should match the file name");
        assert!(l.source.lines().any(|s| s.starts_with("name:")), "{file}: no name: line");
        assert!(!l.description.is_empty(), "{file}: no description");
        let (Some(_), Some(s), Some(g)) = (l.player, l.start, l.goal) else {
            panic!("{file}: needs @, S and G");
        };
        assert!(steps(&l.grid, s, g, 8).is_some(), "{file}: S cannot reach G");
    }
}

#[test]
fn room_is_the_textbook_wall_with_one_gap() {
    let l = shipped_level("room");
    assert_eq!((l.grid.width(), l.grid.height()), (7, 5));
    for y in 0..4 {
        assert_eq!(l.grid.tile(Cell::new(3, y)), Tile::Wall);
    }
    assert!(l.grid.is_walkable(Cell::new(3, 4)));
    let walls = l.grid.cells().filter(|&c| !l.grid.is_walkable(c)).count();
    assert_eq!(walls, 4);
    assert_eq!((l.start, l.goal), (Some(Cell::new(0, 2)), Some(Cell::new(6, 2))));
    assert_eq!(steps(&l.grid, Cell::new(0, 2), Cell::new(6, 2), 4), Some(10));
}

#[test]
fn maze_is_a_maze() {
    let l = shipped_level("maze");
    assert!(l.grid.width() >= 41 && l.grid.height() >= 21);
    assert!(l.monsters.len() >= 3);
    let (s, g) = (l.start.unwrap(), l.goal.unwrap());
    // Corridors, not a room: the path is much longer than the distance.
    let manhattan = ((g.x - s.x).abs() + (g.y - s.y).abs()) as usize;
    assert!(steps(&l.grid, s, g, 4).unwrap() > 2 * manhattan);
}

#[test]
fn cave_has_water_and_mud() {
    let l = shipped_level("cave");
    let tiles: Vec<Tile> = l.grid.cells().map(|c| l.grid.tile(c)).collect();
    assert!(tiles.contains(&Tile::Water));
    assert!(tiles.iter().any(|t| matches!(t, Tile::Floor(2..=9))));
}

#[test]
fn arena_is_open_with_flocks() {
    let l = shipped_level("arena");
    assert!(l.boids.len() >= 20 && !l.fleeing.is_empty() && !l.monsters.is_empty());
    let open = l.grid.cells().filter(|&c| l.grid.is_walkable(c)).count();
    assert!(open * 10 > l.grid.width() * l.grid.height() * 8, "at least 80 % open");
}

#[test]
fn keep_has_open_and_closed_doors_and_monsters_inside() {
    let l = shipped_level("keep");
    let tiles: Vec<Tile> = l.grid.cells().map(|c| l.grid.tile(c)).collect();
    assert!(tiles.contains(&Tile::DoorOpen) && tiles.contains(&Tile::DoorClosed));
    assert!(l.monsters.len() >= 2);
}

#[test]
fn big_is_big_with_every_kind_of_spawn() {
    let l = shipped_level("big");
    assert!(l.grid.width() >= 200 && l.grid.height() >= 100);
    for (kind, n) in [
        ("monsters", l.monsters.len()),
        ("wanderers", l.wanderers.len()),
        ("fleeing", l.fleeing.len()),
        ("boids", l.boids.len()),
    ] {
        assert!(n > 0, "no {kind}");
    }
}

#[test]
fn default_level_is_the_welcoming_dungeon() {
    let l = Level::embedded_default();
    assert_eq!(l, shipped_level(DEFAULT_LEVEL_NAME));
    let (w, h) = (l.grid.width(), l.grid.height());
    assert!((64..=80).contains(&w) && (28..=36).contains(&h), "{w}x{h}");
    assert!((3..=4).contains(&l.monsters.len()));
    assert!(!l.wanderers.is_empty() && !l.fleeing.is_empty());
    assert!((8..=15).contains(&l.boids.len()));
    let tiles: Vec<Tile> = l.grid.cells().map(|c| l.grid.tile(c)).collect();
    assert!(tiles.contains(&Tile::Water));
    assert!(tiles.contains(&Tile::DoorOpen) || tiles.contains(&Tile::DoorClosed));
    let player = l.player.unwrap();
    for &m in &l.monsters {
        let d = steps(&l.grid, player, m, 8);
        assert!(d.is_none_or(|d| d >= 20), "monster at {m} starts {d:?} steps away");
    }
}

/// `height H` and `width W` from a Moving AI header, read independently of
/// the parser.
fn header_size(text: &str) -> (usize, usize) {
    let value = |line: &str| line.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next().map(str::trim_end), Some("type octile"));
    let height = value(lines.next().unwrap());
    let width = value(lines.next().unwrap());
    (width, height)
}

/// Reads the Moving AI map at `path` and its scenario file beside it, and
/// checks them against what the text says and against each other.
fn check_moving_ai_map_and_scenarios(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let (width, height) = header_size(&text);
    let rows = text.lines().skip(4).filter(|l| !l.is_empty()).count();
    assert_eq!(rows, height, "{}", path.display());
    let level = Level::load(path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((level.grid.width(), level.grid.height()), (width, height));
    assert_eq!(level.source, text);

    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let scen_path = path.with_file_name(format!("{file}.scen"));
    let scenarios = load_scenarios(&scen_path).unwrap_or_else(|e| panic!("{e}"));
    assert!(!scenarios.is_empty(), "{}", scen_path.display());
    for s in &scenarios {
        assert_eq!(s.map, file);
        assert_eq!((s.width, s.height), (width, height), "{file}");
        assert!(level.grid.is_walkable(s.start) && level.grid.is_walkable(s.goal));
        assert_eq!(s.bucket, (s.optimal / 4.0).floor() as u32);
        assert!(s.check_map(&level.grid, "scen", &file).is_ok());
    }
}

#[test]
fn every_moving_ai_map_and_scenario_file_reads() {
    let Some(dir) = shared_movingai_or_skip("every_moving_ai_map_and_scenario_file_reads") else { return };
    let maps = files_with(&dir, "map");
    assert!(maps.len() >= 7, "expected the 7 maps, found {}", maps.len());
    maps.iter().for_each(|p| check_moving_ai_map_and_scenarios(p));
}

#[test]
fn the_fixture_map_and_scenario_file_read() {
    check_moving_ai_map_and_scenarios(&fixture_dir().join("rooms.map"));
}

/// Glyphs for generated levels: tiles several times over so that spawns
/// stay a minority.
const GLYPHS: &[char] =
    &['#', '#', '#', '.', '.', '.', '.', '1', '2', '5', '9', '~', '+', '\'', '@', 'M', 'w', 'f', 'b', 'S', 'G'];

/// The tile a glyph stands for, written out here independently of the
/// parser's table.
fn expected_tile(c: char) -> Tile {
    match c {
        '#' => Tile::Wall,
        '~' => Tile::Water,
        '+' => Tile::DoorClosed,
        '\'' => Tile::DoorOpen,
        d @ '1'..='9' => Tile::Floor(d as u8 - b'0'),
        _ => Tile::Floor(1),
    }
}

/// A random valid map: rows of glyphs with at most one `@`, `S` and `G`.
fn valid_map() -> impl Strategy<Value = Vec<Vec<char>>> {
    (1usize..=24, 1usize..=12).prop_flat_map(|(w, h)| {
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
            cells.chunks(w).map(<[char]>::to_vec).collect()
        })
    })
}

/// Text that stresses the parsers: glyphs, metadata, comments, line ends.
fn glyph_soup() -> impl Strategy<Value = String> {
    let prefix = prop::sample::select(vec![
        "",
        "name: x\n",
        "description: y\n\n",
        "type octile\nheight 3\nwidth 4\nmap\n",
        "type octile\nheight 2\nwidth 2\n",
        "type octile\r\nheight 0\r\n",
    ]);
    let body = "[#.0-9~+'@MwfbSGTOW:; \t\r\n]{0,120}";
    (prefix, body).prop_map(|(p, b)| format!("{p}{b}"))
}

proptest! {
    #[test]
    fn any_text_parses_or_errs_without_panic(text in ".*") {
        let _ = Level::parse(&text, "any.txt");
        let _ = parse_scenarios(&text, "any.scen");
    }

    #[test]
    fn glyph_soup_parses_or_errs_with_a_one_line_message(text in glyph_soup()) {
        if let Err(e) = Level::parse(&text, "soup.txt") {
            let message = e.to_string();
            prop_assert!(message.starts_with("soup.txt"), "{}", message);
            prop_assert!(!message.contains('\n'), "{}", message);
        }
    }

    #[test]
    fn scenario_soup_parses_or_errs(lines in prop::collection::vec("[0-9a-z.\t -]{0,30}", 0..6)) {
        let text = format!("version 1\n{}", lines.join("\n"));
        if let Err(e) = parse_scenarios(&text, "soup.scen") {
            prop_assert!(!e.to_string().contains('\n'));
        }
    }

    #[test]
    fn a_valid_level_reads_as_written_and_writes_back(rows in valid_map()) {
        let mut text = "name: generated\ndescription: random\n".to_owned();
        for row in &rows {
            text.extend(row);
            text.push('\n');
        }
        let level = Level::parse(&text, "gen.txt").unwrap();
        prop_assert_eq!(level.grid.width(), rows[0].len());
        prop_assert_eq!(level.grid.height(), rows.len());
        let mut spawns: [Vec<Cell>; 7] = Default::default();
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let cell = Cell::new(x as i32, y as i32);
                prop_assert_eq!(level.grid.tile(cell), expected_tile(c));
                if let Some(i) = "@MwfbSG".find(c) {
                    spawns[i].push(cell);
                }
            }
        }
        prop_assert_eq!(level.player.as_slice(), &spawns[0][..]);
        prop_assert_eq!(&level.monsters, &spawns[1]);
        prop_assert_eq!(&level.wanderers, &spawns[2]);
        prop_assert_eq!(&level.fleeing, &spawns[3]);
        prop_assert_eq!(&level.boids, &spawns[4]);
        prop_assert_eq!(level.start.as_slice(), &spawns[5][..]);
        prop_assert_eq!(level.goal.as_slice(), &spawns[6][..]);

        let written = level.to_text();
        let again = Level::parse(&written, "gen.txt").unwrap();
        prop_assert_eq!(again, Level { source: written, ..level });
    }
}

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
    let mut maps = files_with(&fixture_dir(), "map");
    if let Some(dir) = shared_movingai_or_skip("a_moving_ai_map_writes_back_as_its_own_bytes") {
        maps.extend(files_with(&dir, "map"));
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

/// A random level's text: metadata of every kind (some absent), comments,
/// then a [`valid_map`].
fn level_text() -> impl Strategy<Value = String> {
    let map = valid_map().prop_map(|rows| rows.iter().map(|row| row.iter().collect::<String>()).collect::<Vec<_>>());
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

    /// Writing a level back is the spec of the lab's `W`: read back, it is
    /// the same level, playing the same.
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
