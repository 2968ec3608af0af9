use std::time::{Duration, Instant};

use super::*;
use crate::ggp::{parse_move, Position};
use wopr_core::game::rng::stream;

fn kuhn() -> Gdl {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../gdl/kuhn.kif"));
    Gdl::from_text("gdl/kuhn.kif", text, 10_000).unwrap()
}

fn t(text: &str) -> Term {
    parse_move(text).unwrap()
}

fn far() -> Instant {
    Instant::now() + Duration::from_secs(600)
}

#[test]
fn the_information_set_follows_own_moves_and_percepts() {
    let game = kuhn();
    let r = game.reasoner();
    let (p1, p2) = (r.role_index("p1").unwrap(), r.role_index("p2").unwrap());
    let mut rng = stream(0, &[0]);
    let mut b1 = Belief::new(game.clone(), p1);
    let mut b2 = Belief::new(game.clone(), p2);
    assert_eq!((b1.turn(), b1.states().len()), (0, 1));
    // Random deals p1 the king: p1 sees it, p2 sees nothing (three deals).
    b1.update(&t("noop"), &[t("(mycard k)")], &mut rng).unwrap();
    b2.update(&t("noop"), &[], &mut rng).unwrap();
    assert_eq!((b1.states().len(), b2.states().len()), (1, 3));
    // Then p2 the queen: each now knows its own card, the other's is one
    // of two.
    b1.update(&t("noop"), &[], &mut rng).unwrap();
    b2.update(&t("noop"), &[t("(mycard q)")], &mut rng).unwrap();
    assert_eq!((b1.states().len(), b2.states().len()), (2, 2));
    assert!(b1.is_exact() && b2.is_exact());
    assert_eq!(b1.legal(), [t("bet"), t("pass")]);
    assert_eq!(b2.legal(), [t("noop")]);
    // p1 bets; p2 sees it done, p1 sees nothing of its own move.
    b1.update(&t("bet"), &[], &mut rng).unwrap();
    b2.update(&t("noop"), &[t("(did p1 bet)")], &mut rng)
        .unwrap();
    assert_eq!(b2.legal(), [t("bet"), t("pass")]);
    assert_eq!(b2.turn(), 3);
    assert!(!b2.is_terminal());
}

#[test]
fn contradictions_and_unknown_terms_are_refused_unchanged() {
    let game = kuhn();
    let p1 = game.reasoner().role_index("p1").unwrap();
    let mut rng = stream(0, &[0]);
    let mut b = Belief::new(game, p1);
    for (last, seen, says) in [
        ("bet", vec![], "contradict"),
        ("noop", vec![], "contradict"),
        ("(fly 1)", vec![], "never a move of p1"),
        ("noop", vec!["(mycard ace)"], "never a percept of p1"),
    ] {
        let seen: Vec<Term> = seen.into_iter().map(t).collect();
        let e = b.update(&t(last), &seen, &mut rng).unwrap_err().to_string();
        assert!(e.contains(says), "{last}: {e}");
        assert!(!e.contains('\n'));
        assert_eq!((b.turn(), b.states().len()), (0, 1));
    }
}

#[test]
fn the_chooser_bets_the_king_and_never_reads_the_hidden_card() {
    let game = kuhn();
    let p1 = game.reasoner().role_index("p1").unwrap();
    let mut rng = stream(3, &[0]);
    let mut b = Belief::new(game.clone(), p1);
    b.update(&t("noop"), &[t("(mycard k)")], &mut rng).unwrap();
    b.update(&t("noop"), &[], &mut rng).unwrap();
    // Against random play, betting the king wins 1.5 chips on average and
    // passing 0.75.
    assert_eq!(b.choose(far(), 4000, &mut rng), Some(t("bet")));
    // The choice depends on the set only: the same whichever card p2 has.
    let mut p = Position::new(game).unwrap();
    for deal in ["(deal k)", "(deal j)"] {
        p.play(&[t(deal), t("noop"), t("noop")]).unwrap();
    }
    assert!(b.states().contains(&p.facts));
    // One legal move is answered without playouts; an empty set has none.
    let mut lost = b.clone();
    lost.states.clear();
    assert_eq!(lost.choose(far(), 10, &mut rng), None);
    assert!(lost.legal().is_empty() && !lost.is_terminal());
}

