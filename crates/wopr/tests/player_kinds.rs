//! The table of generic player kinds (`players::KINDS`) against every
//! registered game: a kind is listed for a game exactly when the game reads it.

use wopr::players::kinds::{kind_name, Plays};
use wopr::players::KINDS;
use wopr::players::{player_names, PlayerSpec};
use wopr::registry::AnyGame;

/// What `player_names` lists for `spec`.
fn names(spec: &str) -> Vec<&'static str> {
    wopr::with_game!(AnyGame::parse(spec).unwrap(), g => player_names(&g))
}

#[test]
fn every_listed_generic_kind_parses_and_every_unlisted_one_is_refused() {
    for info in wopr::registry::games().iter().filter(|g| g.name != "gdl") {
        let spec = info.name;
        let listed = names(spec);
        wopr::with_game!(AnyGame::parse(spec).unwrap(), g => {
            for kind in KINDS.iter().filter(|k| k.name != "gtp") {
                let sample = match kind.plays {
                    Plays::Reads(s) => s,
                    _ => kind.name,
                };
                let parses = PlayerSpec::parse(&g, sample).is_ok();
                let shown = listed.iter().any(|n| kind_name(n) == kind.name);
                assert_eq!(parses, shown, "{spec}: {} parses {parses}, listed {shown}", kind.name);
            }
        });
    }
}

#[test]
fn board_games_list_the_searching_kinds_once_and_others_their_own() {
    let ttt = names("tictactoe");
    for kind in ["alphabeta", "mcts", "net", "perfect"] {
        let n = ttt.iter().filter(|s| kind_name(s) == kind).count();
        assert_eq!(n, 1, "tictactoe lists {kind} {n} times: {ttt:?}");
    }
    // Pig reads `mcts` with a syntax of its own (no net rollouts),
    // which replaces the kind's row.
    let pig = names("pig");
    let mcts: Vec<_> = pig.iter().filter(|s| kind_name(s) == "mcts").collect();
    assert_eq!(mcts.len(), 1, "{pig:?}");
    assert!(!mcts[0].contains("rollout"), "{pig:?}");
    assert!(!pig.iter().any(|s| kind_name(s) == "alphabeta"), "{pig:?}");
    // Only games whose moves are GTP vertices list `gtp:`.
    assert!(names("reversi").iter().any(|s| kind_name(s) == "gtp"));
    assert!(!names("connect4").iter().any(|s| kind_name(s) == "gtp"));
}

/// Each searching kind's spec is read into `PlayerSpec::Kind` carrying its
/// own row and settings, prints as text that reads back equal, and (but
/// `net:`, which needs a file, and `gtp:`, a program) builds a player whose
/// spec names the kind.
#[test]
fn each_searching_kind_reads_prints_back_and_builds_from_its_row() {
    use wopr::games::tictactoe::TicTacToe;
    use wopr::players::alphabeta::AlphaBetaKind;
    use wopr::players::mcts::MctsKind;
    for kind in KINDS.iter().filter(|k| matches!(k.plays, Plays::Reads(_))) {
        let Plays::Reads(sample) = kind.plays else {
            unreachable!()
        };
        let spec = PlayerSpec::parse(&TicTacToe, sample).unwrap();
        let PlayerSpec::Kind(k) = &spec else {
            panic!("{sample} read as {spec:?}, not a kind's spec")
        };
        assert_eq!(k.kind.name, kind.name);
        let again = PlayerSpec::parse(&TicTacToe, &spec.to_string()).unwrap();
        assert_eq!(again, spec, "{sample} prints as {spec}");
        if kind.name != "net" {
            let player = spec.build(&TicTacToe).unwrap();
            assert_eq!(kind_name(&player.spec()), kind.name);
        }
    }
    // The settings come back typed for their own kind only; a different
    // setting makes a different spec.
    let mcts = PlayerSpec::parse(&TicTacToe, "mcts:sims=7").unwrap();
    assert_eq!(mcts.settings::<MctsKind>().unwrap().config.sims, 7);
    assert!(mcts.settings::<AlphaBetaKind>().is_none());
    assert_ne!(mcts, PlayerSpec::parse(&TicTacToe, "mcts:sims=8").unwrap());
    let ab = PlayerSpec::parse(&TicTacToe, "alphabeta:depth=3,ms=50").unwrap();
    assert_eq!(ab.cost().depth, Some(3));
    assert_eq!(ab.to_string(), "alphabeta:depth=3,ms=50");
}
