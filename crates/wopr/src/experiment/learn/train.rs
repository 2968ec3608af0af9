//! Supervised training as a run ([`crate::train`] for the training
//! itself): the config `wopr run` reads and `wopr train --print-config`
//! writes, and the [`Learner`] that trains its net an epoch at a time.
//!
//! ```toml
//! seed = 1
//!
//! [learner]
//! kind = "train"
//! data = "ttt.csv"        # x0…, y0…, (m0…); ttt.csv.json names its game
//! hidden = [25]           # or complete = 25 (the thesis's net)
//! algorithm = "irprop+"   # bp, rprop, rprop-, irprop+, irprop-
//! loss = "mse"            # softmax-ce, sigmoid-ce
//! activation = "sigmoid"  # hidden units
//! output = "linear"
//! batch = 0               # 0: full batch, 1: online, k: mini-batches
//! init_range = 0.5        # fresh weights in [-r, r]
//! # lr = 0.01, momentum = 0.0 (bp only); target_loss = 0.001
//!
//! [stop]
//! epochs = 1000
//!
//! [yardsticks]            # when the dataset names its game
//! every = 100             # epochs between checkpoints and yardsticks
//! against = ["random"]
//!
//! [init]
//! net = "FILE.json"       # start from these weights instead
//! ```
//!
//! A checkpoint falls on an epoch boundary and holds the weights, the
//! optimiser's memory and the errors so far ([`TrainState`]); the example
//! order is replayed from the seed, so a resumed run ends with the net an
//! uninterrupted one ends with, byte for byte.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::td::NetInit;
use super::{drive, LearnProgress, Learner, RunPlan, RunSummary};
use crate::experiment::error::{err, RunError};
use crate::experiment::yardsticks::{GameYardsticks, NoYardsticks, Yardsticks, YardsticksConfig};
use crate::game::encode::Encodable;
use crate::game::oracle::OracleKind;
use crate::nn::{Activation, AnyNet, Architecture, NetFile, Network};
use crate::train::oracle::DatasetInfo;
use crate::train::{Algorithm, BackpropConfig, Dataset, Loss, TrainOptions, TrainState, Trainer};
use crate::{with_board_game, AnyGame, Game};

/// A training run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// A name for reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Seed of the initial weights, the example order and the yardsticks.
    #[serde(default = "super::td::one")]
    pub seed: u64,
    /// What is trained and how.
    pub learner: TrainSettings,
    /// When the run ends.
    pub stop: TrainStop,
    /// Checkpoints and the yardsticks measured at each (`every` counts
    /// epochs).
    #[serde(default = "epoch_yardsticks")]
    pub yardsticks: YardsticksConfig,
    /// Where the weights start (instead of `init_range`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<NetInit>,
}

/// `[learner]` of a training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainSettings {
    /// Always `"train"`.
    pub kind: TrainKind,
    /// The training set (CSV with columns x0…, y0…, optionally m0…).
    pub data: PathBuf,
    /// Units of each hidden layer (none: inputs feed the outputs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<usize>,
    /// The thesis's complete feed-forward net with this many non-input
    /// nodes (outputs included) instead of layers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete: Option<usize>,
    /// bp, rprop, rprop-, irprop+, irprop-.
    #[serde(default = "irprop_plus")]
    pub algorithm: String,
    /// mse, softmax-ce, sigmoid-ce.
    #[serde(default = "mse")]
    pub loss: String,
    /// Activation of the hidden units.
    #[serde(default = "sigmoid")]
    pub activation: String,
    /// Activation of the outputs.
    #[serde(default = "linear")]
    pub output: String,
    /// Back-propagation's learning rate (bp only; default 0.01).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lr: Option<f64>,
    /// Back-propagation's momentum (bp only; default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub momentum: Option<f64>,
    /// Examples per step: 0 = the whole set, 1 = online.
    #[serde(default)]
    pub batch: usize,
    /// Fresh weights are drawn from [-r, r].
    #[serde(default = "half")]
    pub init_range: f32,
    /// Stop once the mean error is at most this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_loss: Option<f64>,
}

/// The one kind of this table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrainKind {
    /// Supervised training on a data set.
    Train,
}

