//! `wopr pretrain`: train a pool of nets to imitate teachers (Naveed &
//! Cowling's pre-training; [`wopr::experiment::pretrain`]) and write it to a
//! folder that `[init] population = "pretrained:DIR"` starts a run from.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use wopr::experiment::pretrain::{pretrain, PretrainOptions};

/// The list a pre-training run of an older wopr kept as it went.
const PARTIAL_FILE: &str = "pool.partial.json";
use wopr::nn::Activation;
use wopr::with_board_game;

/// Arguments of `wopr pretrain`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec (a board game, e.g. virus).
    #[arg(long)]
    game: String,
    /// Teacher oracles, separated by commas (virus: `ai:1,ai:2,…`; any
    /// `wopr dataset --oracle` spec). Teachers that are players of the game
    /// (`ai:K`) play the recorded games against the next teacher in the
    /// list, unless `--play` is given.
    #[arg(long, value_delimiter = ',', required = true)]
    teachers: Vec<String>,
    /// Nets per teacher; algorithms in turn irprop+ ×4, rprop ×3, bp ×3
    /// (the paper's 10).
    #[arg(long, default_value_t = ten())]
    per_teacher: usize,
    /// Positions in each teacher's dataset (distinct).
    #[arg(long, default_value_t = two_thousand())]
    positions: usize,
    /// Epochs per net.
    #[arg(long, default_value_t = hundred())]
    epochs: usize,
    /// Examples per back-propagation step (RPROP is full batch).
    #[arg(long, default_value_t = sixteen())]
    bp_batch: usize,
    /// Units of a hidden layer; repeat for more (default: 58 and 27, the
    /// paper's 64-58-27-1); `--hidden 0` alone: no hidden layer (a linear
    /// net).
    #[arg(long)]
    hidden: Vec<usize>,
    /// Hidden activation.
    #[arg(long, default_value_t = sigmoid())]
    activation: String,
    /// Output activation.
    #[arg(long, default_value_t = linear())]
    output: String,
    /// Input encoding.
    #[arg(long, default_value_t = raw())]
    encoding: String,
    /// Players of the recorded games, for every teacher (once for both
    /// seats, twice for two); by default see `--teachers`.
    #[arg(long = "play")]
    play: Vec<String>,
    /// Seed of the games, initial weights and example orders.
    #[arg(long, default_value_t = one())]
    seed: u64,
    /// The folder to write (net files and pool.json).
    #[arg(long, required_unless_present = "print_config")]
    out: Option<PathBuf>,
    /// Write the run's config (TOML, for `wopr run`) to stdout and exit.
    #[arg(long)]
    print_config: bool,
}

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
    #[serde(default = "one")]
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
    #[serde(default = "ten")]
    pub per_teacher: usize,
    /// Positions in each teacher's dataset.
    #[serde(default = "two_thousand")]
    pub positions: usize,
    /// Epochs per net.
    #[serde(default = "hundred")]
    pub epochs: usize,
    /// Examples per back-propagation step.
    #[serde(default = "sixteen")]
    pub bp_batch: usize,
    /// Hidden layer sizes (none: 58 and 27; `[0]`: a linear net).
    #[serde(default)]
    pub hidden: Vec<usize>,
    /// Hidden activation.
    #[serde(default = "sigmoid")]
    pub activation: String,
    /// Output activation.
    #[serde(default = "linear")]
    pub output: String,
    /// Input encoding.
    #[serde(default = "raw")]
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

// The defaults, shared by the flags and the config.
fn one() -> u64 {
    1
}
fn ten() -> usize {
    10
}
fn two_thousand() -> usize {
    2000
}
fn hundred() -> usize {
    100
}
fn sixteen() -> usize {
    16
}
fn sigmoid() -> String {
    "sigmoid".into()
}
fn linear() -> String {
    "linear".into()
}
fn raw() -> String {
    "raw".into()
}

impl Args {
    /// The config these flags make: `wopr run` of it is this command.
    pub fn config(&self) -> PretrainConfig {
        PretrainConfig {
            name: None,
            game: self.game.clone(),
            seed: self.seed,
            learner: PretrainLearner {
                kind: PretrainKind::Pretrain,
                teachers: self.teachers.clone(),
                per_teacher: self.per_teacher,
                positions: self.positions,
                epochs: self.epochs,
                bp_batch: self.bp_batch,
                hidden: self.hidden.clone(),
                activation: self.activation.clone(),
                output: self.output.clone(),
                encoding: self.encoding.clone(),
                play: self.play.clone(),
            },
        }
    }
}

/// The hidden layers `--hidden` asks for: none given, the paper's 58 and
/// 27; `0` alone, none (a linear net); else the sizes given, none zero.
fn hidden_layers(given: &[usize]) -> anyhow::Result<Vec<usize>> {
    match given {
        [] => Ok(vec![58, 27]),
        [0] => Ok(vec![]),
        sizes if sizes.contains(&0) => anyhow::bail!(
            "--hidden 0 means no hidden layer and stands alone; got {sizes:?}: give layer sizes of 1 or more, or 0 once"
        ),
        sizes => Ok(sizes.to_vec()),
    }
}

/// Trains the pool and writes it (or prints the config).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = args.config();
    if args.print_config {
        return super::print_config(&config);
    }
    let out = args.out.as_deref().expect("clap requires --out");
    run_config(&config, out)
}

/// Runs a pre-training config into `out`, keeping the config there as
/// `config.toml`; a run killed in that folder goes on from the nets it
/// finished (its checkpoint, `state.json`, lists them).
pub fn run_config(config: &PretrainConfig, out: &Path) -> anyhow::Result<()> {
    let game = super::parse_game(&config.game)?;
    let l = &config.learner;
    let options = PretrainOptions {
        teachers: l.teachers.clone(),
        per_teacher: l.per_teacher,
        positions: l.positions,
        epochs: l.epochs,
        bp_batch: l.bp_batch.max(1),
        hidden: hidden_layers(&l.hidden)?,
        activation: l
            .activation
            .parse::<Activation>()
            .map_err(anyhow::Error::msg)?,
        output: l.output.parse::<Activation>().map_err(anyhow::Error::msg)?,
        encoding: l.encoding.clone(),
        play: l.play.clone(),
        seed: config.seed,
    };
    let start = Instant::now();
    let text = toml::to_string_pretty(config)?;
    let saved = std::fs::read_to_string(out.join("config.toml")).ok();
    let started = wopr::experiment::learn::is_run(out) || out.join(PARTIAL_FILE).is_file();
    if started && saved.as_deref() != Some(text.as_str()) {
        anyhow::bail!(
            "{} holds part of a pool made with other settings (see its config.toml); give another --out",
            out.display()
        );
    }
    let mut bar = super::learn::Bar::new(false);
    let pool = with_board_game!(&game, g => pretrain(g, &options, out, &text, &mut bar)
        .map_err(anyhow::Error::msg)?,
        anyhow::bail!("pretraining needs a board game, not {}", game.spec()));
    println!(
        "pre-trained {} nets ({}, {} positions per teacher, {} epochs) in {:.1} s: {}/pool.json",
        pool.nets.len(),
        pool.architecture,
        pool.positions,
        pool.epochs,
        start.elapsed().as_secs_f64(),
        out.display()
    );
    println!(
        "start a run from it with [init] population = \"pretrained:{}\"",
        out.display()
    );
    Ok(())
}
