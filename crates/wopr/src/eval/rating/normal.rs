//! The standard normal distribution: its distribution function and its
//! quantile, for the intervals and likelihoods of superiority.

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