/// `[stop]` of a training run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainStop {
    /// Most epochs in all (a resumed run continues to this count).
    pub epochs: u64,
}

fn irprop_plus() -> String {
    "irprop+".into()
}
fn mse() -> String {
    "mse".into()
}
fn sigmoid() -> String {
    "sigmoid".into()
}
fn linear() -> String {
    "linear".into()
}
fn half() -> f32 {
    0.5
}
fn epoch_yardsticks() -> YardsticksConfig {
    YardsticksConfig {
        every: 100,
        ..YardsticksConfig::default()
    }
}

/// A training config made ready: the data read and checked against its
/// description, the net built (fresh weights not yet drawn).
pub struct Prepared {
    /// The net to train.
    pub net: AnyNet,
    /// Its layout.
    pub architecture: Architecture,
    /// The examples.
    pub data: Dataset,
    /// The algorithm with its settings.
    pub algorithm: Algorithm,
    /// How to train (`epochs` is the config's stop).
    pub options: TrainOptions,
    /// The dataset's description, when it has one: the net's game,
    /// encoding and player mode.
    pub info: Option<DatasetInfo>,
}

impl Prepared {
    /// `net` as a file: with the dataset's game, encoding and player mode
    /// when it names them, so it plays through `net:PATH`.
    pub fn net_file(&self, net: &AnyNet) -> NetFile {
        let mut file = NetFile::new(net.clone());
        if let Some(info) = &self.info {
            file.game = Some(info.game.clone());
            file.encoding = Some(info.encoding.clone());
            file.player = Some(info.kind.player_mode().to_string());
        }
        file
    }
}

/// Reads and checks everything a training config names.
pub fn prepare(config: &TrainConfig) -> Result<Prepared, RunError> {
    let l = &config.learner;
    let algorithm = algorithm(l)?;
    let loss: Loss = l.loss.parse().map_err(err)?;
    let hidden: Activation = l.activation.parse().map_err(err)?;
    let output: Activation = l.output.parse().map_err(err)?;
    if let Some(t) = l.target_loss {
        if !(t.is_finite() && t >= 0.0) {
            return Err(RunError(format!(
                "target_loss must be a number at least 0, not {t}"
            )));
        }
    }
    if !(l.init_range.is_finite() && l.init_range >= 0.0) {
        return Err(RunError("init_range must be a number at least 0".into()));
    }
    let data = Dataset::read_csv(&l.data).map_err(err)?;
    if data.is_empty() {
        return Err(RunError(format!("{} has no examples", l.data.display())));
    }
    let sidecar = DatasetInfo::sidecar_path(&l.data);
    let info = if sidecar.exists() {
        let info = DatasetInfo::load(&sidecar).map_err(err)?;
        check_info(&info, &data, &sidecar)?;
        Some(info)
    } else {
        None
    };
    check_loss(loss, output, &data)?;
    let (ni, no) = (data.num_inputs(), data.num_outputs());
    let architecture = match l.complete {
        Some(nodes) if nodes < no => {
            return Err(RunError(format!(
                "complete = {nodes}: a complete net needs at least as many nodes as outputs ({no})"
            )))
        }
        Some(nodes) => Architecture::Complete {
            inputs: ni,
            nodes,
            outputs: no,
        },
        None => {
            if let Some(i) = l.hidden.iter().position(|&h| h == 0) {
                return Err(RunError(format!(
                    "hidden layer {} (--hidden) has 0 units; a layer needs units",
                    i + 1
                )));
            }
            let mut layers = vec![ni];
            layers.extend(&l.hidden);
            layers.push(no);
            Architecture::Mlp { layers }
        }
    };
    let activations = match &architecture {
        Architecture::Complete { .. } => vec![hidden, output],
        Architecture::Mlp { layers } => {
            let mut a = vec![hidden; layers.len() - 2];
            a.push(output);
            a
        }
    };
    let mut net = AnyNet::new(&architecture, &activations).map_err(err)?;
    let mut init_range = Some(l.init_range);
    if let Some(init) = &config.init {
        let file = NetFile::load(&init.net).map_err(err)?;
        if file.net.architecture() != net.architecture()
            || file.net.activations() != net.activations()
        {
            return Err(RunError(format!(
                "init.net {} is a {} net; this config trains a {}",
                init.net.display(),
                file.net.architecture(),
                net.architecture()
            )));
        }
        net = file.net;
        init_range = None;
    }
    let options = TrainOptions {
        loss,
        epochs: usize::try_from(config.stop.epochs).map_err(err)?,
        target_loss: l.target_loss,
        batch_size: l.batch,
        seed: config.seed,
        init_range,
        shuffle: true,
    };
    Ok(Prepared {
        net,
        architecture,
        data,
        algorithm,
        options,
        info,
    })
}

