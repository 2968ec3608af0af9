//! Breakthrough, as OpenSpiel's `breakthrough` plays it, on any board of up
//! to 64 squares.
//!
//! **Rules as implemented.** A board of `rows × columns` squares. Black
//! (seat 0, OpenSpiel's player 0) starts on the top rows and moves first,
//! White (seat 1) on the bottom rows; each side fills its two home rows
//! (one row each when the board has fewer than 6 rows). The players
//! alternate; a move takes one of the mover's pawns one square forward
//! (Black down the board, White up it), straight or diagonally, onto an
//! empty square, or diagonally forward onto a square holding an opposing
//! pawn, which is captured. A pawn never moves straight onto an occupied
//! square, sideways or backwards. A player wins at once by bringing a
//! pawn onto the far row (the opponent's home row) or by capturing every
//! opposing pawn. There are no draws and no passes: with at least two
//! columns the most advanced pawn of a side always has a diagonal square
//! ahead of it that is empty or holds an opposing pawn, so a side to move
//! always has a move.
//!
//! **Parameters.** `breakthrough[:CxR]`, `C` columns and `R` rows, or
//! OpenSpiel's keys `columns=C` and `rows=R` (either form, not both);
//! default `8x8`. Accepted: `2 ≤ C ≤ 26`, `2 ≤ R ≤ 9` and `C × R ≤ 64` (one
//! bitboard; files `a`… and single-digit ranks). OpenSpiel's
//! `breakthrough(rows=6,columns=5)` is `breakthrough:5x6`. The canonical
//! spec always names the size (`breakthrough:8x8`).
//!
//! **Seats.** `black` (seat 0, moves first) and `white` (seat 1).
//!
//! **Notation.** OpenSpiel's: the square left, then the square reached,
//! each a file letter (`a` = left) and a rank number (`1` = the bottom
//! row, White's home row; the top row is rank `R`), with `*` after a
//! capture: Black's first moves on 8x8 are `a7a6`, `a7b6`, …; `b5c4*`
//! captures on c4. Reading is case-insensitive, the `*` optional (whether
//! a move captures is read from the position); `#i` gives the action
//! index.
//!
//! **Action indices** (OpenSpiel's, so that its name serves this game
//! without translation): `((square × 6) + direction) × 2 + capture`,
//! where `square = row × C + column` (row 0 the top row, rank `R`),
//! `direction` is one of (row offset, column offset) = 0 `(+1, −1)`,
//! 1 `(+1, 0)`, 2 `(+1, +1)` (Black's moves, down the board), 3 `(−1, −1)`,
//! 4 `(−1, 0)`, 5 `(−1, +1)` (White's, up it), and `capture` is 1 when the
//! square reached holds an opposing pawn. There are `R × C × 12` indices
//! (768 on 8x8); OpenSpiel's `max_game_length` is `(4R − 6) × C + 1`
//! (209 on 8x8), which every game stays within. [`State::action_cell`]
//! gives the square reached.
//!
//! **Representation.** One `u64` per side, bit `row × C + column` (row 0 at
//! the top): the bit order of the action indices, the encodings' square
//! order and OpenSpiel's observation planes alike. The moves of all pawns
//! in one direction are found at once by shifting a side's bitboard by
//! `C − 1`, `C` or `C + 1`, masking out the pawns of the edge file that
//! would wrap ([`BreakthroughState::sources`]).
//!
//! **Heuristic** (for `alphabeta`, and the `heuristic` player's). Each
//! pawn is worth `10 + a²`, where `a` is how many rows it has advanced from
//! its side's back row (0 to `R − 2`); the value is the mover's total minus
//! the opponent's, plus 500 when the mover has a pawn on the row before its
//! goal (such a pawn always has a move onto the goal row: the mover wins
//! next move).
//!
//! **OpenSpiel's views.** `openspiel.rs` declares the game as OpenSpiel's
//! `breakthrough` ([`OpenSpielGame`](crate::games::openspiel::OpenSpielGame)):
//! `str(state)` (the board as [`fmt::Display`] writes it),
//! `observation_string` and `observation_tensor` for either player.
//!
//! **References.**
//! - D. Troyka, *Breakthrough*, a board game (2000); winner of the 2001
//!   8x8 game design competition of About.com.
//! - M. Lanctot et al., "OpenSpiel: A Framework for Reinforcement Learning
//!   in Games", arXiv:1908.09453, 2019 (its game `breakthrough`).

