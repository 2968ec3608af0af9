//! Dots-and-Boxes.
//!
//! **Rules as implemented** (Weaver & Bossomaier §2.1, the unsolved form).
//! A grid of `C`×`R` boxes has a dot on every corner; no edge is drawn at the
//! start. Seat A (0) moves first. A move draws one undrawn edge between two
//! neighbouring dots; passing is not allowed. An edge that completes the fourth
//! side of one box, or of two boxes at once, scores them for the mover, and the
//! same player moves again; any other edge passes the turn. Taking a box is
//! never compulsory. The game ends when every edge is drawn; more boxes wins,
//! equal counts (possible on even boards) are a draw.
//! [`score`](crate::game::State::score) is own boxes minus the opponent's, at any time.
//!
//! **Parameters.** `dots-and-boxes[:CxR]`: `C` columns × `R` rows of boxes,
//! each 1..=5, default `3x3` (24 edges, the paper's board). The edges must fit
//! in 64 bits, which every size up to 5x5 (60 edges) does. The canonical spec
//! always names the size: `dots-and-boxes:3x3`.
//!
//! **Notation.** Dots are numbered from the top-left, `(row, col)`, 0-based.
//! `h<row>,<col>` is the horizontal edge from dot `(row, col)` to
//! `(row, col+1)`; `v<row>,<col>` the vertical edge from `(row, col)` to
//! `(row+1, col)`. Case-insensitive; `#<index>` is accepted too.
//!
//! **Action indices** (OpenSpiel's `dots_and_boxes`): first the `(R+1)·C`
//! horizontal edges row by row, `h r,c` = `r·C + c`; then the `R·(C+1)`
//! vertical edges row by row, `v r,c` = `H + r·(C+1) + c` with `H = (R+1)·C`.
//! On 3x3, `h0,0` is 0, `h3,2` is 11, `v0,0` is 12 and `v2,3` is 23.
//! The action index is also the edge's bit in [`DotsAndBoxesState::edges`].
//!
//! **Representation.** The drawn edges are one `u64`. For every board size
//! a table built at compile time gives each edge the four-edge masks of the
//! (at most two) boxes it borders, so a move checks its boxes with two masks
//! and no index arithmetic. A random move selects the k-th undrawn edge from
//! the bitboard (the state keeps the undrawn count and its per-byte prefix
//! sums up to date) instead of listing the moves.
//!
//! **Board cells.** Edges are not squares, so
//! [`action_cell`](crate::game::State::action_cell) is `None` for every action.
//!
//! **Heuristic** (for `alphabeta`), from the side to move:
//! `100 × (own boxes − opponent's) + 75 × (boxes with exactly three sides)`.
//! A box with three sides can be taken by the side to move at once (and taking
//! it keeps the move), so it counts as most of a box for the mover; the search
//! sees the extra turns itself.
//!
//! **Heuristic opponents** (Weaver & Bossomaier §2.2; see
//! [`players`]): `level0` plays
//! at random, `level1` completes a box whenever it can, `level2` also avoids
//! drawing a box's third side.
//!
//! **Solver and `perfect` player** (see
//! [`solver`]): exact from any
//! position on boards of at most 24 edges (3x3, 4x2, 2x4, 5x1, 1x5 and
//! smaller), and on bigger boards once at most 24 edges are undrawn. It maximises the final box
//! margin; `perfect` picks at random among the moves that reach it, and plays
//! at random while the position is out of reach. From the start, 3x3 is a
//! second-player win by 6–3, 2x2 a first-player win by 3–1.
//!
//! **Papers.** Weaver & Bossomaier (24-9-24 move-ranking nets on 3x3 boxes,
//! heuristic players of levels 0–2).
//!
//! **References.**
//! - L. Weaver and T. Bossomaier, "Evolution of neural networks to play the
//!   game of Dots-and-Boxes", arXiv:cs/9809111, 1998.

mod counts;
pub mod encode;
mod geometry;
mod openspiel;
mod oracle;
pub mod players;
pub mod solver;
mod state;
mod tuples;

