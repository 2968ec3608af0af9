//! The WOPR thesis's "complete feed-forward" network (§3.4).

use super::kernels;
use super::scratch::{grow, Filled};
use super::simd::{self, Isa, Row, WithIsa, LANES};
use super::SegmentKind;
use super::{delegate_params, Activation, NetError, Network, ParamStore, Scratch, Segment};
use crate::game::mix64;

/// A complete feed-forward net (Horner's thesis, §3.4): `nodes` non-input
/// nodes in a fixed order, node `k` fed by every input, by every node before
/// it, and by a bias, so the net has every edge a feed-forward net on this
/// order can have ("a network of n non-input nodes will have n layers, each
/// with 1 node"). The last `outputs` nodes are the outputs; the others use
/// the hidden activation.
///
/// Parameter layout, node by node (`k = 0..nodes`, `I` inputs): the `I`
/// weights from the inputs, the `k` weights from nodes `0..k`, then the bias:
/// node `k` starts at `k * (I + 1) + k * (k - 1) / 2` and has `I + k + 1`
/// parameters; `nodes * (I + 1) + nodes * (nodes - 1) / 2` in all.
#[derive(Clone, Debug, PartialEq)]
pub struct CompleteNet {
    inputs: usize,
    nodes: usize,
    outputs: usize,
    hidden: Activation,
    output: Activation,
    store: ParamStore,
}

impl CompleteNet {
    /// A net with all parameters zero: `inputs` inputs, `nodes` non-input
    /// nodes of which the last `outputs` are outputs (`1 <= outputs <=
    /// nodes`), `hidden` activation for the others.
    pub fn new(
        inputs: usize,
        nodes: usize,
        outputs: usize,
        hidden: Activation,
        output: Activation,
    ) -> Result<CompleteNet, NetError> {
        if inputs == 0 {
            return Err(NetError("a complete net needs at least one input".into()));
        }
        if outputs == 0 || outputs > nodes {
            return Err(NetError(format!(
                "a complete net needs 1..=nodes outputs, got {outputs} outputs for {nodes} nodes"
            )));
        }
        let n = nodes
            .checked_mul(inputs + 1)
            .and_then(|a| a.checked_add(nodes * (nodes - 1) / 2))
            .filter(|&n| n < (1 << 31))
            .ok_or_else(|| NetError("net too large".to_string()))?;
        Ok(CompleteNet {
            inputs,
            nodes,
            outputs,
            hidden,
            output,
            store: ParamStore::zeros(n),
        })
    }

    /// Number of non-input nodes (outputs included).
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Activation of the non-output nodes.
    pub fn hidden_activation(&self) -> Activation {
        self.hidden
    }

    /// Activation of the output nodes.
    pub fn output_activation(&self) -> Activation {
        self.output
    }

    /// Where node `k`'s parameters start.
    pub fn node_offset(&self, k: usize) -> usize {
        k * (self.inputs + 1) + k * k.saturating_sub(1) / 2
    }

    fn act(&self, k: usize) -> Activation {
        if k + self.outputs >= self.nodes {
            self.output
        } else {
            self.hidden
        }
    }

    fn fingerprint(&self) -> u64 {
        mix64(
            mix64(mix64(0x4346_4600 ^ self.inputs as u64) ^ self.nodes as u64)
                ^ self.outputs as u64,
        )
    }

    #[inline(always)]
    fn forward_one<I: Isa>(&self, input: &[f32], out: &mut [f32], s: &mut Scratch) {
        let (ni, n) = (self.inputs, self.nodes);
        grow(&mut s.one, ni + n);
        let a = &mut s.one[..ni + n];
        a[..ni].copy_from_slice(input);
        for k in 0..n {
            let o = self.node_offset(k);
            let w = &self.store.values[o..o + ni + k + 1];
            let mut acc = w[ni + k];
            for (&x, &wv) in a[..ni + k].iter().zip(w) {
                if x != 0.0 {
                    acc = I::mul_add(wv, x, acc);
                }
            }
            a[ni + k] = self.act(k).apply_one::<I>(acc);
        }
        out.copy_from_slice(&a[ni + n - self.outputs..]);
    }

    /// Nodes for `NB` consecutive blocks starting at block `k0`.
    #[inline(always)]
    fn node_blocks<I: Isa, const NB: usize>(&self, acts: &mut [f32], k0: usize) {
        let (ni, n) = (self.inputs, self.nodes);
        let step = (ni + n) * LANES;
        for k in 0..n {
            let o = self.node_offset(k);
            let w = &self.store.values[o..o + ni + k + 1];
            let nv = simd::per_row::<I>();
            let mut acc = [[I::splat(w[ni + k]); 4]; NB];
            for (src, &wv) in w[..ni + k].iter().enumerate() {
                let ws = I::splat(wv);
                for (bb, a) in acc.iter_mut().enumerate() {
                    let base = (k0 + bb) * step + src * LANES;
                    for (v, a) in a.iter_mut().enumerate().take(nv) {
                        *a = I::fma(ws, I::load(&acts[base + v * I::WIDTH..]), *a);
                    }
                }
            }
            let act = self.act(k);
            for (bb, a) in acc.iter().enumerate() {
                let base = (k0 + bb) * step + (ni + k) * LANES;
                let yr = &mut acts[base..base + LANES];
                for (v, &av) in a.iter().enumerate().take(nv) {
                    I::store(av, &mut yr[v * I::WIDTH..]);
                }
                act.apply_slice::<I>(yr);
            }
        }
    }

