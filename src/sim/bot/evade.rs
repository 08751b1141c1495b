//! The evading bot (`--bot evade`): heads for the level's `G` like the
//! goal bot, but keeps off the monsters and, on its last life, out of
//! their sight and reach, waits for a patrol to pass, opens doors to go
//! through and closes them behind it.
//!
//! It plays by the player's rules: one command a tick, moves only when the
//! player's pace allows one, and it knows what the screen shows, the map,
//! the doors and where each monster stands and whether it hunts (the log
//! says who saw you and who caught you, and the rules say a monster that
//! caught you forgets you for a while), plus the rules themselves: how far
//! monsters see and hear, how fast they run, that they cannot open doors.
//!
//! **Each step** it plans afresh, with A* over the player's moves on the
//! map with every closed door counted open (it opens them), each cell
//! surcharged (see `sim::surcharge`) by what entering it risks:
//!
//! - *reach*: a cell a hunting monster gets to no later than the bot, by
//!   their walking times, with [`MARGIN`] plain steps to spare, costs
//!   [`UNSAFE`], more the earlier the monster is there. The bot's time is
//!   its route cost (a step into mud or water lasts its cost in plain
//!   steps); a monster's is the cells it walks over the monsters' moves
//!   (closed doors stop them; water and mud do not slow them) at its speed
//!   (4 cells a second against the player's 5);
//! - *sight*: a cell an unaware monster (idle, searching, returning) sees
//!   (a line of sight within the detection radius) costs [`SEEN`], one it
//!   hears a step in (within the hearing steps) [`HEARD`];
//! - *touch*: a cell within [`CLOSE`] steps of any monster costs
//!   [`UNSAFE`] (bumping into a roaming monster is a catch too).
//!
//! With a life to spare (more than [`SPARE_LIVES`] left), sight, sound and
//! a hunter's reach cost nothing (touch still does): the bot spends a life
//! rather than the time to wait out every patrol or to run from every
//! hunter. It is careful on its last life.
//!
//! **Then it acts.** The next cell of the plan is a closed door: it opens
//! it. It stands where no monster sees it or reaches it and the next cell
//! is seen by an unaware monster, or reached by a hunter: it waits there
//! (standing is silent) up to [`MAX_WAIT`] ticks, for the patrol to pass.
//! It just stepped out of a doorway with a monster within [`DOOR_REACH`]
//! of the door: it closes the door behind it. Otherwise it steps. A door
//! it closed it does not open again for [`DOOR_HOLD`] ticks (it stands
//! behind it); one it opened it may close behind it at once, once it has
//! come through it (opening a door is not coming out of it).

use super::maps::Maps;
use super::sight::Views;
use crate::grid::{Cell, DIRECTIONS, Grid, Neighbors, Tile};
use crate::search::{FlowField, GridGraph, Heuristic, NodeId, Query, Searcher};
use crate::sim::perceive::HEARING_CELLS;
use crate::sim::surcharge::Surcharged;
use crate::sim::{Command, Kind, MonsterState, Species, World};
use std::collections::VecDeque;

