//! Generated dungeons: every (style, seed, depth, size) a level of its own.
//!
//! A [`Recipe`] names a level: the [`Style`] of its generator, a seed, the
//! depth (how far down a descent it lies, which sets the difficulty) and
//! the map's size. [`Recipe::generate`] is a pure function of those four:
//! the same recipe gives byte-identical level text on every run and every
//! machine. Each step draws from its own PCG stream derived from the
//! recipe (`gen/dice.rs`), nothing iterates a hash map, and there is no
//! floating point but exactly rounded additions, products and comparisons
//! of route costs (sums of 1 and the dyadic √2 of [`crate::grid::DIAGONAL`]).
//!
//! # Styles (one file each)
//!
//! - `rooms` (`gen/rooms.rs`): a binary space partition into leaves, a
//!   rectangular room in each, sibling subtrees joined by L-shaped
//!   corridors, and a door wherever a corridor enters a room.
//! - `caves` (`gen/caves.rs`): cellular automata, the 4-5 rule (45 % rock,
//!   four rounds that also fill wide open spaces, three that only smooth),
//!   then every pocket of floor either joined to the main cave by a tunnel
//!   or filled.
//! - `maze` (`gen/maze.rs`): a perfect maze by the recursive backtracker
//!   (corridors one cell wide), then braided: a share of its dead ends (the
//!   braid factor of the difficulty table) get a wall knocked out, so there
//!   is more than one route between places.
//! - `mixed` (`gen/mixed.rs`): Brogue's recipe: rooms of several shapes
//!   (rectangles, halls, crosses, circles, cave blobs, some at the end of a
//!   hallway) attached to the map by doors, lakes of water with muddy
//!   shores and bogs of mud (the grid's weighted cells, so cost-aware
//!   planners differ from step-counting ones), and loops.
//!
//! # Shared post-processing (one small function each)
//!
//! 1. `gen/connect.rs`: one walkable region; what cannot be reached is
//!    walled.
//! 2. `gen/loops.rs` (`rooms`, `mixed`): a run of wall between two cells
//!    that are far apart by path is knocked out; every level gets one
//!    loop at least.
//! 3. `gen/doors.rs`: a door where a corridor meets a room.
//! 4. `gen/place.rs`: the player `@` at one end of the level (among the
//!    cells farthest from a random one), the goal `G` among the cells
//!    farthest from the player by walking distance (a Dijkstra map), `S`
//!    beside the player for `delve path`, guards at the narrows of the
//!    walk from `@` to `G`, monsters beyond a safe walking distance,
//!    wanderers and prey on open ground, flocks in open areas.
//! 5. Door cycles on deeper levels (`gen/doors.rs`): `doors: cycle N`, half
//!    the doors closed at the start, and the doors on one route from `@`
//!    to `G` made open doorways, so the goal can be reached whatever the
//!    doors' phase.
//!
//! # Difficulty by depth
//!
//! Depth runs from 1 to [`MAX_DEPTH`]; the difficulty grows down to depth
//! 10 and stays there: the crowding (the monsters' density, the safe
//! distance, the door cycle) down to depth 5, the levels' length beyond.
//! With `D = min(depth, 10)`, `C = min(depth, 5)` and `n` the walkable
//! cells of the map ([`Difficulty`]):
//!
//! | what | rule | depth 1 | depth 5 | depth 10+ |
//! |---|---|---|---|---|
//! | default size | (40 + 8S) × (20 + 4S), S = max(D, 3) | 64×32 | 80×40 | 120×60 |
//! | monsters | max(1, n·(C + 1) / 1200), C = min(D, 5) | 1 per 600 cells | 1 per 200 | 1 per 200 |
//! | guards, besides the monsters | 4 down to depth 3, then 3, at the narrows of the walk from `@` to `G` | 4 | 3 | 3 |
//! | safe distance (not for guards) | min(30 − 2C, half the walk from `@` to the farthest cell) | 28 | 20 | 20 |
//! | door cycle (rooms, mixed) | from depth 3, every 200 − 15(C − 3) ticks | none | 170 | 170 |
//! | maze braid factor | max(15, 65 − 5D) % of the dead ends | 60 % | 40 % | 15 % |
//! | wanderers, prey | max(1, n / 1500) each | | | |
//! | flocks | max(1, n / 3000) flocks of 6 + D/2 boids, where a 5×5 open area is | 6 boids | 8 | 11 |
//! | style in the descent of seed s | rooms, caves, mixed, maze in turn: the ((s + depth − 1) mod 4)th | | | |
//!
//! Walking distance is the octile length of the shortest route (steps of
//! 1 and √2, no corner cutting) whatever the terrain costs: creatures walk
//! through water and mud as fast as over floor; only planners pay more.
//!
//! # Output
//!
//! [`Recipe::generate`] gives a [`Level`] whose `source` is the level text
//! (`name:`, `description:`, `generator:` with the recipe, `goal: reach`,
//! `doors:` when they cycle, then the map). [`movingai`] writes the same
//! map as a Moving AI benchmark map and a scenario file for it. The
//! command is `delve gen`; docs/gen.md has all of this with examples.
//!
//! # Example
//!
//! ```
//! use delve::r#gen::{Recipe, Style};
//!
//! # fn main() -> Result<(), delve::r#gen::GenError> {
//! let recipe = Recipe::new(Style::Caves, 7, 3, Some("80x40".parse()?))?; // checks depth and size
//! let level = recipe.generate(); // a delve::level::Level; level.source is its text
//! assert_eq!(level.generator.as_deref(), Some("caves seed 7 depth 3 size 80x40"));
//! assert_eq!(level.generator.as_deref().unwrap_or("").parse::<Recipe>()?, recipe);
//! assert_eq!(recipe.generate(), level, "the same recipe, the same level");
//! # Ok(())
//! # }
//! ```

