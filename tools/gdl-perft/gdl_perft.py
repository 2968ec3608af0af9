#!/usr/bin/env python3
"""An independent GDL reasoner that counts perft in GDL steps.

    gdl_perft.py SHEET.kif [--depth 3] [--seconds 60]

prints `DEPTH COUNT` for depth 1, 2, ... as each is counted, then exits 0;
a sheet it finds invalid prints `invalid: REASON` and exits 2; running out
of time prints `timeout` after the depths reached and exits 3.

One step (ply) is one joint move: every role (GDL-II's `random` too) makes
one of its legal moves, a role with a single forced move (`noop`) included.
Perft at depth d is the number of joint-move sequences of length d from the
initial state; a terminal state, or one where some role has no legal move,
is not extended (it counts 1 at depth 0 only).

Written for wopr's conformance suite as a cross-check of SWI-Prolog running
wopr's own translation of a sheet, so it shares nothing with wopr: plain
Python 3, no dependencies. Rules are evaluated bottom-up, one dependency
component at a time in topological order. A component whose relations
depend negatively on each other is evaluated by the alternating fixpoint
(well-founded semantics); the sheet is refused when that leaves atoms
undefined, i.e. when it is not stratified even once ground. Speed is not
the aim.
"""

import sys
import time


class Invalid(Exception):
    """The sheet is not valid GDL (or not one this reasoner reads)."""


class Timeout(Exception):
    """The time limit was reached."""


# ---------------------------------------------------------------- parsing

def tokens(text):
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == ';':
            while i < n and text[i] != '\n':
                i += 1
        elif c.isspace():
            i += 1
        elif c in '()':
            out.append(c)
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '();':
                j += 1
            out.append(text[i:j].lower())
            i = j
    return out


def read_all(text):
    """The S-expressions of the text: strings and lists."""
    toks = tokens(text)
    stack, top = [], []
    for t in toks:
        if t == '(':
            stack.append(top)
            top = []
        elif t == ')':
            if not stack:
                raise Invalid("unbalanced ')'")
            done = top
            top = stack.pop()
            top.append(done)
        else:
            top.append(t)
    if stack:
        raise Invalid("unbalanced '('")
    return top


def is_var(t):
    return isinstance(t, str) and t.startswith('?')


def to_term(x):
    """A term: a constant or variable (str) or a function (tuple)."""
    if isinstance(x, str):
        return x
    if not x or not isinstance(x[0], str) or is_var(x[0]):
        raise Invalid("bad term %r" % (x,))
    return (x[0],) + tuple(to_term(a) for a in x[1:])


def to_atom(x):
    """An atom: a tuple (relation, args...)."""
    if isinstance(x, str):
        if is_var(x):
            raise Invalid("a variable as a sentence")
        return (x,)
    if not x or not isinstance(x[0], str) or is_var(x[0]):
        raise Invalid("bad sentence %r" % (x,))
    return (x[0],) + tuple(to_term(a) for a in x[1:])


def to_literal(x):
    """('pos', atom) | ('not', lit) | ('distinct', a, b) | ('or', [lits])."""
    if isinstance(x, list) and x and x[0] == 'not':
        if len(x) != 2:
            raise Invalid("not takes one argument")
        return ('not', to_literal(x[1]))
    if isinstance(x, list) and x and x[0] == 'distinct':
        if len(x) != 3:
            raise Invalid("distinct takes two arguments")
        return ('distinct', to_term(x[1]), to_term(x[2]))
    if isinstance(x, list) and x and x[0] == 'or':
        return ('or', [to_literal(y) for y in x[1:]])
    return ('pos', to_atom(x))


def parse_rules(text):
    rules = []
    for x in read_all(text):
        if isinstance(x, list) and x and x[0] == '<=':
            if len(x) < 2:
                raise Invalid("a rule without a head")
            rules.append((to_atom(x[1]), [to_literal(y) for y in x[2:]]))
        else:
            rules.append((to_atom(x), []))
    return rules


# ---------------------------------------------------------------- checks

