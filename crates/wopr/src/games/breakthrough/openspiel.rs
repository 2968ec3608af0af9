//! OpenSpiel's views of a Breakthrough position, as pyspiel's
//! `breakthrough` gives them: pure functions of the state, for the Python
//! package to serve under OpenSpiel's names.
//!
//! - `str(state)` and `observation_string(player)`: the board as
//!   [`BreakthroughState`]'s `Display` writes it, the same for both players
//!   (perfect information).
//! - `observation_tensor(player)`: shape `[3, rows, columns]`, planes in
//!   the order Black's pawns, White's pawns, empty squares, each square
//!   1.0 or 0.0, rows from the top (the same for both players).
//! - The action indices and their strings are the state's own (see the
//!   module docs of [`super`]).

use super::BreakthroughState;

/// The planes of the observation tensor: Black, White, empty.
pub const OBSERVATION_PLANES: usize = 3;

/// The shape of OpenSpiel's observation tensor on a board of `columns ×
/// rows`: `[3, rows, columns]`.
pub fn observation_shape(columns: usize, rows: usize) -> [usize; 3] {
    [OBSERVATION_PLANES, rows, columns]
}

/// OpenSpiel's `observation_string(player)`: the board, whoever asks.
pub fn observation_string(state: &BreakthroughState, player: usize) -> String {
    let _ = player;
    state.to_string()
}

/// Writes OpenSpiel's `observation_tensor(player)` into `out` (length `3 ×
/// rows × columns`, the shape [`observation_shape`] gives, flattened):
/// plane 0 Black's pawns, plane 1 White's, plane 2 the empty squares.
pub fn write_observation_tensor(state: &BreakthroughState, player: usize, out: &mut [f32]) {
    let _ = player;
    let n = state.rows() * state.columns();
    assert_eq!(out.len(), OBSERVATION_PLANES * n, "observation tensor size");
    let [black, white] = state.pieces();
    for square in 0..n {
        let bit = 1u64 << square;
        let plane = if black & bit != 0 {
            0
        } else if white & bit != 0 {
            1
        } else {
            2
        };
        for p in 0..OBSERVATION_PLANES {
            out[p * n + square] = if p == plane { 1.0 } else { 0.0 };
        }
    }
}

/// OpenSpiel's `observation_tensor(player)` as a new vector (see
/// [`write_observation_tensor`]).
pub fn observation_tensor(state: &BreakthroughState, player: usize) -> Vec<f32> {
    let mut out = vec![0.0; OBSERVATION_PLANES * state.rows() * state.columns()];
    write_observation_tensor(state, player, &mut out);
    out
}
