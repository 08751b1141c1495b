//! Where everything starts: the player, the goal, the path markers and the
//! creatures, by walking distance (a Dijkstra map) and open space.
//!
//! Walking distance is a route's octile length on the map with every
//! walkable cell at cost 1 and every door open ([`Canvas::walking_grid`]):
//! creatures walk through water and mud as fast as over floor, so terrain
//! costs, which only planners pay, do not decide what is near. Everything
//! stands on plain floor (cost 1, no door), one thing to a cell.
//!
//! - The player `@`: a random cell among the farthest, in orthogonal steps
//!   ([`steps_from`]), from a random cell ([`FAR`] of the farthest's steps
//!   or more): one end of the level; a cell with plain floor beside it
//!   (for `S`).
//! - The goal `G`: a random cell among the farthest from the player, by the
//!   same rule; `S` (the start of `delve path`'s default query) beside the
//!   player, so that `delve path` on the level walks from `@` to `G`.
//! - Guards ([`Difficulty::guards`]): posted on the shortest walk from the
//!   player to the goal, from [`GUARD_REACH`] cells out (or the safe
//!   distance, when shorter) and out of the player's sight, one in each of
//!   as many equal stretches of it, at a narrow cell of the stretch (a
//!   doorway, a corridor) with a detour round it: level design that
//!   punishes walking straight at `G`, as a player who waits or goes round
//!   does not.
//! - Monsters: at a walking distance from the player of at least the safe
//!   distance, `min(Difficulty::safe_distance, half the farthest cell's)`.
//! - Wanderers and prey: on open ground, cells whose 3×3 block is all plain
//!   floor, unless the level has fewer free open cells than four times as
//!   many as wanted (a maze has none): then on any plain floor.
//! - Flocks: each round a cell whose 5×5 block is all plain floor, at least
//!   [`FLOCK_SPACING`] cells (in both directions) from the player and
//!   every other flock's centre, its boids on that block.

use super::Recipe;
use super::canvas::{Canvas, box_counts};
use super::dice::Dice;
use super::difficulty::Difficulty;
use crate::grid::{Cell, Grid, Neighbors, line_of_sight};
use crate::level::{DoorCycle, Goal, Level};
use crate::search::{FlowField, GridGraph, Heuristic};

/// The share of the farthest cell's distance that counts as far, for the
/// player's end of the level and the goal.
pub(super) const FAR: f64 = 0.9;
/// The least distance, along each axis, between two flocks' centres and
/// between a flock's centre and the player.
pub(super) const FLOCK_SPACING: usize = 10;
/// How many cells of the route short of the goal the guards' posts begin.
pub(super) const GUARD_GAP: usize = 4;
/// The walking distance from the player at which the guards' posts end,
/// unless the safe distance is shorter: nearer than the other monsters, so
/// that the guards spread over most of the walk (posted beyond depth 1's
/// safe distance of 28, four guards left a player heading straight for
/// `G` 11 wins of 20 seeds; from 12 cells, 7).
pub(super) const GUARD_REACH: f64 = 12.0;

/// What stands where, as canvas indices, and one walk from the player to
/// the goal.
#[derive(Clone, Debug, Default)]
pub(super) struct Placed {
    pub player: usize,
    pub start: Option<usize>,
    pub goal: usize,
    pub monsters: Vec<usize>,
    pub wanderers: Vec<usize>,
    pub fleeing: Vec<usize>,
    pub boids: Vec<usize>,
    pub flocks: usize,
    /// The cells of one shortest walk from the player to the goal.
    pub route: Vec<usize>,
}

/// How many of each, for the level's description.
pub(super) struct Counts {
    pub monsters: usize,
    pub wanderers: usize,
    pub prey: usize,
    pub flocks: usize,
}

/// Walking distances over a canvas, one root at a time.
pub(super) struct Walk {
    grid: Grid,
    field: FlowField,
}

