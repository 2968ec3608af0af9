//! PBIL: population-based incremental learning (S. Baluja, "Population-Based
//! Incremental Learning: A Method for Integrating Genetic Search Based
//! Function Optimization and Competitive Learning", CMU-CS-94-163, 1994), a
//! probabilistic model-building GA for bit strings.
//!
//! Instead of a population, PBIL keeps one probability per bit, `p_i`, the
//! chance that bit `i` of a sample is 1 (all 0.5 at the start). Each
//! generation it draws `N` bit strings from `p`, and after they are
//! evaluated it moves `p` towards the good ones:
//!
//! 1. **learning**: `p_i ← (1 − LR)·p_i + LR·b_i`, where `b_i` is bit `i` of
//!    the best sample, or its mean over the best `M` samples when `M > 1`
//!    (Baluja's standard setting is `M = 1`);
//! 2. **negative learning**: where the best and the worst sample disagree,
//!    `p_i ← (1 − NLR)·p_i + NLR·b_i` once more with the best sample's bit
//!    (a second push towards the best, away from the worst);
//! 3. **mutation** of the probabilities: each `p_i` with probability
//!    `mut_prob` moves by `mut_shift` towards 0 or 1 (a fair coin):
//!    `p_i ← (1 − mut_shift)·p_i + mut_shift·coin`.
//!
//! [`PbilConfig::baluja`] has the paper's settings: LR 0.1, NLR 0.075,
//! `mut_prob` 0.02, `mut_shift` 0.05, learning from the single best sample.
//! Every step is a convex combination of values in [0, 1], so `p` stays in
//! [0, 1] without clamping; we add no clamp away from 0 and 1 (mutation is
//! what keeps a bit from freezing, as in the paper).
//!
//! Randomness: the samples of generation `g` come from
//! [`engine_rng`]`(seed, g, 0)`, the mutation of `p` after it from
//! [`engine_rng`]`(seed, g, 1)`.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::genome::{BitCode, BitGenome};
use super::operators::check_rate;
use super::selection::ranked;
use super::{check_told, engine_rng, Engine, EvolveError};

/// PBIL's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PbilConfig {
    /// Samples drawn per generation (`N`, at least 2).
    pub samples: usize,
    /// How many of the best samples `p` learns from (`M`, 1 to `N`).
    pub best: usize,
    /// Learning rate towards the best (in (0, 1]).
    pub learning_rate: f64,
    /// Negative learning rate where the best and the worst disagree (in
    /// [0, 1]; 0 turns it off).
    pub negative_learning_rate: f64,
    /// Probability that a probability is mutated each generation.
    pub mutation_probability: f64,
    /// How far a mutation moves a probability towards 0 or 1 (in [0, 1]).
    pub mutation_shift: f64,
}

impl PbilConfig {
    /// Baluja's (1994) settings for `samples` samples per generation:
    /// learning rate 0.1, negative learning rate 0.075, mutation probability
    /// 0.02 and shift 0.05, learning from the single best sample.
    pub fn baluja(samples: usize) -> Self {
        PbilConfig {
            samples,
            best: 1,
            learning_rate: 0.1,
            negative_learning_rate: 0.075,
            mutation_probability: 0.02,
            mutation_shift: 0.05,
        }
    }

    /// Checks every parameter's range.
    pub fn check(&self) -> Result<(), EvolveError> {
        let bad = |m: String| Err(EvolveError::Config(m));
        if self.samples < 2 {
            return bad(format!(
                "PBIL needs at least 2 samples, not {}",
                self.samples
            ));
        }
        if !(1..=self.samples).contains(&self.best) {
            return bad(format!(
                "PBIL learns from 1 to {} best samples, not {}",
                self.samples, self.best
            ));
        }
        if !(self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return bad(format!(
                "PBIL learning rate must be in (0, 1], not {}",
                self.learning_rate
            ));
        }
        check_rate("PBIL negative learning rate", self.negative_learning_rate)?;
        check_rate("PBIL mutation probability", self.mutation_probability)?;
        check_rate("PBIL mutation shift", self.mutation_shift)
    }
}

/// PBIL as an [`Engine`] over [`BitGenome`]s (see the module docs). The
/// state is the probability vector and the current samples, all serialised.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pbil {
    config: PbilConfig,
    code: BitCode,
    weights: usize,
    /// `p_i`: the probability that bit `i` of a sample is 1.
    probabilities: Vec<f64>,
    seed: u64,
    generation: u64,
    evaluations: u64,
    population: Vec<BitGenome>,
}

impl Pbil {
    /// A PBIL run over genomes of `weights` weights decoded by `code`, every
    /// probability 0.5, with its first samples drawn.
    pub fn new(
        config: PbilConfig,
        code: BitCode,
        weights: usize,
        seed: u64,
    ) -> Result<Self, EvolveError> {
        config.check()?;
        code.validate()?;
        if weights == 0 {
            return Err(EvolveError::Config("PBIL needs at least one weight".into()));
        }
        let bits = weights * code.bits as usize;
        let mut pbil = Pbil {
            config,
            code,
            weights,
            probabilities: vec![0.5; bits],
            seed,
            generation: 0,
            evaluations: 0,
            population: Vec::new(),
        };
        pbil.sample();
        Ok(pbil)
    }

