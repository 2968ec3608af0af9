//! The exact endgame solver ([`ReversiSolver`], behind
//! [`Roster::solver`](crate::players::Roster::solver)): negamax with alpha-beta
//! over the final disc margin (own discs − opponent's when neither side can
//! move; empty squares count for no one, as in the game's [`State::score`]).
//! It works on bare bitboards, with code specialised per board size:
//! principal-variation search (null windows after the first move); while
//! more than [`SHALLOW`] squares are empty, a transposition table keyed by
//! both bitboards (bounds and best move; buckets of two slots, one kept for
//! the position with more empties), enhanced transposition cutoffs, and
//! fastest-first ordering (the table's move, then fewest opponent replies
//! with corner replies counted twice, then fewest empty squares next to own
//! discs); below that, no move list: each empty square is tried, those in
//! quadrants with an odd number of empties first (parity ordering), and
//! one that turns nothing over is skipped; and a closed form for the last
//! empty square. The search is compiled twice, portable and with
//! `popcnt`/`lzcnt`/BMI, and runs the second where the processor has them.
//! A position with more empty squares than the solver's limit is refused
//! with [`SolveError::TooLarge`]. The default limits
//! ([`default_max_empties`]) are 12 on 4×4 (the whole game), 24 on 6×6 and
//! 20 on 8×8: the slowest random positions at the limit we tried took under
//! a minute (release build; about 15 million positions a second since
//! issue 69, `wopr bench --solve`); positions
//! from real games are much easier, and 14 empties take a few hundredths of
//! a second. The 6×6 start (32 empties) is out of reach: a release run did
//! not finish in 15 minutes.
//!
//! `best` lists every move reaching the optimal final margin: after the
//! first move's exact value `v`, each other move is tested against `v − 1`
//! (is it as good?) and then against `v` (is it better?), and searched
//! exactly only if it is better.
//!
//! **Known results.** 4×4 Othello is a second-player win; plain minimax in
//! the tests confirms it and gives 3–11 (margin −8 for Black, two squares
//! left empty), as does the solver. 6×6 is a second-player win, 16–20
//! (Feinstein, 1993), beyond the solver's reach from the start.

use arrayvec::ArrayVec;

use super::{board_mask, flips_for, flips_n, moves_n, neighbours_n, Reversi, ReversiState};
use crate::game::solver::{Solution, SolveError, Solver};
use crate::game::{mix64, ActionList, State};
use crate::games::bitboard::bits;

/// At most this many empty squares: parity ordering, no table.
pub const SHALLOW: u32 = 5;

/// The default limit on empty squares of [`ReversiSolver`] for an `n`×`n`
/// board: 12 on 4×4 (the whole game), 24 on 6×6, 20 on 8×8.
pub fn default_max_empties(n: usize) -> u32 {
    match n {
        4 => 12,
        6 => 24,
        _ => 20,
    }
}

/// The default `empties=` of `perfect` on an `n`×`n` board: 12 on 4×4, 20
/// on 6×6, 18 on 8×8.
pub fn default_perfect_empties(n: usize) -> u32 {
    match n {
        4 => 12,
        6 => 20,
        _ => 18,
    }
}

/// From this many empty squares on, children are looked up in the table
/// before any is searched (enhanced transposition cutoff).
const ETC_EMPTIES: u32 = 11;

/// One table slot: a position, bounds on its margin, its best move, and
/// its number of empty squares (deeper entries are kept in preference).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    own: u64,
    opp: u64,
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
}

/// Table size: 2^20 slots of 24 bytes (24 MB) in buckets of two (the first
/// keeps the position with more empties, the second the newest), allocated
/// on the first solve deep enough to use it; 2^23 slots (192 MB) for solves
/// of [`BIG_SOLVE`] or more empties.
const TT_BITS: u32 = 20;
const TT_BITS_BIG: u32 = 23;

/// From this many empty squares on, the solver uses the big table.
pub const BIG_SOLVE: u32 = 26;

