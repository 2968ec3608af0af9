//! The layered perceptron.

use super::kernels;
use super::scratch::{grow, Filled};
use super::simd::{self, Isa, WithIsa, LANES};
use super::SegmentKind;
use super::{delegate_params, Activation, NetError, Network, ParamStore, Scratch, Segment};
use crate::game::mix64;

/// A multi-layer perceptron: `sizes[0]` inputs, then layers of
/// `sizes[1..]` units, each unit fed by every unit of the layer before plus a
/// bias, with one [`Activation`] per layer.
///
/// Parameter layout, layer by layer (`l = 1..sizes.len()`, `n = sizes[l-1]`
/// sources, `m = sizes[l]` units): the `n × m` weights, row-major by source
/// (the weight from source `i` to unit `j` is at `i * m + j`), then the `m`
/// biases. Storing a source's outgoing weights together lets the batched
/// kernel broadcast them against 16 positions at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    sizes: Vec<usize>,
    activations: Vec<Activation>,
    /// Start of each layer's weights in the parameter vector.
    offsets: Vec<usize>,
    store: ParamStore,
}

impl Mlp {
    /// A net with all parameters zero. `sizes` lists inputs, hidden layers
    /// and outputs (at least two entries, none zero); `activations` has one
    /// entry per non-input layer.
    pub fn new(sizes: &[usize], activations: &[Activation]) -> Result<Mlp, NetError> {
        if sizes.len() < 2 {
            return Err(NetError(format!(
                "a layered net needs at least an input and an output layer, got {} layer(s)",
                sizes.len()
            )));
        }
        if let Some(i) = sizes.iter().position(|&s| s == 0) {
            return Err(NetError(format!("layer {i} has no units")));
        }
        if activations.len() != sizes.len() - 1 {
            let shape: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
            return Err(NetError(format!(
                "architecture {} takes {} activations (one per non-input layer), got {}",
                shape.join("-"),
                sizes.len() - 1,
                activations.len()
            )));
        }
        let mut offsets = Vec::with_capacity(sizes.len() - 1);
        let mut n = 0usize;
        for w in sizes.windows(2) {
            offsets.push(n);
            n = w[0]
                .checked_mul(w[1])
                .and_then(|k| k.checked_add(w[1]))
                .and_then(|k| k.checked_add(n))
                .ok_or_else(|| NetError("net too large".to_string()))?;
        }
        Ok(Mlp {
            sizes: sizes.to_vec(),
            activations: activations.to_vec(),
            offsets,
            store: ParamStore::zeros(n),
        })
    }

    /// Units per layer, inputs first.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The activation of each non-input layer.
    pub fn activations(&self) -> &[Activation] {
        &self.activations
    }

    /// Number of weight layers.
    fn layers(&self) -> usize {
        self.sizes.len() - 1
    }

    /// Weights and biases of layer `l` (1-based).
    fn layer(&self, l: usize) -> (&[f32], &[f32]) {
        let (n, m) = (self.sizes[l - 1], self.sizes[l]);
        let o = self.offsets[l - 1];
        let p = &self.store.values;
        (&p[o..o + n * m], &p[o + n * m..o + n * m + m])
    }

    /// Offset of layer `l`'s weights in the parameter vector.
    fn layer_offset(&self, l: usize) -> usize {
        self.offsets[l - 1]
    }

    fn fingerprint(&self) -> u64 {
        let mut h = mix64(0x4D4C_5000);
        for &s in &self.sizes {
            h = mix64(h ^ s as u64);
        }
        h
    }

    /// Start of each layer's values in a single-position activation buffer.
    fn unit_offset(&self, l: usize) -> usize {
        self.sizes[..l].iter().sum()
    }

