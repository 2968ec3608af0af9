//! One TD step: the eligibility trace's decay and cut, the weights'
//! change along it, and TCL's per-weight rates.

use super::TdLearner;
use crate::game::encode::Encodable;
use crate::nn::sparse_sum;

impl<G: Encodable> TdLearner<G> {
    /// Empties the trace, keeping its buffers.
    pub(super) fn clear_trace(&mut self) {
        while let Some((_, _, old)) = self.trace.pop_front() {
            self.spare.push(old);
        }
    }

    /// One TD step on `state` towards `target`, the trace first decayed by
    /// `sign·γλ` (`sign` 0 restarts it); returns δ. Where `encoded`,
    /// `self.inputs` already holds `state`'s inputs.
    pub(super) fn update(
        &mut self,
        state: &G::State,
        target: f32,
        sign: f32,
        encoded: bool,
    ) -> f32 {
        if !encoded {
            self.encoding.encode_sparse(state, &mut self.inputs);
        }
        if let Some(touched) = self.touched.as_mut() {
            // Every weight this step (or a later one, through the trace)
            // changes is an input of a position learned from.
            touched.add(&self.inputs);
        }
        // Inputs carried over from the move's valuation are the position's
        // own (checked on every update of the test builds).
        debug_assert!(
            !encoded || {
                let mut fresh = Vec::new();
                self.encoding.encode_sparse(state, &mut fresh);
                fresh == self.inputs
            }
        );
        let y = self.output.apply(sparse_sum(&self.weights, &self.inputs));
        let delta = target - y;
        let slope = self.output.derivative_from_output(y);
        let bias = self.weights.len() - 1;
        let step = self.alpha * delta;
        if self.options.lambda == 0.0 {
            for k in 0..self.inputs.len() {
                let (i, x) = self.inputs[k];
                self.nudge(i as usize, step * slope * x);
            }
            self.nudge(bias, step * slope);
            return delta;
        }
        let decay = sign * self.options.gamma * self.options.lambda;
        if decay == 0.0 {
            self.clear_trace();
        }
        for entry in self.trace.iter_mut() {
            entry.0 *= decay;
        }
        while self
            .trace
            .front()
            .is_some_and(|e| e.0.abs() < self.options.trace_cut)
        {
            let (_, _, old) = self.trace.pop_front().expect("a front entry");
            self.spare.push(old);
        }
        let mut gradient = self.spare.pop().unwrap_or_default();
        gradient.clear();
        gradient.extend(self.inputs.iter().map(|&(i, x)| (i, slope * x)));
        self.trace.push_back((1.0, slope, gradient));
        if self.options.tcl.is_none() {
            for (factor, bias_slope, gradient) in &self.trace {
                let step = step * factor;
                for &(i, g) in gradient {
                    self.weights[i as usize] += step * g;
                }
                self.weights[bias] += step * bias_slope;
            }
            return delta;
        }
        // TCL weighs each weight's whole recommended change, summed over
        // the trace's positions, so gather it first: summed in place per
        // weight, with the weights touched listed once each (a weight whose
        // running sum returns to zero may be listed again; its second
        // visit finds nothing left to apply).
        let trace = std::mem::take(&mut self.trace);
        let mut touched = std::mem::take(&mut self.tcl_touched);
        touched.clear();
        let mut bias_change = 0.0;
        for (factor, bias_slope, gradient) in &trace {
            let step = step * factor;
            for &(i, g) in gradient {
                let change = &mut self.tcl_change[i as usize];
                if *change == 0.0 {
                    touched.push(i);
                }
                *change += step * g;
            }
            bias_change += step * bias_slope;
        }
        for &i in &touched {
            let r = std::mem::take(&mut self.tcl_change[i as usize]);
            if r != 0.0 {
                self.nudge(i as usize, r);
            }
        }
        self.nudge(bias, bias_change);
        self.trace = trace;
        self.tcl_touched = touched;
        delta
    }

    /// Applies the recommended change `r` to weight `i`: at full size, or
    /// with TCL at `g(|Nᵢ|/Aᵢ)` of it, then adds it to TCL's sums.
    fn nudge(&mut self, i: usize, r: f32) {
        let Some(beta) = self.options.tcl else {
            self.weights[i] += r;
            return;
        };
        let size = self.tcl_size[i];
        let rate = if size > 0.0 {
            (beta * (self.tcl_sum[i].abs() / size - 1.0)).exp()
        } else {
            1.0
        };
        self.weights[i] += rate * r;
        self.tcl_sum[i] += r;
        self.tcl_size[i] += r.abs();
    }
}
