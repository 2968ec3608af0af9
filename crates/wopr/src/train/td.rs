//! Temporal-difference learning of a linear value net by self-play:
//! TD(λ) as Szubert, Jaśkowski & Krawiec (2011) train n-tuple networks for
//! Othello and Thill, Koch & Konen (2014) for Connect-4.
//!
//! The net is linear: `V(s) = f(b + Σᵢ wᵢ·xᵢ(s))` over an encoding's inputs
//! `x(s)` (read sparsely through [`Encoding::encode_sparse`](crate::game::encode::Encoding::encode_sparse), so an n-tuple
//! network costs one table look-up per tuple), with `f` = tanh or the
//! identity. As everywhere in wopr, `V(s)` is the value of `s` for its
//! player to move; a finished game is worth +1, 0 or −1 to a seat, or,
//! with [`Reward::Margin`], its score margin scaled into [−1, 1].
//!
//! One game of learning, from game `i`'s own random stream (so a run is
//! the same game by game whatever stops and resumes it):
//! 1. `openings` random plies, not learned from;
//! 2. then at every position `sₜ` the mover values each legal move by the
//!    position it leads to, `σ·V(s')` (`σ` = +1 if the mover of `s'` is the
//!    same seat, −1 if not; a finished `s'` by its result), and plays the
//!    best (ties broken at random) or, with probability ε, a random move;
//! 3. after a greedy move the target of `sₜ` is the chosen move's value:
//!    `δ = target − V(sₜ)`, the eligibility trace `e ← σ·λ·e + ∇V(sₜ)`
//!    (`σ` as above, between `sₜ₋₁` and `sₜ`), and `w ← w + α·δ·e`. An
//!    exploratory move is not learned from and restarts the trace (Sutton
//!    & Barto's Tic-Tac-Toe learner). The trace is kept as the sparse
//!    gradients of the positions still in it, each with its factor
//!    `Π σ·λ`; a gradient whose factor falls below 10⁻⁶ leaves it (λ = 0.5:
//!    after 20 positions), so a step costs the inputs of about
//!    `log 10⁻⁶ / log λ` positions, not the size of the net.
//!
//! Instead of itself, the learner can meet fixed opponents (any
//! [`Player`]), one per game in turn, from both seats: it then learns from
//! every move of the game, its own and the opponent's, so that its values
//! stay those of the position for whoever is to move. An opponent given
//! as `None` stands for the learner itself: that game is self-play, so
//! self-play and fixed opponents can be mixed in any proportion.
//!
//! α and ε may be annealed over the first games of a run
//! ([`TdOptions::schedule`]), as Thill, Koch & Konen do. Values are
//! undiscounted unless [`TdOptions::gamma`] is below 1.
//!
//! Two learning-rule options GBG's Connect-4 learner uses:
//! - [`Explore`]: whether an exploratory move is skipped (the default,
//!   above), learned from like a greedy one (its target the value of the
//!   random move's position; the trace goes on), or learned from with the
//!   trace restarted at it (Thill, Bagheri, Koch & Konen 2014's "resetting
//!   traces").
//! - **TCL** (temporal coherence learning, Beal & Smith 1999, with the
//!   exponential transfer of Bagheri, Thill, Koch & Konen 2014): every
//!   weight `i` keeps the sum `Nᵢ` of the changes recommended to it and
//!   the sum `Aᵢ` of their sizes; a recommended change `rᵢ = α·δ·eᵢ` is
//!   applied times `g(|Nᵢ|/Aᵢ)` with `g(x) = e^{β(x−1)}` (1 while `Aᵢ = 0`),
//!   then added to the sums: weights whose recommendations keep their sign
//!   learn at the full rate, those that flip back and forth slow down.
//!   The sums are part of a checkpoint.
//!
//! # Same-player targets and final adaptation
//!
//! With [`TdOptions::farl`] (Konen's GBG learners), a position is learned
//! from the same seat's next position instead of from the move just
//! chosen: when seat `p` is to move at `sₜ`, its previous position
//! `sₜ₋ₖ` (its last turn) moves towards `V(sₜ)`, both valued for `p`;
//! each seat keeps its own trace. When the game ends, every seat's last
//! position moves towards that seat's result (the "final adaptation": the
//! loser's last position learns the loss too, not only the winner's). With
//! per-player tables (`walk8rp`) each seat's weights then learn only from
//! that seat's positions. An exploratory move's position is skipped,
//! learned from, or learned from with its seat's trace restarted, as
//! [`Explore`] says.
//!
//! Games of one run are played one after another: TD learns from the
//! weights the last game left, so one thread plays them and the thread
//! count never changes a result. To learn on several threads and ranks,
//! [`TdRounds`] plays games in rounds of `B` from the weights the last
//! round left and adds up what each game changed, in game order: a
//! result then depends on the seed and `B` (`B` = 1: the one-thread
//! learner, bit for bit), never on the thread or rank count.

