//! Hunters that aim ahead ([`Aim::Heading`], [`Aim::Goal`]): a hunting
//! monster that sees the player move heads for where the player is going,
//! and cuts it off there, rather than for where it stands.
//!
//! **The route.** Where the player is going is a route of cells ahead of
//! it, each with the route cost `L` the player needs to reach it: under
//! `heading` the straight line its last step points along, up to the first
//! wall; under `goal` its shortest route to the level's `G` (planned with
//! A* over the monsters' neighbours), or the heading when there is no `G`
//! or no way to it. Both stop at [`HORIZON`] × the detection radius of
//! route cost: a hunter that sees the player does not guess farther.
//!
//! **Cutting it off.** A monster moving at `v` cells a second against the
//! player's `V` reaches a route cell first when its own route cost `d` to
//! it is below `v/V × L`. One map serves every hunter: a Dijkstra map
//! ([`FlowField::start_from`]) whose sources are the route's cells, each
//! at offset `−v/V × L`. A cell's value is then the least, over the route,
//! of `d − v/V × L`: how late the monster is at the best cell for it
//! (negative: early), and descending the map from a monster's cell ends at
//! that cell, its *aim*: the corner, doorway or stretch of corridor of the
//! player's route it reaches with the most time to spare, or, when it
//! reaches none first, the one it is least late for. An aim on the
//! player's own cell is no aim: the monster hunts the player's cell.
//!
//! **Close by.** A hunter within [`ENGAGE_CELLS`] of the player has no
//! aim: it goes for the player's cell.
//!
//! **When.** The map is made for the player's cell, heading, the grid and
//! the settings, when one of them changed and a hunter perceives the
//! player; a player standing still (no step for a few ticks) has no
//! heading, and hunters go for its cell. Its work (`expanded`) is a search
//! in the statistics, outside the tick's budget of expansions (charged to
//! it, a 1,800-expansion map starved every plan under a budget of 100).
//! Its aims decide where monsters go, so the map's key is state, hashed;
//! the map itself is a function of the key and the grid, like a cache.
//!
//! **As far as the hunters.** The Dijkstra stops once every hunter that
//! perceives the player has its final value
//! ([`FlowField::advance_covering`]): a hunter's descent only reads cells
//! of lower values, so its aim is the whole map's, at a fraction of the
//! cost (on `levels/gates.txt` with 50 monsters, 520 expansions a map
//! against 2,640). A hunter that starts perceiving outside the map has it
//! made again, as far as it.
//!
//! **While the route stands.** Under the repath policies that keep their
//! searches between plans (`incremental`, `flow-field`), a map is kept
//! while the player walks the route it was made for, same heading, same
//! grid: the route from the cell it stepped to is the rest of the same
//! route, its route costs shifted alike, which moves no aim, except that
//! an aim on a cell the player has passed is none (the hunter follows it).
//! When the horizon cut the route short, the route ahead would reach
//! farther: that map is kept only while the player is within K
//! (`--repath-cells`) of the cell it was made from. The other policies
//! make a map at each of the player's steps, as they plan. With 50
//! monsters on `levels/gates.txt`, 84 % of the player's steps in sight
//! were a step along the route.

use super::species::Species;
use super::tactics::Aim;
use super::{Kind, RepathPolicy, Settings};
use crate::grid::{Cell, Grid, Neighbors};
use crate::hash::{StateHash, StateHasher};
use crate::search::{FlowField, GridGraph, GridPlanner, Heuristic, SearchSettings, SearchStats};
use crate::steer::cell_center;

/// The route's reach: this many times the detection radius, in route cost
/// per cheapest entry cost.
pub const HORIZON: f64 = 1.0;
/// The map's bound, as the shared flow field's (`sim::flow`): 1.25 × the
/// detection radius plus 8, in route cost per cheapest entry cost. A
/// hunter's value is at most its route cost to the player.
const REACH: f64 = 1.25;
const MARGIN: f64 = 8.0;
/// A hunter within this many cells of the player goes for it: at that
/// range there is nothing to cut off, and one that waited on the player's
/// route while the player dithered three cells from its goal would wait
/// there for good.
pub const ENGAGE_CELLS: f32 = 5.0;
/// Steps a descent takes at most before it gives up on an aim (a map has
/// fewer cells than this on any route it keeps).
const MAX_DESCENT: usize = 4096;

