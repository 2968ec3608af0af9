//! OpenSpiel's `connect_four` (open_spiel/games/connect_four): the board
//! top row first, each row ending in a newline, `x` for player 0 and `o`;
//! actions `x3`; the observation tensor `[3, rows, columns]`, one plane per
//! cell state (x, o, empty), row 0 at the bottom; with
//! `egocentric_obs_tensor=true` the planes are the observer's opponent's
//! pieces, its own and the empty cells (as pyspiel 2.0.2 answers: checked
//! by the Python package's test_openspiel_fidelity).

use super::{Connect4, Connect4State};
use crate::game::Action;
use crate::games::openspiel::{
    flag, int, require, seat_of, set, Declaration, OpenSpielGame, Param, Params, Position, Tensors,
};

/// The cell in OpenSpiel's row `r` (0 = bottom), column `c`: OpenSpiel's
/// plane (x 0, o 1, empty 2) and letter.
fn cell(s: &Connect4State, r: usize, c: usize) -> (usize, char) {
    match s.at(c, s.rows() - 1 - r) {
        Some(0) => (0, 'x'),
        Some(_) => (1, 'o'),
        None => (2, '.'),
    }
}

impl OpenSpielGame for Connect4 {
    const OPENSPIEL: Declaration = Declaration {
        name: "connect_four",
        long_name: "Connect Four",
        bare_is_wopr: false,
        max_num_players: 2,
        params: &[
            ("columns", Param::Int(7)),
            ("egocentric_obs_tensor", Param::Bool(false)),
            ("rows", Param::Int(6)),
            ("x_in_row", Param::Int(4)),
        ],
        perfect_information: true,
        information_state_string: true,
        information_state_tensor: false,
        factored_observation_string: false,
        single_tensor: true,
    };

    fn openspiel_spec(params: &Params) -> Result<String, String> {
        require("connect_four", params, "x_in_row", Param::Int(4))?;
        Ok(format!(
            "connect4:{}x{}",
            int(params, "columns")?,
            int(params, "rows")?
        ))
    }

    fn state_string(at: &Position<'_, Self>) -> Result<String, String> {
        let b = at.state;
        let mut out = String::with_capacity((b.columns() + 1) * b.rows());
        for r in (0..b.rows()).rev() {
            out.extend((0..b.columns()).map(|c| cell(b, r, c).1));
            out.push('\n');
        }
        Ok(out)
    }

    fn action_string(
        _at: &Position<'_, Self>,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        let mark = ['x', 'o'][seat_of(player)?];
        Ok(format!("{mark}{action}"))
    }

    fn observation_tensor(
        at: &Position<'_, Self>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let b = at.state;
        let egocentric = flag(at.params, "egocentric_obs_tensor");
        let shape = [3, b.rows(), b.columns()];
        let t = out.get("observation", &shape);
        for r in 0..b.rows() {
            for c in 0..b.columns() {
                let plane = match (cell(b, r, c).0, egocentric) {
                    // The opponent's pieces first, then the observer's.
                    (seat @ (0 | 1), true) => usize::from(seat == player),
                    (plane, _) => plane,
                };
                set(t, &shape, &[plane, r, c]);
            }
        }
        Ok(())
    }
}
