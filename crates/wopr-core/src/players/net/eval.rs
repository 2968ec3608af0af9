//! A net and its encoding as a position evaluator: outputs on one value
//! scale, signs for the seat judging, and the integer leaf values of the
//! alpha-beta search.

use std::sync::Arc;

use crate::game::encode::{Encodable, EncodingOf};
use crate::game::SpecError;
use crate::game::{mover, Searchable};
use crate::nn::{sparse_sum, Activation, AnyNet, Network, Scratch};
use crate::search::Evaluator;

/// The value of a won successor for bounded outputs (sigmoid, tanh): beyond
/// every net value on the symmetric scale (-1, 1).
const RESULT_VALUE: f32 = 2.0;

/// The value of a won successor for unbounded outputs (linear, relu).
const RESULT_VALUE_UNBOUNDED: f32 = 1e30;

/// Bounded net values are scaled to integers for the alpha-beta search.
const SEARCH_SCALE: f32 = 10_000.0;

/// Unbounded net values enter the search through a logarithm, scaled by
/// this: [`search_value`].
const LOG_SCALE: f32 = 5_000.0;

/// A net value (for the player to move) as an alpha-beta leaf value, in
/// the same order and within ±[`WIN_SCORE`](crate::game::WIN_SCORE)/2.
///
/// Bounded outputs (sigmoid, tanh; values in (-1, 1)) are scaled by
/// [`SEARCH_SCALE`]. Unbounded outputs (a linear n-tuple network's sums
/// run to the hundreds) go through `sign(v) · LOG_SCALE · ln(1 + 1000·|v|)`,
/// which keeps their order with a relative resolution of about 2·10⁻⁴ at
/// every magnitude. (Clamping them to the bounded range, as this once did,
/// made almost every leaf of a linear net the same value, and a net
/// searched at two plies played about as well as a random player.)
fn search_value(bounded: bool, v: f32) -> i32 {
    const LIMIT: f32 = (crate::game::WIN_SCORE / 2 - 1) as f32;
    if v.is_nan() {
        return 0;
    }
    let x = if bounded {
        v.clamp(-RESULT_VALUE, RESULT_VALUE) * SEARCH_SCALE
    } else {
        v.signum() * LOG_SCALE * (1.0 + 1000.0 * v.abs()).ln()
    };
    x.clamp(-LIMIT, LIMIT) as i32
}

/// A net, its encoding and its working memory.
pub struct NetEval<G: Encodable> {
    net: Arc<AnyNet>,
    encoding: EncodingOf<G>,
    scratch: Scratch,
    inputs: Vec<f32>,
    outputs: Vec<f32>,
    /// `(scale, shift)`: an output `o` is worth `scale * o - shift` on the
    /// symmetric value scale.
    pub(super) centre: (f32, f32),
    /// Whether the output activation is bounded (sigmoid, tanh).
    bounded: bool,
    /// The seat whose view a fixed-view encoding gives (values are that
    /// seat's); `None`: the player to move's.
    view: Option<usize>,
    /// For a linear one-output net over an encoding that prefers sparse
    /// reading: its output activation (the net is then run by look-up).
    sparse: Option<Activation>,
    /// The sparse inputs of one position.
    pairs: Vec<(u32, f32)>,
}

impl<G: Encodable> NetEval<G> {
    /// Pairs a net with an encoding; fails if the sizes differ.
    pub fn new(net: Arc<AnyNet>, encoding: EncodingOf<G>) -> Result<Self, SpecError> {
        if net.num_inputs() != encoding.size() {
            return Err(SpecError(format!(
                "the net has {} inputs but encoding '{}' gives {}",
                net.num_inputs(),
                encoding.name(),
                encoding.size()
            )));
        }
        let output = net.activations().last().copied();
        let centre = match output {
            Some(Activation::Sigmoid) => (2.0, 1.0),
            _ => (1.0, 0.0),
        };
        let bounded = matches!(output, Some(Activation::Sigmoid | Activation::Tanh));
        let view = encoding.view();
        let sparse = net
            .linear_value_output()
            .filter(|_| encoding.prefers_sparse());
        Ok(NetEval {
            view,
            sparse,
            pairs: Vec::new(),
            net,
            encoding,
            scratch: Scratch::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            centre,
            bounded,
        })
    }

