//! The Virus game (Naveed & Cowling, §1; Cowling, CIG 2005).
//!
//! **Rules as implemented.** A square N×N board. Black (seat 0) moves first;
//! the players alternate, and each move is one of:
//! - a **grow**: a new piece of the mover's colour on an empty square adjacent
//!   (sides or corners) to one of the mover's pieces; the growing piece stays,
//!   so the result depends only on the destination;
//! - a **jump**: one of the mover's pieces moves to an empty square two away
//!   (Chebyshev distance 2, so knight-shaped jumps are included) "via an empty
//!   square": at least one square adjacent to both the origin and the
//!   destination must be empty. The origin becomes empty.
//!
//! After either move every opposing piece adjacent (sides or corners) to the
//! destination changes colour. A player with no legal move passes (the pass is
//! then the only legal action). The game ends when neither player can move,
//! and the player with more pieces wins; equal counts draw. A player without a
//! grow has no jump either (the empty square a jump passes through would be a
//! grow), so "can move" is "has an empty square next to a piece".
//!
//! **Our decision: a ply limit.** Jumps add no pieces, so play can cycle
//! forever. After `max-plies` actions (passes included) the game ends and is
//! scored by pieces as usual.
//!
//! **Parameters.** `virus[:NxN][,start=B/W][,max-plies=P]`:
//! - size `NxN`, square, N from 4 to 8; default `8x8`;
//! - `start`: Black's squares, a slash, White's squares, each list of square
//!   names written together, e.g. `start=a1h8/h1a8`. Default: Black on the
//!   top-left and bottom-right corners, White on the other two (`a1h8/h1a8`
//!   on 8×8). Both lists must be non-empty, on the board and disjoint;
//! - `max-plies`: 1 to 10000, default 400.
//!
//! The canonical spec names the size and the non-default parameters
//! (`virus:8x8`, `virus:6x6,max-plies=200`).
//!
//! **Notation.** Squares `a1`… as in Othello (letter = column, `a` = left;
//! number = row, `1` = top). A grow is its destination (`c3`), a jump its
//! origin and destination (`a1c3`; `a1-c3` is also read), and `pass`.
//! Parsing is case-insensitive and also takes `#index`.
//!
//! **Action indices** (our choice). With squares numbered `s = row × N + col`:
//! - grow to `s`: `s`, for `s` in `0..N²`;
//! - jump from `f` with offset `k`: `N² + 16f + k`, where `k` numbers the
//!   sixteen offsets `(dy, dx)` at Chebyshev distance 2 in row-major order
//!   (dy from −2 to 2, then dx from −2 to 2, skipping |dy|, |dx| ≤ 1):
//!   `k = 0..=4` are `(−2, −2…2)`, `5, 6` are `(−1, ∓2)`, `7, 8` are
//!   `(0, ∓2)`, `9, 10` are `(1, ∓2)`, `11..=15` are `(2, −2…2)`. Indices
//!   whose destination is off the board are never legal;
//! - pass: `17 N²`.
//!
//! There are `17 N² + 1` actions (1089 on 8×8). At most 336 jumps (the
//! number of square pairs at distance 2 on 8×8, each usable in one direction
//! at a time) plus 64 grows are ever legal, under [`MAX_ACTIONS`](crate::game::MAX_ACTIONS).
//!
//! **Heuristic** (for `alphabeta`), from the mover's view:
//! 10 × (own pieces − opponent pieces) + (empty squares next to own pieces −
//! empty squares next to opponent pieces); the second term counts grow moves,
//! a cheap measure of mobility and room.
//!
//! **Board representation.** One `u64` per colour, bit `row × N + col`, and
//! precomputed tables of each square's neighbours, of the squares two away
//! and of each jump's destination. Grows are the mover's pieces dilated by a
//! king step; jumps are sixteen sets of origins, one per offset, from shifts
//! of the empty squares (as Ataxx engines do), so neither the legal list nor
//! a random move loops over pieces.
//!
//! **Players** (in [`players`]): `alphabeta`
//! with the heuristic above, and the twenty hand-crafted players
//! `ai:1` … `ai:20[,depth=D]` (linear evaluations over ten documented
//! features), whose static evaluations are also available as training targets.
//!
//! **Papers.** Naveed & Cowling evolve and train 64-58-27-1 evaluation nets for
//! 8×8 Virus against ten hand-crafted players, and test them on ten more.
//!
//! **References.**
//! - M. H. Naveed and P. I. Cowling, "Using coevolution and gradient-based
//!   learning for the Virus game", University of Bradford (also as Cowling,
//!   Naveed and Hossain, "A coevolutionary model for the Virus game", *IEEE
//!   Symposium on Computational Intelligence and Games (CIG)*, 2006).

