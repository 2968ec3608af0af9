//! Supervised training of [`crate::nn`] networks: losses, back-propagation,
//! the RPROP family, datasets.
//!
//! The papers' uses: Naveed & Cowling pre-train 64-58-27-1 evaluation nets
//! on hand-crafted players' evaluations with BP (η = 0.01), RPROP and iRPROP
//! (η+ = 1.2, η− = 0.5, Δ0 = 0.5, Δmin = 0, Δmax = 50, the defaults here);
//! Weaver & Bossomaier train 24-9-24 move-ranking nets from a level-1
//! oracle, with no error on illegal-move outputs (per-output masks); the
//! WOPR thesis checks back-propagation on XOR and one period of a sine
//! (§4.5) and names cross-entropy as the next step.
//!
//! [`train`] runs epochs of one [`Algorithm`] over a [`Dataset`]:
//! - **full batch** (`batch_size = 0`, the default and what RPROP is meant
//!   for): one step per epoch with the mean gradient over all examples;
//! - **online** (`batch_size = 1`): one step per example, in an order
//!   shuffled each epoch from the seed;
//! - **mini-batch** (`batch_size = k`): one step per `k` examples.
//!
//! Runs are deterministic for a seed: initial weights come from
//! `stream(seed, &[0])`, epoch `e`'s order from `stream(seed, &[1, e])`, and
//! gradients are summed in a fixed order (in parallel, but chunk by chunk
//! in example order), so the thread count does not change the result.

pub mod alphazero;
mod dataset;
mod loss;
mod optim;
pub mod oracle;
pub mod td;
mod trainer;

use std::ops::ControlFlow;

use rayon::prelude::*;

pub use dataset::{DataError, Dataset};
pub use loss::Loss;
pub use optim::{
    Algorithm, AnyOptimizer, Backprop, BackpropConfig, Optimizer, Rprop, RpropConfig, RpropVariant,
};
pub use trainer::{TrainState, Trainer};

use crate::nn::{Network, Scratch};

/// Examples per forward/backward chunk when summing over a dataset.
const CHUNK: usize = 256;
/// Chunks evaluated in parallel before their gradients are summed.
const WINDOW: usize = 64;

/// Why training could not run or had to stop (one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TrainError(pub String);

/// How to train; `Default` gives 1000 full-batch epochs of MSE from fresh
/// weights in [-0.5, 0.5] (Naveed & Cowling's range), seed 0.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// The error to minimise.
    pub loss: Loss,
    /// Most epochs to run.
    pub epochs: usize,
    /// Stop as soon as the mean error is at or below this.
    pub target_loss: Option<f64>,
    /// Examples per step: 0 = all (full batch), 1 = online.
    pub batch_size: usize,
    /// Seed for the initial weights and the example order.
    pub seed: u64,
    /// `Some(r)`: start from weights drawn uniformly from `[-r, r]`;
    /// `None`: continue from the net's current weights.
    pub init_range: Option<f32>,
    /// Shuffle the example order every epoch (online and mini-batch).
    pub shuffle: bool,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            loss: Loss::Mse,
            epochs: 1000,
            target_loss: None,
            batch_size: 0,
            seed: 0,
            init_range: Some(0.5),
            shuffle: true,
        }
    }
}

/// What the callback of [`train`] sees after each epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochStats {
    /// Epochs done (0 = before any training).
    pub epoch: usize,
    /// Mean error over the dataset with the weights after `epoch` epochs.
    pub loss: f64,
}

/// The result of [`train`].
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// Epochs run.
    pub epochs: usize,
    /// Mean error over the dataset after each epoch: `losses[0]` before
    /// training, `losses[e]` after `e` epochs (length `epochs + 1`).
    pub losses: Vec<f64>,
    /// Whether the target loss was reached.
    pub reached_target: bool,
}

impl TrainReport {
    /// The error after the last epoch.
    pub fn final_loss(&self) -> f64 {
        *self.losses.last().expect("at least the initial loss")
    }

    /// The first epoch after which the error was at most `loss`.
    pub fn epochs_to(&self, loss: f64) -> Option<usize> {
        self.losses.iter().position(|&l| l <= loss)
    }
}

/// Trains `net` on `data`, calling `on_epoch` after every epoch (and once
/// before the first); returning `ControlFlow::Break` from it stops early.
///
/// Pruned parameters stay zero throughout. Fails if the data does not fit
/// the net, the dataset is empty, or the error becomes NaN or infinite
/// (usually a learning rate too high).
pub fn train<N: Network + Sync + ?Sized>(
    net: &mut N,
    data: &Dataset,
    algorithm: &Algorithm,
    options: &TrainOptions,
    mut on_epoch: impl FnMut(&EpochStats) -> ControlFlow<()>,
) -> Result<TrainReport, TrainError> {
    let mut trainer = Trainer::new(net, data, algorithm, options)?;
    let target = options.target_loss.unwrap_or(f64::NEG_INFINITY);
    loop {
        let stats = trainer.measure(net)?;
        let reached = stats.loss <= target;
        let flow = on_epoch(&stats);
        if reached || stats.epoch == options.epochs || flow.is_break() {
            return Ok(TrainReport {
                epochs: stats.epoch,
                losses: trainer.state().losses.clone(),
                reached_target: reached,
            });
        }
        trainer.run_epoch(net)?;
    }
}

