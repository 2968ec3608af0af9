//! CMA-ES: the covariance matrix adaptation evolution strategy, the next step
//! the thesis names (Horner §5, citing Hansen, Müller & Koumoutsakos 2003).
//!
//! This is the standard (μ/μ_w, λ)-CMA-ES of Hansen's tutorial ("The CMA
//! Evolution Strategy: A Tutorial", 2016): positive recombination weights,
//! cumulative step-size adaptation, rank-one and rank-μ covariance updates,
//! with the tutorial's default constants. The eigendecomposition of the
//! covariance matrix (cyclic Jacobi rotations, deterministic) is refreshed
//! lazily, every `1/(10·n·(c1 + cμ))` generations or so, as the tutorial
//! suggests. It keeps a full `n × n` covariance, so it suits the few hundred
//! weights of small nets, not thousands.

use serde::{Deserialize, Serialize};

use super::genome::RealGenome;
use super::operators::standard_normal;
use super::selection::ranked;
use super::{check_told, engine_rng, Engine, EvolveError};

/// Hansen's (μ/μ_w, λ)-CMA-ES as an [`Engine`] (see the module docs). The
/// population is λ samples `m + σ·B·D·z`; the state (mean, step size, paths,
/// covariance and its eigendecomposition, and the current samples' steps) is
/// all serialised.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CmaEs {
    n: usize,
    lambda: usize,
    mu: usize,
    weights: Vec<f64>,
    mu_eff: f64,
    cc: f64,
    cs: f64,
    c1: f64,
    cmu: f64,
    damps: f64,
    chi_n: f64,
    mean: Vec<f64>,
    sigma: f64,
    pc: Vec<f64>,
    ps: Vec<f64>,
    /// Covariance, row-major.
    c: Vec<f64>,
    /// Eigenvectors of `c` as columns, row-major.
    b: Vec<f64>,
    /// Square roots of the eigenvalues of `c`.
    d: Vec<f64>,
    eigen_generation: u64,
    seed: u64,
    generation: u64,
    evaluations: u64,
    /// `y = B·D·z` of each current sample (`x = m + σ·y`).
    steps: Vec<Vec<f64>>,
    population: Vec<RealGenome>,
}

