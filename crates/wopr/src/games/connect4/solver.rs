//! The exact Connect-4 solver behind `connect4`'s `perfect` player.
//!
//! **Score.** Positions are scored as in Pascal Pons's solver (the scale of
//! his test sets, lines `moves score`): a win for the player to move is worth
//! `(C × R + 1 − n) / 2`, where `n` is the number of discs on the board just
//! before the winning disc, so the earlier the win, the higher the score; a
//! loss is minus the opponent's score; a draw is 0. Put differently, a win
//! scores 1 plus the number of discs the winner still has in hand after the
//! winning one (on 7×6, a win with the winner's last disc scores 1 and one
//! with their fourth disc scores 18).
//! [`Solution::value`] is the sign of that score; [`Solution::score`] is
//! `None` (Connect-4 keeps no score margin; [`Connect4Solver::score`] gives
//! the distance-aware score itself), and [`Solution::best`] holds every move
//! whose own score equals the position's: the fastest wins, the slowest
//! losses, or the draws.
//!
//! **Search.** Negamax with alpha–beta on the two-bitboard layout of
//! [`Connect4State`] (see [`super`]), after Pons's and Tromp's
//! solvers:
//! * the root score is found by a sequence of null-window searches that
//!   narrow the interval of possible scores, probing far from 0 first (those
//!   bounds are cheap to settle) before the expensive searches near 0;
//! * a node never considers a move that lets the opponent win at once:
//!   facing one immediate threat it plays only the block, facing two it has
//!   lost, and it never plays directly under an opponent's winning cell;
//! * the other moves are tried in order of the number of winning cells
//!   ("threats") they leave the mover with, ties broken centre-first, after
//!   the move that last refuted the same position, if the table remembers
//!   one;
//! * every node bounds its score from the discs left, and stores the bound it
//!   proves in a transposition table: one `u64` per entry packing the key
//!   (the low 52 bits of `position + mask`, which is unique per position), a
//!   move hint and a one-byte bound. Indexing by the key modulo a prime
//!   larger than 2¹² makes the stored bits plus the index identify the whole
//!   64-bit key (Chinese remainder theorem), so there are no false hits;
//! * the key is left–right mirrored to its smaller form in the first
//!   [`MIRROR_PLIES`] plies, where symmetric positions are common, and nodes
//!   with many cells left first look up every child in the table for a
//!   bound that cuts off at once (enhanced transposition cutoff).
//!
//! There are two tables, allocated on the first solve and kept between
//! solves, so the `perfect` player's later moves and the per-move checks
//! behind [`Solution::best`] reuse earlier work: the main one (default 2²³
//! entries, 64 MiB) for positions with more than [`NEAR_EMPTIES`] empty
//! cells, and a 512 KiB one that stays in the processor's cache for the
//! many small searches near the end, which would otherwise cost a memory
//! access each and push the valuable entries out of the main table. (On 6×6
//! this cuts the time to about a third and the positions searched by a
//! fifth.)
//!
//! A book of solved positions ([`Connect4Solver::with_book`]) answers the
//! early positions that take seconds to minutes, and grows with them.
//!
//! Every board size the game accepts works. Measured on a release build on
//! a shared 2-core machine: the empty 6×6 board takes about 4 s (57 million
//! positions, best moves included); 7×6 positions with 14 discs left to play
//! take 0.07 ms on average and a few ms at worst; 7×6 positions four discs
//! deep take from 2 s to a minute, and earlier ones much longer. A node limit
//! ([`Connect4Solver::with_node_limit`]) turns such searches into
//! [`SolveError::TooLarge`].

use std::time::{Duration, Instant};

use super::book::{self, SharedBook, RECORD_NODES};
use super::{Connect4, Connect4State};
use crate::game::solver::{Solution, SolveError, Solver};
use crate::game::{Action, State};

/// Default size of the main transposition table, in entries (8 bytes each).
pub const DEFAULT_TABLE_ENTRIES: usize = 1 << 23;

/// Size of the table for positions near the end (512 KiB: stays in cache).
const NEAR_TABLE_ENTRIES: usize = 1 << 16;

/// Positions with at most this many empty cells use the near-end table.
pub const NEAR_EMPTIES: u32 = 14;

/// Positions with at most this many discs have their table key mirrored to
/// the smaller of its two forms; deeper, symmetric pairs are rare and the
/// mirroring no longer pays.
pub const MIRROR_PLIES: u32 = 20;

