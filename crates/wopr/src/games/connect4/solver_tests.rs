//! Unit tests of the solver's private parts (its geometry and tables).

use super::*;
use crate::game::Game;

#[test]
fn primes_and_geometry() {
    assert_eq!(prime_at_most(1 << 23), 8_388_593);
    assert_eq!(prime_at_most(257), 257);
    let g = Geometry::new(7, 6);
    assert_eq!(g.order[..7], [3, 2, 4, 1, 5, 0, 6]);
    let g = Geometry::new(6, 6);
    assert_eq!(g.order[..6], [3, 2, 4, 1, 5, 0]);
    // Column 1's bottom cell mirrors to column 6's on 6 columns.
    assert_eq!(g.mirror(1), 1 << 35);
}

#[test]
fn immediate_wins_and_losses() {
    let game = Connect4::default();
    let mut solver = Connect4Solver::with_table_entries(&game, 1 << 12);
    // X has three in column 1 and is to move: it wins with its 4th disc,
    // 6 discs down: (42 + 1 − 6) / 2 = 18.
    let s = game.state_from_moves("121212").unwrap();
    assert_eq!(solver.score(&s).unwrap(), 18);
    let sol = solver.solve(&s).unwrap();
    assert_eq!((sol.value, sol.best), (1, vec![0]));
    // O to move cannot stop X's double threat on the bottom row
    // (_XXX_ with both ends open): X wins with its 4th disc, 6 discs
    // down: (43 − 6) / 2 = 18 for X, so −18 for O, whatever O plays.
    let s = game.state_from_moves("33445").unwrap();
    assert_eq!(solver.score(&s).unwrap(), -18);
    let sol = solver.solve(&s).unwrap();
    assert_eq!((sol.value, sol.best.len()), (-1, 7));
    let won = game.state_from_moves("1212121").unwrap();
    assert_eq!(solver.solve(&won), Err(SolveError::Terminal));
}

#[test]
fn node_limit_gives_up() {
    let game = Connect4::default();
    let mut solver = Connect4Solver::with_table_entries(&game, 1 << 12).with_node_limit(Some(1000));
    let err = solver.solve(&game.initial_state()).unwrap_err();
    assert!(matches!(err, SolveError::TooLarge(_)));
}

/// The solver's move scores through the [`Solver`] trait: offered
/// (`scores_moves`), and the moves of the top score are exactly the
/// solution's best moves, the top score the position's.
#[test]
fn trait_move_scores_agree_with_the_solution() {
    let game = Connect4::new(5, 4).unwrap();
    let mut solver = Connect4Solver::with_table_entries(&game, 1 << 12);
    assert!(Solver::scores_moves(&solver));
    for moves in ["", "3", "334", "1212", "55432"] {
        let s = game.state_from_moves(moves).unwrap();
        let scores = Solver::move_scores(&mut solver, &s).unwrap().unwrap();
        let top = scores.iter().map(|&(_, v)| v).max().unwrap();
        let at_top: Vec<Action> = scores.iter().filter(|m| m.1 == top).map(|m| m.0).collect();
        assert_eq!(top, solver.score(&s).unwrap(), "{moves}");
        assert_eq!(at_top, solver.solve(&s).unwrap().best, "{moves}");
    }
}
