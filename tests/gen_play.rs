//! Generated levels played directly (`--gen` on `play`, `sim`, `lab`,
//! `path`): the level `delve gen` writes for the same arguments; a
//! recording names its generator, and `replay --verify` makes the level
//! again from it. And what a bare `delve` (the title screen) takes.

use super::cli::{delve, path, refused, stderr, stdout};
use delve::replay::level_checksum;

#[test]
fn path_and_sim_on_gen_are_on_the_level_delve_gen_writes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("level.txt");
    let recipe = ["rooms", "--seed", "7", "--depth", "2", "--size", "60x30"];
    let o = delve(&[&["gen"][..], &recipe, &["-o", path(&file)]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let gen_args = [&["--gen"][..], &recipe].concat();
    let on_file = delve(&["path", path(&file), "--json"]);
    let on_gen = delve(&[&["path"][..], &gen_args, &["--json"]].concat());
    assert_eq!(on_gen.status.code(), Some(0), "{}", stderr(&on_gen));
    // The same search on the same level, but for the time it took.
    let timeless = |o: &std::process::Output| {
        let mut v: serde_json::Value = serde_json::from_str(&stdout(o)).unwrap();
        v.as_object_mut().unwrap().retain(|k, _| !k.contains("micros"));
        v
    };
    assert_eq!(timeless(&on_gen), timeless(&on_file));
    let sim = |level: &[&str]| {
        let o = delve(&[&["sim"][..], level, &["--ticks", "300", "--rules", "game", "--json"]].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        v["hash"].clone()
    };
    assert_eq!(sim(&gen_args), sim(&[path(&file), "--seed", "7"]), "the same session");
}

#[test]
fn gen_options_are_checked() {
    let err = refused(&["sim", "--gen", "rooms", "--size", "10x5"]);
    assert!(err.contains("size 10x5 is below the rooms style's minimum of 20x12"), "{err}");
    let err = refused(&["sim", "--depth", "3"]);
    assert!(err.contains("--gen"), "--depth needs --gen: {err}");
    let err = refused(&["sim", "levels/room.txt", "--gen", "maze"]);
    assert!(err.contains("cannot be used with"), "a file and --gen: {err}");
    let err = refused(&["path", "--gen", "lakes"]);
    assert!(err.contains("lakes"), "{err}");
    let err = refused(&["sim", "--gen", "caves", "--depth", "100"]);
    assert!(err.contains("100"), "{err}");
    let err = refused(&["play", "--gen", "maze", "--depth", "0"]);
    assert!(err.contains("--depth"), "{err}");
}

/// A recording of a generated level names its generator; `--verify` makes
/// the level again and finds a text that is not what it makes; a header
/// whose generator is not the level's is refused when the file is read.
#[test]
fn a_recorded_generated_level_verifies_against_its_generator() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gen.jsonl");
    let o = delve(&["sim", "--gen", "mixed", "--seed", "5", "--depth", "3", "--ticks", "250", "--record", path(&file)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    let (head, rest) = text.split_once('\n').unwrap();
    assert!(head.contains(r#""generator":{"style":"mixed","seed":5,"depth":3,"size":"64x32"}"#), "{head}");
    let o = delve(&["replay", path(&file), "--verify"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("ok: "), "{}", stdout(&o));

    // The level text edited (its description: nothing the world plays
    // by), its checksum made to match: the level is not what its
    // generator makes.
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    let edited = header["level_text"].as_str().unwrap().replacen("description: ", "description: edited. ", 1);
    header["level_checksum"] = format!("{:016x}", level_checksum(&edited)).into();
    header["level_text"] = edited.into();
    let tampered = dir.path().join("tampered.jsonl");
    std::fs::write(&tampered, format!("{header}\n{rest}")).unwrap();
    let o = delve(&["replay", path(&tampered), "--verify"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        stdout(&o).trim_end(),
        "mismatch in the level: line 2 of its text is not what its generator (mixed seed 5 depth 3 size 64x32) makes"
    );

    // A generator that is not the one the level text names.
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    header["generator"]["seed"] = 6.into();
    std::fs::write(&tampered, format!("{header}\n{rest}")).unwrap();
    let err = refused(&["replay", path(&tampered), "--verify"]);
    assert!(
        err.contains(
            "generator mixed seed 6 depth 3 size 64x32 but the level text says generator: mixed seed 5 depth 3"
        ),
        "{err}"
    );
    assert!(err.contains(":1:") || err.contains("line 1"), "names the line: {err}");
    header["generator"]["size"] = "2x2".into();
    std::fs::write(&tampered, format!("{header}\n{rest}")).unwrap();
    let err = refused(&["replay", path(&tampered), "--verify"]);
    assert!(err.contains("generator: "), "{err}");
}

/// The bug: `delve --seed 3` and `delve --record F` were refused (an
/// unexpected argument) though the docs say a bare `delve` takes them. They
/// reach the title screen, which here (stdout a pipe) says it needs a
/// terminal; what it cannot take is refused with a reason.
#[test]
fn a_bare_delve_takes_the_options_of_play() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("descent.jsonl");
    for args in [&["--seed", "3"][..], &["--record", path(&record)], &["--seed", "3", "--lives", "5"]] {
        let err = refused(args);
        assert!(err.contains("needs a terminal on stdout for its title screen"), "{args:?}: {err}");
    }
    assert!(!record.exists());
    let err = refused(&["--seed", "x"]);
    assert!(err.contains("--seed"), "{err}");
    let err = refused(&["foo"]);
    assert!(err.contains("unrecognized command 'foo' (to play a level: `delve play foo`"), "{err}");
    let err = refused(&["--seed", "3", "sim"]);
    assert!(err.contains("the command comes first"), "{err}");
    let err = refused(&["--gen", "rooms"]);
    assert!(err.contains("delve play --gen STYLE"), "{err}");
}
