//! Kuhn poker: the framework's example of hidden information (and chance).
//!
//! **Rules as implemented** (Kuhn 1950, as in OpenSpiel's `kuhn_poker`). A
//! deck of three cards, J < Q < K. Each player antes 1 chip. Chance deals one
//! card to seat 0, then one of the two left to seat 1; the third is never seen.
//! Then seat 0 acts: *pass* or *bet* (one more chip).
//! - pass, pass: showdown, the higher card wins the antes (±1);
//! - pass, bet, pass: seat 0 folds, seat 1 wins 1;
//! - pass, bet, bet: showdown for 2 (±2);
//! - bet, pass: seat 1 folds, seat 0 wins 1;
//! - bet, bet: showdown for 2 (±2).
//!
//! Returns are the chips won or lost (they sum to zero). A player sees only
//! its own card and the betting: the view is a [`KuhnView`], not the state.
//!
//! **Parameters.** None (`kuhn`).
//!
//! **Notation.** `pass` and `bet` (also accepted: `check`/`fold` for pass,
//! `call` for bet); chance deals `deal:J`, `deal:Q`, `deal:K`.
//! Case-insensitive; `#<index>` is accepted too.
//!
//! **Action indices.** Players: 0 = pass, 1 = bet. Chance: 0 = J, 1 = Q,
//! 2 = K. A node is either chance or a player's, so the two ranges never
//! meet at one node; `num_actions` is 3 to cover both.
//!
//! **Papers.** None; the classic smallest poker, here to show that views,
//! chance and the driver carry hidden information.

use std::fmt;

use crate::game::{
    parse_index, Action, ActionList, Game, GameInfo, GameSpec, Nature, SpecError, State, Turn,
};
use crate::players::Roster;

mod openspiel;

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "kuhn",
    aliases: &["kuhn-poker"],
    about: "Kuhn poker: three cards, one bet (hidden information, chance deals)",
    paper: "",
    params: &[],
    nature: Nature {
        chance: true,
        hidden: true,
        ..Nature::BOARD
    },
    examples: &[],
    bench: &["kuhn"],
};

/// Action index of a pass (check or fold).
pub const PASS: Action = 0;
/// Action index of a bet (or call).
pub const BET: Action = 1;

const CARD_NAMES: [char; 3] = ['J', 'Q', 'K'];

/// The game value (no parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KuhnPoker;

impl KuhnPoker {}

/// A card: 0 = J, 1 = Q, 2 = K (the chance action that deals it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub u8);

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", CARD_NAMES[self.0 as usize])
    }
}

/// The betting so far: up to three actions, oldest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Betting {
    len: u8,
    /// Bit `i` set = the `i`-th action was a bet.
    bets: u8,
}

impl Betting {
    /// Number of betting actions so far.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether nobody has acted yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th action ([`PASS`] or [`BET`]).
    pub fn get(&self, i: usize) -> Action {
        (self.bets >> i & 1) as Action
    }

    /// The actions, oldest first.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    fn push(&mut self, a: Action) {
        self.bets |= (a as u8 & 1) << self.len;
        self.len += 1;
    }

    /// Whether the betting is over (pass-pass, bet-pass, bet-bet, pass-bet-x).
    pub fn is_over(&self) -> bool {
        match self.len {
            3 => true,
            2 => !(self.get(0) == PASS && self.get(1) == BET),
            _ => false,
        }
    }
}

impl fmt::Display for Betting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return write!(f, "-");
        }
        for (i, a) in self.actions().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            write!(f, "{sep}{}", if a == BET { "bet" } else { "pass" })?;
        }
        Ok(())
    }
}

/// A Kuhn poker state: both cards (once dealt) and the betting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KuhnState {
    cards: [Option<Card>; 2],
    betting: Betting,
}

/// What one seat knows: its own card and the betting, never the opponent's
/// card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KuhnView {
    /// The seat this view belongs to.
    pub player: usize,
    /// The seat's own card, once dealt.
    pub card: Option<Card>,
    /// The betting so far.
    pub betting: Betting,
}

impl fmt::Display for KuhnView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.card {
            Some(c) => writeln!(f, "seat {}, card {c}", self.player)?,
            None => writeln!(f, "seat {}, no card yet", self.player)?,
        }
        writeln!(f, "betting: {}", self.betting)
    }
}

impl KuhnState {
    /// Before the deal.
    pub fn new() -> KuhnState {
        KuhnState::default()
    }

    /// The card of `seat`, once dealt.
    pub fn card(&self, seat: usize) -> Option<Card> {
        self.cards[seat]
    }

    /// The betting so far.
    pub fn betting(&self) -> Betting {
        self.betting
    }

    /// What `observer` sees, as numbers (OpenSpiel's `kuhn_poker`
    /// observation tensor, 7 values): the observer one-hot (2), the
    /// observer's own card one-hot J, Q, K (3, zeros before the deal), and
    /// the chips each seat has put in, ante included (2, seat 0 first).
    pub fn observation_tensor(&self, observer: usize) -> Vec<f32> {
        let mut out = vec![0.0; 7];
        out[observer] = 1.0;
        if let Some(Card(c)) = self.cards[observer] {
            out[2 + c as usize] = 1.0;
        }
        out[5] = self.stake(0) as f32;
        out[6] = self.stake(1) as f32;
        out
    }

