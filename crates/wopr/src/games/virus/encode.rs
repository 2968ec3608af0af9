//! The Virus game's encodings for nets: `raw` (64 inputs, +1 for the
//! mover's pieces), `absolute` (Naveed & Cowling's 64 inputs as the paper
//! gives them: +1 Black, −1 White, whoever is to move), `planes`, and the
//! straight n-tuples `ntuple1` to `ntuple3` shared under the board's 8
//! symmetries ([`crate::game::ntuple`]).

use super::{Virus, VirusState};
use crate::game::encode::{grid, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::ntuple::{ntuple_length, NTuples};
use crate::game::{Game, SpecError};

impl Encodable for Virus {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "absolute", "planes", "ntuple1", "ntuple2", "ntuple3"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if let Some(n) = ntuple_length(name).filter(|&n| n <= 3) {
            // Grows and jumps look the same from every side: the tuples are
            // shared under the board's 8 symmetries.
            return Ok(Box::new(NTuples::square(
                n,
                self.size(),
                VirusState::pieces,
            )));
        }
        if name == "absolute" {
            return Ok(Box::new(Absolute {
                squares: self.size() * self.size(),
            }));
        }
        grid(
            name,
            self.size() * self.size(),
            |s: &VirusState, i| s.at(i % s.size(), i / s.size()),
            mover,
        )
        .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

/// Naveed & Cowling's input: one per square, +1 Black, −1 White, 0 empty,
/// row-major from the top-left, whoever is to move; values are Black's.
struct Absolute {
    squares: usize,
}

impl Encoding<VirusState> for Absolute {
    fn name(&self) -> &'static str {
        "absolute"
    }
    fn size(&self) -> usize {
        self.squares
    }
    fn encode(&self, state: &VirusState, out: &mut [f32]) {
        let [black, white] = state.pieces();
        for (k, o) in out.iter_mut().enumerate() {
            *o = ((black >> k) & 1) as f32 - ((white >> k) & 1) as f32;
        }
    }
    fn view(&self) -> Option<usize> {
        Some(super::BLACK)
    }
}
