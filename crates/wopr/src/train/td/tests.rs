//! Tests of the TD learner: steps computed by hand, TCL, exploration.

use super::*;
use crate::game::rng::stream;
use crate::game::Game;
use crate::games::tictactoe::TicTacToe;

fn learner(options: TdOptions) -> TdLearner<TicTacToe> {
    TdLearner::new(TicTacToe, "raw", Activation::Tanh, options).unwrap()
}

/// A linear `raw` learner with `options`, and two positions: X played b2
/// (O to move), then O played a1 (X to move).
fn linear_after_b2_a1(
    options: TdOptions,
) -> (
    TdLearner<TicTacToe>,
    <TicTacToe as Game>::State,
    <TicTacToe as Game>::State,
) {
    let td = TdLearner::new(TicTacToe, "raw", Activation::Linear, options).unwrap();
    let mut s1 = TicTacToe.initial_state();
    s1.apply(s1.parse_action("b2").unwrap());
    let mut s2 = s1;
    s2.apply(s2.parse_action("a1").unwrap());
    (td, s1, s2)
}

#[test]
fn tcl_weighs_a_weights_change_summed_over_the_trace() {
    // TD(0.5), linear output, α 0.1. Update 1 on s1 (X played b2, O to
    // move; `raw`: −1 on b2, input 4) towards 1: δ = 1, so b2's weight
    // moves by −0.1 and the bias (weight 9) by +0.1. Update 2 on s2 (O
    // then played a1, X to move: +1 on b2, −1 on a1, input 0) towards 1:
    // V = −0.1 + 0.1 = 0, δ = 1; b2's weight is recommended 0.5·(−0.1)
    // from s1's trace entry (decayed by +λ: the sign passed is +1) and +0.1 from s2's, one change of
    // +0.05 (rate 1: its sums so far agree in sign). TCL's size sum then
    // grows by 0.05 (to 0.15), not by 0.05 + 0.1 as two separate changes
    // would make it.
    let options = TdOptions {
        alpha: 0.1,
        lambda: 0.5,
        epsilon: 0.0,
        tcl: Some(2.7),
        ..TdOptions::default()
    };
    let (mut tcl, s1, s2) = linear_after_b2_a1(options);
    tcl.update(&s1, 1.0, 0.0, false);
    assert!((tcl.update(&s2, 1.0, 1.0, false) - 1.0).abs() < 1e-6);
    let w = tcl.weights();
    assert!((w[4] + 0.05).abs() < 1e-6, "b2: {}", w[4]);
    assert!((w[0] + 0.1).abs() < 1e-6, "a1: {}", w[0]);
    assert!((w[9] - 0.25).abs() < 1e-6, "bias: {}", w[9]);
    let (sum, size) = tcl.tcl_sums();
    assert!((sum[4] + 0.05).abs() < 1e-6 && (size[4] - 0.15).abs() < 1e-6);
    // The per-update scratch is left empty for the next update.
    assert!(tcl.tcl_change.iter().all(|&c| c == 0.0));
}

#[test]
fn tcl_slows_a_weight_whose_recommendations_flip() {
    // TD(0) with a linear output on one position, three times: towards
    // +1, then twice towards 0. The rate of a step is g(|N|/A) from the
    // sums before it, g(x) = e^{β(x−1)}.
    let beta = 2.7f32;
    let options = TdOptions {
        alpha: 0.1,
        epsilon: 0.0,
        tcl: Some(beta),
        ..TdOptions::default()
    };
    let mut tcl = TdLearner::new(TicTacToe, "raw", Activation::Linear, options).unwrap();
    let mut s = TicTacToe.initial_state();
    s.apply(s.parse_action("b2").unwrap());
    // `raw` with O to move after X's b2: −1 on b2 (input 4); the bias
    // is weight 9. Step 1: δ = 1, nothing summed yet (rate 1): the
    // bias moves by 0.1, b2's weight by −0.1.
    tcl.update(&s, 1.0, 0.0, false);
    assert!((tcl.weights()[9] - 0.1).abs() < 1e-6);
    assert!((tcl.weights()[4] + 0.1).abs() < 1e-6);
    // Step 2: V = 0.1 + 0.1 = 0.2, δ = −0.2; the sums so far agree in
    // sign (|N|/A = 1, rate 1): the bias moves by −0.02.
    assert!((tcl.update(&s, 0.0, 0.0, false) + 0.2).abs() < 1e-6);
    assert!((tcl.weights()[9] - 0.08).abs() < 1e-6);
    let (sum, size) = tcl.tcl_sums();
    assert!((sum[9] - 0.08).abs() < 1e-6 && (size[9] - 0.12).abs() < 1e-6);
    // Step 3: V = 0.16, δ = −0.16, change −0.016 at rate
    // e^{β(0.08/0.12 − 1)} = e^{−0.9}.
    tcl.update(&s, 0.0, 0.0, false);
    let want = 0.08 - 0.016 * (beta * (0.08f32 / 0.12 - 1.0)).exp();
    assert!(
        (tcl.weights()[9] - want).abs() < 1e-6,
        "{}",
        tcl.weights()[9]
    );
    // Without TCL the same three steps move at the full rate.
    let mut plain = TdLearner::new(
        TicTacToe,
        "raw",
        Activation::Linear,
        TdOptions {
            alpha: 0.1,
            epsilon: 0.0,
            ..TdOptions::default()
        },
    )
    .unwrap();
    for target in [1.0, 0.0, 0.0] {
        plain.update(&s, target, 0.0, false);
    }
    assert!((plain.weights()[9] - (0.08 - 0.016)).abs() < 1e-6);
    assert!(plain.tcl_sums().0.is_empty());
}

