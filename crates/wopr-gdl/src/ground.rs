//! Grounding a rule sheet: every rule instantiated over the atoms that can
//! ever hold, so that the reasoner ([`super::reasoner`]) evaluates a
//! propositional program.
//!
//! The atoms that can hold come from a relaxed bottom-up fixpoint that
//! ignores negation (`distinct` is kept: it only prunes): `true(X)` is
//! possible once `init(X)` or `next(X)` is, `does(R, M)` once `legal(R, M)`
//! is; the static relations that rules negate are first evaluated exactly
//! (`ground/strata.rs`). The fixpoint is semi-naive: each round joins every rule with at least
//! one literal matched among the atoms new in the previous round, the
//! positive literals joined greedily in an order planned anew each round:
//! the literal expected to match fewest atoms next, estimated from the
//! relations' sizes so far and their indexes, which cover each argument
//! and each argument of a nested term (`(true (cell ?x ?y ?p))` with `?x`
//! and `?y` bound probes the atoms by `?x` or `?y`). Every successful join is a ground rule `head <- pos, not neg`;
//! the negative atoms that can never hold are dropped from it at the end.
//!
//! `or` is expanded into separate rules (disjunctive normal form), `(not (or
//! …))` by De Morgan, `(not (distinct s t))` by unifying `s` and `t`.
//!
//! Before grounding, a rule whose body chains many variables is split into
//! narrower rules over new relations ([`split`]), so that it grounds into
//! the sum of their instances rather than the product.
//!
//! Grounding stops as soon as the estimate of the memory it holds passes
//! its [`Budget`] ([`budget`]), then may start again for atoms (`ground/demand.rs`).

use std::collections::{HashMap, HashSet};

use super::ast::{Atom, Literal, Sheet, Sym, Term};
use super::GdlError;

pub mod budget;
pub(crate) mod demand;
mod fallback;
mod index;
mod join;
pub(crate) mod normal;
mod patterns;
mod plan;
mod project;
pub mod split;
mod strata;
mod terms;

use budget::estimate;
pub use budget::{Budget, BUDGET_ENV, DEFAULT_BUDGET};
pub(super) use budget::{Over, Refusal};
use demand::Demand;
use fallback::Pass;
use index::Rel;
use normal::{dnf, product, resolve, resolve_atom, resolve_lit, unify, BLit};
pub(crate) use plan::{match_args, Pat};
use plan::{CRule, SUB_SLOTS};
use split::{is_new_relation, Splitter};
pub(super) use terms::FxMap;
pub(super) use terms::Terms;

/// How deeply a derived ground atom may nest.
pub const MAX_DEPTH: u32 = 500;

/// "No value" in the index tables.
const NONE: u32 = u32::MAX;

/// The ground program: rule `i` is `head[i] <- body[start[i]..neg[i]], not
/// body[neg[i]..start[i + 1]]`, every atom a term number.
#[derive(Default)]
pub(super) struct GroundRules {
    pub(super) head: Vec<u32>,
    pub(super) start: Vec<u32>,
    pub(super) neg: Vec<u32>,
    pub(super) body: Vec<u32>,
}

/// A grounded rule sheet: the terms, the possible atoms of every relation
/// and the ground rules.
pub struct Grounding {
    pub(super) terms: Terms,
    rels: Vec<(Sym, usize, Vec<u32>)>,
    pub(super) rules: GroundRules,
    /// The most the estimate of its memory reached while grounding.
    bytes: u64,
    /// Where the budget was passed, if the ground rules were dropped for
    /// the possible atoms alone.
    dropped: Option<Over>,
    /// Then the relations the non-ground evaluator answers on demand
    /// ([`demand`]).
    called: HashSet<demand::RelKey>,
}

impl Grounding {
    /// The possible atoms (term numbers) of relation `name` of `arity`.
    pub(super) fn atoms(&self, name: &str, arity: usize) -> &[u32] {
        self.rels
            .iter()
            .find(|(n, a, _)| &**n == name && *a == arity)
            .map_or(&[], |(_, _, l)| &l[..])
    }

