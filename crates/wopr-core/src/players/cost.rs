//! What a player may cost per move ([`Cost`]), read from its typed spec
//! by a server before it builds anything, and the book files an exact
//! player may read and grow ([`BookFiles`]).

use std::fmt;
use std::time::Duration;

/// What a player may cost per move, read from its typed spec.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cost {
    /// Search plies (alpha-beta depth, a net's `ply`, a game player's depth).
    pub depth: Option<u32>,
    /// MCTS iterations.
    pub sims: Option<u32>,
    /// Wall-clock budget.
    pub time: Option<Duration>,
    /// Empty squares from which an endgame is solved.
    pub empties: Option<u32>,
    /// Net files read (the player's own, an MCTS rollout's).
    pub nets: Vec<String>,
    /// The book files read and grown (Connect-4's `perfect:book=FILE`,
    /// `learn=OUT`).
    pub book: Option<BookFiles>,
    /// A program started as a child process (`gtp:COMMAND`).
    pub process: Option<String>,
}

/// The files of a book of solved positions (Connect-4's `perfect`): the
/// one named by `book=`, read only (it must exist, and it is never
/// written: measuring with a shipped book leaves it as it was), and the
/// one named by `learn=`, read where it exists and grown with every long
/// search. Positions solved with no `learn=` file are kept in memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookFiles {
    /// `book=FILE`: read, never written.
    pub read: Option<String>,
    /// `learn=OUT`: read where it exists, and appended to.
    pub learn: Option<String>,
}

impl fmt::Display for BookFiles {
    /// `book=FILE,learn=OUT`, each part where it is set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = (self.read.iter().map(|b| format!("book={b}")))
            .chain(self.learn.iter().map(|l| format!("learn={l}")))
            .collect();
        f.write_str(&parts.join(","))
    }
}
