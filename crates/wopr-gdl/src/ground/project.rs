//! The argument projections of the relations answered on demand, for the
//! last pass of grounding's fallback ([`super::demand`]).
//!
//! The relaxed fixpoint leaves out the rules of a relation answered on
//! demand only where every positive literal reading it has its variables
//! bound elsewhere in the rule: taken as holding, such a literal adds no
//! value to any variable. Mummymaze's mummy moves toward the explorer:
//! `(movetoward ?x ?y ?ex ?ey ?m1)` binds the move `?m1` from
//! `direction-from`, which relates every two squares of a 51-number range
//! to a direction, some seven million tuples, though a position asks about
//! one. Its possible atoms pass the budget, and it cannot be left out.
//!
//! The last pass leaves out every relation answered on demand and puts, in
//! place of a positive literal over one, `(R #j tⱼ)` for each of its
//! arguments `tⱼ` holding a variable: the values argument `j` of `R` can
//! take. Those come from rules over such one-argument relations alone:
//! each rule of `R`, its body's positive literals cut into one literal per
//! argument the same way (`(S #j tⱼ)`, with `(S #j ?v) <= (S ?v₁ … ?vₖ)`
//! where `S` is evaluated bottom-up), and for argument `i` of the head
//! only the literals linked to `hᵢ` through shared variables kept.
//! Dropping literals (negations, `distinct`, the unlinked ones) and cutting
//! the links between arguments can only add values, so the possible atoms
//! found stay a superset of those that can hold, as the non-ground
//! evaluator needs; a join over one-argument relations is cheap. The
//! names hold a space, which no sheet's can, and their atoms are dropped
//! with the split relations' ([`super::split::is_new_relation`]).

use std::collections::HashSet;

use crate::ast::{Atom, Literal, Rule, Sheet, Sym, Term};

use super::demand::{alternatives, key, RelKey};

/// The relation of the values argument `j` (from 0) of `rel` can take.
fn name(rel: &str, j: usize) -> Sym {
    Sym::from(format!("{rel} #{j}"))
}

fn vars(t: &Term) -> HashSet<Sym> {
    let mut out = HashSet::new();
    super::demand::vars(t, &mut out);
    out
}

/// What stands for the positive literal `a`: one literal per argument
/// holding a variable, over the values that argument can take.
pub(super) fn literals(a: &Atom) -> Vec<Atom> {
    a.args
        .iter()
        .enumerate()
        .filter(|(_, t)| !vars(t).is_empty())
        .map(|(j, t)| Atom {
            rel: name(&a.rel, j),
            args: vec![t.clone()],
        })
        .collect()
}

/// The rules of the projections of every relation of `called`, and of the
/// relations evaluated bottom-up that their rules read; empty if a body
/// does not expand (an error reported elsewhere).
pub(super) fn rules(sheet: &Sheet, called: &HashSet<RelKey>) -> Vec<Rule> {
    let Some(alts) = alternatives(sheet) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // The relations evaluated bottom-up whose projections are read, and
    // the line of a rule that reads each (for errors).
    let mut read: Vec<(RelKey, usize)> = Vec::new();
    for alt in alts.iter().filter(|a| called.contains(&key(&a.head))) {
        let cut: Vec<Atom> = alt.pos.iter().flat_map(literals).collect();
        for a in &alt.pos {
            let k = key(a);
            if !called.contains(&k) && !a.args.is_empty() && !read.iter().any(|(r, _)| *r == k) {
                read.push((k, alt.line));
            }
        }
        for (i, h) in alt.head.args.iter().enumerate() {
            let mut linked = vars(h);
            let mut body: Vec<&Atom> = Vec::new();
            loop {
                let before = body.len();
                for a in &cut {
                    let vs = vars(&a.args[0]);
                    if !body.contains(&a) && !vs.is_disjoint(&linked) {
                        linked.extend(vs);
                        body.push(a);
                    }
                }
                if body.len() == before {
                    break;
                }
            }
            out.push(Rule {
                head: Atom {
                    rel: name(&alt.head.rel, i),
                    args: vec![h.clone()],
                },
                body: body.into_iter().cloned().map(Literal::Pos).collect(),
                line: alt.line,
            });
        }
    }
    for ((rel, arity), line) in read {
        let args: Vec<Term> = (0..arity)
            .map(|j| Term::Var(Sym::from(format!("v{j}"))))
            .collect();
        for (j, v) in args.iter().enumerate() {
            out.push(Rule {
                head: Atom {
                    rel: name(&rel, j),
                    args: vec![v.clone()],
                },
                body: vec![Literal::Pos(Atom {
                    rel: rel.clone(),
                    args: args.clone(),
                })],
                line,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn text(rules: &[Rule]) -> Vec<String> {
        let mut out: Vec<String> = rules
            .iter()
            .map(|r| {
                let body: Vec<String> = r.body.iter().map(|l| format!("{l}")).collect();
                format!("{} <= {}", r.head, body.join(" "))
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn each_argument_keeps_only_the_literals_linked_to_it() {
        // `dir` is answered on demand: its direction (argument 2) depends
        // on `comb` alone once the arguments are cut apart, its squares
        // on `less`; `less` is evaluated bottom-up, so its projections are
        // read from its atoms.
        let sheet = parse(
            "(less 1 2) (comb a b c)
             (<= (dir ?x ?y ?d) (less ?x ?y) (comb ?d1 ?d2 ?d) (not (less ?y ?x)))",
        )
        .unwrap();
        let called: HashSet<RelKey> = [(Sym::from("dir"), 3)].into_iter().collect();
        assert_eq!(
            text(&rules(&sheet, &called)),
            [
                "(comb #0 ?v0) <= (comb ?v0 ?v1 ?v2)",
                "(comb #1 ?v1) <= (comb ?v0 ?v1 ?v2)",
                "(comb #2 ?v2) <= (comb ?v0 ?v1 ?v2)",
                "(dir #0 ?x) <= (less #0 ?x)",
                "(dir #1 ?y) <= (less #1 ?y)",
                "(dir #2 ?d) <= (comb #2 ?d)",
                "(less #0 ?v0) <= (less ?v0 ?v1)",
                "(less #1 ?v1) <= (less ?v0 ?v1)",
            ]
        );
        // A literal reading it stands for one literal per argument with a
        // variable.
        let a = parse("(dir 1 ?y ?d)").unwrap().rules[0].head.clone();
        let got: Vec<String> = literals(&a).iter().map(|a| format!("{a}")).collect();
        assert_eq!(got, ["(dir #1 ?y)", "(dir #2 ?d)"]);
    }
}
