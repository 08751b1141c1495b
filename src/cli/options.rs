//! Search options shared by the commands that run searches.

use super::CliError;
use super::names::names;
use crate::grid::Neighbors;
use crate::search::{Heuristic, MAX_WEIGHT, MIN_WEIGHT, OpenUpdate, Planner, SearchSettings, TieBreak};

/// The library's defaults are the command line's.
const DEFAULT: SearchSettings = SearchSettings::DEFAULT;

/// `--algo`, `--heuristic`, `--weight`, `--tie`, `--neighbors`, `--reopen`,
/// `--open`.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchArgs {
    /// Search algorithm: bfs|dijkstra|astar|greedy|weighted|jps|jps+|hpa, or
    /// an ordering over jump points (jps:dijkstra, jps+:greedy, ...) (jps and
    /// jps+ run their ordering on every cell on 4 neighbours or weighted
    /// cells, and say so; delve path, sim and play also: navmesh|waypoints;
    /// several, repeated or comma-separated, only for `delve path --svg`)
    #[arg(long = "algo", value_name = "ALGO", value_delimiter = ',', default_values_t = [DEFAULT.planner], value_parser = names(&Planner::CYCLE))]
    pub algorithms: Vec<Planner>,
    /// Heuristic, scaled by the cheapest entry cost
    #[arg(long, default_value_t = DEFAULT.heuristic, value_parser = names(Heuristic::ALL))]
    pub heuristic: Heuristic,
    /// Weight w of weighted A* (f = g + w·h), from 1 to 10 (default: 1.5),
    /// and of the navmesh's search over its portals (default: 1.3; 1 is
    /// plain A*, a consistent search)
    #[arg(long, value_parser = parse_weight, allow_hyphen_values = true)]
    pub weight: Option<f64>,
    /// Order among equal f
    #[arg(long = "tie", value_name = "TIE", default_value_t = DEFAULT.tie, value_parser = names(TieBreak::ALL))]
    pub tie: TieBreak,
    /// 4 or 8 neighbours (diagonals never cut a wall corner)
    #[arg(long, value_name = "4|8", default_value_t = DEFAULT.neighbors, allow_hyphen_values = true, value_parser = names(Neighbors::ALL))]
    pub neighbors: Neighbors,
    /// Reopen closed nodes when a cheaper route turns up
    #[arg(long)]
    pub reopen: bool,
    /// What the open list does with a node that gets a cheaper route: lazy
    /// (a new entry; the old one is a stale pop) or decrease-key (its one
    /// entry lowered in place). Same nodes expanded, same path
    #[arg(long = "open", value_name = "UPDATE", default_value_t = DEFAULT.open, value_parser = names(OpenUpdate::ALL))]
    pub open: OpenUpdate,
}

impl SearchArgs {
    /// The planner of the first `--algo` (commands that run one search
    /// call [`SearchArgs::one_algorithm`] first).
    pub fn planner(&self) -> Planner {
        self.algorithms.first().copied().unwrap_or(DEFAULT.planner)
    }

    /// The search settings these flags ask for (with the first `--algo`).
    pub fn settings(&self) -> SearchSettings {
        self.all_settings().next().unwrap_or(DEFAULT)
    }

    /// The settings of each `--algo` given, in order.
    pub fn all_settings(&self) -> impl Iterator<Item = SearchSettings> + '_ {
        self.algorithms.iter().map(|&planner| SearchSettings {
            planner,
            heuristic: self.heuristic,
            tie: self.tie,
            neighbors: self.neighbors,
            weight: self.weight.unwrap_or(DEFAULT.weight),
            navmesh_weight: self.weight.unwrap_or(DEFAULT.navmesh_weight),
            reopen: self.reopen,
            open: self.open,
        })
    }

    /// Refuses several `--algo` values for a command that runs one search.
    pub fn one_algorithm(&self) -> Result<(), super::CliError> {
        match self.algorithms.len() {
            0 | 1 => Ok(()),
            _ => Err(super::CliError::Usage(
                "--algo takes one algorithm here (several only with `delve path --svg` and `delve sim`)".into(),
            )),
        }
    }
}

