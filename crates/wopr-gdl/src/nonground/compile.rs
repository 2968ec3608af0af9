//! Compiling a sheet for the non-ground evaluator: each rule's body in
//! disjunctive normal form (`or` expanded, `not` pushed inwards,
//! `(not (distinct s t))` solved by unification, in `normal.rs`), as
//! patterns over variable slots; the rules specialized to their ground
//! calls (`specialize.rs`); the relations split into strata (strongly connected components of
//! the dependency graph, in evaluation order); and per rule the join plans,
//! each step looking its candidates up in an [`Index`].

use std::collections::{HashMap, HashSet};

use crate::ast::{Atom, Literal, Sheet, Sym, Term};
use crate::ground::demand::RelKey;
use crate::ground::Terms;
use crate::GdlError;

use super::program::{fn_pat, Index, Op, Pat, Program, Raw, Rel, Rule, Stratum, DOES, TRUE};
use super::specialize::specialize;
use super::NONE;
use crate::ground::normal::{dnf, product, resolve, unify, BLit, Subst};

/// The relations and rules of a sheet being compiled.
struct Compiler<'a> {
    terms: &'a mut Terms,
    rels: Vec<Rel>,
    rel_ids: HashMap<(u32, usize), u32>,
    raws: Vec<Raw>,
}

impl Compiler<'_> {
    fn rel(&mut self, name: &Sym, arity: usize) -> u32 {
        let sym = self.terms.name(name);
        let next = self.rels.len() as u32;
        let id = *self.rel_ids.entry((sym, arity)).or_insert(next);
        if id == next {
            self.rels.push(Rel {
                name: name.clone(),
                arity,
                dynamic: false,
                stratum: NONE,
                demand: false,
            });
        }
        id
    }

    /// Compiles a term; a variable not yet in `vars` is new if `bind`, else
    /// the rule is unsafe.
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
                fn_pat(self.terms, sym, args)
            }
        })
    }

    fn atom(&mut self, a: &Atom, s: &Subst, vars: &mut Vec<Sym>, bind: bool) -> RawAtom {
        let rel = self.rel(&a.rel, a.args.len());
        let args = a.args.iter().map(|t| self.pat(&resolve(t, s), vars, bind));
        Ok((rel, args.collect::<Result<_, _>>()?))
    }

    /// Compiles one rule of the sheet: each alternative of its body.
    fn rule(&mut self, head: &Atom, body: &[Literal], line: usize) -> Result<(), GdlError> {
        let mut alts: Vec<Vec<BLit>> = vec![Vec::new()];
        for lit in body {
            alts = product(&alts, &dnf(lit, false, line)?, line)?;
        }
        for alt in alts {
            let mut s = Subst::new();
            if !alt.iter().all(|l| match l {
                BLit::Eq(a, b) => unify(a, b, &mut s),
                _ => true,
            }) {
                continue;
            }
            let unsafe_rule = |v: Sym| {
                GdlError(format!(
                    "line {line}: rule is unsafe: variable ?{v} is in no positive literal"
                ))
            };
            let mut vars = Vec::new();
            let mut raw = Raw {
                line,
                head_rel: NONE,
                head: Vec::new(),
                pos: Vec::new(),
                neg: Vec::new(),
                dist: Vec::new(),
                nvars: 0,
            };
            for l in &alt {
                if let BLit::Pos(a) = l {
                    let atom = self.atom(a, &s, &mut vars, true).map_err(unsafe_rule)?;
                    raw.pos.push(atom);
                }
            }
            (raw.head_rel, raw.head) =
                self.atom(head, &s, &mut vars, false).map_err(unsafe_rule)?;
            if raw.head_rel == TRUE || raw.head_rel == DOES {
                return Err(GdlError(format!(
                    "line {line}: a rule may not define `{}`",
                    head.rel
                )));
            }
            for l in &alt {
                match l {
                    BLit::Neg(a) => {
                        let atom = self.atom(a, &s, &mut vars, false).map_err(unsafe_rule)?;
                        raw.neg.push(atom);
                    }
                    BLit::Dist(x, y) => {
                        let x = self.pat(&resolve(x, &s), &mut vars, false);
                        let y = self.pat(&resolve(y, &s), &mut vars, false);
                        raw.dist
                            .push((x.map_err(unsafe_rule)?, y.map_err(unsafe_rule)?));
                    }
                    _ => {}
                }
            }
            raw.nvars = vars.len();
            self.raws.push(raw);
        }
        Ok(())
    }
}

