//! The game inside the world (issue 12): the player's pace and runs,
//! perception and the monsters' minds, lives, goals and the end of a
//! session.

use delve::grid::Cell;
use delve::level::Level;
use delve::replay::feed::{self, Feed, RecordFeed};
use delve::replay::{Recorder, Replay, ReplayError, Spawns, Start, Verdict, verify};
use delve::sim::{
    Command, Event, Goal, MAX_GRACE_TICKS, MonsterState, Outcome, Rules, SUBTICKS, Sense, Settings, World, step_time,
};
use proptest::prelude::*;

fn level(text: &str) -> Level {
    Level::parse(text, "test").unwrap_or_else(|e| panic!("{e}"))
}

fn world(text: &str, rules: Rules) -> World {
    World::with_rules(&level(text), 1, Settings::default(), rules).unwrap()
}

/// Runs `n` ticks.
fn ticks(w: &mut World, n: u32) {
    for _ in 0..n {
        w.tick();
    }
}

fn sandbox(text: &str) -> World {
    world(text, Rules::SANDBOX)
}

/// An open room, walls round it.
const ROOM: &str = "\
############
#..........#
#..........#
#.....@....#
#..........#
#..........#
############
";

/// What the player does between two ticks.
#[derive(Clone, Copy, Debug)]
enum Act {
    Key(Command),
    Ticks(u8),
}

fn act() -> impl Strategy<Value = Act> {
    let dir = || (-1i8..=1, -1i8..=1);
    prop_oneof![
        6 => dir().prop_map(|(dx, dy)| Act::Key(Command::Move { dx, dy })),
        1 => dir().prop_map(|(dx, dy)| Act::Key(Command::Run { dx, dy })),
        1 => Just(Act::Key(Command::Stop)),
        4 => (0u8..8).prop_map(Act::Ticks),
    ]
}

proptest! {
    /// However keys and ticks interleave, the player never steps sooner
    /// than its pace allows: between any two steps lie at least the step
    /// times of the steps taken, to within the tick the last one waits for
    /// (steps happen on whole ticks; diagonal step times are not whole).
    #[test]
    fn steps_never_come_closer_than_the_step_time(acts in prop::collection::vec(act(), 1..200)) {
        let mut w = sandbox(ROOM);
        let mut steps: Vec<(u64, u64)> = Vec::new(); // (tick, step time)
        let tick = |w: &mut World, steps: &mut Vec<(u64, u64)>| {
            let before = w.player().cell;
            w.tick();
            if w.player().cell != before {
                let (dx, dy, at) = w.player().last_step.unwrap();
                prop_assert_eq!(at, w.ticks() - 1);
                steps.push((at, step_time(dx, dy)));
            }
            Ok(())
        };
        for a in acts {
            match a {
                Act::Key(c) => w.apply(c),
                Act::Ticks(n) => for _ in 0..n { tick(&mut w, &mut steps)?; },
            }
        }
        for i in 0..steps.len() {
            let mut due = 0;
            for j in i + 1..steps.len() {
                due += steps[j - 1].1;
                let gap = steps[j].0 - steps[i].0;
                prop_assert!(gap * SUBTICKS >= due - due % SUBTICKS, "steps {i} and {j}: {gap} ticks for {due} subticks");
                prop_assert!(gap >= 4);
            }
        }
    }
}

/// Issue 25: "ten `l` presses in a burst move one cell". One act waits for
/// the pace and one is typed ahead of it; a newer one replaces the one
/// typed ahead.
#[test]
fn one_move_waits_and_one_is_typed_ahead() {
    let mut w = sandbox(ROOM);
    let start = w.player().cell;
    w.apply(Command::Move { dx: 1, dy: 0 });
    assert_eq!(w.player().cell, start, "a move waits for the tick");
    w.tick();
    assert_eq!(w.player().cell, Cell::new(start.x + 1, start.y));
    // A burst of ten presses mid-step: the first waits, the last typed
    // ahead replaced the eight between.
    for _ in 0..9 {
        w.apply(Command::Move { dx: 1, dy: 0 });
    }
    w.apply(Command::Move { dx: 0, dy: 1 });
    use delve::sim::Act::Step;
    assert_eq!(w.queued(), [Some(Step(1, 0)), Some(Step(0, 1))]);
    ticks(&mut w, 3);
    assert_eq!(w.player().cell, Cell::new(start.x + 1, start.y), "the pace holds the next step");
    w.tick();
    assert_eq!(w.player().cell, Cell::new(start.x + 2, start.y), "the move that waited");
    ticks(&mut w, 4);
    assert_eq!(w.player().cell, Cell::new(start.x + 2, start.y + 1), "then the one typed ahead");
    ticks(&mut w, 10);
    assert_eq!(w.player().cell, Cell::new(start.x + 2, start.y + 1), "and no more");
    // Stop drops both.
    w.apply(Command::Move { dx: -1, dy: 0 });
    w.apply(Command::Move { dx: -1, dy: 0 });
    w.apply(Command::Stop);
    assert_eq!(w.queued(), [None, None]);
}

