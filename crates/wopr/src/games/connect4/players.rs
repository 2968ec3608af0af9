//! The players Connect-4 offers: the board players every board game gets
//! (`alphabeta`, `net:`, `perfect` on the exact solver of [`super::solver`]),
//! `perfect` also with a book of solved positions ([`super::book`]):
//! `perfect:book=FILE` reads FILE first and never writes it (what it solves
//! stays in memory), `perfect:learn=OUT` reads OUT where it exists and
//! appends every long search to it, and both together read both and grow
//! OUT only.

use std::path::Path;

use super::book::Book;
use super::solver::Connect4Solver;
use super::Connect4;
use crate::game::solver::Solver;
use crate::game::{GameSpec, Player, SpecError};
use crate::players::{
    board_build, board_parse, ms_arg, perfect_player_with, BookFiles, PlayerSpec, Roster,
};

impl Roster for Connect4 {
    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        if spec.name == "perfect" {
            spec.check_keys(&["book", "learn", "ms"])?;
            let file = |key: &str, what: &str| match spec.get(key) {
                Some("") => Err(SpecError(format!("perfect: {key}= needs a file ({what})"))),
                f => Ok(f.map(str::to_string)),
            };
            let files = BookFiles {
                read: file("book", "a book of solved positions, read only")?,
                learn: file("learn", "the book to grow, made if missing")?,
            };
            return Ok(Some(PlayerSpec::Perfect {
                empties: None,
                book: (files != BookFiles::default()).then_some(files),
                time: ms_arg(spec)?,
            }));
        }
        board_parse(self, spec)
    }
    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Self>>, SpecError> {
        match spec {
            PlayerSpec::Perfect {
                book: Some(files),
                time,
                ..
            } => perfect_player_with(self, self.book_solver(files)?, *time),
            _ => board_build(self, spec),
        }
    }
    fn bot_names(&self) -> &'static [&'static str] {
        &["perfect[:book=FILE][,learn=OUT][,ms=T]"]
    }
    /// 0.5 (rewards in [0, 1]), chosen on Connect-4 7x6 by a tournament
    /// at 1,000 simulations on selection seed 11 (`docs/results/mcts.md`);
    /// every board size takes it.
    fn mcts_c(&self) -> f64 {
        0.5
    }
    fn solver(&self) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(Connect4Solver::new(self)))
    }
    fn book_solver(&self, files: &BookFiles) -> Result<Box<dyn Solver<Self>>, SpecError> {
        let book = Book::open_files(
            files.read.as_deref().map(Path::new),
            files.learn.as_deref().map(Path::new),
            self.columns(),
            self.rows(),
        )
        .map_err(SpecError)?;
        Ok(Box::new(Connect4Solver::new(self).with_book(book)))
    }
}
