//! The players Tic-Tac-Toe offers: the board players every board game gets
//! (`alphabeta`, `net:`, `perfect` on the exact solver of [`super::solver`]).

use super::solver::TicTacToeSolver;
use super::TicTacToe;
use crate::game::solver::Solver;
use crate::game::{GameSpec, Player, SpecError};
use crate::players::{board_player, Roster};

impl Roster for TicTacToe {
    fn bot(&self, spec: &GameSpec) -> Result<Option<Box<dyn Player<Self>>>, SpecError> {
        board_player(self, spec)
    }
    fn bot_names(&self) -> &'static [&'static str] {
        &[
            "alphabeta[:depth=D][,ms=T]",
            "mcts[:sims=N][,c=C][,rollout=random|net:FILE]",
            "net:PATH[,mode=M][,ply=N][,temp=T]",
            "perfect",
        ]
    }
    fn solver(&self) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(TicTacToeSolver))
    }
}
