//! A stable 64-bit state hash: FNV-1a over little-endian bytes.
//!
//! Stable across runs, platforms and Rust versions (unlike `std`'s hashers),
//! so a hash written in a replay file today still checks tomorrow.

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

    /// The hash of everything fed so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash as printed and stored: 16 lowercase hex digits.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
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
}
