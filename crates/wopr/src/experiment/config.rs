//! The configuration of an evolution run (`wopr evolve CONFIG.toml`).
//!
//! Every section has defaults except the game, so a config names only what
//! differs. Unknown keys are errors. The papers' setups are in `configs/`.
//!
//! ```toml
//! game = "tictactoe"
//! seed = 1
//!
//! [net]            # what is evolved: a net, how it sees the game, how it plays
//! encoding = "planes"     # one of the game's encodings (`raw` by default)
//! hidden = [9]            # hidden layer sizes of a layered net
//! complete = 0            # > 0: the thesis's complete net with this many nodes instead
//! activation = "tanh"     # hidden units: sigmoid, tanh, relu, linear
//! output = "tanh"         # output units
//! outputs = "value"       # value (1 output) or policy (one per action)
//! mode = "greedy"         # how the net plays: greedy, policy, minimax2, alphabeta, softmax
//! ply = 1                 # search depth for alphabeta
//!
//! [genome]
//! kind = "real"           # real-valued weights, or "bits" (decoded to weights)
//! init = 0.5              # real: initial weights uniform in [-init, init]
//! bits = 10               # bits: bits per weight, range [lo, hi], Gray or binary,
//! lo = -64.0              #       levels > 0 spreads that many values (thesis: 21)
//! hi = 64.0
//! gray = false
//! levels = 0
//!
//! [algorithm]
//! kind = "ga"             # ga, one-plus-lambda, mu-lambda, mu-plus-lambda, cma-es
//! preset = "weaver"       # GA plans: midi-connect4, weaver, weaver-direct, thesis-binary,
//!                         # thesis-real, naveed; ES: handa-tictactoe, handa-reversi, blondie24
//! population = 100        # GA population
//! lambda = 9              # ES children (overrides the preset)
//! mu = 15                 # (mu,lambda) / (mu+lambda) parents
//! sigma = 0.05            # initial step size (ES, CMA-ES)
//! mutation_rate = 0.005   # weaver: per-bit rate
//! crossover_rate = 0.2    # naveed: crossover rate
//!
//! [fitness]
//! scheme = "fixed"        # fixed, round-robin, sharing, exhaustive, two-populations
//!                         # (two-populations: first and second movers, each meeting the
//!                         # other's champion once and each opponent games_per_seat times,
//!                         # scored by a logistic of the margin; Handa & Horiuchi)
//! opponents = ["level1"]  # fixed: player specs
//! games_per_seat = 1      # fixed: games per opponent and seat
//! points = "wins"         # fixed: wins (1/0.5/0), naveed (3/1/0), midi (+2/0/-2)
//! scoring = "per-match"   # round-robin: per-game (+2/-2) or per-match (1/0.5/0)
//! antigens = 0.25         # sharing: antigen fraction, sample fraction, points
//! sample = 0.33
//! share_points = 33.0
//! hall_of_fame = 0        # also play the last K champions (fixed and round-robin)
//! logistic = 0.0          # fixed: > 0 scores a game 1/(1+exp(-margin/logistic)) (Handa)
//! seat = 0                # fixed: play only this seat (Handa's first/second movers)
//!
//! [stop]
//! generations = 100
//! target = 0.0            # stop once the best fitness reaches this
//! stall = 0               # stop after this many generations without a better best (0: never)
//!
//! [yardsticks]            # the champion's results, every `every` generations
//! every = 10
//! against = ["random"]
//! games = 50
//! exhaustive = false      # tictactoe: also the thesis's exhaustive loss count
//!
//! checkpoint_every = 1    # generations between checkpoints
//! ```

use serde::{Deserialize, Serialize};

/// A whole run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolveConfig {
    /// A name for reports.
    #[serde(default)]
    pub name: Option<String>,
    /// The game spec.
    pub game: String,
    /// The run seed (the command line may override it).
    #[serde(default)]
    pub seed: u64,
    /// The net evolved.
    #[serde(default)]
    pub net: NetConfig,
    /// How weights are encoded.
    #[serde(default)]
    pub genome: GenomeConfig,
    /// The evolutionary algorithm.
    #[serde(default)]
    pub algorithm: AlgorithmConfig,
    /// How fitness is measured.
    #[serde(default)]
    pub fitness: FitnessConfig,
    /// When to stop.
    #[serde(default)]
    pub stop: StopConfig,
    /// Periodic measurements of the champion.
    #[serde(default)]
    pub yardsticks: Option<YardstickConfig>,
    /// Generations between checkpoints.
    #[serde(default = "one")]
    pub checkpoint_every: u64,
}

fn one() -> u64 {
    1
}

