//! Genomes: what evolution manipulates, and how each one decodes to the weights
//! of a net.
//!
//! Two kinds:
//! - [`BitGenome`]: a bit string cut into `k`-bit substrings, one per weight,
//!   each read as plain binary or Gray code and mapped onto `[lo, hi]` by a
//!   [`BitCode`] (the bit-string GAs of MIDI-Connect4, Weaver and the thesis);
//! - [`RealGenome`]: one `f32` per weight, with optional per-weight step sizes
//!   (self-adaptive mutation) and a pruning mask (pruning mutation).
//!
//! Both implement [`Genome`], which is all the engines need: decoding, the
//! variation operators of [`super::operators`], and a diversity measure.

mod bits;
mod real;

pub use bits::{BitCode, BitGenome, Levels};
pub use real::RealGenome;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::operators::{Crossover, Mutation};
use super::EvolveError;
use crate::game::rng::WoprRng;

/// What the evolution engines ask of a genome.
pub trait Genome: Clone + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// Number of positions crossover works on (bits, or real genes).
    fn genes(&self) -> usize;

    /// Number of weights the genome decodes to.
    fn weights(&self) -> usize;

    /// Writes the decoded weights into `out` (length [`Genome::weights`]).
    fn decode_into(&self, out: &mut [f32]);

    /// The decoded weights.
    fn decode(&self) -> Vec<f32> {
        let mut out = vec![0.0; self.weights()];
        self.decode_into(&mut out);
        out
    }

    /// Whether `op` applies to this genome (kind and, for self-adaptation,
    /// whether it carries step sizes); the engines check this before a run.
    fn check_mutation(&self, op: &Mutation) -> Result<(), EvolveError>;

    /// Whether `op` applies to this kind of genome.
    fn check_crossover(&self, op: &Crossover) -> Result<(), EvolveError>;

    /// Applies a mutation in place. Panics if [`Genome::check_mutation`]
    /// rejects `op`.
    fn mutate(&mut self, op: &Mutation, rng: &mut WoprRng);

    /// Two children of `self` and `other` (same length). Panics if
    /// [`Genome::check_crossover`] rejects `op`.
    fn crossover(&self, other: &Self, op: &Crossover, rng: &mut WoprRng) -> (Self, Self);

    /// Spread of a population: the mean distance of its members to their
    /// centroid, per gene (see each kind for the metric). Zero for fewer than
    /// two members.
    fn diversity(population: &[Self]) -> f64;
}