type RawAtom = Result<(u32, Vec<Pat>), Sym>;

/// Compiles `sheet` over `terms` (those of its possible atoms):
/// `possible(name, arity)` gives a relation's possible atoms, and the
/// relations of `called` are answered on demand.
pub(super) fn compile<'p>(
    sheet: &Sheet,
    terms: &mut Terms,
    possible: &dyn Fn(&str, usize) -> &'p [u32],
    called: &HashSet<RelKey>,
) -> Result<Program, GdlError> {
    let mut c = Compiler {
        terms,
        rels: Vec::new(),
        rel_ids: HashMap::new(),
        raws: Vec::new(),
    };
    c.rel(&Sym::from("true"), 1);
    c.rel(&Sym::from("does"), 2);
    for r in &sheet.rules {
        c.rule(&r.head, &r.body, r.line)?;
    }
    let Compiler {
        terms,
        mut rels,
        raws,
        rel_ids,
    } = c;
    for (name, arity) in called {
        let sym = terms.name(name);
        if let Some(&r) = rel_ids.get(&(sym, *arity)) {
            rels[r as usize].demand = true;
        }
    }
    let raws = specialize(raws, &rels, terms);
    let mut deps = vec![Vec::new(); rels.len()];
    for r in &raws {
        let d = &mut deps[r.head_rel as usize];
        d.extend(r.pos.iter().chain(&r.neg).map(|a| a.0));
    }
    deps.iter_mut().for_each(|d| {
        d.sort_unstable();
        d.dedup();
    });
    let comps = components(&deps);
    for (i, comp) in comps.iter().enumerate() {
        comp.iter()
            .for_each(|&r| rels[r as usize].stratum = i as u32);
    }
    let mut strata: Vec<Stratum> = comps
        .into_iter()
        .map(|rels| Stratum {
            rels,
            rules: Vec::new(),
            recursive: false,
            dynamic: false,
        })
        .collect();
    for (i, r) in raws.iter().enumerate() {
        let s = rels[r.head_rel as usize].stratum;
        let same = |rel: u32| rels[rel as usize].stratum == s;
        if let Some(n) = r.neg.iter().find(|n| same(n.0)) {
            return Err(GdlError(format!(
                "line {}: negation is not stratified: `{}` depends on its own negation",
                r.line, rels[n.0 as usize].name
            )));
        }
        let st = &mut strata[s as usize];
        st.rules.push(i as u32);
        st.recursive |= r.pos.iter().any(|p| same(p.0));
    }
    for st in &mut strata {
        st.dynamic = st.rels.iter().any(|&r| {
            r == TRUE || r == DOES || deps[r as usize].iter().any(|&d| rels[d as usize].dynamic)
        });
        st.rels
            .iter()
            .for_each(|&r| rels[r as usize].dynamic = st.dynamic);
    }
    let recursive: Vec<bool> = rels
        .iter()
        .map(|r| r.stratum != NONE && strata[r.stratum as usize].recursive)
        .collect();
    let mut plan = Planner {
        terms,
        rels: &rels,
        recursive: &recursive,
        possible,
        indexes: Vec::new(),
        index_ids: HashMap::new(),
        spare: HashMap::new(),
        adorns: HashMap::new(),
        pending: Vec::new(),
    };
    let mut rules = Vec::with_capacity(raws.len());
    for r in &raws {
        let s = rels[r.head_rel as usize].stratum;
        if rels[r.head_rel as usize].demand {
            // Run once a call has matched the head: its variables bound.
            let mut bound = vec![false; r.nvars];
            r.head.iter().for_each(|a| mark(a, &mut bound));
            rules.push(Rule {
                head_rel: r.head_rel,
                head: r.head.clone().into(),
                head_index: NONE,
                head_key: Box::default(),
                nvars: r.nvars,
                plans: vec![plan.plan(r, None, bound)],
                adorned: Vec::new(),
            });
            continue;
        }
        let mut plans = vec![plan.plan(r, None, vec![false; r.nvars])];
        if strata[s as usize].recursive {
            for (j, p) in r.pos.iter().enumerate() {
                if rels[p.0 as usize].stratum == s {
                    plans.push(plan.plan(r, Some(j), vec![false; r.nvars]));
                }
            }
        }
        let (head_index, head_key) = plan.index(r.head_rel, &r.head, &vec![true; r.nvars]);
        rules.push(Rule {
            head_rel: r.head_rel,
            head: r.head.clone().into(),
            head_index,
            head_key,
            nvars: r.nvars,
            plans,
            adorned: Vec::new(),
        });
    }
    // The plans of the rules solved with some arguments unbound, for each
    // adornment a plan asked for (which may ask for more).
    while let Some((rel, mask, id)) = plan.pending.pop() {
        for (i, r) in raws.iter().enumerate().filter(|(_, r)| r.head_rel == rel) {
            let mut bound = vec![false; r.nvars];
            let at = r.head.iter().zip(mask.iter()).filter(|(_, &m)| m);
            at.for_each(|(a, _)| mark(a, &mut bound));
            let p = plan.plan(r, None, bound);
            let rule = &mut rules[i];
            rule.plans.push(p);
            rule.adorned.push((id, rule.plans.len() as u32 - 1));
        }
    }
    let indexes = plan.indexes;
    Ok(Program {
        rels,
        rules,
        strata,
        indexes,
        deps,
    })
}

