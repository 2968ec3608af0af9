//! Connect-4 on any board that fits one 64-bit bitboard.
//!
//! **Rules as implemented.** A vertical board of `columns × rows` cells, empty
//! at the start. X (seat 0) moves first; the players alternate, each dropping a
//! disc into a column that is not full, where it falls to the lowest empty
//! cell. Four discs of one player in a row — horizontally, vertically or along
//! either diagonal — win at once; a full board without such a line is a draw.
//!
//! **Parameters.** `connect4[:CxR]`: `C` columns and `R` rows, default `7x6`
//! (the commercial board). Accepted: `4 ≤ C ≤ 9`, `4 ≤ R ≤ 9` and
//! `C × (R + 1) ≤ 64`, so that the board plus one sentinel row per column fits
//! one `u64`. `connect4:6x6` is MIDI-Connect4's board. The canonical spec always
//! names the size (`connect4:7x6`).
//!
//! **Seats.** `X` (seat 0, moves first) and `O` (seat 1).
//!
//! **Notation.** A move is its column number, `1` (left) to `C`, as in the
//! usual Connect-4 solver test sets; `#i` gives the action index.
//!
//! **Action indices.** The 0-based column, `0..C` (OpenSpiel's
//! `connect_four`). [`State::action_cell`] gives `(column, row from the top)`
//! of the cell the disc lands in, which depends on the position.
//!
//! **Representation.** The layout of Pons's and Tromp's solvers: bit
//! `column × (R + 1) + height` (height 0 = bottom) with an always-empty
//! sentinel bit on top of every column, so that shifting a line of discs by 1
//! (vertical), `R + 1` (horizontal), `R` or `R + 2` (the diagonals) never wraps
//! from one column into the next. A state holds two such boards: `mask`
//! (occupied cells) and `position` (the discs of the player to move).
//!
//! **Heuristic** (for `alphabeta`). For every window of four cells in a line
//! that holds no opponent disc, the side scores 1, 3 or 9 for one, two or three
//! own discs in it (four is a win and never reaches the evaluation); each own
//! disc in a centre column (the middle one, or the middle two on an even
//! number of columns) scores 2 more. The value is the mover's total minus the
//! opponent's, from the point of view of the player to move.
//!
//! **Solver and `perfect` player.** [`Connect4Solver`](solver::Connect4Solver) solves positions
//! exactly (alpha–beta with a transposition table, after Pons and Tromp); the
//! `perfect` player picks at random among the moves that win fastest, lose
//! slowest, or draw. It solves 6×6 from the empty board in seconds and 7×6
//! end games at once, but the first few moves on 7×6 take up to minutes each.
//!
//! **Papers.** Miranda & Zhang, MIDI-Connect4 (a 36-60-6 net evolved by a GA
//! plays 6x6 Connect-4; the musicator turns each move's cell into a bar).
//!
//! **References.**
//! - E. R. Miranda and Q. Zhang, "Composition as game strategy: making music
//!   by playing board games against evolved artificial neural networks", *Proc.
//!   International Computer Music Conference (ICMC)*, 2005.

pub mod book;
pub mod encode;
mod openspiel;
mod oracle;
pub mod players;
pub mod solver;

use std::fmt;

use crate::game::{
    mix64, parse_index, Action, ActionList, Game, GameInfo, GameSpec, Nature, ParamInfo,
    Searchable, SpecError, State, Turn,
};

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "connect4",
    aliases: &["connect-4"],
    about: "Connect-4: drop discs, four in a row wins; X moves first",
    paper: "Miranda & Zhang (MIDI-Connect4, 6x6)",
    params: &[ParamInfo {
        name: "size",
        default: "7x6",
        doc: "columns x rows (CxR), each 4..9, with C*(R+1) <= 64; MIDI-Connect4 uses 6x6",
    }],
    nature: Nature::BOARD,
    examples: &["connect4:6x6", "connect4:4x4", "connect4:9x5"],
    bench: &["connect4", "connect4:6x6"],
};

/// What `connect4` accepts as a size, for error messages.
const SIZES_ACCEPTED: &str = "columns and rows must each be 4..9 with columns*(rows+1) <= 64";

