//! The validity conditions of GDL: whether a parsed [`Sheet`] describes a
//! game that a reasoner can run.
//!
//! The conditions are those of the GDL specification (N. Love, T. Hinrichs,
//! D. Haley, E. Schkufza, M. Genesereth, "General Game Playing: Game
//! Description Language Specification", Stanford Logic Group LG-2006-01,
//! revised 2008), with the GDL-II additions of M. Thielscher ("A General
//! Game Description Language for Incomplete Information Games", AAAI 2010):
//! the role `random` and the relation `sees`. [`check`] tests, in this order:
//!
//! 1. Each rule on its own, in sheet order:
//!    - **arities**: every relation name is used with one number of
//!      arguments throughout the sheet, and so is every function name
//!      (relations and functions are counted apart; object constants are
//!      not compared with functions); the game's own relations have their
//!      fixed arities: `role` 1, `init` 1, `true` 1, `next` 1, `legal` 2,
//!      `does` 2, `goal` 2, `terminal` 0 and `sees` 2 (`base` and `input`,
//!      which later ggp-base sheets use to list state facts and moves, are
//!      not in the specification and are ordinary relations here: older
//!      sheets use a `base` of other arities);
//!    - **places of the keywords**: `true`, `does`, `distinct`, `not` and
//!      `or` never head a rule or fact; `role` is given by ground facts
//!      only; `init`, `next` and `sees` never appear in a rule's body; a
//!      goal value written as a constant is an integer from 0 to 100;
//!    - **safety**: every variable of the head, of a negated literal and of
//!      a `distinct` appears in a positive literal of the body. A variable
//!      counts as bound by `(or L1 … Ln)` only if every `Li` binds it (an
//!      atom binds its variables, a nested `or` by the same rule, `not` and
//!      `distinct` bind nothing), which is exactly when each rule that
//!      expanding the `or` would make binds it. Variables that occur only in
//!      positive atoms inside an `or` branch need no binding elsewhere,
//!      since after expansion the branch binds them itself. A fact with a
//!      variable is unsafe.
//! 2. The game's relations are all there: at least one `role` fact, and
//!    rules or facts for `legal`, `goal` and `terminal` (`init` and `next`
//!    may be absent: a game may start from, and move to, the empty state).
//! 3. The dependency graph (an edge from a rule's head relation to every
//!    relation in its body, marked negative under `not`), each rule in
//!    sheet order:
//!    - **the recursion restriction** of the specification:
//!      for every positive body atom `q(t1 … tk)` whose relation is in the
//!      head's strongly connected component (looked for at the top of the
//!      body and inside `or`), every `tj` is ground, or equal to an
//!      argument of the head, or equal to an argument of a positive atom at
//!      the top of the body whose relation is *not* in that component. (A
//!      positive atom inside an `or` cannot vouch for another literal, as
//!      after expansion it is not in the same rule.);
//!    - **no moves in the game's views**: `legal`, `goal`, `terminal` and
//!      `init` do not depend on `does`, directly or through other relations
//!      (`next` and, in GDL-II, `sees` may);
//!    - **a fixed start**: `init` depends on none of `true`, `does`, `next`,
//!      `legal`, `goal`, `terminal`;
//!    - **fixed lists**: `base` and `input` (where a sheet has them) depend
//!      on neither `true` nor `does`: they list every possible state fact
//!      and move, whatever the position.
//!
//! The first violation found is returned as a one-line [`GdlError`] that
//! names the line and shows the rule (cut to about 100 characters).
//!
//! **Stratification** (no cycle of the relation graph runs through a
//! negated literal) is the specification's condition too, but [`check`]
//! leaves it out and [`stratified`] tests it apart: as an extension, wopr
//! runs a sheet whose negation cycles between relations vanish once the
//! rules are ground, as published sheets such as
//! `(<= (goal robot 100) (not (goal robot 0)))` need and other GGP players
//! accept. The reasoner then checks the condition on ground atoms, and
//! refuses a sheet whose ground program still has an atom that depends on
//! its own negation, or that is too large to ground (the non-ground
//! evaluator needs strata of relations). What
//! static checks cannot tell (that every role has a legal move, that the
//! game ends, that goals are defined in terminal states) is not checked.

use std::collections::{HashMap, HashSet, VecDeque};

use super::ast::{Atom, Literal, Rule, Sheet, Sym, Term};
use super::GdlError;