impl CmaEs {
    /// A CMA-ES around `mean` with initial step size `sigma` and `lambda`
    /// samples per generation (`None`: the default `4 + floor(3·ln n)`).
    pub fn new(
        mean: Vec<f64>,
        sigma: f64,
        lambda: Option<usize>,
        seed: u64,
    ) -> Result<Self, EvolveError> {
        let n = mean.len();
        if n == 0 {
            return Err(EvolveError::Config(
                "CMA-ES needs at least one dimension".into(),
            ));
        }
        if !(sigma.is_finite() && sigma > 0.0) {
            return Err(EvolveError::Config(format!(
                "CMA-ES sigma must be positive, not {sigma}"
            )));
        }
        if mean.iter().any(|m| !m.is_finite()) {
            return Err(EvolveError::Config("CMA-ES mean must be finite".into()));
        }
        let nf = n as f64;
        let lambda = lambda.unwrap_or(4 + (3.0 * nf.ln()).floor() as usize);
        if lambda < 2 {
            return Err(EvolveError::Config(format!(
                "CMA-ES lambda must be at least 2, not {lambda}"
            )));
        }
        let mu = lambda / 2;
        let raw: Vec<f64> = (1..=mu)
            .map(|i| ((lambda as f64 + 1.0) / 2.0).ln() - (i as f64).ln())
            .collect();
        let sum: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / sum).collect();
        let mu_eff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let cc = (4.0 + mu_eff / nf) / (nf + 4.0 + 2.0 * mu_eff / nf);
        let cs = (mu_eff + 2.0) / (nf + mu_eff + 5.0);
        let c1 = 2.0 / ((nf + 1.3).powi(2) + mu_eff);
        let cmu =
            (1.0 - c1).min(2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((nf + 2.0).powi(2) + mu_eff));
        let damps = 1.0 + 2.0 * (((mu_eff - 1.0) / (nf + 1.0)).sqrt() - 1.0).max(0.0) + cs;
        let chi_n = nf.sqrt() * (1.0 - 1.0 / (4.0 * nf) + 1.0 / (21.0 * nf * nf));
        let mut identity = vec![0.0; n * n];
        for i in 0..n {
            identity[i * n + i] = 1.0;
        }
        let mut es = CmaEs {
            n,
            lambda,
            mu,
            weights,
            mu_eff,
            cc,
            cs,
            c1,
            cmu,
            damps,
            chi_n,
            mean,
            sigma,
            pc: vec![0.0; n],
            ps: vec![0.0; n],
            c: identity.clone(),
            b: identity,
            d: vec![1.0; n],
            eigen_generation: 0,
            seed,
            generation: 0,
            evaluations: 0,
            steps: Vec::new(),
            population: Vec::new(),
        };
        es.sample();
        Ok(es)
    }

    /// The distribution mean.
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// The overall step size σ.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// Samples per generation (λ).
    pub fn lambda(&self) -> usize {
        self.lambda
    }

    /// The covariance matrix, row-major `n × n`.
    pub fn covariance(&self) -> &[f64] {
        &self.c
    }

    fn sample(&mut self) {
        let n = self.n;
        let mut rng = engine_rng(self.seed, self.generation, 0);
        self.steps.clear();
        self.population.clear();
        for _ in 0..self.lambda {
            let dz: Vec<f64> = self
                .d
                .iter()
                .map(|d| d * standard_normal(&mut rng))
                .collect();
            let y: Vec<f64> = (0..n)
                .map(|i| (0..n).map(|j| self.b[i * n + j] * dz[j]).sum())
                .collect();
            let x = self
                .mean
                .iter()
                .zip(&y)
                .map(|(m, yi)| (m + self.sigma * yi) as f32)
                .collect();
            self.steps.push(y);
            self.population.push(RealGenome::new(x));
        }
    }

    /// `C^(-1/2)·v = B·D^(-1)·Bᵀ·v`.
    fn inv_sqrt_times(&self, v: &[f64]) -> Vec<f64> {
        let n = self.n;
        let t: Vec<f64> = (0..n)
            .map(|j| (0..n).map(|i| self.b[i * n + j] * v[i]).sum::<f64>() / self.d[j])
            .collect();
        (0..n)
            .map(|i| (0..n).map(|j| self.b[i * n + j] * t[j]).sum())
            .collect()
    }

    fn update_eigen(&mut self) {
        let n = self.n;
        // Symmetrise from the upper triangle (the updates keep it symmetric up to rounding).
        for i in 0..n {
            for j in 0..i {
                self.c[i * n + j] = self.c[j * n + i];
            }
        }
        let (values, vectors) = jacobi_eigen(&self.c, n);
        self.d = values.iter().map(|&v| v.max(1e-300).sqrt()).collect();
        self.b = vectors;
        self.eigen_generation = self.generation;
    }
}

impl Engine for CmaEs {
    /// Checks that the state read from a checkpoint is consistent (every
    /// vector and matrix of the sizes `n`, `λ`, `μ` say), so that a corrupt
    /// file is an error instead of a panic in the next generation.
    fn check_state(&self) -> Result<(), String> {
        let n = self.n;
        let vectors = [
            ("mean", self.mean.len()),
            ("pc", self.pc.len()),
            ("ps", self.ps.len()),
            ("d", self.d.len()),
        ];
        for (name, len) in vectors {
            if len != n {
                return Err(format!("CMA-ES {name} has {len} entries, not n = {n}"));
            }
        }
        for (name, len) in [("covariance", self.c.len()), ("eigenvectors", self.b.len())] {
            if Some(len) != n.checked_mul(n) {
                return Err(format!(
                    "CMA-ES {name} has {len} entries, not n² = {}",
                    n * n
                ));
            }
        }
        if self.weights.len() != self.mu || self.mu == 0 || self.mu > self.lambda {
            return Err(format!(
                "CMA-ES has {} weights for mu = {} of lambda = {}",
                self.weights.len(),
                self.mu,
                self.lambda
            ));
        }
        if self.steps.iter().any(|y| y.len() != n)
            || self.population.iter().any(|g| g.genes.len() != n)
        {
            return Err(format!("CMA-ES samples are not all of length n = {n}"));
        }
        if self.population.len() != self.lambda || self.steps.len() != self.lambda {
            return Err(format!(
                "CMA-ES holds {} samples and {} steps for lambda = {}",
                self.population.len(),
                self.steps.len(),
                self.lambda
            ));
        }
        Ok(())
    }

