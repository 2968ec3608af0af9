//! Goofspiel: the framework's example of simultaneous moves (and chance).
//!
//! **Rules as implemented.** Each player holds the cards 1..=N; a prize deck
//! also holds 1..=N. Each round chance turns up one prize card, uniformly among
//! those not yet shown; then both players bid one of their own cards at the
//! same moment ([`Turn::Simultaneous`]). The higher bid wins the prize's value
//! in points; equal bids discard the prize. Bid cards are gone for good. After
//! N rounds more points wins (+1, −1), equal points draw (0).
//! [`score`](State::score) is own points minus the opponent's. The view is the
//! whole state: bids are made together, so nothing is pending when a player
//! chooses.
//!
//! **Parameters.** `goofspiel[:cards=N]`: N 1..=13, default 5. The canonical
//! spec names it: `goofspiel:cards=5`.
//!
//! **Notation.** A bid is the card's value, `1`..`N`; a chance outcome is
//! `prize:V`. Case-insensitive; `#<index>` is accepted too.
//!
//! **Action indices.** Card value − 1, for bids and prizes alike (`0..N`);
//! `num_actions` is N. A round is one chance action and one joint action (one
//! index per seat in records), so a game has exactly `3N` action indices.
//!
//! **Papers.** None; the classic simultaneous-move card game (OpenSpiel's
//! `goofspiel`), here to show that the framework carries simultaneous turns.

use std::fmt;

use crate::game::{
    parse_index, Action, ActionList, Game, GameInfo, GameSpec, Nature, ParamInfo, SpecError, State,
    Turn,
};
use crate::players::Roster;

mod openspiel;

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "goofspiel",
    aliases: &[],
    about: "Goofspiel: bid cards simultaneously for prize cards turned up by chance",
    paper: "",
    params: &[ParamInfo {
        name: "cards",
        default: "5",
        doc: "cards per hand and in the prize deck, 1..=13",
    }],
    nature: Nature {
        simultaneous: true,
        chance: true,
        ..Nature::BOARD
    },
    examples: &["goofspiel:cards=1", "goofspiel:cards=13"],
    bench: &["goofspiel"],
};

/// The game: cards per hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goofspiel {
    cards: u8,
}

impl Default for Goofspiel {
    /// Five cards.
    fn default() -> Self {
        Goofspiel { cards: 5 }
    }
}

impl Goofspiel {
    /// A game with `cards` cards per hand (1..=13).
    pub fn new(cards: usize) -> Result<Goofspiel, SpecError> {
        if !(1..=13).contains(&cards) {
            return Err(SpecError(format!(
                "'goofspiel': cards={cards} is not an integer in 1..=13"
            )));
        }
        Ok(Goofspiel { cards: cards as u8 })
    }

    /// Cards per hand.
    pub fn cards(&self) -> usize {
        self.cards as usize
    }
}

/// A Goofspiel position. Card sets are bitmasks, bit `v − 1` = card `v`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoofspielState {
    cards: u8,
    hands: [u16; 2],
    /// Prize cards not yet turned up.
    deck: u16,
    /// The prize turned up and not yet bid for.
    prize: Option<u8>,
    points: [u16; 2],
    /// The last finished round: prize, bid of seat 0, bid of seat 1.
    last: Option<[u8; 3]>,
}

fn card_list(mask: u16) -> String {
    let cards: Vec<String> = (0..16)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| (i + 1).to_string())
        .collect();
    if cards.is_empty() {
        "-".into()
    } else {
        cards.join(" ")
    }
}

impl GoofspielState {
    /// The start of `game`: full hands, full prize deck, chance to turn up.
    pub fn new(game: &Goofspiel) -> GoofspielState {
        let all = ((1u32 << game.cards) - 1) as u16;
        GoofspielState {
            cards: game.cards,
            hands: [all, all],
            deck: all,
            prize: None,
            points: [0, 0],
            last: None,
        }
    }

    /// The cards `seat` still holds (bit `v − 1` = card `v`).
    pub fn hand(&self, seat: usize) -> u16 {
        self.hands[seat]
    }

    /// Prize cards not yet turned up (bit `v − 1` = card `v`).
    pub fn deck(&self) -> u16 {
        self.deck
    }

    /// The prize now up for bids, if any.
    pub fn prize(&self) -> Option<u32> {
        self.prize.map(u32::from)
    }

    /// What `observer` sees, as numbers (`4 × cards + 2` values; bids are
    /// shown once both are down, so nothing here is hidden): the observer's
    /// hand, the opponent's hand and the prize cards not yet turned up (a
    /// 0/1 per card value each, card 1 first), the prize now up for bids
    /// one-hot (zeros between rounds), then the observer's and the
    /// opponent's points as fractions of all the prize points.
    pub fn observation_tensor(&self, observer: usize) -> Vec<f32> {
        let n = self.cards as usize;
        let mut out = vec![0.0; 4 * n + 2];
        let bits = |mask: u16, out: &mut [f32]| {
            for (i, v) in out.iter_mut().enumerate() {
                *v = f32::from(mask >> i & 1 == 1);
            }
        };
        bits(self.hands[observer], &mut out[..n]);
        bits(self.hands[1 - observer], &mut out[n..2 * n]);
        bits(self.deck, &mut out[2 * n..3 * n]);
        if let Some(p) = self.prize {
            out[3 * n + p as usize - 1] = 1.0;
        }
        let total = (n * (n + 1) / 2) as f32;
        out[4 * n] = self.points[observer] as f32 / total;
        out[4 * n + 1] = self.points[1 - observer] as f32 / total;
        out
    }

    /// Points `seat` has won.
    pub fn points(&self, seat: usize) -> u32 {
        self.points[seat] as u32
    }