/// The relations GDL and GDL-II give a meaning to, with their arities.
const KEYWORD_ARITIES: [(&str, usize); 9] = [
    ("role", 1),
    ("init", 1),
    ("true", 1),
    ("next", 1),
    ("legal", 2),
    ("does", 2),
    ("goal", 2),
    ("terminal", 0),
    ("sees", 2),
];

/// Names that may not head a rule or fact.
const NEVER_HEADS: [&str; 5] = ["true", "does", "distinct", "not", "or"];

/// Relations that may not appear in a rule's body.
const NEVER_IN_BODIES: [&str; 3] = ["init", "next", "sees"];

/// Relations every game must define, in the order their absence is told
/// (`init` and `next` may be empty).
const REQUIRED: [&str; 3] = ["legal", "goal", "terminal"];

/// The lists of possible state facts and moves, which must not depend on
/// the position.
const FIXED_LISTS: [&str; 2] = ["base", "input"];

/// Relations that must not depend on `does`.
const MOVE_FREE: [&str; 4] = ["legal", "goal", "terminal", "init"];

/// Relations that must not depend on the state or the moves.
const STATE_FREE: [&str; 1] = ["init"];

/// The relations the state-free ones must not depend on.
const STATE_RELATIONS: [&str; 6] = ["true", "does", "next", "legal", "goal", "terminal"];

/// Checks that a sheet is valid GDL (or GDL-II); see the module doc for
/// exactly what is checked.
///
/// # Errors
///
/// The first violation, as a one-line [`GdlError`] naming the rule's line
/// and showing the rule.
///
/// # Examples
///
/// ```
/// use wopr_gdl::{check::check, parse::parse};
///
/// let good = "(role p) (init on) (<= (legal p flip) (true on)) (<= (next off) (does p flip))
///             (<= terminal (true off)) (goal p 100)";
/// assert_eq!(check(&parse(good).unwrap()), Ok(()));
///
/// let unsafe_rule = good.replace("(<= terminal (true off))", "(<= terminal (not (true ?s)))");
/// let err = check(&parse(&unsafe_rule).unwrap()).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "line 2: unsafe rule (<= terminal (not (true ?s))): variable ?s appears in no positive literal"
/// );
/// ```
pub fn check(sheet: &Sheet) -> Result<(), GdlError> {
    let mut arities = Arities::default();
    for rule in &sheet.rules {
        arities.check(rule)?;
        check_places(rule)?;
        check_safety(rule)?;
    }
    check_required(sheet)?;
    let graph = Graph::new(sheet);
    for rule in &sheet.rules {
        graph.check_recursion(rule)?;
        graph.check_move_free(rule)?;
        graph.check_state_free(rule)?;
    }
    Ok(())
}

/// Whether `sheet`'s negation is stratified over relations, as the GDL
/// specification asks: no negated literal's relation is in the strongly
/// connected component of the rule's head, so no cycle of the relation
/// graph runs through negation. [`check`] does not ask this (see the
/// module's docs); the error names the first rule, in sheet order, whose
/// negation closes a cycle.
pub fn stratified(sheet: &Sheet) -> Result<(), GdlError> {
    let graph = Graph::new(sheet);
    sheet
        .rules
        .iter()
        .try_for_each(|rule| graph.check_stratified(rule))
}

/// A rule as an error shows it: its `Display`, cut to about 100 characters.
fn shown(rule: &Rule) -> String {
    const MAX: usize = 100;
    let text = rule.to_string();
    if text.chars().count() <= MAX {
        return text;
    }
    let mut cut: String = text.chars().take(MAX - 1).collect();
    cut.push('…');
    cut
}

fn err(rule: &Rule, msg: impl std::fmt::Display) -> GdlError {
    GdlError(format!("line {}: {msg}", rule.line))
}

/// Calls `f` on every atom of a literal with whether it is under `not`.
pub(super) fn for_each_atom<'a>(
    lit: &'a Literal,
    negated: bool,
    f: &mut impl FnMut(&'a Atom, bool),
) {
    match lit {
        Literal::Pos(a) => f(a, negated),
        Literal::Not(inner) => for_each_atom(inner, true, f),
        Literal::Distinct(..) => {}
        Literal::Or(ls) => {
            for l in ls {
                for_each_atom(l, negated, f);
            }
        }
    }
}

fn is_ground(t: &Term) -> bool {
    match t {
        Term::Const(_) => true,
        Term::Var(_) => false,
        Term::Fn(_, args) => args.iter().all(is_ground),
    }
}