use rand::RngExt;

use crate::game::encode::{Encodable, EncodingOf};
use crate::game::rng::WoprRng;
use crate::game::{mover, ActionList, Player, State, Turn};
use crate::nn::{sparse_sum, Activation, AnyNet, Architecture, Network};

use super::TrainError;
use play::Chosen;
pub use reward::Reward;
pub use rounds::{GameChange, TdRounds};

/// One position in the trace: its factor, its bias slope and its input
/// gradient as `(input, slope·x)` pairs.
type TraceEntry = (f32, f32, Vec<(u32, f32)>);

/// The default horizon cut ([`TdOptions::trace_cut`]).
pub const TRACE_FLOOR: f32 = 1e-6;

/// What an exploratory (random) move teaches (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Explore {
    /// Not learned from; the trace restarts after it.
    #[default]
    Skip,
    /// Learned from like a greedy move, the trace kept.
    Learn,
    /// Learned from, with the trace restarted at it.
    LearnReset,
}

impl Explore {
    /// Reads `skip`, `learn` or `learn-reset`.
    pub fn parse(text: &str) -> Result<Explore, TrainError> {
        match text {
            "skip" => Ok(Explore::Skip),
            "learn" => Ok(Explore::Learn),
            "learn-reset" => Ok(Explore::LearnReset),
            other => Err(TrainError(format!(
                "explore = \"{other}\" is not known (accepted: skip, learn, learn-reset)"
            ))),
        }
    }
}

/// The settings of a TD run.
#[derive(Clone, Debug, PartialEq)]
pub struct TdOptions {
    /// The step size α on every weight.
    pub alpha: f32,
    /// The trace decay λ (0: TD(0)).
    pub lambda: f32,
    /// The chance of a random move at each position.
    pub epsilon: f64,
    /// Random plies at the start of every game, not learned from.
    pub openings: usize,
    /// Where set, each game's number of random plies is drawn uniformly
    /// from `openings_min..=openings` instead (from the game's stream), so
    /// learning starts from positions at every depth in that range.
    pub openings_min: Option<usize>,
    /// The seed of every game's stream.
    pub seed: u64,
    /// Where α ends after `decay_games` games (geometric from `alpha`;
    /// `None`: constant), as Thill, Koch & Konen anneal it.
    pub alpha_final: Option<f32>,
    /// Where ε ends after `decay_games` games (linear from `epsilon`;
    /// `None`: constant).
    pub epsilon_final: Option<f64>,
    /// Games over which α and ε move to their final values (then stay).
    pub decay_games: u64,
    /// What exploratory moves teach.
    pub explore: Explore,
    /// TCL's β (the exponential transfer's steepness; `None`: no TCL, every
    /// weight at rate α).
    pub tcl: Option<f32>,
    /// The horizon cut: a position leaves the eligibility trace once its
    /// factor `Π σ·λ` falls below this (GBG's `horCut`: 0.01 for
    /// Connect-4, 0.1 by default; wopr's default 10⁻⁶ keeps the trace
    /// exact to float precision).
    pub trace_cut: f32,
    /// Same-player targets with final adaptation (GBG's FARL; see
    /// [`farl`](self#same-player-targets-and-final-adaptation)) instead of
    /// the chosen move's value.
    pub farl: bool,
    /// What a finished game is worth: its result (the default), its
    /// score margin, scaled, or its result weighed by how soon it came.
    pub reward: Reward,
    /// The discount γ per ply (1: none, the default): a position's target
    /// is γ times the next position's value, and the trace decays by γλ,
    /// so a win `k` plies away is worth about γᵏ and the greedy policy
    /// prefers the faster win and the slower loss, as a distance-aware
    /// solver scores them. Not with FARL.
    pub gamma: f32,
}

