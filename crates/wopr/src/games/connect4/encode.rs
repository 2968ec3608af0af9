//! Connect-4's encodings for nets: `raw` (MIDI-Connect4's 36 inputs on 6x6)
//! `planes`, and the straight n-tuples `ntuple1` to `ntuple4` shared under
//! the left-right mirror ([`crate::game::ntuple`]; `ntuple4` tables every
//! line a four can be made on).

use super::{Connect4, Connect4State};
use crate::game::encode::{bit_grid, mover, unknown, Encodable, EncodingOf};
use crate::game::ntuple::{ntuple_length, NTuples, Symmetry, NTUPLE_NAMES};
use crate::game::{Game, SpecError};

impl Encodable for Connect4 {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes", "ntuple1", "ntuple2", "ntuple3", "ntuple4"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        // Square i is row-major from the top (as `Connect4State::at` reads
        // it); the bitboard holds column c, row r (from the top) at bit
        // c * (rows + 1) + (rows - 1 - r).
        let (columns, rows) = (self.columns(), self.rows());
        let index: Vec<u8> = (0..columns * rows)
            .map(|i| ((i % columns) * (rows + 1) + (rows - 1 - i / columns)) as u8)
            .collect();
        if let Some(n) = ntuple_length(name) {
            return Ok(Box::new(NTuples::new(
                NTUPLE_NAMES[n - 1],
                n,
                (columns, rows),
                Symmetry::Mirror,
                &index,
                Connect4State::seat_bitboards,
                mover,
            )));
        }
        bit_grid(name, index, Connect4State::seat_bitboards, mover)
            .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::State;

    /// `ntuple4` tables the lines a four can be made on: a position and its
    /// left-right mirror image (every move played in the mirrored column)
    /// give the same inputs, and every input counts tuples of the board.
    #[test]
    fn ntuple4_sees_a_position_and_its_mirror_alike() {
        let game = Connect4::new(7, 6).unwrap();
        let enc = game.encoding("ntuple4").unwrap();
        // Lines of four on 7x6: 6·4 across, 7·3 down, 2·4·3 diagonal = 69;
        // each is counted at least once.
        let (mut a, mut b) = (vec![0.0; enc.size()], vec![0.0; enc.size()]);
        let (mut s, mut m) = (game.initial_state(), game.initial_state());
        let mut rng = crate::game::rng::stream(9, &[]);
        while !s.is_terminal() {
            enc.encode(&s, &mut a);
            enc.encode(&m, &mut b);
            assert_eq!(a, b);
            assert!(a.iter().sum::<f32>() >= 69.0);
            let col = s.random_action(&mut rng);
            s.apply(col);
            m.apply(6 - col);
        }
    }
}
