//! How a position looks on a board, and where each move is clicked: what a
//! page (`wopr serve`) draws, told by the game itself
//! ([`State::board`](super::State::board), [`State::target`](super::State::target))
//! so that no code outside the game's folder needs to know its type.
//!
//! Both serialise as JSON objects tagged by `"kind"`.

use serde::Serialize;

use super::Action;

/// A position as a board to draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Board {
    /// A grid of cells, each empty or holding a seat's piece (`cells[row][col]`,
    /// row 0 at the top): Tic-Tac-Toe, Connect-4, Reversi, Virus.
    Grid {
        /// Columns.
        cols: usize,
        /// Rows.
        rows: usize,
        /// The seat whose piece is on each cell, by row then column.
        cells: Vec<Vec<Option<usize>>>,
    },
    /// Dots and the lines between them, with the boxes' owners
    /// (Dots-and-Boxes).
    Dots {
        /// Boxes across.
        cols: usize,
        /// Boxes down.
        rows: usize,
        /// Horizontal lines drawn, `rows + 1` rows of `cols`.
        h: Vec<Vec<bool>>,
        /// Vertical lines drawn, `rows` rows of `cols + 1`.
        v: Vec<Vec<bool>>,
        /// The seat that owns each box, by row then column.
        owners: Vec<Vec<Option<usize>>>,
    },
    /// No board: the game's own text drawing says it all (Pig, Kuhn,
    /// Goofspiel).
    Text,
}

impl Board {
    /// A grid of `cols` × `rows` whose cell `(col, row)` holds `at(col, row)`.
    pub fn grid(cols: usize, rows: usize, at: impl Fn(usize, usize) -> Option<usize>) -> Board {
        let cells = (0..rows)
            .map(|r| (0..cols).map(|c| at(c, r)).collect())
            .collect();
        Board::Grid { cols, rows, cells }
    }
}

/// Where a move is clicked on its [`Board`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Target {
    /// A cell of a grid.
    Cell {
        /// Its column.
        col: usize,
        /// Its row (0 at the top).
        row: usize,
    },
    /// A whole column of a grid (Connect-4 drops).
    Column {
        /// The column.
        col: Action,
    },
    /// A piece moved from one cell to another (`[col, row]` each): Virus
    /// jumps, clicked as two cells.
    Jump {
        /// The cell left.
        from: [usize; 2],
        /// The cell reached.
        to: [usize; 2],
    },
    /// A line between two dots.
    Edge {
        /// `"h"` (horizontal) or `"v"` (vertical).
        dir: &'static str,
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
    },
    /// No place on a board (passes, bids, bets): a button.
    Button,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_and_targets_serialise_as_the_page_reads_them() {
        let b = Board::grid(2, 1, |c, _| (c == 1).then_some(0));
        assert_eq!(
            serde_json::to_string(&b).unwrap(),
            r#"{"kind":"grid","cols":2,"rows":1,"cells":[[null,0]]}"#
        );
        let t = Target::Edge {
            dir: "h",
            row: 1,
            col: 2,
        };
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#"{"kind":"edge","dir":"h","row":1,"col":2}"#
        );
        assert_eq!(
            serde_json::to_string(&Target::Button).unwrap(),
            r#"{"kind":"button"}"#
        );
        assert_eq!(
            serde_json::to_string(&Target::Jump {
                from: [0, 1],
                to: [2, 3]
            })
            .unwrap(),
            r#"{"kind":"jump","from":[0,1],"to":[2,3]}"#
        );
    }
}
