//! Golden replays: whole sessions in `tests/replays/` that pin the game's
//! behaviour. `cargo test` re-runs each and compares every checkpoint, so
//! any change to what the world does (a search, a steering force, a spawn)
//! fails here at the first tick it shows.
//!
//! The sessions are scripted below and this file is also their generator.
//! When behaviour is meant to change, re-record them on purpose with
//!
//! ```sh
//! DELVE_BLESS=1 cargo test --test integration golden_replays::
//! ```
//!
//! and commit the new files with a message that says what changed and why
//! the new behaviour is the intended one.

use delve::r#gen::Recipe;
use delve::grid::{Cell, Neighbors};
use delve::level::Level;
use delve::replay::feed::{self, Feed, RecordFeed, ReplayFeed};
use delve::replay::{Recorder, Replay, Spawns, Start, Verdict, verify};
use delve::search::{Expansion, GridPlanner, Heuristic, Order, Planner, SearchSettings, TieBreak};
use delve::sim::{
    Aim, Bot, BotKind, Command, FlockPreset, Goal, Kind, Lost, Outcome, Packs, RepathPolicy, RepathReason, Rules,
    Setting, Settings, World,
};
use std::collections::HashSet;
use std::mem::discriminant;
use std::path::{Path, PathBuf};

/// Where the player goes next on a scripted route.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Walk to the cell, one step every [`PACE`] ticks.
    Goto(i32, i32),
    /// Open or close the door next to the player.
    Door,
    /// Stand still for this many ticks.
    Wait(u64),
    /// Give the command as soon as the player is ready (in turn mode, the
    /// world then runs until the act or errand is over).
    Act(Command),
}

/// One golden session.
struct Golden {
    file: &'static str,
    /// A level of `levels/`, or (when `descent` is given) the name the
    /// generated level has.
    level: &'static str,
    /// The seed and depth of a descent's generated level played instead
    /// of a file (`Recipe::descent`).
    descent: Option<(u64, u32)>,
    /// The monsters' settings from the first tick.
    settings: Settings,
    seed: u64,
    spawns: Spawns,
    rules: Rules,
    /// Who plays when the route is empty.
    bot: BotKind,
    /// How the session ends: running at `ticks`, or won or lost before.
    outcome: Outcome,
    ticks: u64,
    /// Setting changes and spawns, applied at their ticks before the
    /// player's command.
    changes: &'static [(u64, Command)],
    /// The player's route; empty: the bot of `delve sim` plays.
    route: &'static [Step],
    /// What the session must contain: distinct settings changed, doors
    /// toggled.
    settings_changed: usize,
    doors: usize,
    /// Played as turn mode plays: the world ticks only while the player's
    /// act lasts, and a command refused (an errand with a monster in
    /// view) is followed by a wait.
    turns: bool,
}

const fn set(tick: u64, setting: Setting) -> (u64, Command) {
    (tick, Command::Set(setting))
}

