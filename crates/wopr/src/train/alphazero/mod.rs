//! AlphaZero: a policy-value net learned from self-play, in which PUCT
//! guided by the net's own policy chooses the moves and the search's visit
//! shares become the policy's targets, the games' outcomes the value's
//! (Silver et al. 2017, 2018).
//!
//! It learns two-player zero-sum games whose players move one at a time
//! (a value for one seat is the negation of the other's); a game with
//! chance or simultaneous moves is refused when it meets one.
//!
//! A run goes in **rounds**. Round `r` plays `games` self-play games
//! ([`selfplay`]) with the net as the last round left it, in groups of
//! `lockstep` games whose leaves share each forward pass, the groups on
//! rayon's threads and, in an MPI job, shared out between its ranks
//! ([`crate::dist::map_block`]) and gathered back in order; game `i` of
//! round `r` draws from `stream(seed, [1, r, i])`. The games join the
//! replay window (the last `window` games), and the net then takes `steps`
//! gradient steps on minibatches of `batch` positions drawn uniformly from
//! the window with `stream(seed, [2, r])` ([`fit`]), the same steps on
//! every rank. A game's moves are the same whatever group, thread or rank
//! plays it, so a run depends on its seed and settings, never on the
//! thread or rank count; and the window, the optimiser's momentum and the
//! net are the whole state between rounds, so a run resumed from a
//! checkpoint ends where an uninterrupted one does.
//!
//! **The net** is a layered perceptron over one of the game's encodings,
//! with hidden layers of one activation and a linear last layer of `A + 1`
//! outputs: the policy's logits over the game's `A` action indices, then
//! the value ([`crate::nn::Heads::PolicyValue`]). Its weights start
//! uniform in `±√(6 / (fan_in + fan_out))` (Glorot and Bengio) from
//! `stream(seed, [0])`, its biases at zero.
//!
//! **References.**
//! - D. Silver et al., "Mastering the game of Go without human knowledge".
//!   *Nature* 550, pp. 354–359, 2017.
//! - D. Silver et al., "A general reinforcement learning algorithm that
//!   masters chess, shogi, and Go through self-play". *Science* 362,
//!   pp. 1140–1144, 2018.
//! - X. Glorot and Y. Bengio, "Understanding the difficulty of training
//!   deep feedforward neural networks". *AISTATS*, 2010.

pub mod bench;
pub mod fit;
pub mod selfplay;

use std::collections::VecDeque;

use rand::RngExt;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::game::encode::{Encodable, EncodingOf};
use crate::game::rng::stream;
use crate::nn::{Activation, AnyNet, Architecture, Heads, NetFile, Network, SegmentKind};
use crate::train::{Backprop, BackpropConfig, Optimizer};

pub use fit::Losses;
pub use selfplay::{Played, SearchOptions};

/// A learner's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct AzOptions {
    /// The search of every self-play move.
    pub search: SearchOptions,
    /// Self-play games a round.
    pub games: usize,
    /// Games played in lockstep, one forward pass a simulation step for
    /// all of them.
    pub lockstep: usize,
    /// Games kept in the replay window.
    pub window: usize,
    /// Gradient steps a round.
    pub steps: usize,
    /// Positions a step.
    pub batch: usize,
    /// Gradient descent's step size.
    pub learning_rate: f64,
    /// Its momentum.
    pub momentum: f64,
    /// L2 weight decay.
    pub l2: f32,
    /// The run's seed.
    pub seed: u64,
}

/// What one round did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Round {
    /// The training losses.
    pub losses: Losses,
    /// Mean searched plies of the round's games (a random opening's not
    /// counted).
    pub plies: f64,
    /// The first seat's mean score (win 1, draw ½).
    pub first_seat: f64,
    /// Positions in the window.
    pub positions: usize,
}

/// What a checkpoint keeps besides the net.
#[derive(Serialize, Deserialize)]
struct Saved {
    window: Vec<Played>,
    optimizer: Backprop,
}

