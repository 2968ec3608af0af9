//! Tic-Tac-Toe's encodings for nets: `raw`, `planes`, Handa & Horiuchi's
//! seven attributes (`handa`) and `table`, one input per board (3^9, the
//! board read as a base-3 number from the mover's view: a linear net over
//! it is a lookup table, tabular TD's value function and an exact
//! evaluator's); the table in [`crate::game::encode`] gives the others'
//! inputs.

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

/// One input per board: input `Σ dᵢ·3ⁱ` is 1, where cell `i`'s digit `dᵢ`
/// is 0 (empty), 1 (the mover's) or 2 (the opponent's).
struct TicTacToeTable;

impl TicTacToeTable {
    /// The board's input.
    fn index(s: &TicTacToeState) -> usize {
        let me = s.to_move as usize;
        (0..9).rev().fold(0, |acc, i| {
            let bit = 1u16 << i;
            let digit = if s.marks[me] & bit != 0 {
                1
            } else if s.marks[1 - me] & bit != 0 {
                2
            } else {
                0
            };
            acc * 3 + digit
        })
    }
}

impl Encoding<TicTacToeState> for TicTacToeTable {
    fn name(&self) -> &'static str {
        "table"
    }
    fn size(&self) -> usize {
        19_683
    }
    fn encode(&self, s: &TicTacToeState, out: &mut [f32]) {
        out.fill(0.0);
        out[Self::index(s)] = 1.0;
    }
    fn encode_sparse(&self, s: &TicTacToeState, out: &mut Vec<(u32, f32)>) {
        out.clear();
        out.push((Self::index(s) as u32, 1.0));
    }
    fn prefers_sparse(&self) -> bool {
        true
    }
}

impl Encodable for TicTacToe {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes", "handa", "table"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        match name {
            "handa" => return Ok(Box::new(TicTacToeHanda)),
            "table" => return Ok(Box::new(TicTacToeTable)),
            _ => {}
        }
        grid(name, 9, |s: &TicTacToeState, i| s.at(i), mover)
            .ok_or_else(|| unknown("tictactoe", name, self.encoding_names()))
    }
}
