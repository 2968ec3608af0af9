//! OpenSpiel's `breakthrough` (open_spiel/games/breakthrough): wopr's game
//! numbers its actions and writes its board as OpenSpiel does, so this view
//! only hands over the library's own OpenSpiel functions
//! (`wopr::games::breakthrough::openspiel`): `str(state)` and the
//! observation string are the board, the observation tensor `[3, rows,
//! columns]` (Black's pawns, White's, the empty squares).

use wopr::game::{Action, State};
use wopr::games::breakthrough::openspiel::{observation_shape, observation_tensor};
use wopr::games::breakthrough::{Breakthrough, BreakthroughState};

use super::{parts, OpenSpielView, Provides, Tensors};
use crate::erased::DynState;

/// OpenSpiel's view of wopr's Breakthrough.
pub struct View;

fn board(s: &dyn DynState) -> Result<&BreakthroughState, String> {
    Ok(parts::<Breakthrough>(s)?.1)
}

impl OpenSpielView for View {
    fn short_name(&self) -> &'static str {
        "breakthrough"
    }

    fn provides(&self) -> Provides {
        Provides {
            perfect_information: true,
            info_string: false,
            info_tensor: false,
            single_tensor: true,
        }
    }

    fn state_string(&self, s: &dyn DynState) -> Result<String, String> {
        Ok(board(s)?.to_string())
    }

    fn action_to_string(
        &self,
        s: &dyn DynState,
        _player: i64,
        action: Action,
    ) -> Result<String, String> {
        Ok(board(s)?.action_to_string(action))
    }

    fn information_state_string(
        &self,
        _s: &dyn DynState,
        _player: usize,
    ) -> Result<String, String> {
        Err("breakthrough has no information-state string (as in OpenSpiel; observation_string has the board)".into())
    }

    fn observation_tensor(
        &self,
        s: &dyn DynState,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let b = board(s)?;
        let shape = observation_shape(b.columns(), b.rows());
        let t = out.get("observation", &shape);
        t.copy_from_slice(&observation_tensor(b, player));
        Ok(())
    }
}
