//! A tournament's results between named players, the options of the rating
//! fit, and the fitted ratings with their covariance.

use serde::Serialize;

use super::{davidson_probs, flip, normal_cdf, plus, sigmoid, Wdl, ELO_PER_NAT};

/// The results of a tournament: wins, draws and losses between every pair of
/// `n` named players.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Results {
    pub(super) names: Vec<String>,
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
    pub(super) covariance: Vec<f64>,
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