    #[inline(always)]
    fn forward_one<I: Isa>(&self, input: &[f32], out: &mut [f32], s: &mut Scratch) {
        let total: usize = self.sizes.iter().sum();
        grow(&mut s.one, total);
        let widest = self.sizes.iter().copied().max().unwrap_or(0);
        if s.idx.len() < widest {
            s.idx.resize(widest, 0);
        }
        s.one[..self.sizes[0]].copy_from_slice(input);
        let mut off = 0;
        for l in 1..=self.layers() {
            let (n, m) = (self.sizes[l - 1], self.sizes[l]);
            let (w, b) = self.layer(l);
            let (prev, rest) = s.one.split_at_mut(off + n);
            let x = &prev[off..];
            let y = &mut rest[..m];
            kernels::dense_one::<I>(x, w, b, y, &mut s.idx);
            self.activations[l - 1].apply_slice::<I>(y);
            off += n;
        }
        out.copy_from_slice(&s.one[off..off + self.sizes[self.layers()]]);
    }

    #[inline(always)]
    fn forward_blocks<I: Isa>(&self, inputs: &[f32], out: &mut [f32], s: &mut Scratch) {
        let (nin, nout) = (self.num_inputs(), self.num_outputs());
        let batch = inputs.len() / nin;
        let blocks = batch.div_ceil(LANES);
        let region = |l: usize| self.sizes[..l].iter().sum::<usize>() * blocks * LANES;
        grow(&mut s.acts, region(self.sizes.len()));
        // Transpose the inputs into blocks, padding the last block with zeros.
        let a0 = &mut s.acts[..nin * blocks * LANES];
        for k in 0..blocks {
            let blk = &mut a0[k * nin * LANES..(k + 1) * nin * LANES];
            let rows = (batch - k * LANES).min(LANES);
            let x = &inputs[k * LANES * nin..(k * LANES + rows) * nin];
            // Row by row of the block, so that the stores are contiguous.
            for (i, b) in blk.chunks_exact_mut(LANES).enumerate() {
                for (lane, v) in b[..rows].iter_mut().enumerate() {
                    *v = x[lane * nin + i];
                }
                b[rows..].fill(0.0);
            }
        }
        // Depth-first per block: a block's activations stay in L1 through all
        // layers.
        for k in 0..blocks {
            for l in 1..=self.layers() {
                let (n, m) = (self.sizes[l - 1], self.sizes[l]);
                let (w, b) = self.layer(l);
                let (lo, hi) = s.acts.split_at_mut(region(l));
                let x = &lo[region(l - 1) + k * n * LANES..region(l - 1) + (k + 1) * n * LANES];
                let y = &mut hi[k * m * LANES..(k + 1) * m * LANES];
                kernels::live_rows(x, &mut s.idx);
                kernels::layer_block::<I>(x, &s.idx, w, m, b, self.activations[l - 1], y);
            }
        }
        let last = &s.acts[region(self.layers())..];
        for (row, o) in out.chunks_exact_mut(nout).enumerate() {
            let (k, lane) = (row / LANES, row % LANES);
            for (j, v) in o.iter_mut().enumerate() {
                *v = last[k * nout * LANES + j * LANES + lane];
            }
        }
    }

    #[inline(always)]
    fn backward_one<I: Isa>(&self, out_grad: &[f32], grad: &mut [f32], s: &mut Scratch) {
        let total: usize = self.sizes.iter().sum();
        grow(&mut s.one_d, total);
        let top = self.layers();
        let off_top = self.unit_offset(top);
        let nout = self.sizes[top];
        s.one_d[off_top..off_top + nout].copy_from_slice(out_grad);
        self.activations[top - 1].scale_by_derivative(
            &mut s.one_d[off_top..off_top + nout],
            &s.one[off_top..off_top + nout],
        );
        for l in (1..=top).rev() {
            let (n, m) = (self.sizes[l - 1], self.sizes[l]);
            let (ox, oy) = (self.unit_offset(l - 1), self.unit_offset(l));
            let x = &s.one[ox..ox + n];
            let go = self.layer_offset(l);
            let (gw, gb) = grad[go..go + n * m + m].split_at_mut(n * m);
            let (lo, hi) = s.one_d.split_at_mut(oy);
            let d = &hi[..m];
            for (&xi, gr) in x.iter().zip(gw.chunks_exact_mut(m)) {
                if xi != 0.0 {
                    for (g, &dj) in gr.iter_mut().zip(d) {
                        *g = I::mul_add(xi, dj, *g);
                    }
                }
            }
            for (g, &dj) in gb.iter_mut().zip(d) {
                *g += dj;
            }
            if l > 1 {
                let (w, _) = self.layer(l);
                let dp = &mut lo[ox..ox + n];
                for (dpi, wr) in dp.iter_mut().zip(w.chunks_exact(m)) {
                    *dpi = dot::<I>(wr, d);
                }
                self.activations[l - 2].scale_by_derivative(dp, x);
            }
        }
    }

