//! Openings (issue 12): each pair of games starts from its own opening with
//! seats swapped, so two deterministic players measure more than one game;
//! bad openings are one-line errors.

use wopr::eval::matches::{distinct_games, play_match, play_match_from};
use wopr::eval::openings::Openings;
use wopr::game::Game;
use wopr::games::connect4::Connect4;
use wopr::games::tictactoe::TicTacToe;

#[test]
fn a_deterministic_pair_plays_many_games_from_random_openings() {
    let g = Connect4::new(6, 6).unwrap();
    // `first` against `first` replays one game from the start position...
    let same = play_match(&g, "first", "first", 100, 1, &|| {}).unwrap();
    assert_eq!(distinct_games(&same), 1);
    // ...and 50 pairs of games from 4 random plies: at most 50 openings of
    // 6^4 = 1296 lines, each played twice with the same (deterministic)
    // continuation from both seats.
    let openings = Openings::parse(&g, "plies=4").unwrap();
    let recs = play_match_from(&g, "first", "first", 100, 1, &openings, &|| {}).unwrap();
    assert!(distinct_games(&recs) >= 40, "{}", distinct_games(&recs));
    for pair in recs.chunks(2) {
        assert_eq!(pair[0].opening, 4);
        assert_eq!(pair[0].actions[..4], pair[1].actions[..4]);
    }
    // The same seed gives the same openings and games.
    let again = play_match_from(&g, "first", "first", 100, 1, &openings, &|| {}).unwrap();
    assert_eq!(recs, again);
}

#[test]
fn openings_from_a_file_and_a_start_position() {
    let g = TicTacToe;
    let dir = std::env::temp_dir().join(format!("wopr-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\nb2 a1\n\nc3 a3 a1\n").unwrap();
    let o = Openings::parse(&g, file.to_str().unwrap()).unwrap();
    assert_eq!(o.count(), Some(2));
    // Pairs use the lines in turn: 4, 0 (b2 a1) then 8, 6, 0 (c3 a3 a1).
    assert_eq!(o.opening(&g, 9, 0).unwrap(), vec![4, 0]);
    assert_eq!(o.opening(&g, 9, 1).unwrap(), vec![8, 6, 0]);
    assert_eq!(o.opening(&g, 9, 2).unwrap(), vec![4, 0]);
    let recs = play_match_from(&g, "random", "perfect", 4, 3, &o, &|| {}).unwrap();
    assert_eq!(recs[2].actions[..3], [8, 6, 0]);
    assert_eq!(recs[2].moves[..3], ["c3", "a3", "a1"]);
    let start = Openings::start(&g, "a1 b2").unwrap();
    assert_eq!(start.opening(&g, 0, 7).unwrap(), vec![0, 4]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_openings_are_one_line_errors() {
    let g = TicTacToe;
    let dir = std::env::temp_dir().join(format!("wopr-bad-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let cases = [
        // Tic-Tac-Toe lasts at most 9 plies.
        ("plies=9".to_string(), "lasts at most 9"),
        ("plies=x".to_string(), "whole number"),
        ("/no/such/file".to_string(), "cannot read"),
        (write("empty.txt", "# nothing\n\n"), "no openings"),
        (write("illegal.txt", "a1 a1\n"), "line 1"),
        (write("over.txt", "a1 b1 a2 b2 a3\n"), "finishes the game"),
    ];
    for (spec, says) in cases {
        let e = Openings::parse(&g, &spec).unwrap_err();
        assert!(e.contains(says), "{spec}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // A random opening never ends the game: 8 plies of Tic-Tac-Toe often do,
    // and are drawn again until one leaves a move to play.
    let o = Openings::parse(&g, "plies=8").unwrap();
    for pair in 0..20 {
        let line = o.opening(&g, 5, pair).unwrap();
        let mut s = g.initial_state();
        for a in line {
            wopr::State::apply(&mut s, a);
        }
        assert!(!wopr::State::is_terminal(&s));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
