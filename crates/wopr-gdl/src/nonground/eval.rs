//! The evaluation of compiled rules: static indexes over the possible atoms,
//! unification of patterns with ground terms, and the joins of a stratum
//! (semi-naive when it is recursive) over one query's scratch.

use std::rc::Rc;

use crate::ground::{FxMap, Terms};

use super::program::{key_hash, match_args, Op, Pat, Program, Rule, Stratum};
use super::NONE;

/// Whether a pattern whose variables are all bound equals a term.
fn equals(terms: &Terms, p: &Pat, t: u32, binds: &[u32]) -> bool {
    match p {
        Pat::Ground(g) => *g == t,
        Pat::Var(v) => binds[*v as usize] == t,
        Pat::Fn(f, args) => {
            let targs = terms.args(t);
            terms.nodes[t as usize].0 == *f
                && args.len() == targs.len()
                && args
                    .iter()
                    .zip(targs)
                    .all(|(a, &x)| equals(terms, a, x, binds))
        }
    }
}

fn equals_args(terms: &Terms, pats: &[Pat], t: u32, binds: &[u32]) -> bool {
    let args = terms.args(t);
    pats.len() == args.len()
        && pats
            .iter()
            .zip(args)
            .all(|(p, &x)| equals(terms, p, x, binds))
}

/// Whether two patterns whose variables are all bound are equal.
fn pat_eq(terms: &Terms, x: &Pat, y: &Pat, binds: &[u32]) -> bool {
    match (x, y) {
        (Pat::Ground(g), p) | (p, Pat::Ground(g)) => equals(terms, p, *g, binds),
        (Pat::Var(v), p) | (p, Pat::Var(v)) => equals(terms, p, binds[*v as usize], binds),
        (Pat::Fn(f, xs), Pat::Fn(g, ys)) => {
            f == g
                && xs.len() == ys.len()
                && xs
                    .iter()
                    .zip(ys.iter())
                    .all(|(a, b)| pat_eq(terms, a, b, binds))
        }
    }
}

/// One query's working memory: a generation stamp per term (an atom holds
/// iff its stamp is `gen`), and per relation the atoms that hold, in the
/// order they were found.
#[derive(Default)]
pub(super) struct Scratch {
    gen: u32,
    stamp: Vec<u32>,
    /// Per relation: the atoms found to hold.
    pub(super) lists: Vec<Vec<u32>>,
    /// Per relation of a recursive stratum: the last round's new atoms.
    delta: Vec<(u32, u32)>,
    binds: Vec<u32>,
    trail: Vec<u32>,
    /// Whether the rule of a call ([`Op::Call`]) being joined has found a
    /// body that holds.
    found: bool,
    /// Vectors kept for the calls' arguments and variables.
    spare: Vec<Vec<u32>>,
    /// The calls answered in this query (relation, then arguments).
    memo: FxMap<Box<[u32]>, bool>,
    /// The calls and solves being answered, outermost first (a solve's
    /// key has a `NONE` argument, a call's none).
    active: Vec<Box<[u32]>>,
    /// The outermost depth in `active` that the call or solve being
    /// answered met again below itself (`usize::MAX` if none). Its answer
    /// is kept for the query only if that depth is its own or deeper, or
    /// if it is a call that holds: a call that met an outer one may hold
    /// once the outer one's other rules have been tried, and a solve that
    /// did may find more tuples once the outer one has.
    low: usize,
    /// Whether the rules being joined are those of an [`Op::Solve`], and
    /// the tuples they found so far (one after another).
    solving: bool,
    tuples: Vec<u32>,
    /// The tuples of each solve in this query (relation, then its bound
    /// arguments or `NONE`).
    solved: FxMap<Box<[u32]>, Rc<[u32]>>,
    /// The tuples found so far by each solve being answered.
    progress: FxMap<Box<[u32]>, Rc<[u32]>>,
    /// Whether the static relations are being evaluated (their indexes
    /// then hold every possible atom, not only those that hold).
    pub(super) building: bool,
}

impl Scratch {
    /// Starts a query over `terms` terms and `rels` relations: no atom
    /// holds.
    pub(super) fn start(&mut self, terms: usize, rels: usize) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 || self.stamp.len() < terms {
            self.stamp.clear();
            self.stamp.resize(terms.max(self.stamp.capacity()), 0);
            self.gen = 1;
        }
        if self.lists.len() < rels {
            self.lists.resize_with(rels, Vec::new);
            self.delta.resize(rels, (0, 0));
        }
        self.lists.iter_mut().take(rels).for_each(Vec::clear);
        self.memo.clear();
        self.solved.clear();
    }

    /// Makes atom `a` of relation `rel` hold.
    pub(super) fn add(&mut self, rel: u32, a: u32) {
        if self.stamp[a as usize] != self.gen {
            self.stamp[a as usize] = self.gen;
            self.lists[rel as usize].push(a);
        }
    }

    /// Whether atom `a` holds.
    pub(super) fn holds(&self, a: u32) -> bool {
        self.stamp[a as usize] == self.gen
    }
}

