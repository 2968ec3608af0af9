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

/// The two-sided 95% quantile of the standard normal distribution,
/// `Φ⁻¹(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per natural unit: `400/ln 10 ≈ 173.72`.
const ELO_PER_NAT: f64 = 400.0 / LN_10;

/// `ln √(2π)`.
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// The standard normal distribution function `Φ(x)`.
///
/// For `|x| ≤ 5` Marsaglia's (2004) series
/// `Φ(x) = ½ + φ(x)·(x + x³/3 + x⁵/(3·5) + …)`, all terms of one sign,
/// absolute error about 1e-15; below −5 the continued fraction of Mills'
/// ratio `Φ(−x) = φ(x)/(x + 1/(x + 2/(x + 3/(x + …))))` (60 terms), accurate
/// in the tail; above 5, `1 − Φ(−x)`. `NaN` stays `NaN`.
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x > 5.0 {
        return 1.0 - normal_cdf(-x);
    }
    if x < -5.0 {
        if x < -38.0 {
            return 0.0;
        }
        let y = -x;
        let mut t = y;
        for k in (1..=60).rev() {
            t = y + k as f64 / t;
        }
        return (-0.5 * y * y - LN_SQRT_2PI).exp() / t;
    }
    let q = x * x;
    let (mut s, mut b, mut i) = (x, x, 1.0);
    loop {
        i += 2.0;
        b *= q / i;
        let next = s + b;
        if next == s {
            break;
        }
        s = next;
    }
    (0.5 + s * (-0.5 * q - LN_SQRT_2PI).exp()).clamp(0.0, 1.0)
}

/// The standard normal quantile `Φ⁻¹(p)` for `p ∈ (0, 1)`; `−∞` at 0, `+∞`
/// at 1, `NaN` outside.
///
/// Acklam's (2003) rational approximation (relative error below 1.2e-9),
/// refined by one Halley step on [`normal_cdf`] where `−37 < x < 5` (where
/// `Φ` is computed to a small relative error), which brings it to about
/// 1e-15 there; above 5 (`p` within 3e-7 of 1) the unrefined value is kept.
pub fn normal_quantile(p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const P_LOW: f64 = 0.02425;
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let mut x = if p < P_LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - P_LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    if x > -37.0 && x < 5.0 {
        // Halley: e = Φ(x) − p, u = e/φ(x), x ← x − u/(1 + x·u/2).
        let e = normal_cdf(x) - p;
        let u = e * (0.5 * x * x + LN_SQRT_2PI).exp();
        x -= u / (1.0 + 0.5 * x * u);
    }
    x
}

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

/// The results of a tournament: wins, draws and losses between every pair of
/// `n` named players.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Results {
    names: Vec<String>,
    /// `n × n`, entry `i·n + j` from player `i`'s view (kept both ways).
    pairs: Vec<Wdl>,
}

impl Results {
    /// `n` players named `"0"`, `"1"`, … with no games yet.
    pub fn new(n: usize) -> Results {
        Results::with_names((0..n).map(|i| i.to_string()))
    }

    /// Players with these names, with no games yet.
    pub fn with_names<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Results {
        let names: Vec<String> = names.into_iter().map(Into::into).collect();
        let n = names.len();
        Results {
            names,
            pairs: vec![Wdl::default(); n * n],
        }
    }

    /// The number of players.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no players.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The players' names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The index of the player called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Adds results between players `i` and `j`, from `i`'s view.
    ///
    /// # Panics
    /// If `i == j` or either is not a player.
    pub fn add(&mut self, i: usize, j: usize, wdl: Wdl) {
        let n = self.len();
        assert!(i < n && j < n, "players {i}, {j} of {n}");
        assert_ne!(i, j, "a player cannot play itself");
        self.pairs[i * n + j] = plus(self.pairs[i * n + j], wdl);
        self.pairs[j * n + i] = plus(self.pairs[j * n + i], flip(wdl));
    }

