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
//! layout = "by-source"    # weight order along the genome: by-source, or per-node (Weaver)
//!
//! [algorithm]
//! kind = "ga"             # ga, one-plus-lambda, mu-lambda, mu-plus-lambda, cma-es
//! preset = "weaver"       # GA plans: midi-connect4, weaver, weaver-direct, thesis-binary,
//!                         # thesis-real, thesis-real-blend, naveed; ES: handa-tictactoe, handa-reversi, blondie24
//! population = 100        # GA population
//! lambda = 9              # ES children (overrides the preset)
//! mu = 15                 # (mu,lambda) / (mu+lambda) parents
//! sigma = 0.05            # initial step size (ES, CMA-ES)
//! mutation_rate = 0.005   # weaver: per-bit rate
//! prune_rate = 0.005      # one-plus-lambda: pruning probability per weight (0: none)
//! crossover_rate = 0.2    # naveed: crossover rate
//! parents = "paired"      # naveed: "paired" (the top N/3 each used twice, shuffled
//!                         # pairs; the default) or "uniform" (drawn with replacement)
//!
//! [init]
//! population = "random"   # or "pretrained:DIR": the first population from the net
//!                         # files of DIR (`wopr pretrain`; see `experiment::pretrain`)
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
//! programs = "logistic"   # two-populations: games against the opponents (programs)
//!                         # scored by the logistic, or by the raw margin ("margin": Handa's
//!                         # F = f(d_e) + sum d(j) as printed, losses negative)
//! seat = 0                # fixed: play only this seat (Handa's first/second movers)
//! openings = "plies=4"    # games start from K random plies (or a file of move lists)
//! common_seeds = false    # fixed: every individual's games share random streams
//! champion = "best"       # "best": fixed/exhaustive keep the run's best-scoring member;
//!                         # "latest": always the latest generation's best (noisy fitness)
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
//! openings = "plies=4"    # yardstick games start from openings too
//! population = false      # also every member: rows mean:SPEC and best:SPEC (Weaver)
//!
//! checkpoint_every = 1    # generations between checkpoints
//! ```

use serde::{Deserialize, Serialize};

use crate::nn::Activation;

/// A whole run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolveConfig {
    /// `[learner] kind = "evolve"`, which may be left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learner: Option<super::learner::EvolveLearner>,
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
    /// Where the first population comes from.
    #[serde(default, skip_serializing_if = "InitConfig::is_default")]
    pub init: InitConfig,
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
    pub activation: Activation,
    /// Output activation.
    pub output: Activation,
    /// One value output, or one output per action.
    pub outputs: Outputs,
    /// The net player's mode (greedy, policy, minimax2, alphabeta, softmax);
    /// empty: greedy for value nets, policy for policy nets.
    pub mode: String,
    /// Search depth for `alphabeta`.
    pub ply: u32,
    /// Softmax temperature.
    pub temp: f32,
    /// How minimax2 reduces outputs (max, mean).
    pub reduce: String,
    /// Who scores finished positions: `rules` (a win above every net value,
    /// a loss below, a draw neutral) or `net` (win detection left to the
    /// net). See `players::net`.
    pub finished: FinishedBy,
    /// How a genome's bias genes enter their units: `add` (a bias, the sum
    /// is `w·x + b`) or `subtract` (a threshold, `w·x - θ`: the unit fires
    /// when its weighted input exceeds θ). The same genes, a sign apart;
    /// it matters when genes are confined to a range such as
    /// MIDI-Connect4's [0.5, 2.0]. `none`: no biases at all (their genes
    /// are ignored and the net's biases stay 0), as the WOPR thesis's
    /// complete nets have it.
    pub bias: BiasSign,
}

/// Who scores finished positions for a net player (`[net] finished`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FinishedBy {
    /// The game's rules.
    #[default]
    Rules,
    /// The net itself.
    Net,
}

