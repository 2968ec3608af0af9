//! Elo ratings for a whole tournament at once, Elo differences with intervals
//! for one match, and the normal distribution they need.
//!
//! **Elo.** Ratings are logistic Elo points: a player `Δ` points stronger is
//! expected to score `E(Δ) = 1 / (1 + 10^(−Δ/400))` per game, and a score
//! fraction `s` is worth `Δ(s) = −400·log10(1/s − 1)` points
//! ([`elo_to_score`], [`score_to_elo`]). Internally a rating is kept in
//! natural units `θ = Δ·ln10/400`, so that `E = σ(θ_i − θ_j)` with `σ` the
//! logistic function.
//!
//! **One match** ([`elo_diff`]). From `n` samples (games, or game pairs, see
//! [`ScoreCounts`]) with per-sample scores `x_k ∈ [0, 1]`, the mean score
//! `s̄ = Σx_k/n` and variance `σ² = Σ(x_k − s̄)²/n` give the standard error
//! `σ/√n`; the 95% interval of the score is `s̄ ± 1.96·σ/√n` and is mapped
//! through `Δ(s)` to Elo (so it is not symmetric). For W/D/L this is
//! `s̄ = (W + D/2)/n` and `σ² = (W(1−s̄)² + D(½−s̄)² + L·s̄²)/n`, as cutechess
//! and fastchess report. The head-to-head likelihood of superiority is
//! `LOS = Φ((W − L)/√(W + L))` ([`los_head_to_head`]).
//!
//! **A tournament** ([`Results::fit`]). The ratings maximise the
//! Bradley–Terry likelihood on the Elo scale (as Ordo and BayesElo do), with
//! two draw models ([`DrawModel`]):
//!
//! - *Half point* (the default): a draw counts as half a win and half a loss,
//!   so with `w'ᵢⱼ = Wᵢⱼ + Dᵢⱼ/2`, `l'ᵢⱼ = Lᵢⱼ + Dᵢⱼ/2` and `d = θᵢ − θⱼ`,
//!   `ℓ = Σ_{i<j} w'ᵢⱼ·ln σ(d) + l'ᵢⱼ·ln σ(−d)`. The fitted ratings then make
//!   every player's expected score equal its actual score.
//! - *Davidson* (1970): `P(win) = e^{d/2}/Z`, `P(loss) = e^{−d/2}/Z`,
//!   `P(draw) = ν/Z` with `Z = e^{d/2} + e^{−d/2} + ν`, one draw parameter
//!   `ν ≥ 0` fitted with the ratings (as `ln ν`). Ratings then measure the
//!   win/loss odds (`P(win)/P(loss) = 10^{Δ/400}`), and when draws are common
//!   they come out larger than the half-point model's for the same scores.
//!
//! **Prior.** A player who won (or lost) every game has no finite maximum
//! likelihood rating. Every player but the anchor therefore gets
//! `prior_draws` virtual draws against the anchor (default 1), counted as
//! half a win and half a loss in both models: a prior density
//! `∝ (σ(θᵢ − θ_a)·σ(θ_a − θᵢ))^{v/2}` on the difference from the anchor. It
//! keeps every rating finite, connects players who never met the anchor, and
//! is small against a few hundred real games: it shrinks a rating toward the
//! anchor's by about `v·(E − ½)/I` natural units, with `E` the player's
//! expected score against the anchor and `I` its information (in a simulated
//! round robin of six players spread over 500 Elo, 100 games a pair, about 3
//! Elo, a tenth of a standard error). `prior_draws = 0` gives the plain
//! maximum likelihood estimate (and an error where it does not exist). The
//! anchor's rating is fixed (default: the first player, at 0).
//!
//! **Solver.** Newton's method on the free parameters (every rating but the
//! anchor's, and `ln ν`), from all ratings equal: the log-likelihood is
//! concave (for Davidson jointly in `θ` and `ln ν`), and each step is halved
//! until it raises the log posterior (Armijo), so it converges from any
//! start. It stops when a full Newton step moves no rating by more than
//! `tolerance` Elo (default 1e-6); deterministic, with no random choices.
//!
//! **Intervals.** The covariance of the ratings is the inverse of the observed
//! information `−∇²(ℓ + log prior)` at the optimum, with the anchor fixed
//! (its row and column removed; for Davidson `ln ν` is a free parameter, so
//! the ratings' covariance is a block of the full inverse). The 95% interval
//! is `rᵢ ± 1.96·√Vᵢᵢ`: it is relative to the anchor, whose own interval has
//! zero width. With draws in the half-point model the binomial information
//! overstates a game's variance, so those intervals are slightly
//! conservative. The LOS between two fitted players ([`Ratings::los`]) is
//! `Φ((rᵢ − rⱼ)/√(Vᵢᵢ + Vⱼⱼ − 2Vᵢⱼ))`, from the fit's covariance, as
//! BayesElo computes it.
//!
//! **References.**
//! - R. R. Davidson, "On extending the Bradley–Terry model to accommodate
//!   ties in paired comparison experiments", *JASA* 65(329), 1970.
//! - D. R. Hunter, "MM algorithms for generalized Bradley–Terry models",
//!   *Annals of Statistics* 32(1), 2004 (the model; this module uses Newton).
//! - R. Coulom, *BayesElo* (2005–), and M. Ballicora, *Ordo* (2010–): Elo
//!   ratings of chess engines by maximum likelihood.
//! - G. Marsaglia, "Evaluating the normal distribution", *Journal of
//!   Statistical Software* 11(4), 2004 ([`normal_cdf`]).
//! - P. J. Acklam, "An algorithm for computing the inverse normal cumulative
//!   distribution function", 2003 ([`normal_quantile`]).

