//! The `alphabeta:depth=D` oracle: a depth-limited search value, squashed.

use super::squash;
use crate::game::oracle::{Judge, OracleError};
use crate::game::rng::WoprRng;
use crate::game::{Action, Game, Searchable};
use crate::search::{AlphaBeta, Limits};

/// Transposition table size of the `alphabeta` oracle's searcher (2^16).
pub(super) const SEARCH_TT_BITS: u32 = 16;

/// A depth-limited alpha-beta value, squashed.
pub(super) struct SearchJudge {
    pub(super) search: AlphaBeta,
    pub(super) depth: u32,
    pub(super) scale: f32,
}

impl<G: Game<State: Searchable>> Judge<G> for SearchJudge {
    fn judge(
        &mut self,
        state: &G::State,
        _: &[Action],
        rng: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError> {
        // A fresh table per position: the value must not depend on which
        // positions this worker judged before.
        self.search.clear();
        let limits = Limits {
            depth: Some(self.depth),
            time: None,
        };
        let v = self.search.search(state, limits, rng).value;
        out[0] = squash(v, self.scale);
        Ok(true)
    }
}
