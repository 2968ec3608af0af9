//! Negamax with alpha-beta pruning, iterative deepening, a transposition table
//! and move ordering, for any [`Searchable`] game.
//!
//! Values are from the point of view of the player to move. A game may let the
//! same player move twice in a row (dots-and-boxes after completing a box): the
//! search then keeps the sign and the window instead of negating them, so no
//! game needs to fake alternation.
//!
//! Terminal positions score `±(WIN_SCORE + margin) ∓ ply`: wins are preferred
//! fast and large, losses slow and small. Interior leaves use the game's
//! [`Searchable::evaluate`].

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;

use crate::game::rng::WoprRng;
use crate::game::{mover, Action, ActionList, Searchable, State, WIN_SCORE};

use super::tt::{Bound, TranspositionTable};

/// How far a search may go. At least one of the two limits should be set; with
/// neither, the search stops at depth 64.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Wall-clock budget. Searches limited by time are not reproducible.
    pub time: Option<Duration>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The chosen action.
    pub best: Action,
    /// Its value for the player to move.
    pub value: i32,
    /// The deepest fully searched depth.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

/// A leaf evaluation for the search: the value of a non-terminal position for
/// its player to move, within ±[`WIN_SCORE`]/2. The game's own heuristic
/// ([`Searchable::evaluate`]) is [`Heuristic`]; other players (Reversi's
/// `standard`, net players) bring their own.
pub trait Evaluator<S> {
    /// The value of `state` for its player to move.
    fn evaluate(&mut self, state: &S) -> i32;

    /// Whether the search should hand over all children of a node one ply
    /// above the horizon at once ([`Evaluator::evaluate_batch`]) rather than
    /// one by one under alpha-beta cut-offs: worth it when one evaluation of
    /// many positions is much cheaper than many of one (a net).
    fn batched(&self) -> bool {
        false
    }

    /// Appends the value of every state to `out`, each for its own player to
    /// move.
    fn evaluate_batch(&mut self, states: &[S], out: &mut Vec<i32>) {
        for s in states {
            out.push(self.evaluate(s));
        }
    }
}

/// The game's documented heuristic, [`Searchable::evaluate`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Heuristic;

impl<S: Searchable> Evaluator<S> for Heuristic {
    #[inline]
    fn evaluate(&mut self, state: &S) -> i32 {
        state.evaluate()
    }
}

impl<S, F: FnMut(&S) -> i32> Evaluator<S> for F {
    #[inline]
    fn evaluate(&mut self, state: &S) -> i32 {
        self(state)
    }
}

/// A reusable searcher: keeps its transposition table between moves.
#[derive(Debug)]
pub struct AlphaBeta {
    tt: TranspositionTable,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

const MAX_DEPTH: u32 = 64;

impl AlphaBeta {
    /// A searcher with a table of `2^tt_bits` entries.
    pub fn new(tt_bits: u32) -> AlphaBeta {
        AlphaBeta {
            tt: TranspositionTable::new(tt_bits),
            nodes: 0,
            deadline: None,
            aborted: false,
        }
    }

    /// Forgets everything learned (between unrelated games).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches `state` (which must not be terminal and must have a single
    /// player to move). Root moves are shuffled with `rng` first, so that among
    /// equally valued moves the choice is random but reproducible.
    pub fn search<S: Searchable>(
        &mut self,
        state: &S,
        limits: Limits,
        rng: &mut WoprRng,
    ) -> SearchResult {
        self.search_with(state, limits, rng, &mut Heuristic)
    }