pub mod encode;
pub mod players;
mod tables;

use std::fmt;

use crate::game::{
    mix64, parse_index, Action, ActionList, Game, GameInfo, GameSpec, ParamInfo, Searchable,
    SpecError, State, Turn,
};
use crate::games::bitboard::{bits, parse_square, select_bit, square_name};
pub use tables::JUMP_OFFSETS;
use tables::{back, dilate, jump_origins, Tables, OFFSET_INDEX, OFF_BOARD, TABLES};

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "virus",
    aliases: &[],
    about: "the Virus game: grow or jump, convert the neighbours; most pieces wins",
    paper: "Naveed & Cowling",
    params: &[
        ParamInfo {
            name: "size",
            default: "8x8",
            doc: "board NxN, N from 4 to 8",
        },
        ParamInfo {
            name: "start",
            default: "corners (a1h8/h1a8 on 8x8)",
            doc: "Black's squares / White's squares, e.g. a1h8/h1a8; non-empty, disjoint",
        },
        ParamInfo {
            name: "max-plies",
            default: "400",
            doc: "the game ends after this many actions (passes included), 1..=10000",
        },
    ],
};

/// Black's seat (moves first).
pub const BLACK: usize = 0;
/// White's seat.
pub const WHITE: usize = 1;

/// The default ply limit.
pub const DEFAULT_MAX_PLIES: usize = 400;

/// The game: board side, start position and ply limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Virus {
    n: u8,
    start: [u64; 2],
    max_plies: u16,
}

impl Default for Virus {
    fn default() -> Self {
        Virus {
            n: 8,
            start: corners(8),
            max_plies: DEFAULT_MAX_PLIES as u16,
        }
    }
}

/// The default start on an `n`×`n` board: Black on the top-left and
/// bottom-right corners, White on the other two.
fn corners(n: usize) -> [u64; 2] {
    let sq = |c: usize, r: usize| 1u64 << (r * n + c);
    [sq(0, 0) | sq(n - 1, n - 1), sq(n - 1, 0) | sq(0, n - 1)]
}

fn check_size(c: usize, r: usize) -> Result<(), String> {
    if c == r && (4..=8).contains(&c) {
        Ok(())
    } else {
        Err("accepted: square boards NxN with N from 4 to 8".into())
    }
}

/// Parses squares written together (`a1h8`) into a bitboard.
fn parse_squares(text: &str, n: usize, who: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!("{who}'s list of squares is empty"));
    }
    // Squares are ASCII (a letter and digits); anything else would also cut
    // a multi-byte character in two below.
    if let Some(bad) = t.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Err(format!(
            "'{bad}' in {who}'s list is not part of a square (squares are written a1..{})",
            square_name(n - 1, n - 1)
        ));
    }
    let bytes = t.as_bytes();
    let mut set = 0u64;
    let mut i = 0;
    while i < bytes.len() {
        let mut j = i + 1;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        let name = &t[i..j];
        let (c, r) = parse_square(name, n, n).ok_or_else(|| {
            format!(
                "'{name}' in {who}'s list is not a square a1..{}",
                square_name(n - 1, n - 1)
            )
        })?;
        let bit = 1u64 << (r * n + c);
        if set & bit != 0 {
            return Err(format!("{name} is listed twice for {who}"));
        }
        set |= bit;
        i = j;
    }
    Ok(set)
}

