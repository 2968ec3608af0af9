//! OpenSpiel's `othello` (open_spiel/games/othello): the board under a
//! header (`Black (x) to play:`, `Terminal State:`) between column labels,
//! each row labelled on both sides, `-` empty, `x` Black (player 0), `o`
//! White; actions `d3` and `pass` (64); the observation tensor `[3, 8, 8]`
//! from the observer's side (empty, own disc, opponent's disc).

use wopr::game::{Action, State, Turn};
use wopr::games::reversi::{Reversi, ReversiState};

use super::{parts, set, OpenSpielView, Provides, Tensors};
use crate::erased::DynState;

/// OpenSpiel's view of wopr's Reversi on 8x8.
pub struct View;

const N: usize = 8;
const COLUMNS: &str = "abcdefgh";

fn board(s: &dyn DynState) -> Result<ReversiState, String> {
    let b = *parts::<Reversi>(s)?.1;
    match b.size() {
        N => Ok(b),
        n => Err(format!("OpenSpiel's othello is 8x8, not {n}x{n}")),
    }
}

impl OpenSpielView for View {
    fn short_name(&self) -> &'static str {
        "othello"
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

    fn action_to_string(
        &self,
        _s: &dyn DynState,
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
        &self,
        s: &dyn DynState,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let b = board(s)?;
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