#[test]
fn exploratory_moves_teach_only_when_asked() {
    // ε = 1: every move is random. Skipped, no position is learned
    // from; learned, every position of the game is.
    let options = |explore| TdOptions {
        epsilon: 1.0,
        explore,
        ..TdOptions::default()
    };
    let skip = learner(options(Explore::Skip)).learn_game(3);
    assert_eq!(skip.updates, 0);
    for explore in [Explore::Learn, Explore::LearnReset] {
        let g = learner(options(explore)).learn_game(3);
        assert_eq!(g.updates, g.plies, "{explore:?}");
        // The same random stream plays the same game.
        assert_eq!(g.plies, skip.plies);
    }
    assert!(Explore::parse("sometimes").is_err());
}

#[test]
fn the_same_index_plays_and_learns_the_same_game() {
    let mut a = learner(TdOptions::default());
    let mut b = learner(TdOptions::default());
    for i in 0..50 {
        assert_eq!(a.learn_game(i), b.learn_game(i));
    }
    assert_eq!(a.weights(), b.weights());
    assert!(a.weights().iter().any(|&w| w != 0.0));
}

#[test]
fn a_win_in_one_pulls_the_value_of_its_position_up() {
    // X (to move) has a1 and b1: c1 wins at once. With all weights zero
    // and ε = 0 the greedy move is the win (value +1 beats every 0),
    // and the one update moves V(s) from 0 towards +1:
    // w ← w + α·(1 − 0)·f'(0)·x with tanh' (0) = 1.
    let options = TdOptions {
        alpha: 0.1,
        epsilon: 0.0,
        ..TdOptions::default()
    };
    let mut l = learner(options);
    let mut s = TicTacToe.initial_state();
    for m in ["a1", "a2", "b1", "b2"] {
        s.apply(s.parse_action(m).unwrap());
    }
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    let mut rng = stream(1, &[0]);
    let (a, v) = l.best_move(&s, 0, 5, &legal, &mut rng);
    assert_eq!((s.action_to_string(a).as_str(), v), ("c1", 1.0));
    let delta = l.update(&s, v, 0.0, false);
    assert_eq!(delta, 1.0);
    // `raw` reads +1 on X's two squares and −1 on O's: 4 inputs moved
    // by ±0.1, and the bias by 0.1; V(s) = tanh(0.1·(4 + 1)).
    let moved = l.weights().iter().filter(|&&w| w != 0.0).count();
    assert_eq!(moved, 5);
    assert!((l.value(&s) - 0.5f32.tanh()).abs() < 1e-6);
}

