//! Selection and fitness scaling: who becomes a parent, and how often.
//!
//! Fitness is always "higher is better". Selection works on a slice of
//! fitness values and returns indices into it; a plan first restricts it to a
//! parent pool and applies a [`Scaling`] (see [`super::Plan`]).
//!
//! - [`Selection::Roulette`]: fitness-proportional, one independent spin per
//!   parent (MIDI-Connect4, Weaver);
//! - [`Selection::Universal`]: fitness-proportional by stochastic universal
//!   sampling (Baker 1987; the thesis's sampler): one spin, `count` equally
//!   spaced pointers, so each individual gets the floor or the ceiling of its
//!   expected number of copies;
//! - [`Selection::Rank`]: linear ranking (Baker 1985), or weights proportional
//!   to rank as in the thesis, sampled either way;
//! - [`Selection::Truncation`]: uniform among the best fraction (Naveed &
//!   Cowling's top N/3);
//! - [`Selection::Tournament`], [`Selection::Uniform`].
//!
//! Proportional selection counts negative weights as zero and falls back to
//! uniform choice when no weight is positive; [`Scaling`] is how a plan makes
//! raw scores suitable for it (a shift, Weaver's small constant, Goldberg's
//! linear scaling).

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::EvolveError;
use crate::game::rng::WoprRng;

/// How parents are drawn from a pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Selection {
    /// Fitness-proportional, independent spins of a roulette wheel.
    Roulette,
    /// Fitness-proportional by stochastic universal sampling.
    Universal,
    /// Rank-based: with `pressure: None`, weight proportional to rank (1 for
    /// the worst up to N for the best, the thesis); with `Some(s)`, Baker's
    /// linear ranking, where the best expects `s` copies and the worst `2 − s`
    /// (`1 <= s <= 2`). Tied fitness values share their mean rank. Sampled by
    /// roulette, or by stochastic universal sampling when `universal`.
    Rank {
        /// Expected copies of the best (`None`: proportional to rank).
        #[serde(default)]
        pressure: Option<f64>,
        /// Sample by stochastic universal sampling instead of roulette.
        #[serde(default)]
        universal: bool,
    },
    /// Uniform among the best `round(fraction·N)` (at least one).
    Truncation {
        /// Share of the pool eligible, in (0, 1].
        fraction: f64,
    },
    /// The best `round(fraction·N)` (at least one) in rounds: each round is
    /// all of them in a fresh random order, so every one is picked equally
    /// often (within one) and consecutive picks pair up as parents. Naveed &
    /// Cowling's top N/3 "paired to reproduce 2N/3 new chromosomes": each
    /// parent is picked twice.
    Paired {
        /// Share of the pool eligible, in (0, 1].
        fraction: f64,
    },
    /// The best of `size` individuals drawn uniformly with replacement (ties
    /// go to the first drawn).
    Tournament {
        /// Tournament size, at least 1.
        size: usize,
    },
    /// Uniform choice, ignoring fitness.
    Uniform,
}

impl Selection {
    /// Checks the parameters.
    pub fn check(&self) -> Result<(), EvolveError> {
        match *self {
            Selection::Rank {
                pressure: Some(s), ..
            } if !(1.0..=2.0).contains(&s) => Err(EvolveError::Config(format!(
                "linear-ranking pressure must be in [1, 2], not {s}"
            ))),
            Selection::Truncation { fraction } | Selection::Paired { fraction }
                if !(fraction > 0.0 && fraction <= 1.0) =>
            {
                Err(EvolveError::Config(format!(
                    "truncation fraction must be in (0, 1], not {fraction}"
                )))
            }
            Selection::Tournament { size: 0 } => Err(EvolveError::Config(
                "tournament size must be at least 1".into(),
            )),
            _ => Ok(()),
        }
    }