#[test]
fn states_reached_twice_are_kept_once() {
    let game = kuhn();
    let p2 = game.reasoner().role_index("p2").unwrap();
    let mut rng = stream(0, &[0]);
    let mut b = Belief::new(game, p2);
    // Three copies of the initial state: nine joint moves reach the three
    // deals, each kept once.
    let init = b.states[0].clone();
    b.states = vec![init.clone(), init.clone(), init];
    b.weights = vec![0.5, 0.25, 0.25];
    b.update(&t("noop"), &[], &mut rng).unwrap();
    assert_eq!(b.states().len(), 3);
    assert!(b.is_exact());
    for &w in b.weights() {
        assert!((w - 1.0 / 3.0).abs() < 1e-12, "{w}");
    }
}

/// Monty Hall in GDL-II (the CLI's GDL-II tests play it too).
const MONTY: &str = r#"
; Monty Hall in GDL-II, written for wopr's tests: random hides a car
; behind one of three doors, the candidate picks a door, random opens
; another door with a goat behind it (the candidate sees which), and the
; candidate keeps its door or switches to the last closed one.
(role random) (role candidate)
(door 1) (door 2) (door 3)
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(init (round 1))
(<= (legal random (hide ?d)) (true (round 1)) (door ?d))
(<= (legal random (open ?d)) (true (round 3)) (door ?d)
    (not (true (car ?d))) (not (true (picked ?d))))
(<= (legal random wait) (true (round 2)))
(<= (legal random wait) (true (round 4)))
(<= (legal candidate (pick ?d)) (true (round 2)) (door ?d))
(<= (legal candidate switch) (true (round 4)))
(<= (legal candidate stay) (true (round 4)))
(<= (legal candidate wait) (true (round 1)))
(<= (legal candidate wait) (true (round 3)))
(<= (next (round ?n)) (true (round ?m)) (succ ?m ?n))
(<= (next (car ?d)) (does random (hide ?d)))
(<= (next (car ?d)) (true (car ?d)))
(<= (next (picked ?d)) (does candidate (pick ?d)))
(<= (next (picked ?d)) (true (picked ?d)) (not (does candidate switch)))
(<= (next (picked ?d)) (does candidate switch) (door ?d)
    (not (true (picked ?d))) (not (true (opened ?d))))
(<= (next (opened ?d)) (does random (open ?d)))
(<= (next (opened ?d)) (true (opened ?d)))
(<= (sees candidate (opened ?d)) (does random (open ?d)))
(<= won (true (picked ?d)) (true (car ?d)))
(<= terminal (true (round 5)))
(<= (goal candidate 100) won)
(<= (goal candidate 0) (not won))
"#;

#[test]
fn weights_make_switching_worth_two_thirds() {
    let game = Gdl::from_text("monty.kif", MONTY, 100).unwrap();
    let me = game.reasoner().role_index("candidate").unwrap();
    let mut rng = stream(1, &[0]);
    let mut b = Belief::new(game, me);
    b.update(&t("wait"), &[], &mut rng).unwrap();
    b.update(&t("(pick 1)"), &[], &mut rng).unwrap();
    assert_eq!(b.states().len(), 3);
    b.update(&t("wait"), &[t("(opened 2)")], &mut rng).unwrap();
    // The car is behind door 1 (a third) or door 3 (two thirds).
    let mut w = b.weights().to_vec();
    w.sort_by(f64::total_cmp);
    assert!(
        (w[0] - 1.0 / 3.0).abs() < 1e-12 && (w[1] - 2.0 / 3.0).abs() < 1e-12,
        "{w:?}"
    );
    assert_eq!(b.legal(), [t("stay"), t("switch")]);
    assert_eq!(b.choose(far(), 3000, &mut rng), Some(t("switch")));
}
