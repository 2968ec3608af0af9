//! Reversi's encodings for nets: `raw`, `planes` and Handa & Horiuchi's nine
//! features (`handa`).

use super::{Reversi, ReversiState};
use crate::game::encode::{grid, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::{Game, SpecError};

impl Encodable for Reversi {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes", "handa"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if name == "handa" {
            return Ok(Box::new(ReversiHanda::new(self.size())));
        }
        grid(
            name,
            self.size() * self.size(),
            |s: &ReversiState, i| s.at(i % s.size(), i / s.size()),
            mover,
        )
        .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

/// Handa & Horiuchi's Reversi features (see the module table).
struct ReversiHanda {
    n: usize,
    partitions: [u64; 5],
}

impl ReversiHanda {
    fn new(n: usize) -> ReversiHanda {
        let mut p = [0u64; 5];
        let last = n - 1;
        for r in 0..n {
            for c in 0..n {
                let bit = 1u64 << (r * n + c);
                let edge_r = r == 0 || r == last;
                let edge_c = c == 0 || c == last;
                let near = |x: usize| x == 1 || x == last - 1;
                let k = if edge_r && edge_c {
                    0 // corner
                } else if near(r) && near(c) {
                    1 // X-square: diagonal neighbour of a corner
                } else if (edge_r && near(c)) || (edge_c && near(r)) {
                    2 // C-square: edge square next to a corner
                } else if edge_r || edge_c {
                    3 // other edge squares
                } else {
                    4 // inner squares
                };
                p[k] |= bit;
            }
        }
        ReversiHanda { n, partitions: p }
    }
}

impl Encoding<ReversiState> for ReversiHanda {
    fn name(&self) -> &'static str {
        "handa"
    }
    fn size(&self) -> usize {
        9
    }
    fn encode(&self, s: &ReversiState, out: &mut [f32]) {
        let me = mover(s).unwrap_or(s.to_move());
        let d = s.discs();
        let (own, opp) = (d[me], d[1 - me]);
        for (k, &mask) in self.partitions.iter().enumerate() {
            let diff = (own & mask).count_ones() as f32 - (opp & mask).count_ones() as f32;
            // On 4x4 every inner square is an X-square: an empty partition reads 0.
            out[k] = diff / mask.count_ones().max(1) as f32;
        }
        let squares = (self.n * self.n) as f32;
        out[5] = (own.count_ones() as f32 - opp.count_ones() as f32) / squares;
        out[6] = (own | opp).count_ones() as f32 / squares;
        out[7] = s.placements_of(me).count_ones() as f32 / squares;
        out[8] = s.placements_of(1 - me).count_ones() as f32 / squares;
    }
}
