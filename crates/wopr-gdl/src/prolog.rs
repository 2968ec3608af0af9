//! A rule sheet as a Prolog program, the reference a GDL reasoner is
//! measured against: the way general game players long ran GDL (SLD
//! resolution over the rules, the state as asserted facts).
//!
//! [`to_prolog`] writes every relation `r` as `g_r` (so that no sheet name
//! meets a Prolog built-in such as `succ/2`), `(true X)` as `t(X)` and
//! `(does R M)` as `d(R, M)` (both asserted facts), `(distinct A B)` as
//! `A \== B`, `(not L)` as `\+ L`, `(or …)` as a disjunction; every constant
//! is a quoted atom (numbers included, as GDL reads them). Each rule body
//! puts its atoms and disjunctions first and its negations and `distinct`s
//! last, so that Prolog meets them with their variables bound, as GDL's
//! safety condition promises.
//!
//! The program ends with a random-playout driver: `wopr_bench(Seconds)`
//! plays uniformly random joint moves from the initial state to the end
//! (every role picks among its legal moves) for that long and prints the
//! playouts per second. `wopr gdl prolog SHEET > sheet.pl; swipl -g
//! 'wopr_bench(2)' -t halt sheet.pl` runs it.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

use super::ast::{Atom, Literal, Rule, Sheet, Term};

/// The Prolog program of `sheet`, with the playout driver.
pub fn to_prolog(sheet: &Sheet) -> String {
    let mut relations = BTreeSet::new();
    for rule in &sheet.rules {
        relations.insert((rule.head.rel.to_string(), rule.head.args.len()));
        for l in &rule.body {
            collect(l, &mut relations);
        }
    }
    let mut out = String::from("% Written by `wopr gdl prolog` from a GDL rule sheet.\n");
    out.push_str(":- dynamic t/1, d/2.\n");
    for (rel, arity) in &relations {
        if !matches!(rel.as_str(), "true" | "does") {
            let _ = writeln!(out, ":- dynamic {}/{arity}.", functor(rel));
        }
    }
    out.push_str(":- discontiguous ");
    let heads: Vec<String> = relations
        .iter()
        .filter(|(r, _)| !matches!(r.as_str(), "true" | "does"))
        .map(|(r, a)| format!("{}/{a}", functor(r)))
        .collect();
    out.push_str(&if heads.is_empty() {
        "t/1".to_string()
    } else {
        heads.join(", ")
    });
    out.push_str(".\n\n");
    for rule in &sheet.rules {
        out.push_str(&clause(rule));
        out.push('\n');
    }
    out.push_str(DRIVER);
    out
}

/// Every relation a literal names, with its arity.
fn collect(l: &Literal, out: &mut BTreeSet<(String, usize)>) {
    match l {
        Literal::Pos(a) => {
            out.insert((a.rel.to_string(), a.args.len()));
        }
        Literal::Not(inner) => collect(inner, out),
        Literal::Or(ls) => ls.iter().for_each(|l| collect(l, out)),
        Literal::Distinct(..) => {}
    }
}

/// A relation's Prolog functor.
fn functor(rel: &str) -> String {
    quote(&format!("g_{rel}"))
}