/// Cells a hunter must be later than the bot at a cell for it to be safe.
pub const MARGIN: f64 = 3.0;
/// The surcharge of a cell a hunter reaches first, and of one next to a
/// monster; per cell of the hunter's lead, plus as much again.
pub const UNSAFE: f64 = 12.0;
/// The surcharge of a cell an unaware monster sees.
pub const SEEN: f64 = 8.0;
/// The surcharge of a cell where an unaware monster hears a step.
pub const HEARD: f64 = 3.0;
/// Steps from a monster within which a cell is never safe.
pub const CLOSE: f64 = 2.0;
/// Ticks the bot waits at most for a patrol to pass (5 seconds): a
/// patrol that has not passed by then roams there, and waiting on for it
/// (20 s, as the bot once did) lost more sessions to the clock and to
/// searchers walking up than it saved (generated depth 10, seeds 1..20:
/// 2 won of 20 with 20 s, 4 with 5 s; the dungeon 11 and 12, the cave 8
/// and 8).
pub const MAX_WAIT: u64 = 100;
/// Route cost from a monster to a door within which the bot closes the
/// door behind it.
pub const DOOR_REACH: f64 = 30.0;
/// The surcharge of going back to a cell of the bot's recent trail.
pub const BACKTRACK: f64 = 4.0;
/// Cells of the trail the bot remembers.
pub const TRAIL: usize = 16;
/// The surcharge of reopening a door the bot closed behind it.
pub const REOPEN: f64 = 10.0 * UNSAFE;
/// Ticks a door the bot closed behind it stays dear to reopen (10 s).
pub const DOOR_MEMORY: u64 = 200;
/// Lives left above which the bot spends them on time: it walks where
/// unaware monsters see or hear it and where hunters get first (it still
/// keeps [`CLOSE`] steps off every monster), as a player with lives to
/// spare does rather than wait out every patrol or run from every hunter:
/// every life but the last.
///
/// A catch is cheap in time: the player stays where it stands, and the
/// catcher goes out of sight and forgets it ([`crate::sim::FORGET_TICKS`]);
/// running from a hunter at 5 cells a second against its 4 took the bot
/// across the map and back (`big`: 10 of its 14 sessions not won ran out
/// of time). Spending every life but the last took the campaign's `big`
/// from 6 to 19 of 20 and no row down; only the first of three, `big` to
/// 15, and not keeping off monsters then either, to 4; never careful, the
/// maze (one life) from 18 to 12. The figures and their commands are in
/// docs/world.md, "Spare lives".
pub const SPARE_LIVES: u32 = 1;
/// How far the monsters' maps reach, in route cost.
const REACH: f64 = 48.0;
/// Ticks a door the bot closed stays shut (1 s): it does not open it
/// again within them. Closing a door in a hunter's face cuts the hunter's
/// way and view, so the plan turns back through it; opening it gives them
/// back, so the plan turns away and the door is closed again: on `big`
/// (seed 7) the bot worked one door every tick for 130 ticks while a
/// second hunter walked up and caught it. A door it opened is not held:
/// held too, it stayed open behind the bot, who is through it within the
/// second, for every door it opened itself (the whole campaign, seeds
/// 1..20: depth 1 fell from 15 to 11 of 20, depth 3 from 11 to 10, depth
/// 10 from 11 to 8; the dungeon rose from 13 to 16).
pub const DOOR_HOLD: u64 = 20;

/// The evading bot's memory and buffers.
#[derive(Debug, Default)]
pub struct Evader {
    /// Route costs from the hunting monsters (made only while their reach
    /// counts), from every monster that is not calm, from the unaware ones
    /// (within hearing; made only while sight and sound count; see
    /// [`SPARE_LIVES`] for both), and from the bot.
    hunters: FlowField,
    monsters: FlowField,
    unaware: FlowField,
    /// The bot's own route costs, as far as the cells a hunter reaches
    /// (all `reach` reads), or everywhere once [`Evader::walk_everywhere`]
    /// made it so (all `nearest` reads): a whole-map field at every step
    /// was a fifth of the bot's work on `big`.
    mine: FlowField,
    /// Whether `mine` covers every cell the bot can reach.
    mine_everywhere: bool,
    /// The nodes a hunter reaches, this step: where `mine` must reach.
    reached: Vec<NodeId>,
    /// Where the bot stood when `mine` was made: its root.
    root: Option<Cell>,
    /// The grids of its moves and the monsters', made again when the grid
    /// changes.
    maps: Maps,
    /// What monsters see from the cells they stood in.
    views: Views,
    /// Per node, this step: the risk of a hunter getting there first or of
    /// touching a monster, of being seen there, the sound of a step into it
    /// (heard), and the bot's own bias (its trail, doors it closed).
    reach: Vec<f64>,
    seen: Vec<f64>,
    sound: Vec<f64>,
    bias: Vec<f64>,
    searcher: Searcher,
    path: Vec<Cell>,
    /// The cell the bot stood in before its last step.
    last: Option<Cell>,
    /// The cells it stood in lately, the latest last: going back over them
    /// costs [`BACKTRACK`] each, so that it does not dither between two
    /// ways whose risks change places as monsters move.
    trail: VecDeque<Cell>,
    /// Doors it closed behind it and when: reopening one costs [`REOPEN`]
    /// for [`DOOR_MEMORY`] ticks (something was coming through it), and
    /// it is not reopened at all for [`DOOR_HOLD`].
    closed: Vec<(Cell, u64)>,
    /// The tick it began waiting, while it waits.
    waiting_since: Option<u64>,
    /// The tick before which it does not wait again: its last wait ran out.
    impatient_until: u64,
}