/// How bias genes enter their units (`[net] bias`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BiasSign {
    /// Added: `w·x + b`.
    #[default]
    Add,
    /// Subtracted, as a threshold: `w·x - θ`.
    Subtract,
    /// No bias: `w·x` (the genes are carried but unused).
    None,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            encoding: "raw".into(),
            hidden: vec![10],
            complete: 0,
            activation: Activation::Tanh,
            output: Activation::Tanh,
            outputs: Outputs::Value,
            mode: String::new(),
            ply: 2,
            temp: 0.1,
            reduce: "max".into(),
            finished: FinishedBy::Rules,
            bias: BiasSign::Add,
        }
    }
}

/// The genome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GenomeConfig {
    /// Real-valued weights or bit strings.
    pub kind: GenomeKind,
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
    /// The order of the weights along the genome (what one-point crossover
    /// keeps together).
    pub layout: Layout,
}

/// The order of a net's weights along a genome (`[genome] layout`).
///
/// One-point crossover cuts the genome once, so the layout decides which
/// weights travel together from a parent to a child.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// The net's own parameter order: layer by layer, each layer's weights
    /// grouped by source unit (a source's outgoing weights together), then
    /// the layer's biases.
    #[default]
    BySource,
    /// Weaver & Bossomaier §3.3: "every weight (and threshold) for each node
    /// in turn": each unit's incoming weights followed by its bias, unit by
    /// unit, layer by layer.
    PerNode,
}

impl Default for GenomeConfig {
    fn default() -> Self {
        GenomeConfig {
            kind: GenomeKind::Real,
            init: 0.5,
            bits: 10,
            lo: -1.0,
            hi: 1.0,
            gray: false,
            levels: 0,
            layout: Layout::BySource,
        }
    }
}

/// The evolutionary algorithm.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AlgorithmConfig {
    /// The algorithm.
    pub kind: AlgorithmKind,
    /// A paper's preset (see the module docs); unset: the algorithm's
    /// default ([`Preset::default_for`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
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
    /// (1+λ)-ES: probability that a child's unpruned weight is pruned
    /// (overrides the preset's 0.005; 0 turns pruning off, the paper's
    /// baseline).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prune_rate: Option<f64>,
    /// Naveed's crossover rate.
    pub crossover_rate: Option<f64>,
    /// Naveed's parents: paired (default) or drawn uniformly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parents: Option<Parents>,
}

/// How the `naveed` preset picks parents from the top N/3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Parents {
    /// Each of the top N/3 used twice, in shuffled pairs (the paper's
    /// "paired to reproduce 2N/3").
    Paired,
    /// Each parent drawn uniformly from the top N/3, with replacement.
    Uniform,
}

/// Where the first population comes from (`[init]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InitConfig {
    /// `random` (weights uniform in `[-genome.init, genome.init]`) or
    /// `pretrained:DIR` (net files written by `wopr pretrain`).
    pub population: String,
}

impl Default for InitConfig {
    fn default() -> Self {
        InitConfig {
            population: "random".into(),
        }
    }
}

impl InitConfig {
    fn is_default(&self) -> bool {
        *self == InitConfig::default()
    }

    /// The folder of a `pretrained:DIR` population; `None` for `random`.
    /// An error for anything else.
    pub fn pretrained(&self) -> Result<Option<&str>, String> {
        match self.population.as_str() {
            "random" => Ok(None),
            p => match p.strip_prefix("pretrained:") {
                Some(dir) if !dir.is_empty() => Ok(Some(dir)),
                _ => Err(format!(
                    "init.population = \"{p}\": accepted \"random\" or \"pretrained:DIR\""
                )),
            },
        }
    }
}

impl Default for AlgorithmConfig {
    fn default() -> Self {
        AlgorithmConfig {
            kind: AlgorithmKind::Ga,
            preset: None,
            population: 50,
            lambda: None,
            mu: None,
            sigma: None,
            mutation_rate: None,
            prune_rate: None,
            crossover_rate: None,
            parents: None,
        }
    }
}

