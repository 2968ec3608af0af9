//! The resolution machine of the top-down evaluator: terms on a heap of
//! cells, bindings undone through a trail, goals as linked lists in an
//! arena, and a stack of choice points, so a query of any depth runs in a
//! loop and never on the call stack (only unification recurses, as deep
//! as a term is nested).

use super::{Kind, TopDown, T};

/// "None" in the links.
pub(super) const NIL: u32 = u32::MAX;

/// The most goals and heap cells one query may hold at once: past them
/// its recursion is taken not to end (a left-recursive relation called
/// with unbound arguments recurses without end under resolution). Some
/// 80 and 200 MB.
const MAX_GOALS: usize = 1 << 22;
const MAX_CELLS: usize = 1 << 24;

/// A query held more than [`MAX_GOALS`] goals or [`MAX_CELLS`] cells.
#[derive(Clone, Copy, Debug)]
pub(super) struct Overrun;

/// A cell of the heap. A variable is a `Ref` to itself while it is
/// unbound; a function term is its `Fn` header followed by one cell per
/// argument; a term stands in another cell as a `Ref` to its header.
#[derive(Clone, Copy, Debug)]
pub(super) enum Cell {
    Ref(u32),
    Const(u32),
    Fn(u32, u32),
}

/// A cell followed through its references.
#[derive(Clone, Copy)]
enum D {
    Var(u32),
    Const(u32),
    Fn(u32),
}

/// A goal: a literal whose arguments are cells on the heap, the goal after
/// it, and the nearest goal it descends from that calls a recursive
/// relation (for the loop check).
#[derive(Clone, Copy)]
struct Goal {
    kind: Kind,
    /// The relation, or for [`Kind::Cut`] the barrier's choice point.
    pred: u32,
    args: u32,
    next: u32,
    rec: u32,
}

/// What a choice point tries next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Alt {
    /// The clauses of `list` from `pos`.
    Clauses,
    /// The true base facts of `list` from `pos`.
    Facts,
    /// The end of a negated goal's search: it failed, so the `not` holds
    /// and the goals from `goal` go on.
    Barrier,
}

#[derive(Clone, Copy)]
struct Choice {
    alt: Alt,
    goal: u32,
    list: u32,
    pos: u32,
    mark: Mark,
}

#[derive(Clone, Copy)]
struct Mark {
    heap: u32,
    trail: u32,
    goals: u32,
}

/// A thread's machine, loaded with one evaluator's base facts.
#[derive(Default)]
pub(super) struct Machine {
    /// The evaluator whose base facts the heap starts with.
    pub(super) owner: u64,
    heap: Vec<Cell>,
    /// The cells below this are the base facts and stay.
    prefix: usize,
    base: Vec<Cell>,
    trail: Vec<u32>,
    goals: Vec<Goal>,
    choices: Vec<Choice>,
    /// A clause's variables while its head is matched and its body built.
    vars: Vec<Cell>,
    /// The query's state: its true base facts, as [`super::Facts`] holds them.
    pub(super) state: Vec<u64>,
}

/// A variable of `vars` not yet bound.
const UNSET: Cell = Cell::Ref(NIL);

fn unset(c: Cell) -> bool {
    matches!(c, Cell::Ref(NIL))
}

impl Machine {
    /// Empties the machine and builds `td`'s base facts at the heap's start.
    pub(super) fn load(&mut self, td: &TopDown) {
        *self = Machine::default();
        self.owner = td.id;
        for t in &td.base {
            self.vars.clear();
            let c = self.build(t);
            self.base.push(c);
        }
        self.prefix = self.heap.len();
    }

    /// Whether `pred` holds of some instance of `args` in the state.
    pub(super) fn exists(
        &mut self,
        td: &TopDown,
        pred: u32,
        args: &[Cell],
    ) -> Result<bool, Overrun> {
        let g = self.call(pred, args);
        let found = self.solve(td, g, &mut |_| true);
        self.reset();
        found
    }

    /// The constants that `pred`'s argument `out` takes in the instances of
    /// `args` that hold (a variable there), with repeats.
    pub(super) fn collect(
        &mut self,
        td: &TopDown,
        pred: u32,
        args: &[Cell],
        out: usize,
    ) -> Result<Vec<u32>, Overrun> {
        let g = self.call(pred, args);
        let a = self.goals[g as usize].args + out as u32;
        let mut found = Vec::new();
        let done = self.solve(td, g, &mut |m| {
            if let D::Const(s) = m.deref(m.heap[a as usize]) {
                found.push(s);
            }
            false
        });
        self.reset();
        done.map(|_| found)
    }

