//! SIMD levels: the vector operations ([`Isa`]) the kernels of
//! `super::kernels` are written over, and the run-time choice among them.
//!
//! The kernels are plain Rust over fixed-size arrays, so LLVM vectorises them.
//! Each is compiled several times: once portable (the crate's default target,
//! separate multiply and add) and, on x86-64, inside functions compiled with
//! `avx2,fma` or `avx512f` enabled, chosen at run time by feature detection
//! (`is_x86_feature_detected!`). A plain `cargo build` therefore runs the fast
//! code on a machine that has it, and stays correct on one that does not.
//!
//! Batched activations use a *blocked* layout: the batch is cut into blocks of
//! [`LANES`] positions, and within a block each unit's values for the 16
//! positions are contiguous (`block[unit * LANES + lane]`). A layer is then a
//! small matrix product whose innermost loop runs over the 16 lanes, whatever
//! the layer widths, with several output units accumulated at once in
//! registers (a register tile).
//!
//! Summation order is fixed: a unit's net input starts at its bias and adds
//! the weighted inputs in input order, one fused (or, at the portable level,
//! unfused) multiply-add at a time. The single-position forward pass uses the
//! same order, so both give bit-identical outputs at the same level.

use std::fmt;
use std::str::FromStr;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Positions per block in the batched layout.
pub const LANES: usize = 16;

/// One unit's values for the positions of one block.
pub type Row = [f32; LANES];

/// Which compiled version of the kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SimdLevel {
    /// The crate's compile-time target, multiply and add unfused.
    Portable,
    /// x86-64 AVX2 with fused multiply-add (8 f32 lanes).
    Avx2,
    /// x86-64 AVX-512F (16 f32 lanes), fused multiply-add.
    Avx512,
}

impl SimdLevel {
    /// The best level this CPU supports.
    pub fn detect() -> SimdLevel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("fma")
            {
                return SimdLevel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                return SimdLevel::Avx2;
            }
        }
        SimdLevel::Portable
    }

    /// Whether the level uses fused multiply-adds. Levels that do (`avx2`,
    /// `avx512`) give the same bits as each other; the portable level rounds
    /// each multiply and add apart and gives slightly different results.
    pub fn fused(self) -> bool {
        self != SimdLevel::Portable
    }

    /// Whether this CPU can run the level.
    pub fn is_supported(self) -> bool {
        match self {
            SimdLevel::Portable => true,
            SimdLevel::Avx2 => {
                matches!(SimdLevel::detect(), SimdLevel::Avx2 | SimdLevel::Avx512)
            }
            SimdLevel::Avx512 => SimdLevel::detect() == SimdLevel::Avx512,
        }
    }

    /// f32 lanes in one vector register at this level (4 for portable x86-64
    /// SSE2).
    pub fn lanes(self) -> usize {
        match self {
            SimdLevel::Portable => 4,
            SimdLevel::Avx2 => 8,
            SimdLevel::Avx512 => 16,
        }
    }

    /// The level's name (`portable`, `avx2`, `avx512`).
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Portable => "portable",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
        }
    }
}

impl fmt::Display for SimdLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SimdLevel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "portable" => Ok(SimdLevel::Portable),
            "avx2" => Ok(SimdLevel::Avx2),
            "avx512" => Ok(SimdLevel::Avx512),
            _ => Err(format!(
                "unknown SIMD level '{s}' (accepted: portable, avx2, avx512)"
            )),
        }
    }
}

/// What differs between the compiled versions: the vector type, how a
/// multiply-add rounds, and the register-tile sizes.
///
/// Each level's vector operations are `#[inline(always)]` wrappers around
/// `std::arch` intrinsics; they are only reached through [`run`], inside a
/// function compiled with the level's target features, after run-time
/// detection.
pub trait Isa {
    /// A vector of `WIDTH` f32 lanes.
    type V: Copy;
    /// Lanes per vector; divides [`LANES`].
    const WIDTH: usize;
    /// Output units per register tile in the layer kernel.
    const TILE: usize;
    /// Rows × columns of the register tile of the outer-product kernel.
    const OUTER: (usize, usize);
    /// All lanes `x`.
    fn splat(x: f32) -> Self::V;
    /// The first `WIDTH` values of `s`.
    fn load(s: &[f32]) -> Self::V;
    /// Writes the first `WIDTH` values of `s`.
    fn store(v: Self::V, s: &mut [f32]);
    /// The values of `s` (fewer than `WIDTH`), the other lanes zero.
    fn load_partial(s: &[f32]) -> Self::V;
    /// `a * b + c` per lane.
    fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// `a * b + c`, rounded as `fma` rounds.
    fn mul_add(a: f32, b: f32, c: f32) -> f32;
    /// `a + b` per lane.
    fn add(a: Self::V, b: Self::V) -> Self::V;
    /// `a - b` per lane.
    fn sub(a: Self::V, b: Self::V) -> Self::V;
    /// `a * b` per lane.
    fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// `a / b` per lane.
    fn div(a: Self::V, b: Self::V) -> Self::V;
    /// `if a < b { a } else { b }` per lane (x86 `minps`).
    fn min(a: Self::V, b: Self::V) -> Self::V;
    /// `if a > b { a } else { b }` per lane (x86 `maxps`).
    fn max(a: Self::V, b: Self::V) -> Self::V;
    /// Per lane, the float whose bits are `(bits(t) << 23) + bits(1.0)`:
    /// `2^n` when `t = n + 1.5·2^23` with `n` in [-126, 127].
    fn pow2_from_shifted(t: Self::V) -> Self::V;
}

