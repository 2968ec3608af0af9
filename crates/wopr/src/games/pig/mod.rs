//! Pig, the dice game: the framework's example of chance nodes.
//!
//! **Rules as implemented.** Two players bank points toward a target. On your
//! turn you either *roll* or *hold*. A roll goes to a chance node where a fair
//! die is thrown: a 1 loses the turn total and passes the turn; 2–6 adds the
//! face to the turn total and you choose again. Holding banks the turn total
//! and passes the turn (holding with a turn total of 0 is allowed: it just
//! passes). As soon as your banked points plus the turn total reach the target
//! the total is banked and you win (+1, the opponent −1): holding is the only
//! sensible move there, and ending at once keeps every game finite even for a
//! player that always rolls. If `horizon` turns end without a winner the game
//! is a draw (0 each). [`score`](State::score) is own banked points minus the
//! opponent's.
//!
//! **OpenSpiel's rules** (`rules=openspiel`, OpenSpiel's `pig` with two
//! players and a six-sided die): reaching the target does not end the game
//! at once; hold is then the only legal move, and the game ends when it
//! banks the total. The horizon counts the players' moves (rolls and
//! holds), not turns. Everything else is as above, so the two game trees
//! differ only by that forced hold and the horizon.
//!
//! **Parameters.** `pig[:target=T][,horizon=H][,rules=R]`: `target`
//! 10..=1000, default 30; `horizon` (turns, counting every roll-of-1 and
//! hold; moves under `rules=openspiel`) 1..=100000, default 1000; `rules`
//! `wopr` (default) or `openspiel`. The canonical spec names target and
//! horizon, and the rules when they are OpenSpiel's:
//! `pig:target=30,horizon=1000`, `pig:target=100,horizon=1000,rules=openspiel`.
//!
//! **Notation.** `roll`, `hold`, and for chance outcomes `die:N` (N = 1..6);
//! case-insensitive; `#<index>` is accepted too.
//!
//! **Action indices.** 0 = roll, 1 = hold, 2..=7 = die faces 1..=6 (face + 1),
//! so chance outcomes never share an index with a player's action;
//! `num_actions` is 8.
//!
//! **Length.** A turn has at most `⌈T/2⌉` rolls of 2–6 (each adds at least 2
//! and the turn ends on reaching `T`), each two actions, plus a closing hold
//! or roll-and-1 (at most two more); so a game has at most
//! `H × (2⌈T/2⌉ + 2)` actions.
//!
//! **Papers.** None; a classic chance game (OpenSpiel's `pig`), here to show
//! that the framework, the driver and the records carry chance.

use std::fmt;

use crate::game::{
    parse_index, Action, ActionList, Game, GameInfo, GameSpec, Nature, ParamInfo, SpecError, State,
    Turn,
};
use crate::players::{PlayerSpec, Roster};

mod openspiel;

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "pig",
    aliases: &[],
    about: "Pig, the dice game: roll to build a turn total, hold to bank it (chance nodes)",
    paper: "",
    params: &[
        ParamInfo {
            name: "target",
            default: "30",
            doc: "banked points that win, 10..=1000",
        },
        ParamInfo {
            name: "horizon",
            default: "1000",
            doc: "turns after which an unfinished game is a draw, 1..=100000",
        },
        ParamInfo {
            name: "rules",
            default: "wopr",
            doc: "wopr, or openspiel: the winner must hold, and the horizon counts moves",
        },
    ],
    nature: Nature {
        chance: true,
        ..Nature::BOARD
    },
    examples: &["pig:target=10,horizon=5"],
    bench: &["pig"],
};

/// Action index of a roll.
pub const ROLL: Action = 0;
/// Action index of a hold.
pub const HOLD: Action = 1;

/// The chance action for die face `face` (1..=6).
#[inline]
pub const fn die(face: u16) -> Action {
    face + 1
}

/// The game: target, horizon and rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pig {
    target: u16,
    horizon: u32,
    /// OpenSpiel's rules: hold to bank the winning total; the horizon
    /// counts moves.
    openspiel: bool,
}

impl Default for Pig {
    /// Target 30, horizon 1000.
    fn default() -> Self {
        Pig {
            target: 30,
            horizon: 1000,
            openspiel: false,
        }
    }
}

