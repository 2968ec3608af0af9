//! Exact solvers behind one interface, and the `perfect` player built on them.
//!
//! A solver gives the game-theoretic value of a position for the player to
//! move, the final score margin under optimal play where the game keeps score,
//! and every optimal move. Where several moves share the value, solvers break
//! ties toward the fastest win or the slowest loss when they know the distance.

use std::marker::PhantomData;

use rand::RngExt;

use crate::game::rng::WoprRng;
use crate::game::{Action, Game, SpecError, State};
use crate::players::{Player, ViewOf};

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
}

/// Plays a random move among the solver's optimal ones: never worse than the
/// game-theoretic value, winning fastest and losing slowest where the solver
/// knows distances. Spec: `perfect`.
pub struct PerfectPlayer<G: Game> {
    solver: Box<dyn Solver<G>>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> PerfectPlayer<G> {
    /// A perfect player driven by `solver`.
    pub fn new(solver: Box<dyn Solver<G>>) -> Self {
        PerfectPlayer {
            solver,
            _game: PhantomData,
        }
    }
}

impl<G> Player<G> for PerfectPlayer<G>
where
    G: Game,
    G::State: State<View = G::State>,
{
    fn spec(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], rng: &mut WoprRng) -> Action {
        match self.solver.solve(view) {
            Ok(sol) if !sol.best.is_empty() => sol.best[rng.random_range(0..sol.best.len())],
            // Out of the solver's reach: any legal move (documented per game).
            _ => legal[rng.random_range(0..legal.len())],
        }
    }
}

/// Builds the `perfect` player for games with a solver.
pub fn perfect_player<G>(game: &G) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Game,
    G::State: State<View = G::State>,
{
    match game.solver() {
        Some(s) => Ok(Box::new(PerfectPlayer::new(s))),
        None => Err(SpecError(format!("{} has no exact solver", game.spec()))),
    }
}