/// Portable: four lanes in an array (LLVM maps it to SSE2 or NEON),
/// separate multiply and add (a fused `mul_add` without hardware support
/// would be a slow library call).
pub struct Plain;

impl Isa for Plain {
    type V = [f32; 4];
    const WIDTH: usize = 4;
    const TILE: usize = 2;
    const OUTER: (usize, usize) = (1, 2);
    #[inline(always)]
    fn splat(x: f32) -> [f32; 4] {
        [x; 4]
    }
    #[inline(always)]
    fn load(s: &[f32]) -> [f32; 4] {
        s[..4].try_into().unwrap()
    }
    #[inline(always)]
    fn store(v: [f32; 4], s: &mut [f32]) {
        s[..4].copy_from_slice(&v)
    }
    #[inline(always)]
    fn load_partial(s: &[f32]) -> [f32; 4] {
        let mut v = [0.0; 4];
        v[..s.len()].copy_from_slice(s);
        v
    }
    #[inline(always)]
    fn fma(a: [f32; 4], b: [f32; 4], c: [f32; 4]) -> [f32; 4] {
        [
            a[0] * b[0] + c[0],
            a[1] * b[1] + c[1],
            a[2] * b[2] + c[2],
            a[3] * b[3] + c[3],
        ]
    }
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a * b + c
    }
    #[inline(always)]
    fn add(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
        [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]]
    }
    #[inline(always)]
    fn sub(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]]
    }
    #[inline(always)]
    fn mul(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
        [a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]]
    }
    #[inline(always)]
    fn div(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
        [a[0] / b[0], a[1] / b[1], a[2] / b[2], a[3] / b[3]]
    }
    #[inline(always)]
    fn min(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
        std::array::from_fn(|l| if a[l] < b[l] { a[l] } else { b[l] })
    }
    #[inline(always)]
    fn max(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
        std::array::from_fn(|l| if a[l] > b[l] { a[l] } else { b[l] })
    }
    #[inline(always)]
    fn pow2_from_shifted(t: [f32; 4]) -> [f32; 4] {
        t.map(|t| f32::from_bits((t.to_bits() << 23).wrapping_add(1.0f32.to_bits())))
    }
}

/// AVX2 + FMA: 16 ymm registers of 8 lanes.
#[cfg(target_arch = "x86_64")]
pub struct Avx2Fma;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx2Fma {
    type V = std::arch::x86_64::__m256;
    const WIDTH: usize = 8;
    const TILE: usize = 6;
    const OUTER: (usize, usize) = (2, 3);
    #[inline(always)]
    fn splat(x: f32) -> Self::V {
        // SAFETY: only reached under `run_avx2` (AVX2 and FMA present).
        unsafe { std::arch::x86_64::_mm256_set1_ps(x) }
    }
    #[inline(always)]
    fn load(s: &[f32]) -> Self::V {
        let s = &s[..8];
        // SAFETY: 8 readable values; AVX present (see `splat`).
        unsafe { std::arch::x86_64::_mm256_loadu_ps(s.as_ptr()) }
    }
    #[inline(always)]
    fn store(v: Self::V, s: &mut [f32]) {
        let s = &mut s[..8];
        // SAFETY: 8 writable values; AVX present (see `splat`).
        unsafe { std::arch::x86_64::_mm256_storeu_ps(s.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn load_partial(s: &[f32]) -> Self::V {
        assert!(s.len() < 8);
        // SAFETY: AVX2 present; masked-off lanes are not read.
        unsafe {
            let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
            let mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(s.len() as i32), lanes);
            _mm256_maskload_ps(s.as_ptr(), mask)
        }
    }
    #[inline(always)]
    fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V {
        // SAFETY: FMA present (see `splat`).
        unsafe { std::arch::x86_64::_mm256_fmadd_ps(a, b, c) }
    }
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }
    #[inline(always)]
    fn add(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: AVX2 present (see `splat`).
        unsafe { _mm256_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm256_sub_ps(a, b) }
    }
    #[inline(always)]
    fn mul(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm256_mul_ps(a, b) }
    }
    #[inline(always)]
    fn div(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm256_div_ps(a, b) }
    }
    #[inline(always)]
    fn min(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm256_min_ps(a, b) }
    }
    #[inline(always)]
    fn max(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm256_max_ps(a, b) }
    }
    #[inline(always)]
    fn pow2_from_shifted(t: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe {
            let i = _mm256_castps_si256(t);
            let e = _mm256_add_epi32(_mm256_slli_epi32::<23>(i), _mm256_set1_epi32(0x3F80_0000));
            _mm256_castsi256_ps(e)
        }
    }
}

