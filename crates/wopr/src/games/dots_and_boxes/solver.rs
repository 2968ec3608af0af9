//! The exact Dots-and-Boxes solver: the best final box margin for the player
//! to move, by memoised negamax over sets of drawn edges.
//!
//! **What is solved.** The boxes still to be won, and who may win them, depend
//! only on which edges are drawn, not on who owns the boxes already taken or on
//! how the edges came to be drawn. So the solver works with the *net* value of
//! an edge set: the boxes the player to move wins from here on minus those the
//! opponent wins, under optimal play by both. With `c(m)` the number of boxes
//! (0 to 2) that drawing edge `m` completes, and the turn kept after a
//! completion,
//!
//! ```text
//! net(all edges) = 0
//! net(E) = max over undrawn m of  c(m) + net(E ∪ {m})   if c(m) > 0
//!                                 −net(E ∪ {m})         if c(m) = 0
//! ```
//!
//! The [`Solution`] adds the current margin: `score` is the final margin of the
//! player to move (own boxes minus the opponent's at the end), `value` its
//! sign, and `best` every move that reaches that margin. Maximising the margin
//! also maximises the result, so `best` never holds a move that changes the
//! result for the worse; among equal margins the solver does not rank moves by
//! game length, and the `perfect` player picks any of them at random.
//!
//! **Table.** Net values fit in an `i8` and are kept in a table of `2^k`
//! entries indexed by the drawn-edge set. Every edge set is reachable (edges
//! may be drawn in any order), and every position after a position `E` is a
//! superset of `E`; so solving `E` fills the entries of all supersets of `E`
//! not yet known, by retrograde analysis: a plain loop over them in decreasing
//! numeric order, which computes every set after all of its children, with no
//! recursion and no hashing. On a board of at most [`MAX_EDGES`] edges (3x3,
//! 4x2, 2x4, 5x1, 1x5 and smaller) `k` is the board's edge count and the bit of
//! an edge is its action index; one table per board size is shared by every
//! solver in the process, so the first solve from the 3x3 start (16 MB, all
//! 2^24 edge sets, under half a second in release) pays for all later ones,
//! which are lookups. An endgame fills only its own supersets. Entries are atomics (plain loads
//! and stores on x86): threads that fill the same entry at once write the same
//! value, and an entry is stored (release) after all of its successors, so a
//! thread that finds it known (acquire) sees them too.
//!
//! **Bigger boards.** On boards of more than [`MAX_EDGES`] edges a position can
//! be solved once at most [`MAX_EDGES`] edges are undrawn: the solver numbers
//! the undrawn edges `0..k` and keeps its own table over them, reused for every
//! later position of the same game (whose undrawn edges are a subset).
//! Positions with more undrawn edges give [`SolveError::TooLarge`]; the
//! `perfect` player then plays a random legal move.

use std::sync::atomic::{AtomicI8, Ordering};
use std::sync::OnceLock;

use super::{edge_count, DotsAndBoxes, DotsAndBoxesState, MAX_SIDE};
use crate::game::solver::{Solution, SolveError, Solver};
use crate::game::{Action, State};

/// The most edges a table covers: a whole board of at most this many edges, or
/// the undrawn edges of a position on a bigger board (2^24 entries = 16 MB).
pub const MAX_EDGES: usize = 24;

/// Not yet computed.
const UNKNOWN: i8 = i8::MIN;

/// A box mask no edge set of at most [`MAX_EDGES`] edges contains: marks "no
/// box" on an edge's second side.
const NO_BOX: u32 = 1 << 31;

/// The edges a table covers and the boxes around them, in table coordinates:
/// bit `i` of a table index is global edge `edges[i]`.
struct Frame {
    /// Board size.
    cols: u8,
    rows: u8,
    /// The global edges covered (bit = action index); every other edge is
    /// drawn in every position of this frame.
    covered: u64,
    /// Global edge of each table bit, `0..k`.
    edges: Vec<u8>,
    /// Table bit of each global edge (meaningful for covered edges).
    local: [u8; 64],
    /// For each table bit, the covered edges (as table bits) of the one or two
    /// boxes that edge borders; [`NO_BOX`] where there is no second box.
    boxes: Vec<[u32; 2]>,
}

