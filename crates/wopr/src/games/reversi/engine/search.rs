//! The engine's midgame search: principal-variation search (negamax,
//! alpha-beta, null windows after the first move) with iterative
//! deepening, a transposition table, and the pattern net read
//! incrementally at the leaves.
//!
//! Move ordering: the table's move first, then by the net's value of the
//! position after each move (one incremental update and one read a move);
//! at the root, the previous iteration's order. A side with no move
//! passes without using depth; a finished game scores its disc margin
//! beyond every net value, so a proven win is preferred to any estimate
//! and a larger margin to a smaller one.

use std::sync::Arc;
use std::time::Instant;

use arrayvec::ArrayVec;
use rand::seq::SliceRandom;

use super::super::{board_mask, flips_n, moves_n, ReversiState};
use super::eval::{Indices, PatternEval};
use crate::game::mix64;
use crate::game::rng::WoprRng;
use crate::games::bitboard::bits;

/// A finished game with margin `m` for the side to move scores `WIN + m`
/// (a win), `m − WIN` (a loss) or 0.
pub const WIN: i32 = 10_000_000;

/// Net sums are scaled by this to integers, and kept within ±`WIN`/2.
const SCALE: f32 = 1000.0;

/// Beyond every score.
const INF: i32 = i32::MAX - 1;

/// Table entries: 2^20 of 32 bytes.
const TT_BITS: u32 = 20;

const LOWER: u8 = 1;
const UPPER: u8 = 2;
const EXACT: u8 = 3;
const NO_MOVE: u8 = u8::MAX;

/// One table entry: the position, a bound on its value, its best move.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    own: u64,
    opp: u64,
    value: i32,
    depth: u8,
    bound: u8,
    best: u8,
    generation: u8,
}

/// A position in the search: the mover's and the opponent's discs, the
/// mover's colour, and the pattern configurations.
#[derive(Clone, Copy)]
struct Node {
    own: u64,
    opp: u64,
    colour: usize,
    idx: Indices,
}

/// What one root search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The chosen square.
    pub square: usize,
    /// Its value for the side to move (see [`WIN`]).
    pub value: i32,
    /// The deepest iteration finished.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// The midgame searcher: keeps its table between moves.
