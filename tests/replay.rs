//! Record and replay: sessions recorded then verified (scripted and random),
//! the recorder's promises about files, and every kind of damaged file
//! refused with its own one-line message.

use delve::grid::Neighbors;
use delve::level::Level;
use delve::replay::feed::{self, Feed, RecordFeed};
use delve::replay::{CHECKPOINT_EVERY, Checkpoint, Recorder, Replay, Spawns, Start, Verdict, partial_path, verify};
use delve::search::{Algorithm, Heuristic, SearchSettings, TieBreak};
use delve::sim::{Bot, Command, Kind, RepathPolicy, Rules, Setting, Settings, World};
use proptest::prelude::*;
use std::path::Path;

fn level(name: &str) -> Level {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels").join(format!("{name}.txt"));
    Level::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn start(name: &str, seed: u64, spawns: Spawns) -> Start {
    Start { level: level(name), seed, settings: Settings::default(), spawns, rules: Rules::SANDBOX }
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

/// Records a finished session to `path`; returns its final hash.
fn record(path: &Path, start: &Start, ticks: u64, player: impl FnMut(&World) -> Vec<Command>) -> u64 {
    let recorder = Recorder::create(path, start, false).unwrap_or_else(|e| panic!("{e}"));
    let mut feed = RecordFeed::new(recorder);
    let world = run(&mut feed, start, ticks, player);
    feed.finish(&world).unwrap();
    world.hash()
}

fn bot_player(seed: u64) -> impl FnMut(&World) -> Vec<Command> {
    let mut bot = Bot::new(seed);
    move |w| bot.command(w).into_iter().collect()
}

fn load(path: &Path) -> Replay {
    Replay::load(path).unwrap_or_else(|e| panic!("{e}"))
}

fn complete(checkpoints: usize, tick: u64, hash: u64) -> Verdict {
    Verdict::Match { checkpoints, last: Some(Checkpoint { tick, hash }), complete: true }
}

#[test]
fn recordings_verify_across_levels_and_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let spawns = [Spawns::default(), Spawns { monster: 2, wanderer: 1, fleeing: 2, boid: 6 }];
    for (i, name) in ["dungeon", "maze", "arena", "keep", "cave"].into_iter().enumerate() {
        for seed in [1, 2, 99] {
            let start = start(name, seed, spawns[i % 2]);
            let path = dir.path().join(format!("{name}-{seed}.jsonl"));
            let hash = record(&path, &start, 450, bot_player(seed));
            let replay = load(&path);
            assert_eq!(replay.start(), &start);
            assert_eq!(verify(&replay), complete(5, 450, hash), "{name} seed {seed}");
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
        (7, Command::Set(Setting::Algorithm(Algorithm::Greedy))),
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
        prop::sample::select(Algorithm::ALL).prop_map(Setting::Algorithm),
        prop::sample::select(Heuristic::ALL).prop_map(Setting::Heuristic),
        prop::sample::select(TieBreak::ALL).prop_map(Setting::Tie),
        prop::bool::ANY.prop_map(|four| Setting::Neighbors(if four { Neighbors::Four } else { Neighbors::Eight })),
        (0.5..12.0f64).prop_map(Setting::Weight),
        prop::bool::ANY.prop_map(Setting::Reopen),
        prop::bool::ANY.prop_map(Setting::Smoothing),
        prop::sample::select(RepathPolicy::ALL).prop_map(Setting::Repath),
    ];
    prop_oneof![
        6 => (-1i8..=1, -1i8..=1).prop_map(|(dx, dy)| Command::Move { dx, dy }),
        1 => (-3i8..=3, -3i8..=3).prop_map(|(dx, dy)| Command::Move { dx, dy }),
        2 => Just(Command::Door),
        3 => setting.prop_map(Command::Set),
        1 => (prop::sample::select(Kind::ALL), 0u32..4).prop_map(|(kind, count)| Command::Spawn { kind, count }),
    ]
}

fn settings() -> impl Strategy<Value = Settings> {
    (
        prop::sample::select(Algorithm::ALL),
        prop::sample::select(Heuristic::ALL),
        1.0..10.0f64,
        prop::sample::select(RepathPolicy::ALL),
        1u32..30,
        0.0..8.0f32,
        1u32..50_000,
    )
        .prop_map(|(algorithm, heuristic, weight, repath, repath_ticks, repath_cells, budget)| Settings {
            search: SearchSettings { algorithm, heuristic, weight, ..SearchSettings::default() },
            repath,
            repath_ticks,
            repath_cells,
            budget,
            ..Settings::default()
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
        };
        let mut at = Vec::new();
        let mut tick = 0;
        for (gap, c) in &script {
            tick += gap;
            at.push((tick, *c));
        }
        let ticks = tick + tail;
        let hash = record(&path, &start, ticks, |w| at.iter().filter(|&&(t, _)| t == w.ticks()).map(|&(_, c)| c).collect());
        let replay = load(&path);
        prop_assert_eq!(replay.start(), &start);
        let checkpoints = (ticks / CHECKPOINT_EVERY) as usize + 1;
        prop_assert_eq!(verify(&replay), complete(checkpoints, ticks, hash));
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
    assert!(!partial_path(&path).unwrap().exists(), "a refused recording leaves no file");

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
    assert_eq!(verify(&load(&path)), complete(2, 120, world.hash()));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(names.iter().all(|n| !n.to_string_lossy().ends_with("kept.jsonl.partial")), "{names:?}");
}

#[test]
fn a_crash_leaves_a_partial_file_that_verifies_to_its_last_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.jsonl");
    let partial = partial_path(&path).unwrap();
    assert_eq!(partial, dir.path().join(".crash.jsonl.partial"));
    let start = start("arena", 4, Spawns { boid: 5, ..Spawns::default() });
    let mut feed = RecordFeed::new(Recorder::create(&path, &start, false).unwrap());
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

    // A leftover partial file is not clobbered by the next recording.
    let e = Recorder::create(&path, &start, false).unwrap_err();
    assert!(e.to_string().contains("an interrupted recording is in the way"), "{e}");

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
        &format!("{{\"checkpoint\":200,\"hash\":\"{:016x}\"}}", expected.hash),
        &format!("{{\"checkpoint\":200,\"hash\":\"{wrong}\"}}"),
    );
    let verdict = verify(&Replay::parse(&text, "t").unwrap());
    assert_eq!(verdict, Verdict::Mismatch { tick: 200, expected: expected.hash ^ 1, actual: expected.hash });
    assert_eq!(verdict.to_string(), format!("mismatch at tick 200: expected {wrong}, actual {:016x}", expected.hash));
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
    let cases: Vec<(&str, String, String)> = vec![
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
            "1: not a delve replay: the first line must be the header {\"delve_replay\":1,...}".into(),
        ),
        (
            "version",
            with_line(&good, 1, &header_with(&good, |h| drop(h.insert("delve_replay".into(), 2.into())))),
            "1: replay format version 2 is not supported (this delve reads version 1)".into(),
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
            "2: bad command: unknown variant `jump`, expected one of `move`, `run`, `stop`, `door`, `set`, `spawn`"
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
            "too long",
            with_line(&good, 3, r#"{"tick":100000001,"cmd":"door"}"#),
            "3: tick 100000001 is past the longest session delve replays (100000000 ticks, 57 days of game time)"
                .into(),
        ),
    ];
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
