//! The rating fit: the log posterior of both draw models with its gradient
//! and Hessian, and Newton's method with Cholesky solves for the ratings and
//! their covariance.

use super::{
    davidson_probs, log_sigmoid, plus, sigmoid, DrawModel, FitOptions, PlayerRating, RatingError,
    Ratings, Results, Wdl, ELO_PER_NAT, Z95,
};

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

impl Results {
    /// Fits ratings to the results (see the module docs for the model, the
    /// prior, the solver and the intervals).
    pub fn fit(&self, options: &FitOptions) -> Result<Ratings, RatingError> {
        fit(self, options)
    }
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