#[test]
fn the_trace_carries_the_last_gradient_with_the_sign_and_lambda() {
    // Two steps by hand: s1 (O to move after b2) towards +1 with an
    // empty trace, then s2 (X to move after b2 a1; another mover, so
    // σ = −1) towards 0. With tanh and weights starting at 0:
    // step 1: δ₁ = 1, g₁ = x(s1) (and 1 for the bias), w = α·g₁;
    // step 2: δ₂ = 0 − tanh(w·x(s2) + b), e = −λ·g₁ + f'·g₂,
    // w += α·δ₂·e.
    let (alpha, lambda) = (0.1f32, 0.5f32);
    let options = TdOptions {
        alpha,
        lambda,
        epsilon: 0.0,
        ..TdOptions::default()
    };
    let mut l = learner(options);
    let enc = TicTacToe.encoding("raw").unwrap();
    let mut s1 = TicTacToe.initial_state();
    s1.apply(s1.parse_action("b2").unwrap());
    let mut s2 = s1;
    s2.apply(s2.parse_action("a1").unwrap());
    let (mut x1, mut x2) = (vec![0.0f32; 9], vec![0.0f32; 9]);
    enc.encode(&s1, &mut x1);
    enc.encode(&s2, &mut x2);
    x1.push(1.0); // the bias's input
    x2.push(1.0);
    assert_eq!(l.update(&s1, 1.0, 0.0, false), 1.0);
    let w1: Vec<f32> = x1.iter().map(|x| alpha * x).collect();
    assert_eq!(l.weights(), &w1[..]);
    let y2 = w1.iter().zip(&x2).map(|(w, x)| w * x).sum::<f32>().tanh();
    let delta = l.update(&s2, 0.0, -1.0, false);
    assert!((delta + y2).abs() < 1e-6);
    let slope = 1.0 - y2 * y2;
    for i in 0..10 {
        let e = -lambda * x1[i] + slope * x2[i];
        let want = w1[i] + alpha * delta * e;
        assert!((l.weights()[i] - want).abs() < 1e-6, "weight {i}");
    }
}

#[test]
fn the_net_it_writes_values_positions_as_it_does() {
    let mut l = learner(TdOptions::default());
    for i in 0..200 {
        l.learn_game(i);
    }
    let net = l.to_net();
    let mut s = TicTacToe.initial_state();
    s.apply(s.parse_action("b2").unwrap());
    let mut x = vec![0.0; 9];
    TicTacToe.encoding("raw").unwrap().encode(&s, &mut x);
    let mut out = [0.0];
    net.forward(&x, &mut out, &mut crate::nn::Scratch::new());
    assert!((out[0] - l.value(&s)).abs() < 1e-6);
    // And a learner started from that net holds the same weights.
    let again = learner(TdOptions::default()).with_net(&net).unwrap();
    assert_eq!(again.weights(), l.weights());
}

#[test]
fn against_opponents_the_learner_takes_both_seats_in_turn() {
    use crate::players::RandomPlayer;
    let opponents: Vec<Option<Box<dyn Player<TicTacToe>>>> =
        vec![Some(Box::new(RandomPlayer)), Some(Box::new(RandomPlayer))];
    let mut l = learner(TdOptions::default()).with_opponents(opponents);
    // Games 0, 1: opponents 0 and 1 with the learner first; games 2, 3:
    // the learner second. A learner that moves once in two plies makes
    // fewer updates than the plies only through exploration, and its
    // seat decides the sign of its return.
    for i in 0..4 {
        let g = l.learn_game(i);
        let r = g.learner_return.expect("a learner's return");
        let seat = (i / 2) % 2;
        let first = if seat == 0 { r } else { -r };
        assert_eq!(first, g.first_return, "game {i}");
        assert!(g.updates <= g.plies);
    }
    assert!(l.learn_game(9).learner_return.is_some());
    assert!(learner(TdOptions::default())
        .learn_game(0)
        .learner_return
        .is_none());
}

#[test]
fn a_none_opponent_makes_that_game_self_play() {
    use crate::players::RandomPlayer;
    let opponents: Vec<Option<Box<dyn Player<TicTacToe>>>> =
        vec![None, Some(Box::new(RandomPlayer))];
    let mut mixed = learner(TdOptions::default()).with_opponents(opponents);
    let mut alone = learner(TdOptions::default());
    // Games 0 and 2 (index mod 2 = 0) are self-play: no learner's return,
    // and played exactly as the self-play learner plays them while both
    // hold the same weights; games 1 and 3 are against the random player.
    let g = mixed.learn_game(0);
    assert_eq!(g, alone.learn_game(0));
    assert!(g.learner_return.is_none());
    assert_eq!(mixed.weights(), alone.weights());
    assert!(mixed.learn_game(1).learner_return.is_some());
    assert!(mixed.learn_game(2).learner_return.is_none());
    assert!(mixed.learn_game(3).learner_return.is_some());
}

#[test]
fn the_schedule_moves_alpha_geometrically_and_epsilon_linearly() {
    let options = TdOptions {
        alpha: 0.01,
        epsilon: 0.2,
        alpha_final: Some(0.0001),
        epsilon_final: Some(0.0),
        decay_games: 1000,
        ..TdOptions::default()
    };
    // Halfway: √(0.01 · 0.0001) = 0.001 and (0.2 + 0) / 2 = 0.1.
    let (a, e) = options.schedule(500);
    assert!((a - 0.001).abs() < 1e-7 && (e - 0.1).abs() < 1e-12);
    assert_eq!(options.schedule(0), (0.01, 0.2));
    let (a, e) = options.schedule(5000);
    assert!((a - 0.0001).abs() < 1e-8 && e.abs() < 1e-12);
    let e = TdLearner::new(
        TicTacToe,
        "raw",
        Activation::Tanh,
        TdOptions {
            decay_games: 0,
            ..options
        },
    )
    .err()
    .unwrap();
    assert!(e.0.contains("decay games > 0"), "{e}");
}