#[derive(Clone, Debug)]
pub struct Search {
    eval: Arc<PatternEval>,
    tt: Vec<Slot>,
    generation: u8,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl Search {
    /// A searcher reading `eval` at its leaves (the table is allocated on
    /// the first search).
    pub fn new(eval: Arc<PatternEval>) -> Search {
        Search {
            eval,
            tt: Vec::new(),
            generation: 0,
            nodes: 0,
            deadline: None,
            aborted: false,
        }
    }

    /// Forgets the table (between games).
    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|s| *s = Slot::default());
    }

    /// The net's value of `state` for its side to move, on the search's
    /// integer scale.
    pub fn static_value(&self, state: &ReversiState) -> i32 {
        let idx = self.eval.indices(state);
        let d = state.discs();
        self.scaled(
            self.eval
                .value(&idx, state.to_move(), (d[0] | d[1]).count_ones()),
        )
    }

    #[inline]
    fn scaled(&self, v: f32) -> i32 {
        if v.is_nan() {
            return 0;
        }
        ((v * SCALE) as i32).clamp(-WIN / 2, WIN / 2)
    }

    /// Searches `state` (which has a move to place) by iterative deepening
    /// up to `max_depth` plies, until `deadline` if given (then the last
    /// finished iteration's move, or the current one's best where it beat
    /// that). Root moves are shuffled by `rng` first, so equal values break
    /// ties at random, reproducibly.
    pub fn run(
        &mut self,
        state: &ReversiState,
        max_depth: u32,
        deadline: Option<Instant>,
        rng: &mut WoprRng,
    ) -> Found {
        match state.size() {
            4 => self.root::<4>(state, max_depth, deadline, rng),
            6 => self.root::<6>(state, max_depth, deadline, rng),
            _ => self.root::<8>(state, max_depth, deadline, rng),
        }
    }

    fn root<const N: usize>(
        &mut self,
        state: &ReversiState,
        max_depth: u32,
        deadline: Option<Instant>,
        rng: &mut WoprRng,
    ) -> Found {
        if self.tt.is_empty() {
            self.tt = vec![Slot::default(); 1 << TT_BITS];
        }
        self.generation = self.generation.wrapping_add(1);
        self.nodes = 0;
        self.aborted = false;
        self.deadline = deadline;
        let d = state.discs();
        let colour = state.to_move();
        let node = Node {
            own: d[colour],
            opp: d[1 - colour],
            colour,
            idx: self.eval.indices(state),
        };
        let mut moves: Vec<(usize, i32)> = bits(moves_n::<N>(node.own, node.opp))
            .map(|sq| (sq, 0))
            .collect();
        assert!(
            !moves.is_empty(),
            "the engine searches positions with a move"
        );
        moves.shuffle(rng);
        for m in moves.iter_mut() {
            m.1 = -self.leaf::<N>(&self.child::<N>(&node, m.0));
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        let mut found = Found {
            square: moves[0].0,
            value: moves[0].1,
            depth: 0,
            nodes: 0,
        };
        let started = Instant::now();
        for depth in 1..=max_depth.max(1) {
            let mut alpha = -INF;
            let mut best: Option<(usize, i32)> = None;
            for (i, m) in moves.iter_mut().enumerate() {
                let child = self.child::<N>(&node, m.0);
                let v = if i == 0 {
                    -self.pvs::<N>(&child, depth - 1, -INF, -alpha)
                } else {
                    let v = -self.pvs::<N>(&child, depth - 1, -alpha - 1, -alpha);
                    if v > alpha && !self.aborted {
                        -self.pvs::<N>(&child, depth - 1, -INF, -alpha)
                    } else {
                        v
                    }
                };
                if self.aborted {
                    break;
                }
                // Moves that fail low keep a bound below the best: ordered
                // after it next iteration.
                m.1 = v;
                if v > alpha {
                    alpha = v;
                    best = Some((m.0, v));
                }
            }
            if let Some((square, value)) = best {
                // A move finished inside an unfinished iteration beat the
                // previous best (the first move searched): it is kept.
                found = Found {
                    square,
                    value,
                    depth: if self.aborted { found.depth } else { depth },
                    nodes: 0,
                };
            }
            if self.aborted {
                break;
            }
            moves.sort_by_key(|m| std::cmp::Reverse(m.1));
            if let Some(i) = moves.iter().position(|m| m.0 == found.square) {
                moves[..=i].rotate_right(1);
            }
            if found.value.abs() >= WIN {
                break; // proven: more depth cannot change it
            }
            // The next iteration costs several times this one.
            if let Some(d) = deadline {
                let spent = started.elapsed();
                if started + spent * 3 > d {
                    break;
                }
            }
        }
        found.nodes = self.nodes;
        found
    }

    #[inline]
    fn child<const N: usize>(&self, node: &Node, sq: usize) -> Node {
        let flips = flips_n::<N>(node.own, node.opp, sq);
        let mut idx = node.idx;
        self.eval.play(&mut idx, node.colour, sq, flips);
        Node {
            own: node.opp & !flips,
            opp: node.own | flips | 1 << sq,
            colour: 1 - node.colour,
            idx,
        }
    }

    /// The net's value of a position for its mover, or its final score
    /// when the game is over (the board full, or neither side able to
    /// move).
    #[inline]
    fn leaf<const N: usize>(&self, node: &Node) -> i32 {
        let discs = node.own | node.opp;
        if discs == board_mask(N)
            || (moves_n::<N>(node.own, node.opp) == 0 && moves_n::<N>(node.opp, node.own) == 0)
        {
            return final_score(node.own, node.opp);
        }
        self.scaled(self.eval.value(&node.idx, node.colour, discs.count_ones()))
    }

    #[inline]
    fn slot(&self, own: u64, opp: u64) -> usize {
        (mix64(own ^ mix64(opp)) as usize) & (self.tt.len() - 1)
    }

    fn pvs<const N: usize>(&mut self, node: &Node, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 4095 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if depth == 0 {
            return self.leaf::<N>(node);
        }
        let (own, opp) = (node.own, node.opp);
        let moves = moves_n::<N>(own, opp);
        if moves == 0 {
            if moves_n::<N>(opp, own) == 0 {
                return final_score(own, opp);
            }
            let passed = Node {
                own: opp,
                opp: own,
                colour: 1 - node.colour,
                idx: node.idx,
            };
            return -self.pvs::<N>(&passed, depth, -beta, -alpha);
        }
        let at = self.slot(own, opp);
        let entry = self.tt[at];
        let mut tt_move = NO_MOVE;
        if entry.own == own && entry.opp == opp && entry.bound != 0 {
            tt_move = entry.best;
            if entry.depth as u32 >= depth {
                let v = entry.value;
                match entry.bound {
                    EXACT => return v,
                    LOWER if v >= beta => return v,
                    UPPER if v <= alpha => return v,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        if depth == 1 {
            for sq in bits(moves) {
                let v = -self.leaf::<N>(&self.child::<N>(node, sq));
                if v > best {
                    best = v;
                    best_move = sq as u8;
                    if v >= beta {
                        break;
                    }
                }
            }
        } else {
            let mut list: ArrayVec<(i32, u8, Node), 32> = ArrayVec::new();
            for sq in bits(moves) {
                let child = self.child::<N>(node, sq);
                let key = if sq as u8 == tt_move {
                    INF
                } else {
                    -self.leaf::<N>(&child)
                };
                list.push((key, sq as u8, child));
            }
            list.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
            for (i, &(_, sq, ref child)) in list.iter().enumerate() {
                let v = if i == 0 {
                    -self.pvs::<N>(child, depth - 1, -beta, -alpha)
                } else {
                    let v = -self.pvs::<N>(child, depth - 1, -alpha - 1, -alpha);
                    if v > alpha && v < beta && !self.aborted {
                        -self.pvs::<N>(child, depth - 1, -beta, -alpha)
                    } else {
                        v
                    }
                };
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = sq;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        if self.aborted {
            return 0;
        }
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        let old = &mut self.tt[at];
        if old.generation != self.generation
            || depth >= old.depth as u32
            || (old.own == own && old.opp == opp)
        {
            *old = Slot {
                own,
                opp,
                value: best,
                depth: depth.min(255) as u8,
                bound,
                best: best_move,
                generation: self.generation,
            };
        }
        best
    }
}

/// The score of a finished game for the side owning `own` (empty squares
/// count for no one, as in the game's score).
#[inline]
fn final_score(own: u64, opp: u64) -> i32 {
    let m = own.count_ones() as i32 - opp.count_ones() as i32;
    match m.signum() {
        1 => WIN + m,
        -1 => m - WIN,
        _ => 0,
    }
}
