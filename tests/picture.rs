//! `delve path --svg`: the picture is well-formed XML with one shape per
//! closed cell of each search, drawn in a row for several `--algo` values;
//! the any-angle planners draw their mesh or corners and their paths.

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
    // delve sim compares them instead, a row each (tests/sim_compare.rs).
    let o = delve(&["sim", "--algo", "astar,greedy", "--ticks", "1", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(o.stdout.iter().filter(|&&b| b == b'\n').count(), 2);
    let o = delve(&["play", "--algo", "astar,greedy"]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The elements of class `class` anywhere in `doc`.
fn count(doc: &roxmltree::Document, class: &str) -> usize {
    doc.descendants().filter(|n| n.attribute("class") == Some(class)).count()
}

#[test]
fn compare_draws_the_mesh_and_the_three_paths_with_a_legend() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("compare.svg");
    let o = delve(&["path", "levels/dungeon.txt", "--compare", "--svg", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("navmesh"), "the table is still printed");
    let text = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let polygons = delve(&["path", "levels/dungeon.txt", "--algo", "navmesh", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&polygons.stdout).unwrap();
    assert_eq!(count(&doc, "mesh"), v["polygon_count"].as_u64().unwrap() as usize, "one outline per polygon");
    for planner in ["grid_smoothed", "navmesh", "waypoints"] {
        let lines: Vec<_> = doc.descendants().filter(|n| n.attribute("class") == Some(planner)).collect();
        assert_eq!(lines.len(), 1, "{planner}");
        assert_eq!(lines[0].tag_name().name(), "polyline", "{planner}");
        assert!(lines[0].attribute("points").unwrap().split(' ').count() >= 2, "{planner}");
    }
    assert_eq!(count(&doc, "key"), 3, "a legend line per path");
    let captions: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("caption"))
        .filter_map(|n| n.text().map(str::to_owned))
        .collect();
    for words in ["string-pulled grid A*: length", "navmesh + funnel: length", "corner waypoints: length"] {
        assert!(captions.iter().any(|c| c.starts_with(words)), "{words}: {captions:?}");
    }
}

#[test]
fn one_any_angle_planner_draws_its_mesh_or_corners_and_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    let svg = svg.to_str().unwrap();
    for (algo, shape) in [("navmesh", "mesh"), ("waypoints", "corner")] {
        let o = delve(&["path", "levels/dungeon.txt", "--algo", algo, "--radius", "0.25", "--svg", svg, "--force"]);
        assert!(o.status.success(), "{algo}: {}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(svg).unwrap();
        let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
        assert!(count(&doc, shape) > 1, "{algo}");
        assert_eq!(count(&doc, algo), 1, "{algo}: its path");
        assert_eq!(count(&doc, "key"), 1, "{algo}");
        assert_eq!(count(&doc, "portal") > 0, algo == "navmesh", "{algo}: the corridor's portals");
    }
    // Several --algo with an any-angle planner are one picture too many.
    let o = delve(&["path", "--algo", "navmesh", "--algo", "astar", "--svg", svg]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("take one --algo"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The legend block names what the maps draw: each entry cost shaded on
/// the map has a sample of the same shade and its words, and the search's
/// shapes have theirs.
#[test]
fn the_legend_names_the_cost_shading_and_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("legend.svg");
    let o = delve(&["path", "levels/dungeon.txt", "--svg", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let legend = doc.descendants().find(|n| n.attribute("class") == Some("legend")).expect("a legend block");
    let words: Vec<&str> = legend.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    let opacities = |root: roxmltree::Node, class: &str| -> std::collections::BTreeSet<String> {
        let costs = root.descendants().filter(|n| n.attribute("class") == Some(class));
        costs.filter_map(|n| n.attribute("fill-opacity").map(str::to_owned)).collect()
    };
    let on_maps: std::collections::BTreeSet<String> =
        doc.root_element().children().filter(|n| n.has_tag_name("g")).flat_map(|g| opacities(g, "cost")).collect();
    assert!(!on_maps.is_empty(), "the dungeon has dearer cells");
    assert_eq!(opacities(legend, "sample cost"), on_maps, "a sample per shade on the map");
    // The samples are told apart from the maps' shapes.
    assert_eq!(per_group(&doc, "path"), [1], "{text}");
    assert_eq!(count(&doc, "path"), 1, "the legend's sample is class `sample path`");
    assert_eq!(words.iter().filter(|w| w.starts_with("entry cost ")).count(), on_maps.len(), "{words:?}");
    for wanted in ["wall", "closed", "open", "path", "waypoint", "start", "goal"] {
        assert!(words.contains(&wanted), "no {wanted}: {words:?}");
    }
}
