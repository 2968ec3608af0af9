//! OpenSpiel's `pig` (open_spiel/games/pig), two players, six-sided die,
//! played by wopr's `pig` with `rules=openspiel`: the state as `Scores:
//! 0 12, Turn total: 5` and the player whose turn it is (`(rolling)` while
//! the die rolls); actions `roll`, `stop` and `Roll 3` (chance outcome 2:
//! OpenSpiel numbers the die's faces 0..6 where wopr's are 2..8); the
//! observation tensor `[3, winscore + 1]`, one-hot rows for the turn total
//! and each player's score (capped at the winning score). OpenSpiel's Pig
//! has no information-state string.

use super::{Pig, ROLL};
use crate::game::Action;
use crate::games::openspiel::{
    int, require, Declaration, OpenSpielGame, Param, Params, Position, Sizes, Tensors,
};

impl OpenSpielGame for Pig {
    const OPENSPIEL: Declaration = Declaration {
        name: "pig",
        long_name: "Pig",
        bare_is_wopr: true,
        max_num_players: 10,
        params: &[
            ("diceoutcomes", Param::Int(6)),
            ("horizon", Param::Int(1000)),
            ("piglet", Param::Bool(false)),
            ("players", Param::Int(2)),
            ("winscore", Param::Int(100)),
        ],
        perfect_information: true,
        information_state_string: false,
        information_state_tensor: false,
        factored_observation_string: false,
        single_tensor: true,
    };

    fn openspiel_spec(params: &Params) -> Result<String, String> {
        require("pig", params, "players", Param::Int(2))?;
        require("pig", params, "diceoutcomes", Param::Int(6))?;
        require("pig", params, "piglet", Param::Bool(false))?;
        Ok(format!(
            "pig:target={},horizon={},rules=openspiel",
            int(params, "winscore")?,
            int(params, "horizon")?
        ))
    }

    fn openspiel_sizes(&self, _params: &Params) -> Sizes {
        // Roll and hold; the die's six faces as outcomes 0..6.
        Sizes {
            num_distinct_actions: 2,
            max_chance_outcomes: 6,
            max_game_length: self.horizon() as usize,
            chance_offset: 2,
            auto_last_round: false,
        }
    }

    fn state_string(at: &Position<'_, Self>) -> Result<String, String> {
        let s = at.state;
        // The die rolls after a roll (also when the roll ended the game at
        // the horizon).
        let rolling = at.history.last() == Some(&ROLL);
        Ok(format!(
            "Scores: {} {}, Turn total: {}\nCurrent player: {}{}\n",
            s.banked(0),
            s.banked(1),
            s.turn_total(),
            s.to_move(),
            if rolling { " (rolling)" } else { "" }
        ))
    }

    fn action_string(
        _at: &Position<'_, Self>,
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
        at: &Position<'_, Self>,
        _player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let bins = at.game.target() as usize + 1;
        let t = out.get("observation", &[3, bins]);
        let bin = |v: u32| (v as usize).min(bins - 1);
        t[bin(at.state.turn_total())] = 1.0;
        for seat in 0..2 {
            t[(1 + seat) * bins + bin(at.state.banked(seat))] = 1.0;
        }
        Ok(())
    }

    fn information_state_string(
        _at: &Position<'_, Self>,
        _player: usize,
    ) -> Result<String, String> {
        Err("pig has no information-state string (as in OpenSpiel; observation_string has the state)".into())
    }
}