    /// Every possible atom, relation by relation.
    pub(super) fn all_atoms(&self) -> impl Iterator<Item = u32> + '_ {
        self.rels.iter().flat_map(|(_, _, l)| l.iter().copied())
    }

    /// How many ground rules there are.
    pub fn num_rules(&self) -> usize {
        self.rules.head.len()
    }

    /// How many atoms can ever hold, those of the relations a split made
    /// ([`split`]) included.
    pub fn num_atoms(&self) -> usize {
        self.rels.iter().map(|(_, _, l)| l.len()).sum()
    }

    /// How many of [`Grounding::num_atoms`] are of the relations a split
    /// made ([`split`]) rather than the sheet's own.
    pub fn num_split_atoms(&self) -> usize {
        self.rels
            .iter()
            .filter(|(n, _, _)| is_new_relation(n))
            .map(|(_, _, l)| l.len())
            .sum()
    }

    /// The estimated bytes of memory grounding held at its most (see
    /// [`budget`]), which the budget bounded.
    pub fn estimated_bytes(&self) -> u64 {
        self.bytes
    }

    /// Where grounding passed its budget, if it then dropped the ground
    /// rules to keep the possible atoms alone (see [`possible`]).
    pub(super) fn dropped(&self) -> Option<Over> {
        self.dropped
    }

    /// The relations answered on demand, if the ground rules were dropped
    /// ([`demand::on_demand`], with the static relations whose possible
    /// atoms passed the budget).
    pub(super) fn called(&self) -> &HashSet<demand::RelKey> {
        &self.called
    }
}

/// Grounds `sheet`: fails if it is not safe, or as soon as the estimate of
/// the memory grounding holds passes `budget` ([`DEFAULT_BUDGET`] unless a
/// user says otherwise), in one line saying where and how to raise it.
pub fn ground(sheet: &Sheet, budget: Budget) -> Result<Grounding, GdlError> {
    possible(sheet, budget, false).map_err(GdlError::from)
}

/// As [`ground`]; with `fall_back`, grounding that passes the budget
/// starts again for the possible atoms alone (for [`super::nonground`]),
/// leaving out rules ([`demand`]); `budget` then bounds the atoms and one
/// rule's joins in a round: the refusal names both places it was passed.
pub(super) fn possible(
    sheet: &Sheet,
    budget: Budget,
    fall_back: bool,
) -> Result<Grounding, Refusal> {
    // What the last join left (its buffer) is checked too.
    let mut g = Grounder::new(sheet, budget, None)?;
    let rules = match g.run().and_then(|()| g.check()) {
        Ok(()) => return Ok(g.finish()),
        Err(Refusal::Over(rules)) if fall_back => rules,
        Err(e) => return Err(e),
    };
    // The ground rules go before the fixpoint starts again.
    drop(g);
    fallback::atoms_alone(sheet, budget, rules)
}

/// As [`possible`] with `fall_back`, once grounding with its rules passed
/// the budget where `rules` says: the possible atoms alone.
pub(super) fn atoms_alone(
    sheet: &Sheet,
    budget: Budget,
    rules: Over,
) -> Result<Grounding, Refusal> {
    fallback::atoms_alone(sheet, budget, rules)
}

#[derive(Default)]
struct Grounder {
    terms: Terms,
    rels: Vec<Rel>,
    rel_ids: FxMap<(u32, usize), u32>,
    /// Per term: its position in its relation's list if it is a possible
    /// atom, else `NONE`.
    atom_pos: Vec<u32>,
    rules: Vec<CRule>,
    out: GroundRules,
    atoms: usize,
    budget: Budget,
    /// The estimated bytes of the index entries and of the largest match
    /// buffer so far, and the most the whole estimate reached.
    index_bytes: u64,
    scratch: u64,
    peak: u64,
    /// Whether to keep no ground rules, only the possible atoms (since
    /// the budget was passed where `dropped` says).
    atoms_only: bool,
    dropped: Option<Over>,
    /// The line of the rule being grounded (for the budget's error).
    line: usize,
    /// The relations whose rules are left out, their positive literals
    /// taken as holding ([`demand`]).
    assumed: HashSet<demand::RelKey>,
    /// Whether those literals stand for the values of their arguments
    /// instead ([`project`]).
    projected: bool,
    /// Splits wide rules before they are compiled ([`split`]).
    splitter: Splitter,
}

