//! The `perfect` player: plays an optimal move of the game's exact solver
//! ([`Solver`]), chosen at random among the optimal ones.

use std::marker::PhantomData;

use rand::RngExt;

use super::Roster;
use crate::game::rng::WoprRng;
use crate::game::solver::Solver;
use crate::game::{Action, Game, Player, SpecError, State, ViewOf};

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

    /// The same player whose solver gives up after `time` per move (then a
    /// random legal move is played, as out of the solver's reach). Solvers
    /// bounded by a position limit ignore it ([`Solver::set_time_limit`]).
    pub fn with_time_limit(mut self, time: Option<std::time::Duration>) -> Self {
        self.solver.set_time_limit(time);
        self
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

/// Builds the `perfect` player for games with a solver, its solver giving
/// up after `time` per move where it can.
pub fn perfect_player<G>(
    game: &G,
    time: Option<std::time::Duration>,
) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster,
    G::State: State<View = G::State>,
{
    match game.solver() {
        Some(s) => Ok(Box::new(PerfectPlayer::new(s).with_time_limit(time))),
        None => Err(SpecError(format!("{} has no exact solver", game.spec()))),
    }
}