use crate::game::{Game, GameInfo, GameSpec, Nature, ParamInfo, SpecError};
pub use state::{DotsAndBoxesState, Edge};

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "dots-and-boxes",
    aliases: &["dotsandboxes"],
    about: "Dots-and-Boxes on CxR boxes; completing a box scores it and moves again",
    paper: "Weaver & Bossomaier",
    params: &[ParamInfo {
        name: "size",
        default: "3x3",
        doc: "CxR boxes (columns x rows), each side 1..=5",
    }],
    nature: Nature::BOARD,
    examples: &[
        "dots-and-boxes:1x1",
        "dots-and-boxes:2x2",
        "dots-and-boxes:5x5",
    ],
    bench: &["dots-and-boxes"],
};

/// The largest side, in boxes.
pub const MAX_SIDE: usize = 5;

/// The game: a board of `cols` × `rows` boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DotsAndBoxes {
    cols: u8,
    rows: u8,
}

impl Default for DotsAndBoxes {
    /// The paper's 3x3 boxes.
    fn default() -> Self {
        DotsAndBoxes { cols: 3, rows: 3 }
    }
}

/// Number of edges on a board of `cols` × `rows` boxes.
pub const fn edge_count(cols: usize, rows: usize) -> usize {
    (rows + 1) * cols + rows * (cols + 1)
}

fn check_size(cols: usize, rows: usize) -> Result<(), String> {
    if !(1..=MAX_SIDE).contains(&cols) || !(1..=MAX_SIDE).contains(&rows) {
        return Err(format!("each side must be 1..={MAX_SIDE} boxes"));
    }
    let n = edge_count(cols, rows);
    if n > 64 {
        return Err(format!("it has {n} edges and at most 64 fit"));
    }
    Ok(())
}

impl DotsAndBoxes {
    /// A board of `cols` × `rows` boxes (each 1..=5).
    pub fn new(cols: usize, rows: usize) -> Result<DotsAndBoxes, SpecError> {
        check_size(cols, rows).map_err(|why| {
            SpecError(format!(
                "'dots-and-boxes': size {cols}x{rows} is not supported: {why}"
            ))
        })?;
        Ok(DotsAndBoxes {
            cols: cols as u8,
            rows: rows as u8,
        })
    }

    /// Columns of boxes.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Rows of boxes.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }
}

impl Game for DotsAndBoxes {
    type State = DotsAndBoxesState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec (`CxR` only).
    fn from_spec(spec: &GameSpec) -> Result<DotsAndBoxes, SpecError> {
        spec.check_keys(&["size"])?;
        let (cols, rows) = spec.size((3, 3), check_size)?;
        DotsAndBoxes::new(cols, rows)
    }

    fn spec(&self) -> String {
        format!("dots-and-boxes:{}x{}", self.cols, self.rows)
    }
    fn num_actions(&self) -> usize {
        edge_count(self.cols(), self.rows())
    }
    fn max_game_length(&self) -> usize {
        edge_count(self.cols(), self.rows())
    }
    fn initial_state(&self) -> DotsAndBoxesState {
        DotsAndBoxesState::new(self)
    }
    fn seat_names(&self) -> Vec<&'static str> {
        vec!["A", "B"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_spec() {
        let g = DotsAndBoxes::from_spec(&GameSpec::parse("dots-and-boxes").unwrap()).unwrap();
        assert_eq!(g.spec(), "dots-and-boxes:3x3");
        assert_eq!(g.num_actions(), 24);
        let g = DotsAndBoxes::from_spec(&GameSpec::parse("dots-and-boxes:5x4").unwrap()).unwrap();
        assert_eq!(g.spec(), "dots-and-boxes:5x4");
        assert_eq!(g.num_actions(), 5 * 5 + 4 * 6);
        for bad in [
            "dots-and-boxes:6x1",
            "dots-and-boxes:0x3",
            "dots-and-boxes:3x3,depth=2",
        ] {
            assert!(
                DotsAndBoxes::from_spec(&GameSpec::parse(bad).unwrap()).is_err(),
                "{bad}"
            );
        }
    }
}
