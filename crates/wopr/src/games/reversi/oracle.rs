//! What Reversi adds to the oracles: its `alphabeta` value scale (the
//! generic `perfect` and `alphabeta` are all it takes).

use super::Reversi;
use crate::game::oracle::Oracles;

impl Oracles for Reversi {
    /// Corner 100, other edges 10, mobility 10 per move: a corner is tanh(1).
    fn value_scale(&self) -> f32 {
        100.0
    }
}
