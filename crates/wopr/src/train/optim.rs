//! Gradient-based weight updates: back-propagation with momentum and the
//! RPROP family.
//!
//! **References.**
//! - M. H. Naveed and P. I. Cowling, "Using coevolution and gradient-based
//!   learning for the Virus game", University of Bradford (also as Cowling,
//!   Naveed and Hossain, "A coevolutionary model for the Virus game", *IEEE
//!   Symposium on Computational Intelligence and Games (CIG)*, 2006).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A rule that moves parameters given the gradient of the error.
pub trait Optimizer {
    /// The rule's settings; `Default` gives the values the papers used.
    type Config: Clone + Default;

    /// An optimiser for `num_params` parameters, with fresh state.
    fn new(config: Self::Config, num_params: usize) -> Self
    where
        Self: Sized;

    /// The settings.
    fn config(&self) -> &Self::Config;

    /// One update: `grad` is the gradient of the error at `params`, `loss`
    /// the error there (iRPROP+ compares it with the previous step's).
    fn step(&mut self, params: &mut [f32], grad: &[f32], loss: f64);
}

/// Settings of [`Backprop`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BackpropConfig {
    /// Step size η (Naveed & Cowling: 0.01).
    pub learning_rate: f64,
    /// Momentum α: the fraction of the previous step added to this one.
    pub momentum: f64,
}

impl Default for BackpropConfig {
    fn default() -> Self {
        BackpropConfig {
            learning_rate: 0.01,
            momentum: 0.0,
        }
    }
}

/// Gradient descent with momentum (back-propagation's update rule):
/// `Δw(t) = −η ∂E/∂w + α Δw(t−1)`, `w += Δw(t)`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Backprop {
    config: BackpropConfig,
    velocity: Vec<f32>,
}

impl Optimizer for Backprop {
    type Config = BackpropConfig;

    fn new(config: BackpropConfig, num_params: usize) -> Self {
        Backprop {
            config,
            velocity: vec![0.0; num_params],
        }
    }

    fn config(&self) -> &BackpropConfig {
        &self.config
    }

    fn step(&mut self, params: &mut [f32], grad: &[f32], _loss: f64) {
        let (lr, mu) = (
            self.config.learning_rate as f32,
            self.config.momentum as f32,
        );
        for ((w, &g), v) in params.iter_mut().zip(grad).zip(&mut self.velocity) {
            *v = mu * *v - lr * g;
            *w += *v;
        }
    }
}

/// Which member of the RPROP family (names as in Igel & Hüsken 2003,
/// "Empirical evaluation of the improved Rprop learning algorithms").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RpropVariant {
    /// Riedmiller & Braun's original RPROP (1993): after a sign change of
    /// the derivative, the previous step is undone ("weight-backtracking").
    RpropPlus,
    /// RPROP without weight-backtracking: a sign change only shrinks Δ.
    RpropMinus,
    /// iRPROP+: backtracks after a sign change only if the error increased.
    IRpropPlus,
    /// iRPROP−: no backtracking; after a sign change the weight does not
    /// move this step.
    IRpropMinus,
}

impl RpropVariant {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RpropVariant::RpropPlus => "rprop",
            RpropVariant::RpropMinus => "rprop-",
            RpropVariant::IRpropPlus => "irprop+",
            RpropVariant::IRpropMinus => "irprop-",
        }
    }
}

/// Settings of [`Rprop`]; the defaults are Naveed & Cowling's (§2.3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RpropConfig {
    /// Which variant.
    pub variant: RpropVariant,
    /// Factor growing Δ while the derivative keeps its sign (η+ = 1.2).
    pub eta_plus: f32,
    /// Factor shrinking Δ after a sign change (η− = 0.5).
    pub eta_minus: f32,
    /// Initial step Δ0 (0.5).
    pub delta_init: f32,
    /// Smallest step Δmin (0).
    pub delta_min: f32,
    /// Largest step Δmax (50).
    pub delta_max: f32,
}

impl Default for RpropConfig {
    fn default() -> Self {
        RpropConfig {
            variant: RpropVariant::RpropPlus,
            eta_plus: 1.2,
            eta_minus: 0.5,
            delta_init: 0.5,
            delta_min: 0.0,
            delta_max: 50.0,
        }
    }
}