/// A corridor with a side passage at x = 6 and a door beside x = 10.
const CORRIDOR: &str = "\
##############
######.###'###
#@...........#
##############
";

#[test]
fn a_run_stops_at_a_junction_a_door_beside_and_a_wall() {
    let mut w = sandbox(CORRIDOR);
    w.apply(Command::Run { dx: 1, dy: 0 });
    ticks(&mut w, 100);
    assert_eq!(w.player().cell, Cell::new(6, 2), "stops where the side passage opens");
    assert_eq!(w.errand(), None);
    w.apply(Command::Run { dx: 1, dy: 0 });
    ticks(&mut w, 100);
    assert_eq!(w.player().cell, Cell::new(10, 2), "stops beside the door");
    w.apply(Command::Run { dx: 1, dy: 0 });
    ticks(&mut w, 100);
    assert_eq!(w.player().cell, Cell::new(12, 2), "stops at the wall");
}

/// A hall with a wall that hides a monster from the player's corner.
pub const HALL: &str = "\
#####################
#@..................#
#...................#
#.........#.........#
#.........#M........#
#.........#.........#
#####################
";

#[test]
fn a_run_stops_on_any_other_command_and_when_a_monster_comes_into_view() {
    let mut w = sandbox(CORRIDOR);
    w.apply(Command::Run { dx: 1, dy: 0 });
    ticks(&mut w, 6);
    w.apply(Command::Door);
    let at = w.player().cell;
    ticks(&mut w, 20);
    assert_eq!(w.player().cell, at, "the door command ended the run");
    // Along the top of the hall: the run ends when the monster comes into
    // view, short of the far wall.
    let mut w = sandbox(HALL);
    w.apply(Command::Run { dx: 1, dy: 0 });
    ticks(&mut w, 200);
    let p = w.player().cell;
    assert!(p.x < 19, "ran on to {p} with a monster in view");
    let m = w.creatures()[0].cell();
    assert!(delve::grid::line_of_sight(w.grid(), p, m), "stopped at {p} with the monster at {m} out of view");
}

/// A monster (top left) and a player (right), a wall between them.
const WALLED: &str = "\
#############
#M....#.....#
#.....#....@#
#############
";

fn states(w: &World) -> Vec<MonsterState> {
    (0..w.creatures().len()).filter_map(|i| w.awareness(i)).map(|a| a.state).collect()
}

#[test]
fn an_idle_player_behind_a_wall_is_never_hunted() {
    let mut w = sandbox(WALLED);
    for _ in 0..600 {
        w.tick();
        assert_eq!(states(&w), [MonsterState::Idle], "tick {}", w.ticks());
    }
    assert_eq!(w.events_total(), 0);
    assert_eq!(w.stats().total.searches, 0);
}

#[test]
fn a_player_in_sight_is_hunted() {
    // The same room without the wall: the monster sees the player.
    let mut w = sandbox(&WALLED.replace("....#.....", "..........").replace(".....#....@", "..........@"));
    w.tick();
    assert_eq!(states(&w), [MonsterState::Hunting]);
    assert_eq!(w.events()[0].event, Event::Noticed { monster: 1, sense: Sense::Sight });
    let mut caught = false;
    for _ in 0..200 {
        w.tick();
        caught |= w.stats().total.catches > 0;
    }
    assert!(caught, "the monster reached the player");
}

/// A long hall with the player at its east end, above a shaft that turns
/// west at the bottom: out of the monster's sight and beyond its hearing.
const SHAFT: &str = "\
#########################
#M.....................@#
#######################.#
#######################.#
#######################.#
#######################.#
#######################.#
#######################.#
#######################.#
#######################.#
#######################.#
#############...........#
#########################
";

