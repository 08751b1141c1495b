//! Fieldless enums with user-facing names.
//!
//! Settings are typed on the command line, shown in the panel, written in
//! replay files and cycled by hotkeys; one macro gives each such enum a
//! single spelling for all four.

/// An unknown name for a setting: the message lists the accepted ones.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{given}' (expected one of: {expected})")]
pub struct UnknownName {
    /// What was being named, e.g. `heuristic`.
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The accepted names, comma-separated.
    pub expected: String,
}

/// Gives a fieldless enum its user-facing names, `FromStr`, `Display`, the
/// list of all values, a wrapping `next` for hotkeys and its
/// [`StateHash`](crate::hash::StateHash).
///
/// Public so that a front end built on the library (the `delve` binary is
/// one) names its own settings the way the library names its own, with the
/// same [`UnknownName`] message. The enum derives serde's `Serialize` and
/// `Deserialize` under its names, so the crate using the macro depends on
/// serde.
///
/// ```
/// delve::named_enum! {
///     /// How loud a creature is.
///     Loudness, "loudness" {
///         /// Heard next door.
///         Quiet => "quiet",
///         /// Heard across the map.
///         Loud => "loud",
///     }
/// }
/// assert_eq!("loud".parse::<Loudness>(), Ok(Loudness::Loud));
/// assert_eq!(Loudness::Loud.next(), Loudness::Quiet);
/// assert_eq!(Loudness::names(), "quiet|loud");
/// let e = "soft".parse::<Loudness>().unwrap_err();
/// assert_eq!(e.to_string(), "unknown loudness 'soft' (expected one of: quiet|loud)");
/// ```
#[macro_export]
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident, $what:literal { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// Every value, in cycling order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name users type and see.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The next value in [`Self::ALL`], wrapping around.
            pub fn next(self) -> $name {
                let i = Self::ALL.iter().position(|&v| v == self).unwrap_or(0);
                Self::ALL[(i + 1) % Self::ALL.len()]
            }

            /// All names separated by `|`, for help texts.
            pub fn names() -> String {
                Self::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join("|")
            }
        }

        /// A setting decides what the world does: it is hashed as the
        /// index of its value.
        impl $crate::hash::StateHash for $name {
            fn hash_into(&self, h: &mut $crate::hash::StateHasher) {
                h.u8(*self as u8);
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::named::UnknownName;

            fn from_str(s: &str) -> Result<Self, $crate::named::UnknownName> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|v| v.name() == s)
                    .ok_or_else(|| $crate::named::UnknownName { what: $what, given: s.to_string(), expected: Self::names() })
            }
        }
    };
}
pub use crate::named_enum;
