//! Training one epoch at a time, with a state that can be saved between
//! epochs and resumed to the same weights: [`super::train`] is a loop over
//! a [`Trainer`], and the run layer (`wopr run`, `kind = "train"`)
//! checkpoints one.
//!
//! What an epoch boundary must remember, besides the net's weights, is in
//! [`TrainState`]: the epochs done, the errors so far and the optimiser's
//! memory (RPROP's step sizes and last derivatives, momentum's velocity).
//! The example order is not stored: epoch `e` shuffles the previous order
//! with `stream(seed, &[1, e])`, so a resumed trainer replays the shuffles.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::{check_shapes, evaluate, gradient, Work};
use super::{Algorithm, AnyOptimizer, Dataset, EpochStats, Optimizer, TrainError, TrainOptions};
use crate::game::rng::stream;
use crate::nn::Network;

/// What a trainer carries from one epoch to the next, besides the weights.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TrainState {
    /// Epochs done.
    pub epoch: usize,
    /// The mean error after each epoch measured so far (`losses[e]` after
    /// `e` epochs).
    pub losses: Vec<f64>,
    /// The optimiser with its memory.
    pub optimizer: AnyOptimizer,
}

/// Trains a net on a dataset an epoch at a time.
pub struct Trainer<'d> {
    data: &'d Dataset,
    options: TrainOptions,
    state: TrainState,
    /// Examples per step.
    batch: usize,
    order: Vec<usize>,
    work: Work,
    grad64: Vec<f64>,
    grad: Vec<f32>,
    /// Whether `grad` holds the full-batch gradient at the current weights
    /// (measured with the last loss, so the next epoch need not compute it
    /// again).
    grad_fresh: bool,
}

impl<'d> Trainer<'d> {
    /// A trainer at epoch 0; draws the net's initial weights when the
    /// options ask for fresh ones.
    pub fn new<N: Network + Sync + ?Sized>(
        net: &mut N,
        data: &'d Dataset,
        algorithm: &Algorithm,
        options: &TrainOptions,
    ) -> Result<Trainer<'d>, TrainError> {
        check_shapes(net, data)?;
        if let Some(r) = options.init_range {
            net.randomize(&mut stream(options.seed, &[0]), r);
        }
        let state = TrainState {
            epoch: 0,
            losses: Vec::with_capacity(options.epochs + 1),
            optimizer: AnyOptimizer::new(*algorithm, net.num_params()),
        };
        Trainer::resume(net, data, options, state)
    }

    /// A trainer that goes on from `state`, with `net` holding the weights
    /// it had at that epoch boundary.
    pub fn resume<N: Network + Sync + ?Sized>(
        net: &N,
        data: &'d Dataset,
        options: &TrainOptions,
        state: TrainState,
    ) -> Result<Trainer<'d>, TrainError> {
        check_shapes(net, data)?;
        let n = data.len();
        let np = net.num_params();
        let mut trainer = Trainer {
            data,
            options: options.clone(),
            batch: match options.batch_size {
                0 => n,
                b => b.min(n),
            },
            order: (0..n).collect(),
            work: Work::new(net.num_outputs()),
            grad64: vec![0.0; np],
            grad: vec![0.0; np],
            grad_fresh: false,
            state,
        };
        for e in 1..=trainer.state.epoch {
            trainer.shuffle(e);
        }
        Ok(trainer)
    }

    /// The state to save at this epoch boundary.
    pub fn state(&self) -> &TrainState {
        &self.state
    }

    /// Epochs done.
    pub fn epoch(&self) -> usize {
        self.state.epoch
    }

    /// The mean error at the net's current weights, recorded as this
    /// epoch's (measured once per epoch; asking again returns the record).
    /// Fails if it is NaN or infinite (usually a learning rate too high).
    pub fn measure<N: Network + Sync + ?Sized>(
        &mut self,
        net: &N,
    ) -> Result<EpochStats, TrainError> {
        let epoch = self.state.epoch;
        if let Some(&loss) = self.state.losses.get(epoch) {
            return Ok(EpochStats { epoch, loss });
        }
        let loss = if self.full_batch() {
            let l = gradient(net, self.data, self.options.loss, &mut self.grad64);
            for (g, &v) in self.grad.iter_mut().zip(&self.grad64) {
                *g = v as f32;
            }
            self.grad_fresh = true;
            l
        } else {
            evaluate(net, self.data, self.options.loss)
        };
        if !loss.is_finite() {
            return Err(TrainError(format!(
                "the error became {loss} after {epoch} epochs (learning rate too high?)"
            )));
        }
        self.state.losses.push(loss);
        Ok(EpochStats { epoch, loss })
    }

    /// One more epoch of steps (full batch: one step down the gradient at
    /// the measured weights; otherwise one step per batch of the epoch's
    /// order). Measures the current weights first if that was not done.
    pub fn run_epoch<N: Network + Sync + ?Sized>(&mut self, net: &mut N) -> Result<(), TrainError> {
        let loss = self.measure(net)?.loss;
        self.state.epoch += 1;
        if self.full_batch() {
            if !self.grad_fresh {
                gradient(net, self.data, self.options.loss, &mut self.grad64);
                for (g, &v) in self.grad.iter_mut().zip(&self.grad64) {
                    *g = v as f32;
                }
            }
            self.grad_fresh = false;
            step(net, &mut self.state.optimizer, &mut self.grad, loss);
            return Ok(());
        }
        self.shuffle(self.state.epoch);
        for batch in self.order.chunks(self.batch) {
            self.grad.fill(0.0);
            let l =
                self.work
                    .batch_gradient(net, self.data, batch, self.options.loss, &mut self.grad);
            let scale = 1.0 / batch.len() as f32;
            self.grad.iter_mut().for_each(|g| *g *= scale);
            step(
                net,
                &mut self.state.optimizer,
                &mut self.grad,
                l / batch.len() as f64,
            );
        }
        Ok(())
    }

    fn full_batch(&self) -> bool {
        self.batch == self.data.len()
    }

    /// Epoch `e`'s shuffle of the order (when the options shuffle and the
    /// steps are smaller than the data).
    fn shuffle(&mut self, e: usize) {
        if !self.options.shuffle || self.full_batch() {
            return;
        }
        let mut rng = stream(self.options.seed, &[1, e as u64]);
        for i in (1..self.order.len()).rev() {
            self.order.swap(i, rng.random_range(0..=i));
        }
    }
}

/// One optimiser step that leaves pruned parameters at zero.
fn step<N: Network + Sync + ?Sized>(
    net: &mut N,
    opt: &mut AnyOptimizer,
    grad: &mut [f32],
    loss: f64,
) {
    if let Some(m) = net.mask() {
        for (g, &keep) in grad.iter_mut().zip(m) {
            if !keep {
                *g = 0.0;
            }
        }
    }
    opt.step(net.params_mut(), grad, loss);
    net.apply_mask();
}
