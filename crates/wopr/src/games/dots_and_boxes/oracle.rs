//! What Dots-and-Boxes adds to the oracles: its `alphabeta` value scale
//! and the `level1` oracle, Weaver & Bossomaier's level-1 targets (§3.7):
//! the boxes each move completes.

use super::{DotsAndBoxes, DotsAndBoxesState};
use crate::game::oracle::{Judge, Oracle, OracleError, Oracles, LEVEL1_SPEC};
use crate::game::rng::WoprRng;
use crate::game::Action;

impl Oracles for DotsAndBoxes {
    /// 100 per box, 75 per three-sided box: three boxes ahead is tanh(1).
    fn value_scale(&self) -> f32 {
        300.0
    }

    fn own_judge(&self, oracle: &Oracle) -> Option<Box<dyn Judge<Self>>> {
        match *oracle {
            Oracle::Level1 { drop_quiet } => Some(Box::new(Level1Judge { drop_quiet })),
            _ => None,
        }
    }

    fn oracle_names(&self, generic: &[&'static str]) -> Vec<&'static str> {
        [&[LEVEL1_SPEC], generic].concat()
    }
}

/// Weaver's level-1 targets: boxes completed per move (0, 1 or 2).
struct Level1Judge {
    /// Leave out positions where no move completes a box.
    drop_quiet: bool,
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