/// Nodes with at least this many empty cells look up their children in the
/// table before searching any (enhanced transposition cutoff).
const ETC_EMPTIES: u32 = 16;

/// Board geometry and the masks derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Geometry {
    columns: u32,
    rows: u32,
    /// Cells on the board.
    cells: u32,
    /// Bottom cell of every column.
    bottom: u64,
    /// Every playable cell.
    board: u64,
    /// The playable cells of each column.
    column: [u64; 9],
    /// Columns from the centre outwards.
    order: [u8; 9],
}

impl Geometry {
    fn new(columns: usize, rows: usize) -> Geometry {
        let (columns, rows) = (columns as u32, rows as u32);
        let h1 = rows + 1;
        let mut column = [0u64; 9];
        let mut order = [0u8; 9];
        let (mut bottom, mut board) = (0, 0);
        for c in 0..columns {
            column[c as usize] = ((1u64 << rows) - 1) << (c * h1);
            bottom |= 1u64 << (c * h1);
            board |= column[c as usize];
            // Centre, then alternately left and right of it.
            let i = c as i32;
            let sign = if i % 2 == 0 { 1 } else { -1 };
            order[c as usize] = (columns as i32 / 2 + sign * (i + 1) / 2) as u8;
        }
        Geometry {
            columns,
            rows,
            cells: columns * rows,
            bottom,
            board,
            column,
            order,
        }
    }

    /// Cells where one more disc would complete four in a row for the owner
    /// of `own`, among the empty cells of `mask` (playable now or not).
    #[inline]
    fn winning_cells(&self, own: u64, mask: u64) -> u64 {
        super::completions(own, mask, self.board, self.rows + 1)
    }

    /// The cells a disc can be dropped into now.
    #[inline]
    fn playable(&self, mask: u64) -> u64 {
        (mask + self.bottom) & self.board
    }

    /// `key` with the columns in reverse order: the key of the mirror image.
    #[inline]
    fn mirror(&self, key: u64) -> u64 {
        let h1 = self.rows + 1;
        let col = (1u64 << h1) - 1;
        let mut m = 0;
        for c in 0..self.columns {
            m |= ((key >> (c * h1)) & col) << ((self.columns - 1 - c) * h1);
        }
        m
    }
}

/// The exact Connect-4 solver (see the module docs). Handles any board size
/// the game accepts; the table is rebuilt when the board size changes.
pub struct Connect4Solver {
    geo: Geometry,
    /// The main transposition table; allocated on the first solve.
    table: Table,
    /// The table for positions near the end, that stays in cache.
    near: Table,
    /// Main-table entries to allocate: the largest prime not above the
    /// requested size.
    entries: usize,
    nodes: u64,
    node_limit: Option<u64>,
    /// `nodes` value at which the current solve gives up.
    give_up_at: u64,
    /// The wall-clock budget of one solve.
    time_limit: Option<Duration>,
    /// When the current solve gives up.
    deadline: Option<Instant>,
    aborted: bool,
    /// Solved positions looked up before searching and written after
    /// costly searches.
    book: Option<SharedBook>,
    /// Searches visiting at least this many positions are written to the
    /// book.
    record_nodes: u64,
}

/// Table entries: the low 8 bits hold the bound, the score offset by 64
/// (always 1..=127, so never 0) with [`LOWER`] set for a lower bound; the
/// next 4 bits a move hint (column + 1, 0 = none); the rest the low bits of
/// the key.
const KEY_SHIFT: u32 = 12;

/// Flag of a lower bound in a table entry.
const LOWER: u64 = 0x80;

impl Connect4Solver {
    /// A solver for `game`'s board with the default table size
    /// ([`DEFAULT_TABLE_ENTRIES`]).
    pub fn new(game: &Connect4) -> Connect4Solver {
        Connect4Solver::with_table_entries(game, DEFAULT_TABLE_ENTRIES)
    }

    /// A solver whose main transposition table has about `entries` entries
    /// (8 bytes each; at least 8192).
    pub fn with_table_entries(game: &Connect4, entries: usize) -> Connect4Solver {
        Connect4Solver {
            geo: Geometry::new(game.columns(), game.rows()),
            table: Table::default(),
            near: Table::default(),
            entries: prime_at_most(entries.max(1 << 13)),
            nodes: 0,
            node_limit: None,
            give_up_at: u64::MAX,
            time_limit: None,
            deadline: None,
            aborted: false,
            book: None,
            record_nodes: RECORD_NODES,
        }
    }

