//! OpenSpiel's `othello` (open_spiel/games/othello): the board under a
//! header (`Black (x) to play:`, `Terminal State:`) between column labels,
//! each row labelled on both sides, `-` empty, `x` Black (player 0), `o`
//! White; actions `d3` and `pass` (64); the observation tensor `[3, 8, 8]`
//! from the observer's side (empty, own disc, opponent's disc).

use super::{Reversi, ReversiState};
use crate::game::{Action, Game, State, Turn};
use crate::games::openspiel::{set, Declaration, OpenSpielGame, Params, Position, Sizes, Tensors};

const N: usize = 8;
const COLUMNS: &str = "abcdefgh";

/// The board, which OpenSpiel's othello has 8x8 only.
fn board(at: &Position<'_, Reversi>) -> Result<ReversiState, String> {
    match at.state.size() {
        N => Ok(*at.state),
        n => Err(format!("OpenSpiel's othello is 8x8, not {n}x{n}")),
    }
}

impl OpenSpielGame for Reversi {
    const OPENSPIEL: Declaration = Declaration {
        name: "othello",
        long_name: "Othello",
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
        Ok("reversi:8x8".into())
    }

    fn openspiel_sizes(&self, _params: &Params) -> Sizes {
        Sizes {
            num_distinct_actions: self.num_actions(),
            max_chance_outcomes: 0,
            // OpenSpiel's bound, 128 (pyspiel:
            // `load_game("othello").max_game_length()`).
            max_game_length: 2 * N * N,
            chance_offset: 0,
            auto_last_round: false,
        }
    }

    fn state_string(at: &Position<'_, Self>) -> Result<String, String> {
        let b = board(at)?;
        let labels = "  a b c d e f g h  ";
        let mut out = match b.turn() {
            Turn::Player(0) => "Black (x) to play:\n".to_string(),
            Turn::Player(_) => "White (o) to play:\n".to_string(),
            _ => "Terminal State:\n".to_string(),
        };
        out.push_str(labels);
        out.push('\n');
        for r in 0..N {
            out.push_str(&format!("{} ", r + 1));
            for c in 0..N {
                out.push(match b.at(c, r) {
                    None => '-',
                    Some(0) => 'x',
                    Some(_) => 'o',
                });
                out.push(' ');
            }
            out.push_str(&format!("{}\n", r + 1));
        }
        out.push_str(labels);
        Ok(out)
    }

    fn action_string(
        _at: &Position<'_, Self>,
        _player: i64,
        action: Action,
    ) -> Result<String, String> {
        let a = usize::from(action);
        match a {
            a if a == N * N => Ok("pass".into()),
            a if a < N * N => Ok(format!("{}{}", &COLUMNS[a % N..a % N + 1], a / N + 1)),
            _ => Err(format!("{action} is not an othello action (0..=64)")),
        }
    }

    fn observation_tensor(
        at: &Position<'_, Self>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let b = board(at)?;
        let shape = [3, N, N];
        let t = out.get("observation", &shape);
        for r in 0..N {
            for c in 0..N {
                let plane = match b.at(c, r) {
                    None => 0,
                    Some(p) if p == player => 1,
                    Some(_) => 2,
                };
                set(t, &shape, &[plane, r, c]);
            }
        }
        Ok(())
    }
}