/// AVX-512F: 32 zmm registers of 16 lanes.
#[cfg(target_arch = "x86_64")]
pub struct Avx512Fma;

#[cfg(target_arch = "x86_64")]
impl Isa for Avx512Fma {
    type V = std::arch::x86_64::__m512;
    const WIDTH: usize = 16;
    const TILE: usize = 12;
    const OUTER: (usize, usize) = (3, 4);
    #[inline(always)]
    fn splat(x: f32) -> Self::V {
        // SAFETY: only reached under `run_avx512` (AVX-512F present).
        unsafe { std::arch::x86_64::_mm512_set1_ps(x) }
    }
    #[inline(always)]
    fn load(s: &[f32]) -> Self::V {
        let s = &s[..16];
        // SAFETY: 16 readable values; AVX-512F present (see `splat`).
        unsafe { std::arch::x86_64::_mm512_loadu_ps(s.as_ptr()) }
    }
    #[inline(always)]
    fn store(v: Self::V, s: &mut [f32]) {
        let s = &mut s[..16];
        // SAFETY: 16 writable values; AVX-512F present (see `splat`).
        unsafe { std::arch::x86_64::_mm512_storeu_ps(s.as_mut_ptr(), v) }
    }
    #[inline(always)]
    fn load_partial(s: &[f32]) -> Self::V {
        assert!(s.len() < 16);
        // SAFETY: AVX-512F present; masked-off lanes are not read.
        unsafe { _mm512_maskz_loadu_ps(((1u32 << s.len()) - 1) as u16, s.as_ptr()) }
    }
    #[inline(always)]
    fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V {
        // SAFETY: AVX-512F present (see `splat`).
        unsafe { std::arch::x86_64::_mm512_fmadd_ps(a, b, c) }
    }
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }
    #[inline(always)]
    fn add(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: AVX-512F present (see `splat`).
        unsafe { _mm512_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm512_sub_ps(a, b) }
    }
    #[inline(always)]
    fn mul(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm512_mul_ps(a, b) }
    }
    #[inline(always)]
    fn div(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm512_div_ps(a, b) }
    }
    #[inline(always)]
    fn min(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm512_min_ps(a, b) }
    }
    #[inline(always)]
    fn max(a: Self::V, b: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe { _mm512_max_ps(a, b) }
    }
    #[inline(always)]
    fn pow2_from_shifted(t: Self::V) -> Self::V {
        // SAFETY: as `add`.
        unsafe {
            let i = _mm512_castps_si512(t);
            let e = _mm512_add_epi32(_mm512_slli_epi32::<23>(i), _mm512_set1_epi32(0x3F80_0000));
            _mm512_castsi512_ps(e)
        }
    }
}

/// An operation generic over the [`Isa`], run at a [`SimdLevel`] by [`run`].
pub trait WithIsa {
    /// The operation's result.
    type Output;
    /// Runs the operation; implementations are `#[inline(always)]` so their
    /// body is compiled with the caller's target features.
    fn run<I: Isa>(self) -> Self::Output;
}

/// Runs `op` compiled for `level`, which must be supported by this CPU (a
/// [`super::Scratch`] only ever holds a supported one).
#[inline]
pub fn run<W: WithIsa>(level: SimdLevel, op: W) -> W::Output {
    match level {
        SimdLevel::Portable => op.run::<Plain>(),
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx2 => {
            debug_assert!(level.is_supported(), "avx2+fma not supported by this CPU");
            // SAFETY: a `Scratch` only holds a level the CPU supports
            // (checked when it was made).
            unsafe { run_avx2(op) }
        }
        #[cfg(target_arch = "x86_64")]
        SimdLevel::Avx512 => {
            debug_assert!(level.is_supported(), "avx512f not supported by this CPU");
            // SAFETY: as above.
            unsafe { run_avx512(op) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => op.run::<Plain>(),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn run_avx2<W: WithIsa>(op: W) -> W::Output {
    op.run::<Avx2Fma>()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
fn run_avx512<W: WithIsa>(op: W) -> W::Output {
    op.run::<Avx512Fma>()
}

/// Vectors per row of [`LANES`] values.
#[inline(always)]
pub const fn per_row<I: Isa>() -> usize {
    LANES / I::WIDTH
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detected_level_is_supported_and_parses() {
        let l = SimdLevel::detect();
        assert!(l.is_supported());
        assert_eq!(l.name().parse::<SimdLevel>(), Ok(l));
        assert!("sse9".parse::<SimdLevel>().is_err());
    }
}
