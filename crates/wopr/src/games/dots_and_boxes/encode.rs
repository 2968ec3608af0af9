//! Dots-and-Boxes' encodings for nets: Weaver's edge inputs (`raw`, 24 on
//! 3x3 boxes), `planes` (the mover, the edges, the boxes of the mover and of
//! the other player: 2 + 24 + 18), and `sides` (`planes`, then for every box
//! which of 0–4 of its sides are drawn, one-hot: 44 + 45 inputs on 3x3
//! boxes), and `chains` (`sides`, then two counts one-hot: the boxes the
//! player to move could take now by completing boxes one after another,
//! 0 to all, and the undrawn edges that complete no box and draw no third
//! side, 0 to all: 89 + 10 + 25 inputs on 3x3 boxes).
//!
//! `sides` is not the paper's: it hands a net each box's side count, which
//! Weaver's level-1 and level-2 rules read (a box with three sides can be
//! taken; drawing a box's third side gives it away), so a move-ranking net
//! can weigh them without first learning to count. `chains` goes further and
//! hands over two short lookaheads a player needs in the endgame: how long
//! the chain on offer is, and how many quiet moves are left before someone
//! must open one.
//!
//! `blocks` is an n-tuple network over the edges for TD learning (the
//! mover's lead, then every 2×2 and 2×3 block of boxes read as one table
//! index; `tuples`).

use super::counts::{greedy_captures, safe_edges};
use super::tuples::{BlockTuples, Blocks};
use super::{DotsAndBoxes, DotsAndBoxesState};
use crate::game::encode::{mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::{Game, SpecError};
use crate::games::bitboard::bits;

/// What an encoding adds to the edge inputs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Extra {
    /// Nothing (`raw`).
    None,
    /// The mover and the box owners (`planes`).
    Planes,
    /// `planes`, then each box's drawn sides, one-hot over 0–4 (`sides`).
    Sides,
    /// `sides`, then the mover's greedy captures and the safe edges, each
    /// one-hot (`chains`).
    Chains,
}

/// Weaver's edge inputs (`raw`), plus what [`Extra`] says.
struct DotsEncoding {
    extra: Extra,
    edges: usize,
    boxes: usize,
}

impl Encoding<DotsAndBoxesState> for DotsEncoding {
    fn name(&self) -> &'static str {
        match self.extra {
            Extra::None => "raw",
            Extra::Planes => "planes",
            Extra::Sides => "sides",
            Extra::Chains => "chains",
        }
    }
    fn size(&self) -> usize {
        match self.extra {
            Extra::None => self.edges,
            Extra::Planes => 2 + self.edges + 2 * self.boxes,
            Extra::Sides => 2 + self.edges + 7 * self.boxes,
            Extra::Chains => 2 + self.edges + 7 * self.boxes + (self.boxes + 1) + (self.edges + 1),
        }
    }
    fn encode(&self, s: &DotsAndBoxesState, out: &mut [f32]) {
        out.fill(0.0);
        let planes = self.extra != Extra::None;
        let off = if planes { 2 } else { 0 };
        for e in bits(s.edges()) {
            out[off + e] = 1.0;
        }
        if matches!(self.extra, Extra::Sides | Extra::Chains) {
            let cols = s.cols();
            let base = 2 + self.edges + 2 * self.boxes;
            for b in 0..self.boxes {
                let drawn = (s.edges() & s.box_mask(b / cols, b % cols)).count_ones() as usize;
                out[base + 5 * b + drawn] = 1.0;
            }
        }
        if self.extra == Extra::Chains {
            let base = 2 + self.edges + 7 * self.boxes;
            out[base + greedy_captures(s)] = 1.0;
            out[base + self.boxes + 1 + safe_edges(s)] = 1.0;
        }
        if planes {
            let me = mover(s);
            if let Some(p) = me {
                out[p] = 1.0;
            }
            let me = me.unwrap_or(s.to_move());
            let cols = s.cols();
            for b in 0..self.boxes {
                if let Some(o) = s.owner(b / cols, b % cols) {
                    let plane = usize::from(o != me);
                    out[2 + self.edges + plane * self.boxes + b] = 1.0;
                }
            }
        }
    }
}

impl Encodable for DotsAndBoxes {
    fn encoding_names(&self) -> &'static [&'static str] {
        &[
            "raw", "planes", "sides", "chains", "blocks", "blocksc", "blocksw",
        ]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        let s = self.initial_state();
        let (edges, boxes) = (s.num_edges(), self.cols() * self.rows());
        match name {
            "raw" | "edges" => Ok(Box::new(DotsEncoding {
                extra: Extra::None,
                edges,
                boxes,
            })),
            "planes" => Ok(Box::new(DotsEncoding {
                extra: Extra::Planes,
                edges,
                boxes,
            })),
            "chains" => Ok(Box::new(DotsEncoding {
                extra: Extra::Chains,
                edges,
                boxes,
            })),
            "sides" => Ok(Box::new(DotsEncoding {
                extra: Extra::Sides,
                edges,
                boxes,
            })),
            _ => {
                let Some(&(_, variant)) = Blocks::ALL.iter().find(|(n, _)| *n == name) else {
                    return Err(unknown(&self.spec(), name, self.encoding_names()));
                };
                if variant == Blocks::Whole && edges > Blocks::WHOLE_EDGES {
                    return Err(SpecError(format!(
                        "encoding 'blocksw' reads the whole board as one table of 2^edges weights: \
                         boards of at most {} edges (3x3 boxes); {} has {edges}",
                        Blocks::WHOLE_EDGES,
                        self.spec()
                    )));
                }
                Ok(Box::new(BlockTuples::new(
                    self.cols(),
                    self.rows(),
                    variant,
                )))
            }
        }
    }
}
