//! Specializing rules to the calls they get, so that a bottom-up query
//! derives only the atoms some rule reads (magic sets for ground calls).
//!
//! A sheet often calls a helper relation with ground arguments only, as
//! `(count f1 g1 g2 yellow ?n)`: evaluated bottom-up, `count` would hold for
//! every triple of cells, though four of them are ever read. So for each
//! relation that is not one the reasoner reads whole (`legal`, `next`,
//! `goal`, `terminal`, `sees`, `init`): the argument positions at which
//! every literal reading it (positive or negative, in any rule) has a
//! ground term are found, and each of its rules is replaced by one copy per
//! distinct tuple of those terms, the head unified with it (a copy whose
//! head does not unify is dropped). Every atom a literal reads is derived
//! exactly as before. Copies make more calls ground, so this is repeated a
//! few times.

use std::collections::HashSet;

use crate::ground::Terms;

use super::program::{fn_pat, match_args, Pat, Raw, Rel};
use super::NONE;

/// The relations the reasoner reads whole, which are never specialized.
const OUTPUTS: [(&str, usize); 6] = [
    ("legal", 2),
    ("next", 1),
    ("goal", 2),
    ("terminal", 0),
    ("sees", 2),
    ("init", 1),
];

/// The most copies specializing one relation's rules may make.
const MAX_COPIES: usize = 4096;

/// How many times specialization is repeated at most.
const ROUNDS: usize = 8;

/// The rules `raws` (over relations `rels`), specialized.
pub(super) fn specialize(mut raws: Vec<Raw>, rels: &[Rel], terms: &mut Terms) -> Vec<Raw> {
    let output: Vec<bool> = rels
        .iter()
        .map(|r| OUTPUTS.contains(&(&*r.name, r.arity)))
        .collect();
    for _ in 0..ROUNDS {
        // Per relation: the positions ground in every call, and the terms
        // there.
        let mut ground: Vec<Option<Vec<bool>>> = vec![None; rels.len()];
        let calls = |raws: &[Raw]| -> Vec<(u32, Vec<Pat>)> {
            let lits = raws.iter().flat_map(|r| r.pos.iter().chain(&r.neg));
            lits.cloned().collect()
        };
        let all_calls = calls(&raws);
        for (rel, args) in &all_calls {
            let g = ground[*rel as usize].get_or_insert_with(|| vec![true; args.len()]);
            for (k, a) in args.iter().enumerate() {
                g[k] &= matches!(a, Pat::Ground(_));
            }
        }
        let mut tuples: Vec<HashSet<Vec<u32>>> = vec![HashSet::new(); rels.len()];
        for (rel, args) in &all_calls {
            if let Some(g) = &ground[*rel as usize] {
                tuples[*rel as usize].insert(at(args, g));
            }
        }
        let mut rules_of = vec![0usize; rels.len()];
        raws.iter().for_each(|r| rules_of[r.head_rel as usize] += 1);
        let mut changed = false;
        let mut out = Vec::with_capacity(raws.len());
        for r in raws {
            let rel = r.head_rel as usize;
            let g = match &ground[rel] {
                Some(g) if g.contains(&true) && !output[rel] => g,
                _ => {
                    out.push(r);
                    continue;
                }
            };
            if tuples[rel].len() * rules_of[rel] > MAX_COPIES {
                out.push(r);
                continue;
            }
            let head: Vec<Pat> = r
                .head
                .iter()
                .zip(g)
                .filter(|p| *p.1)
                .map(|p| p.0.clone())
                .collect();
            if head.iter().all(|p| matches!(p, Pat::Ground(_))) {
                // Already specialized: kept if some call reads it.
                if tuples[rel].contains(&at(&r.head, g)) {
                    out.push(r);
                } else {
                    changed = true;
                }
                continue;
            }
            changed = true;
            let mut sorted: Vec<&Vec<u32>> = tuples[rel].iter().collect();
            sorted.sort_unstable();
            for t in sorted {
                let (mut binds, mut trail) = (vec![NONE; r.nvars], Vec::new());
                if match_args(terms, &head, t, &mut binds, &mut trail) {
                    out.push(instantiate(&r, &binds, terms));
                }
            }
        }
        raws = out;
        if !changed {
            break;
        }
    }
    raws
}

/// The ground terms of `args` at the positions `g` marks.
fn at(args: &[Pat], g: &[bool]) -> Vec<u32> {
    let ground = args.iter().zip(g).filter(|p| *p.1);
    ground
        .map(|(a, _)| if let Pat::Ground(t) = a { *t } else { NONE })
        .collect()
}

/// Rule `r` with the variables bound in `binds` replaced by their terms.
fn instantiate(r: &Raw, binds: &[u32], terms: &mut Terms) -> Raw {
    let mut s = |p: &Pat| subst(p, binds, terms);
    Raw {
        line: r.line,
        head_rel: r.head_rel,
        head: r.head.iter().map(&mut s).collect(),
        pos: r
            .pos
            .iter()
            .map(|(rel, a)| (*rel, a.iter().map(&mut s).collect()))
            .collect(),
        neg: r
            .neg
            .iter()
            .map(|(rel, a)| (*rel, a.iter().map(&mut s).collect()))
            .collect(),
        dist: r.dist.iter().map(|(x, y)| (s(x), s(y))).collect(),
        nvars: r.nvars,
    }
}

fn subst(p: &Pat, binds: &[u32], terms: &mut Terms) -> Pat {
    match p {
        Pat::Var(v) if binds[*v as usize] != NONE => Pat::Ground(binds[*v as usize]),
        Pat::Fn(f, args) => {
            let args: Vec<Pat> = args.iter().map(|a| subst(a, binds, terms)).collect();
            fn_pat(terms, *f, args)
        }
        other => other.clone(),
    }
}
