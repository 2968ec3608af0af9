//! Datasets from oracles: determinism, the perfect Tic-Tac-Toe targets against
//! a plain minimax, Weaver's level-1 targets against a direct box count, the
//! alpha-beta value oracle, errors, and the check that a net trained on
//! the perfect player's choices loses fewer exhaustive games than untrained.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;

use wopr::eval::exhaustive;
use wopr::game::encode::Encodable;
use wopr::game::oracle::{Oracle, OracleKind};
use wopr::game::rng::stream;
use wopr::games::dots_and_boxes::DotsAndBoxes;
use wopr::games::tictactoe::TicTacToe;
use wopr::nn::{Activation, AnyNet, Architecture, Network};
use wopr::players::net::{NetMode, NetPlayer};
use wopr::train::oracle::{generate, judge_for, DatasetInfo, DatasetOptions, Generated};
use wopr::train::{self, Algorithm, Dataset, Loss, TrainOptions};
use wopr::{AnyGame, Game};

fn make<G: wopr::train::oracle::OracleGame>(
    game: &G,
    oracle: &str,
    positions: usize,
    seed: u64,
    unique: bool,
) -> Generated {
    let options = DatasetOptions {
        positions,
        seed,
        unique,
        ..DatasetOptions::default()
    };
    generate(game, &Oracle::parse(oracle).unwrap(), &options, &|_| {}).unwrap()
}

// ---------------------------------------------------------------------------
// Reference Tic-Tac-Toe: a 3x3 array read back from the `raw` encoding
// (+1 the player to move, −1 the opponent, 0 empty) and a plain negamax.

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn board(inputs: &[f32]) -> [i8; 9] {
    std::array::from_fn(|i| inputs[i] as i8)
}

fn has_line(b: &[i8; 9], who: i8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| b[i] == who))
}

/// The value for the side to move (+1 in `b`) when both play perfectly,
/// scored as the solver documents it: ±(1 + empty squares at the end) for a
/// win or loss, 0 for a draw, so faster wins rank higher.
fn negamax(b: &[i8; 9], memo: &mut HashMap<[i8; 9], i32>) -> i32 {
    if let Some(&v) = memo.get(b) {
        return v;
    }
    let empties = b.iter().filter(|&&c| c == 0).count() as i32;
    // The opponent (−1) just moved: only they can have a line.
    let v = if has_line(b, -1) {
        -(1 + empties)
    } else if empties == 0 {
        0
    } else {
        (0..9)
            .filter(|&i| b[i] == 0)
            .map(|i| -negamax(&after(b, i), memo))
            .max()
            .unwrap()
    };
    memo.insert(*b, v);
    v
}

/// The board after the side to move plays `i`, seen by the other side.
fn after(b: &[i8; 9], i: usize) -> [i8; 9] {
    let mut c = *b;
    c[i] = 1;
    c.map(|x| -x)
}

fn target_set(targets: &[f32]) -> Vec<usize> {
    (0..targets.len()).filter(|&j| targets[j] == 1.0).collect()
}