impl Frame {
    /// The frame over `covered`, a set of at most [`MAX_EDGES`] edges of the
    /// board of `state`.
    fn new(state: &DotsAndBoxesState, covered: u64) -> Frame {
        debug_assert!(covered.count_ones() as usize <= MAX_EDGES);
        let mut edges = Vec::new();
        let mut local = [0u8; 64];
        let mut rest = covered;
        while rest != 0 {
            let e = rest.trailing_zeros() as usize;
            local[e] = edges.len() as u8;
            edges.push(e as u8);
            rest &= rest - 1;
        }
        let mut frame = Frame {
            cols: state.cols() as u8,
            rows: state.rows() as u8,
            covered,
            edges,
            local,
            boxes: Vec::new(),
        };
        frame.boxes = frame
            .edges
            .iter()
            .map(|&e| {
                let mut sides = [NO_BOX; 2];
                for (slot, (r, c)) in sides
                    .iter_mut()
                    .zip(state.boxes_of_edge(e as usize).into_iter().flatten())
                {
                    // Contains `e` itself, so it is never empty.
                    *slot = frame.compress(state.box_mask(r, c));
                }
                sides
            })
            .collect();
        frame
    }

    /// Number of covered edges.
    fn len(&self) -> usize {
        self.edges.len()
    }

    /// The table index of a global edge set (edges outside the frame dropped).
    fn compress(&self, set: u64) -> u32 {
        let mut rest = set & self.covered;
        let mut out = 0u32;
        while rest != 0 {
            out |= 1 << self.local[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        out
    }

    /// Whether every position with the drawn edges of `state` lies in this
    /// frame (same board, every uncovered edge drawn).
    fn holds(&self, state: &DotsAndBoxesState) -> bool {
        let all = (1u64 << state.num_edges()) - 1;
        (self.cols as usize, self.rows as usize) == (state.cols(), state.rows())
            && !state.edges() & all & !self.covered == 0
    }
}

/// A frame with its table of net values.
struct Memo {
    frame: Frame,
    table: Box<[AtomicI8]>,
}

impl Memo {
    fn new(frame: Frame) -> Memo {
        let table = (0..1usize << frame.len())
            .map(|_| AtomicI8::new(UNKNOWN))
            .collect();
        Memo { frame, table }
    }

    /// Fills the table for `root` and every position after it (every superset
    /// of `root`), children before parents: visiting the subsets `x` of the
    /// undrawn edges in decreasing numeric order puts every `root | x | m`
    /// (`m` not in `x`) before `root | x`. An entry already known has all of
    /// its successors known too, so it is skipped. Returns the positions
    /// computed.
    fn fill(&self, root: u32) -> u64 {
        if self.table[root as usize].load(Ordering::Acquire) != UNKNOWN {
            return 0;
        }
        let full = (1u32 << self.frame.len()) - 1;
        let free = !root & full;
        let mut nodes = 0;
        let mut x = free;
        loop {
            let set = root | x;
            if self.table[set as usize].load(Ordering::Acquire) == UNKNOWN {
                nodes += 1;
                let v = self.compute(set);
                self.table[set as usize].store(v, Ordering::Release);
            }
            if x == 0 {
                return nodes;
            }
            x = (x - 1) & free;
        }
    }

    /// The net value of `set` from its children's, which must be known.
    #[inline]
    fn compute(&self, set: u32) -> i8 {
        let full = (1u32 << self.frame.len()) - 1;
        let mut free = !set & full;
        if free == 0 {
            return 0;
        }
        let mut best = i8::MIN;
        while free != 0 {
            let m = free.trailing_zeros() as usize;
            free &= free - 1;
            let after = set | 1 << m;
            let gain = self.gain(m, after);
            let rest = self.table[after as usize].load(Ordering::Acquire);
            debug_assert_ne!(rest, UNKNOWN);
            best = best.max(if gain > 0 { gain + rest } else { -rest });
        }
        best
    }

    /// Boxes completed by table edge `m` when the edges are `after` (which
    /// holds `m`).
    #[inline]
    fn gain(&self, m: usize, after: u32) -> i8 {
        let [a, b] = self.frame.boxes[m];
        (after & a == a) as i8 + (after & b == b) as i8
    }
}

/// The shared table of the board `cols` × `rows` (at most [`MAX_EDGES`]
/// edges), created on first use.
fn shared(state: &DotsAndBoxesState) -> &'static Memo {
    static TABLES: [OnceLock<Memo>; MAX_SIDE * MAX_SIDE] =
        [const { OnceLock::new() }; MAX_SIDE * MAX_SIDE];
    let slot = (state.cols() - 1) * MAX_SIDE + state.rows() - 1;
    TABLES[slot].get_or_init(|| Memo::new(Frame::new(state, (1u64 << state.num_edges()) - 1)))
}

/// The exact solver (see the module docs). Cheap to create; tables of boards
/// up to [`MAX_EDGES`] edges are shared process-wide, a bigger board's endgame
/// table belongs to the solver.
#[derive(Default)]
pub struct DotsAndBoxesSolver {
    endgame: Option<Memo>,
}

impl DotsAndBoxesSolver {
    /// A solver with no endgame table yet.
    pub fn new() -> DotsAndBoxesSolver {
        DotsAndBoxesSolver::default()
    }