impl Program {
    /// The dynamic strata that relations `targets` need, in evaluation
    /// order. A relation answered on demand is read through its rules'
    /// plans, its stratum never evaluated.
    pub(super) fn strata_for(&self, targets: &[u32]) -> Vec<u32> {
        let mut need = vec![false; self.rels.len()];
        let mut todo: Vec<u32> = targets.iter().copied().filter(|&t| t != NONE).collect();
        while let Some(r) = todo.pop() {
            if !std::mem::replace(&mut need[r as usize], true) {
                todo.extend(&self.deps[r as usize]);
            }
        }
        let mut out: Vec<u32> = (0..self.rels.len())
            .filter(|&r| need[r] && self.rels[r].dynamic && !self.rels[r].demand)
            .map(|r| self.rels[r].stratum)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The relation `name` of `arity`, if the sheet has it.
    pub(super) fn find_rel(&self, name: &str, arity: usize) -> u32 {
        self.rels
            .iter()
            .position(|r| &*r.name == name && r.arity == arity)
            .map_or(NONE, |r| r as u32)
    }
}

/// A relation, a pattern with its variables numbered from 0, and which of
/// them are bound: what an [`Index`] is built for.
type IndexKey = (u32, Box<[Pat]>, Box<[bool]>);

/// Makes the join plans, and the indexes they look up.
struct Planner<'a, 'p> {
    terms: &'a Terms,
    rels: &'a [Rel],
    possible: &'a dyn Fn(&str, usize) -> &'p [u32],
    indexes: Vec<Index>,
    index_ids: HashMap<IndexKey, u32>,
    /// The indexes built to weigh a plan's choices but not (yet) used.
    spare: HashMap<IndexKey, Index>,
    /// Per relation, whether its stratum is recursive.
    recursive: &'a [bool],
    /// The adornments asked for by [`Op::Solve`] (a relation, which
    /// arguments are bound), and those whose plans are still to be made.
    adorns: HashMap<(u32, Box<[bool]>), u32>,
    pending: Vec<(u32, Box<[bool]>, u32)>,
}

impl Planner<'_, '_> {
    /// What the index of `rel` for pattern `args` whose variables `bound`
    /// are bound is built for, and its key (as rule variables).
    fn key(rel: u32, args: &[Pat], bound: &[bool]) -> (IndexKey, Box<[u32]>) {
        let mut slots = Vec::new();
        let pat: Box<[Pat]> = args.iter().map(|a| canon(a, &mut slots)).collect();
        let mask = slots.iter().map(|&v| bound[v as usize]).collect();
        let key = slots.iter().copied().filter(|&v| bound[v as usize]);
        ((rel, pat, mask), key.collect())
    }

    fn build(&self, (rel, pat, mask): IndexKey) -> Index {
        let r = &self.rels[rel as usize];
        Index::build(
            rel,
            pat,
            mask,
            self.terms,
            (self.possible)(&r.name, r.arity),
        )
    }

