//! Reading and training a policy-value net ([`super::Heads::PolicyValue`]):
//! AlphaZero's two heads, here the last layer of one net whose outputs
//! `0..A` are the policy's logits over the game's action indices and whose
//! output `A` is the value, through `tanh`, for the player to move.
//!
//! The policy is the softmax of the logits of the legal actions alone
//! (illegal ones masked). The loss of one position with search
//! probabilities `π` (over its legal actions) and game outcome `z` (in
//! [−1, 1], for the player to move) is AlphaZero's
//! `(z − v)² − Σ π log p`, whose gradient with respect to the outputs is
//! `2 (v − z)(1 − v²)` at the value and `p_a − π_a` at each legal logit
//! (zero at the illegal ones).
//!
//! **Reference.** D. Silver et al., "Mastering the game of Go without human
//! knowledge". *Nature* 550, pp. 354–359, 2017.

use crate::game::Action;

/// The value (in [−1, 1], for the player to move) and, in `priors`, the
/// policy's probabilities of `legal` in their order, from one row of a
/// policy-value net's outputs (`A + 1` values).
///
/// # Panics
/// If an action of `legal` is not below `A`.
pub fn read(row: &[f32], legal: &[Action], priors: &mut Vec<f32>) -> f32 {
    let a = row.len() - 1;
    priors.clear();
    priors.extend(legal.iter().map(|&m| {
        assert!((m as usize) < a, "action {m} has no logit ({a} actions)");
        row[m as usize]
    }));
    softmax(priors);
    row[a].tanh()
}

/// The softmax of `xs` in place (an empty slice stays empty).
pub fn softmax(xs: &mut [f32]) {
    let top = xs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in xs.iter_mut() {
        *x = (*x - top).exp();
        sum += *x;
    }
    for x in xs.iter_mut() {
        *x /= sum;
    }
}

/// The loss of one position and its gradient with respect to the outputs:
/// `row` the net's outputs (`A + 1`), `legal` the position's legal actions,
/// `target` the search's probabilities of them (same order, summing to 1),
/// `z` the outcome for the player to move. Writes the gradient into
/// `grad` (length `A + 1`, overwritten) and returns the two parts of the
/// loss: `(value: (z − v)², policy: −Σ π log p)`.
pub fn loss_grad(
    row: &[f32],
    legal: &[Action],
    target: &[f32],
    z: f32,
    grad: &mut [f32],
    priors: &mut Vec<f32>,
) -> (f32, f32) {
    let a = row.len() - 1;
    let v = read(row, legal, priors);
    grad.fill(0.0);
    let mut cross = 0.0;
    for ((&m, &p), &pi) in legal.iter().zip(priors.iter()).zip(target) {
        grad[m as usize] = p - pi;
        if pi > 0.0 {
            cross -= pi * p.max(1e-30).ln();
        }
    }
    grad[a] = 2.0 * (v - z) * (1.0 - v * v);
    ((z - v) * (z - v), cross)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gradient agrees with central differences of the loss.
    #[test]
    fn gradient_matches_finite_differences() {
        let row = [0.3f32, -1.2, 0.8, 2.0, 0.1];
        let legal = [0 as Action, 2, 3];
        let target = [0.5f32, 0.25, 0.25];
        let z = -1.0;
        let mut grad = vec![0.0; row.len()];
        let mut priors = Vec::new();
        loss_grad(&row, &legal, &target, z, &mut grad, &mut priors);
        let loss = |r: &[f32]| {
            let mut g = vec![0.0; r.len()];
            let mut p = Vec::new();
            let (a, b) = loss_grad(r, &legal, &target, z, &mut g, &mut p);
            f64::from(a) + f64::from(b)
        };
        for i in 0..row.len() {
            let h = 1e-3;
            let (mut up, mut down) = (row, row);
            up[i] += h;
            down[i] -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(h));
            assert!(
                (numeric - f64::from(grad[i])).abs() < 1e-3,
                "output {i}: analytic {} numeric {numeric}",
                grad[i]
            );
        }
        // The illegal action's logit (1) gets no gradient.
        assert_eq!(grad[1], 0.0);
    }

    /// Priors cover the legal actions alone and sum to one.
    #[test]
    fn priors_mask_illegal_actions() {
        let row = [5.0f32, 100.0, 5.0, 0.0];
        let mut priors = Vec::new();
        let v = read(&row, &[0, 2], &mut priors);
        assert_eq!(priors, vec![0.5, 0.5]);
        assert_eq!(v, 0.0);
    }
}
