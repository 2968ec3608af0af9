//! Pattern networks with one weight set per game stage (Buro's Logistello).
//!
//! Where [`super::ntuple`]'s tuples all have one length, a pattern network
//! reads hand-chosen patterns of differing lengths: for Othello, Buro's
//! (1997) edge with its two X-squares (10 squares), the 2×5 and 3×3
//! corners, rows two to four and the diagonals of four to eight squares.
//! Each pattern is shared under the board's symmetries, as n-tuples are
//! ("symmetric sampling"): one table per pattern, every ordered image of
//! the pattern reading it.
//!
//! A position's *stage* picks the table set: the game is cut by the number
//! of discs into `stages` equal spans, and each span has its own tables,
//! as Logistello and Edax do (a corner is worth more in the middle game
//! than on the last moves, when the disc count is what counts). As an
//! encoding: input `stage · P + base(pattern) + k` counts the images of
//! that pattern reading configuration `k = Σⱼ dⱼ·3ʲ` (`dⱼ`: 0 empty, 1 the
//! mover's disc, 2 the opponent's), `P` the summed table sizes; a linear
//! net over these inputs is the staged pattern network.

use super::encode::Encoding;
use super::ntuple::{images, orbit, Symmetry};

/// A staged pattern encoding of a square board whose state keeps one
/// bitboard per seat, square `(col, row)` at bit `row × side + col` (see
/// the module docs).
pub struct Patterns<S> {
    name: &'static str,
    /// For every pattern image: where its table starts, where its squares
    /// start in `squares`, and how many it has.
    images: Vec<(u32, u32, u8)>,
    /// The images' squares as bit indices, image after image.
    squares: Vec<u8>,
    /// The summed table sizes of one stage.
    per_stage: usize,
    stages: usize,
    /// Squares on the board (the disc count runs from 4 to this).
    cells: usize,
    seats: fn(&S) -> [u64; 2],
    to_move: fn(&S) -> Option<usize>,
    /// Every square some pattern reads, as bits.
    used: u64,
}

/// Buro's Othello patterns on a square board of side `side` (6 or more),
/// one of each symmetry class, as `(col, row)` squares from the top-left
/// corner: the edge with both X-squares, the 2×5 and 3×3 corners, the
/// second to fourth rows and the diagonals of four squares up to the main
/// one. On 6x6 the fourth row is an image of the third and counts once.
pub fn logistello(side: usize) -> Vec<Vec<(usize, usize)>> {
    assert!(
        side >= 6,
        "Logistello's patterns need a board of 6x6 or more"
    );
    let last = side - 1;
    let row = |r: usize| (0..side).map(|c| (c, r)).collect::<Vec<_>>();
    let mut edge = row(0);
    edge.extend([(1, 1), (last - 1, 1)]);
    let corner2x5 = (0..2).flat_map(|r| (0..5).map(move |c| (c, r))).collect();
    let corner3x3 = (0..3).flat_map(|r| (0..3).map(move |c| (c, r))).collect();
    let mut patterns = vec![edge, corner2x5, corner3x3, row(1), row(2), row(3)];
    // The diagonal of `len` squares ending on the bottom row.
    patterns.extend((4..=side).map(|len| (0..len).map(|i| (i, side - len + i)).collect()));
    patterns
}

impl<S> Patterns<S> {
    /// The encoding `name` of `patterns` (lists of `(col, row)` squares, 1 to
    /// 12 each) on a square board of side `side`, shared under its 8
    /// symmetries, with `stages` table sets by disc count.
    pub fn square(
        name: &'static str,
        patterns: &[Vec<(usize, usize)>],
        side: usize,
        stages: usize,
        seats: fn(&S) -> [u64; 2],
    ) -> Patterns<S>
    where
        S: crate::game::State,
    {
        assert!(stages >= 1, "at least one stage");
        let maps = images(Symmetry::Dihedral, side, side);
        let mut seen = std::collections::HashSet::new();
        let (mut list, mut squares) = (Vec::new(), Vec::new());
        let mut per_stage = 0usize;
        for pattern in patterns {
            assert!(
                (1..=12).contains(&pattern.len()),
                "a pattern has 1 to 12 squares"
            );
            let Some(ordered) = orbit(pattern, &maps, &mut seen) else {
                continue; // an image of a pattern already listed
            };
            for image in ordered {
                list.push((per_stage as u32, squares.len() as u32, image.len() as u8));
                squares.extend(image.iter().map(|&(c, r)| (r * side + c) as u8));
            }
            per_stage += 3usize.pow(pattern.len() as u32);
        }
        let used = squares.iter().fold(0, |m, &b| m | 1u64 << b);
        Patterns {
            name,
            images: list,
            squares,
            per_stage,
            stages,
            cells: side * side,
            seats,
            to_move: super::encode::mover,
            used,
        }
    }

    /// The number of stages (table sets).
    pub fn stages(&self) -> usize {
        self.stages
    }

    /// The number of pattern images read per position.
    pub fn images(&self) -> usize {
        self.images.len()
    }

    /// The summed table sizes of one stage (the inputs of one table set).
    pub fn per_stage(&self) -> usize {
        self.per_stage
    }

    /// Every pattern image: where its table starts within a stage's set,
    /// and its squares as bit indices, square `j` the digit of weight `3ʲ`
    /// in the configuration it reads.
    pub fn image_squares(&self) -> impl Iterator<Item = (usize, &[u8])> + '_ {
        self.images.iter().map(|&(base, start, len)| {
            (
                base as usize,
                &self.squares[start as usize..start as usize + len as usize],
            )
        })
    }

    /// The stage of a position with `discs` discs on the board: the span of
    /// `(discs − 4) · stages / (cells − 3)`, so the 4 to `cells` discs fall
    /// into `stages` spans of equal width.
    pub fn stage_of(&self, discs: usize) -> usize {
        (discs.saturating_sub(4) * self.stages / (self.cells - 3)).min(self.stages - 1)
    }

    /// Calls `f` with the input each pattern image of `state` counts in.
    #[inline]
    fn for_each_image(&self, state: &S, mut f: impl FnMut(usize)) {
        let me = (self.to_move)(state).unwrap_or(0) & 1;
        let seats = (self.seats)(state);
        let (own, other) = (seats[me], seats[1 - me]);
        let stage = self.stage_of((own | other).count_ones() as usize) * self.per_stage;
        let mut digits = [0u8; 64];
        let mut used = self.used;
        while used != 0 {
            let b = used.trailing_zeros();
            digits[b as usize] = (((own >> b) & 1) + 2 * ((other >> b) & 1)) as u8;
            used &= used - 1;
        }
        for &(base, start, len) in &self.images {
            let bits = &self.squares[start as usize..start as usize + len as usize];
            let k = bits
                .iter()
                .rev()
                .fold(0usize, |k, &b| k * 3 + digits[b as usize] as usize);
            f(stage + base as usize + k);
        }
    }
}

impl<S: Send + Sync> Encoding<S> for Patterns<S> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn size(&self) -> usize {
        self.stages * self.per_stage
    }
    fn encode(&self, state: &S, out: &mut [f32]) {
        out.fill(0.0);
        self.for_each_image(state, |i| out[i] += 1.0);
    }
    fn encode_sparse(&self, state: &S, out: &mut Vec<(u32, f32)>) {
        out.clear();
        self.for_each_image(state, |i| out.push((i as u32, 1.0)));
    }
    fn prefers_sparse(&self) -> bool {
        true
    }
}
