//! Record and replay: sessions recorded then verified (scripted and random),
//! the recorder's promises about files, and every kind of damaged file
//! refused with its own one-line message.

use delve::grid::Neighbors;
use delve::level::Level;
use delve::replay::feed::{self, Feed, RecordFeed};
use delve::replay::{
    CHECKPOINT_EVERY, Checkpoint, CommandDigest, Recorder, Replay, Spawns, Start, Verdict, partials, verify,
};
use delve::search::{Heuristic, Planner, SearchSettings, TieBreak};
use delve::sim::{Bot, Command, Kind, RepathPolicy, Rules, Setting, Settings, World};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn level(name: &str) -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels").join(format!("{name}.txt"));
    Level::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn start(name: &str, seed: u64, spawns: Spawns) -> Start {
    Start { level: level(name), seed, settings: Settings::default(), spawns, rules: Rules::SANDBOX, generator: None }
}

/// Runs `ticks` ticks of the session `start` begins through a recording
/// feed, applying what `player` says before each tick; returns the final
/// world and leaves the recording unfinished, as a crash would.
fn run(feed: &mut RecordFeed, start: &Start, ticks: u64, mut player: impl FnMut(&World) -> Vec<Command>) -> World {
    let mut world = start.world().unwrap();
    for _ in 0..ticks {
        for c in player(&world) {
            feed::apply(&mut world, feed, c).unwrap();
        }
        feed::tick(&mut world, feed).unwrap();
    }
    world
}

/// Records a finished session to `path`; returns what its end record must
/// say: the final hash and the digest of the commands `player` gave.
fn record(path: &Path, start: &Start, ticks: u64, mut player: impl FnMut(&World) -> Vec<Command>) -> Checkpoint {
    let recorder = Recorder::create(path, start, false).unwrap_or_else(|e| panic!("{e}"));
    let mut feed = RecordFeed::new(recorder);
    let mut digest = CommandDigest::default();
    let world = run(&mut feed, start, ticks, |w| {
        let commands = player(w);
        commands.iter().for_each(|&c| digest.add(w.ticks(), c));
        commands
    });
    feed.finish(&world).unwrap();
    Checkpoint { tick: world.ticks(), hash: world.hash(), commands: digest.value() }
}

fn bot_player(seed: u64) -> impl FnMut(&World) -> Vec<Command> {
    let mut bot = Bot::new(seed);
    move |w| bot.command(w).into_iter().collect()
}

fn load(path: &Path) -> Replay {
    Replay::load(path).unwrap_or_else(|e| panic!("{e}"))
}

fn complete(checkpoints: usize, end: Checkpoint) -> Verdict {
    Verdict::Match { checkpoints, last: Some(end), complete: true }
}

#[test]
fn recordings_verify_across_levels_and_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let spawns = [Spawns::default(), Spawns { monster: 2, wanderer: 1, fleeing: 2, boid: 6 }];
    for (i, name) in ["dungeon", "maze", "arena", "keep", "cave"].into_iter().enumerate() {
        for seed in [1, 2, 99] {
            let start = start(name, seed, spawns[i % 2]);
            let path = dir.path().join(format!("{name}-{seed}.jsonl"));
            let end = record(&path, &start, 450, bot_player(seed));
            let replay = load(&path);
            assert_eq!(replay.start(), &start);
            assert_eq!(verify(&replay), complete(5, end), "{name} seed {seed}");
        }
    }
}