    /// The probability vector.
    pub fn probabilities(&self) -> &[f64] {
        &self.probabilities
    }

    /// Draws this generation's samples from `p`.
    fn sample(&mut self) {
        let mut rng = engine_rng(self.seed, self.generation, 0);
        self.population = (0..self.config.samples)
            .map(|_| {
                let mut g = BitGenome::zeros(self.code, self.weights);
                for (i, &p) in self.probabilities.iter().enumerate() {
                    if rng.random::<f64>() < p {
                        g.set(i, true);
                    }
                }
                g
            })
            .collect();
    }

    /// Steps 1 and 2 of the update (see the module docs) from the evaluated
    /// samples, without mutation.
    fn learn(&mut self, fitness: &[f64]) {
        let c = &self.config;
        let order = ranked(fitness);
        let best = &self.population[order[0]];
        let worst = &self.population[order[order.len() - 1]];
        let elite = &order[..c.best];
        for (i, p) in self.probabilities.iter_mut().enumerate() {
            let ones = elite.iter().filter(|&&k| self.population[k].get(i)).count();
            let target = ones as f64 / elite.len() as f64;
            *p = (1.0 - c.learning_rate) * *p + c.learning_rate * target;
            let b = best.get(i);
            if c.negative_learning_rate > 0.0 && b != worst.get(i) {
                let bit = if b { 1.0 } else { 0.0 };
                *p = (1.0 - c.negative_learning_rate) * *p + c.negative_learning_rate * bit;
            }
        }
    }

    /// Step 3: mutation of the probabilities.
    fn mutate(&mut self) {
        let c = &self.config;
        if c.mutation_probability <= 0.0 || c.mutation_shift <= 0.0 {
            return;
        }
        let mut rng = engine_rng(self.seed, self.generation, 1);
        for p in &mut self.probabilities {
            if rng.random::<f64>() < c.mutation_probability {
                let coin = if rng.random::<bool>() { 1.0 } else { 0.0 };
                *p = (1.0 - c.mutation_shift) * *p + c.mutation_shift * coin;
            }
        }
    }
}

impl Engine for Pbil {
    /// Checks that a state read from a checkpoint is consistent (parameters
    /// in range, probabilities in [0, 1], `N` samples of the right length),
    /// so a corrupt file is an error instead of a panic.
    fn check_state(&self) -> Result<(), String> {
        self.config.check().map_err(|e| e.to_string())?;
        let bits = self.weights * self.code.bits as usize;
        if self.probabilities.len() != bits {
            return Err(format!(
                "PBIL has {} probabilities for {bits} bits",
                self.probabilities.len()
            ));
        }
        if !self.probabilities.iter().all(|p| (0.0..=1.0).contains(p)) {
            return Err("PBIL has a probability outside [0, 1]".into());
        }
        if self.population.len() != self.config.samples
            || self
                .population
                .iter()
                .any(|g| g.len() != bits || *g.code() != self.code)
        {
            return Err(format!(
                "PBIL holds {} samples, not {} of {bits} bits",
                self.population.len(),
                self.config.samples
            ));
        }
        Ok(())
    }

    type Genome = BitGenome;

