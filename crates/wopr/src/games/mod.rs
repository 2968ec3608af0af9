//! The games, one module each. Every module's header states the rules as
//! implemented, the parameters and their defaults, the notation, the action
//! indices, and which paper uses the game.

pub mod bitboard;
pub mod connect4;
pub mod connect4_solver;
pub mod dots_and_boxes;
pub mod dots_and_boxes_players;
pub mod dots_and_boxes_solver;
pub mod goofspiel;
pub mod kuhn;
pub mod pig;
pub mod reversi;
pub mod reversi_players;
pub mod tictactoe;
pub mod virus;
pub mod virus_players;
