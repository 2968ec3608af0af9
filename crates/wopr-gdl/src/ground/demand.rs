//! The relations a sheet too large to ground answers on demand.
//!
//! Chess's `threatened_with_capture` (a player, the square captured on,
//! the square threatened and the square moved from: seven arguments) and
//! the `…_threatens` relations under it are the largest of their sheet:
//! their possible atoms alone pass the default budget, and evaluating
//! them bottom-up at every position derives hundreds of thousands of
//! atoms, though a position asks about a few dozen tuples. So the
//! non-ground evaluator ([`crate::nonground`]) answers such a
//! relation as a *call*: once a literal's arguments are all bound, whether
//! one of the relation's rules, its head matched with them, has a body
//! that holds (its own positive literals over such relations calls too);
//! a call repeated in one query is answered from a table, and a call that
//! is already being answered higher up fails there (a proof never needs
//! to prove an atom in order to prove it).
//!
//! A relation is answered so when, in the rules' disjunctive normal form:
//! - it is dynamic (it depends on `true` or `does`: a static one is
//!   evaluated once and costs nothing later; but see below for a static
//!   relation too large to hold), and not one the reasoner
//!   reads whole (`legal`, `next`, `goal`, `terminal`, `sees`, `init`,
//!   `base`, `input`, `role`);
//! - every literal reading it has only variables and constants as
//!   arguments (so that a call is a tuple of terms);
//! - a positive literal reading it, placed as the non-ground evaluator's
//!   planner places it, has its variables bound before it (by the head if
//!   the rule's own relation is answered so, by the literals evaluated
//!   bottom-up, by earlier calls), or else it enumerates the relation's
//!   tuples; a recursive relation so only with an argument bound, else it
//!   is better evaluated bottom-up (merrills's `count_loop`, which counts
//!   the stones along the board's pits, is read with its first four
//!   arguments bound and its two counts free);
//! - the relations that read it and that it reads in a cycle are answered
//!   so too (no stratum mixes both ways).
//!
//! When grounding falls back to the possible atoms alone, its fixpoint
//! first leaves out the rules of the relations answered on demand whose
//! possible atoms no other relation needs: those read under `not` alone,
//! then those read positively only by the rules left out so. They add
//! nothing to what it finds for any other (it ignores negation), so the
//! possible atoms stay those of the grounded reasoner. Chess's
//! `threatened_with_capture` is left out so, and with it the
//! `king_threatens` and `knight_threatens` that only it and `threatened`
//! read.
//! If that passes the budget too, the fixpoint runs once more, relaxed:
//! it leaves out the rules of the relations answered on demand whose
//! every positive reader (among the rules it runs) binds their arguments
//! elsewhere, and takes those literals as holding, which can only add
//! possible atoms (and may make joins larger: taking chess's
//! `blocks_rook_threat` as holding makes one legal rule join 11 million
//! matches, which is why this comes second).
//!
//! If the relaxed fixpoint passes the budget too, at a rule of a static
//! relation, that relation and the static relations that read it are
//! counted as dynamic ones above ([`too_large`]), and the fallback runs
//! again, while that answers more relations on demand than before. So
//! sudoku's `exactlyFirst` (ten digits, every two of the last nine
//! differing from the first: some 151 million tuples) and `exactlyOne`
//! over it are answered by calls, which the rules of the board make with
//! all ten arguments bound by `true` facts.
//!
//! Where the relaxed fixpoint still passes the budget, a third pass leaves
//! out the rules of every relation answered on demand, each literal reading
//! one cut into the values its arguments can take
//! ([`super::project`]): mummymaze's `direction-from`, read with its
//! direction free.

use std::collections::{HashMap, HashSet};

use crate::ast::{Atom, Sheet, Sym, Term};

use super::normal::{dnf, product, resolve, unify, BLit, Subst};

/// The relations the reasoner reads whole, and the inputs.
const KEPT: [&str; 11] = [
    "legal", "next", "goal", "terminal", "sees", "init", "base", "input", "role", "true", "does",
];

/// A relation: its name and arity.
pub(crate) type RelKey = (Sym, usize);

