//! Tests of the GDL game: notation.

use super::*;

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
