//! The project's random number generator: PCG32, the same stream bit for
//! bit as `rand_pcg`'s `Pcg32` (a test checks it against `rand_pcg`), but
//! with its two words in the open, so that the world's hash feeds them
//! directly rather than through a serializer, and so that every layer that
//! draws (the world's subsystems, the level generators) shares one
//! generator.

use crate::hash::{StateHash, StateHasher};
use rand::TryRng;
use rand::rand_core::utils;
use std::convert::Infallible;

/// SplitMix64's finaliser: spreads nearby seeds or words (0, 1, 2...) over the
/// whole state space.
pub fn splitmix64(mut z: u64) -> u64 {
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

    /// Skips `delta` outputs (`u32`s) in O(log `delta`) steps: the
    /// generator as `delta` calls of `next_u32` would leave it, so that
    /// the draws of one stream can be made in parallel, each share from
    /// its own place in it (Brown's jump-ahead of an LCG, as PCG's
    /// `pcg_advance` makes it).
    pub fn advance(&mut self, mut delta: u64) {
        let (mut acc_mult, mut acc_plus) = (1u64, 0u64);
        let (mut mult, mut plus) = (MULTIPLIER, self.increment);
        while delta > 0 {
            if delta & 1 == 1 {
                acc_mult = acc_mult.wrapping_mul(mult);
                acc_plus = acc_plus.wrapping_mul(mult).wrapping_add(plus);
            }
            plus = mult.wrapping_add(1).wrapping_mul(plus);
            mult = mult.wrapping_mul(mult);
            delta >>= 1;
        }
        self.state = acc_mult.wrapping_mul(self.state).wrapping_add(acc_plus);
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

    /// PCG's reference (pcg32-demo, seed 42, stream 54): its first six
    /// outputs.
    #[test]
    fn matches_the_pcg_reference_output() {
        let mut r = Pcg32::new(42, 54);
        let first: Vec<u32> = (0..6).map(|_| r.next_u32()).collect();
        assert_eq!(first, [0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e]);
    }

    /// The same stream as `rand_pcg::Pcg32`, the generator the world and
    /// the level generators drew from before, for every way they draw
    /// (words, ranges of integers and floats, bytes): so no session and no
    /// level changed.
    #[test]
    fn draws_exactly_what_rand_pcg_draws() {
        let seeds = [0, 1, 7, 42, u64::MAX, 0x9e37_79b9_7f4a_7c15];
        for seed in seeds {
            for id in [0, 1, 2, 3, 5, 6, u64::MAX] {
                let mut ours = Pcg32::new(splitmix64(seed ^ id), id);
                let mut theirs = rand_pcg::Pcg32::new(splitmix64(seed ^ id), id);
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
    }

    /// Advancing by `delta` is `delta` draws of a word, for deltas across
    /// the bit patterns (and as `rand_pcg` advances).
    #[test]
    fn advancing_is_drawing() {
        for delta in [0u64, 1, 2, 3, 7, 64, 511, 512, 1000, 98_765] {
            let mut drawn = Pcg32::new(splitmix64(delta), 3);
            let (mut advanced, mut theirs) = (drawn.clone(), rand_pcg::Pcg32::new(splitmix64(delta), 3));
            for _ in 0..delta {
                drawn.next_u32();
            }
            advanced.advance(delta);
            theirs.advance(delta);
            assert_eq!(advanced, drawn, "{delta}");
            assert_eq!(advanced.next_u32(), theirs.next_u32(), "{delta}");
        }
        let mut far = Pcg32::new(1, 2);
        far.advance(u64::MAX);
        far.advance(1);
        assert_eq!(far, Pcg32::new(1, 2), "the period is 2^64");
    }

    #[test]
    fn its_state_is_hashed() {
        let mut r = Pcg32::new(3, 1);
        let before = crate::hash::hash_of(&r);
        r.next_u32();
        assert_ne!(crate::hash::hash_of(&r), before, "a draw moves the state");
        assert_ne!(crate::hash::hash_of(&Pcg32::new(3, 2)), before, "another stream");
    }
}