/// A monster as the bot sees it.
struct Seen {
    cell: Cell,
    hunting: bool,
}

impl Evader {
    /// The command for the coming tick, given that the player may move
    /// now ([`World::ready`]).
    pub fn command(&mut self, world: &World) -> Option<Command> {
        let grid = world.grid();
        let here = world.player().cell;
        let goal = world.goal_cell()?;
        self.maps.update(grid);
        let tick = world.ticks();
        self.weigh(world, here);
        self.plan(here, goal);
        let node = |c: Cell| grid.node(c) as usize;
        let cut = self.path.iter().skip(1).any(|&c| self.reach[node(c)] > 0.0);
        // Safe where no hunter gets first and no monster sees it.
        let safe = |e: &Self, c: Cell| e.reach[node(c)] == 0.0 && e.seen[node(c)] == 0.0;
        if cut {
            // The way to the goal is cut: wait where it is safe (and after
            // waiting long, go anyway), else go to a safe cell, out of
            // sight and reach, the nearest counting half the way from it
            // to the goal.
            if safe(self, here) {
                if self.wait(tick) {
                    return None;
                }
            } else {
                self.walk_everywhere();
                if let Some(hide) = self.nearest(grid, goal, |c| safe(self, c)) {
                    self.plan(here, hide);
                }
            }
        }
        let &next = self.path.get(1)?;
        if let Some(door) = self.door_to_close(world, grid, here).filter(|&d| !self.path.contains(&d)) {
            self.closed.push((door, tick));
            return Some(Command::Door);
        }
        if grid.tile(next) == Tile::DoorClosed {
            // A door it has just closed stays shut: it stands behind it.
            let open = first_door(grid, here) == Some(next) && !self.holds(next, tick);
            if open {
                // It is going through, not coming out: a doorway it last
                // stepped out of (this one, when it stepped back) is no
                // longer the one just behind it.
                self.last = None;
            }
            return open.then_some(Command::Door);
        }
        // Standing is silent: where no monster sees the bot or reaches it
        // first, it waits for a patrol to pass before stepping where one
        // would see or hear it.
        let risky = |c: Cell| self.seen[node(c)] + self.sound[node(c)] + self.reach[node(c)] > 0.0;
        if !cut && safe(self, here) && risky(next) && self.wait(tick) {
            return None;
        }
        self.waiting_since = None;
        self.last = Some(here);
        if self.trail.len() == TRAIL {
            self.trail.pop_front();
        }
        self.trail.push_back(here);
        Some(Command::Move { dx: (next.x - here.x) as i8, dy: (next.y - here.y) as i8 })
    }

    /// Whether the bot keeps `door` shut at `tick`: it closed the door
    /// less than [`DOOR_HOLD`] ticks ago.
    fn holds(&self, door: Cell, tick: u64) -> bool {
        self.closed.iter().any(|&(d, at)| d == door && tick - at < DOOR_HOLD)
    }

    /// Whether the bot may go on waiting at `tick`: it has waited less than
    /// [`MAX_WAIT`] ticks. A wait that ran out makes it go on without
    /// waiting for the [`MAX_WAIT`] ticks after.
    fn wait(&mut self, tick: u64) -> bool {
        if tick < self.impatient_until {
            return false;
        }
        let since = *self.waiting_since.get_or_insert(tick);
        if tick - since < MAX_WAIT {
            return true;
        }
        self.impatient_until = tick + MAX_WAIT;
        false
    }

