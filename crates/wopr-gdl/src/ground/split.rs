//! Splitting a wide rule into narrow ones before it is grounded (variable
//! elimination): the grounder instantiates a rule once per match of its
//! whole body, so a body that chains many variables grounds into their
//! product even where each variable is read by a few literals only.
//!
//! A variable `v` that is not in the head is eliminated by moving the
//! literals that read it (its bucket) into a rule of their own, whose head
//! is a new relation over the bucket's variables that the rest of the rule
//! still reads (its interface); the bucket is replaced by that head. The
//! body
//!
//! ```text
//! (velx ?p ?dx) (posx ?p ?px) (pmone ?dx ?nx) (add ?px ?nx ?x) (track ?x ?y) …
//! ```
//!
//! grounds once per `(?dx, ?px, …)`; with `?dx` and then `?px` eliminated
//! it grounds once per interface tuple of each new rule instead.
//!
//! A variable is eliminated only where the new rule is safe (every
//! variable of its negative and `distinct` literals is bound by one of its
//! positive ones) and narrower than the rule it comes from (its bucket does
//! not read every variable of the rule); of those, the one with the
//! smallest interface goes first, and the split repeats on both rules.
//! Every other literal that reads only variables the new rule binds
//! (positive, negative or `distinct`) goes with it: it prunes the new
//! rule's join where its variables are bound, and the new relation holds
//! only where it does.
//!
//! The new relations are named with a space, which no sheet can write, and
//! two splits with the same new rule (up to the names of its variables)
//! share one relation: the alternatives of an `or` split alike.

use std::collections::HashMap;
use std::fmt::Write;

use crate::ast::{Atom, Sym, Term};

use super::normal::BLit;

/// Whether relation `name` is one a split made: its name holds a space,
/// which no sheet can write.
pub(super) fn is_new_relation(name: &str) -> bool {
    name.contains(' ')
}

/// Splits rules, naming the new relations; one per sheet.
#[derive(Default)]
pub(super) struct Splitter {
    /// The new relations by their rule's canonical text.
    names: HashMap<String, Sym>,
}

/// An elimination: the body literals that move (by index), the head
/// variables of the new rule and how many variables its body reads.
struct Elimination {
    bucket: Vec<usize>,
    interface: Vec<Sym>,
    width: usize,
}

impl Splitter {
    /// The rules that together define what `head <- body` does, `body` in
    /// disjunctive normal form with its equalities resolved: new rules
    /// first, `head`'s last.
    pub(super) fn split(&mut self, head: Atom, body: Vec<BLit>) -> Vec<(Atom, Vec<BLit>)> {
        let mut out = Vec::new();
        let mut work = vec![(head, body)];
        while let Some((head, body)) = work.pop() {
            let Some(e) = best_elimination(&head, &body) else {
                out.push((head, body));
                continue;
            };
            let (mut moved, mut rest) = (Vec::new(), Vec::new());
            for (i, l) in body.into_iter().enumerate() {
                if e.bucket.contains(&i) {
                    moved.push(l);
                } else {
                    rest.push(l);
                }
            }
            let key = canonical(&e.interface, &moved);
            let fresh = !self.names.contains_key(&key);
            let n = self.names.len();
            let rel = self
                .names
                .entry(key)
                .or_insert_with(|| Sym::from(format!("{} {n}", head.rel)))
                .clone();
            let args = e.interface.into_iter().map(Term::Var).collect();
            let new_head = Atom { rel, args };
            rest.push(BLit::Pos(new_head.clone()));
            work.push((head, rest));
            if fresh {
                work.push((new_head, moved));
            }
        }
        out
    }
}

