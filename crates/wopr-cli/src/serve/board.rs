//! The board as JSON for the page to draw, and where on it each legal move
//! is clicked: what each game says of itself ([`State::board`],
//! [`State::target`], `wopr::game::board`), so the server knows no game.
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

use serde_json::Value;
use wopr::{Action, State};

/// The board of `state` as JSON (see the module doc for the shapes).
pub fn board<S: State>(state: &S) -> Value {
    serde_json::to_value(state.board()).unwrap_or(Value::Null)
}

/// Where move `action` of `state` is clicked (see the module doc).
pub fn target<S: State>(state: &S, action: Action) -> Value {
    serde_json::to_value(state.target(action)).unwrap_or(Value::Null)
}