    /// A fresh variable's cell.
    pub(super) fn var(&mut self) -> Cell {
        let a = self.heap.len() as u32;
        self.heap.push(Cell::Ref(a));
        Cell::Ref(a)
    }

    /// The goal `pred(args)`, alone.
    fn call(&mut self, pred: u32, args: &[Cell]) -> u32 {
        let at = self.heap.len() as u32;
        self.heap.extend_from_slice(args);
        self.push_goal(Kind::Pos, pred, at, NIL, NIL)
    }

    fn push_goal(&mut self, kind: Kind, pred: u32, args: u32, next: u32, rec: u32) -> u32 {
        self.goals.push(Goal {
            kind,
            pred,
            args,
            next,
            rec,
        });
        (self.goals.len() - 1) as u32
    }

    /// Everything back to the base facts.
    fn reset(&mut self) {
        self.undo(Mark {
            heap: self.prefix as u32,
            trail: 0,
            goals: 0,
        });
        self.choices.clear();
    }

    fn mark(&self) -> Mark {
        Mark {
            heap: self.heap.len() as u32,
            trail: self.trail.len() as u32,
            goals: self.goals.len() as u32,
        }
    }

    fn undo(&mut self, m: Mark) {
        for &a in &self.trail[m.trail as usize..] {
            self.heap[a as usize] = Cell::Ref(a);
        }
        self.trail.truncate(m.trail as usize);
        self.heap.truncate(m.heap as usize);
        self.goals.truncate(m.goals as usize);
    }

    /// Runs the goals from `start` to their answers, each passed to
    /// `answer`, which says whether to stop; true if it did.
    fn solve(
        &mut self,
        td: &TopDown,
        start: u32,
        answer: &mut dyn FnMut(&Machine) -> bool,
    ) -> Result<bool, Overrun> {
        let floor = self.choices.len();
        let mut goals = start;
        loop {
            if self.goals.len() > MAX_GOALS || self.heap.len() > MAX_CELLS {
                self.choices.truncate(floor);
                return Err(Overrun);
            }
            let forward = if goals == NIL {
                if answer(self) {
                    self.choices.truncate(floor);
                    return Ok(true);
                }
                None
            } else {
                self.step(td, goals)
            };
            goals = match forward {
                Some(next) => next,
                None => match self.backtrack(td, floor) {
                    Some(next) => next,
                    None => return Ok(false),
                },
            };
        }
    }

    /// Resolves the first of the goals `g`: the goals that follow, or
    /// `None` if it fails.
    fn step(&mut self, td: &TopDown, g: u32) -> Option<u32> {
        let goal = self.goals[g as usize];
        let arg = |k: u32| goal.args + k;
        match goal.kind {
            Kind::Pos => {
                if td.preds[goal.pred as usize].recursive && self.repeats(td, g) {
                    return None;
                }
                let (alt, list) = self.candidates(td, &goal);
                self.resolve(td, g, alt, list, 0)
            }
            Kind::Dist => {
                let (x, y) = (self.heap[arg(0) as usize], self.heap[arg(1) as usize]);
                (!self.equal(x, y)).then_some(goal.next)
            }
            Kind::Eq => {
                let (x, y) = (self.heap[arg(0) as usize], self.heap[arg(1) as usize]);
                self.unify(x, y).then_some(goal.next)
            }
            Kind::Neg => {
                let mark = self.mark();
                let barrier = self.choices.len() as u32;
                self.choices.push(Choice {
                    alt: Alt::Barrier,
                    goal: goal.next,
                    list: 0,
                    pos: 0,
                    mark,
                });
                let cut = self.push_goal(Kind::Cut, barrier, 0, NIL, NIL);
                Some(self.push_goal(Kind::Pos, goal.pred, goal.args, cut, NIL))
            }
            Kind::Cut => {
                // The negated goal holds: the `not` fails.
                let b = goal.pred as usize;
                let mark = self.choices[b].mark;
                self.choices.truncate(b);
                self.undo(mark);
                None
            }
        }
    }

    /// The clauses (or true facts) that may match `goal`, by its first
    /// argument.
    fn candidates(&self, td: &TopDown, goal: &Goal) -> (Alt, u32) {
        let key = |m: &Machine, c: Cell| match m.deref(c) {
            D::Var(_) => None,
            D::Const(s) => Some(super::Key::Const(s)),
            D::Fn(a) => match m.heap[a as usize] {
                Cell::Fn(f, n) => Some(super::Key::Fn(f, n)),
                _ => None,
            },
        };
        if goal.pred == td.true_pred {
            let fact = self.heap[goal.args as usize];
            let outer = key(self, fact);
            let inner = match self.deref(fact) {
                D::Fn(a) => key(self, self.heap[a as usize + 1]),
                _ => None,
            };
            return (Alt::Facts, td.true_list(outer, inner));
        }
        let p = &td.preds[goal.pred as usize];
        let first = if td.arity[goal.pred as usize] == 0 {
            None
        } else {
            key(self, self.heap[goal.args as usize])
        };
        (
            Alt::Clauses,
            first.map_or(p.all, |k| p.by_key.get(&k).copied().unwrap_or(p.wild)),
        )
    }

