//! `blocks`: an n-tuple network over Dots-and-Boxes edges, for TD learning.
//!
//! A Dots-and-Boxes position's worth to the player to move is the score so
//! far plus what the undrawn edges will still give (who gets the chains).
//! The encoding reads both: a one-hot input for the mover's lead in boxes
//! (`−B..=B` on `B` boxes) joint with the parity of the safe edges (those
//! that complete no box and draw no third side), a one-hot input for the
//! safe edges joint with the boxes the mover could take now in a row
//! (the `chains` encoding's two counts), and tuples of edges: every block
//! of 2×2 boxes
//! (12 edges) and of 2×3 and 3×2 boxes (17 edges) that fits the board,
//! each read as a binary number (drawn = 1) that picks one weight of its
//! class's table (2¹² or 2¹⁷ entries). Blocks the board's symmetries map
//! onto each other share one table (the 8 symmetries on a square board,
//! the left-right mirror otherwise): an edge is placed by its midpoint on
//! the `(2·cols + 1) × (2·rows + 1)` grid of half-box steps, where the
//! symmetries of the board are those of the grid. On 3x3 boxes: one class
//! of 2×2 blocks and one of 2×3 and 3×2 blocks, 8 images each, so 2 + 16
//! look-ups a position and 2 · 19 + 25 · 10 + 4,096 + 131,072 = 135,456
//! inputs.
//!
//! `blocksc` adds one whole-board reading: the long chains (0–3) and
//! loops (0–1) that the boxes with two sides left already form, joint
//! with the safe edges' parity (16 inputs, one set): the long-chain rule's
//! count, which no block sees.
//!
//! `blocksw` adds one more block: the whole board, all 24 edges of 3x3
//! boxes as one index into a table of 2²⁴ weights, read in the board's 8
//! symmetric images. A linear net over it is then a look-up table of every
//! position (up to symmetry) on top of the blocks' generalisation: the
//! positions that learning meets often get a value of their own.

use std::collections::HashSet;

use super::counts::{chains_and_loops, greedy_captures, safe_edges};
use super::DotsAndBoxesState;
use crate::game::encode::Encoding;
use crate::game::ntuple::{images, orbit, Square, Symmetry};

/// The block shapes, in boxes (rows, columns).
const SHAPES: [(usize, usize); 3] = [(2, 2), (2, 3), (3, 2)];

/// Which of the block encodings (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Blocks {
    /// `blocks`: the counts and the 2×2 and 2×3 blocks.
    Plain,
    /// `blocksc`: and the chains and loops already formed.
    Chains,
    /// `blocksw`: and the whole board as one more block.
    Whole,
}

