//! Real-valued genomes: one gene per weight, with optional step sizes and a
//! pruning mask; and their Gaussian, self-adaptive and pruning mutations and
//! blend crossovers.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::Genome;
use crate::evolve::operators::{
    for_each_chosen, positional_crossover, standard_normal, Crossover, Mutation, Positional,
};
use crate::evolve::EvolveError;
use crate::game::rng::WoprRng;

/// A real-valued genome: one gene per weight, decoded as is.
///
/// It may carry per-gene step sizes (`sigmas`, used by self-adaptive Gaussian
/// mutation) and a pruning mask: a pruned gene is zero and stays zero under
/// every later mutation and crossover (Handa & Horiuchi's pruning mutation cuts
/// a link of the net for good).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "StoredRealGenome")]
pub struct RealGenome {
    /// The genes (= weights).
    pub genes: Vec<f32>,
    /// Per-gene step sizes for self-adaptive mutation; empty when unused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sigmas: Vec<f32>,
    /// Pruned genes as a bitset (gene `i` is word `i / 64`, bit `i % 64`);
    /// empty when nothing is pruned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pruned: Vec<u64>,
}

/// A real genome as read from a file, before its values are checked.
#[derive(Deserialize)]
struct StoredRealGenome {
    genes: Vec<f32>,
    #[serde(default)]
    sigmas: Vec<f32>,
    #[serde(default)]
    pruned: Vec<u64>,
}

impl TryFrom<StoredRealGenome> for RealGenome {
    type Error = String;

    /// Genes and step sizes read back must be finite f32 values: a number
    /// beyond f32's range reads as an infinity, which JSON cannot write
    /// back (found by the checkpoint fuzz target), and the pruning bitset
    /// may not outgrow the genes.
    fn try_from(g: StoredRealGenome) -> Result<Self, String> {
        if let Some(x) = g.genes.iter().chain(&g.sigmas).find(|x| !x.is_finite()) {
            return Err(format!(
                "a real genome holds {x}, outside the finite f32 range"
            ));
        }
        if g.pruned.len() > g.genes.len().div_ceil(64) {
            return Err(format!(
                "a real genome of {} genes has {} pruning words",
                g.genes.len(),
                g.pruned.len()
            ));
        }
        Ok(RealGenome {
            genes: g.genes,
            sigmas: g.sigmas,
            pruned: g.pruned,
        })
    }
}

impl RealGenome {
    /// A genome with these genes, no step sizes and nothing pruned.
    pub fn new(genes: Vec<f32>) -> Self {
        RealGenome {
            genes,
            sigmas: Vec::new(),
            pruned: Vec::new(),
        }
    }

    /// `n` genes drawn uniformly from `[lo, hi)`.
    pub fn uniform(n: usize, lo: f32, hi: f32, rng: &mut WoprRng) -> Self {
        Self::new(
            (0..n)
                .map(|_| lo + (hi - lo) * rng.random::<f32>())
                .collect(),
        )
    }

    /// The same genome with every step size set to `sigma`.
    pub fn with_sigmas(mut self, sigma: f32) -> Self {
        self.sigmas = vec![sigma; self.genes.len()];
        self
    }

    /// Number of genes.
    pub fn len(&self) -> usize {
        self.genes.len()
    }

    /// Whether there are no genes.
    pub fn is_empty(&self) -> bool {
        self.genes.is_empty()
    }

    /// Whether gene `i` is pruned.
    pub fn is_pruned(&self, i: usize) -> bool {
        self.pruned
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Prunes gene `i`: sets it to zero for good.
    pub fn prune(&mut self, i: usize) {
        if self.pruned.is_empty() {
            self.pruned = vec![0; self.genes.len().div_ceil(64)];
        }
        self.pruned[i / 64] |= 1u64 << (i % 64);
        self.genes[i] = 0.0;
    }

    /// Number of pruned genes.
    pub fn pruned_count(&self) -> usize {
        self.pruned.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Euclidean distance between the genes of two genomes.
    pub fn distance(&self, other: &Self) -> f64 {
        self.genes
            .iter()
            .zip(&other.genes)
            .map(|(a, b)| (f64::from(*a) - f64::from(*b)).powi(2))
            .sum::<f64>()
            .sqrt()
    }

    /// Makes pruned genes zero again (after an operator wrote to them).
    pub(super) fn enforce_mask(&mut self) {
        for (w, &word) in self.pruned.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                self.genes[i] = 0.0;
                bits &= bits - 1;
            }
        }
    }
}