#[test]
fn a_monster_that_loses_sight_walks_to_the_last_known_cell_then_gives_up() {
    let mut w = sandbox(SHAFT);
    ticks(&mut w, 10);
    assert_eq!(states(&w), [MonsterState::Hunting]);
    // Down the shaft and west along the bottom, then stand still.
    let route = [(0, 1); 10].into_iter().chain([(-1, 0); 10]);
    for (dx, dy) in route {
        w.apply(Command::Move { dx, dy });
        ticks(&mut w, 4);
    }
    let lost = w.events().iter().find_map(|s| match s.event {
        Event::LostContact { monster: 1, at } => Some(at),
        _ => None,
    });
    let at = lost.expect("the monster lost the player");
    assert!(at.y < 11, "lost in the shaft, at {at}");
    let mut reached = false;
    let mut gave_up = false;
    for _ in 0..600 {
        w.tick();
        let m = &w.creatures()[0];
        reached |= m.cell() == at;
        gave_up |= w.events().iter().any(|s| s.event == Event::GaveUp { monster: 1 });
        if gave_up {
            break;
        }
    }
    assert!(reached, "the monster walked to {at}");
    assert!(gave_up, "and gave up the search");
    assert_eq!(states(&w), [MonsterState::Returning]);
    assert_eq!(w.player().cell, Cell::new(13, 11), "the player was not found");
}

/// A monster next to the player in a closed box.
const CAGE: &str = "#####\n#@.M#\n#####\n";

#[test]
fn a_catch_costs_a_life_and_the_last_one_loses() {
    let mut w = world(CAGE, Rules { goal: Goal::None, lives: Some(2) });
    let mut t = 0;
    while w.lives() == Some(2) {
        w.tick();
        t += 1;
        assert!(t < 100, "never caught");
    }
    // The player cannot move away in the cage: the longest grace.
    assert_eq!(w.grace_ticks_left(), MAX_GRACE_TICKS);
    let caught = w.events().iter().find(|s| matches!(s.event, Event::Caught { .. })).unwrap();
    assert_eq!(caught.event, Event::Caught { monster: 1, lives_left: Some(1) });
    assert_eq!(w.outcome(), Outcome::Running);
    // Grace: the monster lands back at once (the cage hides nothing) but
    // cannot catch a player that has not moved away for 10 s.
    for _ in 0..MAX_GRACE_TICKS - 1 {
        w.tick();
        assert_eq!(w.lives(), Some(1));
    }
    while w.outcome() == Outcome::Running {
        w.tick();
    }
    assert_eq!(w.outcome(), Outcome::Lost);
    assert_eq!(w.lives(), Some(0));
    assert_eq!(w.ended_at(), Some(w.ticks()));
    assert_eq!(w.events().last().unwrap().event, Event::Lost);
    let (hash, ticks) = (w.hash(), w.ticks());
    w.apply(Command::Move { dx: 1, dy: 0 });
    w.tick();
    assert_eq!((w.hash(), w.ticks()), (hash, ticks), "a lost world stops");
}

#[test]
fn a_sandbox_counts_catches_and_never_ends() {
    let mut w = sandbox(CAGE);
    ticks(&mut w, 400);
    assert!(w.stats().total.catches >= 2);
    assert_eq!((w.outcome(), w.lives()), (Outcome::Running, None));
    assert!(w.events().iter().any(|s| s.event == Event::Caught { monster: 1, lives_left: None }));
}

#[test]
fn standing_on_the_goal_wins_and_surviving_wins() {
    let text = "#####\n#@.G#\n#####\n";
    let mut w = world(text, Rules::game(&level(text)));
    w.apply(Command::Move { dx: 1, dy: 0 });
    w.tick();
    w.apply(Command::Move { dx: 1, dy: 0 });
    ticks(&mut w, 4);
    assert_eq!(w.outcome(), Outcome::Won);
    assert_eq!(w.ended_at(), Some(5));
    let tail: Vec<_> = w.events().iter().map(|s| s.event.clone()).collect();
    assert_eq!(tail, [Event::GoalReached, Event::Won]);
    let mut w = world(ROOM, Rules { goal: Goal::Survive { ticks: 30 }, lives: Some(1) });
    ticks(&mut w, 29);
    assert_eq!(w.outcome(), Outcome::Running);
    w.tick();
    assert_eq!((w.outcome(), w.ended_at()), (Outcome::Won, Some(30)));
}

#[test]
fn doors_and_settings_are_logged() {
    let mut w = sandbox("#####\n#@+.#\n#####\n");
    w.apply(Command::Door);
    w.apply(Command::Door);
    w.apply(Command::Set(delve::sim::Setting::Smoothing(false)));
    let mut away = sandbox(ROOM);
    away.apply(Command::Door);
    let events: Vec<_> = w.events().iter().map(|s| s.event.clone()).collect();
    assert_eq!(
        events,
        [
            Event::DoorOpened(Cell::new(2, 1)),
            Event::DoorClosed(Cell::new(2, 1)),
            Event::SettingChanged(delve::sim::Setting::Smoothing(false)),
        ]
    );
    assert_eq!(away.events()[0].event, Event::NoDoor);
}

