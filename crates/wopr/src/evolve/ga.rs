//! The generational genetic algorithm: a reproductive [`Plan`] turns one
//! evaluated population into the next; [`Ga`] runs it as an [`Engine`].
//!
//! One plan has five parts, and every paper's GA is a setting of them:
//! 1. **elites**: the best individuals copied unchanged (Weaver's single
//!    elitism; the thesis keeps the best half; Naveed & Cowling the top N/3);
//! 2. **pool**: the best individuals eligible as parents (MIDI-Connect4's top
//!    100 of 200);
//! 3. **scaling** of the pool's fitness ([`Scaling`]);
//! 4. **selection** of parents from the pool ([`Selection`]);
//! 5. **recipes**: each child (or pair of children) is made by a recipe drawn
//!    by weight: an optional crossover of two parents, then mutations.
//!
//! The rest of the population is filled with children. All recipes are drawn
//! first, then all parents at once (so stochastic universal sampling spreads
//! them as the thesis's framework does), then the children are made in order.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::genome::Genome;
use super::operators::{Crossover, Mutation};
use super::selection::{ranked, Scaling, Selection};
use super::{check_told, engine_rng, Engine, EvolveError};
use crate::game::rng::WoprRng;

/// A number of individuals, fixed or as a share of the population.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Share {
    /// The whole population.
    All,
    /// This many (capped at the population size).
    Count(usize),
    /// `round(f·N)` of a population of `N`, `f` in [0, 1].
    Fraction(f64),
}

impl Share {
    /// How many individuals of a population of `n`.
    pub fn of(&self, n: usize) -> usize {
        match *self {
            Share::All => n,
            Share::Count(k) => k.min(n),
            Share::Fraction(f) => ((f * n as f64).round() as usize).min(n),
        }
    }

    fn check(&self, what: &str) -> Result<(), EvolveError> {
        match *self {
            Share::Fraction(f) if !(0.0..=1.0).contains(&f) => Err(EvolveError::Config(format!(
                "{what} fraction must be in [0, 1], not {f}"
            ))),
            _ => Ok(()),
        }
    }
}

/// One way to make children: an optional crossover (two parents, two
/// children) or a copy of one parent (one child), then mutations in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    /// Relative odds of this recipe (non-negative).
    pub weight: f64,
    /// Crossover of two parents, or none (the parent is cloned).
    #[serde(default)]
    pub crossover: Option<Crossover>,
    /// Mutations applied to each child, in order.
    #[serde(default)]
    pub mutations: Vec<Mutation>,
}

impl Recipe {
    /// A recipe with these odds, crossover and mutations.
    pub fn new(weight: f64, crossover: Option<Crossover>, mutations: Vec<Mutation>) -> Self {
        Recipe {
            weight,
            crossover,
            mutations,
        }
    }

    fn parents(&self) -> usize {
        if self.crossover.is_some() {
            2
        } else {
            1
        }
    }
}

/// A reproductive plan (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// The best individuals carried over unchanged.
    pub elites: Share,
    /// The best individuals eligible as parents (at least one).
    pub pool: Share,
    /// Scaling of the pool's fitness before selection.
    #[serde(default)]
    pub scaling: Scaling,
    /// How parents are drawn from the pool.
    pub selection: Selection,
    /// How children are made; drawn by weight.
    pub recipes: Vec<Recipe>,
}

/// Weaver & Bossomaier's higher bit-mutation rate (0.5%).
pub const WEAVER_MUTATION_HIGH: f64 = 0.005;
/// Weaver & Bossomaier's lower bit-mutation rate (0.072%).
pub const WEAVER_MUTATION_LOW: f64 = 0.00072;

impl Plan {
    /// MIDI-Connect4 (Miranda & Zhang; population 200): the best half is the
    /// parent pool; parents are drawn by roulette; each child comes from
    /// one-point crossover (odds 0.7, two children), bit-flip mutation (0.25)
    /// or cloning (0.05); no elites. The paper gives neither the per-bit
    /// mutation rate nor how negative scores (±2 per game) meet the roulette
    /// wheel: here bits flip with probability 0.001, and the pool's scores are
    /// shifted so the worst parent has weight 1 (half a win).
    pub fn midi_connect4() -> Self {
        Plan {
            elites: Share::Count(0),
            pool: Share::Fraction(0.5),
            scaling: Scaling {
                shift_min: true,
                offset: 1.0,
                linear: None,
            },
            selection: Selection::Roulette,
            recipes: vec![
                Recipe::new(0.7, Some(Crossover::OnePoint), vec![]),
                Recipe::new(0.25, None, vec![Mutation::BitFlip { rate: 0.001 }]),
                Recipe::new(0.05, None, vec![]),
            ],
        }
    }

