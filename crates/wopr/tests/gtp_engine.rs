//! wopr's GTP engine (`wopr gtp`) read line by line: what it answers to
//! lines that are not commands.

use wopr::game::{Game, GameSpec};
use wopr::games::tictactoe::TicTacToe;
use wopr::players::gtp::engine::GtpEngine;
use wopr::players::gtp::lines::MAX_LINE;
use wopr::players::parse_player;

fn session(input: &[u8]) -> String {
    let game = TicTacToe::from_spec(&GameSpec::parse("tictactoe").unwrap()).unwrap();
    let player = parse_player(&game, "first").unwrap();
    let mut engine = GtpEngine::new(&game, player, 1).unwrap();
    let mut out = Vec::new();
    engine.serve(input, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn unreadable_lines_are_answered_and_reading_goes_on() {
    let mut input = b"1 name\n2 \xff\xfe\n\t  # only a comment\n\n \x00na\x00me\n7\n".to_vec();
    input.extend(vec![b'x'; MAX_LINE + 1]);
    input.extend(b"\n3 genmove b\nquit\nname\n");
    let out = session(&input);
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(
        answers,
        [
            "=1 wopr",
            "?2 the line is not UTF-8 text",
            "= wopr",
            "?7 no command after the id",
            &format!("? the line is longer than {MAX_LINE} bytes"),
            // `first` plays the lowest action: a1.
            "=3 A1",
            "= ",
        ]
    );
}