/// `vars` without repeats, in order of first appearance.
fn unique<'a>(vars: impl IntoIterator<Item = &'a Sym>) -> Vec<&'a Sym> {
    let mut out = Vec::new();
    for v in vars {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The variable to eliminate from `head <- body` with the smallest
/// interface (then the most variables gone, then the first), if any may go.
fn best_elimination(head: &Atom, body: &[BLit]) -> Option<Elimination> {
    let mut head_vars = Vec::new();
    head.push_vars(&mut head_vars);
    let head_vars = unique(head_vars);
    let lit_vars: Vec<Vec<&Sym>> = body
        .iter()
        .map(|l| {
            let mut v = Vec::new();
            l.push_vars(&mut v);
            unique(v)
        })
        .collect();
    let all = unique(head_vars.iter().chain(lit_vars.iter().flatten()).copied());
    let mut best: Option<(usize, usize, Elimination)> = None;
    for v in all.iter().filter(|v| !head_vars.contains(v)) {
        let Some(e) = eliminate(v, &head_vars, body, &lit_vars, all.len()) else {
            continue;
        };
        let gone = e.width - e.interface.len();
        let score = (e.interface.len(), usize::MAX - gone);
        if best.as_ref().is_none_or(|(i, g, _)| score < (*i, *g)) {
            best = Some((score.0, score.1, e));
        }
    }
    best.map(|(_, _, e)| e)
}

/// The elimination of `v`, if it is safe and narrows the rule (its new
/// rule does not read all `num_vars` variables of the rule).
fn eliminate(
    v: &Sym,
    head_vars: &[&Sym],
    body: &[BLit],
    lit_vars: &[Vec<&Sym>],
    num_vars: usize,
) -> Option<Elimination> {
    let mut bucket: Vec<usize> = (0..body.len())
        .filter(|&i| lit_vars[i].contains(&v))
        .collect();
    let bound = unique(
        bucket
            .iter()
            .filter_map(|&i| match &body[i] {
                BLit::Pos(_) => Some(lit_vars[i].iter().copied()),
                _ => None,
            })
            .flatten(),
    );
    let safe = |i: usize| lit_vars[i].iter().all(|w| bound.contains(w));
    if !bound.contains(&v) || !bucket.iter().all(|&i| safe(i)) || bound.len() == num_vars {
        return None;
    }
    // The literals over its variables alone go with it: they prune its
    // join, and the new relation holds only where they do.
    for (i, vars) in lit_vars.iter().enumerate() {
        if !bucket.contains(&i) && !vars.is_empty() && safe(i) {
            bucket.push(i);
        }
    }
    bucket.sort_unstable();
    let outside = unique(
        head_vars.iter().copied().chain(
            (0..body.len())
                .filter(|i| !bucket.contains(i))
                .flat_map(|i| lit_vars[i].iter().copied()),
        ),
    );
    let width = bound.len();
    let interface = bound
        .into_iter()
        .filter(|w| outside.contains(w))
        .cloned()
        .collect();
    Some(Elimination {
        bucket,
        interface,
        width,
    })
}

/// The text of the rule `(interface) <- body` with its variables renamed
/// in order of first appearance, the interface first: equal for two rules
/// that differ only in the names of their variables.
fn canonical(interface: &[Sym], body: &[BLit]) -> String {
    let mut order: Vec<&Sym> = interface.iter().collect();
    body.iter().for_each(|l| l.push_vars(&mut order));
    let mut s = format!("{}:", interface.len());
    let term = |t: &Term, s: &mut String| write_term(t, &order, s);
    for l in body {
        let (tag, parts): (&str, Vec<&Term>) = match l {
            BLit::Pos(a) | BLit::Neg(a) => {
                let tag = if matches!(l, BLit::Pos(_)) { "+" } else { "-" };
                s.push_str(tag);
                s.push_str(&a.rel);
                (" ", a.args.iter().collect())
            }
            BLit::Dist(x, y) => ("!", vec![x, y]),
            BLit::Eq(x, y) => ("=", vec![x, y]),
        };
        s.push_str(tag);
        for t in parts {
            s.push('(');
            term(t, &mut s);
            s.push(')');
        }
        s.push(';');
    }
    s
}

fn write_term(t: &Term, order: &[&Sym], s: &mut String) {
    match t {
        Term::Const(c) => s.push_str(c),
        Term::Var(v) => {
            let i = order.iter().position(|&w| w == v).unwrap_or(usize::MAX);
            let _ = write!(s, "?{i}");
        }
        Term::Fn(f, args) => {
            s.push('(');
            s.push_str(f);
            for a in args {
                s.push(' ');
                write_term(a, order, s);
            }
            s.push(')');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(v: &str) -> Term {
        Term::Var(Sym::from(v))
    }

    fn atom(rel: &str, args: &[&str]) -> Atom {
        let args = args
            .iter()
            .map(|a| match a.strip_prefix('?') {
                Some(v) => var(v),
                None => Term::Const(Sym::from(*a)),
            })
            .collect();
        Atom {
            rel: Sym::from(rel),
            args,
        }
    }

    fn pos(rel: &str, args: &[&str]) -> BLit {
        BLit::Pos(atom(rel, args))
    }

    fn shape(rules: &[(Atom, Vec<BLit>)]) -> Vec<(usize, usize)> {
        rules.iter().map(|(h, b)| (h.args.len(), b.len())).collect()
    }

    #[test]
    fn a_chain_splits_into_one_rule_per_link() {
        // total(?t) <- g1(?a) g2(?b) sum(?a ?b ?s) g3(?c) sum(?s ?c ?t):
        // ?a's bucket is g1 and the first sum, and g2 goes with them (it
        // reads only ?b), so the interface is ?s alone: one new rule over
        // three variables, and total's over three.
        let body = vec![
            pos("g1", &["?a"]),
            pos("g2", &["?b"]),
            pos("sum", &["?a", "?b", "?s"]),
            pos("g3", &["?c"]),
            pos("sum", &["?s", "?c", "?t"]),
        ];
        let rules = Splitter::default().split(atom("total", &["?t"]), body);
        assert_eq!(shape(&rules), vec![(1, 3), (1, 3)]);
        let (last, _) = rules.last().unwrap();
        assert_eq!(&*last.rel, "total");
        for (h, b) in &rules {
            let mut vs = Vec::new();
            h.push_vars(&mut vs);
            b.iter().for_each(|l| l.push_vars(&mut vs));
            let vs = unique(vs);
            assert!(vs.len() <= 3, "{h:?} reads {vs:?}");
        }
    }

    #[test]
    fn a_body_where_every_variable_meets_every_other_is_kept() {
        // h(?x) <- a(?x ?y) b(?y ?x): eliminating ?y moves the whole body.
        let body = vec![pos("a", &["?x", "?y"]), pos("b", &["?y", "?x"])];
        let rules = Splitter::default().split(atom("h", &["?x"]), body);
        assert_eq!(shape(&rules), vec![(1, 2)]);
    }

    #[test]
    fn a_filter_goes_with_the_variables_it_reads_and_an_unsafe_one_stays() {
        // h(?x) <- a(?x ?y) b(?y ?z) not c(?z) distinct(?x ?z) d(?z):
        // the bucket of ?z is b, not c, d and distinct(?x ?z), which reads
        // ?x that only a binds: ?z cannot go alone. ?y's bucket (a, b)
        // reads every variable. So nothing splits.
        let body = vec![
            pos("a", &["?x", "?y"]),
            pos("b", &["?y", "?z"]),
            BLit::Neg(atom("c", &["?z"])),
            BLit::Dist(var("x"), var("z")),
            pos("d", &["?z"]),
        ];
        let rules = Splitter::default().split(atom("h", &["?x"]), body.clone());
        assert_eq!(shape(&rules), vec![(1, 5)]);
        // Without the distinct, ?z goes with b, d and not c: aux(?y).
        let mut body = body;
        body.remove(3);
        let rules = Splitter::default().split(atom("h", &["?x"]), body);
        assert_eq!(shape(&rules), vec![(1, 3), (1, 2)]);
        assert!(matches!(&rules[0].1[1], BLit::Neg(a) if &*a.rel == "c"));
    }

    #[test]
    fn alternatives_that_split_alike_share_the_new_relation() {
        let mut s = Splitter::default();
        let body = |f: &str| {
            vec![
                pos("p", &["?x"]),
                pos("q", &["?u", "?v"]),
                pos("r", &["?v", f]),
            ]
        };
        let one = s.split(atom("h", &["?x"]), body("k"));
        let two = s.split(atom("h", &["?x"]), body("k"));
        let three = s.split(atom("h", &["?x"]), body("m"));
        // The first defines the new relation; the second reuses it.
        assert_eq!(one.len(), 2);
        assert_eq!(two.len(), 1);
        assert_eq!(three.len(), 2);
        let reads = |r: &(Atom, Vec<BLit>), rel: &Sym| {
            r.1.iter()
                .any(|l| matches!(l, BLit::Pos(a) if &a.rel == rel))
        };
        assert!(reads(&two[0], &one[0].0.rel));
        assert_ne!(one[0].0.rel, three[0].0.rel);
        assert!(one[0].0.rel.contains(' '));
    }
}
