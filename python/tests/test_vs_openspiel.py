"""Tests of `python -m wopr.vs_openspiel` (wopr's players against OpenSpiel's
C++ MCTSBot, every move mirrored in both libraries). They need
`pip install open_spiel`; where it cannot be installed, set
WOPR_NO_OPENSPIEL=1 to skip them (CI installs it, so there they run).
"""

import contextlib
import io
import json
import os
import random
import subprocess
import sys
import unittest

import wopr
from wopr import vs_openspiel as vs

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the machine
    pyspiel = None
    NO_PYSPIEL = str(e)


def need_openspiel(test):
    if pyspiel is None:
        if os.environ.get("WOPR_NO_OPENSPIEL"):
            test.skipTest(f"open_spiel is not installed ({NO_PYSPIEL}) and WOPR_NO_OPENSPIEL is set")
        test.fail(
            f"open_spiel is not installed ({NO_PYSPIEL}): pip install open_spiel, "
            "or set WOPR_NO_OPENSPIEL=1 to skip these tests"
        )


class AgainstOpenSpielsMcts(unittest.TestCase):
    def setUp(self):
        need_openspiel(self)

    def test_perfect_play_never_loses_and_every_move_is_mirrored(self):
        r = vs.play_match("tictactoe", "perfect", sims=100, games=10, seed=1, openings_plies=1)
        self.assertEqual(r["games"], 10)
        self.assertEqual(r["losses"], 0, r)  # perfect play never loses Tic-Tac-Toe
        self.assertEqual(r["as_first"]["games"], 5)
        self.assertEqual(r["as_second"]["games"], 5)
        # Checked: once when the mirror is made; each of the 5 openings at
        # its start and after its ply; each game at its start and after
        # every move (its opening's replayed).
        moves = [rec["moves"] for rec in r["records"]]
        self.assertEqual(r["mirror_checks"], 1 + 5 * 2 + sum(1 + len(m) for m in moves))
        self.assertEqual(r["moves"]["player"] + r["moves"]["openspiel"] + 10, sum(len(m) for m in moves))
        # Each opening is played from both seats.
        for i in range(0, 10, 2):
            self.assertEqual(moves[i][:1], moves[i + 1][:1])
            self.assertEqual(r["records"][i]["seat"], 0)
            self.assertEqual(r["records"][i + 1]["seat"], 1)
        # The end positions, replayed in each library on its own, agree.
        for rec in r["records"]:
            o = pyspiel.load_game("tic_tac_toe").new_initial_state()
            w = wopr.load_game("tictactoe").new_initial_state()
            for a in rec["moves"]:
                o.apply_action(a)
                w.apply_action(a)
            self.assertTrue(o.is_terminal() and w.is_terminal())
            self.assertEqual(list(o.returns()), rec["returns"])
            self.assertEqual(list(w.returns()), rec["returns"])
        self.assertTrue(0.0 <= r["score_interval"][0] <= r["score"] <= r["score_interval"][1] <= 1.0)
        self.assertGreater(r["ms_per_move"]["openspiel"], 0.0)

    def test_a_seed_replays_its_games(self):
        a = vs.play_match("tictactoe", "mcts:sims=20", sims=20, games=2, seed=7)
        b = vs.play_match("tictactoe", "mcts:sims=20", sims=20, games=2, seed=7)
        self.assertEqual([x["moves"] for x in a["records"]], [x["moves"] for x in b["records"]])

    def test_connect4_and_othello_are_mirrored_to_the_end(self):
        for game in ["connect4:7x6", "othello"]:
            r = vs.play_match(game, "random", sims=5, games=2, seed=3)
            self.assertEqual(r["wins"] + r["draws"] + r["losses"], 2)
            self.assertEqual(r["mirror_checks"], 1 + sum(1 + len(x["moves"]) for x in r["records"]))

    def test_othello_passes_are_mirrored(self):
        # Random games until some player has had to pass (action 64).
        info = vs.resolve_game("reversi:8x8")
        m = vs.Mirror(info, pyspiel)
        rng = random.Random(5)
        passes = 0
        for _ in range(60):
            m.reset()
            while not m.wstate.is_terminal():
                m.apply(rng.choice(m.wstate.legal_actions()))
            passes += m.moves.count(64)
            if passes:
                break
        self.assertGreater(passes, 0)

    def test_wrong_mappings_are_caught(self):
        # Cells 0 and 1 swapped: the first move that touches either differs.
        swap = {0: 1, 1: 0}
        with self.assertRaises(vs.MirrorError) as e:
            for seed in range(20):
                vs.play_match("tictactoe", "random", sims=5, games=2, seed=seed, to_openspiel=lambda a: swap.get(a, a))
        self.assertIn("moves (OpenSpiel indices)", str(e.exception))
        # The board transposed: a symmetry of the game, so legal sets and
        # results agree throughout; only the board comparison sees it.
        with self.assertRaises(vs.MirrorError) as e:
            vs.play_match("tictactoe", "perfect", sims=5, games=2, to_openspiel=lambda a: 3 * (a % 3) + a // 3)
        self.assertIn("boards differ", str(e.exception))
        # Connect-4 columns shifted by one: caught at the first move.
        with self.assertRaises(vs.MirrorError) as e:
            vs.play_match("connect4:7x6", "random", sims=5, games=1, to_openspiel=lambda a: (a + 1) % 7)
        self.assertIn("after 1 move:", str(e.exception))

    def test_bad_arguments_are_one_line_errors(self):
        for argv in [
            ["--game", "chess", "--player", "random"],
            ["--game", "tictactoe", "--player", "mcts:sims=x"],
            ["--game", "tictactoe", "--player", "random", "--games", "0"],
            ["--game", "tictactoe"],
            ["--game", "tictactoe", "--player", "random", "--bogus"],
        ]:
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                status = vs.main(argv)
            self.assertEqual(status, 2, argv)
            self.assertEqual(len(err.getvalue().strip().splitlines()), 1, err.getvalue())
            self.assertIn("error:", err.getvalue())

    def test_the_command_runs_as_a_module(self):
        out = subprocess.run(
            [sys.executable, "-m", "wopr.vs_openspiel", "--game", "tic_tac_toe", "--player", "perfect",
             "--sims", "10", "--games", "2", "--json"],
            capture_output=True, text=True, cwd=ROOT, timeout=120,
        )
        self.assertEqual(out.returncode, 0, out.stderr)
        r = json.loads(out.stdout)
        self.assertEqual((r["game"], r["openspiel_game"], r["games"], r["losses"]), ("tictactoe", "tic_tac_toe", 2, 0))


if __name__ == "__main__":
    unittest.main()
