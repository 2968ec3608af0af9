//! The top-down evaluator: goals and `terminal` answered by resolution, as
//! Prolog answers them, for a sheet whose goal relations range over more
//! terms than any evaluator that enumerates possible atoms can hold.
//!
//! laikLee_hex (ggp-org's repository) decides a winner by searching for a
//! chain of a colour's cells with a list of the cells visited so far, and
//! bounds its lists with `isList` rules listing every list of up to 25 of
//! the 25 cells: a finite domain, but astronomically large, so its
//! grounding and its possible atoms both pass any memory budget. Its moves
//! and next states need none of that. So where both pass the budget at a
//! rule that only `goal` and `terminal` need, the sheet is split
//! ([`split`]): the relations that `init`, `next`, `legal` and `sees` need
//! go to a reasoner of their own (grounded, or the non-ground evaluator),
//! which numbers the base facts and moves and answers those queries; `goal`
//! and `terminal` are answered here, by SLD resolution over the whole
//! sheet, making terms only as a query needs them.
//!
//! The rules are taken with `or` expanded and each `not` and `distinct`
//! moved to just after the positive literals that bind its variables (a
//! safe sheet has them); the positive literals keep the sheet's order.
//! Clauses are chosen by the first argument's constant or function. `not`
//! is negation as failure. A call to a recursive relation fails when it is
//! a variant of a call it descends from, which keeps recursion over a
//! finite domain finite without changing which ground queries hold (a
//! shortest proof never repeats a call). There is no occurs check: a
//! sheet that unifies a variable with a term containing it is not GDL.
//! Goal values are tried from the largest that a `goal` rule's head names,
//! each as a ground query; a head with a variable value makes the query
//! collect every answer instead.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

use super::ast::{Rule, Sheet, Sym, Term};
use super::check::for_each_atom;
use super::facts::Facts;
use super::ground::normal::{dnf, product, BLit};
use super::GdlError;

mod machine;

use machine::{Cell, Machine, Overrun};

/// A term of a clause, its variables numbered from 0.
#[derive(Clone, Debug)]
enum T {
    Var(u32),
    Const(u32),
    Fn(u32, Box<[T]>),
}

/// What a literal of a body (or a goal of the machine) asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pos,
    Neg,
    Dist,
    /// `(not (distinct s t))`: `s` and `t` unify.
    Eq,
    /// The machine's own: the negated goal before it held.
    Cut,
}

struct Lit {
    kind: Kind,
    /// The relation (none for `Dist` and `Eq`).
    pred: u32,
    args: Box<[T]>,
}

struct Clause {
    head: Box<[T]>,
    body: Box<[Lit]>,
    vars: u32,
}

/// The constant or function at the top of a ground term: how clauses and
/// true facts are indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    Const(u32),
    Fn(u32, u32),
}

/// A relation's clauses: all, by the key of their head's first argument
/// (with those whose first argument is a variable), and those alone.
#[derive(Default)]
struct Pred {
    all: u32,
    by_key: HashMap<Key, u32>,
    wild: u32,
    recursive: bool,
}

/// Numbers each process's evaluators, so a thread's machine knows whose
/// base facts it holds.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    static MACHINE: RefCell<Machine> = RefCell::new(Machine::default());
}

/// A sheet compiled for top-down resolution of its goals and `terminal`.
/// Shareable between threads; each thread keeps its own machine.
pub(super) struct TopDown {
    id: u64,
    preds: Vec<Pred>,
    arity: Vec<u32>,
    clauses: Vec<Clause>,
    /// Lists of clauses or base facts; the first is empty.
    lists: Vec<Box<[u32]>>,
    /// The base facts, as the reasoner numbers them.
    base: Vec<T>,
    true_pred: u32,
    /// The base facts by their key, and by it and their first argument's.
    true_all: u32,
    true_by_key: HashMap<Key, u32>,
    true_by_key2: HashMap<(Key, Key), u32>,
    terminal: u32,
    goal: u32,
    roles: Vec<u32>,
    /// Per role, the goal values its rules' heads name (symbol and value,
    /// largest first), or `None` if a head's value is a variable.
    goal_values: Vec<Option<Vec<(u32, u32)>>>,
    /// The symbols' names, by number.
    names: Vec<Sym>,
}

/// Symbols and relations numbered while compiling.
#[derive(Default)]
struct Names {
    syms: HashMap<Sym, u32>,
    names: Vec<Sym>,
    preds: HashMap<(u32, usize), u32>,
    arity: Vec<u32>,
}

impl Names {
    fn sym(&mut self, s: &Sym) -> u32 {
        if let Some(&i) = self.syms.get(s) {
            return i;
        }
        self.names.push(s.clone());
        self.syms.insert(s.clone(), self.names.len() as u32 - 1);
        self.names.len() as u32 - 1
    }