fn squares_text(set: u64, n: usize) -> String {
    bits(set).map(|s| square_name(s % n, s / n)).collect()
}

impl Virus {
    /// The board side N.
    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// The ply limit.
    pub fn max_plies(&self) -> usize {
        self.max_plies as usize
    }

    /// The start pieces of each seat, bit `row × N + col`.
    pub fn start(&self) -> [u64; 2] {
        self.start
    }
}

/// A Virus position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VirusState {
    pieces: [u64; 2],
    plies: u16,
    max_plies: u16,
    n: u8,
    to_move: u8,
}

impl VirusState {
    fn tables(&self) -> &'static Tables {
        &TABLES[self.n as usize]
    }

    /// The board side N.
    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// The pieces of each seat (Black = 0, White = 1), bit `row × N + col`.
    pub fn pieces(&self) -> [u64; 2] {
        self.pieces
    }

    /// Actions played so far (passes included).
    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    /// The seat to move (also after the game is over: the seat that would).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The piece on `(col, row)`: `Some(seat)` or `None` for an empty square.
    pub fn at(&self, col: usize, row: usize) -> Option<usize> {
        let bit = 1u64 << (row * self.size() + col);
        (0..2).find(|&s| self.pieces[s] & bit != 0)
    }

    /// The pass action, `17 N²`.
    pub fn pass_action(&self) -> Action {
        (17 * self.size() * self.size()) as Action
    }

    /// The empty squares (bit `row × N + col`).
    #[inline(always)]
    pub fn empty(&self) -> u64 {
        self.tables().full & !(self.pieces[0] | self.pieces[1])
    }

    /// Every square of the board.
    pub fn board(&self) -> u64 {
        self.tables().full
    }

    /// `set` and every square adjacent (sides or corners) to one of its
    /// squares.
    #[inline(always)]
    pub fn around(&self, set: u64) -> u64 {
        dilate(set, self.size(), self.tables())
    }

    /// The (up to eight) squares adjacent to square `sq`.
    #[inline(always)]
    pub fn neighbours(&self, sq: usize) -> u64 {
        self.tables().adjacent[sq]
    }

    /// The pairs of adjacent squares (king steps) both in `set`, each pair
    /// once: four shifted copies of the set (east, south, south-east,
    /// south-west) and four popcounts, no loop over squares.
    #[inline(always)]
    pub fn adjacent_pairs(&self, set: u64) -> u32 {
        let (n, t) = (self.size(), self.tables());
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .map(|&(dy, dx)| (back(set, dy, dx, n, t) & set).count_ones())
            .sum()
    }

    /// The most squares of `of` adjacent to one square of `targets` (0 if
    /// `targets` is empty): the eight shifted copies of `of` summed square
    /// by square, bit-sliced, then the largest count found among
    /// `targets` bit by bit from the top, no loop over squares.
    #[inline(always)]
    pub fn max_adjacent(&self, targets: u64, of: u64) -> u32 {
        let (n, t) = (self.size(), self.tables());
        let mut w = [0u64; 16];
        let steps = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ];
        for (k, &(dy, dx)) in steps.iter().enumerate() {
            w[k] = back(of, dy, dx, n, t);
        }
        // Counts are at most 8: slices ones, twos, fours, eights.
        let slices = bit_sliced_count(&w);
        let (mut alive, mut best) = (targets, 0);
        for b in (0..4).rev() {
            let with = alive & slices[b];
            if with != 0 {
                alive = with;
                best |= 1 << b;
            }
        }
        best
    }

    /// Empty squares next to a piece of `seat`: its grow moves.
    #[inline(always)]
    pub fn grows(&self, seat: usize) -> u64 {
        dilate(self.pieces[seat], self.size(), self.tables()) & self.empty()
    }

    /// Decodes an action into (origin for a jump, destination); `None` for
    /// the pass and for indices that name no move on this board.
    fn decode(&self, action: Action) -> Option<(Option<usize>, usize)> {
        let n = self.size();
        let a = action as usize;
        if a < n * n {
            return Some((None, a));
        }
        if a >= 17 * n * n {
            return None;
        }
        let (f, k) = ((a - n * n) / 16, (a - n * n) % 16);
        let (dy, dx) = JUMP_OFFSETS[k];
        let (y, x) = ((f / n) as i32 + dy, (f % n) as i32 + dx);
        let inside = (0..n as i32).contains(&y) && (0..n as i32).contains(&x);
        inside.then(|| (Some(f), y as usize * n + x as usize))
    }
}

