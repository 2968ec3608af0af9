//! OpenSpiel's `breakthrough` (open_spiel/games/breakthrough): wopr's game
//! numbers its actions and writes its board as OpenSpiel does (see the
//! module docs of [`super`]), so `str(state)` and `observation_string`
//! (the same for both players, perfect information) are the board as the
//! state's `Display` writes it and the action strings are the state's own;
//! the observation tensor has shape `[3, rows, columns]`, planes in the
//! order Black's pawns, White's pawns, empty squares, rows from the top
//! (the same for both players). OpenSpiel's Breakthrough has no
//! information-state string.

use super::{Breakthrough, BreakthroughState};
use crate::game::{Action, State};
use crate::games::openspiel::{int, Declaration, OpenSpielGame, Param, Params, Position, Tensors};

/// The planes of the observation tensor: Black, White, empty.
const PLANES: usize = 3;

/// Writes the observation tensor into `out` (length `3 × rows × columns`):
/// plane 0 Black's pawns, plane 1 White's, plane 2 the empty squares.
fn write_planes(state: &BreakthroughState, out: &mut [f32]) {
    let n = state.rows() * state.columns();
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
        for p in 0..PLANES {
            out[p * n + square] = if p == plane { 1.0 } else { 0.0 };
        }
    }
}

impl OpenSpielGame for Breakthrough {
    const OPENSPIEL: Declaration = Declaration {
        name: "breakthrough",
        long_name: "Breakthrough",
        bare_is_wopr: true,
        max_num_players: 2,
        params: &[("columns", Param::Int(8)), ("rows", Param::Int(8))],
        perfect_information: true,
        information_state_string: false,
        information_state_tensor: false,
        factored_observation_string: false,
        single_tensor: true,
    };

    fn openspiel_spec(params: &Params) -> Result<String, String> {
        Ok(format!(
            "breakthrough:{}x{}",
            int(params, "columns")?,
            int(params, "rows")?
        ))
    }

    fn state_string(at: &Position<'_, Self>) -> Result<String, String> {
        Ok(at.state.to_string())
    }

    fn action_string(
        at: &Position<'_, Self>,
        _player: i64,
        action: Action,
    ) -> Result<String, String> {
        Ok(at.state.action_to_string(action))
    }

    fn observation_tensor(
        at: &Position<'_, Self>,
        _player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let b = at.state;
        let t = out.get("observation", &[PLANES, b.rows(), b.columns()]);
        write_planes(b, t);
        Ok(())
    }

    fn information_state_string(
        _at: &Position<'_, Self>,
        _player: usize,
    ) -> Result<String, String> {
        Err("breakthrough has no information-state string (as in OpenSpiel; observation_string has the board)".into())
    }
}