#[test]
fn commands_come_back_by_tick_in_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("order.jsonl");
    let script = [
        (0, Command::Door),
        (0, Command::Move { dx: 1, dy: 0 }),
        (7, Command::Set(Setting::Planner(Planner::GREEDY))),
        (7, Command::Move { dx: -1, dy: 1 }),
        (150, Command::Spawn { kind: Kind::Boid, count: 2 }),
    ];
    record(&path, &start("room", 3, Spawns::default()), 200, |w| {
        script.iter().filter(|&&(t, _)| t == w.ticks()).map(|&(_, c)| c).collect()
    });
    let replay = load(&path);
    assert_eq!(replay.commands_due(0), [script[0].1, script[1].1]);
    assert_eq!(replay.commands_due(7), [script[2].1, script[3].1]);
    assert_eq!(replay.commands_due(150), [script[4].1]);
    assert!(replay.commands_due(1).is_empty() && replay.commands_due(151).is_empty());
    assert_eq!(replay.checkpoints().iter().map(|c| c.tick).collect::<Vec<_>>(), [100, 200]);
    assert_eq!(replay.end().map(|e| e.tick), Some(200));
}

fn command() -> impl Strategy<Value = Command> {
    let setting = prop_oneof![
        prop::sample::select(&Planner::CYCLE[..]).prop_map(Setting::Planner),
        Just(Setting::GridPlanner),
        prop::sample::select(Heuristic::ALL).prop_map(Setting::Heuristic),
        prop::sample::select(TieBreak::ALL).prop_map(Setting::Tie),
        prop::bool::ANY.prop_map(|four| Setting::Neighbors(if four { Neighbors::Four } else { Neighbors::Eight })),
        (1.0..=10.0f64).prop_map(Setting::Weight),
        prop::bool::ANY.prop_map(Setting::Reopen),
        prop::bool::ANY.prop_map(Setting::Smoothing),
        prop::sample::select(RepathPolicy::ALL).prop_map(Setting::Repath),
    ];
    prop_oneof![
        6 => (-1i8..=1, -1i8..=1).prop_filter("a step", |&d| d != (0, 0)).prop_map(|(dx, dy)| Command::Move { dx, dy }),
        2 => Just(Command::Door),
        3 => setting.prop_map(Command::Set),
        1 => (prop::sample::select(Kind::ALL), 1u32..4).prop_map(|(kind, count)| Command::Spawn { kind, count }),
    ]
}

