//! The sequential probability ratio test as chess engine testers run it
//! (fishtest, cutechess, fastchess): the generalised SPRT (GSPRT) of
//! `H0: elo = elo0` against `H1: elo = elo1`, on trinomial results (W/D/L of
//! single games, [`Wdl`]) or pentanomial results of game pairs
//! ([`Pentanomial`]: the two games of one opening with seats swapped, scored
//! LL, LD, DD or WL, WD, WW).
//!
//! **Elo** here is logistic Elo: at `elo` the expected score per game is
//! `s(elo) = 1/(1 + 10^(−elo/400))` (not the "normalised Elo" newer fishtest
//! versions also offer).
//!
//! **The log-likelihood ratio.** Each sample (a game, or a pair) has a score
//! `x ∈ [0, 1]` per game (a pair's score is the mean of its two games: 0, ¼,
//! ½, ¾, 1). With `n` samples, empirical mean `s̄` and variance
//! `σ² = Σ(x − s̄)²/n` per sample, and `sᵢ = s(eloᵢ)`, the GSPRT's
//! log-likelihood ratio is, to second order (Van den Bergh),
//!
//! ```text
//! LLR ≈ n·(s1 − s0)·(2·s̄ − s0 − s1) / (2·σ²)
//! ```
//!
//! ([`Sprt::llr`]; 0 when `σ² = 0`, as fishtest's `LLR_logistic`). The exact
//! GSPRT ([`Sprt::llr_exact`]) maximises the multinomial likelihood of the
//! counts under each hypothesis' mean score instead: `pₖ = p̂ₖ/(1 + λ(xₖ − s))`
//! with the Lagrange multiplier `λ` solving `Σ p̂ₖ(xₖ − s)/(1 + λ(xₖ − s)) = 0`
//! (found by bisection), and `LLR = Σ cₖ·ln(p1ₖ/p0ₖ)`; zero counts are
//! replaced by 1e-3 first, as fishtest regularises, so that both hypotheses
//! are feasible. The two agree closely for the small Elo differences engine
//! tests use.
//!
//! **Stopping.** With error rates `α` (accepting H1 when H0 holds) and `β`
//! (accepting H0 when H1 holds), Wald's bounds are `lower = ln(β/(1−α))` and
//! `upper = ln((1−β)/α)`: the test accepts H0 once `LLR ≤ lower`, H1 once
//! `LLR ≥ upper`, and otherwise continues ([`Sprt::status`]).
//!
//! **Pentanomial or trinomial.** Pairs played from one opening with seats
//! swapped are correlated (an unbalanced opening favours whoever has the
//! good side, once each); counting the pair as one sample measures that
//! correlation, so the variance is right and the test needs fewer games
//! when openings are unbalanced. Treating those games as independent
//! trinomial samples overstates the variance and the test runs longer.
//!
//! **References.**
//! - A. Wald, "Sequential tests of statistical hypotheses", *Annals of
//!   Mathematical Statistics* 16(2), 1945.
//! - M. Van den Bergh, "A practical introduction to the GSPRT" and "Comments
//!   on normalized Elo" (notes, 2018–2020, in the fishtest repository,
//!   `server/fishtest/stats/`), the GSPRT and its normal approximation as
//!   used by fishtest, cutechess-cli and fastchess.

use serde::Serialize;

use super::rating::{elo_to_score, ScoreCounts};
use super::Wdl;

/// The count given to outcomes never seen in [`Sprt::llr_exact`].
const REGULARISE: f64 = 1e-3;

/// Results of game pairs: `counts[k]` pairs in which the tested player scored
/// `k` half-points over the two games (0: LL, 1: LD, 2: DD or WL, 3: WD,
/// 4: WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// Pairs by half-points scored, 0 to 4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// No pairs yet.
    pub fn new() -> Pentanomial {
        Pentanomial::default()
    }

    /// Counts of pairs LL, LD, DD+WL, WD, WW.
    pub fn from_counts(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    /// Adds one pair from the tested player's returns in its two games
    /// (each a win when positive, a loss when negative, a draw at 0).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half = |r: f64| {
            if r > 0.0 {
                2
            } else if r < 0.0 {
                0
            } else {
                1
            }
        };
        self.counts[half(first) + half(second)] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }
}

impl ScoreCounts for Pentanomial {
    fn outcomes(&self) -> impl Iterator<Item = (f64, u64)> {
        self.counts
            .into_iter()
            .enumerate()
            .map(|(k, c)| (k as f64 / 4.0, c))
    }
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SprtStatus {
    /// Neither bound reached: play on.
    Continue,
    /// `LLR ≤ lower`: accept H0 (`elo = elo0`).
    AcceptH0,
    /// `LLR ≥ upper`: accept H1 (`elo = elo1`).
    AcceptH1,
}

/// Why [`Sprt::new`] refused its arguments.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// `alpha` is not in `(0, 0.5)`.
    #[error("alpha must be in (0, 0.5), got {0}")]
    BadAlpha(f64),
    /// `beta` is not in `(0, 0.5)`.
    #[error("beta must be in (0, 0.5), got {0}")]
    BadBeta(f64),
    /// The Elo bounds are not finite with `elo0 < elo1`.
    #[error("the Elo bounds must be finite with elo0 < elo1, got {elo0} and {elo1}")]
    BadElo {
        /// H0's Elo.
        elo0: f64,
        /// H1's Elo.
        elo1: f64,
    },
}

