//! Connect-4's encodings for nets: `raw` (MIDI-Connect4's 36 inputs on 6x6)
//! and `planes`.

use super::{Connect4, Connect4State};
use crate::game::encode::{bit_grid, mover, unknown, Encodable, EncodingOf};
use crate::game::{Game, SpecError};

impl Encodable for Connect4 {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        // Square i is row-major from the top (as `Connect4State::at` reads
        // it); the bitboard holds column c, row r (from the top) at bit
        // c * (rows + 1) + (rows - 1 - r).
        let (columns, rows) = (self.columns(), self.rows());
        let index = (0..columns * rows)
            .map(|i| ((i % columns) * (rows + 1) + (rows - 1 - i / columns)) as u8)
            .collect();
        bit_grid(name, index, Connect4State::seat_bitboards, mover)
            .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}
