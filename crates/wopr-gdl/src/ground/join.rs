//! The joins of one round of the fixpoint: a rule's positive literals
//! matched, one of them among the atoms new in the last round, in the order
//! [`super::plan`] gives, each match priced against the budget before any
//! ground rule is made of it.

use super::budget::{self, Refusal};
use super::index;
use super::plan::{self, match_pat, plan, slot, slot_pat, CRule, PStep};
use super::terms::FxMap;
use super::{Grounder, NONE};

/// The scratch of a join.
#[derive(Default)]
pub(super) struct JoinState {
    binds: Vec<u32>,
    trail: Vec<u32>,
    atoms: Vec<u32>,
    pub(super) key: Vec<u32>,
    /// The negative literals of the rule that a match must fail
    /// ([`super::strata`]); the plan tests each once its variables are
    /// bound.
    pub(super) checks: Vec<usize>,
    out: Vec<u32>,
    found: usize,
    /// The heads matched in this join (when keeping the possible atoms
    /// alone: one match per head is enough).
    heads: FxMap<u32, ()>,
    /// The plan step before which the head is bound, and whether a match
    /// was just made (when keeping the possible atoms alone, the steps
    /// from there on look for no other match of the same head).
    head_at: usize,
    cut: bool,
    /// The bytes the join may still price, and the price of a match.
    room: u64,
    per_match: u64,
}

/// The part of a posting list (positions, increasing) within `lo..hi`.
fn within(list: &[u32], lo: usize, hi: usize) -> &[u32] {
    let from = list.partition_point(|&p| (p as usize) < lo);
    let to = list.partition_point(|&p| (p as usize) < hi);
    &list[from..to]
}

impl JoinState {
    /// After a candidate at plan step `k`: whether to look no further at
    /// this step (a match was made, and the head was bound before it).
    fn stop(&mut self, k: usize) -> bool {
        if self.cut && k >= self.head_at {
            return true;
        }
        self.cut = false;
        false
    }
}

impl Grounder {
    /// Joins rule `r` with literal `i` among the last round's new atoms,
    /// and records what it derives.
    pub(super) fn join_round(
        &mut self,
        r: &CRule,
        i: usize,
        st: &mut JoinState,
    ) -> Result<(), Refusal> {
        st.binds.clear();
        st.binds.resize(r.nvars, NONE);
        st.atoms.clear();
        st.atoms.resize(r.pos.len(), NONE);
        st.out.clear();
        st.found = 0;
        st.heads.clear();
        // A match is priced as its buffer and the ground rule
        // it becomes, before any is made.
        let before = self.used();
        st.room = self.budget.room().saturating_sub(before);
        let (width, lits) = (r.nvars + r.pos.len(), r.pos.len() + r.neg.len());
        st.per_match = 4 * width as u64;
        if !self.atoms_only {
            st.per_match += budget::RULE + budget::LITERAL * lits as u64;
        }
        // Planned now, from the relations' sizes so far.
        let steps = plan(r, i, self.atoms_only, &st.checks, |j, slots, full| {
            self.estimate(r, j, slots, full)
        });
        for step in steps.iter().filter(|s| !s.full) {
            self.want_multi(r.pos[step.lit].0, &step.bound);
        }
        st.head_at = steps
            .iter()
            .position(|s| s.head_ready)
            .unwrap_or(steps.len());
        st.cut = false;
        if self.join(r, &steps, 0, i, st).is_err() {
            return Err(self.over(st.found));
        }
        // What the join priced is part of the estimate's peak, so that
        // the estimate reported is a budget that grounds the sheet.
        self.peak = self.peak.max(before + st.found as u64 * st.per_match);
        self.scratch = self.scratch.max(4 * st.out.len() as u64);
        let out = std::mem::take(&mut st.out);
        for chunk in out.chunks(width.max(1)).take(st.found) {
            let (binds, atoms) = chunk.split_at(r.nvars);
            self.produce(r, binds, atoms)?;
        }
        st.out = out;
        Ok(())
    }

