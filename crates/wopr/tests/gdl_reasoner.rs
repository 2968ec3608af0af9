//! The GDL reasoner (`games::gdl::reasoner`) on whole games and on small
//! sheets that exercise one feature each.

use wopr::games::gdl::check::{check, stratified};
use wopr::games::gdl::ground::Budget;
use wopr::games::gdl::parse::parse;
use wopr::games::gdl::reasoner::{Analysis, Facts, Reasoner};

/// Tic-tac-toe as in the Stanford GGP sheets.
const TICTACTOE: &str = "
(role xplayer) (role oplayer)
(init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 1 3 b))
(init (cell 2 1 b)) (init (cell 2 2 b)) (init (cell 2 3 b))
(init (cell 3 1 b)) (init (cell 3 2 b)) (init (cell 3 3 b))
(init (control xplayer))
(<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (cell ?m ?n o)) (does oplayer (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (cell ?m ?n ?w)) (true (cell ?m ?n ?w)) (distinct ?w b))
(<= (next (cell ?m ?n b)) (does ?w (mark ?j ?k)) (true (cell ?m ?n b))
    (or (distinct ?m ?j) (distinct ?n ?k)))
(<= (next (control xplayer)) (true (control oplayer)))
(<= (next (control oplayer)) (true (control xplayer)))
(<= (row ?m ?x) (true (cell ?m 1 ?x)) (true (cell ?m 2 ?x)) (true (cell ?m 3 ?x)))
(<= (column ?n ?x) (true (cell 1 ?n ?x)) (true (cell 2 ?n ?x)) (true (cell 3 ?n ?x)))
(<= (diagonal ?x) (true (cell 1 1 ?x)) (true (cell 2 2 ?x)) (true (cell 3 3 ?x)))
(<= (diagonal ?x) (true (cell 1 3 ?x)) (true (cell 2 2 ?x)) (true (cell 3 1 ?x)))
(<= (line ?x) (row ?m ?x))
(<= (line ?x) (column ?m ?x))
(<= (line ?x) (diagonal ?x))
(<= open (true (cell ?m ?n b)))
(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?w)))
(<= (legal xplayer noop) (true (control oplayer)))
(<= (legal oplayer noop) (true (control xplayer)))
(<= (goal xplayer 100) (line x))
(<= (goal xplayer 50) (not (line x)) (not (line o)) (not open))
(<= (goal xplayer 0) (line o))
(<= (goal oplayer 100) (line o))
(<= (goal oplayer 50) (not (line x)) (not (line o)) (not open))
(<= (goal oplayer 0) (line x))
(<= terminal (line x))
(<= terminal (line o))
(<= terminal (not open))
";

fn reasoner(text: &str) -> Reasoner {
    let sheet = parse(text).unwrap();
    Reasoner::new(&sheet).unwrap()
}

fn checked(text: &str) -> Reasoner {
    let sheet = parse(text).unwrap();
    check(&sheet).unwrap();
    Reasoner::new(&sheet).unwrap()
}

fn names(terms: &[wopr::games::gdl::ast::Term], ids: &[u32]) -> Vec<String> {
    ids.iter().map(|&i| terms[i as usize].to_string()).collect()
}

fn state_strings(r: &Reasoner, s: &Facts) -> Vec<String> {
    s.iter().map(|b| r.base(b).to_string()).collect()
}

fn mv(r: &Reasoner, role: usize, text: &str) -> u32 {
    let i = r.moves(role).iter().position(|m| m.to_string() == text);
    i.unwrap_or_else(|| panic!("no move {text}")) as u32
}

/// Every joint move of a state (the product of the roles' legal moves).
fn joints(a: &Analysis, roles: usize) -> Vec<Vec<u32>> {
    let mut out = vec![Vec::new()];
    for r in 0..roles {
        out = out
            .into_iter()
            .flat_map(|j| {
                a.legal(r).iter().map(move |&m| {
                    let mut j = j.clone();
                    j.push(m);
                    j
                })
            })
            .collect();
    }
    out
}

