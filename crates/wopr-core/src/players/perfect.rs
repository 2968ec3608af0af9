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
    /// What plays when the solver gives up (none: a random legal move).
    fallback: Option<Box<dyn Player<G>>>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game> PerfectPlayer<G> {
    /// A perfect player driven by `solver`.
    pub fn new(solver: Box<dyn Solver<G>>) -> Self {
        PerfectPlayer {
            solver,
            fallback: None,
            _game: PhantomData,
        }
    }

    /// The same player playing `fallback`'s move where the solver gives up.
    pub fn with_fallback(mut self, fallback: Box<dyn Player<G>>) -> Self {
        self.fallback = Some(fallback);
        self
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
            // Out of the solver's reach: the fallback's move, or any legal
            // move (documented per game).
            _ => match &mut self.fallback {
                Some(f) => f.choose(view, legal, rng),
                None => legal[rng.random_range(0..legal.len())],
            },
        }
    }

    fn new_game(&mut self) {
        if let Some(f) = &mut self.fallback {
            f.new_game();
        }
    }
}

/// Builds the `perfect` player for games with a solver. With a budget of
/// `time` per move, the solver gives up after three quarters of it where it
/// can, and the game's `alphabeta` player then searches for the last
/// quarter, so the move still comes within `time`.
pub fn perfect_player<G>(
    game: &G,
    time: Option<std::time::Duration>,
) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster,
    G::State: State<View = G::State>,
{
    match game.solver() {
        Some(s) => perfect_player_with(game, s, time),
        None => Err(SpecError(format!("{} has no exact solver", game.spec()))),
    }
}

/// [`perfect_player`] on a given solver (one a game configured, e.g. with
/// a book of solved positions).
pub fn perfect_player_with<G>(
    game: &G,
    solver: Box<dyn Solver<G>>,
    time: Option<std::time::Duration>,
) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster,
    G::State: State<View = G::State>,
{
    let Some(t) = time else {
        return Ok(Box::new(PerfectPlayer::new(solver)));
    };
    let player = PerfectPlayer::new(solver).with_time_limit(Some(t * 3 / 4));
    let search =
        super::PlayerSpec::kind::<super::alphabeta::AlphaBetaKind>(crate::search::Limits {
            depth: None,
            time: Some(t / 4),
        });
    Ok(match search.build(game) {
        Ok(f) => Box::new(player.with_fallback(f)),
        Err(_) => Box::new(player),
    })
}
