//! What Breakthrough adds to the oracles: its `alphabeta` value scale (the
//! generic `alphabeta` oracle is all it takes; there is no exact solver).

use super::Breakthrough;
use crate::game::oracle::Oracles;

impl Oracles for Breakthrough {
    /// A pawn is worth 10 plus its advance squared: two pawns up, or one
    /// pawn four rows further on, is tanh(1).
    fn value_scale(&self) -> f32 {
        20.0
    }
}