/// Whether `columns × rows` is a supported board; if not, what is accepted.
pub fn check_size(columns: usize, rows: usize) -> Result<(), String> {
    if (4..=9).contains(&columns) && (4..=9).contains(&rows) && columns * (rows + 1) <= 64 {
        Ok(())
    } else {
        Err(SIZES_ACCEPTED.to_string())
    }
}

/// The game value: the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connect4 {
    columns: u8,
    rows: u8,
}

impl Default for Connect4 {
    /// The standard 7×6 board.
    fn default() -> Self {
        Connect4 {
            columns: 7,
            rows: 6,
        }
    }
}

impl Connect4 {
    /// A game on a `columns × rows` board, if the size is supported (see
    /// [`check_size`]).
    pub fn new(columns: usize, rows: usize) -> Result<Connect4, SpecError> {
        check_size(columns, rows).map_err(|why| {
            SpecError(format!(
                "'connect4': size {columns}x{rows} is not supported: {why}"
            ))
        })?;
        Ok(Connect4 {
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

    /// The position after a sequence of column digits from the start, such as
    /// `"4453"` (the format of the common solver test sets: each character is
    /// a column `1..=C`). Fails on a bad digit, a full column, or a move after
    /// the end of the game.
    pub fn state_from_moves(&self, moves: &str) -> Result<Connect4State, String> {
        let mut s = self.initial_state();
        for (i, ch) in moves.trim().chars().enumerate() {
            let a = s
                .parse_action(&ch.to_string())
                .map_err(|e| format!("move {} of '{}': {e}", i + 1, moves.trim()))?;
            s.try_apply(a)
                .map_err(|e| format!("move {} of '{}': {e}", i + 1, moves.trim()))?;
        }
        Ok(s)
    }
}

/// A Connect-4 position: two bitboards in the sentinel-row layout (see the
/// module docs) plus the board size, so it is `Copy` and needs no game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Connect4State {
    /// Discs of the player to move.
    position: u64,
    /// Occupied cells.
    mask: u64,
    columns: u8,
    rows: u8,
    /// Discs played so far.
    plies: u8,
    /// Seat with four in a row, if any.
    winner: Option<u8>,
}

/// Whether `b` (one player's discs in the sentinel layout with column height
/// `h` = rows + 1) contains four in a row.
#[inline]
fn has_four(b: u64, h: u32) -> bool {
    // Vertical, horizontal, and the two diagonals.
    for d in [1, h, h - 1, h + 1] {
        let m = b & (b >> d);
        if m & (m >> (2 * d)) != 0 {
            return true;
        }
    }
    false
}

impl Connect4State {
    /// The empty board of `game`, X to move.
    pub fn new(game: &Connect4) -> Connect4State {
        Connect4State {
            position: 0,
            mask: 0,
            columns: game.columns,
            rows: game.rows,
            plies: 0,
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

    /// Discs played so far.
    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    /// The seat with four in a row, if any.
    pub fn winner(&self) -> Option<usize> {
        self.winner.map(usize::from)
    }

    /// The seat to move next (meaningful while the game is not over).
    pub fn to_move(&self) -> usize {
        self.plies as usize & 1
    }

    /// Bits per column: the rows plus the sentinel.
    #[inline]
    fn height_bits(&self) -> u32 {
        self.rows as u32 + 1
    }

    /// The cells of column `col`, without its sentinel.
    #[inline]
    fn column_mask(&self, col: usize) -> u64 {
        ((1u64 << self.rows) - 1) << (col as u32 * self.height_bits())
    }

    /// All playable cells.
    fn board_mask(&self) -> u64 {
        (0..self.columns()).fold(0, |b, c| b | self.column_mask(c))
    }

    /// The empty cells a disc can drop into now: the lowest free cell of
    /// every column that is not full.
    pub fn playable_cells(&self) -> u64 {
        let bottom =
            (0..self.columns()).fold(0u64, |b, c| b | 1u64 << (c as u32 * self.height_bits()));
        (self.mask + bottom) & self.board_mask()
    }

    /// The discs of seat `seat`.
    pub fn discs(&self, seat: usize) -> u64 {
        if seat == self.to_move() {
            self.position
        } else {
            self.position ^ self.mask
        }
    }

    /// Discs in column `col`.
    pub fn height(&self, col: usize) -> usize {
        (self.mask & self.column_mask(col)).count_ones() as usize
    }

    /// Each seat's discs as a bitboard: column `c`, row `r` (row 0 = top)
    /// at bit `c * (rows + 1) + (rows - 1 - r)`.
    pub fn seat_bitboards(&self) -> [u64; 2] {
        let other = self.mask ^ self.position;
        if self.to_move() == 0 {
            [self.position, other]
        } else {
            [other, self.position]
        }
    }

    /// The empty cells where one more disc of `seat` would complete four
    /// in a row (playable now or not), as a bitboard laid out as
    /// [`Connect4State::seat_bitboards`]: the threats of Allis's analysis.
    pub fn winning_cells(&self, seat: usize) -> u64 {
        completions(
            self.discs(seat),
            self.mask,
            self.board_mask(),
            self.height_bits(),
        )
    }

    /// The disc at `col`, `row` (row 0 = top): `Some(seat)` or `None`.
    pub fn at(&self, col: usize, row: usize) -> Option<usize> {
        let bit = 1u64 << (col as u32 * self.height_bits() + (self.rows as u32 - 1 - row as u32));
        if self.mask & bit == 0 {
            None
        } else if self.position & bit != 0 {
            Some(self.to_move())
        } else {
            Some(1 - self.to_move())
        }
    }

    /// Whether a disc may still go into `col`.
    #[inline]
    fn playable(&self, col: usize) -> bool {
        let top = 1u64 << (col as u32 * self.height_bits() + self.rows as u32 - 1);
        self.mask & top == 0
    }

    /// The heuristic total of `own` against `other` (see the module docs).
    fn side_value(&self, own: u64, other: u64, board: u64) -> i32 {
        let h = self.height_bits();
        let mut total = 0i32;
        for d in [1, h, h - 1, h + 1] {
            // Cells where a window of four in direction `d` starts.
            let starts = board & (board >> d) & (board >> (2 * d)) & (board >> (3 * d));
            let free = starts & !(other | other >> d | other >> (2 * d) | other >> (3 * d));
            let (a, b, c, e) = (own, own >> d, own >> (2 * d), own >> (3 * d));
            // Bit-sliced sums of the four cells: pairs first, then the total.
            let (ab1, ab2, ce1, ce2) = (a ^ b, a & b, c ^ e, c & e);
            let one = (ab1 & !(ce1 | ce2)) | (ce1 & !(ab1 | ab2));
            let two = (ab2 & !(ce1 | ce2)) | (ce2 & !(ab1 | ab2)) | (ab1 & ce1);
            let three = (ab2 & ce1) | (ab1 & ce2);
            total += (free & one).count_ones() as i32
                + 3 * (free & two).count_ones() as i32
                + 9 * (free & three).count_ones() as i32;
        }
        let cols = self.columns();
        let mut centre = self.column_mask(cols / 2);
        if cols.is_multiple_of(2) {
            centre |= self.column_mask(cols / 2 - 1);
        }
        total + 2 * (own & centre).count_ones() as i32
    }
}

impl State for Connect4State {
    type View = Self;

    fn turn(&self) -> Turn {
        if self.winner.is_some() || self.plies == self.columns * self.rows {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move())
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        if self.winner.is_some() {
            return;
        }
        for col in 0..self.columns() {
            if self.playable(col) {
                out.push(col as Action);
            }
        }
    }

    fn apply(&mut self, action: Action) {
        let col = action as usize;
        debug_assert!(self.winner.is_none() && col < self.columns() && self.playable(col));
        let mover = self.to_move();
        let bottom = 1u64 << (col as u32 * self.height_bits());
        // Pons's trick: the mover's discs become the opponent's view of
        // "other", and adding the column's bottom bit sets the next free cell.
        self.position ^= self.mask;
        self.mask |= self.mask + bottom;
        self.plies += 1;
        if has_four(self.position ^ self.mask, self.height_bits()) {
            self.winner = Some(mover as u8);
        }
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
        (action as usize + 1).to_string()
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let cols = self.columns();
        if let Some(a) = parse_index(text, cols) {
            return Ok(a);
        }
        match text.trim().parse::<usize>() {
            Ok(n) if (1..=cols).contains(&n) => Ok((n - 1) as Action),
            _ => Err(format!(
                "'{}' is not a column 1..{cols} (or #index 0..{})",
                text.trim(),
                cols - 1
            )),
        }
    }

    fn action_cell(&self, action: Action) -> Option<(usize, usize)> {
        let col = action as usize;
        if col >= self.columns() || !self.playable(col) {
            return None;
        }
        Some((col, self.rows() - 1 - self.height(col)))
    }

    fn board(&self) -> crate::game::board::Board {
        crate::game::board::Board::grid(self.columns(), self.rows(), |c, r| self.at(c, r))
    }

    /// A drop is clicked anywhere in its column.
    fn target(&self, action: Action) -> crate::game::board::Target {
        if (action as usize) < self.columns() {
            crate::game::board::Target::Column { col: action }
        } else {
            crate::game::board::Target::Button
        }
    }
}

impl Searchable for Connect4State {
    fn key(&self) -> u64 {
        // `position + mask` is unique per position (Pons): per column it is
        // the mover's discs plus a run of ones as high as the column, which
        // stays inside the column's bits. The mover is fixed by the disc count.
        mix64(self.position.wrapping_add(self.mask))
    }

    fn evaluate(&self) -> i32 {
        let board = self.board_mask();
        let own = self.position;
        let other = self.position ^ self.mask;
        self.side_value(own, other, board) - self.side_value(other, own, board)
    }
}

impl fmt::Display for Connect4State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows() {
            for c in 0..self.columns() {
                let ch = match self.at(c, r) {
                    Some(0) => 'X',
                    Some(_) => 'O',
                    None => '.',
                };
                write!(f, "{}{ch}", if c == 0 { "" } else { " " })?;
            }
            writeln!(f)?;
        }
        for c in 0..self.columns() {
            write!(f, "{}{}", if c == 0 { "" } else { " " }, c + 1)?;
        }
        writeln!(f)
    }
}

impl Game for Connect4 {
    type State = Connect4State;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec: `connect4[:CxR]`.
    fn from_spec(spec: &GameSpec) -> Result<Connect4, SpecError> {
        spec.check_keys(&["size"])?;
        let (c, r) = spec.size((7, 6), check_size)?;
        Connect4::new(c, r)
    }

    fn spec(&self) -> String {
        format!("connect4:{}x{}", self.columns, self.rows)
    }
    fn num_actions(&self) -> usize {
        self.columns()
    }
    fn max_game_length(&self) -> usize {
        self.columns() * self.rows()
    }
    fn initial_state(&self) -> Connect4State {
        Connect4State::new(self)
    }
    fn seat_names(&self) -> Vec<&'static str> {
        vec!["X", "O"]
    }
}

/// Cells where one more disc would complete four in a row for the owner
/// of `own`, among the empty cells (`board` without `mask`), on a
/// bitboard of `h1` bits a column (the rows and a sentinel).
#[inline]
pub(crate) fn completions(own: u64, mask: u64, board: u64, h1: u32) -> u64 {
    // Vertical: only three below.
    let mut r = (own << 1) & (own << 2) & (own << 3);
    // Horizontal and the two diagonals: the empty cell may be at any of the
    // four places of the line.
    for d in [h1, h1 - 1, h1 + 1] {
        let p = (own << d) & (own << (2 * d));
        r |= p & (own << (3 * d));
        r |= p & (own >> d);
        let p = (own >> d) & (own >> (2 * d));
        r |= p & (own << d);
        r |= p & (own >> (3 * d));
    }
    r & (board ^ mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_layout() {
        let g = Connect4::default();
        assert_eq!(g.spec(), "connect4:7x6");
        let s = g.state_from_moves("4").unwrap();
        // The first disc sits at the bottom of column 4: bit 3 × 7 + 0.
        assert_eq!(s.mask, 1 << 21);
        assert_eq!(s.discs(0), 1 << 21);
        assert_eq!(s.at(3, 5), Some(0));
        assert!(check_size(8, 7).is_ok());
        assert!(check_size(9, 7).is_err());
    }

    #[test]
    fn evaluate_counts_windows() {
        let g = Connect4::new(4, 4).unwrap();
        // One X disc at the bottom of column 1 of a 4x4 board, O to move. X's
        // windows holding it: bottom row, column 1, the rising diagonal: 3 × 1.
        // Columns 2 and 3 are the centre; column 1 is not.
        let s = g.state_from_moves("1").unwrap();
        assert_eq!(s.evaluate(), -3);
    }
}
