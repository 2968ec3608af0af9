//! OpenSpiel's `goofspiel` (open_spiel/games/goofspiel), with its default
//! parameters but `num_cards` (two players, a random prize order, public
//! bids, win/loss returns): the state as both hands, the prize cards turned
//! up and the points; actions `[P0]Bid: 3`, `Deal 5` and flat joint actions
//! `[[P0]Bid: 3, [P1]Bid: 1]`; every observer type through OpenSpiel's
//! `GoofspielObserver` (the prize up and those left, or the prize sequence
//! with perfect recall; each player's points and hand from the observer's
//! seat on; the winner of each round in the strings). Goofspiel's
//! `egocentric` observer parameter changes only imperfect-information
//! tensors, which wopr does not play, so it is checked and has no effect.
//! OpenSpiel plays the last round by itself and counts a game's length in
//! rounds.

use std::borrow::Cow;

use super::{Goofspiel, GoofspielState};
use crate::game::{Action, Game, State, Turn};
use crate::games::openspiel::{
    int, require, Declaration, ObsType, Observer, OpenSpielGame, Param, Params, Position, Sizes,
    Tensors, DEFAULT_OBS, INFO_STATE_OBS,
};

/// What OpenSpiel's Goofspiel state keeps, read from wopr's state and the
/// actions so far (the last round, which OpenSpiel plays by itself,
/// included).
struct Rounds {
    cards: usize,
    /// The prize cards turned up, in order (0 = the card worth 1).
    prizes: Vec<usize>,
    /// Each finished round's winner (OpenSpiel's `kInvalidPlayer`, -3, for
    /// a tie).
    winners: Vec<i64>,
    points: [u32; 2],
    hands: [u16; 2],
    /// OpenSpiel's `CurrentPointValue()`: the prize up for bids (the last
    /// one once the game is over), 0 between rounds.
    current: usize,
}

impl Rounds {
    fn of(at: &Position<'_, Goofspiel>) -> Rounds {
        let state: &GoofspielState = at.state;
        let (mut prizes, mut winners) = (Vec::new(), Vec::new());
        // Each round is a prize turned up, then both bids.
        for round in at.history.chunks(3) {
            prizes.push(usize::from(round[0]));
            if let [_, a, b] = *round {
                winners.push(match a.cmp(&b) {
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Less => 1,
                    std::cmp::Ordering::Equal => -3,
                });
            }
        }
        let current = match (state.turn(), state.prize()) {
            (Turn::Terminal, _) => prizes.last().map_or(0, |p| p + 1),
            (_, Some(v)) => v as usize,
            _ => 0,
        };
        Rounds {
            cards: at.game.cards(),
            prizes,
            winners,
            points: [state.points(0), state.points(1)],
            hands: [state.hand(0), state.hand(1)],
            current,
        }
    }

    fn holds(&self, seat: usize, card: usize) -> bool {
        self.hands[seat] >> card & 1 == 1
    }

    /// OpenSpiel's `MaxPointSlots()`: every points total from 0 to all.
    fn slots(&self) -> usize {
        self.cards * (self.cards + 1) / 2 + 1
    }

    fn hand_string(&self, seat: usize, out: &mut String) {
        out.push_str(&format!("P{seat} hand: "));
        for c in (0..self.cards).filter(|&c| self.holds(seat, c)) {
            out.push_str(&format!("{} ", c + 1));
        }
        out.push('\n');
    }

    fn prizes_string(&self, out: &mut String) {
        out.push_str("Point card sequence: ");
        for p in &self.prizes {
            out.push_str(&format!("{} ", p + 1));
        }
        out.push('\n');
    }

    fn points_string(&self, out: &mut String) {
        out.push_str(&format!("Points: {} {} \n", self.points[0], self.points[1]));
    }
}

/// OpenSpiel's `[P0]Bid: 3`.
fn bid(player: i64, action: Action) -> String {
    format!("[P{player}]Bid: {}", action + 1)
}

impl OpenSpielGame for Goofspiel {
    const OPENSPIEL: Declaration = Declaration {
        name: "goofspiel",
        long_name: "Goofspiel",
        bare_is_wopr: true,
        max_num_players: 10,
        params: &[
            ("egocentric", Param::Bool(false)),
            ("imp_info", Param::Bool(false)),
            ("num_cards", Param::Int(13)),
            ("num_turns", Param::Int(-1)),
            ("players", Param::Int(2)),
            ("points_order", Param::Str(Cow::Borrowed("random"))),
            ("returns_type", Param::Str(Cow::Borrowed("win_loss"))),
        ],
        perfect_information: true,
        information_state_string: true,
        information_state_tensor: true,
        factored_observation_string: true,
        single_tensor: true,
    };