    /// Chips each player has put in (ante plus bets).
    fn stake(&self, seat: usize) -> f64 {
        // Seat 0 made actions 0 and 2, seat 1 action 1.
        1.0 + self
            .betting
            .actions()
            .enumerate()
            .filter(|&(i, a)| i % 2 == seat && a == BET)
            .count() as f64
    }
}

impl State for KuhnState {
    type View = KuhnView;

    fn turn(&self) -> Turn {
        if self.cards[1].is_none() {
            Turn::Chance
        } else if self.betting.is_over() {
            Turn::Terminal
        } else {
            Turn::Player(self.betting.len() % 2)
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        match self.turn() {
            Turn::Chance => out.extend(
                (0..3u8)
                    .filter(|&c| self.cards[0] != Some(Card(c)))
                    .map(Action::from),
            ),
            Turn::Player(_) => out.extend([PASS, BET]),
            _ => {}
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
        if self.cards[0].is_none() {
            self.cards[0] = Some(Card(action as u8));
        } else if self.cards[1].is_none() {
            debug_assert_ne!(self.cards[0], Some(Card(action as u8)));
            self.cards[1] = Some(Card(action as u8));
        } else {
            debug_assert!(!self.betting.is_over() && action <= BET);
            self.betting.push(action);
        }
    }

    fn returns(&self, player: usize) -> f64 {
        if self.turn() != Turn::Terminal {
            return 0.0;
        }
        let b = self.betting;
        // A pass right after a bet is a fold: the folder loses its stake.
        let folder = (1..b.len())
            .find(|&i| b.get(i) == PASS && b.get(i - 1) == BET)
            .map(|i| i % 2);
        let winner = folder.map_or_else(
            || if self.cards[0] > self.cards[1] { 0 } else { 1 },
            |f| 1 - f,
        );
        let loser = 1 - winner;
        if player == winner {
            self.stake(loser)
        } else {
            -self.stake(loser)
        }
    }

    fn view(&self, player: usize) -> KuhnView {
        KuhnView {
            player,
            card: self.cards[player],
            betting: self.betting,
        }
    }

    fn action_to_string(&self, action: Action) -> String {
        if self.turn() == Turn::Chance {
            match CARD_NAMES.get(action as usize) {
                Some(c) => format!("deal:{c}"),
                None => format!("#{action}"),
            }
        } else if action == BET {
            "bet".into()
        } else {
            "pass".into()
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        if let Some(a) = parse_index(text, 3) {
            return Ok(a);
        }
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "pass" | "check" | "fold" => Ok(PASS),
            "bet" | "call" => Ok(BET),
            "deal:j" => Ok(0),
            "deal:q" => Ok(1),
            "deal:k" => Ok(2),
            _ => Err(format!(
                "'{}' is not a Kuhn poker action (accepted: pass, bet, check, fold, call, \
                 deal:J, deal:Q, deal:K, #index 0..2)",
                text.trim()
            )),
        }
    }
}

impl fmt::Display for KuhnState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |c: Option<Card>| c.map_or("?".to_string(), |c| c.to_string());
        writeln!(
            f,
            "cards: seat 0 {}, seat 1 {}",
            show(self.cards[0]),
            show(self.cards[1])
        )?;
        writeln!(f, "betting: {}", self.betting)?;
        if self.is_terminal() {
            let won = self.returns(0);
            let (winner, chips) = if won > 0.0 { (0, won) } else { (1, -won) };
            writeln!(f, "seat {winner} wins {chips}")?;
        }
        Ok(())
    }
}

impl Game for KuhnPoker {
    type State = KuhnState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec (no arguments accepted).
    fn from_spec(spec: &GameSpec) -> Result<KuhnPoker, SpecError> {
        spec.check_keys(&[])?;
        Ok(KuhnPoker)
    }

    fn spec(&self) -> String {
        "kuhn".into()
    }
    fn num_actions(&self) -> usize {
        3
    }
    fn max_game_length(&self) -> usize {
        // Two deals and at most three betting actions.
        5
    }
    fn initial_state(&self) -> KuhnState {
        KuhnState::new()
    }
}

/// Kuhn poker has no players of its own: `random` and `first`.
impl Roster for KuhnPoker {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    #[test]
    fn observation_shows_own_card_and_stakes_only() {
        let mut s = KuhnState::new();
        s.apply(0); // J to seat 0
        s.apply(1); // Q to seat 1
        s.apply(BET);
        // Seat 1 sees itself, its Q, and stakes 1 + 1 bet against its ante.
        assert_eq!(s.observation_tensor(1), vec![0., 1., 0., 1., 0., 2., 1.]);
        assert_eq!(s.observation_tensor(0), vec![1., 0., 1., 0., 0., 2., 1.]);
    }

    #[test]
    fn perft_counts() {
        let s = KuhnState::new();
        // 3 cards, then 2; then pass|bet; all four two-action lines exist; of
        // them only pass-bet continues, with pass|bet.
        let counts: Vec<u64> = (1..=6).map(|d| perft(&s, d)).collect();
        assert_eq!(counts, vec![3, 6, 12, 24, 12, 0]);
    }
}