    fn pred(&mut self, rel: &Sym, arity: usize) -> u32 {
        let s = self.sym(rel);
        if let Some(&p) = self.preds.get(&(s, arity)) {
            return p;
        }
        self.arity.push(arity as u32);
        self.preds.insert((s, arity), self.arity.len() as u32 - 1);
        self.arity.len() as u32 - 1
    }

    fn term(&mut self, t: &Term, vars: &mut Vec<Sym>) -> T {
        match t {
            Term::Const(c) => T::Const(self.sym(c)),
            Term::Var(v) => T::Var(match vars.iter().position(|x| x == v) {
                Some(i) => i as u32,
                None => {
                    vars.push(v.clone());
                    vars.len() as u32 - 1
                }
            }),
            Term::Fn(f, args) => T::Fn(
                self.sym(f),
                args.iter().map(|a| self.term(a, vars)).collect(),
            ),
        }
    }
}

fn key(t: &T) -> Option<Key> {
    match t {
        T::Var(_) => None,
        T::Const(s) => Some(Key::Const(*s)),
        T::Fn(f, args) => Some(Key::Fn(*f, args.len() as u32)),
    }
}

/// The variables of a literal of a body in normal form.
fn lit_vars(l: &BLit) -> Vec<&Sym> {
    let mut out = Vec::new();
    l.push_vars(&mut out);
    out
}

/// A body's literals in the order they are run: the positive ones (and
/// unifications) in the sheet's order, each `not` and `distinct` as soon
/// as its variables are bound.
fn order(alt: Vec<BLit>) -> Vec<BLit> {
    let mut bound: HashSet<Sym> = HashSet::new();
    let mut out = Vec::new();
    let mut waiting: Vec<BLit> = Vec::new();
    for l in alt {
        let tests = matches!(l, BLit::Neg(_) | BLit::Dist(..));
        if tests && !lit_vars(&l).iter().all(|v| bound.contains(*v)) {
            waiting.push(l);
            continue;
        }
        if !tests {
            bound.extend(lit_vars(&l).into_iter().cloned());
        }
        out.push(l);
        let (ready, wait): (Vec<BLit>, Vec<BLit>) = waiting
            .drain(..)
            .partition(|w| lit_vars(w).iter().all(|v| bound.contains(*v)));
        out.extend(ready);
        waiting = wait;
    }
    out.extend(waiting);
    out
}

/// Literal `l` of a clause whose variables are numbered in `vars`.
fn literal(l: &BLit, n: &mut Names, vars: &mut Vec<Sym>) -> Lit {
    let (kind, pred, args) = match l {
        BLit::Pos(a) => (Kind::Pos, n.pred(&a.rel, a.args.len()), &a.args[..]),
        BLit::Neg(a) => (Kind::Neg, n.pred(&a.rel, a.args.len()), &a.args[..]),
        BLit::Dist(x, y) => return binary(Kind::Dist, x, y, n, vars),
        BLit::Eq(x, y) => return binary(Kind::Eq, x, y, n, vars),
    };
    let args = args.iter().map(|t| n.term(t, vars)).collect();
    Lit { kind, pred, args }
}

fn binary(kind: Kind, x: &Term, y: &Term, n: &mut Names, vars: &mut Vec<Sym>) -> Lit {
    let args = Box::new([n.term(x, vars), n.term(y, vars)]);
    Lit {
        kind,
        pred: 0,
        args,
    }
}

/// Every rule of `sheet` as clauses, one per alternative of its `or`s,
/// with the relation of its head.
fn compile(sheet: &Sheet, n: &mut Names) -> Result<Vec<(u32, Clause)>, GdlError> {
    let mut clauses = Vec::new();
    for rule in &sheet.rules {
        let mut alts = vec![Vec::new()];
        for l in &rule.body {
            alts = product(&alts, &dnf(l, false, rule.line)?, rule.line)?;
        }
        let pred = n.pred(&rule.head.rel, rule.head.args.len());
        for alt in alts {
            let mut vars = Vec::new();
            let head = rule
                .head
                .args
                .iter()
                .map(|t| n.term(t, &mut vars))
                .collect();
            let body = order(alt)
                .iter()
                .map(|l| literal(l, n, &mut vars))
                .collect();
            let vars = vars.len() as u32;
            clauses.push((pred, Clause { head, body, vars }));
        }
    }
    Ok(clauses)
}

