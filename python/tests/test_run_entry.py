"""The library's one entry for runs and its optimal-move rate from Python:
``wopr.run`` and ``wopr.resume`` (``wopr run CONFIG`` and ``wopr run
--resume DIR``) and ``wopr.optimal_moves`` (``wopr eval --optimal-moves N
--json``), each compared with the command line where the debug binary is
built (``cargo build -p wopr-cli``)."""

import json
import os
import subprocess
import tempfile
import unittest

import wopr

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


def cli(*args):
    """Standard output of the debug ``wopr`` binary, or None if not built."""
    exe = os.path.join(ROOT, "target", "debug", "wopr")
    if not os.path.exists(exe):
        return None
    return subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout


class OptimalMoves(unittest.TestCase):
    def test_the_rate_is_the_command_lines(self):
        got = wopr.optimal_moves("tictactoe", "random", positions=200, seed=3)
        self.assertEqual(got["positions"], 200)
        self.assertEqual(got["seed"], 3)
        total = sum(got["by_value"][c]["positions"] for c in ("won", "drawn", "lost"))
        self.assertEqual(total, 200)
        self.assertAlmostEqual(got["rate"], got["optimal"] / 200)
        out = cli("eval", "--game", "tictactoe", "--player", "random",
                  "--optimal-moves", "200", "--seed", "3", "--json")
        if out is None:
            self.skipTest("target/debug/wopr is not built")
        self.assertEqual(got, json.loads(out))

    def test_the_perfect_player_is_always_optimal_on_any_form_of_the_game(self):
        # The perfect player plays one of the solver's best moves by
        # construction, so it is optimal on every position, and the game's
        # forms (wopr's spec, OpenSpiel's name, a loaded game) are one game.
        for game in ("tictactoe", "tic_tac_toe", wopr.load_game("tictactoe")):
            got = wopr.optimal_moves(game, "perfect", positions=50, seed=1)
            self.assertEqual((got["optimal"], got["value_kept"]), (50, 50), game)
            self.assertEqual(got["rate"], 1.0)

    def test_bad_arguments_are_value_errors_naming_them(self):
        with self.assertRaisesRegex(ValueError, "positions=0"):
            wopr.optimal_moves("tictactoe", "random", positions=0)
        with self.assertRaisesRegex(ValueError, "no exact solver"):
            wopr.optimal_moves("pig", "random", positions=5)
        with self.assertRaisesRegex(ValueError, "bad player 'telepathy'"):
            wopr.optimal_moves("tictactoe", "telepathy", positions=5)


# TD self-play on 4x4 Connect-4, checkpointed every 100 games.
TD = {
    "game": "connect4:4x4",
    "seed": 3,
    "learner": {"kind": "td"},
    "stop": {"games": 300},
    "yardsticks": {"every": 100, "against": ["random"], "games": 10},
}


class Runs(unittest.TestCase):
    def test_a_run_resumed_and_extended_ends_as_one_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            straight = os.path.join(tmp, "straight")
            champion = wopr.run(TD, straight)
            self.assertEqual(champion, os.path.join(straight, "champion.json"))
            short = dict(TD, stop={"games": 100})
            split = os.path.join(tmp, "split")
            heard = []
            wopr.run(short, split, progress=lambda unit, done, stop: heard.append((unit, stop)))
            self.assertIn(("games", 100), heard)
            with self.assertRaisesRegex(ValueError, "takes only stop.games=N"):
                wopr.resume(split, set=["learner.alpha=0.5"])
            wopr.resume(split, set=["stop.games=300"])
            for f in ("net.json", "champion.json", "yardsticks.csv"):
                with open(os.path.join(straight, f)) as a, open(os.path.join(split, f)) as b:
                    self.assertEqual(a.read(), b.read(), f)
            with self.assertRaisesRegex(ValueError, "holds no run to resume"):
                wopr.resume(tmp)

    def test_a_toml_file_runs_with_the_seed_given(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "td.toml")
            with open(path, "w") as f:
                f.write('game = "connect4:4x4"\n[learner]\nkind = "td"\n[stop]\ngames = 20\n')
            out = os.path.join(tmp, "run")
            wopr.run(path, out, seed=9)
            with open(os.path.join(out, "config.toml")) as f:
                self.assertIn("seed = 9", f.read())
            with open(path, "a") as f:
                f.write("gamez = 3\n")
            with self.assertRaisesRegex(ValueError, "line 6"):
                wopr.run(path, os.path.join(tmp, "bad"))


if __name__ == "__main__":
    unittest.main()
