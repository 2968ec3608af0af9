//! Grounding a rule sheet: every rule instantiated over the atoms that can
//! ever hold, so that the reasoner ([`super::reasoner`]) evaluates a
//! propositional program.
//!
//! The atoms that can hold come from a relaxed bottom-up fixpoint that
//! ignores negation (`distinct` is kept: it only prunes): `true(X)` is
//! possible once `init(X)` or `next(X)` is, `does(R, M)` once `legal(R, M)`
//! is. The fixpoint is semi-naive: each round joins every rule with at least
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

use std::collections::HashMap;

use super::ast::{Atom, Literal, Sheet, Sym, Term};
use super::GdlError;

pub(in crate::games::gdl) mod normal;
mod plan;
mod terms;

use normal::{dnf, product, resolve, unify, BLit};
pub(in crate::games::gdl) use plan::{match_args, Pat};
use plan::{match_pat, plan, slot, slot_pat, CRule, PStep, SUB_SLOTS};
use terms::FxMap;
pub(super) use terms::Terms;

/// The default bound on ground rules plus ground atoms
/// ([`ground`]'s `limit`).
pub const DEFAULT_LIMIT: usize = 2_000_000;

/// How deeply a derived ground atom may nest.
pub const MAX_DEPTH: u32 = 500;

/// "No value" in the index tables.
const NONE: u32 = u32::MAX;

/// A relation's possible atoms: the list in order of discovery, with a
/// posting list per argument position and value; `old..cur` is the last
/// round's new atoms.
struct Rel {
    sym: u32,
    name: Sym,
    arity: usize,
    list: Vec<u32>,
    index: Vec<FxMap<u32, Vec<u32>>>,
    old: usize,
    cur: usize,
}

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

    /// How many atoms can ever hold.
    pub fn num_atoms(&self) -> usize {
        self.rels.iter().map(|(_, _, l)| l.len()).sum()
    }
}

/// Grounds `sheet`: fails if it is not safe, or if ground rules and atoms
/// together would exceed `limit` ([`DEFAULT_LIMIT`] is a good value).
pub fn ground(sheet: &Sheet, limit: usize) -> Result<Grounding, GdlError> {
    possible(sheet, limit, false)
}

/// As [`ground`]; with `atoms` the relaxed fixpoint keeps no ground rules,
/// and `limit` bounds the possible atoms (and one rule's joins in a round)
/// alone, for the non-ground evaluator ([`super::nonground`]).
pub(super) fn possible(sheet: &Sheet, limit: usize, atoms: bool) -> Result<Grounding, GdlError> {
    let mut g = Grounder {
        limit,
        atoms_only: atoms,
        ..Grounder::default()
    };
    for name in ["true", "does", "init", "next", "legal"] {
        let arity = 1 + usize::from(matches!(name, "does" | "legal"));
        let sym = g.terms.name(&Sym::from(name));
        g.rel(sym, arity);
    }
    for rule in &sheet.rules {
        g.add_rule(&rule.head, &rule.body, rule.line)?;
    }
    g.run()?;
    Ok(g.finish())
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
    limit: usize,
    /// Whether to keep no ground rules, only the possible atoms.
    atoms_only: bool,
    /// The line of the rule being grounded (for the limit's error).
    line: usize,
}

/// The scratch of a join.
#[derive(Default)]
struct JoinState {
    binds: Vec<u32>,
    trail: Vec<u32>,
    atoms: Vec<u32>,
    key: Vec<u32>,
    out: Vec<u32>,
    found: usize,
    budget: usize,
}

/// The relation numbers of `true`, `does`, `init`, `next`, `legal` (made
/// first by [`ground`]).
const TRUE: u32 = 0;
const DOES: u32 = 1;
const INIT: u32 = 2;
const NEXT: u32 = 3;
const LEGAL: u32 = 4;

