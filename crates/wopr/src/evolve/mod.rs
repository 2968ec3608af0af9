//! Evolution: genomes, variation, selection, and the engines that evolve a
//! population of weight vectors against a fitness function.
//!
//! The parts, each usable alone:
//! - [`genome`]: bit strings decoded through a [`BitCode`] (binary or Gray,
//!   `k` bits per weight, a range) and real-valued genomes with step sizes and
//!   a pruning mask, behind the [`Genome`] trait;
//! - [`operators`]: mutations and crossovers as plain data ([`Mutation`],
//!   [`Crossover`]);
//! - [`selection`]: [`Selection`] schemes and fitness [`Scaling`];
//! - [`fitness`]: the [`Fitness`] trait (a whole population at a time, so
//!   tournaments and coevolution fit), [`Independent`] for per-genome fitness
//!   evaluated in parallel, and per-generation [`Statistics`].
//!
//! The engines, all implementing [`Engine`] (ask for a population, tell its
//! fitness, get the next):
//! - [`Ga`]: a generational GA driven by a reproductive [`Plan`], with presets
//!   for MIDI-Connect4, Weaver & Bossomaier, the thesis and Naveed & Cowling;
//! - [`OnePlusLambda`]: the (1+λ)-ES with the 1/5 success rule and pruning
//!   mutation (Handa & Horiuchi);
//! - [`SelfAdaptiveEs`]: (μ,λ) and (μ+λ) evolution with self-adaptive step
//!   sizes (Blondie24's evolutionary programming);
//! - [`CmaEs`]: Hansen's (μ/μ_w, λ)-CMA-ES;
//! - [`Pbil`]: Baluja's population-based incremental learning, a probability
//!   per bit of a bit-string genome;
//! - [`Cem`]: the cross-entropy method with Szita & Lőrincz's decreasing
//!   noise, a Gaussian per real gene.
//!
//! Fitness is "higher is better" everywhere.
//!
//! # Determinism and checkpoints
//! Engines hold no random generator. Every random choice of generation `g`
//! comes from [`engine_rng`]`(seed, g, …)` and every evaluation from
//! `stream(seed, &[g, index, …])` (see [`Independent`]), so a run depends only
//! on its seed, never on thread count, and an engine's whole state is plain
//! data: [`checkpoint`] writes it as JSON, [`restore`] reads it back, and a
//! restored run continues exactly as the uninterrupted one would.

pub mod cem;
pub mod cma;
pub mod es;
pub mod fitness;
pub mod ga;
pub mod genome;
pub mod operators;
pub mod pbil;
pub mod schemes;
pub mod selection;

pub use cem::{Cem, CemConfig};
pub use cma::CmaEs;
pub use es::{OnePlusLambda, OnePlusLambdaConfig, SelfAdaptiveConfig, SelfAdaptiveEs};
pub use fitness::{Fitness, Independent, Scores, Statistics, Tally};
pub use ga::{Ga, Plan, Recipe, Share};
pub use genome::{BitCode, BitGenome, Genome, Levels, RealGenome};
pub use operators::{Crossover, Mutation};
pub use pbil::{Pbil, PbilConfig};
pub use selection::{Scaling, Selection};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::game::rng::{stream, WoprRng};

/// What can go wrong setting up or restoring an evolution run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvolveError {
    /// A parameter is out of range or does not fit the genome.
    #[error("{0}")]
    Config(String),
    /// A checkpoint could not be written or read.
    #[error("checkpoint: {0}")]
    Checkpoint(String),
}

/// First element of every engine stream path; evaluations use paths that
/// start with the generation, so the two never meet.
const ENGINE_STREAM: u64 = 0x4556_4F4C_5645; // "EVOLVE"
/// First element of initial-population streams.
const INIT_STREAM: u64 = 0x494E_4954; // "INIT"

/// The generator an engine uses for its random choices in `generation`
/// (`part` separates independent uses within one generation).
pub fn engine_rng(seed: u64, generation: u64, part: u64) -> WoprRng {
    stream(seed, &[ENGINE_STREAM, generation, part])
}

/// The generator for initial individual `index` of a run: build initial
/// populations as `(0..n).map(|i| BitGenome::random(code, w, &mut init_rng(seed, i)))`.
pub fn init_rng(seed: u64, index: u64) -> WoprRng {
    stream(seed, &[INIT_STREAM, index])
}

/// An evolution engine in ask-and-tell form: [`Engine::population`] is what
/// must be evaluated this generation; [`Engine::tell`] takes its fitness
/// (same order) and moves to the next generation.
pub trait Engine: Serialize + DeserializeOwned {
    /// The genome kind evolved.
    type Genome: Genome;

    /// The individuals to evaluate this generation.
    fn population(&self) -> &[Self::Genome];

    /// The current generation (0 before the first `tell`).
    fn generation(&self) -> u64;

    /// The run seed.
    fn seed(&self) -> u64;

    /// Fitness evaluations told so far.
    fn evaluations(&self) -> u64;

    /// Takes the fitness of [`Engine::population`] (one value per member,
    /// higher is better; NaN counts as worst) and breeds the next generation.
    /// Panics if the length is wrong.
    fn tell(&mut self, fitness: &[f64]);

    /// Checks a state read back from a checkpoint (counters that agree,
    /// finite numbers, settings in range) before a run goes on from it.
    fn check_state(&self) -> Result<(), String>;
}

/// One generation's outcome: its statistics and its best individual.
#[derive(Clone, Debug)]
pub struct Evaluated<G> {
    /// Statistics of the evaluated population.
    pub stats: Statistics,
    /// The best individual of the generation (first of equals).
    pub champion: G,
}

/// Evaluates the engine's population with `fitness` (at the engine's
/// generation and seed), tells the engine, and reports the generation.
pub fn step<E: Engine, F: Fitness<E::Genome> + ?Sized>(
    engine: &mut E,
    fitness: &F,
) -> Evaluated<E::Genome> {
    let generation = engine.generation();
    let scores = fitness.score(engine.population(), generation, engine.seed());
    let stats = Statistics::of_scores(
        engine.population(),
        &scores,
        generation,
        engine.evaluations() + scores.fitness.len() as u64,
    );
    let champion = engine.population()[stats.best_index].clone();
    engine.tell(&scores.fitness);
    Evaluated { stats, champion }
}

/// Runs `generations` generations; returns each one's statistics.
pub fn run<E: Engine, F: Fitness<E::Genome> + ?Sized>(
    engine: &mut E,
    fitness: &F,
    generations: u64,
) -> Vec<Statistics> {
    (0..generations)
        .map(|_| step(engine, fitness).stats)
        .collect()
}

/// The engine's whole state as JSON.
pub fn checkpoint<E: Serialize>(engine: &E) -> Result<String, EvolveError> {
    serde_json::to_string(engine).map_err(|e| EvolveError::Checkpoint(e.to_string()))
}

/// An engine read back from [`checkpoint`]'s JSON.
pub fn restore<E: DeserializeOwned>(json: &str) -> Result<E, EvolveError> {
    serde_json::from_str(json).map_err(|e| EvolveError::Checkpoint(e.to_string()))
}

/// Checks a fitness slice against the population size (engines' `tell`).
fn check_told(expected: usize, got: usize) {
    assert_eq!(
        got, expected,
        "tell: {got} fitness values for a population of {expected}"
    );
}

/// NaN as the worst possible fitness.
fn sane(f: f64) -> f64 {
    if f.is_nan() {
        f64::NEG_INFINITY
    } else {
        f
    }
}