/// How fitness is measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FitnessConfig {
    /// The fitness scheme.
    pub scheme: Scheme,
    /// Opponent specs (fixed).
    pub opponents: Vec<String>,
    /// Games per opponent and seat (fixed).
    pub games_per_seat: usize,
    /// Points per game result (fixed opponents).
    pub points: PointsKind,
    /// Round-robin scoring.
    pub scoring: Scoring,
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
    /// Two populations: how games against the `opponents` (programs, not
    /// evolved nets) are scored. The game against the other population's
    /// champion is always scored by the logistic.
    #[serde(skip_serializing_if = "ProgramScore::is_logistic")]
    pub programs: ProgramScore,
    /// Where fitness games start: `plies=K` random plies or a file of move
    /// lists (see `eval::openings`); each pair of games with seats swapped
    /// shares one opening, and every individual meets the same openings.
    /// Unset: the start position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// Fixed opponents: every individual's games use the same random streams
    /// (common random numbers), so fitness differences come from the
    /// individuals. Unset: each individual has its own streams.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub common_seeds: bool,
    /// Which member is the run's champion (`champion.json`, the yardsticks'
    /// player).
    #[serde(skip_serializing_if = "ChampionRule::is_best")]
    pub champion: ChampionRule,
}

/// Which member a run keeps as its champion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChampionRule {
    /// For absolute fitness (fixed opponents, the exhaustive count): the
    /// best-scoring member of the whole run; for the relative schemes, the
    /// latest generation's best. Right when a fitness is exact or barely
    /// noisy.
    #[default]
    Best,
    /// Always the latest generation's best member. Right when fitness is a
    /// sample (openings, stochastic opponents, few games): the run-long
    /// maximum of noisy scores favours an early lucky member over the
    /// population that has since moved on.
    Latest,
}

impl ChampionRule {
    fn is_best(&self) -> bool {
        *self == ChampionRule::Best
    }
}

impl Default for FitnessConfig {
    fn default() -> Self {
        FitnessConfig {
            scheme: Scheme::Fixed,
            opponents: vec!["random".into()],
            games_per_seat: 1,
            points: PointsKind::Wins,
            scoring: Scoring::PerMatch,
            antigens: 0.25,
            sample: 0.33,
            share_points: 33.0,
            hall_of_fame: 0,
            logistic: 0.0,
            seat: None,
            programs: ProgramScore::Logistic,
            openings: None,
            common_seeds: false,
            champion: ChampionRule::Best,
        }
    }
}

/// How the two-populations scheme scores a game against a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProgramScore {
    /// `1 / (1 + exp(−margin / logistic))`, like the game against the other
    /// population's champion: in (0, 1), never negative (our reading).
    #[default]
    Logistic,
    /// The raw final margin (discs, or ±1 for a game without a score), as
    /// Handa & Horiuchi print their fitness: `F = f(d_e) + Σ d(j)`, so losses
    /// count negative and the nine program games outweigh the one logistic.
    Margin,
}

impl ProgramScore {
    fn is_logistic(&self) -> bool {
        *self == ProgramScore::Logistic
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
    /// Where yardstick games start (as `fitness.openings`); unset: the start
    /// position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// Also measure every member of the population (Weaver & Bossomaier
    /// §4's population snapshots): each plays `games` games against each
    /// opponent, and the rows `mean:SPEC` (all members' games together) and
    /// `best:SPEC` (the member with the most wins) are added.
    pub population: bool,
}

impl Default for YardstickConfig {
    fn default() -> Self {
        YardstickConfig {
            every: 10,
            against: vec!["random".into()],
            games: 50,
            exhaustive: false,
            openings: None,
            population: false,
        }
    }
}

/// A net's outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outputs {
    /// One output: the value of the position for the player to move.
    Value,
    /// One output per action: a move ranking.
    Policy,
}

/// How weights are encoded in a genome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GenomeKind {
    /// One real gene per weight.
    Real,
    /// A bit string decoded into weights (GAs only).
    Bits,
}