/// Evaluates the rules of a compiled program.
pub(super) struct Eval<'a> {
    pub(super) prog: &'a Program,
    pub(super) terms: &'a Terms,
}

impl Eval<'_> {
    /// Evaluates stratum `s`: every rule once, then, if it is recursive,
    /// rounds in which each rule joins one recursive literal with the
    /// atoms new in the round before, until no atom is new.
    pub(super) fn stratum(&self, s: &Stratum, sc: &mut Scratch) {
        for &r in &s.rules {
            self.run(&self.prog.rules[r as usize], 0, sc);
        }
        if !s.recursive {
            return;
        }
        s.rels
            .iter()
            .for_each(|&rel| sc.delta[rel as usize] = (0, 0));
        loop {
            let mut fresh = false;
            for &rel in &s.rels {
                let rel = rel as usize;
                sc.delta[rel] = (sc.delta[rel].1, sc.lists[rel].len() as u32);
                fresh |= sc.delta[rel].1 > sc.delta[rel].0;
            }
            if !fresh {
                break;
            }
            for &r in &s.rules {
                let rule = &self.prog.rules[r as usize];
                for p in 1..rule.plans.len() {
                    if let Some(Op::Pos { rel, .. }) = rule.plans[p].first() {
                        let (lo, hi) = sc.delta[*rel as usize];
                        if hi > lo {
                            self.run(rule, p, sc);
                        }
                    }
                }
            }
        }
    }

    fn run(&self, rule: &Rule, plan: usize, sc: &mut Scratch) {
        sc.binds.clear();
        sc.binds.resize(rule.nvars, NONE);
        sc.trail.clear();
        self.join(rule, &rule.plans[plan], 0, sc);
    }

    /// The atoms of index `i` under the key that `key` (variables of the
    /// rule) takes in `binds`.
    fn bucket(&self, i: u32, key: &[u32], binds: &[u32]) -> &[u32] {
        let h = key_hash(key.iter().map(|&v| binds[v as usize]));
        self.prog.indexes[i as usize].get(h)
    }

    /// Whether the atoms of `rel` that an index or a list gives must be
    /// checked to hold (not for a static relation's index, which holds only
    /// its true atoms once they are known).
    fn check(&self, rel: u32, sc: &Scratch) -> bool {
        sc.building || self.prog.rels[rel as usize].dynamic
    }

    /// Joins op `k` of `ops` onwards, then derives the head.
    fn join(&self, rule: &Rule, ops: &[Op], k: usize, sc: &mut Scratch) {
        let Some(op) = ops.get(k) else {
            if self.prog.rels[rule.head_rel as usize].demand {
                if !sc.solving {
                    sc.found = true;
                    return;
                }
                // A tuple of a solve: the head's arguments (a function
                // term never made is no tuple a literal can read).
                let mark = sc.tuples.len();
                for a in rule.head.iter() {
                    match self.ground_of(a, &sc.binds) {
                        Some(t) => sc.tuples.push(t),
                        None => return sc.tuples.truncate(mark),
                    }
                }
                return;
            }
            let bucket = self.bucket(rule.head_index, &rule.head_key, &sc.binds);
            if let Some(&a) = bucket
                .iter()
                .find(|&&a| equals_args(self.terms, &rule.head, a, &sc.binds))
            {
                sc.add(rule.head_rel, a);
            }
            return;
        };
        match op {
            Op::Pos {
                rel,
                args,
                index,
                key,
                delta,
            } => {
                let r = *rel as usize;
                // Each loop stops once a call's rule has found a body
                // that holds (`found` is false outside calls).
                if *delta {
                    let (lo, hi) = sc.delta[r];
                    for i in lo..hi {
                        let a = sc.lists[r][i as usize];
                        self.try_atom(rule, ops, k, args, a, sc);
                    }
                    return;
                }
                let bucket = self.bucket(*index, key, &sc.binds);
                if !self.check(*rel, sc) {
                    for &a in bucket {
                        self.try_atom(rule, ops, k, args, a, sc);
                        if sc.found {
                            return;
                        }
                    }
                } else if sc.lists[r].len() < bucket.len() {
                    // Fewer atoms hold than the index offers: scan them.
                    for i in 0..sc.lists[r].len() {
                        let a = sc.lists[r][i];
                        self.try_atom(rule, ops, k, args, a, sc);
                        if sc.found {
                            return;
                        }
                    }
                } else {
                    for &a in bucket {
                        if sc.holds(a) {
                            self.try_atom(rule, ops, k, args, a, sc);
                            if sc.found {
                                return;
                            }
                        }
                    }
                }
            }
            Op::Neg {
                rel,
                args,
                index,
                key,
            } => {
                let check = self.check(*rel, sc);
                let holds = self.bucket(*index, key, &sc.binds).iter().any(|&a| {
                    (!check || sc.holds(a)) && equals_args(self.terms, args, a, &sc.binds)
                });
                if !holds {
                    self.join(rule, ops, k + 1, sc);
                }
            }
            Op::Solve { rel, args, adorn } => {
                // A solve has a free argument: its tuples are not empty.
                let tuples = self.solve(*rel, args, *adorn, sc);
                for t in tuples.chunks(args.len()) {
                    self.try_tuple(rule, ops, k, args, t, sc);
                }
            }
            Op::Call { rel, args, neg } => {
                if self.call(*rel, args, sc) != *neg {
                    self.join(rule, ops, k + 1, sc);
                }
            }
            Op::Dist(x, y) => {
                if !pat_eq(self.terms, x, y, &sc.binds) {
                    self.join(rule, ops, k + 1, sc);
                }
            }
        }
    }

    /// Whether `rel` (answered on demand) holds for `args`, whose variables
    /// are bound: whether one of its rules, its head matched with them,
    /// has a body that holds. An argument that is a function term never
    /// made while grounding is no argument any atom has: the call fails.
    /// A call already being answered higher up fails (a proof never needs
    /// its own goal), and an answer is kept for the rest of the query
    /// unless it is false because of such a failure of an outer call, or
    /// read a solve still being answered ([`Scratch::low`]).
    fn call(&self, rel: u32, args: &[Pat], sc: &mut Scratch) -> bool {
        let mut key = Vec::with_capacity(args.len() + 1);
        key.push(rel);
        for a in args {
            match self.ground_of(a, &sc.binds) {
                Some(t) => key.push(t),
                None => return false,
            }
        }
        if let Some(&known) = sc.memo.get(&key[..]) {
            return known;
        }
        if let Some(d) = sc.active.iter().position(|k| **k == key[..]) {
            sc.low = sc.low.min(d);
            return false;
        }
        let depth = sc.active.len();
        let outer = (
            std::mem::take(&mut sc.binds),
            std::mem::take(&mut sc.trail),
            sc.found,
            std::mem::replace(&mut sc.low, usize::MAX),
            std::mem::replace(&mut sc.solving, false),
        );
        sc.active.push(key.into());
        let stratum = &self.prog.strata[self.prog.rels[rel as usize].stratum as usize];
        let mut found = false;
        for &r in &stratum.rules {
            let rule = &self.prog.rules[r as usize];
            if rule.head_rel != rel {
                continue;
            }
            sc.binds = sc.spare.pop().unwrap_or_default();
            sc.binds.clear();
            sc.binds.resize(rule.nvars, NONE);
            sc.trail = sc.spare.pop().unwrap_or_default();
            sc.trail.clear();
            sc.found = false;
            let ids = &sc.active[depth][1..];
            if match_args(self.terms, &rule.head, ids, &mut sc.binds, &mut sc.trail) {
                self.join(rule, &rule.plans[0], 0, sc);
            }
            found = sc.found;
            sc.spare.push(std::mem::take(&mut sc.binds));
            sc.spare.push(std::mem::take(&mut sc.trail));
            if found {
                break;
            }
        }
        let key = sc.active.pop().unwrap_or_default();
        let low = sc.low;
        (sc.binds, sc.trail, sc.found, sc.solving) = (outer.0, outer.1, outer.2, outer.4);
        sc.low = outer.3.min(low);
        if found || low >= depth {
            sc.memo.insert(key, found);
        }
        found
    }

    /// The tuples of `rel` (answered on demand) that match `args` as bound
    /// now: each rule run with its plan for adornment `adorn`, its head
    /// matched at the bound arguments; kept for the rest of the query.
    /// A solve met again while it is being answered (through a recursive
    /// rule) reads the tuples found so far, and the rules run again until
    /// no tuple is new: its least fixpoint. One that met a solve or call
    /// outer to it is answered again when next asked ([`Scratch::low`]).
    fn solve(&self, rel: u32, args: &[Pat], adorn: u32, sc: &mut Scratch) -> Rc<[u32]> {
        let mut key = Vec::with_capacity(args.len() + 1);
        key.push(rel);
        for a in args {
            key.push(match a {
                Pat::Var(v) => sc.binds[*v as usize],
                p => self.ground_of(p, &sc.binds).unwrap_or(NONE),
            });
        }
        if let Some(known) = sc.solved.get(&key[..]) {
            return known.clone();
        }
        if let Some(d) = sc.active.iter().position(|k| **k == key[..]) {
            sc.low = sc.low.min(d);
            return sc
                .progress
                .get(&key[..])
                .cloned()
                .unwrap_or_else(|| Rc::new([]));
        }
        let depth = sc.active.len();
        let outer = (
            std::mem::take(&mut sc.binds),
            std::mem::take(&mut sc.trail),
            std::mem::replace(&mut sc.solving, true),
            std::mem::take(&mut sc.tuples),
            std::mem::replace(&mut sc.found, false),
            std::mem::replace(&mut sc.low, usize::MAX),
        );
        let key: Box<[u32]> = key.into();
        sc.active.push(key.clone());
        let stratum = &self.prog.strata[self.prog.rels[rel as usize].stratum as usize];
        let mut tuples: Rc<[u32]> = Rc::new([]);
        let mut low = usize::MAX;
        loop {
            sc.low = usize::MAX;
            for &r in &stratum.rules {
                let rule = &self.prog.rules[r as usize];
                let plan = rule.adorned.iter().find(|a| a.0 == adorn);
                let (Some(&(_, plan)), true) = (plan, rule.head_rel == rel) else {
                    continue;
                };
                sc.binds.clear();
                sc.binds.resize(rule.nvars, NONE);
                sc.trail.clear();
                let heads = rule.head.iter().zip(&key[1..]);
                let matched = heads.filter(|&(_, &t)| t != NONE).all(|(p, &t)| {
                    match_args(
                        self.terms,
                        std::slice::from_ref(p),
                        &[t],
                        &mut sc.binds,
                        &mut sc.trail,
                    )
                });
                if matched {
                    self.join(rule, &rule.plans[plan as usize], 0, sc);
                }
            }
            // Each tuple once.
            let mut found: Vec<&[u32]> = sc.tuples.chunks(args.len()).collect();
            found.sort_unstable();
            found.dedup();
            let grew = found.len() > tuples.len() / args.len().max(1);
            tuples = found.concat().into();
            sc.tuples.clear();
            low = low.min(sc.low);
            // The rules read this solve's tuples so far (or an outer
            // one's, which do not change here): again while they grow.
            if !(stratum.recursive && grew && sc.low <= depth) {
                break;
            }
            sc.progress.insert(key.clone(), tuples.clone());
        }
        sc.progress.remove(&key);
        sc.active.pop();
        (sc.binds, sc.trail, sc.solving, sc.tuples, sc.found) =
            (outer.0, outer.1, outer.2, outer.3, outer.4);
        sc.low = outer.5.min(low);
        if low >= depth {
            sc.solved.insert(key, tuples.clone());
        }
        tuples
    }

    /// The term a pattern whose variables are bound stands for, if it was
    /// ever made.
    fn ground_of(&self, p: &Pat, binds: &[u32]) -> Option<u32> {
        match p {
            Pat::Ground(g) => Some(*g),
            Pat::Var(v) => Some(binds[*v as usize]),
            Pat::Fn(f, args) => {
                let mut key = vec![*f];
                for a in args.iter() {
                    key.push(self.ground_of(a, binds)?);
                }
                self.terms.find(&key)
            }
        }
    }

    /// Matches atom `a` with op `k`'s arguments and joins the rest.
    fn try_atom(&self, rule: &Rule, ops: &[Op], k: usize, args: &[Pat], a: u32, sc: &mut Scratch) {
        self.try_tuple(rule, ops, k, args, self.terms.args(a), sc);
    }

    /// Matches the terms `targs` with op `k`'s arguments and joins the
    /// rest, then unbinds what the match bound.
    fn try_tuple(
        &self,
        rule: &Rule,
        ops: &[Op],
        k: usize,
        args: &[Pat],
        targs: &[u32],
        sc: &mut Scratch,
    ) {
        let mark = sc.trail.len();
        if match_args(self.terms, args, targs, &mut sc.binds, &mut sc.trail) {
            self.join(rule, ops, k + 1, sc);
        }
        for i in mark..sc.trail.len() {
            let v = sc.trail[i];
            sc.binds[v as usize] = NONE;
        }
        sc.trail.truncate(mark);
    }
}
