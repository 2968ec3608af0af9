//! The memory and checkpoint budgets of a run, and the estimate of what a
//! config's evolution state costs, checked against them before a run starts.

use super::{AlgorithmKind, EvolveConfig, GenomeKind, Preset, Scheme};

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
        let a = &self.algorithm;
        let bits_genome = self.genome.kind == GenomeKind::Bits;
        let (genomes, extra_f64, sigmas) = match a.kind {
            AlgorithmKind::Ga => (a.population as u64, 0, a.preset == Some(Preset::Naveed)),
            AlgorithmKind::OnePlusLambda => (1 + a.lambda.unwrap_or(10) as u64, 0, false),
            AlgorithmKind::MuLambda | AlgorithmKind::MuPlusLambda => (
                a.mu.unwrap_or(15) as u64 + a.lambda.unwrap_or(15) as u64,
                0,
                true,
            ),
            AlgorithmKind::CmaEs => {
                let lambda = a
                    .lambda
                    .map_or(4 + (3.0 * (w.max(1) as f64).ln()) as u64, |l| l as u64);
                // Covariance and eigenvectors (n² each), the steps of the
                // samples (λ·n) and the vectors (a few n).
                (lambda, 2 * w * w + lambda * w + 6 * w, false)
            }
            // The probability vector, one f64 per bit.
            AlgorithmKind::Pbil => (a.population as u64, w * self.genome.bits as u64, false),
            // The Gaussian's means and deviations.
            AlgorithmKind::Cem => (a.population as u64, 2 * w, false),
        };
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
        // The GA keeps parents and children; the run keeps the champion,
        // the best so far and the hall of fame (decoded weights).
        let copies = if a.kind == AlgorithmKind::Ga { 2 } else { 1 };
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
                if self.algorithm.kind == AlgorithmKind::CmaEs {
                    "CMA-ES keeps an n x n covariance: use a smaller net or another algorithm"
                } else {
                    "use a smaller population or net"
                }
            ));
        }
        Ok(())
    }
}