#[test]
fn bad_settings_are_refused_with_what_is_accepted() {
    let bad = TdOptions {
        lambda: 1.5,
        ..TdOptions::default()
    };
    let e = TdLearner::new(TicTacToe, "raw", Activation::Tanh, bad)
        .err()
        .unwrap();
    assert!(e.0.contains("lambda must be in [0, 1]"), "{e}");
    let e = TdLearner::new(TicTacToe, "raw", Activation::Sigmoid, TdOptions::default())
        .err()
        .unwrap();
    assert!(e.0.contains("tanh or linear"), "{e}");
    let e = TdLearner::new(TicTacToe, "nope", Activation::Tanh, TdOptions::default())
        .err()
        .unwrap();
    assert!(e.0.contains("unknown encoding"), "{e}");
}

#[test]
fn a_discount_scales_the_next_positions_value_and_the_trace() {
    // TD(0.5), linear output, α 0.1, γ 0.5; s1 (X played b2, O to move;
    // `raw`: −1 on b2, input 4), s2 (O then played a1: +1 on b2, −1 on
    // a1, input 0). Update 1 on s1 towards 1 moves b2's weight by −0.1 and
    // the bias (weight 9) by +0.1; then V(s2) = −0.1 + 0.1 = 0 and update
    // 2 towards 1 has δ = 1 with s1's trace entry decayed by −γλ = −0.25
    // (alternate movers): b2's weight changes by 0.1·(−0.25·(−1) + 1) =
    // +0.125, to +0.025 (without the discount, decayed by −0.5: +0.05);
    // the bias by 0.1·(−0.25 + 1) = +0.075, to 0.175.
    let options = TdOptions {
        alpha: 0.1,
        lambda: 0.5,
        epsilon: 0.0,
        gamma: 0.5,
        ..TdOptions::default()
    };
    let (mut td, s1, s2) = linear_after_b2_a1(options);
    td.update(&s1, 1.0, 0.0, false);
    td.update(&s2, 1.0, -1.0, false);
    let w = td.weights();
    assert!((w[4] - 0.025).abs() < 1e-6, "b2: {}", w[4]);
    assert!((w[9] - 0.175).abs() < 1e-6, "bias: {}", w[9]);
    // A move's target is γ times the next position's value, from the
    // mover's side (O's move a1 leads to X to move), and a finished game's
    // result undiscounted.
    let v = td.value(&s2);
    assert!(v.abs() > 0.01);
    assert!((td.value_for(&s2, 1, 2) + 0.5 * v).abs() < 1e-6);
    let mut won = TicTacToe.initial_state();
    for m in ["a1", "b1", "a2", "b2", "a3"] {
        won.apply(won.parse_action(m).unwrap());
    }
    assert_eq!(td.value_for(&won, 0, 5), 1.0);
    // γ outside (0, 1], or below 1 with FARL, is refused.
    for (gamma, farl, says) in [(0.0, false, "(0, 1]"), (0.9, true, "farl")] {
        let bad = TdOptions {
            gamma,
            farl,
            ..TdOptions::default()
        };
        let e = TdLearner::new(TicTacToe, "raw", Activation::Tanh, bad)
            .err()
            .unwrap();
        assert!(e.0.contains(says), "{e}");
    }
}

#[test]
fn farl_teaches_the_loser_its_loss_too() {
    // From zero weights every value is 0, so a game's moves are its
    // tie-breaks alone, the same with and without FARL, and every target
    // but the result's is 0. Without FARL only the winner's last position
    // learns (+1: |δ| sums to 1, the linear bias moves by α); with it the
    // loser's last position learns −1 as well (|δ| sums to 2, the bias
    // moves by α − α = 0). α is small so that the first of the two final
    // steps changes the second's value by at most 10 inputs · α = 0.001.
    let options = TdOptions {
        alpha: 1e-4,
        epsilon: 0.0,
        ..TdOptions::default()
    };
    let farl = TdOptions {
        farl: true,
        ..options.clone()
    };
    let index = (0..50)
        .find(|&i| learner(options.clone()).learn_game(i).first_return != 0.0)
        .expect("a decisive random game of Tic-Tac-Toe");
    let make = |o: TdOptions| TdLearner::new(TicTacToe, "raw", Activation::Linear, o).unwrap();
    let (mut plain, mut both) = (make(options), make(farl));
    let (a, b) = (plain.learn_game(index), both.learn_game(index));
    assert_eq!((a.plies, a.first_return), (b.plies, b.first_return));
    assert_eq!((a.updates, b.updates), (a.plies, b.plies));
    let total = |g: TdGame| g.mean_abs_error * g.updates as f64;
    assert!((total(a) - 1.0).abs() < 1e-6, "{a:?}");
    assert!((total(b) - 2.0).abs() < 1e-3, "{b:?}");
    assert!((plain.weights()[9] - 1e-4).abs() < 1e-9);
    assert!(both.weights()[9].abs() < 1e-6);
}

