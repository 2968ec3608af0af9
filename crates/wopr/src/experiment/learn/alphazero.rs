//! AlphaZero as a run ([`crate::train::alphazero`] for the learning
//! itself): the config `wopr run` reads, and the [`Learner`] that plays
//! and learns its rounds.
//!
//! ```toml
//! game = "tictactoe"
//! seed = 1
//!
//! [learner]
//! kind = "alphazero"
//! encoding = "raw"          # the net's input encoding
//! hidden = [64, 64]         # hidden layers (the last layer: A logits, 1 value)
//! activation = "relu"       # of the hidden layers
//! sims = 50                 # simulations a self-play move
//! c = 1.5                   # PUCT's constant
//! dirichlet_alpha = 1.0     # root noise Dir(α)
//! noise = 0.25              # its share ε of the root's priors
//! temp_plies = 4            # plies whose move is drawn by visits
//! random_plies = 0          # each game starts after 0..=N random plies
//! decisive_moves = false    # take a win in one at once in the search
//! games = 64                # self-play games a round
//! lockstep = 16             # games a forward pass serves at once
//! window = 2000             # games in the replay window
//! steps = 50                # gradient steps a round
//! batch = 128               # positions a step
//! learning_rate = 0.05      # SGD with momentum
//! momentum = 0.9
//! l2 = 0.0001               # weight decay
//! player = "mcts:sims=100,select=puct"   # the net file's player line
//!
//! [stop]
//! rounds = 40
//!
//! [yardsticks]
//! every = 5                 # rounds between yardsticks (a checkpoint every round)
//! against = ["random", "alphabeta:depth=2"]
//! games = 100
//! ```
//!
//! The yardsticks play the net's policy alone (`net:FILE,mode=policy`),
//! so the learning curve measures the policy without search; the
//! champion file's `player` line names the search `wopr eval` plays.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::td::{one, NetInit};
use super::{drive, LearnProgress, Learner, RunPlan, RunSummary};
use crate::experiment::error::{err, RunError};
use crate::experiment::yardsticks::{GameYardsticks, YardsticksConfig};
use crate::game::encode::Encodable;
use crate::game::Searchable;
use crate::nn::{Activation, NetFile};
use crate::players::Roster;
use crate::train::alphazero::{AzLearner, AzOptions, SearchOptions};
use crate::with_board_game;

/// An AlphaZero run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlphaZeroConfig {
    /// A name for reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game spec (a board game, GDL sheets included).
    pub game: String,
    /// Seed of the net, the self-play games, the minibatches and the
    /// yardstick games.
    #[serde(default = "one")]
    pub seed: u64,
    /// What is learned and how.
    pub learner: AlphaZeroSettings,
    /// When the run ends.
    pub stop: AlphaZeroStop,
    /// Checkpoints and the yardsticks measured at each (counted in rounds).
    #[serde(default)]
    pub yardsticks: YardsticksConfig,
    /// Where the weights start (a policy-value net of the same shape).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<NetInit>,
}

/// `[learner]` of an AlphaZero run; see the module docs for the defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlphaZeroSettings {
    /// Always `"alphazero"`.
    pub kind: AlphaZeroKind,
    /// The net's input encoding.
    #[serde(default = "raw")]
    pub encoding: String,
    /// Units of each hidden layer.
    #[serde(default = "hidden")]
    pub hidden: Vec<usize>,
    /// The hidden layers' activation.
    #[serde(default = "relu")]
    pub activation: String,
    /// Simulations a self-play move.
    #[serde(default = "sims")]
    pub sims: u32,
    /// PUCT's exploration constant.
    #[serde(default = "c")]
    pub c: f32,
    /// The root noise's Dirichlet α.
    #[serde(default = "alpha")]
    pub dirichlet_alpha: f32,
    /// The noise's share of the root's priors.
    #[serde(default = "noise")]
    pub noise: f32,
    /// Plies from the start whose move is drawn by visits.
    #[serde(default = "temp_plies")]
    pub temp_plies: u32,
    /// Each self-play game starts after `k` uniformly random plies, `k`
    /// uniform in `0..=random_plies` (0, the default: from the start).
    #[serde(default)]
    pub random_plies: u32,
    /// Whether the self-play search takes a win in one at once at every
    /// node (off by default; [`crate::train::alphazero::selfplay`],
    /// "Decisive moves").
    #[serde(default)]
    pub decisive_moves: bool,
    /// Self-play games a round.
    #[serde(default = "games")]
    pub games: usize,
    /// Games played in lockstep (one forward pass serves them all).
    #[serde(default = "lockstep")]
    pub lockstep: usize,
    /// Games in the replay window.
    #[serde(default = "window")]
    pub window: usize,
    /// Gradient steps a round.
    #[serde(default = "steps")]
    pub steps: usize,
    /// Positions a step.
    #[serde(default = "batch")]
    pub batch: usize,
    /// SGD's step size.
    #[serde(default = "learning_rate")]
    pub learning_rate: f64,
    /// SGD's momentum.
    #[serde(default = "momentum")]
    pub momentum: f64,
    /// L2 weight decay.
    #[serde(default = "l2")]
    pub l2: f32,
    /// The net file's `player` line (absent: the policy alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// The one kind of this table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AlphaZeroKind {
    /// AlphaZero.
    Alphazero,
}

/// `[stop]` of an AlphaZero run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlphaZeroStop {
    /// Rounds in all (a resumed run continues to this count).
    pub rounds: u64,
}