/// The relations a sheet answers on demand ([`on_demand`]).
#[derive(Default, Debug, PartialEq, Eq)]
pub(crate) struct Demand {
    /// Every relation the non-ground evaluator answers on demand.
    pub(crate) called: HashSet<RelKey>,
    /// Those of them whose rules grounding's fallback leaves out, their
    /// positive literals taken as holding: every positive literal reading
    /// one, in a rule that is not left out, has its variables bound by the
    /// rule's positive literals over relations that are not left out.
    pub(crate) left_out: HashSet<RelKey>,
    /// Those of them whose possible atoms no other relation needs: every
    /// positive literal reading one is in a rule of such a relation (or
    /// none is: chess's `threatened_with_capture`, read under `not` alone).
    /// Leaving their rules out changes no other relation's possible atoms.
    pub(crate) unneeded: HashSet<RelKey>,
}

/// One alternative of a rule's body, unified.
pub(super) struct Alt {
    pub(super) head: Atom,
    pub(super) pos: Vec<Atom>,
    pub(super) neg: Vec<Atom>,
    /// The line of the rule's start.
    pub(super) line: usize,
}

pub(super) fn key(a: &Atom) -> RelKey {
    (a.rel.clone(), a.args.len())
}

/// The relations of `sheet` answered on demand when it is not grounded
/// (the module docs say which), the static relations of `also` counted
/// as dynamic ones ([`too_large`]). A sheet whose rules do not expand (an
/// error reported elsewhere) answers none.
pub(crate) fn on_demand(sheet: &Sheet, also: &HashSet<RelKey>) -> Demand {
    let Some(alts) = alternatives(sheet) else {
        return Demand::default();
    };
    let (deps, complex) = dependencies(&alts);
    let mut dynamic = reaching(&deps, [("true", 1), ("does", 2)]);
    dynamic.extend(also.iter().cloned());
    let recursive: HashSet<RelKey> = deps
        .iter()
        .filter(|(rel, reads)| {
            let reach = reaching(&deps, [(&*rel.0, rel.1)]);
            reads.iter().any(|r| reach.contains(r))
        })
        .map(|(rel, _)| rel.clone())
        .collect();
    let candidates: HashSet<RelKey> = dynamic
        .into_iter()
        .filter(|k| !complex.contains(k) && !KEPT.contains(&&*k.0))
        .collect();
    // Answered on demand: a recursive relation only with an argument
    // bound, by the head, by literals evaluated bottom-up, or by calls
    // that enumerate.
    let mut called = candidates;
    loop {
        let before = called.len();
        called = fixpoint(&alts, &deps, called, |_, _| true);
        if let Some(r) = unbound_recursive_call(&alts, &called, &recursive) {
            called.remove(&r);
        }
        if called.len() == before {
            break;
        }
    }
    let left_out = left_out(&alts, called.clone());
    // Needed: the possible atoms of every relation that is not called,
    // and of every called one that a rule of a needed relation reads
    // positively.
    let mut needed: HashSet<RelKey> = alts
        .iter()
        .map(|a| key(&a.head))
        .filter(|k| !called.contains(k))
        .collect();
    loop {
        let before = needed.len();
        for alt in &alts {
            if needed.contains(&key(&alt.head)) {
                needed.extend(alt.pos.iter().map(key));
            }
        }
        if needed.len() == before {
            break;
        }
    }
    let unneeded = called.difference(&needed).cloned().collect();
    Demand {
        called,
        left_out,
        unneeded,
    }
}

/// Per relation, those its rules read; and the relations read with a
/// function term as an argument.
fn dependencies(alts: &[Alt]) -> (HashMap<RelKey, HashSet<RelKey>>, HashSet<RelKey>) {
    let mut deps: HashMap<RelKey, HashSet<RelKey>> = HashMap::new();
    let mut complex: HashSet<RelKey> = HashSet::new();
    for alt in alts {
        let d = deps.entry(key(&alt.head)).or_default();
        for a in alt.pos.iter().chain(&alt.neg) {
            d.insert(key(a));
            if a.args.iter().any(|t| matches!(t, Term::Fn(..))) {
                complex.insert(key(a));
            }
        }
    }
    (deps, complex)
}

