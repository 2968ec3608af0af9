//! `kind = "cma-es"`: Hansen's (μ/μ_w, λ)-CMA-ES from the first member's
//! random weights.
//!
//! ```toml
//! [algorithm]
//! kind = "cma-es"
//! sigma = 0.5      # initial step size (default 0.3)
//! lambda = 20      # samples per generation (default 4 + 3 ln n)
//! ```

use serde::{Deserialize, Serialize};

use super::AnyEngine;
use super::{count, sigma, Algorithm, Start, StateSize};
use crate::evolve::CmaEs;
use crate::experiment::config::{GenomeConfig, GenomeKind};
use crate::experiment::error::{err, RunError};

/// CMA-ES's settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CmaSettings {
    /// Initial step size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
    /// Samples per generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lambda: Option<usize>,
}

impl Algorithm for CmaSettings {
    fn name(&self) -> &'static str {
        "cma-es"
    }

    fn genomes(&self) -> &'static [GenomeKind] {
        &[GenomeKind::Real]
    }

    fn check(&self) -> Result<(), String> {
        count("lambda", self.lambda)?;
        sigma(self.sigma)
    }

    fn state(&self, w: u64, _: &GenomeConfig) -> StateSize {
        let lambda = self
            .lambda
            .map_or(4 + (3.0 * (w.max(1) as f64).ln()) as u64, |l| l as u64);
        // Covariance and eigenvectors (n² each), the steps of the samples
        // (λ·n) and the vectors (a few n).
        StateSize {
            genomes: lambda,
            extra_f64: 2 * w * w + lambda * w + 6 * w,
            sigmas: false,
            copies: 1,
        }
    }

    fn budget_hint(&self) -> &'static str {
        "CMA-ES keeps an n x n covariance: use a smaller net or another algorithm"
    }

    fn build(&self, start: &Start) -> Result<AnyEngine, RunError> {
        let mean: Vec<f64> = (start.real)(0).genes.iter().map(|&x| x as f64).collect();
        Ok(AnyEngine::CmaEs(
            CmaEs::new(mean, self.sigma.unwrap_or(0.3), self.lambda, start.seed).map_err(err)?,
        ))
    }
}
