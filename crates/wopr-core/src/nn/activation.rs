//! Transfer functions and their derivatives.
//!
//! The exponential is branch-free vector code (Cephes `expf`: Cody–Waite
//! range reduction and a degree-5 minimax polynomial, within a few ulp), so
//! applying an activation to a layer runs at SIMD speed; a libm `exp` call
//! per value would cost more than the layer's multiply-adds. The code is
//! written once over the [`Isa`] vector operations and used by every pass,
//! single-position and batched alike, so they agree bit for bit; at the
//! AVX2/AVX-512 levels its multiply-adds are fused, so values may differ
//! from the portable level in the last bit.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::simd::{Isa, Plain};

/// A neuron's transfer function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// `1 / (1 + e^-x)`, range (0, 1). Naveed's and Weaver's hidden units.
    Sigmoid,
    /// `tanh(x)`, range (-1, 1).
    Tanh,
    /// `x`: for value outputs (Naveed's output unit) and logits.
    Linear,
    /// `max(x, 0)`.
    Relu,
}

impl Activation {
    /// Every activation.
    pub const ALL: [Activation; 4] = [
        Activation::Sigmoid,
        Activation::Tanh,
        Activation::Linear,
        Activation::Relu,
    ];

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Sigmoid => "sigmoid",
            Activation::Tanh => "tanh",
            Activation::Linear => "linear",
            Activation::Relu => "relu",
        }
    }

    /// The activation of a net input `x`, as the portable level computes it
    /// (sigmoid and tanh within about 3e-7 of the exact value).
    pub fn apply(self, x: f32) -> f32 {
        self.apply_v::<Plain>([x; 4])[0]
    }

    /// The derivative with respect to the net input, written in terms of the
    /// activation's *output* `y` (all four allow it; ReLU takes 0 at 0).
    #[inline(always)]
    pub fn derivative_from_output(self, y: f32) -> f32 {
        match self {
            Activation::Sigmoid => y * (1.0 - y),
            Activation::Tanh => 1.0 - y * y,
            Activation::Linear => 1.0,
            Activation::Relu => {
                if y > 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    /// The activation of each lane.
    #[inline(always)]
    pub fn apply_v<I: Isa>(self, x: I::V) -> I::V {
        match self {
            Activation::Sigmoid => sigmoid_v::<I>(x),
            Activation::Tanh => tanh_v::<I>(x),
            Activation::Linear => x,
            Activation::Relu => relu_v::<I>(x),
        }
    }

    /// Applies the activation to every value, a vector at a time; a partial
    /// last vector goes through a zero-padded copy (same lanes, same bits).
    #[inline(always)]
    pub fn apply_slice<I: Isa>(self, xs: &mut [f32]) {
        // A macro, not a function taking a closure: the vector code must be
        // inlined into the caller compiled with the level's features.
        macro_rules! map {
            ($f:ident) => {{
                let mut chunks = xs.chunks_exact_mut(I::WIDTH);
                for c in &mut chunks {
                    I::store($f::<I>(I::load(c)), c);
                }
                let rest = chunks.into_remainder();
                if !rest.is_empty() {
                    let mut buf = [0.0f32; 16];
                    buf[..rest.len()].copy_from_slice(rest);
                    I::store($f::<I>(I::load(&buf)), &mut buf);
                    rest.copy_from_slice(&buf[..rest.len()]);
                }
            }};
        }
        match self {
            Activation::Sigmoid => map!(sigmoid_v),
            Activation::Tanh => map!(tanh_v),
            Activation::Linear => {}
            Activation::Relu => map!(relu_v),
        }
    }

    /// The activation of one value, computed exactly as [`Self::apply_slice`]
    /// computes each lane.
    #[inline(always)]
    pub fn apply_one<I: Isa>(self, x: f32) -> f32 {
        let mut buf = [x; 16];
        I::store(self.apply_v::<I>(I::load(&buf)), &mut buf);
        buf[0]
    }

    /// Multiplies each `d[i]` by the derivative at output `y[i]`.
    #[inline(always)]
    pub fn scale_by_derivative(self, d: &mut [f32], y: &[f32]) {
        match self {
            Activation::Sigmoid => d.iter_mut().zip(y).for_each(|(d, &y)| *d *= y * (1.0 - y)),
            Activation::Tanh => d.iter_mut().zip(y).for_each(|(d, &y)| *d *= 1.0 - y * y),
            Activation::Linear => {}
            Activation::Relu => d.iter_mut().zip(y).for_each(|(d, &y)| {
                if y <= 0.0 {
                    *d = 0.0
                }
            }),
        }
    }
}

/// `e^x` per lane for `x` in [-87.3, 88.3] (callers clamp), so the result
/// is a finite normal number.
#[inline(always)]
fn exp_v<I: Isa>(x: I::V) -> I::V {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    // ln 2 split in a part exact in few bits and a correction (Cody–Waite).
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Adding 1.5 * 2^23 rounds to an integer held in the low mantissa bits.
    const SHIFT: f32 = 12_582_912.0;
    let s = I::splat;
    let t = I::fma(x, s(LOG2E), s(SHIFT));
    let n = I::sub(t, s(SHIFT));
    let r = I::fma(n, s(-LN2_HI), x);
    let r = I::fma(n, s(-LN2_LO), r);
    // Cephes expf polynomial for e^r on [-ln2/2, ln2/2].
    let mut p = s(1.987_569_1e-4);
    p = I::fma(p, r, s(1.398_199_9e-3));
    p = I::fma(p, r, s(8.333_452e-3));
    p = I::fma(p, r, s(4.166_579_6e-2));
    p = I::fma(p, r, s(0.166_666_65));
    p = I::fma(p, r, s(0.5));
    let er = I::add(I::fma(I::mul(p, r), r, r), s(1.0));
    I::mul(er, I::pow2_from_shifted(t))
}

/// The logistic function `1 / (1 + e^-x)`. The input is clamped to ±80,
/// where the result already rounds to 0+ or 1 without subnormal numbers.
#[inline(always)]
fn sigmoid_v<I: Isa>(x: I::V) -> I::V {
    let x = I::min(I::max(x, I::splat(-80.0)), I::splat(80.0));
    let e = exp_v::<I>(I::sub(I::splat(0.0), x));
    I::div(I::splat(1.0), I::add(I::splat(1.0), e))
}

/// `max(x, 0)`.
#[inline(always)]
fn relu_v<I: Isa>(x: I::V) -> I::V {
    I::max(x, I::splat(0.0))
}

/// `tanh(x) = 1 - 2 / (1 + e^{2x})` (absolute error about 1e-7 near 0).
#[inline(always)]
fn tanh_v<I: Isa>(x: I::V) -> I::V {
    let x2 = I::add(x, x);
    let x2 = I::min(I::max(x2, I::splat(-80.0)), I::splat(80.0));
    let e = exp_v::<I>(x2);
    I::sub(
        I::splat(1.0),
        I::div(I::splat(2.0), I::add(I::splat(1.0), e)),
    )
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Activation {
    type Err = String;

    /// Parses a name case-insensitively (`sigmoid`, `tanh`, `linear`, `relu`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Activation::ALL
            .into_iter()
            .find(|a| a.name() == lower)
            .ok_or_else(|| {
                format!("unknown activation '{s}' (accepted: sigmoid, tanh, linear, relu)")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_matches_libm() {
        let mut worst = 0.0f64;
        let mut x = -87.0f32;
        while x < 88.0 {
            let want = (x as f64).exp();
            let got = exp_v::<Plain>([x; 4])[0] as f64;
            worst = worst.max(((got - want) / want).abs());
            x += 0.0137;
        }
        // A few ulp of f32 (one ulp is 1.2e-7 relative at worst).
        assert!(worst < 4e-7, "worst relative error {worst}");
        let tiny = Activation::Sigmoid.apply(-1000.0);
        assert!(tiny > 0.0 && tiny < 1e-30, "{tiny}");
        assert_eq!(Activation::Sigmoid.apply(1000.0), 1.0);
        assert_eq!(Activation::Tanh.apply(-1000.0), -1.0);
    }

    #[test]
    fn activations_and_derivatives() {
        for &x in &[-30.0f32, -2.5, -0.3, 0.0, 0.7, 3.0, 30.0] {
            let s = 1.0 / (1.0 + (-(x as f64)).exp());
            let sg = Activation::Sigmoid.apply(x) as f64;
            assert!((sg - s).abs() < 2e-7, "sigmoid({x})");
            let th = Activation::Tanh.apply(x) as f64;
            assert!((th - (x as f64).tanh()).abs() < 3e-7, "tanh({x})");
            for a in Activation::ALL {
                let h = 1e-3f64;
                // Derivative check in f64 against the exact function.
                let f = |v: f64| match a {
                    Activation::Sigmoid => 1.0 / (1.0 + (-v).exp()),
                    Activation::Tanh => v.tanh(),
                    Activation::Linear => v,
                    Activation::Relu => v.max(0.0),
                };
                if a == Activation::Relu && x == 0.0 {
                    continue;
                }
                let num = (f(x as f64 + h) - f(x as f64 - h)) / (2.0 * h);
                let got = a.derivative_from_output(a.apply(x)) as f64;
                assert!((num - got).abs() < 1e-5, "{a} at {x}: {num} vs {got}");
            }
        }
        assert_eq!("ReLU".parse::<Activation>(), Ok(Activation::Relu));
        assert!("soft"
            .parse::<Activation>()
            .unwrap_err()
            .contains("accepted"));
    }
}
