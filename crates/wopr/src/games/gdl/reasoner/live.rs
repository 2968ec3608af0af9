//! Incremental evaluation of the compiled ground program: each thread keeps
//! the value of every atom for the inputs it last evaluated (the base facts
//! of a state and a joint move), and a query on other inputs re-evaluates
//! only the steps that read an input that changed, or an atom that changed
//! because of one. This is the propositional network of the GGP literature
//! (a gate per ground rule, one per atom) run with differential updates.
//!
//! Each rule keeps a count of its literals that do not hold, and each atom of a
//! step of its own a count of its rules whose bodies hold, so an atom that
//! changes costs one step per rule that reads it, whatever the size of
//! those rules (a sheet's `next` rules often repeat one state fact with
//! every move that leaves it alone). Steps are in evaluation order, so a
//! step only reads inputs and atoms of earlier steps: the steps whose
//! counts moved are settled from the lowest up, each at most once a query,
//! after everything it reads is final. A recursive component is recomputed
//! from nothing to its least fixpoint instead, since counts cannot tell
//! that a cycle of atoms lost its last support from outside.
//!
//! An atom that no rule reads (a legal move, a `next` fact, a goal) takes
//! its value as soon as its count crosses zero, without waiting its turn.
//! The `next` atoms and the legal atoms are also kept as bits
//! ([`Live::outs`]): a state's successor is a copy of words, and a role's
//! legal moves the set bits of its words (behind its gates).
//!
//! Consecutive queries in a playout, a search or a perft walk differ by a
//! move: a few base facts, the `does` atoms and what depends on them, a
//! small part of the whole program. The thread's values belong to one
//! reasoner at a time (by [`Grounded::id`]); a query on another reasoner
//! starts that one's values afresh.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::compile::{GRule, Step};
use super::{Facts, Grounded, NONE};

/// The values a thread holds for one reasoner's program.
pub(super) struct Live {
    /// The [`Grounded::id`] these values belong to (0: none yet).
    owner: u64,
    /// Every atom's value for the inputs below.
    value: Vec<bool>,
    /// The output atoms' values as bits ([`Grounded::out_bit`]).
    outs: Vec<u64>,
    /// Per rule, how many of its literals do not hold (0: its body holds).
    unsat: Vec<u32>,
    /// Per atom of a step of its own, how many of its rules hold.
    support: Vec<u32>,
    /// The base facts evaluated (a [`Facts`]'s words).
    base: Vec<u64>,
    /// The `does` atoms set, one per role that moved.
    does: Vec<u32>,
    /// Steps waiting to be evaluated, lowest first, and whether a step is
    /// among them.
    heap: BinaryHeap<Reverse<u32>>,
    queued: Vec<bool>,
    /// A recursive component's atoms and their values before it is
    /// recomputed.
    comp: Vec<(u32, bool)>,
    /// The `does` atoms of the query being synchronised.
    wanted: Vec<u32>,
}

impl Live {
    /// The atoms' values; `value()[a]` is whether atom `a` holds.
    pub(super) fn value(&self) -> &[bool] {
        &self.value
    }

    /// The output bits: the `next` atoms' values at their base facts'
    /// bits, then each role's legal atoms ([`Grounded::out_bit`]).
    pub(super) fn outs(&self) -> &[u64] {
        &self.outs
    }

    /// Sets atom `a`'s value to `v`, and its output bit if it has one.
    #[inline]
    fn set(&mut self, out_bit: &[u32], a: usize, v: bool) {
        self.value[a] = v;
        let b = out_bit[a];
        if b != NONE {
            let (w, m) = (b as usize / 64, 1u64 << (b % 64));
            if v {
                self.outs[w] |= m;
            } else {
                self.outs[w] &= !m;
            }
        }
    }
}

thread_local! {
    static LIVE: RefCell<Live> = const {
        RefCell::new(Live {
            owner: 0,
            value: Vec::new(),
            outs: Vec::new(),
            unsat: Vec::new(),
            support: Vec::new(),
            base: Vec::new(),
            does: Vec::new(),
            heap: BinaryHeap::new(),
            queued: Vec::new(),
            comp: Vec::new(),
            wanted: Vec::new(),
        })
    };
}

