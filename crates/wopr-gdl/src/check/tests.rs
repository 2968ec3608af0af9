//! Tests of the validity checks.

use super::*;
use crate::parse::parse;

/// A small valid game: two players race to press a button three times,
/// moving simultaneously; it uses `or`, `not`, `distinct` and a
/// recursive relation.
const GOOD: &str = "
    (role a) (role b)
    (succ 0 1) (succ 1 2) (succ 2 3)
    (<= (less ?x ?y) (succ ?x ?y))
    (<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))
    (init (count a 0)) (init (count b 0))
    (<= (legal ?r press) (role ?r))
    (<= (legal ?r wait) (role ?r))
    (<= (next (count ?r ?y)) (does ?r press) (true (count ?r ?x)) (succ ?x ?y))
    (<= (next (count ?r ?x)) (does ?r wait) (true (count ?r ?x)))
    (<= done (true (count ?r 3)))
    (<= terminal done)
    (<= (goal ?r 100) (true (count ?r 3)))
    (<= (goal ?r 0) (role ?r) (not (true (count ?r 3))))
    (<= (ahead ?r) (true (count ?r ?x)) (true (count ?s ?y)) (distinct ?r ?s) (less ?y ?x))
    (<= (level ?r) (role ?r) (or (ahead ?r) (not (distinct ?r a))))
    (<= (sees ?r (pressed ?s)) (does ?s press) (role ?r))
";

fn fails(text: &str) -> String {
    check(&parse(text).expect("parses")).unwrap_err().0
}

/// `GOOD` with `old` replaced by `new` (which must occur).
fn edited(old: &str, new: &str) -> String {
    assert!(GOOD.contains(old), "{old}");
    GOOD.replace(old, new)
}

#[test]
fn good_sheet_passes() {
    assert_eq!(check(&parse(GOOD).unwrap()), Ok(()));
}

#[test]
fn arities_are_fixed() {
    let m = fails(&edited("(succ 2 3)", "(succ 2 3 4)"));
    assert_eq!(
        m,
        "line 3: relation succ has 3 arguments in (succ 2 3 4), but 2 at line 3"
    );
    let m = fails(&edited("(init (count b 0))", "(init (count b))"));
    assert!(
        m.starts_with("line 6: function count has 1 argument in (init (count b))"),
        "{m}"
    );
    let m = fails(&edited("(<= terminal done)", "(<= (terminal x) done)"));
    assert!(
        m.starts_with("line 12: terminal takes 0 arguments, found 1"),
        "{m}"
    );
    let m = fails(&edited("(role b)", "(role b c)"));
    assert!(
        m.starts_with("line 2: role takes 1 argument, found 2"),
        "{m}"
    );
}

#[test]
fn keywords_in_their_places() {
    let m = fails(&edited("(<= done", "(<= (true done)"));
    assert!(
        m.starts_with("line 11: true cannot head a rule or fact"),
        "{m}"
    );
    let m = fails(&edited("(<= done", "(<= (does a done)"));
    assert!(m.starts_with("line 11: does cannot head"), "{m}");
    let m = fails(&edited("(<= done", "(<= (not done)"));
    assert!(m.starts_with("line 11: not cannot head"), "{m}");
    let m = fails(&edited("(role b)", "(<= (role b) (succ 0 1))"));
    assert!(
        m.starts_with("line 2: role must be given by ground facts only"),
        "{m}"
    );
    let m = fails(&edited(
        "(<= terminal done)",
        "(<= terminal (next (count a 3)))",
    ));
    assert!(
        m.starts_with("line 12: next cannot appear in a rule's body"),
        "{m}"
    );
    let m = fails(&edited(
        "(<= terminal done)",
        "(<= terminal (init (count a 3)))",
    ));
    assert!(m.starts_with("line 12: init cannot appear"), "{m}");
    let m = fails(&edited("(goal ?r 0)", "(goal ?r 101)"));
    assert!(m.starts_with("line 14: a goal value must be an integer from 0 to 100, found 101"));
}

#[test]
fn unsafe_rules() {
    let m = fails(&edited(
        "(<= terminal done)",
        "(<= (next (cell ?x ?y b)) (not (true (cell ?x ?y x))))",
    ));
    assert_eq!(
        m,
        "line 12: unsafe rule (<= (next (cell ?x ?y b)) (not (true (cell ?x ?y x)))): \
         variable ?x appears in no positive literal"
    );
    // A variable of a distinct.
    let m = fails(&edited("(distinct ?r ?s)", "(distinct ?r ?t)"));
    assert!(
        m.contains("variable ?t appears in no positive literal"),
        "{m}"
    );
    // A non-ground fact.
    let m = fails(&edited("(succ 0 1)", "(succ 0 ?n)"));
    assert!(
        m.starts_with("line 3: unsafe rule (succ 0 ?n): variable ?n"),
        "{m}"
    );
    // An `or` binds only what all its branches bind …
    let m = fails(&edited(
        "(<= terminal done)",
        "(<= (won ?r) (or (true (count ?r 3)) done))",
    ));
    assert!(
        m.contains("variable ?r appears in no positive literal"),
        "{m}"
    );
    let ok = edited(
        "(<= terminal done)",
        "(<= terminal (or (true (count ?r 3)) (or (true (count ?r 2)) (true (count a ?r))) done))\n\
         (<= (won ?r) (or (true (count ?r 3)) (or (true (count ?r 2)) (true (count a ?r)))))",
    );
    assert_eq!(check(&parse(&ok).unwrap()), Ok(()));
    // … and a negated or distinct branch still needs its variables.
    let m = fails(&edited("(not (distinct ?r a))", "(not (distinct ?q a))"));
    assert!(m.contains("variable ?q appears"), "{m}");
}

