//! `delve sim --record` and `delve replay --verify` as a user runs them:
//! messages and exit statuses of the real binary.

use std::path::Path;
use std::process::{Command, Output};

fn delve(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_delve")).args(args).current_dir(dir).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_recorded_sim_verifies_and_a_changed_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/maze.txt");
    let level = level.to_str().unwrap();
    let sim = ["sim", level, "--seed", "3", "--ticks", "250", "--monsters", "2", "--record", "run.jsonl"];
    let recorded = delve(&sim, dir.path());
    assert!(recorded.status.success(), "{}", stderr(&recorded));
    let hash = stdout(&recorded).lines().next().unwrap().rsplit(' ').next().unwrap().to_string();

    let o = delve(&["replay", "run.jsonl", "--verify"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("ok: 3 checkpoints match, final hash {hash}\n"));

    // The summary is the same with and without --record (but for its speed).
    let timeless = |o: &Output| stdout(o).lines().filter(|l| !l.contains("ticks/s")).collect::<Vec<_>>().join("\n");
    assert_eq!(timeless(&delve(&sim[..8], dir.path())), timeless(&recorded));

    let o = delve(&sim, dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "delve: run.jsonl: already exists (pass --force to overwrite it)\n");
    let forced = [&sim[..], &["--force"]].concat();
    assert!(delve(&forced, dir.path()).status.success());

    let text = std::fs::read_to_string(dir.path().join("run.jsonl")).unwrap();
    let line = text.lines().find(|l| l.starts_with("{\"checkpoint\":200,")).unwrap();
    let at = line.find(r#""hash":""#).unwrap() + 8;
    let good = &line[at..at + 16];
    let bad = format!("{:016x}", u64::from_str_radix(good, 16).unwrap() ^ 0xff);
    std::fs::write(dir.path().join("changed.jsonl"), text.replace(good, &bad)).unwrap();
    let o = delve(&["replay", "changed.jsonl", "--verify"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("mismatch at tick 200: expected {bad}, actual {good}\n"));
}

#[test]
fn unusable_files_and_usage_errors_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("junk.jsonl"), "junk\n").unwrap();
    assert!(delve(&["sim", "--ticks", "20", "--record", "good.jsonl"], dir.path()).status.success());
    let cases: [(&[&str], &str); 5] = [
        (&["replay", "junk.jsonl", "--verify"], "delve: junk.jsonl:1: not JSON: expected value at column 1\n"),
        (&["replay", "missing.jsonl", "--verify"], "delve: missing.jsonl: cannot read: "),
        // The file is checked before the terminal is.
        (&["replay", "junk.jsonl"], "delve: junk.jsonl:1: not JSON: expected value at column 1\n"),
        (
            &["replay", "good.jsonl"],
            "delve: playing a replay needs a terminal on stdout (check it headless with `delve replay good.jsonl --verify`)\n",
        ),
        (
            &["replay", "junk.jsonl", "--speed", "0"],
            "delve: invalid value '0' for '--speed <X>': '0' is not a speed from 0.25 to 8\n",
        ),
    ];
    for (args, message) in cases {
        let o = delve(args, dir.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with(message), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{args:?}");
        assert_eq!(stdout(&o), "");
    }
}

/// Every file in `dir`, sorted, to show that a refused run left nothing.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// The partial file a message names: "... is in FILE (" or "FILE: cannot write".
fn named_partial(message: &str) -> String {
    let named = message.split(' ').find(|w| w.contains(".partial")).unwrap_or_else(|| panic!("{message}"));
    named.trim_end_matches(':').to_string()
}

#[test]
fn a_target_that_cannot_hold_a_recording_is_refused_before_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("file"), "precious").unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    std::os::unix::fs::symlink("file", d.join("link")).unwrap();
    assert!(Command::new("mkfifo").arg(d.join("fifo")).status().unwrap().success());
    let before = listing(d);
    let refused = "cannot record to it: ";
    let cases: [(&str, bool, &str); 11] = [
        ("-", false, "--record writes a file, not standard output (name it ./- to mean a file called -)"),
        ("sub/", false, "it names a directory; name a file"),
        ("x.replay/", false, "it names a directory; name a file"),
        (".", true, "it names a directory; name a file"),
        ("sub", true, "it is a directory; --record replaces only regular files"),
        ("missing/x.jsonl", false, "its directory missing does not exist"),
        ("file/x.jsonl", true, "file is not a directory"),
        ("link", true, "it is a symbolic link; --record replaces only regular files"),
        ("link", false, "it is a symbolic link; --record replaces only regular files"),
        ("fifo", true, "it is a fifo; --record replaces only regular files"),
        ("/dev/null", true, "it is a device; --record replaces only regular files"),
    ];
    for (target, force, why) in cases {
        // A run far too long to finish: refused at once or not at all.
        let mut args = vec!["sim", "--ticks", "100000000", "--record", target];
        if force {
            args.push("--force");
        }
        let o = delve(&args, d);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), format!("delve: {target}: {refused}{why}\n"), "{args:?}");
        assert_eq!(stdout(&o), "");
        assert_eq!(listing(d), before, "{args:?} left a file");
    }
    assert_eq!(std::fs::read_to_string(d.join("file")).unwrap(), "precious");
}