impl Walk {
    pub fn new(canvas: &Canvas) -> Walk {
        Walk { grid: canvas.walking_grid(), field: FlowField::new() }
    }

    fn graph(&self) -> GridGraph<'_> {
        let c = Cell::new(0, 0);
        GridGraph::new(&self.grid, Neighbors::Eight, Heuristic::Zero, c, c)
    }

    /// The walking distance from `root` of every cell of the canvas
    /// (infinite where no walk reaches).
    pub fn from(&mut self, canvas: &Canvas, root: usize) -> Vec<f64> {
        let node = self.grid.node(canvas.cell(root));
        self.field.start(self.grid.node_count(), node, f64::INFINITY);
        let c = Cell::new(0, 0);
        self.field.advance(&GridGraph::new(&self.grid, Neighbors::Eight, Heuristic::Zero, c, c), u64::MAX);
        (0..canvas.tiles.len())
            .map(|i| self.field.distance(self.grid.node(canvas.cell(i))).unwrap_or(f64::INFINITY))
            .collect()
    }

    /// The cells of a shortest walk from `from` to the root of the last
    /// [`Walk::from`], `from` first.
    pub fn route(&self, canvas: &Canvas, from: usize) -> Vec<usize> {
        let mut nodes = Vec::new();
        self.field.descent(&self.graph(), self.grid.node(canvas.cell(from)), usize::MAX, &mut nodes);
        nodes
            .iter()
            .map(|&n| {
                let c = self.grid.cell_of(n);
                canvas.at(c.x as usize, c.y as usize)
            })
            .collect()
    }
}

/// Orthogonal steps from `root` to every cell of the canvas (infinite
/// where none reach): a breadth-first walk, cheaper than a Dijkstra map,
/// for finding the ends of the level.
pub(super) fn steps_from(canvas: &Canvas, root: usize) -> Vec<f64> {
    let mut steps = vec![f64::INFINITY; canvas.tiles.len()];
    let mut queue = Vec::with_capacity(canvas.tiles.len());
    steps[root] = 0.0;
    queue.push(root);
    let mut head = 0;
    while let Some(&i) = queue.get(head) {
        head += 1;
        for j in canvas.around(i) {
            if steps[j] == f64::INFINITY && canvas.walkable(j) {
                steps[j] = steps[i] + 1.0;
                queue.push(j);
            }
        }
    }
    steps
}

/// The cells of `pool` at least [`FAR`] of the farthest one's distance
/// away (by `dist`), in `pool`'s order.
pub(super) fn far_cells(pool: &[usize], dist: &[f64]) -> Vec<usize> {
    let farthest = pool.iter().map(|&i| dist[i]).filter(|d| d.is_finite()).fold(0.0, f64::max);
    pool.iter().copied().filter(|&i| dist[i].is_finite() && dist[i] >= FAR * farthest).collect()
}

/// The safe distance: no monster starts nearer the player than this.
pub(super) fn safe_distance(difficulty: &Difficulty, pool: &[usize], dist: &[f64]) -> f64 {
    let farthest = pool.iter().map(|&i| dist[i]).filter(|d| d.is_finite()).fold(0.0, f64::max);
    difficulty.safe_distance().min(farthest / 2.0)
}

/// Which cells are open: their `(2r+1)²` block is all plain floor.
pub(super) fn open(canvas: &Canvas, r: usize) -> Vec<bool> {
    let rough: Vec<u8> = (0..canvas.tiles.len()).map(|i| u8::from(!canvas.plain(i))).collect();
    box_counts(&rough, canvas.width, canvas.height, r, 1).into_iter().map(|n| n == 0).collect()
}