fn settings() -> impl Strategy<Value = Settings> {
    (
        prop::sample::select(&Planner::CYCLE[..]),
        prop::sample::select(Heuristic::ALL),
        1.0..10.0f64,
        prop::sample::select(RepathPolicy::ALL),
        1u32..30,
        0.0..8.0f32,
        1u32..50_000,
    )
        .prop_map(|(planner, heuristic, weight, repath, repath_ticks, repath_cells, budget)| {
            Settings {
                search: SearchSettings { heuristic, weight, ..SearchSettings::default() },
                repath,
                repath_ticks,
                repath_cells,
                budget,
                ..Settings::default()
            }
            .with_planner(planner)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any sequence of commands, recorded as it is applied, verifies.
    #[test]
    fn random_sessions_verify(
        name in prop::sample::select(&["room", "dungeon", "keep", "arena"][..]),
        seed in any::<u64>(),
        settings in settings(),
        boids in 0u32..4,
        script in prop::collection::vec((0u64..25, command()), 0..40),
        tail in 0u64..150,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("random.jsonl");
        let start = Start {
            level: level(name),
            seed,
            settings,
            spawns: Spawns { boid: boids, ..Spawns::default() },
            rules: Rules::SANDBOX,
            generator: None,
        };
        // A script that crowds the level past one creature a cell makes a
        // file the reader refuses ("spawn past the capacity" above).
        let world = start.world().unwrap();
        let spawned: u32 = script.iter().map(|(_, c)| if let Command::Spawn { count, .. } = c { *count } else { 0 }).sum();
        prop_assume!(world.creatures().len() + spawned as usize <= world.capacity());
        let mut at = Vec::new();
        let mut tick = 0;
        for (gap, c) in &script {
            tick += gap;
            at.push((tick, *c));
        }
        let ticks = tick + tail;
        let end = record(&path, &start, ticks, |w| at.iter().filter(|&&(t, _)| t == w.ticks()).map(|&(_, c)| c).collect());
        let replay = load(&path);
        prop_assert_eq!(replay.start(), &start);
        let checkpoints = (ticks / CHECKPOINT_EVERY) as usize + 1;
        prop_assert_eq!(verify(&replay), complete(checkpoints, end));
    }
}

#[test]
fn the_recorder_never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.jsonl");
    std::fs::write(&path, "precious").unwrap();
    let start = start("room", 1, Spawns::default());
    let e = Recorder::create(&path, &start, false).unwrap_err();
    assert_eq!(e.to_string(), format!("{}: already exists (pass --force to overwrite it)", path.display()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
    assert_eq!(partials(&path).unwrap(), Vec::<PathBuf>::new(), "a refused recording leaves no file");

    // The target appearing during the session is refused at the end too.
    let late = dir.path().join("late.jsonl");
    let mut feed = RecordFeed::new(Recorder::create(&late, &start, false).unwrap());
    let world = run(&mut feed, &start, 10, |_| Vec::new());
    std::fs::write(&late, "precious").unwrap();
    assert!(feed.finish(&world).unwrap_err().to_string().contains("already exists"));
    assert_eq!(std::fs::read_to_string(&late).unwrap(), "precious");

    let mut feed = RecordFeed::new(Recorder::create(&path, &start, true).unwrap());
    let world = run(&mut feed, &start, 120, |_| Vec::new());
    feed.finish(&world).unwrap();
    let end = Checkpoint { tick: 120, hash: world.hash(), commands: CommandDigest::default().value() };
    assert_eq!(verify(&load(&path)), complete(2, end));
    assert_eq!(partials(&path).unwrap(), Vec::<PathBuf>::new(), "a finished recording leaves no partial file");
    // The late one's partial file is kept, with what it recorded.
    assert_eq!(partials(&late).unwrap().len(), 1);
}

#[test]
fn a_crash_leaves_a_partial_file_that_verifies_to_its_last_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.jsonl");
    let start = start("arena", 4, Spawns { boid: 5, ..Spawns::default() });
    let recorder = Recorder::create(&path, &start, false).unwrap();
    let partial = recorder.partial().to_path_buf();
    let name = partial.file_name().unwrap().to_str().unwrap();
    let prefix = format!(".crash.jsonl.{}.", std::process::id());
    assert!(partial.parent() == Some(dir.path()) && name.starts_with(&prefix) && name.ends_with(".partial"), "{name}");
    let mut feed = RecordFeed::new(recorder);
    let world = run(&mut feed, &start, 345, bot_player(4));
    drop(feed);
    assert!(!path.exists() && partial.exists());

    let replay = load(&partial);
    assert_eq!(replay.end(), None);
    let verdict = verify(&replay);
    let Verdict::Match { checkpoints: 3, last: Some(last), complete: false } = verdict else {
        panic!("{verdict:?}");
    };
    assert_eq!(last.tick, 300);
    assert!(verdict.to_string().starts_with("ok: 3 checkpoints match up to tick 300, hash "), "{verdict}");
    assert!(verdict.to_string().ends_with("; incomplete: no end record (the recording was interrupted)"));

    // A leftover partial file stops the next recording to the same name
    // without --force, and is left alone by one with --force.
    assert_eq!(partials(&path).unwrap(), std::slice::from_ref(&partial));
    let e = Recorder::create(&path, &start, false).unwrap_err();
    assert!(e.to_string().starts_with(&format!("{}: an unfinished recording", partial.display())), "{e}");
    let forced = Recorder::create(&path, &start, true).unwrap();
    assert_ne!(forced.partial(), partial);
    assert_eq!(partials(&path).unwrap().len(), 2);
    drop(forced);

    // Cut mid-line, as a full disk would leave it: refused, and once the
    // cut line is gone, checkable again.
    let text = std::fs::read_to_string(&partial).unwrap();
    let lines = text.lines().count();
    std::fs::write(&partial, format!("{text}{{\"tick\":{},\"cmd\":\"mo", world.ticks())).unwrap();
    let e = Replay::load(&partial).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "{}:{}: truncated: the last line is cut off (delete it to verify the rest up to its last checkpoint)",
            partial.display(),
            lines + 1
        )
    );
    std::fs::write(&partial, &text).unwrap();
    assert_eq!(verify(&load(&partial)), verdict);
}

