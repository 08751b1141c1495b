//! The command line against hostile surroundings: stdout that cannot be
//! written or is closed early, input paths that are not files or are too
//! large, negative numbers, and names that hold control characters.
//!
//! Every child runs under a deadline, so a regression to hanging fails
//! the test instead of hanging the suite.

use crate::support::run::{DEADLINE, command, output_of, path_str, run, run_with, stderr, stdout, wait_within};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;

/// An open Moving AI map of `side`² cells and `count` corner-to-corner
/// scenarios on it, in `dir`: the scenario file's path.
fn open_map_scenarios(dir: &Path, side: usize, count: usize) -> PathBuf {
    let mut map = format!("type octile\nheight {side}\nwidth {side}\nmap\n");
    for _ in 0..side {
        map += &".".repeat(side);
        map.push('\n');
    }
    std::fs::write(dir.join("open.map"), map).unwrap();
    let far = side - 1;
    let optimal = far as f64 * std::f64::consts::SQRT_2;
    let mut scen = "version 1\n".to_string();
    for _ in 0..count {
        scen += &format!("0\topen.map\t{side}\t{side}\t0\t0\t{far}\t{far}\t{optimal:.8}\n");
    }
    let file = dir.join("open.map.scen");
    std::fs::write(&file, scen).unwrap();
    file
}

#[cfg(target_os = "linux")]
#[test]
fn every_write_failure_is_one_line_and_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    let scen = open_map_scenarios(dir.path(), 8, 3);
    let replay = dir.path().join("run.replay");
    let recorded = run(&["sim", "--ticks", "5", "--record", path_str(&replay)]);
    assert!(recorded.status.success(), "{}", stderr(&recorded));
    let cases: &[&[&str]] = &[
        &["path", "levels/room.txt"],
        &["path", "levels/room.txt", "--json"],
        &["sim", "--ticks", "5"],
        &["scen", path_str(&scen)],
        &["scen", path_str(&scen), "--json"],
        &["replay", path_str(&replay), "--verify"],
        &["--help"],
        &["--version"],
        &["sim", "--help"],
    ];
    for args in cases {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let o = run_with(args, Stdio::from(full));
        assert_eq!(stderr(&o), "delve: cannot write to stdout: No space left on device\n", "{args:?}");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

/// A stdout closed (`>&-`) or open only for reading (`1</etc/hostname`) is
/// an error like any other write failure, found before any work, for the
/// help too; a stdout redirected to /dev/null is no error.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_or_read_only_stdout_is_a_write_error() {
    let cases: &[&[&str]] = &[&["path"], &["--help"], &["--version"], &["sim", "--ticks", "5", "--json"]];
    let bad = "delve: cannot write to stdout: Bad file descriptor\n";
    for args in cases {
        let read_only = std::fs::File::open("Cargo.toml").unwrap();
        let o = run_with(args, Stdio::from(read_only));
        assert_eq!((stderr(&o).as_str(), o.status.code()), (bad, Some(2)), "{args:?} 1<Cargo.toml");
        let mut closed = Command::new("sh");
        closed.arg("-c").arg("exec \"$0\" \"$@\" >&-").arg(env!("CARGO_BIN_EXE_delve")).args(*args);
        closed.current_dir(env!("CARGO_MANIFEST_DIR")).stdin(Stdio::null()).stderr(Stdio::piped());
        let o = output_of(closed, "delve with stdout closed");
        assert_eq!((stderr(&o).as_str(), o.status.code()), (bad, Some(2)), "{args:?} >&-");
        let o = run_with(args, Stdio::null());
        assert_eq!((stderr(&o).as_str(), o.status.code()), ("", Some(0)), "{args:?} >/dev/null");
    }
}