    /// The cell `wanted` accepts that is nearest to the bot (by its own
    /// route costs, doors open) plus half the straight way from it to
    /// `goal`, if any.
    fn nearest(&self, grid: &Grid, goal: Cell, wanted: impl Fn(Cell) -> bool) -> Option<Cell> {
        let score = |n: u32| {
            let c = grid.cell_of(n);
            let to_goal = Heuristic::Octile.distance(f64::from((c.x - goal.x).abs()), f64::from((c.y - goal.y).abs()));
            Some(self.walk(n)? + 0.5 * to_goal).filter(|_| wanted(c))
        };
        let scored = (0..grid.node_count() as u32).filter_map(|n| Some((score(n)?, n)));
        scored.min_by(|a, b| a.0.total_cmp(&b.0)).map(|(_, n)| grid.cell_of(n))
    }

    /// The bot's walking time from where it stands to node `n`, doors
    /// open, if it can get there and its field reaches it (see [`walk`]).
    fn walk(&self, n: NodeId) -> Option<f64> {
        walk(&self.mine, self.root, &self.maps.open, n)
    }

    /// Makes the bot's own field cover every cell it can reach, from
    /// where it stood at the last [`Evader::weigh`].
    fn walk_everywhere(&mut self) {
        if self.mine_everywhere {
            return;
        }
        let (open, here) = (&self.maps.open, self.root.expect("the bot weighed its cells first"));
        let moves = GridGraph::new(open, Neighbors::Eight, Heuristic::Zero, here, here);
        self.mine.start_from(open.node_count(), &[(open.node(here), 0.0)], f64::INFINITY);
        self.mine.advance(&moves, u64::MAX);
        self.mine_everywhere = true;
    }

    /// Fills the risks, sounds and biases of this step (see the module
    /// docs), on the maps made for the world's grid.
    fn weigh(&mut self, world: &World, here: Cell) {
        let grid = world.grid();
        let open = &self.maps.open;
        let monsters = monsters(world);
        let ratio = f64::from(Species::of(Kind::Monster).max_speed) / PLAYER_SPEED;
        let nodes = grid.node_count();
        let neighbors = world.settings().search.neighbors;
        // Monsters run at one speed on any ground (they route round water
        // and mud but are not slowed in it): their maps count cells walked,
        // so that their times, cells over their speed, stand beside the
        // bot's own, whose route costs are its walking times.
        let moves = GridGraph::new(&self.maps.walked, neighbors, Heuristic::Zero, here, here);
        // With lives to spare, nothing but touch is risked: no monster is
        // looked at as a hunter, nor what they see and hear.
        let wary = world.lives().is_none_or(|l| l <= SPARE_LIVES);
        self.hunters.start_from(nodes, &sources(grid, &monsters, |m| m.hunting && wary), REACH);
        self.hunters.advance(&moves, u64::MAX);
        self.monsters.start_from(nodes, &sources(grid, &monsters, |_| true), REACH);
        self.monsters.advance(&moves, u64::MAX);
        // The bot's own times, as far as the hunters reach (no farther
        // when none hunts).
        let hunters = &self.hunters;
        self.reached.clear();
        self.reached.extend((0..nodes as NodeId).filter(|&n| hunters.distance(n).is_some()));
        let mine = GridGraph::new(open, neighbors, Heuristic::Zero, here, here);
        let limit = if self.reached.is_empty() { 0.0 } else { f64::INFINITY };
        self.mine.start_from(nodes, &[(open.node(here), 0.0)], limit);
        self.mine.advance_covering(&mine, u64::MAX, &self.reached);
        self.mine_everywhere = false;
        self.root = Some(here);
        for v in [&mut self.reach, &mut self.seen, &mut self.sound, &mut self.bias] {
            v.clear();
            v.resize(nodes, 0.0);
        }
        for n in 0..nodes as u32 {
            let i = n as usize;
            if let Some(h) = self.hunters.distance(n) {
                let bot = walk(&self.mine, self.root, open, n).unwrap_or(f64::INFINITY);
                let lead = bot + MARGIN - h / ratio;
                if lead > 0.0 {
                    self.reach[i] += UNSAFE * (1.0 + lead);
                }
            }
            if self.monsters.distance(n).is_some_and(|d| d <= CLOSE) {
                self.reach[i] += UNSAFE;
            }
        }
        if wary {
            self.look(world, &monsters, here);
        }
        for &c in &self.trail {
            self.bias[grid.node(c) as usize] += BACKTRACK;
        }
        let tick = world.ticks();
        self.closed.retain(|&(_, at)| tick - at < DOOR_MEMORY);
        for &(door, _) in &self.closed {
            self.bias[grid.node(door) as usize] += REOPEN;
        }
    }