use std::f64::consts::LN_10;

use serde::Serialize;

use super::Wdl;

mod fit;
mod normal;
mod results;

pub use normal::{normal_cdf, normal_quantile};
pub use results::{DrawModel, FitOptions, PlayerRating, RatingError, Ratings, Results};

/// The two-sided 95% quantile of the standard normal distribution,
/// `Φ⁻¹(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per natural unit: `400/ln 10 ≈ 173.72`.
const ELO_PER_NAT: f64 = 400.0 / LN_10;

/// The expected score per game of a player `elo` logistic Elo points
/// stronger than its opponent: `1 / (1 + 10^(−elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    sigmoid(elo / ELO_PER_NAT)
}

/// The logistic Elo difference worth a score fraction `score`:
/// `−400·log10(1/score − 1)`; `−∞` at 0, `+∞` at 1, `NaN` outside `[0, 1]`.
pub fn score_to_elo(score: f64) -> f64 {
    if !(0.0..=1.0).contains(&score) {
        return f64::NAN;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The head-to-head likelihood of superiority, the probability that the
/// player with these results is the stronger: `Φ((W − L)/√(W + L))`
/// (draws carry no information; ½ when no game was decisive).
pub fn los_head_to_head(wdl: &Wdl) -> f64 {
    let decisive = wdl.wins + wdl.losses;
    if decisive == 0 {
        return 0.5;
    }
    normal_cdf((wdl.wins as f64 - wdl.losses as f64) / (decisive as f64).sqrt())
}

/// Results that come as counts of a few possible scores per sample: single
/// games as W/D/L ([`Wdl`]: scores 1, ½, 0) or game pairs as pentanomial
/// counts ([`Pentanomial`](super::sprt::Pentanomial): mean pair scores 0, ¼,
/// ½, ¾, 1). [`elo_diff`] and the [`Sprt`](super::sprt::Sprt) read either.
pub trait ScoreCounts {
    /// Each possible score per sample (in `[0, 1]`, per game) with the number
    /// of samples that scored it.
    fn outcomes(&self) -> impl Iterator<Item = (f64, u64)>;

    /// The number of samples.
    fn samples(&self) -> u64 {
        self.outcomes().map(|(_, c)| c).sum()
    }

    /// The mean score `s̄ = Σ cₖ·xₖ / n` and the variance of one sample's
    /// score `σ² = Σ cₖ·(xₖ − s̄)² / n`; `None` without samples.
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.samples();
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let mean = self.outcomes().map(|(x, c)| x * c as f64).sum::<f64>() / n;
        let var = self
            .outcomes()
            .map(|(x, c)| c as f64 * (x - mean) * (x - mean))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }
}

impl ScoreCounts for Wdl {
    fn outcomes(&self) -> impl Iterator<Item = (f64, u64)> {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)].into_iter()
    }
}

