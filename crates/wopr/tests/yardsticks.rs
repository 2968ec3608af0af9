//! Yardsticks: the exhaustive loss count against an independent enumeration,
//! the perfect Tic-Tac-Toe player's zero losses, and the ceiling on what any
//! player can win against uniformly random play.

use wopr::eval::{best_response_to_uniform, exhaustive};
use wopr::game::rng::stream;
use wopr::games::tictactoe::TicTacToe;
use wopr::players::parse_player;

/// A plain Tic-Tac-Toe board: 0 empty, 1 X, 2 O.
fn winner(b: &[u8; 9]) -> u8 {
    const L: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    for l in L {
        if b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]] {
            return b[l[0]];
        }
    }
    0
}

/// Counts (games, wins, draws, losses) of the "first empty square" player
/// (mark `me`) against every line of the opponent; `to_move` is 1 or 2.
fn enumerate(b: &mut [u8; 9], to_move: u8, me: u8) -> (u64, u64, u64, u64) {
    let w = winner(b);
    if w != 0 {
        return if w == me { (1, 1, 0, 0) } else { (1, 0, 0, 1) };
    }
    if b.iter().all(|&c| c != 0) {
        return (1, 0, 1, 0);
    }
    let next = 3 - to_move;
    if to_move == me {
        let i = b.iter().position(|&c| c == 0).unwrap();
        b[i] = me;
        let r = enumerate(b, next, me);
        b[i] = 0;
        r
    } else {
        let mut total = (0, 0, 0, 0);
        for i in 0..9 {
            if b[i] == 0 {
                b[i] = to_move;
                let r = enumerate(b, next, me);
                b[i] = 0;
                total = (total.0 + r.0, total.1 + r.1, total.2 + r.2, total.3 + r.3);
            }
        }
        total
    }
}

#[test]
fn exhaustive_count_of_first_matches_an_independent_enumeration() {
    let game = TicTacToe;
    for (seat, mark) in [(0usize, 1u8), (1, 2)] {
        let mut p = parse_player(&game, "first").unwrap();
        let got = exhaustive(&game, p.as_mut(), seat, &mut stream(0, &[]));
        let (games, wins, draws, losses) = enumerate(&mut [0; 9], 1, mark);
        assert_eq!(
            (
                got.games,
                got.results.wins,
                got.results.draws,
                got.results.losses
            ),
            (games, wins, draws, losses),
            "seat {seat}"
        );
        assert!(losses > 0, "the first-square player is beatable");
    }
}

#[test]
fn perfect_player_never_loses_exhaustively() {
    let game = TicTacToe;
    for seed in 0..3 {
        for seat in 0..2 {
            let mut p = parse_player(&game, "perfect").unwrap();
            let r = exhaustive(&game, p.as_mut(), seat, &mut stream(seed, &[seat as u64]));
            assert_eq!(r.results.losses, 0, "seat {seat}");
            assert!(r.games > 0);
        }
    }
}

/// Expectimax on the plain board, independent of the library's game: the
/// best (win probability, expected score) for `me` against a uniformly random
/// opponent, each maximised on its own.
fn best_against_uniform(b: &mut [u8; 9], to_move: u8, me: u8) -> (f64, f64) {
    let w = winner(b);
    if w != 0 {
        return if w == me { (1.0, 1.0) } else { (0.0, 0.0) };
    }
    if b.iter().all(|&c| c != 0) {
        return (0.0, 0.5);
    }
    let mut children = Vec::new();
    for i in 0..9 {
        if b[i] == 0 {
            b[i] = to_move;
            children.push(best_against_uniform(b, 3 - to_move, me));
            b[i] = 0;
        }
    }
    if to_move == me {
        children
            .iter()
            .fold((0.0, 0.0), |(w, s), c| (w.max(c.0), s.max(c.1)))
    } else {
        let n = children.len() as f64;
        let (w, s) = children
            .iter()
            .fold((0.0, 0.0), |(w, s), c| (w + c.0, s + c.1));
        (w / n, s / n)
    }
}

/// README, "Measured": "the best possible strategy against a uniformly
/// random opponent wins 99.48% as X and 93.86% as O (96.7% on average;
/// expectimax over the full tree)".
///
/// The values are rationals: the random opponent's nodes average over 8, 6,
/// 4 and 2 moves when it plays O, and 9, 7, 5, 3 and 1 when it plays X, so
/// X's best win probability is a multiple of 1/384 (8·6·4·2) and O's of
/// 1/945 (9·7·5·3·1), and the scores of half those. Both walks find
/// (a draw counting ½ for the score): win X 382/384 = 191/192 =
/// 99.479%, O 887/945 = 93.862% (mean 96.67%); best expected score X
/// 383/384 = 99.740%, O 1819/1890 = 96.243%.
#[test]
fn best_response_to_random_play_is_the_readme_ceiling() {
    let game = TicTacToe;
    let x = best_response_to_uniform(&game, 0);
    let o = best_response_to_uniform(&game, 1);
    // The library's walk agrees with the plain-board one.
    let (xw, xs) = best_against_uniform(&mut [0; 9], 1, 1);
    let (ow, os) = best_against_uniform(&mut [0; 9], 1, 2);
    for (got, want) in [(x.win, xw), (x.score, xs), (o.win, ow), (o.score, os)] {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
    // The exact fractions (up to rounding of the sums of ~10^5 terms).
    assert!((x.win - 191.0 / 192.0).abs() < 1e-12, "{x:?}");
    assert!((o.win - 887.0 / 945.0).abs() < 1e-12, "{o:?}");
    assert!((x.score - 383.0 / 384.0).abs() < 1e-12, "{x:?}");
    assert!((o.score - 1819.0 / 1890.0).abs() < 1e-12, "{o:?}");
    // The README's figures, to two decimals of a percentage.
    let pct = |v: f64| (v * 10_000.0).round() / 100.0;
    assert_eq!(pct(x.win), 99.48);
    assert_eq!(pct(o.win), 93.86);
    assert_eq!((100.0 * (x.win + o.win) / 2.0 * 10.0).round() / 10.0, 96.7);
}
