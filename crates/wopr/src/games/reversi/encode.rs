//! Reversi's encodings for nets: `raw`, `planes`, Handa & Horiuchi's nine
//! features (`handa`), and both together (`handa+raw`: the nine features,
//! then the `raw` board, so a net can weigh single squares as a weighted
//! piece counter does).

use super::{Reversi, ReversiState};
use crate::game::encode::{grid, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::{Game, SpecError};

impl Encodable for Reversi {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes", "handa", "handa+raw"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if name == "handa" {
            return Ok(Box::new(ReversiHanda::new(self.size())));
        }
        if name == "handa+raw" {
            return Ok(Box::new(HandaRaw {
                handa: ReversiHanda::new(self.size()),
                raw: self.encoding("raw")?,
            }));
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

/// `handa+raw`: [`ReversiHanda`]'s nine features, then the `raw` board.
struct HandaRaw {
    handa: ReversiHanda,
    raw: EncodingOf<Reversi>,
}

impl Encoding<ReversiState> for HandaRaw {
    fn name(&self) -> &'static str {
        "handa+raw"
    }
    fn size(&self) -> usize {
        self.handa.size() + self.raw.size()
    }
    fn encode(&self, s: &ReversiState, out: &mut [f32]) {
        let (features, board) = out.split_at_mut(self.handa.size());
        self.handa.encode(s, features);
        self.raw.encode(s, board);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::State;

    /// `handa+raw` is the nine `handa` features followed by the `raw`
    /// board, on every position of a game.
    #[test]
    fn handa_raw_is_handa_then_raw() {
        let game = Reversi::new(6).unwrap();
        let both = game.encoding("handa+raw").unwrap();
        let handa = game.encoding("handa").unwrap();
        let raw = game.encoding("raw").unwrap();
        assert_eq!(both.size(), 9 + 36);
        let mut s = game.initial_state();
        let mut rng = crate::game::rng::stream(5, &[]);
        while !s.is_terminal() {
            let mut out = vec![0.0; 45];
            let (mut h, mut r) = (vec![0.0; 9], vec![0.0; 36]);
            both.encode(&s, &mut out);
            handa.encode(&s, &mut h);
            raw.encode(&s, &mut r);
            assert_eq!(out[..9], h[..]);
            assert_eq!(out[9..], r[..]);
            let a = s.random_action(&mut rng);
            s.apply(a);
        }
    }
}