/// The evolutionary algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AlgorithmKind {
    /// A generational GA driven by a [`Preset`]'s plan.
    Ga,
    /// The (1+λ)-ES with the 1/5 rule (Handa & Horiuchi).
    OnePlusLambda,
    /// (μ,λ) evolution with self-adaptive step sizes.
    MuLambda,
    /// (μ+λ) evolution with self-adaptive step sizes.
    MuPlusLambda,
    /// Hansen's CMA-ES.
    CmaEs,
}

impl AlgorithmKind {
    /// The name in a config.
    pub fn name(self) -> &'static str {
        match self {
            AlgorithmKind::Ga => "ga",
            AlgorithmKind::OnePlusLambda => "one-plus-lambda",
            AlgorithmKind::MuLambda => "mu-lambda",
            AlgorithmKind::MuPlusLambda => "mu-plus-lambda",
            AlgorithmKind::CmaEs => "cma-es",
        }
    }
}

/// A paper's settings for an algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// GA: MIDI-Connect4's plan.
    MidiConnect4,
    /// GA: Weaver & Bossomaier's coevolution plan.
    Weaver,
    /// GA: Weaver & Bossomaier's plan for direct evolution.
    WeaverDirect,
    /// GA: the thesis's binary GA.
    ThesisBinary,
    /// GA: the thesis's real-valued GA (our Laplace crossover).
    ThesisReal,
    /// GA: the thesis's real-valued GA with its LX as it describes it, a
    /// uniform blend between the parents.
    ThesisRealBlend,
    /// GA: Naveed & Cowling's plan.
    Naveed,
    /// (1+λ)-ES: Handa & Horiuchi's Tic-Tac-Toe settings.
    HandaTictactoe,
    /// (1+λ)-ES: Handa & Horiuchi's Reversi settings.
    HandaReversi,
    /// (μ,λ)/(μ+λ): Blondie24's self-adaptive settings.
    Blondie24,
}

impl Preset {
    /// The presets `kind` accepts.
    pub fn accepted(kind: AlgorithmKind) -> &'static [Preset] {
        use Preset::*;
        match kind {
            AlgorithmKind::Ga => &[
                MidiConnect4,
                Weaver,
                WeaverDirect,
                ThesisBinary,
                ThesisReal,
                ThesisRealBlend,
                Naveed,
            ],
            AlgorithmKind::OnePlusLambda => &[HandaTictactoe, HandaReversi],
            AlgorithmKind::MuLambda | AlgorithmKind::MuPlusLambda => &[Blondie24],
            AlgorithmKind::CmaEs => &[],
        }
    }

    /// The preset used when a config names none: the first one `kind`
    /// accepts (`thesis-real` is the GA's), none for CMA-ES.
    pub fn default_for(kind: AlgorithmKind) -> Option<Preset> {
        match kind {
            AlgorithmKind::Ga => Some(Preset::ThesisReal),
            other => Preset::accepted(other).first().copied(),
        }
    }

    /// The name in a config.
    pub fn name(self) -> &'static str {
        match self {
            Preset::MidiConnect4 => "midi-connect4",
            Preset::Weaver => "weaver",
            Preset::WeaverDirect => "weaver-direct",
            Preset::ThesisBinary => "thesis-binary",
            Preset::ThesisReal => "thesis-real",
            Preset::ThesisRealBlend => "thesis-real-blend",
            Preset::Naveed => "naveed",
            Preset::HandaTictactoe => "handa-tictactoe",
            Preset::HandaReversi => "handa-reversi",
            Preset::Blondie24 => "blondie24",
        }
    }
}

/// How fitness is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// Games against fixed opponents (player specs).
    Fixed,
    /// Every individual against every other.
    RoundRobin,
    /// Antibody/antigen coevolution with implicit fitness sharing.
    Sharing,
    /// The thesis's exhaustive loss count (Tic-Tac-Toe).
    Exhaustive,
    /// Two populations (first and second movers), Handa & Horiuchi.
    TwoPopulations,
}

