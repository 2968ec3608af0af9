//! Fitness evaluation and per-generation statistics.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::genome::Genome;
use crate::game::rng::{stream, WoprRng};

/// Scores a whole population at once (higher is better), so that schemes in
/// which individuals meet each other (round-robin, coevolution) fit the same
/// mould as independent ones.
///
/// Implementations must be deterministic given `(population, generation,
/// seed)`: draw randomness from `stream(seed, &[generation, index, …])`, one
/// stream per game or individual, never per thread.
pub trait Fitness<G>: Sync {
    /// One fitness per member of `population`, in order.
    fn evaluate(&self, population: &[G], generation: u64, seed: u64) -> Vec<f64>;
}

/// Fitness that scores each genome on its own: `f(genome, rng)`, where `rng`
/// is `stream(seed, &[generation, index])`. Genomes are scored in parallel on
/// the current rayon pool; the result does not depend on the thread count.
pub struct Independent<F>(pub F);

impl<G, F> Fitness<G> for Independent<F>
where
    G: Sync,
    F: Fn(&G, &mut WoprRng) -> f64 + Sync,
{
    fn evaluate(&self, population: &[G], generation: u64, seed: u64) -> Vec<f64> {
        population
            .par_iter()
            .enumerate()
            .map(|(i, g)| (self.0)(g, &mut stream(seed, &[generation, i as u64])))
            .collect()
    }
}

/// A summary of one evaluated generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Statistics {
    /// The generation evaluated.
    pub generation: u64,
    /// Highest fitness.
    pub best: f64,
    /// Mean fitness.
    pub mean: f64,
    /// Lowest fitness.
    pub min: f64,
    /// [`Genome::diversity`] of the population.
    pub diversity: f64,
    /// Fitness evaluations in the run so far, this generation's included.
    pub evaluations: u64,
    /// Index of the best member (first of equals).
    pub best_index: usize,
}

impl Statistics {
    /// Statistics of `population` scored `fitness` (NaN counts as worst).
    pub fn of<G: Genome>(
        population: &[G],
        fitness: &[f64],
        generation: u64,
        evaluations: u64,
    ) -> Self {
        assert_eq!(population.len(), fitness.len(), "one fitness per member");
        let f: Vec<f64> = fitness.iter().map(|&x| super::sane(x)).collect();
        let mut best_index = 0;
        for (i, &x) in f.iter().enumerate() {
            if x > f[best_index] {
                best_index = i;
            }
        }
        let n = f.len().max(1) as f64;
        Statistics {
            generation,
            best: f.get(best_index).copied().unwrap_or(f64::NAN),
            mean: f.iter().sum::<f64>() / n,
            min: f.iter().copied().fold(f64::INFINITY, f64::min),
            diversity: G::diversity(population),
            evaluations,
            best_index,
        }
    }
}