def expand_or(body):
    """The bodies of a rule with its top-level `or`s distributed."""
    out = [[]]
    for lit in body:
        if lit[0] == 'or':
            alts = []
            for d in lit[1]:
                alts.extend(expand_or([d]))
            out = [b + a for b in out for a in alts]
        else:
            out = [b + [lit] for b in out]
    return out


def show(t):
    """A term as KIF text."""
    if isinstance(t, tuple):
        return '(' + ' '.join(show(a) for a in t) + ')'
    return t


def term_vars(t, acc):
    if is_var(t):
        acc.add(t)
    elif isinstance(t, tuple):
        for a in t[1:]:
            term_vars(a, acc)
    return acc


def lit_vars(lit, acc):
    if lit[0] == 'pos':
        for a in lit[1][1:]:
            term_vars(a, acc)
    elif lit[0] == 'not':
        lit_vars(lit[1], acc)
    elif lit[0] == 'distinct':
        term_vars(lit[1], acc)
        term_vars(lit[2], acc)
    else:
        for d in lit[1]:
            lit_vars(d, acc)
    return acc


def lit_rels(lit, neg, acc):
    """(relation, negative?) for every relation a literal names."""
    if lit[0] == 'pos':
        acc.append((lit[1][0], neg))
    elif lit[0] == 'not':
        lit_rels(lit[1], True, acc)
    elif lit[0] == 'or':
        for d in lit[1]:
            lit_rels(d, neg, acc)
    return acc


def check_arities(rules):
    rel_arity, fn_arity = {}, {}

    def fn(t):
        if isinstance(t, tuple):
            if fn_arity.setdefault(t[0], len(t) - 1) != len(t) - 1:
                raise Invalid("function %s used with different arities" % t[0])
            for a in t[1:]:
                fn(a)

    def atom(a):
        if rel_arity.setdefault(a[0], len(a) - 1) != len(a) - 1:
            raise Invalid("relation %s used with different arities" % a[0])
        for t in a[1:]:
            fn(t)

    def lit(l):
        if l[0] == 'pos':
            atom(l[1])
        elif l[0] == 'not':
            lit(l[1])
        elif l[0] == 'or':
            for d in l[1]:
                lit(d)
        else:
            fn(l[1])
            fn(l[2])

    for head, body in rules:
        atom(head)
        for l in body:
            lit(l)
    for r in ('role', 'legal', 'goal', 'terminal'):
        if r not in rel_arity:
            raise Invalid("no %s relation" % r)
    want = {'role': 1, 'init': 1, 'true': 1, 'next': 1, 'legal': 2,
            'does': 2, 'goal': 2, 'terminal': 0}
    for r, a in want.items():
        if r in rel_arity and rel_arity[r] != a:
            raise Invalid("%s has arity %d, not %d" % (r, rel_arity[r], a))


def check_safety(head, body):
    bound = set()
    for l in body:
        if l[0] == 'pos':
            lit_vars(l, bound)
    need = set()
    for a in head[1:]:
        term_vars(a, need)
    for l in body:
        if l[0] != 'pos':
            lit_vars(l, need)
    if not need <= bound:
        raise Invalid("unsafe rule for %s: %s" % (
            head[0], ' '.join(sorted(need - bound))))


# ---------------------------------------------------------------- matching

def match(p, g, b):
    """Extends binding b so that pattern p equals ground g, or None."""
    if is_var(p):
        v = b.get(p)
        if v is None:
            b = dict(b)
            b[p] = g
            return b
        return b if v == g else None
    if isinstance(p, str):
        return b if p == g else None
    if not isinstance(g, tuple) or len(p) != len(g) or p[0] != g[0]:
        return None
    for x, y in zip(p[1:], g[1:]):
        b = match(x, y, b)
        if b is None:
            return None
    return b


def ground(t, b):
    """Whether pattern t is ground under binding b."""
    if is_var(t):
        return t in b
    if isinstance(t, str):
        return True
    return all(ground(a, b) for a in t[1:])