    fn openspiel_spec(params: &Params) -> Result<String, String> {
        let name = Self::OPENSPIEL.name;
        require(name, params, "players", Param::Int(2))?;
        require(name, params, "egocentric", Param::Bool(false))?;
        require(name, params, "imp_info", Param::Bool(false))?;
        require(name, params, "num_turns", Param::Int(-1))?;
        let random = Param::Str(Cow::Borrowed("random"));
        require(name, params, "points_order", random)?;
        let win_loss = Param::Str(Cow::Borrowed("win_loss"));
        require(name, params, "returns_type", win_loss)?;
        Ok(format!("goofspiel:cards={}", int(params, "num_cards")?))
    }

    fn openspiel_sizes(&self, _params: &Params) -> Sizes {
        let n = self.num_actions();
        Sizes {
            num_distinct_actions: n,
            max_chance_outcomes: n,
            // One round a card: the game's length in rounds.
            max_game_length: n,
            chance_offset: 0,
            auto_last_round: true,
        }
    }

    fn state_string(at: &Position<'_, Self>) -> Result<String, String> {
        let r = Rounds::of(at);
        let mut out = String::new();
        r.hand_string(0, &mut out);
        r.hand_string(1, &mut out);
        r.prizes_string(&mut out);
        r.points_string(&mut out);
        Ok(out)
    }

    fn action_string(
        at: &Position<'_, Self>,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        let r = Rounds::of(at);
        if player == -2 {
            // A flat joint action: player 0's bid varies fastest, each
            // among its cards ascending.
            let mut rest = usize::from(action);
            let mut bids = Vec::new();
            for seat in 0..2 {
                let legal: Vec<usize> = (0..r.cards).filter(|&c| r.holds(seat, c)).collect();
                if legal.is_empty() {
                    return Err("a joint action names bids at a simultaneous node only".into());
                }
                bids.push(bid(seat as i64, legal[rest % legal.len()] as Action));
                rest /= legal.len();
            }
            return Ok(format!("[{}]", bids.join(", ")));
        }
        if usize::from(action) >= r.cards {
            return Err(format!("{action} is not a card (0..{})", r.cards));
        }
        Ok(match player {
            -1 => format!("Deal {}", action + 1),
            _ => bid(player, action),
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
        // OpenSpiel's Goofspiel reads `egocentric` and ignores the rest.
        match params.iter().find(|(k, _)| k == "egocentric") {
            None | Some((_, Param::Bool(_))) => Ok(Some(Observer::Own(ty.unwrap_or(DEFAULT_OBS)))),
            Some((_, v)) => Err(format!("egocentric={v} is not true or false")),
        }
    }

    fn own_tensor(
        at: &Position<'_, Self>,
        ty: ObsType,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        if !ty.public_info {
            // Only imperfect-information Goofspiel has private information.
            return Ok(());
        }
        let r = Rounds::of(at);
        let n = r.cards;
        if !ty.perfect_recall {
            let current = out.get("current_point_card", &[n]);
            if let Some(&p) = r.prizes.last() {
                current[p] = 1.0;
            }
            let remaining = out.get("remaining_point_cards", &[n]);
            for (c, v) in remaining.iter_mut().enumerate() {
                *v = f32::from(!r.prizes.contains(&c));
            }
        }
        // Each player's points and hand, from the observer's seat on.
        let seats = [player, 1 - player];
        let slots = r.slots();
        let totals = out.get("point_totals", &[2, slots]);
        for (k, &p) in seats.iter().enumerate() {
            totals[k * slots + r.points[p] as usize] = 1.0;
        }
        if ty.perfect_recall {
            let sequence = out.get("point_card_sequence", &[n, n]);
            for (round, &p) in r.prizes.iter().enumerate() {
                sequence[round * n + p] = 1.0;
            }
        }
        let hands = out.get("player_hands", &[2, n]);
        for (k, &p) in seats.iter().enumerate() {
            for c in 0..n {
                hands[k * n + c] = f32::from(r.holds(p, c));
            }
        }
        Ok(())
    }

    fn own_string(at: &Position<'_, Self>, ty: ObsType, _player: usize) -> Result<String, String> {
        let mut out = String::new();
        if !ty.public_info {
            return Ok(out);
        }
        let r = Rounds::of(at);
        if ty.perfect_recall {
            r.prizes_string(&mut out);
        } else {
            out.push_str(&format!("Current point card: {}\n", r.current));
            out.push_str("Remaining Point Cards: ");
            for c in (0..r.cards).filter(|c| !r.prizes.contains(c)) {
                out.push_str(&(c + 1).to_string());
            }
            out.push('\n');
        }
        r.hand_string(0, &mut out);
        r.hand_string(1, &mut out);
        out.push_str("Win sequence: ");
        for w in &r.winners {
            out.push_str(&format!("{w} "));
        }
        out.push('\n');
        r.points_string(&mut out);
        Ok(out)
    }
}
