//! The command-line contract: outputs, JSON keys and exit codes.

use std::process::{Command, Output};

pub(crate) fn delve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_delve")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap()
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A path as the command line takes it.
pub(crate) fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

/// The run failed with status 2, nothing on stdout and one line on stderr
/// (`delve: ...`), which is returned.
pub(crate) fn refused(args: &[&str]) -> String {
    let o = delve(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: {}", stdout(&o));
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert!(err.starts_with("delve: "), "{err}");
    err
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

/// The scenario file shipped with the tests, relative to the repository.
const FIXTURE_SCEN: &str = "tests/fixtures/movingai/rooms.map.scen";

/// The scenario lines of a scenario file's text (not the version line).
fn scenario_lines(text: &str) -> Vec<String> {
    text.lines().skip(1).filter(|l| !l.trim().is_empty()).map(str::to_owned).collect()
}

/// A folder holding a copy of the fixture map and a scenario file of
/// `lines` after the version line; returns it and the scenario file.
fn scen_dir(lines: &[String]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/movingai");
    std::fs::copy(fixture.join("rooms.map"), dir.path().join("rooms.map")).unwrap();
    let scen = dir.path().join("test.scen");
    std::fs::write(&scen, format!("version 1\n{}\n", lines.join("\n"))).unwrap();
    let scen = scen.to_str().unwrap().to_owned();
    (dir, scen)
}

/// The fixture's scenario lines.
fn fixture_lines() -> Vec<String> {
    scenario_lines(
        &std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE_SCEN)).unwrap(),
    )
}