def subst(t, b):
    if is_var(t):
        if t not in b:
            raise Invalid("unbound variable %s" % t)
        return b[t]
    if isinstance(t, str):
        return t
    return (t[0],) + tuple(subst(a, b) for a in t[1:])


# ---------------------------------------------------------------- program

class Program:
    def __init__(self, text):
        raw = parse_rules(text)
        check_arities(raw)
        self.rules = []
        for head, body in raw:
            for b in expand_or(body):
                check_safety(head, b)
                # Positive atoms first, then negations and distincts.
                pos = [l for l in b if l[0] == 'pos']
                rest = [l for l in b if l[0] != 'pos']
                self.rules.append(
                    (head, [(l, lit_vars(l, set())) for l in pos + rest]))
        for head, _ in self.rules:
            if head[0] in ('true', 'does'):
                raise Invalid("a rule defines %s" % head[0])
        self.components()
        self.deadline = None
        self.indexes = {}

    def components(self):
        """Dependency components in topological order, each with its class:
        0 static, 1 depends on true, 2 depends on does."""
        rels = set()
        edges = {}
        for head, body in self.rules:
            rels.add(head[0])
            es = edges.setdefault(head[0], set())
            for l, _ in body:
                for r, neg in lit_rels(l, False, []):
                    rels.add(r)
                    es.add((r, neg))
        for r in rels:
            edges.setdefault(r, set())
        # Tarjan's SCC, iteratively.
        index, low, on, stack, comps = {}, {}, set(), [], []
        counter = [0]
        for root in sorted(rels):
            if root in index:
                continue
            work = [(root, iter(sorted(edges[root])))]
            index[root] = low[root] = counter[0]
            counter[0] += 1
            stack.append(root)
            on.add(root)
            while work:
                v, it = work[-1]
                advanced = False
                for w, _ in it:
                    if w not in index:
                        index[w] = low[w] = counter[0]
                        counter[0] += 1
                        stack.append(w)
                        on.add(w)
                        work.append((w, iter(sorted(edges[w]))))
                        advanced = True
                        break
                    elif w in on:
                        low[v] = min(low[v], index[w])
                if advanced:
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    comps.append(comp)
        # Tarjan emits components dependencies first.
        cls = {'true': 1, 'does': 2}
        self.comps = []
        self.relational_cycle = False
        for comp in comps:
            if comp & {'true', 'does'}:
                continue
            c = 0
            neg_inside = False
            for r in comp:
                for w, neg in edges[r]:
                    c = max(c, cls.get(w, 0))
                    if neg and w in comp:
                        neg_inside = True
            for r in comp:
                cls[r] = c
            if neg_inside:
                self.relational_cycle = True
            rules = [ru for ru in self.rules if ru[0][0] in comp]
            self.comps.append((comp, c, neg_inside, rules))
        self.cls = cls
        for r in ('legal', 'goal', 'terminal'):
            if cls.get(r, 0) == 2:
                raise Invalid("%s depends on does" % r)
        if cls.get('init', 0) > 0:
            raise Invalid("init depends on true or does")
        for r in ('base', 'input'):
            if cls.get(r, 0) > 0:
                raise Invalid("%s depends on true or does" % r)
        self.check_recursion(comps)

    def check_recursion(self, comps):
        """GDL's recursion restriction: in a rule for p, each argument of a
        positive literal over a relation in p's component must be ground,
        an argument of the head, or an argument of a positive literal over
        a relation outside that component."""
        comp_of = {}
        for i, comp in enumerate(comps):
            for r in comp:
                comp_of[r] = i
        for head, body in self.rules:
            home = comp_of.get(head[0])
            pos = [l[1] for l, _ in body if l[0] == 'pos']
            inside = [a for a in pos if comp_of.get(a[0]) == home]
            outside = [a for a in pos if comp_of.get(a[0]) != home]
            for a in inside:
                for v in a[1:]:
                    if (not term_vars(v, set()) or v in head[1:]
                            or any(v in o[1:] for o in outside)):
                        continue
                    raise Invalid("recursion restriction: argument %s of %s "
                                  "in a rule for %s" % (show(v), a[0], head[0]))

    def tick(self):
        if self.deadline is not None and time.time() > self.deadline:
            raise Timeout()

    # ---- evaluation over a model: dict relation -> set of arg tuples

    def holds(self, lit, b, model, neg_model):
        """Whether a ground literal holds (negation, distinct, or)."""
        if lit[0] == 'pos':
            a = lit[1]
            m = neg_model if a[0] in neg_model else model
            return tuple(subst(t, b) for t in a[1:]) in m.get(a[0], ())
        if lit[0] == 'not':
            return not self.holds(lit[1], b, model, neg_model)
        if lit[0] == 'distinct':
            return subst(lit[1], b) != subst(lit[2], b)
        return any(self.holds(d, b, model, neg_model) for d in lit[1])

    def candidates(self, lit, b, model, delta_at, delta, i):
        """The facts a positive literal may match under b."""
        a = lit[1]
        facts = delta if i == delta_at else model.get(a[0], ())
        args = a[1:]
        known = tuple(k for k, t in enumerate(args) if ground(t, b))
        if len(known) == len(args):
            f = tuple(subst(t, b) for t in args)
            return [f] if f in facts else []
        if known and facts:
            key = tuple(subst(args[k], b) for k in known)
            return self.index(a[0], facts, known).get(key, ())
        return facts

    def solve(self, body, pending, b, model, neg_model, delta_at, delta, out):
        """Every binding that satisfies the literals `pending` (indexes into
        body): tests as soon as their variables are bound, then the
        positive literal with the fewest candidate facts (the delta one
        first)."""
        rest = []
        for i in pending:
            lit, vs = body[i]
            if lit[0] != 'pos' and all(v in b for v in vs):
                if not self.holds(lit, b, model, neg_model):
                    return
            else:
                rest.append(i)
        if not rest:
            out.append(b)
            return
        best, best_facts = None, None
        for i in rest:
            lit = body[i][0]
            if lit[0] != 'pos':
                continue
            facts = self.candidates(lit, b, model, delta_at, delta, i)
            if i == delta_at:
                best, best_facts = i, facts
                break
            if best is None or len(facts) < len(best_facts):
                best, best_facts = i, facts
        if best is None:
            raise Invalid("a negation or distinct with unbound variables")
        rest.remove(best)
        args = body[best][0][1][1:]
        for f in best_facts:
            b2 = b
            for p, g in zip(args, f):
                b2 = match(p, g, b2)
                if b2 is None:
                    break
            if b2 is not None:
                self.solve(body, rest, b2, model, neg_model, delta_at, delta,
                           out)

    def index(self, rel, facts, known):
        """The facts of a relation by the values at positions `known`,
        cached while the set is the same object of the same size."""
        entry = self.indexes.get((rel, known))
        if entry is not None and entry[0] is facts and entry[1] == len(facts):
            return entry[2]
        table = {}
        for f in facts:
            table.setdefault(tuple(f[k] for k in known), []).append(f)
        self.indexes[(rel, known)] = (facts, len(facts), table)
        return table

    def fire(self, rule, model, neg_model, delta_at=-1, delta=None):
        head, body = rule
        out = []
        self.solve(body, range(len(body)), {}, model, neg_model, delta_at,
                   delta, out)
        return [tuple(subst(t, b) for t in head[1:]) for b in out]

    def least(self, comp, rules, model, neg_model):
        """The least fixpoint of a component's rules over model (changed in
        place), semi-naive; negations of comp relations read neg_model."""
        for r in comp:
            model[r] = set()
        delta = {r: set() for r in comp}
        for rule in rules:
            self.tick()
            for t in self.fire(rule, model, neg_model):
                if t not in model[rule[0][0]]:
                    model[rule[0][0]].add(t)
                    delta[rule[0][0]].add(t)
        while any(delta.values()):
            new = {r: set() for r in comp}
            for rule in rules:
                for i, (lit, _) in enumerate(rule[1]):
                    if lit[0] == 'pos' and lit[1][0] in comp and delta[lit[1][0]]:
                        self.tick()
                        for t in self.fire(rule, model, neg_model, i,
                                           delta[lit[1][0]]):
                            if t not in model[rule[0][0]]:
                                new[rule[0][0]].add(t)
            for r in comp:
                model[r] |= new[r]
            delta = new

    def eval_comp(self, comp, neg_inside, rules, model):
        if not neg_inside:
            self.least(comp, rules, model, {})
            return
        # Alternating fixpoint: under <= true <= over.
        under = {r: set() for r in comp}
        while True:
            self.least(comp, rules, model, under)
            over = {r: model[r] for r in comp}
            self.least(comp, rules, model, over)
            nxt = {r: model[r] for r in comp}
            if nxt == under:
                break
            under = nxt
        if under != over:
            raise Invalid("negation cycle that remains once ground")
        for r in comp:
            model[r] = under[r]

    def run(self, model, cls):
        for comp, c, neg_inside, rules in self.comps:
            if c == cls:
                self.eval_comp(comp, neg_inside, rules, model)
        return model

    # ---- the game

    def start(self):
        self.static = self.run({}, 0)
        roles = self.static.get('role', set())
        self.roles = sorted(a[0] for a in roles)
        init = frozenset(a[0] for a in self.static.get('init', ()))
        return init

    def state_model(self, state):
        model = dict(self.static)
        model['true'] = {(x,) for x in state}
        return self.run(model, 1)

    def legal_terminal(self, model):
        terminal = () in model.get('terminal', set())
        legal = model.get('legal', set())
        lists = [sorted({m for (r, m) in legal if r == role}, key=repr)
                 for role in self.roles]
        return terminal, lists

    def next_state(self, model, joint):
        m = dict(model)
        m['does'] = {(r, x) for r, x in zip(self.roles, joint)}
        m = self.run(m, 2)
        return frozenset(a[0] for a in m.get('next', ()))


