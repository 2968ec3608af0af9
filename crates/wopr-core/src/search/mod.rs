//! Game-tree search over the core traits: alpha-beta with iterative deepening
//! and a transposition table.

pub mod alphabeta;
pub mod tt;

pub use alphabeta::{AlphaBeta, Evaluator, Heuristic, Limits, SearchResult};
