//! The reasoner: a grounded rule sheet ([`super::ground`]) compiled into
//! flat propositional programs, so that a state is a bitset of true base
//! facts ([`Facts`]) and a query is one pass over a few arrays.
//!
//! Every possible ground atom gets a number: the base facts first (the
//! arguments of the possible `true` atoms), then the inputs (`does`, role by
//! role, move by move), then the derived atoms. The ground dependency graph
//! is split into strongly connected components (in evaluation order); the
//! atoms that do not depend on `true` or `does` are evaluated once, here,
//! and folded into the rules that read them. What is left is a list of
//! steps: one atom and its rules (it holds if one rule's body does), or a
//! recursive component evaluated to a fixpoint. Each thread keeps every
//! atom's value for the state and move it last evaluated, and a query
//! re-evaluates only the steps that read what changed (the `live` module): between
//! the positions of a playout or a search, a few base facts and moves.
//! Two rewrites keep that few: an atom that any of a large set of moves
//! supports (a frame rule's "any move that leaves this cell alone") is
//! rewritten through the moves outside the set
//! (`compile::complement_moves`), and a literal that a role's legal
//! rules all share (whose turn it is) is taken out of them and tested
//! once when the moves are read (`compile::gate_legal`).
//!
//! A sheet whose grounding would pass the memory budget (a [`Budget`],
//! [`DEFAULT_BUDGET`] by default; the estimate is described in
//! [`super::ground::budget`]) is not grounded: if its possible atoms alone
//! stay within the budget, the queries go to the non-ground evaluator
//! ([`super::nonground`]) instead, with the same base facts, MoveIds and
//! percept ids, only slower; [`Reasoner::is_grounded`] tells which one a
//! reasoner uses. Before that, where grounding passed the budget at a rule
//! that only `goal` and `terminal` need, the sheet is split
//! (`topdown.rs`): the rest gets a reasoner of its own and goals and
//! `terminal` are answered by top-down resolution
//! ([`Reasoner::is_top_down`]). Otherwise the error says, in one line,
//! that the game is too large for the budget, and how to raise it.

use std::sync::atomic::{AtomicU64, Ordering};

use super::ast::{Sheet, Sym, Term};
use super::ground::{atoms_alone, possible, Budget, Grounding, Refusal, DEFAULT_BUDGET};
use super::nonground::NonGround;
use super::topdown::{self, TopDown};
use super::GdlError;

pub use super::facts::{cmp_terms, Facts};

mod compile;
mod live;

use compile::{compile, complement_moves, factor, gate_legal, GRule, LegalGroup, Step};

const NONE: u32 = u32::MAX;

/// All roles' legal moves and whether the state is terminal, from one
/// evaluation ([`Reasoner::analyse`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    terminal: bool,
    legal: Vec<Vec<u32>>,
}

impl Analysis {
    /// Whether the state is terminal.
    pub fn terminal(&self) -> bool {
        self.terminal
    }

    /// A role's legal moves (MoveIds, increasing).
    pub fn legal(&self, role: usize) -> &[u32] {
        self.legal.get(role).map_or(&[], |l| &l[..])
    }
}

/// A reasoner over one rule sheet: every query in a few array passes (or,
/// for a sheet too large to ground, by the non-ground evaluator).
/// Shareable between threads; each thread keeps its own scratch.
pub struct Reasoner {
    roles: Vec<Sym>,
    random: Option<usize>,
    base: Vec<Term>,
    moves: Vec<Vec<Term>>,
    percepts: Vec<Vec<Term>>,
    initial: Facts,
    backend: Backend,
    /// The most the estimate of grounding's memory reached.
    bytes: u64,
}

/// How a [`Reasoner`] answers its queries.
enum Backend {
    /// The compiled ground program.
    Grounded(Box<Grounded>),
    /// The non-ground evaluator (grounding passed the memory budget).
    NonGround(Box<NonGround>),
    /// A reasoner over the rules the moves and next states need, and the
    /// top-down evaluator for goals and `terminal` (what only they need
    /// passed the memory budget).
    TopDown(Box<(Reasoner, TopDown)>),
}

