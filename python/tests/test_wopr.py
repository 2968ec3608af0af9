"""Tests of the `wopr` Python package (`pip install ./python`, then
`python -m unittest discover -s python/tests` from the repository root).
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import wopr

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


class Games(unittest.TestCase):
    def test_every_registered_game_loads_and_plays_to_the_end(self):
        self.assertEqual(
            sorted(wopr.registered_games()),
            sorted(
                ["tictactoe", "connect4", "dots-and-boxes", "reversi", "virus", "breakthrough", "pig", "kuhn", "goofspiel"]
                # OpenSpiel's names of the games wopr plays as OpenSpiel does
                + ["tic_tac_toe", "connect_four", "kuhn_poker", "othello", "dots_and_boxes"]
            ),
        )
        rng = np.random.default_rng(1)
        for spec in wopr.registered_games():
            game = wopr.load_game(spec)
            state = game.new_initial_state()
            steps = 0
            while not state.is_terminal():
                if state.is_simultaneous_node():
                    n = game.num_players()
                    state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(n)])
                    steps += 1
                elif state.is_chance_node():
                    state.apply_action(int(rng.choice(state.legal_actions())))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
                    steps += 1
                # The players' moves (a joint move once): OpenSpiel's
                # max_game_length leaves chance out.
                self.assertLessEqual(steps, game.max_game_length(), spec)
            self.assertEqual(state.current_player(), wopr.TERMINAL_PLAYER_ID)
            # Zero-sum two-player games: the returns add up to 0.
            self.assertAlmostEqual(sum(state.returns()), 0.0, msg=spec)

    def test_tictactoe_top_row_wins_for_x(self):
        # Actions are the cells 0..8, row by row (OpenSpiel's numbering).
        game = wopr.load_game("tictactoe")
        state = game.new_initial_state()
        for a in [0, 3, 1, 4]:
            state.apply_action(a)
        self.assertFalse(state.is_terminal())
        self.assertEqual(state.current_player(), 0)
        self.assertEqual(state.legal_actions(), [2, 5, 6, 7, 8])
        self.assertEqual(list(state.legal_actions_mask()), [0, 0, 1, 0, 0, 1, 1, 1, 1])
        done = state.child(2)
        self.assertTrue(done.is_terminal())
        self.assertEqual(done.returns(), [1.0, -1.0])
        self.assertFalse(state.is_terminal(), "child leaves the state as it was")
        with self.assertRaises(ValueError):
            state.apply_action(0)  # taken
        with self.assertRaises(ValueError):
            state.apply_action(9)  # not a cell

    def test_states_serialize_clone_and_observe(self):
        game = wopr.load_game("connect4:6x6")
        state = game.new_initial_state()
        for a in [3, 3, 2]:
            state.apply_action(a)
        back = game.deserialize_state(state.serialize())
        self.assertEqual(back.serialize(), "3 3 2")
        self.assertEqual(str(back), str(state))
        copy = state.clone()
        copy.apply_action(0)
        self.assertEqual(state.history(), [3, 3, 2])
        obs = state.observation_tensor()
        self.assertEqual(obs.dtype, np.float32)
        self.assertEqual(list(obs.shape), game.observation_tensor_shape())
        # The `raw` encoding of 6x6: one input per cell, three stones down.
        self.assertEqual(game.observation_tensor_shape("raw"), [36])
        self.assertEqual(int(np.count_nonzero(state.observation_tensor("raw"))), 3)
        with self.assertRaises(ValueError):
            game.deserialize_state("3 x")
        with self.assertRaises(ValueError):
            wopr.load_game("connect4:0x0")


def cli(*args):
    """Standard output of the debug ``wopr`` binary, or None if not built."""
    exe = os.path.join(ROOT, "target", "debug", "wopr")
    if not os.path.exists(exe):
        return None
    return subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout


def perft(state, depth):
    """Action sequences of length ``depth`` through the Python API, counted
    as ``wopr perft`` counts them (chance outcomes are actions, a
    simultaneous turn's joint actions count once each)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if state.is_simultaneous_node():
        total = 0
        for a in state.legal_actions(0):
            for b in state.legal_actions(1):
                child = state.clone()
                child.apply_actions([a, b])
                total += perft(child, depth - 1)
        return total
    return sum(perft(state.child(a), depth - 1) for a in state.legal_actions())


class AgainstTheCommandLine(unittest.TestCase):
    def test_perft_through_python_equals_wopr_perft(self):
        cases = [("tictactoe", 5), ("connect4:6x6", 4), ("dots-and-boxes:2x2", 4),
                 ("reversi:6x6", 5), ("virus", 2), ("pig:target=10", 6), ("kuhn", 5),
                 ("goofspiel:cards=3", 4)]
        for spec, depth in cases:
            out = cli("perft", spec, str(depth))
            if out is None:
                self.skipTest("no wopr binary built (cargo build)")
            counts = [int(line.split()[1]) for line in out.split("\n") if line.strip()]
            state = wopr.load_game(spec).new_initial_state()
            self.assertEqual([perft(state, d) for d in range(1, depth + 1)], counts, spec)

    def test_random_games_agree_move_by_move_with_wopr_position(self):
        rng = np.random.default_rng(4)
        for spec in ["tictactoe", "connect4:6x6", "dots-and-boxes:2x2", "reversi:6x6", "virus"]:
            state = wopr.load_game(spec).new_initial_state()
            for _ in range(12):
                if state.is_terminal():
                    break
                moves = " ".join(str(a) for a in state.history())
                out = cli("position", spec, "--actions", moves, "--json")
                if out is None:
                    self.skipTest("no wopr binary built (cargo build)")
                pos = json.loads(out)
                self.assertEqual([m["action"] for m in pos["legal"]], state.legal_actions(), spec)
                self.assertEqual(pos["to_move"], state.current_player())
                state.apply_action(int(rng.choice(state.legal_actions())))

    def test_batched_playouts_are_deterministic_and_zero_sum(self):
        a = wopr.playouts("connect4:6x6", 500, seed=3)
        self.assertEqual(a, wopr.playouts("connect4:6x6", 500, seed=3))
        self.assertEqual(a["games"], 500)
        # Every game has at least the 7 moves of the quickest win, at most 36.
        self.assertTrue(7 * 500 <= a["actions"] <= 36 * 500)
        self.assertEqual(sum(a["returns"]), 0.0)


class Gdl(unittest.TestCase):
    def test_a_gdl_sheet_is_a_game_like_any_other(self):
        sheet = os.path.join(ROOT, "gdl", "tictactoe.kif")
        game = wopr.load_game(f"gdl:{sheet}")
        state = game.new_initial_state()
        native = wopr.load_game("tictactoe").new_initial_state()
        self.assertEqual([perft(state, d) for d in range(1, 5)], [perft(native, d) for d in range(1, 5)])
        # The facts encoding: two mover inputs, 29 ground base facts.
        self.assertEqual(game.observation_tensor_shape(), [31])
        self.assertEqual(state.action_to_string(state.legal_actions()[0]), "mark(1,1)")
        row = wopr.eval(game, "alphabeta:depth=9", "random", games=20, seed=2)[0]
        self.assertEqual(row["as_first"]["losses"] + row["as_second"]["losses"], 0)
        kuhn = wopr.load_game(f"gdl:{os.path.join(ROOT, 'gdl', 'kuhn.kif')}")
        with self.assertRaises(ValueError):
            kuhn.new_initial_state().observation_tensor()
        with self.assertRaises(ValueError):
            wopr.load_game("gdl:/no/such/sheet.kif")
        self.assertNotIn("gdl", wopr.registered_games())


class Examples(unittest.TestCase):
    def test_the_readmes_learner_learns_against_mcts(self):
        import importlib.util

        path = os.path.join(ROOT, "python", "examples", "learn_against_mcts.py")
        spec = importlib.util.spec_from_file_location("learn_against_mcts", path)
        example = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(example)
        before, after = example.main(["--games", "3000"])
        # Seeded: from about 14% to about 72% at 3,000 games (200 games each).
        self.assertGreater(after, before + 0.3)


class Stubs(unittest.TestCase):
    def test_the_type_stubs_name_exactly_what_the_module_has(self):
        import ast
        from wopr import _wopr

        path = os.path.join(os.path.dirname(wopr.__file__), "_wopr.pyi")
        with open(path) as f:
            tree = ast.parse(f.read())
        stubbed = {}
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                stubbed[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            elif isinstance(node, ast.FunctionDef):
                stubbed[node.name] = None
        public = {n for n in dir(_wopr) if not n.startswith("_")}
        self.assertEqual(set(stubbed), public)
        for name, methods in stubbed.items():
            if methods is None or issubclass(getattr(_wopr, name), BaseException):
                continue
            native = {m for m in dir(getattr(_wopr, name)) if not m.startswith("_")}
            self.assertEqual({m for m in methods if not m.startswith("_") or m == "__init__"} - {"__init__"}, native, name)
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(path), "py.typed")))