    /// Tries the candidates of goal `g` from `pos`: the goals that follow
    /// the first that matches (a choice point left for the rest), or `None`.
    fn resolve(&mut self, td: &TopDown, g: u32, alt: Alt, list: u32, pos: u32) -> Option<u32> {
        let goal = self.goals[g as usize];
        let items = &td.lists[list as usize];
        let mark = self.mark();
        for (i, &item) in items.iter().enumerate().skip(pos as usize) {
            let next = if alt == Alt::Facts {
                let b = item as usize;
                let holds = self
                    .state
                    .get(b / 64)
                    .is_some_and(|w| w >> (b % 64) & 1 == 1);
                (holds && self.unify(self.heap[goal.args as usize], self.base[b]))
                    .then_some(goal.next)
            } else {
                self.expand(td, g, &goal, item)
            };
            match next {
                Some(next) => {
                    if i + 1 < items.len() {
                        self.choices.push(Choice {
                            alt,
                            goal: g,
                            list,
                            pos: (i + 1) as u32,
                            mark,
                        });
                    }
                    return Some(next);
                }
                None => self.undo(mark),
            }
        }
        None
    }

    /// Matches clause `c`'s head with `goal`; then its body goals, in
    /// front of the goals that followed.
    fn expand(&mut self, td: &TopDown, g: u32, goal: &Goal, c: u32) -> Option<u32> {
        let clause = &td.clauses[c as usize];
        self.vars.clear();
        self.vars.resize(clause.vars as usize, UNSET);
        for (k, t) in clause.head.iter().enumerate() {
            let cell = self.heap[goal.args as usize + k];
            if !self.unify_t(t, cell) {
                return None;
            }
        }
        let rec = if td.preds[goal.pred as usize].recursive {
            g
        } else {
            goal.rec
        };
        let mut next = goal.next;
        for lit in clause.body.iter().rev() {
            let at = self.heap.len();
            self.heap.resize(at + lit.args.len(), Cell::Const(0));
            for (k, t) in lit.args.iter().enumerate() {
                self.heap[at + k] = self.build(t);
            }
            next = self.push_goal(lit.kind, lit.pred, at as u32, next, rec);
        }
        Some(next)
    }

    /// Pops choice points down to `floor` until one has an alternative:
    /// the goals that follow it, or `None`.
    fn backtrack(&mut self, td: &TopDown, floor: usize) -> Option<u32> {
        while self.choices.len() > floor {
            let cp = self.choices.pop().unwrap_or_else(|| unreachable!());
            self.undo(cp.mark);
            if cp.alt == Alt::Barrier {
                return Some(cp.goal);
            }
            if let Some(next) = self.resolve(td, cp.goal, cp.alt, cp.list, cp.pos) {
                return Some(next);
            }
        }
        None
    }

    /// Whether goal `g` is ground and the same as a goal it descends from:
    /// then any proof of it holds a shorter one, so it can fail.
    fn repeats(&self, td: &TopDown, g: u32) -> bool {
        let goal = self.goals[g as usize];
        let n = td.arity[goal.pred as usize];
        if !(0..n).all(|k| self.ground(self.cell(goal.args + k))) {
            return false;
        }
        let mut a = goal.rec;
        while a != NIL {
            let anc = self.goals[a as usize];
            if anc.pred == goal.pred
                && anc.kind == Kind::Pos
                && (0..n).all(|k| self.equal(self.cell(goal.args + k), self.cell(anc.args + k)))
            {
                return true;
            }
            a = anc.rec;
        }
        false
    }

    fn cell(&self, a: u32) -> Cell {
        self.heap[a as usize]
    }

    fn deref(&self, mut c: Cell) -> D {
        loop {
            match c {
                Cell::Const(s) => return D::Const(s),
                Cell::Fn(..) => unreachable!("a term's header is never a value"),
                Cell::Ref(a) => match self.heap[a as usize] {
                    Cell::Ref(b) if b == a => return D::Var(a),
                    Cell::Ref(b) => c = Cell::Ref(b),
                    Cell::Const(s) => return D::Const(s),
                    Cell::Fn(..) => return D::Fn(a),
                },
            }
        }
    }