mod canvas;
mod caves;
mod connect;
mod dice;
mod difficulty;
mod doors;
mod loops;
mod maze;
mod mixed;
pub mod movingai;
mod place;
mod rooms;

use crate::grid::MAX_SIDE;
use crate::level::{DoorCycle, Level};
use crate::named::named_enum;
use canvas::Canvas;
use std::fmt;
use std::str::FromStr;

pub use difficulty::{Difficulty, MAX_DEPTH};

named_enum! {
    /// Which generator makes the level.
    Style, "generator style" {
        /// Rooms and corridors (binary space partition), doors between them.
        Rooms => "rooms",
        /// Cellular-automaton caves, pockets joined or filled.
        Caves => "caves",
        /// A braided maze of one-cell corridors.
        Maze => "maze",
        /// Brogue's recipe: rooms of several shapes, lakes, loops.
        Mixed => "mixed",
    }
}

impl Style {
    /// The smallest map the style makes a playable level on.
    pub const fn min_size(self) -> Size {
        match self {
            Style::Rooms => Size { width: 20, height: 12 },
            Style::Caves => Size { width: 20, height: 12 },
            Style::Maze => Size { width: 11, height: 7 },
            Style::Mixed => Size { width: 24, height: 16 },
        }
    }

    /// What the style makes, for a level's description.
    fn what(self) -> &'static str {
        match self {
            Style::Rooms => "Rooms and corridors",
            Style::Caves => "Caves",
            Style::Maze => "A braided maze",
            Style::Mixed => "Rooms of many shapes, lakes and loops",
        }
    }
}

/// A map's size in cells: `WxH` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Size {
    type Err = GenError;

    /// `WxH`, each side a whole number from 1 to [`MAX_SIDE`].
    fn from_str(s: &str) -> Result<Size, GenError> {
        let bad = || GenError::BadSize(s.to_owned());
        let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let side = |t: &str| t.trim().parse::<usize>().ok().filter(|n| *n >= 1).ok_or_else(bad);
        let size = Size { width: side(w)?, height: side(h)? };
        size.check_limit()?;
        Ok(size)
    }
}

impl Size {
    fn check_limit(self) -> Result<(), GenError> {
        if self.width > MAX_SIDE || self.height > MAX_SIDE {
            return Err(GenError::TooLarge(self));
        }
        Ok(())
    }

    fn fits(self, min: Size) -> bool {
        self.width >= min.width && self.height >= min.height
    }

    /// Cells on the map.
    pub fn area(self) -> usize {
        self.width * self.height
    }
}

/// Why a recipe cannot make a level: shown as one line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its message names")]
pub enum GenError {
    #[error("'{0}' is not a size (expected WxH with whole numbers, e.g. 80x40)")]
    BadSize(String),
    #[error("size {0} is above the level limit of {MAX_SIDE}x{MAX_SIDE}")]
    TooLarge(Size),
    #[error("size {size} is below the {style} style's minimum of {min}", min = style.min_size())]
    TooSmall { style: Style, size: Size },
    #[error("depth {0} is out of range (1 to {MAX_DEPTH})")]
    Depth(u32),
    #[error(
        "'{0}' is not a generator recipe (expected STYLE seed N depth D size WxH, e.g. rooms seed 7 depth 2 size 80x40)"
    )]
    BadRecipe(String),
    #[error(
        "--count {count} is more than the map can hold: the scenarios of a bucket start on distinct cells, and the \
         map has {cells} walkable cells"
    )]
    Count { count: usize, cells: usize },
    #[error("a route of cost {0} is too long to give an exact octile length (at most 2097152)")]
    TooLong(f64),
}