    /// Weaver & Bossomaier (population 100): fitness-proportional selection
    /// (roulette), one-point crossover with probability 0.6, bit-flip mutation
    /// of every child at `mutation_rate` ([`WEAVER_MUTATION_HIGH`] or
    /// [`WEAVER_MUTATION_LOW`]), single elitism, and a small bonus fitness
    /// (0.01; its value is lost from the paper's text) so an all-zero
    /// population stays selectable. With `direct` (evolution against a fixed
    /// opponent) Goldberg's linear scaling makes the best expect 10% of the
    /// population's copies (`c_mult = 0.1·N`, 10 for 100); coevolution runs
    /// unscaled.
    pub fn weaver(mutation_rate: f64, direct: bool, population: usize) -> Self {
        let flip = Mutation::BitFlip {
            rate: mutation_rate,
        };
        Plan {
            elites: Share::Count(1),
            pool: Share::All,
            scaling: Scaling {
                shift_min: false,
                offset: 0.01,
                linear: direct.then_some((0.1 * population as f64).max(1.01)),
            },
            selection: Selection::Roulette,
            recipes: vec![
                Recipe::new(0.6, Some(Crossover::OnePoint), vec![flip.clone()]),
                Recipe::new(0.4, None, vec![flip]),
            ],
        }
    }

    /// The thesis's binary GA (Horner §4.3): each generation the best half
    /// survives and the other half are children of parents drawn with
    /// probability proportional to rank (by stochastic universal sampling,
    /// the framework's sampler), made by one-point crossover followed by
    /// bit-flip mutation at 0.03 per bit.
    pub fn thesis_binary() -> Self {
        Plan {
            elites: Share::Fraction(0.5),
            pool: Share::All,
            scaling: Scaling::default(),
            selection: Selection::Rank {
                pressure: None,
                universal: true,
            },
            recipes: vec![Recipe::new(
                1.0,
                Some(Crossover::OnePoint),
                vec![Mutation::BitFlip { rate: 0.03 }],
            )],
        }
    }

    /// The thesis's real-valued GA (Horner §4.4), for weights in [−1, 1]: the
    /// same survival and selection as [`Plan::thesis_binary`]; children by
    /// creep mutation, two-point crossover or Laplace crossover with equal
    /// odds. The thesis gives no creep parameters: here each gene creeps with
    /// probability 0.03 (its binary mutation rate) by 0.1 (its binary
    /// precision), clamped to [−1, 1]; LX uses location 0 and scale 0.15.
    pub fn thesis_real() -> Self {
        Self::thesis_real_with(Crossover::Laplace {
            location: 0.0,
            scale: 0.15,
        })
    }

    /// The thesis's real-valued GA with its "LX" crossover as the thesis
    /// describes it: each gene a random number between the parents' values
    /// (BLX-0, a uniform blend), in place of Laplace crossover.
    pub fn thesis_real_blend() -> Self {
        Self::thesis_real_with(Crossover::Blx { alpha: 0.0 })
    }

    /// [`Plan::thesis_real`] with `blend` as its third recipe's crossover.
    fn thesis_real_with(blend: Crossover) -> Self {
        Plan {
            elites: Share::Fraction(0.5),
            pool: Share::All,
            scaling: Scaling::default(),
            selection: Selection::Rank {
                pressure: None,
                universal: true,
            },
            recipes: vec![
                Recipe::new(
                    1.0,
                    None,
                    vec![Mutation::Creep {
                        rate: 0.03,
                        step: 0.1,
                        lo: -1.0,
                        hi: 1.0,
                    }],
                ),
                Recipe::new(1.0, Some(Crossover::TwoPoint), vec![]),
                Recipe::new(1.0, Some(blend), vec![]),
            ],
        }
    }

    /// Naveed & Cowling: the top N/3 by fitness survive and are the parents;
    /// pairs of them make the other 2N/3 by two-point crossover (with
    /// probability `crossover_rate`, 0 or 0.2 in the paper; otherwise the
    /// parent is copied) and Gaussian mutation of every child. Their Gaussian
    /// mutation is Yao & Liu's self-adaptive one, so genomes need step sizes
    /// ([`super::RealGenome::with_sigmas`]). With `paired` the parents are
    /// the top N/3 each used twice, in shuffled pairs (our reading of
    /// "paired to reproduce 2N/3"); without, each parent is drawn uniformly
    /// from the top N/3 with replacement.
    pub fn naveed_with(crossover_rate: f64, paired: bool) -> Self {
        let mut plan = Plan::naveed(crossover_rate);
        if paired {
            plan.selection = Selection::Paired {
                fraction: 1.0 / 3.0,
            };
        }
        plan
    }

    /// [`Plan::naveed_with`] with parents drawn with replacement from the
    /// top N/3.
    pub fn naveed(crossover_rate: f64) -> Self {
        let gauss = Mutation::SelfAdaptive {
            tau_scale: 1.0,
            tau_prime_scale: 1.0,
            min_sigma: 1e-6,
        };
        Plan {
            elites: Share::Fraction(1.0 / 3.0),
            pool: Share::All,
            scaling: Scaling::default(),
            selection: Selection::Truncation {
                fraction: 1.0 / 3.0,
            },
            recipes: vec![
                Recipe::new(
                    crossover_rate,
                    Some(Crossover::TwoPoint),
                    vec![gauss.clone()],
                ),
                Recipe::new(1.0 - crossover_rate, None, vec![gauss]),
            ],
        }
    }