    /// Adds one game between `i` and `j`: `result` is `i`'s return, a win
    /// when positive, a loss when negative, a draw at 0.
    ///
    /// # Panics
    /// As [`Results::add`].
    pub fn add_game(&mut self, i: usize, j: usize, result: f64) {
        let mut w = Wdl::default();
        if result > 0.0 {
            w.wins = 1;
        } else if result < 0.0 {
            w.losses = 1;
        } else {
            w.draws = 1;
        }
        self.add(i, j, w);
    }

    /// The results between `i` and `j`, from `i`'s view.
    pub fn head_to_head(&self, i: usize, j: usize) -> Wdl {
        self.pairs[i * self.len() + j]
    }

    /// Player `i`'s results against everyone.
    pub fn totals(&self, i: usize) -> Wdl {
        let n = self.len();
        self.pairs[i * n..(i + 1) * n]
            .iter()
            .fold(Wdl::default(), |a, &b| plus(a, b))
    }

    /// Games played in all.
    pub fn games(&self) -> u64 {
        (0..self.len()).map(|i| self.totals(i).games()).sum::<u64>() / 2
    }

    /// Fits ratings to the results (see the module docs for the model, the
    /// prior, the solver and the intervals).
    pub fn fit(&self, options: &FitOptions) -> Result<Ratings, RatingError> {
        fit(self, options)
    }
}

/// How draws enter the likelihood of [`Results::fit`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum DrawModel {
    /// A draw is half a win and half a loss (Bradley–Terry on scores).
    #[default]
    HalfPoint,
    /// Davidson's (1970) model with a fitted draw parameter `ν`.
    Davidson,
}

/// Options of [`Results::fit`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitOptions {
    /// The player whose rating is fixed (default 0, the first).
    pub anchor: usize,
    /// The anchor's rating in Elo (default 0).
    pub anchor_rating: f64,
    /// Virtual draws of every other player against the anchor (default 1;
    /// 0 for the plain maximum likelihood estimate).
    pub prior_draws: f64,
    /// How draws are modelled (default half point).
    pub draw_model: DrawModel,
    /// Stop when a Newton step moves no rating by more than this, in Elo
    /// (default 1e-6).
    pub tolerance: f64,
    /// Give up after this many Newton steps (default 100).
    pub max_iterations: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            anchor: 0,
            anchor_rating: 0.0,
            prior_draws: 1.0,
            draw_model: DrawModel::HalfPoint,
            tolerance: 1e-6,
            max_iterations: 100,
        }
    }
}

/// Why [`Results::fit`] failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingError {
    /// The anchor is not a player.
    #[error("the anchor {anchor} is not one of the {players} players")]
    BadAnchor {
        /// The anchor asked for.
        anchor: usize,
        /// The number of players.
        players: usize,
    },
    /// An option is out of range.
    #[error("bad fit option: {0}")]
    BadOption(String),
    /// Davidson's model with every game drawn (`ν` would be infinite).
    #[error("the Davidson draw model needs a decisive game, and every game was drawn")]
    AllDraws,
    /// The information matrix is singular.
    #[error("the ratings are not identified: some player is not connected to the anchor by games (set prior_draws > 0)")]
    Singular,
    /// Newton's method did not converge.
    #[error("the fit did not converge in {0} Newton steps (without a prior, a player who won or lost every game has no finite rating: set prior_draws > 0)")]
    NotConverged(usize),
}

/// One player's fitted rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerRating {
    /// The player's name.
    pub name: String,
    /// The rating in logistic Elo.
    pub rating: f64,
    /// Its standard error relative to the anchor (0 for the anchor).
    pub se: f64,
    /// The 95% interval `rating ± 1.96·se`.
    pub ci95: (f64, f64),
    /// Real games played (virtual draws not counted).
    pub games: u64,
    /// Real results against everyone.
    pub wdl: Wdl,
    /// The real score fraction `(W + D/2)/games`; `None` without games.
    pub score: Option<f64>,
}

