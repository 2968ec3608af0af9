//! A Virus position and its board queries: pieces, empty squares, grows,
//! neighbourhoods and adjacency counts, all by shifts and bit-sliced counts
//! rather than loops over squares.

use super::tables::{back, dilate, Tables, TABLES};
use super::JUMP_OFFSETS;
use crate::game::Action;

/// A Virus position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VirusState {
    pub(super) pieces: [u64; 2],
    pub(super) plies: u16,
    pub(super) max_plies: u16,
    pub(super) n: u8,
    pub(super) to_move: u8,
}

impl VirusState {
    pub(super) fn tables(&self) -> &'static Tables {
        &TABLES[self.n as usize]
    }

    /// The board side N.
    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// The pieces of each seat (Black = 0, White = 1), bit `row × N + col`.
    pub fn pieces(&self) -> [u64; 2] {
        self.pieces
    }

    /// Actions played so far (passes included).
    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    /// The seat to move (also after the game is over: the seat that would).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The piece on `(col, row)`: `Some(seat)` or `None` for an empty square.
    pub fn at(&self, col: usize, row: usize) -> Option<usize> {
        let bit = 1u64 << (row * self.size() + col);
        (0..2).find(|&s| self.pieces[s] & bit != 0)
    }

    /// The pass action, `17 N²`.
    pub fn pass_action(&self) -> Action {
        (17 * self.size() * self.size()) as Action
    }

    /// The empty squares (bit `row × N + col`).
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        self.tables().full & !(self.pieces[0] | self.pieces[1])
    }

    /// Every square of the board.
    pub fn board(&self) -> u64 {
        self.tables().full
    }

    /// `set` and every square adjacent (sides or corners) to one of its
    /// squares.
    #[inline(always)]
    pub fn around(&self, set: u64) -> u64 {
        dilate(set, self.size(), self.tables())
    }

    /// The (up to eight) squares adjacent to square `sq`.
    #[inline(always)]
    pub fn neighbours(&self, sq: usize) -> u64 {
        self.tables().adjacent[sq]
    }

    /// The pairs of adjacent squares (king steps) both in `set`, each pair
    /// once: four shifted copies of the set (east, south, south-east,
    /// south-west) and four popcounts, no loop over squares.
    #[inline(always)]
    pub fn adjacent_pairs(&self, set: u64) -> u32 {
        let (n, t) = (self.size(), self.tables());
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .map(|&(dy, dx)| (back(set, dy, dx, n, t) & set).count_ones())
            .sum()
    }

    /// The most squares of `of` adjacent to one square of `targets` (0 if
    /// `targets` is empty): the eight shifted copies of `of` summed square
    /// by square, bit-sliced, then the largest count found among
    /// `targets` bit by bit from the top, no loop over squares.
    #[inline(always)]
    pub fn max_adjacent(&self, targets: u64, of: u64) -> u32 {
        let (n, t) = (self.size(), self.tables());
        let mut w = [0u64; 16];
        let steps = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ];
        for (k, &(dy, dx)) in steps.iter().enumerate() {
            w[k] = back(of, dy, dx, n, t);
        }
        // Counts are at most 8: slices ones, twos, fours, eights.
        let slices = bit_sliced_count(&w);
        let (mut alive, mut best) = (targets, 0);
        for b in (0..4).rev() {
            let with = alive & slices[b];
            if with != 0 {
                alive = with;
                best |= 1 << b;
            }
        }
        best
    }

    /// Empty squares next to a piece of `seat`: its grow moves.
    #[inline(always)]
    pub fn grows(&self, seat: usize) -> u64 {
        dilate(self.pieces[seat], self.size(), self.tables()) & self.empty()
    }

    /// Decodes an action into (origin for a jump, destination); `None` for
    /// the pass and for indices that name no move on this board.
    pub(super) fn decode(&self, action: Action) -> Option<(Option<usize>, usize)> {
        let n = self.size();
        let a = action as usize;
        if a < n * n {
            return Some((None, a));
        }
        if a >= 17 * n * n {
            return None;
        }
        let (f, k) = ((a - n * n) / 16, (a - n * n) % 16);
        let (dy, dx) = JUMP_OFFSETS[k];
        let (y, x) = ((f / n) as i32 + dy, (f % n) as i32 + dx);
        let inside = (0..n as i32).contains(&y) && (0..n as i32).contains(&x);
        inside.then(|| (Some(f), y as usize * n + x as usize))
    }
}

