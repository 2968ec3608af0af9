//! Hash-consed ground terms, and a fast hasher for integer keys.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use hashbrown::HashTable;

use crate::ast::{Sym, Term};

/// A small fast hasher for integer keys (the FxHash mixing step).
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Fx {
    pub fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Fx {
    /// The state mixed so that every bit of the hash depends on every bit
    /// of the input. The mixing step alone leaves the low bits depending
    /// only on the inputs' low bits, and the map picks a bucket by the low
    /// bits: keys that differ only in the high half of a word (a term
    /// `(s a b)` is hashed as the words `s | a << 32` and `b`) then share
    /// buckets, and each lookup compares keys along a long probe. urmAdd's
    /// grounding spent 85% of its time so. This is MurmurHash3's
    /// finalizer.
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}

/// A hash map with [`Fx`] hashing.
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// Hash-consed ground terms: a term is a symbol applied to zero or more
/// terms (a constant, a function term, or an atom: a relation is a symbol
/// too), numbered densely; equal terms get equal numbers.
#[derive(Default)]
pub struct Terms {
    pub names: Vec<Sym>,
    name_ids: FxMap<Sym, u32>,
    /// Per term: its symbol, and the start and length of its arguments.
    pub nodes: Vec<(u32, u32, u32)>,
    args: Vec<u32>,
    /// Per term: how deeply it nests (a constant is 1).
    depth: Vec<u32>,
    /// The term numbers, each with its hash ([`key_hash`]): no key is
    /// allocated per term, so that millions of terms are made and freed
    /// at the cost of a few large allocations, and the table grows without
    /// reading the terms again.
    ids: HashTable<(u32, u32)>,
}

/// The hash of the term `sym(args)` in 32 bits: its symbol and arity in
/// one word, then its arguments two to a word.
fn key_hash(sym: u32, args: &[u32]) -> u32 {
    let mut h = Fx::default();
    h.add(u64::from(sym) | (args.len() as u64) << 32);
    for pair in args.chunks(2) {
        let high = pair.get(1).map_or(0, |&b| u64::from(b) << 32);
        h.add(u64::from(pair[0]) | high);
    }
    h.finish() as u32
}

/// The table's hash of a 32-bit hash: the table picks a bucket by the low
/// bits and tags it with the top seven, so both come from all 32.
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Terms {
    /// The number of a symbol, interning it.
    pub fn name(&mut self, s: &Sym) -> u32 {
        if let Some(&i) = self.name_ids.get(s) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(s.clone());
        self.name_ids.insert(s.clone(), i);
        i
    }

    /// The number of the term `sym(args)`, interning it.
    pub fn intern(&mut self, sym: u32, args: &[u32]) -> u32 {
        let hash = key_hash(sym, args);
        if let Some(id) = self.lookup(hash, sym, args) {
            return id;
        }
        let id = self.nodes.len() as u32;
        self.nodes
            .push((sym, self.args.len() as u32, args.len() as u32));
        self.args.extend_from_slice(args);
        let depth = args
            .iter()
            .map(|&a| self.depth[a as usize])
            .max()
            .unwrap_or(0);
        self.depth.push(depth + 1);
        self.ids
            .insert_unique(spread(hash), (id, hash), |&(_, h)| spread(h));
        id
    }

    /// The number of the term `sym(args)` of hash `hash`, if interned.
    fn lookup(&self, hash: u32, sym: u32, args: &[u32]) -> Option<u32> {
        let same = |&(t, h): &(u32, u32)| {
            h == hash && self.nodes[t as usize].0 == sym && self.args(t) == args
        };
        self.ids.find(spread(hash), same).map(|&(t, _)| t)
    }

    /// The number of the term whose key (symbol, then arguments) is `key`,
    /// if it was interned.
    pub fn find(&self, key: &[u32]) -> Option<u32> {
        let (&sym, args) = key.split_first()?;
        self.lookup(key_hash(sym, args), sym, args)
    }

    /// The term `name(args)`, if it was interned.
    pub fn find_app(&self, name: &str, args: &[u32]) -> Option<u32> {
        let sym = *self.name_ids.get(name)?;
        let key: Vec<u32> = std::iter::once(sym).chain(args.iter().copied()).collect();
        self.find(&key)
    }

    /// How deeply a term nests (a constant is 1).
    pub fn depth(&self, t: u32) -> u32 {
        self.depth[t as usize]
    }

    /// How many terms there are.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// How many arguments the terms have in all.
    pub fn num_args(&self) -> usize {
        self.args.len()
    }

    /// A term's symbol.
    pub fn sym(&self, t: u32) -> &Sym {
        &self.names[self.nodes[t as usize].0 as usize]
    }

    /// A term's arguments.
    pub fn args(&self, t: u32) -> &[u32] {
        let (_, start, len) = self.nodes[t as usize];
        &self.args[start as usize..(start + len) as usize]
    }

    /// A term as a syntax tree.
    pub fn to_term(&self, t: u32) -> Term {
        let args = self.args(t);
        if args.is_empty() {
            Term::Const(self.sym(t).clone())
        } else {
            Term::Fn(
                self.sym(t).clone(),
                args.iter().map(|&a| self.to_term(a)).collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_terms_share_a_number_and_no_two_others_do() {
        let mut t = Terms::default();
        let f = t.name(&Sym::from("f"));
        let consts: Vec<u32> = (0..300)
            .map(|i| {
                let sym = t.name(&Sym::from(i.to_string().as_str()));
                t.intern(sym, &[])
            })
            .collect();
        // The first constant is term 0: `(f 0)` and `(f 0 0)` hash the
        // same arguments word and differ by arity alone.
        assert_eq!(consts[0], 0);
        let one = t.intern(f, &[0]);
        let two = t.intern(f, &[0, 0]);
        assert_ne!(one, two);
        // 300 x 300 pairs, then each again: 90,000 new terms, found again.
        let pairs: Vec<u32> = consts
            .iter()
            .flat_map(|&a| consts.iter().map(move |&b| (a, b)))
            .map(|(a, b)| t.intern(f, &[a, b]))
            .collect();
        assert_eq!(t.len(), 300 + 2 + 90_000 - 1);
        for (k, &id) in pairs.iter().enumerate() {
            let (a, b) = (consts[k / 300], consts[k % 300]);
            assert_eq!(t.intern(f, &[a, b]), id);
            assert_eq!(t.find(&[f, a, b]), Some(id));
            assert_eq!(t.args(id), &[a, b]);
        }
        assert_eq!(t.len(), 300 + 2 + 90_000 - 1);
        assert_eq!(t.find(&[f, consts[1], consts[2], consts[3]]), None);
        assert_eq!(t.find_app("f", &[0]), Some(one));
        assert_eq!(t.depth(pairs[5]), 2);
    }
}