#[test]
fn scen_summary_is_the_last_json_line() {
    let n = fixture_lines().len();
    let o = delve(&["scen", FIXTURE_SCEN, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "no progress bar when stderr is not a terminal");
    let v = json(&o);
    assert_eq!(v["scenarios"], n);
    assert_eq!(v["optimal"], n);
    assert_eq!(v["suboptimal"], 0);
    assert_eq!(v["better_than_optimal"], 0);
    assert_eq!(v["failed"], 0);
    assert!(v["mean_expanded"].as_f64().unwrap() > 0.0);
    assert!(v.get("mean_micros").is_some());
    assert_eq!(stdout(&o).lines().count(), n + 1);
    let last = stdout(&o).lines().last().unwrap_or("").to_string();
    let head = format!(
        r#"{{"scenarios":{n},"optimal":{n},"suboptimal":0,"better_than_optimal":0,"failed":0,"mean_expanded":"#
    );
    assert!(last.starts_with(&head), "{last}");
    let first: serde_json::Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    for key in [
        "scenario",
        "line",
        "map",
        "bucket",
        "start",
        "goal",
        "optimal_length",
        "cost",
        "expanded",
        "micros",
        "verdict",
    ] {
        assert!(first.get(key).is_some(), "missing {key} in {first}");
    }
    assert_eq!((&first["scenario"], &first["line"], &first["map"]), (&1.into(), &2.into(), &"rooms.map".into()));
}

#[test]
fn scen_counts_suboptimal_answers() {
    let o = delve(&["scen", FIXTURE_SCEN, "--algo", "greedy"]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.contains("  scenario "), "greedy's mismatches are listed: {text}");
    let o = delve(&["scen", FIXTURE_SCEN, "--algo", "greedy", "--json"]);
    let v = json(&o);
    assert!(v["suboptimal"].as_u64().unwrap() > 0, "greedy search is not optimal on rooms.map: {v}");
    assert_eq!(v["better_than_optimal"], 0, "nor better than optimal: {v}");
}

#[test]
fn scen_reports_cost_ratios_and_grid_data_for_every_algorithm() {
    let summary = |algo: &str, more: &[&str]| {
        let o = delve(&[&["scen", FIXTURE_SCEN, "--algo", algo, "--json"], more].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let scanned: u64 = lines[..lines.len() - 1].iter().map(|l| l["scanned"].as_u64().unwrap()).sum();
        (lines.last().unwrap().clone(), scanned)
    };
    let n = fixture_lines().len();
    let near_one = |r: &serde_json::Value| (r.as_f64().unwrap() - 1.0).abs() < 1e-6;
    let (astar, scanned) = summary("astar", &[]);
    assert!(near_one(&astar["mean_ratio"]) && near_one(&astar["worst_ratio"]), "{astar}");
    assert_eq!((&astar["preprocess_micros"], &astar["ran_astar"], scanned), (&0.0.into(), &false.into(), 0));
    for algo in ["jps", "jps+"] {
        let (v, scanned) = summary(algo, &[]);
        assert_eq!((v["optimal"].as_u64(), &v["ran_astar"]), (Some(n as u64), &false.into()), "{algo}: {v}");
        assert!(near_one(&v["mean_ratio"]) && near_one(&v["worst_ratio"]), "{algo}: {v}");
        assert!(v["preprocess_micros"].as_f64().unwrap() > 0.0, "{algo} built its grid data: {v}");
        if algo == "jps" {
            assert!(scanned > 0, "jps counts the cells it scans");
        }
        // Where jump points cannot run, A* answers and the summary says so.
        let (v, _) = summary(algo, &["--neighbors", "4"]);
        assert_eq!(v["ran_astar"], true, "{algo}: {v}");
    }
    let (hpa, _) = summary("hpa", &[]);
    assert_eq!((hpa["failed"].as_u64(), hpa["better_than_optimal"].as_u64()), (Some(0), Some(0)), "{hpa}");
    let (mean, worst) = (hpa["mean_ratio"].as_f64().unwrap(), hpa["worst_ratio"].as_f64().unwrap());
    assert!((1.0 - 1e-6..=worst).contains(&mean) && worst <= 1.5, "{hpa}");
    assert!(hpa["preprocess_micros"].as_f64().unwrap() > 0.0, "{hpa}");
    let (greedy, _) = summary("greedy", &[]);
    assert!(greedy["worst_ratio"].as_f64().unwrap() > 1.0 + 1e-6, "greedy is not optimal on rooms.map: {greedy}");
    let text = stdout(&delve(&["scen", FIXTURE_SCEN, "--algo", "jps"]));
    assert!(text.contains("  cost / optimal ") && text.contains("  grid data built in "), "{text}");
}

#[test]
fn scen_runs_each_scenario_on_the_map_it_names() {
    // An open map of rooms.map's size, where the optimum is the octile
    // distance; its scenarios end on cells that are walls in rooms.map.
    let fixture = fixture_lines();
    let (width, height) = (40, 21);
    let octile = |dx: f64, dy: f64| dx.max(dy) + (2f64.sqrt() - 1.0) * dx.min(dy);
    let mut lines = fixture.clone();
    for (goal_x, goal_y) in [(39, 20), (0, 20), (39, 0)] {
        let optimal = octile(goal_x as f64, goal_y as f64);
        lines.push(format!(
            "{}\topen.map\t{width}\t{height}\t0\t0\t{goal_x}\t{goal_y}\t{optimal:.8}",
            (optimal / 4.0) as u32
        ));
    }
    let (dir, scen) = scen_dir(&lines);
    let rows = format!("{}\n", ".".repeat(width)).repeat(height);
    std::fs::write(dir.path().join("open.map"), format!("type octile\nheight {height}\nwidth {width}\nmap\n{rows}"))
        .unwrap();
    let o = delve(&["scen", &scen, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["scenarios"], lines.len());
    assert_eq!(v["optimal"], lines.len(), "each scenario ran on its own map: {v}");
    let o = delve(&["scen", &scen]);
    assert!(stdout(&o).starts_with(&format!("{scen} on ")), "{}", stdout(&o));
    assert!(stdout(&o).lines().next().unwrap().contains("rooms.map, "), "both maps named: {}", stdout(&o));
}

#[test]
fn scen_refuses_a_map_that_is_not_beside_the_file() {
    let mut lines = fixture_lines();
    lines[2] = lines[2].replace("rooms.map", "nowhere.map");
    let (_dir, scen) = scen_dir(&lines);
    let o = delve(&["scen", &scen]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.starts_with(&format!("delve: {scen}:4: cannot read map ")), "{err}");
    assert!(err.contains("nowhere.map"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn scen_refuses_a_scenario_on_another_map_than_the_map_flag() {
    let mut lines = fixture_lines();
    lines[5] = lines[5].replace("rooms.map", "other.map");
    let (dir, scen) = scen_dir(&lines);
    let map = dir.path().join("rooms.map");
    let map = map.to_str().unwrap();
    let o = delve(&["scen", &scen, "--map", map]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(stderr(&o), format!("delve: {scen}:7: the scenario is on map \"other.map\", not on --map {map}\n"));
    // Every scenario naming the given map's file runs on it.
    let (_other, scen) = scen_dir(&fixture_lines());
    let o = delve(&["scen", &scen, "--map", map, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["optimal"], fixture_lines().len());
}

#[test]
fn scen_gives_a_cost_below_the_files_optimum_its_own_verdict() {
    let mut lines = fixture_lines();
    let mut fields: Vec<String> = lines[3].split('\t').map(str::to_owned).collect();
    fields[8] = format!("{:.8}", fields[8].parse::<f64>().unwrap() + 1.0);
    lines[3] = fields.join("\t");
    let (_dir, scen) = scen_dir(&lines);
    let o = delve(&["scen", &scen, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let fourth: serde_json::Value = serde_json::from_str(out.lines().nth(3).unwrap()).unwrap();
    assert_eq!(fourth["verdict"], "better_than_optimal", "{fourth}");
    let v = json(&o);
    assert_eq!((&v["better_than_optimal"], &v["suboptimal"]), (&1.into(), &0.into()), "{v}");
    assert_eq!(v["optimal"], lines.len() - 1);
    let o = delve(&["scen", &scen]);
    let text = stdout(&o);
    assert!(text.contains("  better than optimal        1\n"), "{text}");
    assert!(text.contains("(line 5)") && text.contains("better_than_optimal"), "{text}");
}

#[test]
fn scen_errors_name_the_file_and_line() {
    // rooms.map has a wall border: 0,0 is a wall.
    let on_wall = |field: usize| {
        let mut lines = fixture_lines();
        let mut fields: Vec<String> = lines[1].split('\t').map(str::to_owned).collect();
        (fields[field], fields[field + 1]) = ("0".into(), "0".into());
        lines[1] = fields.join("\t");
        lines
    };
    for (field, end) in [(4, "start"), (6, "goal")] {
        let (dir, scen) = scen_dir(&on_wall(field));
        let o = delve(&["scen", &scen]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        let map = dir.path().join("rooms.map");
        assert_eq!(stderr(&o), format!("delve: {scen}:3: {end} 0,0 is on a wall of {}\n", map.display()));
    }
    let mut lines = fixture_lines();
    lines[4] = lines[4].replacen("\t40\t21\t", "\t41\t21\t", 1);
    let (dir, scen) = scen_dir(&lines);
    let o = delve(&["scen", &scen]);
    assert_eq!(o.status.code(), Some(2));
    let map = dir.path().join("rooms.map");
    assert_eq!(
        stderr(&o),
        format!("delve: {scen}:6: the scenario is for a 41x21 map but {} is 40x21\n", map.display())
    );
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
        "cells_updated",
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
    // Fresh A* repairs nothing: all its work is in `expanded`.
    assert_eq!(a["cells_updated"], 0);
    assert_eq!(a["agents"]["monster"], 6);
    let c = json(&delve(&["sim", "levels/arena.txt", "--seed", "8", "--ticks", "300", "--monsters", "3", "--json"]));
    assert_ne!(a["hash"], c["hash"]);
}

/// `levels/crossing.txt` under each avoidance: ORCA keeps the two packs
/// (and the wanderers) from overlapping where separation lets them pile
/// up, monsters sent home after a catch included.
#[test]
fn sim_avoid_orca_keeps_the_crossing_crowd_apart() {
    let run = |avoid: &str| {
        json(&delve(&["sim", "levels/crossing.txt", "--seed", "1", "--ticks", "1000", "--avoid", avoid, "--json"]))
    };
    let (separation, orca) = (run("separation"), run("orca"));
    assert_eq!(separation["avoid"], "separation");
    assert_eq!(orca["avoid"], "orca");
    let overlaps = |j: &serde_json::Value| j["overlaps"].as_u64().unwrap();
    assert!(overlaps(&separation) > 1000, "{separation}");
    assert_eq!(overlaps(&orca), 0, "orca {orca}\nseparation {separation}");
    assert!(orca["catches"].as_u64().unwrap() > 0, "monsters were sent home: {orca}");
    // The key must be there (indexing a missing key gives null too).
    let ttc = orca.get("min_time_to_collision").unwrap_or_else(|| panic!("no min_time_to_collision: {orca}"));
    assert!(ttc.is_number() || ttc.is_null(), "{ttc}");
    assert!(orca["orca_ms_per_tick"].as_f64().unwrap() > 0.0);
    assert_eq!(separation["orca_ms_per_tick"], 0.0);
    assert_ne!(orca["hash"], separation["hash"]);
    let o = delve(&["sim", "--avoid", "boids"]);
    assert_eq!(o.status.code(), Some(2));
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
    assert!(stdout(&o).contains("jps needs 8 neighbours and one entry cost on every walkable cell; ran astar instead"));
    // An ordering over jump points runs as that ordering does on cells.
    let v = cost("jps:dijkstra");
    assert_eq!((&v["cost"], &v["ran"], &v["ran_astar"]), (&astar["cost"], &"jps:dijkstra".into(), &false.into()));
    let o = delve(&["path", "levels/maze.txt", "--algo", "jps:dijkstra", "--neighbors", "4", "--json"]);
    assert_eq!((&json(&o)["ran"], &json(&o)["ran_astar"]), (&"dijkstra".into(), &true.into()));
    let o = delve(&["path", "levels/maze.txt", "--algo", "jps:bfs"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("jps cannot order by bfs"), "{}", stderr(&o));
}

/// A level file written for one test, removed when dropped.
struct TempLevel(std::path::PathBuf);

impl TempLevel {
    fn new(name: &str, text: &str) -> TempLevel {
        let dir = std::env::temp_dir().join(format!("delve-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{name}.txt"));
        std::fs::write(&file, text).unwrap();
        TempLevel(file)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempLevel {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}

/// Flags that would run something other than what they ask for are
/// refused: `--compare` beside a planner that is not a grid search (it
/// would run A* in the grid column), `--bot goal` on a level without a `G`
/// (the bot would stand still).
#[test]
fn flags_that_cannot_mean_what_they_say_are_refused() {
    for planner in ["navmesh", "waypoints"] {
        let o = delve(&["path", "--compare", "--algo", planner]);
        assert_eq!(o.status.code(), Some(2), "{planner}");
        assert_eq!(
            stderr(&o),
            format!(
                "delve: --compare runs a grid search beside the navmesh and the waypoints: --algo {planner} is not a grid algorithm\n"
            )
        );
    }
    assert!(delve(&["path", "--compare", "--algo", "jps"]).status.success());
    let level = TempLevel::new("nogoal", "name: nogoal\n@.......\n...M....\n");
    for extra in [&[][..], &["--record", "never.jsonl"]] {
        let mut args = vec!["sim", level.path(), "--bot", "goal", "--ticks", "5"];
        args.extend(extra);
        let o = delve(&args);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(
            stderr(&o),
            format!(
                "delve: {}: --bot goal walks to the level's G, and this level has none (try --bot random)\n",
                level.path()
            )
        );
        assert_eq!(stdout(&o), "");
    }
    assert!(!std::path::Path::new("never.jsonl").exists());
    assert!(delve(&["sim", "levels/dungeon.txt", "--bot", "goal", "--ticks", "5"]).status.success());
}

#[test]
fn sim_is_a_sandbox_by_default() {
    let v = json(&delve(&["sim", "levels/arena.txt", "--monsters", "20", "--ticks", "600", "--json"]));
    assert_eq!(v["outcome"], "running");
    assert_eq!(v["ended_at_tick"], serde_json::Value::Null);
    assert_eq!(v["lives_left"], serde_json::Value::Null);
    assert_eq!(v["ticks"], 600);
    assert!(v["catches"].as_u64().unwrap() > 0, "caught, and ran on: {v}");
}

#[test]
fn sim_goal_bot_wins_on_a_level_without_monsters() {
    let level = TempLevel::new("goal", "name: walk\n###########\n#@...#....#\n#.#.##.##.#\n#.#....#.G#\n###########\n");
    let v = json(&delve(&["sim", level.path(), "--bot", "goal", "--ticks", "1000", "--json"]));
    assert_eq!(v["outcome"], "won", "{v}");
    let end = v["ended_at_tick"].as_u64().unwrap();
    assert_eq!(v["ticks"].as_u64(), Some(end), "the session stops where it was won");
    assert!((40..200).contains(&end), "{end}");
    assert_eq!(v["lives_left"], 3);
    // The idle bot stands still and the sandbox never ends.
    let v = json(&delve(&["sim", level.path(), "--bot", "idle", "--ticks", "300", "--json"]));
    assert_eq!((v["outcome"].as_str(), v["ticks"].as_u64()), (Some("running"), Some(300)));
}

#[test]
fn sim_with_one_life_in_a_crowd_is_lost() {
    let o = delve(&["sim", "levels/arena.txt", "--monsters", "20", "--lives", "1", "--ticks", "2000", "--json"]);
    let v = json(&o);
    assert_eq!(v["outcome"], "lost", "{v}");
    assert_eq!(v["lives_left"], 0);
    assert_eq!(v["catches"], 1);
    assert_eq!(v["ticks"], v["ended_at_tick"]);
    assert!(v["ticks"].as_u64().unwrap() < 2000);
    let text = stdout(&delve(&["sim", "levels/arena.txt", "--monsters", "20", "--lives", "1", "--ticks", "2000"]));
    assert!(text.contains(&format!("outcome: lost at tick {}, lives left 0", v["ticks"])), "{text}");
}

#[test]
fn sim_rules_flags() {
    // --rules game: the level's lives (the arena's `lives: 2`).
    let v = json(&delve(&["sim", "levels/arena.txt", "--rules", "game", "--ticks", "5", "--json"]));
    assert_eq!(v["lives_left"], 2);
    let o = delve(&["sim", "--rules", "sandbox", "--lives", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "delve: --lives needs --rules game (a sandbox has no limit of lives)\n");
    for bad in [["--rules", "hard"], ["--bot", "smart"], ["--lives", "0"]] {
        let o = delve(&[&["sim"], &bad[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn lab_needs_a_terminal_and_a_good_level() {
    let o = delve(&["lab"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("delve lab needs a terminal"), "{}", stderr(&o));
    let o = delve(&["lab", "no/such/level.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/level.txt"), "{}", stderr(&o));
}

#[test]
fn usage_errors_keep_clap_s_tip_on_their_one_line() {
    let o = delve(&["pth"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "delve: unrecognized subcommand 'pth' (tip: a similar subcommand exists: 'path')\n");
    let o = delve(&["path", "levels/room.txt", "--jsn"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "delve: unexpected argument '--jsn' found (tip: a similar argument exists: '--json')\n");
}

/// `--help` lists the names of every flag that takes a setting's name, as
/// the library's table spells them (and the parser takes them).
#[test]
fn help_lists_every_setting_s_possible_values() {
    use delve::r#gen::Style;
    use delve::grid::Neighbors;
    use delve::search::{Heuristic, OpenUpdate, TieBreak};
    use delve::sim::{Aim, Avoidance, BotKind, Lost, Packs, RepathPolicy};
    let listed = |names: String| format!("[possible values: {}]", names.replace('|', ", "));
    let path = stdout(&delve(&["path", "--help"]));
    for names in [Heuristic::names(), TieBreak::names(), Neighbors::names(), OpenUpdate::names(), Style::names()] {
        assert!(path.contains(&listed(names.clone())), "{names} not in:\n{path}");
    }
    assert!(path.contains("[possible values: bfs, dijkstra, astar,"), "{path}");
    let sim = stdout(&delve(&["sim", "--help"]));
    for names in [
        RepathPolicy::names(),
        Avoidance::names(),
        Aim::names(),
        Packs::names(),
        Lost::names(),
        BotKind::names(),
        "game|sandbox".to_string(),
    ] {
        assert!(sim.contains(&listed(names.clone())), "{names} not in:\n{sim}");
    }
    let play = stdout(&delve(&["play", "--help"]));
    assert!(play.contains("[possible values: auto, always, never]"), "{play}");
    let generate = stdout(&delve(&["gen", "--help"]));
    assert!(generate.contains("[possible values: delve, movingai]"), "{generate}");
}

/// `delve completions SHELL` prints a script naming every command and the
/// settings' names; bash reads it without a syntax error.
#[test]
fn completions_name_the_commands_for_every_shell() {
    let o = delve(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let script = stdout(&o);
    for command in ["play", "path", "lab", "scen", "gen", "sim", "replay", "completions"] {
        assert!(script.contains(&format!("delve,{command})")), "no {command} in:\n{script}");
    }
    assert!(script.contains("manhattan euclidean octile chebyshev zero"), "no heuristics in:\n{script}");
    if let Ok(checked) = std::process::Command::new("bash").arg("-n").arg("-c").arg(&script).output() {
        assert!(checked.status.success(), "bash -n: {}", String::from_utf8_lossy(&checked.stderr));
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = delve(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        assert!(stdout(&o).contains("replay"), "{shell}");
    }
    let o = delve(&["completions", "nu"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}