pub mod encode;
mod openspiel;
mod oracle;
pub mod players;
#[cfg(test)]
mod tests;

use std::fmt;

use crate::game::{
    mix64, parse_index, Action, ActionList, Game, GameInfo, GameSpec, Nature, ParamInfo,
    Searchable, SpecError, State, Turn,
};
use crate::games::bitboard;

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "breakthrough",
    aliases: &[],
    about: "Breakthrough: pawns race to the far row, capturing diagonally; black moves first",
    paper: "",
    params: &[ParamInfo {
        name: "size",
        default: "8x8",
        doc: "columns x rows (CxR), or columns=C and rows=R as OpenSpiel names them; \
              C 2..26, R 2..9, C*R <= 64",
    }],
    nature: Nature::BOARD,
    examples: &["breakthrough:6x6", "breakthrough:5x5"],
    bench: &["breakthrough"],
};

/// Black's seat (moves first, from the top rows).
pub const BLACK: usize = 0;
/// White's seat.
pub const WHITE: usize = 1;

/// The six directions of the action indices: (row offset, column offset).
const DIRECTIONS: [(i32, i32); 6] = [(1, -1), (1, 0), (1, 1), (-1, -1), (-1, 0), (-1, 1)];

/// What `breakthrough` accepts as a size, for error messages.
const SIZES_ACCEPTED: &str = "columns must be 2..26 and rows 2..9, with columns*rows <= 64";

/// Whether `columns × rows` is a supported board; if not, what is accepted.
pub fn check_size(columns: usize, rows: usize) -> Result<(), String> {
    if (2..=26).contains(&columns) && (2..=9).contains(&rows) && columns * rows <= 64 {
        Ok(())
    } else {
        Err(SIZES_ACCEPTED.to_string())
    }
}

/// The game value: the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Breakthrough {
    columns: u8,
    rows: u8,
}

impl Default for Breakthrough {
    /// The standard 8x8 board.
    fn default() -> Self {
        Breakthrough {
            columns: 8,
            rows: 8,
        }
    }
}

impl Breakthrough {
    /// A game on a `columns × rows` board, if the size is supported (see
    /// [`check_size`]).
    pub fn new(columns: usize, rows: usize) -> Result<Breakthrough, SpecError> {
        check_size(columns, rows).map_err(|why| {
            SpecError(format!(
                "'breakthrough': size {columns}x{rows} is not supported: {why}"
            ))
        })?;
        Ok(Breakthrough {
            columns: columns as u8,
            rows: rows as u8,
        })
    }

    /// Number of columns.
    pub fn columns(&self) -> usize {
        self.columns as usize
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// The position after moves in notation separated by spaces, such as
    /// `"a7a6 b2b3"`, from the start; fails on a move that cannot be read
    /// or is not legal.
    pub fn state_from_moves(&self, moves: &str) -> Result<BreakthroughState, String> {
        let mut s = self.initial_state();
        for (i, m) in moves.split_whitespace().enumerate() {
            let a = s
                .parse_action(m)
                .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
            s.try_apply(a)
                .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        }
        Ok(s)
    }
}

/// A Breakthrough position: each side's pawns as a bitboard (see the module
/// docs) plus the board's size and file masks, so it is `Copy` and needs no
/// game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BreakthroughState {
    /// Black's and White's pawns, bit `row × C + column`.
    pieces: [u64; 2],
    /// The squares of the left file (`a`).
    left: u64,
    /// The squares of the right file.
    right: u64,
    columns: u8,
    rows: u8,
    /// The seat to move.
    to_move: u8,
    /// The seat that has won, once the game is over.
    winner: Option<u8>,
}