/// What a map is made for.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key {
    /// The grid's identity (process-local, never hashed) and version.
    identity: u64,
    version: u64,
    player: Cell,
    heading: (i8, i8),
    aim: Aim,
    neighbors: Neighbors,
    detection: f32,
}

/// The shared map of aims, and the buffers it is made with.
#[derive(Debug, Default)]
pub struct Foresight {
    key: Option<Key>,
    field: FlowField,
    /// The route of the map, from the player's cell on.
    route: Vec<Cell>,
    sources: Vec<(u32, f64)>,
    /// Whether the horizon cut the route short.
    cut: bool,
    /// Whether the map reaches its whole bound (a hunter it was made for
    /// lies beyond it): a hunter outside it then is out of reach, and no
    /// reason to make it again.
    whole: bool,
    /// The cells of the hunters it is asked for (on walkable cells), and
    /// their nodes when the map is made.
    hunters: Vec<Cell>,
    targets: Vec<u32>,
    planner: GridPlanner,
}

/// The speed of a monster against the player's.
fn ratio(player_speed: f32) -> f64 {
    f64::from(Species::of(Kind::Monster).max_speed) / f64::from(player_speed)
}

impl Foresight {
    /// Brings the map up to date for a player in `player` stepping along
    /// `heading` toward `goal` (the level's `G`, if any), at `player_speed`
    /// cells a second, under `settings`, for the hunters in `hunters`;
    /// returns the work it cost (nothing when it already was, or when the
    /// map stands: see the module's *While the route stands*). `heading`
    /// `None`: the player stands, and no map is kept.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        grid: &Grid,
        settings: &Settings,
        player: Cell,
        heading: Option<(i8, i8)>,
        goal: Option<Cell>,
        player_speed: f32,
        hunters: impl IntoIterator<Item = Cell>,
    ) -> SearchStats {
        let Some(heading) = heading.filter(|_| settings.aim != Aim::Player) else {
            self.key = None;
            return SearchStats::default();
        };
        let neighbors = settings.search.neighbors;
        let key = Key {
            identity: grid.identity(),
            version: grid.version(),
            player,
            heading,
            aim: settings.aim,
            neighbors,
            detection: settings.detection_radius,
        };
        let limit = (REACH * f64::from(settings.detection_radius) + MARGIN) * f64::from(grid.min_entry_cost());
        self.hunters.clear();
        self.hunters.extend(hunters.into_iter().filter(|&c| grid.is_walkable(c)));
        if self.stands(&key, settings) && self.covers(grid) {
            return SearchStats::default();
        }
        self.key = Some(key);
        let scale = f64::from(grid.min_entry_cost());
        let horizon = HORIZON * f64::from(settings.detection_radius) * scale;
        let mut work = SearchStats::default();
        let planned = match (settings.aim, goal) {
            (Aim::Goal, Some(goal)) if goal != player => {
                let search = SearchSettings { neighbors, ..SearchSettings::default() };
                let outcome = self.planner.plan(grid, player, goal, &search);
                work.expanded += outcome.as_ref().map_or(0, |o| o.stats.expanded);
                outcome.is_ok_and(|o| o.found)
            }
            _ => false,
        };
        self.route.clear();
        self.cut = if planned {
            self.route.extend_from_slice(self.planner.path());
            false
        } else {
            ray(grid, player, heading, neighbors, horizon, &mut self.route)
        };
        // Each route cell at minus the monster's share of the player's
        // route cost to it; the route stops at the horizon.
        let r = ratio(player_speed);
        self.sources.clear();
        let mut cost = 0.0;
        for (k, &c) in self.route.iter().enumerate() {
            if k > 0 {
                let prev = self.route[k - 1];
                cost += grid.step_cost(prev, c.x - prev.x, c.y - prev.y).unwrap_or(f64::INFINITY);
            }
            if cost > horizon {
                self.cut = true;
                break;
            }
            self.sources.push((grid.node(c), -r * cost));
        }
        self.field.start_from(grid.node_count(), &self.sources, limit);
        self.targets.clear();
        self.targets.extend(self.hunters.iter().map(|&c| grid.node(c)));
        let done = self.field.advance_covering(&moves(grid, neighbors), u64::MAX, &self.targets);
        self.whole = self.targets.iter().any(|&t| self.field.distance(t).is_none());
        work.expanded += done.expanded;
        work.micros += done.micros;
        work
    }

    /// Whether the map made for the player in `key.player` still stands
    /// for `key`: it was made for it, or, under a policy that keeps its
    /// searches, for a cell the player walked on from along the route,
    /// nothing else changed, and not beyond K cells of a route cut short.
    fn stands(&self, key: &Key, settings: &Settings) -> bool {
        let Some(old) = self.key else { return false };
        if old == *key {
            return true;
        }
        let keeps = matches!(settings.repath, RepathPolicy::Incremental | RepathPolicy::FlowField);
        let near = cell_center(old.player).distance(cell_center(key.player)) <= settings.repath_cells;
        keeps && Key { player: old.player, ..*key } == old && self.ahead().contains(&key.player) && (!self.cut || near)
    }

    /// Whether every hunter it is asked for has a value, or the map
    /// reaches as far as it can.
    fn covers(&self, grid: &Grid) -> bool {
        self.whole || self.hunters.iter().all(|&c| self.field.distance(grid.node(c)).is_some())
    }

    /// The cells of the route within the horizon, the map's sources, the
    /// player's cell (when the map was made) first.
    fn ahead(&self) -> &[Cell] {
        &self.route[..self.sources.len().min(self.route.len())]
    }

    /// Where a hunter in `from` aims while the player stands in `player`:
    /// the route cell its descent of the map ends at, unless that is the
    /// player's own cell or one the player has passed, the map does not
    /// reach it, or the hunter is within [`ENGAGE_CELLS`] of the player
    /// (then it hunts the player's cell: `None`).
    pub fn aim(&self, grid: &Grid, from: Cell, player: Cell) -> Option<Cell> {
        let end = self.descent_end(grid, from, player)?;
        let route = self.ahead();
        let passed = match (route.iter().position(|&c| c == end), route.iter().position(|&c| c == player)) {
            (Some(a), Some(p)) => a <= p,
            _ => end == player,
        };
        (!passed).then_some(end)
    }

    /// The cell the descent from `from` ends at, unless the map does not
    /// reach it or it is within [`ENGAGE_CELLS`] of `player`.
    fn descent_end(&self, grid: &Grid, from: Cell, player: Cell) -> Option<Cell> {
        let key = self.key?;
        let close = cell_center(from).distance(cell_center(player)) <= ENGAGE_CELLS;
        if !grid.is_walkable(from) || close {
            return None;
        }
        let graph = moves(grid, key.neighbors);
        let mut at = grid.node(from);
        self.field.distance(at)?;
        for _ in 0..MAX_DESCENT {
            match self.field.descend(&graph, at) {
                Some(next) => at = next,
                None => break,
            }
        }
        Some(grid.cell_of(at))
    }

    /// `from` and the next cells, up to `steps`, of its descent of the map
    /// (toward its aim; empty outside the map): the way the `flow-field`
    /// policy has a hunter go to its aim without a search (`sim::flow`).
    /// `nodes` is a buffer.
    pub fn descent(&self, grid: &Grid, from: Cell, steps: usize, nodes: &mut Vec<u32>, out: &mut Vec<Cell>) {
        out.clear();
        nodes.clear();
        let Some(key) = self.key.filter(|_| grid.is_walkable(from)) else { return };
        self.field.descent(&moves(grid, key.neighbors), grid.node(from), steps, nodes);
        out.extend(nodes.iter().map(|&n| grid.cell_of(n)));
    }

    /// The route the map was made from, the player's cell first (empty
    /// when there is none).
    #[cfg(test)]
    pub fn route(&self) -> &[Cell] {
        if self.key.is_some() { &self.route[..self.sources.len().min(self.route.len())] } else { &[] }
    }
}