#[test]
fn required_relations() {
    let m = fails("(init a) (<= (legal p x) (true a)) (<= (next a) (true a)) terminal (goal p 0)");
    assert_eq!(
        m,
        "the sheet has no role fact: a game needs at least one (role name)"
    );
    let m = fails(&edited("(<= terminal done)", ""));
    assert!(m.contains("no rule or fact for terminal"), "{m}");
    let m = fails(&GOOD.replace("(legal ", "(allowed "));
    assert!(m.contains("no rule or fact for legal"), "{m}");
    // `init` and `next` may be empty (the specification requires neither
    // to have a rule): a game of the empty state.
    let empty = "(role p) (legal p go) (<= terminal (does p go)) (goal p 100)";
    assert!(fails(empty).contains("terminal must not depend on does"));
    let empty = "(role p) (legal p go) (<= terminal (not (true on))) (goal p 100)";
    assert_eq!(check(&parse(empty).unwrap()), Ok(()));
}

/// `base` and `input` list every possible state fact and move: they may
/// not depend on the position or the moves.
#[test]
fn base_and_input_are_fixed_lists() {
    let with = |extra: &str| format!("{GOOD}\n{extra}");
    let ok =
        with("(<= (base (count ?r ?x)) (role ?r) (succ ?x ?y)) (<= (input ?r press) (role ?r))");
    assert_eq!(check(&parse(&ok).unwrap()), Ok(()));
    let m = fails(&with("(<= (base (count ?r ?x)) (true (count ?r ?x)))"));
    assert!(
        m.contains("base lists every possible state fact and must not depend on true or does"),
        "{m}"
    );
    let m = fails(&with("(<= (input ?r press) (role ?r) done)"));
    assert!(
        m.contains("input lists every possible move") && m.contains("done, which depends on true"),
        "{m}"
    );
}

/// The relation-level condition, which [`check`] leaves to [`stratified`]
/// (and, for a sheet that passes `check` without it, to the reasoner's
/// ground atoms).
fn unstratified(text: &str) -> String {
    let sheet = parse(text).expect("parses");
    assert_eq!(check(&sheet), Ok(()), "check leaves stratification out");
    stratified(&sheet).unwrap_err().0
}

#[test]
fn negation_must_be_stratified_over_relations() {
    assert_eq!(stratified(&parse(GOOD).unwrap()), Ok(()));
    let m = unstratified(&edited(
        "(<= terminal done)",
        "(<= terminal done)\n(<= (odd ?x) (succ ?y ?x) (not (odd ?y)))",
    ));
    assert_eq!(
        m,
        "line 13: negation in a cycle, in (<= (odd ?x) (succ ?y ?x) (not (odd ?y))): \
         odd depends on its own negation"
    );
    let m = unstratified(&edited(
        "(<= terminal done)",
        "(<= terminal done)\n(<= (p ?x) (succ ?x ?y) (q ?y))\n(<= (q ?y) (succ ?x ?y) (not (p ?x)))",
    ));
    assert!(m.starts_with("line 14: negation in a cycle"), "{m}");
}

#[test]
fn recursion_restriction() {
    // In GOOD, ?z of (less ?y ?z) is an argument of the head and ?y one
    // of succ, outside the recursion: fine. Here ?y is bound only by
    // the recursive literals themselves.
    let m = fails(&edited(
        "(<= terminal done)",
        "(<= terminal done)\n(<= (far ?x ?y) (succ ?x ?y))\n(<= (far ?x ?z) (far ?x ?y) (far ?y ?z))",
    ));
    assert!(
        m.starts_with("line 14: recursion restriction broken in (<= (far ?x ?z)")
            && m.contains("argument ?y of far"),
        "{m}"
    );
    // Counting with a function term builds ever larger terms: ?x is
    // not an argument of the head, only inside one.
    let m = fails(&edited(
        "(<= terminal done)",
        "(<= terminal done)\n(num 0)\n(<= (num (s ?x)) (num ?x))",
    ));
    assert!(
        m.starts_with("line 14: recursion restriction broken"),
        "{m}"
    );
    assert!(m.contains("argument ?x of num"), "{m}");
}

#[test]
fn moves_stay_out_of_views() {
    let m = fails(&edited(
        "(<= terminal done)",
        "(<= terminal done (pressed))\n(<= pressed (does a press))",
    ));
    assert_eq!(
        m,
        "line 12: terminal must not depend on does, but (<= terminal done pressed) uses \
         pressed, which depends on does"
    );
    let m = fails(&edited(
        "(<= (legal ?r wait) (role ?r))",
        "(<= (legal ?r wait) (does ?r press))",
    ));
    assert!(
        m.starts_with("line 8: legal must not depend on does, but"),
        "{m}"
    );
    assert!(m.ends_with("uses does"), "{m}");
}

#[test]
fn init_is_fixed() {
    let m = fails(&edited(
        "(init (count b 0))",
        "(<= (init (count b 0)) (true (count a 0)))",
    ));
    assert!(
        m.starts_with("line 6: init must not depend on true, does, next, legal, goal or terminal")
            && m.ends_with("uses true"),
        "{m}"
    );
    let m = fails(&edited(
        "(init (count b 0))",
        "(<= (init (count b 0)) done)",
    ));
    assert!(m.ends_with("uses done, which depends on true"), "{m}");
}

#[test]
fn long_rules_are_cut() {
    let long = format!(
        "(<= (legal ?r {}) (role ?r) (not (true ?q)))",
        "x".repeat(200)
    );
    let m = fails(&edited("(<= (legal ?r wait) (role ?r))", &long));
    assert!(m.contains('…') && m.chars().count() < 200, "{m}");
}