    /// The same solver looking every position up in `book` (of the same
    /// board size) first, and writing down each position whose search
    /// visits at least [`RECORD_NODES`] positions.
    pub fn with_book(mut self, book: SharedBook) -> Connect4Solver {
        self.book = Some(book);
        self
    }

    /// The same solver writing to its book every search that visits at
    /// least `nodes` positions (default [`RECORD_NODES`]; 0 writes every
    /// position solved).
    pub fn recording_from(mut self, nodes: u64) -> Connect4Solver {
        self.record_nodes = nodes;
        self
    }

    /// Gives up (with [`SolveError::TooLarge`]) on any solve that would visit
    /// more than `limit` positions; `None` (the default) never gives up.
    pub fn with_node_limit(mut self, limit: Option<u64>) -> Connect4Solver {
        self.node_limit = limit;
        self
    }

    /// Positions visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact score of `state` for the player to move, on the scale of the
    /// module docs: positive for a win (larger = sooner), negative for a loss
    /// (larger = later), 0 for a draw.
    pub fn score(&mut self, state: &Connect4State) -> Result<i32, SolveError> {
        let (cur, mask, plies) = self.prepare(state)?;
        let start = self.nodes;
        let s = self.root_score(cur, mask, plies);
        self.finish(start)?;
        Ok(s)
    }

    /// The exact score (as in [`Connect4Solver::score`], from the point of
    /// view of the player to move in `state`) of every legal move, in
    /// increasing action order. Costs a full solve per move; [`Solver::solve`]
    /// finds the best moves more cheaply.
    pub fn move_scores(&mut self, state: &Connect4State) -> Result<Vec<(Action, i32)>, SolveError> {
        let (cur, mask, plies) = self.prepare(state)?;
        let start = self.nodes;
        let g = self.geo;
        let mut out = Vec::new();
        for c in 0..g.columns as usize {
            let m = g.playable(mask) & g.column[c];
            if m == 0 {
                continue;
            }
            let s = if g.winning_cells(cur, mask) & m != 0 {
                win_score(g.cells, plies)
            } else {
                -self.root_score(cur ^ mask, mask | m, plies + 1)
            };
            out.push((c as Action, s));
        }
        self.finish(start)?;
        Ok(out)
    }

    /// Checks `state`, adapts to its board size, and returns its bitboards.
    fn prepare(&mut self, state: &Connect4State) -> Result<(u64, u64, u32), SolveError> {
        if state.is_terminal() {
            return Err(SolveError::Terminal);
        }
        let geo = Geometry::new(state.columns(), state.rows());
        if geo != self.geo {
            // Keys of another board size mean other positions.
            self.geo = geo;
            self.table.entries.clear();
        }
        if self.table.entries.is_empty() {
            self.table.entries = vec![0; self.entries];
            self.near.entries = vec![0; prime_at_most(NEAR_TABLE_ENTRIES)];
        }
        self.aborted = false;
        self.give_up_at = match self.node_limit {
            Some(limit) => self.nodes.saturating_add(limit),
            None => u64::MAX,
        };
        self.deadline = self.time_limit.map(|t| Instant::now() + t);
        let cur = state.discs(state.to_move());
        let mask = cur | state.discs(1 - state.to_move());
        Ok((cur, mask, state.plies() as u32))
    }

    /// Turns an aborted search into an error.
    fn finish(&mut self, start: u64) -> Result<(), SolveError> {
        if self.aborted {
            self.aborted = false;
            let why = if self.nodes > self.give_up_at {
                "its node limit"
            } else {
                "its time limit"
            };
            return Err(SolveError::TooLarge(format!(
                "gave up after {} positions ({why})",
                self.nodes - start
            )));
        }
        Ok(())
    }

