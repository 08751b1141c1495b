//! A generated level as a Moving AI benchmark: the map (`type octile`) and
//! a scenario file of queries with their optimal lengths, in the
//! conventions of the Moving AI Lab's grid benchmarks.
//!
//! **The map.** Walls are written `@`, every other cell `.`: floor of any
//! cost, water, mud and doors, open or closed, all become plain passable
//! ground. Moving AI maps have no weighted cells (their swamp `S` has no
//! agreed cost, and water `W` blocks ground units), so the benchmark is
//! the level's shape with uniform costs, and its lengths are computed on
//! that map, as `delve scen` reads it back (every passable cell cost 1).
//!
//! **The scenarios.** Octile moves: 8 neighbours, 1 along a row or column,
//! √2 on a diagonal, which may not cut the corner of a wall (both cells
//! beside it must be passable). Each row's `bucket` is
//! floor(optimal length / 4); rows come sorted by bucket, [`Bucketing`]'s
//! `per_bucket` in each (the Moving AI files have 10), for every bucket
//! from 0 up to the last one full; the start and goal of a row differ,
//! and the rows of a bucket start on distinct cells. Lengths are written
//! with 8 decimals.
//!
//! How rows are found: a Dijkstra map ([`FlowField`]) from each of a
//! number of starts (`max(4·per_bucket, 32)`, or every cell of a smaller
//! map) gives the length to every cell at once; each start gives one row
//! to every bucket that is not full, its goal drawn at random among the
//! cells of that bucket. Every other start is drawn among the farthest
//! cells of the last map, which are far from most of the level, so that
//! the long buckets fill too; the others are drawn at random.
//!
//! **Exact lengths.** A route's cost on the uniform map is `s + d·DIAGONAL`
//! for `s` straight and `d` diagonal steps, and [`crate::grid::DIAGONAL`]
//! is a dyadic fraction (6074001000 / 2³²), so below 2²¹ the cost is
//! exact and determines `s` and `d` (`octile_steps`); the length written
//! is `s + d·√2` with the true √2.

use super::dice::{self, Purpose};
use super::{GenError, Recipe};
use crate::grid::{Cell, DIAGONAL, Grid, Neighbors, Tile};
use crate::search::{FlowField, GridGraph, Heuristic};

/// The Moving AI map of `grid`: `@` for walls, `.` for every other cell.
pub fn map_text(grid: &Grid) -> String {
    let (w, h) = (grid.width(), grid.height());
    let mut out = format!("type octile\nheight {h}\nwidth {w}\nmap\n");
    out.reserve((w + 1) * h);
    for y in 0..h as i32 {
        out.extend((0..w as i32).map(|x| if grid.tile(Cell::new(x, y)) == Tile::Wall { '@' } else { '.' }));
        out.push('\n');
    }
    out
}

/// How many scenarios to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucketing {
    /// Rows in each bucket (10 in the Moving AI files).
    pub per_bucket: usize,
}

impl Default for Bucketing {
    fn default() -> Bucketing {
        Bucketing { per_bucket: 10 }
    }
}

/// One query with its optimal length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// floor(length / 4).
    pub bucket: usize,
    /// Where the query starts.
    pub start: Cell,
    /// Where it ends.
    pub goal: Cell,
    /// The optimal octile length.
    pub length: f64,
}

