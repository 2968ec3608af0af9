//! The non-ground evaluator (`games::gdl::nonground`), which the reasoner
//! falls back to when grounding passes its memory budget: forced with a
//! budget just below the estimate of the sheet's grounding, it must agree
//! with the grounded reasoner on every query (legal moves, terminal, goals,
//! next states, percepts). Relations answered on demand
//! (`games::gdl::ground::demand`) are tested on a sheet built like chess's
//! threats, where they leave most possible atoms out.

use wopr::games::gdl::ast::{Sheet, Term};
use wopr::games::gdl::ground::{ground, Budget, DEFAULT_BUDGET};
use wopr::games::gdl::parse::parse;
use wopr::games::gdl::reasoner::{Analysis, Facts, Reasoner};

fn sheet_file(name: &str) -> Sheet {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../gdl")
        .join(name);
    parse(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// One byte below the estimated memory of grounding `sheet`.
fn forcing_budget(sheet: &Sheet) -> Budget {
    let g = ground(sheet, DEFAULT_BUDGET).unwrap();
    Budget::from_bytes(g.estimated_bytes() - 1)
}

/// The grounded reasoner, and the non-ground one forced by a budget one
/// byte below its grounding's estimate (which the possible atoms alone
/// fit).
fn both(sheet: &Sheet) -> (Reasoner, Reasoner) {
    let grounded = Reasoner::new(sheet).unwrap();
    let non = Reasoner::with_budget(sheet, forcing_budget(sheet)).unwrap();
    assert!(grounded.is_grounded());
    assert!(!non.is_grounded());
    (grounded, non)
}

/// The two reasoners number base facts, moves and percepts alike.
fn same_domains(a: &Reasoner, b: &Reasoner) {
    assert_eq!(a.roles(), b.roles());
    assert_eq!(a.random_role(), b.random_role());
    assert_eq!(a.num_base(), b.num_base());
    for i in 0..a.num_base() {
        assert_eq!(a.base(i), b.base(i));
    }
    for r in 0..a.roles().len() {
        assert_eq!(a.moves(r), b.moves(r));
        assert_eq!(a.percepts(r), b.percepts(r));
    }
    assert_eq!(a.initial(), b.initial());
    assert!(b.size().0 <= a.size().0, "the possible atoms");
}

/// A budget of `n` KiB.
fn kib(n: u64) -> Budget {
    Budget::from_bytes(n << 10)
}

fn lcg(seed: &mut u64) -> usize {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*seed >> 33) as usize
}

/// Compares every state query of `s`; returns the grounded analysis.
fn same_state(a: &Reasoner, b: &Reasoner, s: &Facts) -> Analysis {
    let (mut x, mut y) = (Analysis::default(), Analysis::default());
    a.analyse(s, &mut x);
    b.analyse(s, &mut y);
    assert_eq!(x, y, "analysis");
    assert_eq!(a.is_terminal(s), b.is_terminal(s));
    assert_eq!(x.terminal(), b.is_terminal(s));
    let (mut l, mut m) = (Vec::new(), Vec::new());
    for r in 0..a.roles().len() {
        a.legal(s, r, &mut l);
        b.legal(s, r, &mut m);
        assert_eq!(l, m, "legal moves of role {r}");
        assert_eq!(m, y.legal(r));
        assert_eq!(a.goal(s, r), b.goal(s, r), "goal of role {r}");
    }
    x
}

/// Compares the next state and every role's percepts after `joint`;
/// returns the next state.
fn same_step(a: &Reasoner, b: &Reasoner, s: &Facts, joint: &[u32]) -> Facts {
    let next = a.next(s, joint);
    let mut into = Facts::empty(0);
    b.next_into(s, joint, &mut into);
    assert_eq!(next, into, "next state");
    let (mut p, mut q) = (Vec::new(), Vec::new());
    for r in 0..a.roles().len() {
        a.sees(s, joint, r, &mut p);
        b.sees(s, joint, r, &mut q);
        assert_eq!(p, q, "percepts of role {r}");
    }
    next
}

/// Plays `games` random games with both reasoners side by side, comparing
/// every query at every step; returns the plies played.
fn random_games(a: &Reasoner, b: &Reasoner, games: usize, max_plies: usize, seed: u64) -> usize {
    same_domains(a, b);
    let (mut seed, mut plies) = (seed, 0);
    for _ in 0..games {
        let mut s = a.initial();
        for _ in 0..max_plies {
            let an = same_state(a, b, &s);
            if an.terminal() {
                break;
            }
            let joint: Vec<u32> = (0..a.roles().len())
                .map(|r| {
                    let l = an.legal(r);
                    if l.is_empty() {
                        u32::MAX
                    } else {
                        l[lcg(&mut seed) % l.len()]
                    }
                })
                .collect();
            s = same_step(a, b, &s, &joint);
            plies += 1;
        }
    }
    plies
}

/// Every joint move of an analysis (the product of the legal moves).
fn joints(an: &Analysis, roles: usize) -> Vec<Vec<u32>> {
    let mut out = vec![Vec::new()];
    for r in 0..roles {
        out = out
            .into_iter()
            .flat_map(|j: Vec<u32>| {
                an.legal(r).iter().map(move |&m| {
                    let mut j = j.clone();
                    j.push(m);
                    j
                })
            })
            .collect();
    }
    out
}

/// Walks the whole game tree below `s` with both reasoners, comparing
/// everything; returns the terminal states reached.
fn walk_both(a: &Reasoner, b: &Reasoner, s: &Facts, depth: usize) -> u64 {
    let an = same_state(a, b, s);
    if an.terminal() || depth == 0 {
        return u64::from(an.terminal());
    }
    joints(&an, a.roles().len())
        .iter()
        .map(|j| walk_both(a, b, &same_step(a, b, s, j), depth - 1))
        .sum()
}

fn perft(r: &Reasoner, s: &Facts, depth: usize, counts: &mut [u64], games: &mut u64) {
    let mut a = Analysis::default();
    r.analyse(s, &mut a);
    if a.terminal() {
        *games += 1;
        return;
    }
    for j in joints(&a, r.roles().len()) {
        counts[depth] += 1;
        perft(r, &r.next(s, &j), depth + 1, counts, games);
    }
}

#[test]
fn tictactoe_agrees_over_random_games_and_perft() {
    let (g, n) = both(&sheet_file("tictactoe.kif"));
    let plies = random_games(&g, &n, 300, 20, 7);
    assert!((300 * 5..=300 * 9).contains(&plies), "{plies}");
    let mut counts = [0u64; 10];
    let mut games = 0;
    perft(&n, &n.initial(), 0, &mut counts, &mut games);
    assert_eq!(
        counts[..9],
        [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    );
    assert_eq!(games, 255168);
}

#[test]
fn connect4_agrees_over_random_games() {
    let (g, n) = both(&sheet_file("connect4-6x6.kif"));
    let plies = random_games(&g, &n, 100, 100, 11);
    assert!(plies >= 100 * 7, "{plies}");
}

#[test]
fn kuhn_agrees_on_percepts_and_goals_over_the_whole_tree() {
    let (g, n) = both(&sheet_file("kuhn.kif"));
    same_domains(&g, &n);
    assert_eq!(g.random_role(), Some(0));
    assert!(!n.percepts(1).is_empty());
    // 6 deals, then 5 betting sequences each.
    assert_eq!(walk_both(&g, &n, &g.initial(), 20), 30);
    random_games(&g, &n, 200, 20, 3);
}

#[test]
fn simultaneous_roshambo_agrees() {
    let (g, n) = both(&sheet_file("ggp-base/roshambo2.kif"));
    random_games(&g, &n, 200, 50, 5);
    let s = g.initial();
    let an = same_state(&g, &n, &s);
    // Four throws each, all moves simultaneous.
    assert_eq!((an.legal(0).len(), an.legal(1).len()), (4, 4));
    walk_both(&g, &n, &s, 3);
}

/// Every valid sheet of the repository's `gdl/` folder (not those under
/// `invalid/`, which the conformance suite expects refused): a few random
/// games.
#[test]
fn every_sheet_in_the_repository_agrees() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../gdl");
    let mut todo = vec![dir];
    let mut files = Vec::new();
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() && path.file_name().is_some_and(|n| n == "invalid") {
                continue;
            }
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "kif") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 10);
    for path in files {
        let sheet = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let start = std::time::Instant::now();
        let g = Reasoner::new(&sheet).unwrap();
        let n = Reasoner::with_budget(&sheet, forcing_budget(&sheet)).unwrap();
        assert!(!n.is_grounded());
        let built = start.elapsed();
        // Relations left out of the possible atoms may add some
        // (`ground::demand`): compared by terms, then move by move where
        // both number facts and moves alike.
        walk(&g, &n, &g.initial(), &n.initial(), 2);
        let alike =
            g.num_base() == n.num_base() && (0..g.roles().len()).all(|r| g.moves(r) == n.moves(r));
        let plies = if alike {
            random_games(&g, &n, 5, 300, 99)
        } else {
            0
        };
        println!(
            "{}: {plies} plies agree (built in {built:?}, played in {:?})",
            path.display(),
            start.elapsed() - built
        );
    }
}