    /// The expected matches of positive literal `j` of `r` probed at
    /// `slots` (see [`plan::expected`]).
    fn estimate(&self, r: &CRule, j: usize, slots: &[(usize, Option<usize>)], full: bool) -> f64 {
        let rel = &self.rels[r.pos[j].0 as usize];
        let keys = slots.iter().map(|&(k, sub)| rel.index[slot(k, sub)].len());
        let multi = rel.multi(slots).map(|m| m.len());
        plan::expected(rel.list.len(), keys.chain(multi), full)
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
            if self.atoms_only {
                if let Some(id) = self.find_inst(&r.head, &st.binds, &mut st.key) {
                    if st.heads.insert(id, ()).is_some() {
                        return Ok(());
                    }
                }
            }
            if st.per_match > st.room {
                return Err(());
            }
            st.room -= st.per_match;
            st.found += 1;
            st.out.extend_from_slice(&st.binds);
            st.out.extend_from_slice(&st.atoms);
            st.cut = self.atoms_only;
            return Ok(());
        };
        if self.atoms_only && step.head_ready && self.head_known(r, st) {
            return Ok(());
        }
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
            let id = self.find_app(rel.sym, args, &st.binds, &mut st.key);
            let p = id.and_then(|id| self.atom_pos.get(id as usize).copied());
            if let (Some(id), Some(p)) = (id, p) {
                if (lo..hi).contains(&(p as usize)) {
                    self.try_each(r, plan, k, first, std::iter::once(id), st)?;
                }
            }
        } else if let Some(multi) = rel.multi(&step.bound) {
            // Probed by all the bound arguments at once ([`index`]).
            let mark = st.key.len();
            let pats = step.bound.iter().map(|&(k, j)| slot_pat(args, k, j));
            if !self.push_insts(pats, &st.binds, &mut st.key) {
                return Ok(());
            }
            let key = index::key(st.key[mark..].iter().copied());
            st.key.truncate(mark);
            let Some(list) = multi.get(&key) else {
                return Ok(());
            };
            let ids = within(list, lo, hi).iter().map(|&p| rel.list[p as usize]);
            self.try_each(r, plan, k, first, ids, st)?;
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
            let ids = within(best, lo, hi).iter().map(|&p| rel.list[p as usize]);
            self.try_each(r, plan, k, first, ids, st)?;
        } else {
            self.try_each(r, plan, k, first, rel.list[lo..hi].iter().copied(), st)?;
        }
        Ok(())
    }

    /// Whether one of the negative literals `negs` of `r` (over static
    /// relations), bound in `binds`, holds: a match where one does never
    /// fires ([`super::strata`]).
    pub(super) fn negation_fails(
        &self,
        r: &CRule,
        negs: &[usize],
        binds: &[u32],
        key: &mut Vec<u32>,
    ) -> bool {
        negs.iter().any(|&n| {
            self.find_inst(&r.neg[n], binds, key)
                .and_then(|id| self.atom_pos.get(id as usize))
                .is_some_and(|&p| p != NONE)
        })
    }

    /// Whether the head of `r`, bound in `st`, is a possible atom already
    /// or was matched earlier in this join: a fixpoint that keeps the
    /// possible atoms alone needs no other match of it.
    fn head_known(&self, r: &CRule, st: &mut JoinState) -> bool {
        self.find_inst(&r.head, &st.binds, &mut st.key)
            .is_some_and(|id| {
                st.heads.contains_key(&id)
                    || self.atom_pos.get(id as usize).is_some_and(|&p| p != NONE)
            })
    }

    /// Tries the atoms `ids` at plan step `k` in turn, until one's match
    /// stops the step ([`JoinState::stop`]).
    fn try_each(
        &self,
        r: &CRule,
        plan: &[PStep],
        k: usize,
        first: usize,
        ids: impl Iterator<Item = u32>,
        st: &mut JoinState,
    ) -> Result<(), ()> {
        for id in ids {
            self.try_atom(r, plan, k, first, id, st)?;
            if st.stop(k) {
                break;
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
                .all(|&d| !self.pat_eq(&r.dist[d].0, &r.dist[d].1, &st.binds))
            && !self.negation_fails(r, &step.negs, &st.binds, &mut st.key);
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
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::demand::Demand;
    use super::super::{is_new_relation, Grounder, DEFAULT_BUDGET};
    use crate::parse::parse;

    /// The possible atoms of the sheet's own relations, as text, from a
    /// full grounding or from the fixpoint that keeps them alone (nothing
    /// left out).
    fn possible(text: &str, atoms_only: bool) -> BTreeSet<String> {
        let sheet = parse(text).unwrap();
        let demand = Demand::default();
        let mode = atoms_only.then_some((&demand, super::super::Pass::Exact));
        let Ok(mut g) = Grounder::new(&sheet, DEFAULT_BUDGET, mode) else {
            panic!("the sheet compiles")
        };
        assert!(g.run().and_then(|()| g.check()).is_ok());
        let g = g.finish();
        g.rels
            .iter()
            .filter(|(name, _, _)| !is_new_relation(name))
            .flat_map(|(_, _, l)| l.iter().map(|&a| g.terms.to_term(a).to_string()))
            .collect()
    }

    #[test]
    fn one_match_per_head_finds_every_possible_atom() {
        // `legal`'s `?y` and `?z` and `reach`'s first rule's `?y` have
        // several matches per head; `reach`'s second rule finds heads
        // the first found.
        let witnesses = "(role a) (init (at 1)) (init (at 2))
            (edge 1 2) (edge 2 3) (edge 3 1) (edge 1 3) (edge 3 2) (edge 2 1)
            (<= (reach ?x) (true (at ?y)) (edge ?y ?x))
            (<= (reach ?x) (true (at ?x)))
            (<= (legal a (go ?x)) (reach ?x) (true (at ?y)) (edge ?y ?z))
            (<= (next (at ?x)) (does a (go ?x)))
            (<= terminal (true (at 3)) (true (at 1)))
            (<= (goal a 100) (true (at ?x)))";
        let sheets = [
            witnesses.to_string(),
            std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../gdl/tictactoe.kif"
            ))
            .unwrap(),
            std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../gdl/connect4-6x6.kif"
            ))
            .unwrap(),
        ];
        for text in &sheets {
            let full = possible(text, false);
            assert!(full.len() > 20, "{} atoms", full.len());
            assert_eq!(possible(text, true), full);
        }
        // `role` 1, `init` 2, `edge` 6, then `true`, `reach`, `legal`,
        // `does` and `next` 3 each (every cell is reached from another),
        // `terminal` 1 and `goal` 1.
        assert_eq!(possible(witnesses, true).len(), 1 + 2 + 6 + 5 * 3 + 1 + 1);
    }
}
