//! `kind = "ga"`: a generational GA driven by a paper's plan, over bit
//! strings or real vectors.
//!
//! ```toml
//! [algorithm]
//! kind = "ga"
//! preset = "weaver"       # midi-connect4, weaver, weaver-direct, thesis-binary,
//!                         # thesis-real (default), thesis-real-blend, naveed
//! population = 100        # default 50
//! mutation_rate = 0.005   # weaver, weaver-direct: per-bit rate
//! crossover_rate = 0.2    # naveed: crossover rate
//! parents = "paired"      # naveed: "paired" (the top N/3 each used twice,
//!                         # shuffled) or "uniform"
//! sigma = 0.05            # naveed: real genes' initial step size
//! ```

use serde::{Deserialize, Serialize};

use super::AnyEngine;
use super::{population, rate, sigma, Algorithm, Preset, Start, StateSize};
use crate::evolve::{Ga, Plan, RealGenome};
use crate::experiment::config::{GenomeConfig, GenomeKind};
use crate::experiment::error::{err, RunError};

/// The GA's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GaSettings {
    /// A paper's plan (unset: `thesis-real`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// Members.
    pub population: usize,
    /// Weaver's per-bit mutation rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mutation_rate: Option<f64>,
    /// Naveed's crossover rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crossover_rate: Option<f64>,
    /// Naveed's parents: paired (default) or drawn uniformly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parents: Option<Parents>,
    /// Naveed's initial step size of real genes (default 0.05).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
}

impl Default for GaSettings {
    fn default() -> Self {
        GaSettings {
            preset: None,
            population: 50,
            mutation_rate: None,
            crossover_rate: None,
            parents: None,
            sigma: None,
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

/// The GA's presets.
const PRESETS: &[Preset] = &[
    Preset::MidiConnect4,
    Preset::Weaver,
    Preset::WeaverDirect,
    Preset::ThesisBinary,
    Preset::ThesisReal,
    Preset::ThesisRealBlend,
    Preset::Naveed,
];

impl GaSettings {
    /// The preset in force.
    fn preset(&self) -> Preset {
        self.preset.unwrap_or(Preset::ThesisReal)
    }
}

impl Algorithm for GaSettings {
    fn name(&self) -> &'static str {
        "ga"
    }

    fn genomes(&self) -> &'static [GenomeKind] {
        &[GenomeKind::Bits, GenomeKind::Real]
    }

    fn check(&self) -> Result<(), String> {
        Preset::check(self.preset, "ga", PRESETS)?;
        population(self.population)?;
        sigma(self.sigma)?;
        rate("mutation_rate", self.mutation_rate)?;
        rate("crossover_rate", self.crossover_rate)?;
        if self.parents.is_some() && self.preset != Some(Preset::Naveed) {
            return Err(
                "algorithm.parents is a setting of preset \"naveed\" only (set preset = \"naveed\")"
                    .into(),
            );
        }
        Ok(())
    }

    fn seeded(&self) -> Option<usize> {
        Some(self.population.max(2))
    }

    fn state(&self, _: u64, _: &GenomeConfig) -> StateSize {
        StateSize {
            genomes: self.population as u64,
            extra_f64: 0,
            sigmas: self.preset == Some(Preset::Naveed),
            copies: 2,
        }
    }

    fn build(&self, start: &Start) -> Result<AnyEngine, RunError> {
        let n = self.population.max(2);
        let plan = match self.preset() {
            Preset::MidiConnect4 => Plan::midi_connect4(),
            Preset::Weaver => Plan::weaver(self.mutation_rate.unwrap_or(0.005), false, n),
            Preset::WeaverDirect => Plan::weaver(self.mutation_rate.unwrap_or(0.005), true, n),
            Preset::ThesisBinary => Plan::thesis_binary(),
            Preset::Naveed => Plan::naveed_with(
                self.crossover_rate.unwrap_or(0.2),
                self.parents.unwrap_or(Parents::Paired) == Parents::Paired,
            ),
            Preset::ThesisReal => Plan::thesis_real(),
            Preset::ThesisRealBlend => Plan::thesis_real_blend(),
            other => return Err(RunError(format!("{} is not a GA preset", other.name()))),
        };
        Ok(match start.genome.kind {
            GenomeKind::Bits => AnyEngine::GaBits(
                Ga::new(plan, start.seed, (0..n as u64).map(start.bits).collect()).map_err(err)?,
            ),
            GenomeKind::Real => {
                let step = self.sigma.unwrap_or(0.05) as f32;
                let naveed = self.preset() == Preset::Naveed;
                let pop: Vec<RealGenome> = (0..n as u64)
                    .map(|i| {
                        let r = (start.real)(i);
                        if naveed {
                            r.with_sigmas(step)
                        } else {
                            r
                        }
                    })
                    .collect();
                AnyEngine::GaReal(Ga::new(plan, start.seed, pop).map_err(err)?)
            }
        })
    }
}
