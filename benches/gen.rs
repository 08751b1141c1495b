//! Generating a level of each style at 512x512 and 1024x1024, beside one
//! Dijkstra over the same map: the generator's cost in Dijkstras.
//!
//! For each style and size, the level is generated [`ROUNDS`] times
//! (depth 1, seeds 1, 2, 3...), and on each level one Dijkstra map
//! ([`FlowField`]) is computed from the player over the whole map with the
//! level's own costs (8 neighbours, no corner cutting): the work of one
//! full Dijkstra. The table gives the medians, wall time and this thread's
//! CPU time (the machine may be shared: CPU time leaves out the others),
//! and the ratio generation / Dijkstra of each. A generator does a few
//! Dijkstra maps of its own (placement walks from a random cell and from the
//! player), so a ratio of a few is the floor. Run with `cargo bench --bench gen`.

#[path = "support/timing.rs"]
mod timing;

use delve::r#gen::{Recipe, Size, Style};
use delve::grid::{Cell, Neighbors};
use delve::search::{FlowField, GridGraph, Heuristic};
use timing::{median, timed_with_cpu};

/// Levels generated (and Dijkstras run) per style and size.
const ROUNDS: usize = 5;

fn main() {
    println!(
        "{:<6} {:>9} {:>8} | {:>10} {:>10} | {:>10} {:>10} | {:>6} {:>6}",
        "style", "size", "walkable", "gen ms", "gen cpu", "dijk ms", "dijk cpu", "ratio", "cpu"
    );
    for side in [512, 1024] {
        for &style in Style::ALL {
            let (mut gen_wall, mut gen_cpu, mut dij_wall, mut dij_cpu) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut walkable = 0;
            for seed in 1..=ROUNDS as u64 {
                let recipe = Recipe::new(style, seed, 1, Some(Size { width: side, height: side })).unwrap();
                let level = timed_with_cpu(&mut gen_wall, &mut gen_cpu, || recipe.generate());
                let grid = &level.grid;
                walkable = grid.cells().filter(|&c| grid.is_walkable(c)).count();
                let player = level.player.expect("a generated level has a player");
                let mut field = FlowField::new();
                let graph = GridGraph::new(grid, Neighbors::Eight, Heuristic::Zero, Cell::new(0, 0), Cell::new(0, 0));
                let expanded = timed_with_cpu(&mut dij_wall, &mut dij_cpu, || {
                    field.start(grid.node_count(), grid.node(player), f64::INFINITY);
                    field.advance(&graph, u64::MAX).expanded
                });
                assert_eq!(expanded as usize, walkable, "the Dijkstra settles every cell");
            }
            let (gw, gc, dw, dc) =
                (median(&mut gen_wall), median(&mut gen_cpu), median(&mut dij_wall), median(&mut dij_cpu));
            let cpu_ratio = if dc > 0.0 { format!("{:>5.1}x", gc / dc) } else { "   n/a".to_owned() };
            println!(
                "{:<6} {:>9} {:>8} | {:>10.1} {:>10.1} | {:>10.1} {:>10.1} | {:>5.1}x {}",
                style.name(),
                format!("{side}x{side}"),
                walkable,
                gw / 1e3,
                gc / 1e3,
                dw / 1e3,
                dc / 1e3,
                gw / dw,
                cpu_ratio
            );
        }
    }
}
