//! Reusable working memory for forward and backward passes.

use super::simd::SimdLevel;

/// Working memory for [`super::Network`] passes: activations of every layer
/// (kept for a following [`super::Network::backward`]), deltas, and a few
/// temporaries.
///
/// Buffers only grow, so after the first call at a given batch size no pass
/// allocates. A scratch also fixes the [`SimdLevel`] its passes run at (the
/// best the CPU has, unless chosen with [`Scratch::with_level`]). Keep one per
/// thread; it may be shared between networks of different shapes.
#[derive(Clone, Debug)]
pub struct Scratch {
    pub(crate) level: SimdLevel,
    /// Blocked activations of a batch (input layer included).
    pub acts: Vec<f32>,
    /// Blocked deltas of a batch.
    pub dels: Vec<f32>,
    /// Temporaries: transposed weights, zero biases, lane accumulators.
    pub tmp: Vec<f32>,
    /// Activations of one position (input layer included).
    pub one: Vec<f32>,
    /// Deltas of one position.
    pub one_d: Vec<f32>,
    /// Indices of a layer's nonzero inputs.
    pub idx: Vec<u32>,
    /// What the buffers hold, so `backward` can check it follows a forward
    /// pass of the same network.
    pub filled: Filled,
}

/// What the last forward pass left in a [`Scratch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filled {
    Nothing,
    /// A single position, by a network with this shape fingerprint.
    Single(u64),
    /// A batch of this many positions, by a network with this fingerprint.
    Batch(u64, usize),
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
}

impl Scratch {
    /// Empty working memory at the best SIMD level this CPU supports.
    pub fn new() -> Scratch {
        Scratch::with_level(SimdLevel::detect()).expect("detected level is supported")
    }

    /// Empty working memory whose passes run at `level`; fails if this CPU
    /// does not support it.
    pub fn with_level(level: SimdLevel) -> Result<Scratch, String> {
        if !level.is_supported() {
            return Err(format!(
                "SIMD level '{level}' is not supported by this CPU (best: {})",
                SimdLevel::detect()
            ));
        }
        Ok(Scratch {
            level,
            acts: Vec::new(),
            dels: Vec::new(),
            tmp: Vec::new(),
            one: Vec::new(),
            one_d: Vec::new(),
            idx: Vec::new(),
            filled: Filled::Nothing,
        })
    }

    /// The SIMD level passes run at.
    pub fn level(&self) -> SimdLevel {
        self.level
    }
}

/// Grows `v` to at least `n` values (never shrinks, so no reallocation once
/// warm).
#[inline]
pub fn grow(v: &mut Vec<f32>, n: usize) {
    if v.len() < n {
        v.resize(n, 0.0);
    }
}
