//! The fixpoint in phases: the static relations (those that depend on
//! neither `true` nor `does`) evaluated exactly, stratum by stratum, and
//! then the rest relaxed.
//!
//! The relaxed fixpoint ignores negation, which over a static relation
//! loses what bounds a sheet's counters: urmAdd's `(<= (lineNumber ?np1)
//! (succ ?n ?np1) (not (maxLines ?n)) (lineNumber ?n))` counts to the end
//! of its `succ` chain (60) instead of to `maxLines` (10), and its
//! instructions `(beq ?r1 ?r2 ?line)` grow from 250 to 216,000. A static
//! relation has one value in every state, so its atoms can be derived
//! exactly: relation by relation in the order of their strata (a negative
//! literal reads a lower stratum, a positive one the same or lower),
//! each stratum's rules run to their fixpoint with the negative literals
//! over lower strata checked, which then hold their true atoms only.
//! After that, every rule's negative literals over those relations are
//! checked too, in the relaxed fixpoint of the rest
//! (`(next (lineToAdd ?np1))` stops at `maxLines` as well).
//!
//! A static relation in a cycle through negation (the extension that
//! accepts cycles that vanish once ground), or reading one, is left to
//! the relaxed fixpoint, as before.

use super::budget::Refusal;
use super::join::JoinState;
use super::plan::CRule;
use super::{Grounder, DOES, NONE, TRUE};

impl Grounder {
    /// The semi-naive fixpoint: the exact static relations a stratum at a
    /// time, then the other rules.
    pub(super) fn run(&mut self) -> Result<(), Refusal> {
        let mut rules = std::mem::take(&mut self.rules);
        let (stratum, exact) = strata(&rules, self.rels.len());
        for r in &mut rules {
            r.exact_neg = (0..r.neg.len())
                .filter(|&k| exact[r.neg_rel[k] as usize])
                .collect();
        }
        let top = (0..exact.len())
            .filter(|&i| exact[i])
            .map(|i| stratum[i])
            .max()
            .unwrap_or(0);
        self.exact = exact;
        let mut st = JoinState::default();
        for phase in 0..=top + 1 {
            let of = |r: &&CRule| {
                let h = r.head_rel as usize;
                match phase <= top {
                    true => self.exact[h] && stratum[h] == phase,
                    false => !self.exact[h],
                }
            };
            let rules: Vec<&CRule> = rules.iter().filter(of).collect();
            if !rules.is_empty() {
                self.fixpoint(&rules, &mut st)?;
            }
        }
        self.rules = rules;
        Ok(())
    }

    /// Runs `rules` to their semi-naive fixpoint over every atom derived
    /// so far (all of them new in the first round).
    fn fixpoint(&mut self, rules: &[&CRule], st: &mut JoinState) -> Result<(), Refusal> {
        for rel in &mut self.rels {
            rel.cur = 0;
        }
        for r in rules.iter().filter(|r| r.pos.is_empty()) {
            self.line = r.line;
            let holds = r.dist.iter().all(|(x, y)| !self.pat_eq(x, y, &[]))
                && self.negation_allows(r, &[], &mut st.key);
            if holds {
                self.or_fall_back(|g| g.produce(r, &[], &[]))?;
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
            for r in rules {
                self.line = r.line;
                for i in 0..r.pos.len() {
                    let rel = &self.rels[r.pos[i].0 as usize];
                    if rel.cur > rel.old {
                        self.or_fall_back(|g| g.join_round(r, i, st))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether no negative literal of `r` over an exactly evaluated
    /// relation holds under `binds` (such a relation is complete before
    /// any rule that reads it is joined).
    pub(super) fn negation_allows(&self, r: &CRule, binds: &[u32], key: &mut Vec<u32>) -> bool {
        r.exact_neg.iter().all(|&k| {
            self.find_inst(&r.neg[k], binds, key)
                .and_then(|id| self.atom_pos.get(id as usize))
                .is_none_or(|&p| p == NONE)
        })
    }
}

/// Per relation (of `n`), its stratum and whether it is evaluated exactly:
/// static, with a stratum (a relation in a cycle through negation has
/// none), and reading only relations evaluated exactly.
fn strata(rules: &[CRule], n: usize) -> (Vec<usize>, Vec<bool>) {
    let reads = |r: &CRule| {
        let pos = r.pos.iter().map(|p| p.0 as usize);
        pos.chain(r.neg_rel.iter().map(|&x| x as usize))
            .collect::<Vec<_>>()
    };
    let mut dynamic = vec![false; n];
    dynamic[TRUE as usize] = true;
    dynamic[DOES as usize] = true;
    fix(|| {
        let mut changed = false;
        for r in rules {
            let h = r.head_rel as usize;
            if !dynamic[h] && reads(r).iter().any(|&x| dynamic[x]) {
                dynamic[h] = true;
                changed = true;
            }
        }
        changed
    });
    // A stratum at least that of each positive literal and above that of
    // each negative one; past `n`, a cycle through negation.
    let mut stratum = vec![0; n];
    fix(|| {
        let mut changed = false;
        for r in rules.iter().filter(|r| !dynamic[r.head_rel as usize]) {
            let h = r.head_rel as usize;
            let pos = r.pos.iter().map(|p| stratum[p.0 as usize]);
            let neg = r.neg_rel.iter().map(|&x| stratum[x as usize] + 1);
            let need = pos.chain(neg).max().unwrap_or(0).min(n + 1);
            if need > stratum[h] {
                stratum[h] = need;
                changed = true;
            }
        }
        changed
    });
    let mut exact: Vec<bool> = (0..n).map(|i| !dynamic[i] && stratum[i] <= n).collect();
    fix(|| {
        let mut changed = false;
        for r in rules {
            let h = r.head_rel as usize;
            if exact[h] && reads(r).iter().any(|&x| !exact[x]) {
                exact[h] = false;
                changed = true;
            }
        }
        changed
    });
    (stratum, exact)
}

/// Calls `round` until it reports no change.
fn fix(mut round: impl FnMut() -> bool) {
    while round() {}
}
