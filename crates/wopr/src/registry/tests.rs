//! The registry's OpenSpiel games (each declared in its folder) against
//! pyspiel (open_spiel 2.0.2): names, defaults, sizes and game strings.

use super::{openspiel_games, openspiel_names, parse_openspiel, AnyGame};
use crate::games::openspiel::Param;

/// Every declared game loads by its name with parentheses and no
/// parameters: its defaults, a spec the registry reads back to the same
/// game, nothing written in its game string.
#[test]
fn every_declared_name_loads_with_its_defaults() {
    assert_eq!(openspiel_names().len(), openspiel_games().len());
    for e in openspiel_games() {
        let d = e.declaration();
        let (game, read, _) = parse_openspiel(&format!("{}()", d.name))
            .expect("an OpenSpiel name")
            .unwrap_or_else(|err| panic!("{}: {err}", d.name));
        let defaults: Vec<(String, Param)> = d
            .params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        assert_eq!(read.parameters, defaults, "{}", d.name);
        assert!(read.given.is_empty(), "{}", d.name);
        assert_eq!(read.spec, game.spec(), "{}: the spec is canonical", d.name);
        let again = AnyGame::parse(&game.spec()).unwrap();
        assert_eq!(again.spec(), game.spec(), "{}", d.name);
        // The parameters are listed sorted by name, as pyspiel reports them.
        let keys: Vec<&str> = d.params.iter().map(|(k, _)| *k).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{}", d.name);
        // Giving every default back loads the same game.
        let written: Vec<String> = d.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let text = format!("{}({})", d.name, written.join(","));
        let (same, read, _) = parse_openspiel(&text).unwrap().unwrap();
        assert_eq!(same.spec(), game.spec(), "{text}");
        assert_eq!(read.given.len(), d.params.len(), "{text}");
    }
}

/// Sizes, long names and player counts from pyspiel:
///
/// ```text
/// import pyspiel
/// for n in ['othello', 'dots_and_boxes(num_rows=2,num_cols=3)', 'kuhn_poker', 'pig',
///           'goofspiel(num_cards=5)', 'connect_four', 'tic_tac_toe',
///           'breakthrough(rows=6,columns=5)']:
///     g = pyspiel.load_game(n); t = g.get_type()
///     print(n, g.num_distinct_actions(), g.max_chance_outcomes(), g.max_game_length(),
///           t.long_name, t.max_num_players, str(g))
/// ```
#[test]
fn sizes_and_names_are_pyspiels() {
    let cases: [(&str, [usize; 3], &str, usize, &str); 8] = [
        ("othello", [65, 0, 128], "Othello", 2, "othello()"),
        (
            "dots_and_boxes(num_rows=2,num_cols=3)",
            [17, 0, 18],
            "Dots and Boxes",
            2,
            "dots_and_boxes(num_cols=3,num_rows=2)",
        ),
        ("kuhn_poker", [2, 3, 3], "Kuhn Poker", 10, "kuhn_poker()"),
        ("pig()", [2, 6, 1000], "Pig", 10, "pig()"),
        (
            "goofspiel(num_cards=5)",
            [5, 5, 5],
            "Goofspiel",
            10,
            "goofspiel(num_cards=5)",
        ),
        (
            "connect_four",
            [7, 0, 42],
            "Connect Four",
            2,
            "connect_four()",
        ),
        ("tic_tac_toe", [9, 0, 9], "Tic Tac Toe", 2, "tic_tac_toe()"),
        (
            "breakthrough(rows=6,columns=5)",
            [360, 0, 91],
            "Breakthrough",
            2,
            "breakthrough(columns=5,rows=6)",
        ),
    ];
    for (text, sizes, long_name, max_players, written) in cases {
        let (_, read, s) = parse_openspiel(text).unwrap().unwrap();
        let got = [
            s.num_distinct_actions,
            s.max_chance_outcomes,
            s.max_game_length,
        ];
        assert_eq!(got, sizes, "{text}");
        let d = read.entry.declaration();
        assert_eq!((d.long_name, d.max_num_players), (long_name, max_players));
        let given: Vec<String> = read.given.iter().map(|(k, v)| format!("{k}={v}")).collect();
        assert_eq!(format!("{}({})", d.name, given.join(",")), written);
    }
}

/// wopr's specs are not OpenSpiel's; OpenSpiel's strings wopr cannot play
/// are one-line errors naming the value.
#[test]
fn wopr_specs_pass_and_bad_strings_are_refused() {
    for wopr in [
        "pig",
        "goofspiel",
        "breakthrough",
        "connect4:7x6",
        "tictactoe",
    ] {
        assert!(parse_openspiel(wopr).is_none(), "{wopr}");
    }
    let err = |text: &str| parse_openspiel(text).unwrap().unwrap_err();
    assert_eq!(
        err("kuhn_poker(players=3)"),
        "'kuhn_poker(players=3)': wopr plays kuhn_poker only with players=2 (not 3)"
    );
    assert_eq!(
        err("tic_tac_toe(rows=3)"),
        "'tic_tac_toe(rows=3)': unknown parameter 'rows' (accepted: none)"
    );
    assert_eq!(
        err("connect_four(rows=x)"),
        "'connect_four(rows=x)': rows=x is not an integer"
    );
    assert_eq!(
        err("pig(piglet"),
        "'pig(piglet': an OpenSpiel game string ends with ')'"
    );
    assert!(err("connect_four(rows=99)").contains("99"));
}

/// An entry reads its own game's positions (pyspiel:
/// `str(pyspiel.load_game("tic_tac_toe").new_initial_state())` is three
/// rows of dots) and refuses another game's with an error, never a panic.
#[test]
fn entries_downcast_their_own_positions_only() {
    use crate::game::Game;
    use crate::games::openspiel::AnyPosition;
    let (ttt, read, _) = parse_openspiel("tic_tac_toe").unwrap().unwrap();
    let (c4, _, _) = parse_openspiel("connect_four").unwrap().unwrap();
    let (AnyGame::TicTacToe(ttt), AnyGame::Connect4(c4)) = (ttt, c4) else {
        panic!("tic_tac_toe and connect_four are wopr's TicTacToe and Connect4");
    };
    let (start, other) = (ttt.initial_state(), c4.initial_state());
    let at = |game: &dyn std::any::Any, state: &dyn std::any::Any| {
        let p = AnyPosition {
            game,
            state,
            history: &[],
            params: &[],
        };
        read.entry.state_string(&p)
    };
    assert_eq!(at(&ttt, &start).unwrap(), "...\n...\n...");
    let err = at(&c4, &other).unwrap_err();
    assert!(err.contains("TicTacToe"), "{err}");
}