#[test]
fn random_openings_of_every_length_in_the_range() {
    // Tic-Tac-Toe cannot end within 4 plies, and with ε = 0 every position
    // after the random plies is learned: the plies not learned are the
    // game's random opening. Fixed at 4 without a minimum; drawn from
    // 0..=4 with one, every length turning up in 60 games.
    let make = |openings_min| {
        let options = TdOptions {
            epsilon: 0.0,
            openings: 4,
            openings_min,
            ..TdOptions::default()
        };
        TdLearner::new(TicTacToe, "raw", Activation::Linear, options).unwrap()
    };
    let random_plies = |mut l: TdLearner<TicTacToe>| {
        let mut seen: Vec<usize> = (0..60)
            .map(|i| {
                let g = l.learn_game(i);
                g.plies - g.updates
            })
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen
    };
    assert_eq!(random_plies(make(None)), [4]);
    assert_eq!(random_plies(make(Some(0))), [0, 1, 2, 3, 4]);
    // A minimum above the maximum is refused, not clamped.
    let options = TdOptions {
        openings: 2,
        openings_min: Some(3),
        ..TdOptions::default()
    };
    let e = TdLearner::new(TicTacToe, "raw", Activation::Linear, options).err();
    assert!(e.is_some_and(|e| e.to_string().contains("(3) must not exceed the most (2)")));
}

#[test]
fn a_margin_reward_is_the_result_where_the_scale_is_one_box() {
    // Dots-and-Boxes 2x1: the final margin is −2, 0 (a tie) or +2, so
    // `margin:1` clamps every final margin to the result's +1 / 0 / −1 and
    // must learn the same weights bit for bit (the draw's 0 included);
    // `margin:4` makes a win worth 0.5 and must not. Both target rules,
    // 300 games each.
    use crate::games::dots_and_boxes::DotsAndBoxes;
    let run = |reward, farl| {
        let options = TdOptions {
            alpha: 0.05,
            lambda: 0.5,
            epsilon: 0.2,
            farl,
            reward,
            ..TdOptions::default()
        };
        let game = DotsAndBoxes::new(2, 1).unwrap();
        let mut l = TdLearner::new(game, "blocks", Activation::Tanh, options).unwrap();
        for i in 0..300 {
            l.learn_game(i);
        }
        l.weights().to_vec()
    };
    for farl in [false, true] {
        let result = run(Reward::Result, farl);
        assert_eq!(result, run(Reward::Margin { scale: 1.0 }, farl));
        assert_ne!(result, run(Reward::Margin { scale: 4.0 }, farl));
    }
}

/// Learning games start after the given lines, in turn: after X a1, O b1,
/// X a2, O b2 the greedy X takes the win a3 (a finished game is worth its
/// result, 1, more than any position the tanh net values), so game 0 ends
/// at ply 5 won by X; game 1 starts after X c1, O c2 more and ends with the
/// same win at ply 7; game 2 starts after the first line again.
#[test]
fn learning_games_start_after_the_given_lines_in_turn() {
    let options = TdOptions {
        epsilon: 0.0,
        ..TdOptions::default()
    };
    let lines = crate::eval::openings::Openings::lines(
        &TicTacToe,
        &["a1 b1 a2 b2".to_string(), "a1 b1 a2 b2 c1 c2".to_string()],
    )
    .unwrap();
    let mut l = learner(options).with_starts(lines);
    let ends = |g: TdGame| (g.plies, g.first_return);
    assert_eq!(ends(l.learn_game(0)), (5, 1.0));
    assert_eq!(ends(l.learn_game(1)), (7, 1.0));
    assert_eq!(ends(l.learn_game(2)), (5, 1.0));
    let bad = crate::eval::openings::Openings::lines(&TicTacToe, &["a1 a1".to_string()]);
    assert!(bad.unwrap_err().contains("'a1 a1'"));
}
