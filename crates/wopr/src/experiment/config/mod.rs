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
//! kind = "ga"             # ga, one-plus-lambda, mu-lambda, mu-plus-lambda, cma-es,
//!                         # pbil (bits genomes), cem (real genomes); the other keys
//! population = 100        # are the kind's own, documented in `experiment::algorithm`
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

mod fitness;
mod footprint;
mod init;
mod net;

pub use super::algorithm::{AlgorithmConfig, Parents, Preset};
pub use super::genome::{GenomeConfig, GenomeKind, Layout};
pub use fitness::{
    ChampionRule, FitnessConfig, PointsKind, ProgramScore, Scheme, Scoring, StopConfig,
    YardstickConfig,
};
pub use footprint::{Footprint, CHECKPOINT_BUDGET, MEMORY_BUDGET};
pub use init::InitConfig;
pub use net::{BiasSign, FinishedBy, NetConfig, Outputs};

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
        self.algorithm.with(|a| -> Result<(), String> {
            need(a.genomes().contains(&g.kind), || {
                format!(
                    "algorithm.kind = \"{}\" evolves {} genomes, not genome.kind = \"{}\"",
                    a.name(),
                    a.genomes()
                        .iter()
                        .map(|k| format!("\"{}\"", k.name()))
                        .collect::<Vec<_>>()
                        .join(" or "),
                    g.kind.name()
                )
            })?;
            a.check()
        })?;
        if self.init.pretrained()?.is_some() {
            need(g.kind == GenomeKind::Real, || {
                "init.population = \"pretrained:…\" needs genome.kind = \"real\"".into()
            })?;
            need(self.algorithm.with(|a| a.seeded().is_some()), || {
                format!(
                    "init.population = \"pretrained:…\" seeds a population: algorithm.kind \"ga\", \"mu-lambda\" or \"mu-plus-lambda\", not \"{}\"",
                    self.algorithm.name()
                )
            })?;
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
}