/// The algorithm with the back-propagation settings applied.
fn algorithm(l: &TrainSettings) -> Result<Algorithm, RunError> {
    let mut algorithm: Algorithm = l.algorithm.parse().map_err(err)?;
    match &mut algorithm {
        Algorithm::Backprop(c) => {
            let d = BackpropConfig::default();
            c.learning_rate = l.lr.unwrap_or(d.learning_rate);
            c.momentum = l.momentum.unwrap_or(d.momentum);
            if !(c.learning_rate.is_finite() && c.learning_rate > 0.0) {
                return Err(RunError("lr must be a positive number".into()));
            }
            if !(c.momentum.is_finite() && (0.0..1.0).contains(&c.momentum)) {
                return Err(RunError("momentum must be in [0, 1)".into()));
            }
        }
        Algorithm::Rprop(_) if l.lr.is_some() || l.momentum.is_some() => {
            return Err(RunError(format!(
                "lr and momentum (--lr, --momentum) apply to algorithm bp only; {} adapts its own step sizes",
                algorithm.name()
            )))
        }
        Algorithm::Rprop(_) => {}
    }
    Ok(algorithm)
}

/// Checks the dataset against its description.
fn check_info(info: &DatasetInfo, data: &Dataset, path: &Path) -> Result<(), RunError> {
    let at = |e: String| RunError(format!("{}: {e}", path.display()));
    let game = AnyGame::parse(&info.game).map_err(|e| at(e.to_string()))?;
    let (inputs, actions) = with_board_game!(&game, g => {
        let enc = g.encoding(&info.encoding).map_err(|e| at(e.to_string()))?;
        (enc.size(), g.num_actions())
    }, return Err(at(format!("{} is not a board game", info.game))));
    if data.num_inputs() != inputs {
        return Err(at(format!(
            "encoding {} of {} has {inputs} inputs but the CSV has {}",
            info.encoding,
            info.game,
            data.num_inputs()
        )));
    }
    let want = match info.kind {
        OracleKind::Policy => actions,
        OracleKind::Value => 1,
    };
    if data.num_outputs() != want {
        return Err(at(format!(
            "a {} dataset for {} has {want} targets but the CSV has {}",
            info.kind,
            info.game,
            data.num_outputs()
        )));
    }
    Ok(())
}

/// Rejects losses that do not fit the outputs or the targets.
fn check_loss(loss: Loss, output: Activation, data: &Dataset) -> Result<(), RunError> {
    if loss == Loss::Mse {
        return Ok(());
    }
    if output != Activation::Linear {
        return Err(RunError(format!(
            "loss {} reads the outputs as logits: use output = \"linear\" (--output linear), not {output}",
            loss.name()
        )));
    }
    if loss == Loss::SoftmaxCrossEntropy && data.num_outputs() < 2 {
        return Err(RunError(
            "loss softmax-ce needs at least two outputs; this dataset has one target".into(),
        ));
    }
    let (ok, what): (fn(f32) -> bool, &str) = match loss {
        Loss::SigmoidCrossEntropy => (|t| (0.0..=1.0).contains(&t), "in [0, 1]"),
        _ => (|t| t >= 0.0, "of at least 0"),
    };
    for i in 0..data.len() {
        let m = data.mask(i);
        let counted = data
            .target(i)
            .iter()
            .enumerate()
            .filter(|&(j, _)| m.is_none_or(|m| m[j]));
        if let Some((_, &t)) = counted.into_iter().find(|&(_, &t)| !ok(t)) {
            return Err(RunError(format!(
                "loss {} needs targets {what}; the dataset has {t}",
                loss.name()
            )));
        }
    }
    Ok(())
}