impl Positional for RealGenome {
    fn positions(&self) -> usize {
        self.genes.len()
    }

    fn swap_range(&mut self, other: &mut Self, start: usize, end: usize) {
        self.genes[start..end].swap_with_slice(&mut other.genes[start..end]);
        if !self.sigmas.is_empty() && !other.sigmas.is_empty() {
            self.sigmas[start..end].swap_with_slice(&mut other.sigmas[start..end]);
        }
        for i in start..end {
            swap_pruned(self, other, i);
        }
    }

    fn swap_uniform(&mut self, other: &mut Self, rng: &mut WoprRng) {
        for i in 0..self.genes.len() {
            if rng.random::<bool>() {
                std::mem::swap(&mut self.genes[i], &mut other.genes[i]);
                if !self.sigmas.is_empty() && !other.sigmas.is_empty() {
                    std::mem::swap(&mut self.sigmas[i], &mut other.sigmas[i]);
                }
                swap_pruned(self, other, i);
            }
        }
    }
}

/// Exchanges the pruning flags of gene `i` (a pruned gene moves with its
/// position, and stays zero in its new genome).
fn swap_pruned(a: &mut RealGenome, b: &mut RealGenome, i: usize) {
    let (pa, pb) = (a.is_pruned(i), b.is_pruned(i));
    if pa != pb {
        if pb {
            a.prune(i);
            b.pruned[i / 64] &= !(1u64 << (i % 64));
        } else {
            b.prune(i);
            a.pruned[i / 64] &= !(1u64 << (i % 64));
        }
    }
}

impl Genome for RealGenome {
    fn genes(&self) -> usize {
        self.genes.len()
    }

    fn weights(&self) -> usize {
        self.genes.len()
    }

    fn decode_into(&self, out: &mut [f32]) {
        out.copy_from_slice(&self.genes);
    }

    fn check_mutation(&self, op: &Mutation) -> Result<(), EvolveError> {
        match op {
            Mutation::BitFlip { .. } => Err(EvolveError::Config(
                "bit-flip mutation applies to bit strings, not real-valued genomes".into(),
            )),
            Mutation::SelfAdaptive { .. } if self.sigmas.len() != self.genes.len() => {
                Err(EvolveError::Config(
                    "self-adaptive mutation needs a step size per gene (RealGenome::with_sigmas)"
                        .into(),
                ))
            }
            _ => op.check(),
        }
    }

    fn check_crossover(&self, op: &Crossover) -> Result<(), EvolveError> {
        op.check()
    }

    fn mutate(&mut self, op: &Mutation, rng: &mut WoprRng) {
        mutate_real(self, op, rng);
    }

    fn crossover(&self, other: &Self, op: &Crossover, rng: &mut WoprRng) -> (Self, Self) {
        assert_eq!(
            self.len(),
            other.len(),
            "crossover of genomes of different lengths"
        );
        crossover_real(self, other, op, rng)
    }

    /// Mean Euclidean distance of the genes to their centroid, divided by
    /// `sqrt(n)` (a root-mean-square per gene, comparable across sizes).
    fn diversity(population: &[Self]) -> f64 {
        let Some(first) = population.first() else {
            return 0.0;
        };
        let n = first.len();
        if population.len() < 2 || n == 0 {
            return 0.0;
        }
        let mut centroid = vec![0.0f64; n];
        for g in population {
            for (c, &x) in centroid.iter_mut().zip(&g.genes) {
                *c += f64::from(x);
            }
        }
        let count = population.len() as f64;
        centroid.iter_mut().for_each(|c| *c /= count);
        let total: f64 = population
            .iter()
            .map(|g| {
                g.genes
                    .iter()
                    .zip(&centroid)
                    .map(|(&x, c)| (f64::from(x) - c).powi(2))
                    .sum::<f64>()
                    .sqrt()
            })
            .sum();
        total / count / (n as f64).sqrt()
    }
}

