//! Counting action sequences: the move-generation check borrowed from chess.
//!
//! `perft(state, d)` is the number of action sequences of length exactly `d`
//! from `state`; terminal positions are not extended, and a pass counts as an
//! action. Chance outcomes count as actions; a simultaneous turn counts each
//! joint action (the product of the players' choices) once.

use super::{ActionList, State, Turn};

/// The number of action sequences of length `depth` from `state`.
pub fn perft<S: State>(state: &S, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match state.turn() {
        Turn::Terminal => 0,
        Turn::Simultaneous => {
            let mut lists = [ActionList::new(), ActionList::new()];
            for (seat, l) in lists.iter_mut().enumerate() {
                state.legal_actions_of(seat, l);
            }
            let mut total = 0;
            for &a in &lists[0] {
                for &b in &lists[1] {
                    let mut child = state.clone();
                    child.apply_joint(&[a, b]);
                    total += perft(&child, depth - 1);
                }
            }
            total
        }
        _ => {
            let mut moves = ActionList::new();
            state.legal_actions(&mut moves);
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .iter()
                .map(|&a| {
                    let mut child = state.clone();
                    child.apply(a);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// The number of complete games (action sequences that end in a terminal
/// state) from `state`, for games small enough to enumerate.
pub fn count_games<S: State>(state: &S) -> u64 {
    if state.is_terminal() {
        return 1;
    }
    let mut moves = ActionList::new();
    state.legal_actions(&mut moves);
    moves
        .iter()
        .map(|&a| {
            let mut child = state.clone();
            child.apply(a);
            count_games(&child)
        })
        .sum()
}