/// The static relations to answer on demand because the possible atoms
/// of one of them passed the budget at rule `line`: the static relations
/// with a rule there, and every static relation that reads one of them,
/// directly or not (a relation is answered on demand only if its readers
/// bind its arguments, and a static reader binds them only if it is
/// answered so too; [`on_demand`] keeps those that qualify). Sudoku's
/// `exactlyFirst` (ten digits, about 151 million true tuples) is read by
/// `exactlyOne` alone, which the rules of the board read with its ten
/// arguments bound: answered so, a position asks for a few hundred
/// tuples.
pub(crate) fn too_large(sheet: &Sheet, line: usize) -> HashSet<RelKey> {
    let Some(alts) = alternatives(sheet) else {
        return HashSet::new();
    };
    let (deps, _) = dependencies(&alts);
    let dynamic = reaching(&deps, [("true", 1), ("does", 2)]);
    let at_line = sheet
        .rules
        .iter()
        .filter(|r| r.line == line)
        .map(|r| (r.head.rel.clone(), r.head.args.len()))
        .filter(|k| !dynamic.contains(k));
    let targets: Vec<RelKey> = at_line.collect();
    reaching(&deps, targets.iter().map(|(n, a)| (&**n, *a)))
        .into_iter()
        .filter(|k| !dynamic.contains(k) && !KEPT.contains(&&*k.0))
        .collect()
}