/// A trainer with its net and what it needs to write the net.
struct TrainRun<'d> {
    trainer: Trainer<'d>,
    net: AnyNet,
    prepared: &'d Prepared,
    /// Whether the target loss has been reached.
    reached: bool,
}

impl TrainRun<'_> {
    /// Measures the current epoch; a row if it was not measured before.
    fn measure(&mut self, rows: &mut Vec<(u64, String)>) -> Result<(), RunError> {
        let known = self.trainer.state().losses.len();
        let stats = self.trainer.measure(&self.net).map_err(err)?;
        if self.trainer.state().losses.len() > known {
            rows.push((stats.epoch as u64, format!("{}", stats.loss)));
        }
        let target = self.prepared.options.target_loss;
        self.reached = target.is_some_and(|t| stats.loss <= t);
        Ok(())
    }
}

impl Learner for TrainRun<'_> {
    fn unit(&self) -> &'static str {
        "epochs"
    }

    fn done(&self) -> u64 {
        self.trainer.epoch() as u64
    }

    fn log_header(&self) -> String {
        "epochs,loss".into()
    }

    fn advance(
        &mut self,
        until: u64,
        tick: &mut dyn FnMut(u64),
    ) -> Result<Vec<(u64, String)>, RunError> {
        let mut rows = Vec::new();
        self.measure(&mut rows)?;
        while self.done() < until && !self.reached {
            self.trainer.run_epoch(&mut self.net).map_err(err)?;
            self.measure(&mut rows)?;
            tick(self.done());
        }
        Ok(rows)
    }

    fn finished(&self) -> bool {
        self.reached
    }

    fn net_file(&self) -> Result<NetFile, RunError> {
        Ok(self.prepared.net_file(&self.net))
    }

    fn state(&self) -> Result<serde_json::Value, RunError> {
        serde_json::to_value(self.trainer.state()).map_err(err)
    }

    fn restore(&mut self, state: serde_json::Value, net: &NetFile) -> Result<(), RunError> {
        let state: TrainState = serde_json::from_value(state)
            .map_err(|e| RunError(format!("a training checkpoint is unreadable: {e}")))?;
        if net.net.num_params() != self.net.num_params() {
            return Err(RunError(
                "the checkpoint's net is not the config's (another architecture)".into(),
            ));
        }
        self.net = net.net.clone();
        self.trainer = Trainer::resume(
            &self.net,
            &self.prepared.data,
            &self.prepared.options,
            state,
        )
        .map_err(err)?;
        let mut none = Vec::new();
        self.measure(&mut none)
    }
}

/// Runs (or resumes, when `dir` holds its checkpoint) a training run.
pub fn run(
    config: &TrainConfig,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<RunSummary, RunError> {
    let prepared = prepare(config)?;
    let mut net = prepared.net.clone();
    let trainer = Trainer::new(
        &mut net,
        &prepared.data,
        &prepared.algorithm,
        &prepared.options,
    )
    .map_err(err)?;
    let mut run = TrainRun {
        trainer,
        net,
        prepared: &prepared,
        reached: false,
    };
    let text = toml::to_string_pretty(config).map_err(err)?;
    let plan = RunPlan {
        kind: "train",
        dir,
        config: &text,
        stop: config.stop.epochs,
        every: config.yardsticks.every,
        measure_every: config.yardsticks.every,
        keep_nets: config.yardsticks.keep_nets,
    };
    let game = match &prepared.info {
        Some(info) => Some(AnyGame::parse(&info.game).map_err(err)?),
        None if config.yardsticks.against.is_empty() => None,
        None => {
            return Err(RunError(format!(
                "yardsticks need the net's game: {} has no description beside it ({})",
                config.learner.data.display(),
                DatasetInfo::sidecar_path(&config.learner.data).display()
            )))
        }
    };
    match game {
        Some(game) => with_board_game!(&game, g => {
            let y = GameYardsticks::new(g, &config.yardsticks, config.seed)?;
            drive(&mut run, &plan, &y as &dyn Yardsticks, progress)
        }, drive(&mut run, &plan, &NoYardsticks, progress)),
        None => drive(&mut run, &plan, &NoYardsticks, progress),
    }
}
