//! Play on a Virus position: whose turn it is, the legal moves, a random move
//! drawn without building the list, applying a move, the result, the move
//! notation, the search heuristic and the board as text.

use std::fmt;

use super::state::bit_sliced_count;
use super::tables::{dilate, jump_origins, OFFSET_INDEX, OFF_BOARD};
use super::{VirusState, BLACK};
use crate::game::{mix64, parse_index, Action, ActionList, Searchable, State, Turn};
use crate::games::bitboard::{bits, parse_square, select_bit, square_name};

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

    fn board(&self) -> crate::game::board::Board {
        crate::game::board::Board::grid(self.size(), self.size(), |c, r| self.at(c, r))
    }

    /// A grow is clicked on its square, a jump as its two squares, a pass
    /// is a button.
    fn target(&self, action: Action) -> crate::game::board::Target {
        let n = self.size();
        match self.decode(action) {
            Some((Some(from), to)) => crate::game::board::Target::Jump {
                from: [from % n, from / n],
                to: [to % n, to / n],
            },
            Some((None, to)) => crate::game::board::Target::Cell {
                col: to % n,
                row: to / n,
            },
            None => crate::game::board::Target::Button,
        }
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
