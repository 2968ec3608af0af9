//! The players Tic-Tac-Toe offers: the board players every board game gets
//! (`alphabeta`, `net:`, `perfect` on the exact solver of [`super::solver`]).

use super::solver::TicTacToeSolver;
use super::TicTacToe;
use crate::game::solver::Solver;
use crate::game::{GameSpec, Player, SpecError};
use crate::players::{board_build, board_parse, PlayerSpec, Roster};

impl Roster for TicTacToe {
    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        board_parse(self, spec)
    }
    /// Squares `a1`… (`a1` top left) and `pass` are GTP vertices.
    fn gtp_board(&self) -> Option<usize> {
        Some(3)
    }

    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Self>>, SpecError> {
        board_build(self, spec)
    }
    fn bot_names(&self) -> &'static [&'static str] {
        &["perfect[:ms=T]"]
    }
    fn solver(&self) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(TicTacToeSolver))
    }
}
