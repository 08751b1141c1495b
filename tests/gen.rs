//! Generated levels, checked against independent references: a thousand
//! seeds per style at small sizes (the level reads back, everything walkable
//! is reachable from the player, the placement rules hold, the braided
//! mazes and the mixed levels have loops), golden checksums of the level
//! text, and the Moving AI scenarios' lengths against the `pathfinding`
//! crate's Dijkstra.
//!
//! Distances here are the `pathfinding` crate's over moves written afresh:
//! 8 neighbours, no corner cutting, integer costs of 10⁹ per straight step
//! and ⌊√2·10⁹⌋ per diagonal.

use delve::r#gen::movingai::{self, Bucketing};
use delve::r#gen::{Difficulty, Recipe, Size, Style};
use delve::grid::{Cell, Grid, Tile};
use delve::level::Level;
use pathfinding::prelude::{dijkstra, dijkstra_all};
use std::collections::HashMap;

const SEEDS: u64 = 1000;
const STEP: u64 = 1_000_000_000;
const DIAGONAL: u64 = 1_414_213_562;

/// A small size for `seed`: the style's minimum plus up to 16 by 10.
fn small(style: Style, seed: u64) -> Size {
    let min = style.min_size();
    Size { width: min.width + (seed % 17) as usize, height: min.height + (seed / 17 % 11) as usize }
}

/// The depth for `seed`: 1 to 12, so shallow and deep rules both show.
fn depth(seed: u64) -> u32 {
    1 + (seed % 12) as u32
}

/// Whether a step may enter `c`: anything but a wall (doors count as open).
fn passable(grid: &Grid, c: Cell, doors_block: bool) -> bool {
    match grid.tile(c) {
        Tile::Wall => false,
        Tile::DoorClosed => !doors_block,
        _ => true,
    }
}

/// The octile moves out of `c`, with their costs.
fn moves(grid: &Grid, c: Cell, doors_block: bool) -> Vec<(Cell, u64)> {
    let mut out = Vec::with_capacity(8);
    for dy in -1..=1 {
        for dx in -1..=1 {
            let to = Cell::new(c.x + dx, c.y + dy);
            if (dx, dy) == (0, 0) || !passable(grid, to, doors_block) {
                continue;
            }
            if dx != 0 && dy != 0 {
                let sides = [Cell::new(c.x + dx, c.y), Cell::new(c.x, c.y + dy)];
                if sides.iter().any(|&s| !passable(grid, s, doors_block)) {
                    continue;
                }
                out.push((to, DIAGONAL));
            } else {
                out.push((to, STEP));
            }
        }
    }
    out
}

/// Walking distances (in cells) from `from` to every cell it reaches.
fn walking(grid: &Grid, from: Cell) -> HashMap<Cell, f64> {
    let mut all: HashMap<Cell, f64> = dijkstra_all(&from, |&c| moves(grid, c, false))
        .into_iter()
        .map(|(c, (_, cost))| (c, cost as f64 / STEP as f64))
        .collect();
    all.insert(from, 0.0);
    all
}

/// Whether every cell of the `(2r+1)²` block round `c` is plain floor.
fn open(grid: &Grid, c: Cell, r: i32) -> bool {
    (-r..=r).all(|dy| (-r..=r).all(|dx| grid.tile(Cell::new(c.x + dx, c.y + dy)) == Tile::Floor(1)))
}

/// Whether the level has a loop: some rock (an 8-connected group of wall
/// cells) that does not touch the map's edge, which a walk can go round
/// on either side.
fn has_loop(grid: &Grid) -> bool {
    let (w, h) = (grid.width() as i32, grid.height() as i32);
    let mut seen = vec![false; (w * h) as usize];
    for start in grid.cells().filter(|&c| grid.tile(c) == Tile::Wall) {
        if seen[(start.y * w + start.x) as usize] {
            continue;
        }
        seen[(start.y * w + start.x) as usize] = true;
        let (mut stack, mut edge) = (vec![start], false);
        while let Some(c) = stack.pop() {
            edge |= c.x == 0 || c.y == 0 || c.x == w - 1 || c.y == h - 1;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let n = Cell::new(c.x + dx, c.y + dy);
                    if grid.in_bounds(n) && grid.tile(n) == Tile::Wall && !seen[(n.y * w + n.x) as usize] {
                        seen[(n.y * w + n.x) as usize] = true;
                        stack.push(n);
                    }
                }
            }
        }
        if !edge {
            return true;
        }
    }
    false
}