/// The sixteen jump-origin sets summed square by square, bit-sliced:
/// `[ones, twos, fours, eights, sixteens]`, so that square `s` is in
/// `Σ 2^b × [s in slice b]` of the sets. A Harley-Seal tree of 15 carry-save
/// adders (five instructions each) replaces sixteen popcounts, which the
/// portable x86-64 build does in software, and gives each square's count too.
#[inline(always)]
fn bit_sliced_count(w: &[u64; 16]) -> [u64; 5] {
    /// `a + b + c` bit by bit, as (carry, sum).
    #[inline(always)]
    fn csa(a: u64, b: u64, c: u64) -> (u64, u64) {
        let u = a ^ b;
        (a & b | u & c, u ^ c)
    }
    let (twos_a, ones) = csa(0, w[0], w[1]);
    let (twos_b, ones) = csa(ones, w[2], w[3]);
    let (fours_a, twos) = csa(0, twos_a, twos_b);
    let (twos_a, ones) = csa(ones, w[4], w[5]);
    let (twos_b, ones) = csa(ones, w[6], w[7]);
    let (fours_b, twos) = csa(twos, twos_a, twos_b);
    let (eights_a, fours) = csa(0, fours_a, fours_b);
    let (twos_a, ones) = csa(ones, w[8], w[9]);
    let (twos_b, ones) = csa(ones, w[10], w[11]);
    let (fours_a, twos) = csa(twos, twos_a, twos_b);
    let (twos_a, ones) = csa(ones, w[12], w[13]);
    let (twos_b, ones) = csa(ones, w[14], w[15]);
    let (fours_b, twos) = csa(twos, twos_a, twos_b);
    let (eights_b, fours) = csa(fours, fours_a, fours_b);
    let (sixteens, eights) = csa(0, eights_a, eights_b);
    [ones, twos, fours, eights, sixteens]
}