#[test]
fn ticks_past_what_a_replay_holds_are_refused_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let rule = "is not a number of ticks from 0 to 100000000 (57 days of game time, the most a replay holds)";
    for ticks in ["100000001", "18446744073709551615", "99999999999999999999"] {
        for record in [&["--record", "long.jsonl"][..], &[]] {
            let args = [&["sim", "--ticks", ticks][..], record].concat();
            let o = delve(&args, dir.path());
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert_eq!(stderr(&o), format!("delve: invalid value '{ticks}' for '--ticks <TICKS>': '{ticks}' {rule}\n"));
            assert!(listing(dir.path()).is_empty());
        }
    }
}

#[test]
fn two_forced_recordings_to_one_name_at_once_both_finish_whole() {
    let dir = tempfile::tempdir().unwrap();
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/maze.txt");
    let run = |seed: &str| {
        let args = ["sim", level.to_str().unwrap(), "--seed", seed, "--ticks", "1500", "--monsters", "4"];
        let args = [&args[..], &["--record", "same.jsonl", "--force"]].concat();
        Command::new(env!("CARGO_BIN_EXE_delve")).args(args).current_dir(dir.path()).spawn().unwrap()
    };
    let (a, b) = (run("1"), run("2"));
    for child in [a, b] {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = delve(&["replay", "same.jsonl", "--verify"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("ok: 16 checkpoints match, final hash "), "{}", stdout(&o));
    assert_eq!(listing(dir.path()), ["same.jsonl"], "a partial file was left");
}

#[test]
fn an_unfinished_recording_in_the_way_stops_another_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let left = ".run.jsonl.4242.0.partial";
    std::fs::write(dir.path().join(left), "kept\n").unwrap();
    let o = delve(&["sim", "--ticks", "20", "--record", "run.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(&format!("delve: {left}: an unfinished recording of the same name")),
        "{}",
        stderr(&o)
    );
    let o = delve(&["sim", "--ticks", "20", "--record", "run.jsonl", "--force"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(listing(dir.path()), [left, "run.jsonl"]);
    assert_eq!(std::fs::read_to_string(dir.path().join(left)).unwrap(), "kept\n", "--force left it alone");
}

#[test]
fn a_file_size_limit_leaves_whole_lines_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    // 8 blocks of 512 or 1024 bytes: the header and a few hundred ticks.
    let script = r#"ulimit -f 8 && exec "$0" sim --ticks 5000 --monsters 5 --record cut.jsonl"#;
    let o = Command::new("sh").args(["-c", script, env!("CARGO_BIN_EXE_delve")]).current_dir(dir.path()).output();
    let o = o.unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let message = stderr(&o);
    let partial = named_partial(&message);
    assert!(message.starts_with(&format!("delve: {partial}: cannot write: File too large")), "{message}");
    assert!(message.ends_with("the recording so far is kept there, up to its last whole line (`delve replay {partial} --verify` checks it)\n".replace("{partial}", &partial).as_str()), "{message}");
    assert_eq!(message.lines().count(), 1);
    let text = std::fs::read(dir.path().join(&partial)).unwrap();
    assert!(text.len() > 1000 && text.ends_with(b"\n"), "{} bytes, ends {:?}", text.len(), text.last());
    let o = delve(&["replay", &partial, "--verify"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).ends_with("; incomplete: no end record (the recording was interrupted)\n"), "{}", stdout(&o));
}

#[test]
fn a_signal_keeps_a_recorded_sim_as_an_interrupted_recording() {
    let dir = tempfile::tempdir().unwrap();
    for (signal, status) in [("TERM", 143), ("INT", 130), ("HUP", 129), ("QUIT", 131)] {
        let target = format!("{signal}.jsonl");
        let args = ["sim", "--ticks", "100000000", "--monsters", "3", "--record", &target];
        let child = Command::new(env!("CARGO_BIN_EXE_delve"))
            .args(args)
            .current_dir(dir.path())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Wait for the first checkpoint, so the signal meets a running session.
        let prefix = format!(".{target}.");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !listing(dir.path()).iter().any(|n| {
            n.starts_with(&prefix) && std::fs::read_to_string(dir.path().join(n)).unwrap().contains("checkpoint")
        }) {
            assert!(std::time::Instant::now() < deadline, "no checkpoint within a minute");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let pid = child.id().to_string();
        assert!(Command::new("kill").args(["-s", signal, &pid]).status().unwrap().success());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(status), "SIG{signal}: {}", stderr(&o));
        let message = stderr(&o);
        let partial = named_partial(&message);
        assert_eq!(
            message,
            format!(
                "delve: interrupted by SIG{signal}; the recording so far is in {partial} (`delve replay {partial} --verify` checks it)\n"
            )
        );
        assert!(!dir.path().join(&target).exists());
        assert!(std::fs::read(dir.path().join(&partial)).unwrap().ends_with(b"\n"));
        let o = delve(&["replay", &partial, "--verify"], dir.path());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stdout(&o).ends_with("; incomplete: no end record (the recording was interrupted)\n"),
            "{}",
            stdout(&o)
        );
    }
}