    /// `count` indices into `fitness`, drawn by this scheme. Stochastic
    /// universal sampling returns its picks shuffled, so that consecutive
    /// picks (paired as parents) are not neighbours on the wheel.
    pub fn select(&self, fitness: &[f64], count: usize, rng: &mut WoprRng) -> Vec<usize> {
        let n = fitness.len();
        assert!(n > 0 || count == 0, "selection from an empty pool");
        match *self {
            Selection::Roulette => roulette(fitness, count, rng),
            Selection::Universal => shuffled(universal(fitness, count, rng), rng),
            Selection::Rank {
                pressure,
                universal: sus,
            } => {
                let w = rank_weights(fitness, pressure);
                if sus {
                    shuffled(universal(&w, count, rng), rng)
                } else {
                    roulette(&w, count, rng)
                }
            }
            Selection::Truncation { fraction } => {
                let best = ranked(fitness);
                let k = ((fraction * n as f64).round() as usize).clamp(1, n);
                (0..count).map(|_| best[rng.random_range(0..k)]).collect()
            }
            Selection::Paired { fraction } => {
                let best = ranked(fitness);
                let k = ((fraction * n as f64).round() as usize).clamp(1, n);
                let mut picks = Vec::with_capacity(count + k);
                while picks.len() < count {
                    picks.extend(shuffled(best[..k].to_vec(), rng));
                }
                picks.truncate(count);
                picks
            }
            Selection::Tournament { size } => (0..count)
                .map(|_| {
                    let mut win = rng.random_range(0..n);
                    for _ in 1..size {
                        let c = rng.random_range(0..n);
                        if fitness[c] > fitness[win] {
                            win = c;
                        }
                    }
                    win
                })
                .collect(),
            Selection::Uniform => (0..count).map(|_| rng.random_range(0..n)).collect(),
        }
    }
}

/// Indices sorted best first (ties keep index order; NaN counts as worst).
pub fn ranked(fitness: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| key(fitness[b]).total_cmp(&key(fitness[a])));
    order
}

fn key(f: f64) -> f64 {
    if f.is_nan() {
        f64::NEG_INFINITY
    } else {
        f
    }
}

fn shuffled(mut v: Vec<usize>, rng: &mut WoprRng) -> Vec<usize> {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
    v
}

/// Weights with negatives (and NaN) as zero; uniform when none is positive.
fn wheel(weights: &[f64]) -> (Vec<f64>, f64) {
    let mut cum = Vec::with_capacity(weights.len());
    let mut total = 0.0;
    for &w in weights {
        total += if w > 0.0 { w } else { 0.0 };
        cum.push(total);
    }
    if total > 0.0 && total.is_finite() {
        (cum, total)
    } else {
        (
            (1..=weights.len()).map(|i| i as f64).collect(),
            weights.len() as f64,
        )
    }
}

/// The index whose slot on the wheel holds `point` (in `[0, total)`).
fn slot(cum: &[f64], point: f64) -> usize {
    let i = cum.partition_point(|&c| c <= point);
    if i < cum.len() {
        i
    } else {
        // Rounding put the point at the very end: take the last positive slot.
        let last = cum[cum.len() - 1];
        cum.partition_point(|&c| c < last)
    }
}

/// Fitness-proportional selection by independent roulette spins: index `i`
/// has probability `w_i / Σw` on each of the `count` draws.
pub fn roulette(weights: &[f64], count: usize, rng: &mut WoprRng) -> Vec<usize> {
    let (cum, total) = wheel(weights);
    (0..count)
        .map(|_| slot(&cum, rng.random::<f64>() * total))
        .collect()
}

/// Stochastic universal sampling: `count` pointers spaced `Σw / count` apart
/// from one random start; index `i` is picked `floor(e_i)` or `ceil(e_i)`
/// times, `e_i = count·w_i/Σw`. Picks come in index order.
pub fn universal(weights: &[f64], count: usize, rng: &mut WoprRng) -> Vec<usize> {
    if count == 0 {
        return Vec::new();
    }
    let (cum, total) = wheel(weights);
    let step = total / count as f64;
    let start = rng.random::<f64>() * step;
    let mut out = Vec::with_capacity(count);
    let mut i = 0;
    for k in 0..count {
        let p = start + k as f64 * step;
        while i + 1 < cum.len() && cum[i] <= p {
            i += 1;
        }
        out.push(i);
    }
    out
}

/// Selection weights from ranks (see [`Selection::Rank`]); tied values share
/// their mean rank.
pub fn rank_weights(fitness: &[f64], pressure: Option<f64>) -> Vec<f64> {
    let n = fitness.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key(fitness[a]).total_cmp(&key(fitness[b])));
    // rank[i] in 0..n (0 = worst), mean over ties.
    let mut rank = vec![0.0; n];
    let mut s = 0;
    while s < n {
        let mut e = s + 1;
        while e < n && key(fitness[order[e]]) == key(fitness[order[s]]) {
            e += 1;
        }
        let mean = (s + e - 1) as f64 / 2.0;
        for &i in &order[s..e] {
            rank[i] = mean;
        }
        s = e;
    }
    match pressure {
        None => rank.iter().map(|r| r + 1.0).collect(),
        Some(p) if n > 1 => rank
            .iter()
            .map(|r| (2.0 - p) + 2.0 * (p - 1.0) * r / (n - 1) as f64)
            .collect(),
        Some(_) => vec![1.0; n],
    }
}