/// Set bits per byte of `x`, each in its byte (0..=8).
#[inline(always)]
fn byte_counts(x: u64) -> u64 {
    let s = x - (x >> 1 & 0x5555_5555_5555_5555);
    let s = (s & 0x3333_3333_3333_3333) + (s >> 2 & 0x3333_3333_3333_3333);
    (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F
}

/// The `j`-th legal jump (0-based, in action order: by origin, then by
/// offset) given the jump origins per offset; `j` must be below their total.
#[inline(always)]
fn nth_jump(origins: &[u64; 16], slices: &[u64; 5], per_byte: u64, j: u32) -> (usize, usize) {
    // The byte of squares (a row on 8x8) holding it, then the square, then
    // the offset; each step subtracts the jumps it skips.
    let mut j = j;
    let mut byte = 0;
    loop {
        let here = (per_byte >> (8 * byte)) as u32 & 0xFF;
        if j < here || byte == 7 {
            break;
        }
        j -= here;
        byte += 1;
    }
    let mut f = 8 * byte;
    loop {
        let here: u32 = (0..5).map(|b| ((slices[b] >> f) as u32 & 1) << b).sum();
        if j < here || f == 63 {
            break;
        }
        j -= here;
        f += 1;
    }
    let mut offsets = 0u64;
    for (k, o) in origins.iter().enumerate() {
        offsets |= (o >> f & 1) << k;
    }
    (f, select_bit(offsets, j) as usize)
}

impl State for VirusState {
    type View = Self;

    fn turn(&self) -> Turn {
        if self.plies >= self.max_plies || (self.grows(0) == 0 && self.grows(1) == 0) {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        if self.turn() == Turn::Terminal {
            return;
        }
        let me = self.to_move as usize;
        let grows = self.grows(me);
        if grows == 0 {
            out.push(self.pass_action());
            return;
        }
        let n = self.size();
        out.extend(bits(grows).map(|s| s as Action));
        let origins = jump_origins(self.pieces[me], self.empty(), n, self.tables());
        let any = origins.iter().fold(0, |acc, o| acc | o);
        // By origin, then by offset: increasing action indices. The origin's
        // offsets are gathered into a mask first, without a branch per
        // offset (those would be mispredicted half the time).
        for f in bits(any) {
            let offsets = origins
                .iter()
                .enumerate()
                .fold(0u64, |acc, (k, o)| acc | (o >> f & 1) << k);
            out.extend(bits(offsets).map(|k| (n * n + 16 * f + k) as Action));
        }
    }

    /// The legal list's pick without the list: the grows are a bitboard and
    /// the jumps sixteen (one per offset), counted bit-sliced, and the k-th
    /// move is found in them.
    #[inline]
    fn random_action<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Action {
        let me = self.to_move as usize;
        let (n, t) = (self.size(), self.tables());
        let empty = self.empty();
        let mine = self.pieces[me];
        let grows = dilate(mine, n, t) & empty;
        if grows == 0 {
            // The pass is the only legal action; a list of one still draws.
            let _ = rand::RngExt::random_range(rng, 0..1usize);
            return self.pass_action();
        }
        let origins = jump_origins(mine, empty, n, t);
        let slices = bit_sliced_count(&origins);
        // Jumps per byte of origins: at most 8 squares × 16 offsets = 128.
        let per_byte = (0..5).fold(0, |acc, b| acc + (byte_counts(slices[b]) << b));
        // Summed in 16-bit lanes: the total (at most 336) outgrows a byte.
        const LANES: u64 = 0x0001_0001_0001_0001;
        let pairs = (per_byte & 0x00FF_00FF_00FF_00FF) + (per_byte >> 8 & 0x00FF_00FF_00FF_00FF);
        let jumps = (pairs.wrapping_mul(LANES) >> 48) as u32;
        let g = grows.count_ones();
        let i = rand::RngExt::random_range(rng, 0..(g + jumps) as usize) as u32;
        if i < g {
            return select_bit(grows, i) as Action;
        }
        let (f, k) = nth_jump(&origins, &slices, per_byte, i - g);
        (n * n + 16 * f + k) as Action
    }

    fn apply(&mut self, action: Action) {
        let me = self.to_move as usize;
        let (n, a) = (self.size(), action as usize);
        // (origin bit, destination): a lookup, no division by N. A jump off
        // the board is never legal; like the pass it changes no piece.
        let (from, to) = if a < n * n {
            (0, a)
        } else if a < 17 * n * n {
            let (f, k) = ((a - n * n) >> 4, (a - n * n) & 15);
            debug_assert!(self.pieces[me] >> f & 1 == 1, "virus: no piece to jump");
            (1u64 << f, self.tables().jump_to[f][k] as usize)
        } else {
            debug_assert!(action == self.pass_action(), "virus: bad action {action}");
            (0, OFF_BOARD as usize)
        };
        debug_assert!(
            to != OFF_BOARD as usize || a >= 17 * n * n,
            "virus: bad action {action}"
        );
        if to != OFF_BOARD as usize {
            debug_assert!(self.empty() >> to & 1 == 1, "virus: destination occupied");
            let converted = self.tables().adjacent[to & 63] & self.pieces[1 - me];
            self.pieces[me] = (self.pieces[me] & !from) | converted | 1u64 << to;
            self.pieces[1 - me] &= !converted;
        }
        self.plies += 1;
        self.to_move ^= 1;
    }

    fn returns(&self, player: usize) -> f64 {
        if self.turn() != Turn::Terminal {
            return 0.0;
        }
        crate::game::result_of_margin(self.score(player).unwrap_or(0))
    }

    fn score(&self, player: usize) -> Option<i32> {
        Some(self.pieces[player].count_ones() as i32 - self.pieces[1 - player].count_ones() as i32)
    }

    fn view(&self, _player: usize) -> Self {
        *self
    }

    fn action_to_string(&self, action: Action) -> String {
        let n = self.size();
        let name = |s: usize| square_name(s % n, s / n);
        match self.decode(action) {
            Some((None, to)) => name(to),
            Some((Some(f), to)) => format!("{}{}", name(f), name(to)),
            None if action == self.pass_action() => "pass".into(),
            None => format!("#{action}"),
        }
    }

    fn action_cell(&self, action: Action) -> Option<(usize, usize)> {
        let n = self.size();
        self.decode(action).map(|(_, to)| (to % n, to / n))
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let n = self.size();
        if let Some(a) = parse_index(text, 17 * n * n + 1) {
            return Ok(a);
        }
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(self.pass_action());
        }
        let last = square_name(n - 1, n - 1);
        let accepted = || {
            format!(
                "'{t}' is not a move: write a grow as its square (a1..{last}), a jump as \
                 origin and destination two apart (a1c3), 'pass', or #index 0..{}",
                17 * n * n
            )
        };
        // A second letter starts the destination of a jump.
        let split = t
            .char_indices()
            .skip(1)
            .find(|(_, ch)| ch.is_ascii_alphabetic())
            .map(|(i, _)| i);
        let Some(i) = split else {
            return parse_square(t, n, n)
                .map(|(c, r)| (r * n + c) as Action)
                .ok_or_else(accepted);
        };
        let (Some((fc, fr)), Some((tc, tr))) = (
            parse_square(t[..i].trim_end_matches(['-', ' ']), n, n),
            parse_square(&t[i..], n, n),
        ) else {
            return Err(accepted());
        };
        let (dy, dx) = (tr as i32 - fr as i32, tc as i32 - fc as i32);
        if dy.abs().max(dx.abs()) != 2 {
            return Err(accepted());
        }
        let k = OFFSET_INDEX[((dy + 2) * 5 + dx + 2) as usize] as usize;
        Ok((n * n + 16 * (fr * n + fc) + k) as Action)
    }
}

impl Searchable for VirusState {
    fn key(&self) -> u64 {
        mix64(
            self.pieces[0]
                ^ mix64(self.pieces[1] ^ mix64((self.plies as u64) << 1 | self.to_move as u64)),
        )
    }

    fn evaluate(&self) -> i32 {
        let me = self.to_move as usize;
        let material = self.score(me).unwrap_or(0);
        let room = self.grows(me).count_ones() as i32 - self.grows(1 - me).count_ones() as i32;
        10 * material + room
    }
}

impl fmt::Display for VirusState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        crate::games::bitboard::draw_grid(f, n, n, |c, r| match self.at(c, r) {
            Some(BLACK) => 'B',
            Some(_) => 'W',
            None => '.',
        })
    }
}