/// Places everything on a connected canvas with some plain floor.
pub(super) fn place(canvas: &Canvas, dice: &mut Dice, difficulty: &Difficulty) -> Placed {
    let floor: Vec<usize> = (0..canvas.tiles.len()).filter(|&i| canvas.plain(i)).collect();
    let mut walk = Walk::new(canvas);
    // The player stands where `S` fits beside it.
    let mut roomy: Vec<usize> =
        floor.iter().copied().filter(|&i| canvas.around(i).iter().any(|&j| canvas.plain(j))).collect();
    if roomy.is_empty() {
        roomy.clone_from(&floor);
    }
    let wander = dice.pick(&floor);
    let player = dice.pick(&far_cells(&roomy, &steps_from(canvas, wander)));
    let dist = walk.from(canvas, player);
    let goal = dice.pick(&far_cells(&floor, &dist));
    let route = walk.route(canvas, goal);
    let mut taken = vec![false; canvas.tiles.len()];
    taken[player] = true;
    taken[goal] = true;
    let start = canvas.around(player).into_iter().find(|&j| canvas.plain(j) && !taken[j]);
    if let Some(s) = start {
        taken[s] = true;
    }
    let walkable = canvas.walkable_count();
    let safe = safe_distance(difficulty, &floor, &dist);
    let reach = safe.min(GUARD_REACH);
    let mut monsters = guards(canvas, &walk.grid, &route, &dist, reach, difficulty.guards(), &mut taken);
    let mut beyond: Vec<usize> = floor.iter().copied().filter(|&i| !taken[i] && dist[i] >= safe).collect();
    monsters.extend(take(dice.sample(&mut beyond, difficulty.monsters(walkable)), &mut taken));
    let open1 = open(canvas, 1);
    let wanted = difficulty.wanderers(walkable);
    let wanderers = on_open_ground(dice, &floor, &open1, wanted, &mut taken);
    let fleeing = on_open_ground(dice, &floor, &open1, wanted, &mut taken);
    let (boids, flocks) = flocks(canvas, dice, difficulty, player, &floor, &mut taken);
    Placed { player, start, goal, monsters, wanderers, fleeing, boids, flocks, route }
}

/// The guards' posts: `wanted` cells of `route` (goal first) at least
/// `reach` from the player and out of its line of sight (on `grid`, doors
/// open) when the route has such cells, one in each of as many equal
/// stretches of them; in each, the narrowest cell (the fewest walkable
/// cells in its 5×5 block: a doorway, a corridor) round which a detour
/// leads from the player to the goal, among the [`DETOUR_TRIES`]
/// narrowest, else the narrowest, nearest the goal among equals. The first
/// stretch starts [`GUARD_GAP`] cells short of the goal. A cell that is
/// not free plain floor is passed over. A guard in sight of the start
/// would hunt the player from the first tick; one at a narrows with a way
/// round it can be gone round, by a player who looks.
fn guards(
    canvas: &Canvas,
    grid: &Grid,
    route: &[usize],
    dist: &[f64],
    reach: f64,
    wanted: usize,
    taken: &mut [bool],
) -> Vec<usize> {
    let (goal, player) = (route[0], route[route.len() - 1]);
    let free: Vec<usize> =
        route.iter().copied().skip(GUARD_GAP).filter(|&i| dist[i] >= reach && canvas.plain(i) && !taken[i]).collect();
    let hidden: Vec<usize> =
        free.iter().copied().filter(|&i| !line_of_sight(grid, canvas.cell(player), canvas.cell(i))).collect();
    let open = if hidden.is_empty() { free } else { hidden };
    if wanted == 0 || open.is_empty() {
        return Vec::new();
    }
    let width = |i: usize| {
        let (x, y) = canvas.xy(i);
        let (x0, y0) = (x.saturating_sub(2), y.saturating_sub(2));
        let (x1, y1) = ((x + 2).min(canvas.width - 1), (y + 2).min(canvas.height - 1));
        (y0..=y1)
            .flat_map(|by| (x0..=x1).map(move |bx| (bx, by)))
            .filter(|&(bx, by)| canvas.walkable(canvas.at(bx, by)))
            .count()
    };
    let wanted = wanted.min(open.len());
    let posts: Vec<usize> = (0..wanted)
        .filter_map(|k| {
            let stretch = &open[k * open.len() / wanted..(k + 1) * open.len() / wanted];
            let mut by_width: Vec<usize> = stretch.to_vec();
            by_width.sort_by_key(|&i| width(i));
            by_width
                .iter()
                .take(DETOUR_TRIES)
                .copied()
                .find(|&i| detours(canvas, i, player, goal))
                .or(by_width.first().copied())
        })
        .collect();
    take(posts, taken)
}