impl SearchArgs {
    /// Refuses the any-angle planners in the commands that only run grid
    /// searches (`delve scen`, a grid benchmark, and `delve path --svg`).
    pub fn grid_only(&self, command: &str) -> Result<(), CliError> {
        match self.algorithms.iter().find(|p| p.expansion().any_angle()) {
            None => Ok(()),
            Some(other) => {
                Err(CliError::Usage(format!("--algo {other}: {command} runs grid searches only (use delve path)")))
            }
        }
    }
}

/// A parser of whole numbers from `min` to `max`, spelt as every number
/// delve reads is ([`crate::number`]), that states the rule broken ("must
/// be ≥ 0") instead of the number parser's words. Numeric flags take their
/// parser with `allow_hyphen_values`, so that any value starting with `-`
/// (`-1`, `-inf`) reaches it instead of being taken for a flag.
pub(crate) fn whole_number<T: TryFrom<u64> + Clone + Send + Sync + 'static>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |s| {
        let rule = match crate::number::whole(s) {
            Some(n) if n < i128::from(min) => format!("must be ≥ {min}"),
            Some(n) if n > i128::from(max) => format!("must be ≤ {max}"),
            Some(n) => return T::try_from(n as u64).map_err(|_| format!("must be ≤ {max}")),
            None => format!("must be a whole number from {min} to {max} ({})", crate::number::WHOLE_SYNTAX),
        };
        Err(rule)
    }
}

/// A decimal from `range`, spelt as every number delve reads is
/// ([`crate::number`]); `what` names the value in the message that refuses
/// one out of range ("a weight from 1 to 10"). Takes `allow_hyphen_values`
/// as [`whole_number`] does.
pub(crate) fn decimal(text: &str, range: std::ops::RangeInclusive<f64>, what: &str) -> Result<f64, String> {
    match crate::number::decimal(text) {
        Some(x) if range.contains(&x) => Ok(x),
        Some(_) => Err(format!("'{text}' is not {what}")),
        None => Err(format!("'{text}' is not {what}: write {}", crate::number::DECIMAL_SYNTAX)),
    }
}

fn parse_weight(s: &str) -> Result<f64, String> {
    decimal(s, MIN_WEIGHT..=MAX_WEIGHT, &format!("a weight from {MIN_WEIGHT} to {MAX_WEIGHT}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_state_the_rule_they_break() {
        let parse = whole_number::<u32>(1, 100);
        assert_eq!(parse("7"), Ok(7));
        assert_eq!(parse("1"), Ok(1));
        assert_eq!(parse("100"), Ok(100));
        assert_eq!(parse("0"), Err("must be ≥ 1".to_string()));
        assert_eq!(parse("-1"), Err("must be ≥ 1".to_string()));
        assert_eq!(parse("101"), Err("must be ≤ 100".to_string()));
        assert_eq!(parse("99999999999999999999999"), Err("must be ≤ 100".to_string()));
        let syntax = "must be a whole number from 1 to 100 (decimal digits, without + or leading zeros)";
        for bad in ["1.5", "x", "+7", " 7", "07", "0x7", "-inf", ""] {
            assert_eq!(parse(bad), Err(syntax.to_string()), "{bad:?}");
        }
        let seed = whole_number::<u64>(0, u64::MAX);
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(seed("-1"), Err("must be ≥ 0".to_string()));
    }

    #[test]
    fn decimals_state_the_rule_they_break() {
        assert_eq!(parse_weight("1.5"), Ok(1.5));
        assert_eq!(parse_weight("10"), Ok(10.0));
        assert_eq!(parse_weight("-1"), Err("'-1' is not a weight from 1 to 10".to_string()));
        for bad in ["-inf", "inf", "NaN", "1e1", "+2", " 2", ".5", "2."] {
            let rule = format!(
                "'{bad}' is not a weight from 1 to 10: write decimal digits with an optional fraction, e.g. 1.5"
            );
            assert_eq!(parse_weight(bad), Err(rule), "{bad:?}");
        }
    }
}
