//! The games, one folder each. A folder's `mod.rs` states the rules as
//! implemented, the parameters and their defaults, the notation, the action
//! indices and which paper uses the game; beside it, the board games keep
//! their encodings for nets (`encode.rs`), their players and roster
//! (`players.rs`) and their exact solver (`solver.rs`).

pub mod bitboard;
pub mod breakthrough;
pub mod connect4;
pub mod dots_and_boxes;
pub use wopr_gdl as gdl;
pub mod goofspiel;
pub mod kuhn;
pub mod pig;
pub mod reversi;
pub mod tictactoe;
pub mod virus;
