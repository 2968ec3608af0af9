//! The players Connect-4 offers: the board players every board game gets
//! (`alphabeta`, `net:`, `perfect` on the exact solver of [`super::solver`]),
//! `perfect` also with a book of solved positions (`perfect:book=FILE`,
//! [`super::book`]).

use std::path::Path;

use super::book::Book;
use super::solver::Connect4Solver;
use super::Connect4;
use crate::game::solver::Solver;
use crate::game::{GameSpec, Player, SpecError};
use crate::players::{board_build, board_parse, ms_arg, perfect_player_with, PlayerSpec, Roster};

impl Roster for Connect4 {
    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        if spec.name == "perfect" {
            spec.check_keys(&["book", "ms"])?;
            let book =
                match spec.get("book") {
                    Some("") => return Err(SpecError(
                        "perfect: book= needs a file (a book of solved positions, made if missing)"
                            .into(),
                    )),
                    b => b.map(str::to_string),
                };
            return Ok(Some(PlayerSpec::Perfect {
                empties: None,
                book,
                time: ms_arg(spec)?,
            }));
        }
        board_parse(self, spec)
    }
    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Self>>, SpecError> {
        match spec {
            PlayerSpec::Perfect {
                book: Some(path),
                time,
                ..
            } => perfect_player_with(self, self.book_solver(path)?, *time),
            _ => board_build(self, spec),
        }
    }
    fn bot_names(&self) -> &'static [&'static str] {
        &[
            "alphabeta[:depth=D][,ms=T]",
            "mcts[:sims=N][,c=C][,ms=T][,rollout=random|net:FILE]",
            "net:PATH[,mode=M][,ply=N][,temp=T][,ms=T]",
            "perfect[:book=FILE][,ms=T]",
        ]
    }
    fn solver(&self) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(Connect4Solver::new(self)))
    }
    fn book_solver(&self, path: &str) -> Result<Box<dyn Solver<Self>>, SpecError> {
        let book = Book::open(Path::new(path), self.columns(), self.rows()).map_err(SpecError)?;
        Ok(Box::new(Connect4Solver::new(self).with_book(book)))
    }
}
