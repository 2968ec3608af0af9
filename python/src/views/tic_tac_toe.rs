//! OpenSpiel's `tic_tac_toe` (open_spiel/games/tic_tac_toe): the board as
//! three rows of `.`, `x` (player 0) and `o`; actions `x(row,col)`; the
//! observation tensor `[3, 3, 3]`, one plane per cell state (empty, o, x).

use wopr::game::Action;
use wopr::games::tictactoe::{TicTacToe, TicTacToeState};

use super::{parts, seat_of, set, OpenSpielView, Provides, Tensors};
use crate::erased::DynState;

/// OpenSpiel's view of wopr's Tic-Tac-Toe.
pub struct View;

/// A cell as OpenSpiel's `CellState` numbers it (empty 0, o 1, x 2) and
/// writes it.
fn cell(s: &TicTacToeState, i: usize) -> (usize, char) {
    match s.at(i) {
        None => (0, '.'),
        Some(1) => (1, 'o'),
        Some(_) => (2, 'x'),
    }
}

fn board(s: &dyn DynState) -> Result<TicTacToeState, String> {
    Ok(*parts::<TicTacToe>(s)?.1)
}

impl OpenSpielView for View {
    fn short_name(&self) -> &'static str {
        "tic_tac_toe"
    }

    fn provides(&self) -> Provides {
        Provides {
            perfect_information: true,
            info_string: true,
            info_tensor: false,
            single_tensor: true,
        }
    }

    fn state_string(&self, s: &dyn DynState) -> Result<String, String> {
        let b = board(s)?;
        let rows: Vec<String> = (0..3)
            .map(|r| (0..3).map(|c| cell(&b, 3 * r + c).1).collect())
            .collect();
        Ok(rows.join("\n"))
    }

    fn action_to_string(
        &self,
        _s: &dyn DynState,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        let mark = ['x', 'o'][seat_of(player)?];
        Ok(format!("{mark}({},{})", action / 3, action % 3))
    }

    fn observation_tensor(
        &self,
        s: &dyn DynState,
        _player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let b = board(s)?;
        let shape = [3, 3, 3];
        let t = out.get("observation", &shape);
        for i in 0..9 {
            set(t, &shape, &[cell(&b, i).0, i / 3, i % 3]);
        }
        Ok(())
    }
}
