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
//! every move that leaves it alone). Each step has a level, one more than
//! the highest level among the steps it reads (the inputs are level 0):
//! the steps whose counts moved wait in a bucket per level and are settled
//! level by level, each at most once a query, after everything it reads
//! is final. A recursive component is recomputed from nothing to its least
//! fixpoint instead, since counts cannot tell that a cycle of atoms lost
//! its last support from outside.
//!
//! What a change of an atom touches through each rule that reads it (the
//! rule's step, its atom, its level, whether that atom has one rule and
//! whether any rule reads it) is laid out beside the occurrence ([`Occ`]),
//! so a change reads one list in order and then only the counts it moves;
//! a waiting step carries what settling it reads ([`Waiting`]).
//! `docs/results/gdl-speed.md` has what that gained.
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
    /// Steps waiting to be evaluated, by level ([`Occ::level`]), and
    /// whether a step is among them.
    buckets: Vec<Vec<Waiting>>,
    queued: Vec<bool>,
    /// The lowest and the highest level with a step waiting (`lowest >
    /// highest`: none).
    lowest: usize,
    highest: usize,
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
            buckets: Vec::new(),
            queued: Vec::new(),
            lowest: 1,
            highest: 0,
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
            self.bring(&mut live, state, joint);
            f(&live)
        })
    }

    /// Replaces `state` by its successor after `joint`, which must be a
    /// state of this program (as many words as its base facts take).
    pub(super) fn next_in_place(&self, state: &mut Facts, joint: &[u32]) {
        LIVE.with(|cell| {
            let mut live = cell.borrow_mut();
            self.bring(&mut live, state, Some(joint));
            let n = state.0.len();
            state.0.copy_from_slice(&live.outs()[..n]);
        })
    }

    /// Brings `live` to `state` and `joint` ([`Grounded::with_live`]),
    /// starting afresh if it held another program's values.
    fn bring(&self, live: &mut Live, state: &Facts, joint: Option<&[u32]>) {
        if live.owner != self.id {
            self.reset(live);
        }
        self.sync(live, state, joint);
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
        live.buckets.iter_mut().for_each(Vec::clear);
        live.buckets.resize_with(self.levels, Vec::new);
        (live.lowest, live.highest) = (1, 0);
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
            // Compared by hand: a slice comparison calls `memcmp`, which
            // costs more than the two or three moves it compares.
            let same = wanted.len() == live.does.len()
                && wanted.iter().zip(&live.does).all(|(a, b)| a == b);
            if !same {
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
        // A step reads only steps of lower levels, so each settles once,
        // after all it reads; settling queues higher levels only.
        while live.lowest <= live.highest {
            let level = live.lowest;
            while let Some(w) = live.buckets[level].pop() {
                live.queued[w.step as usize] = false;
                self.settle(live, w);
            }
            live.lowest += 1;
        }
        (live.lowest, live.highest) = (1, 0);
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
        for o in &self.occurs[lo..hi] {
            let r = (o.rule >> 1) as usize;
            // A positive literal holds when the atom does, a negative one
            // when it does not; the rule's body holds when none fails.
            let holds = if v == (o.rule & 1 == 0) {
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
            let h = o.head as usize;
            if o.head != NONE {
                // An atom of one rule holds when that rule does.
                if o.level & Occ::ONE_RULE == 0 {
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
                }
                // An atom no rule reads (a legal move, a `next` fact, a
                // goal) takes its value at once: nothing waits on it.
                if o.level & Occ::SINK != 0 {
                    live.set(&self.out_bit, h, holds);
                    continue;
                }
            }
            let s = o.step;
            if after.is_some_and(|x| s <= x) || live.queued[s as usize] {
                continue;
            }
            live.queued[s as usize] = true;
            let level = (o.level >> 2) as usize;
            // What settling the step reads, so that it needs no look-up
            // of the step: for an atom of one rule, that rule.
            let rule = if o.level & Occ::ONE_RULE != 0 {
                r as u32
            } else {
                NONE
            };
            live.buckets[level].push(Waiting {
                step: s,
                head: o.head,
                rule,
            });
            live.lowest = live.lowest.min(level);
            live.highest = live.highest.max(level);
        }
    }

    /// Settles step `w.step` once all it reads is final: its atom holds if
    /// one of its rules does; a recursive component is recomputed.
    fn settle(&self, live: &mut Live, w: Waiting) {
        let s = w.step;
        if w.head != NONE {
            let h = w.head as usize;
            let holds = if w.rule != NONE {
                live.unsat[w.rule as usize] == 0
            } else {
                live.support[h] > 0
            };
            if holds != live.value[h] {
                self.flip(live, w.head, Some(s));
            }
            return;
        }
        let step = self.steps[s as usize];
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

/// A step waiting to be settled, with what settling it reads.
#[derive(Clone, Copy)]
pub(super) struct Waiting {
    step: u32,
    /// The step's atom (`NONE` for a recursive component).
    head: u32,
    /// The atom's one rule, or `NONE` if it has several.
    rule: u32,
}

/// One occurrence of an atom in a rule's body, with what a change of the
/// atom touches through it: read in order, so that a change costs no
/// look-up beyond the counts it moves.
#[derive(Clone, Copy)]
pub(super) struct Occ {
    /// The rule's index shifted left by one, the low bit set under `not`.
    rule: u32,
    /// The rule's step.
    step: u32,
    /// The step's atom (`NONE` for a recursive component).
    head: u32,
    /// The step's level (1 + the highest level of a step it reads; the
    /// inputs are level 0) shifted left by two, with [`Occ::ONE_RULE`] and
    /// [`Occ::SINK`] in the low bits.
    level: u32,
}

impl Occ {
    /// The step's atom has this one rule: it holds when the rule does.
    const ONE_RULE: u32 = 1;
    /// No rule reads the step's atom.
    const SINK: u32 = 2;
}

/// Where each atom occurs in a rule's body, as `(start, occurs, levels)`:
/// atom `a`'s occurrences are `occurs[start[a]..start[a + 1]]`, and the
/// steps' levels run below `levels`.
pub(super) fn occurrences(
    num_atoms: usize,
    rules: &[GRule],
    body: &[u32],
    steps: &[Step],
) -> (Vec<u32>, Vec<Occ>, usize) {
    let mut rule_step = vec![NONE; rules.len()];
    for (s, step) in steps.iter().enumerate() {
        rule_step[step.lo as usize..step.hi as usize].fill(s as u32);
    }
    // Levels, in evaluation order: an atom's level is its step's, an
    // input's (or a folded atom's) 0.
    let mut atom_level = vec![0u32; num_atoms];
    let mut step_level = vec![0u32; steps.len()];
    for (s, step) in steps.iter().enumerate() {
        let rs = &rules[step.lo as usize..step.hi as usize];
        // A recursive component's own atoms read 0 here: they get their
        // level below.
        let level = 1 + rs
            .iter()
            .flat_map(|r| &body[r.start as usize..r.end as usize])
            .map(|&a| atom_level[a as usize])
            .max()
            .unwrap_or(0);
        step_level[s] = level;
        rs.iter().for_each(|r| atom_level[r.head as usize] = level);
    }
    let mut start = vec![0u32; num_atoms + 1];
    for r in rules {
        for &a in &body[r.start as usize..r.end as usize] {
            start[a as usize + 1] += 1;
        }
    }
    (0..num_atoms).for_each(|a| start[a + 1] += start[a]);
    let mut fill = start.clone();
    let empty = Occ {
        rule: 0,
        step: 0,
        head: NONE,
        level: 0,
    };
    let mut occurs = vec![empty; start[num_atoms] as usize];
    for (i, r) in rules.iter().enumerate() {
        let s = rule_step[i] as usize;
        let step = steps[s];
        let mut flags = 0;
        if step.head != NONE {
            let h = step.head as usize;
            if step.hi - step.lo == 1 {
                flags |= Occ::ONE_RULE;
            }
            if start[h] == start[h + 1] {
                flags |= Occ::SINK;
            }
        }
        for (k, &a) in body[r.start as usize..r.end as usize].iter().enumerate() {
            let neg = u32::from(k >= (r.neg - r.start) as usize);
            occurs[fill[a as usize] as usize] = Occ {
                rule: (i as u32) << 1 | neg,
                step: s as u32,
                head: step.head,
                level: step_level[s] << 2 | flags,
            };
            fill[a as usize] += 1;
        }
    }
    let levels = step_level.iter().max().map_or(1, |&l| l as usize + 1);
    (start, occurs, levels)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule `head <- pos, not neg` appended to `rules` and `body`.
    fn rule(rules: &mut Vec<GRule>, body: &mut Vec<u32>, head: u32, pos: &[u32], neg: &[u32]) {
        let start = body.len() as u32;
        body.extend_from_slice(pos);
        body.extend_from_slice(neg);
        rules.push(GRule {
            head,
            start,
            neg: start + pos.len() as u32,
            end: body.len() as u32,
        });
    }

    #[test]
    fn a_step_is_one_level_above_what_it_reads_and_its_occurrences_say_so() {
        // Atom 0 is the input; 1 <- 0; 2 <- 0 or 2 <- not 1; 3 <- 1, 2.
        let (mut rules, mut body) = (Vec::new(), Vec::new());
        rule(&mut rules, &mut body, 1, &[0], &[]);
        rule(&mut rules, &mut body, 2, &[0], &[]);
        rule(&mut rules, &mut body, 2, &[], &[1]);
        rule(&mut rules, &mut body, 3, &[1, 2], &[]);
        let steps = [
            Step {
                head: 1,
                lo: 0,
                hi: 1,
            },
            Step {
                head: 2,
                lo: 1,
                hi: 3,
            },
            Step {
                head: 3,
                lo: 3,
                hi: 4,
            },
        ];
        let (start, occurs, levels) = occurrences(4, &rules, &body, &steps);
        // Levels 1 (atom 1), 2 (atom 2 reads 1), 3 (atom 3 reads 2).
        assert_eq!(levels, 4);
        let of = |a: usize| &occurs[start[a] as usize..start[a + 1] as usize];
        let seen: Vec<(u32, u32, u32, u32)> = of(0)
            .iter()
            .chain(of(1))
            .chain(of(2))
            .map(|o| (o.rule, o.head, o.level >> 2, o.level & 3))
            .collect();
        assert_eq!(
            seen,
            [
                // Atom 0 in rule 0 (of atom 1: one rule, read by rule 3)
                // and rule 1 (of atom 2: two rules).
                (0, 1, 1, Occ::ONE_RULE),
                (1 << 1, 2, 2, 0),
                // Atom 1 under `not` in rule 2, and in rule 3 (of atom 3:
                // one rule, read by none).
                (2 << 1 | 1, 2, 2, 0),
                (3 << 1, 3, 3, Occ::ONE_RULE | Occ::SINK),
                (3 << 1, 3, 3, Occ::ONE_RULE | Occ::SINK),
            ]
        );
        assert!(of(3).is_empty());
    }
}
