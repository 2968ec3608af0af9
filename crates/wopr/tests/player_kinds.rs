//! The table of generic player kinds (`players::KINDS`) against every
//! registered game: a kind is listed for a game exactly when the game reads it.

use wopr::players::kinds::{kind_name, Plays, KINDS};
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
