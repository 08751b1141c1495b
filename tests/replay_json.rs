//! `delve replay --verify --json`: the verdict as one JSON object, its
//! keys and their types whatever the verdict, and the exit status as
//! without `--json`; and a replay read from standard input.

use crate::support::run::{command, stderr, stdout, wait_output};
use serde_json::Value;
use std::io::Write;
use std::process::{Output, Stdio};

const WON: &str = "tests/replays/dungeon-won.jsonl";

/// `delve replay - --verify --json` (or `args`) with `input` on stdin.
fn verify_stdin(args: &[&str], input: &str) -> Output {
    let mut c = command(args);
    c.stdin(Stdio::piped()).stdout(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    wait_output(child, &format!("{args:?}"))
}

/// The one JSON object on stdout, checked against the schema: every key
/// there, in order, with its type.
fn verdict(o: &Output) -> Value {
    let text = stdout(o);
    assert_eq!(text.lines().count(), 1, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let mut expected = vec![
        "file",
        "ok",
        "verdict",
        "complete",
        "checkpoints",
        "ticks",
        "tick",
        "mismatch_tick",
        "expected_hash",
        "actual_hash",
    ];
    if v["verdict"] == "commands_mismatch" {
        expected.extend(["expected_commands", "actual_commands"]);
    }
    expected.push("generator");
    assert_eq!(keys, expected, "{v}");
    assert!(v["file"].is_string() && v["ok"].is_boolean() && v["checkpoints"].is_u64(), "{v}");
    let verdicts = ["match", "state_mismatch", "commands_mismatch", "level_not_generated"];
    assert!(verdicts.contains(&v["verdict"].as_str().unwrap()), "{v}");
    assert!(v["complete"].is_boolean() || v["complete"].is_null());
    for key in ["ticks", "tick", "mismatch_tick"] {
        assert!(v[key].is_u64() || v[key].is_null(), "{key}: {v}");
    }
    for key in ["expected_hash", "actual_hash", "expected_commands", "actual_commands"] {
        let hex = |s: &str| s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit());
        assert!(v.get(key).is_none_or(|h| h.is_null() || h.as_str().is_some_and(hex)), "{key}: {v}");
    }
    assert_eq!(v["ok"], v["verdict"] == "match");
    assert_eq!(v["mismatch_tick"].is_null(), v["verdict"] == "match" || v["verdict"] == "level_not_generated");
    v
}

#[test]
fn a_matching_replay_is_ok_with_its_final_hash() {
    let o = crate::support::run::run(&["replay", WON, "--verify", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = verdict(&o);
    assert_eq!(v["file"], WON);
    assert_eq!((v["verdict"].as_str(), v["complete"].as_bool()), (Some("match"), Some(true)));
    assert_eq!((v["checkpoints"].as_u64(), v["ticks"].as_u64(), v["tick"].as_u64()), (Some(3), Some(296), Some(296)));
    assert_eq!(v["expected_hash"], v["actual_hash"]);
    assert!(v["generator"].is_null(), "a level from a file");
    // The same verdict as the line without --json.
    let line = stdout(&crate::support::run::run(&["replay", WON, "--verify"]));
    assert_eq!(line, format!("ok: 3 checkpoints match, final hash {}\n", v["actual_hash"].as_str().unwrap()));
}

#[test]
fn a_generated_level_s_check_is_in_the_verdict() {
    let o = crate::support::run::run(&["replay", "tests/replays/descent-5-depth-4.jsonl", "--verify", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = verdict(&o);
    assert_eq!(
        v["generator"],
        serde_json::json!({"recipe": "rooms seed 5 depth 4 size 72x36", "ok": true, "first_different_line": null})
    );
}

#[test]
fn a_mismatch_names_its_first_tick_and_both_hashes_with_status_one() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/replays/dungeon-won.jsonl")).unwrap();
    // The recorded hash at tick 200, read from the file (a re-recording
    // changes it), and the same with its last digit changed.
    let key = r#"{"checkpoint":200,"hash":""#;
    let at = text.find(key).expect("a checkpoint at 200") + key.len();
    let recorded = &text[at..at + 16];
    let forged = format!("{}{}", &recorded[..15], if recorded.ends_with('0') { '1' } else { '0' });
    let wrong = text.replacen(&format!("{key}{recorded}"), &format!("{key}{forged}"), 1);
    assert_ne!(wrong, text);
    let o = verify_stdin(&["replay", "-", "--verify", "--json"], &wrong);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = verdict(&o);
    assert_eq!(v["file"], "<stdin>");
    assert_eq!((v["verdict"].as_str(), v["mismatch_tick"].as_u64()), (Some("state_mismatch"), Some(200)));
    assert_eq!((v["expected_hash"].as_str(), v["actual_hash"].as_str()), (Some(forged.as_str()), Some(recorded)));
    assert_eq!(v["checkpoints"], 1, "the checkpoint at 100 matched");
    // A command re-stamped: the digest differs at the first checkpoint.
    let edited = text.replace(r#"{"tick":6,"cmd":"move""#, r#"{"tick":5,"cmd":"move""#);
    assert_ne!(edited, text);
    let o = verify_stdin(&["replay", "-", "--verify", "--json"], &edited);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = verdict(&o);
    assert_eq!((v["verdict"].as_str(), v["mismatch_tick"].as_u64()), (Some("commands_mismatch"), Some(100)));
    assert_ne!(v["expected_commands"], v["actual_commands"]);
    assert!(v["expected_hash"].is_null());
}

#[test]
fn a_replay_on_standard_input_verifies_as_its_file_does_and_errors_name_stdin() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/replays/dungeon-won.jsonl")).unwrap();
    let o = verify_stdin(&["replay", "-", "--verify"], &text);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&crate::support::run::run(&["replay", WON, "--verify"])));
    let o = verify_stdin(&["replay", "-", "--verify"], "{\"delve_replay\":3}\nnot json\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("delve: <stdin>:1"), "{}", stderr(&o));
    let o = verify_stdin(&["replay", "-"], &text);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "delve: -: playing a replay reads its keys from the terminal, so it cannot read the replay from standard \
         input (`delve replay - --verify` checks one from there)\n"
    );
    let o = crate::support::run::run(&["replay", WON, "--json"]);
    assert_eq!(o.status.code(), Some(2), "--json is for --verify");
}
