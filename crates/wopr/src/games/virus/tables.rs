//! Move geometry of the Virus board, per board size: the sixteen jump
//! offsets, the squares each jump reaches, king-step dilation and jump
//! generation on bitboards. Built at compile time for every size up to 8x8.

use crate::game::MAX_ACTIONS;

/// The sixteen jump offsets `(dy, dx)`, in action-index order.
pub const JUMP_OFFSETS: [(i32, i32); 16] = [
    (-2, -2),
    (-2, -1),
    (-2, 0),
    (-2, 1),
    (-2, 2),
    (-1, -2),
    (-1, 2),
    (0, -2),
    (0, 2),
    (1, -2),
    (1, 2),
    (2, -2),
    (2, -1),
    (2, 0),
    (2, 1),
    (2, 2),
];

/// The index `k` of offset `(dy, dx)` in [`JUMP_OFFSETS`], looked up at
/// `(dy + 2) × 5 + (dx + 2)`; −1 for offsets that are not jumps.
pub(super) const OFFSET_INDEX: [i8; 25] = {
    let mut t = [-1i8; 25];
    let mut k = 0;
    while k < 16 {
        let (dy, dx) = JUMP_OFFSETS[k];
        t[((dy + 2) * 5 + dx + 2) as usize] = k as i8;
        k += 1;
    }
    t
};

/// Neighbour tables for one board size.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tables {
    /// Every square of the board.
    pub(super) full: u64,
    /// Every square but those of the first column.
    pub(super) not_first: u64,
    /// Every square but those of the last column.
    pub(super) not_last: u64,
    /// The (up to eight) squares adjacent to each square.
    pub(super) adjacent: [u64; 64],
    /// The squares at Chebyshev distance exactly 2 from each square.
    pub(super) ring2: [u64; 64],
    /// `cols_from[dx + 2]`: the squares whose column minus `dx` is on the
    /// board, i.e. those a step of `dx` columns can reach. Masking with it
    /// before shifting a set by a step keeps squares from wrapping into the
    /// next row.
    pub(super) cols_from: [u64; 5],
    /// `jump_to[f][k]`: where jump `k` ([`JUMP_OFFSETS`]) from square `f`
    /// lands; [`OFF_BOARD`] where it leaves the board. Applying a jump is then
    /// a lookup, not divisions by N.
    pub(super) jump_to: [[u8; 16]; 64],
}

/// [`Tables::jump_to`] of a jump that leaves the board.
pub(super) const OFF_BOARD: u8 = u8::MAX;

pub(super) const fn tables(n: usize) -> Tables {
    let full = if n * n == 64 {
        u64::MAX
    } else {
        (1u64 << (n * n)) - 1
    };
    let mut adjacent = [0u64; 64];
    let mut ring2 = [0u64; 64];
    let mut first = 0u64;
    let mut r = 0;
    while r < n {
        first |= 1 << (r * n);
        r += 1;
    }
    let ni = n as i32;
    let mut s = 0;
    while s < n * n {
        let (r, c) = ((s / n) as i32, (s % n) as i32);
        let mut dy = -2;
        while dy <= 2 {
            let mut dx = -2;
            while dx <= 2 {
                let (y, x) = (r + dy, c + dx);
                if y >= 0 && y < ni && x >= 0 && x < ni {
                    let bit = 1u64 << (y * ni + x);
                    let dist = if dy.abs() > dx.abs() {
                        dy.abs()
                    } else {
                        dx.abs()
                    };
                    if dist == 1 {
                        adjacent[s] |= bit;
                    } else if dist == 2 {
                        ring2[s] |= bit;
                    }
                }
                dx += 1;
            }
            dy += 1;
        }
        s += 1;
    }
    let mut cols_from = [0u64; 5];
    let mut jump_to = [[OFF_BOARD; 16]; 64];
    let mut s = 0;
    while s < n * n {
        let (r, c) = ((s / n) as i32, (s % n) as i32);
        let mut dx = -2;
        while dx <= 2 {
            if c - dx >= 0 && c - dx < ni {
                cols_from[(dx + 2) as usize] |= 1 << s;
            }
            dx += 1;
        }
        let mut k = 0;
        while k < 16 {
            let (dy, dx) = JUMP_OFFSETS[k];
            let (y, x) = (r + dy, c + dx);
            if y >= 0 && y < ni && x >= 0 && x < ni {
                jump_to[s][k] = (y * ni + x) as u8;
            }
            k += 1;
        }
        s += 1;
    }
    Tables {
        full,
        not_first: full & !first,
        not_last: full & !(first << (n - 1)),
        adjacent,
        ring2,
        cols_from,
        jump_to,
    }
}

