//! Doors that cycle by themselves (`doors: cycle N`) against every repath
//! policy of `RepathPolicy::ALL`: long seeded runs on `levels/gates.txt`
//! with a crowd of monsters and a budget tight enough that requests wait,
//! checked at every tick.
//!
//! The guarantee: a path planned on an older grid is never followed into a
//! wall. No creature ever stands in a closed door or a wall, and for every
//! monster whose plan is older than the grid, no leg of the route it still
//! follows (from where it stood as the tick began, through its remaining
//! waypoints) crosses a closed door; the `blocked` and `version` repaths
//! both happen. Without the cut of `Hunt::cut_at_closed_doors` every seed
//! fails within 2,000 ticks.

use crate::support::data;

use delve::grid::{Cell, Tile, supercover};
use delve::replay::feed::{self, LiveFeed};
use delve::replay::{Replay, Spawns, Start, Verdict, level_checksum, verify};
use delve::sim::{Bot, RepathPolicy, RepathReason, Rules, Settings, World, hex};
use delve::steer::cell_at;

/// Ticks per run: 30 door toggles at the level's 100-tick cycle.
const TICKS: u64 = 3_000;
/// Monsters spawned beside the level's six.
const MONSTERS: u32 = 150;
/// Expansions a tick: small enough that some requests wait their turn,
/// which is when a monster might follow a stale path.
const BUDGET: u32 = 1_500;
const SEEDS: [u64; 3] = [1, 2, 3];

/// What a run saw.
#[derive(Default)]
struct Seen {
    blocked: u64,
    version: u64,
    budget_waits: u64,
    /// Ticks at which some monster was following a plan older than the grid.
    stale: u64,
}

fn run(policy: RepathPolicy, seed: u64) -> Seen {
    let level = data::shipped_level("gates");
    assert!(level.doors.is_some(), "gates cycles its doors");
    let start = Start {
        level,
        seed,
        settings: Settings { repath: policy, budget: BUDGET, ..Settings::default() },
        spawns: Spawns { monster: MONSTERS, ..Spawns::default() },
        rules: Rules::SANDBOX,
        generator: None,
    };
    let mut world = start.world().unwrap();
    let mut bot = Bot::new(seed);
    let mut seen = Seen::default();
    let mut before = Vec::new();
    for _ in 0..TICKS {
        // Where each creature stands and which waypoint it heads for as the
        // tick begins: what its monster decides from.
        before.clear();
        before.extend(world.creatures().iter().map(|c| (c.cell(), c.hunt.as_ref().map_or(0, |h| h.follower.index))));
        feed::bot_tick(&mut world, &mut LiveFeed, &mut bot).unwrap();
        seen.stale += u64::from(check(&world, &before, policy, seed));
    }
    let total = world.stats().total;
    seen.blocked = total.repaths(RepathReason::Blocked);
    seen.version = total.repaths(RepathReason::Version);
    seen.budget_waits = total.budget_waits;
    seen
}

/// Checks one tick's world, given where each creature stood and which
/// waypoint it headed for as the tick began; whether some monster was
/// following a plan older than the grid.
fn check(world: &World, before: &[(Cell, usize)], policy: RepathPolicy, seed: u64) -> bool {
    let grid = world.grid();
    let at = format!("{policy} seed {seed} tick {}", world.ticks());
    assert!(grid.is_walkable(world.player().cell), "{at}: the player in a wall");
    let mut stale = false;
    for (i, c) in world.creatures().iter().enumerate() {
        assert!(grid.is_walkable(c.cell()), "{at}: creature {i} ({}) stands in {:?}", c.kind, grid.tile(c.cell()));
        let Some(hunt) = c.hunt.as_ref().filter(|h| h.version != grid.version()) else { continue };
        let Some(&(from, index)) = before.get(i) else { continue };
        let waypoints = &hunt.follower.waypoints;
        if waypoints.is_empty() {
            continue;
        }
        stale = true;
        // The route still to go: from where it stood, through every
        // waypoint from the one it headed for.
        let route =
            std::iter::once(from).chain(waypoints[index.min(waypoints.len() - 1)..].iter().map(|&w| cell_at(w)));
        let legs = route.clone().zip(route.skip(1));
        for (a, b) in legs {
            let across = supercover(a, b).find(|&cell| grid.tile(cell) == Tile::DoorClosed);
            assert_eq!(
                across,
                None,
                "{at}: monster {i} from {from} heads through {a} -> {b} across a closed door (plan of grid version {}, grid {})",
                hunt.version,
                grid.version()
            );
        }
    }
    stale
}

/// Every policy in [`RepathPolicy::ALL`] (so a new one is tested as soon
/// as it is listed) on one seed.
fn every_policy(seed: u64) {
    for &policy in RepathPolicy::ALL {
        let s = run(policy, seed);
        eprintln!(
            "seed {seed} {policy}: blocked {} version {} budget waits {} ticks with a stale plan {}",
            s.blocked, s.version, s.budget_waits, s.stale
        );
        assert!(s.blocked > 0, "{policy} seed {seed}: a door never closed on a path");
        assert!(s.version > 0, "{policy} seed {seed}: a door never changed off a path");
        assert!(s.stale > 0, "{policy} seed {seed}: no monster waited with a stale plan: nothing was tested");
    }
}

#[test]
fn seed_1() {
    every_policy(SEEDS[0]);
}

#[test]
fn seed_2() {
    every_policy(SEEDS[1]);
}

#[test]
fn seed_3() {
    every_policy(SEEDS[2]);
}

/// The golden session on the gates with its header's level text edited:
/// `doors: cycle 100` made `cycle 120`, with the checksum made to fit
/// (or not).
fn edited_gates_replay(fix_checksum: bool) -> String {
    let text = std::fs::read_to_string(data::manifest_dir().join("tests/replays/gates-doors.jsonl")).unwrap();
    let (header, rest) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(header).unwrap();
    let level = header["level_text"].as_str().unwrap().to_owned();
    assert!(level.contains("doors: cycle 100\n"), "the golden gates session cycles every 100 ticks");
    let level = level.replace("doors: cycle 100\n", "doors: cycle 120\n");
    if fix_checksum {
        header["level_checksum"] = hex(level_checksum(&level)).into();
    }
    header["level_text"] = level.into();
    format!("{header}\n{rest}")
}

#[test]
fn a_replay_of_cycling_doors_verifies_and_an_edited_cycle_does_not() {
    let golden = Replay::load(&data::manifest_dir().join("tests/replays/gates-doors.jsonl")).unwrap();
    assert!(golden.start().level.doors.is_some());
    assert!(verify(&golden).is_match());
    // The cycle changed and the checksum made to fit: the state hash holds
    // the cycle, so the very first checkpoint differs.
    let edited = Replay::parse(&edited_gates_replay(true), "edited.jsonl").unwrap();
    assert_eq!(edited.start().level.doors.map(|d| d.period), Some(120));
    let verdict = verify(&edited);
    assert!(matches!(verdict, Verdict::Mismatch { tick: 100, .. }), "{verdict:?}");
    // Without the checksum fitted, the level is refused as another one.
    let e = Replay::parse(&edited_gates_replay(false), "edited.jsonl").unwrap_err();
    assert!(e.to_string().starts_with("edited.jsonl:1: wrong level"), "{e}");
}