impl TopDown {
    /// Compiles `sheet` for the roles `roles`, its base facts numbered as
    /// in `base`.
    pub(super) fn new(sheet: &Sheet, roles: &[Sym], base: &[Term]) -> Result<TopDown, GdlError> {
        let mut n = Names::default();
        let true_pred = n.pred(&Sym::from("true"), 1);
        let terminal = n.pred(&Sym::from("terminal"), 0);
        let goal = n.pred(&Sym::from("goal"), 2);
        let clauses = compile(sheet, &mut n)?;
        let num_preds = n.arity.len();
        let mut lists: Vec<Box<[u32]>> = vec![Box::new([])];
        let mut list = |items: Vec<u32>| {
            lists.push(items.into_boxed_slice());
            lists.len() as u32 - 1
        };
        let mut preds: Vec<Pred> = (0..num_preds).map(|_| Pred::default()).collect();
        let mut by_pred: Vec<Vec<u32>> = vec![Vec::new(); num_preds];
        for (i, (p, _)) in clauses.iter().enumerate() {
            by_pred[*p as usize].push(i as u32);
        }
        for (p, cs) in by_pred.iter().enumerate() {
            // One pass, in the sheet's order: a clause with a key goes to
            // its key's list (begun with the variable-headed clauses before
            // it), a variable-headed one to every list.
            let (mut wild, mut by_key) = (Vec::new(), HashMap::<Key, Vec<u32>>::new());
            for &c in cs {
                match clauses[c as usize].1.head.first().and_then(key) {
                    Some(k) => by_key.entry(k).or_insert_with(|| wild.clone()).push(c),
                    None => {
                        wild.push(c);
                        by_key.values_mut().for_each(|l| l.push(c));
                    }
                }
            }
            preds[p].all = list(cs.clone());
            preds[p].wild = list(wild);
            for (k, l) in by_key {
                let l = list(l);
                preds[p].by_key.insert(k, l);
            }
        }
        // Recursive relations: those that reach themselves.
        let mut calls: Vec<HashSet<u32>> = vec![HashSet::new(); num_preds];
        for (p, c) in &clauses {
            calls[*p as usize].extend(
                c.body
                    .iter()
                    .filter(|l| matches!(l.kind, Kind::Pos | Kind::Neg))
                    .map(|l| l.pred),
            );
        }
        for (p, pred) in preds.iter_mut().enumerate() {
            let mut seen = HashSet::new();
            let mut stack: Vec<u32> = calls[p].iter().copied().collect();
            while let Some(q) = stack.pop() {
                if q as usize == p {
                    pred.recursive = true;
                    break;
                }
                if seen.insert(q) {
                    stack.extend(calls[q as usize].iter().copied());
                }
            }
        }
        // The base facts, indexed.
        let base: Vec<T> = base.iter().map(|t| n.term(t, &mut Vec::new())).collect();
        let mut by1: HashMap<Key, Vec<u32>> = HashMap::new();
        let mut by2: HashMap<(Key, Key), Vec<u32>> = HashMap::new();
        for (i, t) in base.iter().enumerate() {
            let Some(k) = key(t) else { continue };
            by1.entry(k).or_default().push(i as u32);
            if let T::Fn(_, args) = t {
                if let Some(k2) = key(&args[0]) {
                    by2.entry((k, k2)).or_default().push(i as u32);
                }
            }
        }
        let true_all = list((0..base.len() as u32).collect());
        let true_by_key = by1.into_iter().map(|(k, v)| (k, list(v))).collect();
        let true_by_key2 = by2.into_iter().map(|(k, v)| (k, list(v))).collect();
        // Goal values per role.
        let role_syms: Vec<u32> = roles.iter().map(|r| n.sym(r)).collect();
        let goal_values = role_syms
            .iter()
            .map(|&r| goal_values(&clauses, goal, r, &n.names))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TopDown {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            preds,
            arity: n.arity,
            clauses: clauses.into_iter().map(|c| c.1).collect(),
            lists,
            base,
            true_pred,
            true_all,
            true_by_key,
            true_by_key2,
            terminal,
            goal,
            roles: role_syms,
            goal_values,
            names: n.names,
        })
    }

    /// The base facts a `(true F)` call may match, by the keys of `F` and
    /// of its first argument where they are bound.
    fn true_list(&self, outer: Option<Key>, inner: Option<Key>) -> u32 {
        match (outer, inner) {
            (None, _) => self.true_all,
            (Some(o), Some(i)) => self.true_by_key2.get(&(o, i)).copied().unwrap_or(0),
            (Some(o), None) => self.true_by_key.get(&o).copied().unwrap_or(0),
        }
    }

    fn with_machine<R>(&self, state: &Facts, f: impl FnOnce(&mut Machine) -> R) -> R {
        MACHINE.with(|m| {
            let mut m = m.borrow_mut();
            if m.owner != self.id {
                m.load(self);
            }
            m.state.clear();
            m.state.extend_from_slice(&state.0);
            f(&mut m)
        })
    }

    /// Whether `state` is terminal.
    ///
    /// # Panics
    /// If the query's recursion does not end ([`machine::Overrun`]); the
    /// split that made this evaluator ([`split`]) asked every query of the
    /// initial state first ([`TopDown::check`]).
    pub(super) fn is_terminal(&self, state: &Facts) -> bool {
        self.try_terminal(state)
            .unwrap_or_else(|o| o.fail("terminal"))
    }

    /// `role`'s goal value in `state`, the greatest if several hold.
    ///
    /// # Panics
    /// As [`TopDown::is_terminal`].
    pub(super) fn goal(&self, state: &Facts, role: usize) -> Option<u32> {
        self.try_goal(state, role)
            .unwrap_or_else(|o| o.fail("goal"))
    }

    /// Asks `terminal` and every role's goal of `state`: an error if a
    /// query's recursion does not end.
    pub(super) fn check(&self, state: &Facts) -> Result<(), GdlError> {
        let over = |_| {
            GdlError(
                "the goal and terminal rules, too large to ground, recurse without end under \
                 top-down resolution"
                    .into(),
            )
        };
        self.try_terminal(state).map_err(over)?;
        for r in 0..self.roles.len() {
            self.try_goal(state, r).map_err(over)?;
        }
        Ok(())
    }

    fn try_terminal(&self, state: &Facts) -> Result<bool, Overrun> {
        self.with_machine(state, |m| m.exists(self, self.terminal, &[]))
    }

    fn try_goal(&self, state: &Facts, role: usize) -> Result<Option<u32>, Overrun> {
        let Some(&r) = self.roles.get(role) else {
            return Ok(None);
        };
        let r = Cell::Const(r);
        self.with_machine(state, |m| match &self.goal_values[role] {
            Some(values) => {
                for &(s, v) in values {
                    if m.exists(self, self.goal, &[r, Cell::Const(s)])? {
                        return Ok(Some(v));
                    }
                }
                Ok(None)
            }
            None => {
                let v = m.var();
                let found = m.collect(self, self.goal, &[r, v], 1)?;
                Ok(found.iter().filter_map(|&s| self.value(s)).max())
            }
        })
    }

    /// The goal value a symbol names, if it is a number.
    fn value(&self, s: u32) -> Option<u32> {
        self.names[s as usize].parse().ok()
    }
}