/// Resilient back-propagation: every weight has its own step size Δ, grown
/// by η+ while its derivative keeps its sign and shrunk by η− when it flips;
/// only the derivative's sign is used. Meant for full-batch gradients.
///
/// With `g` the derivative now and `g'` the one remembered from the last
/// step, per weight:
/// - `g'·g > 0`: `Δ = min(Δ·η+, Δmax)`, `Δw = −sign(g)·Δ`, `w += Δw`;
/// - `g'·g < 0`: `Δ = max(Δ·η−, Δmin)`; then RPROP+ undoes the last step
///   (`w −= Δw`), iRPROP+ does so only if the error rose since the last
///   step, and both remember `g' = 0` (so the next step takes the third
///   case); RPROP− steps `−sign(g)·Δ` and remembers `g`; iRPROP− does not
///   move and remembers `g' = 0`;
/// - `g'·g = 0`: `Δw = −sign(g)·Δ`, `w += Δw`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Rprop {
    config: RpropConfig,
    delta: Vec<f32>,
    prev_grad: Vec<f32>,
    prev_step: Vec<f32>,
    /// The error at the last step (none before the first).
    prev_loss: Option<f64>,
}

impl Optimizer for Rprop {
    type Config = RpropConfig;

    fn new(config: RpropConfig, num_params: usize) -> Self {
        Rprop {
            config,
            delta: vec![config.delta_init; num_params],
            prev_grad: vec![0.0; num_params],
            prev_step: vec![0.0; num_params],
            prev_loss: None,
        }
    }

    fn config(&self) -> &RpropConfig {
        &self.config
    }

    fn step(&mut self, params: &mut [f32], grad: &[f32], loss: f64) {
        let c = self.config;
        let error_rose = self.prev_loss.is_some_and(|p| loss > p);
        for i in 0..params.len() {
            let g = grad[i];
            let dir = self.prev_grad[i] * g;
            if dir > 0.0 {
                self.delta[i] = (self.delta[i] * c.eta_plus).min(c.delta_max);
            } else if dir < 0.0 {
                self.delta[i] = (self.delta[i] * c.eta_minus).max(c.delta_min);
            }
            match c.variant {
                RpropVariant::RpropPlus | RpropVariant::IRpropPlus if dir < 0.0 => {
                    let backtrack = c.variant == RpropVariant::RpropPlus || error_rose;
                    if backtrack {
                        params[i] -= self.prev_step[i];
                    }
                    self.prev_step[i] = 0.0;
                    self.prev_grad[i] = 0.0;
                }
                RpropVariant::IRpropMinus if dir < 0.0 => {
                    self.prev_step[i] = 0.0;
                    self.prev_grad[i] = 0.0;
                }
                _ => {
                    let s = -sign(g) * self.delta[i];
                    params[i] += s;
                    self.prev_step[i] = s;
                    self.prev_grad[i] = g;
                }
            }
        }
        self.prev_loss = Some(loss);
    }
}

/// −1, 0 or 1 (`f32::signum` gives ±1 for ±0).
fn sign(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// A training algorithm chosen at run time, with its settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Algorithm {
    /// Back-propagation (gradient descent with momentum).
    Backprop(BackpropConfig),
    /// A member of the RPROP family.
    Rprop(RpropConfig),
}

impl Default for Algorithm {
    fn default() -> Self {
        Algorithm::Backprop(BackpropConfig::default())
    }
}

impl Algorithm {
    /// The name [`Algorithm::from_str`] reads.
    pub fn name(&self) -> &'static str {
        match self {
            Algorithm::Backprop(_) => "bp",
            Algorithm::Rprop(c) => c.variant.name(),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    /// `bp` (or `backprop`), `rprop` (or `rprop+`), `rprop-`, `irprop+`,
    /// `irprop-`, case-insensitive, each with its default settings.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let rprop = |variant| {
            Ok(Algorithm::Rprop(RpropConfig {
                variant,
                ..RpropConfig::default()
            }))
        };
        match s.trim().to_ascii_lowercase().as_str() {
            "bp" | "backprop" => Ok(Algorithm::default()),
            "rprop" | "rprop+" => rprop(RpropVariant::RpropPlus),
            "rprop-" => rprop(RpropVariant::RpropMinus),
            "irprop+" => rprop(RpropVariant::IRpropPlus),
            "irprop-" => rprop(RpropVariant::IRpropMinus),
            _ => Err(format!(
                "unknown training algorithm '{s}' (accepted: bp, rprop, rprop-, irprop+, irprop-)"
            )),
        }
    }
}

/// The optimiser of an [`Algorithm`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AnyOptimizer {
    algorithm: Algorithm,
    inner: Inner,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum Inner {
    Backprop(Backprop),
    Rprop(Rprop),
}

