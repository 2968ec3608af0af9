//! The Virus game's encodings for nets: `raw` (Naveed & Cowling's 64 inputs)
//! and `planes`.

use super::{Virus, VirusState};
use crate::game::encode::{grid, mover, unknown, Encodable, EncodingOf};
use crate::game::{Game, SpecError};

impl Encodable for Virus {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        grid(
            name,
            self.size() * self.size(),
            |s: &VirusState, i| s.at(i % s.size(), i / s.size()),
            mover,
        )
        .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}
