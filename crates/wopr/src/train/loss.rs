//! Error functions of one example, with their gradient.

use std::fmt;
use std::str::FromStr;

/// How far a net's outputs `y` are from the targets `t`, over the outputs an
/// example's mask counts (Weaver & Bossomaier §3.7: outputs flagged as
/// illegal moves carry no error).
///
/// The error of one example is `E`; a training epoch reports the mean of `E`
/// over the examples, and gradients are of that mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Loss {
    /// `E = ½ Σ_j (y_j − t_j)²`, the classic back-propagation error (so
    /// learning rates mean what they mean in the papers). For a single
    /// output this is half the mean squared error.
    #[default]
    Mse,
    /// Softmax cross-entropy: the outputs are logits, `p = softmax(y)` over
    /// the counted outputs only, `E = −Σ_j t_j ln p_j`. Targets are
    /// non-negative weights, usually a distribution over the counted
    /// outputs (one-hot for "the oracle's move"); illegal moves are simply
    /// left out of the softmax. Use a linear output layer.
    SoftmaxCrossEntropy,
    /// Binary cross-entropy per output: the outputs are logits, `p_j =
    /// σ(y_j)`, `E = −Σ_j [t_j ln p_j + (1 − t_j) ln(1 − p_j)]` with targets
    /// in [0, 1] (the thesis's suggested replacement for squared error when
    /// classifying positions as good or bad). Use a linear output layer;
    /// `σ(y)` is then the predicted probability.
    SigmoidCrossEntropy,
}

impl Loss {
    /// Every loss.
    pub const ALL: [Loss; 3] = [
        Loss::Mse,
        Loss::SoftmaxCrossEntropy,
        Loss::SigmoidCrossEntropy,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Loss::Mse => "mse",
            Loss::SoftmaxCrossEntropy => "softmax-ce",
            Loss::SigmoidCrossEntropy => "sigmoid-ce",
        }
    }

    /// The error of one example; `mask[j] == false` leaves output `j` out.
    pub fn error(self, y: &[f32], t: &[f32], mask: Option<&[bool]>) -> f64 {
        self.eval(y, t, mask, None)
    }

    /// The error of one example, writing `∂E/∂y_j` into `grad` (zero for
    /// outputs the mask leaves out).
    pub fn error_and_gradient(
        self,
        y: &[f32],
        t: &[f32],
        mask: Option<&[bool]>,
        grad: &mut [f32],
    ) -> f64 {
        self.eval(y, t, mask, Some(grad))
    }

    fn eval(
        self,
        y: &[f32],
        t: &[f32],
        mask: Option<&[bool]>,
        mut grad: Option<&mut [f32]>,
    ) -> f64 {
        let counted = |j: usize| mask.is_none_or(|m| m[j]);
        if let Some(g) = grad.as_deref_mut() {
            g.fill(0.0);
        }
        match self {
            Loss::Mse => {
                let mut e = 0.0f64;
                for j in (0..y.len()).filter(|&j| counted(j)) {
                    let d = y[j] as f64 - t[j] as f64;
                    e += 0.5 * d * d;
                    if let Some(g) = grad.as_deref_mut() {
                        g[j] = d as f32;
                    }
                }
                e
            }
            Loss::SigmoidCrossEntropy => {
                let mut e = 0.0f64;
                for j in (0..y.len()).filter(|&j| counted(j)) {
                    let (v, tj) = (y[j] as f64, t[j] as f64);
                    // softplus(v) − t·v, stable for large |v|.
                    e += v.max(0.0) + (-v.abs()).exp().ln_1p() - tj * v;
                    if let Some(g) = grad.as_deref_mut() {
                        g[j] = (1.0 / (1.0 + (-v).exp()) - tj) as f32;
                    }
                }
                e
            }
            Loss::SoftmaxCrossEntropy => {
                let max = (0..y.len())
                    .filter(|&j| counted(j))
                    .map(|j| y[j] as f64)
                    .fold(f64::NEG_INFINITY, f64::max);
                if max == f64::NEG_INFINITY {
                    return 0.0;
                }
                let sum: f64 = (0..y.len())
                    .filter(|&j| counted(j))
                    .map(|j| (y[j] as f64 - max).exp())
                    .sum();
                let lse = max + sum.ln();
                let total_t: f64 = (0..y.len())
                    .filter(|&j| counted(j))
                    .map(|j| t[j] as f64)
                    .sum();
                let mut e = 0.0;
                for j in (0..y.len()).filter(|&j| counted(j)) {
                    e += t[j] as f64 * (lse - y[j] as f64);
                    if let Some(g) = grad.as_deref_mut() {
                        let p = (y[j] as f64 - lse).exp();
                        g[j] = (p * total_t - t[j] as f64) as f32;
                    }
                }
                e
            }
        }
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Loss {
    type Err = String;

    /// `mse`, `softmax-ce` (also `cross-entropy`, `ce`), `sigmoid-ce` (also
    /// `bce`), case-insensitive.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "mse" => Ok(Loss::Mse),
            "softmax-ce" | "cross-entropy" | "ce" => Ok(Loss::SoftmaxCrossEntropy),
            "sigmoid-ce" | "bce" => Ok(Loss::SigmoidCrossEntropy),
            _ => Err(format!(
                "unknown loss '{s}' (accepted: mse, softmax-ce, sigmoid-ce)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        // ½((0.5−1)² + (2−0)²) = ½(0.25 + 4) = 2.125; output 1 masked out → 0.125.
        let (y, t) = ([0.5f32, 2.0], [1.0f32, 0.0]);
        assert!((Loss::Mse.error(&y, &t, None) - 2.125).abs() < 1e-12);
        assert!((Loss::Mse.error(&y, &t, Some(&[true, false])) - 0.125).abs() < 1e-12);
        // Softmax of equal logits over 2 counted outputs: p = ½, E = ln 2.
        let mut g = [9.0f32; 3];
        let e = Loss::SoftmaxCrossEntropy.error_and_gradient(
            &[1.0, 1.0, 7.0],
            &[1.0, 0.0, 0.0],
            Some(&[true, true, false]),
            &mut g,
        );
        assert!((e - std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(g, [-0.5, 0.5, 0.0]);
        // Logit 0: σ = ½, E = ln 2 whatever the target; gradient ½ − t.
        let e = Loss::SigmoidCrossEntropy.error_and_gradient(&[0.0], &[1.0], None, &mut g[..1]);
        assert!((e - std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(g[0], -0.5);
        assert_eq!("BCE".parse::<Loss>(), Ok(Loss::SigmoidCrossEntropy));
        assert!("l1".parse::<Loss>().unwrap_err().contains("accepted"));
    }
}