    /// Checks the plan's parameters and that every operator fits `sample`.
    pub fn check<G: Genome>(&self, sample: &G) -> Result<(), EvolveError> {
        self.elites.check("elites")?;
        self.pool.check("parent pool")?;
        self.scaling.check()?;
        self.selection.check()?;
        if self.recipes.is_empty() {
            return Err(EvolveError::Config(
                "a plan needs at least one recipe".into(),
            ));
        }
        let mut total = 0.0;
        for r in &self.recipes {
            if !(r.weight.is_finite() && r.weight >= 0.0) {
                return Err(EvolveError::Config(format!(
                    "recipe weight must be >= 0, not {}",
                    r.weight
                )));
            }
            total += r.weight;
            if let Some(c) = &r.crossover {
                sample.check_crossover(c)?;
            }
            for m in &r.mutations {
                sample.check_mutation(m)?;
            }
        }
        if total <= 0.0 {
            return Err(EvolveError::Config(
                "recipe weights must not all be zero".into(),
            ));
        }
        Ok(())
    }

    /// The next population from an evaluated one (same size): elites first,
    /// best first, then children in the order made.
    pub fn step<G: Genome>(&self, population: &[G], fitness: &[f64], rng: &mut WoprRng) -> Vec<G> {
        let n = population.len();
        assert_eq!(fitness.len(), n, "one fitness per member");
        let order = ranked(fitness);
        let elites = self.elites.of(n);
        let mut next: Vec<G> = order[..elites]
            .iter()
            .map(|&i| population[i].clone())
            .collect();
        let need = n - elites;
        if need == 0 {
            return next;
        }
        let pool = &order[..self.pool.of(n).max(1)];
        let pool_fitness: Vec<f64> = pool.iter().map(|&i| super::sane(fitness[i])).collect();
        let weights = self.scaling.apply(&pool_fitness);

        // Draw the recipes, then all parents at once.
        let total: f64 = self.recipes.iter().map(|r| r.weight).sum();
        let mut chosen = Vec::new();
        let (mut made, mut parents) = (0, 0);
        while made < need {
            let mut x = rng.random::<f64>() * total;
            let mut pick = self.recipes.len() - 1;
            for (k, r) in self.recipes.iter().enumerate() {
                if x < r.weight {
                    pick = k;
                    break;
                }
                x -= r.weight;
            }
            // Skip a zero-weight last recipe that rounding could land on.
            while self.recipes[pick].weight <= 0.0 {
                pick -= 1;
            }
            let arity = self.recipes[pick].parents();
            chosen.push(pick);
            made += arity;
            parents += arity;
        }
        let picks = self.selection.select(&weights, parents, rng);

        let mut it = picks.iter().map(|&p| &population[pool[p]]);
        for &k in &chosen {
            let recipe = &self.recipes[k];
            let kids = match &recipe.crossover {
                Some(c) => {
                    let (a, b) = (it.next().expect("parent"), it.next().expect("parent"));
                    let (x, y) = a.crossover(b, c, rng);
                    vec![x, y]
                }
                None => vec![it.next().expect("parent").clone()],
            };
            for mut kid in kids {
                if next.len() == n {
                    break;
                }
                for m in &recipe.mutations {
                    kid.mutate(m, rng);
                }
                next.push(kid);
            }
        }
        next
    }
}

/// A generational GA: a [`Plan`] applied once per generation, with the
/// generation's randomness from [`engine_rng`]`(seed, generation, 0)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "G: Genome")]
pub struct Ga<G> {
    /// The reproductive plan.
    pub plan: Plan,
    seed: u64,
    generation: u64,
    evaluations: u64,
    population: Vec<G>,
}

impl<G: Genome> Ga<G> {
    /// A GA starting from `population` (generation 0), after checking the
    /// plan against it.
    pub fn new(plan: Plan, seed: u64, population: Vec<G>) -> Result<Self, EvolveError> {
        let Some(first) = population.first() else {
            return Err(EvolveError::Config(
                "the initial population is empty".into(),
            ));
        };
        if population.iter().any(|g| g.genes() != first.genes()) {
            return Err(EvolveError::Config(
                "genomes of the initial population differ in length".into(),
            ));
        }
        plan.check(first)?;
        Ok(Ga {
            plan,
            seed,
            generation: 0,
            evaluations: 0,
            population,
        })
    }
}

impl<G: Genome> Engine for Ga<G> {
    type Genome = G;

    /// The stored plan against the population's genomes (recipe weights
    /// that are all zero used to panic).
    fn check_state(&self) -> Result<(), String> {
        match self.population.first() {
            Some(sample) => self
                .plan
                .check(sample)
                .map_err(|e| format!("its GA plan: {e}")),
            None => Ok(()),
        }
    }

    fn population(&self) -> &[G] {
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
        let mut rng = engine_rng(self.seed, self.generation, 0);
        self.population = self.plan.step(&self.population, fitness, &mut rng);
        self.evaluations += fitness.len() as u64;
        self.generation += 1;
    }
}