    #[inline(always)]
    fn forward_blocks<I: Isa>(&self, inputs: &[f32], out: &mut [f32], s: &mut Scratch) {
        let (ni, n, no) = (self.inputs, self.nodes, self.outputs);
        let batch = inputs.len() / ni;
        let blocks = batch.div_ceil(LANES);
        let step = (ni + n) * LANES;
        grow(&mut s.acts, blocks * step);
        let acts = &mut s.acts[..blocks * step];
        for k in 0..blocks {
            for lane in 0..LANES {
                let row = k * LANES + lane;
                for i in 0..ni {
                    acts[k * step + i * LANES + lane] = if row < batch {
                        inputs[row * ni + i]
                    } else {
                        0.0
                    };
                }
            }
        }
        // Four blocks at a time: four independent accumulator chains per
        // weight, each summed in the same order as `forward_one`.
        let mut k0 = 0;
        while k0 + 4 <= blocks {
            self.node_blocks::<I, 4>(acts, k0);
            k0 += 4;
        }
        while k0 < blocks {
            self.node_blocks::<I, 1>(acts, k0);
            k0 += 1;
        }
        let first_out = ni + n - no;
        for (row, o) in out.chunks_exact_mut(no).enumerate() {
            let (k, lane) = (row / LANES, row % LANES);
            for (j, v) in o.iter_mut().enumerate() {
                *v = acts[k * step + (first_out + j) * LANES + lane];
            }
        }
    }

    #[inline(always)]
    fn backward_one<I: Isa>(&self, out_grad: &[f32], grad: &mut [f32], s: &mut Scratch) {
        let (ni, n, no) = (self.inputs, self.nodes, self.outputs);
        grow(&mut s.one_d, n);
        let a = &s.one[..ni + n];
        let g = &mut s.one_d[..n];
        g.fill(0.0);
        g[n - no..].copy_from_slice(out_grad);
        for k in (0..n).rev() {
            let d = g[k] * self.act(k).derivative_from_output(a[ni + k]);
            let o = self.node_offset(k);
            let w = &self.store.values[o..o + ni + k];
            let gw = &mut grad[o..o + ni + k + 1];
            gw[ni + k] += d;
            for (gs, &x) in gw[..ni + k].iter_mut().zip(a) {
                *gs = I::mul_add(d, x, *gs);
            }
            for (gj, &wv) in g[..k].iter_mut().zip(&w[ni..]) {
                *gj = I::mul_add(wv, d, *gj);
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
        let (ni, n, no) = (self.inputs, self.nodes, self.outputs);
        let blocks = batch.div_ceil(LANES);
        let step = (ni + n) * LANES;
        let np = self.store.values.len();
        // Per-parameter lane accumulators, summed across lanes at the end.
        grow(&mut s.tmp, np * LANES);
        let acc = &mut s.tmp[..np * LANES];
        acc.fill(0.0);
        grow(&mut s.dels, n * LANES);
        for k in 0..blocks {
            let a = &s.acts[k * step..(k + 1) * step];
            let g = &mut s.dels[..n * LANES];
            g.fill(0.0);
            for lane in 0..LANES {
                let row = k * LANES + lane;
                if row < batch {
                    for j in 0..no {
                        g[(n - no + j) * LANES + lane] = out_grad[row * no + j];
                    }
                }
            }
            for node in (0..n).rev() {
                let mut d: Row = g[node * LANES..(node + 1) * LANES].try_into().unwrap();
                let y = &a[(ni + node) * LANES..(ni + node + 1) * LANES];
                self.act(node).scale_by_derivative(&mut d, y);
                let o = self.node_offset(node);
                let w = &self.store.values[o..o + ni + node];
                let bias = &mut acc[(o + ni + node) * LANES..(o + ni + node + 1) * LANES];
                for (b, &dv) in bias.iter_mut().zip(&d) {
                    *b += dv;
                }
                for src in 0..ni + node {
                    let ar = &a[src * LANES..(src + 1) * LANES];
                    let gr = &mut acc[(o + src) * LANES..(o + src + 1) * LANES];
                    kernels::row_fma::<I>(&d, ar, gr);
                }
                for (src, &wv) in w[ni..].iter().enumerate() {
                    kernels::row_axpy::<I>(wv, &d, &mut g[src * LANES..(src + 1) * LANES]);
                }
            }
        }
        for (gp, r) in grad.iter_mut().zip(acc.chunks_exact(LANES)) {
            *gp += kernels::lane_sum(r.try_into().unwrap());
        }
    }
}

struct Forward<'a> {
    net: &'a CompleteNet,
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
    net: &'a CompleteNet,
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

impl Network for CompleteNet {
    fn num_inputs(&self) -> usize {
        self.inputs
    }

    fn num_outputs(&self) -> usize {
        self.outputs
    }

    delegate_params!();

    fn segments(&self) -> Vec<Segment> {
        let mut v = Vec::with_capacity(2 * self.nodes);
        for k in 0..self.nodes {
            let o = self.node_offset(k);
            let sources = self.inputs + k;
            v.push(Segment {
                name: format!("node {k} weights"),
                offset: o,
                len: sources,
                kind: SegmentKind::Weights { sources, units: 1 },
            });
            v.push(Segment {
                name: format!("node {k} bias"),
                offset: o + sources,
                len: 1,
                kind: SegmentKind::Biases,
            });
        }
        v
    }

    fn forward(&self, input: &[f32], out: &mut [f32], scratch: &mut Scratch) {
        assert_eq!(input.len(), self.inputs, "input length");
        assert_eq!(out.len(), self.outputs, "output length");
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
        let (ni, no) = (self.inputs, self.outputs);
        assert!(
            inputs.len().is_multiple_of(ni),
            "inputs length {} is not a multiple of {ni} inputs",
            inputs.len()
        );
        let batch = inputs.len() / ni;
        assert_eq!(out.len(), batch * no, "outputs length for batch {batch}");
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
            batch.unwrap_or(1) * self.outputs,
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
