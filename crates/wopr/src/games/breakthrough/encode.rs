//! Breakthrough's encodings for nets: `raw` (one input a square, +1 the
//! mover's pawn, −1 the opponent's, 0 empty, row-major from the top-left)
//! and `planes` (the two side-to-move inputs, then Black's pawns, then
//! White's, a plane of squares each), both read from the bitboards
//! ([`crate::game::encode::bit_grid`]). The bit of a square is its
//! row-major index, so the squares need no table.

use super::{Breakthrough, BreakthroughState};
use crate::game::encode::{bit_grid, mover, unknown, Encodable, EncodingOf};
use crate::game::{Game, SpecError};

impl Encodable for Breakthrough {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        let index: Vec<u8> = (0..self.columns() * self.rows()).map(|i| i as u8).collect();
        bit_grid(name, index, BreakthroughState::pieces, mover)
            .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::encode::assert_grids_read_squares;

    /// Along random games, the bitboard encodings give the inputs that
    /// reading the board square by square gives.
    #[test]
    fn grids_read_the_squares() {
        for (c, r, seed) in [(8, 8, 1), (5, 6, 2), (3, 4, 3)] {
            let game = Breakthrough::new(c, r).unwrap();
            assert_grids_read_squares(
                &game,
                c * r,
                |s: &BreakthroughState, i| s.at(i % s.columns(), i / s.columns()),
                seed,
            );
        }
        let game = Breakthrough::default();
        assert_eq!(game.encoding("raw").unwrap().size(), 64);
        assert_eq!(game.encoding("planes").unwrap().size(), 2 + 2 * 64);
        assert!(game.encoding("ntuple2").is_err());
    }
}