impl Default for TdOptions {
    /// TD(0), α = 0.001, ε = 0.1, no random openings, seed 1.
    fn default() -> Self {
        TdOptions {
            alpha: 0.001,
            lambda: 0.0,
            epsilon: 0.1,
            openings: 0,
            openings_min: None,
            seed: 1,
            alpha_final: None,
            epsilon_final: None,
            decay_games: 0,
            explore: Explore::Skip,
            tcl: None,
            trace_cut: TRACE_FLOOR,
            farl: false,
            reward: Reward::Result,
            gamma: 1.0,
        }
    }
}

impl TdOptions {
    /// α and ε for game `index`: the start values moved a fraction
    /// `min(index, decay_games) / decay_games` of the way to the final
    /// ones (α geometrically, ε linearly).
    pub fn schedule(&self, index: u64) -> (f32, f64) {
        if self.decay_games == 0 {
            return (self.alpha, self.epsilon);
        }
        let f = index.min(self.decay_games) as f64 / self.decay_games as f64;
        let alpha = match self.alpha_final {
            Some(a) => (self.alpha as f64 * (a as f64 / self.alpha as f64).powf(f)) as f32,
            None => self.alpha,
        };
        let epsilon = match self.epsilon_final {
            Some(e) => self.epsilon + (e - self.epsilon) * f,
            None => self.epsilon,
        };
        (alpha, epsilon)
    }

    /// Checks the ranges: α > 0, λ and ε in [0, 1], the trace cut in (0, 1),
    /// at most `openings` random plies at least.
    pub fn check(&self) -> Result<(), TrainError> {
        if !(self.alpha > 0.0 && self.alpha.is_finite()) {
            return Err(TrainError(format!(
                "alpha must be a positive number, got {}",
                self.alpha
            )));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(TrainError(format!(
                "lambda must be in [0, 1], got {}",
                self.lambda
            )));
        }
        if let Some(a) = self.alpha_final {
            if !(a > 0.0 && a.is_finite()) {
                return Err(TrainError(format!(
                    "the final alpha must be a positive number, got {a}"
                )));
            }
        }
        if let Some(e) = self.epsilon_final {
            if !(0.0..=1.0).contains(&e) {
                return Err(TrainError(format!(
                    "the final epsilon must be in [0, 1], got {e}"
                )));
            }
        }
        if (self.alpha_final.is_some() || self.epsilon_final.is_some()) && self.decay_games == 0 {
            return Err(TrainError(
                "a final alpha or epsilon needs the number of games to reach it (decay games > 0)"
                    .into(),
            ));
        }
        if !(0.0..=1.0).contains(&self.epsilon) {
            return Err(TrainError(format!(
                "epsilon must be in [0, 1], got {}",
                self.epsilon
            )));
        }
        if let Some(lo) = self.openings_min.filter(|&lo| lo > self.openings) {
            return Err(TrainError(format!(
                "the fewest random opening plies ({lo}) must not exceed the most ({})",
                self.openings
            )));
        }
        if !(self.trace_cut > 0.0 && self.trace_cut < 1.0) {
            return Err(TrainError(format!(
                "the trace cut must be in (0, 1), got {}",
                self.trace_cut
            )));
        }
        if !(self.gamma > 0.0 && self.gamma <= 1.0) {
            return Err(TrainError(format!(
                "gamma (the discount) must be in (0, 1], got {}",
                self.gamma
            )));
        }
        if self.gamma < 1.0 && self.farl {
            return Err(TrainError(
                "gamma below 1 is not implemented with farl (same-player targets); use one or the other".into(),
            ));
        }
        if let Some(b) = self.tcl {
            if !(b >= 0.0 && b.is_finite()) {
                return Err(TrainError(format!(
                    "TCL's beta must be a number ≥ 0, got {b}"
                )));
            }
        }
        Ok(())
    }
}