/// Whether `to` can be walked to from `from` with every cell within
/// [`DETOUR_CLEARANCE`] cells (Chebyshev) of `post` walled.
fn detours(canvas: &Canvas, post: usize, from: usize, to: usize) -> bool {
    let (px, py) = canvas.xy(post);
    let near = |i: usize| {
        let (x, y) = canvas.xy(i);
        x.abs_diff(px) <= DETOUR_CLEARANCE && y.abs_diff(py) <= DETOUR_CLEARANCE
    };
    if near(from) || near(to) {
        return false;
    }
    let mut seen = vec![false; canvas.tiles.len()];
    let mut queue = vec![from];
    seen[from] = true;
    while let Some(i) = queue.pop() {
        if i == to {
            return true;
        }
        for j in canvas.around(i) {
            if !seen[j] && canvas.walkable(j) && !near(j) {
                seen[j] = true;
                queue.push(j);
            }
        }
    }
    false
}

/// How many of a stretch's narrowest cells are tried for a detour.
const DETOUR_TRIES: usize = 16;
/// How far round a guard's post a detour keeps.
const DETOUR_CLEARANCE: usize = 2;

/// Marks `cells` taken and hands them back.
fn take(cells: Vec<usize>, taken: &mut [bool]) -> Vec<usize> {
    for &i in &cells {
        taken[i] = true;
    }
    cells
}

/// `wanted` free cells of open ground, or of plain floor when there are
/// fewer than four times that many free open cells.
fn on_open_ground(dice: &mut Dice, floor: &[usize], open: &[bool], wanted: usize, taken: &mut [bool]) -> Vec<usize> {
    let mut pool: Vec<usize> = floor.iter().copied().filter(|&i| open[i] && !taken[i]).collect();
    if pool.len() < 4 * wanted {
        pool = floor.iter().copied().filter(|&i| !taken[i]).collect();
    }
    take(dice.sample(&mut pool, wanted), taken)
}

/// The flocks: boids, and how many flocks they make.
fn flocks(
    canvas: &Canvas,
    dice: &mut Dice,
    difficulty: &Difficulty,
    player: usize,
    floor: &[usize],
    taken: &mut [bool],
) -> (Vec<usize>, usize) {
    let wanted = difficulty.flocks(canvas.walkable_count());
    let open2 = open(canvas, 2);
    let mut centres: Vec<usize> = floor.iter().copied().filter(|&i| open2[i]).collect();
    dice.shuffle(&mut centres);
    let apart = |a: usize, b: usize| {
        let ((ax, ay), (bx, by)) = (canvas.xy(a), canvas.xy(b));
        ax.abs_diff(bx) >= FLOCK_SPACING || ay.abs_diff(by) >= FLOCK_SPACING
    };
    let mut chosen: Vec<usize> = Vec::new();
    for &c in &centres {
        if chosen.len() == wanted {
            break;
        }
        if apart(c, player) && chosen.iter().all(|&o| apart(c, o)) {
            chosen.push(c);
        }
    }
    let mut boids = Vec::new();
    for &c in &chosen {
        let (x, y) = canvas.xy(c);
        let mut block: Vec<usize> = (y - 2..=y + 2)
            .flat_map(|by| (x - 2..=x + 2).map(move |bx| (bx, by)))
            .map(|(bx, by)| canvas.at(bx, by))
            .filter(|&i| !taken[i])
            .collect();
        boids.extend(take(dice.sample(&mut block, difficulty.flock_size()), taken));
    }
    (boids, chosen.len())
}