/// The compiled ground program: its atoms, rules and steps, and per atom
/// the rules that read it.
struct Grounded {
    /// This program's number, unique in the process: whose values a
    /// thread's [`live::Live`] holds.
    id: u64,
    /// The atoms of the sheet's relations and the rules of the compiled
    /// program before [`factor`] added its own (the rules of the relations
    /// a split made included: [`super::ground`]).
    size: (usize, usize),
    num_base: usize,
    num_atoms: usize,
    /// The `does` atom of role `r`'s move `m` is `does_start[r] + m`, for
    /// `m < does_start[r + 1] - does_start[r]`.
    does_start: Vec<u32>,
    rules: Vec<GRule>,
    body: Vec<u32>,
    /// Per role, its legal moves in groups, each behind a gate or not
    /// ([`gate_legal`]).
    legal_groups: Vec<Vec<LegalGroup>>,
    /// Per role, its goal atoms and their values, by decreasing value.
    goal_atoms: Vec<Vec<(u32, u32)>>,
    terminal_atom: u32,
    sees_atoms: Vec<Vec<u32>>,
    /// Every step, in evaluation order.
    steps: Vec<Step>,
    /// Atom `a` occurs in the bodies `occurs[occurs_start[a]..occurs_start[a + 1]]`:
    /// a rule's index shifted left by one, the low bit set under `not`.
    occurs_start: Vec<u32>,
    occurs: Vec<live::Occ>,
    /// How many levels the steps take ([`live::Occ`]).
    levels: usize,
    /// Per atom, its bit in a thread's output bits ([`live::Live`]), or
    /// `NONE`: the `next` atoms at their base facts' bits, then each
    /// role's legal atoms at `legal_word[r] * 64` plus their MoveIds.
    out_bit: Vec<u32>,
    /// Per role, the first word of its legal moves in the output bits.
    legal_word: Vec<u32>,
    /// How many words the output bits take.
    out_words: usize,
}

impl Grounded {
    /// Writes role `role`'s MoveIds whose legal atoms hold in `live`,
    /// each behind a gate that holds, increasing, to `out`.
    fn read_legal(&self, live: &live::Live, role: usize, out: &mut Vec<u32>) {
        out.clear();
        let (Some(groups), Some(&w0)) = (self.legal_groups.get(role), self.legal_word.get(role))
        else {
            return;
        };
        let (value, bits) = (live.value(), live.outs());
        let words = groups.first().map_or(0, |g| g.mask.len());
        for w in 0..words {
            let mut word = 0;
            for group in groups {
                let gate = group.gate;
                if gate == NONE || value[(gate >> 1) as usize] != (gate & 1 == 1) {
                    word |= group.mask[w];
                }
            }
            let mut x = word & bits[w0 as usize + w];
            while x != 0 {
                out.push((w * 64) as u32 + x.trailing_zeros());
                x &= x - 1;
            }
        }
    }
}