/// The arities seen so far, with the line that first fixed each.
#[derive(Default)]
struct Arities {
    relations: HashMap<Sym, (usize, usize)>,
    functions: HashMap<Sym, (usize, usize)>,
}

impl Arities {
    fn check(&mut self, rule: &Rule) -> Result<(), GdlError> {
        let mut atoms = vec![&rule.head];
        let mut distinct_terms = Vec::new();
        fn collect<'a>(l: &'a Literal, atoms: &mut Vec<&'a Atom>, terms: &mut Vec<&'a Term>) {
            match l {
                Literal::Pos(a) => atoms.push(a),
                Literal::Not(inner) => collect(inner, atoms, terms),
                Literal::Distinct(a, b) => terms.extend([a, b]),
                Literal::Or(ls) => ls.iter().for_each(|l| collect(l, atoms, terms)),
            }
        }
        for l in &rule.body {
            collect(l, &mut atoms, &mut distinct_terms);
        }
        for atom in &atoms {
            let n = atom.args.len();
            if let Some(&(_, k)) = KEYWORD_ARITIES.iter().find(|(kw, _)| **kw == *atom.rel) {
                if n != k {
                    return Err(err(
                        rule,
                        format!(
                            "{} takes {k} argument{}, found {n} in {}",
                            atom.rel,
                            if k == 1 { "" } else { "s" },
                            shown(rule)
                        ),
                    ));
                }
            }
            Self::note(&mut self.relations, "relation", &atom.rel, n, rule)?;
        }
        let mut terms: Vec<&Term> = atoms.iter().flat_map(|a| a.args.iter()).collect();
        terms.extend(distinct_terms);
        while let Some(t) = terms.pop() {
            if let Term::Fn(f, args) = t {
                Self::note(&mut self.functions, "function", f, args.len(), rule)?;
                terms.extend(args.iter());
            }
        }
        Ok(())
    }

    fn note(
        table: &mut HashMap<Sym, (usize, usize)>,
        what: &str,
        name: &Sym,
        n: usize,
        rule: &Rule,
    ) -> Result<(), GdlError> {
        match table.get(name) {
            Some(&(m, line)) if m != n => Err(err(
                rule,
                format!(
                    "{what} {name} has {n} argument{} in {}, but {m} at line {line}",
                    if n == 1 { "" } else { "s" },
                    shown(rule)
                ),
            )),
            Some(_) => Ok(()),
            None => {
                table.insert(name.clone(), (n, rule.line));
                Ok(())
            }
        }
    }
}

