//! A stable 64-bit state hash: FNV-1a over little-endian bytes, and the
//! [`StateHash`] trait the world's state is hashed through.
//!
//! Stable across runs, platforms and Rust versions (unlike `std`'s hashers),
//! so a hash written in a replay file today still checks tomorrow.
//!
//! # Hashed by construction
//!
//! Every type that is part of a world's state implements [`StateHash`]
//! beside its definition (the grid and its tiles, bodies, followers,
//! settings, creatures, minds, hunts, the generators, ...), and every
//! implementation of a struct takes `self` apart with an exhaustive
//! pattern, `let Self { a, b, c } = self;`, never `..`. So a field added
//! later fails to compile in its type's `hash_into` until it is either fed
//! to the hasher or named there as not state (`cache: _`, with the reason in
//! a comment); a field taken apart but not fed is an unused variable, which
//! CI's `-D warnings` refuses. The world's hash is then one call,
//! `state.hash_into(&mut h)`, rather than a list of other modules' fields
//! that a new field could silently miss.
//!
//! ```compile_fail,E0027
//! use delve::hash::{StateHash, StateHasher};
//!
//! struct Mole { depth: u32, tunnels: u32 }
//!
//! impl StateHash for Mole {
//!     fn hash_into(&self, h: &mut StateHasher) {
//!         // `tunnels` was added after this was written: E0027, pattern
//!         // does not mention field `tunnels`.
//!         let Mole { depth } = self;
//!         h.add(depth);
//!     }
//! }
//! ```

use std::collections::VecDeque;

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// Feeds values into an FNV-1a state.
#[derive(Clone, Debug)]
pub struct StateHasher(u64);

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher(OFFSET)
    }
}

impl StateHasher {
    /// Feeds `bytes`, one at a time (FNV-1a).
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(PRIME);
        }
    }

    /// Feeds `v`, little-endian, so the hash is the same on every machine.
    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feeds `v`, little-endian.
    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feeds `v`, little-endian.
    pub fn i32(&mut self, v: i32) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feeds `v` as one byte.
    pub fn u8(&mut self, v: u8) {
        self.bytes(&[v]);
    }

    /// Floats by their bit patterns: the hash sees every last bit.
    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    /// Feeds `v` by its bit pattern.
    pub fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }

    /// Feeds `v` as one byte.
    pub fn bool(&mut self, v: bool) {
        self.bytes(&[u8::from(v)]);
    }

    /// Feeds a value of the state through its [`StateHash`].
    pub fn add<T: StateHash + ?Sized>(&mut self, value: &T) {
        value.hash_into(self);
    }

    /// The hash of everything fed so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash as printed and stored: 16 lowercase hex digits.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// A value that is part of a world's state, fed to a [`StateHasher`].
///
/// Implement it beside the type, taking a struct apart with an exhaustive
/// pattern (see the [module](self) docs), so that a field added later
/// cannot miss the hash. Sequences feed their length first, so that
/// `[a, b] + [c]` and `[a] + [b, c]` hash apart; an `Option` feeds whether
/// it holds a value, then the value.
pub trait StateHash {
    /// Feeds every part of the value's state into `h`.
    fn hash_into(&self, h: &mut StateHasher);
}

/// The hash of one value on its own, as a fresh hasher would give it.
pub fn hash_of<T: StateHash + ?Sized>(value: &T) -> u64 {
    let mut h = StateHasher::default();
    h.add(value);
    h.finish()
}

macro_rules! by_method {
    ($($ty:ty => $method:ident),+ $(,)?) => {
        $(impl StateHash for $ty {
            fn hash_into(&self, h: &mut StateHasher) {
                h.$method(*self);
            }
        })+
    };
}

by_method!(u8 => u8, u32 => u32, u64 => u64, i32 => i32, f32 => f32, f64 => f64, bool => bool);

impl StateHash for i8 {
    fn hash_into(&self, h: &mut StateHasher) {
        h.u8(*self as u8);
    }
}

impl StateHash for i64 {
    fn hash_into(&self, h: &mut StateHasher) {
        h.u64(*self as u64);
    }
}