/// Fitted ratings of a tournament ([`Results::fit`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// Every player, in the order of the [`Results`].
    pub players: Vec<PlayerRating>,
    /// The anchored player.
    pub anchor: usize,
    /// The draw model fitted.
    pub draw_model: DrawModel,
    /// Davidson's fitted `ν` (`None` for the half-point model; 0 when no game
    /// was drawn). Two equal players draw with probability `ν/(2 + ν)`.
    pub draw_nu: Option<f64>,
    /// Newton steps taken.
    pub iterations: usize,
    /// The maximised log posterior `ℓ + log prior` (natural log, up to the
    /// constant of the multinomial coefficients).
    pub log_posterior: f64,
    /// `n × n` covariance of the ratings in Elo², zero in the anchor's row
    /// and column.
    covariance: Vec<f64>,
}

impl Ratings {
    /// The number of players.
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Whether there are no players.
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// Player `i`'s rating.
    pub fn rating(&self, i: usize) -> f64 {
        self.players[i].rating
    }

    /// The covariance of ratings `i` and `j`, in Elo².
    pub fn covariance(&self, i: usize, j: usize) -> f64 {
        self.covariance[i * self.len() + j]
    }

    /// The standard error of `rating(i) − rating(j)`:
    /// `√(Vᵢᵢ + Vⱼⱼ − 2Vᵢⱼ)`.
    pub fn diff_se(&self, i: usize, j: usize) -> f64 {
        (self.covariance(i, i) + self.covariance(j, j) - 2.0 * self.covariance(i, j))
            .max(0.0)
            .sqrt()
    }

    /// The likelihood of superiority of `i` over `j` from the fit:
    /// `Φ((rᵢ − rⱼ)/√(Vᵢᵢ + Vⱼⱼ − 2Vᵢⱼ))` (½ for `i == j`).
    pub fn los(&self, i: usize, j: usize) -> f64 {
        let se = self.diff_se(i, j);
        let d = self.rating(i) - self.rating(j);
        if se > 0.0 {
            normal_cdf(d / se)
        } else if d > 0.0 {
            1.0
        } else if d < 0.0 {
            0.0
        } else {
            0.5
        }
    }

    /// The expected score of `i` against `j` under the fitted model.
    pub fn expected_score(&self, i: usize, j: usize) -> f64 {
        let d = (self.rating(i) - self.rating(j)) / ELO_PER_NAT;
        match self.draw_nu {
            Some(nu) if self.draw_model == DrawModel::Davidson => {
                let (w, _, l) = davidson_probs(d, nu.ln());
                w + 0.5 * (1.0 - w - l)
            }
            _ => sigmoid(d),
        }
    }

    /// Player indices from the highest rating to the lowest (ties by index).
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by(|&a, &b| self.rating(b).total_cmp(&self.rating(a)).then(a.cmp(&b)));
        order
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

/// The problem in free parameters: the ratings of every player but the
/// anchor (natural units), then `λ = ln ν` when Davidson's `ν` is fitted.
struct Problem<'a> {
    res: &'a Results,
    anchor: usize,
    prior: f64,
    davidson: bool,
    /// Free parameter index of each player (`None` for the anchor).
    slot: Vec<Option<usize>>,
    m: usize,
}

