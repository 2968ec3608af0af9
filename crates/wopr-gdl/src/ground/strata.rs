//! The semi-naive fixpoint, with the static relations that negation reads
//! evaluated exactly first.
//!
//! The fixpoint ignores negation, which over-approximates the atoms that
//! can hold. Where a sheet negates a *static* relation (one that depends
//! on neither `true` nor `does`), that costs more than it needs to:
//! urmAdd numbers its lines with `(<= (lineNumber ?np1) (succ ?n ?np1)
//! (not (maxLines ?n)) (lineNumber ?n))`, and ignoring the `not` numbers
//! them up to 51 instead of 10, so that its instructions `(beq ?r1 ?r2
//! ?line)` number 132,651 instead of 250, and the program lines the coder
//! may write millions.
//!
//! A static relation's atoms are the same in every state, so they can be
//! computed exactly, stratum by stratum, before the rest. When a sheet's
//! rules negate a static relation and the static relations are stratified
//! (a relation is in a stratum above every static relation it negates,
//! and not below any it reads), the fixpoint runs in phases: one per
//! stratum of static relations, with the rules whose heads are in it, then
//! one with every other rule. A phase's first round joins over every atom
//! so far. A match whose rule negates a static relation is rejected if
//! that atom holds: its stratum is done, so the atom holds in every state
//! and the rule never fires. Otherwise (no such negation, or static
//! relations not stratified: the extension that accepts negation cycles
//! that vanish once ground) the fixpoint runs in one phase over all rules,
//! ignoring negation, as before.

use super::budget::Refusal;
use super::join::JoinState;
use super::plan::{CRule, Pat};
use super::{Grounder, DOES, TRUE};

/// The phases of the fixpoint ([`Grounder::strata`]).
pub(super) struct Strata {
    /// Per rule, the phase that runs it.
    phase: Vec<u32>,
    /// How many phases there are.
    phases: u32,
    /// Per rule, its negative literals (by position) over static relations.
    checks: Vec<Vec<usize>>,
}

impl Grounder {
    /// The semi-naive fixpoint, in phases where the sheet negates static
    /// relations (module docs).
    pub(super) fn run(&mut self) -> Result<(), Refusal> {
        let rules = std::mem::take(&mut self.rules);
        let mut st = JoinState::default();
        match self.strata(&rules) {
            None => self.fixpoint(&rules, None, &mut st)?,
            Some(strata) => {
                for p in 0..strata.phases {
                    self.fixpoint(&rules, Some((&strata, p)), &mut st)?;
                }
            }
        }
        self.rules = rules;
        Ok(())
    }

    /// The fixpoint of the rules of phase `phase` (of all rules if none),
    /// its first round over every atom so far.
    fn fixpoint(
        &mut self,
        rules: &[CRule],
        phase: Option<(&Strata, u32)>,
        st: &mut JoinState,
    ) -> Result<(), Refusal> {
        let runs = |k: usize| phase.is_none_or(|(s, p)| s.phase[k] == p);
        let checks = |k: usize| phase.map_or(&[][..], |(s, _)| &s.checks[k][..]);
        for (k, r) in rules.iter().enumerate() {
            if r.pos.is_empty() && runs(k) {
                self.line = r.line;
                st.checks.clear();
                st.checks.extend_from_slice(checks(k));
                let dist = r.dist.iter().all(|(x, y)| !self.pat_eq(x, y, &[]));
                if dist && !self.negation_fails(r, checks(k), &[], &mut st.key) {
                    self.produce(r, &[], &[])?;
                }
            }
        }
        for rel in &mut self.rels {
            rel.cur = 0;
        }
        loop {
            let mut fresh = false;
            for rel in &mut self.rels {
                rel.old = rel.cur;
                rel.cur = rel.list.len();
                fresh |= rel.cur > rel.old;
            }
            if !fresh {
                return Ok(());
            }
            for (k, r) in rules.iter().enumerate() {
                if !runs(k) {
                    continue;
                }
                self.line = r.line;
                st.checks.clear();
                st.checks.extend_from_slice(checks(k));
                for i in 0..r.pos.len() {
                    let rel = &self.rels[r.pos[i].0 as usize];
                    if rel.cur > rel.old {
                        self.join_round(r, i, st)?;
                    }
                }
            }
        }
    }

    /// The relation of an atom pattern, if any atom of it was ever made.
    fn rel_of(&self, p: &Pat) -> Option<u32> {
        let (sym, arity) = match p {
            Pat::Fn(sym, args) => (*sym, args.len()),
            Pat::Ground(id) => (self.terms.nodes[*id as usize].0, self.terms.args(*id).len()),
            Pat::Var(_) => return None,
        };
        self.rel_ids.get(&(sym, arity)).copied()
    }

