//! `kind = "pbil"`: Baluja's population-based incremental learning over
//! bit-string genomes (a probability per bit).
//!
//! ```toml
//! [algorithm]
//! kind = "pbil"
//! population = 100                # samples per generation (default 50)
//! mu = 1                          # best samples learnt from
//! learning_rate = 0.1             # towards the best, (0, 1]
//! negative_learning_rate = 0.075  # where best and worst differ, [0, 1]
//! mutation_rate = 0.02            # odds that a probability is mutated
//! mutation_shift = 0.05           # how far a mutated probability moves, [0, 1]
//! ```

use serde::{Deserialize, Serialize};

use super::AnyEngine;
use super::{population, rate, within, Algorithm, Start, StateSize};
use crate::evolve::{Pbil, PbilConfig};
use crate::experiment::config::{GenomeConfig, GenomeKind};
use crate::experiment::error::{err, RunError};

/// PBIL's settings; unset ones are Baluja's ([`PbilConfig::baluja`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PbilSettings {
    /// Samples per generation.
    pub population: usize,
    /// How many of the best samples the probabilities learn from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mu: Option<usize>,
    /// Learning rate towards the best samples.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learning_rate: Option<f64>,
    /// Negative learning rate where the best and the worst sample disagree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub negative_learning_rate: Option<f64>,
    /// The probability that each probability is mutated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutation_rate: Option<f64>,
    /// How far a mutation moves a probability towards 0 or 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutation_shift: Option<f64>,
}

impl Default for PbilSettings {
    fn default() -> Self {
        PbilSettings {
            population: 50,
            mu: None,
            learning_rate: None,
            negative_learning_rate: None,
            mutation_rate: None,
            mutation_shift: None,
        }
    }
}

impl PbilSettings {
    fn config(&self) -> PbilConfig {
        let mut c = PbilConfig::baluja(self.population.max(2));
        c.best = self.mu.unwrap_or(c.best);
        c.learning_rate = self.learning_rate.unwrap_or(c.learning_rate);
        c.negative_learning_rate = self
            .negative_learning_rate
            .unwrap_or(c.negative_learning_rate);
        c.mutation_probability = self.mutation_rate.unwrap_or(c.mutation_probability);
        c.mutation_shift = self.mutation_shift.unwrap_or(c.mutation_shift);
        c
    }
}

impl Algorithm for PbilSettings {
    fn name(&self) -> &'static str {
        "pbil"
    }

    fn genomes(&self) -> &'static [GenomeKind] {
        &[GenomeKind::Bits]
    }

    fn check(&self) -> Result<(), String> {
        population(self.population)?;
        within(
            "learning_rate",
            self.learning_rate,
            |v| v > 0.0 && v <= 1.0,
            "(0, 1]",
        )?;
        rate("negative_learning_rate", self.negative_learning_rate)?;
        rate("mutation_rate", self.mutation_rate)?;
        rate("mutation_shift", self.mutation_shift)?;
        match self.mu {
            Some(m) if !(1..=self.population).contains(&m) => Err(format!(
                "algorithm.mu = {m}: PBIL learns from 1..=population ({}) best samples",
                self.population
            )),
            _ => Ok(()),
        }
    }

    fn state(&self, w: u64, genome: &GenomeConfig) -> StateSize {
        // The probability vector, one f64 per bit.
        StateSize {
            genomes: self.population as u64,
            extra_f64: w * genome.bits as u64,
            sigmas: false,
            copies: 1,
        }
    }

    fn build(&self, start: &Start) -> Result<AnyEngine, RunError> {
        Ok(AnyEngine::Pbil(
            Pbil::new(self.config(), start.code, start.weights, start.seed).map_err(err)?,
        ))
    }
}
