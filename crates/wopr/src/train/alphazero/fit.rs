//! Training a policy-value net on self-play positions: minibatches drawn
//! uniformly from the replay window, AlphaZero's loss (see
//! [`crate::nn::policy_value`]) averaged over the batch, L2 weight decay,
//! and gradient descent with momentum ([`crate::train::Backprop`]).

use rand::RngExt;

use super::selfplay::Played;
use crate::game::encode::{Encodable, EncodingOf};
use crate::game::rng::WoprRng;
use crate::game::{Action, ActionList, Game, State, Turn};
use crate::nn::{policy_value, AnyNet, Network, Scratch};
use crate::train::{Backprop, Optimizer};

/// The losses of some training steps, means over their positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    /// `(z − v)²`.
    pub value: f64,
    /// `−Σ π log p`.
    pub policy: f64,
}

/// Where each position of the window is: `(game, ply)`.
pub fn positions(window: &[Played]) -> Vec<(u32, u32)> {
    window
        .iter()
        .enumerate()
        .flat_map(|(g, p)| (0..p.actions.len() as u32).map(move |k| (g as u32, k)))
        .collect()
}

/// `steps` steps of `batch` positions each, drawn from `window` with `rng`.
/// `l2` is the weight decay's coefficient (its gradient `l2·w` is added to
/// every weight's, biases included).
#[allow(clippy::too_many_arguments)]
pub fn train<G: Encodable>(
    game: &G,
    encoding: &EncodingOf<G>,
    net: &mut AnyNet,
    optimizer: &mut Backprop,
    window: &[Played],
    steps: usize,
    batch: usize,
    l2: f32,
    rng: &mut WoprRng,
) -> Losses {
    let index = positions(window);
    if index.is_empty() || steps == 0 || batch == 0 {
        return Losses::default();
    }
    let n_in = encoding.size();
    let n_out = net.num_outputs();
    let mut inputs = vec![0.0; batch * n_in];
    let mut outputs = vec![0.0; batch * n_out];
    let mut out_grad = vec![0.0; batch * n_out];
    let mut grad = vec![0.0; net.num_params()];
    let mut scratch = Scratch::new();
    let mut legal = ActionList::new();
    let mut priors = Vec::new();
    let mut samples: Vec<(G::State, &[f32], f32)> = Vec::with_capacity(batch);
    let mut total = Losses::default();
    for _ in 0..steps {
        samples.clear();
        for row in inputs.chunks_exact_mut(n_in) {
            let (g, k) = index[rng.random_range(0..index.len())];
            let played = &window[g as usize];
            let mut state = replay(game, &played.opening);
            for &a in &played.actions[..k as usize] {
                state.apply(a);
            }
            let Turn::Player(p) = state.turn() else {
                unreachable!("a recorded move was a player's")
            };
            encoding.encode(&state, row);
            samples.push((state, &played.targets[k as usize], played.returns[p]));
        }
        net.forward_batch(&inputs, &mut outputs, &mut scratch);
        let scale = 1.0 / batch as f32;
        for (((state, target, z), row), g) in samples
            .iter()
            .zip(outputs.chunks_exact(n_out))
            .zip(out_grad.chunks_exact_mut(n_out))
        {
            legal.clear();
            state.legal_actions(&mut legal);
            let (v, p) = policy_value::loss_grad(row, &legal, target, *z, g, &mut priors);
            total.value += f64::from(v);
            total.policy += f64::from(p);
            for x in g.iter_mut() {
                *x *= scale;
            }
        }
        grad.fill(0.0);
        net.backward(&out_grad, &mut grad, &mut scratch);
        for (g, &w) in grad.iter_mut().zip(net.params()) {
            *g += l2 * w;
        }
        optimizer.step(net.params_mut(), &grad, 0.0);
        net.apply_mask();
    }
    let n = (steps * batch) as f64;
    Losses {
        value: total.value / n,
        policy: total.policy / n,
    }
}

/// The position after `actions` from the start.
pub fn replay<G: Game>(game: &G, actions: &[Action]) -> G::State {
    let mut s = game.initial_state();
    for &a in actions {
        s.apply(a);
    }
    s
}
