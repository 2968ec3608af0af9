//! The compiled program's types, shared by the compiler, the specializer
//! and the evaluator: patterns, relations, rules, strata, and the static
//! indexes over the possible atoms with the matching of patterns to terms.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ast::Sym;
use crate::ground::Terms;

use super::NONE;

/// The relation numbers of `true` and `does`, the inputs of a query.
pub(super) const TRUE: u32 = 0;
pub(super) const DOES: u32 = 1;

pub(super) use crate::ground::{match_args, Pat};

/// `f(args)`: interned as one ground term when every argument is ground,
/// else a function pattern.
pub(super) fn fn_pat(terms: &mut Terms, f: u32, args: Vec<Pat>) -> Pat {
    let ground: Option<Vec<u32>> = args
        .iter()
        .map(|a| match a {
            Pat::Ground(g) => Some(*g),
            _ => None,
        })
        .collect();
    match ground {
        Some(ids) => Pat::Ground(terms.intern(f, &ids)),
        None => Pat::Fn(f, args.into()),
    }
}

/// A relation: its name and arity, whether it depends on `true` or `does`
/// (else it is static: evaluated once), its stratum, and whether it is
/// answered on demand ([`crate::ground::demand`]: its stratum
/// is never evaluated, each literal over it is a [`Op::Call`]).
pub(super) struct Rel {
    pub(super) name: Sym,
    pub(super) arity: usize,
    pub(super) dynamic: bool,
    pub(super) stratum: u32,
    pub(super) demand: bool,
}

/// One step of a join plan.
pub(super) enum Op {
    /// A positive literal: the atoms of `rel` under the key `key` (rule
    /// variables) in index `index` are matched with `args`; if `delta`, the
    /// atoms new in the last round instead.
    Pos {
        rel: u32,
        args: Box<[Pat]>,
        index: u32,
        key: Box<[u32]>,
        delta: bool,
    },
    /// A negative literal, its variables all bound: no atom of the bucket
    /// that holds may equal it.
    Neg {
        rel: u32,
        args: Box<[Pat]>,
        index: u32,
        key: Box<[u32]>,
    },
    /// A literal over a relation answered on demand, its variables all
    /// bound: whether a rule of `rel` whose head matches `args` has a body
    /// that holds must be `!neg`.
    Call {
        rel: u32,
        args: Box<[Pat]>,
        neg: bool,
    },
    /// A positive literal over a relation answered on demand, some
    /// variables unbound (an argument bound if it is recursive): every
    /// tuple of `rel` that
    /// matches `args` (its rules run with the plans for adornment
    /// `adorn`: which arguments are bound), each binding them in turn.
    Solve {
        rel: u32,
        args: Box<[Pat]>,
        adorn: u32,
    },
    /// `(distinct x y)`, both bound.
    Dist(Pat, Pat),
}

/// A rule: the head (found among the possible atoms through
/// `head_index`), the number of variables, and its join plans: the first
/// over everything, then, in a recursive stratum, one per recursive
/// literal that starts from that literal's new atoms. A rule of a relation
/// answered on demand has one plan, made with its head's variables bound
/// (it is run once the head is matched with a call), and no head index.
pub(super) struct Rule {
    pub(super) head_rel: u32,
    pub(super) head: Box<[Pat]>,
    pub(super) head_index: u32,
    pub(super) head_key: Box<[u32]>,
    pub(super) nvars: usize,
    pub(super) plans: Vec<Vec<Op>>,
    /// For a rule of a relation answered on demand: per adornment it is
    /// solved with ([`Op::Solve`]), the plan for it.
    pub(super) adorned: Vec<(u32, u32)>,
}

/// A strongly connected component of the relations: its rules, whether it
/// is recursive, whether it is dynamic.
pub(super) struct Stratum {
    pub(super) rels: Vec<u32>,
    pub(super) rules: Vec<u32>,
    pub(super) recursive: bool,
    pub(super) dynamic: bool,
}