fn perft(r: &Reasoner, s: &Facts, depth: usize, counts: &mut [u64], games: &mut u64) {
    let mut a = Analysis::default();
    r.analyse(s, &mut a);
    assert_eq!(a.terminal(), r.is_terminal(s));
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
fn tictactoe_initial_state() {
    let r = checked(TICTACTOE);
    assert_eq!(r.roles().len(), 2);
    assert_eq!(&*r.roles()[0], "xplayer");
    assert_eq!(r.random_role(), None);
    assert_eq!(r.num_base(), 9 * 3 + 2);
    let s = r.initial();
    assert_eq!(s.len(), 10);
    assert!(state_strings(&r, &s).contains(&"(control xplayer)".to_string()));
    let mut legal = Vec::new();
    r.legal(&s, 0, &mut legal);
    assert_eq!(legal.len(), 9);
    assert_eq!(names(r.moves(0), &legal[..2]), ["(mark 1 1)", "(mark 1 2)"]);
    r.legal(&s, 1, &mut legal);
    assert_eq!(names(r.moves(1), &legal), ["noop"]);
    assert!(!r.is_terminal(&s));
    assert_eq!(r.goal(&s, 0), None);
    assert_eq!(r.moves(0).len(), 10);
    assert_eq!(r.find_move(0, &r.moves(0)[4]), Some(4));
}

#[test]
fn tictactoe_perft() {
    let r = checked(TICTACTOE);
    let mut counts = [0u64; 10];
    let mut games = 0;
    perft(&r, &r.initial(), 0, &mut counts, &mut games);
    assert_eq!(
        counts[..9],
        [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    );
    assert_eq!(games, 255168);
}

#[test]
fn tictactoe_win_and_goals() {
    let r = checked(TICTACTOE);
    let mut s = r.initial();
    let (x, o) = (0, 1);
    let noop = |role| mv(&r, role, "noop");
    for (role, m) in [
        (x, "(mark 1 1)"),
        (o, "(mark 2 1)"),
        (x, "(mark 1 2)"),
        (o, "(mark 2 2)"),
    ] {
        let joint = if role == x {
            [mv(&r, x, m), noop(o)]
        } else {
            [noop(x), mv(&r, o, m)]
        };
        s = r.next(&s, &joint);
        assert!(!r.is_terminal(&s));
    }
    let mut into = Facts::empty(0);
    r.next_into(&s, &[mv(&r, x, "(mark 1 3)"), noop(o)], &mut into);
    assert!(r.is_terminal(&into));
    assert_eq!((r.goal(&into, x), r.goal(&into, o)), (Some(100), Some(0)));
    assert!(state_strings(&r, &into).contains(&"(cell 1 3 x)".to_string()));
    assert!(state_strings(&r, &into).contains(&"(control oplayer)".to_string()));
}

#[test]
fn reasoner_is_send_and_sync() {
    fn is<T: Send + Sync>() {}
    is::<Reasoner>();
    is::<Facts>();
}

/// A one-player game whose legal moves and goals use `distinct`, `not`,
/// `or`, numbers, a 0-ary relation and static recursion.
const FEATURES: &str = "
(role p)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (less ?x ?y) (succ ?x ?y))
(<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))
(init (at 0))
(<= (legal p (go ?y)) (true (at ?x)) (less ?x ?y) (distinct ?y 3))
(<= (legal p stay) (true (at ?x)) (or (succ ?x 1) (succ ?x 4)))
(<= (next (at ?y)) (does p (go ?y)))
(<= (next (at ?x)) (does p stay) (true (at ?x)))
(<= (next moved) (does p (go ?y)))
(<= high (true (at ?x)) (not (less ?x 3)))
(<= terminal high)
(<= (goal p 100) high (true moved))
(<= (goal p 10) (not high))
";

