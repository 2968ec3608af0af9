//! The `ai:K` oracle (Virus): one of the twenty hand-crafted AIs' static
//! evaluation, squashed.

use super::{Judge, OracleError};
use crate::game::rng::WoprRng;
use crate::game::{mover, Action};
use crate::games::virus::players as virus_players;
use crate::games::virus::{Virus, VirusState};

/// Naveed & Cowling's targets: a hand-crafted player's evaluation.
pub(super) struct AiJudge {
    pub(super) k: usize,
    pub(super) scale: f32,
}

impl Judge<Virus> for AiJudge {
    fn judge(
        &mut self,
        state: &VirusState,
        _: &[Action],
        _: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError> {
        let me = mover(state).expect("a player to move");
        out[0] = (virus_players::ai_evaluation(self.k, state, me) / self.scale).tanh();
        Ok(true)
    }
}