impl BreakthroughState {
    /// The start position of `game`, Black to move.
    pub fn new(game: &Breakthrough) -> BreakthroughState {
        let (c, r) = (game.columns as u32, game.rows as u32);
        let row = (1u64 << c) - 1;
        let home = if r >= 6 { 2 } else { 1 };
        let black = (0..home).fold(0, |b, k| b | row << (k * c));
        let white = (0..home).fold(0, |b, k| b | row << ((r - 1 - k) * c));
        let left = (0..r).fold(0, |b, k| b | 1u64 << (k * c));
        BreakthroughState {
            pieces: [black, white],
            left,
            right: left << (c - 1),
            columns: game.columns,
            rows: game.rows,
            to_move: BLACK as u8,
            winner: None,
        }
    }

    /// Number of columns.
    pub fn columns(&self) -> usize {
        self.columns as usize
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// The seat to move (meaningful while the game is not over).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The seat that has won, once the game is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// Black's and White's pawns, bit `row × C + column` (row 0 at the top).
    pub fn pieces(&self) -> [u64; 2] {
        self.pieces
    }

    /// The pawn on `col`, `row` (row 0 = top): `Some(seat)` or `None`.
    pub fn at(&self, col: usize, row: usize) -> Option<usize> {
        let bit = 1u64 << (row * self.columns() + col);
        (0..2).find(|&s| self.pieces[s] & bit != 0)
    }

    /// The squares of row `row` (0 = top).
    fn row_mask(&self, row: usize) -> u64 {
        ((1u64 << self.columns) - 1) << (row * self.columns())
    }

    /// The row `seat`'s pawns reach to win: the bottom row for Black, the
    /// top row for White.
    pub fn goal_row(&self, seat: usize) -> usize {
        if seat == BLACK {
            self.rows() - 1
        } else {
            0
        }
    }

    /// For the side to move, the pawns that can move in each of its three
    /// directions (Black's 0, 1, 2 or White's 3, 4, 5, in that order).
    pub fn sources(&self) -> [u64; 3] {
        let me = self.to_move();
        let own = self.pieces[me];
        let occupied = self.pieces[0] | self.pieces[1];
        let c = self.columns as u32;
        let (left, right) = (own & !self.left, own & !self.right);
        if me == BLACK {
            // Forward is down: the square reached is `c - 1`, `c` or `c + 1`
            // bits higher. Black's pawns are never on the bottom row while
            // the game goes on, so nothing is shifted off the board.
            [
                left & !(own >> (c - 1)),
                own & !(occupied >> c),
                right & !(own >> (c + 1)),
            ]
        } else {
            [
                left & !(own << (c + 1)),
                own & !(occupied << c),
                right & !(own << (c - 1)),
            ]
        }
    }

    /// The action moving the pawn on `square` in `direction` (0..6), with
    /// the capture bit read from the position.
    fn action_of(&self, square: usize, direction: usize) -> Action {
        let to = step(square, direction, self.columns());
        let capture = self.pieces[1 - self.to_move()] >> to & 1;
        ((square * 6 + direction) * 2 + capture as usize) as Action
    }

    /// The square, direction and capture bit of `action`, if it lies on the
    /// board (the square reached included).
    fn decode(&self, action: Action) -> Option<(usize, usize, usize, bool)> {
        let a = action as usize;
        let (capture, direction, from) = (a % 2 == 1, a / 2 % 6, a / 12);
        let (c, r) = (self.columns(), self.rows());
        if from >= c * r {
            return None;
        }
        let (dr, dc) = DIRECTIONS[direction];
        let (row, col) = ((from / c) as i32 + dr, (from % c) as i32 + dc);
        ((0..r as i32).contains(&row) && (0..c as i32).contains(&col))
            .then(|| (from, direction, row as usize * c + col as usize, capture))
    }

    /// The heuristic total of `seat`'s pawns (see the module docs).
    fn side_value(&self, seat: usize) -> i32 {
        let mut total = 0;
        for a in 0..self.rows() - 1 {
            let row = if seat == BLACK {
                a
            } else {
                self.rows() - 1 - a
            };
            let n = (self.pieces[seat] & self.row_mask(row)).count_ones() as i32;
            total += n * (10 + (a * a) as i32);
        }
        total
    }
}

/// The square one step from `square` in `direction` on a board of `columns`
/// columns (the caller knows it lies on the board).
fn step(square: usize, direction: usize, columns: usize) -> usize {
    let (dr, dc) = DIRECTIONS[direction];
    (square as i32 + dr * columns as i32 + dc) as usize
}

/// The name of the square `square` on a board of `columns × rows`: its file
/// letter and rank number (rank 1 the bottom row: the shared grid names,
/// rows counted from the other side).
fn square_name(square: usize, columns: usize, rows: usize) -> String {
    let (row, col) = (square / columns, square % columns);
    bitboard::square_name(col, rows - 1 - row)
}

/// Reads a square name (`a1`…, case-insensitive) on a board of `columns ×
/// rows` into its square index.
fn parse_square(text: &str, columns: usize, rows: usize) -> Option<usize> {
    bitboard::parse_square(text, columns, rows).map(|(col, rank)| (rows - 1 - rank) * columns + col)
}

impl State for BreakthroughState {
    type View = Self;

