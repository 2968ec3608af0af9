//! Variation operators: mutations and crossovers for both genome kinds.
//!
//! - bit strings: bit-flip mutation; one-point, two-point and uniform
//!   crossover (MIDI-Connect4, Weaver, the thesis);
//! - real genes: creep mutation (the thesis, §4.4), Gaussian mutation with a
//!   fixed or self-adaptive step size (Yao & Liu's evolutionary programming, as
//!   Naveed & Cowling use it; Blondie24), pruning mutation (Handa & Horiuchi),
//!   the same positional crossovers, BLX-α blending (Eshelman & Schaffer) and
//!   Laplace crossover (LX, Deep & Thakur, which the thesis uses).
//!
//! Operators are plain data ([`Mutation`], [`Crossover`]) so plans can be read
//! from configuration files; `Genome::mutate` and
//! `Genome::crossover` apply them. A pruned gene stays zero under
//! every operator.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::EvolveError;
use crate::game::rng::WoprRng;

/// A mutation, applied to one genome in place.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Mutation {
    /// Flips each bit with probability `rate` (bit strings).
    BitFlip {
        /// Per-bit probability.
        rate: f64,
    },
    /// Creep mutation (the thesis): each gene with probability `rate` moves
    /// up or down (even odds) by `step`, then is clamped to `[lo, hi]`.
    Creep {
        /// Per-gene probability.
        rate: f64,
        /// Size of a move.
        step: f32,
        /// Lower bound of a gene.
        lo: f32,
        /// Upper bound of a gene.
        hi: f32,
    },
    /// Adds `sigma·N(0, 1)` to each gene with probability `rate`.
    Gaussian {
        /// Per-gene probability.
        rate: f64,
        /// Standard deviation of the change.
        sigma: f32,
    },
    /// Self-adaptive Gaussian mutation of every gene (evolutionary
    /// programming): first each step size `σ_i ← max(min_sigma,
    /// σ_i·exp(τ'·N + τ·N_i))`, then `x_i ← x_i + σ_i·N'_i`, with
    /// `τ = tau_scale / sqrt(2·sqrt(n))`, `τ' = tau_prime_scale / sqrt(2·n)`
    /// and `N` drawn once per genome. Blondie24 uses `τ` alone
    /// (`tau_prime_scale = 0`); Yao & Liu use both at scale 1. Needs per-gene
    /// step sizes (`RealGenome::with_sigmas`).
    SelfAdaptive {
        /// Multiplier of the per-gene learning rate `1/sqrt(2·sqrt(n))`.
        tau_scale: f64,
        /// Multiplier of the global learning rate `1/sqrt(2·n)`.
        tau_prime_scale: f64,
        /// Smallest step size allowed.
        min_sigma: f32,
    },
    /// Pruning mutation (Handa & Horiuchi): each unpruned gene with
    /// probability `rate` becomes zero and stays zero for good.
    Prune {
        /// Per-gene probability.
        rate: f64,
    },
}

impl Mutation {
    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Mutation::BitFlip { .. } => "bit-flip mutation",
            Mutation::Creep { .. } => "creep mutation",
            Mutation::Gaussian { .. } => "Gaussian mutation",
            Mutation::SelfAdaptive { .. } => "self-adaptive mutation",
            Mutation::Prune { .. } => "pruning mutation",
        }
    }

    /// Checks the parameters (probabilities in [0, 1], positive sizes).
    pub fn check(&self) -> Result<(), EvolveError> {
        match *self {
            Mutation::BitFlip { rate } => check_rate("bit-flip rate", rate),
            Mutation::Creep { rate, step, lo, hi } => {
                check_rate("creep rate", rate)?;
                if !(step.is_finite() && step > 0.0) {
                    return Err(EvolveError::Config(format!(
                        "creep step must be positive, not {step}"
                    )));
                }
                if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                    return Err(EvolveError::Config(format!(
                        "creep bounds need lo <= hi, not [{lo}, {hi}]"
                    )));
                }
                Ok(())
            }
            Mutation::Gaussian { rate, sigma } => {
                check_rate("Gaussian mutation rate", rate)?;
                if !(sigma.is_finite() && sigma >= 0.0) {
                    return Err(EvolveError::Config(format!(
                        "Gaussian sigma must be >= 0, not {sigma}"
                    )));
                }
                Ok(())
            }
            Mutation::SelfAdaptive {
                tau_scale,
                tau_prime_scale,
                min_sigma,
            } => {
                if !(tau_scale.is_finite()
                    && tau_scale >= 0.0
                    && tau_prime_scale.is_finite()
                    && tau_prime_scale >= 0.0)
                {
                    return Err(EvolveError::Config(format!(
                        "self-adaptive learning-rate scales must be >= 0, not {tau_scale} and {tau_prime_scale}"
                    )));
                }
                if !(min_sigma.is_finite() && min_sigma >= 0.0) {
                    return Err(EvolveError::Config(format!(
                        "min_sigma must be >= 0, not {min_sigma}"
                    )));
                }
                Ok(())
            }
            Mutation::Prune { rate } => check_rate("pruning rate", rate),
        }
    }
}

