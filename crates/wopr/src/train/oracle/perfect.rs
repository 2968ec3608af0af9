//! The `perfect` oracle: targets from the game's exact solver.

use crate::game::oracle::{Judge, OracleError, PerfectMoves};
use crate::game::rng::WoprRng;
use crate::game::solver::{SolveError, Solver};
use crate::game::{mover, Action, Game, State};

/// The thesis's targets: 1 for optimal moves, from the exact solver.
pub(super) struct PerfectJudge<G: Game> {
    pub(super) solver: Box<dyn Solver<G>>,
    pub(super) moves: PerfectMoves,
    pub(super) skip_unsolved: bool,
}

impl<G: Game> Judge<G> for PerfectJudge<G> {
    fn judge(
        &mut self,
        state: &G::State,
        legal: &[Action],
        _: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError> {
        let solution = match self.solver.solve(state) {
            Ok(s) => s,
            Err(SolveError::TooLarge(_)) if self.skip_unsolved => return Ok(false),
            Err(e) => {
                return Err(OracleError(format!(
                    "the solver failed on a position: {e} (perfect:unsolved=skip leaves such positions out)"
                )))
            }
        };
        out.fill(0.0);
        match self.moves {
            PerfectMoves::Best => {
                for &a in &solution.best {
                    out[a as usize] = 1.0;
                }
            }
            PerfectMoves::Value => {
                let me = mover(state).expect("a player to move");
                for &a in legal {
                    let mut child = state.clone();
                    child.apply(a);
                    let v = match mover(&child) {
                        // Not `f64::signum`, which is 1 for a draw's 0.0.
                        None => {
                            let r = child.returns(me);
                            i32::from(r > 0.0) - i32::from(r < 0.0)
                        }
                        Some(p) => {
                            let s = self.solver.solve(&child).map_err(|e| {
                                OracleError(format!("the solver failed on a position: {e}"))
                            })?;
                            if p == me {
                                s.value
                            } else {
                                -s.value
                            }
                        }
                    };
                    if v == solution.value {
                        out[a as usize] = 1.0;
                    }
                }
            }
        }
        Ok(true)
    }
}