/// An Elo difference measured from one match, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloDiff {
    /// The logistic Elo difference worth the mean score (±∞ at score 0 or 1).
    pub elo: f64,
    /// The 95% interval: the score interval mapped to Elo (asymmetric).
    pub ci95: (f64, f64),
    /// Half the interval's width, the "±" engine testers print.
    pub margin: f64,
    /// The mean score per game `s̄`.
    pub score: f64,
    /// The 95% interval of the score, `s̄ ± 1.96·σ/√n`, clipped to `[0, 1]`.
    pub score_ci95: (f64, f64),
    /// The standard error of the mean score, `σ/√n`.
    pub score_se: f64,
    /// The likelihood of superiority by the same normal approximation,
    /// `Φ((s̄ − ½)/(σ/√n))` (for W/D/L [`los_head_to_head`] is the usual
    /// formula; it differs only in using the variance under equality).
    pub los: f64,
    /// Samples: games, or pairs for pentanomial counts.
    pub samples: u64,
}

/// The Elo difference from W/D/L or pentanomial counts, with a 95% interval
/// by the normal approximation of the mean score (see the module docs).
/// `None` without samples. When every sample scored the same the interval
/// has zero width, and at score 0 or 1 the estimate is infinite: the normal
/// approximation says nothing there; use [`Results::fit`] with its prior for
/// a finite estimate.
pub fn elo_diff<C: ScoreCounts>(counts: &C) -> Option<EloDiff> {
    let n = counts.samples();
    let (mean, var) = counts.moments()?;
    let se = (var / n as f64).sqrt();
    let lo = (mean - Z95 * se).clamp(0.0, 1.0);
    let hi = (mean + Z95 * se).clamp(0.0, 1.0);
    let (elo_lo, elo_hi) = (score_to_elo(lo), score_to_elo(hi));
    let los = if se > 0.0 {
        normal_cdf((mean - 0.5) / se)
    } else if mean > 0.5 {
        1.0
    } else if mean < 0.5 {
        0.0
    } else {
        0.5
    };
    Some(EloDiff {
        elo: score_to_elo(mean),
        ci95: (elo_lo, elo_hi),
        margin: (elo_hi - elo_lo) / 2.0,
        score: mean,
        score_ci95: (lo, hi),
        score_se: se,
        los,
        samples: n,
    })
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// `ln σ(x) = −ln(1 + e^{−x})`, without overflow.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Davidson's `(P(win), P(draw), P(loss))` at natural difference `d` and
/// `λ = ln ν`, by a stable log-sum-exp.
fn davidson_probs(d: f64, lambda: f64) -> (f64, f64, f64) {
    let (a, b, c) = (0.5 * d, -0.5 * d, lambda);
    let m = a.max(b).max(c);
    let (ea, eb, ec) = ((a - m).exp(), (b - m).exp(), (c - m).exp());
    let z = ea + eb + ec;
    (ea / z, ec / z, eb / z)
}

fn flip(w: Wdl) -> Wdl {
    Wdl {
        wins: w.losses,
        draws: w.draws,
        losses: w.wins,
    }
}

fn plus(a: Wdl, b: Wdl) -> Wdl {
    Wdl {
        wins: a.wins + b.wins,
        draws: a.draws + b.draws,
        losses: a.losses + b.losses,
    }
}
