//! Relations answered on demand by the non-ground evaluator
//! (`games::gdl::ground::demand`): on a sheet built like chess's threats
//! (a relation of a player, a square and a square to leave out, read
//! under `not` by the legal moves and with its arguments bound by the
//! `next` rules, over a recursive "the line is clear" relation), every
//! budget that loads the sheet without grounding it, down to the one
//! that leaves those relations' rules out of the possible atoms
//! altogether, plays the game exactly as the grounded reasoner does.

use wopr::games::gdl::ast::Term;
use wopr::games::gdl::ground::{ground, Budget, DEFAULT_BUDGET};
use wopr::games::gdl::parse::parse;
use wopr::games::gdl::reasoner::{Analysis, Facts, Reasoner};

/// Two roles moving a piece one square (or leaving it) on a 4x4 board,
/// never onto their own piece nor onto a square attacked along a row by
/// the other's piece, the square they leave not counting as a blocker; a
/// move that attacks the other's piece puts it in check. Eight plies.
const SHEET: &str = "
    (role white) (role black)
    (index 1) (index 2) (index 3) (index 4)
    (succ 1 2) (succ 2 3) (succ 3 4)
    (count 1 2) (count 2 3) (count 3 4) (count 4 5) (count 5 6) (count 6 7)
    (count 7 8) (count 8 9)
    (opp white black) (opp black white)
    (init (control white)) (init (step 1))
    (init (cell 1 1 white)) (init (cell 4 1 black)) (init (cell 3 4 black))
    (<= (near ?a ?b) (succ ?a ?b))
    (<= (near ?a ?b) (succ ?b ?a))
    (<= (near ?a ?a) (index ?a))
    (<= (legal ?p (move ?x ?y ?u ?v))
        (true (control ?p)) (true (cell ?x ?y ?p)) (near ?x ?u) (near ?y ?v)
        (not (own ?u ?v ?p)) (not (attacked ?p ?u ?v ?x ?y)))
    (<= (legal white noop) (true (control black)))
    (<= (legal black noop) (true (control white)))
    (<= (own ?x ?y ?p) (true (cell ?x ?y ?p)))
    (<= (attacked ?p ?u ?v ?ix ?iy)
        (opp ?p ?q) (true (cell ?a ?v ?q)) (clear ?a ?u ?v ?ix ?iy))
    (<= (clear ?a ?u ?v ?ix ?iy) (near ?a ?u) (index ?v) (index ?ix) (index ?iy))
    (<= (clear ?a ?u ?v ?ix ?iy)
        (succ ?a ?b) (open ?b ?v ?ix ?iy) (clear ?b ?u ?v ?ix ?iy))
    (<= (clear ?a ?u ?v ?ix ?iy)
        (succ ?b ?a) (open ?b ?v ?ix ?iy) (clear ?b ?u ?v ?ix ?iy))
    (<= (open ?b ?v ?b ?v) (index ?b) (index ?v))
    (<= (open ?b ?v ?ix ?iy) (empty ?b ?v) (index ?ix) (index ?iy))
    (<= (empty ?x ?y) (index ?x) (index ?y)
        (not (true (cell ?x ?y white))) (not (true (cell ?x ?y black))))
    (<= (next (cell ?u ?v ?p)) (does ?p (move ?x ?y ?u ?v)))
    (<= (next (cell ?x ?y ?q)) (true (cell ?x ?y ?q))
        (not (left ?x ?y)) (not (taken ?x ?y)))
    (<= (left ?x ?y) (does ?p (move ?x ?y ?u ?v)))
    (<= (taken ?u ?v) (does ?p (move ?x ?y ?u ?v)))
    (<= (next (check ?q))
        (does ?p (move ?x ?y ?u ?v)) (opp ?p ?q) (true (cell ?a ?b ?q))
        (attacked ?q ?a ?b ?x ?y))
    (<= (next (control white)) (true (control black)))
    (<= (next (control black)) (true (control white)))
    (<= (next (step ?m)) (true (step ?n)) (count ?n ?m))
    (<= (alive ?p) (true (cell ?x ?y ?p)))
    (<= terminal (true (step 9)))
    (<= terminal (opp ?p ?q) (not (alive ?p)))
    (<= (goal ?p 100) (opp ?p ?q) (alive ?p) (not (alive ?q)))
    (<= (goal ?p 50) (opp ?p ?q) (alive ?p) (alive ?q) (not (true (check ?p))))
    (<= (goal ?p 25) (opp ?p ?q) (alive ?p) (alive ?q) (true (check ?p)))
    (<= (goal ?p 0) (opp ?p ?q) (not (alive ?p)))
