"""OpenSpiel's names mean OpenSpiel's games in its API too (issue 67, parts 3 and 4).

`test_openspiel_fidelity` compares what a learner reads (strings, tensors,
observers). This file compares the rest of the API a program written for
pyspiel touches, for every OpenSpiel game string wopr loads, in
`wopr.load_game(name)` and `wopr.openspiel.load_game(name)` against
`pyspiel.load_game(name)`:

- the game: `get_parameters()`, every field of `get_type()`, `str(game)`,
  `pickle` and `copy.deepcopy` of the game;
- along seeded random games, at every node: `str`, `history`,
  `history_str`, `move_number`, `current_player()` and the node kind,
  `legal_actions()` and `legal_actions(p)` for p = -1, -2, -3, -4, every
  seat and one past the last, `legal_actions_mask` of the same players,
  `chance_outcomes()`, `returns()`, `rewards()`, `serialize()` (the same
  text), `deserialize_state` of that text, `serialize_game_and_state` (the
  same text, and read back by both libraries), `pickle` and `copy.deepcopy`
  of the state (the same `str` and `history`).

Where pyspiel raises (`chance_outcomes()` at a player's node, Goofspiel's
`legal_actions(-1)` at a simultaneous node), wopr must raise a
pyspiel.SpielError too; where pyspiel answers, wopr must answer the same.

Every expected value is pyspiel's, computed beside wopr's. The checks need
`pip install open_spiel` (CI installs it); WOPR_NO_OPENSPIEL=1 skips them.

Part 4 is at the end: a count or seed out of range is a ValueError naming the
value given, and a chance outcome that is not one is named in the caller's
numbering.
"""

import contextlib
import copy
import os
import pickle
import random
import sys
import tempfile
import unittest

import wopr

try:
    import pyspiel

    from wopr import openspiel as wopr_openspiel
except ImportError as e:  # pragma: no cover - depends on the machine
    pyspiel = None
    NO_PYSPIEL = str(e)


# Every OpenSpiel game string wopr loads, in its default form and a few
# others: (game string, seeded random games played). Bare `goofspiel` and
# `pig` are wopr's specs (its own versions of the games); with parentheses,
# `goofspiel()` and `pig()`, they are OpenSpiel's game strings.
GAMES = [
    ("tic_tac_toe", 10),
    ("connect_four", 10),
    ("connect_four(rows=5,columns=6)", 5),
    ("connect_four(egocentric_obs_tensor=true)", 3),
    ("othello", 10),
    ("dots_and_boxes", 10),
    ("dots_and_boxes(num_rows=2,num_cols=3)", 5),
    ("kuhn_poker", 10),
    ("kuhn_poker(players=2)", 5),
    ("goofspiel()", 10),
    ("goofspiel(num_cards=4)", 10),
    ("goofspiel(num_cards=6,points_order=random)", 5),
    ("pig()", 10),
    ("pig(winscore=20,horizon=40)", 5),
    ("breakthrough()", 5),
    ("breakthrough(rows=6,columns=5)", 5),
]

# The `GameType` fields compared, each by value (enums by name).
TYPE_FIELDS = [
    "short_name",
    "long_name",
    "dynamics",
    "chance_mode",
    "information",
    "utility",
    "reward_model",
    "min_num_players",
    "max_num_players",
    "provides_information_state_string",
    "provides_information_state_tensor",
    "provides_observation_string",
    "provides_observation_tensor",
    "provides_factored_observation_string",
    "parameter_specification",
    "default_loadable",
]


@contextlib.contextmanager
def quiet_stderr():
    """Silences the C++ side's standard error while pyspiel is asked
    queries it refuses (it prints "OpenSpiel exception: ..." for each)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _value(v):
    """A GameType field as a comparable value: enums by name."""
    return getattr(v, "name", v)


def _answer(f):
    """What `f()` gives: ("value", v as a list where it is an array or a
    tuple), or ("raises", whether the error is a pyspiel.SpielError), which
    wopr's SpielError is."""
    try:
        v = f()
    except Exception as e:  # pylint: disable=broad-except
        return ("raises", isinstance(e, pyspiel.SpielError) if pyspiel else True)
    return ("value", v.tolist() if hasattr(v, "tolist") else list(v) if isinstance(v, tuple) else v)


#: The game's sizes, compared by name.
SIZES = (
    "num_distinct_actions",
    "max_chance_outcomes",
    "num_players",
    "min_utility",
    "max_utility",
    "max_game_length",
)