/// What one game of learning did.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TdGame {
    /// Plies played, openings included.
    pub plies: usize,
    /// The first seat's return (+1, 0, −1).
    pub first_return: f64,
    /// Against opponents, the learner's return; `None` in self-play.
    pub learner_return: Option<f64>,
    /// Greedy positions learned from.
    pub updates: usize,
    /// The mean of |δ| over those updates (0 if none).
    pub mean_abs_error: f64,
}

/// A linear value net learning by TD(λ) from self-play (see the module
/// docs).
pub struct TdLearner<G: Encodable> {
    game: G,
    encoding: EncodingOf<G>,
    /// The input weights, then the bias.
    weights: Vec<f32>,
    output: Activation,
    options: TdOptions,
    /// Working memory: the inputs of the position being learned, of a
    /// candidate move, and the trace: the gradients (`(input, slope·x)`
    /// pairs and the bias's slope) of the positions in it, oldest first,
    /// with their factors; `spare` keeps emptied buffers for reuse.
    inputs: Vec<(u32, f32)>,
    candidate: Vec<(u32, f32)>,
    /// The inputs of the position the last greedy move leads to, encoded
    /// while valuing it (valid where `chosen_encoded`): the next position
    /// learned, whose update then skips encoding it again.
    chosen: Vec<(u32, f32)>,
    chosen_encoded: bool,
    trace: std::collections::VecDeque<TraceEntry>,
    /// With FARL, the other seat's trace (swapped in while it learns).
    other_trace: std::collections::VecDeque<TraceEntry>,
    spare: Vec<Vec<(u32, f32)>>,
    /// α and ε of the game being learned ([`TdOptions::schedule`]).
    alpha: f32,
    epsilon: f64,
    /// The opponents games are played against in turn (none: self-play;
    /// a `None` entry: that game is self-play).
    opponents: Vec<Option<Box<dyn Player<G>>>>,
    /// Where learning games start (game `i` after `starts[i mod k]`, then
    /// the random plies); empty: the start position.
    starts: Vec<Vec<crate::game::Action>>,
    /// TCL's sums per weight: the recommended changes, and their sizes
    /// (empty without TCL).
    tcl_sum: Vec<f32>,
    tcl_size: Vec<f32>,
    /// TCL's scratch: one update's summed change per weight, all zero
    /// between updates (empty without TCL), and the weights it touched.
    tcl_change: Vec<f32>,
    tcl_touched: Vec<u32>,
    /// Where kept (an actor of [`TdRounds`]), the inputs of every position
    /// learned from since it was last emptied: the weights (and TCL sums)
    /// a game may have changed, the bias aside.
    touched: Option<rounds::Touched>,
}

impl<G: Encodable> TdLearner<G> {
    /// A learner with all weights zero for `encoding` (a name
    /// [`Encodable::encoding_names`] lists) with output `output` (tanh or
    /// linear). Fails on an unknown encoding, on one with a fixed view
    /// (values must be the mover's), on another output, on bad options, or
    /// on a game that is not turn by turn.
    pub fn new(
        game: G,
        encoding: &str,
        output: Activation,
        options: TdOptions,
    ) -> Result<Self, TrainError> {
        options.check()?;
        let encoding = game
            .encoding(encoding)
            .map_err(|e| TrainError(e.to_string()))?;
        if encoding.view().is_some() {
            return Err(TrainError(format!(
                "TD learns values for the player to move; encoding '{}' has a fixed view",
                encoding.name()
            )));
        }
        if !matches!(output, Activation::Tanh | Activation::Linear) {
            return Err(TrainError(format!(
                "TD output must be tanh or linear, got {}",
                output.name()
            )));
        }
        let start = game.initial_state();
        options.reward.check(&start, &game.spec())?;
        if !matches!(start.turn(), Turn::Player(_)) {
            return Err(TrainError(format!(
                "TD self-play needs a turn-by-turn game; {} is not",
                game.spec()
            )));
        }
        let n = encoding.size() + 1;
        let (alpha, epsilon) = (options.alpha, options.epsilon);
        let tcl = if options.tcl.is_some() { n } else { 0 };
        Ok(TdLearner {
            game,
            encoding,
            weights: vec![0.0; n],
            output,
            options,
            inputs: Vec::new(),
            candidate: Vec::new(),
            chosen: Vec::new(),
            chosen_encoded: false,
            trace: std::collections::VecDeque::new(),
            other_trace: std::collections::VecDeque::new(),
            spare: Vec::new(),
            opponents: Vec::new(),
            starts: Vec::new(),
            alpha,
            epsilon,
            tcl_sum: vec![0.0; tcl],
            tcl_size: vec![0.0; tcl],
            tcl_change: vec![0.0; tcl],
            tcl_touched: Vec::new(),
            touched: None,
        })
    }