impl Pig {
    /// Banked points that win.
    pub fn target(&self) -> u32 {
        self.target as u32
    }

    /// Turns (moves, under OpenSpiel's rules) after which the game is
    /// drawn.
    pub fn horizon(&self) -> u32 {
        self.horizon
    }

    /// Whether the game is played by OpenSpiel's rules.
    pub fn openspiel_rules(&self) -> bool {
        self.openspiel
    }
}

/// A Pig position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PigState {
    target: u16,
    horizon: u32,
    banked: [u16; 2],
    turn_total: u16,
    turns: u32,
    /// The players' moves so far (rolls and holds).
    moves: u32,
    to_move: u8,
    rolling: bool,
    winner: Option<u8>,
    openspiel: bool,
}

impl PigState {
    /// The start of `game`: nothing banked, seat 0 to move.
    pub fn new(game: &Pig) -> PigState {
        PigState {
            target: game.target,
            horizon: game.horizon,
            banked: [0, 0],
            turn_total: 0,
            turns: 0,
            moves: 0,
            to_move: 0,
            rolling: false,
            winner: None,
            openspiel: game.openspiel,
        }
    }

    /// Points `seat` has banked.
    pub fn banked(&self, seat: usize) -> u32 {
        self.banked[seat] as u32
    }

    /// The points at stake in the current turn.
    pub fn turn_total(&self) -> u32 {
        self.turn_total as u32
    }

    /// Turns completed so far.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The seat whose turn it is (also while the die is rolling).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The winner, once someone has reached the target.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(|w| w as usize)
    }

    /// What `observer` sees, as numbers (Pig has no hidden state): the
    /// seat to move one-hot, observer first (2), then three one-hot rows of
    /// `target + 1` values each: the turn total, the observer's banked
    /// points and the opponent's (each capped at the target).
    pub fn observation_tensor(&self, observer: usize) -> Vec<f32> {
        let row = self.target as usize + 1;
        let mut out = vec![0.0; 2 + 3 * row];
        out[usize::from(self.to_move as usize != observer)] = 1.0;
        let cap = |v: u16| (v as usize).min(row - 1);
        out[2 + cap(self.turn_total)] = 1.0;
        out[2 + row + cap(self.banked[observer])] = 1.0;
        out[2 + 2 * row + cap(self.banked[1 - observer])] = 1.0;
        out
    }

    /// Whether the player to move has reached the target (under
    /// OpenSpiel's rules, where it must then hold).
    fn must_hold(&self) -> bool {
        self.banked[self.to_move as usize] + self.turn_total >= self.target
    }

    fn end_turn(&mut self) {
        self.turn_total = 0;
        self.to_move ^= 1;
        self.turns += 1;
    }
}

impl State for PigState {
    type View = Self;

