//! A rule's body in disjunctive normal form: `or` expanded, `not` pushed
//! inwards (De Morgan), `(not (distinct s t))` as the equality `s = t`, and
//! the unification that solves those equalities.

use std::collections::HashMap;

use crate::ast::{Atom, Literal, Sym, Term};
use crate::GdlError;

/// The most conjunctions a rule's body may expand into through `or`.
const MAX_ALTERNATIVES: usize = 4096;

/// A substitution of terms for variables.
pub(crate) type Subst = HashMap<Sym, Term>;

/// A literal of a body in disjunctive normal form.
#[derive(Clone)]
pub(crate) enum BLit {
    Pos(Atom),
    Neg(Atom),
    Dist(Term, Term),
    Eq(Term, Term),
}

impl BLit {
    /// Pushes the literal's variables to `out`, in order of appearance,
    /// with repeats.
    pub(crate) fn push_vars<'a>(&'a self, out: &mut Vec<&'a Sym>) {
        match self {
            BLit::Pos(a) | BLit::Neg(a) => a.push_vars(out),
            BLit::Dist(x, y) | BLit::Eq(x, y) => {
                x.push_vars(out);
                y.push_vars(out);
            }
        }
    }
}

/// A literal in disjunctive normal form (under `neg` negations): its
/// alternatives, each a conjunction.
pub(crate) fn dnf(l: &Literal, neg: bool, line: usize) -> Result<Vec<Vec<BLit>>, GdlError> {
    Ok(match l {
        Literal::Pos(a) if neg => vec![vec![BLit::Neg(a.clone())]],
        Literal::Pos(a) => vec![vec![BLit::Pos(a.clone())]],
        Literal::Distinct(x, y) if neg => vec![vec![BLit::Eq(x.clone(), y.clone())]],
        Literal::Distinct(x, y) => vec![vec![BLit::Dist(x.clone(), y.clone())]],
        Literal::Not(inner) => dnf(inner, !neg, line)?,
        Literal::Or(ls) if neg => {
            let mut alts = vec![Vec::new()];
            for l in ls {
                alts = product(&alts, &dnf(l, true, line)?, line)?;
            }
            alts
        }
        Literal::Or(ls) => {
            let mut alts = Vec::new();
            for l in ls {
                alts.extend(dnf(l, false, line)?);
                if alts.len() > MAX_ALTERNATIVES {
                    return Err(too_many(line));
                }
            }
            alts
        }
    })
}

fn too_many(line: usize) -> GdlError {
    GdlError(format!(
        "line {line}: the rule's `or`s expand into more than {MAX_ALTERNATIVES} rules"
    ))
}

/// Every conjunction of one alternative of `a` and one of `b`.
pub(crate) fn product(
    a: &[Vec<BLit>],
    b: &[Vec<BLit>],
    line: usize,
) -> Result<Vec<Vec<BLit>>, GdlError> {
    if a.len() * b.len() > MAX_ALTERNATIVES {
        return Err(too_many(line));
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            out.push(x.iter().chain(y).cloned().collect());
        }
    }
    Ok(out)
}

fn walk<'a>(mut t: &'a Term, s: &'a HashMap<Sym, Term>) -> &'a Term {
    while let Term::Var(v) = t {
        match s.get(v) {
            Some(u) => t = u,
            None => break,
        }
    }
    t
}

/// `t` with the substitution applied all through.
pub(crate) fn resolve(t: &Term, s: &HashMap<Sym, Term>) -> Term {
    match walk(t, s) {
        Term::Fn(f, args) => Term::Fn(f.clone(), args.iter().map(|a| resolve(a, s)).collect()),
        other => other.clone(),
    }
}

fn occurs(v: &Sym, t: &Term, s: &HashMap<Sym, Term>) -> bool {
    match walk(t, s) {
        Term::Var(w) => w == v,
        Term::Const(_) => false,
        Term::Fn(_, args) => args.iter().any(|a| occurs(v, a, s)),
    }
}

/// Unifies `a` and `b`, extending `s` (with the occurs check: a term never
/// equals a bigger one).
pub(crate) fn unify(a: &Term, b: &Term, s: &mut HashMap<Sym, Term>) -> bool {
    let (a, b) = (walk(a, s).clone(), walk(b, s).clone());
    match (&a, &b) {
        (Term::Var(x), Term::Var(y)) if x == y => true,
        (Term::Var(x), t) | (t, Term::Var(x)) => {
            if occurs(x, t, s) {
                return false;
            }
            s.insert(x.clone(), t.clone());
            true
        }
        (Term::Const(x), Term::Const(y)) => x == y,
        (Term::Fn(f, xs), Term::Fn(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| unify(x, y, s))
        }
        _ => false,
    }
}

/// `a` with the substitution `s` applied.
pub(crate) fn resolve_atom(a: &Atom, s: &HashMap<Sym, Term>) -> Atom {
    Atom {
        rel: a.rel.clone(),
        args: a.args.iter().map(|t| resolve(t, s)).collect(),
    }
}

/// `l` with the substitution `s` applied.
pub(crate) fn resolve_lit(l: BLit, s: &HashMap<Sym, Term>) -> BLit {
    match l {
        BLit::Pos(a) => BLit::Pos(resolve_atom(&a, s)),
        BLit::Neg(a) => BLit::Neg(resolve_atom(&a, s)),
        BLit::Dist(x, y) => BLit::Dist(resolve(&x, s), resolve(&y, s)),
        BLit::Eq(x, y) => BLit::Eq(resolve(&x, s), resolve(&y, s)),
    }
}