class OpenSpielApi(unittest.TestCase):
    def setUp(self):
        if pyspiel is None:
            if os.environ.get("WOPR_NO_OPENSPIEL"):
                self.skipTest(f"open_spiel is not installed ({NO_PYSPIEL}) and WOPR_NO_OPENSPIEL is set")
            self.fail(f"open_spiel is not installed ({NO_PYSPIEL}): pip install open_spiel")

    def games(self, name):
        """pyspiel's game `name` and wopr's two: (label, game) pairs."""
        return pyspiel.load_game(name), [
            ("wopr.load_game", wopr.load_game(name)),
            ("wopr.openspiel.load_game", wopr_openspiel.load_game(name)),
        ]

    def test_games_have_pyspiels_type_parameters_and_name(self):
        diffs = []
        for name, _ in GAMES:
            theirs, ours = self.games(name)
            want_type = theirs.get_type()
            for label, game in ours:
                where = f"{label}({name!r})"
                if game.get_parameters() != theirs.get_parameters():
                    diffs.append(f"{where}.get_parameters(): {game.get_parameters()} != {theirs.get_parameters()}")
                if str(game) != str(theirs):
                    diffs.append(f"{where} str: {str(game)!r} != {str(theirs)!r}")
                for size in SIZES:
                    got, want = getattr(game, size)(), getattr(theirs, size)()
                    if got != want:
                        diffs.append(f"{where}.{size}(): {got!r} != {want!r}")
                t = game.get_type()
                for field in TYPE_FIELDS:
                    got, want = _value(getattr(t, field)), _value(getattr(want_type, field))
                    if got != want:
                        diffs.append(f"{where}.get_type().{field}: {got!r} != {want!r}")
                for how, again in (
                    ("pickle", lambda g: pickle.loads(pickle.dumps(g))),
                    ("deepcopy", copy.deepcopy),
                ):
                    g = again(game)
                    if str(g) != str(theirs) or g.get_parameters() != theirs.get_parameters():
                        diffs.append(f"{where} after {how}: {str(g)!r} != {str(theirs)!r}")
        self.assertFalse(diffs, "\n".join(diffs))

    def test_sizes_of_boards_that_are_not_square(self):
        # OpenSpiel bounds dots_and_boxes' length by 2 x columns x
        # (rows + 1): 18 for 2 rows of 3 columns, where 17 lines exist.
        for rows, cols in ((2, 3), (3, 2), (1, 4), (3, 3)):
            name = f"dots_and_boxes(num_rows={rows},num_cols={cols})"
            theirs = pyspiel.load_game(name)
            for _, game in self.games(name)[1]:
                for size in SIZES:
                    self.assertEqual(getattr(game, size)(), getattr(theirs, size)(), f"{name} {size}")
        self.assertEqual(wopr.load_game("dots_and_boxes(num_rows=2,num_cols=3)").max_game_length(), 18)

    def test_bare_shared_names_are_openspiels_in_the_openspiel_module(self):
        # wopr.load_game("pig") is wopr's Pig; OpenSpiel's scripts mean
        # pyspiel's, and wopr.openspiel.load_game gives them that.
        for name in ("pig", "goofspiel"):
            theirs, ours = pyspiel.load_game(name), wopr_openspiel.load_game(name)
            self.assertEqual(str(ours), str(theirs))
            self.assertEqual(ours.get_parameters(), theirs.get_parameters())
            self.assertEqual(ours.num_distinct_actions(), theirs.num_distinct_actions())
            self.assertFalse(wopr.load_game(name).is_openspiel, name)

    def test_states_answer_as_pyspiels_along_seeded_games(self):
        diffs, nodes = [], 0
        for name, count in GAMES:
            theirs, ours = self.games(name)
            for seed in range(count):
                states = [(label, game, game.new_initial_state()) for label, game in ours]
                with quiet_stderr():
                    nodes += self.play(diffs, name, seed, theirs, states)
                if len(diffs) > 30:
                    break
        self.assertFalse(diffs, "\n".join(diffs))
        # Every game reached its end: at least one node a move.
        self.assertGreater(nodes, sum(count for _, count in GAMES) * 2 * 5)

    def play(self, diffs, name, seed, theirs, states):
        """Plays seed `seed`'s random game in pyspiel's `theirs` and in each
        of wopr's `states` at once, comparing at every node; the nodes
        compared."""
        n, nodes = theirs.num_players(), 0
        rng = random.Random(f"{name}/{seed}")
        want = theirs.new_initial_state()
        while True:
            for label, game, state in states:
                where = f"{label}({name!r}) seed {seed} after {want.history()}"
                self.compare_state(diffs, where, theirs, want, game, state, n)
                nodes += 1
            if want.is_terminal() or len(diffs) > 30:
                return nodes
            if want.is_chance_node():
                outcomes, probs = zip(*want.chance_outcomes())
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(want.legal_actions())
            want.apply_action(action)
            for _, _, state in states:
                state.apply_action(action)

    def compare_state(self, diffs, where, theirs, want, game, state, n):
        """Appends to `diffs` each query on which `state` (of `game`)
        answers otherwise than pyspiel's `want` (of `theirs`)."""

        def same(query, f_want, f_got):
            a, b = _answer(f_want), _answer(f_got)
            if a != b:
                diffs.append(f"{where}: {query}: wopr {b} != pyspiel {a}")

        same("str", lambda: str(want), lambda: str(state))
        for query in ("history", "current_player", "is_chance_node", "is_simultaneous_node"):
            same(query, getattr(want, query), getattr(state, query))
        same("legal_actions()", want.legal_actions, state.legal_actions)
        # pyspiel's `legal_actions_mask(-2)` at a simultaneous node writes
        # each flat joint action into a mask of `num_distinct_actions`
        # entries, past its end (open_spiel 2.0.2 then crashes the
        # interpreter): not asked there.
        simultaneous = want.is_simultaneous_node()
        for p in [-1, -2, -3, -4, n] + list(range(n)):
            same(f"legal_actions({p})", lambda: want.legal_actions(p), lambda: state.legal_actions(p))
            if p != -2 or not simultaneous:
                same(
                    f"legal_actions_mask({p})",
                    lambda: want.legal_actions_mask(p),
                    lambda: list(state.legal_actions_mask(p)),
                )
        if not want.is_terminal() and not simultaneous:
            same("legal_actions_mask()", want.legal_actions_mask, lambda: list(state.legal_actions_mask()))
        for query in (
            "chance_outcomes",
            "returns",
            "rewards",
            "history_str",
            "move_number",
            "is_initial_state",
            "is_player_node",
            "is_terminal",
        ):
            same(query, getattr(want, query), getattr(state, query))
        text = want.serialize()
        same("serialize", lambda: text, state.serialize)
        back = game.deserialize_state(text)
        if (str(back), back.history()) != (str(want), want.history()):
            diffs.append(f"{where}: deserialize_state(pyspiel's serialize()) is {back.history()}")
        whole = pyspiel.serialize_game_and_state(theirs, want)
        same("serialize_game_and_state", lambda: whole, lambda: wopr_openspiel.serialize_game_and_state(game, state))
        g, s = wopr_openspiel.deserialize_game_and_state(whole)
        if (str(g), str(s), s.history()) != (str(theirs), str(want), want.history()):
            diffs.append(f"{where}: deserialize_game_and_state gives {g} at {s.history()}")
        if not isinstance(game, wopr.Game):
            # pyspiel reads wopr.openspiel's text as its own game and state.
            g, s = pyspiel.deserialize_game_and_state(wopr_openspiel.serialize_game_and_state(game, state))
            if (str(g), s.history()) != (str(theirs), want.history()):
                diffs.append(f"{where}: pyspiel reads wopr's text as {g} at {s.history()}")
        for how, again in (("pickle", lambda s: pickle.loads(pickle.dumps(s))), ("deepcopy", copy.deepcopy)):
            c = again(state)
            if (str(c), c.history(), c.current_player()) != (str(want), want.history(), want.current_player()):
                diffs.append(f"{where}: after {how}: {c.history()}")