/// Tic-tac-toe with `role` in the goals and a 0-ary relation.
const TTT: &str = "(role x) (role o) (index 1) (index 2) (index 3)
    (<= (init (cell ?m ?n b)) (index ?m) (index ?n)) (init (control x))
    (<= (next (cell ?m ?n ?r)) (does ?r (mark ?m ?n)) (true (cell ?m ?n b)))
    (<= (next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b))
    (<= (next (cell ?m ?n b)) (does ?w (mark ?j ?k)) (true (cell ?m ?n b))
        (or (distinct ?m ?j) (distinct ?n ?k)))
    (<= (next (control x)) (true (control o))) (<= (next (control o)) (true (control x)))
    (<= (line ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)) (true (cell ?m 3 ?x)))
    (<= (line ?x) (true (cell 1 ?n ?x)) (true (cell 2 ?n ?x)) (true (cell 3 ?n ?x)))
    (<= (line ?x) (true (cell 1 1 ?x)) (true (cell 2 2 ?x)) (true (cell 3 3 ?x)))
    (<= (line ?x) (true (cell 1 3 ?x)) (true (cell 2 2 ?x)) (true (cell 3 1 ?x)))
    (<= open (true (cell ?m ?n b)))
    (<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))
    (<= (legal x noop) (true (control o))) (<= (legal o noop) (true (control x)))
    (<= (goal ?r 100) (role ?r) (line ?r)) (<= (goal ?r 0) (role ?r) (role ?s) (line ?s) (distinct ?r ?s))
    (<= (goal ?r 50) (role ?r) (not (line x)) (not (line o)) (not open))
    (<= terminal (line ?r) (role ?r)) (<= terminal (not open))";