/// Everything a generated level is a function of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    style: Style,
    seed: u64,
    depth: u32,
    size: Size,
}

impl Recipe {
    /// A recipe, checked: depth from 1 to [`MAX_DEPTH`], a size from the
    /// style's minimum to the level limit (default: the depth's, from the
    /// difficulty table, or the style's minimum when that is larger).
    pub fn new(style: Style, seed: u64, depth: u32, size: Option<Size>) -> Result<Recipe, GenError> {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(GenError::Depth(depth));
        }
        let min = style.min_size();
        let size = size.unwrap_or_else(|| {
            let s = Difficulty::new(depth).default_size();
            Size { width: s.width.max(min.width), height: s.height.max(min.height) }
        });
        size.check_limit()?;
        if !size.fits(min) {
            return Err(GenError::TooSmall { style, size });
        }
        Ok(Recipe { style, seed, depth, size })
    }

    /// The level at `depth` of the descent of `seed` (the game's run of
    /// generated levels, depth after depth): the style the difficulty table gives the
    /// depth in that descent ([`Difficulty::descent_style`]), the seed
    /// itself, the depth's default size.
    pub fn descent(seed: u64, depth: u32) -> Result<Recipe, GenError> {
        Recipe::new(Difficulty::new(depth).descent_style(seed), seed, depth, None)
    }

    /// The generator's style.
    pub fn style(&self) -> Style {
        self.style
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The depth, from 1.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The map's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The file a level of this recipe is saved as when it has none:
    /// `rooms-7-depth1-60x30.txt`, which names everything that made it.
    pub fn file_name(&self) -> String {
        format!("{}-{}-depth{}-{}.txt", self.style, self.seed, self.depth, self.size)
    }

    /// The level this recipe makes. Its `source` is the level text, which
    /// reads back as this very level.
    pub fn generate(&self) -> Level {
        let difficulty = Difficulty::new(self.depth);
        let mut canvas = Canvas::new(self.size);
        let carving = &mut dice::stream(self, dice::Purpose::Carve);
        match self.style {
            Style::Rooms => rooms::carve(&mut canvas, carving),
            Style::Caves => caves::carve(&mut canvas, carving),
            Style::Maze => maze::carve(&mut canvas, carving, &difficulty),
            Style::Mixed => mixed::carve(&mut canvas, carving),
        }
        connect::keep_largest(&mut canvas);
        if matches!(self.style, Style::Rooms | Style::Mixed) {
            loops::add(&mut canvas, &mut dice::stream(self, dice::Purpose::Loops), loops::Plan::for_style(self.style));
            let percent = if self.style == Style::Rooms { 100 } else { 70 };
            doors::doorways(&mut canvas, &mut dice::stream(self, dice::Purpose::Doors), percent);
        }
        let placed = place::place(&canvas, &mut dice::stream(self, dice::Purpose::Place), &difficulty);
        let cycle = difficulty
            .door_cycle()
            .filter(|_| doors::cycle(&mut canvas, &mut dice::stream(self, dice::Purpose::Cycle), &placed.route));
        let description = self.description(&placed.counts(), cycle);
        let text = placed.level(&canvas, self, description, cycle.map(|period| DoorCycle { period })).to_text();
        Level::parse(&text, &self.to_string()).expect("a generated level reads back (the property tests check it)")
    }

    /// The level's name: `rooms 7 (depth 2)`.
    fn name(&self) -> String {
        format!("{} {} (depth {})", self.style, self.seed, self.depth)
    }

    /// What the level holds, for its description.
    fn description(&self, counts: &place::Counts, cycle: Option<u32>) -> String {
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut text = format!(
            "{}, generated from seed {} at depth {} ({}): {}, {}, {}, {}",
            self.style.what(),
            self.seed,
            self.depth,
            self.size,
            plural(counts.monsters, "monster", "monsters"),
            plural(counts.wanderers, "wanderer", "wanderers"),
            plural(counts.prey, "prey", "prey"),
            plural(counts.flocks, "flock", "flocks"),
        );
        if let Some(ticks) = cycle {
            text += &format!("; the doors toggle every {ticks} ticks");
        }
        text + "."
    }
}

impl fmt::Display for Recipe {
    /// The `generator:` value: `rooms seed 7 depth 2 size 80x40`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} seed {} depth {} size {}", self.style, self.seed, self.depth, self.size)
    }
}

impl FromStr for Recipe {
    type Err = GenError;

