//! Evolution strategies on real-valued genomes: the (1+λ)-ES with the 1/5
//! success rule and pruning mutation, and (μ,λ)/(μ+λ) evolution with
//! self-adaptive step sizes.
//!
//! **References.**
//! - H. Handa and T. Horiuchi, "Evolutionary constitution of game player
//!   agents", *Proc. 41st SICE Annual Conference (SICE 2002)*, 2002.

use serde::{Deserialize, Serialize};

use super::genome::{Genome, RealGenome};
use super::operators::Mutation;
use super::selection::ranked;
use super::{check_told, engine_rng, sane, Engine, EvolveError};

/// Settings of [`OnePlusLambda`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnePlusLambdaConfig {
    /// Children per generation.
    pub lambda: usize,
    /// Probability that a gene gets Gaussian noise in a child.
    pub mutation_rate: f64,
    /// Probability that an unpruned gene is pruned in a child.
    pub prune_rate: f64,
    /// The initial step size σ.
    pub sigma: f64,
    /// Generations per 1/5-rule adjustment.
    pub window: u64,
    /// The 1/5-rule factor `c` (σ/c above a 1/5 success rate, σ·c below).
    pub factor: f64,
}

impl OnePlusLambdaConfig {
    /// Handa & Horiuchi's setting for Tic-Tac-Toe: Gaussian mutation of each
    /// weight with probability 0.2, pruning with probability 0.005, initial
    /// σ 0.05 (the paper says "variance"; it is used as the step size here),
    /// λ = 9. The paper gives no 1/5-rule constants; Schwefel's `c = 0.817`
    /// (as in Bäck's book, the paper's reference) is applied every 10
    /// generations.
    pub fn handa_tictactoe() -> Self {
        OnePlusLambdaConfig {
            lambda: 9,
            mutation_rate: 0.2,
            prune_rate: 0.005,
            sigma: 0.05,
            window: 10,
            factor: 0.817,
        }
    }

    /// Handa & Horiuchi's setting for 6x6 Reversi: as Tic-Tac-Toe with λ = 19.
    pub fn handa_reversi() -> Self {
        OnePlusLambdaConfig {
            lambda: 19,
            ..Self::handa_tictactoe()
        }
    }

    fn check(&self) -> Result<(), EvolveError> {
        if self.lambda == 0 {
            return Err(EvolveError::Config("lambda must be at least 1".into()));
        }
        Mutation::Gaussian {
            rate: self.mutation_rate,
            sigma: self.sigma as f32,
        }
        .check()?;
        Mutation::Prune {
            rate: self.prune_rate,
        }
        .check()?;
        if !(self.sigma.is_finite() && self.sigma > 0.0) {
            return Err(EvolveError::Config(format!(
                "sigma must be positive, not {}",
                self.sigma
            )));
        }
        if self.window == 0 {
            return Err(EvolveError::Config(
                "the 1/5-rule window must be at least 1 generation".into(),
            ));
        }
        if !(self.factor > 0.0 && self.factor < 1.0) {
            return Err(EvolveError::Config(format!(
                "the 1/5-rule factor must be in (0, 1), not {}",
                self.factor
            )));
        }
        Ok(())
    }
}

/// The (1+λ)-ES of Handa & Horiuchi: one parent, λ children made by Gaussian
/// mutation (step size σ) and pruning mutation; the best of the 1+λ becomes
/// the next parent.
///
/// The population to evaluate is `[parent, child 1, …, child λ]`: the parent
/// is re-evaluated every generation, as fitness may change (coevolution). A
/// child at least as fit as the parent replaces it (the first of the best
/// children), which lets the search drift across plateaus.
///
/// The 1/5 success rule (Rechenberg): a child is a success when strictly
/// fitter than its parent; every `window` generations, if more than a fifth of
/// that window's children succeeded σ is divided by `factor`, if fewer it is
/// multiplied by it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnePlusLambda {
    /// The settings.
    pub config: OnePlusLambdaConfig,
    seed: u64,
    generation: u64,
    evaluations: u64,
    sigma: f64,
    successes: u64,
    trials: u64,
    population: Vec<RealGenome>,
}