/// The relation numbers of `true`, `does`, `init`, `next`, `legal` (made
/// first by [`ground`]).
const TRUE: u32 = 0;
const DOES: u32 = 1;
const INIT: u32 = 2;
const NEXT: u32 = 3;
const LEGAL: u32 = 4;

impl Grounder {
    /// A grounder with the rules of `sheet` compiled, nothing run. With
    /// `atoms_only` (the relations answered on demand, and how),
    /// it keeps the possible atoms alone, without the rules of those whose
    /// possible atoms no other relation needs, or if relaxed of all it may
    /// leave out, their positive literals taken as holding ([`demand`]).
    fn new(
        sheet: &Sheet,
        budget: Budget,
        atoms_only: Option<(&Demand, Pass)>,
    ) -> Result<Grounder, Refusal> {
        let mut g = Grounder {
            budget,
            atoms_only: atoms_only.is_some(),
            ..Grounder::default()
        };
        let (left_out, assumed) = match atoms_only {
            Some((d, Pass::Projected)) => (d.called.clone(), d.called.clone()),
            Some((d, Pass::Relaxed)) => (d.left_out.clone(), d.left_out.clone()),
            Some((d, Pass::Exact)) => (d.unneeded.clone(), HashSet::new()),
            None => Default::default(),
        };
        g.assumed = assumed;
        g.projected = matches!(atoms_only, Some((_, Pass::Projected)));
        for name in ["true", "does", "init", "next", "legal"] {
            let arity = 1 + usize::from(matches!(name, "does" | "legal"));
            let sym = g.terms.name(&Sym::from(name));
            g.rel(sym, arity);
        }
        for rule in &sheet.rules {
            if !left_out.contains(&(rule.head.rel.clone(), rule.head.args.len())) {
                g.add_rule(&rule.head, &rule.body, rule.line)?;
            }
        }
        if g.projected {
            for rule in project::rules(sheet, &left_out) {
                g.add_rule(&rule.head, &rule.body, rule.line)?;
            }
        }
        Ok(g)
    }

    fn rel(&mut self, sym: u32, arity: usize) -> u32 {
        if let Some(&r) = self.rel_ids.get(&(sym, arity)) {
            return r;
        }
        let r = self.rels.len() as u32;
        self.rels.push(Rel {
            sym,
            name: self.terms.names[sym as usize].clone(),
            arity,
            list: Vec::new(),
            index: (0..arity * (SUB_SLOTS + 1))
                .map(|_| FxMap::default())
                .collect(),
            multi: Vec::new(),
            old: 0,
            cur: 0,
        });
        self.rel_ids.insert((sym, arity), r);
        r
    }

    /// The estimated bytes held now (see [`budget`]).
    fn used(&self) -> u64 {
        let (t, o) = (&self.terms, &self.out);
        let extra = self.index_bytes + self.scratch;
        estimate(
            t.len(),
            t.num_args(),
            self.atoms,
            o.head.len(),
            o.body.len(),
            extra,
        )
    }

    /// Fails if the estimate has passed the budget, else notes its peak.
    fn check(&mut self) -> Result<(), Refusal> {
        let used = self.used();
        if used > self.budget.room() {
            return Err(self.over(0));
        }
        self.peak = self.peak.max(used);
        Ok(())
    }

    /// The budget passed at the rule being grounded, `matches` of its join
    /// found in the round.
    fn over(&self, matches: usize) -> Refusal {
        let (line, budget) = (self.line, self.budget);
        let (rules, atoms) = (self.out.head.len(), self.atoms);
        Refusal::Over(Over {
            line,
            rules,
            atoms,
            matches,
            budget,
        })
    }