impl Optimizer for AnyOptimizer {
    type Config = Algorithm;

    fn new(algorithm: Algorithm, num_params: usize) -> Self {
        let inner = match algorithm {
            Algorithm::Backprop(c) => Inner::Backprop(Backprop::new(c, num_params)),
            Algorithm::Rprop(c) => Inner::Rprop(Rprop::new(c, num_params)),
        };
        AnyOptimizer { algorithm, inner }
    }

    fn config(&self) -> &Algorithm {
        &self.algorithm
    }

    fn step(&mut self, params: &mut [f32], grad: &[f32], loss: f64) {
        match &mut self.inner {
            Inner::Backprop(o) => o.step(params, grad, loss),
            Inner::Rprop(o) => o.step(params, grad, loss),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four steps of an optimiser on E = w² from w = 1, with dE/dw = 2w.
    fn four_steps_on_square(cfg: RpropConfig) -> Vec<f32> {
        let mut o = Rprop::new(cfg, 1);
        let mut w = [1.0f32];
        let mut trace = vec![];
        for _ in 0..4 {
            let (g, e) = ([2.0 * w[0]], (w[0] * w[0]) as f64);
            o.step(&mut w, &g, e);
            trace.push(w[0]);
        }
        trace
    }

    /// E(w) = w² from w = 1, by hand: RPROP+ steps −0.5 (w = 0.5), then
    /// Δ = 0.6 (w = −0.1), the sign flips so it steps back to 0.5 with
    /// Δ = 0.3, then steps −0.3 (w = 0.2).
    #[test]
    fn rprop_plus_by_hand() {
        let mut o = Rprop::new(RpropConfig::default(), 1);
        let mut w = [1.0f32];
        let mut trace = vec![];
        for _ in 0..4 {
            let (g, e) = ([2.0 * w[0]], (w[0] * w[0]) as f64);
            o.step(&mut w, &g, e);
            trace.push(w[0]);
        }
        let want = [0.5, -0.1, 0.5, 0.2];
        for (a, b) in trace.iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{trace:?}");
        }
    }

    /// Same problem, iRPROP−: 0.5, −0.1, then no move (Δ = 0.3), then
    /// −0.1 + 0.3 = 0.2.
    #[test]
    fn irprop_minus_by_hand() {
        let cfg = RpropConfig {
            variant: RpropVariant::IRpropMinus,
            ..RpropConfig::default()
        };
        let trace = four_steps_on_square(cfg);
        let want = [0.5, -0.1, -0.1, 0.2];
        for (a, b) in trace.iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{trace:?}");
        }
    }

    /// iRPROP+ on E = w²: at w = −0.1 the error (0.01) fell from 0.25, so no
    /// backtracking: w stays at −0.1, then steps +0.3 to 0.2.
    #[test]
    fn irprop_plus_backtracks_only_when_error_rose() {
        let cfg = RpropConfig {
            variant: RpropVariant::IRpropPlus,
            ..RpropConfig::default()
        };
        let trace = four_steps_on_square(cfg);
        let want = [0.5, -0.1, -0.1, 0.2];
        for (a, b) in trace.iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{trace:?}");
        }
        // With Δ0 = 3 the first step overshoots: w = 1 → −2, E 1 → 4. The
        // derivative flips and the error rose, so the step is undone.
        let cfg = RpropConfig {
            variant: RpropVariant::IRpropPlus,
            delta_init: 3.0,
            ..RpropConfig::default()
        };
        let mut o = Rprop::new(cfg, 1);
        let mut w = [1.0f32];
        o.step(&mut w, &[2.0], 1.0); // w = −2, E = 4 > 1
        o.step(&mut w, &[-4.0], 4.0); // sign flip and error rose: back to 1
        assert_eq!(w[0], 1.0);
    }

    #[test]
    fn backprop_momentum_by_hand() {
        // η = 0.1, α = 0.5, constant gradient 1: steps −0.1, −0.15, −0.175.
        let mut o = Backprop::new(
            BackpropConfig {
                learning_rate: 0.1,
                momentum: 0.5,
            },
            1,
        );
        let mut w = [0.0f32];
        for _ in 0..3 {
            o.step(&mut w, &[1.0], 0.0);
        }
        assert!((w[0] + 0.425).abs() < 1e-6);
        assert_eq!("iRPROP-".parse::<Algorithm>().unwrap().name(), "irprop-");
        assert!("adam"
            .parse::<Algorithm>()
            .unwrap_err()
            .contains("accepted"));
    }
}