/// The source of [`Grounded::id`] (0 is no program).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Reasoner {
    /// Grounds and compiles `sheet` (which should have passed
    /// [`super::check`]) within the default memory budget,
    /// [`DEFAULT_BUDGET`] (the environment is not read here:
    /// [`Budget::from_env`] does that).
    pub fn new(sheet: &Sheet) -> Result<Reasoner, GdlError> {
        Reasoner::with_budget(sheet, DEFAULT_BUDGET)
    }

    /// As [`Reasoner::new`], within `budget`: grounding stops as soon as
    /// the estimate of its memory passes it. Then the queries go to the
    /// non-ground evaluator ([`Reasoner::is_grounded`]) if the possible
    /// atoms alone (and the joins of one rule in one round of their
    /// fixpoint) stay within `budget`; else this fails, saying in one line
    /// what passed the budget and how to raise it.
    pub fn with_budget(sheet: &Sheet, budget: Budget) -> Result<Reasoner, GdlError> {
        let g = match possible(sheet, budget, false) {
            Ok(g) => g,
            Err(Refusal::Over(over)) => match Reasoner::split(sheet, budget, over.line) {
                Some(r) => return Ok(r),
                None => atoms_alone(sheet, budget, over).map_err(GdlError::from)?,
            },
            Err(e) => return Err(e.into()),
        };
        let mut roles: Vec<Sym> = Vec::new();
        for r in &sheet.rules {
            if let ("role", true, [Term::Const(c)]) =
                (&*r.head.rel, r.body.is_empty(), &r.head.args[..])
            {
                if !roles.contains(c) {
                    roles.push(c.clone());
                }
            }
        }
        if roles.is_empty() {
            return Err(GdlError("the rule sheet has no `role` facts".into()));
        }
        let random = roles.iter().position(|r| &**r == "random");
        if g.dropped().is_some() {
            return Reasoner::non_ground(sheet, roles, random, g);
        }
        let role_ids: Vec<u32> = roles
            .iter()
            .map(|r| g.terms.find_app(r, &[]).unwrap_or(NONE))
            .collect();
        let role_of = |t: u32| role_ids.iter().position(|&x| x == t);
        let t = &g.terms;
        let mut dense = vec![NONE; t.len()];
        let mut count = 0u32;
        // The base facts, sorted.
        let mut base: Vec<(Term, u32)> = g
            .atoms("true", 1)
            .iter()
            .map(|&a| (t.to_term(t.args(a)[0]), a))
            .collect();
        base.sort_by(|x, y| cmp_terms(&x.0, &y.0));
        for &(_, a) in &base {
            dense[a as usize] = count;
            count += 1;
        }
        // The moves per role, sorted, and their `does` atoms.
        let mut moves: Vec<Vec<(Term, u32, u32)>> = vec![Vec::new(); roles.len()];
        for &a in g.atoms("legal", 2) {
            let args = t.args(a);
            if let Some(r) = role_of(args[0]) {
                moves[r].push((t.to_term(args[1]), args[1], a));
            }
        }
        let mut does_start = Vec::new();
        for (r, ms) in moves.iter_mut().enumerate() {
            ms.sort_by(|x, y| cmp_terms(&x.0, &y.0));
            does_start.push(count);
            for &(_, m, _) in ms.iter() {
                if let Some(d) = t.find_app("does", &[role_ids[r], m]) {
                    dense[d as usize] = count;
                }
                count += 1;
            }
        }
        does_start.push(count);
        let inputs = count as usize;
        for a in g.all_atoms() {
            if dense[a as usize] == NONE {
                dense[a as usize] = count;
                count += 1;
            }
        }
        let num_atoms = count as usize;
        let compiled = compile(&g, &dense, num_atoms, base.len()..inputs).map_err(|e| {
            // A cycle through negation between ground atoms is one between
            // relations too: name the rule that closes it.
            match super::check::stratified(sheet) {
                Err(rule) => GdlError(format!("{rule}; {e}")),
                Ok(()) => e,
            }
        })?;
        let size = (num_atoms - g.num_split_atoms(), compiled.0.len());
        let (factored, num_atoms) = factor(compiled, num_atoms);
        let (mut program, num_atoms) = complement_moves(factored, num_atoms, &does_start);
        let legal_atoms: Vec<Vec<u32>> = moves
            .iter()
            .map(|ms| ms.iter().map(|m| dense[m.2 as usize]).collect())
            .collect();
        let legal_groups = gate_legal(&mut program, &legal_atoms, num_atoms);
        let (rules, body, steps) = program;
        let (occurs_start, occurs, levels) = live::occurrences(num_atoms, &rules, &body, &steps);
        let d = |a: u32| dense[a as usize];
        let mut goal_atoms: Vec<Vec<(u32, u32)>> = vec![Vec::new(); roles.len()];
        for &a in g.atoms("goal", 2) {
            let args = t.args(a);
            let Some(r) = role_of(args[0]) else { continue };
            let value = t.sym(args[1]).parse::<u32>().map_err(|_| {
                GdlError(format!(
                    "goal value {} of role {} is not a number",
                    t.to_term(args[1]),
                    roles[r]
                ))
            })?;
            goal_atoms[r].push((d(a), value));
        }
        goal_atoms
            .iter_mut()
            .for_each(|g| g.sort_by_key(|&(_, v)| std::cmp::Reverse(v)));
        let terminal_atom = g.atoms("terminal", 0).first().map_or(NONE, |&a| d(a));
        let as_base = |a: u32| {
            let tr = t
                .find_app("true", &[t.args(a)[0]])
                .unwrap_or_else(|| unreachable!());
            (d(a), d(tr))
        };
        let next_atoms: Vec<(u32, u32)> = g.atoms("next", 1).iter().map(|&a| as_base(a)).collect();
        let init_atoms: Vec<(u32, u32)> = g.atoms("init", 1).iter().map(|&a| as_base(a)).collect();
        let mut sees: Vec<Vec<(Term, u32)>> = vec![Vec::new(); roles.len()];
        for &a in g.atoms("sees", 2) {
            if let Some(r) = role_of(t.args(a)[0]) {
                sees[r].push((t.to_term(t.args(a)[1]), d(a)));
            }
        }
        sees.iter_mut()
            .for_each(|s| s.sort_by(|x, y| cmp_terms(&x.0, &y.0)));
        let mut out_bit = vec![NONE; num_atoms];
        for &(a, b) in &next_atoms {
            out_bit[a as usize] = b;
        }
        let mut legal_word = Vec::new();
        let mut words = base.len().div_ceil(64);
        for atoms in &legal_atoms {
            legal_word.push(words as u32);
            for (m, &a) in atoms.iter().enumerate() {
                if out_bit[a as usize] == NONE {
                    out_bit[a as usize] = (words * 64 + m) as u32;
                }
            }
            words += atoms.len().div_ceil(64);
        }
        let grounded = Grounded {
            out_bit,
            legal_word,
            out_words: words,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            size,
            num_base: base.len(),
            sees_atoms: sees
                .iter()
                .map(|s| s.iter().map(|p| p.1).collect())
                .collect(),
            num_atoms,
            does_start,
            rules,
            body,
            legal_groups,
            goal_atoms,
            terminal_atom,
            steps,
            occurs_start,
            occurs,
            levels,
        };
        let mut initial = Facts::empty(base.len());
        grounded.with_live(&initial.clone(), None, |live| {
            for &(a, b) in &init_atoms {
                if live.value()[a as usize] {
                    initial.insert(b as usize);
                }
            }
        });
        Ok(Reasoner {
            roles,
            random,
            base: base.into_iter().map(|b| b.0).collect(),
            moves: moves
                .into_iter()
                .map(|ms| ms.into_iter().map(|m| m.0).collect())
                .collect(),
            percepts: sees
                .into_iter()
                .map(|s| s.into_iter().map(|p| p.0).collect())
                .collect(),
            initial,
            backend: Backend::Grounded(Box::new(grounded)),
            bytes: g.estimated_bytes(),
        })
    }

    /// The reasoner over the non-ground evaluator, for a sheet whose
    /// grounding passed its budget and went on for the possible atoms
    /// alone, `atoms`.
    fn non_ground(
        sheet: &Sheet,
        roles: Vec<Sym>,
        random: Option<usize>,
        atoms: Grounding,
    ) -> Result<Reasoner, GdlError> {
        let bytes = atoms.estimated_bytes();
        let (n, d) = NonGround::new(sheet, &roles, atoms)?;
        Ok(Reasoner {
            roles,
            random,
            base: d.base,
            moves: d.moves,
            percepts: d.percepts,
            initial: d.initial,
            backend: Backend::NonGround(Box::new(n)),
            bytes,
        })
    }

    /// The reasoner for a sheet whose grounding passed `budget` at `line`,
    /// a rule that only `goal` and `terminal` need: the rest of the sheet
    /// goes to a reasoner of its own, and goals and `terminal` to the
    /// top-down evaluator (`topdown.rs`). `None` if the rule is
    /// needed by the moves or the next states, or the rest does not load
    /// either.
    fn split(sheet: &Sheet, budget: Budget, line: usize) -> Option<Reasoner> {
        let part = topdown::split(sheet, line)?;
        let inner = Reasoner::with_budget(&part, budget).ok()?;
        let top = TopDown::new(sheet, &inner.roles, &inner.base).ok()?;
        top.check(&inner.initial).ok()?;
        Some(Reasoner {
            roles: inner.roles.clone(),
            random: inner.random,
            base: inner.base.clone(),
            moves: inner.moves.clone(),
            percepts: inner.percepts.clone(),
            initial: inner.initial.clone(),
            bytes: inner.bytes,
            backend: Backend::TopDown(Box::new((inner, top))),
        })
    }

    /// The reasoner on the non-ground evaluator whatever the sheet's
    /// size (the fixpoint for the possible atoms alone, as when grounding
    /// passes the budget), to set beside the others in tests.
    #[cfg(test)]
    pub(super) fn non_ground_only(sheet: &Sheet) -> Result<Reasoner, GdlError> {
        let over = super::ground::Over {
            line: 0,
            rules: 0,
            atoms: 0,
            matches: 0,
            budget: DEFAULT_BUDGET,
        };
        let g = atoms_alone(sheet, DEFAULT_BUDGET, over).map_err(GdlError::from)?;
        let roles = sheet
            .rules
            .iter()
            .filter_map(|r| match (&*r.head.rel, &r.head.args[..]) {
                ("role", [Term::Const(c)]) => Some(c.clone()),
                _ => None,
            })
            .collect::<Vec<_>>();
        let random = roles.iter().position(|r| &**r == "random");
        Reasoner::non_ground(sheet, roles, random, g)
    }

    /// The most the estimate of grounding's memory reached while this
    /// reasoner was made (the possible atoms alone for the non-ground
    /// evaluator), in bytes: what its [`Budget`] had to allow.
    pub fn estimated_bytes(&self) -> u64 {
        self.bytes
    }
}

