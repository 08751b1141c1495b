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
