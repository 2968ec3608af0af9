//! The per-size edge tables, built at compile time: every edge's (at most
//! two) boxes as four-edge masks, so that a move checks its boxes without
//! index arithmetic.

use super::{edge_count, MAX_SIDE};

/// A mask no position ever fills: bit 63, beyond the 60 edges of 5x5. It
/// stands for the missing box beside an edge of the border, so that "are the
/// box's four sides drawn" is false for it without a branch.
const NO_BOX: u64 = 1 << 63;

/// The boxes beside one edge: each one's four-edge mask and its bit in
/// [`DotsAndBoxesState::owned`](super::DotsAndBoxesState::owned); a border edge's missing box is
/// ([`NO_BOX`], 0).
#[derive(Clone, Copy, Debug)]
pub(super) struct EdgeBoxes {
    pub(super) masks: [u64; 2],
    pub(super) bits: [u32; 2],
}

/// What the hot paths need of one board size, computed once at compile time
/// (the index arithmetic, with its divisions by the number of columns, is
/// thus never done per move).
#[derive(Clone, Copy, Debug)]
pub(super) struct Geometry {
    /// Every edge of the board.
    pub(super) full: u64,
    /// The boxes beside each edge, by action index.
    pub(super) edges: [EdgeBoxes; 64],
}

/// The four edges of box `(row, col)` on `cols` × `rows` boxes.
const fn box_edges(cols: usize, rows: usize, row: usize, col: usize) -> u64 {
    let h = (rows + 1) * cols;
    let left = h + row * (cols + 1) + col;
    1u64 << (row * cols + col)
        | 1u64 << ((row + 1) * cols + col)
        | 1u64 << left
        | 1u64 << (left + 1)
}

const fn geometry(cols: usize, rows: usize) -> Geometry {
    let none = EdgeBoxes {
        masks: [NO_BOX; 2],
        bits: [0; 2],
    };
    let mut g = Geometry {
        full: 0,
        edges: [none; 64],
    };
    if cols == 0 || rows == 0 || edge_count(cols, rows) > 64 {
        return g;
    }
    let n = edge_count(cols, rows);
    g.full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    // Each box gives its mask to its four edges: the top edge has the box
    // below it (slot 1), the bottom edge above it (slot 0), the left edge to
    // its right (slot 1), the right edge to its left (slot 0), so slot 0
    // holds the box with the lower index, as `boxes_of_edge` lists them.
    let h = (rows + 1) * cols;
    let mut row = 0;
    while row < rows {
        let mut col = 0;
        while col < cols {
            let mask = box_edges(cols, rows, row, col);
            let bit = 1u32 << (row * cols + col);
            let left = h + row * (cols + 1) + col;
            let sides = [
                (row * cols + col, 1),
                ((row + 1) * cols + col, 0),
                (left, 1),
                (left + 1, 0),
            ];
            let mut i = 0;
            while i < 4 {
                let (e, slot) = sides[i];
                g.edges[e].masks[slot] = mask;
                g.edges[e].bits[slot] = bit;
                i += 1;
            }
            col += 1;
        }
        row += 1;
    }
    g
}

/// [`Geometry`] of every size, indexed `[cols][rows]` (sides of 0 unused).
pub(super) static GEOMETRY: [[Geometry; MAX_SIDE + 1]; MAX_SIDE + 1] = {
    let empty = geometry(0, 0);
    let mut t = [[empty; MAX_SIDE + 1]; MAX_SIDE + 1];
    let mut c = 1;
    while c <= MAX_SIDE {
        let mut r = 1;
        while r <= MAX_SIDE {
            t[c][r] = geometry(c, r);
            r += 1;
        }
        c += 1;
    }
    t
};

// The missing-box mask must lie beyond every edge of the largest board.
const _: () = assert!(edge_count(MAX_SIDE, MAX_SIDE) < 64);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::dots_and_boxes::DotsAndBoxes;

    #[test]
    fn edge_tables_match_the_index_arithmetic() {
        // The compile-time tables against `boxes_of_edge` and `box_mask`,
        // which compute the same from the notation's index formulas.
        for cols in 1..=MAX_SIDE {
            for rows in 1..=MAX_SIDE {
                let s = DotsAndBoxes::new(cols, rows).unwrap().initial_state();
                let g = s.geometry();
                assert_eq!(g.full.count_ones() as usize, s.num_edges());
                assert_eq!(g.full, (1u64 << s.num_edges()) - 1);
                let mut sides = 0;
                for e in 0..s.num_edges() {
                    let expect = s.boxes_of_edge(e).map(|b| {
                        b.map_or((NO_BOX, 0), |(r, c)| {
                            (s.box_mask(r, c), 1u32 << (r * cols + c))
                        })
                    });
                    let got = [0, 1].map(|i| (g.edges[e].masks[i], g.edges[e].bits[i]));
                    assert_eq!(got, expect, "{cols}x{rows}, edge {e}");
                    sides += got.iter().filter(|b| b.1 != 0).count();
                }
                // Every box has four sides.
                assert_eq!(sides, 4 * cols * rows, "{cols}x{rows}");
            }
        }
    }
}