impl Reasoner {
    /// The roles, in the order of the sheet's `role` facts (GDL-II's
    /// `random` among them if the sheet has it).
    pub fn roles(&self) -> &[Sym] {
        &self.roles
    }

    /// The index of a role by name.
    pub fn role_index(&self, name: &str) -> Option<usize> {
        self.roles.iter().position(|r| &**r == name)
    }

    /// GDL-II's chance role `random`, whose moves the game picks uniformly
    /// among its legal ones, if the sheet has it.
    pub fn random_role(&self) -> Option<usize> {
        self.random
    }

    /// How many ground facts can ever be true (the bits of a [`Facts`]).
    pub fn num_base(&self) -> usize {
        self.base.len()
    }

    /// Base fact `i`, e.g. `(cell 1 1 x)`.
    ///
    /// # Panics
    /// If `i >= self.num_base()`.
    pub fn base(&self, i: usize) -> &Term {
        &self.base[i]
    }

    /// Whether the queries run on the compiled ground program (the usual
    /// case) rather than on the non-ground evaluator, which a sheet too
    /// large to ground falls back to.
    pub fn is_grounded(&self) -> bool {
        matches!(self.backend, Backend::Grounded(_))
    }

    /// Whether goals and `terminal` are answered by top-down resolution
    /// (`topdown.rs`), the rest by a reasoner over the rules the
    /// moves and next states need: for a sheet whose goal relations alone
    /// passed the memory budget.
    pub fn is_top_down(&self) -> bool {
        matches!(self.backend, Backend::TopDown(_))
    }