impl Problem<'_> {
    fn thetas(&self, x: &[f64]) -> Vec<f64> {
        self.slot.iter().map(|s| s.map_or(0.0, |k| x[k])).collect()
    }

    /// The log posterior, and with `derivs` its gradient and Hessian
    /// (row-major `m × m`).
    fn eval(&self, x: &[f64], derivs: bool) -> (f64, Vec<f64>, Vec<f64>) {
        let n = self.res.len();
        let m = self.m;
        let th = self.thetas(x);
        let lambda = if self.davidson { x[m - 1] } else { 0.0 };
        let mut f = 0.0;
        let mut g = vec![0.0; if derivs { m } else { 0 }];
        let mut h = vec![0.0; if derivs { m * m } else { 0 }];
        // A term in d = θᵢ − θⱼ with derivatives gd, hd and cross term cl
        // (∂²/∂d∂λ).
        let add = |i: usize, j: usize, gd: f64, hd: f64, cl: f64, g: &mut [f64], h: &mut [f64]| {
            let (si, sj) = (self.slot[i], self.slot[j]);
            if let Some(a) = si {
                g[a] += gd;
                h[a * m + a] += hd;
                if self.davidson {
                    h[a * m + m - 1] += cl;
                    h[(m - 1) * m + a] += cl;
                }
            }
            if let Some(b) = sj {
                g[b] -= gd;
                h[b * m + b] += hd;
                if self.davidson {
                    h[b * m + m - 1] -= cl;
                    h[(m - 1) * m + b] -= cl;
                }
            }
            if let (Some(a), Some(b)) = (si, sj) {
                h[a * m + b] -= hd;
                h[b * m + a] -= hd;
            }
        };
        for i in 0..n {
            for j in i + 1..n {
                let r = self.res.head_to_head(i, j);
                let games = r.games() as f64;
                if games == 0.0 {
                    continue;
                }
                let (w, dr, l) = (r.wins as f64, r.draws as f64, r.losses as f64);
                let d = th[i] - th[j];
                if self.davidson {
                    let (pw, pd, pl) = davidson_probs(d, lambda);
                    let lz = {
                        let (a, b, c) = (0.5 * d, -0.5 * d, lambda);
                        let mx = a.max(b).max(c);
                        mx + ((a - mx).exp() + (b - mx).exp() + (c - mx).exp()).ln()
                    };
                    f += (w - l) * 0.5 * d + dr * lambda - games * lz;
                    if derivs {
                        let gd = 0.5 * (w - l) - 0.5 * games * (pw - pl);
                        let hd = -games * ((pw + pl) - (pw - pl) * (pw - pl)) / 4.0;
                        let cl = 0.5 * games * (pw - pl) * pd;
                        add(i, j, gd, hd, cl, &mut g, &mut h);
                        g[m - 1] += dr - games * pd;
                        h[(m - 1) * m + m - 1] -= games * pd * (1.0 - pd);
                    }
                } else {
                    let (wp, lp) = (w + 0.5 * dr, l + 0.5 * dr);
                    f += wp * log_sigmoid(d) + lp * log_sigmoid(-d);
                    if derivs {
                        let p = sigmoid(d);
                        add(
                            i,
                            j,
                            wp - games * p,
                            -games * p * (1.0 - p),
                            0.0,
                            &mut g,
                            &mut h,
                        );
                    }
                }
            }
        }
        if self.prior > 0.0 {
            let v = self.prior;
            for i in 0..n {
                if i == self.anchor {
                    continue;
                }
                let d = th[i] - th[self.anchor];
                f += 0.5 * v * (log_sigmoid(d) + log_sigmoid(-d));
                if derivs {
                    let p = sigmoid(d);
                    add(
                        i,
                        self.anchor,
                        v * (0.5 - p),
                        -v * p * (1.0 - p),
                        0.0,
                        &mut g,
                        &mut h,
                    );
                }
            }
        }
        (f, g, h)
    }
}

/// Cholesky factor `L` (lower, row-major) of a symmetric positive definite
/// `m × m` matrix; `None` if it is not positive definite.
fn cholesky(a: &[f64], m: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; m * m];
    let scale = (0..m).map(|i| a[i * m + i].abs()).fold(0.0, f64::max);
    for i in 0..m {
        for j in 0..=i {
            let mut s = a[i * m + j];
            for k in 0..j {
                s -= l[i * m + k] * l[j * m + k];
            }
            if i == j {
                if !s.is_finite() || s <= 1e-12 * scale {
                    return None;
                }
                l[i * m + i] = s.sqrt();
            } else {
                l[i * m + j] = s / l[j * m + j];
            }
        }
    }
    Some(l)
}