/// The values `role`'s goal rules name, largest first; `None` if a head's
/// value is a variable. A value that is not a number is refused.
fn goal_values(
    clauses: &[(u32, Clause)],
    goal: u32,
    role: u32,
    names: &[Sym],
) -> Result<Option<Vec<(u32, u32)>>, GdlError> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for (p, c) in clauses {
        if *p != goal || matches!(c.head[0], T::Const(r) if r != role) {
            continue;
        }
        let T::Const(s) = c.head[1] else {
            return Ok(None);
        };
        let v = names[s as usize]
            .parse::<u32>()
            .map_err(|_| GdlError(format!("goal value {} is not a number", names[s as usize])))?;
        if !out.contains(&(s, v)) {
            out.push((s, v));
        }
    }
    out.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    Ok(Some(out))
}

/// The relations that `init`, `next`, `legal` and `sees` need, through
/// every rule that defines one (`role` and GDL's inputs `true` and `does`
/// with them).
fn needed(sheet: &Sheet) -> HashSet<Sym> {
    let mut need: HashSet<Sym> = ["init", "next", "legal", "sees", "role", "true", "does"]
        .into_iter()
        .map(Sym::from)
        .collect();
    let mut stack: Vec<Sym> = need.iter().cloned().collect();
    while let Some(rel) = stack.pop() {
        for r in sheet.rules.iter().filter(|r| r.head.rel == rel) {
            let mut out = Vec::new();
            for l in &r.body {
                for_each_atom(l, false, &mut |a, _| out.push(a.rel.clone()));
            }
            for x in out {
                if need.insert(x.clone()) {
                    stack.push(x);
                }
            }
        }
    }
    need
}

/// Splits `sheet` where the rule at `line` is one that only `goal` and
/// `terminal` need: the sheet of the rules that the moves and next states
/// need, for a reasoner of their own; `None` if that rule is needed by
/// them too.
pub(super) fn split(sheet: &Sheet, line: usize) -> Option<Sheet> {
    let need = needed(sheet);
    let at: &Rule = sheet.rules.iter().find(|r| r.line == line)?;
    if need.contains(&at.head.rel) {
        return None;
    }
    Some(Sheet {
        rules: sheet
            .rules
            .iter()
            .filter(|r| need.contains(&r.head.rel))
            .cloned()
            .collect(),
    })
}

#[cfg(test)]
mod tests;
