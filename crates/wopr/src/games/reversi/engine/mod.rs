//! **`engine:net=PATH[,ms=T][,depth=D][,empties=E]`**: Reversi's
//! alpha-beta engine over a learned pattern net (issue 44, part 4).
//!
//! - The evaluation is a linear net over Logistello's patterns
//!   (`logistello`, `logistello4`, `logistello12`; learned by `wopr td`),
//!   read incrementally along the search ([`eval`]).
//! - The midgame search is principal-variation search with iterative
//!   deepening and a transposition table, moves ordered by the table and
//!   the net ([`search`]).
//! - From `E` empty squares on (default [`DEFAULT_EMPTIES`]) the exact
//!   endgame solver ([`ReversiSolver`]) plays a move with the best final
//!   margin; with `ms=T` it gets three quarters of the budget, and if it is
//!   not done by then the midgame search plays with what is left.
//! - `ms=T` is the wall-clock budget of a move (iterative deepening stops
//!   when the next iteration would not fit, or at the budget, keeping the
//!   best move of the deepest iteration searched); `depth=D` caps the
//!   depth (1..=60). With neither the engine searches
//!   [`DEFAULT_DEPTH`] plies, and its moves then depend on the seed alone.
//!
//! A net file whose `player` line names this player (`engine:ms=1000`)
//! makes `net:FILE` this engine over the file.

pub mod bench;
pub mod eval;
pub mod search;

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::RngExt;

use super::solver::ReversiSolver;
use super::{Reversi, ReversiState};
use crate::game::rng::WoprRng;
use crate::game::solver::Solver;
use crate::game::{Action, GameSpec, Player, SpecError, ViewOf};
use eval::PatternEval;
use search::Search;

/// Plies searched when the spec gives neither `depth=` nor `ms=`.
pub const DEFAULT_DEPTH: u32 = 8;

/// The most plies a spec may ask for.
pub const MAX_DEPTH: u32 = 60;

/// Empty squares from which the endgame is solved, when the spec does not
/// say.
pub const DEFAULT_EMPTIES: u32 = 16;

/// The settings of an `engine` spec, read without opening the net.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSettings {
    /// The net file.
    pub net: String,
    /// The depth cap, if given.
    pub depth: Option<u32>,
    /// Empty squares from which the endgame is solved.
    pub empties: u32,
}

impl EngineSettings {
    /// Reads `engine:net=PATH[,depth=D][,empties=E][,ms=T]` (`ms` is read
    /// by the typed player spec); one line naming what is wrong.
    pub fn parse(game: &Reversi, spec: &GameSpec) -> Result<EngineSettings, SpecError> {
        spec.check_keys(&["net", "depth", "empties", "ms"])?;
        let net = spec.get("net").filter(|p| !p.is_empty()).ok_or_else(|| {
            SpecError(
                "engine needs its net: engine:net=PATH (a net over Logistello's patterns)".into(),
            )
        })?;
        let depth = match spec.get("depth") {
            None => None,
            Some(_) => Some(spec.int("depth", 0, 1, MAX_DEPTH as i64)? as u32),
        };
        let cells = (game.size() * game.size()) as i64;
        let empties = spec.int("empties", DEFAULT_EMPTIES as i64, 0, cells)? as u32;
        Ok(EngineSettings {
            net: net.to_string(),
            depth,
            empties,
        })
    }
}

/// The engine player (see the module docs).
pub struct EnginePlayer {
    settings: EngineSettings,
    time: Option<Duration>,
    search: Search,
    solver: ReversiSolver,
}

impl EnginePlayer {
    /// The engine over the net file `settings.net`, with `time` a move.
    pub fn new(
        game: &Reversi,
        settings: EngineSettings,
        time: Option<Duration>,
    ) -> Result<EnginePlayer, SpecError> {
        let file = crate::players::net::load_checked(game, &settings.net)?;
        let eval = PatternEval::new(game, &file)
            .map_err(|e| SpecError(format!("engine:net={}: {e}", settings.net)))?;
        let n = game.size();
        let mut solver = ReversiSolver::new(n, settings.empties.max(1));
        solver.set_time_limit(time.map(|t| t * 3 / 4));
        Ok(EnginePlayer {
            search: Search::new(Arc::new(eval)),
            solver,
            settings,
            time,
        })
    }

    /// The midgame search's choice (for tests and benchmarks).
    pub fn search(&mut self) -> &mut Search {
        &mut self.search
    }

    fn midgame(
        &mut self,
        state: &ReversiState,
        budget: Option<Duration>,
        rng: &mut WoprRng,
    ) -> Action {
        let depth = match (self.settings.depth, budget) {
            (Some(d), _) => d,
            (None, Some(_)) => MAX_DEPTH,
            (None, None) => DEFAULT_DEPTH,
        };
        let deadline = budget.map(|b| Instant::now() + b);
        self.search.run(state, depth, deadline, rng).square as Action
    }
}

impl Player<Reversi> for EnginePlayer {
    fn spec(&self) -> String {
        let mut s = format!("engine:net={}", self.settings.net);
        if let Some(d) = self.settings.depth {
            s += &format!(",depth={d}");
        }
        s += &format!(",empties={}", self.settings.empties);
        if let Some(t) = self.time {
            s += &format!(",ms={}", t.as_millis());
        }
        s
    }

    fn choose(&mut self, view: &ViewOf<Reversi>, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let start = Instant::now();
        if view.empties() <= self.settings.empties {
            if let Ok(sol) = self.solver.solve(view) {
                return sol.best[rng.random_range(0..sol.best.len())];
            }
        }
        let left = self.time.map(|t| {
            t.saturating_sub(start.elapsed())
                .max(Duration::from_millis(1))
        });
        self.midgame(view, left, rng)
    }

    fn new_game(&mut self) {
        self.search.clear();
    }
}

#[cfg(test)]
mod tests;
