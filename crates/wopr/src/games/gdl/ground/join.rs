//! The joins of one round of the fixpoint: a rule's positive literals
//! matched, one of them among the atoms new in the last round, in the order
//! [`super::plan`] gives, each match priced against the budget before any
//! ground rule is made of it.

use super::budget::{self, Refusal};
use super::plan::{self, match_pat, plan, slot, slot_pat, CRule, PStep};
use super::{Grounder, NONE};

/// The scratch of a join.
#[derive(Default)]
pub(super) struct JoinState {
    binds: Vec<u32>,
    trail: Vec<u32>,
    atoms: Vec<u32>,
    key: Vec<u32>,
    out: Vec<u32>,
    found: usize,
    /// The bytes the join may still price, and the price of a match.
    room: u64,
    per_match: u64,
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
        // A match is priced as its buffer and the ground rule
        // it becomes, before any is made.
        let before = self.used();
        st.room = self.budget.bytes().saturating_sub(before);
        let (width, lits) = (r.nvars + r.pos.len(), r.pos.len() + r.neg.len());
        st.per_match = 4 * width as u64;
        if !self.atoms_only {
            st.per_match += budget::RULE + budget::LITERAL * lits as u64;
        }
        // Planned now, from the relations' sizes so far.
        let steps = plan(r, i, |j, slots, full| self.estimate(r, j, slots, full));
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
            if st.per_match > st.room {
                return Err(());
            }
            st.room -= st.per_match;
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
}
