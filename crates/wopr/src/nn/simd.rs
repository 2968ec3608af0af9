//! SIMD levels and the small matrix kernels behind the batched forward and
//! backward passes.
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

use super::activation::Activation;

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Positions per block in the batched layout.
pub const LANES: usize = 16;

/// One unit's values for the positions of one block.
pub(crate) type Row = [f32; LANES];

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
pub(crate) trait Isa {
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
pub(crate) struct Plain;

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
pub(crate) struct Avx2Fma;

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
pub(crate) struct Avx512Fma;

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
pub(crate) trait WithIsa {
    /// The operation's result.
    type Output;
    /// Runs the operation; implementations are `#[inline(always)]` so their
    /// body is compiled with the caller's target features.
    fn run<I: Isa>(self) -> Self::Output;
}

/// Runs `op` compiled for `level`, which must be supported by this CPU (a
/// [`super::Scratch`] only ever holds a supported one).
#[inline]
pub(crate) fn run<W: WithIsa>(level: SimdLevel, op: W) -> W::Output {
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
pub(crate) const fn per_row<I: Isa>() -> usize {
    LANES / I::WIDTH
}

/// Computes the net inputs of `NJ` output units `o0..o0+NJ` of a layer
/// for one block: `y[o] = bias[o] + Σ_r w[r * stride + o] * x[r]`, the sum
/// taken in order of `r`. `x` holds the block's input rows; `NV` vectors
/// make one row.
#[inline(always)]
fn tile<I: Isa, const NJ: usize, const NV: usize>(
    x: &[f32],
    w: &[f32],
    stride: usize,
    bias: &[f32],
    o0: usize,
    y: &mut [f32],
) {
    let mut acc = [[I::splat(0.0); NV]; NJ];
    for (row, &b) in acc.iter_mut().zip(&bias[o0..o0 + NJ]) {
        *row = [I::splat(b); NV];
    }
    for (r, xr) in x.chunks_exact(LANES).enumerate() {
        let mut xv = [I::splat(0.0); NV];
        for (v, xv) in xv.iter_mut().enumerate() {
            *xv = I::load(&xr[v * I::WIDTH..]);
        }
        let wr = &w[r * stride + o0..r * stride + o0 + NJ];
        for jj in 0..NJ {
            let wv = I::splat(wr[jj]);
            for v in 0..NV {
                acc[jj][v] = I::fma(wv, xv[v], acc[jj][v]);
            }
        }
    }
    for jj in 0..NJ {
        let yr = &mut y[(o0 + jj) * LANES..(o0 + jj + 1) * LANES];
        for v in 0..NV {
            I::store(acc[jj][v], &mut yr[v * I::WIDTH..]);
        }
    }
}

/// One layer for one block: `x` has `w.len() / stride` input rows, `y` gets
/// `stride` output rows (`stride` = number of outputs), activated.
#[inline(always)]
pub(crate) fn layer_block<I: Isa>(
    x: &[f32],
    w: &[f32],
    stride: usize,
    bias: &[f32],
    act: Activation,
    y: &mut [f32],
) {
    match per_row::<I>() {
        1 => layer_sums::<I, 1>(x, w, stride, bias, y),
        2 => layer_sums::<I, 2>(x, w, stride, bias, y),
        _ => layer_sums::<I, 4>(x, w, stride, bias, y),
    }
    act.apply_slice::<I>(&mut y[..stride * LANES]);
}

#[inline(always)]
fn layer_sums<I: Isa, const NV: usize>(
    x: &[f32],
    w: &[f32],
    stride: usize,
    bias: &[f32],
    y: &mut [f32],
) {
    macro_rules! tiles {
        ($nj:literal) => {{
            let mut o0 = 0;
            while o0 + $nj <= stride {
                tile::<I, $nj, NV>(x, w, stride, bias, o0, y);
                o0 += $nj;
            }
            o0
        }};
    }
    let o0 = match I::TILE {
        12 => tiles!(12),
        6 => tiles!(6),
        _ => tiles!(2),
    };
    match stride - o0 {
        0 => {}
        1 => tile::<I, 1, NV>(x, w, stride, bias, o0, y),
        2 => tile::<I, 2, NV>(x, w, stride, bias, o0, y),
        3 => tile::<I, 3, NV>(x, w, stride, bias, o0, y),
        4 => tile::<I, 4, NV>(x, w, stride, bias, o0, y),
        5 => tile::<I, 5, NV>(x, w, stride, bias, o0, y),
        6 => tile::<I, 6, NV>(x, w, stride, bias, o0, y),
        7 => tile::<I, 7, NV>(x, w, stride, bias, o0, y),
        8 => tile::<I, 8, NV>(x, w, stride, bias, o0, y),
        9 => tile::<I, 9, NV>(x, w, stride, bias, o0, y),
        10 => tile::<I, 10, NV>(x, w, stride, bias, o0, y),
        _ => tile::<I, 11, NV>(x, w, stride, bias, o0, y),
    }
}

/// One layer for one position, before the activation:
/// `y[j] = bias[j] + Σ_i w[i * m + j] * x[i]` (`m = y.len()`), summed in
/// order of `i` with the same multiply-adds as [`layer_block`], skipping
/// zero inputs (which add nothing; their indices are first compacted into
/// `nz` without branches, as board encodings are mostly zeros in no
/// predictable pattern). Vectorised across outputs; when `m` is not a
/// multiple of the width, the last vector overlaps the one before it (both
/// compute the shared outputs identically).
#[inline(always)]
pub(crate) fn dense_one<I: Isa>(x: &[f32], w: &[f32], bias: &[f32], y: &mut [f32], nz: &mut [u32]) {
    let m = y.len();
    let mut k = 0;
    for (i, &xi) in x.iter().enumerate() {
        nz[k] = i as u32;
        k += usize::from(xi != 0.0);
    }
    let nz = &nz[..k];
    let wd = I::WIDTH;
    if m < wd {
        // Narrower than a vector: one partial vector.
        let mut acc = I::load_partial(bias);
        for &i in nz {
            let i = i as usize;
            let wr = I::load_partial(&w[i * m..(i + 1) * m]);
            acc = I::fma(wr, I::splat(x[i]), acc);
        }
        let mut buf = [0.0f32; 16];
        I::store(acc, &mut buf);
        y.copy_from_slice(&buf[..m]);
        return;
    }
    let nvec = m.div_ceil(wd);
    let start = |k: usize| (k * wd).min(m - wd);
    let mut k = 0;
    while k < nvec {
        macro_rules! chunk {
            ($nv:literal) => {{
                dense_chunk::<I, $nv>(x, w, bias, y, nz, std::array::from_fn(|v| start(k + v)));
                k += $nv;
            }};
        }
        match nvec - k {
            1 => chunk!(1),
            2 => chunk!(2),
            3 => chunk!(3),
            4 => chunk!(4),
            5 => chunk!(5),
            6 => chunk!(6),
            7 => chunk!(7),
            _ => chunk!(8),
        }
    }
}

#[inline(always)]
fn dense_chunk<I: Isa, const NV: usize>(
    x: &[f32],
    w: &[f32],
    bias: &[f32],
    y: &mut [f32],
    nz: &[u32],
    starts: [usize; NV],
) {
    let m = y.len();
    let mut acc = [I::splat(0.0); NV];
    for v in 0..NV {
        acc[v] = I::load(&bias[starts[v]..]);
    }
    for &i in nz {
        let i = i as usize;
        let xv = I::splat(x[i]);
        let wr = &w[i * m..(i + 1) * m];
        for v in 0..NV {
            acc[v] = I::fma(I::load(&wr[starts[v]..]), xv, acc[v]);
        }
    }
    for v in 0..NV {
        I::store(acc[v], &mut y[starts[v]..]);
    }
}

/// `acc[l] = a * x[l] + acc[l]` over one row of [`LANES`].
#[inline(always)]
pub(crate) fn row_axpy<I: Isa>(a: f32, x: &[f32], acc: &mut [f32]) {
    let av = I::splat(a);
    for v in 0..per_row::<I>() {
        let o = v * I::WIDTH;
        let r = I::fma(av, I::load(&x[o..]), I::load(&acc[o..]));
        I::store(r, &mut acc[o..]);
    }
}

/// `acc[l] = d[l] * x[l] + acc[l]` over one row of [`LANES`].
#[inline(always)]
pub(crate) fn row_fma<I: Isa>(d: &[f32], x: &[f32], acc: &mut [f32]) {
    for v in 0..per_row::<I>() {
        let o = v * I::WIDTH;
        let r = I::fma(I::load(&d[o..]), I::load(&x[o..]), I::load(&acc[o..]));
        I::store(r, &mut acc[o..]);
    }
}

/// Adds `Σ_lanes a_i · d_j` to `g[i * stride + j]` for the `NI × NJ` tile at
/// `(i0, j0)`, summing over all `blocks` (block `k`'s rows start at
/// `k * a_step` in `a` and `k * d_step` in `d`). Lanes are summed by a fixed
/// tree at the end, so the result does not depend on the vector width.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn outer_tile<I: Isa, const NI: usize, const NJ: usize, const NV: usize>(
    a: &[f32],
    a_step: usize,
    d: &[f32],
    d_step: usize,
    blocks: usize,
    i0: usize,
    j0: usize,
    g: &mut [f32],
    stride: usize,
) {
    let mut acc = [[[I::splat(0.0); NV]; NJ]; NI];
    for k in 0..blocks {
        let ab = &a[k * a_step + i0 * LANES..k * a_step + (i0 + NI) * LANES];
        let db = &d[k * d_step + j0 * LANES..k * d_step + (j0 + NJ) * LANES];
        for v in 0..NV {
            let mut dv = [I::splat(0.0); NJ];
            for (jj, dv) in dv.iter_mut().enumerate() {
                *dv = I::load(&db[jj * LANES + v * I::WIDTH..]);
            }
            for ii in 0..NI {
                let av = I::load(&ab[ii * LANES + v * I::WIDTH..]);
                for jj in 0..NJ {
                    acc[ii][jj][v] = I::fma(av, dv[jj], acc[ii][jj][v]);
                }
            }
        }
    }
    let mut row = [0.0f32; LANES];
    for ii in 0..NI {
        for jj in 0..NJ {
            for v in 0..NV {
                I::store(acc[ii][jj][v], &mut row[v * I::WIDTH..]);
            }
            g[(i0 + ii) * stride + j0 + jj] += lane_sum(&row);
        }
    }
}

/// The gradient of a weight matrix `w[i * stride + j]` (input `i`, output `j`)
/// over `blocks` blocks: `g[i][j] += Σ a_i · d_j` where `a` holds the layer's
/// input rows (`rows_a` of them per block, blocks `a_step` floats apart) and
/// `d` its output deltas (`stride` rows per block, `d_step` apart).
#[inline(always)]
#[allow(clippy::too_many_arguments, clippy::int_plus_one)]
pub(crate) fn outer_product<I: Isa>(
    a: &[f32],
    a_step: usize,
    rows_a: usize,
    d: &[f32],
    d_step: usize,
    blocks: usize,
    g: &mut [f32],
    stride: usize,
) {
    macro_rules! run_tiles {
        ($ni:literal, $nj:literal, $nv:literal) => {{
            let mut i0 = 0;
            while i0 + $ni <= rows_a {
                let mut j0 = 0;
                while j0 + $nj <= stride {
                    outer_tile::<I, $ni, $nj, $nv>(a, a_step, d, d_step, blocks, i0, j0, g, stride);
                    j0 += $nj;
                }
                while j0 < stride {
                    outer_tile::<I, $ni, 1, $nv>(a, a_step, d, d_step, blocks, i0, j0, g, stride);
                    j0 += 1;
                }
                i0 += $ni;
            }
            while i0 < rows_a {
                let mut j0 = 0;
                while j0 + $nj <= stride {
                    outer_tile::<I, 1, $nj, $nv>(a, a_step, d, d_step, blocks, i0, j0, g, stride);
                    j0 += $nj;
                }
                while j0 < stride {
                    outer_tile::<I, 1, 1, $nv>(a, a_step, d, d_step, blocks, i0, j0, g, stride);
                    j0 += 1;
                }
                i0 += 1;
            }
        }};
    }
    match (I::OUTER, per_row::<I>()) {
        ((3, 4), 1) => run_tiles!(3, 4, 1),
        ((2, 3), 2) => run_tiles!(2, 3, 2),
        _ => run_tiles!(1, 2, 4),
    }
}

/// The sum of a row's lanes by a fixed pairwise tree.
#[inline(always)]
pub(crate) fn lane_sum(r: &Row) -> f32 {
    let mut h = [0.0f32; 8];
    for l in 0..8 {
        h[l] = r[l] + r[l + 8];
    }
    let q = [h[0] + h[4], h[1] + h[5], h[2] + h[6], h[3] + h[7]];
    (q[0] + q[2]) + (q[1] + q[3])
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
