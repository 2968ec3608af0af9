"""OpenSpiel's names mean OpenSpiel's games, query by query (issue 67, part 3).

For every game both libraries have, loaded by OpenSpiel's game string, seeded
random games are played in pyspiel's game, in `wopr.load_game`'s and in
`wopr.openspiel.load_game`'s at once, and at every node, for every player and
every observer type that OpenSpiel's `make_observation` accepts, each of these
is compared with pyspiel's, exactly (floats and strings):

- `str(state)`, `observation_string(player)`, `information_state_string(player)`;
- `observation_tensor(player)`, `information_state_tensor(player)`;
- `make_observation(game, iig_obs_type, params)`: its tensor, the names and
  shapes of its `dict`, `set_from` and `string_from`;
- `action_to_string(player, action)` for each legal action of each seat, for
  chance outcomes (player -1) and for flat joint actions (player -2), and
  `string_to_action` of the mover's names;
- the game's `observation_tensor_shape/size` and
  `information_state_tensor_shape/size`.

A query pyspiel refuses (an exception) must be refused by wopr too. Every
expected value is pyspiel's, computed beside wopr's. They need `pip install
open_spiel`; WOPR_NO_OPENSPIEL=1 skips them where it cannot be had (CI
installs it). `python python/tests/test_openspiel_fidelity.py --count`
prints the number of differences over every game, seed and query.
"""

import contextlib
import os
import random
import sys
import unittest

import numpy as np

import wopr

try:
    import pyspiel
    from open_spiel.python.observation import make_observation

    from wopr import openspiel as wopr_openspiel
except ImportError as e:  # pragma: no cover - depends on the machine
    pyspiel = None
    NO_PYSPIEL = str(e)


# The games both libraries have, in a few parameterisations each: (OpenSpiel
# game string, seeded random games played).
GAMES = [
    ("tic_tac_toe", 20),
    ("connect_four", 20),
    ("connect_four(rows=5,columns=6)", 20),
    ("connect_four(egocentric_obs_tensor=true)", 10),
    ("othello", 20),
    ("dots_and_boxes", 20),
    ("dots_and_boxes(num_rows=3,num_cols=3)", 20),
    ("dots_and_boxes(num_rows=2,num_cols=3)", 20),
    ("kuhn_poker", 20),
    ("goofspiel(num_cards=4)", 20),
    ("goofspiel(num_cards=6)", 20),
    ("goofspiel()", 20),
    ("pig(winscore=20,horizon=40)", 20),
    ("pig(winscore=10)", 20),
    ("breakthrough()", 10),
    ("breakthrough(rows=6,columns=5)", 10),
]


def observer_types():
    """`None` (the default observer) and every `IIGObservationType`."""
    P = pyspiel.PrivateInfoType
    types = [("default", None)]
    for pub in (False, True):
        for rec in (False, True):
            for priv in (P.NONE, P.SINGLE_PLAYER, P.ALL_PLAYERS):
                t = pyspiel.IIGObservationType(public_info=pub, perfect_recall=rec, private_info=priv)
                types.append((f"public={pub},recall={rec},private={priv.name}", t))
    return types


# Observer parameters OpenSpiel's games take: none, and the registered
# "single_tensor" observer; Goofspiel's `egocentric`.
PARAMS = [{}, {"name": "single_tensor"}, {"egocentric": True}]


def outcome(f):
    """What `f()` gives, or the exception's class when it raises."""
    try:
        return ("ok", f())
    except Exception as e:  # noqa: BLE001 - any refusal counts as a refusal
        return ("raises", None)


def values(v):
    """A tensor's float32 values as bytes (equal exactly when the values are)."""
    return None if v is None else np.asarray(v, dtype=np.float32).ravel().tobytes()