    fn turn(&self) -> Turn {
        let spent = if self.openspiel {
            self.moves
        } else {
            self.turns
        };
        if self.winner.is_some() || spent >= self.horizon {
            Turn::Terminal
        } else if self.rolling {
            Turn::Chance
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        match self.turn() {
            Turn::Chance => out.extend((1..=6).map(die)),
            Turn::Player(_) if self.openspiel && self.must_hold() => out.push(HOLD),
            Turn::Player(_) => out.extend([ROLL, HOLD]),
            _ => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        if self.turn() == Turn::Chance {
            out.extend((1..=6).map(|f| (die(f), 1.0 / 6.0)));
        }
    }

    fn apply(&mut self, action: Action) {
        match action {
            ROLL => {
                self.rolling = true;
                self.moves += 1;
            }
            HOLD => {
                let p = self.to_move as usize;
                self.banked[p] += self.turn_total;
                self.moves += 1;
                if self.banked[p] >= self.target {
                    self.winner = Some(p as u8);
                }
                self.end_turn();
            }
            _ => {
                debug_assert!((2..=7).contains(&action) && self.rolling);
                self.rolling = false;
                let face = action - 1;
                if face == 1 {
                    self.end_turn();
                } else {
                    self.turn_total += face;
                    let p = self.to_move as usize;
                    if !self.openspiel && self.banked[p] + self.turn_total >= self.target {
                        self.banked[p] += self.turn_total;
                        self.winner = Some(p as u8);
                        self.end_turn();
                    }
                }
            }
        }
    }

    fn returns(&self, player: usize) -> f64 {
        match self.winner {
            Some(w) if w as usize == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }

    fn score(&self, player: usize) -> Option<i32> {
        Some(self.banked[player] as i32 - self.banked[1 - player] as i32)
    }

    fn view(&self, _player: usize) -> Self {
        *self
    }

    fn action_to_string(&self, action: Action) -> String {
        match action {
            ROLL => "roll".into(),
            HOLD => "hold".into(),
            a => format!("die:{}", a - 1),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        if let Some(a) = parse_index(text, 8) {
            return Ok(a);
        }
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "roll" => return Ok(ROLL),
            "hold" => return Ok(HOLD),
            _ => {}
        }
        if let Some(n) = t
            .strip_prefix("die:")
            .and_then(|n| n.trim().parse::<u16>().ok())
        {
            if (1..=6).contains(&n) {
                return Ok(die(n));
            }
        }
        Err(format!(
            "'{}' is not a Pig action (accepted: roll, hold, die:1..die:6, #index 0..7)",
            text.trim()
        ))
    }
}

impl fmt::Display for PigState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "banked: first {}, second {} (target {})",
            self.banked[0], self.banked[1], self.target
        )?;
        let who = ["first", "second"][self.to_move as usize];
        match self.turn() {
            Turn::Terminal => match self.winner {
                Some(w) => writeln!(f, "{} wins", ["first", "second"][w as usize]),
                None => writeln!(f, "draw: {} turns played", self.turns),
            },
            Turn::Chance => writeln!(
                f,
                "{who} rolls the die (turn total {}, turn {} of {})",
                self.turn_total,
                self.turns + 1,
                self.horizon
            ),
            _ => writeln!(
                f,
                "{who} to move (turn total {}, turn {} of {})",
                self.turn_total,
                self.turns + 1,
                self.horizon
            ),
        }
    }
}

impl Game for Pig {
    type State = PigState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec (`target=`, `horizon=`, `rules=`).
    fn from_spec(spec: &GameSpec) -> Result<Pig, SpecError> {
        spec.check_keys(&["target", "horizon", "rules"])?;
        let openspiel = match spec.get("rules") {
            None | Some("wopr") => false,
            Some("openspiel") => true,
            Some(other) => {
                return Err(SpecError(format!(
                    "'pig': rules={other} is not a rule set (accepted: wopr, openspiel)"
                )))
            }
        };
        Ok(Pig {
            target: spec.int("target", 30, 10, 1000)? as u16,
            horizon: spec.int("horizon", 1000, 1, 100_000)? as u32,
            openspiel,
        })
    }

    fn spec(&self) -> String {
        let rules = if self.openspiel {
            ",rules=openspiel"
        } else {
            ""
        };
        format!("pig:target={},horizon={}{rules}", self.target, self.horizon)
    }
    fn num_actions(&self) -> usize {
        8
    }
    fn max_game_length(&self) -> usize {
        if self.openspiel {
            // Each move a roll and its die, or a hold.
            return 2 * self.horizon as usize;
        }
        let per_turn = 2 * (self.target as usize).div_ceil(2) + 2;
        self.horizon as usize * per_turn
    }
    fn initial_state(&self) -> PigState {
        PigState::new(self)
    }
}

