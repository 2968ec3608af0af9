//! One random-playout test shared by every registered game (after OpenSpiel's
//! `RandomSimTest`): from the start, random play reaches a terminal state
//! within the game's maximum length; before that, the player to move always
//! has legal actions (or chance has outcomes whose probabilities sum to 1);
//! every action is below `num_actions`; notation round-trips; the returns
//! sum to zero; and `State::random_action` picks what the legal list picks.

use rand::{Rng, RngExt};
use wopr::game::driver::{random_playout, random_playout_listed};
use wopr::game::rng::{stream, WoprRng};
use wopr::games::tictactoe::TicTacToe;
use wopr::registry::games;
use wopr::{with_game, ActionList, AnyGame, Game, State, Turn};

/// `State::random_action` (which a game may override to pick without listing
/// its moves) must pick what the legal list picks with the same generator,
/// and leave the generator where the list's pick leaves it: recorded games
/// and results depend on it.
fn same_draw<S: State>(s: &S, rng: &WoprRng, legal: &ActionList, spec: &str) {
    let mut by_list = rng.clone();
    let mut by_state = rng.clone();
    let listed = legal[by_list.random_range(0..legal.len())];
    assert_eq!(
        s.random_action(&mut by_state),
        listed,
        "{spec}: random_action differs from the legal list's pick in\n{s}"
    );
    assert_eq!(
        by_state.next_u64(),
        by_list.next_u64(),
        "{spec}: random_action draws differently from the legal list's pick"
    );
}

fn check<G: Game>(game: &G, seed: u64, playouts: u64) {
    let spec = game.spec();
    for i in 0..playouts {
        let mut rng = stream(seed, &[i]);
        let mut s = game.initial_state();
        let mut plies = 0;
        loop {
            assert!(
                plies <= game.max_game_length(),
                "{spec}: longer than max_game_length"
            );
            let mut legal = ActionList::new();
            match s.turn() {
                Turn::Terminal => break,
                Turn::Simultaneous => {
                    let mut joint = Vec::new();
                    for seat in 0..game.num_players() {
                        legal.clear();
                        s.legal_actions_of(seat, &mut legal);
                        assert!(!legal.is_empty(), "{spec}: seat {seat} has no action");
                        joint.push(legal[rng.random_range(0..legal.len())]);
                    }
                    s.apply_joint(&joint);
                    plies += joint.len();
                    continue;
                }
                Turn::Chance => {
                    let mut outcomes = Vec::new();
                    s.chance_outcomes(&mut outcomes);
                    let total: f64 = outcomes.iter().map(|o| o.1).sum();
                    assert!((total - 1.0).abs() < 1e-9, "{spec}: chance sums to {total}");
                }
                Turn::Player(p) => assert!(p < game.num_players()),
            }
            s.legal_actions(&mut legal);
            assert!(!legal.is_empty(), "{spec}: no legal action before the end");
            assert!(
                legal.windows(2).all(|w| w[0] < w[1]),
                "{spec}: legal actions not increasing"
            );
            for &a in &legal {
                assert!(
                    (a as usize) < game.num_actions(),
                    "{spec}: action {a} out of range"
                );
                let text = s.action_to_string(a);
                assert_eq!(
                    s.parse_action(&text),
                    Ok(a),
                    "{spec}: '{text}' does not round-trip"
                );
            }
            if matches!(s.turn(), Turn::Player(_)) {
                same_draw(&s, &rng, &legal, &spec);
            }
            let a = legal[rng.random_range(0..legal.len())];
            s.apply(a);
            plies += 1;
        }
        let sum: f64 = (0..game.num_players()).map(|p| s.returns(p)).sum();
        assert!(sum.abs() < 1e-9, "{spec}: returns sum to {sum}");
        if let Some(m) = s.score(0) {
            assert_eq!(s.score(1), Some(-m), "{spec}: margins not opposite");
        }
    }
}

#[test]
fn random_playouts_of_every_registered_game() {
    let mut specs: Vec<String> = games()
        .iter()
        .filter(|g| g.name != "gdl")
        .map(|g| g.name.to_string())
        .collect();
    // The other sizes the papers use, and GDL sheets (a game needs one).
    specs.extend(
        [
            "connect4:6x6",
            "reversi:6x6",
            "dots-and-boxes:2x2",
            "gdl:../../gdl/tictactoe.kif",
            "gdl:../../gdl/nim.kif",
            "gdl:../../gdl/kuhn.kif",
        ]
        .map(String::from),
    );
    for spec in specs {
        let game = AnyGame::parse(&spec).unwrap();
        assert_eq!(
            AnyGame::parse(&game.spec()).unwrap().spec(),
            game.spec(),
            "spec round trip"
        );
        with_game!(&game, g => check(g, 42, 300));
    }
}