";

/// A state as its true base facts' terms, in the reasoner's order.
fn terms(r: &Reasoner, s: &Facts) -> Vec<String> {
    let mut out: Vec<String> = s.iter().map(|b| r.base(b).to_string()).collect();
    out.sort();
    out
}

/// Walks the game tree of `a` and `b` together to `depth` plies,
/// comparing states, legal moves (as terms), terminal and goals; returns
/// the number of positions compared.
fn walk(a: &Reasoner, b: &Reasoner, sa: &Facts, sb: &Facts, depth: usize) -> u64 {
    assert_eq!(terms(a, sa), terms(b, sb), "state");
    let (mut x, mut y) = (Analysis::default(), Analysis::default());
    a.analyse(sa, &mut x);
    b.analyse(sb, &mut y);
    assert_eq!(x.terminal(), y.terminal(), "terminal in {:?}", terms(a, sa));
    let moves = |r: &Reasoner, an: &Analysis, role: usize| -> Vec<Term> {
        an.legal(role)
            .iter()
            .map(|&m| r.moves(role)[m as usize].clone())
            .collect()
    };
    for role in 0..2 {
        assert_eq!(moves(a, &x, role), moves(b, &y, role), "legal moves");
        assert_eq!(a.goal(sa, role), b.goal(sb, role), "goal");
    }
    if x.terminal() || depth == 0 {
        return 1;
    }
    let mut seen = 1;
    for m0 in moves(a, &x, 0) {
        for m1 in moves(a, &x, 1) {
            let ja = [a.find_move(0, &m0).unwrap(), a.find_move(1, &m1).unwrap()];
            let jb = [b.find_move(0, &m0).unwrap(), b.find_move(1, &m1).unwrap()];
            seen += walk(a, b, &a.next(sa, &ja), &b.next(sb, &jb), depth - 1);
        }
    }
    seen
}

#[test]
fn every_budget_below_grounding_plays_as_the_grounded_reasoner() {
    let sheet = parse(SHEET).unwrap();
    let grounded = Reasoner::new(&sheet).unwrap();
    assert!(grounded.is_grounded());
    let full = ground(&sheet, DEFAULT_BUDGET).unwrap().estimated_bytes();
    // Budgets from just below grounding down by eighths, while the sheet
    // loads; the possible atoms each non-ground reasoner kept.
    let mut kept = Vec::new();
    let mut bytes = full - 1;
    while let Ok(r) = Reasoner::with_budget(&sheet, Budget::from_bytes(bytes)) {
        assert!(!r.is_grounded());
        let positions = walk(&grounded, &r, &grounded.initial(), &r.initial(), 5);
        // 1 + 9 + 9·9 + … : far more than a handful of positions.
        assert!(positions > 500, "{positions}");
        kept.push(r.size().0);
        bytes = bytes * 7 / 8;
    }
    // Two sizes below grounding's: without the atoms of the relations read
    // under `not` alone, then without those of every relation answered on
    // demand (`attacked`, `clear`, `open`, `empty`, `own`, `left`, `taken`).
    kept.dedup();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(kept[1] < kept[0] && kept[0] < grounded.size().0, "{kept:?}");
}