/// The scenarios of `map` (a Moving AI map as read back, every passable
/// cell cost 1) for `recipe`, drawn from the recipe's scenario stream.
/// `progress` hears (starts done, starts in all) after each start. Refuses
/// more rows a bucket than the map has cells to start them on.
pub fn scenarios(
    recipe: &Recipe,
    map: &Grid,
    bucketing: Bucketing,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<Row>, GenError> {
    let cells: Vec<Cell> = map.cells().filter(|&c| map.is_walkable(c)).collect();
    let per_bucket = bucketing.per_bucket;
    if per_bucket > cells.len() || per_bucket == 0 {
        return Err(GenError::Count { count: per_bucket, cells: cells.len() });
    }
    let mut dice = dice::stream(recipe, Purpose::Scenarios);
    let starts = cells.len().min((4 * per_bucket).max(32));
    let mut order: Vec<usize> = (0..cells.len()).collect();
    dice.shuffle(&mut order);
    let mut next_random = order.into_iter();
    let mut used = vec![false; cells.len()];
    let mut buckets: Vec<Vec<Row>> = Vec::new();
    let mut far: Option<usize> = None;
    let mut field = FlowField::new();
    let graph = GridGraph::new(map, Neighbors::Eight, Heuristic::Zero, cells[0], cells[0]);
    let mut lengths = vec![(f64::INFINITY, usize::MAX); cells.len()];
    for done in 0..starts {
        let pick = match far.filter(|&f| done % 2 == 1 && !used[f]) {
            Some(f) => f,
            None => next_random.by_ref().find(|&k| !used[k]).expect("fewer starts than cells"),
        };
        used[pick] = true;
        let start = cells[pick];
        field.start(map.node_count(), map.node(start), f64::INFINITY);
        field.advance(&graph, u64::MAX);
        let mut counts: Vec<usize> = Vec::new();
        for (k, &c) in cells.iter().enumerate() {
            lengths[k] = (f64::INFINITY, usize::MAX);
            let Some(cost) = field.distance(map.node(c)).filter(|_| k != pick) else { continue };
            let length = octile_length(cost)?;
            let bucket = (length / 4.0) as usize;
            lengths[k] = (length, bucket);
            if counts.len() <= bucket {
                counts.resize(bucket + 1, 0);
            }
            counts[bucket] += 1;
        }
        if buckets.len() < counts.len() {
            buckets.resize(counts.len(), Vec::new());
        }
        // The rank, within its bucket, of the goal each bucket still
        // wanting rows gets from this start; then one pass finds them.
        let mut wanted: Vec<Option<usize>> = (0..counts.len())
            .map(|b| (buckets[b].len() < per_bucket && counts[b] > 0).then(|| dice.below(counts[b])))
            .collect();
        let top = counts.len().checked_sub(1).map(|b| (b, dice.below(counts[b])));
        let mut seen = vec![0usize; counts.len()];
        for (k, &(length, bucket)) in lengths.iter().enumerate() {
            if bucket == usize::MAX {
                continue;
            }
            if wanted[bucket] == Some(seen[bucket]) {
                buckets[bucket].push(Row { bucket, start, goal: cells[k], length });
                wanted[bucket] = None;
            }
            if top == Some((bucket, seen[bucket])) {
                far = Some(k);
            }
            seen[bucket] += 1;
        }
        progress(done as u64 + 1, starts as u64);
    }
    let full = buckets.iter().take_while(|b| b.len() == per_bucket).count();
    Ok(buckets.into_iter().take(full).flatten().collect())
}

/// The scenario file of `rows` on the map file named `map_name` (the name
/// only, no folder), of size `width × height`.
pub fn scenario_text(rows: &[Row], map_name: &str, width: usize, height: usize) -> String {
    let mut out = String::from("version 1\n");
    for r in rows {
        out += &format!(
            "{}\t{map_name}\t{width}\t{height}\t{}\t{}\t{}\t{}\t{:.8}\n",
            r.bucket, r.start.x, r.start.y, r.goal.x, r.goal.y, r.length
        );
    }
    out
}

/// [`DIAGONAL`] in units of 2⁻³².
const DIAGONAL_UNITS: u64 = 6_074_001_000;
/// 2³², the unit's inverse.
const UNIT: f64 = 4_294_967_296.0;
/// The largest cost whose sums of 1 and [`DIAGONAL`] are all exact.
const EXACT_BELOW: f64 = 2_097_152.0;

/// The inverse of an odd `a` modulo 2⁶⁴ (Newton's iteration, each step
/// doubling the bits that are right).
const fn inverse(a: u64) -> u64 {
    let mut x = a;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// The straight and diagonal steps of a route of cost `cost` on a map of
/// uniform cost 1: `cost = s + d·DIAGONAL`. In units of 2⁻³², the cost is
/// `n = s·2³² + d·DIAGONAL_UNITS`, and `DIAGONAL_UNITS` is 8 times an odd
/// number `q`, so `n/8 ≡ d·q (mod 2²⁹)` gives `d` (below 2²⁹ for any route
/// on a map) and then `s`. `None` when `cost` is no such sum.
pub(super) fn octile_steps(cost: f64) -> Option<(u64, u64)> {
    if !(0.0..EXACT_BELOW).contains(&cost) {
        return None;
    }
    let n = cost * UNIT;
    if n.fract() != 0.0 {
        return None;
    }
    let n = n as u64;
    let q = DIAGONAL_UNITS / 8;
    let d = ((n / 8).wrapping_mul(inverse(q))) & ((1 << 29) - 1);
    let rest = n.checked_sub(d * DIAGONAL_UNITS)?;
    let s = rest >> 32;
    (s << 32 == rest && n.is_multiple_of(8)).then_some((s, d))
}

/// The octile length (true √2) of a route of cost `cost`.
fn octile_length(cost: f64) -> Result<f64, GenError> {
    let (s, d) = octile_steps(cost).ok_or(GenError::TooLong(cost))?;
    debug_assert_eq!(s as f64 + d as f64 * DIAGONAL, cost);
    Ok(s as f64 + d as f64 * std::f64::consts::SQRT_2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::r#gen::Style;
    use crate::level::Level;

    #[test]
    fn diagonal_units_are_the_grids_diagonal() {
        assert_eq!(DIAGONAL * UNIT, DIAGONAL_UNITS as f64);
        assert_eq!((DIAGONAL_UNITS / 8) % 2, 1, "8 times an odd number");
        let q = DIAGONAL_UNITS / 8;
        assert_eq!(q.wrapping_mul(inverse(q)), 1);
    }

    #[test]
    fn costs_give_back_their_steps() {
        for (s, d) in [(0, 0), (1, 0), (0, 1), (7, 3), (1000, 999), (12345, 67890), (0, 1_400_000), (2_000_000, 5)] {
            let cost = s as f64 + d as f64 * DIAGONAL;
            assert_eq!(octile_steps(cost), Some((s, d)), "{s} + {d}·√2");
        }
        assert_eq!(octile_steps(0.5), None, "no sum of steps");
        assert_eq!(octile_steps(3_000_000.0), None, "beyond exact sums");
        assert_eq!(octile_steps(-1.0), None);
        let len = octile_length(2.0 + 2.0 * DIAGONAL).unwrap();
        assert_eq!(len, 2.0 + 2.0 * std::f64::consts::SQRT_2);
    }

    #[test]
    fn the_map_has_walls_and_ground_only() {
        let level = Level::parse("name: t\n#.~+\n'2@G\n", "t").unwrap();
        assert_eq!(map_text(&level.grid), "type octile\nheight 2\nwidth 4\nmap\n@...\n....\n");
    }

    #[test]
    fn scenarios_fill_whole_buckets_in_order_with_distinct_starts() {
        let recipe = Recipe::new(Style::Caves, 3, 1, Some(crate::r#gen::Size { width: 40, height: 24 })).unwrap();
        let text = map_text(&recipe.generate().grid);
        let map = Level::parse(&text, "x.map").unwrap().grid;
        let mut calls = Vec::new();
        let rows = scenarios(&recipe, &map, Bucketing { per_bucket: 5 }, &mut |d, n| calls.push((d, n))).unwrap();
        assert_eq!(calls.len(), 32);
        assert_eq!(calls.last(), Some(&(32, 32)));
        assert!(rows.len() >= 5 * 5, "at least 5 buckets: {}", rows.len());
        assert_eq!(rows.len() % 5, 0);
        for (k, chunk) in rows.chunks(5).enumerate() {
            let mut starts: Vec<Cell> = chunk.iter().map(|r| r.start).collect();
            starts.sort_unstable();
            starts.dedup();
            assert_eq!(starts.len(), 5, "bucket {k}: distinct starts");
            for r in chunk {
                assert_eq!(r.bucket, k);
                assert_eq!((r.length / 4.0) as usize, k);
                assert_ne!(r.start, r.goal);
            }
        }
        let again = scenarios(&recipe, &map, Bucketing { per_bucket: 5 }, &mut |_, _| {}).unwrap();
        assert_eq!(again, rows, "deterministic");
        let cells = map.cells().filter(|&c| map.is_walkable(c)).count();
        let e = scenarios(&recipe, &map, Bucketing { per_bucket: cells + 1 }, &mut |_, _| {}).unwrap_err();
        assert_eq!(e, GenError::Count { count: cells + 1, cells });
        let text = scenario_text(&rows[..1], "x.map", 40, 24);
        assert!(text.starts_with("version 1\n0\tx.map\t40\t24\t"), "{text}");
        assert!(text.ends_with(&format!("\t{:.8}\n", rows[0].length)));
    }
}