    /// The exact score of a position that is not over (any number of moves
    /// left, possibly an immediate win), by null-window searches.
    fn root_score(&mut self, cur: u64, mask: u64, plies: u32) -> i32 {
        let g = self.geo;
        if plies == g.cells {
            return 0;
        }
        if g.winning_cells(cur, mask) & g.playable(mask) != 0 {
            return win_score(g.cells, plies);
        }
        let mut min = -((g.cells - plies) as i32) / 2;
        let mut max = ((g.cells + 1 - plies) as i32) / 2;
        while min < max && !self.aborted {
            // Bisect, but probe halfway to the ends first: bounds far from 0
            // are cheap to settle and narrow the interval before the
            // expensive searches near 0.
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(cur, mask, plies, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        min
    }

    /// Whether the exact score of a position that is not over is at most
    /// `bound`, by one null-window search.
    fn score_at_most(&mut self, cur: u64, mask: u64, plies: u32, bound: i32) -> bool {
        let g = self.geo;
        if plies == g.cells {
            return 0 <= bound;
        }
        if g.winning_cells(cur, mask) & g.playable(mask) != 0 {
            return win_score(g.cells, plies) <= bound;
        }
        self.negamax(cur, mask, plies, bound, bound + 1) <= bound
    }

    /// The table key of a position (mirrored to its smaller form near the
    /// root) and whether it was mirrored.
    #[inline]
    fn key(&self, cur: u64, mask: u64, plies: u32) -> (u64, bool) {
        let key = cur + mask;
        if plies <= MIRROR_PLIES {
            let m = self.geo.mirror(key);
            if m < key {
                return (m, true);
            }
        }
        (key, false)
    }

    /// The table for positions with `empties` cells left.
    #[inline]
    fn table(&mut self, empties: u32) -> &mut Table {
        if empties > NEAR_EMPTIES {
            &mut self.table
        } else {
            &mut self.near
        }
    }

    /// Negamax with alpha–beta for a position where the player to move cannot
    /// win at once and at least one disc is left to play. Fail-soft within the
    /// bounds the table and the disc count give: the result is at most
    /// `alpha` if the true score is, at least `beta` if the true score is, and
    /// exact in between.
    fn negamax(&mut self, cur: u64, mask: u64, plies: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.give_up_at
            || (self.nodes & 4095 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let g = self.geo;
        let cells = g.cells;
        let possible = g.playable(mask);
        let theirs = g.winning_cells(cur ^ mask, mask);
        let mut moves = possible;
        let forced = possible & theirs;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                // Two immediate threats: one can be blocked, the other wins.
                return -((cells - plies) as i32) / 2;
            }
            moves = forced;
        }
        // Never play directly under a cell where the opponent would win.
        moves &= !(theirs >> 1);
        if moves == 0 {
            return -((cells - plies) as i32) / 2;
        }
        if plies + 2 >= cells {
            // At most two cells left and neither side can win with them.
            return 0;
        }
        // The opponent cannot win with their next disc, so the worst is a
        // loss two discs later; we cannot win with this disc, so the best is
        // a win with the next one.
        let min = -((cells - 2 - plies) as i32) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = ((cells - 1 - plies) as i32) / 2;
        let (key, mirrored) = self.key(cur, mask, plies);
        let entry = self.table(cells - plies).lookup(key);
        let mut hint_col = usize::MAX;
        if entry != 0 {
            let v = (entry & 0x7f) as i32 - 64;
            if entry & LOWER != 0 {
                if alpha < v {
                    alpha = v;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else if max > v {
                max = v;
            }
            let hint = ((entry >> 8) & 0xf) as usize;
            if hint != 0 {
                hint_col = if mirrored {
                    g.columns as usize - hint
                } else {
                    hint - 1
                };
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }

        // Order: the table's hint first, then most threats after the move;
        // ties centre-first (insertion keeps the earlier, more central column
        // ahead).
        let mut list = [(0u32, 0u8); 9];
        let mut n = 0;
        for &c in &g.order[..g.columns as usize] {
            let m = moves & g.column[c as usize];
            if m == 0 {
                continue;
            }
            let threats = if c as usize == hint_col {
                u32::MAX
            } else {
                g.winning_cells(cur | m, mask | m).count_ones()
            };
            let mut i = n;
            while i > 0 && list[i - 1].0 < threats {
                list[i] = list[i - 1];
                i -= 1;
            }
            list[i] = (threats, c);
            n += 1;
        }
        if cells - plies >= ETC_EMPTIES {
            // A child whose stored upper bound u has −u ≥ beta refutes this
            // node without a search.
            for &(_, c) in &list[..n] {
                let m = moves & g.column[c as usize];
                let (child, _) = self.key(cur ^ mask, mask | m, plies + 1);
                let e = self.table(cells - plies - 1).lookup(child);
                if e != 0 && e & LOWER == 0 {
                    let v = 64 - (e & 0x7f) as i32;
                    if v >= beta {
                        return v;
                    }
                }
            }
        }
        for &(_, c) in &list[..n] {
            let m = moves & g.column[c as usize];
            let v = -self.negamax(cur ^ mask, mask | m, plies + 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if v >= beta {
                let c = if mirrored {
                    g.columns - 1 - c as u32
                } else {
                    c as u32
                };
                self.table(cells - plies).store(key, v, true, c as u64 + 1);
                return v;
            }
            if v > alpha {
                alpha = v;
            }
        }
        self.table(cells - plies).store(key, alpha, false, 0);
        alpha
    }
}

/// A transposition table: see the module docs and [`KEY_SHIFT`].
#[derive(Default)]
struct Table {
    entries: Vec<u64>,
}

impl Table {
    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key % self.entries.len() as u64) as usize
    }

    /// The entry for `key` (bound byte and move hint), or 0.
    #[inline]
    fn lookup(&self, key: u64) -> u64 {
        let e = self.entries[self.slot(key)];
        if e >> KEY_SHIFT == (key << KEY_SHIFT) >> KEY_SHIFT {
            e & ((1 << KEY_SHIFT) - 1)
        } else {
            0
        }
    }

    /// Stores a bound for `key`, with `hint` (column + 1 of the move that
    /// proved a lower bound, 0 for none: then an earlier hint for the same
    /// position is kept).
    #[inline]
    fn store(&mut self, key: u64, score: i32, lower: bool, mut hint: u64) {
        let byte = (score + 64) as u64 | if lower { LOWER } else { 0 };
        let slot = self.slot(key);
        let old = self.entries[slot];
        if hint == 0 && old >> KEY_SHIFT == (key << KEY_SHIFT) >> KEY_SHIFT {
            hint = (old >> 8) & 0xf;
        }
        self.entries[slot] = key << KEY_SHIFT | hint << 8 | byte;
    }
}

impl Solver<Connect4> for Connect4Solver {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }

    fn scores_moves(&self) -> bool {
        true
    }

    fn move_scores(
        &mut self,
        state: &Connect4State,
    ) -> Option<Result<Vec<(Action, i32)>, SolveError>> {
        Some(Connect4Solver::move_scores(self, state))
    }

    fn solve(&mut self, state: &Connect4State) -> Result<Solution, SolveError> {
        let (cur, mask, plies) = self.prepare(state)?;
        let g = self.geo;
        let keys = (cur + mask, g.mirror(cur + mask));
        if let Some(sol) = self.book.as_ref().and_then(|b| book::solution(b, keys)) {
            return Ok(sol);
        }
        let start = self.nodes;
        let score = self.root_score(cur, mask, plies);
        let wins = g.winning_cells(cur, mask);
        let mut best = Vec::new();
        for c in 0..g.columns as usize {
            let m = g.playable(mask) & g.column[c];
            if m == 0 {
                continue;
            }
            // A move is optimal when its score reaches the position's, that
            // is when the opponent's score after it is at most −score.
            let optimal = if wins & m != 0 {
                win_score(g.cells, plies) == score
            } else {
                self.score_at_most(cur ^ mask, mask | m, plies + 1, -score)
            };
            if optimal {
                best.push(c as Action);
            }
        }
        self.finish(start)?;
        if self.nodes - start >= self.record_nodes {
            let written = self
                .book
                .as_ref()
                .map(|b| book::record(b, keys, score, &best));
            // A book that cannot be written only costs later searches time:
            // say so once and go on without writing.
            if let Some(Err(e)) = written {
                eprintln!("warning: {e}; going on without the book");
                self.book = None;
            }
        }
        Ok(Solution {
            value: score.signum(),
            score: None,
            best,
            nodes: self.nodes - start,
        })
    }
}

/// The score of winning with the next disc when `plies` discs are down.
fn win_score(cells: u32, plies: u32) -> i32 {
    ((cells + 1 - plies) / 2) as i32
}

/// The largest prime `<= n` (for `n >= 2`), by trial division.
fn prime_at_most(n: usize) -> usize {
    let is_prime = |k: usize| {
        k >= 2
            && (2..)
                .take_while(|d| d * d <= k)
                .all(|d| !k.is_multiple_of(d))
    };
    (2..=n).rev().find(|&k| is_prime(k)).unwrap_or(2)
}

#[cfg(test)]
#[path = "solver_tests.rs"]
mod tests;