    /// An output on the symmetric value scale (see the module docs): a
    /// sigmoid's `o` becomes `2o - 1`, other outputs stay as they are.
    #[inline]
    pub fn centred(&self, o: f32) -> f32 {
        self.centre.0 * o - self.centre.1
    }

    /// The value of a finished game with return `r` for the player judging
    /// it: a win above every net value, a loss below every one, a draw 0.
    pub fn result_value(&self, r: f64) -> f32 {
        let win = if self.bounded {
            RESULT_VALUE
        } else {
            RESULT_VALUE_UNBOUNDED
        };
        win * crate::game::result_sign(r)
    }

    /// Runs the net on every state; returns the outputs, `num_outputs` per
    /// state, row by row.
    pub fn run(&mut self, states: &[G::State]) -> &[f32] {
        if let Some(output) = self.sparse {
            // A linear net: the bias plus the weights of the inputs that
            // are on, by look-up.
            self.outputs.clear();
            for s in states {
                self.encoding.encode_sparse(s, &mut self.pairs);
                let sum = sparse_sum(self.net.params(), &self.pairs);
                self.outputs.push(output.apply(sum));
            }
            return &self.outputs;
        }
        let n_in = self.encoding.size();
        self.inputs.resize(states.len() * n_in, 0.0);
        for (s, row) in states.iter().zip(self.inputs.chunks_exact_mut(n_in)) {
            self.encoding.encode(s, row);
        }
        self.outputs
            .resize(states.len() * self.net.num_outputs(), 0.0);
        if !states.is_empty() {
            self.net
                .forward_batch(&self.inputs, &mut self.outputs, &mut self.scratch);
        }
        &self.outputs
    }

    /// The number of outputs.
    pub fn num_outputs(&self) -> usize {
        self.net.num_outputs()
    }

    /// A value for the player to move as an alpha-beta leaf value
    /// ([`search_value`]).
    fn search_value(&self, v: f32) -> i32 {
        search_value(self.bounded, v)
    }

    /// The sign that turns the net's value of `c` into a value for `me`:
    /// positions are valued for their player to move (finished ones, left
    /// to the net, for seat 0), or for the encoding's fixed seat.
    pub fn sign_for(&self, c: &G::State, me: usize) -> f32 {
        if self.view.unwrap_or_else(|| mover(c).unwrap_or(0)) == me {
            1.0
        } else {
            -1.0
        }
    }

    /// The sign that turns the net's value of `s` into one for its player
    /// to move (1 unless the encoding has a fixed view of another seat).
    fn mover_sign(&self, s: &G::State) -> f32 {
        match (self.view, mover(s)) {
            (Some(v), Some(m)) if v != m => -1.0,
            _ => 1.0,
        }
    }
}

impl<G: Encodable> Evaluator<G::State> for NetEval<G>
where
    G::State: Searchable,
{
    fn evaluate(&mut self, state: &G::State) -> i32 {
        let o = self.run(std::slice::from_ref(state))[0];
        let v = self.mover_sign(state) * self.centred(o);
        self.search_value(v)
    }
    fn batched(&self) -> bool {
        true
    }
    fn evaluate_batch(&mut self, states: &[G::State], out: &mut Vec<i32>) {
        let k = self.num_outputs();
        let (scale, shift) = self.centre;
        let bounded = self.bounded;
        let signs: Vec<f32> = states.iter().map(|s| self.mover_sign(s)).collect();
        let values = self.run(states);
        out.extend(
            values
                .chunks_exact(k)
                .zip(signs)
                .map(|(o, sign)| search_value(bounded, sign * (scale * o[0] - shift))),
        );
    }
}