impl Scheme {
    /// Whether fitness is absolute (comparable across generations): true for
    /// fixed opponents and the exhaustive count, false for the schemes that
    /// score individuals against the evolving population.
    pub fn absolute(self) -> bool {
        matches!(self, Scheme::Fixed | Scheme::Exhaustive)
    }

    /// The name in a config.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Fixed => "fixed",
            Scheme::RoundRobin => "round-robin",
            Scheme::Sharing => "sharing",
            Scheme::Exhaustive => "exhaustive",
            Scheme::TwoPopulations => "two-populations",
        }
    }
}

/// Points per game result against fixed opponents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PointsKind {
    /// 1 / 0.5 / 0.
    Wins,
    /// Naveed & Cowling's 3 / 1 / 0.
    Naveed,
    /// MIDI-Connect4's +2 / 0 / −2.
    Midi,
}

/// Round-robin scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// +2 to the winner and −2 to the loser of every game (MIDI-Connect4).
    PerGame,
    /// 1 / 0.5 / 0 per match of two games.
    PerMatch,
}

/// The most memory a run's evolution state may need, in bytes (2 GiB).
pub const MEMORY_BUDGET: u64 = 2 << 30;

/// The largest checkpoint a run may write every generation, in bytes
/// (256 MiB).
pub const CHECKPOINT_BUDGET: u64 = 256 << 20;

/// What a run's evolution state costs, estimated from the config and the
/// number of weights of its net.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// Bytes of memory for the genomes and the algorithm's state.
    pub memory: u64,
    /// Bytes of one checkpoint (JSON: about 12 bytes per `f32`, 22 per
    /// `f64`, 8 per word of a bit string).
    pub checkpoint: u64,
}

/// Formats a byte count for errors.
fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / (1u64 << 20) as f64)
}