/// Where the keywords may stand, and the goal values.
fn check_places(rule: &Rule) -> Result<(), GdlError> {
    let head = &*rule.head.rel;
    if NEVER_HEADS.contains(&head) {
        return Err(err(
            rule,
            format!("{head} cannot head a rule or fact, found {}", shown(rule)),
        ));
    }
    if head == "role" && (!rule.body.is_empty() || !rule.head.args.iter().all(is_ground)) {
        return Err(err(
            rule,
            format!(
                "role must be given by ground facts only, found {}",
                shown(rule)
            ),
        ));
    }
    let mut misplaced = None;
    for l in &rule.body {
        for_each_atom(l, false, &mut |a, _| {
            if misplaced.is_none() && NEVER_IN_BODIES.contains(&&*a.rel) {
                misplaced = Some(a.rel.clone());
            }
        });
    }
    if let Some(rel) = misplaced {
        return Err(err(
            rule,
            format!(
                "{rel} cannot appear in a rule's body, found {}",
                shown(rule)
            ),
        ));
    }
    if head == "goal" {
        if let Some(Term::Const(c)) = rule.head.args.get(1) {
            if !c.parse::<u8>().is_ok_and(|v| v <= 100) {
                return Err(err(
                    rule,
                    format!(
                        "a goal value must be an integer from 0 to 100, found {c} in {}",
                        shown(rule)
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The variables a literal binds: an atom's, an `or`'s common ones.
fn bound_by(lit: &Literal) -> HashSet<&Sym> {
    match lit {
        Literal::Pos(a) => {
            let mut vs = Vec::new();
            a.push_vars(&mut vs);
            vs.into_iter().collect()
        }
        Literal::Not(_) | Literal::Distinct(..) => HashSet::new(),
        Literal::Or(ls) => {
            let mut sets = ls.iter().map(bound_by);
            let first = sets.next().unwrap_or_default();
            sets.fold(first, |acc, s| acc.intersection(&s).copied().collect())
        }
    }
}

/// The variables a literal needs bound elsewhere: those under `not` and in
/// `distinct`, also inside `or`.
fn needed_by<'a>(lit: &'a Literal, out: &mut Vec<&'a Sym>) {
    match lit {
        Literal::Pos(_) => {}
        Literal::Not(inner) => {
            fn all_vars<'a>(l: &'a Literal, out: &mut Vec<&'a Sym>) {
                match l {
                    Literal::Pos(a) => a.push_vars(out),
                    Literal::Not(inner) => all_vars(inner, out),
                    Literal::Distinct(a, b) => {
                        a.push_vars(out);
                        b.push_vars(out);
                    }
                    Literal::Or(ls) => ls.iter().for_each(|l| all_vars(l, out)),
                }
            }
            all_vars(inner, out);
        }
        Literal::Distinct(a, b) => {
            a.push_vars(out);
            b.push_vars(out);
        }
        Literal::Or(ls) => ls.iter().for_each(|l| needed_by(l, out)),
    }
}

fn check_safety(rule: &Rule) -> Result<(), GdlError> {
    let mut bound = HashSet::new();
    for l in &rule.body {
        bound.extend(bound_by(l));
    }
    let mut needed = Vec::new();
    rule.head.push_vars(&mut needed);
    rule.body.iter().for_each(|l| needed_by(l, &mut needed));
    match needed.into_iter().find(|v| !bound.contains(v)) {
        Some(v) => Err(err(
            rule,
            format!(
                "unsafe rule {}: variable ?{v} appears in no positive literal",
                shown(rule)
            ),
        )),
        None => Ok(()),
    }
}

fn check_required(sheet: &Sheet) -> Result<(), GdlError> {
    let heads: HashSet<&str> = sheet.rules.iter().map(|r| &*r.head.rel).collect();
    if !heads.contains("role") {
        return Err(GdlError(
            "the sheet has no role fact: a game needs at least one (role name)".into(),
        ));
    }
    for rel in REQUIRED {
        if !heads.contains(rel) {
            return Err(GdlError(format!(
                "the sheet has no rule or fact for {rel}: every game needs role, legal, goal \
                 and terminal (init and next may be empty)"
            )));
        }
    }
    Ok(())
}

/// The relation dependency graph and its transitive closure.
struct Graph {
    index: HashMap<Sym, usize>,
    /// `reach[p][q]`: a path of at least one edge leads from `p` to `q`
    /// (`p`'s rules use `q`, directly or through other relations).
    reach: Vec<Vec<bool>>,
}

impl Graph {
    fn new(sheet: &Sheet) -> Graph {
        let mut index = HashMap::new();
        let mut id = |s: &Sym| -> usize {
            let next = index.len();
            *index.entry(s.clone()).or_insert(next)
        };
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for rule in &sheet.rules {
            let h = id(&rule.head.rel);
            for l in &rule.body {
                for_each_atom(l, false, &mut |a, _| edges.push((h, id(&a.rel))));
            }
        }
        for kw in STATE_RELATIONS {
            id(&Sym::from(kw));
        }
        let n = index.len();
        let mut succ = vec![Vec::new(); n];
        for (a, b) in edges {
            succ[a].push(b);
        }
        let mut reach = vec![vec![false; n]; n];
        for (start, row) in reach.iter_mut().enumerate() {
            let mut queue: VecDeque<usize> = succ[start].iter().copied().collect();
            while let Some(q) = queue.pop_front() {
                if !row[q] {
                    row[q] = true;
                    queue.extend(succ[q].iter().copied());
                }
            }
        }
        Graph { index, reach }
    }

    fn id(&self, s: &str) -> usize {
        self.index[s]
    }

    /// Whether `q` is in `p`'s strongly connected component when `p`'s rule
    /// uses `q` (so `p` reaches `q`; `q == p` is a cycle of one edge).
    fn same_component(&self, p: usize, q: usize) -> bool {
        p == q || (self.reach[p][q] && self.reach[q][p])
    }

    fn check_stratified(&self, rule: &Rule) -> Result<(), GdlError> {
        let p = self.id(&rule.head.rel);
        let mut bad = None;
        for l in &rule.body {
            for_each_atom(l, false, &mut |a, negated| {
                if negated && bad.is_none() && self.same_component(p, self.id(&a.rel)) {
                    bad = Some(a.rel.clone());
                }
            });
        }
        match bad {
            Some(q) if q == rule.head.rel => Err(err(
                rule,
                format!(
                    "negation in a cycle, in {}: {q} depends on its own negation",
                    shown(rule)
                ),
            )),
            Some(q) => Err(err(
                rule,
                format!(
                    "negation in a cycle, in {}: {} depends on (not {q}), and {q} depends on {}",
                    shown(rule),
                    rule.head.rel,
                    rule.head.rel
                ),
            )),
            None => Ok(()),
        }
    }

    fn check_recursion(&self, rule: &Rule) -> Result<(), GdlError> {
        let p = self.id(&rule.head.rel);
        // The cyclic atoms, at the top of the body or inside `or`, but not
        // under `not` (the recursion restriction is about positive atoms).
        let mut cyclic = Vec::new();
        fn positive<'a>(l: &'a Literal, out: &mut Vec<&'a Atom>) {
            match l {
                Literal::Pos(a) => out.push(a),
                Literal::Or(ls) => ls.iter().for_each(|l| positive(l, out)),
                Literal::Not(_) | Literal::Distinct(..) => {}
            }
        }
        rule.body.iter().for_each(|l| positive(l, &mut cyclic));
        cyclic.retain(|a| self.same_component(p, self.id(&a.rel)));
        let support: Vec<&Term> = rule
            .body
            .iter()
            .filter_map(|l| match l {
                Literal::Pos(a) if !self.same_component(p, self.id(&a.rel)) => Some(a),
                _ => None,
            })
            .flat_map(|a| a.args.iter())
            .collect();
        for q in cyclic {
            for t in &q.args {
                let ok = is_ground(t) || rule.head.args.contains(t) || support.contains(&t);
                if !ok {
                    return Err(err(
                        rule,
                        format!(
                            "recursion restriction broken in {}: argument {t} of {}, which is \
                             recursive with {}, is not ground, not an argument of the head, and \
                             not an argument of a positive literal outside the recursion",
                            shown(rule),
                            q.rel,
                            rule.head.rel
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The first relation of the rule's body that is `target` or depends on
    /// it, with the one of `targets` it leads to.
    fn uses_any(&self, rule: &Rule, targets: &[&'static str]) -> Option<(Sym, &'static str)> {
        let ids: Vec<(usize, &'static str)> = targets.iter().map(|t| (self.id(t), *t)).collect();
        let mut found = None;
        for l in &rule.body {
            for_each_atom(l, false, &mut |a, _| {
                if found.is_some() {
                    return;
                }
                let q = self.id(&a.rel);
                if let Some(&(_, t)) = ids.iter().find(|&&(t, _)| q == t || self.reach[q][t]) {
                    found = Some((a.rel.clone(), t));
                }
            });
        }
        found
    }

    fn check_move_free(&self, rule: &Rule) -> Result<(), GdlError> {
        let head = &*rule.head.rel;
        if !MOVE_FREE.contains(&head) {
            return Ok(());
        }
        match self.uses_any(rule, &["does"]) {
            Some((q, _)) => Err(err(
                rule,
                format!(
                    "{head} must not depend on does, but {} uses {}",
                    shown(rule),
                    if &*q == "does" {
                        "does".to_string()
                    } else {
                        format!("{q}, which depends on does")
                    }
                ),
            )),
            None => Ok(()),
        }
    }

    fn check_state_free(&self, rule: &Rule) -> Result<(), GdlError> {
        let head = &*rule.head.rel;
        if FIXED_LISTS.contains(&head) {
            if let Some((q, t)) = self.uses_any(rule, &["true", "does"]) {
                return Err(err(
                    rule,
                    format!(
                        "{head} lists every possible {} and must not depend on true or does, \
                         but {} uses {}",
                        if head == "base" { "state fact" } else { "move" },
                        shown(rule),
                        if *q == *t {
                            t.to_string()
                        } else {
                            format!("{q}, which depends on {t}")
                        }
                    ),
                ));
            }
            return Ok(());
        }
        if !STATE_FREE.contains(&head) {
            return Ok(());
        }
        match self.uses_any(rule, &STATE_RELATIONS) {
            Some((q, t)) => Err(err(
                rule,
                format!(
                    "{head} must not depend on true, does, next, legal, goal or terminal, but {} \
                     uses {}",
                    shown(rule),
                    if *q == *t {
                        t.to_string()
                    } else {
                        format!("{q}, which depends on {t}")
                    }
                ),
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
