//! The `level1` oracle (Dots-and-Boxes): Weaver's level-1 targets, the
//! boxes each move completes.

use super::{Judge, OracleError};
use crate::game::rng::WoprRng;
use crate::game::Action;
use crate::games::dots_and_boxes::{DotsAndBoxes, DotsAndBoxesState};

/// Weaver's level-1 targets: boxes completed per move.
pub(super) struct Level1Judge {
    pub(super) drop_quiet: bool,
}

impl Judge<DotsAndBoxes> for Level1Judge {
    fn judge(
        &mut self,
        state: &DotsAndBoxesState,
        legal: &[Action],
        _: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError> {
        out.fill(0.0);
        let mut any = false;
        for &a in legal {
            let c = state.completed_by(a as usize);
            out[a as usize] = c as f32;
            any |= c > 0;
        }
        Ok(any || !self.drop_quiet)
    }
}