impl EvolveConfig {
    /// Checks every parameter's range and the combinations that make sense,
    /// before anything is built; the error names the key, the value and what
    /// is accepted. (Names of games, players and encodings are checked when
    /// the run is set up, against the game.)
    pub fn check(&self) -> Result<(), String> {
        fn need(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
            if ok {
                Ok(())
            } else {
                Err(what())
            }
        }
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if let Some(l) = &self.learner {
            need(l.kind == super::LearnerKind::Evolve, || {
                format!(
                    "[learner] kind = \"{}\" is not an evolution config (run it with wopr run)",
                    l.kind
                )
            })?;
        }
        let n = &self.net;
        need(n.hidden.iter().all(|&h| h >= 1), || {
            format!(
                "net.hidden = {:?}: every layer needs at least 1 unit",
                n.hidden
            )
        })?;
        need(n.complete <= 100_000, || {
            format!("net.complete = {}: at most 100000 nodes", n.complete)
        })?;
        need((1..=32).contains(&n.ply), || {
            format!("net.ply = {}: accepted 1..=32", n.ply)
        })?;
        need(positive(n.temp as f64), || {
            format!("net.temp = {}: must be > 0", n.temp)
        })?;
        let g = &self.genome;
        if g.kind == GenomeKind::Bits {
            need((1..=32).contains(&g.bits), || {
                format!("genome.bits = {}: accepted 1..=32 bits per weight", g.bits)
            })?;
            need(
                g.levels == 0 || (2..=1u64 << g.bits).contains(&g.levels),
                || {
                    format!(
                        "genome.levels = {}: accepted 0 (all 2^bits values) or 2..=2^bits ({})",
                        g.levels,
                        1u64 << g.bits
                    )
                },
            )?;
            need(g.lo.is_finite() && g.hi.is_finite() && g.lo < g.hi, || {
                format!("genome range [{}, {}]: needs finite lo < hi", g.lo, g.hi)
            })?;
        } else {
            need(positive(g.init as f64), || {
                format!("genome.init = {}: must be > 0", g.init)
            })?;
        }
        let a = &self.algorithm;
        if a.kind != AlgorithmKind::Ga && g.kind == GenomeKind::Bits {
            return Err(format!(
                "genome.kind = \"bits\" needs algorithm.kind = \"ga\" ({} evolves real genomes)",
                a.kind.name()
            ));
        }
        if let Some(p) = a.preset {
            let ok = Preset::accepted(a.kind);
            if !ok.contains(&p) {
                let names: Vec<&str> = ok.iter().map(|p| p.name()).collect();
                return Err(format!(
                    "algorithm.preset = \"{}\" is not a preset of {} (accepted: {})",
                    p.name(),
                    a.kind.name(),
                    if names.is_empty() {
                        "none".into()
                    } else {
                        names.join(", ")
                    }
                ));
            }
        }
        need((2..=1_000_000).contains(&a.population), || {
            format!(
                "algorithm.population = {}: accepted 2..=1000000",
                a.population
            )
        })?;
        for (key, v) in [("lambda", a.lambda), ("mu", a.mu)] {
            if let Some(v) = v {
                need((1..=1_000_000).contains(&v), || {
                    format!("algorithm.{key} = {v}: accepted 1..=1000000")
                })?;
            }
        }
        if let Some(s) = a.sigma {
            need(positive(s), || {
                format!("algorithm.sigma = {s}: must be > 0")
            })?;
        }
        for (key, v) in [
            ("mutation_rate", a.mutation_rate),
            ("prune_rate", a.prune_rate),
            ("crossover_rate", a.crossover_rate),
        ] {
            if let Some(v) = v {
                need((0.0..=1.0).contains(&v), || {
                    format!("algorithm.{key} = {v}: accepted 0..=1")
                })?;
            }
        }
        if a.parents.is_some() && a.preset != Some(Preset::Naveed) {
            return Err(
                "algorithm.parents is a setting of preset \"naveed\" only (set preset = \"naveed\")"
                    .into(),
            );
        }
        if self.init.pretrained()?.is_some() {
            need(g.kind == GenomeKind::Real, || {
                "init.population = \"pretrained:…\" needs genome.kind = \"real\"".into()
            })?;
            need(
                matches!(
                    a.kind,
                    AlgorithmKind::Ga | AlgorithmKind::MuLambda | AlgorithmKind::MuPlusLambda
                ),
                || {
                    format!(
                        "init.population = \"pretrained:…\" seeds a population: algorithm.kind \"ga\", \"mu-lambda\" or \"mu-plus-lambda\", not \"{}\"",
                        a.kind.name()
                    )
                },
            )?;
            need(self.net.bias == BiasSign::Add, || {
                "init.population = \"pretrained:…\" needs net.bias = \"add\" (trained nets have biases, not thresholds)".into()
            })?;
        }
        let f = &self.fitness;
        need(f.games_per_seat >= 1, || {
            "fitness.games_per_seat = 0: accepted 1 or more".into()
        })?;
        need(f.antigens > 0.0 && f.antigens <= 1.0, || {
            format!(
                "fitness.antigens = {}: accepted a fraction in (0, 1]",
                f.antigens
            )
        })?;
        need(f.sample > 0.0 && f.sample <= 1.0, || {
            format!(
                "fitness.sample = {}: accepted a fraction in (0, 1]",
                f.sample
            )
        })?;
        need(positive(f.share_points), || {
            format!("fitness.share_points = {}: must be > 0", f.share_points)
        })?;
        need(f.logistic.is_finite() && f.logistic >= 0.0, || {
            format!(
                "fitness.logistic = {}: accepted 0 (points) or > 0",
                f.logistic
            )
        })?;
        need(f.seat.is_none_or(|s| s <= 1), || {
            format!("fitness.seat = {}: accepted 0 or 1", f.seat.unwrap_or(0))
        })?;
        if matches!(f.scheme, Scheme::Fixed | Scheme::TwoPopulations) {
            need(!f.opponents.is_empty(), || {
                format!(
                    "fitness.opponents is empty: scheme {} needs at least one",
                    f.scheme.name()
                )
            })?;
        }
        need(
            f.openings.is_none() || f.scheme != Scheme::Exhaustive,
            || {
                "fitness.openings: the exhaustive scheme walks every line from the start; \
             openings apply to the other schemes"
                    .into()
            },
        )?;
        need(self.stop.stall == 0 || f.scheme.absolute(), || {
            format!(
                "stop.stall = {}: the stall rule compares best fitness across generations, \
                 which only absolute schemes (fixed, exhaustive) allow; {} scores against the \
                 evolving population",
                self.stop.stall,
                f.scheme.name()
            )
        })?;
        if let Some(t) = self.stop.target {
            need(t.is_finite(), || {
                format!("stop.target = {t}: must be finite")
            })?;
        }
        if let Some(y) = &self.yardsticks {
            need(y.every >= 1, || {
                "yardsticks.every = 0: accepted 1 or more".into()
            })?;
            need(y.games >= 1 || y.against.is_empty(), || {
                "yardsticks.games = 0: accepted 1 or more".into()
            })?;
        }
        need(self.checkpoint_every >= 1, || {
            "checkpoint_every = 0: accepted 1 or more".into()
        })
    }

