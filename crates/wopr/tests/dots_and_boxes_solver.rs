//! The Dots-and-Boxes solver, the `perfect` player and the heuristic players of
//! Weaver & Bossomaier §2.2.
//!
//! The solver is checked against a plain minimax written here (full depth, no
//! memo, no pruning, reading the final score off the game's own states), and
//! the values from the start against known results.

use std::collections::HashMap;

use rand::RngExt;
use wopr::eval::matches::play_match;
use wopr::eval::wilson;
use wopr::game::driver::seats_swapped;
use wopr::game::rng::stream;
use wopr::game::solver::{SolveError, Solver};
use wopr::game::{Action, ActionList, Game, State};
use wopr::games::dots_and_boxes::solver::{net_value, DotsAndBoxesSolver};
use wopr::games::dots_and_boxes::{DotsAndBoxes, DotsAndBoxesState};
use wopr::Roster;

fn game(cols: usize, rows: usize) -> DotsAndBoxes {
    DotsAndBoxes::new(cols, rows).unwrap()
}

fn legal(s: &DotsAndBoxesState) -> ActionList {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l
}

/// The final margin (own boxes minus the opponent's) of seat `me` when both
/// sides play perfectly from `s`: `me` maximises it, the other seat minimises
/// it, whoever is to move (after a completed box the same seat moves again).
fn minimax(s: &DotsAndBoxesState, me: usize) -> i32 {
    if s.is_terminal() {
        return s.score(me).unwrap();
    }
    let values = legal(s).into_iter().map(|a| {
        let mut c = *s;
        c.apply(a);
        minimax(&c, me)
    });
    if s.to_move() == me {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// The solver's answer against [`minimax`]: the final margin and the set of
/// moves that reach it.
fn check_against_minimax(s: &DotsAndBoxesState, solver: &mut DotsAndBoxesSolver) {
    let me = s.to_move();
    let children: Vec<(Action, i32)> = legal(s)
        .into_iter()
        .map(|a| {
            let mut c = *s;
            c.apply(a);
            (a, minimax(&c, me))
        })
        .collect();
    let top = children.iter().map(|c| c.1).max().unwrap();
    let best: Vec<Action> = children
        .iter()
        .filter(|c| c.1 == top)
        .map(|c| c.0)
        .collect();
    let sol = solver.solve(s).unwrap();
    assert_eq!(sol.score, Some(top), "{s}");
    assert_eq!(sol.value, top.signum(), "{s}");
    assert_eq!(sol.best, best, "{s}");
}

/// A position reached by `drawn` uniformly random moves from the start.
fn random_position(g: &DotsAndBoxes, drawn: usize, seed: u64, i: u64) -> DotsAndBoxesState {
    let mut rng = stream(seed, &[i]);
    let mut s = g.initial_state();
    for _ in 0..drawn {
        let l = legal(&s);
        s.apply(l[rng.random_range(0..l.len())]);
    }
    s
}

#[test]
fn values_from_the_start() {
    let mut solver = DotsAndBoxesSolver::new();
    // 1x1: the first player draws the first and third sides, and whoever draws
    // the third side hands the box over: the second player wins 1–0.
    let sol = solver.solve(&game(1, 1).initial_state()).unwrap();
    assert_eq!((sol.value, sol.score), (-1, Some(-1)));
    // 2x2: a first-player win (Berlekamp, "The Dots and Boxes Game", and
    // puzzling.stackexchange.com/q/1728 "Optimal play for 2 by 2 Dots and
    // Boxes"), by 3–1; `memoised_reference_2x2` recomputes the margin.
    let sol = solver.solve(&game(2, 2).initial_state()).unwrap();
    assert_eq!((sol.value, sol.score), (1, Some(2)));
    // The same answer: "your first move must be an outside edge" (an inner
    // one lets the opponent draw by symmetry). Outer edges: h0,* h2,* v*,0 v*,2.
    let outer: Vec<Action> = [0, 1, 4, 5, 6, 8, 9, 11].into();
    assert_eq!(sol.best, outer);
    // 3x3: a second-player win by 6–3 (D. Wilson's exhaustive analysis of the
    // 4x4-dot game).
    let sol = solver.solve(&game(3, 3).initial_state()).unwrap();
    assert_eq!((sol.value, sol.score), (-1, Some(-3)));
    assert_eq!(sol.best.len(), 24, "every first move loses by 3");
    // A second solve of the same board is a lookup.
    let again = DotsAndBoxesSolver::new()
        .solve(&game(3, 3).initial_state())
        .unwrap();
    assert_eq!((again.score, again.nodes), (Some(-3), 24));
}

/// A memoised minimax over whole states (owners and seat to move included),
/// independent of the solver's edge-set table: full 2x2 from the start.
#[test]
fn memoised_reference_2x2() {
    fn margin(s: &DotsAndBoxesState, memo: &mut HashMap<DotsAndBoxesState, i32>) -> i32 {
        if s.is_terminal() {
            return s.score(0).unwrap();
        }
        if let Some(&v) = memo.get(s) {
            return v;
        }
        let values: Vec<i32> = legal(s)
            .into_iter()
            .map(|a| {
                let mut c = *s;
                c.apply(a);
                margin(&c, memo)
            })
            .collect();
        let v = if s.to_move() == 0 {
            *values.iter().max().unwrap()
        } else {
            *values.iter().min().unwrap()
        };
        memo.insert(*s, v);
        v
    }
    let mut memo = HashMap::new();
    // Seat A's final margin under perfect play: 3–1.
    assert_eq!(margin(&game(2, 2).initial_state(), &mut memo), 2);
    // And at every position the reference visited, the solver agrees.
    let mut solver = DotsAndBoxesSolver::new();
    for (s, &v) in &memo {
        let sol = solver.solve(s).unwrap();
        let own = if s.to_move() == 0 { v } else { -v };
        assert_eq!(sol.score, Some(own), "{s}");
    }
}

#[test]
fn agrees_with_minimax_on_small_positions() {
    let mut solver = DotsAndBoxesSolver::new();
    // 1x1: every position.
    for drawn in 0..4 {
        for i in 0..8 {
            check_against_minimax(&random_position(&game(1, 1), drawn, 1, i), &mut solver);
        }
    }
    // 2x1 and 1x2 (7 edges): from the start and random openings.
    for (c, r) in [(2, 1), (1, 2)] {
        for drawn in 0..6 {
            for i in 0..10 {
                check_against_minimax(&random_position(&game(c, r), drawn, 2, i), &mut solver);
            }
        }
    }
    // 2x2 (12 edges) after random openings of 4 to 10 edges (at most 8! leaves).
    for drawn in 4..11 {
        for i in 0..6 {
            check_against_minimax(&random_position(&game(2, 2), drawn, 3, i), &mut solver);
        }
    }
    // 3x2 (17 edges) and 3x3 (24 edges) with at most 9 undrawn edges.
    for (c, r, edges) in [(3, 2, 17), (3, 3, 24)] {
        for undrawn in 1..10 {
            for i in 0..3 {
                let s = random_position(&game(c, r), edges - undrawn, 4, i);
                check_against_minimax(&s, &mut solver);
            }
        }
    }
}

/// Boards of more than 24 edges: positions with at most 24 undrawn edges are
/// solved in their own table, which later positions of the same game reuse.
#[test]
fn endgames_on_big_boards() {
    let g = game(4, 4); // 40 edges
    let mut solver = DotsAndBoxesSolver::new();
    // Too early: 39 undrawn edges.
    let s = random_position(&g, 1, 5, 0);
    assert!(matches!(solver.solve(&s), Err(SolveError::TooLarge(_))));
    for i in 0..4 {
        // One table for 20 undrawn edges, then its subsets along a game.
        let mut s = random_position(&g, 20, 6, i);
        let mut rng = stream(7, &[i]);
        let mut reused = DotsAndBoxesSolver::new();
        while !s.is_terminal() {
            let sol = reused.solve(&s).unwrap();
            assert_eq!(sol, {
                let mut fresh = DotsAndBoxesSolver::new().solve(&s).unwrap();
                fresh.nodes = sol.nodes;
                fresh
            });
            if legal(&s).len() <= 9 {
                check_against_minimax(&s, &mut solver);
            }
            let l = legal(&s);
            s.apply(l[rng.random_range(0..l.len())]);
        }
    }
    // Net value on 5x5 with only the four edges of the bottom-right box left.
    // Its top and left edges each complete a neighbour (the boxes above and to
    // the left), its bottom and right edges complete nothing. Best for the
    // player to move: take both neighbours (turn kept), then draw the last
    // box's third side and hand it over: 2 − 1 = +1. (Drawing the bottom or
    // right first passes the turn and the opponent takes all three.)
    let g = game(5, 5);
    let mut s = g.initial_state();
    let last = s.box_mask(4, 4);
    for a in legal(&s) {
        if last >> a & 1 == 0 {
            s.apply(a);
        }
    }
    assert_eq!(net_value(&s), Ok(1));
}

/// Plays `games` games of `first` against `second` on 3x3 and returns the
/// games `first` won (draws are impossible with 9 boxes).
fn wins(first: &str, second: &str, games: usize, seed: u64) -> u64 {
    let records = play_match(&game(3, 3), first, second, games, seed, &|| {}).unwrap();
    records
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            let seat = usize::from(seats_swapped(*i));
            r.returns.as_ref().unwrap()[seat] > 0.0
        })
        .count() as u64
}

