//! Tests of the GDL game: notation.

use super::*;
use wopr_core::game::{ActionList, State};

fn tictactoe() -> Gdl {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../gdl/tictactoe.kif"
    ))
    .unwrap();
    Gdl::from_text("gdl/tictactoe.kif", &text, 10_000).unwrap()
}

#[test]
fn moves_read_in_either_notation() {
    let g = tictactoe();
    let s = g.initial_state();
    let a = s.parse_action("mark(1,1)").unwrap();
    assert_eq!(s.action_to_string(a), "mark(1,1)");
    assert_eq!(s.parse_action("(MARK 1  1)"), Ok(a));
    assert_eq!(s.parse_action(&format!("#{a}")), Ok(a));
    assert!(s.parse_action("mark(4,4)").is_err());
}

#[test]
fn a_move_names_the_square_it_fills() {
    let g = tictactoe();
    let s = g.initial_state();
    // The sheet's (mark 1 3): column 1, row 3, the top row of rows 1..3.
    let a = s.parse_action("mark(1,3)").unwrap();
    assert_eq!(s.action_cell(a), Some((0, 0)));
    let a = s.parse_action("mark(3,1)").unwrap();
    assert_eq!(s.action_cell(a), Some((2, 2)));
    // Connect-4's drop fills the lowest empty cell of its column.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../gdl/connect4-6x6.kif"
    ))
    .unwrap();
    let c4 = Gdl::from_text("connect4-6x6.kif", &text, 10_000).unwrap();
    let mut s = c4.initial_state();
    let drop3 = s.parse_action("drop(3)").unwrap();
    assert_eq!(s.action_cell(drop3), Some((2, 5)));
    s.apply(drop3);
    assert_eq!(s.action_cell(drop3), Some((2, 4)));
}

/// One role picks `(pick ?a ?b ?c)` from the cell `(at ?a ?b)` it stands
/// on, for any `?c` of 0..=40, and moves to `(at ?b ?c)`; two picks end
/// the game, won on `(at 5 7)`. Each position has 41 legal moves, but the
/// sheet's possible moves are every cell (41 × 41, all reachable from
/// `(at 0 0)` in the rules' relaxation) times 41: 68,921 distinct terms,
/// more than the 65,535 an action holds.
fn wide_moves() -> Gdl {
    let nums: String = (0..=40).map(|n| format!("(num {n}) ")).collect();
    let text = format!(
        "(role p) {nums}
         (init (at 0 0)) (init (step 0))
         (<= (legal p (pick ?a ?b ?c)) (true (at ?a ?b)) (num ?c))
         (<= (next (at ?b ?c)) (does p (pick ?a ?b ?c)))
         (<= (next (step 1)) (true (step 0)))
         (<= (next (step 2)) (true (step 1)))
         (<= terminal (true (step 2)))
         (<= (goal p 100) (true (at 5 7)))
         (<= (goal p 0) (not (true (at 5 7))))"
    );
    Gdl::from_text("wide.kif", &text, 10_000).unwrap()
}

#[test]
fn more_moves_than_an_action_holds_are_ranked_at_their_position() {
    let g = wide_moves();
    assert!(g.has_ranked_actions());
    assert_eq!(g.num_actions(), MAX_ACTIONS);
    assert_eq!(g.reasoner().moves(0).len(), 41 * 41 * 41);
    let mut s = g.initial_state();
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    // The 41 picks from (at 0 0), in term order: action k picks k.
    assert_eq!(legal.to_vec(), (0..41).collect::<Vec<Action>>());
    assert_eq!(s.action_to_string(5), "pick(0,0,5)");
    assert_eq!(s.parse_action("(PICK 0 0 5)"), Ok(5));
    assert_eq!(s.parse_action("#40"), Ok(40));
    let err = s.parse_action("pick(0,5,7)").unwrap_err();
    assert!(err.contains("is not a move of wide.kif here"), "{err}");
    assert!(s.parse_action("#41").is_err());
    s.apply(5);
    // Now on (at 0 5): the same action 7 is another move.
    assert_eq!(s.action_to_string(7), "pick(0,5,7)");
    assert_eq!(
        s.action_term(7).map(|t| t.to_string()).as_deref(),
        Some("(pick 0 5 7)")
    );
    s.apply(s.parse_action("pick(0,5,7)").unwrap());
    assert_eq!(s.turn(), Turn::Terminal);
    assert_eq!(s.returns(0), 1.0);
}

/// Loading a sheet plays none of the probe's random games; the first
/// question about its kinds of turn does, and the answer is the same as
/// it was when loading probed: Tic-Tac-Toe alternates, rock-paper-scissors
/// (ggp-base's `roshambo2`) moves at once, so `mcts` is refused on it
/// with the reason.
#[test]
fn the_kinds_of_turn_are_probed_on_first_use_not_on_loading() {
    let g = tictactoe();
    assert!(g.rules.kinds.get().is_none());
    assert!(g.is_alternating());
    assert!(!g.has_simultaneous_turns());
    assert_eq!(g.rules.kinds.get(), Some(&(true, false)));
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../gdl/ggp-base/roshambo2.kif"
    ))
    .unwrap();
    let rps = Gdl::from_text("roshambo2.kif", &text, 10_000).unwrap();
    assert!(rps.rules.kinds.get().is_none());
    let mcts = wopr_core::game::GameSpec::parse("mcts").unwrap();
    let err = wopr_core::players::Roster::parse_bot(&rps, &mcts)
        .unwrap_err()
        .to_string();
    assert!(err.contains("has simultaneous turns"), "{err}");
    assert_eq!(rps.rules.kinds.get(), Some(&(false, true)));
}
