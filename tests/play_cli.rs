//! `delve play` refuses what it cannot play before touching the terminal:
//! one line on stderr, exit status 2, nothing on stdout.

use std::process::{Command, Output};

fn delve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_delve")).args(args).output().expect("the binary runs")
}

fn refused(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "stdout: {:?}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn a_missing_level_is_one_line() {
    let err = refused(&delve(&["play", "no/such/level.txt"]));
    assert!(err.starts_with("delve: ") && err.contains("no/such/level.txt"), "{err}");
}

#[test]
fn a_bad_flag_is_one_line() {
    let err = refused(&delve(&["play", "--heuristic", "nearest"]));
    assert!(err.contains("nearest"), "{err}");
}

#[test]
fn without_a_terminal_it_says_so() {
    // Here stdout is a pipe, as it is for `delve > file`.
    let err = refused(&delve(&["play"]));
    assert!(err.contains("needs a terminal"), "{err}");
    let err = refused(&delve(&[]));
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn a_record_target_that_cannot_be_written_is_refused_before_the_terminal_is_needed() {
    let dir = tempfile::tempdir().unwrap();
    let sub = format!("{}/", dir.path().display());
    for (target, why) in [
        ("-", "--record writes a file, not standard output"),
        (sub.as_str(), "it names a directory"),
        ("/no/such/dir/x.jsonl", "its directory /no/such/dir does not exist"),
    ] {
        let err = refused(&delve(&["play", "--record", target]));
        assert!(err.starts_with(&format!("delve: {target}: cannot record to it: {why}")), "{err}");
    }
}