    /// Like [`AlphaBeta::search`], with `eval` at the leaves instead of the
    /// game's heuristic. Keep one searcher per evaluation: the transposition
    /// table remembers values.
    pub fn search_with<S: Searchable, E: Evaluator<S>>(
        &mut self,
        state: &S,
        limits: Limits,
        rng: &mut WoprRng,
        eval: &mut E,
    ) -> SearchResult {
        let mut moves = ActionList::new();
        state.legal_actions(&mut moves);
        assert!(
            !moves.is_empty(),
            "search called on a position without moves"
        );
        moves.shuffle(rng);
        self.nodes = 0;
        self.aborted = false;
        self.deadline = limits.time.map(|t| Instant::now() + t);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let me = mover(state).expect("search needs a single player to move");
        let mut result = SearchResult {
            best: moves[0],
            value: 0,
            depth: 0,
            nodes: 0,
        };
        for depth in 1..=max_depth {
            // The previous iteration's best move is searched first.
            if let Some(i) = moves.iter().position(|&m| m == result.best) {
                moves[..=i].rotate_right(1);
            }
            let mut alpha = -i32::MAX;
            let beta = i32::MAX;
            let mut best = moves[0];
            let mut best_value = -i32::MAX;
            for &m in moves.iter() {
                let mut child = state.clone();
                child.apply(m);
                let v = self.child_value(&child, me, depth - 1, 1, alpha, beta, eval);
                if self.aborted {
                    break;
                }
                if v > best_value {
                    best_value = v;
                    best = m;
                }
                alpha = alpha.max(v);
            }
            if self.aborted {
                break;
            }
            result = SearchResult {
                best,
                value: best_value,
                depth,
                nodes: self.nodes,
            };
            // A proven result cannot change with more depth.
            if best_value.abs() > WIN_SCORE / 2 {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn negamax<S: Searchable, E: Evaluator<S>>(
        &mut self,
        state: &S,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
        eval: &mut E,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        if self.aborted {
            return 0;
        }
        let Some(me) = mover(state) else {
            unreachable!("negamax is only called on positions with a mover")
        };
        if depth == 0 {
            return eval.evaluate(state);
        }
        let key = state.key();
        let alpha0 = alpha;
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = Some(e.best);
            if e.depth as u32 >= depth {
                let v = from_tt(e.value, ply);
                match e.bound {
                    Bound::Exact => return v,
                    Bound::Lower => alpha = alpha.max(v),
                    Bound::Upper => beta = beta.min(v),
                }
                if alpha >= beta {
                    return v;
                }
            }
        }
        let mut moves = ActionList::new();
        state.legal_actions(&mut moves);
        if let Some(t) = tt_move {
            if let Some(i) = moves.iter().position(|&m| m == t) {
                moves[..=i].rotate_right(1);
            }
        }
        if depth == 1 && eval.batched() {
            let (best_value, best) = self.frontier(state, &moves, me, ply, eval);
            let bound = if best_value <= alpha0 {
                Bound::Upper
            } else if best_value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt
                .store(key, to_tt(best_value, ply), depth as u8, bound, best);
            return best_value;
        }
        let mut best_value = -i32::MAX;
        let mut best = moves[0];
        for &m in moves.iter() {
            let mut child = state.clone();
            child.apply(m);
            let v = self.child_value(&child, me, depth - 1, ply + 1, alpha, beta, eval);
            if self.aborted {
                return 0;
            }
            if v > best_value {
                best_value = v;
                best = m;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best_value <= alpha0 {
            Bound::Upper
        } else if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt
            .store(key, to_tt(best_value, ply), depth as u8, bound, best);
        best_value
    }
}

/// The value of a terminal `state` for seat `me`, `ply` plies below the root.
fn terminal_value<S: State>(state: &S, me: usize, ply: i32) -> i32 {
    let r = state.returns(me);
    let margin = state.score(me).unwrap_or(0);
    if r > 0.0 {
        WIN_SCORE + margin - ply
    } else if r < 0.0 {
        -WIN_SCORE + margin + ply
    } else {
        margin
    }
}

impl AlphaBeta {
    /// Values every child of a node one ply above the horizon with a single
    /// batched evaluation; returns the best value and move (exact).
    fn frontier<S: Searchable, E: Evaluator<S>>(
        &mut self,
        state: &S,
        moves: &[Action],
        me: usize,
        ply: i32,
        eval: &mut E,
    ) -> (i32, Action) {
        let mut children = Vec::with_capacity(moves.len());
        let mut values = vec![0; moves.len()];
        let mut pending = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            let mut child = state.clone();
            child.apply(m);
            self.nodes += 1;
            match mover(&child) {
                None => values[i] = terminal_value(&child, me, ply + 1),
                Some(_) => {
                    pending.push(i);
                    children.push(child);
                }
            }
        }
        let mut out = Vec::with_capacity(children.len());
        eval.evaluate_batch(&children, &mut out);
        for ((&i, child), v) in pending.iter().zip(&children).zip(out) {
            values[i] = if mover(child) == Some(me) { v } else { -v };
        }
        let mut best = 0;
        for i in 1..values.len() {
            if values[i] > values[best] {
                best = i;
            }
        }
        (values[best], moves[best])
    }

    /// The value of `child` (reached by a move of `me`) for `me`.
    #[allow(clippy::too_many_arguments)]
    fn child_value<S: Searchable, E: Evaluator<S>>(
        &mut self,
        child: &S,
        me: usize,
        depth: u32,
        ply: i32,
        alpha: i32,
        beta: i32,
        eval: &mut E,
    ) -> i32 {
        match mover(child) {
            None => {
                self.nodes += 1;
                terminal_value(child, me, ply)
            }
            Some(p) if p == me => self.negamax(child, depth, ply, alpha, beta, eval),
            Some(_) => -self.negamax(child, depth, ply, -beta, -alpha, eval),
        }
    }
}

/// Win scores are stored relative to the node, not the root.
fn to_tt(v: i32, ply: i32) -> i32 {
    if v > WIN_SCORE / 2 {
        v + ply
    } else if v < -WIN_SCORE / 2 {
        v - ply
    } else {
        v
    }
}

fn from_tt(v: i32, ply: i32) -> i32 {
    if v > WIN_SCORE / 2 {
        v - ply
    } else if v < -WIN_SCORE / 2 {
        v + ply
    } else {
        v
    }
}