#[test]
fn distinct_not_or_recursion_numbers() {
    let r = checked(FEATURES);
    let s = r.initial();
    assert_eq!(state_strings(&r, &s), ["(at 0)"]);
    assert_eq!(r.goal(&s, 0), Some(10));
    let mut legal = Vec::new();
    r.legal(&s, 0, &mut legal);
    // From 0: go to 1, 2, 4 (3 is excluded), and stay since (succ 0 1).
    assert_eq!(
        names(r.moves(0), &legal),
        ["stay", "(go 1)", "(go 2)", "(go 4)"]
    );
    let s1 = r.next(&s, &[mv(&r, 0, "(go 2)")]);
    assert_eq!(state_strings(&r, &s1), ["moved", "(at 2)"]);
    r.legal(&s1, 0, &mut legal);
    assert_eq!(names(r.moves(0), &legal), ["(go 4)"]);
    let s2 = r.next(&s1, &[mv(&r, 0, "(go 4)")]);
    assert!(r.is_terminal(&s2));
    assert_eq!(r.goal(&s2, 0), Some(100));
    let s3 = r.next(&s, &[mv(&r, 0, "stay")]);
    assert_eq!(state_strings(&r, &s3), ["(at 0)"]);
    // No move at all: nothing is next.
    assert!(r.next(&s, &[u32::MAX]).is_empty());
}

/// Recursion through the state: a path reaches the goal cell over edges
/// that are base facts.
const REACH: &str = "
(role p)
(init (edge a b)) (init (edge b c)) (init (edge c d)) (init (at a))
(<= (reach ?x) (true (at ?x)))
(<= (reach ?y) (reach ?x) (edge ?x ?y))
(<= (edge ?x ?y) (true (edge ?x ?y)))
(<= (legal p (cut ?x ?y)) (true (edge ?x ?y)))
(<= (next (edge ?x ?y)) (true (edge ?x ?y)) (not (does p (cut ?x ?y))))
(<= (next (at ?x)) (true (at ?x)))
(<= terminal (not (reach d)))
(<= (goal p 100) (not (reach d)))
(<= (goal p 0) (reach d))
";

#[test]
fn recursion_over_the_state() {
    let r = checked(REACH);
    let s = r.initial();
    assert!(!r.is_terminal(&s));
    assert_eq!(r.goal(&s, 0), Some(0));
    let mut legal = Vec::new();
    r.legal(&s, 0, &mut legal);
    assert_eq!(legal.len(), 3);
    let s1 = r.next(&s, &[mv(&r, 0, "(cut b c)")]);
    assert_eq!(s1.len(), 3);
    assert!(r.is_terminal(&s1));
    assert_eq!(r.goal(&s1, 0), Some(100));
}

/// Negation cycles between relations that vanish once ground: `odd` of a
/// number depends on `odd` of the one before, and one goal on the other.
const GROUND_STRATA: &str = "
(role robot)
(succ 0 1) (succ 1 2) (succ 2 3)
(init (step 0))
(legal robot go)
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (odd ?x) (succ ?y ?x) (not (odd ?y)))
(<= terminal (true (step 3)))
(<= (goal robot 0) (true (step ?x)) (not (odd ?x)))
(<= (goal robot 100) (not (goal robot 0)))
";

#[test]
fn negation_cycles_that_vanish_once_ground_are_run() {
    let sheet = parse(GROUND_STRATA).unwrap();
    assert!(stratified(&sheet).is_err(), "not stratified over relations");
    let r = checked(GROUND_STRATA);
    // odd 0 has no rule, so odd 1 and odd 3 hold and odd 2 does not.
    let mut s = r.initial();
    let mut goals = Vec::new();
    while !r.is_terminal(&s) {
        goals.push(r.goal(&s, 0));
        s = r.next(&s, &[0]);
    }
    goals.push(r.goal(&s, 0));
    assert_eq!(goals, [Some(0), Some(100), Some(0), Some(100)]);
    // A cycle that stays once ground is refused, in one line.
    let cyclic = GROUND_STRATA.replace(
        "(legal robot go)",
        "(legal robot go) (<= (p ?r) (role ?r) (not (q ?r))) (<= (q ?r) (role ?r) (not (p ?r)))",
    );
    let err = Reasoner::new(&parse(&cyclic).unwrap()).err().unwrap().0;
    assert!(
        err.contains("not stratified, even between ground atoms") && !err.contains('\n'),
        "{err}"
    );
}

