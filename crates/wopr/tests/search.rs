//! Alpha-beta at full depth agrees with plain minimax written here, including
//! in Dots-and-Boxes where a player who completes a box moves again.

use rand::RngExt;
use wopr::game::rng::stream;
use wopr::games::dots_and_boxes::DotsAndBoxes;
use wopr::games::tictactoe::TicTacToe;
use wopr::search::{AlphaBeta, Limits};
use wopr::{ActionList, Game, State, Turn, WIN_SCORE};

/// Plain minimax: the final result (+1/0/−1) for the player to move.
fn minimax<S: State>(s: &S) -> i32 {
    let Turn::Player(me) = s.turn() else {
        unreachable!()
    };
    let mut moves = ActionList::new();
    s.legal_actions(&mut moves);
    moves
        .iter()
        .map(|&a| {
            let mut c = s.clone();
            c.apply(a);
            match c.turn() {
                Turn::Terminal => sign(c.returns(me)),
                Turn::Player(p) if p == me => minimax(&c),
                _ => -minimax(&c),
            }
        })
        .max()
        .unwrap()
}

/// −1, 0 or +1 (`f64::signum` maps 0.0 to 1.0).
fn sign(x: f64) -> i32 {
    (x > 0.0) as i32 - (x < 0.0) as i32
}

fn result_of(v: i32) -> i32 {
    if v > WIN_SCORE / 2 {
        1
    } else if v < -WIN_SCORE / 2 {
        -1
    } else {
        0
    }
}

fn random_position<G: Game>(game: &G, plies: usize, seed: u64) -> Option<G::State> {
    let mut rng = stream(seed, &[]);
    let mut s = game.initial_state();
    for _ in 0..plies {
        let mut moves = ActionList::new();
        s.legal_actions(&mut moves);
        if moves.is_empty() {
            return None;
        }
        s.apply(moves[rng.random_range(0..moves.len())]);
    }
    (!s.is_terminal()).then_some(s)
}

#[test]
fn full_depth_alphabeta_matches_minimax() {
    let mut checked = 0;
    for seed in 0..150u64 {
        let positions = [random_position(&TicTacToe, (seed % 6) as usize, seed).map(|s| (1, s))];
        for (_, s) in positions.into_iter().flatten() {
            let mut ab = AlphaBeta::new(12);
            let r = ab.search(
                &s,
                Limits {
                    depth: Some(9),
                    time: None,
                },
                &mut stream(seed, &[1]),
            );
            assert_eq!(result_of(r.value), minimax(&s), "tictactoe seed {seed}");
            checked += 1;
        }
        let game =
            DotsAndBoxes::from_spec(&wopr::game::GameSpec::parse("dots-and-boxes:2x2").unwrap())
                .unwrap();
        if let Some(s) = random_position(&game, 4 + (seed % 3) as usize, seed) {
            let mut ab = AlphaBeta::new(14);
            let r = ab.search(
                &s,
                Limits {
                    depth: Some(12),
                    time: None,
                },
                &mut stream(seed, &[2]),
            );
            assert_eq!(
                result_of(r.value),
                minimax(&s),
                "dots-and-boxes seed {seed}"
            );
            // The chosen move keeps the optimal result.
            let Turn::Player(me) = s.turn() else {
                unreachable!()
            };
            let mut c = s;
            c.apply(r.best);
            let after = match c.turn() {
                Turn::Terminal => sign(c.returns(me)),
                Turn::Player(p) if p == me => minimax(&c),
                _ => -minimax(&c),
            };
            assert_eq!(after, minimax(&s), "dots-and-boxes seed {seed}: best move");
            checked += 1;
        }
    }
    assert!(checked > 200);
}