/// Plays `n` random games; returns the plies played.
fn playouts(r: &Reasoner, n: usize, seed: &mut u64) -> usize {
    let (mut a, mut joint, mut plies) = (Analysis::default(), Vec::new(), 0);
    let mut s = r.initial();
    let mut t = s.clone();
    let initial = r.initial();
    for _ in 0..n {
        s.clone_from(&initial);
        loop {
            r.analyse(&s, &mut a);
            if a.terminal() {
                break;
            }
            joint.clear();
            for role in 0..r.roles().len() {
                let l = a.legal(role);
                joint.push(l[lcg(seed) % l.len()]);
            }
            r.next_into(&s, &joint, &mut t);
            std::mem::swap(&mut s, &mut t);
            plies += 1;
        }
        let goals: Vec<_> = (0..2).map(|role| r.goal(&s, role).unwrap()).collect();
        assert!(
            goals == [50, 50] || goals == [100, 0] || goals == [0, 100],
            "{goals:?}"
        );
    }
    plies
}

#[test]
fn random_games_of_tictactoe_end_with_goals_on_both_evaluators() {
    let (g, n) = both(&parse(TTT).unwrap());
    for r in [&g, &n] {
        assert_eq!((r.num_base(), r.moves(0).len()), (29, 10));
        let plies = playouts(r, 300, &mut 7);
        assert!((300 * 5..=300 * 9).contains(&plies));
    }
    random_games(&g, &n, 200, 20, 1);
}

/// `distinct`, `not`, `or` (also under `not`), numbers, static recursion,
/// recursion over the state, `not (distinct …)`, and helpers called with
/// ground arguments (`adj`, `two`: specialized to those calls).
const FEATURES: &str = "
(role p)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (less ?x ?y) (succ ?x ?y))
(<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))
(init (at 0)) (init (edge 0 1)) (init (edge 1 2)) (init (edge 2 0)) (init (edge 3 4))
(<= (reach ?x ?y) (true (edge ?x ?y)))
(<= (reach ?x ?z) (reach ?x ?y) (reach ?y ?z))
(<= (legal p (go ?y)) (true (at ?x)) (less ?x ?y) (distinct ?y 3))
(<= (legal p stay) (true (at ?x)) (or (succ ?x 1) (succ ?x 4)))
(<= (legal p (cut ?x ?y)) (true (edge ?x ?y)) (not (or (reach ?y ?x) (succ ?y 9))))
(<= (legal p (same ?x)) (true (at ?x)) (succ ?x ?y) (not (distinct ?x 0)))
(<= (next (at ?y)) (does p (go ?y)))
(<= (next (at ?x)) (true (at ?x)) (not (does p (go ?x))) (does p ?m) (distinct ?m (go 0)))
(<= (next (edge ?x ?y)) (true (edge ?x ?y)) (not (does p (cut ?x ?y))))
(<= (next (edge ?y ?x)) (does p (cut ?x ?y)))
(<= (next moved) (does p (go ?y)))
(<= (adj ?a ?b) (true (edge ?a ?b)))
(<= (adj ?a ?b) (true (edge ?b ?a)))
(<= (two ?a ?c) (adj ?a ?b) (adj ?b ?c) (distinct ?a ?c))
(<= (legal p (hop ?b)) (true (at ?a)) (adj 0 ?b) (not (adj 2 ?b)) (not (two 3 ?b)))
(<= high (true (at ?x)) (not (less ?x 3)))
(<= terminal high)
(<= (goal p 100) high (true moved))
(<= (goal p 10) (not high))
(<= (goal p ?n) (true (at ?x)) (reach ?x ?x) (succ ?n 2))
";

#[test]
fn features_agree_including_recursion_over_the_state() {
    let (g, n) = both(&parse(FEATURES).unwrap());
    let s = g.initial();
    same_state(&g, &n, &s);
    let mut legal = Vec::new();
    n.legal(&s, 0, &mut legal);
    let names: Vec<String> = legal
        .iter()
        .map(|&m| n.moves(0)[m as usize].to_string())
        .collect();
    assert!(names.contains(&"(hop 2)".to_string()), "{names:?}");
    assert!(names.contains(&"(cut 3 4)".to_string()), "{names:?}");
    assert!(names.contains(&"(same 0)".to_string()), "{names:?}");
    walk_both(&g, &n, &s, 4);
    random_games(&g, &n, 200, 30, 17);
}