    fn push_bits(mask: u16, out: &mut ActionList) {
        let mut m = mask;
        while m != 0 {
            out.push(m.trailing_zeros() as Action);
            m &= m - 1;
        }
    }
}

impl State for GoofspielState {
    type View = Self;

    fn turn(&self) -> Turn {
        if self.prize.is_some() {
            Turn::Simultaneous
        } else if self.deck == 0 {
            Turn::Terminal
        } else {
            Turn::Chance
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        if self.turn() == Turn::Chance {
            Self::push_bits(self.deck, out);
        }
    }

    fn legal_actions_of(&self, player: usize, out: &mut ActionList) {
        if self.turn() == Turn::Simultaneous {
            Self::push_bits(self.hands[player], out);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        if self.turn() == Turn::Chance {
            let mut legal = ActionList::new();
            self.legal_actions(&mut legal);
            let p = 1.0 / legal.len() as f64;
            out.extend(legal.iter().map(|&a| (a, p)));
        }
    }

    fn apply(&mut self, action: Action) {
        debug_assert!(self.turn() == Turn::Chance && self.deck >> action & 1 == 1);
        self.deck &= !(1 << action);
        self.prize = Some(action as u8 + 1);
    }

    fn apply_joint(&mut self, actions: &[Action]) {
        let prize = self
            .prize
            .take()
            .expect("apply_joint needs a prize up for bids");
        let (a, b) = (actions[0], actions[1]);
        debug_assert!(self.hands[0] >> a & 1 == 1 && self.hands[1] >> b & 1 == 1);
        self.hands[0] &= !(1 << a);
        self.hands[1] &= !(1 << b);
        if a > b {
            self.points[0] += prize as u16;
        } else if b > a {
            self.points[1] += prize as u16;
        }
        self.last = Some([prize, a as u8 + 1, b as u8 + 1]);
    }

    fn returns(&self, player: usize) -> f64 {
        if self.turn() != Turn::Terminal {
            return 0.0;
        }
        let d = self.score(player).unwrap_or(0);
        (d.signum()) as f64
    }

    fn score(&self, player: usize) -> Option<i32> {
        Some(self.points[player] as i32 - self.points[1 - player] as i32)
    }

    fn view(&self, _player: usize) -> Self {
        *self
    }

    fn action_to_string(&self, action: Action) -> String {
        if self.turn() == Turn::Chance {
            format!("prize:{}", action + 1)
        } else {
            (action + 1).to_string()
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let n = self.cards as usize;
        if let Some(a) = parse_index(text, n) {
            return Ok(a);
        }
        let t = text.trim().to_ascii_lowercase();
        let value = t.strip_prefix("prize:").unwrap_or(&t).trim();
        match value.parse::<usize>() {
            Ok(v) if (1..=n).contains(&v) => Ok((v - 1) as Action),
            _ => Err(format!(
                "'{}' is not a Goofspiel action (accepted: a card 1..{n}, prize:1..prize:{n}, \
                 #index 0..{})",
                text.trim(),
                n - 1
            )),
        }
    }
}

impl fmt::Display for GoofspielState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "points: first {}, second {}",
            self.points[0], self.points[1]
        )?;
        writeln!(f, "first holds:  {}", card_list(self.hands[0]))?;
        writeln!(f, "second holds: {}", card_list(self.hands[1]))?;
        writeln!(f, "prize deck:   {}", card_list(self.deck))?;
        if let Some([p, a, b]) = self.last {
            writeln!(f, "last round: prize {p}, bids {a}/{b}")?;
        }
        match self.prize {
            Some(p) => writeln!(f, "prize {p} is up for bids"),
            None if self.deck == 0 => writeln!(f, "game over"),
            None => writeln!(f, "the next prize is turned up"),
        }
    }
}

impl Game for Goofspiel {
    type State = GoofspielState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec (`cards=`).
    fn from_spec(spec: &GameSpec) -> Result<Goofspiel, SpecError> {
        spec.check_keys(&["cards"])?;
        Goofspiel::new(spec.int("cards", 5, 1, 13)? as usize)
    }

    fn spec(&self) -> String {
        format!("goofspiel:cards={}", self.cards)
    }
    fn num_actions(&self) -> usize {
        self.cards as usize
    }
    fn max_game_length(&self) -> usize {
        3 * self.cards as usize
    }
    fn initial_state(&self) -> GoofspielState {
        GoofspielState::new(self)
    }
}

/// Goofspiel has no players of its own: `random` and `first`.
impl Roster for Goofspiel {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observation_lists_hands_deck_prize_and_points() {
        let g = Goofspiel::new(3).unwrap();
        let mut s = g.initial_state();
        s.apply(2); // prize 3 turned up
        s.apply_joint(&[0, 1]); // bids 1 and 2: seat 1 takes the 3
        let o = s.observation_tensor(0);
        let (hands, rest) = o.split_at(6);
        assert_eq!(hands, &[0., 1., 1., 1., 0., 1.]);
        assert_eq!(&rest[..6], &[1., 1., 0., 0., 0., 0.]); // deck 1 2, no prize up
        assert_eq!(&rest[6..], &[0.0, 0.5]); // 3 of 6 points to seat 1
    }

    #[test]
    fn spec_round_trips() {
        let g = Goofspiel::from_spec(&GameSpec::parse("goofspiel").unwrap()).unwrap();
        assert_eq!(g.spec(), "goofspiel:cards=5");
        assert_eq!(
            g,
            Goofspiel::from_spec(&GameSpec::parse(&g.spec()).unwrap()).unwrap()
        );
        assert!(Goofspiel::from_spec(&GameSpec::parse("goofspiel:cards=14").unwrap()).is_err());
        assert!(Goofspiel::new(0).is_err());
    }
}
