//! `wopr pretrain`: train a pool of nets to imitate teachers (Naveed &
//! Cowling's pre-training; [`wopr::experiment::pretrain`]) and write it to a
//! folder that `[init] population = "pretrained:DIR"` starts a run from.

use std::path::PathBuf;
use std::time::Instant;

use wopr::experiment::pretrain::{pretrain, PretrainOptions};
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
    #[arg(long, default_value_t = 10)]
    per_teacher: usize,
    /// Positions in each teacher's dataset (distinct).
    #[arg(long, default_value_t = 2000)]
    positions: usize,
    /// Epochs per net.
    #[arg(long, default_value_t = 100)]
    epochs: usize,
    /// Examples per back-propagation step (RPROP is full batch).
    #[arg(long, default_value_t = 16)]
    bp_batch: usize,
    /// Units of a hidden layer; repeat for more (default: 58 and 27, the
    /// paper's 64-58-27-1); `--hidden 0` alone: no hidden layer (a linear
    /// net).
    #[arg(long)]
    hidden: Vec<usize>,
    /// Hidden activation.
    #[arg(long, default_value = "sigmoid")]
    activation: String,
    /// Output activation.
    #[arg(long, default_value = "linear")]
    output: String,
    /// Input encoding.
    #[arg(long, default_value = "raw")]
    encoding: String,
    /// Players of the recorded games, for every teacher (once for both
    /// seats, twice for two); by default see `--teachers`.
    #[arg(long = "play")]
    play: Vec<String>,
    /// Seed of the games, initial weights and example orders.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The folder to write (net files and pool.json).
    #[arg(long)]
    out: PathBuf,
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

/// Trains the pool and writes it.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let game = super::parse_game(&args.game)?;
    let options = PretrainOptions {
        teachers: args.teachers.clone(),
        per_teacher: args.per_teacher,
        positions: args.positions,
        epochs: args.epochs,
        bp_batch: args.bp_batch.max(1),
        hidden: hidden_layers(&args.hidden)?,
        activation: args
            .activation
            .parse::<Activation>()
            .map_err(anyhow::Error::msg)?,
        output: args
            .output
            .parse::<Activation>()
            .map_err(anyhow::Error::msg)?,
        encoding: args.encoding.clone(),
        play: args.play.clone(),
        seed: args.seed,
    };
    let start = Instant::now();
    let mut progress = |e: &wopr::experiment::pretrain::PoolEntry| {
        eprintln!(
            "{:>8.1} s  {}  {} ({}): loss {:.5} -> {:.5}",
            start.elapsed().as_secs_f64(),
            e.file,
            e.teacher,
            e.algorithm,
            e.initial_loss,
            e.loss
        );
    };
    let pool = with_board_game!(&game, g => pretrain(g, &options, &args.out, &mut progress)
        .map_err(anyhow::Error::msg)?,
        anyhow::bail!("pretraining needs a board game, not {}", game.spec()));
    println!(
        "pre-trained {} nets ({}, {} positions per teacher, {} epochs) in {:.1} s: {}/pool.json",
        pool.nets.len(),
        pool.architecture,
        pool.positions,
        pool.epochs,
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    println!(
        "start a run from it with [init] population = \"pretrained:{}\"",
        args.out.display()
    );
    Ok(())
}
