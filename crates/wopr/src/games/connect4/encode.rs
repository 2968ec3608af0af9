//! Connect-4's encodings for nets: `raw` (MIDI-Connect4's 36 inputs on 6x6)
//! and `planes`.

use super::{Connect4, Connect4State};
use crate::game::encode::{grid, mover, unknown, Encodable, EncodingOf};
use crate::game::{Game, SpecError};

impl Encodable for Connect4 {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        grid(
            name,
            self.columns() * self.rows(),
            |s: &Connect4State, i| s.at(i % s.columns(), i / s.columns()),
            mover,
        )
        .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}
