//! Seeded random streams, one per subsystem.
//!
//! Each subsystem draws from its own PCG stream derived from the session
//! seed, so a new draw in one (an extra spawn, a bot decision) never shifts
//! the numbers another sees.
//!
//! The generator is the project's own [`Pcg32`], the standard PCG32
//! (XSH RR 64/32) that `rand_pcg`'s `Pcg32` also is: the same stream bit
//! for bit (a test checks it against `rand_pcg`), but with its two words in
//! the open, so the world's hash feeds them directly rather than through a
//! serializer.

use crate::hash::{StateHash, StateHasher};
use rand::TryRng;
use rand::rand_core::utils;
use std::convert::Infallible;

/// The subsystems that draw random numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Spawn = 1,
    Wander = 2,
    Bot = 3,
}

/// The generator of `stream` for a session seeded with `seed`.
pub fn stream(seed: u64, stream: Stream) -> Pcg32 {
    let id = stream as u64;
    Pcg32::new(splitmix64(seed ^ id.wrapping_mul(0x9e37_79b9_7f4a_7c15)), id)
}

/// SplitMix64's finaliser: spreads nearby seeds (0, 1, 2...) over the
/// whole state space.
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// PCG's multiplier for a 64-bit state.
const MULTIPLIER: u64 = 6_364_136_223_846_793_005;

/// PCG32: a 64-bit linear congruential generator whose output is permuted
/// down to 32 bits (xorshift high, random rotation), on one of 2^63
/// streams. Draws go through `rand`'s [`RngExt`](rand::RngExt) as with any
/// generator: `u64`s are two `u32`s, low half first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pcg32 {
    state: u64,
    /// Odd: selects the stream.
    increment: u64,
}

impl Pcg32 {
    /// The generator seeded with `state` on stream `stream` (its top bit
    /// is dropped: the increment is `2 * stream + 1`), as PCG's reference
    /// and `rand_pcg::Pcg32::new` make it.
    pub fn new(state: u64, stream: u64) -> Pcg32 {
        let increment = (stream << 1) | 1;
        let mut pcg = Pcg32 { state: state.wrapping_add(increment), increment };
        pcg.step();
        pcg
    }

    fn step(&mut self) {
        self.state = self.state.wrapping_mul(MULTIPLIER).wrapping_add(self.increment);
    }
}

impl TryRng for Pcg32 {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let old = self.state;
        self.step();
        // XSH RR: xorshift the high bits down, rotate by the top five.
        let rotate = (old >> 59) as u32;
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        Ok(xorshifted.rotate_right(rotate))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        utils::next_u64_via_u32(self)
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Infallible> {
        utils::fill_bytes_via_next_word(dest, || self.try_next_u32())
    }
}

impl StateHash for Pcg32 {
    fn hash_into(&self, h: &mut StateHasher) {
        let Pcg32 { state, increment } = self;
        h.add(state);
        h.add(increment);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, RngExt};

    #[test]
    fn streams_differ_and_repeat() {
        let a: Vec<u32> = (0..4)
            .map({
                let mut r = stream(7, Stream::Spawn);
                move |_| r.next_u32()
            })
            .collect();
        let b: Vec<u32> = (0..4)
            .map({
                let mut r = stream(7, Stream::Spawn);
                move |_| r.next_u32()
            })
            .collect();
        let mut w = stream(7, Stream::Wander);
        let mut other_seed = stream(8, Stream::Spawn);
        assert_eq!(a, b);
        assert_ne!(a[0], w.next_u32());
        assert_ne!(a[0], other_seed.next_u32());
    }

    /// PCG's reference (pcg32-demo, seed 42, stream 54): its first six
    /// outputs.
    #[test]
    fn matches_the_pcg_reference_output() {
        let mut r = Pcg32::new(42, 54);
        let first: Vec<u32> = (0..6).map(|_| r.next_u32()).collect();
        assert_eq!(first, [0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e]);
    }

    /// The same stream as `rand_pcg::Pcg32`, the generator the world drew
    /// from before, for every way the world and the bot draw (words,
    /// ranges of integers and floats, bytes): so no session changed.
    #[test]
    fn draws_exactly_what_rand_pcg_draws() {
        let seeds = [0, 1, 7, 42, u64::MAX, 0x9e37_79b9_7f4a_7c15];
        for seed in seeds {
            for s in [Stream::Spawn, Stream::Wander, Stream::Bot] {
                let id = s as u64;
                let mut ours = stream(seed, s);
                let mut theirs = rand_pcg::Pcg32::new(splitmix64(seed ^ id.wrapping_mul(0x9e37_79b9_7f4a_7c15)), id);
                for n in 0..300u32 {
                    match n % 6 {
                        0 => assert_eq!(ours.next_u32(), theirs.next_u32()),
                        1 => assert_eq!(ours.next_u64(), theirs.next_u64()),
                        2 => assert_eq!(ours.random_range(0..n + 1), theirs.random_range(0..n + 1)),
                        3 => assert_eq!(
                            ours.random_range(-1.0f32..=1.0).to_bits(),
                            theirs.random_range(-1.0f32..=1.0).to_bits()
                        ),
                        4 => assert_eq!(
                            ours.random_range(0.0..std::f32::consts::TAU).to_bits(),
                            theirs.random_range(0.0..std::f32::consts::TAU).to_bits()
                        ),
                        _ => {
                            let (mut a, mut b) = ([0u8; 7], [0u8; 7]);
                            ours.fill_bytes(&mut a);
                            theirs.fill_bytes(&mut b);
                            assert_eq!(a, b);
                        }
                    }
                }
            }
        }
        for stream in [0, 1, u64::MAX] {
            let mut ours = Pcg32::new(stream ^ 5, stream);
            let mut theirs = rand_pcg::Pcg32::new(stream ^ 5, stream);
            assert!((0..100).all(|_| ours.random_range(0..1000usize) == theirs.random_range(0..1000usize)));
        }
    }

    #[test]
    fn its_state_is_hashed() {
        let mut r = stream(3, Stream::Spawn);
        let before = crate::hash::hash_of(&r);
        r.next_u32();
        assert_ne!(crate::hash::hash_of(&r), before, "a draw moves the state");
        assert_ne!(crate::hash::hash_of(&stream(3, Stream::Wander)), before, "another stream");
    }
}