class CountsAndSeeds(unittest.TestCase):
    """Part 4: a negative count or seed is a ValueError naming the value
    given (not an OverflowError); so is a chance outcome that is not one,
    in the caller's numbering."""

    def assert_names(self, value, f):
        with self.assertRaises(ValueError) as caught:
            f()
        self.assertIn(str(value), str(caught.exception))
        return str(caught.exception)

    def test_negative_or_huge_counts_and_seeds_are_value_errors_naming_them(self):
        game = wopr.load_game("tictactoe")
        self.assert_names(-1, lambda: game.playouts(-1))
        self.assert_names(-1, lambda: wopr.playouts("tictactoe", -1))
        self.assert_names(-7, lambda: wopr.playouts(game, 3, seed=-7))
        self.assert_names(2**64, lambda: game.playouts(1, 2**64))
        self.assert_names(-1, lambda: wopr.eval(game, "random", "random", games=-1))
        self.assert_names(0, lambda: wopr.eval(game, "random", "random", games=0))
        self.assert_names(-1, lambda: wopr.eval(game, "random", "random", games=2, seed=-1))
        self.assert_names(-3, lambda: wopr.tournament(game, ["random", "random"], games=-3))
        self.assert_names(-1, lambda: wopr.Player("random", game, seed=-1))
        self.assert_names(-1, lambda: wopr.Player("random", game, -1))
        with tempfile.TemporaryDirectory() as out:
            self.assert_names(-1, lambda: wopr.run({}, out, seed=-1))

    def test_counts_and_seeds_in_range_still_work(self):
        game = wopr.load_game("tictactoe")
        self.assertEqual(game.playouts(3, 0)["games"], 3)
        self.assertEqual(game.playouts(2, 2**64 - 1)["games"], 2)
        self.assertEqual(game.playouts(0)["games"], 0)
        wopr.Player("random", game, seed=2**64 - 1)
        with self.assertRaises(TypeError):
            game.playouts(1.5)
        with self.assertRaises(TypeError):
            game.playouts(True)

    def test_an_illegal_pig_outcome_is_named_as_the_caller_numbered_it(self):
        for name in ("pig()", "pig(winscore=20)"):
            state = wopr.load_game(name).new_initial_state()
            state.apply_action(0)  # OpenSpiel's roll
            self.assertTrue(state.is_chance_node())
            message = self.assert_names(6, lambda: state.apply_action(6))
            self.assertNotIn("8", message)
            state.apply_action(5)  # a six, in OpenSpiel's numbering
            self.assertEqual(state.history(), [0, 5])


if __name__ == "__main__":
    unittest.main()
