//! Neural networks: the layered perceptron and the thesis's complete
//! feed-forward net, batched forward passes, gradients, pruning masks, files.
//!
//! Two architectures share the [`Network`] trait:
//! - [`Mlp`]: layers of units, each fully connected to the layer before, one
//!   [`Activation`] per layer (Naveed & Cowling's 64-58-27-1, Weaver &
//!   Bossomaier's 24-9-24, Miranda & Zhang's 36-60-6).
//! - [`CompleteNet`]: the WOPR thesis's "complete feed-forward" net (§3.4):
//!   non-input nodes in a line, every input and every earlier node feeding
//!   every later node; the last nodes are the outputs.
//!
//! Every parameter of a net lives in one flat `f32` slice
//! ([`Network::params`]), so evolution can treat a net as a vector; its layout
//! is fixed and documented on each type, and described at run time by
//! [`Network::segments`]. A net may carry a *pruning mask* (Handa &
//! Horiuchi's pruning mutation): a pruned parameter is held at exactly zero
//! by [`Network::set_params`], [`Network::prune`] and every training step.
//!
//! Passes take a [`Scratch`], reusable working memory, so evaluating
//! positions never allocates once warm. [`Network::forward_batch`] evaluates
//! many positions at once with SIMD kernels chosen at run time (see
//! [`SimdLevel`]); [`Network::forward`] evaluates one and gives bit-identical
//! outputs. [`Network::backward`] turns the gradient of an error with respect
//! to the outputs into the gradient with respect to every parameter (see
//! `wopr::train` for losses and optimisers).
//!
//! Nets are saved as JSON with [`NetFile`] (architecture, activations,
//! weights, and optionally the game, input encoding and player mode they are
//! meant for).

mod activation;
mod complete;
mod file;
mod kernels;
mod mlp;
pub mod policy_value;
mod scratch;
mod simd;

use rand::RngExt;

pub use activation::Activation;
pub use complete::CompleteNet;
pub use file::{is_gzip, sparse_sum, AnyNet, Architecture, Heads, NetFile};
pub use mlp::Mlp;
pub use scratch::Scratch;
pub use simd::{SimdLevel, LANES};

use crate::game::rng::WoprRng;

/// What was wrong with a network, its shape, or a network file (one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NetError(pub String);

/// What a run of parameters in the flat vector means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// A short description, e.g. `layer 1 weights` or `node 3 bias`.
    pub name: String,
    /// Index of the first parameter.
    pub offset: usize,
    /// Number of parameters.
    pub len: usize,
    /// Weights or biases.
    pub kind: SegmentKind,
}

/// The shape of a [`Segment`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegmentKind {
    /// A weight matrix stored row-major by source: the weight from source
    /// `i` to unit `j` is at `offset + i * units + j`.
    Weights {
        /// Sources (previous layer's units, or inputs and earlier nodes).
        sources: usize,
        /// Units fed.
        units: usize,
    },
    /// One bias per unit.
    Biases,
}

/// A feed-forward network with all parameters in one flat vector.
///
/// Inputs and outputs are `f32` slices; a batch is row-major
/// (`batch × num_inputs` in, `batch × num_outputs` out). Mismatched slice
/// lengths are programming errors and panic with a message saying which.
pub trait Network {
    /// Number of inputs.
    fn num_inputs(&self) -> usize;

    /// Number of outputs.
    fn num_outputs(&self) -> usize;

    /// All parameters, in the documented layout.
    fn params(&self) -> &[f32];

    /// All parameters, mutably. Writing a pruned parameter is allowed but
    /// undone by the next [`Network::apply_mask`]; call it after editing.
    fn params_mut(&mut self) -> &mut [f32];

    /// Number of parameters.
    fn num_params(&self) -> usize {
        self.params().len()
    }

    /// Replaces all parameters (pruned ones are then zeroed); fails if the
    /// length differs from [`Network::num_params`].
    fn set_params(&mut self, values: &[f32]) -> Result<(), NetError> {
        if values.len() != self.num_params() {
            return Err(NetError(format!(
                "expected {} parameters, got {}",
                self.num_params(),
                values.len()
            )));
        }
        self.params_mut().copy_from_slice(values);
        self.apply_mask();
        Ok(())
    }

    /// What each run of parameters is, in order, covering them all.
    fn segments(&self) -> Vec<Segment>;

    /// The pruning mask, if any: `mask[i] == false` means parameter `i` is
    /// pruned (held at zero).
    fn mask(&self) -> Option<&[bool]>;