/// The sixteen jump-origin sets summed square by square, bit-sliced:
/// `[ones, twos, fours, eights, sixteens]`, so that square `s` is in
/// `Σ 2^b × [s in slice b]` of the sets. A Harley-Seal tree of 15 carry-save
/// adders (five instructions each) replaces sixteen popcounts, which the
/// portable x86-64 build does in software, and gives each square's count too.
#[inline(always)]
pub(super) fn bit_sliced_count(w: &[u64; 16]) -> [u64; 5] {
    /// `a + b + c` bit by bit, as (carry, sum).
    #[inline(always)]
    fn csa(a: u64, b: u64, c: u64) -> (u64, u64) {
        let u = a ^ b;
        (a & b | u & c, u ^ c)
    }
    let (twos_a, ones) = csa(0, w[0], w[1]);
    let (twos_b, ones) = csa(ones, w[2], w[3]);
    let (fours_a, twos) = csa(0, twos_a, twos_b);
    let (twos_a, ones) = csa(ones, w[4], w[5]);
    let (twos_b, ones) = csa(ones, w[6], w[7]);
    let (fours_b, twos) = csa(twos, twos_a, twos_b);
    let (eights_a, fours) = csa(0, fours_a, fours_b);
    let (twos_a, ones) = csa(ones, w[8], w[9]);
    let (twos_b, ones) = csa(ones, w[10], w[11]);
    let (fours_a, twos) = csa(twos, twos_a, twos_b);
    let (twos_a, ones) = csa(ones, w[12], w[13]);
    let (twos_b, ones) = csa(ones, w[14], w[15]);
    let (fours_b, twos) = csa(twos, twos_a, twos_b);
    let (eights_b, fours) = csa(fours, fours_a, fours_b);
    let (sixteens, eights) = csa(0, eights_a, eights_b);
    [ones, twos, fours, eights, sixteens]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{mix64, Game, GameSpec, State};
    use crate::games::bitboard::bits;
    use crate::games::virus::Virus;

    #[test]
    fn adjacency_counts_match_square_loops() {
        // Along random games on every size: the shift-and-slice counts
        // equal the loops over squares they replace.
        for n in 4..=8 {
            let game =
                Virus::from_spec(&GameSpec::parse(&format!("virus:{n}x{n}")).unwrap()).unwrap();
            let mut s = game.initial_state();
            let mut rng = crate::game::rng::stream(n as u64, &[]);
            while !s.is_terminal() {
                for set in [s.pieces()[0], s.pieces()[1], s.empty(), s.board()] {
                    let pairs: u32 = bits(set)
                        .map(|q| (s.neighbours(q) & set).count_ones())
                        .sum::<u32>()
                        / 2;
                    assert_eq!(s.adjacent_pairs(set), pairs);
                    for of in [s.pieces()[0], s.pieces()[1]] {
                        let most = bits(set)
                            .map(|q| (s.neighbours(q) & of).count_ones())
                            .max()
                            .unwrap_or(0);
                        assert_eq!(s.max_adjacent(set, of), most);
                    }
                }
                let a = s.random_action(&mut rng);
                s.apply(a);
            }
        }
    }

    #[test]
    fn bit_sliced_count_counts() {
        // Sixteen mixed words (SplitMix64); each square's count must match.
        let mut z = 3u64;
        let mut words = [0u64; 16];
        for w in words.iter_mut() {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            *w = mix64(z);
        }
        // Square 0 in all sixteen: the count 16 needs the last slice.
        words.iter_mut().for_each(|w| *w |= 1);
        let slices = bit_sliced_count(&words);
        for s in 0..64 {
            let want: u32 = words.iter().map(|w| (w >> s & 1) as u32).sum();
            let got: u32 = (0..5).map(|b| ((slices[b] >> s & 1) as u32) << b).sum();
            assert_eq!(got, want, "square {s}");
        }
        assert_eq!(slices[4], 1);
    }
}
