//! A relation's possible atoms and their indexes: a posting list per
//! argument (or argument of a nested term) and value, and, for a plan
//! step that binds several of them, one keyed by all their values at once.
//!
//! An index by one argument leaves a join many atoms to reject where the
//! step binds several: merrills counts its pieces with `(count_loop ?x1
//! ?y1 ?w1 ?b1 ?w ?b)`, and each new atom of it probed `count_one` by one
//! of `?x1`, `?y1`, `?w2` and `?b2`, hundreds of atoms to reject each
//! time, where all four leave one or two. An index by several is made the
//! first time a plan asks for it (from the atoms so far), kept up to date
//! as atoms are added, and priced against the budget as the others are.
//! Its key is a hash of the values: two tuples that share one give a few
//! more atoms to reject, never a wrong match, since the join matches every
//! argument anyway.

use super::budget;
use super::plan::slot;
use super::terms::{Fx, FxMap};
use super::{Grounder, Terms};
use crate::ast::Sym;

/// The index slots of a plan step's bound arguments ([`slot`]'s
/// arguments).
pub(super) type Slots = [(usize, Option<usize>)];

/// An index: per key, the positions of the atoms that have it, increasing.
pub(super) type Postings = FxMap<u32, Vec<u32>>;

/// A relation's possible atoms: the list in order of discovery, with a
/// posting list per argument position and value, and those by several
/// arguments that plans asked for; `old..cur` is the last round's new
/// atoms.
pub(super) struct Rel {
    pub(super) sym: u32,
    pub(super) name: Sym,
    pub(super) arity: usize,
    pub(super) list: Vec<u32>,
    pub(super) index: Vec<Postings>,
    pub(super) multi: Vec<(Box<Slots>, Postings)>,
    pub(super) old: usize,
    pub(super) cur: usize,
}

impl Rel {
    /// The index by all of `slots` at once, if a plan asked for it.
    pub(super) fn multi(&self, slots: &Slots) -> Option<&Postings> {
        self.multi
            .iter()
            .find(|(s, _)| **s == *slots)
            .map(|(_, index)| index)
    }
}

/// The key of a tuple of values in an index by several arguments.
pub(super) fn key(values: impl Iterator<Item = u32>) -> u32 {
    let mut h = Fx::default();
    values.for_each(|v| std::hash::Hasher::write_u32(&mut h, v));
    let h = std::hash::Hasher::finish(&h);
    (h ^ (h >> 32)) as u32
}

/// The key of atom `id` in an index by `slots`, if it has a value at each.
fn key_of(terms: &Terms, id: u32, slots: &Slots) -> Option<u32> {
    let mut found = 0;
    let k = key(slots
        .iter()
        .map_while(|&s| value(terms, id, s))
        .inspect(|_| found += 1));
    (found == slots.len()).then_some(k)
}

/// The value of atom `id` at index slot `(k, j)`: its argument `k`, or
/// argument `j` of that (none if it has fewer).
fn value(terms: &Terms, id: u32, (k, j): (usize, Option<usize>)) -> Option<u32> {
    let a = *terms.args(id).get(k)?;
    match j {
        None => Some(a),
        Some(j) => terms.args(a).get(j).copied(),
    }
}

impl Grounder {
    /// Posts atom `id`, at position `p` of relation `rel`'s list, to the
    /// relation's indexes.
    pub(super) fn post(&mut self, rel: u32, id: u32, p: u32) {
        let r = &mut self.rels[rel as usize];
        for (k, &a) in self.terms.args(id).iter().enumerate() {
            self.index_bytes += budget::post(&mut r.index[slot(k, None)], a, p);
            // The arguments of a nested term, for patterns that bind some
            // of them only (`(true (cell ?x ?y ?p))`).
            for (j, &b) in self.terms.args(a).iter().take(super::SUB_SLOTS).enumerate() {
                self.index_bytes += budget::post(&mut r.index[slot(k, Some(j))], b, p);
            }
        }
        for (slots, index) in &mut r.multi {
            if let Some(key) = key_of(&self.terms, id, slots) {
                self.index_bytes += budget::post(index, key, p);
            }
        }
    }

    /// Makes relation `rel`'s index by all of `slots` at once if it has
    /// none, from the atoms it has so far.
    pub(super) fn want_multi(&mut self, rel: u32, slots: &Slots) {
        let r = &mut self.rels[rel as usize];
        if slots.len() < 2 || r.multi(slots).is_some() {
            return;
        }
        let mut index = FxMap::default();
        for (p, &id) in r.list.iter().enumerate() {
            if let Some(key) = key_of(&self.terms, id, slots) {
                self.index_bytes += budget::post(&mut index, key, p as u32);
            }
        }
        r.multi.push((slots.into(), index));
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::{Grounder, DEFAULT_BUDGET};
    use crate::parse::parse;

    #[test]
    fn a_step_binding_two_arguments_probes_both_at_once() {
        // Joined from `q`, `p` has `?x` and `?y` bound: its index by both.
        let sheet = parse(
            "(role a) (p 1 1 1) (p 1 2 2) (p 2 1 3) (p 2 2 4) (p 3 3 5)
             (q 1 1) (q 2 2) (q 1 2)
             (<= (r ?z) (q ?x ?y) (p ?x ?y ?z))",
        )
        .unwrap();
        let Ok(mut g) = Grounder::new(&sheet, DEFAULT_BUDGET, None) else {
            panic!("the sheet compiles")
        };
        assert!(g.run().is_ok());
        let p = g.rels.iter().find(|r| &*r.name == "p").unwrap();
        let multi = p.multi(&[(0, None), (1, None)]).unwrap();
        // Five atoms, five distinct pairs (barring a shared hash).
        assert_eq!(multi.values().map(Vec::len).sum::<usize>(), 5);
        assert!(multi.len() >= 4);
        let g = g.finish();
        let r: BTreeSet<String> = g
            .atoms("r", 1)
            .iter()
            .map(|&a| g.terms.to_term(a).to_string())
            .collect();
        // (1 1) gives 1, (2 2) gives 4, (1 2) gives 2.
        let want: BTreeSet<String> = ["(r 1)", "(r 2)", "(r 4)"].map(String::from).into();
        assert_eq!(r, want);
    }
}