/// Every rule a generated level must keep, for one recipe.
fn check(style: Style, seed: u64) {
    let recipe = Recipe::new(style, seed, depth(seed), Some(small(style, seed))).unwrap();
    let at = format!("{recipe}");
    let level = recipe.generate();
    let again = Level::parse(&level.source, "again.txt").unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!(again, level, "{at}: the text reads back as the level");
    let grid = &level.grid;
    let (player, goal) = (level.player.expect("a player"), level.goal.expect("a goal"));
    let dist = walking(grid, player);
    let walkable = grid.cells().filter(|&c| passable(grid, c, false)).count();
    assert_eq!(dist.len(), walkable, "{at}: every walkable cell is reachable from the player");
    let plain: Vec<Cell> = grid.cells().filter(|&c| grid.tile(c) == Tile::Floor(1)).collect();
    let farthest = plain.iter().map(|c| dist[c]).fold(0.0, f64::max);
    assert!(dist[&goal] >= 0.9 * farthest - 1e-6, "{at}: the goal at {} of {farthest}", dist[&goal]);
    let start = level.start.expect("S beside the player");
    assert_eq!((start.x - player.x).abs() + (start.y - player.y).abs(), 1, "{at}: S beside @");
    let difficulty = Difficulty::new(recipe.depth());
    let safe = difficulty.safe_distance().min(farthest / 2.0);
    assert!(!level.monsters.is_empty(), "{at}: no monster");
    assert!(level.monsters.len() <= difficulty.guards() + difficulty.monsters(walkable), "{at}");
    // The guards may stand nearer, from 12 cells out (docs/gen.md); the
    // other monsters keep the safe distance.
    let reach = safe.min(12.0);
    for m in &level.monsters {
        assert!(dist[m] >= reach - 1e-6, "{at}: monster {m} at {} < {reach}", dist[m]);
    }
    let nearer = level.monsters.iter().filter(|m| dist[m] < safe - 1e-6).count();
    assert!(nearer <= difficulty.guards(), "{at}: {nearer} monsters nearer than {safe}, more than the guards");
    let open_cells = plain.iter().filter(|&&c| open(grid, c, 1)).count();
    for (kind, list) in [("wanderer", &level.wanderers), ("prey", &level.fleeing)] {
        assert_eq!(list.len(), difficulty.wanderers(walkable), "{at}: {kind}s");
        let fallback = open_cells < 4 * list.len() + 3 + level.monsters.len() + 2 * list.len();
        assert!(fallback || list.iter().all(|&c| open(grid, c, 1)), "{at}: a {kind} off open ground");
    }
    let flock = difficulty.flock_size();
    assert_eq!(level.boids.len() % flock, 0, "{at}: whole flocks");
    assert!(level.boids.len() / flock <= difficulty.flocks(walkable), "{at}");
    for b in &level.boids {
        let in_open_block = (-2..=2).any(|dy| (-2..=2).any(|dx| open(grid, Cell::new(b.x + dx, b.y + dy), 2)));
        assert!(in_open_block, "{at}: boid {b} outside a 5x5 open area");
    }
    let doors = grid.cells().filter(|&c| matches!(grid.tile(c), Tile::DoorOpen | Tile::DoorClosed)).count();
    let closed = grid.cells().filter(|&c| grid.tile(c) == Tile::DoorClosed).count();
    match difficulty.door_cycle() {
        Some(ticks) if doors > 0 => {
            assert_eq!(level.doors.map(|d| d.period), Some(ticks), "{at}");
            // The goal can be reached with the doors as they start, and with
            // every door toggled.
            assert!(dijkstra(&player, |&c| moves(grid, c, true), |&c| c == goal).is_some(), "{at}: phase 0");
            let mut flipped = grid.clone();
            for c in grid.cells() {
                let t = match grid.tile(c) {
                    Tile::DoorOpen => Tile::DoorClosed,
                    Tile::DoorClosed => Tile::DoorOpen,
                    t => t,
                };
                flipped.set_tile(c, t);
            }
            assert!(dijkstra(&player, |&c| moves(&flipped, c, true), |&c| c == goal).is_some(), "{at}: phase 1");
        }
        _ => {
            assert_eq!(level.doors, None, "{at}");
            assert_eq!(closed, 0, "{at}: no closed door without a cycle");
        }
    }
    if matches!(style, Style::Maze | Style::Mixed) {
        assert!(has_loop(grid), "{at}: no loop\n{}", level.source);
    }
}