    /// The index for `args` of `rel` with `bound` variables, and its key.
    fn index(&mut self, rel: u32, args: &[Pat], bound: &[bool]) -> (u32, Box<[u32]>) {
        let (ik, key) = Planner::key(rel, args, bound);
        if let Some(&id) = self.index_ids.get(&ik) {
            return (id, key);
        }
        let index = match self.spare.remove(&ik) {
            Some(index) => index,
            None => self.build(ik.clone()),
        };
        self.indexes.push(index);
        self.index_ids.insert(ik, self.indexes.len() as u32 - 1);
        (self.indexes.len() as u32 - 1, key)
    }

    /// How many atoms a lookup of `args` of `rel` with `bound` variables
    /// finds on average.
    fn cost(&mut self, rel: u32, args: &[Pat], bound: &[bool]) -> usize {
        let (ik, _) = Planner::key(rel, args, bound);
        if let Some(&id) = self.index_ids.get(&ik) {
            return self.indexes[id as usize].cost();
        }
        if !self.spare.contains_key(&ik) {
            let index = self.build(ik.clone());
            self.spare.insert(ik.clone(), index);
        }
        self.spare.get(&ik).map_or(0, Index::cost)
    }

    /// A join plan for `r`, starting from the new atoms of positive literal
    /// `first` if given, the variables `bound` bound before. Greedily: the positive literal whose lookup finds
    /// the fewest possible atoms on average (a `does` literal counts as at
    /// most 2: one move per role holds), each negative literal and
    /// `distinct` as soon as its variables are bound.
    fn plan(&mut self, r: &Raw, first: Option<usize>, mut bound: Vec<bool>) -> Vec<Op> {
        // The literals over relations answered on demand are calls, placed
        // once their variables are bound and no literal evaluated
        // bottom-up is a mere check (all its variables bound): a call may
        // run many rules.
        let demand = |rel: u32| self.rels[rel as usize].demand;
        let mut calls: Vec<(u32, &[Pat], bool)> = r
            .pos
            .iter()
            .map(|(rel, a)| (*rel, &a[..], false))
            .chain(r.neg.iter().map(|(rel, a)| (*rel, &a[..], true)))
            .filter(|c| demand(c.0))
            .collect();
        let mut left: Vec<usize> = (0..r.pos.len()).filter(|&j| !demand(r.pos[j].0)).collect();
        let (mut negs, mut dists) = (vec![false; r.neg.len()], vec![false; r.dist.len()]);
        let mut ops = Vec::new();
        loop {
            self.checks(r, &bound, &mut negs, &mut dists, &mut ops);
            let pick = match first {
                Some(j) if ops.iter().all(|o| !matches!(o, Op::Pos { .. })) => Some(j),
                _ => {
                    let all_bound = |j: &usize| r.pos[*j].1.iter().all(|p| is_bound(p, &bound));
                    let check = left.iter().copied().find(all_bound);
                    if check.is_none() {
                        calls.retain(|&(rel, args, neg)| {
                            let ready = args.iter().all(|p| is_bound(p, &bound));
                            if ready {
                                let args = args.into();
                                ops.push(Op::Call { rel, args, neg });
                            }
                            !ready
                        });
                    }
                    check.or_else(|| {
                        left.iter().copied().min_by_key(|&j| {
                            let (rel, args) = &r.pos[j];
                            let cost = self.cost(*rel, args, &bound);
                            (if *rel == DOES { cost.min(2) } else { cost }, j)
                        })
                    })
                }
            };
            let Some(j) = pick else {
                // Then the calls that enumerate, in the body's order: over
                // a relation that is not recursive first, else over one
                // with an argument bound.
                let some_bound = |c: &(u32, &[Pat], bool)| c.1.iter().any(|p| is_bound(p, &bound));
                let solve = (calls.iter())
                    .position(|c| !c.2 && !self.recursive[c.0 as usize])
                    .or_else(|| calls.iter().position(|c| !c.2 && some_bound(c)));
                let Some(i) = solve else {
                    debug_assert!(calls.is_empty(), "a call's variables are bound");
                    break;
                };
                let (rel, args, _) = calls.remove(i);
                let (rel, args) = (&rel, args);
                let mask: Box<[bool]> = args.iter().map(|a| is_bound(a, &bound)).collect();
                let next = self.adorns.len() as u32;
                let adorn = *self.adorns.entry((*rel, mask.clone())).or_insert(next);
                if adorn == next {
                    self.pending.push((*rel, mask, adorn));
                }
                args.iter().for_each(|a| mark(a, &mut bound));
                let (rel, args) = (*rel, args.into());
                ops.push(Op::Solve { rel, args, adorn });
                continue;
            };
            left.retain(|&x| x != j);
            let (rel, args) = &r.pos[j];
            let (index, key) = if Some(j) == first {
                (NONE, Box::default())
            } else {
                self.index(*rel, args, &bound)
            };
            args.iter().for_each(|a| mark(a, &mut bound));
            ops.push(Op::Pos {
                rel: *rel,
                args: args.clone().into(),
                index,
                key,
                delta: Some(j) == first,
            });
        }
        ops
    }

