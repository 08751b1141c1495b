//! The value parser of the flags that take a setting's name.
//!
//! The names come from the setting's own table (a `named_enum!`'s `ALL`,
//! the planners' cycle) and the parsing from its own `FromStr`, so that
//! `--help`'s "possible values", the shell completions and the parser
//! (with its "unknown heuristic 'x' (expected one of: ...)" message) keep
//! one spelling. The library knows nothing of clap (a game-only
//! dependency): the bridge is here.

use clap::builder::{PossibleValue, TypedValueParser};
use std::error::Error;
use std::ffi::OsStr;
use std::fmt::Display;
use std::marker::PhantomData;
use std::str::FromStr;

/// Parses a `T` by its name; lists `T`'s names as the possible values.
#[derive(Clone)]
pub struct Names<T> {
    names: Vec<String>,
    value: PhantomData<fn() -> T>,
}

/// The parser of a flag taking one of `all`, each named as it displays.
pub fn names<T: Display>(all: &[T]) -> Names<T> {
    Names { names: all.iter().map(ToString::to_string).collect(), value: PhantomData }
}

impl<T> TypedValueParser for Names<T>
where
    T: FromStr + Clone + Send + Sync + 'static,
    T::Err: Error + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        (|s: &str| s.parse::<T>()).parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names.iter().map(|n| PossibleValue::new(n.clone()))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Heuristic;

    fn parse(value: &str) -> Result<Heuristic, clap::Error> {
        names(Heuristic::ALL).parse_ref(&clap::Command::new("t"), None, OsStr::new(value))
    }

    #[test]
    fn the_possible_values_are_the_table_s_names_and_parse_back() {
        let parser = names(Heuristic::ALL);
        let listed: Vec<String> = parser.possible_values().unwrap().map(|v| v.get_name().to_string()).collect();
        assert_eq!(listed.join("|"), Heuristic::names());
        for name in &listed {
            assert_eq!(parse(name).unwrap().to_string(), *name);
        }
        let e = parse("manhatan").unwrap_err().to_string();
        assert!(e.contains("unknown heuristic 'manhatan' (expected one of: manhattan|"), "{e}");
    }
}
