//! OpenSpiel's `kuhn_poker` (open_spiel/games/kuhn_poker), two players: the
//! state as the cards dealt and the betting (`2 0 pb`); actions `Pass`,
//! `Bet` and `Deal:2`; every observer type through OpenSpiel's
//! `KuhnObserver` (the player and its card where private information is
//! asked for, then the betting sequence with perfect recall or each
//! player's chips in the pot without), the `single_tensor` observer through
//! the built-in ones. OpenSpiel counts two distinct actions and three chance
//! outcomes (wopr's numbering has one action space for both).

use super::{Card, KuhnPoker, BET};
use crate::game::Action;
use crate::games::openspiel::{
    registered_observer, require, Declaration, ObsType, Observer, OpenSpielGame, Param, Params,
    Position, PrivateInfo, Sizes, Tensors, DEFAULT_OBS, INFO_STATE_OBS,
};

/// OpenSpiel's history of a Kuhn poker state: the cards dealt (player 0's
/// first), then the betting.
struct Deal {
    cards: Vec<u8>,
    betting: Vec<Action>,
}

impl Deal {
    fn of(at: &Position<'_, KuhnPoker>) -> Deal {
        Deal {
            cards: (0..2)
                .map_while(|seat| at.state.card(seat).map(|Card(c)| c))
                .collect(),
            betting: at.state.betting().actions().collect(),
        }
    }

    /// The length of OpenSpiel's history.
    fn len(&self) -> usize {
        self.cards.len() + self.betting.len()
    }

    /// The chips `seat` has put in: the ante and its bets.
    fn ante(&self, seat: usize) -> u32 {
        let bets = self.betting.iter().enumerate();
        1 + bets.filter(|&(i, &a)| i % 2 == seat && a == BET).count() as u32
    }
}

fn pass_or_bet(a: Action, pass: &'static str, bet: &'static str) -> &'static str {
    if a == BET {
        bet
    } else {
        pass
    }
}

impl OpenSpielGame for KuhnPoker {
    const OPENSPIEL: Declaration = Declaration {
        name: "kuhn_poker",
        long_name: "Kuhn Poker",
        bare_is_wopr: false,
        max_num_players: 10,
        params: &[("players", Param::Int(2))],
        perfect_information: false,
        information_state_string: true,
        information_state_tensor: true,
        factored_observation_string: true,
        single_tensor: true,
    };

    fn openspiel_spec(params: &Params) -> Result<String, String> {
        require("kuhn_poker", params, "players", Param::Int(2))?;
        Ok("kuhn".into())
    }

    fn openspiel_sizes(&self, _params: &Params) -> Sizes {
        // OpenSpiel counts the players' moves only: pass and bet, at most
        // three of them; the deal is three cards.
        Sizes {
            num_distinct_actions: 2,
            max_chance_outcomes: 3,
            max_game_length: 3,
            chance_offset: 0,
            auto_last_round: false,
        }
    }

    fn state_string(at: &Position<'_, Self>) -> Result<String, String> {
        let d = Deal::of(at);
        let cards: Vec<String> = d.cards.iter().map(u8::to_string).collect();
        let mut out = cards.join(" ");
        if !d.betting.is_empty() {
            out.push(' ');
            out.extend(d.betting.iter().map(|&a| pass_or_bet(a, "p", "b")));
        }
        Ok(out)
    }

    fn action_string(
        _at: &Position<'_, Self>,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        Ok(match player {
            -1 => format!("Deal:{action}"),
            _ => pass_or_bet(action, "Pass", "Bet").to_string(),
        })
    }

    fn observation_tensor(
        at: &Position<'_, Self>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        Self::own_tensor(at, DEFAULT_OBS, player, out)
    }

    fn observation_string(at: &Position<'_, Self>, player: usize) -> Result<String, String> {
        Self::own_string(at, DEFAULT_OBS, player)
    }

    fn information_state_tensor(
        at: &Position<'_, Self>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        Self::own_tensor(at, INFO_STATE_OBS, player, out)
    }

    fn information_state_string(at: &Position<'_, Self>, player: usize) -> Result<String, String> {
        Self::own_string(at, INFO_STATE_OBS, player)
    }

    fn make_observer(ty: Option<ObsType>, params: &Params) -> Result<Option<Observer>, String> {
        if params.is_empty() {
            return Ok(Some(Observer::Own(ty.unwrap_or(DEFAULT_OBS))));
        }
        registered_observer(&Self::OPENSPIEL, ty, params)
    }

    fn own_tensor(
        at: &Position<'_, Self>,
        ty: ObsType,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let d = Deal::of(at);
        if ty.private_info == PrivateInfo::SinglePlayer {
            out.get("player", &[2])[player] = 1.0;
            let card = out.get("private_card", &[3]);
            if let Some(&c) = d.cards.get(player) {
                card[usize::from(c)] = 1.0;
            }
        }
        if ty.public_info {
            if ty.perfect_recall {
                let betting = out.get("betting", &[3, 2]);
                for (i, &a) in d.betting.iter().enumerate() {
                    betting[2 * i + usize::from(a)] = 1.0;
                }
            } else {
                let pot = out.get("pot_contribution", &[2]);
                for (seat, v) in pot.iter_mut().enumerate() {
                    *v = d.ante(seat) as f32;
                }
            }
        }
        Ok(())
    }

    fn own_string(at: &Position<'_, Self>, ty: ObsType, player: usize) -> Result<String, String> {
        let d = Deal::of(at);
        let mut out = String::new();
        if ty.private_info == PrivateInfo::SinglePlayer {
            match d.cards.get(player) {
                Some(c) if ty.perfect_recall || ty.public_info => out.push_str(&c.to_string()),
                Some(c) if d.len() == player + 1 => out.push_str(&format!("Received card {c}")),
                _ => {}
            }
        }
        if ty.public_info {
            if ty.perfect_recall {
                out.extend(d.betting.iter().map(|&a| pass_or_bet(a, "p", "b")));
            } else if ty.private_info == PrivateInfo::None {
                if d.len() == 0 {
                    out.push_str("start game");
                } else if let Some(&a) = d.betting.last() {
                    out.push_str(pass_or_bet(a, "Pass", "Bet"));
                }
            } else if d.len() > player {
                out.push_str(&format!("{}{}", d.ante(0), d.ante(1)));
            }
        }
        if ty.public_info && ty.private_info == PrivateInfo::None && (1..=2).contains(&d.len()) {
            out.push_str(&format!("Deal to player {}", d.len() - 1));
        }
        Ok(out)
    }
}
