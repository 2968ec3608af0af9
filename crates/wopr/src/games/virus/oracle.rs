//! What Virus adds to the oracles: its `alphabeta` value scale and the
//! `ai:K` oracle, Naveed & Cowling's pre-training targets: one of the
//! twenty hand-crafted players' static evaluation, squashed.

use super::players::{ai_evaluation, NUM_AI};
use super::{Virus, VirusState};
use crate::game::oracle::{Judge, Oracle, OracleError, Oracles, AI_PLAYERS, AI_SPEC};
use crate::game::rng::WoprRng;
use crate::game::{mover, Action};

// `ai:K` oracle specs are read before the game is known: they must name
// exactly the players this game has.
const _: () = assert!(AI_PLAYERS == NUM_AI);

impl Oracles for Virus {
    /// 10 per piece of margin plus grow moves: five pieces ahead is tanh(1).
    fn value_scale(&self) -> f32 {
        50.0
    }

    fn own_judge(&self, oracle: &Oracle) -> Option<Box<dyn Judge<Self>>> {
        match *oracle {
            Oracle::Ai { k, scale } => Some(Box::new(AiJudge { k, scale })),
            _ => None,
        }
    }

    fn oracle_names(&self, generic: &[&'static str]) -> Vec<&'static str> {
        [&[AI_SPEC], generic].concat()
    }
}

/// Naveed & Cowling's targets: hand-crafted player `ai:k`'s evaluation for
/// the player to move, `tanh(e / scale)`.
struct AiJudge {
    /// The player, 1..=20.
    k: usize,
    /// Evaluation units per tanh unit.
    scale: f32,
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
        out[0] = (ai_evaluation(self.k, state, me) / self.scale).tanh();
        Ok(true)
    }
}