fn check_all(style: Style) {
    for seed in 0..SEEDS {
        check(style, seed);
    }
}

#[test]
fn rooms_keep_every_rule_over_a_thousand_seeds() {
    check_all(Style::Rooms);
}

#[test]
fn caves_keep_every_rule_over_a_thousand_seeds() {
    check_all(Style::Caves);
}

#[test]
fn mazes_keep_every_rule_over_a_thousand_seeds() {
    check_all(Style::Maze);
}

#[test]
fn mixed_levels_keep_every_rule_over_a_thousand_seeds() {
    check_all(Style::Mixed);
}

/// FNV-1a over the bytes of `text`.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The level text of these recipes, to the byte: a change to any
/// generator, to the streams or to the level format shows here. Update
/// them only for a change meant to alter generated levels (and say so).
#[test]
fn golden_checksums() {
    let golden: [(Style, u64, u32, &str, u64); 12] = [
        (Style::Rooms, 1, 1, "48x24", 0x372c9e6baa07d230),
        (Style::Rooms, 2, 3, "60x30", 0x567e81c6d6da2f6f),
        (Style::Rooms, 3, 10, "80x40", 0x8361b6f4d1f09c69),
        (Style::Caves, 1, 1, "48x24", 0x5e2b535ac0f28970),
        (Style::Caves, 2, 3, "60x30", 0xcaa4a731e95d7f24),
        (Style::Caves, 3, 10, "80x40", 0x411a9312acdb7d23),
        (Style::Maze, 1, 1, "48x24", 0x4838e25313f231db),
        (Style::Maze, 2, 3, "61x31", 0x7daf86d858a171fb),
        (Style::Maze, 3, 10, "81x41", 0x19b942f862123a71),
        (Style::Mixed, 1, 1, "48x24", 0xfa6b45ddaf73122c),
        (Style::Mixed, 2, 3, "60x30", 0x1b36a1a0840d7bcd),
        (Style::Mixed, 3, 10, "80x40", 0xee5793929dbb8814),
    ];
    let mut actual = Vec::new();
    for (style, seed, depth, size, _) in golden {
        let level = Recipe::new(style, seed, depth, Some(size.parse().unwrap())).unwrap().generate();
        actual.push((style, seed, depth, size, fnv1a(&level.source)));
    }
    let lines = |v: &[(Style, u64, u32, &str, u64)]| {
        v.iter()
            .map(|(s, seed, d, size, h)| format!("(Style::{s:?}, {seed}, {d}, \"{size}\", {h:#018x}),"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(lines(&actual), lines(&golden), "generated levels changed");
}

/// The scenario lengths delve computed are the `pathfinding` crate's
/// optimal octile lengths on the written map.
#[test]
fn scenario_lengths_agree_with_the_pathfinding_crate() {
    for (k, style) in Style::ALL.iter().enumerate() {
        let recipe = Recipe::new(*style, 40 + k as u64, 2, Some(Size { width: 44, height: 26 })).unwrap();
        let text = movingai::map_text(&recipe.generate().grid);
        let map = Level::parse(&text, "x.map").unwrap().grid;
        let rows = movingai::scenarios(&recipe, &map, Bucketing { per_bucket: 3 }, &mut |_, _| {}).unwrap();
        assert!(rows.len() >= 3 * 4, "{recipe}: {} rows", rows.len());
        for r in &rows {
            let (_, cost) = dijkstra(&r.start, |&c| moves(&map, c, false), |&c| c == r.goal).expect("a route");
            let reference = cost as f64 / STEP as f64;
            assert!((r.length - reference).abs() < 1e-6, "{recipe}: {r:?} against {reference}");
            assert_eq!(r.bucket, (reference / 4.0) as usize);
        }
    }
}