    /// Expands a rule's body into conjunctions and compiles each.
    fn add_rule(&mut self, head: &Atom, body: &[Literal], line: usize) -> Result<(), GdlError> {
        let mut alts: Vec<Vec<BLit>> = vec![Vec::new()];
        for lit in body {
            alts = product(&alts, &dnf(lit, false, line)?, line)?;
        }
        for alt in alts {
            let mut subst = HashMap::new();
            let mut rest = Vec::new();
            let mut ok = true;
            for l in alt {
                match l {
                    BLit::Eq(a, b) => ok &= unify(&a, &b, &mut subst),
                    BLit::Pos(a) if self.assumed.contains(&(a.rel.clone(), a.args.len())) => {
                        if self.projected {
                            rest.extend(project::literals(&a).into_iter().map(BLit::Pos));
                        }
                    }
                    other => rest.push(other),
                }
            }
            if !ok {
                continue;
            }
            let head = resolve_atom(head, &subst);
            let rest = rest.into_iter().map(|l| resolve_lit(l, &subst)).collect();
            let none = HashMap::new();
            for (head, body) in self.splitter.split(head, rest) {
                self.compile(line, &head, body, &none)?;
            }
        }
        Ok(())
    }

    fn compile(
        &mut self,
        line: usize,
        head: &Atom,
        lits: Vec<BLit>,
        s: &HashMap<Sym, Term>,
    ) -> Result<(), GdlError> {
        let unsafe_err = |v: Sym| {
            GdlError(format!(
                "line {line}: rule is unsafe: variable ?{v} is in no positive literal"
            ))
        };
        let mut vars: Vec<Sym> = Vec::new();
        let mut pos = Vec::new();
        let (mut neg_atoms, mut dists) = (Vec::new(), Vec::new());
        for l in lits {
            match l {
                BLit::Pos(a) => {
                    let sym = self.terms.name(&a.rel);
                    let rel = self.rel(sym, a.args.len());
                    let args = a
                        .args
                        .iter()
                        .map(|t| self.pat(&resolve(t, s), &mut vars, true));
                    pos.push((
                        rel,
                        args.collect::<Result<Vec<_>, _>>().map_err(unsafe_err)?,
                    ));
                }
                BLit::Neg(a) => neg_atoms.push(a),
                BLit::Dist(x, y) => dists.push((x, y)),
                BLit::Eq(..) => {}
            }
        }
        let head_sym = self.terms.name(&head.rel);
        let head_rel = self.rel(head_sym, head.args.len());
        if head_rel == TRUE || head_rel == DOES {
            return Err(GdlError(format!(
                "line {line}: a rule may not define `{}`",
                head.rel
            )));
        }
        let head = self.atom_pat(head, s, &mut vars).map_err(unsafe_err)?;
        let neg = neg_atoms
            .iter()
            .map(|a| self.atom_pat(a, s, &mut vars))
            .collect::<Result<Vec<_>, _>>()
            .map_err(unsafe_err)?;
        let mut dist = Vec::new();
        for (x, y) in dists {
            let x = self
                .pat(&resolve(&x, s), &mut vars, false)
                .map_err(unsafe_err)?;
            let y = self
                .pat(&resolve(&y, s), &mut vars, false)
                .map_err(unsafe_err)?;
            dist.push((x, y));
        }
        let rule = CRule {
            line,
            head,
            pos,
            neg,
            dist,
            nvars: vars.len(),
        };
        self.rules.push(rule);
        Ok(())
    }

    /// Compiles an atom as one pattern (a relation is a symbol).
    fn atom_pat(
        &mut self,
        a: &Atom,
        s: &HashMap<Sym, Term>,
        vars: &mut Vec<Sym>,
    ) -> Result<Pat, Sym> {
        let t = if a.args.is_empty() {
            Term::Const(a.rel.clone())
        } else {
            Term::Fn(a.rel.clone(), a.args.clone())
        };
        self.pat(&resolve(&t, s), vars, false)
    }