/// Weaver & Bossomaier §2.2 report level 1 beating random play in 99.63% of
/// games, level 2 beating random in 99.69% and level 1 in 83.83%. Over 1000
/// games the bounds here sit well below those figures (level 1 vs random >
/// 95%, level 2 vs level 1 > 60%): the paper gives neither its sample size nor
/// its tie-breaking, so the test pins the ordering of the levels, not the
/// paper's exact rates (measured with 10,000 games by `weaver_figures`).
#[test]
fn heuristic_levels_beat_each_other() {
    let n = 1000;
    let w = wins("level1", "random", n, 11);
    assert!(w * 100 > 95 * n as u64, "level1 beat random in {w}/{n}");
    let w = wins("level2", "level1", n, 12);
    assert!(w * 100 > 60 * n as u64, "level2 beat level1 in {w}/{n}");
    // Level 0 is random play: even against itself, each side wins sometimes.
    let w = wins("level0", "random", 200, 13);
    assert!((40..160).contains(&w), "level0 beat random in {w}/200");
}

/// The figures for the report: `cargo test --release -p wopr --test
/// dots_and_boxes_solver weaver_figures -- --ignored --nocapture`. The
/// solved value and the win counts (seed 2024) are asserted; the time is the
/// machine's. (The README's table of these pairings comes from `wopr eval`,
/// 2000 games each, and is asserted by the CLI's `readme_figures` test.)
#[test]
#[ignore = "10,000 games per pairing; run in release for the report"]
fn weaver_figures() {
    let t = std::time::Instant::now();
    let sol = DotsAndBoxesSolver::new()
        .solve(&game(3, 3).initial_state())
        .unwrap();
    println!(
        "3x3 from the start: score {:?}, {} positions, {:.2} s",
        sol.score,
        sol.nodes,
        t.elapsed().as_secs_f64()
    );
    // 2^24 edge sets and the 24 first moves.
    assert_eq!((sol.score, sol.nodes), (Some(-3), (1 << 24) + 24));
    let n = 10_000;
    for (a, b, paper, want) in [
        ("level1", "level0", Some(99.63), 9967),
        ("level2", "level0", Some(99.69), 9976),
        ("level2", "level1", Some(83.83), 8444),
        ("perfect", "level2", None, 9766),
        ("perfect", "level1", None, 9758),
    ] {
        let w = wins(a, b, n, 2024);
        let (lo, hi) = wilson(w, n as u64, 1.96);
        println!(
            "{a} beats {b}: {:.2}% (95% Wilson {:.2}–{:.2}%) over {n} games{}",
            100.0 * w as f64 / n as f64,
            100.0 * lo,
            100.0 * hi,
            paper.map_or(String::new(), |p| format!("; Weaver: {p}%"))
        );
        assert_eq!(w, want, "{a} against {b}");
    }
}

/// The perfect player never does worse than the solved value: on 3x3 seat A
/// loses by at most 3 and seat B wins by at least 3, whatever the opponent.
#[test]
fn perfect_player_keeps_the_solved_margin() {
    let g = game(3, 3);
    let records = play_match(&g, "perfect", "level2", 40, 21, &|| {}).unwrap();
    for (i, r) in records.iter().enumerate() {
        let seat = usize::from(seats_swapped(i));
        let margin = r.score.as_ref().unwrap()[seat];
        let floor = if seat == 0 { -3 } else { 3 };
        assert!(
            margin >= floor,
            "game {i}: perfect in seat {seat} got {margin}"
        );
    }
    // Two perfect players always reach 3–6.
    let records = play_match(&g, "perfect", "perfect", 10, 22, &|| {}).unwrap();
    for r in &records {
        assert_eq!(r.score.as_deref(), Some(&[-3, 3][..]));
    }
    // The spec is known to the game, and the level players too.
    for spec in ["perfect", "level0", "level1", "level2"] {
        assert!(g.bot_names().iter().any(|n| n == &spec), "{spec}");
    }
}
