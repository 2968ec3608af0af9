//! The `[algorithm]` and `[init]` sections: the evolutionary algorithm, the
//! papers' presets for it, and where the first population comes from.

use serde::{Deserialize, Serialize};

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
    pub(super) fn is_default(&self) -> bool {
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