impl OnePlusLambda {
    /// An ES starting from `parent` at generation 0.
    pub fn new(
        config: OnePlusLambdaConfig,
        seed: u64,
        parent: RealGenome,
    ) -> Result<Self, EvolveError> {
        config.check()?;
        let sigma = config.sigma;
        let mut es = OnePlusLambda {
            config,
            seed,
            generation: 0,
            evaluations: 0,
            sigma,
            successes: 0,
            trials: 0,
            population: vec![parent],
        };
        es.breed();
        Ok(es)
    }

    /// The current step size σ.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// The current parent.
    pub fn parent(&self) -> &RealGenome {
        &self.population[0]
    }

    /// Successes and children counted in the current 1/5-rule window.
    pub fn window_counts(&self) -> (u64, u64) {
        (self.successes, self.trials)
    }

    fn breed(&mut self) {
        let mut rng = engine_rng(self.seed, self.generation, 0);
        let parent = self.population[0].clone();
        let gauss = Mutation::Gaussian {
            rate: self.config.mutation_rate,
            sigma: self.sigma as f32,
        };
        let prune = Mutation::Prune {
            rate: self.config.prune_rate,
        };
        self.population.truncate(1);
        for _ in 0..self.config.lambda {
            let mut child = parent.clone();
            child.mutate(&gauss, &mut rng);
            child.mutate(&prune, &mut rng);
            self.population.push(child);
        }
    }
}

impl Engine for OnePlusLambda {
    /// Checks that the state read from a checkpoint is consistent: its
    /// settings as a new run's, a positive finite σ, and the parent with
    /// its λ children.
    fn check_state(&self) -> Result<(), String> {
        self.config.check().map_err(|e| e.to_string())?;
        if !(self.sigma.is_finite() && self.sigma > 0.0) {
            return Err(format!("the (1+λ)-ES has step size {}", self.sigma));
        }
        if self.population.len() != self.config.lambda + 1 {
            return Err(format!(
                "the (1+λ)-ES holds {} genomes, its settings make {}",
                self.population.len(),
                self.config.lambda + 1
            ));
        }
        Ok(())
    }

    type Genome = RealGenome;

    fn population(&self) -> &[RealGenome] {
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
        let parent = sane(fitness[0]);
        let mut best = 0;
        for (i, &f) in fitness.iter().enumerate().skip(1) {
            let f = sane(f);
            if f > parent {
                self.successes += 1;
            }
            if f > sane(fitness[best]) || (best == 0 && f >= parent) {
                best = i;
            }
        }
        self.trials += self.config.lambda as u64;
        if (self.generation + 1).is_multiple_of(self.config.window) {
            // Compare successes/trials with 1/5 in integers.
            let (s5, t) = (5 * self.successes, self.trials);
            if s5 > t {
                self.sigma /= self.config.factor;
            } else if s5 < t {
                self.sigma *= self.config.factor;
            }
            self.successes = 0;
            self.trials = 0;
        }
        self.population.swap(0, best);
        self.evaluations += fitness.len() as u64;
        self.generation += 1;
        self.breed();
    }
}

/// Settings of [`SelfAdaptiveEs`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfAdaptiveConfig {
    /// Parents kept each generation (μ).
    pub mu: usize,
    /// Children made each generation (λ).
    pub lambda: usize,
    /// (μ+λ): parents compete with their children; (μ,λ) otherwise.
    pub plus: bool,
    /// The self-adaptive mutation ([`Mutation::SelfAdaptive`]).
    pub mutation: Mutation,
}

impl SelfAdaptiveConfig {
    /// Blondie24's evolutionary programming (Chellapilla & Fogel): 15
    /// parents each make one child, parents and children compete (μ+λ), and
    /// each weight's step size mutates as `σ' = σ·exp(τ·N(0,1))` with
    /// `τ = 1/sqrt(2·sqrt(n))` before the weight moves by `σ'·N(0,1)`. Their
    /// initial step size 0.05 belongs to the genomes
    /// ([`RealGenome::with_sigmas`]).
    pub fn blondie24() -> Self {
        SelfAdaptiveConfig {
            mu: 15,
            lambda: 15,
            plus: true,
            mutation: Mutation::SelfAdaptive {
                tau_scale: 1.0,
                tau_prime_scale: 0.0,
                min_sigma: 0.0,
            },
        }
    }
}

