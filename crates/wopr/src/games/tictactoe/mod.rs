//! Tic-Tac-Toe.
//!
//! **Rules as implemented.** A 3×3 board, empty at the start. X (seat 0) moves
//! first; the players alternate, each putting a mark on an empty square. Three
//! marks of one player in a row, column or diagonal win at once; a full board
//! without such a line is a draw.
//!
//! **Parameters.** None (`tictactoe`).
//!
//! **Notation.** Squares `a1`…`c3`: the letter is the column (`a` = left), the
//! number the row (`1` = top).
//!
//! **Action indices.** `row × 3 + col` (OpenSpiel's `tic_tac_toe`), so `a1` is
//! 0, `c1` is 2 and `c3` is 8.
//!
//! **Heuristic** (for `alphabeta`): for every line still open to one side, that
//! side scores 1, 4 or 16 for one, two or three… marks in it (three is a win and
//! never reaches the evaluation); the value is own total minus the opponent's.
//!
//! **Solver and `perfect` player.** The whole game tree (5,478 reachable
//! positions) is solved once per process into a table; the value of a position
//! for the player to move is `±(1 + empty squares left at the end)` for a win
//! or loss (so faster wins and slower losses rank higher), 0 for a draw. The
//! `perfect` player picks at random among the moves with the best such value:
//! it never loses (the yardstick of Handa and of the thesis).
//!
//! **Papers.** The WOPR thesis (exhaustive loss counts, perfect player) and
//! Handa & Horiuchi (feature nets evolved by a (1+λ)-ES).
//!
//! **References.**
//! - B. Horner, *WOPR in search of better strategies for board games*, M.S.
//!   thesis, University of Nebraska at Omaha, 2011.
//! - H. Handa and T. Horiuchi, "Evolutionary constitution of game player
//!   agents", *Proc. 41st SICE Annual Conference (SICE 2002)*, 2002.

pub mod encode;
mod openspiel;
mod oracle;
pub mod players;
pub mod solver;

use std::fmt;

use crate::game::{
    mix64, parse_index, Action, ActionList, Game, GameInfo, GameSpec, Nature, Searchable,
    SpecError, State, Turn,
};
use crate::games::bitboard::{parse_square, square_name};

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "tictactoe",
    aliases: &["tic-tac-toe"],
    about: "Tic-Tac-Toe on 3x3; X moves first",
    paper: "WOPR thesis; Handa & Horiuchi",
    params: &[],
    nature: Nature::BOARD,
    examples: &[],
    bench: &["tictactoe"],
};

/// The eight winning lines as 9-bit masks (bit = row × 3 + col).
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0x1FF;

/// The game value (no parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToe;

impl TicTacToe {}

/// A Tic-Tac-Toe position: one 9-bit board per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToeState {
    /// Marks of each seat (X = 0, O = 1).
    pub marks: [u16; 2],
    /// Seat to move.
    pub to_move: u8,
    /// Seat with three in a row, if any.
    pub winner: Option<u8>,
}

impl TicTacToeState {
    /// The empty board, X to move.
    pub fn new() -> TicTacToeState {
        TicTacToeState {
            marks: [0, 0],
            to_move: 0,
            winner: None,
        }
    }

    fn empty(&self) -> u16 {
        !(self.marks[0] | self.marks[1]) & FULL
    }

    /// The mark on square `i` (row × 3 + col): `Some(seat)` or `None`.
    pub fn at(&self, i: usize) -> Option<usize> {
        (0..2).find(|&s| self.marks[s] >> i & 1 == 1)
    }
}

impl Default for TicTacToeState {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether a 9-bit board contains a line.
#[inline]
pub fn has_line(b: u16) -> bool {
    for line in LINES {
        if b & line == line {
            return true;
        }
    }
    false
}

impl State for TicTacToeState {
    type View = Self;

