//! The board as JSON for the page to draw, and where on it each legal move
//! is clicked. The rules stay in the library: this module only reads the
//! states' public accessors and [`State::action_cell`].
//!
//! Boards (`"kind"`):
//! - `grid`: `cols`, `rows`, `cells[row][col]` = seat or `null` (Tic-Tac-Toe,
//!   Connect-4, Reversi, Virus);
//! - `dots`: `cols`, `rows` (boxes), `h[row][col]` (rows+1 × cols),
//!   `v[row][col]` (rows × cols+1) drawn or not, `owners[row][col]`;
//! - `text`: the game's own text drawing only (Pig, Kuhn, Goofspiel).
//!
//! Targets (`"kind"`): `cell` (`col`, `row`), `column` (`col`), `jump`
//! (`from`, `to` as `[col, row]`), `edge` (`dir` `h`/`v`, `row`, `col`), or
//! `button` (no place on a board: passes, bids, bets).

use std::any::Any;

use serde_json::{json, Value};
use wopr::games::connect4::Connect4State;
use wopr::games::dots_and_boxes::{DotsAndBoxesState, Edge};
use wopr::games::reversi::ReversiState;
use wopr::games::tictactoe::TicTacToeState;
use wopr::games::virus::VirusState;
use wopr::{Action, State};

fn grid(cols: usize, rows: usize, at: impl Fn(usize, usize) -> Option<usize>) -> Value {
    let cells: Vec<Vec<Option<usize>>> = (0..rows)
        .map(|r| (0..cols).map(|c| at(c, r)).collect())
        .collect();
    json!({"kind": "grid", "cols": cols, "rows": rows, "cells": cells})
}

/// The board of `state` as JSON (see the module doc for the shapes).
pub fn board<S: State>(state: &S) -> Value {
    let any = state as &dyn Any;
    if let Some(s) = any.downcast_ref::<TicTacToeState>() {
        return grid(3, 3, |c, r| s.at(r * 3 + c));
    }
    if let Some(s) = any.downcast_ref::<Connect4State>() {
        return grid(s.columns(), s.rows(), |c, r| s.at(c, r));
    }
    if let Some(s) = any.downcast_ref::<ReversiState>() {
        return grid(s.size(), s.size(), |c, r| s.at(c, r));
    }
    if let Some(s) = any.downcast_ref::<VirusState>() {
        return grid(s.size(), s.size(), |c, r| s.at(c, r));
    }
    if let Some(s) = any.downcast_ref::<DotsAndBoxesState>() {
        let (cols, rows) = (s.cols(), s.rows());
        let h: Vec<Vec<bool>> = (0..=rows)
            .map(|r| (0..cols).map(|c| s.has_edge(s.h_index(r, c))).collect())
            .collect();
        let v: Vec<Vec<bool>> = (0..rows)
            .map(|r| (0..=cols).map(|c| s.has_edge(s.v_index(r, c))).collect())
            .collect();
        let owners: Vec<Vec<Option<usize>>> = (0..rows)
            .map(|r| (0..cols).map(|c| s.owner(r, c)).collect())
            .collect();
        return json!({"kind": "dots", "cols": cols, "rows": rows, "h": h, "v": v, "owners": owners});
    }
    json!({"kind": "text"})
}

/// Where move `action` of `state` is clicked (see the module doc).
pub fn target<S: State>(state: &S, action: Action) -> Value {
    let any = state as &dyn Any;
    if let Some(s) = any.downcast_ref::<Connect4State>() {
        if (action as usize) < s.columns() {
            return json!({"kind": "column", "col": action});
        }
    }
    if let Some(s) = any.downcast_ref::<DotsAndBoxesState>() {
        if (action as usize) < s.num_edges() {
            return match s.edge(action as usize) {
                Edge::H { row, col } => json!({"kind": "edge", "dir": "h", "row": row, "col": col}),
                Edge::V { row, col } => json!({"kind": "edge", "dir": "v", "row": row, "col": col}),
            };
        }
    }
    if let Some(s) = any.downcast_ref::<VirusState>() {
        let n = s.size();
        let a = action as usize;
        // Jumps are n² + 16·from + k (the game's documented action indices).
        if a >= n * n && a < 17 * n * n {
            if let Some((c, r)) = state.action_cell(action) {
                let from = (a - n * n) / 16;
                return json!({"kind": "jump", "from": [from % n, from / n], "to": [c, r]});
            }
        }
    }
    match state.action_cell(action) {
        Some((c, r))
            if any.is::<TicTacToeState>() || any.is::<ReversiState>() || any.is::<VirusState>() =>
        {
            json!({"kind": "cell", "col": c, "row": r})
        }
        _ => json!({"kind": "button"}),
    }
}