class Comparison:
    """Differences between pyspiel's game and wopr's ones, query by query."""

    def __init__(self, name):
        self.name = name
        self.p_game = pyspiel.load_game(name)
        self.w_games = {"wopr": wopr.load_game(name), "wopr.openspiel": wopr_openspiel.load_game(name)}
        self.diffs = []
        self.queries = 0
        # The queries pyspiel refused once: later, wopr must refuse them too
        # (without asking pyspiel again, which prints each refusal).
        self.refused = set()
        self.observers = []
        for label, t in observer_types():
            for params in PARAMS:
                p = outcome(lambda: make_observation(self.p_game, t, dict(params)))
                ws = {k: outcome(lambda g=g: make_observation(g, t, dict(params))) for k, g in self.w_games.items()}
                self.observers.append((f"{label} {params}", p, ws))

    def check(self, where, query, want, got, lib):
        self.queries += 1
        if want != got:
            self.diffs.append(f"{self.name} [{lib}] {where}: {query}: pyspiel {want!r}, wopr {got!r}")

    def compare_game(self):
        for lib, g in self.w_games.items():
            for q in (
                "observation_tensor_shape",
                "observation_tensor_size",
                "information_state_tensor_shape",
                "information_state_tensor_size",
            ):
                want = outcome(lambda: list(np.atleast_1d(getattr(self.p_game, q)())))
                got = outcome(lambda: list(np.atleast_1d(getattr(g, q)())))
                self.check("game", q, want, got, lib)
            for label, p, ws in self.observers:
                w = ws[lib]
                self.check("game", f"make_observation({label}) accepted", p[0], w[0], lib)
                if p[0] != "ok" or w[0] != "ok":
                    continue
                po, wo = p[1], w[1]
                self.check("game", f"make_observation({label}) is None", po is None, wo is None, lib)
                if po is None or wo is None:
                    continue
                self.check("game", f"make_observation({label}).tensor is None", po.tensor is None, wo.tensor is None, lib)
                pd = [(k, tuple(v.shape)) for k, v in po.dict.items()]
                wd = [(k, tuple(np.asarray(v).shape)) for k, v in wo.dict.items()]
                self.check("game", f"make_observation({label}).dict", pd, wd, lib)

    def same(self, where, query, ask_pyspiel, ask_wopr, lib):
        """Checks that wopr answers `query` as pyspiel does (both refusing
        counts as the same answer)."""
        if query in self.refused:
            want = ("raises", None)
        else:
            want = outcome(ask_pyspiel)
            if want[0] == "raises":
                self.refused.add(query)
        self.check(where, query, want, outcome(ask_wopr), lib)

    def compare_state(self, p, ws, history):
        where = f"after {history}"
        n = self.p_game.num_players()
        for lib, w in ws.items():
            self.check(where, "str(state)", str(p), str(w), lib)
            for seat in range(n):
                for q in ("observation_string", "information_state_string"):
                    self.same(where, f"{q}({seat})", lambda: getattr(p, q)(seat), lambda: getattr(w, q)(seat), lib)
                for q in ("observation_tensor", "information_state_tensor"):
                    self.same(where, f"{q}({seat})", lambda: values(getattr(p, q)(seat)),
                              lambda: values(getattr(w, q)(seat)), lib)
                # wopr.openspiel's observers are wopr's, wrapped: compared
                # along the games for wopr's, at the start for both.
                if lib == "wopr.openspiel" and history:
                    continue
                for label, po, wos in self.observers:
                    wo = wos[lib]
                    if po[0] != "ok" or wo[0] != "ok" or po[1] is None or wo[1] is None:
                        continue
                    po, wo = po[1], wo[1]

                    def tensor(o, s):
                        o.set_from(s, seat)
                        return values(o.tensor)

                    self.same(where, f"observer {label} tensor({seat})",
                              lambda: tensor(po, p), lambda: tensor(wo, w), lib)
                    self.same(where, f"observer {label} string_from({seat})",
                              lambda: po.string_from(p, seat), lambda: wo.string_from(w, seat), lib)
            # Every action's name: each seat's legal actions, chance outcomes,
            # flat joint actions.
            names = []
            if p.is_chance_node():
                names += [(-1, a) for a, _ in p.chance_outcomes()]
            elif p.is_simultaneous_node():
                names += [(-2, a) for a in p.legal_actions()]
                names += [(seat, a) for seat in range(n) for a in p.legal_actions(seat)]
            elif not p.is_terminal():
                names += [(seat, a) for seat in range(n) for a in p.legal_actions()]
            for player, a in names:
                self.same(where, f"action_to_string({player}, {a})",
                          lambda: p.action_to_string(player, a), lambda: w.action_to_string(player, a), lib)
            if not p.is_terminal():
                for a in p.legal_actions():
                    self.same(where, f"action_to_string({a})",
                              lambda: p.action_to_string(a), lambda: w.action_to_string(a), lib)
                    if lib == "wopr":
                        # And back: the action an OpenSpiel name names.
                        text = p.action_to_string(a)
                        self.same(where, f"string_to_action({text!r})",
                                  lambda: p.string_to_action(text), lambda: w.string_to_action(text), lib)

    def play(self, seed):
        """One seeded random game in all three, compared at every node."""
        rng = random.Random(seed)
        p = self.p_game.new_initial_state()
        ws = {k: g.new_initial_state() for k, g in self.w_games.items()}
        while True:
            self.compare_state(p, ws, p.history())
            if p.is_terminal():
                return
            if p.is_chance_node():
                outcomes, probs = zip(*p.chance_outcomes())
                a = rng.choices(outcomes, probs)[0]
                for s in [p, *ws.values()]:
                    s.apply_action(a)
            elif p.is_simultaneous_node():
                joint = [rng.choice(p.legal_actions(seat)) for seat in range(self.p_game.num_players())]
                for s in [p, *ws.values()]:
                    s.apply_actions(joint)
            else:
                a = rng.choice(p.legal_actions())
                for s in [p, *ws.values()]:
                    s.apply_action(a)