/// The sizes and starts that games with their own `random_action` support
/// besides their defaults: every board shape's move masks and jump tables.
#[test]
fn random_playouts_of_every_board_size() {
    let mut specs: Vec<String> = Vec::new();
    for c in 1..=5 {
        for r in 1..=5 {
            specs.push(format!("dots-and-boxes:{c}x{r}"));
        }
    }
    for n in 4..=8 {
        specs.push(format!("virus:{n}x{n}"));
    }
    specs.push("virus:5x5,start=a1b1c1/e5,max-plies=60".into());
    specs.push("virus:8x8,start=d4e5/d5e4".into());
    for spec in specs {
        let game = AnyGame::parse(&spec).unwrap();
        with_game!(&game, g => check(g, 7, 40));
    }
}

#[test]
fn unknown_games_and_arguments_are_one_line_errors() {
    let e = AnyGame::parse("chess").unwrap_err().to_string();
    assert!(
        e.contains("unknown game 'chess'") && e.contains("connect4"),
        "{e}"
    );
    assert!(!e.contains('\n'));
    let e = AnyGame::parse("tictactoe:4x4").unwrap_err().to_string();
    assert!(e.contains("does not take"), "{e}");
}

/// The mean and standard deviation of the length of `n` random games, as
/// `wopr bench` plays them: `random_playout` from the start, all randomness
/// from the stream (0, [0]).
fn playout_lengths<G: Game>(game: &G, n: u64) -> (f64, f64) {
    let mut rng = stream(0, &[0]);
    let (mut sum, mut sum2) = (0.0, 0.0);
    for _ in 0..n {
        let mut s = game.initial_state();
        let len = random_playout(&mut s, game.num_players(), &mut rng) as f64;
        sum += len;
        sum2 += len * len;
    }
    let mean = sum / n as f64;
    (mean, (sum2 / n as f64 - mean * mean).max(0.0).sqrt())
}

/// `random_playout_listed`, which picks from the legal list where
/// `random_playout` uses the game's `random_action`, plays the same games:
/// the same lengths and final positions from the same stream, game by game,
/// so `wopr bench --listed` times the same work.
#[test]
fn listed_playouts_play_the_same_games() {
    for spec in [
        "dots-and-boxes:3x3",
        "dots-and-boxes:5x4",
        "virus:8x8",
        "virus:5x5",
        "pig",
        "goofspiel",
    ] {
        let game = AnyGame::parse(spec).unwrap();
        with_game!(&game, g => {
            let (mut fast, mut listed) = (stream(5, &[1]), stream(5, &[1]));
            for i in 0..200 {
                let (mut a, mut b) = (g.initial_state(), g.initial_state());
                let n = random_playout(&mut a, g.num_players(), &mut fast);
                let m = random_playout_listed(&mut b, g.num_players(), &mut listed);
                assert_eq!((n, a.to_string()), (m, b.to_string()), "{spec}, game {i}");
            }
        });
    }
}

/// README, "Random playouts per second": the plies/game column of `wopr
/// bench`. The bench plays as many games as fit in its time, so its mean
/// varies a little from run to run; here a fixed number of games must land
/// within four standard errors of the README figure, plus the 0.05 of its
/// rounding to one decimal.
#[test]
fn mean_random_game_lengths_match_the_bench_table() {
    for (spec, readme, n) in [
        ("tictactoe", 7.6, 20_000),
        ("connect4:7x6", 21.3, 20_000),
        ("connect4:6x6", 20.3, 20_000),
        ("dots-and-boxes:3x3", 24.0, 20_000),
        ("reversi:8x8", 60.4, 5_000),
        ("reversi:6x6", 32.5, 10_000),
        ("virus:8x8", 190.0, 10_000),
        ("pig", 48.0, 20_000),
        ("kuhn", 4.3, 20_000),
        ("goofspiel:cards=5", 10.0, 1_000),
    ] {
        let game = AnyGame::parse(spec).unwrap();
        let (mean, sd) = with_game!(&game, g => playout_lengths(g, n));
        let tolerance = 4.0 * sd / (n as f64).sqrt() + 0.05;
        println!("{spec}: {mean:.2} ± {tolerance:.2} (README {readme})");
        assert!(
            (mean - readme).abs() <= tolerance,
            "{spec}: mean {mean:.2} over {n} games (sd {sd:.2}), README {readme}"
        );
    }
}

/// The Tic-Tac-Toe row exactly: the expected length of a uniformly random
/// game, walked over the whole tree, is 3203/420 = 7.626 plies (README: 7.6).
#[test]
fn expected_random_tictactoe_length_is_exact() {
    fn expected<S: State>(s: &S) -> f64 {
        if matches!(s.turn(), Turn::Terminal) {
            return 0.0;
        }
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        let total: f64 = legal
            .iter()
            .map(|&a| {
                let mut c = s.clone();
                c.apply(a);
                expected(&c)
            })
            .sum();
        1.0 + total / legal.len() as f64
    }
    let e = expected(&TicTacToe.initial_state());
    assert!((e - 3203.0 / 420.0).abs() < 1e-12, "{e}");
    assert_eq!((e * 10.0).round() / 10.0, 7.6);
}