    fn population(&self) -> &[BitGenome] {
        &self.population
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn evaluations(&self) -> u64 {
        self.evaluations
    }

    fn tell(&mut self, fitness: &[f64]) {
        check_told(self.population.len(), fitness.len());
        self.learn(fitness);
        self.mutate();
        self.evaluations += fitness.len() as u64;
        self.generation += 1;
        self.sample();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::{checkpoint, restore};

    fn code() -> BitCode {
        BitCode::binary(1, 0.0, 1.0)
    }

    fn genome(bits: &[bool]) -> BitGenome {
        BitGenome::from_bits(code(), bits).unwrap()
    }

    /// Number of ones (OneMax) of each sample.
    fn onemax(pbil: &Pbil) -> Vec<f64> {
        let p = pbil.population();
        p.iter().map(|g| g.count_ones() as f64).collect()
    }

    #[test]
    fn update_moves_p_towards_the_best_and_away_from_the_worst() {
        let mut config = PbilConfig::baluja(3);
        config.mutation_probability = 0.0;
        let mut pbil = Pbil::new(config, code(), 4, 1).unwrap();
        pbil.population = vec![
            genome(&[true, false, true, false]),   // fitness 0: worst
            genome(&[true, true, false, false]),   // fitness 2: best
            genome(&[false, false, false, false]), // fitness 1
        ];
        pbil.tell(&[0.0, 2.0, 1.0]);
        // Learning from the best 1100 at rate 0.1, from p = 0.5:
        //   bit = 1: 0.9·0.5 + 0.1 = 0.55;  bit = 0: 0.9·0.5 = 0.45.
        // Negative learning (0.075) where best 1100 and worst 1010 differ,
        // bits 1 and 2, once more towards the best's bit:
        //   bit 1 (best 1): 0.925·0.55 + 0.075 = 0.50875 + 0.075 = 0.58375;
        //   bit 2 (best 0): 0.925·0.45         = 0.41625.
        // Bits 0 (both 1) and 3 (both 0) keep 0.55 and 0.45.
        let want = [0.55, 0.58375, 0.41625, 0.45];
        for (p, w) in pbil.probabilities().iter().zip(want) {
            assert!((p - w).abs() < 1e-12, "{:?}", pbil.probabilities());
        }
        assert_eq!((pbil.generation(), pbil.evaluations()), (1, 3));
    }

    #[test]
    fn several_best_samples_teach_their_mean() {
        let mut config = PbilConfig::baluja(3);
        (config.best, config.negative_learning_rate) = (2, 0.0);
        config.mutation_probability = 0.0;
        let mut pbil = Pbil::new(config, code(), 2, 1).unwrap();
        pbil.population = vec![
            genome(&[true, true]),
            genome(&[true, false]),
            genome(&[false, false]),
        ];
        pbil.tell(&[3.0, 2.0, 1.0]);
        // The best two, 11 and 10, have means 1 and 0.5:
        //   bit 0: 0.9·0.5 + 0.1·1   = 0.55;
        //   bit 1: 0.9·0.5 + 0.1·0.5 = 0.5.
        assert_eq!(pbil.probabilities(), &[0.55, 0.5]);
    }

    #[test]
    fn mutation_shifts_a_probability_towards_zero_or_one() {
        let mut config = PbilConfig::baluja(2);
        (config.learning_rate, config.negative_learning_rate) = (1e-300, 0.0);
        (config.mutation_probability, config.mutation_shift) = (1.0, 0.05);
        let mut pbil = Pbil::new(config, code(), 64, 9).unwrap();
        pbil.tell(&[0.0, 0.0]);
        // Every p (0.5, the learning step too small to move it) is mutated:
        // 0.95·0.5 = 0.475 towards 0, or 0.475 + 0.05 = 0.525 towards 1.
        let p = pbil.probabilities();
        assert!(p
            .iter()
            .all(|&x| (x - 0.475).abs() < 1e-12 || (x - 0.525).abs() < 1e-12));
        // A fair coin: both directions among 64 (each missing with odds 2^-64).
        assert!(p.iter().any(|&x| x < 0.5) && p.iter().any(|&x| x > 0.5));
    }

    /// OneMax on 64 bits, 50 samples, Baluja's settings. Estimate: the best
    /// of N = 50 samples has about z = 2.25 standard deviations more ones
    /// than the mean, so a bit of the best is 1 with frequency
    /// p + z·sqrt(p(1−p)/L), and learning alone drifts p by
    /// dp/dt = LR·z·sqrt(p(1−p)/L) = c·sqrt(p(1−p)), c = 0.1·2.25/8 = 0.028.
    /// With p = sin²θ this is dθ/dt = c/2, so p goes from 0.5 (θ = π/4) to 1
    /// (θ = π/2) in π/(2c) = 56 generations (negative learning only
    /// shortens it: seeds 1–20 took 26–36). Once every p is near 1 (say
    /// 0.99) a sample is all ones with odds 0.99^64 = 0.53, so one of 50 is.
    /// We allow 150 generations, 2.7 times the estimate.
    #[test]
    fn pbil_solves_onemax() {
        for seed in 1..=10 {
            let mut pbil = Pbil::new(PbilConfig::baluja(50), code(), 64, seed).unwrap();
            let solved = (0..150).find(|_| {
                let f = onemax(&pbil);
                let done = f.contains(&64.0);
                pbil.tell(&f);
                done
            });
            assert!(solved.is_some(), "seed {seed}: {:?}", pbil.probabilities());
        }
    }

    #[test]
    fn a_restored_run_draws_the_same_next_samples() {
        let code = BitCode::thesis();
        let mut a = Pbil::new(PbilConfig::baluja(10), code, 7, 42).unwrap();
        for _ in 0..5 {
            let f = onemax(&a);
            a.tell(&f);
        }
        let mut b: Pbil = restore(&checkpoint(&a).unwrap()).unwrap();
        assert_eq!(a, b);
        b.check_state().unwrap();
        for _ in 0..3 {
            let f = onemax(&a);
            a.tell(&f);
            b.tell(&f);
            assert_eq!(a.population(), b.population());
        }
        assert_eq!(checkpoint(&a).unwrap(), checkpoint(&b).unwrap());
    }

    #[test]
    fn bad_parameters_are_refused() {
        let with = |f: fn(&mut PbilConfig)| {
            let mut c = PbilConfig::baluja(10);
            f(&mut c);
            Pbil::new(c, code(), 4, 1).unwrap_err().to_string()
        };
        assert!(with(|c| c.learning_rate = 0.0).contains("(0, 1]"));
        assert!(with(|c| c.learning_rate = 1.5).contains("(0, 1]"));
        assert!(with(|c| c.best = 11).contains("1 to 10"));
        assert!(with(|c| c.samples = 1).contains("at least 2"));
        assert!(with(|c| c.mutation_shift = -0.1).contains("[0, 1]"));
    }
}