/// The exact Reversi endgame solver (see the module docs).
#[derive(Clone, Debug)]
pub struct ReversiSolver {
    n: usize,
    max_empties: u32,
    /// Squares of each quadrant, for parity ordering.
    quadrant_mask: [u64; 4],
    corners: u64,
    tt: Vec<Entry>,
    tt_bits: u32,
    nodes: u64,
    /// The wall-clock budget of one solve ([`Solver::set_time_limit`]).
    time_limit: Option<std::time::Duration>,
    /// When the current solve gives up.
    deadline: Option<std::time::Instant>,
    /// Set when the deadline passed: every node then returns at once and
    /// nothing more is stored, so the table keeps only finished results.
    aborted: bool,
    /// Whether the processor has `popcnt`, `lzcnt`, BMI1 and BMI2, so that
    /// the search built with them runs (x86-64 only).
    bmi: bool,
}

impl ReversiSolver {
    /// A solver for `n`×`n` boards that refuses positions with more than
    /// `max_empties` empty squares.
    ///
    /// # Panics
    /// If `n` is not a supported side (even, 4..=8).
    pub fn new(n: usize, max_empties: u32) -> ReversiSolver {
        assert!(
            n.is_multiple_of(2) && (4..=8).contains(&n),
            "reversi side {n} is not supported"
        );
        let mut quadrant_mask = [0u64; 4];
        for s in 0..n * n {
            let (r, c) = (s / n, s % n);
            quadrant_mask[(r >= n / 2) as usize * 2 + (c >= n / 2) as usize] |= 1 << s;
        }
        ReversiSolver {
            n,
            max_empties,
            quadrant_mask,
            corners: 1 | 1 << (n - 1) | 1 << (n * (n - 1)) | 1 << (n * n - 1),
            tt: Vec::new(),
            tt_bits: TT_BITS,
            nodes: 0,
            time_limit: None,
            deadline: None,
            aborted: false,
            bmi: has_bmi(),
        }
    }

    /// The solver for `game` with [`default_max_empties`].
    pub fn for_game(game: &Reversi) -> ReversiSolver {
        ReversiSolver::new(game.size(), default_max_empties(game.size()))
    }

    /// The most empty squares this solver accepts.
    pub fn max_empties(&self) -> u32 {
        self.max_empties
    }

    /// The final disc margin for the side to move under perfect play, for a
    /// position of at most [`max_empties`](Self::max_empties) empty squares.
    pub fn exact_margin(&mut self, state: &ReversiState) -> Result<i32, SolveError> {
        self.check(state)?;
        // Exact margins are asked for by tests and tables: no time limit.
        self.deadline = None;
        self.nodes = 0;
        let d = state.discs();
        let me = state.to_move();
        Ok(self.search(d[me], d[1 - me], -65, 65))
    }

    /// Positions visited by the last [`exact_margin`](Self::exact_margin)
    /// or [`Solver::solve`]: every position searched, the last-square
    /// positions included (as Edax counts its nodes).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Makes sure the table is there, and big enough for `empties`.
    fn prepare(&mut self, empties: u32) {
        let bits = if empties >= BIG_SOLVE {
            TT_BITS_BIG
        } else {
            TT_BITS
        };
        if empties > SHALLOW && (self.tt.is_empty() || bits > self.tt_bits) {
            self.tt_bits = bits;
            self.tt = vec![Entry::default(); 1 << bits];
        }
    }

    fn check(&mut self, state: &ReversiState) -> Result<(), SolveError> {
        assert_eq!(state.size(), self.n, "solver built for another board size");
        if state.is_terminal() {
            return Err(SolveError::Terminal);
        }
        let e = state.empties();
        if e > self.max_empties {
            return Err(SolveError::TooLarge(format!(
                "reversi:{0}x{0}: {e} empty squares is beyond the endgame solver's limit of {1}",
                self.n, self.max_empties
            )));
        }
        self.prepare(e);
        Ok(())
    }

    /// Fail-soft alpha-beta over the final margin of `own` (to move) against
    /// `opp`, dispatched to the code for this board size.
    fn search(&mut self, own: u64, opp: u64, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.bmi {
            // SAFETY: `bmi` is set only where the processor has these
            // features (`new`).
            return unsafe {
                match self.n {
                    4 => self.node_bmi::<4>(own, opp, alpha, beta),
                    6 => self.node_bmi::<6>(own, opp, alpha, beta),
                    _ => self.node_bmi::<8>(own, opp, alpha, beta),
                }
            };
        }
        match self.n {
            4 => self.node::<4>(own, opp, alpha, beta),
            6 => self.node::<6>(own, opp, alpha, beta),
            _ => self.node::<8>(own, opp, alpha, beta),
        }
    }