/// An AlphaZero learner: the net, its optimiser and the replay window.
pub struct AzLearner<G: Encodable> {
    game: G,
    encoding_name: String,
    encoding: EncodingOf<G>,
    net: AnyNet,
    optimizer: Backprop,
    window: VecDeque<Played>,
    options: AzOptions,
}

impl<G: Encodable> AzLearner<G> {
    /// A fresh learner: a net over `encoding` with `hidden` layers of
    /// `activation`, its weights drawn from the seed. Errors name what is
    /// wrong with a setting.
    pub fn new(
        game: G,
        encoding: &str,
        hidden: &[usize],
        activation: Activation,
        options: AzOptions,
    ) -> Result<Self, String> {
        check(&options)?;
        if game.num_players() != 2 {
            return Err(format!(
                "alphazero learns two-player games; {} has {} players",
                game.spec(),
                game.num_players()
            ));
        }
        let enc = game.encoding(encoding).map_err(|e| e.0)?;
        let mut layers = vec![enc.size()];
        layers.extend_from_slice(hidden);
        layers.push(game.num_actions() + 1);
        if hidden.contains(&0) {
            return Err("learner.hidden: every layer needs at least one unit".into());
        }
        let mut activations = vec![activation; hidden.len()];
        activations.push(Activation::Linear);
        let mut net = AnyNet::new(&Architecture::Mlp { layers }, &activations).map_err(|e| e.0)?;
        glorot(&mut net, &mut stream(options.seed, &[0]));
        let optimizer = Backprop::new(
            BackpropConfig {
                learning_rate: options.learning_rate,
                momentum: options.momentum,
            },
            net.num_params(),
        );
        Ok(AzLearner {
            game,
            encoding_name: encoding.to_string(),
            encoding: enc,
            net,
            optimizer,
            window: VecDeque::new(),
            options,
        })
    }

    /// Round `r`: its self-play games, then training on the window.
    pub fn round(&mut self, r: u64) -> Result<Round, String> {
        let o = &self.options;
        // Each lockstep group by its first game; its games' streams are
        // drawn where it is played.
        let step = o.lockstep.max(1);
        let groups: Vec<usize> = (0..o.games).step_by(step).collect();
        let (game, net, encoding) = (&self.game, &self.net, &self.encoding);
        // The groups are shared out between the ranks of an MPI job (each
        // on its threads) and gathered back in order: every rank gets every
        // game, trains the same window with the same draws, and so keeps
        // the same net.
        let played: Vec<Result<Vec<Played>, String>> =
            crate::dist::map_block(&groups, |_, block| {
                block
                    .par_iter()
                    .map(|&first| {
                        let rngs = (first..(first + step).min(o.games))
                            .map(|i| stream(o.seed, &[1, r, i as u64]))
                            .collect();
                        selfplay::play(game, net, encoding, &o.search, rngs)
                    })
                    .collect()
            });
        let played = played.into_iter().collect::<Result<Vec<_>, _>>()?;
        let played: Vec<Played> = played.into_iter().flatten().collect();
        let n = played.len().max(1) as f64;
        let plies = played.iter().map(|p| p.actions.len()).sum::<usize>() as f64 / n;
        let first_seat = played
            .iter()
            .map(|p| f64::from(p.returns[0] + 1.0) / 2.0)
            .sum::<f64>()
            / n;
        self.window.extend(played);
        while self.window.len() > self.options.window {
            self.window.pop_front();
        }
        let window = self.window.make_contiguous();
        let mut rng = stream(self.options.seed, &[2, r]);
        let losses = fit::train(
            &self.game,
            &self.encoding,
            &mut self.net,
            &mut self.optimizer,
            window,
            self.options.steps,
            self.options.batch,
            self.options.l2,
            &mut rng,
        );
        if !losses.value.is_finite() || !losses.policy.is_finite() {
            return Err(format!(
                "alphazero diverged in round {}: the losses stopped being finite; lower learner.learning_rate",
                r + 1
            ));
        }
        Ok(Round {
            losses,
            plies,
            first_seat,
            positions: window.iter().map(|p| p.actions.len()).sum(),
        })
    }

