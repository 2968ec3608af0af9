//! OpenSpiel's `pig` (open_spiel/games/pig), two players, six-sided die:
//! the state as `Scores: 0 12, Turn total: 5` and the player whose turn it
//! is (`(rolling)` while the die rolls); actions `roll`, `stop` and
//! `Roll 3` (chance outcome 2); the observation tensor `[3, winscore + 1]`,
//! one-hot rows for the turn total and each player's score (capped at the
//! winning score). OpenSpiel's Pig has no information-state string.

use wopr::game::Action;
use wopr::games::pig::{Pig, PigState, ROLL};

use super::{parts, OpenSpielView, Provides, Tensors};
use crate::erased::DynState;

/// OpenSpiel's view of wopr's Pig by OpenSpiel's rules.
pub struct View;

/// The state, the winning score and whether the die is rolling (the last
/// action a roll: also when the roll ended the game at the horizon).
fn read(s: &dyn DynState) -> Result<(PigState, usize, bool), String> {
    let (game, state, history) = parts::<Pig>(s)?;
    Ok((
        *state,
        game.target() as usize,
        history.last() == Some(&ROLL),
    ))
}

impl OpenSpielView for View {
    fn short_name(&self) -> &'static str {
        "pig"
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
        let (state, _, rolling) = read(s)?;
        Ok(format!(
            "Scores: {} {}, Turn total: {}\nCurrent player: {}{}\n",
            state.banked(0),
            state.banked(1),
            state.turn_total(),
            state.to_move(),
            if rolling { " (rolling)" } else { "" }
        ))
    }

    fn action_to_string(
        &self,
        _s: &dyn DynState,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        Ok(match (player, action) {
            (-1, face) => format!("Roll {}", face + 1),
            (_, 0) => "roll".into(),
            _ => "stop".into(),
        })
    }

    fn observation_tensor(
        &self,
        s: &dyn DynState,
        _player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let (state, target, _) = read(s)?;
        let bins = target + 1;
        let t = out.get("observation", &[3, bins]);
        let bin = |v: u32| (v as usize).min(bins - 1);
        t[bin(state.turn_total())] = 1.0;
        for seat in 0..2 {
            t[(1 + seat) * bins + bin(state.banked(seat))] = 1.0;
        }
        Ok(())
    }

    fn information_state_string(
        &self,
        _s: &dyn DynState,
        _player: usize,
    ) -> Result<String, String> {
        Err("pig has no information-state string (as in OpenSpiel; observation_string has the state)".into())
    }
}