impl Grounder {
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
            old: 0,
            cur: 0,
        });
        self.rel_ids.insert((sym, arity), r);
        r
    }

    fn too_big(&self) -> GdlError {
        GdlError(format!(
            "line {}: grounding exceeds {} ground rules and atoms (at this rule); the game \
             is too large to ground (use a non-ground evaluator)",
            self.line, self.limit
        ))
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
                    other => rest.push(other),
                }
            }
            if ok {
                self.compile(line, head, rest, &subst)?;
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

    /// The semi-naive fixpoint.
    fn run(&mut self) -> Result<(), GdlError> {
        let rules = std::mem::take(&mut self.rules);
        let mut st = JoinState::default();
        for r in rules.iter().filter(|r| r.pos.is_empty()) {
            self.line = r.line;
            st.binds.clear();
            if r.dist.iter().all(|(x, y)| !self.pat_eq(x, y, &st.binds)) {
                self.produce(r, &[], &[])?;
            }
        }
        loop {
            let mut fresh = false;
            for rel in &mut self.rels {
                rel.old = rel.cur;
                rel.cur = rel.list.len();
                fresh |= rel.cur > rel.old;
            }
            if !fresh {
                break;
            }
            for r in &rules {
                self.line = r.line;
                for i in 0..r.pos.len() {
                    let rel = &self.rels[r.pos[i].0 as usize];
                    if rel.cur == rel.old {
                        continue;
                    }
                    st.binds.clear();
                    st.binds.resize(r.nvars, NONE);
                    st.atoms.clear();
                    st.atoms.resize(r.pos.len(), NONE);
                    st.out.clear();
                    st.found = 0;
                    st.budget = self.limit.saturating_sub(self.atoms + self.out.head.len());
                    // Planned now, from the relations' sizes so far.
                    let steps = plan(r, i, |j, slots, full| self.estimate(r, j, slots, full));
                    if self.join(r, &steps, 0, i, &mut st).is_err() {
                        return Err(self.too_big());
                    }
                    let width = r.nvars + r.pos.len();
                    let out = std::mem::take(&mut st.out);
                    for chunk in out.chunks(width.max(1)).take(st.found) {
                        let (binds, atoms) = chunk.split_at(r.nvars);
                        self.produce(r, binds, atoms)?;
                    }
                    st.out = out;
                }
            }
        }
        self.rules = rules;
        Ok(())
    }

    /// The expected matches of positive literal `j` of `r` probed at
    /// `slots` (see [`plan::expected`]).
    fn estimate(&self, r: &CRule, j: usize, slots: &[(usize, Option<usize>)], full: bool) -> f64 {
        let rel = &self.rels[r.pos[j].0 as usize];
        let keys = slots.iter().map(|&(k, sub)| rel.index[slot(k, sub)].len());
        plan::expected(rel.list.len(), keys, full)
    }

    /// Joins plan step `k` onwards; `first` is the literal matched among the
    /// last round's atoms (those before it among older atoms only).
    fn join(
        &self,
        r: &CRule,
        plan: &[PStep],
        k: usize,
        first: usize,
        st: &mut JoinState,
    ) -> Result<(), ()> {
        let Some(step) = plan.get(k) else {
            if st.found >= st.budget {
                return Err(());
            }
            st.found += 1;
            st.out.extend_from_slice(&st.binds);
            st.out.extend_from_slice(&st.atoms);
            return Ok(());
        };
        let (rel_id, args) = &r.pos[step.lit];
        let rel = &self.rels[*rel_id as usize];
        let (lo, hi) = match step.lit.cmp(&first) {
            std::cmp::Ordering::Less => (0, rel.old),
            std::cmp::Ordering::Equal => (rel.old, rel.cur),
            std::cmp::Ordering::Greater => (0, rel.cur),
        };
        if lo >= hi {
            return Ok(());
        }
        if step.full {
            let mark = st.key.len();
            st.key.push(rel.sym);
            for a in args {
                match self.find_inst(a, &st.binds, &mut st.key) {
                    Some(id) => st.key.push(id),
                    None => {
                        st.key.truncate(mark);
                        return Ok(());
                    }
                }
            }
            let id = self.terms.find(&st.key[mark..]);
            st.key.truncate(mark);
            if let Some(id) = id {
                let p = self.atom_pos.get(id as usize).copied().unwrap_or(NONE) as usize;
                if (lo..hi).contains(&p) {
                    self.try_atom(r, plan, k, first, id, st)?;
                }
            }
        } else if !step.bound.is_empty() {
            let mut best: Option<&Vec<u32>> = None;
            for &(k, j) in &step.bound {
                let pat = slot_pat(args, k, j);
                let Some(v) = self.find_inst(pat, &st.binds, &mut st.key) else {
                    return Ok(());
                };
                let Some(list) = rel.index[slot(k, j)].get(&v) else {
                    return Ok(());
                };
                if best.is_none_or(|b| list.len() < b.len()) {
                    best = Some(list);
                }
            }
            let best = best.unwrap_or_else(|| unreachable!());
            let from = best.partition_point(|&x| (x as usize) < lo);
            for &p in &best[from..] {
                if p as usize >= hi {
                    break;
                }
                self.try_atom(r, plan, k, first, rel.list[p as usize], st)?;
            }
        } else {
            for p in lo..hi {
                self.try_atom(r, plan, k, first, rel.list[p], st)?;
            }
        }
        Ok(())
    }

    fn try_atom(
        &self,
        r: &CRule,
        plan: &[PStep],
        k: usize,
        first: usize,
        id: u32,
        st: &mut JoinState,
    ) -> Result<(), ()> {
        let step = &plan[k];
        let mark = st.trail.len();
        let args = &r.pos[step.lit].1;
        let ok = args
            .iter()
            .zip(self.terms.args(id))
            .all(|(p, &t)| match_pat(&self.terms, p, t, &mut st.binds, &mut st.trail))
            && step
                .checks
                .iter()
                .all(|&d| !self.pat_eq(&r.dist[d].0, &r.dist[d].1, &st.binds));
        let res = if ok {
            st.atoms[step.lit] = id;
            self.join(r, plan, k + 1, first, st)
        } else {
            Ok(())
        };
        for &v in &st.trail[mark..] {
            st.binds[v as usize] = NONE;
        }
        st.trail.truncate(mark);
        res
    }

    /// The number of a bound pattern's term, if it was interned (else no
    /// atom can contain it).
    fn find_inst(&self, p: &Pat, binds: &[u32], key: &mut Vec<u32>) -> Option<u32> {
        match p {
            Pat::Ground(g) => Some(*g),
            Pat::Var(v) => Some(binds[*v as usize]),
            Pat::Fn(f, args) => {
                let mark = key.len();
                key.push(*f);
                for a in args {
                    match self.find_inst(a, binds, key) {
                        Some(id) => key.push(id),
                        None => {
                            key.truncate(mark);
                            return None;
                        }
                    }
                }
                let id = self.terms.find(&key[mark..]);
                key.truncate(mark);
                id
            }
        }
    }

    /// Whether a bound pattern equals a term.
    fn eq_id(&self, p: &Pat, t: u32, binds: &[u32]) -> bool {
        match p {
            Pat::Ground(g) => *g == t,
            Pat::Var(v) => binds[*v as usize] == t,
            Pat::Fn(f, args) => {
                let targs = self.terms.args(t);
                self.terms.nodes[t as usize].0 == *f
                    && targs.len() == args.len()
                    && args
                        .iter()
                        .zip(targs)
                        .all(|(a, &x)| self.eq_id(a, x, binds))
            }
        }
    }

    /// Whether two bound patterns are equal.
    fn pat_eq(&self, x: &Pat, y: &Pat, binds: &[u32]) -> bool {
        match (x, y) {
            (Pat::Ground(g), p) | (p, Pat::Ground(g)) => self.eq_id(p, *g, binds),
            (Pat::Var(v), p) | (p, Pat::Var(v)) => self.eq_id(p, binds[*v as usize], binds),
            (Pat::Fn(f, xs), Pat::Fn(g, ys)) => {
                f == g
                    && xs.len() == ys.len()
                    && xs.iter().zip(ys).all(|(a, b)| self.pat_eq(a, b, binds))
            }
        }
    }

    /// The number of a bound pattern's term, interning it.
    fn inst(&mut self, p: &Pat, binds: &[u32]) -> u32 {
        match p {
            Pat::Ground(g) => *g,
            Pat::Var(v) => binds[*v as usize],
            Pat::Fn(f, args) => {
                let ids: Vec<u32> = args.iter().map(|a| self.inst(a, binds)).collect();
                self.terms.intern(*f, &ids)
            }
        }
    }

    /// Records the ground rule of one successful join, and its head.
    fn produce(&mut self, r: &CRule, binds: &[u32], atoms: &[u32]) -> Result<(), GdlError> {
        let head = self.inst(&r.head, binds);
        if self.terms.depth(head) > MAX_DEPTH {
            return Err(GdlError(format!(
                "line {}: grounding makes terms nested deeper than {MAX_DEPTH} (a function \
                 applied without end?); the game cannot be grounded",
                r.line
            )));
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

    fn add_atom(&mut self, rel: u32, id: u32) -> Result<(), GdlError> {
        if self.atom_pos.len() < self.terms.len() {
            self.atom_pos.resize(self.terms.len(), NONE);
        }
        if self.atom_pos[id as usize] != NONE {
            return Ok(());
        }
        self.atoms += 1;
        if self.atoms + self.out.head.len() > self.limit {
            return Err(self.too_big());
        }
        let r = &mut self.rels[rel as usize];
        let p = r.list.len() as u32;
        r.list.push(id);
        for (k, &a) in self.terms.args(id).iter().enumerate() {
            r.index[slot(k, None)].entry(a).or_default().push(p);
            // The arguments of a nested term, for patterns that bind some
            // of them only (`(true (cell ?x ?y ?p))`).
            for (j, &b) in self.terms.args(a).iter().take(SUB_SLOTS).enumerate() {
                r.index[slot(k, Some(j))].entry(b).or_default().push(p);
            }
        }
        self.atom_pos[id as usize] = p;
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
        // Drop the negative literals that can never hold.
        let old = std::mem::take(&mut self.out);
        let mut out = GroundRules {
            start: vec![0],
            ..GroundRules::default()
        };
        for (i, &h) in old.head.iter().enumerate() {
            let (s, n, e) = (
                old.start[i] as usize,
                old.neg[i] as usize,
                old.start[i + 1] as usize,
            );
            out.body.extend_from_slice(&old.body[s..n]);
            out.neg.push(out.body.len() as u32);
            let possible = old.body[n..e]
                .iter()
                .filter(|&&a| self.atom_pos[a as usize] != NONE);
            out.body.extend(possible);
            out.head.push(h);
            out.start.push(out.body.len() as u32);
        }
        Grounding {
            terms: self.terms,
            rels: self
                .rels
                .into_iter()
                .map(|r| (r.name, r.arity, r.list))
                .collect(),
            rules: out,
        }
    }
}

/// Drops the repeats in `v[start..]`, which holds equal values side by side.
pub(in crate::games::gdl) fn dedup_tail(v: &mut Vec<u32>, start: usize) {
    let mut w = start;
    for i in start..v.len() {
        if i == start || v[i] != v[w - 1] {
            v[w] = v[i];
            w += 1;
        }
    }
    v.truncate(w);
}