    /// Appends the negative literals and `distinct`s not yet placed whose
    /// variables are all bound.
    fn checks(
        &mut self,
        r: &Raw,
        bound: &[bool],
        negs: &mut [bool],
        dists: &mut [bool],
        ops: &mut Vec<Op>,
    ) {
        let all = |p: &Pat| is_bound(p, bound);
        for (i, (rel, args)) in r.neg.iter().enumerate() {
            if !negs[i] && !self.rels[*rel as usize].demand && args.iter().all(all) {
                negs[i] = true;
                let (index, key) = self.index(*rel, args, bound);
                ops.push(Op::Neg {
                    rel: *rel,
                    args: args.clone().into(),
                    index,
                    key,
                });
            }
        }
        for (i, (x, y)) in r.dist.iter().enumerate() {
            if !dists[i] && all(x) && all(y) {
                dists[i] = true;
                ops.push(Op::Dist(x.clone(), y.clone()));
            }
        }
    }
}

/// A pattern with its variables renumbered by first occurrence (`slots`
/// maps the new numbers to the old).
fn canon(p: &Pat, slots: &mut Vec<u32>) -> Pat {
    match p {
        Pat::Var(v) => match slots.iter().position(|x| x == v) {
            Some(i) => Pat::Var(i as u32),
            None => {
                slots.push(*v);
                Pat::Var(slots.len() as u32 - 1)
            }
        },
        Pat::Ground(g) => Pat::Ground(*g),
        Pat::Fn(f, args) => Pat::Fn(*f, args.iter().map(|a| canon(a, slots)).collect()),
    }
}

fn mark(p: &Pat, bound: &mut [bool]) {
    match p {
        Pat::Var(v) => bound[*v as usize] = true,
        Pat::Ground(_) => {}
        Pat::Fn(_, args) => args.iter().for_each(|a| mark(a, bound)),
    }
}

fn is_bound(p: &Pat, bound: &[bool]) -> bool {
    match p {
        Pat::Var(v) => bound[*v as usize],
        Pat::Ground(_) => true,
        Pat::Fn(_, args) => args.iter().all(|a| is_bound(a, bound)),
    }
}

/// The strongly connected components of the graph `deps` (an edge from a
/// relation to each it reads), each after those it reaches (Tarjan's
/// algorithm, without recursion).
fn components(deps: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let n = deps.len();
    let (mut index, mut low) = (vec![NONE; n], vec![0u32; n]);
    let (mut on, mut stack, mut comps) = (vec![false; n], Vec::new(), Vec::new());
    let mut counter = 0;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        (index[root], low[root], on[root]) = (counter, counter, true);
        counter += 1;
        stack.push(root as u32);
        while let Some(&(v, e)) = call.last() {
            if let Some(&w) = deps[v].get(e) {
                if let Some(c) = call.last_mut() {
                    c.1 += 1;
                }
                let w = w as usize;
                if index[w] == NONE {
                    (index[w], low[w], on[w]) = (counter, counter, true);
                    counter += 1;
                    stack.push(w as u32);
                    call.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w as usize] = false;
                    comp.push(w);
                    if w as usize == v {
                        break;
                    }
                }
                comps.push(comp);
            }
        }
    }
    comps
}
