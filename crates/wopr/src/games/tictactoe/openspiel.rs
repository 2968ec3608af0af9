//! OpenSpiel's `tic_tac_toe` (open_spiel/games/tic_tac_toe): the board as
//! three rows of `.`, `x` (player 0) and `o`; actions `x(row,col)`; the
//! observation tensor `[3, 3, 3]`, one plane per cell state (empty, o, x).

use super::{TicTacToe, TicTacToeState};
use crate::game::Action;
use crate::games::openspiel::{
    seat_of, set, Declaration, OpenSpielGame, Params, Position, Tensors,
};

/// A cell as OpenSpiel's `CellState` numbers it (empty 0, o 1, x 2) and
/// writes it.
fn cell(s: &TicTacToeState, i: usize) -> (usize, char) {
    match s.at(i) {
        None => (0, '.'),
        Some(1) => (1, 'o'),
        Some(_) => (2, 'x'),
    }
}

impl OpenSpielGame for TicTacToe {
    const OPENSPIEL: Declaration = Declaration {
        name: "tic_tac_toe",
        long_name: "Tic Tac Toe",
        bare_is_wopr: false,
        max_num_players: 2,
        params: &[],
        perfect_information: true,
        information_state_string: true,
        information_state_tensor: false,
        factored_observation_string: false,
        single_tensor: true,
    };

    fn openspiel_spec(_params: &Params) -> Result<String, String> {
        Ok("tictactoe".into())
    }

    fn state_string(at: &Position<'_, Self>) -> Result<String, String> {
        let rows: Vec<String> = (0..3)
            .map(|r| (0..3).map(|c| cell(at.state, 3 * r + c).1).collect())
            .collect();
        Ok(rows.join("\n"))
    }

    fn action_string(
        _at: &Position<'_, Self>,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        let mark = ['x', 'o'][seat_of(player)?];
        Ok(format!("{mark}({},{})", action / 3, action % 3))
    }

    fn observation_tensor(
        at: &Position<'_, Self>,
        _player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let shape = [3, 3, 3];
        let t = out.get("observation", &shape);
        for i in 0..9 {
            set(t, &shape, &[cell(at.state, i).0, i / 3, i % 3]);
        }
        Ok(())
    }
}
