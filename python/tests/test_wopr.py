"""Tests of the `wopr` Python package (`pip install ./python`, then
`python -m unittest discover -s python/tests` from the repository root).
"""

import json
import os
import subprocess
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
                ["tictactoe", "connect4", "dots-and-boxes", "reversi", "virus", "pig", "kuhn", "goofspiel"]
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
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
                steps += 1
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

        for spec in ["tictactoe", "connect4:6x6", "dots-and-boxes:2x2", "reversi:6x6"]:
            api_test(wopr.pettingzoo.env(spec), num_cycles=100, verbose_progress=False)
        with self.assertRaises(ValueError):
            wopr.pettingzoo.env("goofspiel")


if __name__ == "__main__":
    unittest.main()
