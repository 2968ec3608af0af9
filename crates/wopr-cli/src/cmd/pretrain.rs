//! `wopr pretrain`: train a pool of nets to imitate teachers (Naveed &
//! Cowling's pre-training; [`wopr::experiment::pretrain`]) and write it to a
//! folder that `[init] population = "pretrained:DIR"` starts a run from.

use std::path::PathBuf;

use wopr::experiment::learn::pretrain::defaults::{
    hundred, linear, one, raw, sigmoid, sixteen, ten, two_thousand,
};
use wopr::experiment::learn::pretrain::{PretrainConfig, PretrainKind, PretrainLearner};
use wopr::experiment::RunConfig;

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

/// Trains the pool and writes it (or prints the config).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = args.config();
    if args.print_config {
        return super::print_config(&config);
    }
    let out = args.out.as_deref().expect("clap requires --out");
    // A killed run in that folder goes on from the nets it finished.
    super::run::run_in(RunConfig::Pretrain(config), out, false)
}
