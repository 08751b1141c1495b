//! The neighbour passes built twice, for any x86_64 and for AVX2, and the
//! build the processor can run chosen when they start ([`run`]).
//!
//! A pass sums the eight lanes of the spatial hash's blocks
//! ([`super::Block`]) side by side. Built for the x86_64 baseline (SSE2),
//! every eight-lane sum takes two of the sixteen 128-bit registers, so the
//! sums live in memory and each block loads and stores them; built for
//! AVX2, a sum is one 256-bit register and a block is half the
//! instructions. A crate built for AVX2 alone would not run on an older
//! processor, hence the two builds of each pass in the one binary.
//!
//! The two give the same answers to the bit: the same IEEE operations on
//! the same values in the same order, only more lanes to an instruction
//! (Rust never fuses a multiply and an add unless asked, and nothing here
//! asks). The one operation a build does its own way, [`Build::transpose`],
//! only moves values.

use super::spatial::LANES;

/// A hot loop [`run`] builds twice, once for each [`Build`].
/// Implementations mark [`Pass::run`] `#[inline(always)]`, and what it
/// calls in its loop `#[inline]`, so that all of the loop is compiled
/// into each build: a call left out of line would run the baseline code
/// inside the AVX2 build. The build is a type parameter so that every
/// closure in the loop is a type of its own in each build, called from
/// one place, and inlined there (one closure called from both builds
/// would be kept out of line).
pub trait Pass {
    /// What the pass returns.
    type Output;
    /// The pass itself, as built for `B` (`build` is the proof that the
    /// processor runs it).
    fn run<B: Build>(self, build: B) -> Self::Output;
}

/// Which build of a [`Pass`] is running: [`Baseline`] or [`Avx2`], and
/// what each does with instructions of its own.
pub trait Build: Copy {
    /// `rows` as columns: lane `i` of the result's `j`-th array is lane
    /// `j` of `rows[i]`. What turns [`LANES`] bodies' per-lane sums into
    /// one array per lane, to merge them for all the bodies at once; a
    /// compiler left to it loads and inserts one value at a time.
    fn transpose<T: Copy>(self, rows: [&[T; LANES]; LANES]) -> [[T; LANES]; LANES];
}

/// The build for any processor of the target.
#[derive(Clone, Copy, Debug)]
pub struct Baseline;

impl Build for Baseline {
    #[inline(always)]
    fn transpose<T: Copy>(self, rows: [&[T; LANES]; LANES]) -> [[T; LANES]; LANES] {
        std::array::from_fn(|j| std::array::from_fn(|i| rows[i][j]))
    }
}

/// The build for x86_64 processors with AVX2. Only [`run`] makes one,
/// once it has found AVX2 on the processor.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

#[cfg(target_arch = "x86_64")]
impl Build for Avx2 {
    #[inline(always)]
    fn transpose<T: Copy>(self, rows: [&[T; LANES]; LANES]) -> [[T; LANES]; LANES] {
        // SAFETY: an `Avx2` exists only where the processor has AVX2.
        unsafe { transpose_avx(rows) }
    }
}

/// [`Build::transpose`] in AVX: each column of four rows' halves is put
/// together from two 128-bit loads, and the four-by-four blocks within
/// each 128-bit half are transposed by unpacks and shuffles (16 shuffles
/// for the 64 values).
///
/// # Safety
/// The processor must have AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
unsafe fn transpose_avx<T: Copy>(rows: [&[T; LANES]; LANES]) -> [[T; LANES]; LANES] {
    use std::arch::x86_64::*;
    const { assert!(LANES == 8 && size_of::<T>() == 4 && align_of::<T>() <= 4) };
    let p = rows.map(|r| r.as_ptr().cast::<f32>());
    let mut out = std::mem::MaybeUninit::<[[T; LANES]; LANES]>::uninit();
    let o = out.as_mut_ptr().cast::<f32>();
    // SAFETY: every row holds eight 4-byte values, read as f32 bits and
    // written back as the same bits (a transpose only moves values); the
    // loads and stores are unaligned; all of `out` is written.
    unsafe {
        for half in [0, 4] {
            // t[r]: lanes half..half + 4 of rows r and r + 4, side by side.
            let t: [__m256; 4] = std::array::from_fn(|r| {
                _mm256_insertf128_ps::<1>(
                    _mm256_castps128_ps256(_mm_loadu_ps(p[r].add(half))),
                    _mm_loadu_ps(p[r + 4].add(half)),
                )
            });
            let (u0, u1) = (_mm256_unpacklo_ps(t[0], t[1]), _mm256_unpackhi_ps(t[0], t[1]));
            let (u2, u3) = (_mm256_unpacklo_ps(t[2], t[3]), _mm256_unpackhi_ps(t[2], t[3]));
            let cols = [
                _mm256_shuffle_ps::<0x44>(u0, u2),
                _mm256_shuffle_ps::<0xee>(u0, u2),
                _mm256_shuffle_ps::<0x44>(u1, u3),
                _mm256_shuffle_ps::<0xee>(u1, u3),
            ];
            for (c, col) in cols.into_iter().enumerate() {
                _mm256_storeu_ps(o.add((half + c) * LANES), col);
            }
        }
        out.assume_init()
    }
}

/// Runs `pass`, in its AVX2 build where the processor has AVX2, else in
/// its baseline build: the same answers either way.
#[inline]
pub fn run<P: Pass>(pass: P) -> P::Output {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, the one feature the build needs.
        return unsafe { run_avx2(pass) };
    }
    pass.run(Baseline)
}

/// [`Pass::run`] compiled with AVX2 (inlined here, so built for it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<P: Pass>(pass: P) -> P::Output {
    pass.run(Avx2(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both builds transpose, values of any 4-byte kind.
    #[test]
    fn both_builds_transpose() {
        let m: [[u32; LANES]; LANES] = std::array::from_fn(|i| std::array::from_fn(|j| (10 * i + j) as u32));
        let rows = std::array::from_fn(|i| &m[i]);
        let t = Baseline.transpose(rows);
        assert!((0..LANES).all(|i| (0..LANES).all(|j| t[j][i] == m[i][j])));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            assert_eq!(Avx2(()).transpose(rows), t);
            let f = rows.map(|r| r.map(|v| f32::from_bits(v ^ 0x8000_0000)));
            let t = Avx2(()).transpose(std::array::from_fn(|i| &f[i]));
            assert!((0..LANES).all(|i| (0..LANES).all(|j| t[j][i].to_bits() == f[i][j].to_bits())));
        }
    }
}
