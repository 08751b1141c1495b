//! The command-line contract: outputs, JSON keys and exit codes.

use std::process::{Command, Output};

fn delve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_delve")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    let text = stdout(o);
    serde_json::from_str(text.lines().last().unwrap_or("")).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn path_json_has_every_key() {
    let o = delve(&["path", "levels/room.txt", "--neighbors", "4", "--json", "--smooth"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    for key in [
        "found",
        "steps",
        "cost",
        "expanded",
        "pushed",
        "stale_pops",
        "max_open",
        "reopened",
        "violations",
        "micros",
        "path",
        "smoothed",
    ] {
        assert!(v.get(key).is_some(), "missing {key} in {v}");
    }
    assert_eq!(v["found"], true);
    assert_eq!(v["steps"], 10);
    assert_eq!(v["cost"], 10.0);
    assert_eq!(v["path"][0], serde_json::json!([0, 2]));
    assert_eq!(v["path"][10], serde_json::json!([6, 2]));
    assert_eq!(v["smoothed"].as_array().unwrap().first(), Some(&serde_json::json!([0, 2])));
}

#[test]
fn open_decrease_key_finds_the_same_path_without_stale_pops() {
    let run = |open: &str| json(&delve(&["path", "levels/dungeon.txt", "--open", open, "--json"]));
    let (lazy, fast) = (run("lazy"), run("decrease-key"));
    assert!(lazy["stale_pops"].as_u64().unwrap() > 0, "{lazy}");
    assert_eq!(fast["stale_pops"], 0, "{fast}");
    for key in ["found", "cost", "path", "expanded", "pushed", "max_open"] {
        assert_eq!(lazy[key], fast[key], "{key}");
    }
}

#[test]
fn path_draws_the_map_and_statistics() {
    let o = delve(&["path", "levels/room.txt", "--algo", "bfs", "--neighbors", "4"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.contains("S**#..G"), "{text}");
    assert!(text.contains("path: 10 steps, cost 10.0000"), "{text}");
    assert!(text.contains("expanded "), "{text}");
}

#[test]
fn no_path_is_an_answer() {
    let dir = std::env::temp_dir().join(format!("delve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("split.txt");
    std::fs::write(&file, "S.#..\n..#.G\n").unwrap();
    let o = delve(&["path", file.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["found"], false);
    assert_eq!(v["cost"], serde_json::Value::Null);
    assert_eq!(v["path"], serde_json::json!([]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_and_exit_two() {
    let cases: &[&[&str]] = &[
        &["path", "levels/missing.txt"],
        &["path", "levels/room.txt", "--algo", "astra"],
        &["path", "levels/room.txt", "--from", "3,0"],
        &["path", "levels/room.txt", "--from", "99,99"],
        &["path", "levels/room.txt", "--from", "x"],
        &["path", "levels/room.txt", "--weight", "0.5"],
        &["path", "levels/room.txt", "--neighbors", "6"],
        &["path", "levels/room.txt", "--open", "eager"],
        &["scen", "levels/room.txt"],
        &["sim", "--repath", "sometimes"],
    ];
    for args in cases {
        let o = delve(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?} printed {err:?}");
        assert!(err.starts_with("delve: "), "{args:?} printed {err:?}");
    }
}

#[test]
fn usage_errors_keep_what_is_missing() {
    let o = delve(&["scen"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "delve: the following required arguments were not provided: <SCEN>\n");
    let o = delve(&["path", "levels/room.txt", "--from", "-1,0"]);
    assert_eq!(stderr(&o), "delve: levels/room.txt: start -1,0 is outside the 7x5 map\n");
}

#[test]
fn a_replay_given_as_a_level_gets_a_hint() {
    let dir = std::env::temp_dir().join(format!("delve-cli-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("run.jsonl");
    let file = file.to_str().unwrap();
    assert!(delve(&["sim", "--ticks", "5", "--record", file, "--force"]).status.success());
    let o = delve(&["sim", file]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), format!("delve: {file}: is a replay, not a level (play it with `delve replay {file}`)\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scen_summary_is_the_last_json_line() {
    let o = delve(&["scen", "../shared/movingai/arena.map.scen", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["scenarios"], 130);
    assert_eq!(v["optimal"], 130);
    assert_eq!(v["suboptimal"], 0);
    assert_eq!(v["failed"], 0);
    assert!(v["mean_expanded"].as_f64().unwrap() > 0.0);
    assert!(v.get("mean_micros").is_some());
    assert_eq!(stdout(&o).lines().count(), 131);
    let last = stdout(&o).lines().last().unwrap_or("").to_string();
    assert!(last.starts_with(r#"{"scenarios":130,"optimal":130,"suboptimal":0,"failed":0,"mean_expanded":"#), "{last}");
}

#[test]
fn scen_counts_suboptimal_answers() {
    let o = delve(&["scen", "../shared/movingai/arena.map.scen", "--algo", "greedy"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.contains("  scenario "), "greedy's mismatches are listed: {text}");
    let o = delve(&["scen", "../shared/movingai/arena.map.scen", "--algo", "greedy", "--json"]);
    let v = json(&o);
    assert!(v["suboptimal"].as_u64().unwrap() > 0, "greedy search is not optimal on arena: {v}");
}

#[test]
fn sim_json_is_deterministic() {
    let args = ["sim", "levels/arena.txt", "--seed", "7", "--ticks", "300", "--monsters", "3", "--json"];
    let a = json(&delve(&args));
    let b = json(&delve(&args));
    for key in [
        "ticks",
        "hash",
        "searches",
        "expanded",
        "stale_pops",
        "repaths",
        "budget_waits",
        "catches",
        "ticks_per_sec",
        "micros_per_search",
        "agents",
    ] {
        assert!(a.get(key).is_some(), "missing {key} in {a}");
    }
    assert_eq!(a["ticks"], 300);
    assert_eq!(a["hash"], b["hash"]);
    assert_eq!(a["expanded"], b["expanded"]);
    assert_eq!(a["agents"]["monster"], 6);
    let c = json(&delve(&["sim", "levels/arena.txt", "--seed", "8", "--ticks", "300", "--monsters", "3", "--json"]));
    assert_ne!(a["hash"], c["hash"]);
}

#[test]
fn jump_point_searches_answer_as_astar_or_say_why_not() {
    let cost = |algo: &str| {
        let o = delve(&["path", "levels/maze.txt", "--algo", algo, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        json(&o)
    };
    let astar = cost("astar");
    for algo in ["jps", "jps+"] {
        let v = cost(algo);
        assert_eq!(v["cost"], astar["cost"], "{algo}");
        assert_eq!(v["ran_astar"], false, "{algo}");
        assert!(v["preprocess_micros"].as_f64().is_some(), "{algo}");
    }
    assert!(cost("jps")["scanned"].as_u64().unwrap() > 0);
    let o = delve(&["path", "levels/maze.txt", "--algo", "jps", "--neighbors", "4"]);
    assert!(
        stdout(&o).contains("jps: needs 8 neighbours and one entry cost on every walkable cell; ran astar instead")
    );
}