/// The net: architecture, encoding, play mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetConfig {
    /// Encoding name (`raw` if empty).
    pub encoding: String,
    /// Hidden layer sizes of a layered net.
    pub hidden: Vec<usize>,
    /// Nodes of a complete feed-forward net (0: use the layered net).
    pub complete: usize,
    /// Hidden activation.
    pub activation: String,
    /// Output activation.
    pub output: String,
    /// `value` or `policy`.
    pub outputs: String,
    /// The net player's mode (greedy, policy, minimax2, alphabeta, softmax);
    /// empty: greedy for value nets, policy for policy nets.
    pub mode: String,
    /// Search depth for `alphabeta`.
    pub ply: u32,
    /// Softmax temperature.
    pub temp: f32,
    /// How minimax2 reduces outputs (max, mean).
    pub reduce: String,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            encoding: "raw".into(),
            hidden: vec![10],
            complete: 0,
            activation: "tanh".into(),
            output: "tanh".into(),
            outputs: "value".into(),
            mode: String::new(),
            ply: 2,
            temp: 0.1,
            reduce: "max".into(),
        }
    }
}

/// The genome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GenomeConfig {
    /// `real` or `bits`.
    pub kind: String,
    /// Real genomes start uniform in `[-init, init]`.
    pub init: f32,
    /// Bits per weight.
    pub bits: u32,
    /// Smallest weight.
    pub lo: f32,
    /// Largest weight.
    pub hi: f32,
    /// Gray code instead of binary.
    pub gray: bool,
    /// Number of evenly spread values (0: all `2^bits`).
    pub levels: u64,
}

impl Default for GenomeConfig {
    fn default() -> Self {
        GenomeConfig {
            kind: "real".into(),
            init: 0.5,
            bits: 10,
            lo: -1.0,
            hi: 1.0,
            gray: false,
            levels: 0,
        }
    }
}

/// The evolutionary algorithm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AlgorithmConfig {
    /// ga, one-plus-lambda, mu-lambda, mu-plus-lambda, cma-es.
    pub kind: String,
    /// A paper's preset (see the module docs).
    pub preset: String,
    /// GA population size.
    pub population: usize,
    /// ES children.
    pub lambda: Option<usize>,
    /// ES parents.
    pub mu: Option<usize>,
    /// Initial step size.
    pub sigma: Option<f64>,
    /// Weaver's per-bit mutation rate.
    pub mutation_rate: Option<f64>,
    /// Naveed's crossover rate.
    pub crossover_rate: Option<f64>,
}

impl Default for AlgorithmConfig {
    fn default() -> Self {
        AlgorithmConfig {
            kind: "ga".into(),
            preset: "thesis-real".into(),
            population: 50,
            lambda: None,
            mu: None,
            sigma: None,
            mutation_rate: None,
            crossover_rate: None,
        }
    }
}

/// How fitness is measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FitnessConfig {
    /// fixed, round-robin, sharing, exhaustive, two-populations.
    pub scheme: String,
    /// Opponent specs (fixed).
    pub opponents: Vec<String>,
    /// Games per opponent and seat (fixed).
    pub games_per_seat: usize,
    /// wins, naveed, midi.
    pub points: String,
    /// per-game or per-match (round-robin).
    pub scoring: String,
    /// Antigen fraction (sharing).
    pub antigens: f64,
    /// Sample fraction (sharing).
    pub sample: f64,
    /// Points per antigen (sharing).
    pub share_points: f64,
    /// Past champions played as extra opponents.
    pub hall_of_fame: usize,
    /// Fixed: score each game by a logistic of the final margin with this
    /// scale instead of by points (Handa & Horiuchi); 0: points.
    pub logistic: f64,
    /// Fixed: play only this seat (0 first, 1 second; Handa's first- and
    /// second-mover populations); unset: both.
    pub seat: Option<usize>,
}

impl Default for FitnessConfig {
    fn default() -> Self {
        FitnessConfig {
            scheme: "fixed".into(),
            opponents: vec!["random".into()],
            games_per_seat: 1,
            points: "wins".into(),
            scoring: "per-match".into(),
            antigens: 0.25,
            sample: 0.33,
            share_points: 33.0,
            hall_of_fame: 0,
            logistic: 0.0,
            seat: None,
        }
    }
}

/// When to stop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StopConfig {
    /// Most generations.
    pub generations: u64,
    /// Stop once the best fitness of a generation reaches this.
    pub target: Option<f64>,
    /// Stop after this many generations without a better best (0: never).
    pub stall: u64,
}

impl Default for StopConfig {
    fn default() -> Self {
        StopConfig {
            generations: 100,
            target: None,
            stall: 0,
        }
    }
}

/// Periodic measurement of the champion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct YardstickConfig {
    /// Generations between measurements (the last generation is always
    /// measured).
    pub every: u64,
    /// Opponent specs.
    pub against: Vec<String>,
    /// Games per opponent (half from each seat).
    pub games: usize,
    /// Also count exhaustive losses (small games only).
    pub exhaustive: bool,
}

impl Default for YardstickConfig {
    fn default() -> Self {
        YardstickConfig {
            every: 10,
            against: vec!["random".into()],
            games: 50,
            exhaustive: false,
        }
    }
}