    /// Sets or removes the pruning mask and zeroes the pruned parameters.
    fn set_mask(&mut self, mask: Option<Vec<bool>>) -> Result<(), NetError>;

    /// Prunes parameter `index`: sets it to zero and keeps it there (creating
    /// the mask if the net had none).
    ///
    /// # Panics
    /// If `index >= num_params()`.
    fn prune(&mut self, index: usize);

    /// Zeroes every pruned parameter (a no-op without a mask).
    fn apply_mask(&mut self);

    /// Draws every parameter uniformly from `[-range, range]` (Naveed &
    /// Cowling use 0.5), then zeroes pruned ones.
    fn randomize(&mut self, rng: &mut WoprRng, range: f32) {
        for p in self.params_mut() {
            *p = if range > 0.0 {
                rng.random_range(-range..=range)
            } else {
                0.0
            };
        }
        self.apply_mask();
    }

    /// Evaluates one position: `input` has `num_inputs` values, `out` gets
    /// `num_outputs`. Leaves the activations in `scratch` for
    /// [`Network::backward`]. Outputs equal those of [`Network::forward_batch`]
    /// bit for bit (at the same [`SimdLevel`]).
    fn forward(&self, input: &[f32], out: &mut [f32], scratch: &mut Scratch);

    /// Evaluates a batch: `inputs` is `batch × num_inputs` row-major, `out`
    /// gets `batch × num_outputs`. Leaves the activations in `scratch` for
    /// [`Network::backward`]. Allocates only when `scratch` must grow.
    fn forward_batch(&self, inputs: &[f32], out: &mut [f32], scratch: &mut Scratch);

    /// Back-propagation: given `out_grad`, the derivatives of an error with
    /// respect to the outputs of the last [`Network::forward`] (one row) or
    /// [`Network::forward_batch`] (one row per position) run with this
    /// `scratch`, *adds* the derivatives with respect to every parameter
    /// (summed over the batch) to `grad` (length [`Network::num_params`]).
    /// Pruned parameters get a gradient too; optimisers leave them at zero.
    ///
    /// # Panics
    /// If `scratch` does not hold a forward pass of this net, or the lengths
    /// do not match it.
    fn backward(&self, out_grad: &[f32], grad: &mut [f32], scratch: &mut Scratch);
}

/// The parameter vector and optional pruning mask shared by both nets.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamStore {
    pub(crate) values: Vec<f32>,
    pub(crate) mask: Option<Vec<bool>>,
}

impl ParamStore {
    pub(crate) fn zeros(n: usize) -> ParamStore {
        ParamStore {
            values: vec![0.0; n],
            mask: None,
        }
    }

    pub(crate) fn set_mask(&mut self, mask: Option<Vec<bool>>) -> Result<(), NetError> {
        if let Some(m) = &mask {
            if m.len() != self.values.len() {
                return Err(NetError(format!(
                    "mask has {} entries but the net has {} parameters",
                    m.len(),
                    self.values.len()
                )));
            }
        }
        self.mask = mask;
        self.apply_mask();
        Ok(())
    }

    pub(crate) fn prune(&mut self, index: usize) {
        let n = self.values.len();
        assert!(index < n, "parameter {index} out of range (net has {n})");
        self.mask.get_or_insert_with(|| vec![true; n])[index] = false;
        self.values[index] = 0.0;
    }

    pub(crate) fn apply_mask(&mut self) {
        if let Some(m) = &self.mask {
            for (v, &keep) in self.values.iter_mut().zip(m) {
                if !keep {
                    *v = 0.0;
                }
            }
        }
    }
}

/// Implements the parameter and mask methods of [`Network`] for a type with
/// a `store: ParamStore` field.
macro_rules! delegate_params {
    () => {
        fn params(&self) -> &[f32] {
            &self.store.values
        }
        fn params_mut(&mut self) -> &mut [f32] {
            &mut self.store.values
        }
        fn mask(&self) -> Option<&[bool]> {
            self.store.mask.as_deref()
        }
        fn set_mask(&mut self, mask: Option<Vec<bool>>) -> Result<(), NetError> {
            self.store.set_mask(mask)
        }
        fn prune(&mut self, index: usize) {
            self.store.prune(index)
        }
        fn apply_mask(&mut self) {
            self.store.apply_mask()
        }
    };
}
pub(crate) use delegate_params;
