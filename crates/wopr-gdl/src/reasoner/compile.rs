//! Compiling a grounded sheet into steps: strongly connected components in
//! evaluation order, the atoms that never change evaluated and folded away.

use crate::ground::{dedup_tail, Grounding};
use crate::GdlError;

use super::NONE;

/// A ground rule: `head <- body[start..neg], not body[neg..end]`.
#[derive(Clone, Copy)]
pub(super) struct GRule {
    pub(super) head: u32,
    pub(super) start: u32,
    pub(super) neg: u32,
    pub(super) end: u32,
}

/// Rules `lo..hi`: of atom `head` (which holds if one of them does), or of
/// a recursive component if `head` is `NONE` (evaluated to a fixpoint).
#[derive(Clone, Copy)]
pub(super) struct Step {
    pub(super) head: u32,
    pub(super) lo: u32,
    pub(super) hi: u32,
}

/// The compiled program: the rules (in dense atom numbers, the atoms that
/// never change folded away), their bodies, and the steps in evaluation
/// order.
pub(super) type Compiled = (Vec<GRule>, Vec<u32>, Vec<Step>);

/// Splits the ground program into components, evaluates those that do not
/// depend on the inputs (the atoms below `does.end`; `does` the moves), and
/// folds them into the rest.
pub(super) fn compile(
    g: &Grounding,
    dense: &[u32],
    num_atoms: usize,
    does: std::ops::Range<usize>,
) -> Result<Compiled, GdlError> {
    let inputs = does.end;
    let gr = &g.rules;
    let d = |a: u32| dense[a as usize] as usize;
    // The ground rules grouped by head.
    let mut first = vec![0usize; num_atoms + 1];
    gr.head.iter().for_each(|&h| first[d(h) + 1] += 1);
    (0..num_atoms).for_each(|a| first[a + 1] += first[a]);
    let mut order = vec![0u32; gr.head.len()];
    let mut fill = first.clone();
    for (i, &h) in gr.head.iter().enumerate() {
        order[fill[d(h)]] = i as u32;
        fill[d(h)] += 1;
    }
    let lits = |i: u32| {
        let i = i as usize;
        let (s, n, e) = (
            gr.start[i] as usize,
            gr.neg[i] as usize,
            gr.start[i + 1] as usize,
        );
        (&gr.body[s..n], &gr.body[n..e])
    };
    // The dependency graph between derived atoms.
    let mut adj_start = vec![0usize; num_atoms + 1];
    let mut adj = Vec::new();
    for a in 0..num_atoms {
        if a >= inputs {
            for &i in &order[first[a]..first[a + 1]] {
                let (pos, neg) = lits(i);
                adj.extend(
                    pos.iter()
                        .chain(neg)
                        .map(|&b| d(b) as u32)
                        .filter(|&b| b as usize >= inputs),
                );
            }
        }
        adj_start[a + 1] = adj.len();
    }
    let comps = tarjan(num_atoms, inputs, &adj_start, &adj);
    let mut comp_of = vec![NONE; num_atoms];
    for (c, atoms) in comps.iter().enumerate() {
        atoms.iter().for_each(|&a| comp_of[a as usize] = c as u32);
    }
    // 0: depends on the inputs; 1: always true; 2: never true.
    let mut known = vec![0u8; num_atoms];
    let (mut rules, mut body, mut steps) = (Vec::new(), Vec::new(), Vec::new());
    for (c, atoms) in comps.iter().enumerate() {
        let (rule_lo, body_lo) = (rules.len(), body.len());
        let (mut dynamic, mut recursive) = (false, atoms.len() > 1);
        for &a in atoms {
            let atom_lo = rules.len();
            'rules: for &i in &order[first[a as usize]..first[a as usize + 1]] {
                let (start, mut reads_inputs) = (body.len(), false);
                let (pos, neg) = lits(i);
                for (k, b) in pos.iter().chain(neg).map(|&b| d(b) as u32).enumerate() {
                    let is_neg = k >= pos.len();
                    if k == pos.len() {
                        body.push(NONE);
                    }
                    if comp_of[b as usize] == c as u32 {
                        if is_neg {
                            let term = dense.iter().position(|&x| x == b).unwrap_or(0);
                            return Err(GdlError(format!(
                                "negation is not stratified, even between ground atoms: {} \
                                 depends on its own negation",
                                g.terms.to_term(term as u32)
                            )));
                        }
                        recursive |= b == a;
                        body.push(b);
                        continue;
                    }
                    match (known[b as usize], is_neg) {
                        (1, false) | (2, true) => {}
                        (1, true) | (2, false) => {
                            body.truncate(start);
                            continue 'rules;
                        }
                        _ => {
                            reads_inputs = true;
                            body.push(b);
                        }
                    }
                }
                dynamic |= reads_inputs;
                // The marker between the positive and negative literals.
                let split = body[start..].iter().position(|&b| b == NONE);
                let neg_at = split.map_or(body.len(), |p| start + p);
                if split.is_some() {
                    body.remove(neg_at);
                }
                // The moves first: one per role holds, so they fail fast.
                body[start..neg_at].sort_unstable_by_key(|&b| (!does.contains(&(b as usize)), b));
                rules.push(GRule {
                    head: a,
                    start: start as u32,
                    neg: neg_at as u32,
                    end: body.len() as u32,
                });
            }
            dedup(&mut rules, &mut body, atom_lo);
        }
        let always = |a: u32, rules: &mut Vec<GRule>, steps: &mut Vec<Step>, len: usize| {
            rules.push(GRule {
                head: a,
                start: len as u32,
                neg: len as u32,
                end: len as u32,
            });
            steps.push(Step {
                head: a,
                lo: rules.len() as u32 - 1,
                hi: rules.len() as u32,
            });
        };
        if !dynamic {
            // Fixed for good: evaluate now.
            loop {
                let mut changed = false;
                for r in &rules[rule_lo..] {
                    if known[r.head as usize] != 1
                        && body[r.start as usize..r.neg as usize]
                            .iter()
                            .all(|&b| known[b as usize] == 1)
                    {
                        known[r.head as usize] = 1;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
            rules.truncate(rule_lo);
            body.truncate(body_lo);
            for &a in atoms {
                if known[a as usize] == 1 {
                    always(a, &mut rules, &mut steps, body.len());
                } else {
                    known[a as usize] = 2;
                }
            }
        } else if !recursive && rules[rule_lo..].iter().any(|r| r.start == r.end) {
            rules.truncate(rule_lo);
            body.truncate(body_lo);
            known[atoms[0] as usize] = 1;
            always(atoms[0], &mut rules, &mut steps, body.len());
        } else {
            let head = if recursive { NONE } else { atoms[0] };
            steps.push(Step {
                head,
                lo: rule_lo as u32,
                hi: rules.len() as u32,
            });
        }
    }
    Ok((rules, body, steps))
}

/// Drops the repeated rules among `rules[lo..]` (one atom's, whose bodies
/// are the tail of `body`), which `or` expansion makes.
fn dedup(rules: &mut Vec<GRule>, body: &mut Vec<u32>, lo: usize) {
    if rules.len() - lo < 2 {
        return;
    }
    let off = rules[lo].start as usize;
    let old = body.split_off(off);
    let lits = |r: &GRule| {
        let (s, n, e) = (
            r.start as usize - off,
            r.neg as usize - off,
            r.end as usize - off,
        );
        (&old[s..n], &old[n..e])
    };
    let mut keep: Vec<GRule> = rules.split_off(lo);
    keep.sort_by(|x, y| lits(x).cmp(&lits(y)));
    keep.dedup_by(|x, y| lits(x) == lits(y));
    for r in keep {
        let (pos, neg) = lits(&r);
        let start = body.len() as u32;
        body.extend_from_slice(pos);
        body.extend_from_slice(neg);
        let neg = start + pos.len() as u32;
        rules.push(GRule {
            head: r.head,
            start,
            neg,
            end: body.len() as u32,
        });
    }
}

/// The strongly connected components of the graph over atoms `from..n`
/// (edges `adj[adj_start[a]..adj_start[a + 1]]`), each after those it
/// reaches (Tarjan's algorithm, without recursion).
fn tarjan(n: usize, from: usize, adj_start: &[usize], adj: &[u32]) -> Vec<Vec<u32>> {
    struct T {
        index: Vec<u32>,
        low: Vec<u32>,
        on: Vec<bool>,
        stack: Vec<u32>,
        call: Vec<(usize, usize)>,
        counter: u32,
    }
    impl T {
        fn visit(&mut self, v: usize, edges: usize) {
            (self.index[v], self.low[v]) = (self.counter, self.counter);
            self.counter += 1;
            self.stack.push(v as u32);
            self.on[v] = true;
            self.call.push((v, edges));
        }
    }
    let mut t = T {
        index: vec![NONE; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        call: Vec::new(),
        counter: 0,
    };
    let mut comps = Vec::new();
    for root in from..n {
        if t.index[root] != NONE {
            continue;
        }
        t.visit(root, adj_start[root]);
        while let Some(&(v, e)) = t.call.last() {
            if e < adj_start[v + 1] {
                if let Some(top) = t.call.last_mut() {
                    top.1 += 1;
                }
                let w = adj[e] as usize;
                if t.index[w] == NONE {
                    t.visit(w, adj_start[w]);
                } else if t.on[w] {
                    t.low[v] = t.low[v].min(t.index[w]);
                }
                continue;
            }
            t.call.pop();
            if let Some(&(u, _)) = t.call.last() {
                t.low[u] = t.low[u].min(t.low[v]);
            }
            if t.low[v] == t.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = t.stack.pop() {
                    t.on[w as usize] = false;
                    comp.push(w);
                    if w as usize == v {
                        break;
                    }
                }
                comps.push(comp);
            }
        }
    }
    comps
}

/// How many of an atom's rules must share a literal for [`factor`] to take
/// it out of them.
const FACTOR_MIN: usize = 4;

/// Takes out of each atom's rules the literal most of them share, when at
/// least [`FACTOR_MIN`] do: `h <- L, B1; …; h <- L, Bk` becomes
/// `h <- L, x` with a new atom `x <- B1; …; x <- Bk` (its step just before
/// `h`'s), and `h`'s other rules stay. The atom's value is the same; what
/// changes is the work when `L` changes, one rule instead of `k`. Sheets
/// often repeat a state fact with every move that leaves it alone
/// (`(<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) (does ?r ?m) …)`).
/// Recursive components are left as they are. New atoms are numbered from
/// `num_atoms` up; returns the program and the new number of atoms.
pub(super) fn factor((rules, body, steps): Compiled, num_atoms: usize) -> (Compiled, usize) {
    let mut out: Compiled = (Vec::new(), Vec::new(), Vec::new());
    let mut next_atom = num_atoms as u32;
    let mut keys: Vec<u32> = Vec::new();
    // A literal as a key: its atom shifted left, the low bit set under `not`.
    fn keyed(body: &[u32], r: GRule) -> impl Iterator<Item = u32> + '_ {
        (r.start..r.end).map(move |i| body[i as usize] << 1 | u32::from(i >= r.neg))
    }
    let lits = |r: &GRule| keyed(&body, *r);
    let push = |out: &mut Compiled, head: u32, lits: &mut dyn Iterator<Item = u32>| {
        let start = out.1.len() as u32;
        let mut neg: Vec<u32> = Vec::new();
        for k in lits {
            if k & 1 == 0 {
                out.1.push(k >> 1);
            } else {
                neg.push(k >> 1);
            }
        }
        let split = out.1.len() as u32;
        out.1.extend(neg);
        out.0.push(GRule {
            head,
            start,
            neg: split,
            end: out.1.len() as u32,
        });
    };
    for step in steps {
        let rs = &rules[step.lo as usize..step.hi as usize];
        // The literal that most rules share (each rule counted once).
        keys.clear();
        for r in rs {
            let at = keys.len();
            keys.extend(lits(r));
            keys[at..].sort_unstable();
            dedup_tail(&mut keys, at);
        }
        keys.sort_unstable();
        let best = keys
            .chunk_by(|a, b| a == b)
            .max_by_key(|run| run.len())
            .filter(|run| run.len() >= FACTOR_MIN)
            .map(|run| run[0]);
        let (Some(shared), true) = (best, step.head != NONE) else {
            let lo = out.0.len() as u32;
            for r in rs {
                push(&mut out, r.head, &mut lits(r));
            }
            out.2.push(Step {
                head: step.head,
                lo,
                hi: out.0.len() as u32,
            });
            continue;
        };
        let aux = next_atom;
        next_atom += 1;
        let lo = out.0.len() as u32;
        for r in rs.iter().filter(|r| lits(r).any(|k| k == shared)) {
            push(&mut out, aux, &mut lits(r).filter(|&k| k != shared));
        }
        out.2.push(Step {
            head: aux,
            lo,
            hi: out.0.len() as u32,
        });
        let lo = out.0.len() as u32;
        push(&mut out, step.head, &mut [shared, aux << 1].into_iter());
        for r in rs.iter().filter(|r| !lits(r).any(|k| k == shared)) {
            push(&mut out, r.head, &mut lits(r));
        }
        out.2.push(Step {
            head: step.head,
            lo,
            hi: out.0.len() as u32,
        });
    }
    (out, next_atom as usize)
}

/// Rewrites each atom that holds when a move of a large set is made
/// (every rule one `does` literal; [`factor`] leaves such atoms for the
/// frame rules: "any move that leaves this cell alone") through the moves
/// outside the set. A role makes at most one move a query, so "one of
/// role `r`'s moves in `S`" is "`r` made a move of `U`, and not one of
/// `U` outside `S`", where `U` is every move of `r` that such a set
/// holds: `x <- in_u, not y` with `y <- does(r, m)` for the few `m` of `U`
/// outside `S`, and `in_u <- does(r, m)` for every `m` of `U`. A move then
/// changes the counts of the few atoms whose sets leave it out, instead of
/// every atom whose set holds it (and a move outside `U`, such as a
/// `noop`, of none). `does_start` are the roles' first `does` atoms and
/// the end of the last role's; new atoms are numbered from `num_atoms`
/// up; returns the program and the new number of atoms.
pub(super) fn complement_moves(
    (rules, body, steps): Compiled,
    num_atoms: usize,
    does_start: &[u32],
) -> (Compiled, usize) {
    let roles = does_start.len().saturating_sub(1);
    let role_of = |a: u32| {
        (roles > 0 && a >= does_start[0] && a < does_start[roles])
            .then(|| does_start.partition_point(|&s| s <= a) - 1)
    };
    // Each step's moves by role, if every rule of it is one `does`.
    let sets: Vec<Option<Vec<Vec<u32>>>> = steps
        .iter()
        .map(|step| {
            let mut by_role = vec![Vec::new(); roles];
            for r in &rules[step.lo as usize..step.hi as usize] {
                let a = body.get(r.start as usize).copied().unwrap_or(NONE);
                let role = role_of(a).filter(|_| r.end == r.start + 1 && r.neg == r.end)?;
                by_role[role].push(a);
            }
            by_role.iter_mut().for_each(|s| {
                s.sort_unstable();
                s.dedup();
            });
            Some(by_role).filter(|_| step.head != NONE)
        })
        .collect();
    // Per role, every move that some set holds.
    let mut universe: Vec<Vec<u32>> = vec![Vec::new(); roles];
    for by_role in sets.iter().flatten() {
        for (u, s) in universe.iter_mut().zip(by_role) {
            u.extend_from_slice(s);
        }
    }
    universe.iter_mut().for_each(|u| {
        u.sort_unstable();
        u.dedup();
    });
    // Worth it for a set that holds more than two thirds of its universe.
    let worth = |r: usize, set: &[u32]| set.len() > 2 * (universe[r].len() - set.len()) + 2;
    let mut out: Compiled = (Vec::new(), Vec::new(), Vec::new());
    let mut next_atom = num_atoms as u32;
    let mut in_u: Vec<u32> = vec![NONE; roles];
    // One rule `head <- pos, not neg`; a step of the rules from `lo` on.
    fn push(out: &mut Compiled, head: u32, pos: &[u32], neg: &[u32]) {
        let start = out.1.len() as u32;
        out.1.extend_from_slice(pos);
        out.1.extend_from_slice(neg);
        out.0.push(GRule {
            head,
            start,
            neg: start + pos.len() as u32,
            end: out.1.len() as u32,
        });
    }
    fn step_from(out: &mut Compiled, head: u32, lo: usize) {
        let hi = out.0.len() as u32;
        out.2.push(Step {
            head,
            lo: lo as u32,
            hi,
        });
    }
    // Per set of complemented roles: `in_any` (one of them moved in its
    // universe), `two` (two of them did) and per role `w_r <- two, in_u_r`.
    let mut shared: Vec<(Vec<usize>, u32, u32, Vec<u32>)> = Vec::new();
    for (step, by_role) in steps.iter().zip(&sets) {
        let by_role = by_role
            .as_ref()
            .filter(|b| b.iter().enumerate().any(|(r, s)| worth(r, s)));
        let Some(by_role) = by_role else {
            let lo = out.0.len();
            for r in &rules[step.lo as usize..step.hi as usize] {
                let (pos, neg) = (
                    &body[r.start as usize..r.neg as usize],
                    &body[r.neg as usize..r.end as usize],
                );
                push(&mut out, r.head, pos, neg);
            }
            step_from(&mut out, step.head, lo);
            continue;
        };
        let comp: Vec<usize> = (0..roles).filter(|&r| worth(r, &by_role[r])).collect();
        for &r in &comp {
            if in_u[r] == NONE {
                in_u[r] = next_atom;
                next_atom += 1;
                let lo = out.0.len();
                for &a in &universe[r] {
                    push(&mut out, in_u[r], &[a], &[]);
                }
                step_from(&mut out, in_u[r], lo);
            }
        }
        let k = match shared.iter().position(|s| s.0 == comp) {
            Some(k) => k,
            None if comp.len() == 1 => {
                shared.push((comp.clone(), in_u[comp[0]], NONE, Vec::new()));
                shared.len() - 1
            }
            None => {
                let (any, two) = (next_atom, next_atom + 1);
                next_atom += 2;
                let lo = out.0.len();
                comp.iter()
                    .for_each(|&r| push(&mut out, any, &[in_u[r]], &[]));
                step_from(&mut out, any, lo);
                let lo = out.0.len();
                for (i, &a) in comp.iter().enumerate() {
                    for &b in &comp[i + 1..] {
                        push(&mut out, two, &[in_u[a], in_u[b]], &[]);
                    }
                }
                step_from(&mut out, two, lo);
                let mut w = Vec::new();
                for &r in &comp {
                    let lo = out.0.len();
                    push(&mut out, next_atom, &[two, in_u[r]], &[]);
                    step_from(&mut out, next_atom, lo);
                    w.push(next_atom);
                    next_atom += 1;
                }
                shared.push((comp.clone(), any, two, w));
                shared.len() - 1
            }
        };
        // Per complemented role, its moves of the universe outside the set;
        // with several roles, also all of them together.
        let mut ys = Vec::new();
        for &r in &comp {
            let lo = out.0.len();
            for &a in universe[r]
                .iter()
                .filter(|a| by_role[r].binary_search(a).is_err())
            {
                push(&mut out, next_atom, &[a], &[]);
            }
            step_from(&mut out, next_atom, lo);
            ys.push(next_atom);
            next_atom += 1;
        }
        let (_, any, two, ref w) = shared[k];
        let lo = out.0.len();
        if comp.len() == 1 {
            push(&mut out, step.head, &[any], &[ys[0]]);
        } else {
            let y_any = next_atom;
            next_atom += 1;
            ys.iter().for_each(|&y| push(&mut out, y_any, &[y], &[]));
            step_from(&mut out, y_any, lo);
            let lo = out.0.len();
            // One role moved in its universe: the set's move, if any, is
            // that role's; two or more: role by role.
            push(&mut out, step.head, &[any], &[two, y_any]);
            for (&wr, &y) in w.iter().zip(&ys) {
                push(&mut out, step.head, &[wr], &[y]);
            }
            for r in (0..roles).filter(|r| !comp.contains(r)) {
                by_role[r]
                    .iter()
                    .for_each(|&a| push(&mut out, step.head, &[a], &[]));
            }
            step_from(&mut out, step.head, lo);
            continue;
        }
        for r in (0..roles).filter(|r| !comp.contains(r)) {
            by_role[r]
                .iter()
                .for_each(|&a| push(&mut out, step.head, &[a], &[]));
        }
        step_from(&mut out, step.head, lo);
    }
    (out, next_atom as usize)
}

/// A role's legal moves whose rules all share one literal, the gate: the
/// literal is taken out of their rules and tested once when the moves are
/// read (see [`gate_legal`]).
pub(super) struct LegalGroup {
    /// The gate as a literal key (its atom shifted left, the low bit set
    /// under `not`), or [`NONE`] for the moves read as they are.
    pub(super) gate: u32,
    /// The moves: (MoveId, legal atom), by increasing MoveId.
    pub(super) moves: Vec<(u32, u32)>,
    /// The same moves as a bitset over the role's MoveIds.
    pub(super) mask: Vec<u64>,
}

/// How many of a role's legal atoms must share a literal for
/// [`gate_legal`] to take it out.
const GATE_MIN: usize = 8;

/// Takes out of a role's legal rules the literal that most of its legal
/// atoms hold in every rule, such as `(true (control white))`: when the
/// turn changes, one literal is tested at the next query in place of a
/// count change in each of the role's legal rules. Only legal atoms that
/// no rule reads are taken (their values are then read through the gate
/// alone); `legal[r][m]` is role `r`'s legal atom of MoveId `m`. Returns
/// per role its groups of moves, each gated or not.
pub(super) fn gate_legal(
    (rules, body, steps): &mut Compiled,
    legal: &[Vec<u32>],
    num_atoms: usize,
) -> Vec<Vec<LegalGroup>> {
    let mut read = vec![false; num_atoms];
    body.iter().for_each(|&a| read[a as usize] = true);
    let mut step_of = vec![NONE; num_atoms];
    for (s, step) in steps.iter().enumerate() {
        if step.head != NONE {
            step_of[step.head as usize] = s as u32;
        }
    }
    let key = |body: &[u32], r: &GRule, i: u32| body[i as usize] << 1 | u32::from(i >= r.neg);
    // The literals every rule of atom `a` holds.
    let common = |a: u32, rules: &[GRule], body: &[u32]| -> Vec<u32> {
        let s = step_of[a as usize];
        if s == NONE || read[a as usize] {
            return Vec::new();
        }
        let step = steps[s as usize];
        let mut keys: Option<Vec<u32>> = None;
        for r in &rules[step.lo as usize..step.hi as usize] {
            let mut ks: Vec<u32> = (r.start..r.end).map(|i| key(body, r, i)).collect();
            ks.sort_unstable();
            keys = Some(match keys {
                None => ks,
                Some(k) => k
                    .into_iter()
                    .filter(|x| ks.binary_search(x).is_ok())
                    .collect(),
            });
        }
        keys.unwrap_or_default()
    };
    let mut groups = Vec::new();
    for atoms in legal {
        let commons: Vec<Vec<u32>> = atoms.iter().map(|&a| common(a, rules, body)).collect();
        let mut all: Vec<u32> = commons.iter().flatten().copied().collect();
        all.sort_unstable();
        let gate = all
            .chunk_by(|a, b| a == b)
            .max_by_key(|run| run.len())
            .filter(|run| run.len() >= GATE_MIN)
            .map(|run| run[0]);
        let words = atoms.len().div_ceil(64);
        let mut gated = LegalGroup {
            gate: gate.unwrap_or(NONE),
            moves: Vec::new(),
            mask: vec![0; words],
        };
        let mut plain = LegalGroup {
            gate: NONE,
            moves: Vec::new(),
            mask: vec![0; words],
        };
        for (m, (&a, c)) in atoms.iter().zip(&commons).enumerate() {
            let Some(g) = gate.filter(|g| c.contains(g)) else {
                plain.moves.push((m as u32, a));
                plain.mask[m / 64] |= 1 << (m % 64);
                continue;
            };
            gated.moves.push((m as u32, a));
            gated.mask[m / 64] |= 1 << (m % 64);
            let step = steps[step_of[a as usize] as usize];
            for r in &mut rules[step.lo as usize..step.hi as usize] {
                let keys: Vec<u32> = (r.start..r.end)
                    .map(|i| key(body, r, i))
                    .filter(|&k| k != g)
                    .collect();
                let start = body.len() as u32;
                body.extend(keys.iter().filter(|k| *k & 1 == 0).map(|k| k >> 1));
                let neg = body.len() as u32;
                body.extend(keys.iter().filter(|k| *k & 1 == 1).map(|k| k >> 1));
                (r.start, r.neg, r.end) = (start, neg, body.len() as u32);
            }
        }
        groups.push(
            [gated, plain]
                .into_iter()
                .filter(|g| !g.moves.is_empty())
                .collect(),
        );
    }
    groups
}

#[cfg(test)]
mod tests;
