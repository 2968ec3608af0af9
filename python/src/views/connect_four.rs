//! OpenSpiel's `connect_four` (open_spiel/games/connect_four): the board
//! top row first, each row ending in a newline, `x` for player 0 and `o`;
//! actions `x3`; the observation tensor `[3, rows, columns]`, one plane per
//! cell state (x, o, empty), row 0 at the bottom; with
//! `egocentric_obs_tensor=true` the planes are the observer's opponent's
//! pieces, its own and the empty cells (as pyspiel 2.0.2 answers: checked
//! by test_openspiel_fidelity).

use wopr::game::Action;
use wopr::games::connect4::{Connect4, Connect4State};

use super::{parts, seat_of, set, OpenSpielView, Provides, Tensors};
use crate::erased::DynState;

/// OpenSpiel's view of wopr's Connect-4; `egocentric`: the game's
/// `egocentric_obs_tensor`.
pub struct View {
    pub egocentric: bool,
}

/// The cell in OpenSpiel's row `r` (0 = bottom), column `c`: OpenSpiel's
/// plane (x 0, o 1, empty 2) and letter.
fn cell(s: &Connect4State, r: usize, c: usize) -> (usize, char) {
    match s.at(c, s.rows() - 1 - r) {
        Some(0) => (0, 'x'),
        Some(_) => (1, 'o'),
        None => (2, '.'),
    }
}

fn board(s: &dyn DynState) -> Result<Connect4State, String> {
    Ok(*parts::<Connect4>(s)?.1)
}

impl OpenSpielView for View {
    fn short_name(&self) -> &'static str {
        "connect_four"
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
        let mut out = String::with_capacity((b.columns() + 1) * b.rows());
        for r in (0..b.rows()).rev() {
            out.extend((0..b.columns()).map(|c| cell(&b, r, c).1));
            out.push('\n');
        }
        Ok(out)
    }

    fn action_to_string(
        &self,
        _s: &dyn DynState,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        let mark = ['x', 'o'][seat_of(player)?];
        Ok(format!("{mark}{action}"))
    }

    fn observation_tensor(
        &self,
        s: &dyn DynState,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let b = board(s)?;
        let shape = [3, b.rows(), b.columns()];
        let t = out.get("observation", &shape);
        for r in 0..b.rows() {
            for c in 0..b.columns() {
                let plane = match (cell(&b, r, c).0, self.egocentric) {
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