impl Placed {
    /// How many of each there are.
    pub fn counts(&self) -> Counts {
        Counts {
            monsters: self.monsters.len(),
            wanderers: self.wanderers.len(),
            prey: self.fleeing.len(),
            flocks: self.flocks,
        }
    }

    /// The level of `canvas` with everything placed, named for `recipe`:
    /// its goal is to reach `G`, and its doors cycle as `doors` says.
    pub fn level(&self, canvas: &Canvas, recipe: &Recipe, description: String, doors: Option<DoorCycle>) -> Level {
        let cells = |list: &[usize]| list.iter().map(|&i| canvas.cell(i)).collect::<Vec<_>>();
        Level {
            name: recipe.name(),
            description,
            source: String::new(),
            grid: Grid::new(canvas.width, canvas.height, &canvas.tiles),
            player: Some(canvas.cell(self.player)),
            monsters: cells(&self.monsters),
            wanderers: cells(&self.wanderers),
            fleeing: cells(&self.fleeing),
            boids: cells(&self.boids),
            start: self.start.map(|i| canvas.cell(i)),
            goal: Some(canvas.cell(self.goal)),
            objective: Some(Goal::Reach),
            lives: None,
            doors,
            generator: Some(recipe.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::r#gen::{Style, dice};

    fn test_dice() -> Dice {
        dice::stream(&Recipe::new(Style::Caves, 4, 1, None).unwrap(), dice::Purpose::Place)
    }

    #[test]
    fn walking_distances_ignore_costs_and_open_doors() {
        let c = Canvas::drawn(&["######", "#.~+.#", "#....#", "######"]);
        let mut walk = Walk::new(&c);
        let d = walk.from(&c, c.at(1, 1));
        assert_eq!(d[c.at(4, 1)], 3.0, "through water and a closed door at 1 a step");
        assert_eq!(d[c.at(2, 2)], crate::grid::DIAGONAL);
        assert_eq!(d[c.at(0, 0)], f64::INFINITY);
        let route = walk.route(&c, c.at(4, 1));
        assert_eq!(route, [c.at(4, 1), c.at(3, 1), c.at(2, 1), c.at(1, 1)]);
    }

    #[test]
    fn far_cells_and_the_safe_distance() {
        let dist = [0.0, 5.0, 9.0, 10.0, f64::INFINITY];
        let pool = [0, 1, 2, 3, 4];
        assert_eq!(far_cells(&pool, &dist), [2, 3], "9 and 10 are within 90 % of 10");
        let shallow = Difficulty::new(1);
        assert_eq!(safe_distance(&shallow, &pool, &dist), 5.0, "half the farthest");
        let long: Vec<f64> = (0..5).map(|i| f64::from(i) * 100.0).collect();
        assert_eq!(safe_distance(&shallow, &pool, &long), 28.0, "the table's");
    }

    #[test]
    fn open_cells_have_a_block_of_plain_floor() {
        let c = Canvas::drawn(&["########", "#......#", "#......#", "#......#", "#....~.#", "#......#", "########"]);
        let o = open(&c, 1);
        let open_cells: Vec<(usize, usize)> = (0..o.len()).filter(|&i| o[i]).map(|i| c.xy(i)).collect();
        // The water at 5,4 spoils the blocks round it.
        assert_eq!(open_cells, [(2, 2), (3, 2), (4, 2), (5, 2), (2, 3), (3, 3), (2, 4), (3, 4)]);
    }

    /// Two rooms joined by a one-wide corridor that bulges round a pillar
    /// at 19,2; with `looped`, a longer corridor along the bottom joins
    /// them too.
    fn two_rooms(looped: bool) -> Canvas {
        let mut rows = vec![
            "##################################",
            "#......#####################.....#",
            "#..................#.............#",
            "#......##########.....######.....#",
        ];
        if looped {
            rows.extend(["#......#########################.#", "#................................#"]);
        }
        rows.push("##################################");
        Canvas::drawn(&rows)
    }

    /// The guards stand at the narrows of the route, out of the player's
    /// sight, one per stretch, beyond the reach and short of the goal.
    #[test]
    fn guards_stand_at_the_narrows_of_the_route_out_of_sight() {
        let c = two_rooms(false);
        let mut walk = Walk::new(&c);
        let player = c.at(1, 2);
        let dist = walk.from(&c, player);
        let goal = c.at(32, 2);
        let route = walk.route(&c, goal);
        let mut taken = vec![false; c.tiles.len()];
        let posts = guards(&c, &walk.grid, &route, &dist, 10.0, 2, &mut taken);
        let xy: Vec<(usize, usize)> = posts.iter().map(|&i| c.xy(i)).collect();
        // The player sees along row 2 up to the pillar: the posts are on
        // the route beyond it, from 4 short of the goal back, halved, each
        // half's nearest cell to the goal whose 5×5 block holds only the
        // corridor (5 cells), clear of the east room's mouth and the bulge.
        assert_eq!(xy, [(25, 2), (23, 2)]);
        let p = Cell::new(1, 2);
        assert!(posts.iter().all(|&i| taken[i] && dist[i] >= 10.0 && !line_of_sight(&walk.grid, p, c.cell(i))));
        assert!(guards(&c, &walk.grid, &route, &dist, 10.0, 0, &mut taken).is_empty());
    }

    /// A detour keeps two cells clear of the post all the way: the looped
    /// level has one round the corridor, the other none.
    #[test]
    fn detours_go_round_the_post() {
        for (looped, expected) in [(true, true), (false, false)] {
            let c = two_rooms(looped);
            assert_eq!(detours(&c, c.at(12, 2), c.at(1, 2), c.at(32, 2)), expected, "looped {looped}");
        }
        let c = two_rooms(true);
        assert!(!detours(&c, c.at(3, 2), c.at(1, 2), c.at(32, 2)), "the player stands within the clearance");
    }

    #[test]
    fn monsters_keep_the_safe_distance_and_flocks_their_space() {
        let rows: Vec<String> = std::iter::once("#".repeat(60))
            .chain((0..28).map(|_| format!("#{}#", ".".repeat(58))))
            .chain(std::iter::once("#".repeat(60)))
            .collect();
        let c = Canvas::drawn(&rows.iter().map(String::as_str).collect::<Vec<_>>());
        let difficulty = Difficulty::new(10);
        let p = place(&c, &mut test_dice(), &difficulty);
        let mut walk = Walk::new(&c);
        let dist = walk.from(&c, p.player);
        let floor: Vec<usize> = (0..c.tiles.len()).filter(|&i| c.plain(i)).collect();
        let safe = safe_distance(&difficulty, &floor, &dist);
        assert_eq!(safe, 20.0);
        assert_eq!(p.monsters.len(), difficulty.guards() + difficulty.monsters(58 * 28));
        let (posted, roaming) = p.monsters.split_at(difficulty.guards());
        assert!(posted.iter().all(|&m| dist[m] >= GUARD_REACH), "the guards nearer, from their reach");
        assert!(roaming.iter().all(|&m| dist[m] >= safe));
        assert!(far_cells(&floor, &dist).contains(&p.goal));
        assert_eq!(p.flocks, 1);
        assert_eq!(p.boids.len(), difficulty.flock_size());
        let mut all = [vec![p.player, p.goal], p.monsters, p.wanderers, p.fleeing, p.boids].concat();
        all.extend(p.start);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "one thing to a cell");
        assert_eq!(p.route.first(), Some(&p.goal));
        assert_eq!(p.route.last(), Some(&p.player));
    }
}