impl Game for Virus {
    type State = VirusState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec
    /// (`virus[:NxN][,start=B/W][,max-plies=P]`).
    fn from_spec(spec: &GameSpec) -> Result<Virus, SpecError> {
        spec.check_keys(&["size", "start", "max-plies"])?;
        let (n, _) = spec.size((8, 8), check_size)?;
        let max_plies = spec.int("max-plies", DEFAULT_MAX_PLIES as i64, 1, 10_000)? as u16;
        let start = match spec.get("start") {
            None => corners(n),
            Some(v) => {
                let bad = |why: String| {
                    SpecError(format!(
                        "'virus': start={v}: {why} (accepted: Black's squares/White's squares, \
                         e.g. start=a1h8/h1a8)"
                    ))
                };
                let (b, w) = v
                    .split_once('/')
                    .ok_or_else(|| bad("no '/' between the two lists".into()))?;
                let black = parse_squares(b, n, "Black").map_err(bad)?;
                let white = parse_squares(w, n, "White").map_err(bad)?;
                if black & white != 0 {
                    return Err(bad(format!(
                        "{} given to both players",
                        squares_text(black & white, n)
                    )));
                }
                [black, white]
            }
        };
        Ok(Virus {
            n: n as u8,
            start,
            max_plies,
        })
    }