/// The straight line from `from` along (dx, dy), `from` first, while the
/// steps are legal and within `horizon` of route cost (4 neighbours: a
/// diagonal heading goes its two orthogonal ways in turn); returns
/// whether the horizon, not a wall, ended it.
fn ray(grid: &Grid, from: Cell, (dx, dy): (i8, i8), neighbors: Neighbors, horizon: f64, out: &mut Vec<Cell>) -> bool {
    let (dx, dy) = (i32::from(dx), i32::from(dy));
    let steps: &[(i32, i32)] =
        if neighbors == Neighbors::Four && dx != 0 && dy != 0 { &[(dx, 0), (0, dy)] } else { &[(dx, dy)] };
    out.push(from);
    let (mut at, mut cost) = (from, 0.0);
    loop {
        for &(sx, sy) in steps {
            let Some(step) = grid.step_cost(at, sx, sy) else { return false };
            cost += step;
            if cost > horizon {
                return true;
            }
            at = Cell::new(at.x + sx, at.y + sy);
            out.push(at);
        }
    }
}

/// The grid's moves, for the map's Dijkstra and its descent.
fn moves(grid: &Grid, neighbors: Neighbors) -> GridGraph<'_> {
    let c = Cell::new(0, 0);
    GridGraph::new(grid, neighbors, Heuristic::Zero, c, c)
}