@contextlib.contextmanager
def quiet_stderr():
    """Silences the C++ side's standard error: pyspiel prints every
    SpielError it raises ("OpenSpiel exception: ..."), and refusals are
    expected here."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def compare(name, games):
    with quiet_stderr():
        c = Comparison(name)
        c.compare_game()
        for seed in range(games):
            c.play(seed)
    return c


class OpenSpielFidelity(unittest.TestCase):
    def setUp(self):
        if pyspiel is None:
            if os.environ.get("WOPR_NO_OPENSPIEL"):
                self.skipTest(f"open_spiel is not installed ({NO_PYSPIEL}) and WOPR_NO_OPENSPIEL is set")
            self.fail(
                f"open_spiel is not installed ({NO_PYSPIEL}): pip install open_spiel, "
                "or set WOPR_NO_OPENSPIEL=1 to skip these tests"
            )

    def test_every_query_equals_pyspiels_along_seeded_random_games(self):
        for name, games in GAMES:
            with self.subTest(game=name):
                c = compare(name, games)
                self.assertGreater(c.queries, 1000, name)
                self.assertEqual(c.diffs[:10], [], f"{name}: {len(c.diffs)} differences")

    def test_wopr_names_keep_woprs_encodings(self):
        # wopr's specs are wopr's games: wopr's encodings and strings.
        g = wopr.load_game("tictactoe")
        self.assertEqual(g.observation_tensor_shape(), [g.observation_tensor_size()])
        self.assertNotEqual(g.observation_tensor_size(), 27)
        self.assertEqual(wopr.load_game("tic_tac_toe").observation_tensor_shape(), [3, 3, 3])
        s = g.new_initial_state()
        s.apply_action(4)
        self.assertNotEqual(s.action_to_string(0, 4), "x(1,1)")
        os_state = wopr.load_game("tic_tac_toe").new_initial_state()
        os_state.apply_action(4)
        self.assertEqual(os_state.action_to_string(0, 4), "x(1,1)")
        # wopr's encodings stay reachable by name under OpenSpiel's names.
        raw = os_state.observation_tensor(0, encoding=g.encodings()[0])
        self.assertEqual(list(raw), list(s.observation_tensor(0)))


if __name__ == "__main__":
    if "--count" in sys.argv:
        total_diffs = total_queries = 0
        for name, games in GAMES:
            c = compare(name, games)
            total_diffs += len(c.diffs)
            total_queries += c.queries
            print(f"{name}: {games} games, {c.queries} queries, {len(c.diffs)} differences")
            for d in c.diffs[:5]:
                print("   ", d[:300])
        print(f"total: {total_queries} queries, {total_diffs} differences")
        sys.exit(1 if total_diffs else 0)
    unittest.main()