fn check_shapes<N: Network + Sync + ?Sized>(net: &N, data: &Dataset) -> Result<(), TrainError> {
    if data.num_inputs() != net.num_inputs() || data.num_outputs() != net.num_outputs() {
        return Err(TrainError(format!(
            "the dataset has {} inputs and {} targets, the net {} inputs and {} outputs",
            data.num_inputs(),
            data.num_outputs(),
            net.num_inputs(),
            net.num_outputs()
        )));
    }
    if data.is_empty() {
        return Err(TrainError("the dataset is empty".into()));
    }
    Ok(())
}

/// The mean error of `net` over `data`.
///
/// # Panics
/// If the dataset's shape does not fit the net.
pub fn evaluate<N: Network + Sync + ?Sized>(net: &N, data: &Dataset, loss: Loss) -> f64 {
    check_shapes(net, data).map_err(|e| e.0).unwrap();
    let chunks = data.len().div_ceil(CHUNK);
    let sum: f64 = (0..chunks)
        .into_par_iter()
        .map_init(
            || Work::new(net.num_outputs()),
            |w, c| w.chunk_error(net, data, c, loss),
        )
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    sum / data.len() as f64
}

/// The mean error of `net` over `data`, and its gradient with respect to
/// every parameter written into `grad` (summed in `f64`, in a fixed order).
///
/// # Panics
/// If the dataset's shape does not fit the net or `grad` has the wrong
/// length.
pub fn gradient<N: Network + Sync + ?Sized>(
    net: &N,
    data: &Dataset,
    loss: Loss,
    grad: &mut [f64],
) -> f64 {
    check_shapes(net, data).map_err(|e| e.0).unwrap();
    let np = net.num_params();
    assert_eq!(grad.len(), np, "gradient length");
    grad.fill(0.0);
    let chunks = data.len().div_ceil(CHUNK);
    let mut total = 0.0;
    for window in (0..chunks).collect::<Vec<_>>().chunks(WINDOW) {
        let parts: Vec<(f64, Vec<f32>)> = window
            .par_iter()
            .map_init(
                || Work::new(net.num_outputs()),
                |w, &c| {
                    let mut g = vec![0.0f32; np];
                    let rows: Vec<usize> = (c * CHUNK..((c + 1) * CHUNK).min(data.len())).collect();
                    let e = w.batch_gradient(net, data, &rows, loss, &mut g);
                    (e, g)
                },
            )
            .collect();
        for (e, g) in parts {
            total += e;
            for (a, &b) in grad.iter_mut().zip(&g) {
                *a += b as f64;
            }
        }
    }
    let n = data.len() as f64;
    grad.iter_mut().for_each(|g| *g /= n);
    total / n
}

/// Per-thread buffers for a training pass.
struct Work {
    scratch: Scratch,
    inputs: Vec<f32>,
    out: Vec<f32>,
    out_grad: Vec<f32>,
}

impl Work {
    fn new(num_outputs: usize) -> Work {
        Work {
            scratch: Scratch::new(),
            inputs: Vec::new(),
            out: vec![0.0; num_outputs],
            out_grad: Vec::new(),
        }
    }

    /// The summed error of chunk `c` (no gradient).
    fn chunk_error<N: Network + Sync + ?Sized>(
        &mut self,
        net: &N,
        data: &Dataset,
        c: usize,
        loss: Loss,
    ) -> f64 {
        let (ni, no) = (net.num_inputs(), net.num_outputs());
        let lo = c * CHUNK;
        let hi = (lo + CHUNK).min(data.len());
        self.out.resize((hi - lo) * no, 0.0);
        net.forward_batch(
            &data.inputs()[lo * ni..hi * ni],
            &mut self.out,
            &mut self.scratch,
        );
        (lo..hi)
            .map(|i| {
                let y = &self.out[(i - lo) * no..(i - lo + 1) * no];
                loss.error(y, data.target(i), data.mask(i))
            })
            .sum()
    }

    /// Adds the gradient of the summed error over `rows` to `grad` (length
    /// `num_params`), returning the summed error.
    fn batch_gradient<N: Network + Sync + ?Sized>(
        &mut self,
        net: &N,
        data: &Dataset,
        rows: &[usize],
        loss: Loss,
        grad: &mut [f32],
    ) -> f64 {
        let (ni, no) = (net.num_inputs(), net.num_outputs());
        let mut total = 0.0;
        if let [i] = rows {
            self.out.resize(no, 0.0);
            self.out_grad.resize(no, 0.0);
            net.forward(data.input(*i), &mut self.out, &mut self.scratch);
            total += loss.error_and_gradient(
                &self.out,
                data.target(*i),
                data.mask(*i),
                &mut self.out_grad,
            );
            net.backward(&self.out_grad, grad, &mut self.scratch);
            return total;
        }
        for part in rows.chunks(CHUNK) {
            let b = part.len();
            // Consecutive rows need no copy.
            let contiguous = part.windows(2).all(|p| p[1] == p[0] + 1);
            let x: &[f32] = if contiguous {
                &data.inputs()[part[0] * ni..(part[0] + b) * ni]
            } else {
                self.inputs.clear();
                for &i in part {
                    self.inputs.extend_from_slice(data.input(i));
                }
                &self.inputs
            };
            self.out.resize(b * no, 0.0);
            self.out_grad.resize(b * no, 0.0);
            net.forward_batch(x, &mut self.out, &mut self.scratch);
            for (k, &i) in part.iter().enumerate() {
                total += loss.error_and_gradient(
                    &self.out[k * no..(k + 1) * no],
                    data.target(i),
                    data.mask(i),
                    &mut self.out_grad[k * no..(k + 1) * no],
                );
            }
            net.backward(&self.out_grad, grad, &mut self.scratch);
        }
        total
    }
}
