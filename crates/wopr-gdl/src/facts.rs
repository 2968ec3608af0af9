//! What the reasoners share: a state's true facts as a bitset, and the
//! order of ground terms that numbers base facts, moves and percepts.

use std::cmp::Ordering;

use super::ast::Term;

/// The true base facts of a state: a bitset over [`Reasoner::base`](super::reasoner::Reasoner::base).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Facts(pub(super) Box<[u64]>);

impl Facts {
    /// No fact true, over `num_base` base facts.
    pub fn empty(num_base: usize) -> Facts {
        Facts(vec![0; num_base.div_ceil(64)].into_boxed_slice())
    }

    /// Whether base fact `base` is true (false if it is out of range).
    pub fn contains(&self, base: usize) -> bool {
        self.0
            .get(base / 64)
            .is_some_and(|w| w >> (base % 64) & 1 == 1)
    }

    /// Makes base fact `base` true.
    ///
    /// # Panics
    /// If `base` is beyond the bitset's words.
    pub fn insert(&mut self, base: usize) {
        self.0[base / 64] |= 1 << (base % 64);
    }

    /// Makes base fact `base` false.
    pub fn remove(&mut self, base: usize) {
        if let Some(w) = self.0.get_mut(base / 64) {
            *w &= !(1 << (base % 64));
        }
    }

    /// The true base facts, increasing.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    i * 64 + b
                })
            })
        })
    }

    /// How many base facts are true.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no base fact is true.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
}

/// Orders ground terms: numbers numerically and before names, names
/// alphabetically, function terms after constants by symbol, arity and
/// arguments.
pub fn cmp_terms(a: &Term, b: &Term) -> Ordering {
    match (a, b) {
        (Term::Const(x) | Term::Var(x), Term::Const(y) | Term::Var(y)) => {
            match (x.parse::<i64>(), y.parse::<i64>()) {
                (Ok(m), Ok(n)) => m.cmp(&n).then_with(|| x.cmp(y)),
                (Ok(_), Err(_)) => Ordering::Less,
                (Err(_), Ok(_)) => Ordering::Greater,
                _ => x.cmp(y),
            }
        }
        (Term::Fn(..), Term::Const(_) | Term::Var(_)) => Ordering::Greater,
        (Term::Const(_) | Term::Var(_), Term::Fn(..)) => Ordering::Less,
        (Term::Fn(f, xs), Term::Fn(g, ys)) => {
            f.cmp(g).then(xs.len().cmp(&ys.len())).then_with(|| {
                xs.iter()
                    .zip(ys)
                    .map(|(x, y)| cmp_terms(x, y))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            })
        }
    }
}
