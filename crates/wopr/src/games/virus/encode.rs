//! The Virus game's encodings for nets: `raw` (64 inputs, +1 for the
//! mover's pieces), `absolute` (Naveed & Cowling's 64 inputs as the paper
//! gives them: +1 Black, −1 White, whoever is to move) and `planes`.

use super::{Virus, VirusState};
use crate::game::encode::{grid, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::{Game, SpecError};

impl Encodable for Virus {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "absolute", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
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