/// As a `u64` on every platform, so a 32-bit build hashes the same.
impl StateHash for usize {
    fn hash_into(&self, h: &mut StateHasher) {
        h.u64(*self as u64);
    }
}

impl<T: StateHash + ?Sized> StateHash for &T {
    fn hash_into(&self, h: &mut StateHasher) {
        (**self).hash_into(h);
    }
}

impl<T: StateHash + ?Sized> StateHash for Box<T> {
    fn hash_into(&self, h: &mut StateHasher) {
        (**self).hash_into(h);
    }
}

impl<T: StateHash> StateHash for Option<T> {
    fn hash_into(&self, h: &mut StateHasher) {
        h.bool(self.is_some());
        if let Some(v) = self {
            v.hash_into(h);
        }
    }
}

impl<T: StateHash> StateHash for [T] {
    fn hash_into(&self, h: &mut StateHasher) {
        h.add(&self.len());
        for v in self {
            v.hash_into(h);
        }
    }
}

impl<T: StateHash> StateHash for Vec<T> {
    fn hash_into(&self, h: &mut StateHasher) {
        self.as_slice().hash_into(h);
    }
}

impl<T: StateHash> StateHash for VecDeque<T> {
    fn hash_into(&self, h: &mut StateHasher) {
        h.add(&self.len());
        for v in self {
            v.hash_into(h);
        }
    }
}

/// A fixed number of values: no length.
impl<T: StateHash, const N: usize> StateHash for [T; N] {
    fn hash_into(&self, h: &mut StateHasher) {
        for v in self {
            v.hash_into(h);
        }
    }
}

impl<A: StateHash, B: StateHash> StateHash for (A, B) {
    fn hash_into(&self, h: &mut StateHasher) {
        let (a, b) = self;
        h.add(a);
        h.add(b);
    }
}

impl<A: StateHash, B: StateHash, C: StateHash> StateHash for (A, B, C) {
    fn hash_into(&self, h: &mut StateHasher) {
        let (a, b, c) = self;
        h.add(a);
        h.add(b);
        h.add(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_published_fnv1a_vectors() {
        let h = |s: &str| {
            let mut st = StateHasher::default();
            st.bytes(s.as_bytes());
            st.finish()
        };
        assert_eq!(h(""), 0xcbf29ce484222325);
        assert_eq!(h("a"), 0xaf63dc4c8601ec8c);
        assert_eq!(h("foobar"), 0x85944171f73967e8);
        assert_eq!(hex(0xab), "00000000000000ab");
    }

    #[test]
    fn values_feed_their_little_endian_bytes() {
        let bytes = |b: &[u8]| {
            let mut h = StateHasher::default();
            h.bytes(b);
            h.finish()
        };
        assert_eq!(hash_of(&0x0102_0304u32), bytes(&[4, 3, 2, 1]));
        assert_eq!(hash_of(&7usize), bytes(&7u64.to_le_bytes()));
        assert_eq!(hash_of(&-1i8), bytes(&[0xff]));
        assert_eq!(hash_of(&1.5f32), bytes(&1.5f32.to_bits().to_le_bytes()));
        assert_eq!(hash_of(&(true, 2u8)), bytes(&[1, 2]));
        assert_eq!(hash_of(&[3u8, 4]), bytes(&[3, 4]), "an array has no length");
    }

    #[test]
    fn sequences_and_options_hash_apart_by_their_shape() {
        let split = |a: Vec<u8>, b: Vec<u8>| hash_of(&(a, b));
        assert_ne!(split(vec![1, 2], vec![3]), split(vec![1], vec![2, 3]));
        assert_ne!(hash_of(&None::<u32>), hash_of(&Some(0u32)));
        assert_ne!(hash_of(&Some(None::<u8>)), hash_of(&None::<Option<u8>>));
        let deque: VecDeque<u32> = [1, 2].into();
        assert_eq!(hash_of(&deque), hash_of(&vec![1u32, 2]), "a queue hashes as the sequence it holds");
        assert_eq!(hash_of(&Box::new(5u64)), hash_of(&5u64));
    }
}
