//! `delve sim` given lists of settings: every combination run side by
//! side on the same level, seed and ticks, a row each.

use crate::cli::{delve, refused, stderr, stdout};
use serde_json::Value;

fn json_lines(args: &[&str]) -> Vec<Value> {
    let o = delve(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// What does not depend on the machine's speed.
fn counts(v: &Value) -> Vec<Value> {
    ["hash", "searches", "expanded", "cells_updated", "rekeyed", "work", "stale_pops", "catches", "outcome"]
        .iter()
        .map(|k| v[*k].clone())
        .collect()
}

const BASE: [&str; 6] = ["sim", "levels/dungeon.txt", "--ticks", "400", "--monsters", "6"];

#[test]
fn each_row_is_the_run_its_settings_make_alone() {
    let mut args = BASE.to_vec();
    args.extend(["--repath", "every-tick,incremental,flow-field", "--algo", "astar,jps", "--json"]);
    let rows = json_lines(&args);
    assert_eq!(rows.len(), 6, "3 policies x 2 algorithms");
    let mut i = 0;
    for algo in ["astar", "jps"] {
        for repath in ["every-tick", "incremental", "flow-field"] {
            let row = &rows[i];
            assert_eq!((row["algo"].as_str(), row["repath"].as_str()), (Some(algo), Some(repath)), "row {i}");
            assert_eq!(row["level"], "levels/dungeon.txt");
            let mut alone = BASE.to_vec();
            alone.extend(["--repath", repath, "--algo", algo, "--json"]);
            let alone = json_lines(&alone);
            assert_eq!(alone.len(), 1);
            assert_eq!(counts(row), counts(&alone[0]), "{algo} {repath}");
            assert!(alone[0].get("algo").is_none(), "a single run keeps its own keys");
            i += 1;
        }
    }
    // The policies do differ: incremental re-keys, every-tick does not.
    assert_eq!(rows[0]["rekeyed"], 0);
    assert!(rows[1]["rekeyed"].as_u64().unwrap() > 0, "{}", rows[1]);
    assert_ne!(rows[0]["hash"], rows[2]["hash"], "the policy is in the hash");
}

#[test]
fn the_table_has_a_row_per_combination_under_its_flags() {
    let mut args = BASE.to_vec();
    args.extend(["--repath", "every-tick,flow-field", "--avoid", "separation,orca"]);
    let o = delve(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5 + 4, "{text}");
    assert_eq!(lines[0], "levels/dungeon.txt: 400 ticks, seed 1, 4 runs one after another");
    assert!(lines[1].ends_with("each row sets --repath, --avoid"), "{}", lines[1]);
    assert!(lines[2].starts_with("creatures: 10 monster"), "{}", lines[2]);
    let heading: Vec<&str> = lines[4].split_whitespace().collect();
    assert_eq!(
        heading,
        [
            "repath",
            "avoid",
            "searches",
            "expanded",
            "updated",
            "rekeyed",
            "stale",
            "pops",
            "work/tick",
            "search",
            "ms",
            "wall",
            "ms",
            "cpu",
            "ms",
            "catches",
            "outcome",
            "hash"
        ]
    );
    let firsts: Vec<(&str, &str)> = lines[5..]
        .iter()
        .map(|l| {
            let mut words = l.split_whitespace();
            (words.next().unwrap(), words.next().unwrap())
        })
        .collect();
    assert_eq!(
        firsts,
        [("every-tick", "separation"), ("every-tick", "orca"), ("flow-field", "separation"), ("flow-field", "orca")]
    );
    // The counts of a row are the JSON row's.
    let mut json = args.clone();
    json.push("--json");
    let rows = json_lines(&json);
    let hash = |l: &str| l.split_whitespace().last().unwrap().to_string();
    for (line, row) in lines[5..].iter().zip(&rows) {
        assert_eq!(hash(line), row["hash"].as_str().unwrap());
        let expanded = line.split_whitespace().nth(3).unwrap().replace(',', "");
        assert_eq!(expanded, row["expanded"].to_string(), "{line}");
    }
}

#[test]
fn one_value_keeps_the_single_run_s_summary() {
    let mut args = BASE.to_vec();
    args.extend(["--repath", "incremental"]);
    let text = stdout(&delve(&args));
    assert!(text.starts_with("levels/dungeon.txt: 400 ticks, seed 1, hash "), "{text}");
    assert!(
        text.contains(
            "\nsettings: astar, octile heuristic, fifo ties, 8 neighbours, repath incremental, smoothing on\n"
        )
    );
}

#[test]
fn what_a_comparison_cannot_do_is_refused() {
    let err = refused(&["sim", "--repath", "timer,threshold", "--seeds", "1..3"]);
    assert!(err.contains("--seeds plays one setting of each"), "{err}");
    let err = refused(&["sim", "--repath", "timer,threshold", "--record", "/tmp/never-written.jsonl"]);
    assert!(err.contains("--record records one session, and a list of settings runs 2"), "{err}");
    let err = refused(&["play", "levels/room.txt", "--repath", "timer,threshold"]);
    assert_eq!(err, "delve: --repath takes one value here (several only with `delve sim`)\n");
    let err = refused(&["play", "levels/room.txt", "--aim", "player,goal"]);
    assert_eq!(err, "delve: --aim takes one value here (several only with `delve sim`)\n");
    let all_algos = "bfs,dijkstra,astar,greedy,weighted,jps,jps+,hpa,navmesh";
    let err = refused(&[
        "sim",
        "--algo",
        all_algos,
        "--repath",
        "every-tick,timer,threshold,incremental",
        "--avoid",
        "separation,orca",
    ]);
    assert_eq!(
        err,
        "delve: --algo (9) x --repath (4) x --avoid (2) make 72 combinations, more than the 64 one comparison runs\n"
    );
}

/// `--flock` takes a preset or three weights: printed, in `--json` and in
/// the hash when not the default; anything else is one line, exit 2.
#[test]
fn flock_weights_are_a_preset_or_a_triple() {
    let run = |flock: &str| {
        let mut args = vec!["sim", "levels/arena.txt", "--ticks", "200", "--json", "--flock", flock];
        args.truncate(if flock.is_empty() { 5 } else { 7 });
        json_lines(&args).remove(0)
    };
    let default = run("");
    assert_eq!(
        default["flock"],
        serde_json::json!({"separation": 6.0, "alignment": 1.0, "cohesion": 0.3, "preset": "default"})
    );
    assert_eq!(run("default")["hash"], default["hash"], "the default, named, is the default");
    assert_eq!(run("6,1,0.3")["hash"], default["hash"]);
    let loose = run("no-cohesion");
    assert_eq!(loose["flock"]["preset"], "no-cohesion");
    assert_ne!(loose["hash"], default["hash"], "other weights, another world");
    let free = run("2,0.5,1");
    assert_eq!(
        free["flock"],
        serde_json::json!({"separation": 2.0, "alignment": 0.5, "cohesion": 1.0, "preset": null})
    );
    let o = delve(&["sim", "levels/arena.txt", "--ticks", "10", "--flock", "2,0.5,1"]);
    assert!(stdout(&o).contains("\nflocking weights: s 2 a 0.5 c 1\n"), "{}", stdout(&o));
    assert!(!stdout(&delve(&["sim", "levels/arena.txt", "--ticks", "10"])).contains("flocking"));
    for (bad, why) in [
        ("loose", "neither a flocking preset"),
        ("1,2", "neither a flocking preset"),
        ("1,-2,0", "flock alignment -2 is not from 0 to 100"),
    ] {
        let err = refused(&["sim", "levels/arena.txt", "--flock", bad]);
        assert!(err.contains(why) && err.trim_end().lines().count() == 1, "{bad}: {err}");
    }
}