#[test]
fn a_closed_pipe_stops_scen_at_once() {
    // 20,000 Dijkstra searches over 512x512 open cells: minutes of work,
    // which a reader that wants one line must not wait for.
    let dir = tempfile::tempdir().unwrap();
    let scen = open_map_scenarios(dir.path(), 512, 20_000);
    let mut child =
        command(&["scen", path_str(&scen), "--algo", "dijkstra", "--json"]).stdout(Stdio::piped()).spawn().unwrap();
    let out = child.stdout.take().unwrap();
    let (send, receive) = mpsc::channel();
    // `head -1`: read a line, then close the pipe.
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(out).read_line(&mut line);
        let _ = send.send(line);
    });
    let Ok(line) = receive.recv_timeout(DEADLINE) else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("no scenario line within {DEADLINE:?}: lines are held back until every scenario ran");
    };
    assert!(line.starts_with(r#"{"scenario":1,"#), "{line}");
    let status = wait_within(&mut child, "scen with its stdout closed");
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(err, "", "a closed pipe is no error to report");
    assert!(status.success(), "{status:?}");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fifo = path_str(&fifo);
    for args in [&["path", fifo][..], &["sim", fifo, "--ticks", "1"], &["scen", fifo], &["replay", fifo, "--verify"]] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&o), format!("delve: {fifo}: cannot read: a FIFO, not a regular file\n"), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn an_endless_device_is_refused_before_reading() {
    for args in [&["path", "/dev/urandom"][..], &["replay", "/dev/urandom", "--verify"], &["scen", "/dev/zero"]] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).ends_with(": cannot read: a character device, not a regular file\n"), "{}", stderr(&o));
    }
}

#[test]
fn files_above_the_limit_are_refused_with_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("big.txt", delve::level::MAX_LEVEL_BYTES, &["path"][..]),
        ("big.replay", delve::replay::MAX_REPLAY_BYTES, &["replay", "--verify"][..]),
    ];
    for (name, limit, args) in cases {
        let file = dir.path().join(name);
        // Sparse: no disk space is spent, and no byte of it may be read.
        std::fs::File::create(&file).unwrap().set_len(limit.bytes + 1).unwrap();
        let mut args = args.to_vec();
        args.insert(1, path_str(&file));
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o),
            format!(
                "delve: {}: cannot read: {} bytes is more than {} can be ({} bytes at most)\n",
                file.display(),
                limit.bytes + 1,
                limit.what,
                limit.bytes
            )
        );
    }
}

#[test]
fn negative_numbers_are_answered_with_the_rule() {
    let cases: &[(&[&str], &str)] = &[
        (&["sim", "--seed", "-1"], "invalid value '-1' for '--seed <SEED>': must be ≥ 0"),
        (&["sim", "--ticks", "-1"], "'-1' is not a number of ticks from 0 to 100000000"),
        (&["sim", "--budget", "-5"], "invalid value '-5' for '--budget <BUDGET>': must be ≥ 1"),
        (&["sim", "--repath-ticks", "-1"], "invalid value '-1' for '--repath-ticks <REPATH_TICKS>': must be ≥ 1"),
        (&["sim", "--monsters", "-1"], "invalid value '-1' for '--monsters <MONSTERS>': must be ≥ 0"),
        (&["play", "--boids", "-3"], "invalid value '-3' for '--boids <BOIDS>': must be ≥ 0"),
        (&["sim", "--repath-cells", "-1"], "'-1' is not a number of cells ≥ 0"),
        (&["path", "--weight", "-1"], "'-1' is not a weight from 1 to 10"),
        (&["path", "--weight", "-inf"], "'-inf' is not a weight from 1 to 10: write decimal digits"),
        (&["path", "--neighbors", "-4"], "unknown neighbour count '-4'"),
        (&["replay", "x.replay", "--speed", "-1"], "'-1' is not a speed from 0.25 to 8"),
    ];
    for (args, rule) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(rule), "{args:?}: {err}");
    }
}

