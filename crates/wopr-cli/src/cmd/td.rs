//! `wopr td`: learn a linear value net (an n-tuple network, a weighted
//! piece counter, …) by temporal-difference self-play
//! ([`wopr::train::td`]), measured against yardstick players as it learns,
//! checkpointed and resumable: a shortcut for `wopr run` of the config its
//! flags make ([`TdConfig`]; `--print-config` writes it). The run folder
//! is described in [`wopr::experiment::learn`]; running the same command
//! again resumes it, and a larger `--games` extends it.

use std::path::PathBuf;

use wopr::experiment::learn::td::{self, NetInit, TdConfig, TdKind, TdSettings, TdStop};
use wopr::experiment::learn::{self as layer, YardsticksConfig};
use wopr::experiment::RunConfig;

use super::OpeningArgs;

/// Arguments of `wopr td`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec (a board game, e.g. reversi:6x6, connect4:6x6, virus).
    #[arg(long)]
    game: String,
    /// Input encoding (e.g. ntuple2, ntuple4, raw): the net is linear over
    /// it.
    #[arg(long, default_value_t = td::ntuple2())]
    encoding: String,
    /// Output activation: tanh or linear.
    #[arg(long, default_value_t = td::tanh())]
    output: String,
    /// Games of self-play to learn from, in all (a resumed run continues
    /// to this count).
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Step size on every weight.
    #[arg(long, default_value_t = td::alpha())]
    alpha: f32,
    /// Trace decay (0: TD(0)).
    #[arg(long, default_value_t = 0.0)]
    lambda: f32,
    /// Chance of a random move at each position.
    #[arg(long, default_value_t = td::epsilon())]
    epsilon: f64,
    /// Anneal alpha to this value over --decay-games games (geometrically).
    #[arg(long)]
    alpha_final: Option<f32>,
    /// Anneal epsilon to this value over --decay-games games (linearly).
    #[arg(long)]
    epsilon_final: Option<f64>,
    /// Games over which alpha and epsilon reach their final values.
    #[arg(long, default_value_t = 0)]
    decay_games: u64,
    /// Random plies at the start of every learning game.
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// Draw each game's random plies uniformly from this many to
    /// --random-plies.
    #[arg(long)]
    random_plies_min: Option<usize>,
    /// Seed of the learning games (and of the yardstick games).
    #[arg(long, default_value_t = td::one())]
    seed: u64,
    /// Learn against these players, one per game in turn, from both seats,
    /// instead of by self-play (separated by commas).
    #[arg(long, value_delimiter = ',')]
    opponents: Vec<String>,
    /// Start learning games after these moves (in the game's notation;
    /// give it again for more lines: game i starts after the (i mod k)-th),
    /// then the random plies; absent: from the start position. (`--start`
    /// is where the yardstick games start.)
    #[arg(long = "learn-from")]
    starts: Vec<String>,
    /// What an exploratory move teaches: skip, learn, or learn-reset
    /// (learned from, the eligibility trace restarted).
    #[arg(long, default_value = "skip")]
    explore: String,
    /// Temporal coherence learning with this β (exponential transfer;
    /// 2.7 in Bagheri et al.); off when absent.
    #[arg(long)]
    tcl_beta: Option<f32>,
    /// Same-player targets with final adaptation (GBG's FARL): a position
    /// learns from its seat's next position, and both seats' last
    /// positions from the result.
    #[arg(long)]
    farl: bool,
    /// The eligibility trace's horizon cut: a position leaves the trace
    /// once its factor falls below this (GBG: 0.01 on Connect-4); absent:
    /// 10⁻⁶.
    #[arg(long)]
    trace_cut: Option<f32>,
    /// What a finished game is worth: result (+1/0/−1), margin:S (the
    /// score margin over S, e.g. margin:9 on 3x3 Dots-and-Boxes) or
    /// speed:N (a win after p plies worth 1 − p/2N, N the longest game,
    /// e.g. speed:36 on 6x6 Connect-4).
    #[arg(long, default_value = "result")]
    reward: String,
    /// The discount per ply (absent: 1, none): below 1, a win k plies
    /// away is worth about gamma^k, so faster wins are preferred.
    #[arg(long)]
    gamma: Option<f32>,
    /// Learn B games a round on every thread (RAYON_NUM_THREADS) and MPI
    /// rank, each from the weights the last round left, their changes
    /// added in game order: the result depends on the seed and B, never on
    /// the threads or ranks. B must divide --every and --games. Absent or
    /// 1: one game after another on one thread.
    #[arg(long)]
    batch: Option<u64>,
    /// Start from this net file's weights (a linear net over the encoding)
    /// instead of zeros.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Checkpoint, and play the yardsticks, every this many games.
    #[arg(long, default_value_t = wopr::experiment::learn::YardsticksConfig::default().every)]
    every: u64,
    /// Yardstick opponents, separated by commas (none: no yardsticks).
    #[arg(long, value_delimiter = ',')]
    against: Vec<String>,
    /// Games against each yardstick (half from each seat).
    #[arg(long, default_value_t = wopr::experiment::learn::YardsticksConfig::default().games)]
    eval_games: usize,
    /// Where yardstick games start.
    #[command(flatten)]
    openings: OpeningArgs,
    /// The run folder.
    #[arg(long, required_unless_present = "print_config")]
    out: Option<PathBuf>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Write the run's config (TOML, for `wopr run`) to stdout and exit.
    #[arg(long)]
    print_config: bool,
}

impl Args {
    /// The config these flags make: `wopr run` of it is this command.
    pub fn config(&self) -> TdConfig {
        TdConfig {
            name: None,
            game: self.game.clone(),
            seed: self.seed,
            learner: TdSettings {
                kind: TdKind::Td,
                encoding: self.encoding.clone(),
                output: self.output.clone(),
                alpha: self.alpha,
                lambda: self.lambda,
                epsilon: self.epsilon,
                alpha_final: self.alpha_final,
                epsilon_final: self.epsilon_final,
                decay_games: self.decay_games,
                random_plies: self.random_plies,
                random_plies_min: self.random_plies_min,
                opponents: self.opponents.clone(),
                starts: self.starts.clone(),
                explore: self.explore.clone(),
                tcl_beta: self.tcl_beta,
                farl: self.farl,
                trace_cut: self.trace_cut,
                reward: self.reward.clone(),
                gamma: self.gamma,
                batch: self.batch,
            },
            stop: TdStop { games: self.games },
            yardsticks: YardsticksConfig {
                every: self.every,
                against: self.against.clone(),
                games: self.eval_games,
                openings: self.openings.openings.clone(),
                start: self.openings.start.clone(),
                keep_nets: false,
            },
            init: self.init.clone().map(|net| NetInit { net }),
        }
    }
}

/// Learns, checkpoints and measures (or prints the config).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = args.config();
    if args.print_config {
        return super::print_config(&config);
    }
    let out = args.out.as_deref().expect("clap requires --out");
    if layer::is_run(out) || out.join("td.json").is_file() {
        // The same command again resumes; other settings are another run.
        let path = out.join("config.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            anyhow::anyhow!(
                "{} holds a run but no config.toml ({e}); give another --out",
                out.display()
            )
        })?;
        let mut saved: TdConfig = toml::from_str(&text)?;
        saved.stop = config.stop.clone();
        anyhow::ensure!(
            saved == config,
            "{} holds a run with other settings (see its config.toml); give another --out",
            out.display()
        );
    }
    super::run::run_in(RunConfig::Td(config), out, args.quiet)
}