/// The squares `f` of the board such that `f + (dy, dx)` is in `set`: `set`
/// shifted back by the step, on an `n`×`n` board (`dy`, `dx` in −2..=2).
#[inline(always)]
pub(super) fn back(set: u64, dy: i32, dx: i32, n: usize, t: &Tables) -> u64 {
    let from = set & t.cols_from[(dx + 2) as usize];
    // |dx| < N, so the step's sign is that of dy, or of dx on the same row.
    let by = dy * n as i32 + dx;
    if by >= 0 {
        from >> by
    } else {
        (from << -by) & t.full
    }
}

/// The origins of the legal jumps of the player owning `mine`, one set per
/// offset of [`JUMP_OFFSETS`]: a piece whose destination is empty and which
/// has an empty square adjacent to both ends. Twenty-four shifted copies of
/// the empty squares and no loop over pieces, as Ataxx engines generate
/// moves; written out in full because LLVM does not unroll the loops that
/// would compute the same.
#[inline(always)]
pub(super) fn jump_origins(mine: u64, empty: u64, n: usize, t: &Tables) -> [u64; 16] {
    let step = |dy, dx| back(empty, dy, dx, n, t) & mine;
    // Pieces whose neighbour in each direction is empty (compass points,
    // north = row above): the possible via squares.
    let (nw, no, ne) = (step(-1, -1), step(-1, 0), step(-1, 1));
    let (we, ea) = (step(0, -1), step(0, 1));
    let (sw, so, se) = (step(1, -1), step(1, 0), step(1, 1));
    // A jump's via squares are the steps adjacent to both its ends: the one
    // corner or the two or three squares of the near side (see the offsets'
    // order in `JUMP_OFFSETS`).
    let via = [
        nw,
        nw | no,
        nw | no | ne,
        no | ne,
        ne,
        nw | we,
        ne | ea,
        nw | we | sw,
        ne | ea | se,
        we | sw,
        ea | se,
        sw,
        sw | so,
        sw | so | se,
        so | se,
        se,
    ];
    let mut out = [0u64; 16];
    for (k, o) in out.iter_mut().enumerate() {
        let (dy, dx) = JUMP_OFFSETS[k];
        *o = via[k] & back(empty, dy, dx, n, t);
    }
    out
}

/// Tables for sides 0..=8 (only 4..=8 are used).
pub(super) static TABLES: [Tables; 9] = {
    let mut t = [tables(4); 9];
    t[5] = tables(5);
    t[6] = tables(6);
    t[7] = tables(7);
    t[8] = tables(8);
    t
};

/// The most jumps that can be legal at once on an `n`×`n` board: the number
/// of unordered square pairs at distance 2.
pub(super) const fn max_jumps(n: usize) -> usize {
    let t = tables(n);
    let mut total = 0;
    let mut s = 0;
    while s < n * n {
        total += t.ring2[s].count_ones() as usize;
        s += 1;
    }
    total / 2
}

// 336 jumps + 64 grows on 8x8 (the largest board) fit in an action list.
const _: () = assert!(max_jumps(8) == 336 && max_jumps(8) + 64 <= MAX_ACTIONS);

/// The squares adjacent to some square of `x` or in `x` (a king-step
/// dilation), on an `n`×`n` board.
#[inline]
pub(super) fn dilate(x: u64, n: usize, t: &Tables) -> u64 {
    // Spread along rows (dropping squares that wrapped to another row), then
    // up and down.
    let row = x | (x << 1 & t.not_first) | (x >> 1 & t.not_last);
    (row | row << n | row >> n) & t.full
}