#[test]
fn datasets_are_deterministic_for_a_seed_and_thread_count() {
    let ttt = TicTacToe;
    let a = make(&ttt, "perfect", 500, 7, false);
    let b = make(&ttt, "perfect", 500, 7, false);
    let c = make(&ttt, "perfect", 500, 8, false);
    assert_eq!(a, b);
    assert_ne!(a.data, c.data);
    assert_eq!(a.data.len(), 500);

    // One thread and the default pool give the same rows, for a search oracle
    // too (whose workers reuse their searcher from position to position).
    let game = AnyGame::parse("connect4:5x4").unwrap();
    let AnyGame::Connect4(c4) = game else {
        unreachable!()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let one = pool.install(|| make(&c4, "alphabeta:depth=3", 300, 3, false));
    let many = make(&c4, "alphabeta:depth=3", 300, 3, false);
    assert_eq!(one, many);
    assert!(one.data.targets().iter().all(|t| (-1.0..=1.0).contains(t)));
}

#[test]
fn perfect_tictactoe_targets_are_the_optimal_moves_of_a_plain_minimax() {
    let ttt = TicTacToe;
    let mut memo = HashMap::new();
    // Tic-Tac-Toe has 4,520 positions with a player to move (5,478 reachable,
    // 958 of them final); unique random play finds nearly all of them.
    let best = make(&ttt, "perfect", 5000, 1, true);
    assert!(best.exhausted);
    assert!(best.data.len() > 4400, "{}", best.data.len());
    let value = make(&ttt, "perfect:moves=value", 5000, 1, true);
    assert_eq!(best.data.inputs(), value.data.inputs());
    assert_eq!(best.info.kind, OracleKind::Policy);
    for i in 0..best.data.len() {
        let b = board(best.data.input(i));
        let mask = best.data.mask(i).unwrap();
        let t = best.data.target(i);
        // Masks are the legal moves: the empty squares.
        for j in 0..9 {
            assert_eq!(mask[j], b[j] == 0, "row {i}");
            if !mask[j] {
                assert_eq!(t[j], 0.0);
            }
        }
        // At least one legal move is marked, and only optimal ones: those of
        // the best distance-aware value.
        let scores: Vec<(usize, i32)> = (0..9)
            .filter(|&j| b[j] == 0)
            .map(|j| (j, -negamax(&after(&b, j), &mut memo)))
            .collect();
        let top = scores.iter().map(|s| s.1).max().unwrap();
        let want: Vec<usize> = scores.iter().filter(|s| s.1 == top).map(|s| s.0).collect();
        assert_eq!(target_set(t), want, "row {i}: {b:?}");
        // moves=value marks every move that keeps the win/draw/loss value.
        let want: Vec<usize> = scores
            .iter()
            .filter(|s| s.1.signum() == top.signum())
            .map(|s| s.0)
            .collect();
        assert_eq!(target_set(value.data.target(i)), want, "row {i}: {b:?}");
    }
}

#[test]
fn alphabeta_at_full_depth_gives_the_game_theoretic_value() {
    // Nine plies reach the end of every line, so the search is exact: a
    // proven win or loss is ±1, and a draw scores 0 (tanh 0).
    let ttt = TicTacToe;
    let mut memo = HashMap::new();
    let data = make(&ttt, "alphabeta:depth=9", 400, 2, true);
    assert_eq!(data.info.kind, OracleKind::Value);
    assert!(data.data.masks().is_none());
    for i in 0..data.data.len() {
        let b = board(data.data.input(i));
        let want = negamax(&b, &mut memo).signum() as f32;
        assert_eq!(data.data.target(i), &[want], "row {i}: {b:?}");
    }
}

/// Boxes of a `cols`×`rows` board whose four edges are all in `edges`, from
/// the action layout in the game's docs: horizontal edge (r, c) = r·C + c,
/// vertical edge (r, c) = (R+1)·C + r·(C+1) + c.
fn closed_boxes(edges: &[bool], cols: usize, rows: usize) -> usize {
    let h = (rows + 1) * cols;
    let mut n = 0;
    for r in 0..rows {
        for c in 0..cols {
            let sides = [
                r * cols + c,
                (r + 1) * cols + c,
                h + r * (cols + 1) + c,
                h + r * (cols + 1) + c + 1,
            ];
            if sides.iter().all(|&e| edges[e]) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn level1_targets_are_the_boxes_each_move_completes() {
    let dots = DotsAndBoxes::new(3, 3).unwrap();
    let data = make(&dots, "level1", 2000, 5, false);
    let (mut ones, mut twos) = (0, 0);
    for i in 0..data.data.len() {
        // `raw` is one input per edge, 1 = drawn (Weaver's 24 inputs).
        let drawn: Vec<bool> = data.data.input(i).iter().map(|&x| x == 1.0).collect();
        let mask = data.data.mask(i).unwrap();
        let before = closed_boxes(&drawn, 3, 3);
        for e in 0..24 {
            assert_eq!(mask[e], !drawn[e], "row {i} edge {e}");
            let t = data.data.target(i)[e];
            if drawn[e] {
                assert_eq!(t, 0.0);
                continue;
            }
            let mut with = drawn.clone();
            with[e] = true;
            let completes = closed_boxes(&with, 3, 3) - before;
            assert_eq!(t, completes as f32, "row {i} edge {e}");
            ones += usize::from(completes == 1);
            twos += usize::from(completes == 2);
        }
    }
    assert!(ones > 0 && twos > 0, "both kinds of capture occur");

    // quiet=drop keeps only positions where some move completes a box
    // (Weaver §3.7 filters the others out).
    let dropped = make(&dots, "level1:quiet=drop", 300, 5, false);
    assert_eq!(dropped.data.len(), 300);
    for i in 0..300 {
        assert!(dropped.data.target(i).iter().any(|&t| t >= 1.0), "row {i}");
    }
}

#[test]
fn positions_beyond_the_solver_are_an_error_or_left_out() {
    // 5x2 boxes have 3·5 + 2·6 = 27 edges; the dots-and-boxes solver takes
    // positions with at most 24 undrawn edges on boards over 24 edges.
    let AnyGame::DotsAndBoxes(dots) = AnyGame::parse("dots-and-boxes:5x2").unwrap() else {
        unreachable!()
    };
    let options = DatasetOptions {
        positions: 20,
        ..DatasetOptions::default()
    };
    let e = generate(&dots, &Oracle::parse("perfect").unwrap(), &options, &|_| {}).unwrap_err();
    assert!(e.to_string().contains("unsolved=skip"), "{e}");
    let made = make(&dots, "perfect:unsolved=skip", 20, 1, false);
    assert_eq!(made.data.len(), 20);
    for i in 0..20 {
        let legal = made.data.mask(i).unwrap().iter().filter(|&&m| m).count();
        assert!(legal <= 24, "row {i} has {legal} undrawn edges");
    }
}

#[test]
fn oracle_specs_read_back_from_their_display() {
    for text in [
        "perfect",
        "perfect:moves=value",
        "perfect:unsolved=skip",
        "perfect:moves=value,unsolved=skip",
        "level1",
        "level1:quiet=drop",
        "alphabeta:depth=3",
        "alphabeta:depth=2,scale=7.5",
        "ai:7,scale=10",
    ] {
        let o = Oracle::parse(text).unwrap();
        assert_eq!(o.to_string(), text);
        assert_eq!(Oracle::parse(&o.to_string()).unwrap(), o);
    }
    assert_eq!(
        Oracle::parse("PERFECT:Moves=Value").unwrap().to_string(),
        "perfect:moves=value"
    );
}

#[test]
fn oracles_that_do_not_apply_are_refused_in_one_line() {
    let ttt = TicTacToe;
    let err = |game: &str, oracle: &str| -> String {
        let g = AnyGame::parse(game).unwrap();
        let o = match Oracle::parse(oracle) {
            Ok(o) => o,
            Err(e) => return e.to_string(),
        };
        let r = wopr::with_board_game!(&g, g => judge_for(g, &o).map(|_| ()), panic!("board game"));
        r.unwrap_err().to_string()
    };
    let e = err("tictactoe", "level1");
    assert!(
        e.contains("does not apply to tictactoe") && e.contains("perfect"),
        "{e}"
    );
    let e = err("connect4", "ai:3");
    assert!(
        e.contains("does not apply") && e.contains("alphabeta"),
        "{e}"
    );
    let e = err("virus", "perfect");
    assert!(e.contains("ai:K"), "{e}");
    assert!(err("tictactoe", "alphabeta").contains("needs a depth"));
    assert!(err("virus", "ai:21").contains("1..=20"));
    assert!(err("tictactoe", "perfect:moves=all").contains("accepted: best, value"));
    assert!(err("tictactoe", "oracle").contains("unknown oracle"));
    for e in [err("tictactoe", "level1"), err("virus", "ai:0")] {
        assert!(!e.contains('\n'), "{e}");
    }
    // Options that cannot work are refused before any game is played.
    let bad = DatasetOptions {
        players: vec!["random".into(), "nobody".into()],
        ..DatasetOptions::default()
    };
    let e = generate(&ttt, &Oracle::parse("perfect").unwrap(), &bad, &|_| {}).unwrap_err();
    assert!(e.to_string().contains("nobody"), "{e}");
    let bad = DatasetOptions {
        encoding: Some("pixels".into()),
        ..DatasetOptions::default()
    };
    let e = generate(&ttt, &Oracle::parse("perfect").unwrap(), &bad, &|_| {}).unwrap_err();
    assert!(
        e.to_string().contains("accepted: raw, planes, handa"),
        "{e}"
    );
}

#[test]
fn virus_ai_targets_are_the_players_evaluation() {
    use wopr::games::virus::players::ai_evaluation;
    use wopr::State;
    let AnyGame::Virus(virus) = AnyGame::parse("virus:6x6").unwrap() else {
        unreachable!()
    };
    let oracle = Oracle::parse("ai:4").unwrap();
    let mut judge = judge_for(&virus, &oracle).unwrap();
    let mut rng = stream(9, &[0]);
    let mut s = virus.initial_state();
    let mut legal = wopr::ActionList::new();
    let mut checked = 0;
    while let Some(me) = wopr::game::mover(&s) {
        legal.clear();
        s.legal_actions(&mut legal);
        let mut out = [0.0f32];
        assert!(judge.judge(&s, &legal, &mut rng, &mut out).unwrap());
        // The default scale: tanh(e / 10).
        assert_eq!(out[0], (ai_evaluation(4, &s, me) / 10.0).tanh());
        checked += 1;
        use rand::RngExt;
        let a = legal[rng.random_range(0..legal.len())];
        s.apply(a);
    }
    assert!(checked > 5);
    let data = make(&virus, "ai:4", 200, 1, false);
    assert_eq!(data.info.oracle, "ai:4,scale=10");
    assert_eq!(data.info.kind.player_mode(), "greedy");
}

#[test]
fn the_description_round_trips_through_its_file() {
    let ttt = TicTacToe;
    let made = make(&ttt, "alphabeta:depth=2", 50, 4, false);
    assert_eq!(made.info.oracle, "alphabeta:depth=2,scale=4");
    assert_eq!(made.info.play, vec!["random", "random"]);
    let dir = std::env::temp_dir().join(format!("wopr-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("set.csv");
    made.data.write_csv(&csv).unwrap();
    let side = DatasetInfo::sidecar_path(&csv);
    assert!(side.to_string_lossy().ends_with("set.csv.json"));
    made.info.save(&side).unwrap();
    assert_eq!(DatasetInfo::load(&side).unwrap(), made.info);
    assert_eq!(Dataset::read_csv(&csv).unwrap(), made.data);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Losses as X plus losses as O against every line of the opponent (the
/// thesis's §4.3 measure) for a policy net.
fn exhaustive_losses(net: &AnyNet) -> u64 {
    let ttt = TicTacToe;
    (0..2)
        .map(|seat| {
            let mut player = NetPlayer::new(
                &ttt,
                Arc::new(net.clone()),
                ttt.encoding("raw").unwrap(),
                NetMode::Policy,
                "net".into(),
            )
            .unwrap();
            let mut rng = stream(1, &[seat as u64]);
            exhaustive(&ttt, &mut player, seat, &mut rng).results.losses
        })
        .sum()
}

#[test]
fn a_net_trained_on_the_perfect_players_choices_loses_less_than_untrained() {
    // The thesis's §4.5 experiment: every position, 1 for the perfect
    // player's moves and 0 for the others, here learnt by a 9-36-9 net with
    // iRPROP+ (squared error, illegal moves masked).
    let data = make(&TicTacToe, "perfect", 5000, 1, true).data;
    let arch = Architecture::parse("9-36-9").unwrap();
    let mut net = AnyNet::new(&arch, &[Activation::Sigmoid, Activation::Linear]).unwrap();
    let options = TrainOptions {
        loss: Loss::Mse,
        epochs: 300,
        seed: 1,
        ..TrainOptions::default()
    };
    let algo: Algorithm = "irprop+".parse().unwrap();
    // Zero epochs: just the initial weights every run starts from.
    let untrained_options = TrainOptions {
        epochs: 0,
        ..options.clone()
    };
    train::train(&mut net, &data, &algo, &untrained_options, |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    let untrained = net.clone();
    let report = train::train(&mut net, &data, &algo, &options, |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(untrained.params().len(), net.params().len());
    let before = exhaustive_losses(&untrained);
    let after = exhaustive_losses(&net);
    println!(
        "exhaustive losses (X + O): untrained {before}, after {} epochs (loss {:.4} -> {:.4}) {after}",
        report.epochs,
        report.losses[0],
        report.final_loss()
    );
    assert!(report.final_loss() < report.losses[0] / 4.0);
    assert!(after < before, "trained {after} vs untrained {before}");
}