/// Solves `L·Lᵀ·x = b`.
fn cholesky_solve(l: &[f64], m: usize, b: &[f64]) -> Vec<f64> {
    let mut y = b.to_vec();
    for i in 0..m {
        for k in 0..i {
            y[i] -= l[i * m + k] * y[k];
        }
        y[i] /= l[i * m + i];
    }
    for i in (0..m).rev() {
        for k in i + 1..m {
            y[i] -= l[k * m + i] * y[k];
        }
        y[i] /= l[i * m + i];
    }
    y
}

fn fit(res: &Results, opt: &FitOptions) -> Result<Ratings, RatingError> {
    let n = res.len();
    if opt.anchor >= n {
        return Err(RatingError::BadAnchor {
            anchor: opt.anchor,
            players: n,
        });
    }
    if !(opt.prior_draws.is_finite() && opt.prior_draws >= 0.0) {
        return Err(RatingError::BadOption(format!(
            "prior_draws must be finite and at least 0, got {}",
            opt.prior_draws
        )));
    }
    if !(opt.tolerance.is_finite() && opt.tolerance > 0.0 && opt.anchor_rating.is_finite()) {
        return Err(RatingError::BadOption(format!(
            "tolerance must be positive and the anchor rating finite, got {} and {}",
            opt.tolerance, opt.anchor_rating
        )));
    }
    let totals: Vec<Wdl> = (0..n).map(|i| res.totals(i)).collect();
    let all = totals.iter().fold(Wdl::default(), |a, &b| plus(a, b));
    // Each game is counted twice in `all`.
    let (draws, games) = (all.draws / 2, all.games() / 2);
    let davidson = opt.draw_model == DrawModel::Davidson && draws > 0;
    if davidson && draws == games {
        return Err(RatingError::AllDraws);
    }
    let mut slot = vec![None; n];
    let mut m = 0;
    for (i, s) in slot.iter_mut().enumerate() {
        if i != opt.anchor {
            *s = Some(m);
            m += 1;
        }
    }
    if davidson {
        m += 1;
    }
    let problem = Problem {
        res,
        anchor: opt.anchor,
        prior: opt.prior_draws,
        davidson,
        slot,
        m,
    };
    let mut x = vec![0.0; m];
    if davidson {
        // At equal ratings P(draw) = ν/(2 + ν): start at the observed rate.
        x[m - 1] = (2.0 * draws as f64 / (games - draws) as f64).ln();
    }
    let tol = opt.tolerance / ELO_PER_NAT;
    let mut iterations = 0;
    let mut converged = m == 0;
    while !converged {
        if iterations == opt.max_iterations {
            return Err(RatingError::NotConverged(iterations));
        }
        iterations += 1;
        let (f, g, h) = problem.eval(&x, true);
        let neg: Vec<f64> = h.iter().map(|v| -v).collect();
        let l = cholesky(&neg, m).ok_or(RatingError::Singular)?;
        let step = cholesky_solve(&l, m, &g);
        if !step.iter().all(|s| s.is_finite()) {
            return Err(RatingError::Singular);
        }
        if step.iter().all(|s| s.abs() <= tol) {
            for (xi, s) in x.iter_mut().zip(&step) {
                *xi += s;
            }
            converged = true;
            continue;
        }
        // Armijo backtracking: the ascent direction has g·step > 0.
        let slope: f64 = g.iter().zip(&step).map(|(a, b)| a * b).sum();
        let mut t = 1.0;
        loop {
            let trial: Vec<f64> = x.iter().zip(&step).map(|(a, s)| a + t * s).collect();
            let (ft, _, _) = problem.eval(&trial, false);
            if ft >= f + 1e-4 * t * slope || t < 1e-10 {
                x = trial;
                break;
            }
            t *= 0.5;
        }
    }
    let (f, _, h) = problem.eval(&x, true);
    let mut covariance = vec![0.0; n * n];
    if m > 0 {
        let neg: Vec<f64> = h.iter().map(|v| -v).collect();
        let l = cholesky(&neg, m).ok_or(RatingError::Singular)?;
        let mut inv = vec![0.0; m * m];
        for c in 0..m {
            let mut e = vec![0.0; m];
            e[c] = 1.0;
            let col = cholesky_solve(&l, m, &e);
            for r in 0..m {
                inv[r * m + c] = col[r];
            }
        }
        for i in 0..n {
            for j in 0..n {
                if let (Some(a), Some(b)) = (problem.slot[i], problem.slot[j]) {
                    covariance[i * n + j] = inv[a * m + b] * ELO_PER_NAT * ELO_PER_NAT;
                }
            }
        }
    }
    let th = problem.thetas(&x);
    let players = (0..n)
        .map(|i| {
            let rating = opt.anchor_rating + th[i] * ELO_PER_NAT;
            let se = covariance[i * n + i].max(0.0).sqrt();
            let wdl = totals[i];
            let games = wdl.games();
            PlayerRating {
                name: res.names[i].clone(),
                rating,
                se,
                ci95: (rating - Z95 * se, rating + Z95 * se),
                games,
                wdl,
                score: (games > 0)
                    .then(|| (wdl.wins as f64 + 0.5 * wdl.draws as f64) / games as f64),
            }
        })
        .collect();
    let draw_nu = match opt.draw_model {
        DrawModel::HalfPoint => None,
        DrawModel::Davidson if davidson => Some(x[m - 1].exp()),
        DrawModel::Davidson => Some(0.0),
    };
    Ok(Ratings {
        players,
        anchor: opt.anchor,
        draw_model: opt.draw_model,
        draw_nu,
        iterations,
        log_posterior: f,
        covariance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic gradient and Hessian of both models, and of the prior,
    /// against central differences of the log posterior.
    #[test]
    fn derivatives_match_finite_differences() {
        let mut r = Results::new(4);
        r.add(
            0,
            1,
            Wdl {
                wins: 5,
                draws: 3,
                losses: 2,
            },
        );
        r.add(
            1,
            2,
            Wdl {
                wins: 1,
                draws: 6,
                losses: 4,
            },
        );
        r.add(
            2,
            3,
            Wdl {
                wins: 7,
                draws: 2,
                losses: 0,
            },
        );
        r.add(
            0,
            3,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 3,
            },
        );
        for davidson in [false, true] {
            let problem = Problem {
                res: &r,
                anchor: 1,
                prior: 0.7,
                davidson,
                slot: vec![Some(0), None, Some(1), Some(2)],
                m: if davidson { 4 } else { 3 },
            };
            let m = problem.m;
            let x: Vec<f64> = [0.3, -0.8, 1.1, -0.4][..m].to_vec();
            let (_, g, h) = problem.eval(&x, true);
            let eps = 1e-5;
            for a in 0..m {
                let shifted = |by: f64| {
                    let mut y = x.clone();
                    y[a] += by;
                    problem.eval(&y, true)
                };
                let (fp, gp, _) = shifted(eps);
                let (fm, gm, _) = shifted(-eps);
                let numeric = (fp - fm) / (2.0 * eps);
                assert!(
                    (numeric - g[a]).abs() < 1e-6,
                    "g[{a}] {} vs {numeric}",
                    g[a]
                );
                for b in 0..m {
                    let numeric = (gp[b] - gm[b]) / (2.0 * eps);
                    let exact = h[b * m + a];
                    assert!(
                        (numeric - exact).abs() < 1e-5,
                        "h[{b}][{a}] {exact} vs {numeric}"
                    );
                }
            }
        }
    }
}