/// A GSPRT of `elo = elo0` against `elo = elo1` in logistic Elo, with error
/// rates `alpha` and `beta` (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

impl Sprt {
    /// A test of `elo0` against `elo1` (finite, `elo0 < elo1`) with `alpha`
    /// and `beta` in `(0, 0.5)`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(alpha > 0.0 && alpha < 0.5) {
            return Err(SprtError::BadAlpha(alpha));
        }
        if !(beta > 0.0 && beta < 0.5) {
            return Err(SprtError::BadBeta(beta));
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::BadElo { elo0, elo1 });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// H0's Elo.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// H1's Elo.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// The probability of accepting H1 when H0 holds.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The probability of accepting H0 when H1 holds.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// The lower bound `ln(β/(1−α))`.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound `ln((1−β)/α)`.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio by the normal approximation
    /// `n·(s1 − s0)·(2·s̄ − s0 − s1)/(2·σ²)` (0 without samples or variance).
    pub fn llr<C: ScoreCounts>(&self, counts: &C) -> f64 {
        let Some((mean, var)) = counts.moments() else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        counts.samples() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The exact GSPRT log-likelihood ratio: the multinomial likelihood of
    /// the counts maximised under H1's mean score over that under H0's, with
    /// zero counts regularised to 1e-3 (see the module docs). 0 without
    /// samples.
    pub fn llr_exact<C: ScoreCounts>(&self, counts: &C) -> f64 {
        if counts.samples() == 0 {
            return 0.0;
        }
        let data: Vec<(f64, f64)> = counts
            .outcomes()
            .map(|(x, c)| (x, if c == 0 { REGULARISE } else { c as f64 }))
            .collect();
        let total: f64 = data.iter().map(|&(_, c)| c).sum();
        // Σ c·ln(1 + λ(x − s)) at the constrained maximum: minus the log of
        // the maximised likelihood, up to a constant shared by both.
        let cost = |s: f64| {
            let lambda = lagrange(&data, total, s);
            data.iter()
                .map(|&(x, c)| c * (lambda * (x - s)).ln_1p())
                .sum::<f64>()
        };
        cost(elo_to_score(self.elo0)) - cost(elo_to_score(self.elo1))
    }

    /// The test's verdict on a log-likelihood ratio.
    pub fn status_of(&self, llr: f64) -> SprtStatus {
        if llr >= self.upper() {
            SprtStatus::AcceptH1
        } else if llr <= self.lower() {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// The test's verdict on these counts, by [`Sprt::llr`].
    pub fn status<C: ScoreCounts>(&self, counts: &C) -> SprtStatus {
        self.status_of(self.llr(counts))
    }
}

/// The `λ` with `Σ cₖ(xₖ − s)/(1 + λ(xₖ − s)) = 0`, where every count is
/// positive and `s` lies strictly between the smallest and largest `xₖ`;
/// the sum falls strictly in `λ` on `(−1/max(x − s), −1/min(x − s))`, so
/// bisection finds it.
fn lagrange(data: &[(f64, f64)], total: f64, s: f64) -> f64 {
    let f = |lambda: f64| {
        data.iter()
            .map(|&(x, c)| c / total * (x - s) / (1.0 + lambda * (x - s)))
            .sum::<f64>()
    };
    let hi_dev = data.iter().map(|&(x, _)| x - s).fold(f64::MIN, f64::max);
    let lo_dev = data.iter().map(|&(x, _)| x - s).fold(f64::MAX, f64::min);
    if !(hi_dev > 0.0 && lo_dev < 0.0) {
        return 0.0;
    }
    let (mut lo, mut hi) = (-1.0 / hi_dev, -1.0 / lo_dev);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// A convenience: the [`Pentanomial`] and trinomial [`Wdl`] of one player's
/// game pairs, from its returns `(first, second)` in each pair.
pub fn pair_counts(pairs: impl IntoIterator<Item = (f64, f64)>) -> (Pentanomial, Wdl) {
    let mut penta = Pentanomial::new();
    let mut wdl = Wdl::default();
    for (a, b) in pairs {
        penta.add_pair(a, b);
        for r in [a, b] {
            if r > 0.0 {
                wdl.wins += 1;
            } else if r < 0.0 {
                wdl.losses += 1;
            } else {
                wdl.draws += 1;
            }
        }
    }
    (penta, wdl)
}
