//! Pre-training run from a config (`[learner] kind = "pretrain"`): the
//! config `wopr pretrain --print-config` writes and `wopr run` reads, and
//! [`run`], which trains the pool through the run layer
//! ([`crate::experiment::pretrain::pretrain`]).

pub mod pretraining;

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{LearnProgress, RunSummary};
use crate::experiment::error::{err, RunError};
use crate::nn::Activation;
use crate::registry::AnyGame;
use crate::with_board_game;
use pretraining::{pretrain_summary, Pool, PretrainOptions, PARTIAL_FILE};

/// A pre-training run's config, as `wopr run CONFIG.toml` reads it and
/// `wopr pretrain --print-config` writes it: `game`, `seed`, and a
/// `[learner]` table with `kind = "pretrain"` and the flags' settings
/// (`teachers`, `per_teacher`, `positions`, `epochs`, `bp_batch`, `hidden`,
/// `activation`, `output`, `encoding`, `play`). A killed pre-training run
/// resumes from the nets it finished (`wopr run --resume DIR`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PretrainConfig {
    /// A name for reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game spec (a board game).
    pub game: String,
    /// Seed of the games, initial weights and example orders.
    #[serde(default = "defaults::one")]
    pub seed: u64,
    /// The teachers and how each net is trained.
    pub learner: PretrainLearner,
}

/// `[learner]` of a pre-training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PretrainLearner {
    /// Always `"pretrain"`.
    pub kind: PretrainKind,
    /// Teacher oracles.
    pub teachers: Vec<String>,
    /// Nets per teacher.
    #[serde(default = "defaults::ten")]
    pub per_teacher: usize,
    /// Positions in each teacher's dataset.
    #[serde(default = "defaults::two_thousand")]
    pub positions: usize,
    /// Epochs per net.
    #[serde(default = "defaults::hundred")]
    pub epochs: usize,
    /// Examples per back-propagation step.
    #[serde(default = "defaults::sixteen")]
    pub bp_batch: usize,
    /// Hidden layer sizes (none: 58 and 27; `[0]`: a linear net).
    #[serde(default)]
    pub hidden: Vec<usize>,
    /// Hidden activation.
    #[serde(default = "defaults::sigmoid")]
    pub activation: String,
    /// Output activation.
    #[serde(default = "defaults::linear")]
    pub output: String,
    /// Input encoding.
    #[serde(default = "defaults::raw")]
    pub encoding: String,
    /// Players of the recorded games (none: see the teachers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub play: Vec<String>,
}

/// The one kind of this table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PretrainKind {
    /// Pre-training a seed population.
    Pretrain,
}

/// The defaults of the config (and of `wopr pretrain`'s flags).
pub mod defaults {
    /// A default of the config (and of `wopr pretrain`'s flags).
    pub fn one() -> u64 {
        1
    }
    /// A default of the config (and of `wopr pretrain`'s flags).
    pub fn ten() -> usize {
        10
    }
    /// A default of the config (and of `wopr pretrain`'s flags).
    pub fn two_thousand() -> usize {
        2000
    }
    /// A default of the config (and of `wopr pretrain`'s flags).
    pub fn hundred() -> usize {
        100
    }
    /// A default of the config (and of `wopr pretrain`'s flags).
    pub fn sixteen() -> usize {
        16
    }
    /// A default of the config (and of `wopr pretrain`'s flags).
    pub fn sigmoid() -> String {
        "sigmoid".into()
    }
    /// A default of the config (and of `wopr pretrain`'s flags).
    pub fn linear() -> String {
        "linear".into()
    }
    /// A default of the config (and of `wopr pretrain`'s flags).
    pub fn raw() -> String {
        "raw".into()
    }
}

/// The hidden layers `--hidden` asks for: none given, the paper's 58 and
/// 27; `0` alone, none (a linear net); else the sizes given, none zero.
fn hidden_layers(given: &[usize]) -> Result<Vec<usize>, RunError> {
    match given {
        [] => Ok(vec![58, 27]),
        [0] => Ok(vec![]),
        sizes if sizes.contains(&0) => Err(RunError(format!(
            "a hidden layer of 0 (`--hidden 0`, `hidden = [0]`) means no hidden layer and stands alone; got {sizes:?}: give layer sizes of 1 or more, or 0 once"
        ))),
        sizes => Ok(sizes.to_vec()),
    }
}

impl PretrainConfig {
    /// The pool's settings, checked.
    pub fn options(&self) -> Result<PretrainOptions, RunError> {
        let l = &self.learner;
        Ok(PretrainOptions {
            teachers: l.teachers.clone(),
            per_teacher: l.per_teacher,
            positions: l.positions,
            epochs: l.epochs,
            bp_batch: l.bp_batch.max(1),
            hidden: hidden_layers(&l.hidden)?,
            activation: l.activation.parse::<Activation>().map_err(RunError)?,
            output: l.output.parse::<Activation>().map_err(RunError)?,
            encoding: l.encoding.clone(),
            play: l.play.clone(),
            seed: self.seed,
        })
    }
}

/// Trains (or goes on with) the pool of `config` in `dir`, keeping the
/// config there as `config.toml`; a folder that holds part of a pool made
/// with other settings is refused.
pub fn run(
    config: &PretrainConfig,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<Pool, RunError> {
    run_summary(config, dir, progress).map(|(_, pool)| pool)
}

/// [`run`], with the run layer's summary of it.
pub fn run_summary(
    config: &PretrainConfig,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<(RunSummary, Pool), RunError> {
    let game = AnyGame::parse(&config.game).map_err(err)?;
    let options = config.options()?;
    let text = toml::to_string_pretty(config).map_err(err)?;
    let saved = std::fs::read_to_string(dir.join("config.toml")).ok();
    let started = crate::experiment::learn::is_run(dir) || dir.join(PARTIAL_FILE).is_file();
    if started && saved.as_deref() != Some(text.as_str()) {
        return Err(RunError(format!(
            "{} holds part of a pool made with other settings (see its config.toml); give another --out",
            dir.display()
        )));
    }
    with_board_game!(&game, g => pretrain_summary(g, &options, dir, &text, progress),
        Err(RunError(format!("pretraining needs a board game, not {}", game.spec()))))
}