/// Pig's players beyond `random` and `first`: `mcts` with random rollouts.
impl Roster for Pig {
    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        if spec.name != "mcts" {
            return Ok(None);
        }
        let (config, rollout) = crate::players::mcts::parse_config(spec)?;
        if rollout.is_some() {
            return Err(SpecError(format!(
                "'mcts': {} has no net encoding, so rollout=net:FILE is not available (accepted: rollout=random)",
                self.spec()
            )));
        }
        Ok(Some(PlayerSpec::kind::<crate::players::mcts::MctsKind>(
            crate::players::mcts::MctsSettings { config, rollout },
        )))
    }

    fn build_bot(
        &self,
        spec: &PlayerSpec,
    ) -> Result<Box<dyn crate::game::Player<Self>>, SpecError> {
        match spec.settings::<crate::players::mcts::MctsKind>() {
            Some(s) => crate::players::mcts::build_random(self, s.config),
            None => Err(SpecError(format!("pig has no player '{spec}'"))),
        }
    }

    fn bot_names(&self) -> &'static [&'static str] {
        &["mcts[:sims=N][,c=C][,ms=T][,solve=on|off][,reuse=on|off]"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    #[test]
    fn observation_rows_are_one_hot_from_the_observer() {
        let g = Pig::from_spec(&GameSpec::parse("pig:target=10").unwrap()).unwrap();
        let mut s = g.initial_state();
        s.banked = [3, 7];
        s.turn_total = 4;
        let o = s.observation_tensor(1); // seat 0 to move, seen by seat 1
        assert_eq!(o.len(), 2 + 3 * 11);
        assert_eq!(&o[..2], &[0., 1.]);
        let hot: Vec<usize> = (0..3)
            .map(|r| {
                o[2 + 11 * r..2 + 11 * (r + 1)]
                    .iter()
                    .position(|&v| v == 1.0)
                    .unwrap()
            })
            .collect();
        assert_eq!(hot, vec![4, 7, 3]);
        assert_eq!(o.iter().sum::<f32>(), 4.0);
    }

    #[test]
    fn spec_round_trips() {
        let g = Pig::from_spec(&GameSpec::parse("pig").unwrap()).unwrap();
        assert_eq!(g.spec(), "pig:target=30,horizon=1000");
        let g2 = Pig::from_spec(&GameSpec::parse(&g.spec()).unwrap()).unwrap();
        assert_eq!(g, g2);
        assert!(Pig::from_spec(&GameSpec::parse("pig:target=9").unwrap()).is_err());
        assert!(Pig::from_spec(&GameSpec::parse("pig:cards=9").unwrap()).is_err());
    }

    #[test]
    fn openspiels_rules_make_the_winner_hold_and_count_moves() {
        let g = Pig::from_spec(&GameSpec::parse("pig:target=10,rules=openspiel").unwrap()).unwrap();
        assert_eq!(g.spec(), "pig:target=10,horizon=1000,rules=openspiel");
        let mut s = g.initial_state();
        for a in [ROLL, die(6), ROLL, die(5)] {
            s.apply(a);
        }
        // 11 points in the turn: the target is reached, but only a hold ends it.
        assert_eq!(s.turn(), Turn::Player(0));
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        assert_eq!(legal.as_slice(), &[HOLD]);
        s.apply(HOLD);
        assert_eq!(s.turn(), Turn::Terminal);
        assert_eq!((s.returns(0), s.returns(1)), (1.0, -1.0));
        // wopr's rules end the game on the roll that reaches the target.
        let mut w = Pig::from_spec(&GameSpec::parse("pig:target=10").unwrap())
            .unwrap()
            .initial_state();
        for a in [ROLL, die(6), ROLL, die(5)] {
            w.apply(a);
        }
        assert_eq!(w.turn(), Turn::Terminal);
        // The horizon counts moves: three holds end a game of horizon 3.
        let g = Pig::from_spec(&GameSpec::parse("pig:horizon=3,rules=openspiel").unwrap()).unwrap();
        let mut s = g.initial_state();
        for _ in 0..3 {
            assert!(s.turn() != Turn::Terminal);
            s.apply(HOLD);
        }
        assert_eq!(s.turn(), Turn::Terminal);
        assert_eq!(s.returns(0), 0.0);
        assert!(Pig::from_spec(&GameSpec::parse("pig:rules=other").unwrap()).is_err());
    }

    #[test]
    fn perft_counts() {
        let s = Pig::default().initial_state();
        // roll | hold; roll → 6 faces, hold → the opponent's roll | hold: 6 + 2;
        // faces 2..6 → roll | hold (10), face 1 → opponent roll | hold (2),
        // hold-roll → 6, hold-hold → 2: 20.
        assert_eq!(perft(&s, 1), 2);
        assert_eq!(perft(&s, 2), 8);
        assert_eq!(perft(&s, 3), 20);
    }
}
