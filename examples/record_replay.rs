//! A headless world, recorded and verified as a replay: a bot plays the
//! room level for 20 seconds of game time with monsters hunting it, every
//! command and a state-hash checkpoint every few seconds go to a replay
//! file, then the file is read back, the session re-run from it, and every
//! checkpoint compared.
//!
//! Run with `cargo run --example record_replay`.

use delve::level::Level;
use delve::replay::feed::{self, Feed, RecordFeed};
use delve::replay::{Recorder, Replay, Spawns, Start, verify};
use delve::sim::{Bot, Rules, Settings, TICKS_PER_SECOND};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let level = Level::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/room.txt"))?;
    // Level, seed, settings and spawns decide the first world; with the
    // commands they decide the whole session.
    let start = Start {
        level,
        seed: 42,
        settings: Settings::default(),
        spawns: Spawns { monster: 3, boid: 12, ..Spawns::default() },
        rules: Rules::SANDBOX,
        generator: None,
    };
    let file = std::env::temp_dir().join(format!("delve-example-{}.replay", std::process::id()));

    let mut recording = RecordFeed::new(Recorder::create(&file, &start, false)?);
    let mut world = start.world()?;
    let mut bot = Bot::new(7);
    for _ in 0..20 * TICKS_PER_SECOND {
        // The bot stands in for a player: each command goes through the
        // feed, which applies it and writes it down with its tick.
        feed::bot_tick(&mut world, &mut recording, &mut bot)?;
    }
    recording.finish(&world)?;
    println!("recorded {} ticks to {}; final state {:016x}", world.ticks(), file.display(), world.hash());

    let replay = Replay::load(&file)?;
    let verdict = verify(&replay);
    println!("replayed: {verdict}");
    std::fs::remove_file(&file)?;
    assert!(verdict.is_match(), "a fresh recording replays exactly");
    Ok(())
}