    /// Fills what the monsters see (unaware ones would notice, hunters
    /// keep up) and where an unaware one hears a step, and weighs each
    /// cell's sight and sound by how long the bot takes to cross it:
    /// wading through water is five steps' exposure, not one.
    fn look(&mut self, world: &World, monsters: &[Seen], here: Cell) {
        let (grid, open) = (world.grid(), &self.maps.open);
        let moves = GridGraph::new(&self.maps.walked, world.settings().search.neighbors, Heuristic::Zero, here, here);
        let hearing = f64::from(HEARING_CELLS);
        self.unaware.start_from(grid.node_count(), &sources(grid, monsters, |m| !m.hunting), hearing);
        self.unaware.advance(&moves, u64::MAX);
        let sight = world.settings().detection_radius;
        for m in monsters {
            for &n in self.views.of(grid, open, m.cell, sight) {
                self.seen[n as usize] += SEEN;
            }
        }
        for n in 0..grid.node_count() as u32 {
            let stay = f64::from(open.entry_cost(open.cell_of(n)).unwrap_or(1));
            self.seen[n as usize] *= stay;
            if self.unaware.distance(n).is_some() {
                self.sound[n as usize] = HEARD * stay;
            }
        }
    }

    /// A* from `here` to `to` over the player's moves, doors open, each
    /// cell surcharged by its risks, sound and bias; the path is left in
    /// `self.path` (empty: none).
    fn plan(&mut self, here: Cell, to: Cell) {
        let (open, reach, seen, sound, bias) = (&self.maps.open, &self.reach, &self.seen, &self.sound, &self.bias);
        let graph = Surcharged {
            moves: GridGraph::new(open, Neighbors::Eight, Heuristic::Octile, here, to),
            stride: open.stride(),
            surcharge: |n: NodeId| {
                let i = n as usize;
                reach[i] + seen[i] + sound[i] + bias[i]
            },
        };
        let outcome = self.searcher.search(&graph, open.node(here), open.node(to), &Query::default());
        self.path.clear();
        if outcome.found {
            self.path.extend(self.searcher.path().iter().map(|&n| open.cell_of(n)));
        }
    }

    /// The door behind the bot to close (unless its plan goes back through
    /// it): it stood in it before its last step, the door is open
    /// and empty, the `e` command would toggle it (it is the first door
    /// next to the player), and a monster is within [`DOOR_REACH`] of it
    /// and nearer to it than any is to the bot: one coming through it. A
    /// door shut on a monster on the bot's own side keeps nothing out and
    /// costs a tick, and is held shut against the bot's own way back (see
    /// [`DOOR_HOLD`], [`REOPEN`]): closing on any monster near, the
    /// evading bot won 131 of the campaign's 200 sessions, against 136
    /// (the dungeon 13 against 15 of 20, the keep 16 against 17, depth 3
    /// 11 against 12).
    fn door_to_close(&self, world: &World, grid: &Grid, here: Cell) -> Option<Cell> {
        let door = self.last.filter(|&d| grid.tile(d) == Tile::DoorOpen)?;
        let occupied = world.creatures().iter().any(|c| c.cell() == door);
        let to = |c: Cell| self.monsters.distance(grid.node(c)).unwrap_or(f64::INFINITY);
        let coming = to(door) <= DOOR_REACH && to(door) < to(here);
        (!occupied && coming && first_door(grid, here) == Some(door)).then_some(door)
    }
}

