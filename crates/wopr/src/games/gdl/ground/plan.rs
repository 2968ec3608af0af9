//! Compiled rules and their join plans.

use super::{Terms, NONE};

/// A term of a compiled rule: a variable (by slot), a ground term, or a
/// function symbol over patterns of which some are not ground. The
/// grounder and the non-ground evaluator both compile rules to these.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(in crate::games::gdl) enum Pat {
    Var(u32),
    Ground(u32),
    Fn(u32, Box<[Pat]>),
}

/// Matches the patterns `pats` against the terms `args`, binding unbound
/// variables (each binding pushed on `trail`, so the caller can undo it).
pub(in crate::games::gdl) fn match_args(
    terms: &Terms,
    pats: &[Pat],
    args: &[u32],
    binds: &mut [u32],
    trail: &mut Vec<u32>,
) -> bool {
    pats.len() == args.len()
        && pats
            .iter()
            .zip(args)
            .all(|(p, &t)| match_pat(terms, p, t, binds, trail))
}

/// Matches pattern `p` against term `t` (see [`match_args`]).
pub(in crate::games::gdl) fn match_pat(
    terms: &Terms,
    p: &Pat,
    t: u32,
    binds: &mut [u32],
    trail: &mut Vec<u32>,
) -> bool {
    match p {
        Pat::Ground(g) => *g == t,
        Pat::Var(v) => match binds[*v as usize] {
            NONE => {
                binds[*v as usize] = t;
                trail.push(*v);
                true
            }
            b => b == t,
        },
        Pat::Fn(f, args) => {
            terms.nodes[t as usize].0 == *f && match_args(terms, args, terms.args(t), binds, trail)
        }
    }
}

pub(super) fn pat_vars(p: &Pat, out: &mut Vec<u32>) {
    match p {
        Pat::Var(v) => out.push(*v),
        Pat::Ground(_) => {}
        Pat::Fn(_, args) => args.iter().for_each(|a| pat_vars(a, out)),
    }
}

/// One step of a join plan: which positive literal, which of its arguments
/// are bound before it (to probe the index), whether all of them are, and
/// which `distinct`s to check after it.
pub(super) struct PStep {
    pub(super) lit: usize,
    pub(super) bound: Vec<usize>,
    pub(super) full: bool,
    pub(super) checks: Vec<usize>,
}

/// A rule after `or` expansion and equality unification.
pub(super) struct CRule {
    pub(super) line: usize,
    pub(super) head: Pat,
    /// The positive literals: relation and argument patterns.
    pub(super) pos: Vec<(u32, Vec<Pat>)>,
    /// The negative literals, as whole atoms.
    pub(super) neg: Vec<Pat>,
    pub(super) dist: Vec<(Pat, Pat)>,
    pub(super) nvars: usize,
    /// One join plan per positive literal, starting with it.
    pub(super) plans: Vec<Vec<PStep>>,
}

/// The join plan starting with positive literal `first`: greedily, the
/// literal whose arguments are all bound, else the one binding fewest new
/// variables (more bound arguments first).
pub(super) fn plan(r: &CRule, first: usize) -> Vec<PStep> {
    let mut bound = vec![false; r.nvars];
    let mut left: Vec<usize> = (0..r.pos.len()).filter(|&j| j != first).collect();
    let mut checked = vec![false; r.dist.len()];
    let mut steps = Vec::new();
    let mut next = Some(first);
    while let Some(lit) = next {
        let args = &r.pos[lit].1;
        let is_bound = |p: &Pat, bound: &[bool]| {
            let mut vs = Vec::new();
            pat_vars(p, &mut vs);
            vs.iter().all(|&v| bound[v as usize])
        };
        let bound_args: Vec<usize> = (0..args.len())
            .filter(|&k| is_bound(&args[k], &bound))
            .collect();
        let full = bound_args.len() == args.len();
        for a in args {
            let mut vs = Vec::new();
            pat_vars(a, &mut vs);
            vs.iter().for_each(|&v| bound[v as usize] = true);
        }
        let checks: Vec<usize> = (0..r.dist.len())
            .filter(|&d| {
                !checked[d] && is_bound(&r.dist[d].0, &bound) && is_bound(&r.dist[d].1, &bound)
            })
            .collect();
        checks.iter().for_each(|&d| checked[d] = true);
        steps.push(PStep {
            lit,
            bound: bound_args,
            full,
            checks,
        });
        let score = |j: usize| {
            let mut vs = Vec::new();
            r.pos[j].1.iter().for_each(|a| pat_vars(a, &mut vs));
            vs.sort_unstable();
            vs.dedup();
            let new = vs.iter().filter(|&&v| !bound[v as usize]).count();
            let nb = r.pos[j].1.iter().filter(|a| is_bound(a, &bound)).count();
            (new > 0, new, usize::MAX - nb, j)
        };
        next = left.iter().copied().min_by_key(|&j| score(j));
        left.retain(|&j| Some(j) != next);
    }
    steps
}
