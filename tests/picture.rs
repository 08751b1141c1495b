//! `delve path --svg`: the picture is well-formed XML with one shape per
//! closed cell of each search, drawn in a row for several `--algo` values.

use std::process::{Command, Output};

fn delve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_delve")).args(args).output().expect("run delve")
}

/// The closed cells each search reports, by `delve path --json`.
fn expanded(algo: &str) -> u64 {
    let o = delve(&["path", "--algo", algo, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["expanded"].as_u64().unwrap()
}

/// Counts the elements of `doc` of class `class` in each top-level group.
fn per_group(doc: &roxmltree::Document, class: &str) -> Vec<usize> {
    let groups = doc.root_element().children().filter(|n| n.has_tag_name("g"));
    groups.map(|g| g.descendants().filter(|n| n.attribute("class") == Some(class)).count()).collect()
}

#[test]
fn one_shape_per_closed_cell_in_a_row_of_searches() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("three.svg");
    let o = delve(&["path", "--algo", "dijkstra,astar", "--algo", "greedy", "--svg", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // The goal is closed too (popped), but not expanded.
    let want: Vec<usize> = ["dijkstra", "astar", "greedy"].iter().map(|a| expanded(a) as usize + 1).collect();
    assert_eq!(per_group(&doc, "closed"), want);
    assert!(want[0] > want[1] && want[1] > want[2], "a heuristic buys fewer expansions: {want:?}");
    assert_eq!(per_group(&doc, "path"), [1, 1, 1]);
    assert_eq!(per_group(&doc, "start"), [1, 1, 1]);
    let captions: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("caption"))
        .filter_map(|n| n.text().map(str::to_owned))
        .collect();
    assert!(captions.iter().any(|c| c.starts_with("greedy")), "{captions:?}");
    assert!(captions.iter().any(|c| c.starts_with("path cost")), "{captions:?}");
}

#[test]
fn several_algorithms_need_the_picture() {
    let o = delve(&["path", "--algo", "astar,greedy"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("only with `delve path --svg`"));
    let o = delve(&["sim", "--algo", "astar,greedy", "--ticks", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn any_angle_plans_are_not_drawn_in_silence() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    let svg = svg.to_str().unwrap();
    for args in [&["path", "--compare", "--svg", svg][..], &["path", "--algo", "navmesh", "--svg", svg]] {
        let o = delve(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--svg draws grid searches only"), "{args:?}");
        assert!(!std::path::Path::new(svg).exists(), "{args:?}");
    }
}