/// Speed of the player's steps, cells a second.
const PLAYER_SPEED: f64 = 5.0;

/// The monsters as the bot sees them: calm ones (they caught the player a
/// moment ago) are left out.
fn monsters(world: &World) -> Vec<Seen> {
    let tick = world.ticks();
    world
        .creatures()
        .iter()
        .filter_map(|c| {
            let hunt = c.hunt.as_ref()?;
            let calm = tick < hunt.mind.calm_until;
            (!calm).then(|| Seen { cell: c.cell(), hunting: hunt.mind.state == MonsterState::Hunting })
        })
        .collect()
}

/// The monsters `keep` accepts that stand on walkable cells, as the
/// sources of a map of route costs from them.
fn sources(grid: &Grid, monsters: &[Seen], keep: impl Fn(&Seen) -> bool) -> Vec<(u32, f64)> {
    let cells = monsters.iter().filter(|m| keep(m) && grid.is_walkable(m.cell));
    cells.map(|m| (grid.node(m.cell), 0.0)).collect()
}

/// The bot's walking time from its cell `root` to node `n` by its field
/// `mine`, doors open (`open`), if it can get there. The field holds the
/// cost of the way back (each cell's cost paid on entering it, so the
/// field counts the bot's own cell and not `n`'s); the way out pays `n`'s
/// and not its own, which matters when `n` is water or mud. Exact for a
/// last step taken straight; a diagonal one is off by at most (√2 - 1)
/// times the difference of the two cells' costs.
fn walk(mine: &FlowField, root: Option<Cell>, open: &Grid, n: NodeId) -> Option<f64> {
    let cost = |c: Cell| f64::from(open.entry_cost(c).unwrap_or(1));
    let d = mine.distance(n)?;
    let here = root.unwrap_or(open.cell_of(n));
    Some(if d == 0.0 { 0.0 } else { d + cost(open.cell_of(n)) - cost(here) })
}