    /// The net as a file: game, encoding, heads, and `player` as its line.
    pub fn net_file(&self, player: Option<&str>) -> NetFile {
        let mut file = NetFile::new(self.net.clone());
        file.game = Some(self.game.spec());
        file.encoding = Some(self.encoding_name.clone());
        file.player = player.map(str::to_string);
        file.heads = Heads::PolicyValue;
        file
    }

    /// The net.
    pub fn net(&self) -> &AnyNet {
        &self.net
    }

    /// The window and the optimiser's momentum, as a checkpoint keeps them.
    pub fn state(&self) -> Result<serde_json::Value, String> {
        let saved = Saved {
            window: self.window.iter().cloned().collect(),
            optimizer: self.optimizer.clone(),
        };
        serde_json::to_value(saved).map_err(|e| e.to_string())
    }

    /// Goes on from a checkpoint's state and net.
    pub fn restore(&mut self, state: serde_json::Value, net: &AnyNet) -> Result<(), String> {
        let saved: Saved = serde_json::from_value(state)
            .map_err(|e| format!("an alphazero checkpoint holds a window and an optimiser: {e}"))?;
        self.set_net(net)?;
        self.window = saved.window.into();
        self.optimizer = saved.optimizer;
        Ok(())
    }

    /// Takes `net`'s weights (a checkpoint's, or `[init] net`); it must
    /// have the config's shape.
    pub fn set_net(&mut self, net: &AnyNet) -> Result<(), String> {
        if net.architecture() != self.net.architecture() {
            return Err(format!(
                "the net is {}, the config's {}",
                net.architecture(),
                self.net.architecture()
            ));
        }
        self.net.set_params(net.params()).map_err(|e| e.0)
    }
}

/// Checks the settings' ranges.
fn check(o: &AzOptions) -> Result<(), String> {
    let positive = [
        ("learner.games", o.games),
        ("learner.window", o.window),
        ("learner.batch", o.batch),
        ("learner.lockstep", o.lockstep),
    ];
    if let Some((name, _)) = positive.iter().find(|(_, v)| *v == 0) {
        return Err(format!("{name} must be at least 1"));
    }
    let s = &o.search;
    if !(s.dirichlet_alpha > 0.0 && s.dirichlet_alpha.is_finite()) {
        return Err(format!(
            "learner.dirichlet_alpha = {} must be a number above 0",
            s.dirichlet_alpha
        ));
    }
    if !(0.0..=1.0).contains(&s.noise) {
        return Err(format!(
            "learner.noise = {} must be in 0..=1 (the noise's share of the root's priors)",
            s.noise
        ));
    }
    if !(s.c >= 0.0 && s.c.is_finite()) {
        return Err(format!("learner.c = {} must be a number ≥ 0", s.c));
    }
    let rate_ok = o.learning_rate > 0.0 && o.learning_rate.is_finite();
    if !(rate_ok && (0.0..1.0).contains(&o.momentum)) {
        return Err(format!(
            "learner.learning_rate = {} must be above 0 and learner.momentum = {} in 0..1",
            o.learning_rate, o.momentum
        ));
    }
    if !(o.l2 >= 0.0 && o.l2.is_finite()) {
        return Err(format!("learner.l2 = {} must be a number ≥ 0", o.l2));
    }
    Ok(())
}

/// Glorot's uniform weights, zero biases.
fn glorot(net: &mut AnyNet, rng: &mut crate::game::rng::WoprRng) {
    for seg in net.segments() {
        let values = &mut net.params_mut()[seg.offset..seg.offset + seg.len];
        match seg.kind {
            SegmentKind::Weights { sources, units } => {
                let limit = (6.0 / (sources + units) as f32).sqrt();
                for w in values {
                    *w = rng.random_range(-limit..=limit);
                }
            }
            _ => values.fill(0.0),
        }
    }
}