    fn spec(&self) -> String {
        let n = self.size();
        let mut s = format!("virus:{n}x{n}");
        if self.start != corners(n) {
            s += &format!(
                ",start={}/{}",
                squares_text(self.start[0], n),
                squares_text(self.start[1], n)
            );
        }
        if self.max_plies as usize != DEFAULT_MAX_PLIES {
            s += &format!(",max-plies={}", self.max_plies);
        }
        s
    }
    fn num_actions(&self) -> usize {
        17 * self.size() * self.size() + 1
    }
    fn max_game_length(&self) -> usize {
        self.max_plies as usize
    }
    fn initial_state(&self) -> VirusState {
        VirusState {
            pieces: self.start,
            plies: 0,
            max_plies: self.max_plies,
            n: self.n,
            to_move: BLACK as u8,
        }
    }
    fn seat_names(&self) -> Vec<&'static str> {
        vec!["black", "white"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(spec: &str) -> Virus {
        Virus::from_spec(&GameSpec::parse(spec).unwrap()).unwrap()
    }

    #[test]
    fn specs_round_trip_and_errors_explain() {
        assert_eq!(game("virus").spec(), "virus:8x8");
        assert_eq!(game("virus:8x8,start=a1h8/h1a8").spec(), "virus:8x8");
        for s in [
            "virus:5x5",
            "virus:6x6,max-plies=50",
            "virus:4x4,start=b2/c3d4",
        ] {
            assert_eq!(game(s).spec(), s);
            assert_eq!(game(&game(s).spec()), game(s));
        }
        assert_eq!(game("virus").num_actions(), 1089);
        for (bad, says) in [
            ("virus:9x9", "N from 4 to 8"),
            ("virus:6x5", "N from 4 to 8"),
            ("virus:start=a1h8", "no '/'"),
            ("virus:start=/h1", "Black's list of squares is empty"),
            ("virus:start=a1/", "White's list of squares is empty"),
            ("virus:start=a1b2/b2", "b2 given to both"),
            ("virus:start=a1a1/b2", "listed twice"),
            ("virus:start=a9/b2", "not a square"),
            // Found by the game-spec fuzz target: a multi-byte character used
            // to be cut in two (a panic).
            ("virus:start=aé1/b2", "not part of a square"),
            ("virus:max-plies=0", "1..=10000"),
        ] {
            let e = Virus::from_spec(&GameSpec::parse(bad).unwrap()).unwrap_err();
            assert!(e.0.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn adjacency_counts_match_square_loops() {
        // Along random games on every size: the shift-and-slice counts
        // equal the loops over squares they replace.
        for n in 4..=8 {
            let game =
                Virus::from_spec(&GameSpec::parse(&format!("virus:{n}x{n}")).unwrap()).unwrap();
            let mut s = game.initial_state();
            let mut rng = crate::game::rng::stream(n as u64, &[]);
            while !s.is_terminal() {
                for set in [s.pieces()[0], s.pieces()[1], s.empty(), s.board()] {
                    let pairs: u32 = bits(set)
                        .map(|q| (s.neighbours(q) & set).count_ones())
                        .sum::<u32>()
                        / 2;
                    assert_eq!(s.adjacent_pairs(set), pairs);
                    for of in [s.pieces()[0], s.pieces()[1]] {
                        let most = bits(set)
                            .map(|q| (s.neighbours(q) & of).count_ones())
                            .max()
                            .unwrap_or(0);
                        assert_eq!(s.max_adjacent(set, of), most);
                    }
                }
                let a = s.random_action(&mut rng);
                s.apply(a);
            }
        }
    }

    #[test]
    fn bit_sliced_count_counts() {
        // Sixteen mixed words (SplitMix64); each square's count must match.
        let mut z = 3u64;
        let mut words = [0u64; 16];
        for w in words.iter_mut() {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            *w = mix64(z);
        }
        // Square 0 in all sixteen: the count 16 needs the last slice.
        words.iter_mut().for_each(|w| *w |= 1);
        let slices = bit_sliced_count(&words);
        for s in 0..64 {
            let want: u32 = words.iter().map(|w| (w >> s & 1) as u32).sum();
            let got: u32 = (0..5).map(|b| ((slices[b] >> s & 1) as u32) << b).sum();
            assert_eq!(got, want, "square {s}");
        }
        assert_eq!(slices[4], 1);
    }

    #[test]
    fn jump_origins_follow_the_rule() {
        // The sixteen shifted sets against the rule square by square, from the
        // neighbour tables: a piece, an empty destination two away, and an
        // empty square adjacent to both. From the start and along a line of
        // play on every size.
        let mut jumps = 0;
        for n in 4..=8 {
            let g = game(&format!("virus:{n}x{n}"));
            let mut s = g.initial_state();
            for ply in 0..40 {
                let (me, t, empty) = (s.to_move(), s.tables(), s.empty());
                let origins = jump_origins(s.pieces[me], empty, n, t);
                for f in 0..n * n {
                    for (k, o) in origins.iter().enumerate() {
                        let to = t.jump_to[f][k];
                        let rule = s.pieces[me] >> f & 1 == 1
                            && to != OFF_BOARD
                            && empty >> to & 1 == 1
                            && t.adjacent[f] & t.adjacent[to as usize] & empty != 0;
                        assert_eq!(o >> f & 1 == 1, rule, "{n}x{n} ply {ply} f {f} k {k}\n{s}");
                        jumps += rule as usize;
                    }
                }
                let mut legal = ActionList::new();
                s.legal_actions(&mut legal);
                if legal.is_empty() {
                    break;
                }
                // The middle move of the list: varied positions, the same every run.
                s.apply(legal[legal.len() / 2]);
            }
        }
        // The lines are long enough to reach positions with jumps.
        assert!(jumps > 100, "only {jumps} jumps seen");
    }

    #[test]
    fn notation_round_trips() {
        let g = game("virus");
        let s = g.initial_state();
        for a in 0..g.num_actions() as Action {
            let text = s.action_to_string(a);
            if !text.starts_with('#') {
                assert_eq!(s.parse_action(&text).unwrap(), a, "{text}");
            }
        }
        assert_eq!(s.parse_action("A1C3").unwrap(), 64 + 15);
        assert_eq!(s.parse_action("a1-c3").unwrap(), 64 + 15);
        assert_eq!(s.parse_action("b2").unwrap(), 9);
        assert_eq!(s.parse_action("Pass").unwrap(), 1088);
        assert!(s.parse_action("a1b2").is_err());
        assert!(s.parse_action("a1a4").is_err());
        assert!(s.parse_action("i1").is_err());
    }
}
