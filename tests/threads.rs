//! The world is the same on any number of threads: every golden replay
//! verifies, and a crowd of thousands (many chunks of the parallel passes)
//! keeps the same hash tick by tick, on pools of 1, 2 and 8 threads.

use delve::level::Level;
use delve::replay::{Replay, Spawns, Start, Verdict, verify};
use delve::sim::{Avoidance, Command, Kind, Rules, Setting, Settings, World};
use std::path::Path;

const THREADS: [usize; 3] = [1, 2, 8];

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool")
}

#[test]
fn every_golden_replay_verifies_on_1_2_and_8_threads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    for file in files {
        let replay = Replay::load(&file).unwrap_or_else(|e| panic!("{e}"));
        for threads in THREADS {
            let verdict = pool(threads).install(|| verify(&replay));
            assert!(matches!(verdict, Verdict::Match { complete: true, .. }), "{threads} threads: {verdict}");
        }
    }
}

/// A crowd on the big level: flocks, prey, wanderers and monsters, under
/// separation and then ORCA, with more boids spawned on the way.
fn crowd() -> World {
    let level = Level::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/big.txt")).unwrap();
    let spawns = Spawns { monster: 150, wanderer: 150, fleeing: 60, boid: 2500 };
    Start { level, seed: 9, settings: Settings::default(), spawns, rules: Rules::SANDBOX, generator: None }
        .world()
        .unwrap()
}

/// The hash after every tick of the crowd's session.
fn hashes() -> Vec<u64> {
    let mut world = crowd();
    let moves = [(1, 0), (0, 1), (-1, 0), (0, -1)];
    (0..160u64)
        .map(|t| {
            if t == 80 {
                world.apply(Command::Set(Setting::Avoidance(Avoidance::Orca)));
                world.apply(Command::Spawn { kind: Kind::Boid, count: 500 });
            }
            let (dx, dy) = moves[(t / 10 % 4) as usize];
            world.apply(Command::Move { dx, dy });
            world.tick();
            world.hash()
        })
        .collect()
}

#[test]
fn a_crowd_keeps_its_hash_on_1_2_and_8_threads() {
    let runs: Vec<Vec<u64>> = THREADS.iter().map(|&n| pool(n).install(hashes)).collect();
    assert!(crowd().creatures().len() > 2_000, "many chunks of the parallel passes");
    for (threads, run) in THREADS.iter().zip(&runs).skip(1) {
        let first = run.iter().zip(&runs[0]).position(|(a, b)| a != b);
        assert_eq!(first, None, "{threads} threads part from 1 thread at this tick");
    }
}