/// Applies a mutation to a real-valued genome (pruned genes are skipped).
pub(crate) fn mutate_real(g: &mut RealGenome, op: &Mutation, rng: &mut WoprRng) {
    let n = g.len();
    match *op {
        Mutation::BitFlip { .. } => {
            panic!("bit-flip mutation does not apply to real-valued genomes")
        }
        Mutation::Creep { rate, step, lo, hi } => for_each_chosen(n, rate, rng, |i, rng| {
            let up = rng.random::<bool>();
            if !g.is_pruned(i) {
                let x = if up {
                    g.genes[i] + step
                } else {
                    g.genes[i] - step
                };
                g.genes[i] = x.clamp(lo, hi);
            }
        }),
        Mutation::Gaussian { rate, sigma } => for_each_chosen(n, rate, rng, |i, rng| {
            let z = standard_normal(rng);
            if !g.is_pruned(i) {
                g.genes[i] += (f64::from(sigma) * z) as f32;
            }
        }),
        Mutation::SelfAdaptive {
            tau_scale,
            tau_prime_scale,
            min_sigma,
        } => {
            assert_eq!(
                g.sigmas.len(),
                n,
                "self-adaptive mutation needs a step size per gene"
            );
            let nf = n.max(1) as f64;
            let tau = tau_scale / (2.0 * nf.sqrt()).sqrt();
            let tau_prime = tau_prime_scale / (2.0 * nf).sqrt();
            let global = tau_prime * standard_normal(rng);
            for i in 0..n {
                let zs = standard_normal(rng);
                let zx = standard_normal(rng);
                if g.is_pruned(i) {
                    continue;
                }
                let s =
                    (f64::from(g.sigmas[i]) * (global + tau * zs).exp()).max(f64::from(min_sigma));
                g.sigmas[i] = s as f32;
                g.genes[i] += (s * zx) as f32;
            }
        }
        Mutation::Prune { rate } => for_each_chosen(n, rate, rng, |i, _| {
            if !g.is_pruned(i) {
                g.prune(i);
            }
        }),
    }
}

/// Crossover of two real-valued genomes. Blending children take the step
/// sizes and pruning mask of their first parent (`a` for the first child, `b`
/// for the second).
pub(crate) fn crossover_real(
    a: &RealGenome,
    b: &RealGenome,
    op: &Crossover,
    rng: &mut WoprRng,
) -> (RealGenome, RealGenome) {
    let (mut c1, mut c2) = (a.clone(), b.clone());
    match *op {
        Crossover::OnePoint | Crossover::TwoPoint | Crossover::Uniform => {
            positional_crossover(&mut c1, &mut c2, op, rng);
        }
        Crossover::Blx { alpha } => {
            for i in 0..a.len() {
                let (x, y) = (f64::from(a.genes[i]), f64::from(b.genes[i]));
                let (lo, hi) = (x.min(y), x.max(y));
                let d = alpha * (hi - lo);
                let (lo, hi) = (lo - d, hi + d);
                c1.genes[i] = (lo + (hi - lo) * rng.random::<f64>()) as f32;
                c2.genes[i] = (lo + (hi - lo) * rng.random::<f64>()) as f32;
            }
        }
        Crossover::Laplace { location, scale } => {
            for i in 0..a.len() {
                let u = 1.0 - rng.random::<f64>(); // (0, 1]
                let beta = if rng.random::<bool>() {
                    location - scale * u.ln()
                } else {
                    location + scale * u.ln()
                };
                let (x, y) = (f64::from(a.genes[i]), f64::from(b.genes[i]));
                let d = (x - y).abs();
                c1.genes[i] = (x + beta * d) as f32;
                c2.genes[i] = (y + beta * d) as f32;
            }
        }
    }
    c1.enforce_mask();
    c2.enforce_mask();
    (c1, c2)
}