    /// The arity of the function terms whose headers are at `a` and `b`,
    /// if they have one functor and arity.
    fn same_functor(&self, a: u32, b: u32) -> Option<u32> {
        match (self.cell(a), self.cell(b)) {
            (Cell::Fn(f, n), Cell::Fn(g, m)) if f == g && n == m => Some(n),
            (Cell::Fn(..), Cell::Fn(..)) => None,
            _ => unreachable!("a term's header"),
        }
    }

    fn bind(&mut self, a: u32, v: Cell) {
        self.heap[a as usize] = v;
        self.trail.push(a);
    }

    fn unify(&mut self, x: Cell, y: Cell) -> bool {
        match (self.deref(x), self.deref(y)) {
            (D::Var(a), D::Var(b)) => {
                if a != b {
                    let (young, old) = if a > b { (a, b) } else { (b, a) };
                    self.bind(young, Cell::Ref(old));
                }
                true
            }
            (D::Var(a), D::Const(s)) | (D::Const(s), D::Var(a)) => {
                self.bind(a, Cell::Const(s));
                true
            }
            (D::Var(a), D::Fn(f)) | (D::Fn(f), D::Var(a)) => {
                self.bind(a, Cell::Ref(f));
                true
            }
            (D::Const(s), D::Const(t)) => s == t,
            (D::Fn(a), D::Fn(b)) => {
                a == b
                    || self.same_functor(a, b).is_some_and(|n| {
                        (1..=n).all(|k| self.unify(self.cell(a + k), self.cell(b + k)))
                    })
            }
            _ => false,
        }
    }

    /// Whether `x` and `y` are the same term (unbound variables equal only
    /// themselves).
    fn equal(&self, x: Cell, y: Cell) -> bool {
        match (self.deref(x), self.deref(y)) {
            (D::Var(a), D::Var(b)) | (D::Fn(a), D::Fn(b)) if a == b => true,
            (D::Const(s), D::Const(t)) => s == t,
            (D::Fn(a), D::Fn(b)) => self
                .same_functor(a, b)
                .is_some_and(|n| (1..=n).all(|k| self.equal(self.cell(a + k), self.cell(b + k)))),
            _ => false,
        }
    }

    /// Whether `x` is ground.
    fn ground(&self, x: Cell) -> bool {
        match self.deref(x) {
            D::Var(_) => false,
            D::Const(_) => true,
            D::Fn(a) => {
                let Cell::Fn(_, n) = self.cell(a) else {
                    unreachable!()
                };
                (1..=n).all(|k| self.ground(self.cell(a + k)))
            }
        }
    }

    /// Matches the clause term `t` (its variables in `vars`) with `c`.
    fn unify_t(&mut self, t: &T, c: Cell) -> bool {
        match t {
            T::Var(i) => {
                let v = self.vars[*i as usize];
                if unset(v) {
                    self.vars[*i as usize] = c;
                    true
                } else {
                    self.unify(v, c)
                }
            }
            T::Const(s) => match self.deref(c) {
                D::Var(a) => {
                    self.bind(a, Cell::Const(*s));
                    true
                }
                D::Const(x) => x == *s,
                D::Fn(_) => false,
            },
            T::Fn(f, args) => match self.deref(c) {
                D::Var(a) => {
                    let v = self.build(t);
                    self.bind(a, v);
                    true
                }
                D::Fn(a) => {
                    let Cell::Fn(g, n) = self.heap[a as usize] else {
                        unreachable!()
                    };
                    g == *f
                        && n as usize == args.len()
                        && args.iter().enumerate().all(|(k, t)| {
                            let c = self.heap[a as usize + 1 + k];
                            self.unify_t(t, c)
                        })
                }
                D::Const(_) => false,
            },
        }
    }

    /// The clause term `t` on the heap (its variables in `vars`, fresh
    /// ones made for those not yet bound).
    fn build(&mut self, t: &T) -> Cell {
        match t {
            T::Const(s) => Cell::Const(*s),
            T::Var(i) => {
                let v = self.vars[*i as usize];
                if unset(v) {
                    let v = self.var();
                    self.vars[*i as usize] = v;
                    v
                } else {
                    v
                }
            }
            T::Fn(f, args) => {
                let at = self.heap.len();
                self.heap.push(Cell::Fn(*f, args.len() as u32));
                self.heap.resize(at + 1 + args.len(), Cell::Const(0));
                for (k, a) in args.iter().enumerate() {
                    self.heap[at + 1 + k] = self.build(a);
                }
                Cell::Ref(at as u32)
            }
        }
    }
}

impl Overrun {
    /// Stops the game: a query asked while playing has no way to fail.
    pub(super) fn fail(self, query: &str) -> ! {
        panic!(
            "top-down resolution of `{query}` passed {MAX_GOALS} goals or {MAX_CELLS} cells: the \
             sheet's goal rules recurse without end"
        )
    }
}