/// The door the `e` command toggles for a player in `here`: the first in
/// neighbour order.
fn first_door(grid: &Grid, here: Cell) -> Option<Cell> {
    DIRECTIONS
        .iter()
        .map(|&(dx, dy)| Cell::new(here.x + dx, here.y + dy))
        .find(|&c| matches!(grid.tile(c), Tile::DoorOpen | Tile::DoorClosed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::sim::{Rules, Settings};

    /// A fresh bot that weighed the cells of `world` as it stands.
    fn weighed(world: &World) -> Evader {
        let mut bot = Evader::default();
        weigh(&mut bot, world);
        bot
    }

    /// `bot` weighs the cells of `world` as it stands, its maps made for
    /// the world's grid.
    fn weigh(bot: &mut Evader, world: &World) {
        bot.maps.update(world.grid());
        bot.weigh(world, world.player().cell);
    }

    /// A game (the level's goal and lives) on the level `map`, seed 1.
    fn game(map: &str) -> World {
        let level = Level::parse(map, "door.txt").unwrap();
        World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap()
    }

    /// A hunter across a pool is as near as the cells it walks: water
    /// slows the player, not the monster. So the pool's second cell, two
    /// plain steps and two wades of the bot's and four cells of the
    /// hunter's, is unsafe; by route costs (five a wade for the monster
    /// too) it read as safe.
    #[test]
    fn a_hunter_across_water_is_as_near_as_the_cells_it_walks() {
        let level = Level::parse("name: pool\n############\n#@..~~~~.M.#\n#...~~~~...#\n############\n", "pool.txt");
        let mut world = World::new(&level.unwrap(), 1, Settings::default()).unwrap();
        while monsters(&world).iter().all(|m| !m.hunting) {
            assert!(world.ticks() < 40, "the monster sees the player across the pool");
            world.tick();
        }
        let grid = world.grid().clone();
        let bot = weighed(&world);
        let wade = grid.node(Cell::new(5, 1)) as usize;
        assert!(bot.reach[wade] > 0.0, "the pool reads as safe");
        assert_eq!(bot.reach[grid.node(Cell::new(1, 2)) as usize], 0.0, "the bot's own corner is safe");
    }

    /// A wait for a patrol is bounded: five seconds, then the bot goes on
    /// and does not wait again for as long (it waited twenty once, and
    /// ran out the clock where patrols roam).
    #[test]
    fn a_wait_ends_after_five_seconds() {
        let mut bot = Evader::default();
        assert!((1000..1100).all(|t| bot.wait(t)), "it waits five seconds");
        assert!(!bot.wait(1100), "then goes on");
        bot.waiting_since = None; // it stepped on
        assert!(!bot.wait(1150), "and does not wait again at once");
        assert!(bot.wait(1200), "but does five seconds later");
    }

    /// A door the bot closed stays shut for [`DOOR_HOLD`] ticks, and only
    /// that door: reopening it at once with a hunter beside it (closing
    /// cut the hunter's way so the plan turned back through it, opening
    /// turned it away again) let a second hunter walk up.
    #[test]
    fn a_closed_door_is_held_for_a_second() {
        let mut bot = Evader::default();
        let (door, other) = (Cell::new(4, 2), Cell::new(9, 2));
        assert!(!bot.holds(door, 500), "a door never closed is free");
        bot.closed.push((door, 500));
        assert!((500..500 + DOOR_HOLD).all(|t| bot.holds(door, t)), "held for DOOR_HOLD ticks");
        assert!(!bot.holds(door, 500 + DOOR_HOLD), "then free again");
        assert!(!bot.holds(other, 501), "another door is free");
    }

    /// A door the bot opened to go through it closes behind it at once
    /// when a monster comes after it: holding every door it worked, it
    /// left open each door it had opened, being through it within the
    /// hold.
    #[test]
    fn a_door_it_opened_is_closed_behind_it() {
        let mut world = game("name: door\n##################\n#M.........@+...G#\n##################\n");
        let door = Cell::new(12, 1);
        let mut bot = Evader::default();
        let mut opened = false;
        while world.player().cell.x <= door.x + 1 {
            assert!(world.ticks() < 100, "the bot goes through the door");
            if world.ready()
                && let Some(c) = bot.command(&world)
            {
                world.apply(c);
            }
            world.tick();
            opened |= world.grid().tile(door) == Tile::DoorOpen;
        }
        assert!(opened, "the bot opened the door");
        assert!(monsters(&world).iter().any(|m| m.hunting), "a hunter comes after it");
        assert_eq!(world.grid().tile(door), Tile::DoorClosed, "and the bot closed it behind it");
    }

    /// The bot closes the door it came through on a monster coming after
    /// it, not on one on its own side of the door.
    #[test]
    fn a_door_is_closed_on_a_monster_beyond_it() {
        let closes = |map: &str| {
            let level = Level::parse(map, "door.txt").unwrap();
            let world = World::new(&level, 1, Settings::default()).unwrap();
            let door = Cell::new(4, 1);
            let mut bot = weighed(&world);
            bot.last = Some(door);
            bot.door_to_close(&world, world.grid(), world.player().cell) == Some(door)
        };
        assert!(closes("name: behind\n#############\n#M..'@......#\n#############\n"), "a monster behind the door");
        assert!(!closes("name: ahead\n#############\n#...'@.....M#\n#############\n"), "a monster on the bot's side");
    }

    /// A door the bot opens to go through is not one it came out of: it
    /// had stepped back out of this doorway, so the cell behind it named
    /// the door, and with a monster beyond it closed the door the tick
    /// after opening it, opened it when the hold ran out, and so on (`big`,
    /// seed 11: 37 times in 1,500 ticks, each opening showing it to the
    /// monster).
    #[test]
    fn a_door_it_opens_is_not_one_it_came_out_of() {
        let map = "name: door\n####################\n#.@+........M......#\n####...............#\n####...............#\n####...............#\n####..............G#\n####################\n";
        let mut world = game(map);
        let door = Cell::new(3, 1);
        let mut bot = Evader { last: Some(door), ..Evader::default() };
        assert_eq!(bot.command(&world), Some(Command::Door), "it opens the door on its way");
        world.apply(Command::Door);
        world.tick();
        assert_eq!(world.grid().tile(door), Tile::DoorOpen);
        weigh(&mut bot, &world);
        let (grid, here) = (world.grid().clone(), world.player().cell);
        assert_eq!(bot.door_to_close(&world, &grid, here), None, "it does not shut the door it opened");
        bot.last = Some(door);
        assert_eq!(bot.door_to_close(&world, &grid, here), Some(door), "as it would one it came out of");
    }

    /// With more than [`SPARE_LIVES`] lives left, the cells monsters see
    /// and hear and the cells a hunter gets to first cost nothing, and
    /// the cells next to a monster still do; with fewer, all of them do.
    #[test]
    fn lives_to_spare_are_spent_on_time() {
        let level =
            Level::parse("name: row\n##############\n#@..........M#\n#...........G#\n##############\n", "row.txt");
        let level = level.unwrap();
        // The risks of a cell the monster sees and hears before it notices
        // the bot, and of one it gets to first once it hunts, and the risk
        // of the cell beside it.
        let risks = |lives: u32| {
            let rules = Rules { goal: crate::sim::Goal::Reach, lives: Some(lives) };
            let mut world = World::with_rules(&level, 1, Settings::default(), rules).unwrap();
            let node = |w: &World, c: Cell| w.grid().node(c) as usize;
            let bot = weighed(&world);
            let seen = node(&world, Cell::new(9, 1));
            let unaware = (bot.seen[seen], bot.sound[seen]);
            while monsters(&world).iter().all(|m| !m.hunting) {
                assert!(world.ticks() < 40, "the monster sees the player");
                world.tick();
            }
            let bot = weighed(&world);
            let at = monsters(&world)[0].cell;
            let (near, beside) = (Cell::new(at.x - 3, at.y), Cell::new(at.x - 1, at.y));
            (unaware, bot.reach[node(&world, near)], bot.reach[node(&world, beside)])
        };
        let ((seen, sound), reach, touch) = risks(SPARE_LIVES);
        assert!(seen > 0.0 && sound > 0.0, "on its last life the bot keeps out of sight and hearing");
        assert!(reach > 0.0 && touch > UNSAFE, "and out of a hunter's reach");
        let ((seen, sound), reach, touch) = risks(SPARE_LIVES + 1);
        assert_eq!((seen, sound, reach), (0.0, 0.0, 0.0), "with one to spare, it does not");
        assert_eq!(touch, UNSAFE, "but it keeps off the monster");
    }

    /// The bot's time to a cell pays that cell's cost and not its own:
    /// two plain steps and a wade into the pool are 1 + 1 + 5, where its
    /// field (the way back, paying for the bot's cell) holds 1 + 1 + 1.
    #[test]
    fn the_way_into_water_pays_for_the_water() {
        let level = Level::parse("name: pool\n##########\n#@..~~~~.#\n##########\n", "pool.txt").unwrap();
        let world = World::new(&level, 1, Settings::default()).unwrap();
        let (here, grid) = (world.player().cell, world.grid().clone());
        let mut bot = weighed(&world);
        let pool = grid.node(Cell::new(4, 1));
        assert_eq!(bot.walk(pool), None, "no hunter: the field reaches no farther than the bot");
        bot.walk_everywhere();
        assert_eq!(bot.mine.distance(pool), Some(3.0), "the field holds the way back");
        assert_eq!(bot.walk(pool), Some(7.0), "two steps and a wade");
        assert_eq!(bot.walk(grid.node(here)), Some(0.0), "standing still costs nothing");
        assert_eq!(bot.walk(grid.node(Cell::new(2, 1))), Some(1.0));
    }
}