/// GDL-II: a random deal that one player sees and the other does not.
const DEAL: &str = "
(role random) (role alice) (role bob)
(card c1) (card c2) (card c3)
(init (phase deal))
(<= (legal random (deal ?c)) (true (phase deal)) (card ?c))
(<= (legal alice wait) (true (phase deal)))
(<= (legal bob wait) (true (phase deal)))
(<= (legal random noop) (true (phase guess)))
(<= (legal alice wait) (true (phase guess)))
(<= (legal bob (guess ?c)) (true (phase guess)) (card ?c))
(<= (sees alice (dealt ?c)) (does random (deal ?c)))
(<= (sees bob (guessed ?c)) (does bob (guess ?c)))
(<= (sees alice (guessed ?c)) (does bob (guess ?c)))
(<= (next (hand ?c)) (does random (deal ?c)))
(<= (next (hand ?c)) (true (hand ?c)))
(<= (next (phase guess)) (true (phase deal)))
(<= (next (phase done)) (true (phase guess)))
(<= (next right) (does bob (guess ?c)) (true (hand ?c)))
(<= terminal (true (phase done)))
(<= (goal bob 100) (true right))
(<= (goal bob 0) (not (true right)))
(<= (goal alice 0) (true right))
(<= (goal alice 100) (not (true right)))
(<= (goal random 0) (true (phase done)))
";

#[test]
fn random_role_and_sees() {
    let r = checked(DEAL);
    let (rnd, alice, bob) = (0, 1, 2);
    assert_eq!(r.random_role(), Some(rnd));
    assert_eq!(r.percepts(alice).len(), 6);
    assert_eq!(r.percepts(bob).len(), 3);
    let s = r.initial();
    let mut a = Analysis::default();
    r.analyse(&s, &mut a);
    assert_eq!(
        names(r.moves(rnd), a.legal(rnd)),
        ["(deal c1)", "(deal c2)", "(deal c3)"]
    );
    let deal = [
        mv(&r, rnd, "(deal c2)"),
        mv(&r, alice, "wait"),
        mv(&r, bob, "wait"),
    ];
    let mut seen = Vec::new();
    r.sees(&s, &deal, alice, &mut seen);
    assert_eq!(names(r.percepts(alice), &seen), ["(dealt c2)"]);
    r.sees(&s, &deal, bob, &mut seen);
    assert!(seen.is_empty());
    let s1 = r.next(&s, &deal);
    let guess = [
        mv(&r, rnd, "noop"),
        mv(&r, alice, "wait"),
        mv(&r, bob, "(guess c2)"),
    ];
    r.sees(&s1, &guess, alice, &mut seen);
    assert_eq!(names(r.percepts(alice), &seen), ["(guessed c2)"]);
    let s2 = r.next(&s1, &guess);
    assert!(r.is_terminal(&s2));
    assert_eq!(r.goal(&s2, bob), Some(100));
    assert_eq!(r.goal(&s2, alice), Some(0));
}

