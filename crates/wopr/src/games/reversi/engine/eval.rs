//! The engine's evaluation: a Logistello pattern net
//! ([`crate::game::patterns`]) read incrementally.
//!
//! The net reads each pattern image's configuration `k = Σⱼ dⱼ·3ʲ` with
//! digits from the mover's side (1 the mover's disc, 2 the opponent's).
//! Along a search the mover changes every ply, so the engine keeps the
//! configurations with fixed colours instead (1 Black, 2 White), each
//! with its table's start added ([`Indices`]), and reads them through two
//! copies of the weights: as the file has them when Black is to move, and
//! with the digits 1 and 2 swapped in every table when White is. A move
//! changes the configurations of the images through the placed square and
//! the flipped ones only, by `±3ʲ` a square: about 40 additions where
//! reading the board afresh costs some 700 digit look-ups.

use super::super::{Reversi, ReversiState};
use crate::game::SpecError;
use crate::nn::{NetFile, Network};

/// The most pattern images an engine reads (84 on 8x8).
pub const MAX_IMAGES: usize = 96;

/// Every image's configuration with fixed colours, plus its table's start
/// within a stage's weights.
pub type Indices = [u32; MAX_IMAGES];

/// A pattern net ready for incremental reading (see the module docs).
#[derive(Clone, Debug)]
pub struct PatternEval {
    /// `items[at[s]..at[s + 1]]`: the images square `s` belongs to, with
    /// the power of 3 it carries in each.
    at: Vec<u32>,
    items: Vec<(u8, u32)>,
    /// The number of images.
    images: usize,
    /// Each image's table start within a stage.
    start: Indices,
    /// The summed table sizes of one stage.
    per_stage: usize,
    /// The stage of each disc count.
    stage: Vec<u32>,
    /// The weights for Black to move (as in the file) and for White to
    /// move (digits swapped).
    weights: [Vec<f32>; 2],
    bias: f32,
}

/// The Logistello encodings the engine reads.
pub const ENCODINGS: &str = "logistello, logistello4, logistello12";

impl PatternEval {
    /// Reads a linear one-output net over a Logistello pattern encoding;
    /// a one-line error for any other net.
    pub fn new(game: &Reversi, file: &NetFile) -> Result<PatternEval, SpecError> {
        let name = file.encoding.as_deref().unwrap_or("raw");
        let patterns = game.logistello(name).ok_or_else(|| {
            SpecError(format!(
                "the engine reads nets over Logistello's patterns ({ENCODINGS}); this net reads '{name}'"
            ))
        })??;
        if file.net.linear_value_output().is_none() {
            return Err(SpecError(
                "the engine reads linear one-output nets (weights and a bias over the patterns); \
                 this net has hidden layers or several outputs"
                    .into(),
            ));
        }
        let per_stage = patterns.per_stage();
        let inputs = patterns.stages() * per_stage;
        let params = file.net.params();
        if file.net.num_inputs() != inputs || params.len() != inputs + 1 {
            return Err(SpecError(format!(
                "the net has {} inputs but encoding '{name}' gives {inputs}",
                file.net.num_inputs()
            )));
        }
        let cells = game.size() * game.size();
        let images: Vec<(usize, &[u8])> = patterns.image_squares().collect();
        assert!(images.len() <= MAX_IMAGES, "more pattern images than kept");
        let mut start = [0u32; MAX_IMAGES];
        let mut lists = vec![Vec::new(); cells];
        // Each table's length, by its start (images of a pattern share one).
        let mut tables = std::collections::BTreeMap::new();
        for (i, &(base, squares)) in images.iter().enumerate() {
            start[i] = base as u32;
            tables.insert(base, squares.len());
            for (j, &sq) in squares.iter().enumerate() {
                lists[sq as usize].push((i as u8, 3u32.pow(j as u32)));
            }
        }
        let mut at = vec![0u32];
        let mut items = Vec::new();
        for list in lists {
            items.extend(list);
            at.push(items.len() as u32);
        }
        let black = params[..inputs].to_vec();
        let mut white = black.clone();
        for stage in 0..patterns.stages() {
            for (&base, &len) in &tables {
                let from = stage * per_stage + base;
                for k in 0..3usize.pow(len as u32) {
                    white[from + k] = black[from + swapped(k, len)];
                }
            }
        }
        Ok(PatternEval {
            at,
            items,
            images: images.len(),
            start,
            per_stage,
            stage: (0..=cells).map(|d| patterns.stage_of(d) as u32).collect(),
            weights: [black, white],
            bias: params[inputs],
        })
    }

    /// The configurations of `state`, read afresh.
    pub fn indices(&self, state: &ReversiState) -> Indices {
        let [black, white] = state.discs();
        let mut idx = self.start;
        for sq in 0..self.at.len() - 1 {
            let d = ((black >> sq) & 1) + 2 * ((white >> sq) & 1);
            if d != 0 {
                for &(i, p) in self.square(sq) {
                    idx[i as usize] += d as u32 * p;
                }
            }
        }
        idx
    }

    #[inline]
    fn square(&self, sq: usize) -> &[(u8, u32)] {
        &self.items[self.at[sq] as usize..self.at[sq + 1] as usize]
    }

    /// Plays a move into `idx`: `colour` (0 Black, 1 White) places on `sq`
    /// and turns over `flips`.
    #[inline]
    pub fn play(&self, idx: &mut Indices, colour: usize, sq: usize, mut flips: u64) {
        let placed = colour as u32 + 1;
        for &(i, p) in self.square(sq) {
            idx[i as usize] += placed * p;
        }
        // Black turning a White disc: digit 2 → 1; White turning Black: 1 → 2.
        while flips != 0 {
            let f = flips.trailing_zeros() as usize;
            flips &= flips - 1;
            for &(i, p) in self.square(f) {
                let v = &mut idx[i as usize];
                *v = if colour == 0 { *v - p } else { *v + p };
            }
        }
    }

    /// The net's weighted sum (before its output activation, which keeps
    /// the order) for `to_move` (0 Black, 1 White) with `discs` discs on
    /// the board.
    #[inline]
    pub fn value(&self, idx: &Indices, to_move: usize, discs: u32) -> f32 {
        let w = &self.weights[to_move][self.stage[discs as usize] as usize * self.per_stage..];
        idx[..self.images]
            .iter()
            .fold(self.bias, |a, &k| a + w[k as usize])
    }
}

/// Configuration `k` of a `len`-square pattern with the digits 1 and 2
/// swapped.
fn swapped(mut k: usize, len: usize) -> usize {
    let (mut out, mut p) = (0, 1);
    for _ in 0..len {
        let d = k % 3;
        out += [0, 2, 1][d] * p;
        k /= 3;
        p *= 3;
    }
    out
}
