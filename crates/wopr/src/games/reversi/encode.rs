//! Reversi's encodings for nets: `raw`, `planes`, Handa & Horiuchi's nine
//! features (`handa`), and both together (`handa+raw`: the nine features,
//! then the `raw` board, so a net can weigh single squares as a weighted
//! piece counter does; likewise `handa+ntuple2` and `handa+ntuple3`), and
//! the systematic straight n-tuples `ntuple1` to
//! `ntuple4` shared under the board's 8 symmetries
//! ([`crate::game::ntuple`]), and random walks in the manner of Lucas's
//! Othello "snakes": `walk6`, 30 walks of 6 squares drawn once from a
//! fixed seed and shared under the 8 symmetries (30 · 3⁶ = 21,870 inputs),
//! and `walk6p`, the same with separate tables for each player to move
//! (43,740 inputs); and Buro's Logistello patterns
//! ([`crate::game::patterns`]): `logistello` with one table set,
//! `logistello4` and `logistello12` with a set for each of 4 or 12 spans of
//! the disc count (167,265 inputs a set on 8x8; 6x6 and larger boards).

use super::{Reversi, ReversiState};
use crate::game::encode::{bit_grid, concat, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::ntuple::{ntuple_length, NTuples};
use crate::game::patterns::{logistello, Patterns};
use crate::game::{Game, SpecError};

/// The `walk6` tuples: 30 walks of 6 squares, drawn from seed 2008 (the
/// year of Lucas's n-tuple Othello paper; fixed, so the name always means
/// the same tuples on a board size).
const WALK6: (usize, usize, u64) = (6, 30, 2008);

/// The Logistello pattern encodings and their numbers of stages.
const LOGISTELLO: [(&str, usize); 3] =
    [("logistello", 1), ("logistello4", 4), ("logistello12", 12)];

impl Reversi {
    /// The Logistello pattern encoding `name` (`logistello`, `logistello4`,
    /// `logistello12`) on this board; `None` for any other name, an error
    /// on boards under 6x6.
    pub(crate) fn logistello(
        &self,
        name: &str,
    ) -> Option<Result<Patterns<ReversiState>, SpecError>> {
        let &(name, stages) = LOGISTELLO.iter().find(|(n, _)| *n == name)?;
        if self.size() < 6 {
            return Some(Err(SpecError(format!(
                "encoding '{name}' needs a board of 6x6 or more, not {}",
                self.spec()
            ))));
        }
        Some(Ok(Patterns::square(
            name,
            &logistello(self.size()),
            self.size(),
            stages,
            ReversiState::discs,
        )))
    }
}

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
            "walk6",
            "walk6p",
            "logistello",
            "logistello4",
            "logistello12",
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
        if name == "walk6" || name == "walk6p" {
            let name = if name == "walk6" { "walk6" } else { "walk6p" };
            let walks = NTuples::square_walks(name, WALK6, self.size(), ReversiState::discs);
            return Ok(Box::new(if name == "walk6p" {
                walks.per_player()
            } else {
                walks
            }));
        }
        if let Some(patterns) = self.logistello(name) {
            return Ok(Box::new(patterns?));
        }
        if name == "handa" {
            return Ok(Box::new(ReversiHanda::new(self.size())));
        }
        if let Some(&both) = HANDA_AND.iter().find(|&&n| n == name) {
            // The nine features, then the board or the tuple counts, so
            // that a linear net weighs mobility beside squares or tuples.
            return Ok(concat(
                both,
                Box::new(ReversiHanda::new(self.size())),
                self.encoding(&both["handa+".len()..])?,
            ));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::State;

    /// `walk6` has 30 tables of 3⁶ entries (the module docs), `walk6p` one
    /// such set per player to move; each walk is counted once per distinct
    /// image under the 8 symmetries, so 30 to 240 look-ups a position; the
    /// second mover reads the second half of `walk6p`'s inputs.
    #[test]
    fn walk_encodings_have_thirty_tables() {
        for size in [6, 8] {
            let game = Reversi::new(size).unwrap();
            let (w, wp) = (
                game.encoding("walk6").unwrap(),
                game.encoding("walk6p").unwrap(),
            );
            assert_eq!((w.size(), wp.size()), (30 * 729, 2 * 30 * 729));
            let s = game.initial_state();
            let (mut a, mut b) = (Vec::new(), Vec::new());
            w.encode_sparse(&s, &mut a);
            wp.encode_sparse(&s, &mut b);
            assert_eq!(a, b, "the first mover reads the first half");
            assert!((30..=240).contains(&a.len()), "{} images", a.len());
            let mut next = s;
            next.apply(next.random_action(&mut rand::rng()));
            wp.encode_sparse(&next, &mut b);
            assert!(b.iter().all(|&(i, _)| i as usize >= 30 * 729));
        }
    }

    /// Buro's eleven patterns on 8x8: the edge with its X-squares and the
    /// 2×5 corner (3¹⁰ = 59,049 entries each), the 3×3 corner and rows two
    /// to four (3⁹ and 3 · 3⁸: 19,683 each), the diagonals of 4 to 8 squares
    /// (3⁴ + … + 3⁸ = 9,801): 167,265 entries a stage. Each pattern is read
    /// in its 8 ordered images (4 places × 2 directions), the main diagonal
    /// in 4 (2 places × 2): 10 · 8 + 4 = 84 look-ups a position.
    #[test]
    fn logistello_patterns_have_eleven_tables_a_stage() {
        let game = Reversi::new(8).unwrap();
        for (name, stages) in LOGISTELLO {
            let enc = game.encoding(name).unwrap();
            assert_eq!(enc.size(), stages * 167_265, "{name}");
            let mut pairs = Vec::new();
            let mut s = game.initial_state();
            let mut rng = crate::game::rng::stream(3, &[]);
            while !s.is_terminal() {
                enc.encode_sparse(&s, &mut pairs);
                assert_eq!(pairs.len(), 84);
                // Every pair falls in the table set of the position's stage.
                let discs = 64 - s.empties() as usize;
                let stage = (discs - 4) * stages / 61;
                let set = stage * 167_265..(stage + 1) * 167_265;
                assert!(pairs.iter().all(|&(i, _)| set.contains(&(i as usize))));
                let mut dense = vec![0.0; enc.size()];
                enc.encode(&s, &mut dense);
                let mut summed = vec![0.0; enc.size()];
                pairs.iter().for_each(|&(i, x)| summed[i as usize] += x);
                assert_eq!(summed, dense);
                let a = s.random_action(&mut rng);
                s.apply(a);
            }
        }
        // A position and its mirror image read the same inputs.
        let mirror = |b: u64| {
            (0..64)
                .filter(|i| b >> i & 1 == 1)
                .fold(0u64, |m, i| m | 1 << ((i / 8) * 8 + 7 - i % 8))
        };
        let enc = game.encoding("logistello4").unwrap();
        let discs = [0x0000_1818_3c00_0301u64, 0x8100_2424_0000_c000];
        let a = ReversiState::from_discs(8, discs, 0).unwrap();
        let b = ReversiState::from_discs(8, discs.map(mirror), 0).unwrap();
        let (mut x, mut y) = (Vec::new(), Vec::new());
        enc.encode_sparse(&a, &mut x);
        enc.encode_sparse(&b, &mut y);
        x.sort_unstable_by_key(|p| p.0);
        y.sort_unstable_by_key(|p| p.0);
        assert_eq!(x, y);
        assert!(Reversi::new(4).unwrap().encoding("logistello").is_err());
    }

    /// `raw` and `planes` read from the bitboards give the inputs the
    /// square-by-square reading gives, on 4x4 to 8x8.
    #[test]
    fn bitboard_grids_equal_square_reading() {
        for n in [4, 6, 8] {
            crate::game::encode::assert_grids_read_squares(
                &Reversi::new(n).unwrap(),
                n * n,
                |s: &ReversiState, i| s.at(i % s.size(), i / s.size()),
                n as u64,
            );
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