    /// The margin (own − opponent discs) of a finished position.
    #[inline]
    fn final_margin(own: u64, opp: u64) -> i32 {
        own.count_ones() as i32 - opp.count_ones() as i32
    }

    /// The bucket of a position: two adjacent slots.
    #[inline]
    fn bucket(&self, own: u64, opp: u64) -> usize {
        (mix64(own ^ mix64(opp)) >> (64 - self.tt_bits)) as usize & !1
    }

    #[inline]
    fn probe(&self, own: u64, opp: u64) -> Option<Entry> {
        let b = self.bucket(own, opp);
        self.tt[b..b + 2]
            .iter()
            .find(|e| e.own == own && e.opp == opp)
            .copied()
    }

    fn store(&mut self, entry: Entry) {
        if self.aborted {
            return;
        }
        let b = self.bucket(entry.own, entry.opp);
        let slot = if self.tt[b].own == entry.own && self.tt[b].opp == entry.opp
            || entry.empties >= self.tt[b].empties
        {
            b
        } else {
            b + 1
        };
        self.tt[slot] = entry;
    }
}

/// Whether this processor has the features of the search's fast build.
fn has_bmi() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The recursive search, written once and compiled twice: with the crate's target features, and on x86-64
/// also with `popcnt`, `lzcnt` and BMI, chosen at run time
/// ([`ReversiSolver::search`]). The solver counts discs and walks bits at
/// every node, so the instructions save about a fifth of its time
/// (`docs/results/engines.md`), while the portable build still runs on any
/// x86-64 processor.
macro_rules! search_family {
    ($(#[$attr:meta])* $last:ident, $node:ident, $shallow:ident, $deep:ident) => {
        impl ReversiSolver {
            /// The exact margin of the position whose one empty square is `sq`.
            $(#[$attr])*
            #[inline]
            fn $last<const N: usize>(&mut self, own: u64, opp: u64, sq: usize) -> i32 {
                self.nodes += 1;
                let f = flips_n::<N>(own, opp, sq);
                if f != 0 {
                    return Self::final_margin(own, opp) + 2 * f.count_ones() as i32 + 1;
                }
                let g = flips_n::<N>(opp, own, sq);
                if g != 0 {
                    return Self::final_margin(own, opp) - 2 * g.count_ones() as i32 - 1;
                }
                Self::final_margin(own, opp)
            }

            $(#[$attr])*
            fn $node<const N: usize>(&mut self, own: u64, opp: u64, alpha: i32, beta: i32) -> i32 {
                let empty = board_mask(N) & !(own | opp);
                let e = empty.count_ones();
                if e == 1 {
                    return self.$last::<N>(own, opp, empty.trailing_zeros() as usize);
                }
                self.nodes += 1;
                if e <= SHALLOW {
                    return self.$shallow::<N>(own, opp, empty, alpha, beta);
                }
                let moves = moves_n::<N>(own, opp);
                if moves == 0 {
                    if moves_n::<N>(opp, own) == 0 {
                        return Self::final_margin(own, opp);
                    }
                    return -self.$node::<N>(opp, own, -beta, -alpha);
                }
                self.$deep::<N>(own, opp, moves, e, alpha, beta)
            }

            /// Near the end: each empty square is tried in turn (a square that
            /// turns nothing over is no move, so no move list is made), those in
            /// quadrants with an odd number of empties first; no table.
            $(#[$attr])*
            fn $shallow<const N: usize>(
                &mut self,
                own: u64,
                opp: u64,
                empty: u64,
                mut alpha: i32,
                beta: i32,
            ) -> i32 {
                let mut odd = 0u64;
                for q in self.quadrant_mask {
                    if (empty & q).count_ones() & 1 == 1 {
                        odd |= q;
                    }
                }
                let mut best = -65;
                for set in [empty & odd, empty & !odd] {
                    for sq in bits(set) {
                        let f = flips_n::<N>(own, opp, sq);
                        if f == 0 {
                            continue;
                        }
                        let v = -self.$node::<N>(opp & !f, own | f | 1 << sq, -beta, -alpha);
                        if v > best {
                            best = v;
                            if v > alpha {
                                alpha = v;
                                if alpha >= beta {
                                    return best;
                                }
                            }
                        }
                    }
                }
                if best == -65 {
                    // No move: pass, or the game is over.
                    if bits(empty).all(|sq| flips_n::<N>(opp, own, sq) == 0) {
                        return Self::final_margin(own, opp);
                    }
                    return -self.$node::<N>(opp, own, -beta, -alpha);
                }
                best
            }

            /// Far from the end: table, fastest-first ordering, null windows.
            $(#[$attr])*
            fn $deep<const N: usize>(
                &mut self,
                own: u64,
                opp: u64,
                moves: u64,
                e: u32,
                mut alpha: i32,
                mut beta: i32,
            ) -> i32 {
                // The clock is read every 4,096 deep nodes (a few microseconds).
                if self.nodes & 4095 == 0
                    && self
                        .deadline
                        .is_some_and(|d| std::time::Instant::now() >= d)
                {
                    self.aborted = true;
                }
                if self.aborted {
                    return 0;
                }
                let mut tt_move = u8::MAX;
                let (mut lo, mut hi) = (-64, 64);
                if let Some(t) = self.probe(own, opp) {
                    (lo, hi) = (t.lower as i32, t.upper as i32);
                    if lo >= beta || lo == hi {
                        return lo;
                    }
                    if hi <= alpha {
                        return hi;
                    }
                    alpha = alpha.max(lo);
                    beta = beta.min(hi);
                    tt_move = t.best;
                }
                let (alpha0, beta0) = (alpha, beta);
                let empty = board_mask(N) & !(own | opp);
                // (ordering key, square, flips)
                let mut list: ArrayVec<(i32, u8, u64), 64> = ArrayVec::new();
                for sq in bits(moves) {
                    let f = flips_n::<N>(own, opp, sq);
                    let (n_own, n_opp) = (own | f | 1 << sq, opp & !f);
                    let key = if sq as u8 == tt_move {
                        i32::MIN
                    } else {
                        let replies = moves_n::<N>(n_opp, n_own);
                        let corner = (1u64 << sq & self.corners != 0) as i32;
                        let potential = (neighbours_n::<N>(n_own) & empty).count_ones() as i32;
                        16 * (replies.count_ones() + (replies & self.corners).count_ones()) as i32
                            - 8 * corner
                            + 4 * potential
                    };
                    list.push((key, sq as u8, f));
                }
                // Enhanced transposition cutoff: a child already known to be bad
                // enough for the opponent refutes this node without a search.
                if e >= ETC_EMPTIES {
                    for &(_, sq, f) in &list {
                        if let Some(t) = self.probe(opp & !f, own | f | 1 << sq) {
                            let v = -(t.upper as i32);
                            if v >= beta {
                                return v;
                            }
                        }
                    }
                }
                list.sort_unstable_by_key(|x| x.0);
                let mut best = -65;
                let mut best_sq = list[0].1;
                for (i, &(_, sq, f)) in list.iter().enumerate() {
                    let (n_own, n_opp) = (own | f | 1 << sq, opp & !f);
                    let v = if i == 0 {
                        -self.$node::<N>(n_opp, n_own, -beta, -alpha)
                    } else {
                        let v = -self.$node::<N>(n_opp, n_own, -alpha - 1, -alpha);
                        if v > alpha && v < beta {
                            -self.$node::<N>(n_opp, n_own, -beta, -v)
                        } else {
                            v
                        }
                    };
                    if v > best {
                        best = v;
                        best_sq = sq;
                        if v > alpha {
                            alpha = v;
                            if alpha >= beta {
                                break;
                            }
                        }
                    }
                }
                if best <= alpha0 {
                    hi = hi.min(best);
                } else if best >= beta0 {
                    lo = lo.max(best);
                } else {
                    (lo, hi) = (best, best);
                }
                self.store(Entry {
                    own,
                    opp,
                    lower: lo as i8,
                    upper: hi as i8,
                    best: best_sq,
                    empties: e as u8,
                });
                best
            }
        }
    };
}

search_family!(last_square, node, shallow, deep);
#[cfg(target_arch = "x86_64")]
search_family!(
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
    last_square_bmi,
    node_bmi,
    shallow_bmi,
    deep_bmi
);

impl Solver<Reversi> for ReversiSolver {
    fn widen(&mut self, empties: u32) -> bool {
        self.max_empties = empties;
        true
    }

    fn set_time_limit(&mut self, limit: Option<std::time::Duration>) {
        self.time_limit = limit;
    }

    fn reaches(&self, state: &ReversiState) -> bool {
        state.empties() <= self.max_empties
    }

    fn solve(&mut self, state: &ReversiState) -> Result<Solution, SolveError> {
        self.check(state)?;
        self.nodes = 0;
        self.aborted = false;
        self.deadline = self.time_limit.map(|t| std::time::Instant::now() + t);
        let solution = self.solve_root(state);
        self.deadline = None;
        if std::mem::take(&mut self.aborted) {
            return Err(SolveError::TooLarge(format!(
                "gave up after {} positions (the solver's time limit)",
                self.nodes
            )));
        }
        Ok(solution)
    }
}

impl ReversiSolver {
    /// The root of [`Solver::solve`]: every best move and the margin.
    fn solve_root(&mut self, state: &ReversiState) -> Solution {
        let d = state.discs();
        let me = state.to_move();
        let (own, opp) = (d[me], d[1 - me]);
        let mut legal = ActionList::new();
        state.legal_actions(&mut legal);
        if state.placements() == 0 {
            let v = -self.search(opp, own, -65, 65);
            return Solution {
                value: v.signum(),
                score: Some(v),
                best: legal.to_vec(),
                nodes: self.nodes,
            };
        }
        // The first move exactly; each later one first against `best − 1`
        // (is it as good?), then against `best` (is it better?), exactly only
        // when it is better.
        let mut best = -65;
        let mut chosen = Vec::new();
        for &a in &legal {
            let sq = a as usize;
            let f = flips_for(self.n, own, opp, sq);
            let (c_own, c_opp) = (opp & !f, own | f | 1 << sq);
            if chosen.is_empty() {
                best = -self.search(c_own, c_opp, -65, 65);
                chosen.push(a);
                continue;
            }
            if -self.search(c_own, c_opp, -best, -best + 1) < best {
                continue;
            }
            let v = -self.search(c_own, c_opp, -best - 1, -best);
            if v <= best {
                chosen.push(a);
            } else {
                best = -self.search(c_own, c_opp, -65, -best);
                chosen.clear();
                chosen.push(a);
            }
        }
        Solution {
            value: best.signum(),
            score: Some(best),
            best: chosen,
            nodes: self.nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two builds of the search visit the same positions and find the
    /// same margins: 20 positions of 12 empty squares reached by random
    /// play on each board size's solver (6x6 and 8x8), portable against
    /// the build with `popcnt` and BMI where this processor has them.
    #[test]
    fn both_builds_of_the_search_agree() {
        use crate::game::rng::stream;
        use rand::RngExt;
        for n in [6, 8] {
            let mut rng = stream(7, &[n as u64]);
            let mut fast = ReversiSolver::new(n, 20);
            let mut portable = ReversiSolver::new(n, 20);
            portable.bmi = false;
            let mut tried = 0;
            while tried < 20 {
                let mut s = ReversiState::new(n);
                let mut legal = crate::game::ActionList::new();
                while s.empties() > 12 && !s.is_terminal() {
                    legal.clear();
                    s.legal_actions(&mut legal);
                    s.apply(legal[rng.random_range(0..legal.len())]);
                }
                if s.is_terminal() {
                    continue;
                }
                tried += 1;
                let a = fast.exact_margin(&s).unwrap();
                let b = portable.exact_margin(&s).unwrap();
                assert_eq!(a, b, "{s}");
                assert_eq!(fast.nodes(), portable.nodes(), "{s}");
            }
            assert_eq!(fast.bmi, has_bmi());
        }
    }

    #[test]
    fn solver_refuses_beyond_its_limit() {
        let mut s = ReversiSolver::new(8, 20);
        let e = s.solve(&ReversiState::new(8)).unwrap_err();
        assert!(e.to_string().contains("60 empty squares"), "{e}");
        assert!(e.to_string().contains("limit of 20"), "{e}");
        // It says so without solving: the start has 60 empties, and a
        // position of 20 is within reach.
        assert!(!s.reaches(&ReversiState::new(8)));
        let mut late = ReversiState::new(8);
        let mut legal = crate::game::ActionList::new();
        while late.empties() > 20 {
            legal.clear();
            late.legal_actions(&mut legal);
            late.apply(legal[0]);
        }
        assert!(s.reaches(&late));
    }
}
