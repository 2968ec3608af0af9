//! `mcts:…,exact=E` (issue 69, part 2): positions of E empty squares or
//! fewer are solved by the game's endgame solver as the tree reaches
//! them, so near the end the search plays only moves that keep the
//! position's exact value.

use wopr::game::rng::stream;
use wopr::game::GameSpec;
use wopr::games::reversi::{Reversi, ReversiState};
use wopr::players::{parse_player, PlayerSpec, Roster};
use wopr::{ActionList, Game, State, Turn};

/// A position of Reversi 8x8 with `empties` empty squares, reached by
/// random moves from the start with seed `seed` (`None` if the game ends
/// first).
fn position(game: &Reversi, seed: u64, empties: u32) -> Option<ReversiState> {
    let mut s = game.initial_state();
    let mut rng = stream(seed, &[]);
    while s.empties() > empties {
        if s.turn() == Turn::Terminal {
            return None;
        }
        let a = s.random_action(&mut rng);
        s.apply(a);
    }
    (s.turn() != Turn::Terminal).then_some(s)
}

/// The exact value of `s` (+1, 0, −1) for `seat`.
fn value_for(game: &Reversi, s: &ReversiState, seat: usize) -> i32 {
    if s.turn() == Turn::Terminal {
        return s.returns(seat).signum() as i32;
    }
    let mut solver = game.solver().unwrap();
    assert!(solver.widen(20));
    let v = solver.solve(s).unwrap().value;
    match s.turn() {
        Turn::Player(p) if p == seat => v,
        _ => -v,
    }
}

#[test]
fn with_exact_the_search_keeps_the_exact_value_near_the_end() {
    let game = Reversi::from_spec(&GameSpec::parse("reversi").unwrap()).unwrap();
    let mut checked = 0;
    for seed in 0..40 {
        let Some(s) = position(&game, seed, 11) else {
            continue;
        };
        let Turn::Player(me) = s.turn() else {
            continue;
        };
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        let want = value_for(&game, &s, me);
        // 20 iterations of random rollouts alone would often miss it.
        let mut p = parse_player(&game, "mcts:sims=20,exact=12").unwrap();
        let a = p.choose(&s, &legal, &mut stream(seed, &[1]));
        let mut t = s;
        t.apply(a);
        assert_eq!(
            value_for(&game, &t, me),
            want,
            "seed {seed}: {}",
            s.action_to_string(a)
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} positions reached");
}

#[test]
fn exact_reads_prints_back_and_is_refused_where_no_solver_counts_empties() {
    let game = Reversi::from_spec(&GameSpec::parse("reversi").unwrap()).unwrap();
    let spec = PlayerSpec::parse(&game, "mcts:sims=5,exact=14").unwrap();
    assert_eq!(spec.to_string(), "mcts:sims=5,c=0.5,exact=14");
    assert_eq!(PlayerSpec::parse(&game, &spec.to_string()).unwrap(), spec);
    for bad in [
        "mcts:exact=0",
        "mcts:exact=41",
        "mcts:exact=x",
        "mcts:exact=9,solve=off",
    ] {
        let e = PlayerSpec::parse(&game, bad).unwrap_err().to_string();
        assert!(e.contains("exact"), "{bad}: {e}");
    }
    // Tic-Tac-Toe's solver solves every position: it counts no empties.
    let ttt = wopr::games::tictactoe::TicTacToe;
    let e = parse_player(&ttt, "mcts:exact=5")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("counts empty squares"), "{e}");
    // Pig has no solver at all.
    let pig = wopr::AnyGame::parse("pig").unwrap();
    wopr::with_game!(&pig, g => {
        let e = parse_player(g, "mcts:exact=5").err().map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("exact")));
    });
    assert!(game.solver().is_some());
}

/// `clock=T` (issue 69, part 4): the player shares its game's time over
/// the moves left, so a whole game stays within the clock (the search
/// reads the time every 64 iterations, and 50% on top is allowed for a
/// busy machine) and spends at least a quarter of it, however many
/// iterations `sims` would allow.
#[test]
fn a_game_clock_is_kept_over_a_whole_game() {
    use std::time::{Duration, Instant};
    use wopr::players::mcts::{Leaf, MctsConfig, MctsPlayer, MAX_SIMS};
    use wopr::Player;
    let game = Reversi::from_spec(&GameSpec::parse("reversi:6x6").unwrap()).unwrap();
    let clock = Duration::from_millis(1200);
    let config = MctsConfig {
        sims: MAX_SIMS,
        clock: Some(clock),
        ..MctsConfig::default()
    };
    let mut p = MctsPlayer::new(&game, config, Leaf::Random).unwrap();
    p.new_game();
    let mut s = game.initial_state();
    let mut rng = stream(3, &[]);
    let (mut used, mut moves) = (Duration::ZERO, 0);
    while s.turn() != Turn::Terminal {
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        let a = if s.turn() == Turn::Player(0) {
            let t = Instant::now();
            let a = p.choose(&s, &legal, &mut rng);
            used += t.elapsed();
            moves += 1;
            a
        } else {
            s.random_action(&mut rng)
        };
        s.apply(a);
    }
    // The clock was shared over several moves. How many depends on the
    // iterations each move got (the random player's replies follow the
    // board), so a loaded machine can end the game sooner: 7 once, where
    // an idle one plays 8 or more.
    assert!(moves >= 4, "{moves} moves");
    assert!(used <= clock * 3 / 2, "{used:?} used of a {clock:?} clock");
    // The time is spent, not hoarded: a game against a random player can
    // end well before the moves the clock planned for (a wipe-out, and
    // proven moves take no time), and how soon depends on the iterations
    // each move got, so a quarter of the clock is the bound (half failed
    // once on a loaded machine).
    let left = p.clock_left().unwrap();
    assert!(
        left < clock * 3 / 4,
        "only {:?} of {clock:?} spent",
        clock - left
    );
    let spec = PlayerSpec::parse(&game, "mcts:sims=9,clock=60000").unwrap();
    assert_eq!(spec.to_string(), "mcts:sims=9,c=0.5,clock=60000");
    assert!(PlayerSpec::parse(&game, "mcts:clock=0").is_err());
}
