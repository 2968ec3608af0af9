//! The engine a checkpoint holds: one variant per algorithm's engine, and
//! `with_engine!`, which hands the engine inside to generic code.

use serde::{Deserialize, Serialize};

use crate::evolve::{
    BitGenome, Cem, CmaEs, Engine, Ga, OnePlusLambda, Pbil, RealGenome, SelfAdaptiveEs,
};

/// Any engine a config can ask for.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "engine", rename_all = "kebab-case")]
pub enum AnyEngine {
    /// A GA over bit strings.
    GaBits(Ga<BitGenome>),
    /// A GA over real vectors.
    GaReal(Ga<RealGenome>),
    /// (1+λ)-ES with the 1/5 rule and pruning.
    OnePlusLambda(OnePlusLambda),
    /// (μ,λ) or (μ+λ) with self-adaptive step sizes.
    SelfAdaptive(SelfAdaptiveEs),
    /// CMA-ES.
    CmaEs(CmaEs),
    /// PBIL over bit strings.
    Pbil(Pbil),
    /// The noisy cross-entropy method.
    Cem(Cem),
}

/// Runs an expression with `$x` bound to the engine inside an [`AnyEngine`].
macro_rules! with_engine {
    ($e:expr, $x:ident => $body:expr) => {
        match $e {
            $crate::experiment::algorithm::AnyEngine::GaBits($x) => $body,
            $crate::experiment::algorithm::AnyEngine::GaReal($x) => $body,
            $crate::experiment::algorithm::AnyEngine::OnePlusLambda($x) => $body,
            $crate::experiment::algorithm::AnyEngine::SelfAdaptive($x) => $body,
            $crate::experiment::algorithm::AnyEngine::CmaEs($x) => $body,
            $crate::experiment::algorithm::AnyEngine::Pbil($x) => $body,
            $crate::experiment::algorithm::AnyEngine::Cem($x) => $body,
        }
    };
}
pub(crate) use with_engine;

impl AnyEngine {
    /// Generations completed.
    pub fn generation(&self) -> u64 {
        with_engine!(self, e => e.generation())
    }

    /// Members of the population evaluated next.
    pub fn population_len(&self) -> usize {
        with_engine!(self, e => e.population().len())
    }
}