    type Genome = RealGenome;

    fn population(&self) -> &[RealGenome] {
        &self.population
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn evaluations(&self) -> u64 {
        self.evaluations
    }

    fn tell(&mut self, fitness: &[f64]) {
        check_told(self.lambda, fitness.len());
        let n = self.n;
        let order = ranked(fitness);
        let best: Vec<&Vec<f64>> = order[..self.mu].iter().map(|&k| &self.steps[k]).collect();

        // Mean: m += σ·y_w.
        let mut yw = vec![0.0; n];
        for (w, y) in self.weights.iter().zip(&best) {
            for (a, b) in yw.iter_mut().zip(y.iter()) {
                *a += w * b;
            }
        }
        for (m, y) in self.mean.iter_mut().zip(&yw) {
            *m += self.sigma * y;
        }

        // Step-size path and the h_σ stall of the covariance path.
        let cinv_yw = self.inv_sqrt_times(&yw);
        let ks = (self.cs * (2.0 - self.cs) * self.mu_eff).sqrt();
        for (p, v) in self.ps.iter_mut().zip(&cinv_yw) {
            *p = (1.0 - self.cs) * *p + ks * v;
        }
        let ps_norm = self.ps.iter().map(|p| p * p).sum::<f64>().sqrt();
        let g = (self.generation + 1) as f64;
        let hsig = ps_norm / (1.0 - (1.0 - self.cs).powf(2.0 * g)).sqrt() / self.chi_n
            < 1.4 + 2.0 / (n as f64 + 1.0);
        let kc = (self.cc * (2.0 - self.cc) * self.mu_eff).sqrt();
        for (p, y) in self.pc.iter_mut().zip(&yw) {
            *p = (1.0 - self.cc) * *p + if hsig { kc * y } else { 0.0 };
        }

        // Covariance: rank-one and rank-μ updates (upper triangle, then mirrored).
        let dh = if hsig { 0.0 } else { self.cc * (2.0 - self.cc) };
        let keep = 1.0 - self.c1 - self.cmu + self.c1 * dh;
        for i in 0..n {
            for j in i..n {
                let mut rank_mu = 0.0;
                for (w, y) in self.weights.iter().zip(&best) {
                    rank_mu += w * y[i] * y[j];
                }
                let v = keep * self.c[i * n + j]
                    + self.c1 * self.pc[i] * self.pc[j]
                    + self.cmu * rank_mu;
                self.c[i * n + j] = v;
                self.c[j * n + i] = v;
            }
        }

        // Cumulative step-size adaptation.
        self.sigma *= ((self.cs / self.damps) * (ps_norm / self.chi_n - 1.0)).exp();

        self.evaluations += self.lambda as u64;
        self.generation += 1;
        let gap = self.lambda as f64 / ((self.c1 + self.cmu) * n as f64 * 10.0);
        if (self.generation - self.eigen_generation) as f64 > gap {
            self.update_eigen();
        }
        self.sample();
    }
}

/// Eigenvalues and eigenvectors (columns of a row-major matrix) of the
/// symmetric `n × n` matrix `a`, by cyclic Jacobi rotations.
pub fn jacobi_eigen(a: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut a = a.to_vec();
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    for _sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j].powi(2))
            .sum();
        let scale: f64 = (0..n).map(|i| a[i * n + i].powi(2)).sum();
        if off <= 1e-30 * scale || off == 0.0 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                let (app, aqq) = (a[p * n + p], a[q * n + q]);
                let theta = (aqq - app) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i * n + i]).collect(), v)
}
