//! Bound patterns against ground terms: what the grounder's joins look up,
//! compare and make.

use super::plan::Pat;
use super::Grounder;

impl Grounder {
    /// The number of a bound pattern's term, if it was interned (else no
    /// atom can contain it).
    pub(super) fn find_inst(&self, p: &Pat, binds: &[u32], key: &mut Vec<u32>) -> Option<u32> {
        match p {
            Pat::Ground(g) => Some(*g),
            Pat::Var(v) => Some(binds[*v as usize]),
            Pat::Fn(f, args) => self.find_app(*f, args, binds, key),
        }
    }

    /// The number of symbol `f` applied to the bound patterns `args`, if
    /// it was interned ([`Grounder::find_inst`]).
    pub(super) fn find_app(
        &self,
        f: u32,
        args: &[Pat],
        binds: &[u32],
        key: &mut Vec<u32>,
    ) -> Option<u32> {
        let mark = key.len();
        key.push(f);
        let id = if self.push_insts(args, binds, key) {
            self.terms.find(&key[mark..])
        } else {
            None
        };
        key.truncate(mark);
        id
    }

    /// Pushes the numbers of the bound patterns `pats` onto `key`; if one
    /// was not interned, leaves `key` as it was and returns false.
    pub(super) fn push_insts<'p>(
        &self,
        pats: impl IntoIterator<Item = &'p Pat>,
        binds: &[u32],
        key: &mut Vec<u32>,
    ) -> bool {
        let mark = key.len();
        for p in pats {
            match self.find_inst(p, binds, key) {
                Some(id) => key.push(id),
                None => {
                    key.truncate(mark);
                    return false;
                }
            }
        }
        true
    }

    /// Whether a bound pattern equals a term.
    fn eq_id(&self, p: &Pat, t: u32, binds: &[u32]) -> bool {
        match p {
            Pat::Ground(g) => *g == t,
            Pat::Var(v) => binds[*v as usize] == t,
            Pat::Fn(f, args) => {
                let targs = self.terms.args(t);
                self.terms.nodes[t as usize].0 == *f
                    && targs.len() == args.len()
                    && args
                        .iter()
                        .zip(targs)
                        .all(|(a, &x)| self.eq_id(a, x, binds))
            }
        }
    }

    /// Whether two bound patterns are equal.
    pub(super) fn pat_eq(&self, x: &Pat, y: &Pat, binds: &[u32]) -> bool {
        match (x, y) {
            (Pat::Ground(g), p) | (p, Pat::Ground(g)) => self.eq_id(p, *g, binds),
            (Pat::Var(v), p) | (p, Pat::Var(v)) => self.eq_id(p, binds[*v as usize], binds),
            (Pat::Fn(f, xs), Pat::Fn(g, ys)) => {
                f == g
                    && xs.len() == ys.len()
                    && xs.iter().zip(ys).all(|(a, b)| self.pat_eq(a, b, binds))
            }
        }
    }

    /// The number of a bound pattern's term, interning it.
    pub(super) fn inst(&mut self, p: &Pat, binds: &[u32]) -> u32 {
        match p {
            Pat::Ground(g) => *g,
            Pat::Var(v) => binds[*v as usize],
            Pat::Fn(f, args) => {
                let ids: Vec<u32> = args.iter().map(|a| self.inst(a, binds)).collect();
                self.terms.intern(*f, &ids)
            }
        }
    }
}
