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
    /// GA population size; PBIL's and CEM's samples per generation.
    pub population: usize,
    /// ES children.
    pub lambda: Option<usize>,
    /// ES parents; PBIL: how many of the best samples the probabilities
    /// learn from (default 1).
    pub mu: Option<usize>,
    /// Initial step size; CEM: every gene's initial deviation (default 0.5).
    pub sigma: Option<f64>,
    /// Weaver's per-bit mutation rate; PBIL: the probability that each
    /// probability is mutated (default 0.02).
    pub mutation_rate: Option<f64>,
    /// PBIL: learning rate towards the best samples, in (0, 1] (default 0.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learning_rate: Option<f64>,
    /// PBIL: negative learning rate where the best and the worst sample
    /// disagree, in [0, 1] (default 0.075; 0 turns it off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub negative_learning_rate: Option<f64>,
    /// PBIL: how far a mutation moves a probability towards 0 or 1, in
    /// [0, 1] (default 0.05).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutation_shift: Option<f64>,
    /// CEM: the share of the samples the Gaussian is refitted to, in (0, 1)
    /// (default 0.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elite_fraction: Option<f64>,
    /// CEM: the extra variance `a` of the noise `max(a − b·g, 0)` added
    /// after generation `g` (default 5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise_start: Option<f64>,
    /// CEM: the noise's fall per generation `b` (default 0.1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise_decay: Option<f64>,
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
            learning_rate: None,
            negative_learning_rate: None,
            mutation_shift: None,
            elite_fraction: None,
            noise_start: None,
            noise_decay: None,
            prune_rate: None,
            crossover_rate: None,
            parents: None,
        }
    }
}

impl AlgorithmConfig {
    /// Checks the settings of PBIL and CEM: each set only for its own kind,
    /// and in range (the genome kind each needs is checked with the others').
    pub(super) fn check_model_building(&self) -> Result<(), String> {
        let owned = [
            ("learning_rate", self.learning_rate, AlgorithmKind::Pbil),
            (
                "negative_learning_rate",
                self.negative_learning_rate,
                AlgorithmKind::Pbil,
            ),
            ("mutation_shift", self.mutation_shift, AlgorithmKind::Pbil),
            ("elite_fraction", self.elite_fraction, AlgorithmKind::Cem),
            ("noise_start", self.noise_start, AlgorithmKind::Cem),
            ("noise_decay", self.noise_decay, AlgorithmKind::Cem),
        ];
        for (key, v, kind) in owned {
            if v.is_some() && self.kind != kind {
                return Err(format!(
                    "algorithm.{key} is a setting of kind \"{}\" only (this is \"{}\")",
                    kind.name(),
                    self.kind.name()
                ));
            }
        }
        let range = |key: &str, v: Option<f64>, ok: fn(f64) -> bool, accepted: &str| match v {
            Some(v) if !ok(v) => Err(format!("algorithm.{key} = {v}: accepted {accepted}")),
            _ => Ok(()),
        };
        range(
            "learning_rate",
            self.learning_rate,
            |v| v > 0.0 && v <= 1.0,
            "(0, 1]",
        )?;
        range(
            "negative_learning_rate",
            self.negative_learning_rate,
            |v| (0.0..=1.0).contains(&v),
            "[0, 1]",
        )?;
        range(
            "mutation_shift",
            self.mutation_shift,
            |v| (0.0..=1.0).contains(&v),
            "[0, 1]",
        )?;
        range(
            "elite_fraction",
            self.elite_fraction,
            |v| v > 0.0 && v < 1.0,
            "a fraction in (0, 1)",
        )?;
        range(
            "noise_start",
            self.noise_start,
            |v| v.is_finite() && v >= 0.0,
            "a finite number >= 0",
        )?;
        range(
            "noise_decay",
            self.noise_decay,
            |v| v.is_finite() && v >= 0.0,
            "a finite number >= 0",
        )?;
        if let (AlgorithmKind::Pbil, Some(m)) = (self.kind, self.mu) {
            if m > self.population {
                return Err(format!(
                    "algorithm.mu = {m}: PBIL learns from 1..=population ({}) best samples",
                    self.population
                ));
            }
        }
        Ok(())
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
    /// Baluja's population-based incremental learning (bit genomes).
    Pbil,
    /// The cross-entropy method with Szita & Lőrincz's noise (real genomes).
    Cem,
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
            AlgorithmKind::Pbil => "pbil",
            AlgorithmKind::Cem => "cem",
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
            AlgorithmKind::CmaEs | AlgorithmKind::Pbil | AlgorithmKind::Cem => &[],
        }
    }

    /// The preset used when a config names none: the first one `kind`
    /// accepts (`thesis-real` is the GA's), none for CMA-ES, PBIL and CEM.
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
