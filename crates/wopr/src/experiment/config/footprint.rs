//! The memory and checkpoint budgets of a run, and the estimate of what a
//! config's evolution state costs, checked against them before a run starts.

use super::{EvolveConfig, GenomeKind, Scheme};

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
    /// The estimated memory and checkpoint size of this config's evolution
    /// state for a net of `weights` weights.
    pub fn footprint(&self, weights: usize) -> Footprint {
        let w = weights as u64;
        let bits_genome = self.genome.kind == GenomeKind::Bits;
        let state = self.algorithm.with(|a| a.state(w, &self.genome));
        let (genomes, extra_f64, sigmas) = (state.genomes, state.extra_f64, state.sigmas);
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
        // A GA keeps parents and children; the run keeps the champion,
        // the best so far and the hall of fame (decoded weights).
        let copies = state.copies;
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
                self.algorithm.with(|a| a.budget_hint())
            ));
        }
        Ok(())
    }
}
