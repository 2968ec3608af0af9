//! Counting action sequences: the move-generation check borrowed from chess.
//!
//! `perft(state, d)` is the number of action sequences of length exactly `d`
//! from `state`; terminal positions are not extended, and a pass counts as an
//! action. Chance outcomes count as actions; a simultaneous turn counts each
//! joint action (the product of every seat's choices, however many seats
//! there are) once.

use super::{ActionList, State, Turn};

/// The number of action sequences of length `depth` from `state`.
pub fn perft<S: State>(state: &S, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match state.turn() {
        Turn::Terminal => 0,
        Turn::Simultaneous => {
            // One list a seat, every seat (GDL games may have more than
            // two): the joint actions are their product.
            let lists: Vec<ActionList> = (0..state.joint_seats())
                .map(|seat| {
                    let mut l = ActionList::new();
                    state.legal_actions_of(seat, &mut l);
                    l
                })
                .collect();
            let mut joint = Vec::with_capacity(lists.len());
            joint_perft(state, &lists, &mut joint, depth - 1)
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

/// The sum of `perft(child, depth)` over every joint action that extends
/// `joint` (the choices of the first seats) by one choice of each seat
/// left.
fn joint_perft<S: State>(
    state: &S,
    lists: &[ActionList],
    joint: &mut Vec<crate::game::Action>,
    depth: u32,
) -> u64 {
    let seat = joint.len();
    if seat == lists.len() {
        let mut child = state.clone();
        child.apply_joint(joint);
        return perft(&child, depth);
    }
    let mut total = 0;
    for &a in &lists[seat] {
        joint.push(a);
        total += joint_perft(state, lists, joint, depth);
        joint.pop();
    }
    total
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