impl Grounded {
    /// Brings this thread's values to `state` and `joint`, then reads them
    /// with `f`. With no joint move the `does` atoms stay as they were:
    /// what such a query reads (legal moves, terminal, goals) does not
    /// depend on them in a checked sheet, and the next `next` query then
    /// often changes few of them.
    pub(super) fn with_live<R>(
        &self,
        state: &Facts,
        joint: Option<&[u32]>,
        f: impl FnOnce(&Live) -> R,
    ) -> R {
        LIVE.with(|cell| {
            let mut live = cell.borrow_mut();
            if live.owner != self.id {
                self.reset(&mut live);
            }
            self.sync(&mut live, state, joint);
            f(&live)
        })
    }

    /// Every atom's value with no base fact and no move true, and the
    /// counts that go with them.
    fn reset(&self, live: &mut Live) {
        live.owner = self.id;
        live.value.clear();
        live.value.resize(self.num_atoms, false);
        live.base.clear();
        live.base.resize(self.num_base.div_ceil(64), 0);
        live.does.clear();
        live.heap.clear();
        live.queued.clear();
        live.queued.resize(self.steps.len(), false);
        for s in &self.steps {
            self.fixpoint(&mut live.value, s);
        }
        live.outs.clear();
        live.outs.resize(self.out_words, 0);
        for (a, &b) in self.out_bit.iter().enumerate() {
            if b != NONE && live.value[a] {
                live.outs[b as usize / 64] |= 1 << (b % 64);
            }
        }
        live.unsat.clear();
        live.unsat.extend(self.rules.iter().map(|r| {
            let body = &self.body[r.start as usize..r.end as usize];
            let pos = (r.neg - r.start) as usize;
            body.iter()
                .enumerate()
                .filter(|&(i, &a)| live.value[a as usize] != (i < pos))
                .count() as u32
        }));
        live.support.clear();
        live.support.resize(self.num_atoms, 0);
        for s in self.steps.iter().filter(|s| s.head != NONE) {
            live.support[s.head as usize] = (s.lo..s.hi)
                .filter(|&r| live.unsat[r as usize] == 0)
                .count() as u32;
        }
    }

    /// Flips the inputs that differ from `state` and `joint`, then
    /// settles the steps whose counts moved.
    fn sync(&self, live: &mut Live, state: &Facts, joint: Option<&[u32]>) {
        let nb = self.num_base;
        for i in 0..live.base.len() {
            let new = state.0.get(i).copied().unwrap_or(0);
            let mut x = new ^ live.base[i];
            live.base[i] = new;
            while x != 0 {
                let b = i * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                if b < nb {
                    self.flip(live, b as u32, None);
                }
            }
        }
        if let Some(joint) = joint {
            let mut wanted = std::mem::take(&mut live.wanted);
            wanted.clear();
            for (&m, w) in joint.iter().zip(self.does_start.windows(2)) {
                if m < w[1] - w[0] {
                    wanted.push(w[0] + m);
                }
            }
            if wanted != live.does {
                // The new moves first: an atom that one move supports in
                // place of another then never loses its support, and its
                // step is not queued.
                for &a in &wanted {
                    if !live.value[a as usize] {
                        self.flip(live, a, None);
                    }
                }
                for i in 0..live.does.len() {
                    let a = live.does[i];
                    if !wanted.contains(&a) {
                        self.flip(live, a, None);
                    }
                }
                std::mem::swap(&mut live.does, &mut wanted);
            }
            live.wanted = wanted;
        }
        while let Some(Reverse(s)) = live.heap.pop() {
            live.queued[s as usize] = false;
            self.settle(live, s);
        }
    }

    /// Atom `a` changes value: the counts of the rules that read it, and
    /// of those rules' heads, follow. A step is queued when its atom's
    /// count leaves or reaches 0, or a rule of its recursive component
    /// changes (only a step after `after`, if given: a recursive component
    /// does not queue itself).
    fn flip(&self, live: &mut Live, a: u32, after: Option<u32>) {
        let v = !live.value[a as usize];
        live.set(&self.out_bit, a as usize, v);
        let (lo, hi) = (
            self.occurs_start[a as usize] as usize,
            self.occurs_start[a as usize + 1] as usize,
        );
        for &o in &self.occurs[lo..hi] {
            let r = (o >> 1) as usize;
            // A positive literal holds when the atom does, a negative one
            // when it does not; the rule's body holds when none fails.
            let holds = if v == (o & 1 == 0) {
                live.unsat[r] -= 1;
                if live.unsat[r] != 0 {
                    continue;
                }
                true
            } else {
                live.unsat[r] += 1;
                if live.unsat[r] != 1 {
                    continue;
                }
                false
            };
            let s = self.rule_step[r];
            let head = self.steps[s as usize].head;
            if head != NONE {
                let h = head as usize;
                if holds {
                    live.support[h] += 1;
                    if live.support[h] != 1 {
                        continue;
                    }
                } else {
                    live.support[h] -= 1;
                    if live.support[h] != 0 {
                        continue;
                    }
                }
                // An atom no rule reads (a legal move, a `next` fact, a
                // goal) takes its value at once: nothing waits on it.
                if self.occurs_start[h] == self.occurs_start[h + 1] {
                    live.set(&self.out_bit, h, holds);
                    continue;
                }
            }
            if after.is_some_and(|x| s <= x) || live.queued[s as usize] {
                continue;
            }
            live.queued[s as usize] = true;
            live.heap.push(Reverse(s));
        }
    }

