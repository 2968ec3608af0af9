//! The small matrix kernels behind the batched forward and backward passes,
//! written once over the vector operations of [`super::simd::Isa`] and
//! compiled at every SIMD level (see `simd` for the blocked layout and the
//! fixed summation order).

use super::activation::Activation;
use super::simd::{per_row, Isa, Row, LANES};

/// The rows of a block (`x`, rows of [`LANES`] values) that hold a value
/// other than zero, in order, into `rows`.
///
/// A zero input adds nothing to a sum (`fma(w, 0, s)` is `s`, up to the
/// sign of a zero sum, which no activation or comparison tells apart), so
/// the kernels skip the rows that are zero in every lane of the block: a
/// board encoding's empty squares, which in a block of positions from
/// nearby games are mostly the same squares.
#[inline(always)]
pub fn live_rows(x: &[f32], rows: &mut Vec<u32>) {
    rows.clear();
    for (r, xr) in x.chunks_exact(LANES).enumerate() {
        // Every bit but the sign, OR-ed over the lanes (no early exit, so
        // it vectorises): zero exactly when every lane is ±0.
        let bits = xr.iter().fold(0u32, |acc, v| acc | (v.to_bits() << 1));
        if bits != 0 {
            rows.push(r as u32);
        }
    }
}

/// Computes the net inputs of `NJ` output units `o0..o0+NJ` of a layer
/// for one block: `y[o] = bias[o] + Σ_r w[r * stride + o] * x[r]` over the
/// input rows `rows` (the others being zero), the sum taken in order of
/// `r`. `x` holds the block's input rows; `NV` vectors make one row.
#[inline(always)]
fn tile<I: Isa, const NJ: usize, const NV: usize>(
    x: &[f32],
    rows: &[u32],
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
    for &r in rows {
        let r = r as usize;
        let xr = &x[r * LANES..(r + 1) * LANES];
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

/// One layer for one block: `x` has `w.len() / stride` input rows, of
/// which `rows` lists those not zero in every lane ([`live_rows`]); `y`
/// gets `stride` output rows (`stride` = number of outputs), activated.
#[inline(always)]
pub fn layer_block<I: Isa>(
    x: &[f32],
    rows: &[u32],
    w: &[f32],
    stride: usize,
    bias: &[f32],
    act: Activation,
    y: &mut [f32],
) {
    match per_row::<I>() {
        1 => layer_sums::<I, 1>(x, rows, w, stride, bias, y),
        2 => layer_sums::<I, 2>(x, rows, w, stride, bias, y),
        _ => layer_sums::<I, 4>(x, rows, w, stride, bias, y),
    }
    act.apply_slice::<I>(&mut y[..stride * LANES]);
}

#[inline(always)]
fn layer_sums<I: Isa, const NV: usize>(
    x: &[f32],
    rows: &[u32],
    w: &[f32],
    stride: usize,
    bias: &[f32],
    y: &mut [f32],
) {
    macro_rules! tiles {
        ($nj:literal) => {{
            let mut o0 = 0;
            while o0 + $nj <= stride {
                tile::<I, $nj, NV>(x, rows, w, stride, bias, o0, y);
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
        1 => tile::<I, 1, NV>(x, rows, w, stride, bias, o0, y),
        2 => tile::<I, 2, NV>(x, rows, w, stride, bias, o0, y),
        3 => tile::<I, 3, NV>(x, rows, w, stride, bias, o0, y),
        4 => tile::<I, 4, NV>(x, rows, w, stride, bias, o0, y),
        5 => tile::<I, 5, NV>(x, rows, w, stride, bias, o0, y),
        6 => tile::<I, 6, NV>(x, rows, w, stride, bias, o0, y),
        7 => tile::<I, 7, NV>(x, rows, w, stride, bias, o0, y),
        8 => tile::<I, 8, NV>(x, rows, w, stride, bias, o0, y),
        9 => tile::<I, 9, NV>(x, rows, w, stride, bias, o0, y),
        10 => tile::<I, 10, NV>(x, rows, w, stride, bias, o0, y),
        _ => tile::<I, 11, NV>(x, rows, w, stride, bias, o0, y),
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
pub fn dense_one<I: Isa>(x: &[f32], w: &[f32], bias: &[f32], y: &mut [f32], nz: &mut [u32]) {
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
pub fn row_axpy<I: Isa>(a: f32, x: &[f32], acc: &mut [f32]) {
    let av = I::splat(a);
    for v in 0..per_row::<I>() {
        let o = v * I::WIDTH;
        let r = I::fma(av, I::load(&x[o..]), I::load(&acc[o..]));
        I::store(r, &mut acc[o..]);
    }
}

/// `acc[l] = d[l] * x[l] + acc[l]` over one row of [`LANES`].
#[inline(always)]
pub fn row_fma<I: Isa>(d: &[f32], x: &[f32], acc: &mut [f32]) {
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
pub fn outer_product<I: Isa>(
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
pub fn lane_sum(r: &Row) -> f32 {
    let mut h = [0.0f32; 8];
    for l in 0..8 {
        h[l] = r[l] + r[l + 8];
    }
    let q = [h[0] + h[4], h[1] + h[5], h[2] + h[6], h[3] + h[7]];
    (q[0] + q[2]) + (q[1] + q[3])
}