    fn turn(&self) -> Turn {
        if self.winner.is_some() || self.empty() == 0 {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        if self.winner.is_some() {
            return;
        }
        let mut e = self.empty();
        while e != 0 {
            out.push(e.trailing_zeros() as Action);
            e &= e - 1;
        }
    }

    fn apply(&mut self, action: Action) {
        let p = self.to_move as usize;
        self.marks[p] |= 1 << action;
        if has_line(self.marks[p]) {
            self.winner = Some(p as u8);
        }
        self.to_move ^= 1;
    }

    fn returns(&self, player: usize) -> f64 {
        match self.winner {
            Some(w) if w as usize == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }

    fn view(&self, _player: usize) -> Self {
        *self
    }

    fn action_to_string(&self, action: Action) -> String {
        square_name(action as usize % 3, action as usize / 3)
    }

    fn action_cell(&self, action: Action) -> Option<(usize, usize)> {
        Some((action as usize % 3, action as usize / 3))
    }

    fn board(&self) -> crate::game::board::Board {
        crate::game::board::Board::grid(3, 3, |c, r| self.at(r * 3 + c))
    }

    fn target(&self, action: Action) -> crate::game::board::Target {
        match self.action_cell(action) {
            Some((col, row)) => crate::game::board::Target::Cell { col, row },
            None => crate::game::board::Target::Button,
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        if let Some(a) = parse_index(text, 9) {
            return Ok(a);
        }
        parse_square(text, 3, 3)
            .map(|(c, r)| (r * 3 + c) as Action)
            .ok_or_else(|| format!("'{}' is not a square a1..c3 (or #index 0..8)", text.trim()))
    }
}

impl Searchable for TicTacToeState {
    fn key(&self) -> u64 {
        mix64(self.marks[0] as u64 | (self.marks[1] as u64) << 9 | (self.to_move as u64) << 18)
    }

    fn evaluate(&self) -> i32 {
        let me = self.to_move as usize;
        let side = |s: usize| -> i32 {
            let (own, other) = (self.marks[s], self.marks[1 - s]);
            LINES
                .iter()
                .filter(|&&l| other & l == 0)
                .map(|&l| match (own & l).count_ones() {
                    0 => 0,
                    1 => 1,
                    2 => 4,
                    _ => 16,
                })
                .sum()
        };
        side(me) - side(1 - me)
    }
}

impl fmt::Display for TicTacToeState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "   a b c")?;
        for r in 0..3 {
            write!(f, "{}  ", r + 1)?;
            for c in 0..3 {
                let ch = match self.at(r * 3 + c) {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None => '.',
                };
                write!(f, "{ch}{}", if c < 2 { " " } else { "\n" })?;
            }
        }
        Ok(())
    }
}

impl Game for TicTacToe {
    type State = TicTacToeState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec (no arguments accepted).
    fn from_spec(spec: &GameSpec) -> Result<TicTacToe, SpecError> {
        spec.check_keys(&[])?;
        Ok(TicTacToe)
    }

    fn spec(&self) -> String {
        "tictactoe".into()
    }
    fn num_actions(&self) -> usize {
        9
    }
    fn max_game_length(&self) -> usize {
        9
    }
    fn initial_state(&self) -> TicTacToeState {
        TicTacToeState::new()
    }
    fn seat_names(&self) -> Vec<&'static str> {
        vec!["X", "O"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::{count_games, perft};

    #[test]
    fn perft_and_game_count() {
        let s = TicTacToeState::new();
        // 9, 9·8, 9·8·7, 9·8·7·6 (no game ends before the fifth move).
        assert_eq!(perft(&s, 1), 9);
        assert_eq!(perft(&s, 2), 72);
        assert_eq!(perft(&s, 3), 504);
        assert_eq!(perft(&s, 4), 3024);
        // The well-known count of distinct Tic-Tac-Toe games.
        assert_eq!(count_games(&s), 255_168);
    }

    #[test]
    fn notation_round_trips() {
        let s = TicTacToeState::new();
        for a in 0..9 {
            assert_eq!(s.parse_action(&s.action_to_string(a)).unwrap(), a);
        }
        assert_eq!(s.parse_action("B2").unwrap(), 4);
        assert_eq!(s.parse_action("#8").unwrap(), 8);
        assert!(s.parse_action("d4").is_err());
    }
}
