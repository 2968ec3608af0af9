//! What Tic-Tac-Toe adds to the oracles: its `alphabeta` value scale and
//! the boards of the `strategy` oracle, the WOPR thesis's §4.5
//! back-propagation set: every board a player following a perfect strategy
//! is asked to judge, each marked accept or reject (the dataset's targets
//! are made from the labels by `train::oracle`).
//!
//! The thesis gives the idea and the count (319 symmetry-reduced boards,
//! 247 to accept and 72 to reject) but not the strategy's details, so the
//! set is rebuilt from three rules, each of which can be checked by hand:
//!
//! 1. **Who plays.** The player is X in one tree and O in the other; its
//!    opponent makes every legal move, and the player makes every move it
//!    accepts (any of them is one the constructed strategy may take).
//! 2. **What it judges.** At each of its turns, the board after every legal
//!    move, unless the board is finished: a greedy `net:` player scores
//!    finished boards by the rules (`finished=rules`), so it takes a winning
//!    move when one is available (the thesis's pruning) and is never asked
//!    about a board once it can win at once.
//! 3. **Accept or reject.** A board is accepted when the move into it does
//!    not lose: the exact solver values it as a draw or better for the
//!    player who made it. The thesis's quality is its number of losses
//!    alone, so every non-losing move is optimal; the label is a property
//!    of the board, so no board is accepted in one place and rejected in
//!    another.
//!
//! Positions and boards are reduced by the board's 8 symmetries (rotations
//! and reflections), keeping the first board met in a fixed move order.
//! The count is 444 boards: 210 to accept and 234 to reject (X judges 240
//! boards, 139 and 101; O 204, 71 and 133); see `docs/results/wopr-thesis.md`
//! for how the thesis's 319 could come about.

use std::collections::HashSet;

use super::solver::solved_value;
use super::{TicTacToe, TicTacToeState};
use crate::game::oracle::{Oracles, StrategyBoard, STRATEGY_SPEC};
use crate::game::{mover, ActionList, State};

impl Oracles for TicTacToe {
    /// Open lines score 1, 4 (and 16): one more two-in-a-row than the
    /// opponent is tanh(1).
    fn value_scale(&self) -> f32 {
        4.0
    }

    fn strategy_boards(&self) -> Option<Vec<StrategyBoard<TicTacToeState>>> {
        Some(judged_boards())
    }

    fn oracle_names(&self, generic: &[&'static str]) -> Vec<&'static str> {
        [generic, &[STRATEGY_SPEC]].concat()
    }
}

/// The square `i` (row × 3 + col) is sent to by the `k`-th symmetry
/// (k in 0..8: four rotations, each with and without a reflection).
fn image(k: usize, i: usize) -> usize {
    let (mut r, mut c) = (i / 3, i % 3);
    if k >= 4 {
        c = 2 - c;
    }
    for _ in 0..k % 4 {
        (r, c) = (c, 2 - r);
    }
    r * 3 + c
}

/// A key shared by exactly the boards that are symmetric to `s`: the
/// least of the 8 images' `x | o << 9`.
fn canonical(s: &TicTacToeState) -> u32 {
    (0..8)
        .map(|k| {
            let mut key = 0u32;
            for i in 0..9 {
                let bit = |m: u16| u32::from(m >> i & 1);
                let j = image(k, i);
                key |= bit(s.marks[0]) << j | bit(s.marks[1]) << (j + 9);
            }
            key
        })
        .min()
        .expect("eight symmetries")
}

/// The set, X's boards first then O's, each tree in depth-first order of
/// ascending square.
fn judged_boards() -> Vec<StrategyBoard<TicTacToeState>> {
    let mut boards = Vec::new();
    let mut kept = HashSet::new();
    for seat in 0..2 {
        let mut seen = HashSet::new();
        visit(
            &TicTacToeState::new(),
            seat,
            &mut seen,
            &mut kept,
            &mut boards,
        );
    }
    boards
}

fn visit(
    s: &TicTacToeState,
    seat: usize,
    seen: &mut HashSet<u32>,
    kept: &mut HashSet<u32>,
    boards: &mut Vec<StrategyBoard<TicTacToeState>>,
) {
    if s.is_terminal() || !seen.insert(canonical(s)) {
        return;
    }
    let mut moves = ActionList::new();
    s.legal_actions(&mut moves);
    let children = moves.iter().map(|&a| {
        let mut c = *s;
        c.apply(a);
        c
    });
    if mover(s) != Some(seat) {
        for c in children {
            visit(&c, seat, seen, kept, boards);
        }
        return;
    }
    if children.clone().any(|c| c.winner.is_some()) {
        // The player takes the win; the net is asked about nothing here.
        return;
    }
    for c in children.filter(|c| !c.is_terminal()) {
        // The solver's value is for the opponent, now to move: the move is
        // sound when the opponent cannot force a win.
        let accept = solved_value(&c) <= 0;
        if kept.insert(canonical(&c)) {
            boards.push(StrategyBoard { board: c, accept });
        }
        if accept {
            visit(&c, seat, seen, kept, boards);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_symmetries_are_distinct_permutations() {
        let mut images: Vec<Vec<usize>> = (0..8)
            .map(|k| (0..9).map(|i| image(k, i)).collect())
            .collect();
        for p in &images {
            let mut sorted = p.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..9).collect::<Vec<_>>());
            assert_eq!(p[4], 4, "the centre stays");
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
        // X's first move: corner, edge or centre, 3 boards up to symmetry.
        let firsts: HashSet<u32> = (0..9)
            .map(|a| {
                let mut s = TicTacToeState::new();
                s.apply(a);
                canonical(&s)
            })
            .collect();
        assert_eq!(firsts.len(), 3);
    }

    #[test]
    fn the_set_has_444_boards_210_to_accept() {
        let boards = judged_boards();
        let accepted = boards.iter().filter(|b| b.accept).count();
        let x = boards.iter().filter(|b| b.board.to_move == 1).count();
        let x_accepted = boards
            .iter()
            .filter(|b| b.accept && b.board.to_move == 1)
            .count();
        assert_eq!((boards.len(), accepted), (444, 210));
        assert_eq!((x, x_accepted), (240, 139));
        // X's first moves: corner, edge and centre, all draws, all accepted.
        let firsts: Vec<_> = boards
            .iter()
            .filter(|b| (b.board.marks[0] | b.board.marks[1]).count_ones() == 1)
            .collect();
        assert_eq!(firsts.len(), 3);
        assert!(firsts.iter().all(|b| b.accept));
        // No board is finished, and none appears twice up to symmetry.
        assert!(boards.iter().all(|b| !b.board.is_terminal()));
        let keys: HashSet<u32> = boards.iter().map(|b| canonical(&b.board)).collect();
        assert_eq!(keys.len(), boards.len());
    }
}
