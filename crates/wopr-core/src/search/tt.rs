//! A fixed-size transposition table: one slot per index, replaced always.
//!
//! Indexing is a mask of the key; the full key is stored to reject collisions
//! on the index. No hashing library is involved: keys come from the games.

use crate::game::Action;

/// How a stored value relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

/// One table entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The position's key.
    pub key: u64,
    /// The stored value.
    pub value: i32,
    /// The depth it was searched to.
    pub depth: u8,
    /// What kind of bound `value` is.
    pub bound: Bound,
    /// The best (or cut-off) move found.
    pub best: Action,
}

/// A table of `2^bits` entries.
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Vec<Option<Entry>>,
    mask: u64,
}

impl TranspositionTable {
    /// An empty table with `2^bits` slots.
    pub fn new(bits: u32) -> TranspositionTable {
        let n = 1usize << bits;
        TranspositionTable {
            slots: vec![None; n],
            mask: (n - 1) as u64,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        match self.slots[(key & self.mask) as usize] {
            Some(e) if e.key == key => Some(e),
            _ => None,
        }
    }

    /// Stores an entry, replacing whatever shared its slot.
    #[inline]
    pub fn store(&mut self, key: u64, value: i32, depth: u8, bound: Bound, best: Action) {
        self.slots[(key & self.mask) as usize] = Some(Entry {
            key,
            value,
            depth,
            bound,
            best,
        });
    }
}
