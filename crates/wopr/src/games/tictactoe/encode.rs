//! Tic-Tac-Toe's encodings for nets: `raw`, `planes` and Handa & Horiuchi's
//! seven attributes (`handa`); the table in [`crate::game::encode`] gives
//! every input.

use super::{TicTacToe, TicTacToeState, LINES};
use crate::game::encode::{grid, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::SpecError;

/// Handa & Horiuchi's seven Tic-Tac-Toe attributes (see the module table).
struct TicTacToeHanda;

const CORNERS: u16 = 0b101_000_101;
const MARGINALS: u16 = 0b010_101_010;
const CENTRE: u16 = 0b000_010_000;

impl Encoding<TicTacToeState> for TicTacToeHanda {
    fn name(&self) -> &'static str {
        "handa"
    }
    fn size(&self) -> usize {
        7
    }
    fn encode(&self, s: &TicTacToeState, out: &mut [f32]) {
        let me = s.to_move as usize;
        let (own, opp) = (s.marks[me], s.marks[1 - me]);
        let diff = |mask: u16| (own & mask).count_ones() as f32 - (opp & mask).count_ones() as f32;
        let open = |a: u16, b: u16, n: u32| {
            LINES
                .iter()
                .filter(|&&l| b & l == 0 && (a & l).count_ones() == n)
                .count() as f32
        };
        out[0] = diff(MARGINALS) / 4.0;
        out[1] = diff(CORNERS) / 4.0;
        out[2] = diff(CENTRE);
        out[3] = open(own, opp, 2) / 3.0;
        out[4] = open(opp, own, 2) / 3.0;
        out[5] = open(own, opp, 1) / 8.0;
        out[6] = open(opp, own, 1) / 8.0;
    }
}

impl Encodable for TicTacToe {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes", "handa"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if name == "handa" {
            return Ok(Box::new(TicTacToeHanda));
        }
        grid(name, 9, |s: &TicTacToeState, i| s.at(i), mover)
            .ok_or_else(|| unknown("tictactoe", name, self.encoding_names()))
    }
}
