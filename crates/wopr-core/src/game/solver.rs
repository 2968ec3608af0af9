//! Exact solvers behind one interface. Each game with a solver implements it
//! in its folder; the `perfect` player ((`players::perfect`)) is built
//! on it.
//!
//! A solver gives the game-theoretic value of a position for the player to
//! move, the final score margin under optimal play where the game keeps score,
//! and every optimal move. Where several moves share the value, solvers break
//! ties toward the fastest win or the slowest loss when they know the distance.

use super::{Action, Game};

/// The solved value of a position.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solution {
    /// +1 win, 0 draw, −1 loss for the player to move.
    pub value: i32,
    /// The final score margin for the player to move under optimal play,
    /// where the game keeps score.
    pub score: Option<i32>,
    /// Every optimal move, in increasing action order.
    pub best: Vec<Action>,
    /// Positions searched.
    pub nodes: u64,
}

/// Why a position could not be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The game is over; there is nothing to choose.
    #[error("the position is terminal")]
    Terminal,
    /// The position is beyond what this solver handles.
    #[error("{0}")]
    TooLarge(String),
}

/// An exact solver for game `G`.
pub trait Solver<G: Game>: Send {
    /// Solves `state` (a position with a single player to move).
    fn solve(&mut self, state: &G::State) -> Result<Solution, SolveError>;

    /// Gives up (with [`SolveError::TooLarge`]) on any solve that takes
    /// longer than `limit` of wall-clock time; `None` never gives up. Solvers
    /// that always finish fast (their reach is bounded by a position limit)
    /// ignore it, as this default does.
    fn set_time_limit(&mut self, limit: Option<std::time::Duration>) {
        let _ = limit;
    }

    /// Lets an endgame solver take positions of up to `empties` empty
    /// squares (its limit keeps a player's solves short; a user solving
    /// one position may wait longer); false where the solver has no such
    /// limit, as this default.
    fn widen(&mut self, empties: u32) -> bool {
        let _ = empties;
        false
    }

    /// Whether `state` is within this solver's reach: an endgame solver
    /// refuses positions with more empty squares than its limit
    /// ([`SolveError::TooLarge`]) and says so here without solving. The
    /// default reaches every position.
    fn reaches(&self, state: &G::State) -> bool {
        let _ = state;
        true
    }

    /// Whether [`Solver::move_scores`] gives scores (this default: no).
    fn scores_moves(&self) -> bool {
        false
    }

    /// Every legal move's exact score for the player to move, on a scale
    /// finer than the value where the solver has one (Connect-4: the
    /// distance-aware score, one unit a disc of the winner's), in
    /// increasing action order; `None` where the solver has no such scale
    /// (this default, and wherever [`Solver::scores_moves`] is false).
    /// Costs a solve per move.
    fn move_scores(&mut self, state: &G::State) -> Option<Result<Vec<(Action, i32)>, SolveError>> {
        let _ = state;
        None
    }
}