/// How raw fitness becomes selection weight, in this order: subtract the
/// pool's minimum (`shift_min`), add `offset`, then Goldberg's linear scaling
/// (`linear = Some(c_mult)`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scaling {
    /// Subtract the smallest fitness in the pool first (for scores that can be
    /// negative, such as MIDI-Connect4's ±2 per game).
    pub shift_min: bool,
    /// A constant added to every fitness: Weaver & Bossomaier's "small bonus
    /// fitness" that keeps a population of zero scores selectable.
    pub offset: f64,
    /// Goldberg's linear scaling with this `c_mult` (the best expects
    /// `c_mult` copies; see [`linear_scaling`]).
    pub linear: Option<f64>,
}

impl Scaling {
    /// Goldberg's linear scaling with his usual `c_mult = 2`.
    pub fn goldberg() -> Self {
        Scaling {
            linear: Some(2.0),
            ..Scaling::default()
        }
    }

    /// Checks the parameters.
    pub fn check(&self) -> Result<(), EvolveError> {
        if !self.offset.is_finite() {
            return Err(EvolveError::Config(format!(
                "fitness offset must be finite, not {}",
                self.offset
            )));
        }
        match self.linear {
            Some(c) if !(c.is_finite() && c > 1.0) => Err(EvolveError::Config(format!(
                "linear scaling c_mult must be > 1, not {c}"
            ))),
            _ => Ok(()),
        }
    }

    /// The scaled copy of `fitness`.
    pub fn apply(&self, fitness: &[f64]) -> Vec<f64> {
        let mut f = fitness.to_vec();
        if self.shift_min {
            let min = f.iter().copied().fold(f64::INFINITY, f64::min);
            if min.is_finite() {
                f.iter_mut().for_each(|x| *x -= min);
            }
        }
        if self.offset != 0.0 {
            f.iter_mut().for_each(|x| *x += self.offset);
        }
        if let Some(c) = self.linear {
            linear_scaling(&mut f, c);
        }
        f
    }
}

/// Goldberg's linear fitness scaling (Goldberg 1989, pp. 76–79, `prescale`):
/// `f' = a·f + b` with the mean kept (`f'_avg = f_avg`) and the best scaled to
/// `c_mult·f_avg`. When that would make the worst negative, it scales as far
/// as it can instead: the worst goes to 0, the mean stays. A population whose
/// best equals its mean (or whose mean is not positive) is left unchanged.
pub fn linear_scaling(fitness: &mut [f64], c_mult: f64) {
    if fitness.is_empty() {
        return;
    }
    let n = fitness.len() as f64;
    let avg = fitness.iter().sum::<f64>() / n;
    let max = fitness.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = fitness.iter().copied().fold(f64::INFINITY, f64::min);
    // Also catches NaN, which fails every comparison.
    let scalable = avg > 0.0 && max > avg;
    if !scalable {
        return;
    }
    let (a, b) = if min > (c_mult * avg - max) / (c_mult - 1.0) {
        let delta = max - avg;
        (
            (c_mult - 1.0) * avg / delta,
            avg * (max - c_mult * avg) / delta,
        )
    } else {
        let delta = avg - min;
        (avg / delta, -min * avg / delta)
    };
    fitness.iter_mut().for_each(|f| *f = a * *f + b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::stream;

    /// Naveed & Cowling's pairing: of 30, the top 10 make 20 children, so
    /// each of them is picked exactly twice and nobody else is.
    #[test]
    fn paired_picks_each_of_the_best_equally_often() {
        let fitness: Vec<f64> = (0..30).map(|i| i as f64).collect();
        let mut rng = stream(3, &[1]);
        let picks = Selection::Paired {
            fraction: 1.0 / 3.0,
        }
        .select(&fitness, 20, &mut rng);
        assert_eq!(picks.len(), 20);
        let mut counts = [0; 30];
        for p in picks {
            counts[p] += 1;
        }
        assert!(counts[..20].iter().all(|&c| c == 0));
        assert!(counts[20..].iter().all(|&c| c == 2));
        assert!(Selection::Paired { fraction: 0.0 }.check().is_err());
    }
}
