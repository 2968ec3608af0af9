//! The games, one folder each. A folder's `mod.rs` states the rules as
//! implemented, the parameters and their defaults, the notation, the action
//! indices and which paper uses the game; beside it, the board games keep
//! their encodings for nets (`encode.rs`), their players and roster
//! (`players.rs`) and their exact solver (`solver.rs`); the games OpenSpiel also has declare
//! themselves as OpenSpiel's game in `openspiel.rs` ([`openspiel`]).

pub mod bitboard;
pub mod breakthrough;
pub mod connect4;
pub mod dots_and_boxes;
pub use wopr_gdl as gdl;
pub mod goofspiel;
pub mod kuhn;
pub mod openspiel;
mod openspiel_types;
pub mod pig;
pub mod reversi;
pub mod tictactoe;
pub mod virus;