impl Blocks {
    /// The variants, by their encoding names.
    pub(super) const ALL: [(&'static str, Blocks); 3] = [
        ("blocks", Blocks::Plain),
        ("blocksc", Blocks::Chains),
        ("blocksw", Blocks::Whole),
    ];

    /// The most edges `blocksw` reads as one index (2²⁴ weights, 3x3
    /// boxes).
    pub(super) const WHOLE_EDGES: usize = 24;
}

/// A block encoding (see the module docs).
pub(super) struct BlockTuples {
    /// Boxes on the board (the lead input runs over `−boxes..=boxes`).
    boxes: usize,
    /// For every block image: the input its class's table starts at.
    bases: Vec<usize>,
    /// For every block image: its edges (action indices) in the order its
    /// class reads them, `lengths[i]` of them.
    edges: Vec<u8>,
    lengths: Vec<u8>,
    /// `blocksc`: where the chain inputs start (one-hot over the safe
    /// edges' parity × long chains 0–3 × loops 0–1, 16 inputs).
    chains: Option<usize>,
    /// Inputs in all.
    size: usize,
    /// Which one it is.
    variant: Blocks,
}

/// Inputs of `blocksc`'s chain group.
const CHAIN_INPUTS: usize = 2 * 4 * 2;

impl BlockTuples {
    /// The encoding `variant` for a board of `cols × rows` boxes (for
    /// `blocksw`, of at most [`Blocks::WHOLE_EDGES`] edges).
    pub(super) fn new(cols: usize, rows: usize, variant: Blocks) -> BlockTuples {
        let (width, height) = (2 * cols + 1, 2 * rows + 1);
        let symmetry = if cols == rows {
            Symmetry::Dihedral
        } else {
            Symmetry::Mirror
        };
        let maps = images(symmetry, width, height);
        let edge_of = |(x, y): Square| -> u8 {
            let h = (rows + 1) * cols;
            let e = if y % 2 == 0 {
                (y / 2) * cols + (x - 1) / 2
            } else {
                h + (y - 1) / 2 * (cols + 1) + x / 2
            };
            e as u8
        };
        let boxes = cols * rows;
        let edge_count = (rows + 1) * cols + rows * (cols + 1);
        let mut tables = 2 * (2 * boxes + 1) + (edge_count + 1) * (boxes + 1);
        let (mut bases, mut edges, mut lengths) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen = HashSet::new();
        let whole = [(rows, cols)];
        let shapes = SHAPES.iter().chain(if variant == Blocks::Whole {
            &whole[..]
        } else {
            &[]
        });
        for &(h, w) in shapes {
            for r0 in 0..rows.saturating_sub(h - 1) {
                for c0 in 0..cols.saturating_sub(w - 1) {
                    // The block's edge midpoints, in reading order.
                    let block: Vec<Square> = (2 * r0..=2 * (r0 + h))
                        .flat_map(|y| (2 * c0..=2 * (c0 + w)).map(move |x| (x, y)))
                        .filter(|&(x, y)| (x + y) % 2 == 1)
                        .collect();
                    let Some(ordered) = orbit(&block, &maps, &mut seen) else {
                        continue; // an image of a class already made
                    };
                    for image in ordered {
                        bases.push(tables);
                        lengths.push(image.len() as u8);
                        edges.extend(image.into_iter().map(edge_of));
                    }
                    tables += 1 << block.len();
                }
            }
        }
        let chains = (variant == Blocks::Chains).then_some(tables);
        BlockTuples {
            boxes,
            bases,
            edges,
            lengths,
            chains,
            size: tables + chains.map_or(0, |_| CHAIN_INPUTS),
            variant,
        }
    }

    /// Calls `f` with every input `state` sets (each to 1).
    fn for_each_input(&self, s: &DotsAndBoxesState, mut f: impl FnMut(usize)) {
        let me = s.to_move();
        let lead = s.boxes(me) as isize - s.boxes(1 - me) as isize;
        let (safe, captures) = (safe_edges(s), greedy_captures(s));
        let leads = 2 * self.boxes + 1;
        f((safe % 2) * leads + (self.boxes as isize + lead) as usize);
        f(2 * leads + safe * (self.boxes + 1) + captures);
        if let Some(base) = self.chains {
            let (long, loops) = chains_and_loops(s);
            f(base + (safe % 2) * 8 + long.min(3) * 2 + loops.min(1));
        }
        let drawn = s.edges();
        let mut at = 0;
        for (&base, &n) in self.bases.iter().zip(&self.lengths) {
            let mut k = 0;
            for (j, &e) in self.edges[at..at + n as usize].iter().enumerate() {
                k |= ((drawn >> e) as usize & 1) << j;
            }
            at += n as usize;
            f(base + k);
        }
    }
}

impl Encoding<DotsAndBoxesState> for BlockTuples {
    fn name(&self) -> &'static str {
        let named = Blocks::ALL.iter().find(|(_, v)| *v == self.variant);
        named.expect("every variant is named").0
    }
    fn size(&self) -> usize {
        self.size
    }
    fn encode(&self, state: &DotsAndBoxesState, out: &mut [f32]) {
        out.fill(0.0);
        self.for_each_input(state, |i| out[i] += 1.0);
    }
    fn encode_sparse(&self, state: &DotsAndBoxesState, out: &mut Vec<(u32, f32)>) {
        out.clear();
        self.for_each_input(state, |i| out.push((i as u32, 1.0)));
    }
    fn prefers_sparse(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, State};
    use crate::games::dots_and_boxes::DotsAndBoxes;