    #[inline(always)]
    fn backward_blocks<I: Isa>(
        &self,
        batch: usize,
        out_grad: &[f32],
        grad: &mut [f32],
        s: &mut Scratch,
    ) {
        let blocks = batch.div_ceil(LANES);
        let region = |l: usize| self.sizes[..l].iter().sum::<usize>() * blocks * LANES;
        grow(&mut s.dels, region(self.sizes.len()));
        let top = self.layers();
        let nout = self.sizes[top];
        // Output deltas: dE/dy times the activation's derivative.
        {
            let (r0, r1) = (region(top), region(top + 1));
            let d = &mut s.dels[r0..r1];
            for k in 0..blocks {
                for lane in 0..LANES {
                    let row = k * LANES + lane;
                    for j in 0..nout {
                        d[k * nout * LANES + j * LANES + lane] = if row < batch {
                            out_grad[row * nout + j]
                        } else {
                            0.0
                        };
                    }
                }
            }
            self.activations[top - 1].scale_by_derivative(d, &s.acts[r0..r1]);
        }
        for l in (1..=top).rev() {
            let (n, m) = (self.sizes[l - 1], self.sizes[l]);
            let go = self.layer_offset(l);
            let (gw, gb) = grad[go..go + n * m + m].split_at_mut(n * m);
            let a = &s.acts[region(l - 1)..region(l)];
            let (dlo, dhi) = s.dels.split_at_mut(region(l));
            let d = &dhi[..m * blocks * LANES];
            kernels::outer_product::<I>(a, n * LANES, n, d, m * LANES, blocks, gw, m);
            for (j, g) in gb.iter_mut().enumerate() {
                let mut acc = [0.0f32; LANES];
                for k in 0..blocks {
                    let r = &d[k * m * LANES + j * LANES..k * m * LANES + (j + 1) * LANES];
                    for (a, &v) in acc.iter_mut().zip(r) {
                        *a += v;
                    }
                }
                *g += kernels::lane_sum(&acc);
            }
            if l > 1 {
                // Deltas of layer l-1: W · d, by the forward kernel over the
                // transposed weights (units of layer l as the sources).
                let (w, _) = self.layer(l);
                grow(&mut s.tmp, n * m + n);
                let (wt, zeros) = s.tmp.split_at_mut(n * m);
                for (i, wr) in w.chunks_exact(m).enumerate() {
                    for (j, &v) in wr.iter().enumerate() {
                        wt[j * n + i] = v;
                    }
                }
                let zeros = &mut zeros[..n];
                zeros.fill(0.0);
                let dp = &mut dlo[region(l - 1)..];
                for k in 0..blocks {
                    let dk = &d[k * m * LANES..(k + 1) * m * LANES];
                    let yk = &mut dp[k * n * LANES..(k + 1) * n * LANES];
                    kernels::live_rows(dk, &mut s.idx);
                    kernels::layer_block::<I>(dk, &s.idx, wt, n, zeros, Activation::Linear, yk);
                }
                self.activations[l - 2].scale_by_derivative(&mut dp[..n * blocks * LANES], a);
            }
        }
    }
}

/// A dot product with eight partial sums (vectorises; fixed order).
#[inline(always)]
fn dot<I: Isa>(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..8 {
            acc[l] = I::mul_add(x[l], y[l], acc[l]);
        }
    }
    let mut s = ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
    for (&x, &y) in ra.iter().zip(rb) {
        s = I::mul_add(x, y, s);
    }
    s
}

