//! Naming an input on the command line: a level as a file, a shipped
//! level by its name (from any directory), or `-` for standard input;
//! a scenario file on standard input too.

use crate::support::run::{DEADLINE, command, stderr, stdout, wait_output};
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

/// `delve ARGS` run in `dir`, with `input` on its standard input.
fn delve_in(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut c = command(args);
    c.current_dir(dir).stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // A command that does not read its input closes the pipe: a failed
    // write is no failure of the test.
    let _ = stdin.write_all(input);
    drop(stdin);
    wait_output(child, &format!("{args:?}"))
}

/// The one line a refused run printed, checked to be one line and exit 2.
fn refused_in(dir: &Path, args: &[&str], input: &[u8]) -> String {
    let o = delve_in(dir, args, input);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    err
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const SHIPPED: &str = "arena, big, cave, crossing, dungeon, gates, keep, maze, room";

#[test]
fn a_shipped_level_is_named_from_any_directory() {
    let elsewhere = tempfile::tempdir().unwrap();
    let by_name = delve_in(elsewhere.path(), &["path", "maze", "--json"], b"");
    assert!(by_name.status.success(), "{}", stderr(&by_name));
    let by_file = delve_in(repo(), &["path", "levels/maze.txt", "--json"], b"");
    assert!(by_file.status.success(), "{}", stderr(&by_file));
    let (a, b): (serde_json::Value, serde_json::Value) =
        (serde_json::from_slice(&by_name.stdout).unwrap(), serde_json::from_slice(&by_file.stdout).unwrap());
    assert_eq!(a["cost"], b["cost"]);
    assert_eq!(a["expanded"], b["expanded"]);
    // The same world: the same hash by name as from the file.
    let sim = |dir: &Path, level: &str| {
        let o = delve_in(dir, &["sim", level, "--ticks", "30", "--json"], b"");
        assert!(o.status.success(), "{level}: {}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["hash"].clone()
    };
    assert_eq!(sim(elsewhere.path(), "keep"), sim(repo(), "levels/keep.txt"));
    let o = delve_in(elsewhere.path(), &["sim", "keep", "--ticks", "1"], b"");
    assert!(stdout(&o).starts_with("keep: 1 ticks"), "named as given: {}", stdout(&o));
}

#[test]
fn a_file_that_exists_wins_over_a_shipped_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("maze"), "name: mine\nS.G\n").unwrap();
    let o = delve_in(dir.path(), &["path", "maze"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("mine (3x1): 0,0 -> 2,0"), "{}", stdout(&o));
}

#[test]
fn an_unknown_name_lists_the_shipped_levels() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["path", "sim", "play", "lab"] {
        let err = refused_in(dir.path(), &[command, "mze"], b"");
        assert_eq!(
            err,
            format!(
                "delve: mze: no such file, nor a shipped level (the shipped levels: {SHIPPED}; tip: a similar one \
                 exists: 'maze')\n"
            ),
            "{command}"
        );
    }
    let err = refused_in(dir.path(), &["path", "qqqq"], b"");
    assert_eq!(err, format!("delve: qqqq: no such file, nor a shipped level (the shipped levels: {SHIPPED})\n"));
    // A path is a file, never a name: its own error.
    let err = refused_in(dir.path(), &["path", "levels/nope.txt"], b"");
    assert!(err.starts_with("delve: levels/nope.txt: cannot read: "), "{err}");
}

#[test]
fn the_help_says_a_level_can_be_named() {
    for command in ["path", "sim", "play", "lab"] {
        let o = delve_in(repo(), &[command, "--help"], b"");
        assert!(stdout(&o).contains("a shipped level's name"), "{command}: {}", stdout(&o));
    }
}

#[test]
fn a_level_is_read_from_standard_input() {
    let room = std::fs::read(repo().join("levels/room.txt")).unwrap();
    let from_stdin = delve_in(repo(), &["path", "-", "--json"], &room);
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    let from_file = delve_in(repo(), &["path", "levels/room.txt", "--json"], b"");
    let answer = |o: &Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v.as_object_mut().unwrap().remove("micros");
        v
    };
    assert_eq!(answer(&from_stdin), answer(&from_file));
    let o = delve_in(repo(), &["sim", "-", "--ticks", "1"], &room);
    assert!(stdout(&o).starts_with("<stdin>: 1 ticks"), "{}", stdout(&o));
}

#[test]
fn a_bad_level_on_standard_input_is_named_stdin_with_its_line() {
    let err = refused_in(repo(), &["path", "-"], b"name: x\nS.G\n.Q.\n");
    assert!(err.starts_with("delve: <stdin>:3"), "{err}");
    let err = refused_in(repo(), &["sim", "-"], b"S.\n\xff\n");
    assert_eq!(err, "delve: <stdin>:2: cannot read: not UTF-8 text (byte 0xff at byte offset 3)\n");
    let err = refused_in(repo(), &["path", "-"], b"");
    assert!(err.starts_with("delve: <stdin>"), "{err}");
}

#[test]
fn endless_standard_input_is_refused_at_the_limit() {
    let mut c = command(&["path", "-"]);
    c.stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = vec![b'.'; 1 << 16];
        let began = std::time::Instant::now();
        // Until delve stops reading (a broken pipe), or the deadline.
        while stdin.write_all(&chunk).is_ok() && began.elapsed() < DEADLINE {}
    });
    let o = wait_output(child, "path - on endless input");
    feeder.join().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("delve: <stdin>: cannot read: more than 8396800 bytes, the most a level"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn play_and_lab_refuse_a_level_on_standard_input() {
    for command in ["play", "lab"] {
        let err = refused_in(repo(), &[command, "-"], b"S.G\n");
        assert_eq!(
            err,
            format!(
                "delve: -: delve {command} reads its keys from the terminal, so it cannot read a level from \
                 standard input (give a file or a shipped level's name)\n"
            )
        );
    }
}

#[test]
fn a_scenario_file_is_read_from_standard_input_with_its_maps_here() {
    let dir = repo().join("tests/fixtures/movingai");
    let scen = std::fs::read(dir.join("rooms.map.scen")).unwrap();
    let o = delve_in(&dir, &["scen", "-", "--json"], &scen);
    assert!(o.status.success(), "{}", stderr(&o));
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!((last["scenarios"].as_u64(), last["optimal"].as_u64()), (Some(48), Some(48)));
    let o = delve_in(&dir, &["scen", "-"], &scen);
    assert!(stdout(&o).starts_with("<stdin> on rooms.map: 48 scenarios\n"), "{}", stdout(&o));
    // The maps are looked for in the current directory.
    let elsewhere = tempfile::tempdir().unwrap();
    let err = refused_in(elsewhere.path(), &["scen", "-"], &scen);
    assert!(err.starts_with("delve: <stdin>:2: cannot read map rooms.map named by the scenario: "), "{err}");
    let err = refused_in(&dir, &["scen", "-"], b"version 1\n0\trooms.map\t64\t64\t1\t1\t2\tx\t3\n");
    assert!(err.starts_with("delve: <stdin>:2:"), "{err}");
}