    /// TCL's sums (recommended changes, their sizes), one per weight;
    /// empty without TCL. A checkpoint keeps them.
    pub fn tcl_sums(&self) -> (&[f32], &[f32]) {
        (&self.tcl_sum, &self.tcl_size)
    }

    /// Restores TCL's sums from a checkpoint (both of the weights' length).
    pub fn set_tcl_sums(&mut self, sum: Vec<f32>, size: Vec<f32>) -> Result<(), TrainError> {
        let n = self.tcl_sum.len();
        if sum.len() != n || size.len() != n {
            return Err(TrainError(format!(
                "TCL sums of {} and {} values for a learner of {n}",
                sum.len(),
                size.len()
            )));
        }
        (self.tcl_sum, self.tcl_size) = (sum, size);
        Ok(())
    }

    /// Starts from `net`'s weights instead of zeros: `net` must be a
    /// linear layered net (no hidden layer, one output) over this encoding,
    /// with this learner's output activation.
    pub fn with_net(mut self, net: &AnyNet) -> Result<Self, TrainError> {
        self.set_net(net)?;
        Ok(self)
    }

    /// Takes `net`'s weights (as [`TdLearner::with_net`]), e.g. a
    /// checkpoint's.
    pub fn set_net(&mut self, net: &AnyNet) -> Result<(), TrainError> {
        let inputs = self.encoding.size();
        if net.num_inputs() != inputs || net.linear_value_output() != Some(self.output) {
            return Err(TrainError(format!(
                "TD starts from a linear net {inputs}-1 with a {} output; this net is {} ({})",
                self.output.name(),
                net.architecture(),
                net.activations()
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        // A linear value net's parameters are the learner's layout.
        self.weights.copy_from_slice(net.params());
        Ok(())
    }

    /// Plays every game against one of `opponents` in turn instead of
    /// against itself (see [`TdLearner::learn_game`]); a `None` entry
    /// stands for the learner itself, its games self-play.
    pub fn with_opponents(mut self, opponents: Vec<Option<Box<dyn Player<G>>>>) -> Self {
        self.opponents = opponents;
        self
    }

    /// Starts learning game `i` after the moves `starts[i mod k]` (then the
    /// random plies), instead of from the start position; each line must
    /// be legal and leave the game unfinished
    /// ([`crate::eval::openings::Openings::lines`] reads them from notation).
    pub fn with_starts(mut self, starts: Vec<Vec<crate::game::Action>>) -> Self {
        self.starts = starts;
        self
    }

    /// The settings.
    pub fn options(&self) -> &TdOptions {
        &self.options
    }

    /// The weights (the inputs', then the bias).
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The net the learner holds, as a layered net `inputs-1` that the net
    /// players read (`net:FILE` in `greedy` mode plays as the learner's
    /// greedy policy).
    pub fn to_net(&self) -> AnyNet {
        let arch = Architecture::Mlp {
            layers: vec![self.encoding.size(), 1],
        };
        let mut net = AnyNet::new(&arch, &[self.output]).expect("a linear net is valid");
        net.set_params(&self.weights)
            .expect("the learner holds every weight");
        net
    }

    /// The encoding's name.
    pub fn encoding_name(&self) -> &'static str {
        self.encoding.name()
    }

    /// The value of `state` for its player to move.
    pub fn value(&mut self, state: &G::State) -> f32 {
        self.encoding.encode_sparse(state, &mut self.candidate);
        self.output
            .apply(sparse_sum(&self.weights, &self.candidate))
    }

    /// The value for `me` of the position a move leads to, reached after
    /// `plies` plies of the game.
    fn value_for(&mut self, child: &G::State, me: usize, plies: usize) -> f32 {
        match child.turn() {
            Turn::Terminal => self.options.reward.worth(child, me, plies),
            _ => {
                let sign = if mover(child) == Some(me) { 1.0 } else { -1.0 };
                sign * self.options.gamma * self.value(child)
            }
        }
    }

    /// Plays and learns game `index` of the run (its randomness from
    /// `stream(seed, &[index])`).
    ///
    /// In self-play the learner moves for both seats. With opponents
    /// ([`TdLearner::with_opponents`]), game `i` is against opponent
    /// `i mod k` with the learner in seat `(i div k) mod 2`; the learner
    /// then also learns from the opponent's moves (the target of a
    /// position is the value, for its mover, of the position the move
    /// played leads to), and only its own moves explore. Where opponent
    /// `i mod k` is `None`, game `i` is self-play.
    pub fn learn_game(&mut self, index: u64) -> TdGame {
        if self.options.farl {
            return self.learn_game_farl(index);
        }
        let mut game = self.start_game(index);
        // The mover of the last position learned from, for the trace's sign.
        let mut last_mover: Option<usize> = None;
        let (mut updates, mut error) = (0usize, 0.0f64);
        let mut legal = ActionList::new();
        // Whether the last move was greedy: its position's inputs are then
        // already encoded (`self.chosen`), moved to `self.inputs` before
        // this move's choice overwrites them.
        let mut last_greedy = false;
        while let Turn::Player(me) = game.state.turn() {
            let encoded = last_greedy && self.chosen_encoded;
            if encoded {
                std::mem::swap(&mut self.inputs, &mut self.chosen);
            }
            let (action, chosen) = self.choose(&mut game, me, &mut legal);
            last_greedy = matches!(chosen, Chosen::Greedy(_));
            let target = match chosen {
                Chosen::Greedy(v) => Some(v),
                Chosen::Explored if self.options.explore == Explore::Skip => None,
                Chosen::Opponent | Chosen::Explored => {
                    if chosen == Chosen::Explored && self.options.explore == Explore::LearnReset {
                        last_mover = None;
                    }
                    let mut child = game.state.clone();
                    child.apply(action);
                    Some(self.value_for(&child, me, game.plies + 1))
                }
            };
            match target {
                Some(target) => {
                    let sign = match last_mover {
                        Some(m) if m == me => 1.0,
                        Some(_) => -1.0,
                        None => 0.0,
                    };
                    error += self.update(&game.state, target, sign, encoded).abs() as f64;
                    updates += 1;
                    last_mover = Some(me);
                }
                None => last_mover = None,
            }
            game.state.apply(action);
            game.plies += 1;
        }
        game.summary(updates, error)
    }

    /// The greedy move for `me` and its value, ties broken at random
    /// (`plies`: the plies the game will have had after the move).
    fn best_move(
        &mut self,
        state: &G::State,
        me: usize,
        plies: usize,
        legal: &ActionList,
        rng: &mut WoprRng,
    ) -> (crate::game::Action, f32) {
        let (mut best, mut best_value, mut ties) = (legal[0], f32::NEG_INFINITY, 0u32);
        for &a in legal.iter() {
            let mut child = state.clone();
            child.apply(a);
            let v = self.value_for(&child, me, plies);
            let take = if v > best_value {
                ties = 1;
                true
            } else if v == best_value {
                ties += 1;
                rng.random_range(0..ties) == 0
            } else {
                false
            };
            if take {
                (best, best_value) = (a, v);
                // `value_for` encoded the child unless the game was over.
                self.chosen_encoded = !child.is_terminal();
                if self.chosen_encoded {
                    std::mem::swap(&mut self.candidate, &mut self.chosen);
                }
            }
        }
        (best, best_value)
    }
}

mod farl;
mod play;
mod reward;
mod rounds;
mod step;
#[cfg(test)]
mod tests;
