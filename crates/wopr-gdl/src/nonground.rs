//! The non-ground evaluator: how the [`Reasoner`](super::reasoner::Reasoner)
//! answers its queries for a sheet whose grounding would pass its memory
//! budget ([`super::ground::budget`]), so that a large game still plays,
//! only slower.
//!
//! The relaxed fixpoint of grounding ([`super::ground`]) still runs to its
//! end, its ground rules dropped where they passed the budget and the
//! possible atoms alone kept, within the same budget;
//! the possible `true`, `legal` and `sees` atoms give the base facts, the
//! MoveIds and the percept ids exactly as the grounded reasoner numbers
//! them (sorted by [`cmp_terms`]). The rules stay non-ground: `or` is
//! expanded, `(not (distinct s t))` solved by unification, the rules of a
//! helper relation that is only ever called with some ground arguments
//! specialized to those calls (`specialize.rs`: a bottom-up query then
//! derives only atoms that some rule reads), and the relations split into
//! strata (strongly connected components of the dependency graph, in
//! evaluation order; negation must not be recursive). The relations that
//! depend on neither `true` nor `does` are static, evaluated once here,
//! unless their possible atoms alone passed the budget (`ground/demand.rs`:
//! then they are answered on demand, as below).
//!
//! A query (legal moves, terminal, goals, next state, percepts) takes the
//! state's true facts and the joint move's `does` facts and evaluates, in
//! order, only the strata its relations need: each rule as a join of its
//! positive literals in a greedy order (the literal whose lookup finds the
//! fewest atoms first), negative literals (negation as failure over lower
//! strata) and `distinct` as soon as their variables are bound; a recursive
//! stratum semi-naively, each round joining one recursive literal with the
//! atoms new in the round before. A relation asked about a few tuples at a
//! position (chess's threats: `ground/demand.rs` says which) is not
//! evaluated bottom-up: each literal over it is a call that runs the
//! relation's rules with their heads matched to what is bound (an
//! argument at least if it is recursive, which then runs to its least
//! fixpoint where it asks for itself), kept for the rest of the query. Each lookup goes through an index built
//! here over the possible atoms of a relation that match the literal,
//! keyed by the variables bound before it (over a static relation's true
//! atoms only); the atoms that hold in the query carry a stamp in a
//! per-thread scratch, and a relation with fewer true atoms than a bucket
//! holds is scanned instead. Every atom a query can derive is a possible
//! atom, so terms are only looked up, never made, once built.

use std::cell::RefCell;
use std::collections::HashMap;

use super::ast::{Sheet, Sym, Term};
use super::facts::{cmp_terms, Facts};
use super::ground::{Grounding, Terms};
use super::GdlError;

mod compile;
mod eval;
mod program;
mod specialize;

use compile::compile;
use eval::{Eval, Scratch};
use program::{Program, DOES, TRUE};

/// "None" in the tables.
const NONE: u32 = u32::MAX;

/// What a reasoner keeps whatever evaluates its queries: the base facts
/// and every role's moves and percepts (in the order of their ids), and
/// the initial state.
pub(super) struct Domains {
    pub(super) base: Vec<Term>,
    pub(super) moves: Vec<Vec<Term>>,
    pub(super) percepts: Vec<Vec<Term>>,
    pub(super) initial: Facts,
}