    /// Compiles a term; a variable not in `vars` is new if `bind`, else an
    /// error (the rule is unsafe).
    fn pat(&mut self, t: &Term, vars: &mut Vec<Sym>, bind: bool) -> Result<Pat, Sym> {
        Ok(match t {
            Term::Const(c) => {
                let sym = self.terms.name(c);
                Pat::Ground(self.terms.intern(sym, &[]))
            }
            Term::Var(v) => match vars.iter().position(|x| x == v) {
                Some(i) => Pat::Var(i as u32),
                None if bind => {
                    vars.push(v.clone());
                    Pat::Var(vars.len() as u32 - 1)
                }
                None => return Err(v.clone()),
            },
            Term::Fn(f, args) => {
                let sym = self.terms.name(f);
                let args = args
                    .iter()
                    .map(|a| self.pat(a, vars, bind))
                    .collect::<Result<Vec<_>, _>>()?;
                if args.iter().all(|a| matches!(a, Pat::Ground(_))) {
                    let ids: Vec<u32> = args
                        .iter()
                        .map(|a| if let Pat::Ground(i) = a { *i } else { NONE })
                        .collect();
                    Pat::Ground(self.terms.intern(sym, &ids))
                } else {
                    Pat::Fn(sym, args.into())
                }
            }
        })
    }

    /// Records the ground rule of one successful join, and its head.
    fn produce(&mut self, r: &CRule, binds: &[u32], atoms: &[u32]) -> Result<(), Refusal> {
        let head = self.inst(&r.head, binds);
        if self.terms.depth(head) > MAX_DEPTH {
            return Err(Refusal::Sheet(GdlError(format!(
                "line {}: grounding makes terms nested deeper than {MAX_DEPTH} (a function \
                 applied without end?); the game cannot be grounded",
                r.line
            ))));
        }
        let sym = self.terms.nodes[head as usize].0;
        let rel = self.rel(sym, self.terms.args(head).len());
        if self.atoms_only {
            return self.add_atom(rel, head);
        }
        let out = &mut self.out;
        if out.start.is_empty() {
            out.start.push(0);
        }
        let start = out.body.len();
        out.body.extend_from_slice(atoms);
        out.body[start..].sort_unstable();
        dedup_tail(&mut out.body, start);
        let neg_start = out.body.len();
        for n in &r.neg {
            let id = self.inst(n, binds);
            self.out.body.push(id);
        }
        let out = &mut self.out;
        out.body[neg_start..].sort_unstable();
        dedup_tail(&mut out.body, neg_start);
        out.head.push(head);
        out.neg.push(neg_start as u32);
        out.start.push(out.body.len() as u32);
        self.add_atom(rel, head)
    }

    fn add_atom(&mut self, rel: u32, id: u32) -> Result<(), Refusal> {
        if self.atom_pos.len() < self.terms.len() {
            self.atom_pos.resize(self.terms.len(), NONE);
        }
        if self.atom_pos[id as usize] != NONE {
            return Ok(());
        }
        self.atoms += 1;
        let r = &mut self.rels[rel as usize];
        let p = r.list.len() as u32;
        r.list.push(id);
        self.post(rel, id, p);
        self.atom_pos[id as usize] = p;
        self.check()?;
        let (target, sym) = match rel {
            INIT | NEXT => (TRUE, "true"),
            LEGAL => (DOES, "does"),
            _ => return Ok(()),
        };
        let sym = self.terms.name(&Sym::from(sym));
        let args = self.terms.args(id).to_vec();
        let t = self.terms.intern(sym, &args);
        self.add_atom(target, t)
    }