/// A lost session recorded by a loop that goes on ticking after the end
/// replays and verifies; a file claiming an end past the session's is
/// verified against the world the session ended as, instead of waiting
/// for a clock that no longer runs.
#[test]
fn a_recording_ends_where_the_session_did() {
    let start = Start {
        level: level(CAGE),
        seed: 1,
        settings: Settings::default(),
        spawns: Spawns::default(),
        rules: Rules { goal: Goal::None, lives: Some(1) },
        generator: None,
    };
    let dir = std::env::temp_dir().join(format!("delve-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lost.jsonl");
    let mut rec = RecordFeed::new(Recorder::create(&file, &start, true).unwrap());
    let mut w = start.world().unwrap();
    for _ in 0..300 {
        feed::tick(&mut w, &mut rec).unwrap();
    }
    rec.finish(&w).unwrap();
    let end = w.ended_at().expect("lost");
    assert!(end < 100, "caught late: {end}");
    let text = std::fs::read_to_string(&file).unwrap();
    let replay = Replay::parse(&text, "lost.jsonl").unwrap();
    assert_eq!(replay.end().map(|e| e.tick), Some(end));
    assert!(matches!(verify(&replay), Verdict::Match { complete: true, .. }), "{}", verify(&replay));
    let last = text.lines().last().unwrap();
    let forge = |tick: u64| text.replace(last, &last.replace(&format!("\"end\":{end}"), &format!("\"end\":{tick}")));
    let replay = Replay::parse(&forge(99), "forged.jsonl").unwrap();
    // The old replay loop waited forever for a tick the stopped clock
    // never reaches; the session's final world is the one it ended as.
    assert!(matches!(verify(&replay), Verdict::Match { complete: true, .. }), "{}", verify(&replay));
    // Further on, the checkpoints a session that long would have are
    // missing: refused before anything runs.
    let e = Replay::parse(&forge(5000), "forged.jsonl").unwrap_err();
    assert!(matches!(e, ReplayError::MissingCheckpoint { tick: 100, .. }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A wall between a monster and the player with a way round below it (7
/// steps), or a closed door in that way.
const ROUND: &str = "\
##########
#M....#.@#
#.....#..#
#........#
##########
";

#[test]
fn a_step_is_heard_round_a_wall_but_not_through_a_closed_door() {
    let mut w = sandbox(ROUND);
    w.apply(Command::Move { dx: 0, dy: 1 });
    w.tick();
    assert_eq!(w.events()[0].event, Event::Noticed { monster: 1, sense: Sense::Hearing });
    assert_eq!(w.awareness(0).map(|a| a.reason), Some(Some(delve::sim::Reason::Heard)));
    let mut w = sandbox(&ROUND.replace("#........#", "#.....+..#"));
    w.apply(Command::Move { dx: 0, dy: 1 });
    ticks(&mut w, 20);
    assert_eq!(states(&w), [MonsterState::Idle], "{:?}", w.events());
}

/// Issue 25's chain of catches: on the dungeon, seed 1, the player walks
/// l×19, n, l×28 to the guard-room door and stands there. The monster sent
/// home after a catch used to land in sight of the door, see the player at
/// once and catch it again as the 2 s of grace ended: caught at 00:23,
/// 00:26 and 00:29, three lives in six seconds without a chance to act.
/// Now a caught monster lands out of sight and forgets the player, and a
/// player who has not moved away is not caught again within the longest
/// grace (10 s): no two catches come closer than that.
#[test]
fn standing_at_the_guard_room_door_is_no_chain_of_catches() {
    let level = Level::load(std::path::Path::new("levels/dungeon.txt")).unwrap();
    let mut w = World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap();
    let mut script: Vec<(i8, i8)> = vec![(1, 0); 19];
    script.push((1, 1));
    script.extend([(1, 0); 28]);
    let mut steps = script.into_iter();
    // Thirty seconds: the walk, then standing at the door.
    while w.ticks() < 600 && !w.outcome().is_over() {
        if w.ready()
            && let Some((dx, dy)) = steps.next()
        {
            w.apply(Command::Move { dx, dy });
        }
        w.tick();
    }
    assert!(steps.next().is_none(), "the walk ended at {}", w.player().cell);
    let catches: Vec<u64> =
        w.events().iter().filter(|s| matches!(s.event, Event::Caught { .. })).map(|s| s.tick).collect();
    assert!(!catches.is_empty(), "the guard still catches a player standing in its door");
    for pair in catches.windows(2) {
        assert!(pair[1] - pair[0] >= u64::from(MAX_GRACE_TICKS), "a chain: caught at ticks {catches:?}");
    }
}