#[test]
fn not_around_or_and_distinct() {
    let r = reasoner(
        "(role p) (v 1) (v 2) (v 3) (init (x 1)) (init (x 2))
         (<= (legal p (m ?a ?b)) (v ?a) (v ?b) (not (distinct ?a ?b)))
         (<= (legal p (n ?a)) (v ?a) (not (or (true (x ?a)) (v 7))))
         (<= (next (x ?a)) (does p (m ?a ?a)))
         (<= terminal (true (x 3)))
         (goal p 0)",
    );
    let s = r.initial();
    let mut legal = Vec::new();
    r.legal(&s, 0, &mut legal);
    let want = ["(m 1 1)", "(m 2 2)", "(m 3 3)", "(n 3)"];
    assert_eq!(names(r.moves(0), &legal), want);
    assert_eq!(r.goal(&s, 0), Some(0));
    let s1 = r.next(&s, &[mv(&r, 0, "(m 3 3)")]);
    assert!(r.is_terminal(&s1));
    r.legal(&s1, 0, &mut legal);
    assert_eq!(legal.len(), 5);
}

#[test]
fn the_budget_stops_a_sheet_that_blows_up() {
    // Unbounded terms: (num (s (s … 0))).
    let sheet = parse(
        "(role p) (num 0) (<= (num (s ?x)) (num ?x))
         (<= (legal p go) (num ?x)) (<= (next (n ?x)) (num ?x)) (<= terminal (true (n 0)))",
    )
    .unwrap();
    let err = Reasoner::with_budget(&sheet, Budget::from_bytes(16 << 10))
        .err()
        .unwrap();
    assert!(
        err.0
            .contains(": grounding exceeds the memory budget of 16 KiB"),
        "{err}"
    );
    let err = Reasoner::new(&sheet).err().unwrap();
    assert!(
        err.0
            .contains("line 1: grounding makes terms nested deeper than 500"),
        "{err}"
    );
    // A wide join.
    let mut text = String::from("(role p)");
    for i in 0..30 {
        text += &format!(" (d {i})");
    }
    text += " (<= (legal p (m ?a ?b ?c ?d)) (d ?a) (d ?b) (d ?c) (d ?d))";
    let err = Reasoner::with_budget(&parse(&text).unwrap(), Budget::from_bytes(4 << 20))
        .err()
        .unwrap();
    assert!(
        err.0
            .contains("line 1: grounding exceeds the memory budget of 4 MiB"),
        "{err}"
    );
}

#[test]
fn errors_are_one_line() {
    let unsafe_rule = parse("(role p) (<= (legal p ?x) (not (q ?x)))").unwrap();
    let err = Reasoner::new(&unsafe_rule).err().unwrap();
    assert!(err.0.contains("unsafe") && !err.0.contains('\n'), "{err}");
    let unstratified = parse("(role p) (init a) (<= (q 1) (true a) (not (q 1)))").unwrap();
    let err = Reasoner::new(&unstratified).err().unwrap();
    assert!(err.0.contains("stratified"), "{err}");
    let no_roles = parse("(init a)").unwrap();
    assert!(Reasoner::new(&no_roles).is_err());
}

/// The `.kif` files under `dir`, at any depth, sorted.
fn kif_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            if path.is_dir() {
                // The conformance suite's invalid sheets are refused on
                // purpose (`gdl_conformance.rs`).
                if path.file_name().is_some_and(|n| n != "invalid") {
                    todo.push(path);
                }
            } else if path.extension().is_some_and(|x| x == "kif") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every sheet of the repository's `gdl/` folder grounds, and random games
/// on it end in a terminal state.
#[test]
fn rule_sheets_in_the_repository() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../gdl");
    for path in kif_files(&dir) {
        let name = path.display();
        let sheet = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let start = std::time::Instant::now();
        let r = Reasoner::new(&sheet).unwrap_or_else(|e| panic!("{name}: {e}"));
        let built = start.elapsed();
        let mut rng = 12345u64;
        let (mut a, mut plies) = (Analysis::default(), 0);
        let start = std::time::Instant::now();
        for _ in 0..20 {
            let mut s = r.initial();
            for _ in 0..1000 {
                r.analyse(&s, &mut a);
                if a.terminal() {
                    break;
                }
                let joint: Vec<u32> = (0..r.roles().len())
                    .map(|role| {
                        rng = rng
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let l = a.legal(role);
                        assert!(!l.is_empty(), "{name}: role {role} has no legal move");
                        l[(rng >> 33) as usize % l.len()]
                    })
                    .collect();
                s = r.next(&s, &joint);
                plies += 1;
            }
            assert!(a.terminal(), "{name}: no end in 1000 moves");
            // Not every sheet gives every goal (buttons.kif gives one only
            // on a win); those it gives are GDL's.
            for role in 0..r.roles().len() {
                assert!(r.goal(&s, role).is_none_or(|g| g <= 100), "{name}");
            }
        }
        println!(
            "{name}: {} base facts, (atoms, rules) {:?}, built in {built:?}; 20 games, {plies} plies in {:?}",
            r.num_base(),
            r.size(),
            start.elapsed()
        );
    }
}

