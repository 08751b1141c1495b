//! Issue 25's measured success: `delve sim --seeds` plays a level once per
//! seed and prints the win rate; the hunters' tactics are flags of `sim`;
//! the evading bot wins where the beeline is caught.

use crate::cli::{delve, stdout};

#[test]
fn seeds_print_a_row_per_seed_and_the_win_rate() {
    let o = delve(&["sim", "levels/maze.txt", "--bot", "goal", "--seeds", "1..3", "--ticks", "3000"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "maze: bot goal, game rules, seeds 1..3, up to 3000 ticks", "{text}");
    assert_eq!(lines.len(), 6, "a header, a heading, three rows and the rate: {text}");
    for (row, seed) in lines[2..5].iter().zip(1..) {
        assert!(row.trim_start().starts_with(&format!("{seed} ")), "{row}");
    }
    let won = lines[2..5].iter().filter(|r| r.contains(" won ")).count();
    assert!(lines[5].starts_with(&format!("won {won}/3 ")), "{text}");
    // One JSON object a row, each with its seed, in order.
    let o = delve(&["sim", "levels/maze.txt", "--bot", "goal", "--seeds", "1..3", "--ticks", "3000", "--json"]);
    let rows: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let seeds: Vec<u64> = rows.iter().map(|r| r["seed"].as_u64().unwrap()).collect();
    assert_eq!(seeds, [1, 2, 3]);
    let json_won = rows.iter().filter(|r| r["outcome"] == "won").count();
    assert_eq!(json_won, won, "the table and the JSON agree");
    // Each catch, with its tick, monster and the player's cell: as many as
    // the row counts, in order, on the level's floor, and a lost session's
    // last one ends it.
    let level = delve::level::Level::load(std::path::Path::new("levels/maze.txt")).unwrap();
    for r in &rows {
        let caught = r["caught"].as_array().unwrap();
        assert_eq!(caught.len() as u64, r["catches"].as_u64().unwrap(), "{r}");
        let ticks: Vec<u64> = caught.iter().map(|c| c["tick"].as_u64().unwrap()).collect();
        assert!(ticks.is_sorted(), "{r}");
        for c in caught {
            let at = delve::grid::Cell::new(c["x"].as_i64().unwrap() as i32, c["y"].as_i64().unwrap() as i32);
            assert!(level.grid.is_walkable(at), "caught on a wall: {c}");
            let monster = c["monster"].as_u64().unwrap() as usize;
            assert!((1..=level.monsters.len()).contains(&monster), "no such monster: {c}");
        }
        if r["outcome"] == "lost" {
            assert_eq!(ticks.last(), r["ended_at_tick"].as_u64().as_ref(), "the last catch ends it: {r}");
        }
    }
    assert!(rows.iter().any(|r| r["catches"].as_u64() > Some(0)), "the beeline is caught in the maze");
}

#[test]
fn bad_seeds_are_one_line_and_status_2() {
    for (seeds, says) in [("5..2", "runs backwards"), ("x", "is not a seed"), ("0..10000", "more than 10000 seeds")] {
        let o = delve(&["sim", "--seeds", seeds]);
        assert_eq!(o.status.code(), Some(2), "{seeds}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{seeds}: {err}");
    }
    let o = delve(&["sim", "--campaign", "--rules", "sandbox"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_tactics_are_flags_and_change_the_session() {
    let run = |extra: &[&str]| {
        let mut args = vec!["sim", "levels/maze.txt", "--bot", "random", "--seed", "3", "--ticks", "800", "--json"];
        args.extend_from_slice(extra);
        let o = delve(&args);
        assert!(o.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        v["hash"].clone()
    };
    let default = run(&[]);
    assert_eq!(default, run(&["--aim", "goal", "--packs", "split", "--lost", "sweep"]), "the defaults");
    for flags in [["--aim", "player"], ["--aim", "heading"], ["--packs", "together"], ["--lost", "linger"]] {
        assert_ne!(run(&flags), default, "{flags:?} changes nothing");
    }
    let o = delve(&["sim", "--aim", "ahead"]);
    assert_eq!(o.status.code(), Some(2));
}

/// On the default level, the evading bot is not caught where the beeline
/// is, over ten seeds (by the level's own rules).
#[test]
fn the_evading_bot_wins_more_than_the_beeline() {
    let won = |bot: &str| {
        let o = delve(&["sim", "levels/dungeon.txt", "--bot", bot, "--seeds", "1..10", "--ticks", "6000"]);
        let text = stdout(&o);
        let last = text.lines().last().unwrap_or_default().to_owned();
        let n: usize = last.split_whitespace().nth(1).and_then(|r| r.split('/').next()?.parse().ok()).unwrap();
        n
    };
    let (beeline, evade) = (won("goal"), won("evade"));
    assert!(evade >= beeline + 3, "evade {evade}/10, goal {beeline}/10");
}

/// With `--gen`, every seed plays the level generated from it, as the
/// campaign plays its depths: seed 2's row is the session `--seed 2`
/// plays on the level `--gen` makes from seed 2.
#[test]
fn generated_seeds_play_a_level_per_seed() {
    let args = ["sim", "--gen", "mixed", "--depth", "2", "--bot", "goal", "--ticks", "600"];
    let o = delve(&[&args[..], &["--seeds", "1..2", "--json"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for (row, seed) in rows.iter().zip(["1", "2"]) {
        let alone: serde_json::Value =
            serde_json::from_str(&stdout(&delve(&[&args[..], &["--seed", seed, "--json"]].concat()))).unwrap();
        assert_eq!(row["hash"], alone["hash"], "seed {seed}");
    }
    let o = delve(&[&args[..], &["--seeds", "1..2"]].concat());
    assert!(stdout(&o).starts_with("mixed depth 2 (a level per seed): bot goal,"), "{}", stdout(&o));
}