    fn finish(mut self) -> Grounding {
        self.atom_pos.resize(self.terms.len(), NONE);
        let bytes = self.peak.max(self.used());
        let old = std::mem::take(&mut self.out);
        let gone = self.split_atoms_to_drop(&old);
        // The rules without the new atoms that go (those of one rule
        // inlined), and without the negative literals that can never hold.
        let mut out = GroundRules {
            start: vec![0],
            ..GroundRules::default()
        };
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for (i, &h) in old.head.iter().enumerate() {
            if gone.contains_key(&h) {
                continue;
            }
            pos.clear();
            neg.clear();
            inlined_body(&old, &gone, i, &mut pos, &mut neg);
            pos.sort_unstable();
            pos.dedup();
            neg.sort_unstable();
            neg.dedup();
            out.body.extend_from_slice(&pos);
            out.neg.push(out.body.len() as u32);
            let possible = neg.iter().filter(|&&a| self.atom_pos[a as usize] != NONE);
            out.body.extend(possible);
            out.head.push(h);
            out.start.push(out.body.len() as u32);
        }
        // Without ground rules, the new relations serve nothing.
        let atoms_only = self.atoms_only;
        let rels: Vec<_> = self
            .rels
            .into_iter()
            .map(|mut r| {
                let split = is_new_relation(&r.name);
                r.list
                    .retain(|a| !(split && (atoms_only || gone.contains_key(a))));
                (r.name, r.arity, r.list)
            })
            .collect();
        Grounding {
            terms: self.terms,
            rels,
            rules: out,
            bytes,
            dropped: self.dropped,
            called: HashSet::new(),
        }
    }

    /// The atoms of the relations a split made ([`split`]) that go, each
    /// with the rule to inline in its place, if any:
    /// - those no rule reads (through the others): a new rule's join lacks
    ///   the literals of the rule it came from that tie its variables
    ///   together, so some of its atoms serve nothing;
    /// - those with one ground rule: where the eliminated variables take
    ///   one value given the new rule's head, the split gains nothing, and
    ///   the atom is inlined into the rules that read it (it is only ever
    ///   read positively), which restores the rule as the sheet wrote it.
    fn split_atoms_to_drop(&self, rules: &GroundRules) -> FxMap<u32, usize> {
        let split_rels: Vec<bool> = self
            .terms
            .names
            .iter()
            .map(|n| is_new_relation(n))
            .collect();
        let is_split = |a: u32| split_rels[self.terms.nodes[a as usize].0 as usize];
        let mut rules_of: FxMap<u32, Vec<usize>> = FxMap::default();
        let mut todo = Vec::new();
        for (i, &h) in rules.head.iter().enumerate() {
            if is_split(h) {
                rules_of.entry(h).or_default().push(i);
            } else {
                todo.push(i);
            }
        }
        let mut read = vec![false; self.terms.len()];
        while let Some(i) = todo.pop() {
            let (s, n) = (rules.start[i] as usize, rules.neg[i] as usize);
            for &a in &rules.body[s..n] {
                if is_split(a) && !read[a as usize] {
                    read[a as usize] = true;
                    todo.extend(rules_of.get(&a).into_iter().flatten());
                }
            }
        }
        rules_of
            .into_iter()
            .filter_map(|(a, r)| match (read[a as usize], &r[..]) {
                (false, _) => Some((a, NONE as usize)),
                (true, &[one]) => Some((a, one)),
                _ => None,
            })
            .collect()
    }
}

/// The body of ground rule `i`, the atoms of `gone` that have a rule
/// ([`Grounder::split_atoms_to_drop`]) replaced by its body, all through.
fn inlined_body(
    rules: &GroundRules,
    gone: &FxMap<u32, usize>,
    i: usize,
    pos: &mut Vec<u32>,
    neg: &mut Vec<u32>,
) {
    let (s, n, e) = (
        rules.start[i] as usize,
        rules.neg[i] as usize,
        rules.start[i + 1] as usize,
    );
    for &a in &rules.body[s..n] {
        match gone.get(&a) {
            // An atom a kept rule reads is never dropped (`NONE`).
            Some(&j) if j != NONE as usize => inlined_body(rules, gone, j, pos, neg),
            _ => pos.push(a),
        }
    }
    neg.extend_from_slice(&rules.body[n..e]);
}

/// Drops the repeats in `v[start..]`, which holds equal values side by side.
pub(crate) fn dedup_tail(v: &mut Vec<u32>, start: usize) {
    let mut w = start;
    for i in start..v.len() {
        if i == start || v[i] != v[w - 1] {
            v[w] = v[i];
            w += 1;
        }
    }
    v.truncate(w);
}