/// Connect 4 on 7×6 from the repository's sheet: no game ends before the
/// seventh move, so there are 7^d positions at depth d up to 7.
#[test]
fn connect4_perft() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../gdl/connect4-7x6.kif");
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let r = checked(&text);
    let mut counts = [0u64; 6];
    fn walk(r: &Reasoner, s: &Facts, depth: usize, max: usize, counts: &mut [u64]) {
        let mut a = Analysis::default();
        r.analyse(s, &mut a);
        if a.terminal() || depth == max {
            return;
        }
        for j in joints(&a, r.roles().len()) {
            counts[depth] += 1;
            walk(r, &r.next(s, &j), depth + 1, max, counts);
        }
    }
    walk(&r, &r.initial(), 0, 6, &mut counts);
    assert_eq!(counts, [7, 49, 343, 2401, 16807, 117649]);
}

/// Everything a state answers: terminal, legal moves, goals, and the state
/// after the first joint move.
fn answers(r: &Reasoner, s: &Facts) -> (Analysis, Vec<Option<u32>>, Option<Facts>) {
    let mut a = Analysis::default();
    r.analyse(s, &mut a);
    let goals = (0..r.roles().len()).map(|i| r.goal(s, i)).collect();
    let next = joints(&a, r.roles().len())
        .first()
        .filter(|_| !a.terminal())
        .map(|j| r.next(s, j));
    (a, goals, next)
}

#[test]
fn answers_do_not_depend_on_what_the_thread_asked_before() {
    // Each thread keeps one reasoner's values and updates them by what
    // changed since its last query: a thread that alternates two sheets
    // and jumps between unrelated states must answer as a fresh thread
    // asked about each state alone does.
    let sheets = [TICTACTOE, REACH, FEATURES, GROUND_STRATA];
    let reasoners: Vec<std::sync::Arc<Reasoner>> = sheets
        .iter()
        .map(|t| std::sync::Arc::new(checked(t)))
        .collect();
    let mut states: Vec<(usize, Facts)> = Vec::new();
    let mut seed = 7u64;
    for (i, r) in reasoners.iter().enumerate() {
        for _ in 0..4 {
            let mut s = r.initial();
            loop {
                states.push((i, s.clone()));
                let mut a = Analysis::default();
                r.analyse(&s, &mut a);
                let js = joints(&a, r.roles().len());
                if a.terminal() || js.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s = r.next(&s, &js[(seed >> 33) as usize % js.len()]);
            }
        }
    }
    // Interleave the sheets and scramble the order.
    for k in (1..states.len()).rev() {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        states.swap(k, (seed >> 33) as usize % (k + 1));
    }
    assert!(
        states.len() > 20 && states.iter().any(|s| s.0 == 0) && states.iter().any(|s| s.0 == 1)
    );
    for (i, s) in &states {
        let here = answers(&reasoners[*i], s);
        let (r, s2) = (reasoners[*i].clone(), s.clone());
        let fresh = std::thread::spawn(move || answers(&r, &s2)).join().unwrap();
        assert_eq!(
            here,
            fresh,
            "sheet {i}, state {:?}",
            state_strings(&reasoners[*i], s)
        );
    }
}
