//! What Connect-4 adds to the oracles: its `alphabeta` value scale (the
//! generic `perfect` and `alphabeta` are all it takes).

use super::Connect4;
use crate::game::oracle::Oracles;

impl Oracles for Connect4 {
    /// Windows score 1, 3, 9 and centre discs 2: two more open threes
    /// (a typical middle-game lead) is tanh(1).
    fn value_scale(&self) -> f32 {
        20.0
    }
}