/// Every numeric and cell flag of every command takes a number spelt one
/// way (digits, a `-` for a negative, no `+`, spaces, leading zeros,
/// exponents or infinities) and says which rule a value breaks.
#[test]
fn numbers_on_the_command_line_have_one_spelling() {
    let whole = [
        "--seed",
        "--ticks",
        "--monsters",
        "--wanderers",
        "--fleeing",
        "--boids",
        "--repath-ticks",
        "--budget",
        "--lives",
    ];
    let decimal: [(&[&str], &str); 4] = [
        (&["path"], "--weight"),
        (&["path", "--algo", "navmesh"], "--radius"),
        (&["sim"], "--repath-cells"),
        (&["replay", "x.jsonl"], "--speed"),
    ];
    let mut cases: Vec<(Vec<&str>, &str)> = whole.iter().map(|&flag| (vec!["sim"], flag)).collect();
    cases.extend(decimal.iter().map(|&(command, flag)| (command.to_vec(), flag)));
    cases.push((vec!["play"], "--monsters"));
    cases.push((vec!["scen", "x.scen"], "--weight"));
    for (command, flag) in &cases {
        for bad in ["+1", " 1", "1 ", "01", "0x1", "1e1", "1_0", "-inf", "inf", "NaN", ""] {
            let mut args = command.clone();
            args.extend([*flag, bad]);
            let o = run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            let err = stderr(&o);
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
            assert!(err.contains(&format!("for '{flag} <")) && err.contains("decimal digits"), "{args:?}: {err}");
        }
    }
    for flag in ["--from", "--to"] {
        for bad in ["+1,+2", " 1 , 2 ", "1, 2", "01,2", "1,2,3", "1.5,2", "-inf,1", "1;2"] {
            let o = run(&["path", flag, bad]);
            assert_eq!(o.status.code(), Some(2), "{flag} {bad:?}");
            let err = stderr(&o);
            assert!(
                err.contains(&format!("'{bad}' is not a cell (expected x,y: two whole numbers and a comma")),
                "{err}"
            );
        }
    }
    // The documented forms pass.
    for args in
        [&["path", "--weight", "1.5", "--from", "4,3", "--to", "66,27"][..], &["sim", "--ticks", "0", "--seed", "0"]]
    {
        let o = run(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn names_with_control_characters_are_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    // A level whose name clears the screen, in a file whose name does too.
    let level = dir.path().join("clear\u{1b}[2J.txt");
    std::fs::write(&level, "name: x\u{1b}[2Jy\nS.G\n").unwrap();
    let o = run(&["path", path_str(&level)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("x\\u{1b}[2Jy (3x1): 0,0 -> 2,0\n"), "{}", stdout(&o));
    let o = run(&["sim", path_str(&level), "--ticks", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains('\u{1b}'), "{}", stdout(&o));
    assert!(stdout(&o).contains("clear\\u{1b}[2J.txt: 1 ticks"), "{}", stdout(&o));
    // A newline in a file name does not split an error message.
    let bad = dir.path().join("two\nlines.txt");
    std::fs::write(&bad, "#x#\n").unwrap();
    let o = run(&["path", path_str(&bad)]);
    assert_eq!(o.status.code(), Some(2));
    let shown = bad.display().to_string().replace('\n', "\\n");
    assert_eq!(
        stderr(&o),
        format!("delve: {shown}:1:2: unknown glyph 'x' (expected one of # . 1-9 ~ + ' @ M w f b S G)\n")
    );
}

/// A name that holds a right-to-left override or a zero-width character
/// is shown with them escaped, on stdout and in an error line alike, so it
/// cannot reorder or hide what follows it.
#[test]
fn names_with_bidirectional_overrides_are_printed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("bidi.txt");
    std::fs::write(&level, "name: evil\u{202e}txt.exe\u{200b}\nS.G\n").unwrap();
    let o = run(&["path", path_str(&level)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("evil\\u{202e}txt.exe\\u{200b} (3x1): 0,0 -> 2,0\n"), "{}", stdout(&o));
    let solid = dir.path().join("solid\u{2067}.txt");
    std::fs::write(&solid, "name: x\u{202d}y\n###\n").unwrap();
    let o = run(&["sim", path_str(&solid), "--ticks", "1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(!err.contains('\u{202d}') && !err.contains('\u{2067}'), "{err}");
    assert!(err.ends_with("solid\\u{2067}.txt: level 'x\\u{202d}y' has no walkable cell for the player\n"), "{err}");
}

#[test]
fn a_level_without_room_names_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("solid.txt");
    std::fs::write(&level, "###\n").unwrap();
    let o = run(&["sim", path_str(&level), "--ticks", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), format!("delve: {}: level 'solid' has no walkable cell for the player\n", level.display()));
}

#[test]
fn bad_utf8_names_the_line_and_byte_offset() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("latin1.txt");
    std::fs::write(&level, b"name: caf\xe9\n...\n").unwrap();
    let o = run(&["path", path_str(&level)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("delve: {}:1: cannot read: not UTF-8 text (byte 0xe9 at byte offset 9)\n", level.display())
    );
}
