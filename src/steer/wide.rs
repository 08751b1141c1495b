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
//! asks).

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
    /// The pass itself, as built for `B`.
    fn run<B: Build>(self) -> Self::Output;
}

/// Which build of a [`Pass`] is running: [`Baseline`] or [`Avx2`]. Only
/// a name: the code is the same, compiled for other instructions.
pub trait Build {}

/// The build for any processor of the target.
pub enum Baseline {}
impl Build for Baseline {}

/// The build for x86_64 processors with AVX2.
pub enum Avx2 {}
impl Build for Avx2 {}

/// Runs `pass`, in its AVX2 build where the processor has AVX2, else in
/// its baseline build: the same answers either way.
#[inline]
pub fn run<P: Pass>(pass: P) -> P::Output {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, the one feature the build needs.
        return unsafe { run_avx2(pass) };
    }
    pass.run::<Baseline>()
}

/// [`Pass::run`] compiled with AVX2 (inlined here, so built for it).
///
/// The frame is aligned to 32 bytes, so that a 256-bit register the loop
/// spills (the flock pass keeps one of its eight accumulators in memory,
/// stored and reloaded every block) never straddles a cache line or a
/// page. The compiler realigns a frame only for a local that asks for it
/// ([`Aligned`]): without one it used `rbp` as a general register, could
/// no longer realign, and put the 32-byte slot at 16 bytes' alignment
/// wherever the caller's stack left it. Where that crossed a 4 KiB page
/// the flock bench's step took 1.60–1.70 ms of CPU against 0.97–0.98
/// elsewhere (the pool thread's stack shifted in 16-byte steps; a slot
/// across two lines of one page cost nothing measurable).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<P: Pass>(pass: P) -> P::Output {
    let align = Aligned([0; 32]);
    // Taken by address, so that it is kept on the stack.
    std::hint::black_box(&align.0);
    pass.run::<Avx2>()
}

/// A local that makes [`run_avx2`]'s frame 32-byte aligned.
#[cfg(target_arch = "x86_64")]
#[repr(align(32))]
struct Aligned([u8; 32]);
