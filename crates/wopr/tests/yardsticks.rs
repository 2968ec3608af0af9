//! Yardsticks: the exhaustive loss count against an independent enumeration,
//! and the perfect Tic-Tac-Toe player's zero losses.

use wopr::eval::exhaustive;
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
