//! Reversi's encodings for nets: `raw`, `planes`, Handa & Horiuchi's nine
//! features (`handa`), and both together (`handa+raw`: the nine features,
//! then the `raw` board, so a net can weigh single squares as a weighted
//! piece counter does; likewise `handa+ntuple2` and `handa+ntuple3`), and
//! the systematic straight n-tuples `ntuple1` to
//! `ntuple4` shared under the board's 8 symmetries
//! ([`crate::game::ntuple`]).

use super::{Reversi, ReversiState};
use crate::game::encode::{bit_grid, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::ntuple::{ntuple_length, NTuples};
use crate::game::{Game, SpecError};

impl Encodable for Reversi {
    fn encoding_names(&self) -> &'static [&'static str] {
        &[
            "raw",
            "planes",
            "handa",
            "handa+raw",
            "ntuple1",
            "ntuple2",
            "ntuple3",
            "ntuple4",
            "handa+ntuple2",
            "handa+ntuple3",
        ]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if let Some(n) = ntuple_length(name) {
            return Ok(Box::new(NTuples::square(
                n,
                self.size(),
                ReversiState::discs,
            )));
        }
        if name == "handa" {
            return Ok(Box::new(ReversiHanda::new(self.size())));
        }
        if let Some(&both) = HANDA_AND.iter().find(|&&n| n == name) {
            return Ok(Box::new(HandaAnd {
                name: both,
                handa: ReversiHanda::new(self.size()),
                rest: self.encoding(&both["handa+".len()..])?,
            }));
        }
        // Square i (row-major from the top-left) is bit i of the bitboards.
        let index = (0..self.size() * self.size()).map(|i| i as u8).collect();
        bit_grid(name, index, ReversiState::discs, mover)
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

/// The encodings made of the nine `handa` features followed by another.
const HANDA_AND: [&str; 3] = ["handa+raw", "handa+ntuple2", "handa+ntuple3"];

/// `handa+X`: [`ReversiHanda`]'s nine features, then encoding `X` (the
/// `raw` board, or an n-tuple count, so that a linear net weighs mobility
/// beside squares or tuples).
struct HandaAnd {
    name: &'static str,
    handa: ReversiHanda,
    rest: EncodingOf<Reversi>,
}

impl Encoding<ReversiState> for HandaAnd {
    fn name(&self) -> &'static str {
        self.name
    }
    fn size(&self) -> usize {
        self.handa.size() + self.rest.size()
    }
    fn encode(&self, s: &ReversiState, out: &mut [f32]) {
        let (features, rest) = out.split_at_mut(self.handa.size());
        self.handa.encode(s, features);
        self.rest.encode(s, rest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::State;

    /// `raw` and `planes` read from the bitboards give the inputs the
    /// square-by-square reading gives, on 4x4 to 8x8, along random games
    /// to the end.
    #[test]
    fn bitboard_grids_equal_square_reading() {
        for n in [4, 6, 8] {
            let game = Reversi::new(n).unwrap();
            for name in ["raw", "planes"] {
                let fast = game.encoding(name).unwrap();
                let slow = crate::game::encode::grid(
                    name,
                    n * n,
                    |s: &ReversiState, i| s.at(i % s.size(), i / s.size()),
                    mover,
                )
                .unwrap();
                assert_eq!(fast.size(), slow.size());
                let mut s = game.initial_state();
                let mut rng = crate::game::rng::stream(n as u64, &[]);
                loop {
                    let (mut a, mut b) = (vec![9.0; fast.size()], vec![7.0; slow.size()]);
                    fast.encode(&s, &mut a);
                    slow.encode(&s, &mut b);
                    assert_eq!(a, b, "{name} on {n}x{n}");
                    if s.is_terminal() {
                        break;
                    }
                    let m = s.random_action(&mut rng);
                    s.apply(m);
                }
            }
        }
    }

    /// `handa+X` is the nine `handa` features followed by encoding `X`,
    /// on every position of a game.
    #[test]
    fn handa_and_is_handa_then_the_other() {
        let game = Reversi::new(6).unwrap();
        let handa = game.encoding("handa").unwrap();
        for both_name in HANDA_AND {
            let both = game.encoding(both_name).unwrap();
            let rest = game.encoding(&both_name[6..]).unwrap();
            assert_eq!(both.name(), both_name);
            assert_eq!(both.size(), 9 + rest.size());
            let mut s = game.initial_state();
            let mut rng = crate::game::rng::stream(5, &[]);
            while !s.is_terminal() {
                let mut out = vec![0.0; both.size()];
                let (mut h, mut r) = (vec![0.0; 9], vec![0.0; rest.size()]);
                both.encode(&s, &mut out);
                handa.encode(&s, &mut h);
                rest.encode(&s, &mut r);
                assert_eq!(out[..9], h[..]);
                assert_eq!(out[9..], r[..]);
                let a = s.random_action(&mut rng);
                s.apply(a);
            }
        }
    }
}