    fn turn(&self) -> Turn {
        if self.winner.is_some() {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move())
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        if self.winner.is_some() {
            return;
        }
        let sources = self.sources();
        let base = 3 * self.to_move();
        let mut all = sources[0] | sources[1] | sources[2];
        while all != 0 {
            let square = all.trailing_zeros() as usize;
            for (k, s) in sources.iter().enumerate() {
                if s >> square & 1 != 0 {
                    out.push(self.action_of(square, base + k));
                }
            }
            all &= all - 1;
        }
    }

    fn apply(&mut self, action: Action) {
        let (from, direction, to, _) = self.decode(action).expect("a legal action");
        let me = self.to_move();
        debug_assert!(self.winner.is_none() && self.pieces[me] >> from & 1 == 1);
        debug_assert_eq!(direction / 3, me, "a move in the mover's direction");
        self.pieces[me] ^= 1 << from | 1 << to;
        self.pieces[1 - me] &= !(1u64 << to);
        if to / self.columns() == self.goal_row(me) || self.pieces[1 - me] == 0 {
            self.winner = Some(me as u8);
        }
        self.to_move = 1 - self.to_move;
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
        let (c, r) = (self.columns(), self.rows());
        match self.decode(action) {
            Some((from, _, to, capture)) => format!(
                "{}{}{}",
                square_name(from, c, r),
                square_name(to, c, r),
                if capture { "*" } else { "" }
            ),
            None => format!("#{action}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let (c, r) = (self.columns(), self.rows());
        if let Some(a) = parse_index(text, c * r * 12) {
            return Ok(a);
        }
        let t = text.trim().to_ascii_lowercase();
        let body = t.strip_suffix('*').unwrap_or(&t);
        let bad = || {
            format!(
                "'{}' is not a move: a square and the square reached, as a7a6 or b5c4* \
                 (files a..{}, ranks 1..{r}), or #index 0..{}",
                text.trim(),
                (b'a' + c as u8 - 1) as char,
                c * r * 12 - 1
            )
        };
        // Split before the second file letter: "a7a6" is "a7" and "a6".
        let split = body
            .char_indices()
            .skip(1)
            .find(|(_, ch)| ch.is_ascii_alphabetic())
            .map(|(i, _)| i)
            .ok_or_else(bad)?;
        let from = parse_square(&body[..split], c, r).ok_or_else(bad)?;
        let to = parse_square(&body[split..], c, r).ok_or_else(bad)?;
        let (dr, dc) = (
            (to / c) as i32 - (from / c) as i32,
            (to % c) as i32 - (from % c) as i32,
        );
        let direction = DIRECTIONS
            .iter()
            .position(|&d| d == (dr, dc))
            .ok_or_else(|| {
                format!(
                    "'{}' does not move one square forward, straight or diagonally",
                    text.trim()
                )
            })?;
        // The capture bit: whether the square reached holds a pawn of the
        // side that does not move in this direction.
        let capture = self.pieces[1 - direction / 3] >> to & 1;
        Ok(((from * 6 + direction) * 2 + capture as usize) as Action)
    }

    fn action_cell(&self, action: Action) -> Option<(usize, usize)> {
        let (_, _, to, _) = self.decode(action)?;
        Some((to % self.columns(), to / self.columns()))
    }

    fn board(&self) -> crate::game::board::Board {
        crate::game::board::Board::grid(self.columns(), self.rows(), |c, r| self.at(c, r))
    }

    /// A move is clicked as its pawn, then the square it reaches.
    fn target(&self, action: Action) -> crate::game::board::Target {
        match self.decode(action) {
            Some((from, _, to, _)) => {
                let c = self.columns();
                crate::game::board::Target::Jump {
                    from: [from % c, from / c],
                    to: [to % c, to / c],
                }
            }
            None => crate::game::board::Target::Button,
        }
    }
}

impl Searchable for BreakthroughState {
    fn key(&self) -> u64 {
        mix64(self.pieces[0] ^ mix64(self.pieces[1] ^ self.to_move as u64))
    }

    fn evaluate(&self) -> i32 {
        let me = self.to_move();
        let next_to_goal = if me == BLACK { self.rows() - 2 } else { 1 };
        let bonus = if self.pieces[me] & self.row_mask(next_to_goal) != 0 {
            500
        } else {
            0
        };
        self.side_value(me) - self.side_value(1 - me) + bonus
    }
}

impl fmt::Display for BreakthroughState {
    /// The board as OpenSpiel's `str(state)` writes it: a line per row from
    /// the top, its rank number then `b`, `w` or `.` per square, and the
    /// file letters under it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows() {
            write!(f, "{}", self.rows() - r)?;
            for c in 0..self.columns() {
                let ch = match self.at(c, r) {
                    Some(BLACK) => 'b',
                    Some(_) => 'w',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        write!(f, " ")?;
        for c in 0..self.columns() {
            write!(f, "{}", (b'a' + c as u8) as char)?;
        }
        writeln!(f)
    }
}

impl Game for Breakthrough {
    type State = BreakthroughState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec: `breakthrough[:CxR]` or
    /// `breakthrough[:columns=C][,rows=R]`.
    fn from_spec(spec: &GameSpec) -> Result<Breakthrough, SpecError> {
        spec.check_keys(&["size", "columns", "rows"])?;
        let keyed = spec.get("columns").is_some() || spec.get("rows").is_some();
        if keyed && spec.get("size").is_some() {
            return Err(SpecError(format!(
                "'{}': give the size as CxR or as columns=C,rows=R, not both",
                spec.name
            )));
        }
        let (c, r) = if keyed {
            (
                spec.int("columns", 8, 2, 26)? as usize,
                spec.int("rows", 8, 2, 9)? as usize,
            )
        } else {
            spec.size((8, 8), check_size)?
        };
        Breakthrough::new(c, r)
    }

    fn spec(&self) -> String {
        format!("breakthrough:{}x{}", self.columns, self.rows)
    }
    fn num_actions(&self) -> usize {
        self.columns() * self.rows() * 12
    }
    /// OpenSpiel's bound, `(4R − 6) × C + 1`. No game is longer: every move
    /// takes a pawn one row forward, and a side's at most `2C` pawns have
    /// at most `R − 2` rows each to go before one of them reaches the far
    /// row, so a game has at most `4C × (R − 2) + 1` moves.
    fn max_game_length(&self) -> usize {
        (4 * self.rows() - 6) * self.columns() + 1
    }
    fn initial_state(&self) -> BreakthroughState {
        BreakthroughState::new(self)
    }
    fn seat_names(&self) -> Vec<&'static str> {
        vec!["black", "white"]
    }
}