/// Monsters hunting the bot through the maze's corridors, with every search
/// knob turned at some point and two more monsters let in.
const MAZE: Golden = Golden {
    file: "maze-hunt.jsonl",
    level: "maze",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 11,
    spawns: Spawns { monster: 2, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules::SANDBOX,
    bot: BotKind::Random,
    outcome: Outcome::Running,
    ticks: 1500,
    changes: &[
        set(150, Setting::Planner(Planner::GREEDY)),
        set(300, Setting::Heuristic(Heuristic::Manhattan)),
        set(450, Setting::Tie(TieBreak::LowH)),
        set(600, Setting::Neighbors(Neighbors::Four)),
        set(750, Setting::Repath(RepathPolicy::EveryTick)),
        (800, Command::Spawn { kind: Kind::Monster, count: 2 }),
        set(900, Setting::Smoothing(false)),
        set(1050, Setting::Planner(Planner::WEIGHTED)),
        set(1050, Setting::Weight(3.0)),
        set(1200, Setting::Repath(RepathPolicy::Timer)),
        set(1200, Setting::Reopen(true)),
        set(1350, Setting::Neighbors(Neighbors::Eight)),
        set(1350, Setting::Tie(TieBreak::Cross)),
    ],
    route: &[],
    settings_changed: 8,
    doors: 0,
    turns: false,
};

/// An ordering over jump points (the `A` key's cycle has only A* over
/// them), as `--algo jps:dijkstra` gives it.
const fn jumps(order: Order, expansion: Expansion) -> Planner {
    match Planner::new(order, expansion) {
        Ok(p) => p,
        Err(_) => panic!("an ordering jump points honour"),
    }
}

/// The maze (one entry cost on every cell, so jump points run) hunted with
/// the orderings over jump points beside A*: Dijkstra over online jump
/// points, greedy over the JPS+ table, weighted over online ones; then on
/// 4 neighbours, where jump points cannot run and the world runs the same
/// ordering on every cell (the panel says which), and back.
const MAZE_JUMPS: Golden = Golden {
    file: "maze-jump-orderings.jsonl",
    seed: 12,
    ticks: 1300,
    changes: &[
        set(0, Setting::Repath(RepathPolicy::EveryTick)),
        set(0, Setting::Planner(jumps(Order::Dijkstra, Expansion::Jps))),
        set(300, Setting::Planner(jumps(Order::Greedy, Expansion::JpsPlus))),
        set(600, Setting::Planner(jumps(Order::Weighted, Expansion::Jps))),
        set(600, Setting::Weight(2.0)),
        set(900, Setting::Neighbors(Neighbors::Four)),
        (950, Command::Spawn { kind: Kind::Monster, count: 2 }),
    ],
    settings_changed: 4,
    ..MAZE
};

/// Flocks and prey in the open arena while monsters hunt the bot; more
/// boids and prey join halfway.
const ARENA: Golden = Golden {
    file: "arena-flocks.jsonl",
    level: "arena",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 5,
    spawns: Spawns { monster: 0, wanderer: 2, fleeing: 4, boid: 10 },
    rules: Rules::SANDBOX,
    bot: BotKind::Random,
    outcome: Outcome::Running,
    ticks: 1200,
    changes: &[
        set(100, Setting::Repath(RepathPolicy::Threshold)),
        set(250, Setting::Planner(Planner::DIJKSTRA)),
        set(400, Setting::Heuristic(Heuristic::Euclidean)),
        (500, Command::Spawn { kind: Kind::Boid, count: 6 }),
        (500, Command::Spawn { kind: Kind::Fleeing, count: 2 }),
        set(550, Setting::Smoothing(false)),
        set(700, Setting::Tie(TieBreak::Cross)),
        set(850, Setting::Planner(Planner::BFS)),
        set(1000, Setting::Planner(Planner::WEIGHTED)),
        set(1000, Setting::Weight(2.5)),
        set(1100, Setting::Neighbors(Neighbors::Four)),
    ],
    route: &[],
    settings_changed: 7,
    doors: 0,
    turns: false,
};

/// The arena's flocks under other flocking weights (strong alignment), as
/// `--flock strong-alignment` gives them: the header writes them, and the
/// session is another than under the default.
const ARENA_WEIGHTS: Golden = Golden {
    file: "arena-flock-weights.jsonl",
    settings: Settings { flock: FlockPreset::StrongAlignment.weights(), ..Settings::DEFAULT },
    changes: &[(500, Command::Spawn { kind: Kind::Boid, count: 6 })],
    settings_changed: 0,
    ..ARENA
};

/// The player walks through the keep, closing and opening doors on the
/// way (the gate, the halls' doors), unseals the north-east chamber and
/// ends on the throne, while monsters replan around the changing walls.
const KEEP: Golden = Golden {
    file: "keep-doors.jsonl",
    level: "keep",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 3,
    spawns: Spawns { monster: 1, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules::SANDBOX,
    bot: BotKind::Random,
    outcome: Outcome::Running,
    ticks: 900,
    changes: &[
        set(100, Setting::Planner(Planner::WEIGHTED)),
        set(100, Setting::Weight(2.0)),
        set(220, Setting::Heuristic(Heuristic::Chebyshev)),
        set(340, Setting::Neighbors(Neighbors::Four)),
        set(460, Setting::Repath(RepathPolicy::EveryTick)),
        set(580, Setting::Tie(TieBreak::Cross)),
        set(700, Setting::Smoothing(false)),
        set(800, Setting::Repath(RepathPolicy::Threshold)),
    ],
    route: &[
        // The gate, from outside: shut, then open again.
        Step::Goto(28, 26),
        Step::Door,
        Step::Wait(40),
        Step::Door,
        // The door north of the south hall.
        Step::Goto(28, 20),
        Step::Door,
        Step::Wait(30),
        Step::Door,
        // West into the south-west hall through a closed door, out to the
        // moat and back, shutting the outer door behind.
        Step::Goto(26, 22),
        Step::Door,
        Step::Goto(16, 20),
        Step::Door,
        Step::Goto(13, 20),
        Step::Goto(16, 20),
        Step::Door,
        // North into the north-west hall, shutting and opening its door.
        Step::Goto(20, 16),
        Step::Door,
        Step::Wait(20),
        Step::Door,
        Step::Goto(24, 10),
        Step::Wait(15),
        Step::Door,
        Step::Wait(20),
        Step::Door,
        // Across the throne room to unseal the north-east chamber.
        Step::Goto(31, 10),
        Step::Door,
        Step::Wait(60),
        Step::Goto(36, 12),
        Step::Goto(28, 8),
    ],
    settings_changed: 7,
    doors: 12,
    turns: false,
};

/// The keep's walk among its doors with monsters planning on the
/// navigation mesh from the first tick, then on the corner waypoint graph:
/// the mesh repaired and the graph rebuilt at every door.
const KEEP_NAVMESH: Golden = Golden {
    file: "keep-navmesh.jsonl",
    level: "keep",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 4,
    spawns: Spawns { monster: 3, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules::SANDBOX,
    bot: BotKind::Random,
    outcome: Outcome::Running,
    ticks: 900,
    changes: &[
        set(0, Setting::Planner(Planner::NAVMESH)),
        set(460, Setting::Repath(RepathPolicy::EveryTick)),
        set(600, Setting::Planner(Planner::WAYPOINTS)),
    ],
    route: KEEP.route,
    settings_changed: 2,
    doors: 12,
    turns: false,
};

/// The keep's hunters on the navigation mesh searched with w = 1 (plain
/// A* over the portal points, not the default weighted 1.3) from the
/// first tick: the navmesh's weight is state, recorded and hashed.
const KEEP_NAVMESH_A_STAR: Golden = Golden {
    file: "keep-navmesh-w1.jsonl",
    settings: Settings {
        search: SearchSettings { planner: Planner::NAVMESH, navmesh_weight: 1.0, ..SearchSettings::DEFAULT },
        ..Settings::DEFAULT
    },
    changes: &[],
    settings_changed: 0,
    ..KEEP_NAVMESH
};

/// The goal bot crosses the default level to the treasury under the rules
/// of a game, caught on the way but with a life to spare.
const DUNGEON_WON: Golden = Golden {
    file: "dungeon-won.jsonl",
    level: "dungeon",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 1,
    spawns: Spawns { monster: 0, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules { goal: Goal::Reach, lives: Some(3) },
    bot: BotKind::Goal,
    outcome: Outcome::Won,
    ticks: 2000,
    changes: &[],
    route: &[],
    settings_changed: 0,
    doors: 0,
    turns: false,
};

/// The random bot in the open arena with its own monsters and two lives:
/// caught twice, lost (with six more, as before the hunters aimed ahead,
/// it was lost after 30 steps).
const ARENA_LOST: Golden = Golden {
    file: "arena-lost.jsonl",
    level: "arena",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 5,
    spawns: Spawns { monster: 0, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules { goal: Goal::None, lives: Some(2) },
    bot: BotKind::Random,
    outcome: Outcome::Lost,
    ticks: 2000,
    changes: &[set(100, Setting::Repath(RepathPolicy::EveryTick))],
    route: &[],
    settings_changed: 1,
    doors: 0,
    turns: false,
};

/// The random bot among a crowd of monsters in the gates, whose doors all
/// toggle every 5 s by themselves (`doors: cycle 100`), under the default
/// repath policy: paths go stale under the monsters as the doorways flip.
const GATES: Golden = Golden {
    file: "gates-doors.jsonl",
    level: "gates",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 4,
    spawns: Spawns { monster: 24, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules::SANDBOX,
    bot: BotKind::Random,
    outcome: Outcome::Running,
    ticks: 1500,
    changes: &[],
    route: &[],
    settings_changed: 0,
    doors: 0,
    turns: false,
};

/// Exploring the gates (`o`, then a wait, six times) among the level's
/// own monsters: a monster seen and then out of view beside the nearest
/// frontier sends the exploration to a farther one, and the log says so.
const GATES_WARY: Golden = Golden {
    file: "gates-explore-wary.jsonl",
    seed: 6,
    spawns: Spawns { monster: 0, wanderer: 0, fleeing: 0, boid: 0 },
    route: &[
        Step::Act(Command::Explore),
        Step::Wait(40),
        Step::Act(Command::Explore),
        Step::Wait(40),
        Step::Act(Command::Explore),
        Step::Wait(40),
        Step::Act(Command::Explore),
        Step::Wait(40),
        Step::Act(Command::Explore),
        Step::Wait(40),
        Step::Act(Command::Explore),
        Step::Wait(40),
    ],
    ..GATES
};

/// The gates under `incremental`: each monster's MT-D* Lite search
/// repaired as the doorways flip and the player moves.
const GATES_INCREMENTAL: Golden = Golden {
    file: "gates-incremental.jsonl",
    changes: &[set(0, Setting::Repath(RepathPolicy::Incremental))],
    settings_changed: 1,
    ..GATES
};

/// The gates under `flow-field`: one shared field, recomputed as the
/// player moves and repaired as the doorways flip.
const GATES_FLOW: Golden = Golden {
    file: "gates-flow-field.jsonl",
    changes: &[set(0, Setting::Repath(RepathPolicy::FlowField))],
    settings_changed: 1,
    ..GATES
};

/// The goal bot plays depth 4 of the descent of seed 5 (rooms, 72x36,
/// cycling doors; caught three times by the guards on its walk to `G`,
/// lost; before the guards it was caught twice and won) under the game's
/// rules, as the title screen's descent plays it: the header names the
/// generator, and verifying makes the level again from it.
const DESCENT: Golden = Golden {
    file: "descent-5-depth-4.jsonl",
    level: "rooms 5 (depth 4)",
    descent: Some((5, 4)),
    settings: Settings::DEFAULT,
    seed: 5,
    spawns: Spawns { monster: 0, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules { goal: Goal::Reach, lives: Some(3) },
    bot: BotKind::Goal,
    outcome: Outcome::Lost,
    ticks: 3000,
    changes: &[],
    route: &[],
    settings_changed: 0,
    doors: 0,
    turns: false,
};

/// A turn-mode game of the default level, the world ticking only while the
/// player acts: an exploration (to the entrance hall's door), then a
/// travel to the goal, stopped
/// when a monster comes into view in the great hall; travels and a run
/// refused while it is in view (the player waits instead), caught three
/// times, lost.
const DUNGEON_TURNS: Golden = Golden {
    file: "dungeon-turns.jsonl",
    level: "dungeon",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 2,
    spawns: Spawns { monster: 0, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules { goal: Goal::Reach, lives: Some(3) },
    bot: BotKind::Random,
    outcome: Outcome::Lost,
    ticks: 3000,
    changes: &[],
    route: &[
        Step::Act(Command::Explore),
        Step::Act(Command::Wait),
        Step::Act(Command::Travel { x: 66, y: 27 }),
        Step::Act(Command::Wait),
        Step::Act(Command::Travel { x: 66, y: 27 }),
        Step::Act(Command::Run { dx: 0, dy: 1 }),
        Step::Act(Command::Travel { x: 66, y: 27 }),
        Step::Act(Command::Travel { x: 66, y: 27 }),
        Step::Act(Command::Travel { x: 66, y: 27 }),
        Step::Act(Command::Travel { x: 66, y: 27 }),
    ],
    settings_changed: 0,
    doors: 0,
    turns: true,
};

/// The hunters' tactics turned off one by one while monsters hunt the
/// random bot through the maze: aiming along the heading, then at the
/// player's cell; packs hunting together; a lost monster lingering at the
/// last-known cell instead of sweeping.
const MAZE_TACTICS: Golden = Golden {
    file: "maze-tactics.jsonl",
    level: "maze",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 12,
    spawns: Spawns { monster: 3, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules::SANDBOX,
    bot: BotKind::Random,
    outcome: Outcome::Running,
    ticks: 1600,
    changes: &[
        set(300, Setting::Aim(Aim::Heading)),
        set(600, Setting::Packs(Packs::Together)),
        set(900, Setting::Lost(Lost::Linger)),
        set(1200, Setting::Aim(Aim::Player)),
    ],
    route: &[],
    settings_changed: 3,
    doors: 0,
    turns: false,
};

/// The evading bot on the default level under the game's rules (two
/// lives): on the first (one to spare) it walks in sight and is caught;
/// then, on its last, it keeps out of sight, waits for patrols, and shuts
/// doors behind it (seed 20: of seeds 1..20 the one it wins so; the other
/// 19 it wins on its first life).
const DUNGEON_EVADE: Golden = Golden {
    file: "dungeon-evade.jsonl",
    level: "dungeon",
    descent: None,
    settings: Settings::DEFAULT,
    seed: 20,
    spawns: Spawns { monster: 0, wanderer: 0, fleeing: 0, boid: 0 },
    rules: Rules { goal: Goal::Reach, lives: Some(2) },
    bot: BotKind::Evade,
    outcome: Outcome::Won,
    ticks: 6000,
    changes: &[],
    route: &[],
    settings_changed: 0,
    doors: 6,
    turns: false,
};

/// Ticks between the scripted player's steps at least, as for the bot.
const PACE: u64 = 5;

/// Walks a route of [`Step`]s.
struct Walker {
    route: &'static [Step],
    next: usize,
    rest_until: u64,
    planner: GridPlanner,
}

impl Walker {
    fn command(&mut self, world: &World) -> Option<Command> {
        let tick = world.ticks();
        if tick < self.rest_until || !world.ready() {
            return None;
        }
        let here = world.player().cell;
        let step = *self.route.get(self.next)?;
        match step {
            Step::Goto(x, y) if here == Cell::new(x, y) => {
                self.next += 1;
                None
            }
            Step::Goto(x, y) => {
                let to = Cell::new(x, y);
                let found = self.planner.plan(world.grid(), here, to, &SearchSettings::default()).map(|o| o.found);
                assert_eq!(found, Ok(true), "the route has no way from {here} to {to} at tick {tick}");
                let c = self.planner.path()[1];
                self.rest_until = tick + PACE;
                Some(Command::Move { dx: (c.x - here.x) as i8, dy: (c.y - here.y) as i8 })
            }
            Step::Door => {
                self.next += 1;
                Some(Command::Door)
            }
            Step::Wait(ticks) => {
                self.next += 1;
                self.rest_until = tick + ticks;
                None
            }
            Step::Act(command) => {
                self.next += 1;
                Some(command)
            }
        }
    }
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn path(golden: &Golden) -> PathBuf {
    manifest().join("tests/replays").join(golden.file)
}

fn start(golden: &Golden) -> Start {
    let generator = golden.descent.map(|(seed, depth)| Recipe::descent(seed, depth).unwrap());
    let level = match generator {
        Some(recipe) => recipe.generate(),
        None => Level::load(&manifest().join("levels").join(format!("{}.txt", golden.level)))
            .unwrap_or_else(|e| panic!("{e}")),
    };
    assert_eq!(level.name, golden.level);
    Start { level, seed: golden.seed, settings: golden.settings, spawns: golden.spawns, rules: golden.rules, generator }
}

/// Plays the scripted session and records it over the golden file.
fn bless(golden: &Golden) {
    let start = start(golden);
    let mut world = start.world().unwrap();
    let recorder = Recorder::create(&path(golden), &start, true).unwrap_or_else(|e| panic!("{e}"));
    let mut recording = RecordFeed::new(recorder);
    let mut bot = Bot::of(golden.bot, golden.seed);
    let mut walker = Walker { route: golden.route, next: 0, rest_until: 0, planner: GridPlanner::new() };
    for _ in 0..golden.ticks {
        if world.outcome().is_over() {
            break;
        }
        let tick = world.ticks();
        let changes = golden.changes.iter().filter(|&&(t, _)| t == tick).map(|&(_, c)| c);
        let player = if golden.route.is_empty() { bot.command(&world) } else { walker.command(&world) };
        for c in changes.chain(player) {
            let version = world.grid().version();
            feed::apply(&mut world, &mut recording, c).unwrap();
            if c == Command::Door {
                assert_ne!(world.grid().version(), version, "no door toggled at tick {tick}");
            }
        }
        if golden.turns && world.ready() {
            feed::apply(&mut world, &mut recording, Command::Wait).unwrap();
        }
        feed::tick(&mut world, &mut recording).unwrap();
    }
    assert_eq!(walker.next, golden.route.len(), "the route did not end within {} ticks", golden.ticks);
    recording.finish(&world).unwrap();
}

/// Re-records first when `DELVE_BLESS=1`; then verifies the golden file
/// and checks it still exercises what it is meant to.
fn check(golden: &Golden) {
    if std::env::var_os("DELVE_BLESS").is_some_and(|v| v == "1") {
        bless(golden);
    }
    let replay = Replay::load(&path(golden)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replay.start(), &start(golden), "{}: made from another script or level", golden.file);
    let verdict = verify(&replay);
    assert!(matches!(verdict, Verdict::Match { complete: true, .. }), "{}: {verdict}", golden.file);

    let end = replay.end().map_or(0, |e| e.tick);
    let world = replayed(&replay);
    assert_eq!(world.outcome(), golden.outcome, "{}", golden.file);
    if golden.outcome == Outcome::Running {
        assert_eq!(end, golden.ticks);
    } else {
        assert_eq!(world.ended_at(), Some(end), "{}: the recording ends where the session did", golden.file);
        assert!(end < golden.ticks, "{}", golden.file);
    }
    let commands: Vec<Command> = (0..=end).flat_map(|t| replay.commands_due(t).iter().copied()).collect();
    let settings: HashSet<_> = commands
        .iter()
        .filter_map(|c| match c {
            Command::Set(s) => Some(discriminant(s)),
            _ => None,
        })
        .collect();
    assert!(settings.len() >= golden.settings_changed, "{}: {} settings changed", golden.file, settings.len());
    let doors = commands.iter().filter(|&&c| c == Command::Door).count();
    assert_eq!(doors, golden.doors, "{}", golden.file);
    if golden.turns {
        // Every kind of act and errand, each taken at least once.
        let kinds = [Command::Wait, Command::Explore, Command::Run { dx: 1, dy: 0 }, Command::Travel { x: 0, y: 0 }];
        for kind in kinds {
            assert!(commands.iter().any(|c| discriminant(c) == discriminant(&kind)), "{}: no {kind:?}", golden.file);
        }
    } else {
        // Steps, or explorations (each walks many).
        let steps = commands.iter().filter(|c| matches!(c, Command::Move { .. })).count();
        let explores = commands.iter().filter(|&&c| c == Command::Explore).count();
        assert!(steps >= 50 || explores >= 5, "{}: the player took only {steps} steps", golden.file);
    }
}

/// The final world of a replay.
fn replayed(replay: &Replay) -> World {
    let mut world = replay.start().world().unwrap();
    let mut feed = ReplayFeed::new(replay);
    let end = replay.end().map_or(0, |e| e.tick);
    while world.ticks() < end && !world.outcome().is_over() {
        feed::tick(&mut world, &mut feed).unwrap();
    }
    world
}

#[test]
fn dungeon_won() {
    check(&DUNGEON_WON);
}

#[test]
fn arena_lost() {
    check(&ARENA_LOST);
}

#[test]
fn maze_hunt() {
    check(&MAZE);
}

#[test]
fn maze_jump_orderings() {
    check(&MAZE_JUMPS);
    let world = replayed(&Replay::load(&path(&MAZE_JUMPS)).unwrap_or_else(|e| panic!("{e}")));
    // On 4 neighbours the weighted jump point search ran as weighted A*.
    let last = world.stats().last_search.clone().expect("monsters searched after the change");
    assert_eq!(last.fallback, Some(Planner::WEIGHTED));
}

#[test]
fn arena_flocks() {
    check(&ARENA);
}

#[test]
fn arena_flock_weights() {
    check(&ARENA_WEIGHTS);
    let replay = Replay::load(&path(&ARENA_WEIGHTS)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replay.start().settings.flock, FlockPreset::StrongAlignment.weights());
    let header = std::fs::read_to_string(path(&ARENA_WEIGHTS)).unwrap();
    let header = header.lines().next().unwrap();
    assert!(header.contains(r#""flock":{"separation":6.0,"alignment":4.0,"cohesion":0.3}"#), "{header}");
    // The same session under the default weights is another one.
    let mut default = start(&ARENA_WEIGHTS);
    default.settings.flock = delve::sim::FLOCK_WEIGHTS;
    let hash = |s: &Start| s.world().unwrap().hash();
    assert_ne!(hash(replay.start()), hash(&default), "the weights are hashed");
    // Its commands played under the default weights: the boids end
    // elsewhere.
    let boids =
        |w: &World| w.creatures().iter().filter(|c| c.kind == Kind::Boid).map(|c| c.body.pos).collect::<Vec<_>>();
    let mut world = default.world().unwrap();
    while world.ticks() < replay.end().map_or(0, |e| e.tick) {
        for &c in replay.commands_due(world.ticks()) {
            world.apply(c);
        }
        world.tick();
    }
    assert_ne!(boids(&world), boids(&replayed(&replay)), "the weights move the boids");
}

#[test]
fn keep_doors() {
    check(&KEEP);
}

/// Checks a gates recording and returns its final world: its doors cycled
/// by themselves all along.
fn gates(golden: &Golden) -> World {
    check(golden);
    let replay = Replay::load(&path(golden)).unwrap_or_else(|e| panic!("{e}"));
    let world = replayed(&replay);
    // 15 toggles of the level's 34 doors, each change a new grid version
    // (fewer when a door still waiting for its doorway at a toggle stays
    // open, two changes skipped).
    let version = world.grid().version();
    assert!((14 * 34..=15 * 34).contains(&version), "{}: grid version {version}", golden.file);
    world
}

#[test]
fn gates_doors_cycle() {
    let total = gates(&GATES).stats().total;
    for reason in [RepathReason::Blocked, RepathReason::Version] {
        assert!(total.repaths(reason) > 0, "no {reason} repath");
    }
}

/// Explore kept clear of a monster the player remembered: the log of the
/// replayed session says so, for a frontier passed over near where the
/// monster was last seen.
#[test]
fn gates_explore_wary() {
    check(&GATES_WARY);
    let world = replayed(&Replay::load(&path(&GATES_WARY)).unwrap_or_else(|e| panic!("{e}")));
    let wary: Vec<_> = world.events().iter().filter(|e| matches!(e.event, delve::sim::Event::Wary { .. })).collect();
    assert!(!wary.is_empty(), "explore never kept clear of a remembered monster");
    for e in wary {
        let delve::sim::Event::Wary { seen, skipped, to, .. } = e.event else { unreachable!() };
        let d2 = |a: Cell, b: Cell| (a.x - b.x).pow(2) + (a.y - b.y).pow(2);
        assert_ne!(skipped, to);
        assert!(d2(seen, to) > d2(seen, skipped), "tick {}: {to} is farther from {seen} than {skipped}", e.tick);
    }
}

#[test]
fn gates_incremental() {
    let total = gates(&GATES_INCREMENTAL).stats().total;
    assert!(total.cells_updated > 0, "no repair updated a cell");
    assert!(total.repaths(RepathReason::Moved) > 0, "no repair for a move");
    assert!(total.repaths(RepathReason::Version) + total.repaths(RepathReason::Blocked) > 0, "no repair for a door");
}

#[test]
fn gates_flow_field() {
    let world = gates(&GATES_FLOW);
    let total = world.stats().total;
    assert!(total.cells_updated > 0, "no door change repaired the field");
    assert!(world.flow_field().is_some(), "no field");
}

/// A turn-mode session records and replays like any other; the script
/// came from turn mode's rule that the world ticks only while the player
/// acts, so no recorded tick has the player idle before it.
#[test]
fn dungeon_turns() {
    check(&DUNGEON_TURNS);
    let replay = Replay::load(&path(&DUNGEON_TURNS)).unwrap_or_else(|e| panic!("{e}"));
    let mut world = replay.start().world().unwrap();
    while !world.outcome().is_over() {
        for &c in replay.commands_due(world.ticks()) {
            world.apply(c);
        }
        assert!(!world.ready(), "the player is idle at tick {}: turn mode would not tick", world.ticks());
        world.tick();
    }
    assert_eq!(world.outcome(), Outcome::Lost);
}

#[test]
fn maze_tactics() {
    check(&MAZE_TACTICS);
}

#[test]
fn dungeon_evade() {
    check(&DUNGEON_EVADE);
}

#[test]
fn keep_navmesh() {
    check(&KEEP_NAVMESH);
}

#[test]
fn keep_navmesh_at_weight_one() {
    check(&KEEP_NAVMESH_A_STAR);
    // The same session at the default weight is another one.
    let w1 = Replay::load(&path(&KEEP_NAVMESH_A_STAR)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(w1.start().settings.search.navmesh_weight, 1.0);
    let mut default = start(&KEEP_NAVMESH_A_STAR);
    default.settings.search.navmesh_weight = delve::search::NAVMESH_WEIGHT;
    let hash = |s: &Start| s.world().unwrap().hash();
    assert_ne!(hash(w1.start()), hash(&default), "the weight is hashed");
}

#[test]
fn descent_depth() {
    check(&DESCENT);
    let replay = Replay::load(&path(&DESCENT)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replay.start().generator, Some(Recipe::descent(5, 4).unwrap()));
    assert!(replay.start().level.source.contains("\ndoors: cycle "), "depth 4 of rooms cycles its doors");
}
