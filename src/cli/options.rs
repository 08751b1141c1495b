//! Search options shared by the commands that run searches.

use crate::grid::Neighbors;
use crate::search::{Algorithm, Heuristic, MAX_WEIGHT, MIN_WEIGHT, OpenUpdate, SearchSettings, TieBreak};

/// The library's defaults are the command line's.
const DEFAULT: SearchSettings = SearchSettings::DEFAULT;

/// `--algo`, `--heuristic`, `--weight`, `--tie`, `--neighbors`, `--reopen`,
/// `--open`.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchArgs {
    /// Search algorithm: bfs|dijkstra|astar|greedy|weighted|jps|jps+ (jps and jps+ run A* on 4 neighbours or weighted cells)
    #[arg(long = "algo", value_name = "ALGO", default_value_t = DEFAULT.algorithm)]
    pub algorithm: Algorithm,
    /// Heuristic, scaled by the cheapest entry cost: manhattan|euclidean|octile|chebyshev|zero
    #[arg(long, default_value_t = DEFAULT.heuristic)]
    pub heuristic: Heuristic,
    /// Weight w of weighted A* (f = g + w·h), from 1 to 10
    #[arg(long, default_value_t = DEFAULT.weight, value_parser = parse_weight)]
    pub weight: f64,
    /// Order among equal f: fifo|low-h|cross
    #[arg(long = "tie", value_name = "TIE", default_value_t = DEFAULT.tie)]
    pub tie: TieBreak,
    /// 4 or 8 neighbours (diagonals never cut a wall corner)
    #[arg(long, value_name = "4|8", default_value_t = DEFAULT.neighbors)]
    pub neighbors: Neighbors,
    /// Reopen closed nodes when a cheaper route turns up
    #[arg(long)]
    pub reopen: bool,
    /// What the open list does with a node that gets a cheaper route: lazy
    /// (a new entry; the old one is a stale pop) or decrease-key (its one
    /// entry lowered in place). Same nodes expanded, same path
    #[arg(long = "open", value_name = "UPDATE", default_value_t = DEFAULT.open)]
    pub open: OpenUpdate,
}

impl SearchArgs {
    pub fn settings(&self) -> SearchSettings {
        SearchSettings {
            algorithm: self.algorithm,
            heuristic: self.heuristic,
            tie: self.tie,
            neighbors: self.neighbors,
            weight: self.weight,
            reopen: self.reopen,
            open: self.open,
        }
    }
}

fn parse_weight(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(w) if (MIN_WEIGHT..=MAX_WEIGHT).contains(&w) => Ok(w),
        _ => Err(format!("'{s}' is not a weight from {MIN_WEIGHT} to {MAX_WEIGHT}")),
    }
}