    /// Settles step `s` once all it reads is final: its atom holds if one
    /// of its rules does; a recursive component is recomputed.
    fn settle(&self, live: &mut Live, s: u32) {
        let step = self.steps[s as usize];
        if step.head != NONE {
            if (live.support[step.head as usize] > 0) != live.value[step.head as usize] {
                self.flip(live, step.head, Some(s));
            }
            return;
        }
        let mut comp = std::mem::take(&mut live.comp);
        comp.clear();
        for r in &self.rules[step.lo as usize..step.hi as usize] {
            if comp.last().is_none_or(|&(a, _)| a != r.head) {
                comp.push((r.head, live.value[r.head as usize]));
            }
        }
        // The new values, then each change applied to the counts.
        let mut value = std::mem::take(&mut live.value);
        self.fixpoint(&mut value, &step);
        for &(a, old) in &comp {
            let new = value[a as usize];
            if new != old {
                value[a as usize] = old;
                live.value = value;
                self.flip(live, a, Some(s));
                value = std::mem::take(&mut live.value);
            }
        }
        live.value = value;
        live.comp = comp;
    }

    /// Evaluates `step` from the values of what it reads: its atom holds
    /// if one rule does; a recursive component's atoms are cleared and
    /// derived again to their least fixpoint.
    fn fixpoint(&self, value: &mut [bool], step: &Step) {
        let rules = &self.rules[step.lo as usize..step.hi as usize];
        if step.head != NONE {
            value[step.head as usize] = rules.iter().any(|r| self.holds(r, value));
            return;
        }
        rules.iter().for_each(|r| value[r.head as usize] = false);
        loop {
            let mut changed = false;
            for r in rules {
                if !value[r.head as usize] && self.holds(r, value) {
                    value[r.head as usize] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Whether rule `r`'s body holds.
    fn holds(&self, r: &GRule, value: &[bool]) -> bool {
        self.body[r.start as usize..r.neg as usize]
            .iter()
            .all(|&a| value[a as usize])
            && self.body[r.neg as usize..r.end as usize]
                .iter()
                .all(|&a| !value[a as usize])
    }
}

/// Where each atom occurs in a rule's body, and each rule's step, as
/// `(start, occurs, rule_step)`: atom `a`'s occurrences are
/// `occurs[start[a]..start[a + 1]]`, each a rule's index shifted left by one
/// with the low bit set under `not`.
pub(super) fn occurrences(
    num_atoms: usize,
    rules: &[GRule],
    body: &[u32],
    steps: &[Step],
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let mut rule_step = vec![NONE; rules.len()];
    for (s, step) in steps.iter().enumerate() {
        rule_step[step.lo as usize..step.hi as usize].fill(s as u32);
    }
    let mut start = vec![0u32; num_atoms + 1];
    for r in rules {
        for &a in &body[r.start as usize..r.end as usize] {
            start[a as usize + 1] += 1;
        }
    }
    (0..num_atoms).for_each(|a| start[a + 1] += start[a]);
    let mut fill = start.clone();
    let mut occurs = vec![0u32; start[num_atoms] as usize];
    for (i, r) in rules.iter().enumerate() {
        for (k, &a) in body[r.start as usize..r.end as usize].iter().enumerate() {
            let neg = u32::from(k >= (r.neg - r.start) as usize);
            occurs[fill[a as usize] as usize] = (i as u32) << 1 | neg;
            fill[a as usize] += 1;
        }
    }
    (start, occurs, rule_step)
}