/// A crossover: two parents make two children.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Crossover {
    /// One cut point, uniform over the interior; the tails are exchanged.
    OnePoint,
    /// Two distinct interior cut points; the middle segment is exchanged.
    TwoPoint,
    /// Each position is exchanged with probability ½.
    Uniform,
    /// BLX-α (real genes): each child gene is uniform on
    /// `[min − α·d, max + α·d]` with `d = |x − y|`.
    Blx {
        /// How far beyond the parents' interval children may land.
        alpha: f64,
    },
    /// Laplace crossover LX (real genes, Deep & Thakur 2007): per gene
    /// `β = a − b·ln u` or `a + b·ln u` (even odds, `u` uniform on (0, 1]),
    /// children `x + β·d` and `y + β·d` with `d = |x − y|`.
    Laplace {
        /// Location `a` (0 in the original).
        location: f64,
        /// Scale `b` (> 0; smaller keeps children nearer their parents).
        scale: f64,
    },
}

impl Crossover {
    /// A short name for messages.
    pub fn name(&self) -> &'static str {
        match self {
            Crossover::OnePoint => "one-point crossover",
            Crossover::TwoPoint => "two-point crossover",
            Crossover::Uniform => "uniform crossover",
            Crossover::Blx { .. } => "BLX-alpha crossover",
            Crossover::Laplace { .. } => "Laplace crossover",
        }
    }

    /// Checks the parameters.
    pub fn check(&self) -> Result<(), EvolveError> {
        match *self {
            Crossover::Blx { alpha } if !(alpha.is_finite() && alpha >= 0.0) => {
                Err(EvolveError::Config(format!("BLX alpha must be >= 0, not {alpha}")))
            }
            Crossover::Laplace { location, scale } if !(location.is_finite() && scale.is_finite() && scale > 0.0) => {
                Err(EvolveError::Config(format!("Laplace crossover needs a finite location and scale > 0, not {location} and {scale}")))
            }
            _ => Ok(()),
        }
    }
}

/// Checks that a probability lies in [0, 1].
pub(super) fn check_rate(what: &str, rate: f64) -> Result<(), EvolveError> {
    if (0.0..=1.0).contains(&rate) {
        Ok(())
    } else {
        Err(EvolveError::Config(format!(
            "{what} must be a probability in [0, 1], not {rate}"
        )))
    }
}

/// A standard normal deviate (Box–Muller, one value per call).
pub fn standard_normal(rng: &mut WoprRng) -> f64 {
    let u1 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Calls `f` on each index in `0..len` chosen independently with probability
/// `rate`, in increasing order, by geometric skipping (one draw per chosen
/// index, so low rates on long genomes cost little).
pub fn for_each_chosen(
    len: usize,
    rate: f64,
    rng: &mut WoprRng,
    mut f: impl FnMut(usize, &mut WoprRng),
) {
    if rate <= 0.0 || len == 0 {
        return;
    }
    if rate >= 1.0 {
        for i in 0..len {
            f(i, rng);
        }
        return;
    }
    let log_q = (-rate).ln_1p();
    let skip = |rng: &mut WoprRng| -> usize {
        let u = 1.0 - rng.random::<f64>(); // (0, 1]
        (u.ln() / log_q) as usize // saturating cast
    };
    let mut i = skip(rng);
    while i < len {
        f(i, rng);
        i = i.saturating_add(1).saturating_add(skip(rng));
    }
}

/// Sequences whose positions crossover can exchange.
pub trait Positional {
    /// Number of positions.
    fn positions(&self) -> usize;
    /// Exchanges positions `start..end` with `other`.
    fn swap_range(&mut self, other: &mut Self, start: usize, end: usize);
    /// Exchanges each position with `other` with probability ½.
    fn swap_uniform(&mut self, other: &mut Self, rng: &mut WoprRng);
}

/// One-point, two-point or uniform crossover of `a` and `b` in place (both
/// become children). Genomes shorter than the operator needs (1 position for
/// one-point, 2 for two-point) are left as they are.
pub fn positional_crossover<P: Positional>(
    a: &mut P,
    b: &mut P,
    op: &Crossover,
    rng: &mut WoprRng,
) {
    let len = a.positions();
    match op {
        Crossover::OnePoint => {
            if len >= 2 {
                let cut = rng.random_range(1..len);
                a.swap_range(b, cut, len);
            }
        }
        Crossover::TwoPoint => {
            if len >= 3 {
                let c1 = rng.random_range(1..len);
                let mut c2 = rng.random_range(1..len - 1);
                if c2 >= c1 {
                    c2 += 1;
                }
                let (lo, hi) = if c1 < c2 { (c1, c2) } else { (c2, c1) };
                a.swap_range(b, lo, hi);
            } else if len == 2 {
                a.swap_range(b, 1, 2);
            }
        }
        Crossover::Uniform => a.swap_uniform(b, rng),
        Crossover::Blx { .. } | Crossover::Laplace { .. } => {
            panic!(
                "{} blends real values; it has no positional form",
                op.name()
            )
        }
    }
}
