//! The evolution strategies: `kind = "one-plus-lambda"` (Handa &
//! Horiuchi's (1+λ)-ES with the 1/5 rule and pruning) and `kind =
//! "mu-lambda"` / `"mu-plus-lambda"` (self-adaptive step sizes, as
//! Blondie24's evolutionary programming).
//!
//! ```toml
//! [algorithm]
//! kind = "one-plus-lambda"
//! preset = "handa-reversi"  # or handa-tictactoe (default)
//! lambda = 9                # children (overrides the preset)
//! sigma = 0.2236            # initial step size
//! prune_rate = 0.005        # pruning probability per weight (0: none)
//!
//! [algorithm]
//! kind = "mu-lambda"        # or mu-plus-lambda
//! mu = 15                   # parents (Blondie24: 15)
//! lambda = 15               # children
//! sigma = 0.05              # initial step size of every gene
//! ```

use serde::{Deserialize, Serialize};

use super::AnyEngine;
use super::{count, rate, sigma, Algorithm, Preset, Start, StateSize};
use crate::evolve::{OnePlusLambda, OnePlusLambdaConfig, SelfAdaptiveConfig, SelfAdaptiveEs};
use crate::experiment::config::{GenomeConfig, GenomeKind};
use crate::experiment::error::{err, RunError};

/// The (1+λ)-ES's settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OnePlusLambdaSettings {
    /// Handa & Horiuchi's settings for a game (unset: Tic-Tac-Toe's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// Children per generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lambda: Option<usize>,
    /// Initial step size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
    /// Probability that a child's unpruned weight is pruned (overrides the
    /// preset's 0.005; 0 turns pruning off, the paper's baseline).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prune_rate: Option<f64>,
}

impl Algorithm for OnePlusLambdaSettings {
    fn name(&self) -> &'static str {
        "one-plus-lambda"
    }

    fn genomes(&self) -> &'static [GenomeKind] {
        &[GenomeKind::Real]
    }

    fn check(&self) -> Result<(), String> {
        Preset::check(
            self.preset,
            "one-plus-lambda",
            &[Preset::HandaTictactoe, Preset::HandaReversi],
        )?;
        count("lambda", self.lambda)?;
        sigma(self.sigma)?;
        rate("prune_rate", self.prune_rate)
    }

    fn state(&self, _: u64, _: &GenomeConfig) -> StateSize {
        StateSize {
            genomes: 1 + self.lambda.unwrap_or(10) as u64,
            extra_f64: 0,
            sigmas: false,
            copies: 1,
        }
    }

    fn build(&self, start: &Start) -> Result<AnyEngine, RunError> {
        let mut c = match self.preset {
            Some(Preset::HandaReversi) => OnePlusLambdaConfig::handa_reversi(),
            _ => OnePlusLambdaConfig::handa_tictactoe(),
        };
        if let Some(l) = self.lambda {
            c.lambda = l;
        }
        if let Some(s) = self.sigma {
            c.sigma = s;
        }
        if let Some(r) = self.prune_rate {
            c.prune_rate = r;
        }
        Ok(AnyEngine::OnePlusLambda(
            OnePlusLambda::new(c, start.seed, (start.real)(0)).map_err(err)?,
        ))
    }
}

/// The settings of (μ,λ) and (μ+λ) evolution with self-adaptive steps.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfAdaptiveSettings {
    /// Blondie24's settings (the only preset, and the default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// Parents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mu: Option<usize>,
    /// Children per generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lambda: Option<usize>,
    /// Initial step size of every gene (default 0.05).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
}

/// [`SelfAdaptiveSettings`] with the kind: comma (`mu-lambda`) or plus.
pub(super) struct SelfAdaptive<'a> {
    pub(super) settings: &'a SelfAdaptiveSettings,
    pub(super) plus: bool,
}

impl SelfAdaptive<'_> {
    fn config(&self) -> SelfAdaptiveConfig {
        let mut c = SelfAdaptiveConfig::blondie24();
        c.plus = self.plus;
        if let Some(m) = self.settings.mu {
            c.mu = m;
        }
        if let Some(l) = self.settings.lambda {
            c.lambda = l;
        }
        c
    }
}

impl Algorithm for SelfAdaptive<'_> {
    fn name(&self) -> &'static str {
        if self.plus {
            "mu-plus-lambda"
        } else {
            "mu-lambda"
        }
    }

    fn genomes(&self) -> &'static [GenomeKind] {
        &[GenomeKind::Real]
    }

    fn check(&self) -> Result<(), String> {
        let s = self.settings;
        Preset::check(s.preset, self.name(), &[Preset::Blondie24])?;
        count("mu", s.mu)?;
        count("lambda", s.lambda)?;
        sigma(s.sigma)
    }

    fn seeded(&self) -> Option<usize> {
        Some(self.config().mu)
    }

    fn state(&self, _: u64, _: &GenomeConfig) -> StateSize {
        let s = self.settings;
        StateSize {
            genomes: s.mu.unwrap_or(15) as u64 + s.lambda.unwrap_or(15) as u64,
            extra_f64: 0,
            sigmas: true,
            copies: 1,
        }
    }

    fn build(&self, start: &Start) -> Result<AnyEngine, RunError> {
        let c = self.config();
        let step = self.settings.sigma.unwrap_or(0.05) as f32;
        let parents = (0..c.mu as u64)
            .map(|i| (start.real)(i).with_sigmas(step))
            .collect();
        Ok(AnyEngine::SelfAdaptive(
            SelfAdaptiveEs::new(c, start.seed, parents).map_err(err)?,
        ))
    }
}