#[test]
fn a_sheet_too_large_for_both_says_so_in_one_line() {
    // Unbounded terms: (num (s (s … 0))).
    let sheet = parse(
        "(role p) (num 0) (<= (num (s ?x)) (num ?x))
         (<= (legal p go) (num ?x)) (<= (next (n ?x)) (num ?x)) (<= terminal (true (n 0)))",
    )
    .unwrap();
    let err = Reasoner::with_budget(&sheet, kib(16)).err().unwrap();
    assert!(err.0.starts_with("line "), "{err}");
    assert!(
        err.0
            .contains(": grounding exceeds the memory budget of 16 KiB at this rule"),
        "{err}"
    );
    assert!(
        err.0.contains("which the non-ground evaluator needs"),
        "{err}"
    );
    assert!(err.0.contains("too large to load within 16 KiB"), "{err}");
    assert!(err.0.contains("memory=32K") && err.0.contains("WOPR_GDL_MEMORY=32K"));
    assert!(!err.0.contains('\n'), "{err}");
    // A wide join: 30^4 moves, which ground rules and atoms alone exceed.
    let mut text = String::from("(role p) (init s) (<= terminal (true s)) (goal p 0)");
    for i in 0..30 {
        text += &format!(" (d {i})");
    }
    text += " (<= (legal p (m ?a ?b ?c ?d)) (d ?a) (d ?b) (d ?c) (d ?d))";
    let sheet = parse(&text).unwrap();
    let err = Reasoner::with_budget(&sheet, kib(4096)).err().unwrap();
    assert!(err.0.contains("too large to load within 4 MiB"), "{err}");
    assert!(err.0.contains("matches of its join"), "{err}");
    // Wide joins whose heads are few: too large to ground (4 × 27000 ground
    // rules), not to evaluate (each rule's joins, and the 7200 possible
    // `legal` and `does` atoms, within the budget). Each variable meets
    // both others, so the grounder's splits cannot narrow the rules.
    let mut text = String::from("(role p) (init s) (<= terminal (true s)) (goal p 0)");
    for i in 0..30 {
        text += &format!(" (d {i})");
    }
    text += " (<= (e ?x ?y) (d ?x) (d ?y))";
    for f in ["m1", "m2", "m3", "m4"] {
        text += &format!(" (<= (legal p ({f} ?a ?c)) (e ?a ?b) (e ?b ?c) (e ?c ?a))");
    }
    let r = Reasoner::with_budget(&parse(&text).unwrap(), kib(4096)).unwrap();
    assert!(!r.is_grounded());
    assert_eq!(r.moves(0).len(), 3600);
    let mut legal = Vec::new();
    r.legal(&r.initial(), 0, &mut legal);
    assert_eq!(legal, (0..3600).collect::<Vec<u32>>());
    assert!(r.is_terminal(&r.initial()));
    assert_eq!(r.goal(&r.initial(), 0), Some(0));
}

#[test]
fn unstratified_and_unsafe_sheets_fail_on_the_fallback_too() {
    let unsafe_rule = parse("(role p) (<= (legal p ?x) (not (q ?x)))").unwrap();
    let err = Reasoner::with_budget(&unsafe_rule, Budget::from_bytes(1))
        .err()
        .unwrap();
    assert!(err.0.contains("unsafe") && !err.0.contains('\n'), "{err}");
    let unstratified = parse(
        "(role p) (init a) (n 1) (n 2) (<= (legal p go) (true a)) (<= (next a) (true a))
         (<= (q ?x) (n ?x) (true a) (not (q ?x))) (<= terminal (q 1)) (goal p 0)",
    )
    .unwrap();
    let err = Reasoner::with_budget(&unstratified, forcing_budget(&unstratified))
        .err()
        .unwrap();
    assert!(err.0.contains("stratified"), "{err}");
}

/// Random plies per second (tic-tac-toe, Connect 4 on 6×6), grounded and
/// non-ground.
#[test]
#[ignore = "timing: cargo test --release -p wopr --test gdl_nonground -- --ignored --nocapture"]
fn playout_speed() {
    for (file, games) in [("tictactoe.kif", 200_000), ("connect4-6x6.kif", 20_000)] {
        let (g, n) = both(&sheet_file(file));
        let mut rates = Vec::new();
        for (name, r, games) in [("grounded", &g, games), ("non-ground", &n, games / 10)] {
            let mut seed = 1;
            playouts(r, 100, &mut seed);
            let start = std::time::Instant::now();
            let plies = playouts(r, games, &mut seed);
            let rate = plies as f64 / start.elapsed().as_secs_f64();
            println!("{file}, {name}: {rate:.0} plies/s ({games} playouts)");
            rates.push(rate);
        }
        println!("{file}: grounded / non-ground = {:.1}", rates[0] / rates[1]);
    }
}