    /// The table that covers `state`, building one if needed.
    fn memo(&mut self, state: &DotsAndBoxesState) -> Result<&Memo, SolveError> {
        if edge_count(state.cols(), state.rows()) <= MAX_EDGES {
            return Ok(shared(state));
        }
        let all = (1u64 << state.num_edges()) - 1;
        let undrawn = !state.edges() & all;
        let n = undrawn.count_ones() as usize;
        if n > MAX_EDGES {
            return Err(SolveError::TooLarge(format!(
                "dots-and-boxes:{}x{} has {} edges; the solver takes boards of at most \
                 {MAX_EDGES} edges, or positions with at most {MAX_EDGES} undrawn edges \
                 (this one has {n})",
                state.cols(),
                state.rows(),
                state.num_edges()
            )));
        }
        if !self.endgame.as_ref().is_some_and(|m| m.frame.holds(state)) {
            self.endgame = Some(Memo::new(Frame::new(state, undrawn)));
        }
        Ok(self.endgame.as_ref().expect("just built"))
    }
}

impl Solver<DotsAndBoxes> for DotsAndBoxesSolver {
    fn solve(&mut self, state: &DotsAndBoxesState) -> Result<Solution, SolveError> {
        if state.is_terminal() {
            return Err(SolveError::Terminal);
        }
        let memo = self.memo(state)?;
        let set = memo.frame.compress(state.edges());
        let mut nodes = memo.fill(set);
        let mut moves: Vec<(Action, i32)> = Vec::new();
        let all = (1u64 << state.num_edges()) - 1;
        let mut free = !state.edges() & all;
        while free != 0 {
            let e = free.trailing_zeros() as usize;
            free &= free - 1;
            let m = memo.frame.local[e] as usize;
            let after = set | 1 << m;
            let gain = memo.gain(m, after) as i32;
            let rest = memo.table[after as usize].load(Ordering::Acquire) as i32;
            nodes += 1;
            moves.push((e as Action, if gain > 0 { gain + rest } else { -rest }));
        }
        let top = moves.iter().map(|m| m.1).max().expect("not terminal");
        let score = state.score(state.to_move()).unwrap_or(0) + top;
        Ok(Solution {
            value: score.signum(),
            score: Some(score),
            best: moves.iter().filter(|m| m.1 == top).map(|m| m.0).collect(),
            nodes,
        })
    }
}

/// The net value of `state` (boxes the player to move wins from here on minus
/// the opponent's, under optimal play); see [`DotsAndBoxesSolver`] for reach.
pub fn net_value(state: &DotsAndBoxesState) -> Result<i32, SolveError> {
    let sol = DotsAndBoxesSolver::new().solve(state)?;
    Ok(sol.score.unwrap_or(0) - state.score(state.to_move()).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn solve(cols: usize, rows: usize, moves: &[&str]) -> Solution {
        let mut s = DotsAndBoxes::new(cols, rows).unwrap().initial_state();
        for m in moves {
            s.apply(s.parse_action(m).unwrap());
        }
        DotsAndBoxesSolver::new().solve(&s).unwrap()
    }

    #[test]
    fn one_box() {
        // Whoever draws the third side hands the box over, and the first player
        // draws the first and third: the second player wins 1–0.
        let sol = solve(1, 1, &[]);
        assert_eq!((sol.value, sol.score), (-1, Some(-1)));
        assert_eq!(sol.best, [0, 1, 2, 3]);
        // With three sides drawn the box is there to take.
        let sol = solve(1, 1, &["h0,0", "h1,0", "v0,0"]);
        assert_eq!((sol.value, sol.score, sol.best), (1, Some(1), vec![3]));
    }

    #[test]
    fn terminal_and_too_large() {
        let g = DotsAndBoxes::new(1, 1).unwrap();
        let mut s = g.initial_state();
        for a in 0..4 {
            s.apply(a);
        }
        assert_eq!(
            DotsAndBoxesSolver::new().solve(&s),
            Err(SolveError::Terminal)
        );
        let big = DotsAndBoxes::new(4, 4).unwrap().initial_state();
        let err = DotsAndBoxesSolver::new().solve(&big).unwrap_err();
        assert!(
            matches!(err, SolveError::TooLarge(ref m) if m.contains("40 edges")),
            "{err}"
        );
    }
}