    /// Which evaluator answers the queries, in words (for `wopr gdl check`).
    pub fn evaluator(&self) -> &'static str {
        match &self.backend {
            Backend::Grounded(_) => "the compiled ground program",
            Backend::NonGround(_) => {
                "the non-ground evaluator (the ground program would exceed the memory budget; \
                 slower)"
            }
            Backend::TopDown(t) if t.0.is_grounded() => {
                "goals and terminal by top-down resolution (what only they need would exceed \
                 the memory budget), the rest by the compiled ground program"
            }
            Backend::TopDown(_) => {
                "goals and terminal by top-down resolution (what only they need would exceed \
                 the memory budget), the rest by the non-ground evaluator"
            }
        }
    }

    /// The size of the compiled program: the atoms of the sheet's relations
    /// that can ever hold, and the rules (the ground rules, those of the
    /// relations [`super::ground`] splits out of wide rules included; for
    /// the non-ground evaluator: the rules after `or` is expanded).
    pub fn size(&self) -> (usize, usize) {
        match &self.backend {
            Backend::Grounded(g) => g.size,
            Backend::NonGround(n) => n.size(),
            Backend::TopDown(t) => t.0.size(),
        }
    }

    /// The initial state.
    pub fn initial(&self) -> Facts {
        self.initial.clone()
    }

    /// Every ground move that can ever be legal for `role`, sorted by
    /// [`cmp_terms`]; a move's index here is its MoveId.
    pub fn moves(&self, role: usize) -> &[Term] {
        self.moves.get(role).map_or(&[], |m| &m[..])
    }

    /// The MoveId of `role`'s move `m`, if it can ever be legal.
    pub fn find_move(&self, role: usize, m: &Term) -> Option<u32> {
        let moves = self.moves(role);
        moves
            .binary_search_by(|x| cmp_terms(x, m))
            .ok()
            .map(|i| i as u32)
    }

    /// Writes `role`'s legal MoveIds in `state` to `out`, increasing.
    pub fn legal(&self, state: &Facts, role: usize, out: &mut Vec<u32>) {
        out.clear();
        let g = match &self.backend {
            Backend::Grounded(g) => g,
            Backend::NonGround(n) => return n.legal(state, role, out),
            Backend::TopDown(t) => return t.0.legal(state, role, out),
        };
        g.with_live(state, None, |live| g.read_legal(live, role, out));
    }

    /// Every role's legal moves and whether `state` is terminal, in one
    /// evaluation.
    pub fn analyse(&self, state: &Facts, out: &mut Analysis) {
        let g = match &self.backend {
            Backend::Grounded(g) => g,
            Backend::NonGround(n) => return n.analyse(state, &mut out.legal, &mut out.terminal),
            Backend::TopDown(t) => {
                t.0.analyse(state, out);
                out.terminal = t.1.is_terminal(state);
                return;
            }
        };
        out.legal.resize_with(self.roles.len(), Vec::new);
        g.with_live(state, None, |live| {
            let v = live.value();
            out.terminal = g.terminal_atom != NONE && v[g.terminal_atom as usize];
            for (r, l) in out.legal.iter_mut().enumerate() {
                g.read_legal(live, r, l);
            }
        });
    }

    /// As [`Reasoner::analyse`], writing each role's legal moves into
    /// `legal` (its vectors reused) and returning whether `state` is
    /// terminal.
    pub fn analyse_into(&self, state: &Facts, legal: &mut Vec<Vec<u32>>) -> bool {
        let mut out = Analysis {
            terminal: false,
            legal: std::mem::take(legal),
        };
        self.analyse(state, &mut out);
        *legal = out.legal;
        out.terminal
    }

    /// Whether `state` is terminal.
    pub fn is_terminal(&self, state: &Facts) -> bool {
        let g = match &self.backend {
            Backend::Grounded(g) => g,
            Backend::NonGround(n) => return n.is_terminal(state),
            Backend::TopDown(t) => return t.1.is_terminal(state),
        };
        if g.terminal_atom == NONE {
            return false;
        }
        g.with_live(state, None, |live| live.value()[g.terminal_atom as usize])
    }

    /// `role`'s goal value in `state` (0..=100 in GDL), the greatest if
    /// several hold; `None` if none does.
    pub fn goal(&self, state: &Facts, role: usize) -> Option<u32> {
        let g = match &self.backend {
            Backend::Grounded(g) => g,
            Backend::NonGround(n) => return n.goal(state, role),
            Backend::TopDown(t) => return t.1.goal(state, role),
        };
        let atoms = g.goal_atoms.get(role)?;
        g.with_live(state, None, |live| {
            atoms
                .iter()
                .find(|&&(a, _)| live.value()[a as usize])
                .map(|&(_, v)| v)
        })
    }

    /// The state after `joint` (one MoveId per role, by role index) in
    /// `state`. A MoveId out of range (such as `u32::MAX`), or a missing
    /// one, means the role makes no move.
    pub fn next(&self, state: &Facts, joint: &[u32]) -> Facts {
        let mut out = Facts::empty(self.base.len());
        self.next_into(state, joint, &mut out);
        out
    }

    /// As [`Reasoner::next`], writing into `out` (no allocation when it
    /// has the right size).
    pub fn next_into(&self, state: &Facts, joint: &[u32], out: &mut Facts) {
        if out.0.len() != self.base.len().div_ceil(64) {
            *out = Facts::empty(self.base.len());
        }
        out.0.fill(0);
        let g = match &self.backend {
            Backend::Grounded(g) => g,
            Backend::NonGround(n) => return n.next_into(state, joint, out),
            Backend::TopDown(t) => return t.0.next_into(state, joint, out),
        };
        g.with_live(state, Some(joint), |live| {
            let n = out.0.len();
            out.0.copy_from_slice(&live.outs()[..n]);
        });
    }

    /// As [`Reasoner::next`], replacing `state` by its successor (no
    /// allocation on the compiled program).
    pub fn advance(&self, state: &mut Facts, joint: &[u32]) {
        match &self.backend {
            Backend::Grounded(g) if state.0.len() == self.base.len().div_ceil(64) => {
                g.next_in_place(state, joint)
            }
            Backend::TopDown(t) => t.0.advance(state, joint),
            _ => *state = self.next(state, joint),
        }
    }

    /// Every ground percept (`sees`) that `role` can ever get, sorted by
    /// [`cmp_terms`]; an index here is a percept id.
    pub fn percepts(&self, role: usize) -> &[Term] {
        self.percepts.get(role).map_or(&[], |p| &p[..])
    }

    /// Writes the percept ids that `role` sees after `joint` in `state` to
    /// `out`, increasing.
    pub fn sees(&self, state: &Facts, joint: &[u32], role: usize, out: &mut Vec<u32>) {
        out.clear();
        let g = match &self.backend {
            Backend::Grounded(g) => g,
            Backend::NonGround(n) => return n.sees(state, joint, role, out),
            Backend::TopDown(t) => return t.0.sees(state, joint, role, out),
        };
        let Some(atoms) = g.sees_atoms.get(role) else {
            return;
        };
        g.with_live(state, Some(joint), |live| {
            let v = live.value();
            out.extend((0..atoms.len() as u32).filter(|&p| v[atoms[p as usize] as usize]));
        });
    }
}