/// A name as a quoted Prolog atom.
fn quote(name: &str) -> String {
    format!("'{}'", name.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// One rule as a clause; variables are `V0`, `V1`, … per rule.
fn clause(rule: &Rule) -> String {
    let mut vars = HashMap::new();
    let head = atom(&rule.head, &mut vars);
    if rule.body.is_empty() {
        return format!("{head}.");
    }
    let (first, last): (Vec<&Literal>, Vec<&Literal>) = rule
        .body
        .iter()
        .partition(|l| matches!(l, Literal::Pos(_) | Literal::Or(_)));
    let body: Vec<String> = first
        .into_iter()
        .chain(last)
        .map(|l| literal(l, &mut vars))
        .collect();
    format!("{head} :- {}.", body.join(", "))
}

fn literal(l: &Literal, vars: &mut HashMap<String, usize>) -> String {
    match l {
        Literal::Pos(a) => atom(a, vars),
        Literal::Not(inner) => format!("\\+ ({})", literal(inner, vars)),
        Literal::Distinct(a, b) => format!("{} \\== {}", term(a, vars), term(b, vars)),
        Literal::Or(ls) => {
            let parts: Vec<String> = ls.iter().map(|l| literal(l, vars)).collect();
            format!("({})", parts.join(" ; "))
        }
    }
}

fn atom(a: &Atom, vars: &mut HashMap<String, usize>) -> String {
    let name = match &*a.rel {
        "true" => "t".to_string(),
        "does" => "d".to_string(),
        r => functor(r),
    };
    if a.args.is_empty() {
        return name;
    }
    let args: Vec<String> = a.args.iter().map(|t| term(t, vars)).collect();
    format!("{name}({})", args.join(", "))
}

fn term(t: &Term, vars: &mut HashMap<String, usize>) -> String {
    match t {
        Term::Const(c) => quote(c),
        Term::Var(v) => {
            let n = vars.len();
            format!("V{}", vars.entry(v.to_string()).or_insert(n))
        }
        Term::Fn(f, args) => {
            let args: Vec<String> = args.iter().map(|t| term(t, vars)).collect();
            format!("{}({})", quote(f), args.join(", "))
        }
    }
}

/// The random-playout driver appended to every program.
const DRIVER: &str = r#"
% Random playouts: every role picks uniformly among its legal moves.
wopr_pick(R, M) :- findall(X, 'g_legal'(R, X), L0), sort(L0, L), random_member(M, L).
wopr_assert_moves([], []).
wopr_assert_moves([R|Rs], [M|Ms]) :- assertz(d(R, M)), wopr_assert_moves(Rs, Ms).
wopr_loop(N, N) :- 'g_terminal', !.
wopr_loop(N0, N) :-
    findall(R, 'g_role'(R), Rs),
    maplist(wopr_pick, Rs, Ms),
    wopr_assert_moves(Rs, Ms),
    findall(X, 'g_next'(X), Xs0), sort(Xs0, Xs),
    retractall(t(_)), retractall(d(_, _)),
    forall(member(X, Xs), assertz(t(X))),
    N1 is N0 + 1,
    wopr_loop(N1, N).
wopr_playout(Steps) :-
    retractall(t(_)), retractall(d(_, _)),
    findall(X, 'g_init'(X), Xs0), sort(Xs0, Xs),
    forall(member(X, Xs), assertz(t(X))),
    wopr_loop(0, Steps).
wopr_bench(Seconds) :-
    set_random(seed(1)),
    get_time(T0),
    wopr_bench(T0, Seconds, 0, 0).
wopr_bench(T0, Seconds, Games, Steps) :-
    get_time(T), T - T0 >= Seconds, !,
    E is T - T0, Rate is Games / E, Per is Steps / max(Games, 1),
    format("~w playouts in ~3f s: ~1f playouts/s, ~2f joint moves per playout~n", [Games, E, Rate, Per]).
wopr_bench(T0, Seconds, Games, Steps) :-
    wopr_playout(S), G is Games + 1, S1 is Steps + S,
    wopr_bench(T0, Seconds, G, S1).
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn rules_become_clauses_with_negations_last() {
        let sheet = parse(
            "(role a) (succ 1 2)
             (<= (next (cell ?x)) (not (true (cell ?x))) (succ ?x ?y) (distinct ?x ?y))
             (<= terminal (or (true done) (does a stop)))",
        )
        .unwrap();
        let p = to_prolog(&sheet);
        assert!(p.contains("'g_role'('a')."));
        assert!(p.contains("'g_succ'('1', '2')."));
        assert!(p.contains(
            "'g_next'('cell'(V0)) :- 'g_succ'(V0, V1), \\+ (t('cell'(V0))), V0 \\== V1."
        ));
        assert!(p.contains("'g_terminal' :- (t('done') ; d('a', 'stop'))."));
        assert!(p.contains(":- dynamic 'g_succ'/2."));
    }
}
