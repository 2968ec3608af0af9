//! OpenSpiel's `dots_and_boxes` (open_spiel/games/dots_and_boxes): the
//! board drawn with box-drawing characters, each box marked with the number
//! (1 or 2) of the player who closed it; actions `P1(h,0,1)` (the mover's
//! number, orientation, row, column); the observation tensor
//! `[3, cells, 3]` over the `(rows + 1) × (columns + 1)` cells, for each
//! cell's horizontal line, vertical line and box which player (none, 1, 2)
//! drew or closed it. OpenSpiel remembers who drew each line; wopr's state
//! does not, so the actions so far are replayed.

use super::{DotsAndBoxes, DotsAndBoxesState, Edge};
use crate::game::{Action, Game, State};
use crate::games::openspiel::{
    int, require, seat_of, set, Declaration, OpenSpielGame, Param, Params, Position, Sizes, Tensors,
};

/// OpenSpiel's board: per cell `row × (columns + 1) + col`, who (0 none, 1
/// player 0, 2 player 1) drew its horizontal line, its vertical line and
/// closed its box.
struct Board {
    rows: usize,
    cols: usize,
    h: Vec<u8>,
    v: Vec<u8>,
    p: Vec<u8>,
}

impl Board {
    fn of(at: &Position<'_, DotsAndBoxes>) -> Result<Board, String> {
        let (game, state) = (at.game, at.state);
        let (rows, cols) = (game.rows(), game.cols());
        let cells = (rows + 1) * (cols + 1);
        let mut b = Board {
            rows,
            cols,
            h: vec![0; cells],
            v: vec![0; cells],
            p: vec![0; cells],
        };
        let mut now: DotsAndBoxesState = game.initial_state();
        for &a in at.history {
            let mover = now.to_move() as u8 + 1;
            match now.edge(usize::from(a)) {
                Edge::H { row, col } => b.h[row * (cols + 1) + col] = mover,
                Edge::V { row, col } => b.v[row * (cols + 1) + col] = mover,
            }
            now.apply(a);
        }
        if now != *state {
            return Err("the actions so far do not lead to this Dots-and-Boxes state".into());
        }
        for row in 0..rows {
            for col in 0..cols {
                if let Some(seat) = state.owner(row, col) {
                    b.p[row * (cols + 1) + col] = seat as u8 + 1;
                }
            }
        }
        Ok(b)
    }

    /// OpenSpiel's `StateToStringH`: the dot at `(row, col)` and, but at
    /// the right edge, the horizontal line from it.
    fn dot(&self, out: &mut String, drawn: bool, row: usize, col: usize) {
        let (top, bottom) = (row == 0, row == self.rows);
        let (left, right) = (col == 0, col == self.cols);
        out.push(match () {
            _ if top && left => '┌',
            _ if bottom && left => '└',
            _ if top && right => '┐',
            _ if bottom && right => '┘',
            _ if right => '┤',
            _ if left => '├',
            _ if top => '┬',
            _ if bottom => '┴',
            _ => '┼',
        });
        if !right {
            out.push_str(if drawn { "───" } else { "╴ ╶" });
        }
    }
}

impl OpenSpielGame for DotsAndBoxes {
    const OPENSPIEL: Declaration = Declaration {
        name: "dots_and_boxes",
        long_name: "Dots and Boxes",
        bare_is_wopr: false,
        max_num_players: 2,
        params: &[
            ("num_cols", Param::Int(2)),
            ("num_rows", Param::Int(2)),
            ("utility_margin", Param::Bool(false)),
        ],
        perfect_information: true,
        information_state_string: true,
        information_state_tensor: false,
        factored_observation_string: false,
        single_tensor: false,
    };

    fn openspiel_spec(params: &Params) -> Result<String, String> {
        require(
            "dots_and_boxes",
            params,
            "utility_margin",
            Param::Bool(false),
        )?;
        Ok(format!(
            "dots-and-boxes:{}x{}",
            int(params, "num_cols")?,
            int(params, "num_rows")?
        ))
    }

    fn openspiel_sizes(&self, _params: &Params) -> Sizes {
        Sizes {
            num_distinct_actions: self.num_actions(),
            max_chance_outcomes: 0,
            // OpenSpiel's bound, 2 x columns x (rows + 1): the number of
            // lines on a square board, one more than it on some others (2
            // rows of 3 columns: 18, where 17 lines exist).
            max_game_length: 2 * self.cols() * (self.rows() + 1),
            chance_offset: 0,
            auto_last_round: false,
        }
    }

    fn state_string(at: &Position<'_, Self>) -> Result<String, String> {
        let b = Board::of(at)?;
        let stride = b.cols + 1;
        let mut out = String::new();
        for r in 0..=b.rows {
            for c in 0..=b.cols {
                b.dot(&mut out, b.h[r * stride + c] != 0, r, c);
            }
            out.push('\n');
            if r == b.rows {
                break;
            }
            for c in 0..=b.cols {
                let cell = r * stride + c;
                out.push_str(if b.v[cell] == 0 { " " } else { "│" });
                if c < b.cols {
                    out.push_str(match b.p[cell] {
                        0 => "   ",
                        1 => " 1 ",
                        _ => " 2 ",
                    });
                }
            }
            out.push('\n');
        }
        Ok(out)
    }

    fn action_string(
        at: &Position<'_, Self>,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        let number = seat_of(player)? + 1;
        if usize::from(action) >= at.game.num_actions() {
            return Err(format!(
                "{action} is not a line (0..{})",
                at.game.num_actions()
            ));
        }
        Ok(match at.state.edge(usize::from(action)) {
            Edge::H { row, col } => format!("P{number}(h,{row},{col})"),
            Edge::V { row, col } => format!("P{number}(v,{row},{col})"),
        })
    }

    fn observation_tensor(
        at: &Position<'_, Self>,
        _player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let b = Board::of(at)?;
        let cells = b.h.len();
        let shape = [3, cells, 3];
        let t = out.get("observation", &shape);
        for cell in 0..cells {
            set(t, &shape, &[usize::from(b.h[cell]), cell, 0]);
            set(t, &shape, &[usize::from(b.v[cell]), cell, 1]);
            set(t, &shape, &[usize::from(b.p[cell]), cell, 2]);
        }
        Ok(())
    }
}