    /// The estimated memory and checkpoint size of this config's evolution
    /// state for a net of `weights` weights.
    pub fn footprint(&self, weights: usize) -> Footprint {
        let w = weights as u64;
        let a = &self.algorithm;
        let bits_genome = self.genome.kind == GenomeKind::Bits;
        let (genomes, extra_f64, sigmas) = match a.kind {
            AlgorithmKind::Ga => (a.population as u64, 0, a.preset == Some(Preset::Naveed)),
            AlgorithmKind::OnePlusLambda => (1 + a.lambda.unwrap_or(10) as u64, 0, false),
            AlgorithmKind::MuLambda | AlgorithmKind::MuPlusLambda => (
                a.mu.unwrap_or(15) as u64 + a.lambda.unwrap_or(15) as u64,
                0,
                true,
            ),
            AlgorithmKind::CmaEs => {
                let lambda = a
                    .lambda
                    .map_or(4 + (3.0 * (w.max(1) as f64).ln()) as u64, |l| l as u64);
                // Covariance and eigenvectors (n² each), the steps of the
                // samples (λ·n) and the vectors (a few n).
                (lambda, 2 * w * w + lambda * w + 6 * w, false)
            }
        };
        let (gene_mem, gene_json) = if bits_genome {
            let words = (w * self.genome.bits as u64).div_ceil(64);
            (8 * words, 22 * words)
        } else {
            let per = if sigmas { 2 } else { 1 };
            (4 * w * per, 12 * w * per)
        };
        let populations = if self.fitness.scheme == Scheme::TwoPopulations {
            2
        } else {
            1
        };
        // The GA keeps parents and children; the run keeps the champion,
        // the best so far and the hall of fame (decoded weights).
        let copies = if a.kind == AlgorithmKind::Ga { 2 } else { 1 };
        let kept = (2 + self.fitness.hall_of_fame as u64) * 4 * w;
        Footprint {
            memory: populations * (copies * genomes * gene_mem + 8 * extra_f64) + kept,
            checkpoint: populations * (genomes * gene_json + 22 * extra_f64) + 3 * kept,
        }
    }

    /// Refuses a config whose evolution state would exceed
    /// [`MEMORY_BUDGET`] or whose checkpoints would exceed
    /// [`CHECKPOINT_BUDGET`], with the figures.
    pub fn check_budget(&self, weights: usize) -> Result<(), String> {
        let f = self.footprint(weights);
        if f.memory > MEMORY_BUDGET || f.checkpoint > CHECKPOINT_BUDGET {
            return Err(format!(
                "this config needs about {} of memory and {} per checkpoint for a net of {weights} \
                 weights (limits: {} and {}); {}",
                mib(f.memory),
                mib(f.checkpoint),
                mib(MEMORY_BUDGET),
                mib(CHECKPOINT_BUDGET),
                if self.algorithm.kind == AlgorithmKind::CmaEs {
                    "CMA-ES keeps an n x n covariance: use a smaller net or another algorithm"
                } else {
                    "use a smaller population or net"
                }
            ));
        }
        Ok(())
    }
}