struct Forward<'a> {
    net: &'a Mlp,
    input: &'a [f32],
    out: &'a mut [f32],
    s: &'a mut Scratch,
    batch: bool,
}

impl WithIsa for Forward<'_> {
    type Output = ();
    #[inline(always)]
    fn run<I: Isa>(self) {
        if self.batch {
            self.net.forward_blocks::<I>(self.input, self.out, self.s)
        } else {
            self.net.forward_one::<I>(self.input, self.out, self.s)
        }
    }
}

struct Backward<'a> {
    net: &'a Mlp,
    out_grad: &'a [f32],
    grad: &'a mut [f32],
    s: &'a mut Scratch,
    batch: Option<usize>,
}

impl WithIsa for Backward<'_> {
    type Output = ();
    #[inline(always)]
    fn run<I: Isa>(self) {
        match self.batch {
            Some(b) => self
                .net
                .backward_blocks::<I>(b, self.out_grad, self.grad, self.s),
            None => self.net.backward_one::<I>(self.out_grad, self.grad, self.s),
        }
    }
}

impl Network for Mlp {
    fn num_inputs(&self) -> usize {
        self.sizes[0]
    }

    fn num_outputs(&self) -> usize {
        self.sizes[self.layers()]
    }

    delegate_params!();

    fn segments(&self) -> Vec<Segment> {
        let mut v = Vec::with_capacity(2 * self.layers());
        for l in 1..=self.layers() {
            let (n, m) = (self.sizes[l - 1], self.sizes[l]);
            let o = self.offsets[l - 1];
            v.push(Segment {
                name: format!("layer {l} weights"),
                offset: o,
                len: n * m,
                kind: SegmentKind::Weights {
                    sources: n,
                    units: m,
                },
            });
            v.push(Segment {
                name: format!("layer {l} biases"),
                offset: o + n * m,
                len: m,
                kind: SegmentKind::Biases,
            });
        }
        v
    }

    fn forward(&self, input: &[f32], out: &mut [f32], scratch: &mut Scratch) {
        assert_eq!(input.len(), self.num_inputs(), "input length");
        assert_eq!(out.len(), self.num_outputs(), "output length");
        let level = scratch.level;
        simd::run(
            level,
            Forward {
                net: self,
                input,
                out,
                s: scratch,
                batch: false,
            },
        );
        scratch.filled = Filled::Single(self.fingerprint());
    }

    fn forward_batch(&self, inputs: &[f32], out: &mut [f32], scratch: &mut Scratch) {
        let (nin, nout) = (self.num_inputs(), self.num_outputs());
        assert!(
            inputs.len().is_multiple_of(nin),
            "inputs length {} is not a multiple of {nin} inputs",
            inputs.len()
        );
        let batch = inputs.len() / nin;
        assert_eq!(out.len(), batch * nout, "outputs length for batch {batch}");
        let level = scratch.level;
        simd::run(
            level,
            Forward {
                net: self,
                input: inputs,
                out,
                s: scratch,
                batch: true,
            },
        );
        scratch.filled = Filled::Batch(self.fingerprint(), batch);
    }

    fn backward(&self, out_grad: &[f32], grad: &mut [f32], scratch: &mut Scratch) {
        assert_eq!(grad.len(), self.num_params(), "gradient length");
        let fp = self.fingerprint();
        let batch = match scratch.filled {
            Filled::Single(f) if f == fp => None,
            Filled::Batch(f, b) if f == fp => Some(b),
            _ => panic!("backward needs a forward pass of this net in the scratch"),
        };
        assert_eq!(
            out_grad.len(),
            batch.unwrap_or(1) * self.num_outputs(),
            "output gradient length"
        );
        let level = scratch.level;
        simd::run(
            level,
            Backward {
                net: self,
                out_grad,
                grad,
                s: scratch,
                batch,
            },
        );
    }
}
