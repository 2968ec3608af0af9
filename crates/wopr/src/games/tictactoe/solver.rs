//! Tic-Tac-Toe's exact solver: the value of every reachable position,
//! computed once by plain minimax into a table indexed by the two marks'
//! bitboards (`x | o << 9`: 2^18 entries of one byte).

use std::sync::OnceLock;

use super::{TicTacToe, TicTacToeState};
use crate::game::solver::{Solution, SolveError, Solver};
use crate::game::{Action, ActionList, State};

/// Values of every reachable position, indexed by `x | o << 9`; see the module
/// docs for the encoding. Unreachable entries hold 0 and are never read.
fn table() -> &'static [i8] {
    static TABLE: OnceLock<Vec<i8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![i8::MIN; 1 << 18];
        fill(&TicTacToeState::new(), &mut t);
        t
    })
}

fn index(s: &TicTacToeState) -> usize {
    s.marks[0] as usize | (s.marks[1] as usize) << 9
}

fn fill(s: &TicTacToeState, t: &mut [i8]) -> i8 {
    let i = index(s);
    if t[i] != i8::MIN {
        return t[i];
    }
    let empties = s.empty().count_ones() as i8;
    let v = if s.winner.is_some() {
        // The player who just moved won; the player to move has lost.
        -(1 + empties)
    } else if empties == 0 {
        0
    } else {
        let mut moves = ActionList::new();
        s.legal_actions(&mut moves);
        moves
            .iter()
            .map(|&a| {
                let mut c = *s;
                c.apply(a);
                -fill(&c, t)
            })
            .max()
            .unwrap_or(0)
    };
    t[i] = v;
    v
}

/// The table value of `state` for the player to move (see module docs).
pub fn solved_value(state: &TicTacToeState) -> i8 {
    table()[index(state)]
}

/// The exact Tic-Tac-Toe solver (a table lookup after the first call).
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeSolver;

impl Solver<TicTacToe> for TicTacToeSolver {
    fn solve(&mut self, state: &TicTacToeState) -> Result<Solution, SolveError> {
        if state.is_terminal() {
            return Err(SolveError::Terminal);
        }
        let mut moves = ActionList::new();
        state.legal_actions(&mut moves);
        let scored: Vec<(Action, i8)> = moves
            .iter()
            .map(|&a| {
                let mut c = *state;
                c.apply(a);
                (a, -solved_value(&c))
            })
            .collect();
        let top = scored.iter().map(|x| x.1).max().unwrap_or(0);
        Ok(Solution {
            value: top.signum() as i32,
            score: None,
            best: scored.iter().filter(|x| x.1 == top).map(|x| x.0).collect(),
            nodes: scored.len() as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_values() {
        let mut solver = TicTacToeSolver;
        // Perfect play from the start is a draw, and every first move draws.
        let start = TicTacToeState::new();
        let sol = solver.solve(&start).unwrap();
        assert_eq!(sol.value, 0);
        assert_eq!(sol.best.len(), 9);
        // X: a1, b2; O: a2, c1. X to move can win at once with c3 (a1-b2-c3):
        // the fastest win is the only best move.
        let mut s = start;
        for a in [0, 3, 4, 2] {
            s.apply(a);
        }
        let sol = solver.solve(&s).unwrap();
        assert_eq!((sol.value, sol.best.clone()), (1, vec![8]));
        // After X a1, O b1 (an edge next to X's corner) X wins by force.
        let mut s = start;
        s.apply(0);
        s.apply(1);
        assert_eq!(solver.solve(&s).unwrap().value, 1);
    }
}
