//! Fitness evaluation and per-generation statistics.

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

    /// [`Fitness::evaluate`] with each member's sampling error: schemes whose
    /// fitness is a sample of games override it (see [`Scores`]); the
    /// default reports the fitness as exact.
    fn score(&self, population: &[G], generation: u64, seed: u64) -> Scores {
        Scores::exact(self.evaluate(population, generation, seed))
    }
}

/// A population's fitness with the sampling error of each member's value.
///
/// Where a fitness is a sum of `n` game (or match) results, `error` is the
/// half-width of its 95% normal interval, `1.96 · √n · s`, with `s` the
/// sample standard deviation of those results: the luck of the draw of
/// openings, opponents' dice and sampled opponents, which more games shrink
/// as `√n` against a fitness that grows as `n`. A fitness that is not a
/// sample (an exhaustive count) has error 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    /// One fitness per member.
    pub fitness: Vec<f64>,
    /// One 95% half-width per member (0 where exact).
    pub error: Vec<f64>,
}

impl Scores {
    /// Fitness with no sampling error.
    pub fn exact(fitness: Vec<f64>) -> Self {
        let error = vec![0.0; fitness.len()];
        Scores { fitness, error }
    }

    /// Fitness as sums of per-game results, from each member's tally.
    pub fn from_tallies(tallies: &[Tally]) -> Self {
        Scores {
            fitness: tallies.iter().map(|t| t.sum).collect(),
            error: tallies.iter().map(Tally::error).collect(),
        }
    }

    /// Adds another scheme's scores member by member: fitness adds up,
    /// independent errors add in quadrature.
    pub fn add(&mut self, other: &Scores) {
        assert_eq!(self.fitness.len(), other.fitness.len(), "same population");
        for (f, x) in self.fitness.iter_mut().zip(&other.fitness) {
            *f += x;
        }
        for (e, x) in self.error.iter_mut().zip(&other.error) {
            *e = e.hypot(*x);
        }
    }
}

/// A running sum of one member's per-game results, for [`Scores`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Results counted.
    pub n: u64,
    /// Their sum (the fitness).
    pub sum: f64,
    /// The sum of their squares.
    pub squares: f64,
}

impl Tally {
    /// Counts one result.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.squares += x * x;
    }

    /// The 95% half-width of the sum: `1.96 · √n · s` (0 for fewer than two
    /// results, whose spread is unknown).
    pub fn error(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let mean = self.sum / n;
        let var = ((self.squares - n * mean * mean) / (n - 1.0)).max(0.0);
        1.96 * (n * var).sqrt()
    }
}

/// Fitness that scores each genome on its own: `f(genome, rng)`, where `rng`
/// is `stream(seed, &[generation, index])`. Genomes are scored in parallel on
/// the current rayon pool (and shared out between the ranks of a run,
/// [`crate::dist`]); the result does not depend on the thread count.
pub struct Independent<F>(pub F);

impl<G, F> Fitness<G> for Independent<F>
where
    G: Sync,
    F: Fn(&G, &mut WoprRng) -> f64 + Sync,
{
    fn evaluate(&self, population: &[G], generation: u64, seed: u64) -> Vec<f64> {
        crate::dist::map_init(
            population,
            || (),
            |_, i, g| (self.0)(g, &mut stream(seed, &[generation, i as u64])),
        )
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
    /// Median fitness: the middle value, or the mean of the two middle
    /// values for an even population (NaN counts as worst).
    #[serde(default = "f64_nan")]
    pub median: f64,
    /// [`Genome::diversity`] of the population.
    pub diversity: f64,
    /// Fitness evaluations in the run so far, this generation's included.
    pub evaluations: u64,
    /// Index of the best member (first of equals).
    pub best_index: usize,
    /// The 95% half-width of the best member's fitness (0 where exact; see
    /// [`Scores`]).
    #[serde(default)]
    pub best_error: f64,
    /// The mean of the members' 95% half-widths.
    #[serde(default)]
    pub mean_error: f64,
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
            median: median(&f),
            diversity: G::diversity(population),
            evaluations,
            best_index,
            best_error: 0.0,
            mean_error: 0.0,
        }
    }

    /// Statistics of `population` with its [`Scores`]: [`Statistics::of`]
    /// plus the sampling errors.
    pub fn of_scores<G: Genome>(
        population: &[G],
        scores: &Scores,
        generation: u64,
        evaluations: u64,
    ) -> Self {
        let mut s = Statistics::of(population, &scores.fitness, generation, evaluations);
        s.best_error = scores.error.get(s.best_index).copied().unwrap_or(0.0);
        s.mean_error = scores.error.iter().sum::<f64>() / scores.error.len().max(1) as f64;
        s
    }
}

/// NaN, for statistics missing from older checkpoints.
fn f64_nan() -> f64 {
    f64::NAN
}

/// The median of `values`: the middle one, or the mean of the two middle
/// ones for an even count; NaN for none.
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_is_the_middle_value_or_the_mean_of_the_middle_two() {
        // Sorted: -3, 1, 4, 10 -> (1 + 4) / 2; with 7 added: 4.
        assert_eq!(median(&[4.0, -3.0, 10.0, 1.0]), 2.5);
        assert_eq!(median(&[4.0, -3.0, 10.0, 1.0, 7.0]), 4.0);
        assert!(median(&[]).is_nan());
        // A NaN fitness counts as worst, so it sorts first.
        let pop = vec![crate::evolve::RealGenome::new(vec![0.0]); 3];
        let s = Statistics::of(&pop, &[f64::NAN, 2.0, 5.0], 0, 3);
        assert_eq!((s.best, s.median), (5.0, 2.0));
        assert_eq!(s.min, f64::NEG_INFINITY);
    }

    #[test]
    fn tally_error_is_the_normal_interval_of_a_sum() {
        // Results 1, 0, 1, 0: mean 1/2, sample variance (4 · 1/4) / 3 = 1/3,
        // so the sum's half-width is 1.96 · √(4 · 1/3) = 2.2632.
        let mut t = Tally::default();
        for x in [1.0, 0.0, 1.0, 0.0] {
            t.add(x);
        }
        assert_eq!(t.sum, 2.0);
        assert!((t.error() - 1.96 * (4.0f64 / 3.0).sqrt()).abs() < 1e-12);
        // Equal results have no spread; a single result has unknown spread.
        let mut same = Tally::default();
        (0..5).for_each(|_| same.add(3.0));
        assert_eq!(same.error(), 0.0);
        let mut one = Tally::default();
        one.add(1.0);
        assert_eq!(one.error(), 0.0);
    }

    #[test]
    fn added_scores_sum_and_add_errors_in_quadrature() {
        let mut a = Scores {
            fitness: vec![1.0, 2.0],
            error: vec![3.0, 0.0],
        };
        a.add(&Scores {
            fitness: vec![10.0, 20.0],
            error: vec![4.0, 0.0],
        });
        assert_eq!(a.fitness, vec![11.0, 22.0]);
        assert_eq!(a.error, vec![5.0, 0.0]);
    }
}