    /// Reads what [`Recipe`]'s `Display` writes (a level's `generator:`),
    /// and checks it as [`Recipe::new`] does.
    fn from_str(s: &str) -> Result<Recipe, GenError> {
        let bad = || GenError::BadRecipe(s.to_owned());
        let words: Vec<&str> = s.split_whitespace().collect();
        let ["seed", seed, "depth", depth, "size", size] = words.get(1..).unwrap_or_default() else {
            return Err(bad());
        };
        let style = words[0].parse::<Style>().map_err(|_| bad())?;
        let seed = seed.parse::<u64>().map_err(|_| bad())?;
        let depth = depth.parse::<u32>().map_err(|_| bad())?;
        Recipe::new(style, seed, depth, Some(size.parse()?))
    }
}

/// The level `style` makes from `seed` at `depth` on a map of `size`
/// (default: the depth's size): [`Recipe::new`] then [`Recipe::generate`].
pub fn generate(style: Style, seed: u64, depth: u32, size: Option<Size>) -> Result<Level, GenError> {
    Ok(Recipe::new(style, seed, depth, size)?.generate())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_refuse_what_no_level_can_be() {
        assert_eq!("80x40".parse(), Ok(Size { width: 80, height: 40 }));
        assert_eq!("80X40".parse::<Size>().map(|s| s.to_string()), Ok("80x40".to_owned()));
        for bad in ["80", "x40", "80x", "0x10", "-3x4", "axb", "80x40x2"] {
            assert_eq!(bad.parse::<Size>(), Err(GenError::BadSize(bad.to_owned())), "{bad}");
        }
        let e = "3000x40".parse::<Size>().unwrap_err();
        assert_eq!(e.to_string(), "size 3000x40 is above the level limit of 2048x2048");
    }

    #[test]
    fn recipes_check_depth_and_size() {
        let e = Recipe::new(Style::Rooms, 1, 0, None).unwrap_err();
        assert_eq!(e.to_string(), "depth 0 is out of range (1 to 99)");
        assert_eq!(Recipe::new(Style::Rooms, 1, 100, None), Err(GenError::Depth(100)));
        let small = Size { width: 19, height: 30 };
        let e = Recipe::new(Style::Rooms, 1, 1, Some(small)).unwrap_err();
        assert_eq!(e.to_string(), "size 19x30 is below the rooms style's minimum of 20x12");
        let r = Recipe::new(Style::Maze, 3, 10, None).unwrap();
        assert_eq!(r.size(), Size { width: 120, height: 60 });
        assert_eq!(Recipe::new(Style::Maze, 3, 99, None).unwrap().size(), r.size(), "no growth past depth 10");
        let huge = Size { width: 4000, height: 4000 };
        assert_eq!(Recipe::new(Style::Maze, 3, 1, Some(huge)), Err(GenError::TooLarge(huge)));
    }

    #[test]
    fn a_recipe_reads_back_from_its_generator_line() {
        let r = Recipe::new(Style::Mixed, u64::MAX, 7, Some(Size { width: 64, height: 33 })).unwrap();
        assert_eq!(r.to_string(), "mixed seed 18446744073709551615 depth 7 size 64x33");
        assert_eq!(r.to_string().parse(), Ok(r));
        for bad in
            ["", "mixed", "mixed seed 1 depth 1", "lakes seed 1 depth 1 size 30x20", "mixed seed x depth 1 size 30x20"]
        {
            assert_eq!(bad.parse::<Recipe>(), Err(GenError::BadRecipe(bad.to_owned())), "{bad}");
        }
        assert_eq!("maze seed 1 depth 0 size 30x20".parse::<Recipe>(), Err(GenError::Depth(0)));
    }

    #[test]
    fn the_level_names_its_recipe() {
        let r = Recipe::new(Style::Rooms, 7, 4, Some(Size { width: 40, height: 20 })).unwrap();
        let level = r.generate();
        assert_eq!(level.name, "rooms 7 (depth 4)");
        assert_eq!(level.generator.as_deref(), Some("rooms seed 7 depth 4 size 40x20"));
        assert!(level.description.starts_with("Rooms and corridors, generated from seed 7 at depth 4 (40x20): "));
        assert_eq!((level.grid.width(), level.grid.height()), (40, 20));
        assert!(level.source.contains("\ngoal: reach\n"), "{}", level.source);
        assert_eq!(r.generate(), level, "the same recipe, the same level");
    }

    #[test]
    fn a_descent_turns_through_the_styles_at_each_depth_size() {
        let r = Recipe::descent(6, 3).unwrap();
        assert_eq!(r.to_string(), "rooms seed 6 depth 3 size 64x32");
        assert_eq!(Recipe::descent(6, 4).unwrap().style(), Style::Caves);
        assert_eq!(Recipe::descent(6, 0), Err(GenError::Depth(0)));
        assert_eq!(Recipe::descent(6, MAX_DEPTH + 1), Err(GenError::Depth(MAX_DEPTH + 1)));
    }
}
