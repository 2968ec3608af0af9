//! What reading a sheet holds, priced against its memory budget: the
//! [`Meter`] and the heap sizes of the sentences kept.

use std::mem::size_of;

use super::super::ast::{Atom, Literal, Rule, Term};
use super::super::ground::budget::raise;
use super::super::ground::Budget;
use super::super::GdlError;
use super::{err, ALLOC};

/// What reading holds so far, against the budget.
pub(super) struct Meter {
    /// The text and every sentence, name and table kept so far.
    pub(super) held: u64,
    /// The text's bytes (part of `held`).
    pub(super) text: u64,
    /// The expressions of the sentence being read (freed once it is a
    /// rule).
    pub(super) pending: u64,
    /// The budget's room.
    pub(super) limit: u64,
    pub(super) budget: Budget,
    /// Sentences kept so far.
    pub(super) sentences: usize,
}

impl Meter {
    /// Fails at `line` if what is held has passed the budget.
    pub(super) fn check(&self, line: usize) -> Result<(), GdlError> {
        self.check_with(line, 0)
    }

    /// Fails at `line` if what is held and `more` bytes would pass the
    /// budget.
    pub(super) fn check_with(&self, line: usize, more: u64) -> Result<(), GdlError> {
        let total = self.held.saturating_add(self.pending).saturating_add(more);
        if total <= self.limit {
            return Ok(());
        }
        let size = |b: u64| Budget::from_bytes(b).to_string();
        Err(err(
            line,
            format!(
                "reading the sheet exceeds the memory budget of {} ({} of text and {} \
                 sentences so far would hold {}); {}",
                self.budget,
                size(self.text),
                self.sentences,
                size(total),
                raise(self.budget)
            ),
        ))
    }
}

/// The heap bytes of `rule` beyond its slot in the sheet's vector.
pub(super) fn rule_bytes(rule: &Rule) -> u64 {
    atom_bytes(&rule.head)
        + vec_bytes::<Literal>(rule.body.capacity())
        + rule.body.iter().map(literal_bytes).sum::<u64>()
}

/// The block of a vector of `cap` `T`s (none when it has none).
fn vec_bytes<T>(cap: usize) -> u64 {
    if cap == 0 {
        0
    } else {
        (cap * size_of::<T>()) as u64 + ALLOC
    }
}

fn atom_bytes(a: &Atom) -> u64 {
    vec_bytes::<Term>(a.args.capacity()) + a.args.iter().map(term_bytes).sum::<u64>()
}

fn term_bytes(t: &Term) -> u64 {
    match t {
        Term::Fn(_, args) => {
            vec_bytes::<Term>(args.capacity()) + args.iter().map(term_bytes).sum::<u64>()
        }
        Term::Const(_) | Term::Var(_) => 0,
    }
}

fn literal_bytes(l: &Literal) -> u64 {
    match l {
        Literal::Pos(a) => atom_bytes(a),
        Literal::Not(inner) => size_of::<Literal>() as u64 + ALLOC + literal_bytes(inner),
        Literal::Distinct(a, b) => term_bytes(a) + term_bytes(b),
        Literal::Or(ls) => {
            vec_bytes::<Literal>(ls.capacity()) + ls.iter().map(literal_bytes).sum::<u64>()
        }
    }
}