/// (μ,λ) or (μ+λ) evolution with self-adaptive step sizes: child `k` is a
/// mutated copy of parent `k mod μ`; the best μ of the children (or of parents
/// and children together) are the next parents.
///
/// The population to evaluate is the children for (μ,λ) and parents followed
/// by children for (μ+λ) (parents are re-evaluated each generation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelfAdaptiveEs {
    /// The settings.
    pub config: SelfAdaptiveConfig,
    seed: u64,
    generation: u64,
    evaluations: u64,
    parents: Vec<RealGenome>,
    population: Vec<RealGenome>,
}

/// Checks a self-adaptive ES's settings against its parents (exactly μ,
/// of one length, each with step sizes), for a new run and for a state
/// read back from a checkpoint.
fn check_config(config: &SelfAdaptiveConfig, parents: &[RealGenome]) -> Result<(), EvolveError> {
    if config.mu == 0 || config.lambda == 0 {
        return Err(EvolveError::Config(
            "mu and lambda must be at least 1".into(),
        ));
    }
    if !config.plus && config.lambda < config.mu {
        return Err(EvolveError::Config(format!(
            "a (mu,lambda) strategy needs lambda >= mu, not {} < {}",
            config.lambda, config.mu
        )));
    }
    if !matches!(config.mutation, Mutation::SelfAdaptive { .. }) {
        return Err(EvolveError::Config(format!(
            "needs self-adaptive mutation, not {}",
            config.mutation.name()
        )));
    }
    if parents.len() != config.mu {
        return Err(EvolveError::Config(format!(
            "{} initial parents for mu = {}",
            parents.len(),
            config.mu
        )));
    }
    for p in parents {
        p.check_mutation(&config.mutation)?;
        if p.len() != parents[0].len() {
            return Err(EvolveError::Config(
                "initial parents differ in length".into(),
            ));
        }
    }
    Ok(())
}

impl SelfAdaptiveEs {
    /// An ES whose first parents are `parents` (exactly μ, each with step
    /// sizes).
    pub fn new(
        config: SelfAdaptiveConfig,
        seed: u64,
        parents: Vec<RealGenome>,
    ) -> Result<Self, EvolveError> {
        check_config(&config, &parents)?;
        let mut es = SelfAdaptiveEs {
            config,
            seed,
            generation: 0,
            evaluations: 0,
            parents,
            population: Vec::new(),
        };
        es.breed();
        Ok(es)
    }

    /// The current parents.
    pub fn parents(&self) -> &[RealGenome] {
        &self.parents
    }

    fn breed(&mut self) {
        let mut rng = engine_rng(self.seed, self.generation, 0);
        let mut next = if self.config.plus {
            self.parents.clone()
        } else {
            Vec::new()
        };
        for k in 0..self.config.lambda {
            let mut child = self.parents[k % self.config.mu].clone();
            child.mutate(&self.config.mutation, &mut rng);
            next.push(child);
        }
        self.population = next;
    }
}

impl Engine for SelfAdaptiveEs {
    /// Checks that the state read from a checkpoint is consistent: every
    /// parent and child carries one step size per gene.
    fn check_state(&self) -> Result<(), String> {
        let all = self.parents.iter().chain(&self.population);
        if all.clone().any(|g| g.sigmas.len() != g.genes.len()) {
            return Err("a self-adaptive genome lacks one step size per gene".into());
        }
        if self.parents.is_empty() {
            return Err("the self-adaptive ES has no parents".into());
        }
        // Its settings are stored with it: check them as a new run's are
        // (mu = 0 divided by zero in the next generation).
        check_config(&self.config, &self.parents).map_err(|e| e.to_string())?;
        let children = self.config.lambda + if self.config.plus { self.config.mu } else { 0 };
        if self.population.len() != children {
            return Err(format!(
                "the self-adaptive ES has {} children, its settings make {children}",
                self.population.len()
            ));
        }
        Ok(())
    }

    type Genome = RealGenome;

    fn population(&self) -> &[RealGenome] {
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
        let order = ranked(fitness);
        self.parents = order[..self.config.mu]
            .iter()
            .map(|&i| self.population[i].clone())
            .collect();
        self.evaluations += fitness.len() as u64;
        self.generation += 1;
        self.breed();
    }
}