#[test]
fn a_changed_hash_is_reported_at_its_tick() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tampered.jsonl");
    record(&path, &start("maze", 5, Spawns::default()), 320, bot_player(5));
    let good = load(&path);
    let expected = good.checkpoints()[1];
    let text = std::fs::read_to_string(&path).unwrap();
    let wrong = format!("{:016x}", expected.hash ^ 1);
    let text = text.replace(
        &format!("{{\"checkpoint\":200,\"hash\":\"{:016x}\",", expected.hash),
        &format!("{{\"checkpoint\":200,\"hash\":\"{wrong}\","),
    );
    let verdict = verify(&Replay::parse(&text, "t").unwrap());
    assert_eq!(verdict, Verdict::Mismatch { tick: 200, expected: expected.hash ^ 1, actual: expected.hash });
    assert_eq!(verdict.to_string(), format!("mismatch at tick 200: expected {wrong}, actual {:016x}", expected.hash));
}

/// Edits the state hash cannot see: a step re-stamped earlier, a change
/// of a setting that decides no path (the open-list update) deleted. The
/// command digest in every checkpoint catches both at the first checkpoint
/// after the edit.
#[test]
fn edited_commands_do_not_verify() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.jsonl");
    let open = Command::Set(Setting::Open(delve::search::OpenUpdate::DecreaseKey));
    let end = record(&path, &start("room", 2, Spawns::default()), 250, |w| match w.ticks() {
        29 => vec![Command::Move { dx: 1, dy: 0 }],
        40 => vec![open],
        _ => Vec::new(),
    });
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(verify(&Replay::parse(&text, "good").unwrap()), complete(3, end));
    let first = load(&path).checkpoints()[0];
    let edits = [
        text.replace(r#"{"tick":29,"cmd":"move""#, r#"{"tick":2,"cmd":"move""#),
        text.lines().filter(|l| !l.contains(r#""setting":"open""#)).map(|l| format!("{l}\n")).collect(),
    ];
    for edited in edits {
        assert_ne!(edited, text);
        let verdict = verify(&Replay::parse(&edited, "edited").unwrap());
        let Verdict::Edited { tick: 100, expected, actual } = verdict else { panic!("{verdict:?}") };
        assert_eq!(expected, first.commands);
        assert_ne!(actual, expected);
        assert!(
            verdict.to_string().starts_with(&format!(
                "mismatch at tick 100: commands digest expected {expected:016x}, actual {actual:016x}"
            )),
            "{verdict}"
        );
    }
}

/// The digest covers each command as delve writes it, so a line that
/// reads as the same command (other spacing, key order, escapes, the
/// defaults written out) digests the same and verifies; an extra key is
/// refused rather than passed over.
#[test]
fn a_command_written_otherwise_reads_and_digests_the_same() {
    let good = good_lines();
    let replay = Replay::parse(&joined(&good), "good").unwrap();
    let Verdict::Match { complete: true, .. } = verify(&replay) else { panic!("the good file verifies") };
    assert_eq!(good[1], r#"{"tick":3,"cmd":"move","dx":1,"dy":0}"#);
    let same = r#"{ "dy" : 0 , "dx":1, "cmd" : "mo\u0076e", "\u0074ick":3 }"#;
    let edited = Replay::parse(&with_line(&good, 2, same), "respaced").unwrap();
    assert_eq!(verify(&edited), verify(&replay));
    let mut header: serde_json::Value = serde_json::from_str(&good[0]).unwrap();
    header["settings"]["avoidance"] = "separation".into();
    let text = with_line(&good, 1, &header.to_string());
    assert_eq!(verify(&Replay::parse(&text, "defaults written").unwrap()), verify(&replay));
}

/// A good recording's lines, to damage one way at a time.
fn good_lines() -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("good.jsonl");
    let start = start("room", 8, Spawns { wanderer: 1, ..Spawns::default() });
    record(&path, &start, 230, |w| match w.ticks() {
        3 => vec![Command::Move { dx: 1, dy: 0 }],
        60 => vec![Command::Set(Setting::Heuristic(Heuristic::Manhattan))],
        _ => Vec::new(),
    });
    std::fs::read_to_string(&path).unwrap().lines().map(str::to_string).collect()
}

/// The header with `change` made to it, as JSON text.
fn header_with(lines: &[String], change: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>)) -> String {
    let mut header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    change(header.as_object_mut().unwrap());
    header.to_string()
}

/// The header with a new level text and its true checksum.
fn header_with_level(lines: &[String], text: &str) -> String {
    let checksum = format!("{:016x}", delve::replay::level_checksum(text));
    header_with(lines, |h| {
        h.insert("level_text".into(), text.into());
        h.insert("level_checksum".into(), checksum.into());
    })
}

fn refused(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.jsonl");
    std::fs::write(&path, text).unwrap();
    let e = Replay::load(&path).err().unwrap_or_else(|| panic!("accepted: {text}")).to_string();
    assert!(!e.contains('\n'), "{e}");
    e.strip_prefix(&format!("{}:", path.display())).unwrap_or_else(|| panic!("names no file: {e}")).to_string()
}

fn joined(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// `lines` with line `n` (1-based) replaced.
fn with_line(lines: &[String], n: usize, text: &str) -> String {
    let mut lines = lines.to_vec();
    lines[n - 1] = text.to_string();
    joined(&lines)
}

#[test]
fn damaged_files_are_refused_with_their_own_message() {
    let good = good_lines();
    assert_eq!(good[1], r#"{"tick":3,"cmd":"move","dx":1,"dy":0}"#);
    assert_eq!(good[2], r#"{"tick":60,"cmd":"set","setting":"heuristic","value":"manhattan"}"#);
    assert!(good[3].starts_with(r#"{"checkpoint":100,"#) && good[5].starts_with(r#"{"end":230,"#));
    let room = level("room").source;
    let mut cases: Vec<(&str, String, String)> = vec![
        ("empty", String::new(), " empty file (a delve replay starts with its header line)".into()),
        (
            "not JSON",
            with_line(&good, 3, "{\"tick\":60,"),
            "3: not JSON: EOF while parsing a value at column 11".into(),
        ),
        ("not JSON", with_line(&good, 2, "move 3"), "2: not JSON: expected value at column 1".into()),
        (
            "no header",
            joined(&good[1..]),
            "1: not a delve replay: the first line must be the header {\"delve_replay\":3,...}".into(),
        ),
        (
            "version",
            with_line(&good, 1, &header_with(&good, |h| drop(h.insert("delve_replay".into(), 1.into())))),
            "1: replay format version 1 is not supported (this delve reads version 3)".into(),
        ),
        (
            // The format before the state was hashed by construction: its
            // checkpoints hold hashes this delve no longer computes.
            "version",
            with_line(&good, 1, &header_with(&good, |h| drop(h.insert("delve_replay".into(), 2.into())))),
            "1: replay format version 2 is not supported (this delve reads version 3)".into(),
        ),
        (
            "header field",
            with_line(&good, 1, &header_with(&good, |h| drop(h.remove("seed")))),
            "1: bad header: missing field `seed`".into(),
        ),
        (
            "header settings",
            with_line(&good, 1, &header_with(&good, |h| h["settings"]["detection_radius"] = (-5.0).into())),
            "1: bad header: detection_radius -5 is not a finite number ≥ 0".into(),
        ),
        (
            "flocking weights",
            with_line(
                &good,
                1,
                &header_with(&good, |h| {
                    h["settings"]["flock"] = serde_json::json!({"separation": 6.0, "alignment": 101.0, "cohesion": 0.3})
                }),
            ),
            "1: bad header: flock alignment 101 is not from 0 to 100".into(),
        ),
        (
            "flocking weights' keys",
            with_line(
                &good,
                1,
                &header_with(&good, |h| h["settings"]["flock"] = serde_json::json!({"separation": 6.0, "cohesion": 0.3})),
            ),
            "1: bad header: missing field `alignment`".into(),
        ),
        (
            "wrong level",
            with_line(
                &good,
                1,
                &header_with(&good, |h| drop(h.insert("level_text".into(), room.replace('G', ".").into()))),
            ),
            format!(
                "1: wrong level: the level text has checksum {:016x} but the header says {:016x}",
                delve::replay::level_checksum(&room.replace('G', ".")),
                delve::replay::level_checksum(&room)
            ),
        ),
        (
            "level parse",
            with_line(&good, 1, &header_with_level(&good, &room.replace('G', "?"))),
            "1: the recorded level does not parse: room:".into(),
        ),
        (
            "level name",
            with_line(&good, 1, &header_with(&good, |h| drop(h.insert("level".into(), "keep".into())))),
            "1: bad header: level \"keep\" but the level text is named \"room\"".into(),
        ),
        (
            "no room",
            with_line(&good, 1, &header_with_level(&good, "name: room\n###\n")),
            "1: level 'room' has no walkable cell for the player".into(),
        ),
        (
            "unknown kind",
            with_line(&good, 2, r#"{"tock":3}"#),
            "2: unknown record kind (expected {\"tick\":...}, {\"checkpoint\":...} or {\"end\":...})".into(),
        ),
        ("not an object", with_line(&good, 2, "[3]"), "2: unknown record kind".into()),
        (
            "unknown command",
            with_line(&good, 2, r#"{"tick":3,"cmd":"jump"}"#),
            "2: bad command: unknown variant `jump`, expected one of `move`, `wait`, `run`, `travel`, `explore`, `stop`, `door`, `set`, `spawn`"
                .into(),
        ),
        (
            "bad setting",
            with_line(&good, 3, r#"{"tick":60,"cmd":"set","setting":"heuristic","value":"psychic"}"#),
            "3: bad command: unknown variant `psychic`".into(),
        ),
        (
            "step too far",
            with_line(&good, 2, r#"{"tick":3,"cmd":"move","dx":300,"dy":0}"#),
            "2: bad command: invalid value: integer `300`, expected i8".into(),
        ),
        (
            "bad hash",
            with_line(&good, 4, r#"{"checkpoint":100,"hash":"12"}"#),
            "4: bad checkpoint: hash \"12\" is not 16 hex digits".into(),
        ),
        (
            "backwards",
            with_line(&good, 3, r#"{"tick":2,"cmd":"door"}"#),
            "3: tick 2 goes backwards (the record before it is at tick 3)".into(),
        ),
        ("after the end", format!("{}{}\n", joined(&good), good[1]), "7: record after the end record at line 6".into()),
        (
            "no budget",
            with_line(&good, 1, &good[0].replace(r#""budget":20000"#, r#""budget":0"#)),
            "1: bad header: budget 0 is below the least of 1 expansion a tick".into(),
        ),
        (
            "key twice",
            with_line(&good, 2, r#"{"tick":3,"tick":2,"cmd":"move","dx":1,"dy":0}"#),
            "2: key \"tick\" given twice at column 16".into(),
        ),
        (
            "key twice, nested",
            with_line(&good, 1, &good[0].replace(r#""budget":20000"#, r#""budget":20000,"budget":1"#)),
            "1: key \"budget\" given twice at column ".into(),
        ),
        (
            "header lives",
            with_line(
                &good,
                1,
                &header_with(&good, |h| drop(h.insert("rules".into(), serde_json::json!({"goal":"none","lives":0})))),
            ),
            "1: bad header: lives 0 is not from 1 to 99".into(),
        ),
        (
            "unknown key in a command",
            with_line(&good, 2, r#"{"tick":3,"cmd":"move","dx":1,"dy":0,"extra":1}"#),
            "2: bad command: unknown key \"extra\" (a move has the keys tick, cmd, dx, dy)".into(),
        ),
        (
            "unknown key in a command without fields",
            with_line(&good, 2, r#"{"tick":3,"cmd":"door","dx":1}"#),
            "2: bad command: unknown key \"dx\" (a door has the keys tick, cmd)".into(),
        ),
        (
            "unknown key in a setting",
            with_line(&good, 3, r#"{"tick":60,"cmd":"set","setting":"heuristic","value":"manhattan","was":"octile"}"#),
            "3: bad command: unknown key \"was\" (a set has the keys tick, cmd, setting, value)".into(),
        ),
        (
            "unknown key in the settings",
            with_line(&good, 1, &header_with(&good, |h| h["settings"]["extra"] = 1.into())),
            "1: bad header: unknown field `extra`, expected one of ".into(),
        ),
        (
            "unknown key in the search settings",
            with_line(&good, 1, &header_with(&good, |h| h["settings"]["search"]["extra"] = 1.into())),
            "1: bad header: unknown field `extra`, expected one of ".into(),
        ),
        (
            "unknown key in the goal",
            with_line(
                &good,
                1,
                &header_with(&good, |h| {
                    h["rules"] = serde_json::json!({"goal":{"survive":{"ticks":20,"x":1}},"lives":3})
                }),
            ),
            "1: bad header: unknown field `x`, expected `ticks`".into(),
        ),
        (
            "run nowhere",
            with_line(&good, 2, r#"{"tick":3,"cmd":"run","dx":0,"dy":0}"#),
            "2: bad command: run (0, 0) is not a step".into(),
        ),
        (
            "weight",
            with_line(&good, 3, r#"{"tick":60,"cmd":"set","setting":"weight","value":-1e308}"#),
            "3: bad command: weight -1e308 is not from 1 to 10".into(),
        ),
        (
            "header spawns",
            with_line(&good, 1, &header_with(&good, |h| h["spawns"]["boid"] = 100_000.into())),
            "1: level 'room' has ".into(),
        ),
        (
            "missing checkpoint",
            joined(&[&good[..3], &good[4..]].concat()),
            "4: bad checkpoint: checkpoint 200 where checkpoint 100 belongs (delve writes one every 100 ticks)".into(),
        ),
        (
            "claims a long session",
            with_line(&good, 6, &good[5].replace(r#""end":230"#, r#""end":100000000"#)),
            "6: checkpoint 300 is missing before this record (delve writes one every 100 ticks)".into(),
        ),
        (
            "command past a missing checkpoint",
            with_line(&good, 6, r#"{"tick":300,"cmd":"door"}"#),
            "6: checkpoint 300 is missing before this record".into(),
        ),
        (
            "no digest",
            with_line(&good, 4, &format!("{}}}", &good[3][..good[3].find(",\"commands\"").unwrap()])),
            "4: bad checkpoint: missing field `commands`".into(),
        ),
        (
            "too long",
            with_line(&good, 3, r#"{"tick":100000001,"cmd":"door"}"#),
            "3: tick 100000001 is past the longest session delve replays (100000000 ticks, 57 days of game time)"
                .into(),
        ),
    ];
    // Commands delve never records, in place of the step at line 2.
    let never = [
        (r#""move","dx":5,"dy":0"#, "move (5, 0) is not a step: dx and dy are each -1, 0 or 1"),
        (r#""move","dx":0,"dy":0"#, "move (0, 0) is not a step"),
        (r#""spawn","kind":"boid","count":0"#, "spawn of 0 creatures"),
        (
            r#""spawn","kind":"boid","count":4294967295"#,
            "spawn of 4294967295 creatures is above the cap of 100000 creatures",
        ),
        (
            r#""spawn","kind":"boid","count":100000"#,
            "spawn of 100000 makes 100002 creatures, more than the 31 this level holds (one per free cell, at most 100000)",
        ),
    ];
    for (command, message) in never {
        let text = with_line(&good, 2, &format!(r#"{{"tick":3,"cmd":{command}}}"#));
        cases.push(("bad command", text, format!("2: bad command: {message}")));
    }
    for (what, text, message) in cases {
        let e = refused(&text);
        assert!(e.starts_with(&message), "{what}: got {e:?}, expected it to start with {message:?}");
    }
    let missing = Path::new("no/such/replay.jsonl");
    let e = Replay::load(missing).unwrap_err().to_string();
    assert!(e.starts_with("no/such/replay.jsonl: cannot read: "), "{e}");
    let e = Replay::load(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap_err().to_string();
    assert!(e.contains(": cannot read: "), "{e}");
}

/// Every line of a good recording, from which arbitrary damage is made.
fn good_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| joined(&good_lines()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Whatever is done to a file, reading it gives a replay or an error,
    /// never a panic; and a replay that reads verifies to a verdict. Edits
    /// land on a chosen line, so the short record lines get as much damage
    /// as the long header.
    #[test]
    fn damage_never_panics(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0usize..6, any::<u8>()), 1..6),
    ) {
        let mut lines: Vec<Vec<u8>> = good_text().lines().map(|l| l.as_bytes().to_vec()).collect();
        let mut cut = None;
        for (line, at, how, byte) in edits {
            let (count, n) = (lines.len(), line.index(lines.len()));
            let i = at.index(lines[n].len() + 1);
            match how {
                0 => lines[n].insert(i, byte),
                1 if i < lines[n].len() => drop(lines[n].remove(i)),
                2 if i < lines[n].len() => lines[n][i] = byte,
                3 => lines.swap(n, i % count),
                4 => lines.insert(n, lines[i % count].clone()),
                _ => cut = Some((n, i)),
            }
        }
        let mut bytes: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
        if let Some((n, i)) = cut {
            // The file ends inside line n, as a cut-short write leaves it.
            let offset: usize = lines.iter().take(n).map(|l| l.len() + 1).sum::<usize>() + i.min(lines[n].len());
            bytes.truncate(offset);
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(replay) = Replay::parse(&text, "damaged") {
            // Skip damage that stretched a tick or a spawn count so far
            // that re-running it would take long; reading it is the point.
            let last = replay.end().into_iter().chain(replay.checkpoints().iter().copied()).map(|c| c.tick).max();
            let s = replay.start().spawns;
            if last.unwrap_or(0) <= 5_000 && [s.monster, s.wanderer, s.fleeing, s.boid].map(u64::from).iter().sum::<u64>() <= 1_000 {
                verify(&replay);
            }
        }
    }
}

#[test]
fn two_recordings_to_one_name_with_force_each_write_their_own_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("same.jsonl");
    let (one, two) = (start("room", 1, Spawns::default()), start("maze", 2, Spawns::default()));
    let mut first = RecordFeed::new(Recorder::create(&path, &one, true).unwrap());
    let mut second = RecordFeed::new(Recorder::create(&path, &two, true).unwrap());
    let (mut a, mut b) = (one.world().unwrap(), two.world().unwrap());
    for _ in 0..250 {
        delve::replay::feed::tick(&mut a, &mut first).unwrap();
        delve::replay::feed::tick(&mut b, &mut second).unwrap();
    }
    first.finish(&a).unwrap();
    assert_eq!(
        verify(&load(&path)),
        complete(3, Checkpoint { tick: 250, hash: a.hash(), commands: CommandDigest::default().value() })
    );
    second.finish(&b).unwrap();
    assert_eq!(
        verify(&load(&path)),
        complete(3, Checkpoint { tick: 250, hash: b.hash(), commands: CommandDigest::default().value() })
    );
    assert_eq!(partials(&path).unwrap(), Vec::<PathBuf>::new());
}