/// A sheet compiled for the non-ground evaluator. Shareable between
/// threads; each thread keeps its own scratch.
pub(super) struct NonGround {
    terms: Terms,
    prog: Program,
    /// Per static relation, its true atoms.
    static_true: Vec<Vec<u32>>,
    /// Per term: what an atom of `legal`, `sees`, `goal`, `next`, `init`
    /// or `true` stands for (a MoveId, a percept id, a goal value, a base
    /// fact), else `NONE`.
    out_id: Vec<u32>,
    /// Per role, its name as a term.
    role_terms: Vec<u32>,
    /// Per base fact, its `true` atom.
    base_atoms: Vec<u32>,
    /// Per role and MoveId, the `does` atom.
    does_atoms: Vec<Vec<u32>>,
    /// The relations `legal`, `terminal`, `goal`, `next` and `sees`.
    legal: u32,
    terminal: u32,
    goal: u32,
    next: u32,
    sees: u32,
    /// The strata each query evaluates.
    p_legal: Vec<u32>,
    p_analyse: Vec<u32>,
    p_terminal: Vec<u32>,
    p_goal: Vec<u32>,
    p_next: Vec<u32>,
    p_sees: Vec<u32>,
    num_atoms: usize,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl NonGround {
    /// Compiles `sheet`, whose possible atoms (with no ground rules) are in
    /// `g`, for the roles `roles`.
    pub(super) fn new(
        sheet: &Sheet,
        roles: &[Sym],
        g: Grounding,
    ) -> Result<(NonGround, Domains), GdlError> {
        let mut possible: HashMap<(Sym, usize), Vec<u32>> = HashMap::new();
        for a in g.all_atoms() {
            let key = (g.terms.sym(a).clone(), g.terms.args(a).len());
            possible.entry(key).or_default().push(a);
        }
        let num_atoms = possible.values().map(Vec::len).sum();
        let called = g.called().clone();
        let mut terms = g.terms;
        let atoms_of = |name: &str, arity: usize| -> &[u32] {
            possible
                .get(&(Sym::from(name), arity))
                .map_or(&[], |l| &l[..])
        };
        let prog = compile(sheet, &mut terms, &atoms_of, &called)?;
        let mut n = NonGround {
            static_true: Vec::new(),
            out_id: vec![NONE; terms.len()],
            role_terms: roles
                .iter()
                .map(|r| terms.find_app(r, &[]).unwrap_or(NONE))
                .collect(),
            base_atoms: Vec::new(),
            does_atoms: Vec::new(),
            legal: prog.find_rel("legal", 2),
            terminal: prog.find_rel("terminal", 0),
            goal: prog.find_rel("goal", 2),
            next: prog.find_rel("next", 1),
            sees: prog.find_rel("sees", 2),
            p_legal: Vec::new(),
            p_analyse: Vec::new(),
            p_terminal: Vec::new(),
            p_goal: Vec::new(),
            p_next: Vec::new(),
            p_sees: Vec::new(),
            num_atoms,
            terms,
            prog,
        };
        n.evaluate_static();
        let t = &n.terms;
        // The base facts, sorted as the grounded reasoner sorts them.
        let mut base: Vec<(Term, u32)> = atoms_of("true", 1)
            .iter()
            .map(|&a| (t.to_term(t.args(a)[0]), a))
            .collect();
        base.sort_by(|x, y| cmp_terms(&x.0, &y.0));
        for (i, &(_, a)) in base.iter().enumerate() {
            n.out_id[a as usize] = i as u32;
        }
        for name in ["next", "init"] {
            for &a in atoms_of(name, 1) {
                if let Some(tr) = t.find_app("true", &[t.args(a)[0]]) {
                    n.out_id[a as usize] = n.out_id[tr as usize];
                }
            }
        }
        // Per role, its moves, percepts and goal values.
        let by_role = |name: &str| {
            let mut out: Vec<Vec<(Term, u32)>> = vec![Vec::new(); roles.len()];
            for &a in atoms_of(name, 2) {
                let args = t.args(a);
                if let Some(r) = n.role_terms.iter().position(|&x| x == args[0]) {
                    out[r].push((t.to_term(args[1]), a));
                }
            }
            out.iter_mut()
                .for_each(|l| l.sort_by(|x, y| cmp_terms(&x.0, &y.0)));
            out
        };
        let (moves, sees, goals) = (by_role("legal"), by_role("sees"), by_role("goal"));
        for l in moves.iter().chain(&sees) {
            for (i, &(_, a)) in l.iter().enumerate() {
                n.out_id[a as usize] = i as u32;
            }
        }
        for (r, l) in goals.iter().enumerate() {
            for (value, a) in l {
                let v = t.sym(t.args(*a)[1]).parse::<u32>().map_err(|_| {
                    GdlError(format!(
                        "goal value {value} of role {} is not a number",
                        roles[r]
                    ))
                })?;
                n.out_id[*a as usize] = v;
            }
        }
        n.does_atoms = moves
            .iter()
            .zip(&n.role_terms)
            .map(|(ms, &role)| {
                ms.iter()
                    .map(|&(_, a)| t.find_app("does", &[role, t.args(a)[1]]).unwrap_or(NONE))
                    .collect()
            })
            .collect();
        n.base_atoms = base.iter().map(|b| b.1).collect();
        let p = &n.prog;
        n.p_legal = p.strata_for(&[n.legal]);
        n.p_analyse = p.strata_for(&[n.legal, n.terminal]);
        n.p_terminal = p.strata_for(&[n.terminal]);
        n.p_goal = p.strata_for(&[n.goal]);
        n.p_next = p.strata_for(&[n.next]);
        n.p_sees = p.strata_for(&[n.sees]);
        let init = p.find_rel("init", 1);
        let mut initial = Facts::empty(base.len());
        n.query(&initial.clone(), None, &p.strata_for(&[init]), |sc| {
            for &a in n.holding(sc, init) {
                if let Some(&b) = n.out_id.get(a as usize).filter(|&&b| b != NONE) {
                    initial.insert(b as usize);
                }
            }
        });
        let terms_of = |l: Vec<Vec<(Term, u32)>>| -> Vec<Vec<Term>> {
            l.into_iter()
                .map(|l| l.into_iter().map(|x| x.0).collect())
                .collect()
        };
        let domains = Domains {
            base: base.into_iter().map(|b| b.0).collect(),
            moves: terms_of(moves),
            percepts: terms_of(sees),
            initial,
        };
        Ok((n, domains))
    }

    /// Evaluates the static strata, then indexes each static relation's
    /// true atoms only.
    fn evaluate_static(&mut self) {
        let mut sc = Scratch::default();
        sc.building = true;
        sc.start(self.terms.len(), self.prog.rels.len());
        let ev = Eval {
            prog: &self.prog,
            terms: &self.terms,
        };
        let rels = &self.prog.rels;
        let strata = self.prog.strata.iter();
        for s in strata.filter(|s| !s.dynamic && !s.rels.iter().any(|&r| rels[r as usize].demand)) {
            ev.stratum(s, &mut sc);
        }
        let rels = &self.prog.rels;
        self.static_true = (0..rels.len())
            .map(|r| {
                if rels[r].dynamic {
                    Vec::new()
                } else {
                    sc.lists[r].clone()
                }
            })
            .collect();
        for index in &mut self.prog.indexes {
            let rel = index.rel as usize;
            if !rels[rel].dynamic {
                index.fill(&self.terms, &self.static_true[rel]);
            }
        }
    }

    /// Evaluates strata `prog` on `state` (and the joint move), then
    /// reads the scratch with `f`.
    fn query<R>(
        &self,
        state: &Facts,
        joint: Option<&[u32]>,
        prog: &[u32],
        f: impl FnOnce(&Scratch) -> R,
    ) -> R {
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let sc = &mut *scratch;
            sc.building = false;
            sc.start(self.terms.len(), self.prog.rels.len());
            for b in state.iter() {
                if let Some(&a) = self.base_atoms.get(b) {
                    sc.add(TRUE, a);
                }
            }
            for (r, &m) in joint.unwrap_or(&[]).iter().enumerate() {
                let does = self.does_atoms.get(r).and_then(|d| d.get(m as usize));
                if let Some(&a) = does.filter(|&&a| a != NONE) {
                    sc.add(DOES, a);
                }
            }
            let ev = Eval {
                prog: &self.prog,
                terms: &self.terms,
            };
            for &s in prog {
                ev.stratum(&self.prog.strata[s as usize], sc);
            }
            f(sc)
        })
    }

    /// The atoms of relation `rel` that hold in the query of `sc`.
    fn holding<'a>(&'a self, sc: &'a Scratch, rel: u32) -> &'a [u32] {
        match self.prog.rels.get(rel as usize) {
            None => &[],
            Some(r) if r.dynamic => &sc.lists[rel as usize],
            Some(_) => &self.static_true[rel as usize],
        }
    }

    /// Writes the ids of the atoms of `rel` for `role` that hold, sorted.
    fn collect(&self, sc: &Scratch, rel: u32, role: usize, out: &mut Vec<u32>) {
        out.clear();
        let Some(&rt) = self.role_terms.get(role) else {
            return;
        };
        for &a in self.holding(sc, rel) {
            if self.terms.args(a)[0] == rt && self.out_id[a as usize] != NONE {
                out.push(self.out_id[a as usize]);
            }
        }
        out.sort_unstable();
    }

    /// The atoms that can ever hold, and the rules after `or` expansion.
    pub(super) fn size(&self) -> (usize, usize) {
        (self.num_atoms, self.prog.rules.len())
    }

    /// As [`Reasoner::legal`](super::reasoner::Reasoner::legal).
    pub(super) fn legal(&self, state: &Facts, role: usize, out: &mut Vec<u32>) {
        self.query(state, None, &self.p_legal, |sc| {
            self.collect(sc, self.legal, role, out);
        });
    }

    /// Every role's legal moves and whether `state` is terminal.
    pub(super) fn analyse(&self, state: &Facts, legal: &mut Vec<Vec<u32>>, terminal: &mut bool) {
        legal.resize_with(self.role_terms.len(), Vec::new);
        self.query(state, None, &self.p_analyse, |sc| {
            *terminal = !self.holding(sc, self.terminal).is_empty();
            for (role, l) in legal.iter_mut().enumerate() {
                self.collect(sc, self.legal, role, l);
            }
        });
    }

    /// As [`Reasoner::is_terminal`](super::reasoner::Reasoner::is_terminal).
    pub(super) fn is_terminal(&self, state: &Facts) -> bool {
        self.query(state, None, &self.p_terminal, |sc| {
            !self.holding(sc, self.terminal).is_empty()
        })
    }

    /// As [`Reasoner::goal`](super::reasoner::Reasoner::goal).
    pub(super) fn goal(&self, state: &Facts, role: usize) -> Option<u32> {
        let rt = *self.role_terms.get(role)?;
        self.query(state, None, &self.p_goal, |sc| {
            self.holding(sc, self.goal)
                .iter()
                .filter(|&&a| self.terms.args(a)[0] == rt)
                .map(|&a| self.out_id[a as usize])
                .filter(|&v| v != NONE)
                .max()
        })
    }

    /// Sets the base facts true after `joint` in `state` in `out` (which
    /// has no fact true).
    pub(super) fn next_into(&self, state: &Facts, joint: &[u32], out: &mut Facts) {
        self.query(state, Some(joint), &self.p_next, |sc| {
            for &a in self.holding(sc, self.next) {
                if self.out_id[a as usize] != NONE {
                    out.insert(self.out_id[a as usize] as usize);
                }
            }
        });
    }

    /// As [`Reasoner::sees`](super::reasoner::Reasoner::sees).
    pub(super) fn sees(&self, state: &Facts, joint: &[u32], role: usize, out: &mut Vec<u32>) {
        self.query(state, Some(joint), &self.p_sees, |sc| {
            self.collect(sc, self.sees, role, out);
        });
    }
}
