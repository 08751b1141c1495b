//! No small input runs away: every way creatures enter a world (flags,
//! level markers, spawns) is held to the world's capacity, one creature per
//! free cell and at most `MAX_CREATURES`, and refused with one line above
//! it instead of being cut short in silence.

use delve::level::Level;
use delve::sim::{Command, Kind, Settings, World, WorldError};
use std::process::{Command as Process, Output};

fn delve(args: &[&str], dir: &std::path::Path) -> Output {
    Process::new(env!("CARGO_BIN_EXE_delve")).args(args).current_dir(dir).output().unwrap()
}

#[test]
fn counts_above_the_cap_are_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let room = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/room.txt");
    std::fs::write(dir.path().join("horde.txt"), format!("{}\n", "M".repeat(317)).repeat(317)).unwrap();
    let too_many = format!(
        "delve: {room}: level 'room' has 1 creature markers and 40 creatures to spawn: more than the 31 it holds (one per free cell, at most 100000)\n"
    );
    let cases: [(&[&str], &str); 6] = [
        (
            &["sim", "--boids", "4294967295"],
            "delve: invalid value '4294967295' for '--boids <BOIDS>': '4294967295' is above the cap of 100000 creatures\n",
        ),
        (
            &["sim", "--monsters", "100001"],
            "delve: invalid value '100001' for '--monsters <MONSTERS>': '100001' is above the cap of 100000 creatures\n",
        ),
        (
            &["play", "--wanderers", "99999999999999999999999"],
            "delve: invalid value '99999999999999999999999' for '--wanderers <WANDERERS>': '99999999999999999999999' is above the cap of 100000 creatures\n",
        ),
        (
            &["sim", "--fleeing", "many"],
            "delve: invalid value 'many' for '--fleeing <FLEEING>': 'many' is not a number of creatures from 0 to 100000 (decimal digits, without + or leading zeros)\n",
        ),
        (&["sim", room, "--boids", "20", "--monsters", "20"], &too_many),
        (
            &["sim", "horde.txt"],
            "delve: horde.txt: level 'horde' has 100489 creature markers: more than the 100000 it holds (one per free cell, at most 100000)\n",
        ),
    ];
    for (args, message) in cases {
        let o = delve(args, dir.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), message, "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_level_holds_one_creature_per_free_cell() {
    let room = Level::load(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/room.txt").as_ref()).unwrap();
    let mut world = World::new(&room, 1, Settings::default()).unwrap();
    assert_eq!(world.capacity(), 31);
    world.apply(Command::Spawn { kind: Kind::Boid, count: u32::MAX });
    assert_eq!(world.creatures().len(), 31);
}

/// The level reads every marker (it is a map, and `delve path` runs on
/// it); the world, the one place that knows the cap, refuses it when it is
/// made, before making a creature.
#[test]
fn the_world_not_the_level_holds_markers_to_the_cap() {
    let horde = Level::parse(&format!("{}\n", "M".repeat(317)).repeat(317), "horde.txt").unwrap();
    assert_eq!(horde.monsters.len(), 317 * 317);
    let refused =
        WorldError::TooManyCreatures { level: "horde".into(), markers: 100_489, spawns: 0, capacity: 100_000 };
    assert_eq!(World::new(&horde, 1, Settings::default()).unwrap_err(), refused);
    // A level whose markers fill every free cell is at its capacity, not above.
    let full = Level::parse("#####\n#MMM#\n#####\n", "full.txt").unwrap();
    let world = World::new(&full, 1, Settings::default()).unwrap();
    assert_eq!((world.creatures().len(), world.capacity()), (3, 3));
}