/// The greatest subset of `set` whose rules the relaxed fixpoint can
/// leave out ([`Demand::left_out`]).
fn left_out(alts: &[Alt], mut set: HashSet<RelKey>) -> HashSet<RelKey> {
    loop {
        let before = set.len();
        for alt in alts {
            if set.contains(&key(&alt.head)) {
                continue;
            }
            let mut bound = HashSet::new();
            for a in alt.pos.iter().filter(|a| !set.contains(&key(a))) {
                a.args.iter().for_each(|t| vars(t, &mut bound));
            }
            for a in &alt.pos {
                let mut vs = HashSet::new();
                a.args.iter().for_each(|t| vars(t, &mut vs));
                if !vs.is_subset(&bound) {
                    set.remove(&key(a));
                }
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// The greatest subset of `set` in which each relation read by a positive
/// literal has that literal's variables bound by the head (in a rule of a
/// relation of the set), by positive literals over relations outside the
/// set, or by those over relations for which `binds` holds; and in which
/// no relation is in a cycle with one outside the set.
fn fixpoint(
    alts: &[Alt],
    deps: &HashMap<RelKey, HashSet<RelKey>>,
    mut set: HashSet<RelKey>,
    binds: impl Fn(&RelKey, &HashSet<RelKey>) -> bool,
) -> HashSet<RelKey> {
    loop {
        let before = set.len();
        for alt in alts {
            let mut bound = HashSet::new();
            if set.contains(&key(&alt.head)) {
                alt.head.args.iter().for_each(|t| vars(t, &mut bound));
            }
            for a in &alt.pos {
                let k = key(a);
                if !set.contains(&k) || binds(&k, &set) {
                    a.args.iter().for_each(|t| vars(t, &mut bound));
                }
            }
            let unbound: Vec<RelKey> = alt
                .pos
                .iter()
                .filter(|a| set.contains(&key(a)) && !binds(&key(a), &set))
                .filter(|a| {
                    let mut vs = HashSet::new();
                    a.args.iter().for_each(|t| vars(t, &mut vs));
                    !vs.is_subset(&bound)
                })
                .map(key)
                .collect();
            unbound.iter().for_each(|k| {
                set.remove(k);
            });
        }
        // A relation in a cycle with one outside the set is not in it.
        let mut drop = Vec::new();
        for (rel, reads) in deps.iter().filter(|(r, _)| !set.contains(*r)) {
            let mut reach = None;
            for r in reads.iter().filter(|r| set.contains(*r)) {
                let reach = reach.get_or_insert_with(|| reaching(deps, [(&*rel.0, rel.1)]));
                if reach.contains(r) {
                    drop.push(r.clone());
                }
            }
        }
        drop.iter().for_each(|r| {
            set.remove(r);
        });
        if set.len() == before {
            return set;
        }
    }
}

/// A recursive relation of `called` that some rule would call with every
/// argument unbound, the literals placed as the non-ground evaluator's
/// planner places them: those over other relations first, then in the
/// body's order each call whose arguments are bound, else the first over
/// a relation that is not recursive, else the first with an argument
/// bound, which enumerates its tuples and binds its variables (a
/// recursive relation read with nothing bound is better evaluated
/// bottom-up). A rule of a relation of `called` runs once for each way
/// its head is called (which arguments are bound), from the rules of the
/// relations evaluated bottom-up.
fn unbound_recursive_call(
    alts: &[Alt],
    called: &HashSet<RelKey>,
    recursive: &HashSet<RelKey>,
) -> Option<RelKey> {
    let mut seen: HashSet<(RelKey, Vec<bool>)> = HashSet::new();
    let mut todo: Vec<(Option<RelKey>, Vec<bool>)> = vec![(None, Vec::new())];
    while let Some((rel, mask)) = todo.pop() {
        let rules = alts.iter().filter(|a| match &rel {
            None => !called.contains(&key(&a.head)),
            Some(r) => key(&a.head) == *r,
        });
        for alt in rules {
            let mut bound = HashSet::new();
            for (t, _) in alt.head.args.iter().zip(&mask).filter(|(_, &m)| m) {
                vars(t, &mut bound);
            }
            let mut left = Vec::new();
            for a in &alt.pos {
                match called.contains(&key(a)) {
                    true => left.push(a),
                    false => a.args.iter().for_each(|t| vars(t, &mut bound)),
                }
            }
            while !left.is_empty() {
                let given = |t: &Term| term_bound(t, &bound);
                let ready = |a: &&Atom| a.args.iter().all(given);
                let some_bound = |a: &&Atom| a.args.iter().any(given);
                let i = match left.iter().position(ready) {
                    Some(i) => i,
                    None => {
                        let plain = left.iter().position(|a| !recursive.contains(&key(a)));
                        match plain.or_else(|| left.iter().position(some_bound)) {
                            Some(i) => i,
                            None => return Some(key(left[0])),
                        }
                    }
                };
                let a = left.remove(i);
                let m: Vec<bool> = a.args.iter().map(given).collect();
                a.args.iter().for_each(|t| vars(t, &mut bound));
                if seen.insert((key(a), m.clone())) {
                    todo.push((Some(key(a)), m));
                }
            }
        }
    }
    None
}

/// Every rule's body in disjunctive normal form, its equalities solved;
/// `None` if a body does not expand.
pub(super) fn alternatives(sheet: &Sheet) -> Option<Vec<Alt>> {
    let mut out = Vec::new();
    for rule in &sheet.rules {
        let mut alts: Vec<Vec<BLit>> = vec![Vec::new()];
        for lit in &rule.body {
            alts = product(&alts, &dnf(lit, false, rule.line).ok()?, rule.line).ok()?;
        }
        for alt in alts {
            let mut s = Subst::new();
            let eqs = alt.iter().filter_map(|l| match l {
                BLit::Eq(a, b) => Some((a, b)),
                _ => None,
            });
            if !eqs.into_iter().all(|(a, b)| unify(a, b, &mut s)) {
                continue;
            }
            let at = |a: &Atom| Atom {
                rel: a.rel.clone(),
                args: a.args.iter().map(|t| resolve(t, &s)).collect(),
            };
            let mut a = Alt {
                head: at(&rule.head),
                pos: Vec::new(),
                neg: Vec::new(),
                line: rule.line,
            };
            for l in &alt {
                match l {
                    BLit::Pos(x) => a.pos.push(at(x)),
                    BLit::Neg(x) => a.neg.push(at(x)),
                    _ => {}
                }
            }
            out.push(a);
        }
    }
    Some(out)
}

/// The relations from which one of `targets` can be reached in `deps`.
fn reaching<'a>(
    deps: &HashMap<RelKey, HashSet<RelKey>>,
    targets: impl IntoIterator<Item = (&'a str, usize)>,
) -> HashSet<RelKey> {
    let mut found: HashSet<RelKey> = targets
        .into_iter()
        .map(|(n, a)| (Sym::from(n), a))
        .collect();
    loop {
        let before = found.len();
        for (head, reads) in deps {
            if !found.contains(head) && reads.iter().any(|r| found.contains(r)) {
                found.insert(head.clone());
            }
        }
        if found.len() == before {
            return found;
        }
    }
}

/// Whether every variable of `t` is in `bound`.
fn term_bound(t: &Term, bound: &HashSet<Sym>) -> bool {
    match t {
        Term::Var(v) => bound.contains(v),
        Term::Const(_) => true,
        Term::Fn(_, args) => args.iter().all(|a| term_bound(a, bound)),
    }
}

pub(super) fn vars(t: &Term, out: &mut HashSet<Sym>) {
    match t {
        Term::Var(v) => {
            out.insert(v.clone());
        }
        Term::Const(_) => {}
        Term::Fn(_, args) => args.iter().for_each(|a| vars(a, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn keys(names: &[(&str, usize)]) -> HashSet<RelKey> {
        names.iter().map(|&(n, a)| (Sym::from(n), a)).collect()
    }

    #[test]
    fn dynamic_relations_read_with_bound_arguments_are_answered_on_demand() {
        let sheet = parse(
            "(role a) (init (cell 1)) (succ 1 2) (succ 2 3) (wall 2)
             (<= (attacked ?x) (true (cell ?y)) (succ ?y ?x) (guard ?y))
             (<= (guard ?y) (true (cell ?y)))
             (<= (seen ?x) (true (cell ?x)))
             (<= (near ?x) (true (cell ?y)) (succ ?x ?y))
             (<= (boxed ?x) (true (cell ?x)))
             (<= (path ?x ?y) (succ ?x ?y) (true (cell ?y)))
             (<= (path ?x ?z) (succ ?x ?y) (path ?y ?z))
             (<= (legal a (go ?x)) (true (cell ?y)) (succ ?y ?x)
                 (not (attacked ?x)) (not (wall ?x)) (not (boxed (f ?x))) (seen ?x)
                 (path ?y ?x))
             (<= (next (cell ?x)) (does a (go ?x)) (near ?z))
             (<= terminal (true (cell 3)))
             (<= (goal a 100) (true (cell 3)))",
        )
        .unwrap();
        let got = on_demand(&sheet, &HashSet::new());
        // `attacked` (read under `not`), `guard`, `seen` and `path` (read
        // with their variables bound; `path` calls itself so), and `near`,
        // read with `?z` free: it is not recursive, so a call enumerates
        // it. Not `wall` (static), `boxed` (a function term), nor `legal`
        // and `next` (read whole).
        let left_out = keys(&[("attacked", 1), ("guard", 1), ("seen", 1), ("path", 2)]);
        assert_eq!(got.called, &left_out | &keys(&[("near", 1)]));
        // `near`'s rules are run by grounding's fallback: `next` reads it
        // with `?z` bound by nothing else.
        assert_eq!(got.left_out, left_out);
        // No possible atom of `attacked` (read under `not` alone) is
        // needed, nor then of `guard` (read by `attacked` alone); `seen`
        // and `path` are read by `legal`.
        assert_eq!(got.unneeded, keys(&[("attacked", 1), ("guard", 1)]));
    }

    #[test]
    fn a_recursive_relation_read_with_an_argument_bound_is_called() {
        // `walk` counts along the cells from the first, the count carried
        // in bound and the total given out free, as merrills's
        // `count_loop` does; `total` reads it with its first two
        // arguments bound, `legal` reads `total` with nothing bound (it
        // is not recursive, so a call enumerates it).
        let sheet = parse(
            "(role a) (init (cell c1 on)) (init (cell c2 off))
             (after c1 c2) (succ 0 1) (succ 1 2) (num 0) (num 1) (num 2)
             (<= (one ?c ?n ?m) (true (cell ?c on)) (succ ?n ?m))
             (<= (one ?c ?n ?n) (true (cell ?c off)) (num ?n))
             (<= (walk c2 ?n ?t) (one c2 ?n ?t))
             (<= (walk ?c ?n ?t) (one ?c ?n ?m) (after ?c ?d) (walk ?d ?m ?t))
             (<= (total ?t) (walk c1 0 ?t))
             (<= (legal a (go ?t)) (total ?t))
             (<= (next (cell ?c ?x)) (true (cell ?c ?x)))
             (<= terminal (total 2))
             (<= (goal a 100) (total 2))",
        )
        .unwrap();
        let got = on_demand(&sheet, &HashSet::new());
        assert_eq!(got.called, keys(&[("one", 3), ("walk", 3), ("total", 1)]));
    }

    #[test]
    fn a_relation_in_a_cycle_with_one_evaluated_bottom_up_is_not_called() {
        // `odd` is read with `?x` unbound, so it is evaluated bottom-up;
        // `even` reads it and it reads `even`: neither is called.
        let sheet = parse(
            "(role a) (init (at 0)) (succ 0 1) (succ 1 2)
             (<= (even ?x) (true (at ?x)))
             (<= (even ?y) (odd ?x) (succ ?x ?y))
             (<= (odd ?y) (even ?x) (succ ?x ?y))
             (<= (legal a (go ?x)) (odd ?x))
             (<= (next (at ?x)) (does a (go ?x)))
             (<= terminal (true (at 2)))
             (<= (goal a 100) (true (at 2)))",
        )
        .unwrap();
        assert!(on_demand(&sheet, &HashSet::new()).called.is_empty());
    }
}
