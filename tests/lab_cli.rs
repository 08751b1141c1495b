//! The teacher's lab from the command line: the navmesh's weight on
//! `delve path`, the presets of `delve lab --preset`.

use crate::support::run::{run, stderr, stdout};

fn json(args: &[&str]) -> serde_json::Value {
    let o = run(args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// `--weight` sets the navmesh's own w: 1.3 unless given, and at 1 the
/// portal search is plain A*, consistent (no reopening, no violation) on
/// the dungeon where 1.3 is not, and it expands more.
#[test]
fn path_takes_the_navmesh_weight() {
    let base = ["path", "levels/dungeon.txt", "--algo", "navmesh", "--json"];
    let default = json(&base);
    assert_eq!(default["weight"], serde_json::json!(1.3), "{default}");
    let broken = default["reopened"].as_u64().unwrap() + default["violations"].as_u64().unwrap();
    assert!(broken > 0, "{default}");
    let one = json(&[&base[..], &["--weight", "1"]].concat());
    assert_eq!(one["weight"], serde_json::json!(1.0), "{one}");
    assert_eq!((one["reopened"].as_u64(), one["violations"].as_u64()), (Some(0), Some(0)), "{one}");
    assert!(one["expanded"].as_u64() > default["expanded"].as_u64(), "plain A* floods more: {one} {default}");
    assert!(one["found"].as_bool().unwrap());
}

/// `--preset` takes the names of the lab's table, says them all in one
/// line when one is unknown (exit 2), lists them in `--help`, and a known
/// one reaches the lab's check for a terminal; it cannot go with `--algo`.
#[test]
fn lab_takes_a_preset_by_name() {
    let names = "astar-dijkstra|astar-greedy|astar-weighted|grid-navmesh|navmesh-weights|lazy-decrease-key|fifo-low-h|octile-manhattan";
    let o = run(&["lab", "--preset", "astar-dijkstar"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(&format!("unknown preset 'astar-dijkstar' (expected one of: {names})")), "{err}");
    let help = stdout(&run(&["lab", "--help"]));
    assert!(help.contains(&names.replace('|', ", ")), "{help}");
    for preset in names.split('|') {
        let o = run(&["lab", "--preset", preset]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("needs a terminal"), "{preset}: {}", stderr(&o));
    }
    let o = run(&["lab", "--preset", "fifo-low-h", "--algo", "astar"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

/// `--steer` opens the steering page (on the shipped arena by default,
/// which needs a terminal); a level too small for its crowd is one line,
/// exit 2; it goes with neither `--algo` nor `--preset`, and
/// `--steer-seed` needs it.
#[test]
fn lab_steer_checks_its_crowd_and_flags() {
    let o = run(&["lab", "--steer"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs a terminal"), "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let tiny = dir.path().join("tiny.txt");
    std::fs::write(&tiny, "@..\n...\n").unwrap();
    let o = run(&["lab", "--steer", tiny.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!((o.status.code(), err.trim_end().lines().count()), (Some(2), 1), "{err}");
    assert!(err.contains("tiny.txt") && err.contains("36 creatures to spawn"), "{err}");
    for args in [
        &["lab", "--steer", "--algo", "astar"][..],
        &["lab", "--steer", "--preset", "astar-greedy"],
        &["lab", "--steer-seed", "3"],
        &["lab", "--steer-compare", "no-cohesion"],
        &["lab", "--steer", "--steer-compare", "cohesion"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}