    /// On 3x3 boxes: the sizes of the module docs, 1 + 16 inputs set on
    /// every position, and positions that are images of each other under a
    /// symmetry read the same inputs (checked on the left-right mirror of
    /// the first move, drawn by its midpoint).
    #[test]
    fn three_by_three_blocks() {
        let enc = BlockTuples::new(3, 3, Blocks::Plain);
        assert_eq!(enc.size(), 2 * 19 + 25 * 10 + 4096 + 131_072);
        assert_eq!(enc.bases.len(), 16);
        let game = DotsAndBoxes::new(3, 3).unwrap();
        let s = game.initial_state();
        let mut out = Vec::new();
        enc.encode_sparse(&s, &mut out);
        assert_eq!(out.len(), 2 + 16);
        // No lead and 24 safe edges (even): the middle of the first 19
        // lead inputs; 24 safe edges and no capture: 38 + 24 · 10.
        assert_eq!((out[0].0, out[1].0), (9, 38 + 240));
        // Edge 0 is the top-left horizontal edge, edge 2 the top-right one:
        // mirror images.
        let (mut a, mut b) = (s, s);
        a.apply(0);
        b.apply(2);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        enc.encode_sparse(&a, &mut x);
        enc.encode_sparse(&b, &mut y);
        x.sort_unstable_by_key(|p| p.0);
        y.sort_unstable_by_key(|p| p.0);
        assert_eq!(x, y);
        // And a different edge reads differently.
        let mut c = s;
        c.apply(4);
        enc.encode_sparse(&c, &mut y);
        y.sort_unstable_by_key(|p| p.0);
        assert_ne!(x, y);
    }

    /// `chains_and_loops` on two drawn 3x3 positions: the top row's three
    /// boxes with top and bottom drawn form one long chain (open at both
    /// board edges); the top-left 2×2 boxes with only their four inner
    /// edges undrawn form one loop. `blocksc` reads 16 more inputs than
    /// `blocks`, one of them set.
    #[test]
    fn long_chains_and_loops() {
        use super::super::counts::chains_and_loops;
        let game = DotsAndBoxes::new(3, 3).unwrap();
        let s0 = game.initial_state();
        let draw = |edges: &[usize]| {
            let mut s = s0;
            for &e in edges {
                s.apply(e as crate::game::Action);
            }
            s
        };
        assert_eq!(chains_and_loops(&s0), (0, 0));
        let row = [0, 1, 2].map(|c| s0.h_index(0, c));
        let below = [0, 1, 2].map(|c| s0.h_index(1, c));
        let chain = draw(&[row, below].concat());
        assert_eq!(chains_and_loops(&chain), (1, 0));
        let outer = [
            s0.h_index(0, 0),
            s0.h_index(0, 1),
            s0.h_index(2, 0),
            s0.h_index(2, 1),
            s0.v_index(0, 0),
            s0.v_index(1, 0),
            s0.v_index(0, 2),
            s0.v_index(1, 2),
        ];
        let ring = draw(&outer);
        assert_eq!(chains_and_loops(&ring), (0, 1));
        let (plain, with) = (
            BlockTuples::new(3, 3, Blocks::Plain),
            BlockTuples::new(3, 3, Blocks::Chains),
        );
        assert_eq!(with.size(), plain.size() + 16);
        let mut out = Vec::new();
        with.encode_sparse(&chain, &mut out);
        assert_eq!(out.len(), 2 + 16 + 1);
    }

    /// `blocksw` on 3x3 boxes: the blocks plus one table of 2²⁴ entries
    /// (every edge) read in its 8 symmetric images, so 2 + 16 + 8 inputs
    /// set on every position; mirror-image positions read the same.
    #[test]
    fn the_whole_board_table() {
        let (plain, whole) = (
            BlockTuples::new(3, 3, Blocks::Plain),
            BlockTuples::new(3, 3, Blocks::Whole),
        );
        assert_eq!(whole.size(), plain.size() + (1 << 24));
        assert_eq!(whole.name(), "blocksw");
        let game = DotsAndBoxes::new(3, 3).unwrap();
        let (mut a, mut b) = (game.initial_state(), game.initial_state());
        a.apply(0);
        b.apply(2);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        whole.encode_sparse(&a, &mut x);
        whole.encode_sparse(&b, &mut y);
        assert_eq!(x.len(), 2 + 16 + 8);
        x.sort_unstable_by_key(|p| p.0);
        y.sort_unstable_by_key(|p| p.0);
        assert_eq!(x, y);
        assert!(x.iter().all(|&(i, _)| (i as usize) < whole.size()));
    }

    /// `blocksw` on a board of more than 24 edges would need a table of
    /// 2^edges weights: refused by name, in one line (4x4 boxes: 40 edges).
    #[test]
    fn the_whole_board_table_only_on_small_boards() {
        use crate::game::encode::Encodable;
        let big = DotsAndBoxes::new(4, 4).unwrap();
        let e = big.encoding("blocksw").err().expect("refused").0;
        assert!(e.contains("at most 24 edges") && e.contains("40"), "{e}");
        assert!(big.encoding("blocks").is_ok());
    }
}
