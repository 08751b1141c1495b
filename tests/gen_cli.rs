//! `delve gen` from the command line: levels to stdout and files, the
//! Moving AI map and scenarios that `delve scen` then finds all optimal,
//! and one line with exit status 2 for every bad argument.

use super::cli::{delve, path, refused, stderr, stdout};
use std::path::Path;

#[test]
fn a_level_to_stdout_is_the_one_written_to_a_file_and_reads_back() {
    let o = delve(&["gen", "mixed", "--seed", "9", "--depth", "4", "--size", "50x26"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("name: mixed 9 (depth 4)\ndescription: "), "{text}");
    assert!(text.contains("\ngenerator: mixed seed 9 depth 4 size 50x26\ngoal: reach\n"), "{text}");
    let level = delve::level::Level::parse(&text, "t").unwrap();
    assert_eq!((level.grid.width(), level.grid.height()), (50, 26));
    let same = delve::r#gen::generate(delve::r#gen::Style::Mixed, 9, 4, Some("50x26".parse().unwrap())).unwrap();
    assert_eq!(same.source, text, "the command writes the library's level");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.txt");
    let args = ["gen", "mixed", "--seed", "9", "--depth", "4", "--size", "50x26", "-o", path(&file)];
    let o = delve(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    // `delve path` runs from S beside the player to G.
    let o = delve(&["path", path(&file), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"found\":true"), "{}", stdout(&o));
}

#[test]
fn an_existing_file_is_kept_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("level.txt");
    std::fs::write(&file, "keep me\n").unwrap();
    let err = refused(&["gen", "rooms", "-o", path(&file)]);
    assert_eq!(err.trim_end(), format!("delve: {}: already exists (pass --force to overwrite it)", file.display()));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me\n");
    let o = delve(&["gen", "rooms", "-o", path(&file), "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&file).unwrap().starts_with("name: rooms 1 (depth 1)\n"));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 1, "no partial file left: {names:?}");
    let err = refused(&["gen", "rooms", "-o", path(dir.path()), "--force"]);
    assert!(err.contains("cannot write to it: it is a directory; -o replaces only regular files"), "{err}");
}

#[test]
fn a_moving_ai_benchmark_that_delve_scen_finds_all_optimal() {
    let dir = tempfile::tempdir().unwrap();
    for (style, size) in [("rooms", "60x30"), ("caves", "60x30"), ("maze", "41x21"), ("mixed", "60x30")] {
        let map = dir.path().join(format!("{style}.map"));
        let scen = dir.path().join(format!("{style}.map.scen"));
        let args = [
            "gen",
            style,
            "--seed",
            "5",
            "--size",
            size,
            "--format",
            "movingai",
            "-o",
            path(&map),
            "--scen",
            path(&scen),
            "--count",
            "4",
        ];
        let o = delve(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let map_text = std::fs::read_to_string(&map).unwrap();
        let (w, h) = size.split_once('x').unwrap();
        assert!(map_text.starts_with(&format!("type octile\nheight {h}\nwidth {w}\nmap\n")), "{map_text}");
        assert!(map_text.lines().skip(4).all(|l| l.chars().all(|c| c == '.' || c == '@')));
        let scen_text = std::fs::read_to_string(&scen).unwrap();
        let mut lines = scen_text.lines();
        assert_eq!(lines.next(), Some("version 1"));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
        assert!(rows.len() >= 4 * 5, "{style}: {} rows", rows.len());
        let mut per_bucket = std::collections::BTreeMap::new();
        let mut last = 0;
        for r in &rows {
            assert_eq!(r.len(), 9);
            assert_eq!((r[1], r[2], r[3]), (format!("{style}.map").as_str(), w, h));
            let (bucket, length): (usize, f64) = (r[0].parse().unwrap(), r[8].parse().unwrap());
            assert_eq!(bucket, (length / 4.0) as usize, "{r:?}");
            assert!(bucket >= last, "sorted by bucket");
            assert_eq!(r[8].split_once('.').unwrap().1.len(), 8, "8 decimals");
            last = bucket;
            *per_bucket.entry(bucket).or_insert(0) += 1;
        }
        assert!(per_bucket.values().all(|&n| n == 4), "{style}: {per_bucket:?}");
        assert_eq!(per_bucket.keys().copied().collect::<Vec<_>>(), (0..per_bucket.len()).collect::<Vec<_>>());
        let o = delve(&["scen", path(&scen), "--json"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let summary: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
        assert_eq!(summary["scenarios"], rows.len(), "{summary}");
        assert_eq!(summary["optimal"], rows.len(), "{style}: every row optimal: {summary}");
    }
}

#[test]
fn a_moving_ai_map_alone_goes_to_stdout() {
    let o = delve(&["gen", "caves", "--size", "30x12", "--format", "movingai"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("type octile\nheight 12\nwidth 30\nmap\n"));
}

#[test]
fn bad_arguments_get_one_line_and_status_two() {
    let err = refused(&["gen", "lakes"]);
    assert!(err.contains("unknown generator style 'lakes' (expected one of: rooms|caves|maze|mixed)"), "{err}");
    let err = refused(&["gen", "rooms", "--size", "19x40"]);
    assert_eq!(err.trim_end(), "delve: size 19x40 is below the rooms style's minimum of 20x12");
    let err = refused(&["gen", "mixed", "--size", "30x10"]);
    assert!(err.contains("below the mixed style's minimum of 24x16"), "{err}");
    let err = refused(&["gen", "caves", "--size", "2049x40"]);
    assert!(err.contains("size 2049x40 is above the level limit of 2048x2048"), "{err}");
    let err = refused(&["gen", "caves", "--size", "80by40"]);
    assert!(err.contains("'80by40' is not a size (expected WxH"), "{err}");
    for depth in ["0", "100", "-1", "x"] {
        let err = refused(&["gen", "maze", "--depth", depth]);
        assert!(err.contains("--depth"), "{err}");
    }
    let err = refused(&["gen", "maze", "--seed", "-1"]);
    assert!(err.contains("must be ≥ 0"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("m.map");
    let scen = dir.path().join("m.map.scen");
    let small = ["gen", "maze", "--size", "11x7", "--format", "movingai", "-o", path(&map), "--scen", path(&scen)];
    let err = refused(&[&small[..], &["--count", "1000"]].concat());
    assert!(err.contains("--count 1000 is more than the map can hold"), "{err}");
    assert!(!map.exists() && !scen.exists(), "nothing written");
    let err = refused(&[&small[..], &["--count", "0"]].concat());
    assert!(err.contains("must be ≥ 1"), "{err}");
    let err = refused(&["gen", "maze", "--count", "3"]);
    assert!(err.contains("--scen"), "{err}");
    let err = refused(&["gen", "maze", "--scen", path(&scen)]);
    assert!(err.contains("--scen needs --format movingai"), "{err}");
    let err = refused(&["gen", "maze", "--format", "movingai", "--scen", path(&scen)]);
    assert!(err.contains("--scen needs -o FILE.map"), "{err}");
    let err = refused(&["gen", "maze", "--format", "movingai", "-o", path(&map), "--scen", path(&map)]);
    assert!(err.contains("name the same file"), "{err}");
    let err = refused(&["gen", "maze", "--format", "json"]);
    assert!(err.contains("unknown format 'json'"), "{err}");
    let err = refused(&["gen", "maze", "-o", path(&dir.path().join("no/such/level.txt"))]);
    assert!(err.contains("does not exist"), "{err}");
}

/// Each `$ delve gen ...` block of docs/gen.md is what the command writes.
#[test]
fn the_examples_in_the_docs_are_what_delve_gen_writes() {
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/gen.md")).unwrap();
    let mut examples = 0;
    for block in docs.split("```text\n").skip(1) {
        let block = block.split("```").next().unwrap();
        let Some((command, shown)) = block.split_once('\n') else { continue };
        let Some(args) = command.strip_prefix("$ delve ") else { continue };
        let o = delve(&args.split_whitespace().collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(0), "{command}: {}", stderr(&o));
        assert_eq!(stdout(&o), shown, "{command}");
        examples += 1;
    }
    assert_eq!(examples, 4, "one example per style");
}