/// A compiled sheet.
pub(super) struct Program {
    pub(super) rels: Vec<Rel>,
    pub(super) rules: Vec<Rule>,
    /// In evaluation order.
    pub(super) strata: Vec<Stratum>,
    pub(super) indexes: Vec<Index>,
    /// Per relation, the relations its rules read.
    pub(super) deps: Vec<Vec<u32>>,
}

/// A rule after `or` expansion and unification, before planning.
#[derive(Clone)]
pub(super) struct Raw {
    pub(super) line: usize,
    pub(super) head_rel: u32,
    pub(super) head: Vec<Pat>,
    pub(super) pos: Vec<(u32, Vec<Pat>)>,
    pub(super) neg: Vec<(u32, Vec<Pat>)>,
    pub(super) dist: Vec<(Pat, Pat)>,
    pub(super) nvars: usize,
}

/// A hasher for keys that are already hashes ([`key_hash`]): it only mixes
/// the bits once more.
#[derive(Default, Clone, Copy)]
pub(super) struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        let h = self.0 ^ (self.0 >> 31);
        h.wrapping_mul(0x94d0_49bb_1331_11eb) ^ (h >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The hash of an index key: the values of its variables, in order.
pub(super) fn key_hash(values: impl Iterator<Item = u32>) -> u64 {
    values.fold(0x9e37_79b9_7f4a_7c15, |h: u64, v| {
        (h.rotate_left(5) ^ u64::from(v)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
    })
}

/// The atoms of one relation that match a pattern, grouped by the values
/// of the pattern's variables that are bound when it is looked up (its
/// `mask`, over the pattern's variables numbered by first occurrence). A
/// bucket may hold atoms of other keys whose hash collides: every atom
/// found is matched against the pattern anyway.
pub(super) struct Index {
    /// The relation.
    pub(super) rel: u32,
    /// The pattern (the arguments), its variables numbered from 0.
    pub(super) pat: Box<[Pat]>,
    /// Per variable of `pat`: whether it is bound at lookup.
    pub(super) mask: Box<[bool]>,
    buckets: HashMap<u64, (u32, u32), BuildHasherDefault<Mix>>,
    atoms: Vec<u32>,
}

impl Index {
    /// The index of the atoms in `source` (of relation `rel`) that match
    /// `pat`.
    pub(super) fn build(
        rel: u32,
        pat: Box<[Pat]>,
        mask: Box<[bool]>,
        terms: &Terms,
        source: &[u32],
    ) -> Index {
        let mut index = Index {
            rel,
            pat,
            mask,
            buckets: HashMap::default(),
            atoms: Vec::new(),
        };
        index.fill(terms, source);
        index
    }

    /// Indexes the atoms in `source` afresh.
    pub(super) fn fill(&mut self, terms: &Terms, source: &[u32]) {
        let (mut binds, mut trail) = (vec![NONE; self.mask.len()], Vec::new());
        let mut pairs: Vec<(u64, u32)> = Vec::new();
        for &a in source {
            if match_args(terms, &self.pat, terms.args(a), &mut binds, &mut trail) {
                let key = (0..binds.len()).filter(|&v| self.mask[v]).map(|v| binds[v]);
                pairs.push((key_hash(key), a));
            }
            trail.drain(..).for_each(|v| binds[v as usize] = NONE);
        }
        pairs.sort_unstable();
        self.buckets.clear();
        self.atoms = pairs.iter().map(|p| p.1).collect();
        let mut start = 0;
        for (i, p) in pairs.iter().enumerate() {
            if pairs.get(i + 1).is_none_or(|q| q.0 != p.0) {
                self.buckets.insert(p.0, (start as u32, (i + 1) as u32));
                start = i + 1;
            }
        }
    }

    /// The atoms under key hash `h`.
    pub(super) fn get(&self, h: u64) -> &[u32] {
        self.buckets
            .get(&h)
            .map_or(&[], |&(lo, hi)| &self.atoms[lo as usize..hi as usize])
    }

    /// How many atoms a lookup finds on average.
    pub(super) fn cost(&self) -> usize {
        self.atoms.len().div_ceil(self.buckets.len().max(1))
    }
}