def perft_all(prog, depth, seconds):
    prog.deadline = time.time() + seconds
    init = prog.start()
    info = {}    # state -> (terminal, lists, model)
    memo = {}

    def node(s):
        v = info.get(s)
        if v is None:
            model = prog.state_model(s)
            t, lists = prog.legal_terminal(model)
            v = (t, lists, model, {})
            info[s] = v
        return v

    def children(s):
        t, lists, model, kids = node(s)
        if 'all' not in kids:
            out = []
            joints = [[]]
            for l in lists:
                joints = [j + [m] for j in joints for m in l]
            for j in joints:
                prog.tick()
                out.append(prog.next_state(model, j))
            kids['all'] = out
        return kids['all']

    def perft(s, d):
        if d == 0:
            return 1
        key = (s, d)
        if key in memo:
            return memo[key]
        t, lists, _, _ = node(s)
        if t or any(not l for l in lists):
            n = 0
        elif d == 1:
            n = 1
            for l in lists:
                n *= len(l)
        else:
            n = sum(perft(c, d - 1) for c in children(s))
        memo[key] = n
        return n

    for d in range(1, depth + 1):
        n = perft(init, d)
        print(d, n, flush=True)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('sheet')
    ap.add_argument('--depth', type=int, default=3)
    ap.add_argument('--seconds', type=float, default=60.0)
    a = ap.parse_args(argv)
    sys.setrecursionlimit(100000)
    try:
        with open(a.sheet, encoding='utf-8', errors='replace') as f:
            text = f.read()
        prog = Program(text)
        if prog.relational_cycle:
            print('note: negation cycle between relations, none once ground',
                  flush=True)
        perft_all(prog, a.depth, a.seconds)
    except Invalid as e:
        print('invalid:', e, flush=True)
        return 2
    except Timeout:
        print('timeout', flush=True)
        return 3
    except RecursionError:
        print('error: recursion too deep', flush=True)
        return 4
    except MemoryError:
        print('error: out of memory', flush=True)
        return 4
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