/// A sheet whose frame rule keeps a token unless a move touches its cell,
/// with both roles moving at once, or one, or neither (`noop`), and the
/// moves behind a phase fact: the grounded reasoner rewrites the frame
/// atoms through the few moves outside each set (with the case of two
/// roles moving in it) and reads the legal moves through the phase as a
/// gate; the non-ground evaluator does neither.
const FRAME_SHEET: &str = "
(role red) (role blue)
(cell 1) (cell 2) (cell 3) (cell 4) (cell 5) (cell 6) (cell 7) (cell 8)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8)
(init (at 1 red)) (init (at 5 blue)) (init (phase go)) (init (step 0))
(<= (legal ?r (move ?a ?b)) (role ?r) (true (phase go)) (true (at ?a ?r)) (cell ?b) (distinct ?a ?b))
(<= (legal ?r noop) (role ?r))
(<= (next (at ?b ?r)) (does ?r (move ?a ?b)))
(<= (next (at ?c ?p)) (true (at ?c ?p)) (does ?r (move ?a ?b)) (distinct ?c ?a) (distinct ?c ?b))
(<= (next (phase rest)) (true (phase go)))
(<= (next (phase go)) (true (phase rest)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= terminal (true (step 8)))
(<= (goal ?r 100) (role ?r) (true (at 8 ?r)))
(<= (goal ?r 0) (role ?r) (not (true (at 8 ?r))))
";

#[test]
fn frame_atoms_and_gated_moves_agree_with_the_non_ground_evaluator() {
    let sheet = parse(FRAME_SHEET).unwrap();
    let (g, n) = both(&sheet);
    let plies = random_games(&g, &n, 300, 10, 11);
    assert_eq!(
        plies,
        300 * 8,
        "every game lasts the 8 steps of its counter"
    );
    // The whole tree to depth 3, every joint move (8 and 8 moves at the
    // start: 7 targets and `noop` each).
    let an = same_state(&g, &n, &g.initial());
    assert_eq!((an.legal(0).len(), an.legal(1).len()), (8, 8));
    walk_both(&g, &n, &g.initial(), 3);
}

/// Four roles guess 0..7 at once; a role wins if its right-hand neighbour
/// guessed as it did and the four guesses add up to an even number. The
/// sum chains three `sum` literals over four guesses, and `close` ties two
/// guesses through a value read by no other literal: both are rules the
/// grounder splits ([`wopr::games::gdl::ground`]).
fn guessing_sheet() -> Sheet {
    let mut kif = String::from(
        "(role p1) (role p2) (role p3) (role p4)
         (right p1 p2) (right p2 p3) (right p3 p4) (right p4 p1)
         (init (phase guess))
         (<= (legal ?p (guess ?n)) (role ?p) (num ?n) (true (phase guess)))
         (<= (next (guessed ?p ?n)) (does ?p (guess ?n)))
         (<= (next (phase done)) (true (phase guess)))
         (<= terminal (true (phase done)))
         (<= (total ?t)
             (true (guessed p1 ?a)) (true (guessed p2 ?b)) (sum ?a ?b ?s)
             (true (guessed p3 ?c)) (sum ?s ?c ?u)
             (true (guessed p4 ?d)) (sum ?u ?d ?t))
         (<= (close ?p) (true (guessed ?p ?n)) (right ?p ?q) (true (guessed ?q ?n)))
         (<= (win ?p) (close ?p) (total ?t) (even ?t))
         (<= (goal ?p 100) (win ?p))
         (<= (goal ?p 0) (role ?p) (not (win ?p)))\n",
    );
    for n in 0..8 {
        kif.push_str(&format!("(num {n}) "));
    }
    for t in (0..=28).step_by(2) {
        kif.push_str(&format!("(even {t}) "));
    }
    for a in 0..=21 {
        for b in 0..8 {
            kif.push_str(&format!("(sum {a} {b} {}) ", a + b));
        }
    }
    parse(&kif).unwrap()
}

#[test]
fn split_rules_ground_small_and_agree_with_the_rules_as_written() {
    let sheet = guessing_sheet();
    let g = ground(&sheet, DEFAULT_BUDGET).unwrap();
    // As written, `total` alone grounds once per four guesses: 8^4 = 4096
    // rules. Split, the sums take 8·8 + 15·8 + 22·8 = 360 joins.
    assert!(g.num_rules() < 1000, "{} ground rules", g.num_rules());
    assert!(g.num_split_atoms() > 0);
    let (a, b) = both(&sheet);
    // Every joint guess, compared query by query with the non-ground
    // evaluator, which reads the rules as written.
    assert_eq!(walk_both(&a, &b, &a.initial(), 2), 4096);
    // And the goals against the rules computed here.
    let guess = |r: usize, m: u32| -> u32 {
        let text = a.moves(r)[m as usize].to_string();
        text.trim_end_matches(')')
            .rsplit(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let mut an = Analysis::default();
    a.analyse(&a.initial(), &mut an);
    let mut wins = 0;
    for joint in joints(&an, 4) {
        let s = a.next(&a.initial(), &joint);
        let n: Vec<u32> = (0..4).map(|r| guess(r, joint[r])).collect();
        let even = n.iter().sum::<u32>() % 2 == 0;
        for r in 0..4 {
            let win = even && n[r] == n[(r + 1) % 4];
            wins += u32::from(win);
            assert_eq!(a.goal(&s, r), Some(if win { 100 } else { 0 }), "{n:?}");
        }
    }
    // Per role: its neighbour matches it 8·8·8 ways, half of them with an
    // even total (the other two guesses' parity is free).
    assert_eq!(wins, 4 * 256);
}

#[test]
fn splits_that_gain_nothing_are_undone() {
    // Connect-4's `line` rules chain `colsucc`s and cells: each split is
    // functional (the eliminated columns follow from the ones kept), so
    // every new atom has one ground rule and is inlined back. The program
    // is the one grounded before rules were split: 289 atoms and 422 rules
    // (`wopr gdl check gdl/connect4-6x6.kif`, release build of 19e3aaa5).
    let g = ground(&sheet_file("connect4-6x6.kif"), DEFAULT_BUDGET).unwrap();
    assert_eq!(g.num_split_atoms(), 0);
    assert_eq!((g.num_atoms(), g.num_rules()), (289, 422));
}

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

/// Walks the game tree of `a` and `b` together to `depth` plies (their
/// numbering of facts and moves may differ),
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
    let roles = a.roles().len();
    for role in 0..roles {
        assert_eq!(moves(a, &x, role), moves(b, &y, role), "legal moves");
        assert_eq!(a.goal(sa, role), b.goal(sb, role), "goal");
    }
    if x.terminal() || depth == 0 {
        return 1;
    }
    let mut seen = 1;
    for ja in joints(&x, roles) {
        // The same moves, by term, in `b`'s numbering.
        let jb: Vec<u32> = (0..roles)
            .map(|r| b.find_move(r, &a.moves(r)[ja[r] as usize]).unwrap())
            .collect();
        seen += walk(a, b, &a.next(sa, &ja), &b.next(sb, &jb), depth - 1);
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
    // demand whose readers bind it (`attacked`, `clear`, `open`, `empty`,
    // `own`, `left`, `taken`).
    kept.dedup();
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(kept[1] < kept[0] && kept[0] < grounded.size().0, "{kept:?}");
}

/// Five cells, the first three filled with 0, 1 and 2; a move fills an
/// empty cell with a digit. `diff` (every two of five digits differ:
/// 10·9·8·7·6 = 30,240 true tuples, through `not (same …)`, as sudoku's
/// `exactlyFirst`) is static and read, through `good`, with its five
/// arguments bound by the cells.
const ALL_DIFFERENT: &str = "
    (role p) (d 0) (d 1) (d 2) (d 3) (d 4) (d 5) (d 6) (d 7) (d 8) (d 9)
    (index 1) (index 2) (index 3) (index 4) (index 5)
    (init (cell 1 0)) (init (cell 2 1)) (init (cell 3 2))
    (<= (same ?x ?x) (d ?x))
    (<= (diff ?a ?b ?c ?d ?e) (d ?a) (d ?b) (d ?c) (d ?d) (d ?e)
        (not (same ?a ?b)) (not (same ?a ?c)) (not (same ?a ?d)) (not (same ?a ?e))
        (not (same ?b ?c)) (not (same ?b ?d)) (not (same ?b ?e))
        (not (same ?c ?d)) (not (same ?c ?e)) (not (same ?d ?e)))
    (<= (good ?a ?b ?c ?d ?e) (diff ?a ?b ?c ?d ?e))
    (<= (filled ?i) (true (cell ?i ?v)))
    (<= (empty ?i) (index ?i) (not (filled ?i)))
    (<= (legal p (set ?i ?v)) (empty ?i) (d ?v))
    (<= (next (cell ?i ?v)) (does p (set ?i ?v)))
    (<= (next (cell ?i ?v)) (true (cell ?i ?v)))
    (<= open (empty ?i))
    (<= terminal (not open))
    (<= win (true (cell 1 ?a)) (true (cell 2 ?b)) (true (cell 3 ?c))
        (true (cell 4 ?d)) (true (cell 5 ?e)) (good ?a ?b ?c ?d ?e))
    (<= (goal p 100) win)
    (<= (goal p 0) (not win))
";

/// Counts the finished games of `r` from `s` that `p` wins.
fn wins(r: &Reasoner, s: &Facts) -> u64 {
    let mut an = Analysis::default();
    r.analyse(s, &mut an);
    if an.terminal() {
        return u64::from(r.goal(s, 0) == Some(100));
    }
    joints(&an, 1).iter().map(|j| wins(r, &r.next(s, j))).sum()
}

/// `text` grounded within the default budget, and on the non-ground
/// evaluator within `budget`, which grounding alone passes.
fn grounded_and_not(text: &str, budget: Budget) -> (Reasoner, Reasoner) {
    let sheet = parse(text).unwrap();
    let grounded = Reasoner::new(&sheet).unwrap();
    assert!(grounded.is_grounded());
    assert!(ground(&sheet, budget).is_err());
    let r = Reasoner::with_budget(&sheet, budget).unwrap();
    assert!(!r.is_grounded());
    (grounded, r)
}

#[test]
fn a_static_relation_too_large_to_hold_is_answered_on_demand() {
    // The possible atoms alone pass 512 KiB: `diff`'s 30,240 tuples.
    let (grounded, r) = grounded_and_not(ALL_DIFFERENT, kib(512));
    // 20 moves, then 10: every position and goal as grounded.
    let positions = walk(&grounded, &r, &grounded.initial(), &r.initial(), 2);
    assert_eq!(positions, 1 + 20 + 20 * 10);
    // Won: cells 4 and 5 hold two different digits of 3–9, 7·6 ways,
    // each filled in either order.
    assert_eq!(wins(&r, &r.initial()), 7 * 6 * 2);
    assert_eq!(wins(&grounded, &grounded.initial()), 7 * 6 * 2);
}

/// A chaser steps toward the runner on a 10×10 board: `chase`, static,
/// relates every two squares to the chaser's next square (10,000 tuples),
/// and `next` reads it with that square unbound.
const CHASE: &str = "
    (role p)
    (n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)
    (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
    (succ 6 7) (succ 7 8) (succ 8 9)
    (<= (less ?x ?y) (succ ?x ?y))
    (<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))
    (<= (toward ?a ?b ?c) (less ?a ?b) (succ ?a ?c))
    (<= (toward ?a ?b ?c) (less ?b ?a) (succ ?c ?a))
    (<= (toward ?a ?a ?a) (n ?a))
    (<= (chase ?x ?y ?rx ?ry ?nx ?ny) (toward ?x ?rx ?nx) (toward ?y ?ry ?ny))
    (init (runner 5 5)) (init (chaser 1 0)) (init (step 0))
    (<= (near ?a ?a) (n ?a))
    (<= (near ?a ?b) (succ ?a ?b))
    (<= (near ?a ?b) (succ ?b ?a))
    (<= (legal p (go ?x ?y)) (true (runner ?a ?b)) (near ?a ?x) (near ?b ?y))
    (<= (next (runner ?x ?y)) (does p (go ?x ?y)))
    (<= (next (chaser ?nx ?ny)) (true (chaser ?x ?y)) (does p (go ?rx ?ry))
        (chase ?x ?y ?rx ?ry ?nx ?ny))
    (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
    (<= caught (true (runner ?x ?y)) (true (chaser ?x ?y)))
    (<= terminal caught)
    (<= terminal (true (step 4)))
    (<= (goal p 100) (not caught))
    (<= (goal p 0) caught)
";

#[test]
fn a_relation_read_with_an_unbound_argument_is_left_out_for_its_projections() {
    // `chase`'s possible atoms pass 512 KiB, and `next` binds its last two
    // arguments from it: only its projections let the rest load.
    let (grounded, r) = grounded_and_not(CHASE, kib(512));
    // 9 moves from the middle (a step in x and in y, or none), then again:
    // every position, move and goal as grounded.
    let positions = walk(&grounded, &r, &grounded.initial(), &r.initial(), 2);
    assert_eq!(positions, 1 + 9 + 9 * 9);
    // And to the end of the game (4 steps), where the runner can be
    // caught: every state, move and finish as grounded.
    let finished = walk_both(&grounded, &r, &grounded.initial(), 4);
    assert!(finished > 0);
}

/// Six cells in a row, each empty or holding a white or black stone; a
/// move fills an empty cell. `count` counts both colours as merrills's
/// does: `count_loop` walks the cells from the first, two counts carried
/// in and two given out, so its possible atoms are 6 · 10⁴ (60,000) and
/// its readers leave the counts free.
const COUNT: &str = "
    (role p)
    (num 0) (num 1) (num 2) (num 3) (num 4) (num 5) (num 6) (num 7) (num 8) (num 9)
    (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
    (succ 6 7) (succ 7 8) (succ 8 9)
    (after c1 c2) (after c2 c3) (after c3 c4) (after c4 c5) (after c5 c6)
    (init (cell c1 empty)) (init (cell c2 empty)) (init (cell c3 empty))
    (init (cell c4 empty)) (init (cell c5 empty)) (init (cell c6 empty))
    (<= (count_one ?c ?w1 ?b ?w ?b) (true (cell ?c white)) (succ ?w1 ?w) (num ?b))
    (<= (count_one ?c ?w ?b1 ?w ?b) (true (cell ?c black)) (succ ?b1 ?b) (num ?w))
    (<= (count_one ?c ?w ?b ?w ?b) (true (cell ?c empty)) (num ?w) (num ?b))
    (<= (count_loop c6 ?w1 ?b1 ?w ?b) (count_one c6 ?w1 ?b1 ?w ?b))
    (<= (count_loop ?c ?w1 ?b1 ?w ?b) (count_one ?c ?w1 ?b1 ?w2 ?b2) (after ?c ?c2)
        (count_loop ?c2 ?w2 ?b2 ?w ?b))
    (<= (count ?w ?b) (count_loop c1 0 0 ?w ?b))
    (<= (legal p (place ?c white)) (true (cell ?c empty)) (count ?w ?b) (distinct ?w 2))
    (<= (legal p (place ?c black)) (true (cell ?c empty)))
    (<= (placed ?c) (does p (place ?c ?x)))
    (<= (next (cell ?c ?x)) (does p (place ?c ?x)))
    (<= (next (cell ?c ?x)) (true (cell ?c ?x)) (not (placed ?c)))
    (<= open (true (cell ?c empty)))
    (<= terminal (not open))
    (<= won (count ?w ?b) (succ ?w ?x) (succ ?x ?b))
    (<= (goal p 100) won)
    (<= (goal p 0) (not won))
";

#[test]
fn a_recursive_relation_read_with_its_counts_free_is_solved_to_its_fixpoint() {
    // `count_loop`'s possible atoms pass the budget, and every reader
    // leaves its last two arguments free: it is solved with the first
    // three bound, recursively.
    let (grounded, r) = grounded_and_not(COUNT, kib(512));
    // 12 moves, then 10 (or 5 once two cells are white): every position,
    // move and goal as grounded, to the end of every game.
    let positions = walk(&grounded, &r, &grounded.initial(), &r.initial(), 2);
    assert_eq!(positions, 1 + 12 + 12 * 10);
    let finished = walk_both(&grounded, &r, &grounded.initial(), 6);
    // Every game fills the six cells: at most two white stones; among
    // the fillings with w whites and 6 − w blacks (6 choose w), each
    // placed in any of 6! orders: 720 · (1 + 6 + 15).
    assert_eq!(finished, 720 * (1 + 6 + 15));
    // Won: two black stones more than white ones, so two white and four
    // black: 6 choose 2 fillings, each in 6! orders.
    assert_eq!(wins(&r, &r.initial()), 720 * 15);
    assert_eq!(wins(&grounded, &grounded.initial()), 720 * 15);
}

/// Two tokens, `a` on n0 and `b` on n4, on eight nodes joined in a ring
/// of one-way edges; a move takes a token to any node reachable from its
/// own, or stays, and the edge out of the node a token leaves is gone.
/// `path`, the edges' transitive closure by doubling, is read with its
/// first argument bound: its first literal then asks for the very tuples
/// being found, and round the ring each node's closure asks for the
/// others' while theirs are still being found.
const RING: &str = "
    (role p)
    (init (at a n0)) (init (at b n4)) (init (step 0))
    (init (edge n0 n1)) (init (edge n1 n2)) (init (edge n2 n3)) (init (edge n3 n4))
    (init (edge n4 n5)) (init (edge n5 n6)) (init (edge n6 n7)) (init (edge n7 n0))
    (succ 0 1) (succ 1 2)
    (<= (path ?x ?y) (true (edge ?x ?y)))
    (<= (path ?x ?z) (path ?x ?y) (path ?y ?z))
    (<= (legal p (go ?t ?y)) (true (at ?t ?x)) (path ?x ?y))
    (<= (legal p stay))
    (<= (moved ?t) (does p (go ?t ?y)))
    (<= (left ?x) (does p (go ?t ?y)) (true (at ?t ?x)))
    (<= (next (at ?t ?y)) (does p (go ?t ?y)))
    (<= (next (at ?t ?x)) (true (at ?t ?x)) (not (moved ?t)))
    (<= (next (edge ?x ?y)) (true (edge ?x ?y)) (not (left ?x)))
    (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
    (<= terminal (true (step 2)))
    (<= met (true (at a ?x)) (true (at b ?x)))
    (<= (goal p 100) met)
    (<= (goal p 0) (not met))
";

#[test]
fn a_recursive_relation_that_asks_for_its_own_tuples_reaches_their_fixpoint() {
    // Just below grounding's own size: the rules pass the budget, so the
    // evaluator answers `path` by solving it from each token's node.
    let sheet = parse(RING).unwrap();
    let full = ground(&sheet, DEFAULT_BUDGET).unwrap().estimated_bytes();
    let (grounded, r) = grounded_and_not(RING, Budget::from_bytes(full - 1));
    // First step: each token to any of the 8 nodes (its own round the
    // ring), or stay: 17. Second: after `a` went to nj the ring is cut
    // after n0, so `a` has 8 − j moves (none from n0), `b` 4 and stay 1:
    // 5 + Σⱼ₌₁..₇ (13 − j) = 68; after `b` went, likewise 68 (the ring
    // cut after n4); after staying, 17: 153.
    let positions = walk(&grounded, &r, &grounded.initial(), &r.initial(), 2);
    assert_eq!(positions, 1 + 17 + 153);
    // The tokens meet at the end: after `a` went to nj, by staying (j = 4),
    // `a` going on to n4 (j = 1..3) or `b` to nj (j = 5..7, 0): 8; after
    // `b` went, 8 likewise; after staying, either token to the other: 2.
    assert_eq!(wins(&r, &r.initial()), 8 + 8 + 2);
    assert_eq!(wins(&grounded, &grounded.initial()), 8 + 8 + 2);
}
