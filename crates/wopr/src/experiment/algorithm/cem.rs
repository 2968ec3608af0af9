//! `kind = "cem"`: the cross-entropy method with Szita & Lőrincz's
//! decreasing noise, a Gaussian per real gene, from the zero vector.
//!
//! ```toml
//! [algorithm]
//! kind = "cem"
//! population = 100        # samples per generation (default 50)
//! sigma = 0.5             # initial deviation of every gene (default 0.5)
//! elite_fraction = 0.1    # the share refitted to, (0, 1)
//! noise_start = 5.0       # extra variance max(noise_start - noise_decay*g, 0)
//! noise_decay = 0.1       # (Szita & Lőrincz's 5 - g/10)
//! ```

use serde::{Deserialize, Serialize};

use super::AnyEngine;
use super::{population, sigma, within, Algorithm, Start, StateSize};
use crate::evolve::{Cem, CemConfig};
use crate::experiment::config::{GenomeConfig, GenomeKind};
use crate::experiment::error::{err, RunError};

/// CEM's settings; unset ones are Szita & Lőrincz's
/// ([`CemConfig::szita_lorincz`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CemSettings {
    /// Samples per generation.
    pub population: usize,
    /// Every gene's initial deviation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
    /// The share of the samples the Gaussian is refitted to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elite_fraction: Option<f64>,
    /// The extra variance `a` of the noise `max(a − b·g, 0)` added after
    /// generation `g`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise_start: Option<f64>,
    /// The noise's fall per generation `b`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise_decay: Option<f64>,
}

impl Default for CemSettings {
    fn default() -> Self {
        CemSettings {
            population: 50,
            sigma: None,
            elite_fraction: None,
            noise_start: None,
            noise_decay: None,
        }
    }
}

impl Algorithm for CemSettings {
    fn name(&self) -> &'static str {
        "cem"
    }

    fn genomes(&self) -> &'static [GenomeKind] {
        &[GenomeKind::Real]
    }

    fn check(&self) -> Result<(), String> {
        population(self.population)?;
        sigma(self.sigma)?;
        within(
            "elite_fraction",
            self.elite_fraction,
            |v| v > 0.0 && v < 1.0,
            "a fraction in (0, 1)",
        )?;
        for (key, v) in [
            ("noise_start", self.noise_start),
            ("noise_decay", self.noise_decay),
        ] {
            within(
                key,
                v,
                |v| v.is_finite() && v >= 0.0,
                "a finite number >= 0",
            )?;
        }
        Ok(())
    }

    fn state(&self, w: u64, _: &GenomeConfig) -> StateSize {
        // The Gaussian's means and deviations.
        StateSize {
            genomes: self.population as u64,
            extra_f64: 2 * w,
            sigmas: false,
            copies: 1,
        }
    }

    fn build(&self, start: &Start) -> Result<AnyEngine, RunError> {
        let d = CemConfig::szita_lorincz();
        let c = CemConfig {
            samples: self.population.max(2),
            elite_fraction: self.elite_fraction.unwrap_or(d.elite_fraction),
            noise_start: self.noise_start.unwrap_or(d.noise_start),
            noise_decay: self.noise_decay.unwrap_or(d.noise_decay),
        };
        // Szita & Lőrincz start from the zero vector.
        let mean = vec![0.0; start.weights];
        Ok(AnyEngine::Cem(
            Cem::new(c, mean, self.sigma.unwrap_or(0.5), start.seed).map_err(err)?,
        ))
    }
}