fn raw() -> String {
    "raw".into()
}
fn hidden() -> Vec<usize> {
    vec![64, 64]
}
fn relu() -> String {
    "relu".into()
}
fn sims() -> u32 {
    50
}
fn c() -> f32 {
    1.5
}
fn alpha() -> f32 {
    1.0
}
fn noise() -> f32 {
    0.25
}
fn temp_plies() -> u32 {
    4
}
fn games() -> usize {
    64
}
fn lockstep() -> usize {
    16
}
fn window() -> usize {
    2000
}
fn steps() -> usize {
    50
}
fn batch() -> usize {
    128
}
fn learning_rate() -> f64 {
    0.05
}
fn momentum() -> f64 {
    0.9
}
fn l2() -> f32 {
    1e-4
}

/// The learner and its round count.
struct AzRun<G: Encodable> {
    learner: AzLearner<G>,
    player: Option<String>,
    done: u64,
}

impl<G: Encodable> Learner for AzRun<G> {
    fn unit(&self) -> &'static str {
        "rounds"
    }

    fn done(&self) -> u64 {
        self.done
    }

    fn log_header(&self) -> String {
        "rounds,value_loss,policy_loss,mean_plies,first_seat_score,positions".into()
    }

    fn advance(
        &mut self,
        until: u64,
        tick: &mut dyn FnMut(u64),
    ) -> Result<Vec<(u64, String)>, RunError> {
        let mut rows = Vec::new();
        while self.done < until {
            let r = self.learner.round(self.done).map_err(RunError)?;
            self.done += 1;
            rows.push((
                self.done,
                format!(
                    "{:.6},{:.6},{:.2},{:.4},{}",
                    r.losses.value, r.losses.policy, r.plies, r.first_seat, r.positions
                ),
            ));
            tick(self.done);
        }
        Ok(rows)
    }

    fn net_file(&self) -> Result<NetFile, RunError> {
        Ok(self.learner.net_file(self.player.as_deref()))
    }

    /// `{"rounds", "learner"}`: the rounds done, and the learner's window
    /// and optimiser.
    fn state(&self) -> Result<serde_json::Value, RunError> {
        let learner = self.learner.state().map_err(RunError)?;
        Ok(serde_json::json!({"rounds": self.done, "learner": learner}))
    }

    fn restore(&mut self, mut state: serde_json::Value, net: &NetFile) -> Result<(), RunError> {
        let rounds = state.get("rounds").and_then(serde_json::Value::as_u64);
        let (Some(rounds), Some(learner)) = (rounds, state.get_mut("learner")) else {
            return Err(RunError(
                "an alphazero checkpoint holds {\"rounds\", \"learner\"}".into(),
            ));
        };
        self.learner
            .restore(learner.take(), &net.net)
            .map_err(RunError)?;
        self.done = rounds;
        Ok(())
    }
}

/// Runs (or resumes, when `dir` holds its checkpoint) an AlphaZero run.
pub fn run(
    config: &AlphaZeroConfig,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<RunSummary, RunError> {
    let game = crate::registry::AnyGame::parse(&config.game).map_err(err)?;
    with_board_game!(&game, g => run_game(g, config, dir, progress),
        Err(RunError(format!("alphazero learns board games (GDL sheets included), not {}", game.spec()))))
}

fn run_game<G>(
    game: &G,
    config: &AlphaZeroConfig,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<RunSummary, RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let l = &config.learner;
    let activation: Activation = l.activation.parse().map_err(err)?;
    let options = AzOptions {
        search: SearchOptions {
            sims: l.sims,
            c: l.c,
            dirichlet_alpha: l.dirichlet_alpha,
            noise: l.noise,
            temp_plies: l.temp_plies,
            random_plies: l.random_plies,
            decisive_moves: l.decisive_moves,
        },
        games: l.games,
        lockstep: l.lockstep,
        window: l.window,
        steps: l.steps,
        batch: l.batch,
        learning_rate: l.learning_rate,
        momentum: l.momentum,
        l2: l.l2,
        seed: config.seed,
    };
    let mut learner = AzLearner::new(game.clone(), &l.encoding, &l.hidden, activation, options)
        .map_err(RunError)?;
    if let Some(init) = &config.init {
        let file = NetFile::load(&init.net).map_err(err)?;
        learner
            .set_net(&file.net)
            .map_err(|e| RunError(format!("init.net {}: {e}", init.net.display())))?;
    }
    if let Some(p) = &l.player {
        // The line must be one a net file can carry for this game.
        let mut file = learner.net_file(Some(p));
        file.game = Some(game.spec());
        crate::players::net::NetPlayer::from_file(game, file, "net")
            .map_err(|e| RunError(format!("learner.player '{p}': {e}")))?;
    }
    let yardsticks = GameYardsticks::new(game, &config.yardsticks, config.seed)?;
    let text = toml::to_string_pretty(config).map_err(err)?;
    let mut run = AzRun {
        learner,
        player: l.player.clone(),
        done: 0,
    };
    let plan = RunPlan {
        kind: "alphazero",
        dir,
        config: &text,
        stop: config.stop.rounds,
        // A checkpoint every round (a kill loses one round at most); the
        // yardsticks every `yardsticks.every` rounds.
        every: 1,
        measure_every: config.yardsticks.every,
        keep_nets: config.yardsticks.keep_nets,
    };
    drive(&mut run, &plan, &yardsticks, progress)
}