/// What the map is made for decides where hunters aim: the key is state
/// (its grid identity aside, a process-local number for caches).
impl StateHash for Foresight {
    fn hash_into(&self, h: &mut StateHasher) {
        let Foresight {
            key,
            // A function of the key and the grid; buffers.
            field: _,
            route: _,
            sources: _,
            cut: _,
            whole: _,
            hunters: _,
            targets: _,
            planner: _,
        } = self;
        h.bool(key.is_some());
        if let Some(Key { identity: _, version, player, heading, aim, neighbors, detection }) = key {
            h.add(version);
            h.add(player);
            h.add(heading);
            h.add(aim);
            h.add(neighbors);
            h.add(detection);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;

    fn grid(rows: &str) -> Grid {
        Level::parse(&format!("name: t\n{rows}"), "t.txt").unwrap().grid
    }

    /// A long east-west corridor with a side passage coming down from a
    /// room above to its middle.
    const CROSS: &str = "\
#########################
#########.......#########
#########.......#########
############.############
############.############
#.......................#
#########################
";

    fn settings(aim: Aim) -> Settings {
        Settings { aim, detection_radius: 30.0, ..Settings::default() }
    }

    #[test]
    fn a_hunter_ahead_of_the_player_cuts_it_off_where_it_passes() {
        let g = grid(CROSS);
        let mut f = Foresight::default();
        // The player walks east along the corridor, from 2,5; a hunter in
        // the room above comes down the side passage to the corridor.
        let work = f.update(&g, &settings(Aim::Heading), Cell::new(2, 5), Some((1, 0)), None, 5.0, []);
        assert!(work.expanded > 0);
        assert_eq!(f.route().first(), Some(&Cell::new(2, 5)));
        assert_eq!(f.route().last(), Some(&Cell::new(23, 5)), "the ray runs to the wall");
        let aim = f.aim(&g, Cell::new(12, 1), Cell::new(2, 5)).expect("an aim ahead of the player");
        assert_eq!(aim.y, 5, "on the player's route, {aim}");
        // At 4 cells a second against 5, it is 4 steps from the junction
        // at 12,5 which the player reaches in 10: the best cell lies at the
        // junction or a little farther east, never behind the player.
        assert!((12..=14).contains(&aim.x), "{aim}");
        // One close by goes for it.
        assert_eq!(f.aim(&g, Cell::new(6, 5), Cell::new(2, 5)), None);
        // A hunter behind the player has nothing to cut off: it follows.
        assert_eq!(f.aim(&g, Cell::new(1, 5), Cell::new(2, 5)), None);
        // The same update again costs nothing.
        assert_eq!(f.update(&g, &settings(Aim::Heading), Cell::new(2, 5), Some((1, 0)), None, 5.0, []).expanded, 0);
    }

    #[test]
    fn the_goal_route_is_followed_round_its_corners() {
        let g = grid(CROSS);
        let mut f = Foresight::default();
        // The player at the corridor's west end heads for a goal up in the
        // room: its route turns north at the junction, which a hunter in
        // the corridor's east end reaches first.
        f.update(&g, &settings(Aim::Goal), Cell::new(1, 5), Some((1, 0)), Some(Cell::new(12, 1)), 5.0, []);
        assert!(f.route().contains(&Cell::new(12, 3)), "the route turns north: {:?}", f.route());
        let aim = f.aim(&g, Cell::new(22, 5), Cell::new(1, 5)).expect("an aim");
        assert_eq!(aim.x, 12, "at the junction or up the side passage: {aim}");
        // Under `heading` the same hunter would meet the player head-on in
        // the corridor instead.
        f.update(&g, &settings(Aim::Heading), Cell::new(1, 5), Some((1, 0)), Some(Cell::new(12, 1)), 5.0, []);
        let aim = f.aim(&g, Cell::new(22, 5), Cell::new(1, 5)).expect("an aim");
        assert_eq!(aim.y, 5);
        assert!(aim.x > 12, "{aim}");
    }

    #[test]
    fn a_player_standing_still_or_the_aim_player_keeps_no_map() {
        let g = grid(CROSS);
        let mut f = Foresight::default();
        f.update(&g, &settings(Aim::Heading), Cell::new(2, 5), None, None, 5.0, []);
        assert_eq!(f.aim(&g, Cell::new(12, 1), Cell::new(2, 5)), None);
        assert!(f.route().is_empty());
        f.update(&g, &settings(Aim::Player), Cell::new(2, 5), Some((1, 0)), None, 5.0, []);
        assert_eq!(f.aim(&g, Cell::new(12, 1), Cell::new(2, 5)), None);
        assert_eq!(crate::hash::hash_of(&f), crate::hash::hash_of(&Foresight::default()));
    }

    fn keeping(aim: Aim, repath: RepathPolicy, detection: f32) -> Settings {
        Settings { aim, repath, detection_radius: detection, ..Settings::default() }
    }

    #[test]
    fn a_map_as_far_as_its_hunters_gives_their_aims_for_less() {
        let g = grid(CROSS);
        let s = settings(Aim::Heading);
        let (player, hunter, far) = (Cell::new(2, 5), Cell::new(12, 1), Cell::new(1, 5));
        let mut whole = Foresight::default();
        let all = whole.update(&g, &s, player, Some((1, 0)), None, 5.0, []).expanded;
        let mut f = Foresight::default();
        let some = f.update(&g, &s, player, Some((1, 0)), None, 5.0, [hunter]).expanded;
        assert!(some < all, "{some} against {all}");
        assert_eq!(f.aim(&g, hunter, player), whole.aim(&g, hunter, player));
        assert!(f.aim(&g, hunter, player).is_some());
        // A hunter beyond it (behind the player: a higher value than any
        // cell on the way to the route) has the map made again.
        assert_eq!(f.update(&g, &s, player, Some((1, 0)), None, 5.0, [hunter]).expanded, 0);
        assert!(f.update(&g, &s, player, Some((1, 0)), None, 5.0, [hunter, far]).expanded > 0);
        assert_eq!(f.aim(&g, far, player), whole.aim(&g, far, player));
        // The hash is the key's: the same whatever the map's reach.
        assert_eq!(crate::hash::hash_of(&f), crate::hash::hash_of(&whole));
    }

    #[test]
    fn under_incremental_and_flow_field_a_step_along_the_route_makes_no_map() {
        let g = grid(CROSS);
        let hunter = Cell::new(12, 1);
        for (repath, keeps) in
            [(RepathPolicy::FlowField, true), (RepathPolicy::Incremental, true), (RepathPolicy::EveryTick, false)]
        {
            let s = keeping(Aim::Heading, repath, 30.0);
            let mut f = Foresight::default();
            assert!(f.update(&g, &s, Cell::new(2, 5), Some((1, 0)), None, 5.0, [hunter]).expanded > 0);
            let aim = f.aim(&g, hunter, Cell::new(2, 5)).expect("an aim");
            let step = f.update(&g, &s, Cell::new(3, 5), Some((1, 0)), None, 5.0, [hunter]).expanded;
            assert_eq!(step == 0, keeps, "{repath}: {step}");
            assert_eq!(f.aim(&g, hunter, Cell::new(3, 5)), Some(aim), "{repath}: the prediction stands");
            // A turn, or a step off the route, is a new prediction.
            let mut turned = Foresight::default();
            turned.update(&g, &s, Cell::new(2, 5), Some((1, 0)), None, 5.0, [hunter]);
            assert!(turned.update(&g, &s, Cell::new(1, 5), Some((-1, 0)), None, 5.0, [hunter]).expanded > 0);
        }
        // Walking on past the cell a hunter aimed at: that aim is none.
        let s = keeping(Aim::Heading, RepathPolicy::FlowField, 30.0);
        let mut f = Foresight::default();
        let hunter = Cell::new(9, 1);
        f.update(&g, &s, Cell::new(2, 5), Some((1, 0)), None, 5.0, [hunter]);
        let aim = f.aim(&g, hunter, Cell::new(2, 5)).expect("an aim");
        let beyond = Cell::new(aim.x + 1, 5);
        assert_eq!(f.update(&g, &s, beyond, Some((1, 0)), None, 5.0, [hunter]).expanded, 0);
        assert!(cell_center(hunter).distance(cell_center(beyond)) > ENGAGE_CELLS);
        assert_eq!(f.aim(&g, hunter, beyond), None, "it follows the player that passed {aim}");
    }

    #[test]
    fn a_route_the_horizon_cut_short_stands_only_within_k_cells() {
        // A detection radius of 10: the ray east along the corridor stops
        // at the horizon, 10 cells on, short of the wall.
        let g = grid(CROSS);
        let s = keeping(Aim::Heading, RepathPolicy::FlowField, 10.0);
        let mut f = Foresight::default();
        f.update(&g, &s, Cell::new(1, 5), Some((1, 0)), None, 5.0, []);
        assert_eq!(f.route().last(), Some(&Cell::new(11, 5)), "cut by the horizon");
        for x in 2..=4 {
            assert_eq!(f.update(&g, &s, Cell::new(x, 5), Some((1, 0)), None, 5.0, []).expanded, 0, "{x}");
        }
        assert!(f.update(&g, &s, Cell::new(5, 5), Some((1, 0)), None, 5.0, []).expanded > 0, "4 cells on: made again");
        assert_eq!(f.route().first(), Some(&Cell::new(5, 5)));
    }

    #[test]
    fn a_diagonal_ray_under_four_neighbours_staircases() {
        let g = grid("######\n#....#\n#....#\n#....#\n######\n");
        let mut out = Vec::new();
        ray(&g, Cell::new(1, 1), (1, 1), Neighbors::Four, 100.0, &mut out);
        let stairs = [(1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 3)].map(|(x, y)| Cell::new(x, y));
        assert_eq!(out, stairs, "to the wall below 4,3");
        out.clear();
        ray(&g, Cell::new(1, 1), (1, 1), Neighbors::Eight, 100.0, &mut out);
        assert_eq!(out, [Cell::new(1, 1), Cell::new(2, 2), Cell::new(3, 3)]);
    }
}