class Players(unittest.TestCase):
    def test_perfect_play_never_loses_tictactoe(self):
        rows = wopr.eval("tictactoe", "perfect", ["random", "alphabeta:depth=2"], games=40, seed=3)
        self.assertEqual([r["opponent"] for r in rows], ["random", "alphabeta:depth=2"])
        for r in rows:
            self.assertEqual(r["as_first"]["losses"] + r["as_second"]["losses"], 0)
            self.assertEqual(r["games"], 40)

    def test_eval_gives_the_command_lines_numbers(self):
        exe = os.path.join(ROOT, "target", "debug", "wopr")
        if not os.path.exists(exe):
            self.skipTest("no wopr binary built (cargo build)")
        args = ["--player", "alphabeta:depth=2", "--against", "random", "--games", "30", "--seed", "9"]
        out = subprocess.run(
            [exe, "eval", "--game", "connect4:6x6", *args, "--openings", "plies=2", "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        cli = json.loads(out.splitlines()[0])
        py = wopr.eval("connect4:6x6", "alphabeta:depth=2", "random", games=30, seed=9, openings="plies=2")[0]
        self.assertEqual(py, cli)

    def test_tournament_gives_the_command_lines_numbers(self):
        players = ["perfect", "alphabeta:depth=1", "random"]
        t = wopr.tournament("tictactoe", players, games=20, seed=5)
        # A round robin of three: each pairing's 20 games, once per side.
        self.assertEqual(t["games"], 60)
        self.assertEqual(t["ratings"][0]["player"], "perfect")
        exe = os.path.join(ROOT, "target", "debug", "wopr")
        if not os.path.exists(exe):
            self.skipTest("no wopr binary built (cargo build)")
        out = subprocess.run(
            [exe, "tournament", "--game", "tictactoe", "--players", ",".join(players),
             "--games", "20", "--seed", "5", "--json"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        self.assertEqual(t, json.loads(out))

    def test_a_player_steps_a_legal_move_and_finds_the_win(self):
        game = wopr.load_game("tictactoe")
        state = game.new_initial_state()
        for a in [0, 3, 1, 4]:
            state.apply_action(a)
        self.assertEqual(wopr.Player("alphabeta:depth=2", game).step(state), 2)
        with self.assertRaises(ValueError):
            wopr.Player("nosuchplayer", game)


class Nets(unittest.TestCase):
    def test_a_champion_loads_and_its_batch_forward_is_row_by_row(self):
        net = wopr.Net.load(os.path.join(ROOT, "champions", "connect4-6x6-cmaes.json"))
        self.assertGreater(net.weights.size, 0)
        x = np.random.default_rng(0).normal(size=(5, net.num_inputs())).astype(np.float32)
        y = net.forward(x)
        self.assertEqual(y.shape, (5, net.num_outputs()))
        for i in range(5):
            np.testing.assert_array_equal(net.forward(x[i]), y[i])
        with self.assertRaises(ValueError):
            net.forward(np.zeros(net.num_inputs() + 1))


class Runs(unittest.TestCase):
    CONFIG = {
        "game": "tictactoe",
        "seed": 4,
        "net": {"hidden": [3]},
        "algorithm": {"kind": "ga", "population": 6},
        "fitness": {"scheme": "fixed", "opponents": ["random"]},
        "stop": {"generations": 2},
    }

    def test_a_dict_config_runs_to_its_champion_and_reproduces(self):
        with tempfile.TemporaryDirectory() as tmp:
            calls = []
            a = wopr.run(self.CONFIG, os.path.join(tmp, "a"), progress=lambda *x: calls.append(x))
            b = wopr.run(self.CONFIG, os.path.join(tmp, "b"))
            with open(a) as fa, open(b) as fb:
                self.assertEqual(fa.read(), fb.read())
            with open(os.path.join(tmp, "a", "generations.csv")) as f:
                self.assertEqual(len(f.read().splitlines()), 3)
            self.assertTrue(calls and calls[0][0] == "generations")
            with self.assertRaises(ValueError):
                wopr.run({"game": "tictactoe", "algorithm": {"kind": "nope"}}, os.path.join(tmp, "c"))


    def test_a_pretrain_config_makes_its_pool(self):
        config = {
            "game": "virus",
            "seed": 3,
            "learner": {
                "kind": "pretrain",
                "teachers": ["ai:1", "ai:2"],
                "per_teacher": 2,
                "positions": 20,
                "epochs": 2,
            },
        }
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "pool")
            champion = wopr.run(config, out)
            with open(os.path.join(out, "pool.json")) as f:
                pool = json.load(f)
            # Two teachers × two nets, the champion among them.
            self.assertEqual(len(pool["nets"]), 4)
            self.assertTrue(os.path.exists(champion))

    def test_ctrl_c_stops_a_run_at_a_checkpoint_and_it_resumes(self):
        import signal
        import threading

        signal.signal(signal.SIGINT, signal.default_int_handler)
        td = {
            "game": "tictactoe",
            "seed": 2,
            "learner": {"kind": "td", "encoding": "planes"},
            "stop": {"games": 10**9},
            "yardsticks": {"every": 5000},
        }
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "td")
            timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
            timer.start()
            with self.assertRaises(KeyboardInterrupt):
                wopr.run(td, out)
            with open(os.path.join(out, "state.json")) as f:
                done = json.load(f)["done"]
            self.assertGreater(done, 0)
            self.assertEqual(done % 5000, 0, "stopped at a checkpoint")
            td["stop"]["games"] = done + 5000
            champion = wopr.run(td, out)
            with open(os.path.join(out, "state.json")) as f:
                self.assertEqual(json.load(f)["done"], done + 5000)
            self.assertTrue(os.path.exists(champion))


class PettingZoo(unittest.TestCase):
    def test_the_aec_environment_passes_pettingzoos_api_test(self):
        try:
            from pettingzoo.test import api_test
        except ImportError:
            self.skipTest("pettingzoo is not installed")
        import wopr.pettingzoo

        # Every two-player game: board games, chance (pig, kuhn), hidden
        # cards (kuhn) and simultaneous bids (goofspiel).
        two_player = [g for g in wopr.registered_games() if wopr.load_game(g).num_players() == 2]
        self.assertIn("goofspiel", two_player)
        for spec in two_player + ["dots-and-boxes:2x2", "reversi:6x6"]:
            api_test(wopr.pettingzoo.env(spec), num_cycles=100, verbose_progress=False)

    def test_goofspiel_bids_are_applied_together_and_kuhn_hides_the_other_card(self):
        import wopr.pettingzoo

        env = wopr.pettingzoo.env("goofspiel:cards=3")
        env.reset(seed=5)
        self.assertEqual(env.agent_selection, "player_0")
        before = env.observe("player_1")["observation"].copy()
        env.step(2)  # player_0 bids its 3
        self.assertEqual(env.agent_selection, "player_1")
        # player_1 cannot see the pending bid: its hand view of player_0 is unchanged.
        np.testing.assert_array_equal(env.observe("player_1")["observation"], before)
        env.step(0)  # player_1 bids its 1: player_0 takes the prize
        self.assertEqual(env.state.history()[1:3], [2, 0])
        obs = env.observe("player_0")["observation"]
        self.assertEqual(list(obs[:3]), [1.0, 1.0, 0.0])  # the 3 left player_0's hand
        self.assertGreater(obs[-2], 0.0)

        env = wopr.pettingzoo.env("kuhn")
        env.reset(seed=1)
        deal = env.state.history()
        for seat, agent in enumerate(env.possible_agents):
            cards = env.observe(agent)["observation"][2:5]
            self.assertEqual(list(np.flatnonzero(cards)), [deal[seat]])


if __name__ == "__main__":
    unittest.main()


class FirstLegal:
    """A Python player: the lowest legal action (what wopr's `first` plays)."""

    name = "py-first"

    def __init__(self):
        self.steps = 0

    def step(self, state):
        self.steps += 1
        return state.legal_actions()[0]


class PythonPlayers(unittest.TestCase):
    """Python objects with `step(state)` in wopr's matches (issue 45, part 4)."""

    def test_a_python_player_plays_the_games_its_spec_twin_plays(self):
        bot = FirstLegal()
        for game in ("tictactoe", "connect4:6x6"):
            ours = wopr.eval(game, bot, ["random", "alphabeta:depth=2"], games=12, seed=5, openings="plies=2")
            twin = wopr.eval(game, "first", ["random", "alphabeta:depth=2"], games=12, seed=5, openings="plies=2")
            for a, b in zip(ours, twin):
                self.assertEqual(a["player"], "py-first")
                self.assertEqual(a["player_resolved"], "py-first")
                for key in ("as_first", "as_second", "score", "games"):
                    self.assertEqual(a[key], b[key], f"{game}: {key}")
        self.assertGreater(bot.steps, 0)
        # As the opponent too, and an object without a name is named by its class.
        class Anon:
            def step(self, state):
                return state.legal_actions()[0]

        row = wopr.eval("tictactoe", "perfect", Anon(), games=4, seed=1)[0]
        self.assertEqual(row["opponent"], "python:Anon")
        self.assertEqual(row["as_first"]["losses"] + row["as_second"]["losses"], 0)

    def test_a_failing_python_player_ends_the_match_with_its_name(self):
        class Raises:
            name = "raiser"

            def step(self, state):
                raise RuntimeError("boom")

        class Illegal:
            name = "illegal"

            def step(self, state):
                return 99

        with self.assertRaisesRegex(wopr.SpielError, "raiser: step raised RuntimeError: boom"):
            wopr.eval("tictactoe", Raises(), "random", games=2)
        with self.assertRaisesRegex(wopr.SpielError, "illegal: step returned 99"):
            wopr.eval("tictactoe", Illegal(), "random", games=2)
        with self.assertRaisesRegex(ValueError, "see the whole state"):
            wopr.eval("kuhn", FirstLegal(), "random", games=2)
        with self.assertRaises(TypeError):
            wopr.eval("tictactoe", 3, "random", games=2)

    def test_a_python_player_in_a_tournament_plays_its_spec_twins_games(self):
        bot = FirstLegal()
        ours = wopr.tournament("tictactoe", [bot, "random", "alphabeta:depth=2"], games=8, seed=2, anchor=bot)
        twin = wopr.tournament("tictactoe", ["first", "random", "alphabeta:depth=2"], games=8, seed=2)
        self.assertEqual(ours["players"], ["py-first", "random", "alphabeta:depth=2"])
        self.assertEqual(ours["resolved"][0], "py-first")
        for key in ("games", "distinct_games", "cross"):
            self.assertEqual(ours[key], twin[key], key)


class WithoutOpenSpiel(unittest.TestCase):
    def test_get_type_and_spielerror_stand_alone_without_pyspiel(self):
        # pyspiel made unimportable: wopr's own GameType, a SpielError on
        # ValueError alone.
        code = (
            "import sys; sys.modules['pyspiel'] = None\n"
            "import wopr\n"
            "t = wopr.load_game('kuhn_poker').get_type()\n"
            "print(type(t).__module__, t.short_name, t.dynamics.name, t.chance_mode.name,\n"
            "      t.information.name, t == t, t.dynamics == wopr.GameType.Dynamics.SEQUENTIAL,\n"
            "      [b.__name__ for b in wopr.SpielError.__bases__])\n"
        )
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
        self.assertEqual(
            out.stdout.split(),
            ["wopr._spiel", "kuhn_poker", "SEQUENTIAL", "EXPLICIT_STOCHASTIC", "IMPERFECT_INFORMATION",
             "True", "True", "['ValueError']"],
        )
