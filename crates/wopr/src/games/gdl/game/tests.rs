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
