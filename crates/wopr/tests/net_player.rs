//! Net players: one value scale for net outputs and finished games, and
//! `finished=rules|net` (issue 13: a win above every net value, a loss below,
//! a draw at the net's neutral value; win detection optionally left to the
//! net).

use wopr::game::rng::stream;
use wopr::games::tictactoe::TicTacToe;
use wopr::nn::{Activation, AnyNet, Architecture, NetFile, Network};
use wopr::{parse_player, ActionList, Game, State};

/// A Tic-Tac-Toe value net (9-1, sigmoid) that outputs the constant
/// `sigmoid(bias)` whatever the board, saved to a file for `net:` specs.
fn constant_net(name: &str, bias: f32) -> String {
    let arch = Architecture::Mlp { layers: vec![9, 1] };
    let mut net = AnyNet::new(&arch, &[Activation::Sigmoid]).unwrap();
    let mut p = vec![0.0; net.num_params()];
    *p.last_mut().unwrap() = bias;
    net.set_params(&p).unwrap();
    let mut file = NetFile::new(net);
    file.game = Some("tictactoe".into());
    let dir = std::env::temp_dir().join(format!("wopr-net-player-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    file.save(&path).unwrap();
    path.to_string_lossy().into_owned()
}

/// X to move after a1 b1 a2 b2 (squares as the notation names them): a3
/// wins at once, four other moves do not end the game.
fn x_can_win() -> (TicTacToe, <TicTacToe as Game>::State) {
    let game = TicTacToe;
    let mut s = game.initial_state();
    for m in ["a1", "b1", "a2", "b2"] {
        let a = s.parse_action(m).unwrap();
        s.apply(a);
    }
    (game, s)
}

/// Moves chosen from the position over 40 tie-break seeds.
fn choices(spec: &str) -> Vec<String> {
    let (game, s) = x_can_win();
    let mut player = parse_player(&game, spec).unwrap();
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    (0..40)
        .map(|seed| {
            let mut rng = stream(seed, &[]);
            player.new_game();
            s.action_to_string(player.choose(&s, &legal, &mut rng))
        })
        .collect()
}

#[test]
fn finished_games_are_scored_by_the_rules_unless_left_to_the_net() {
    // A net that thinks every position is lost for its player to move
    // (sigmoid(-20) ≈ 0, centred ≈ -1): after any move of X the opponent
    // is to move, so every unfinished successor is worth about +1 to X.
    let path = constant_net("pessimist", -20.0);
    let (game, s) = x_can_win();
    let win = s.action_to_string(s.parse_action("a3").unwrap());
    // By the rules the win (+2) is above every net value (< 1).
    let rules = choices(&format!("net:{path}"));
    assert!(rules.iter().all(|m| *m == win), "{rules:?}");
    // Left to the net, the finished position is one more board it values
    // from seat 0's view (X, seat 0: about -1), so X avoids the win.
    let net = choices(&format!("net:{path},finished=net"));
    assert!(net.iter().all(|m| *m != win), "{net:?}");
    let _ = game;
}

#[test]
fn a_sigmoid_nets_even_value_is_a_draws_value() {
    // A net that outputs exactly 0.5 ("even") for every position: on the
    // symmetric scale that is 0, a draw's value. By the rules the win
    // (+2) stands out.
    let path = constant_net("even", 0.0);
    let moves = choices(&format!("net:{path}"));
    let (_, s) = x_can_win();
    let win = s.action_to_string(s.parse_action("a3").unwrap());
    assert!(moves.iter().all(|m| *m == win));
    // With finished=net the win is valued 0 like every other move: all
    // five moves tie and the 40 seeds pick more than one of them.
    let moves = choices(&format!("net:{path},finished=net"));
    let distinct: std::collections::BTreeSet<_> = moves.iter().collect();
    assert!(distinct.len() > 1, "{moves:?}");
}

#[test]
fn finished_takes_rules_or_net_only() {
    let path = constant_net("spec", 0.0);
    let err = parse_player(&TicTacToe, &format!("net:{path},finished=maybe"))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("accepted: rules, net"), "{err}");
}
