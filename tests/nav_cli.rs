//! `delve path` with the any-angle planners: outputs, JSON keys and exit
//! codes.

use std::process::{Command, Output};

fn delve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_delve")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap()
}

fn json(o: &Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn compare_gives_three_lengths_in_the_right_order() {
    for radius in ["0", "0.3"] {
        let v = json(&delve(&["path", "levels/dungeon.txt", "--compare", "--json", "--radius", radius]));
        let c = &v["compare"];
        let (grid, mesh, wp) =
            (c["grid_smoothed"].as_f64().unwrap(), c["navmesh"].as_f64().unwrap(), c["waypoints"].as_f64().unwrap());
        assert!(wp <= mesh + 1e-9 && wp <= grid + 1e-9, "radius {radius}: the optimum is the least: {v}");
        for key in ["grid_smoothed", "navmesh", "waypoints"] {
            assert!(v["micros"][key].as_f64().unwrap() > 0.0, "{v}");
        }
    }
}

#[test]
fn compare_without_a_path_gives_nulls() {
    // S and G on either side of a wall that splits the level.
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("sealed.txt");
    std::fs::write(&level, "S.#..\n..#.G\n").unwrap();
    let v = json(&delve(&["path", level.to_str().unwrap(), "--compare", "--json"]));
    for key in ["grid_smoothed", "navmesh", "waypoints"] {
        assert_eq!(v["compare"][key], serde_json::Value::Null, "{v}");
    }
}

#[test]
fn navmesh_and_waypoints_print_their_paths() {
    let mesh = json(&delve(&["path", "levels/dungeon.txt", "--algo", "navmesh", "--json"]));
    let wp = json(&delve(&["path", "levels/dungeon.txt", "--algo", "waypoints", "--json"]));
    for v in [&mesh, &wp] {
        assert_eq!(v["found"], true);
        let path = v["path"].as_array().unwrap();
        let len: f64 = path
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0].as_array().unwrap(), w[1].as_array().unwrap());
                (a[0].as_f64().unwrap() - b[0].as_f64().unwrap()).hypot(a[1].as_f64().unwrap() - b[1].as_f64().unwrap())
            })
            .sum();
        assert!((len - v["length"].as_f64().unwrap()).abs() < 1e-9, "{v}");
    }
    assert!(mesh["polygons"].as_array().unwrap().len() >= 2);
    assert!(mesh["polygon_count"].as_u64().unwrap() >= 2);
    assert_eq!(wp["waypoints"].as_array().unwrap().len() + 2, wp["path"].as_array().unwrap().len());
    let text = delve(&["path", "levels/dungeon.txt", "--algo", "navmesh"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("polygons crossed: ") && text.contains("length "), "{text}");
}

#[test]
fn bad_nav_input_is_one_line_and_exit_two() {
    let cases: &[&[&str]] = &[
        &["path", "--algo", "navmesh", "--radius", "0.5"],
        &["path", "--algo", "navmesh", "--radius", "-0.1"],
        &["path", "--radius", "0.2"],
        &["path", "levels/room.txt", "--algo", "waypoints", "--from", "99,0"],
        &["play", "--algo", "navmesh,waypoints"],
        &["scen", "tests/fixtures/movingai/rooms.map.scen", "--algo", "waypoints"],
    ];
    for args in cases {
        let o = delve(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?} printed {err:?}");
    }
}

#[test]
fn the_lab_takes_its_panes_planners_from_algo() {
    // Two at most (one a pane); names it knows reach the terminal check.
    for (algo, said) in [
        ("astar,navmesh,waypoints", "two planners at most"),
        ("astar,navmesh", "needs a terminal"),
        ("navmush", "navmesh|waypoints"),
    ] {
        let o = delve(&["lab", "--algo", algo]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{algo}: {err}");
        assert!(err.contains(said), "{algo}: {err}");
    }
}

/// The level: 256 × 256 with a pillar every 4 cells each way,
/// 16,384 wall corners (64 KB).
fn pillars(dir: &std::path::Path) -> std::path::PathBuf {
    let mut rows: Vec<String> =
        (0..256).map(|y| (0..256).map(|x| if x % 4 == 1 && y % 4 == 1 { '#' } else { '.' }).collect()).collect();
    rows[0].replace_range(0..1, "S");
    rows[255].replace_range(255..256, "G");
    let file = dir.join("pillars.txt");
    std::fs::write(&file, rows.join("\n") + "\n").unwrap();
    file
}

/// Runs delve, failing if it does not end within `seconds` (the commands
/// below ran for minutes before the cap).
fn delve_within(seconds: u64, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_delve"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let began = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed().as_secs() > seconds {
            child.kill().unwrap();
            panic!("{args:?} still ran after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// One cap for the corner graph everywhere: `path` (alone or in
/// `--compare`), `sim` and `play` refuse a level beyond it in one line,
/// before any search, instead of building the graph for minutes.
#[test]
fn a_level_beyond_the_corner_cap_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let level = pillars(dir.path());
    let level = level.to_str().unwrap();
    let want =
        format!("{level}: the level has 16384 wall corners, more than the 10000 the corner waypoint graph takes");
    let cases: &[&[&str]] = &[
        &["path", level, "--algo", "waypoints"],
        &["path", level, "--compare"],
        &["sim", level, "--algo", "waypoints", "--monsters", "2000", "--ticks", "90"],
        &["play", level, "--algo", "waypoints"],
    ];
    for args in cases {
        let o = delve_within(30, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err, format!("delve: {want}\n"), "{args:?}");
    }
    // The navmesh plans there, and so do the grid searches.
    for algo in ["navmesh", "astar"] {
        let o = delve_within(30, &["path", level, "--algo", algo, "--json"]);
        assert_eq!(json(&o)["found"], true, "{algo}");
    }
}