    /// The phases of the fixpoint, if the rules negate a static relation
    /// and the static relations are stratified (module docs).
    fn strata(&self, rules: &[CRule]) -> Option<Strata> {
        let n = self.rels.len();
        let heads: Vec<Option<u32>> = rules.iter().map(|r| self.rel_of(&r.head)).collect();
        let negs: Vec<Vec<Option<u32>>> = rules
            .iter()
            .map(|r| r.neg.iter().map(|p| self.rel_of(p)).collect())
            .collect();
        // Dynamic: `true`, `does`, and whatever reads a dynamic relation.
        let mut dynamic = vec![false; n];
        (dynamic[TRUE as usize], dynamic[DOES as usize]) = (true, true);
        loop {
            let mut more = false;
            for ((r, h), ns) in rules.iter().zip(&heads).zip(&negs) {
                let Some(h) = h.map(|h| h as usize) else {
                    continue;
                };
                let reads = r
                    .pos
                    .iter()
                    .map(|(rel, _)| Some(*rel))
                    .chain(ns.iter().copied());
                if !dynamic[h] && reads.flatten().any(|x| dynamic[x as usize]) {
                    dynamic[h] = true;
                    more = true;
                }
            }
            if !more {
                break;
            }
        }
        let is_static = |x: &Option<u32>| x.is_some_and(|x| !dynamic[x as usize]);
        let checks: Vec<Vec<usize>> = negs
            .iter()
            .map(|ns| (0..ns.len()).filter(|&j| is_static(&ns[j])).collect())
            .collect();
        if checks.iter().all(Vec::is_empty) {
            return None;
        }
        // Strata of the static relations: at least those they read, one
        // above those they negate; no end means a cycle through negation.
        let mut stratum = vec![0u32; n];
        for pass in 0..=n {
            let mut more = false;
            for ((r, h), ns) in rules.iter().zip(&heads).zip(&negs) {
                let Some(h) = h.filter(|&h| !dynamic[h as usize]).map(|h| h as usize) else {
                    continue;
                };
                let pos = r.pos.iter().map(|(rel, _)| stratum[*rel as usize]);
                let neg = ns.iter().flatten().map(|&x| stratum[x as usize] + 1);
                let s = pos.chain(neg).max().unwrap_or(0);
                if s > stratum[h] {
                    stratum[h] = s;
                    more = true;
                }
            }
            if !more {
                break;
            }
            if pass == n {
                return None;
            }
        }
        let top = (0..n)
            .filter(|&x| !dynamic[x])
            .map(|x| stratum[x])
            .max()
            .unwrap_or(0);
        let phase = heads
            .iter()
            .map(|h| match h {
                Some(h) if !dynamic[*h as usize] => stratum[*h as usize],
                _ => top + 1,
            })
            .collect();
        Some(Strata {
            phase,
            phases: top + 2,
            checks,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Grounder, DEFAULT_BUDGET};
    use crate::parse::parse;

    /// The possible atoms of `name/arity` after grounding `text`.
    fn count(text: &str, name: &str, arity: usize) -> usize {
        let sheet = parse(text).unwrap();
        let Ok(mut g) = Grounder::new(&sheet, DEFAULT_BUDGET, None) else {
            panic!("the sheet compiles")
        };
        assert!(g.run().is_ok());
        g.finish().atoms(name, arity).len()
    }

    const NUMBERS: &str = "(role a) (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (max 2)
        (num 0)
        (<= (num ?m) (succ ?n ?m) (not (max ?n)) (num ?n))
        (<= (big ?n) (succ ?m ?n) (not (num ?n)))
        (init (at 0))
        (<= (legal a (go ?n)) (num ?n) (not (true (at ?n))))
        (<= (next (at ?n)) (does a (go ?n)))
        (<= terminal (true (at 2)))
        (goal a 100)";

    #[test]
    fn static_negation_is_evaluated_exactly_and_dynamic_negation_ignored() {
        // `num` stops where `max` says: 0, 1, 2 and 3 (3 from 2, which is
        // the max, so not 3): 0, 1, 2. Ignoring `not` would give 0 to 4.
        assert_eq!(count(NUMBERS, "num", 1), 3);
        // `big` negates `num`, a stratum below: 3 and 4.
        assert_eq!(count(NUMBERS, "big", 1), 2);
        // The legal moves negate `true`, which is dynamic: every number
        // stays possible, and so does every position reached.
        assert_eq!(count(NUMBERS, "legal", 2), 3);
        assert_eq!(count(NUMBERS, "true", 1), 3);
    }

    #[test]
    fn a_static_cycle_through_negation_is_grounded_as_before() {
        // `p` and `q` negate each other: no strata, so negation is ignored
        // everywhere, `num` included.
        let cycle = format!("{NUMBERS} (<= p (not q)) (<= q (not p))");
        assert_eq!(count(&cycle, "num", 1), 5);
        assert_eq!(count(&cycle, "p", 0) + count(&cycle, "q", 0), 2);
    }
}
