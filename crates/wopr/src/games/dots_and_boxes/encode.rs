//! Dots-and-Boxes' encodings for nets: Weaver's edge inputs (`raw`, 24 on
//! 3x3 boxes) and `planes`.

use super::{DotsAndBoxes, DotsAndBoxesState};
use crate::game::encode::{mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::{Game, SpecError};
use crate::games::bitboard::bits;

/// Weaver's edge inputs (`raw`), or edges plus side and box owners (`planes`).
struct DotsEncoding {
    planes: bool,
    edges: usize,
    boxes: usize,
}

impl Encoding<DotsAndBoxesState> for DotsEncoding {
    fn name(&self) -> &'static str {
        if self.planes {
            "planes"
        } else {
            "raw"
        }
    }
    fn size(&self) -> usize {
        if self.planes {
            2 + self.edges + 2 * self.boxes
        } else {
            self.edges
        }
    }
    fn encode(&self, s: &DotsAndBoxesState, out: &mut [f32]) {
        out.fill(0.0);
        let off = if self.planes { 2 } else { 0 };
        for e in bits(s.edges()) {
            out[off + e] = 1.0;
        }
        if self.planes {
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
        &["raw", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        let s = self.initial_state();
        let (edges, boxes) = (s.num_edges(), self.cols() * self.rows());
        match name {
            "raw" | "edges" => Ok(Box::new(DotsEncoding {
                planes: false,
                edges,
                boxes,
            })),
            "planes" => Ok(Box::new(DotsEncoding {
                planes: true,
                edges,
                boxes,
            })),
            _ => Err(unknown(&self.spec(), name, self.encoding_names())),
        }
    }
}
