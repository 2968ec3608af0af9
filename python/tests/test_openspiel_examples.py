"""OpenSpiel's own example scripts print the same bytes on wopr's games
(issue 67, part 3).

Each script from ``open_spiel/python/examples`` of the installed open_spiel
runs twice, as a script (``absl.app.run(main)`` included) in a fresh Python
process: once as it is, on pyspiel's games, and once with
``pyspiel.load_game`` replaced by ``wopr.openspiel.load_game`` for the
seven game strings both have (the script's other calls into pyspiel are
left alone). Its standard output, and its absl log lines with their time,
thread and process stamp cut off, must be equal byte for byte:

- ``value_iteration.py``: every state of tic_tac_toe and its value;
- ``playthrough.py --output_file=/dev/stdout``: OpenSpiel's playthrough
  text (the game's type and sizes; at every state ``str``, the
  information-state and observation strings and tensors, legal actions and
  their names, returns) of tic_tac_toe, connect_four, othello,
  dots_and_boxes, kuhn_poker, goofspiel(num_cards=4) and pig(), a seeded
  random game each;
- ``mcts.py``: MCTSBot against a random player on tic_tac_toe and pig, and
  against MCTSBot on connect_four, every move and state printed;
- ``cfr_example.py``: CFR's exploitability on kuhn_poker every 5 iterations;
- ``tic_tac_toe_qlearner.py --nointeractive_play``: two tabular Q-learners
  trained over ``rl_environment`` for 300 episodes, their win rates against
  random players; this test adds, after the script has run, every
  Q-learner's table (info state, action, value) to the output;
- ``rl_main_loop.py``: random agents over ``rl_environment`` on kuhn_poker
  and goofspiel (simultaneous moves; the script loads
  ``load_game(game, {"players": 2})``, OpenSpiel's 13 cards), every time
  step logged.

Seeds: the process seeds ``random`` and ``numpy.random`` with 0 before the
script runs, and ``rl_environment.ChanceEventSampler``'s default seed is 0
(the scripts leave it unseeded, drawing from the operating system). Where
``cvxpy`` is missing, a stand-in lets ``value_iteration`` import
``lp_solver``, which it calls only on simultaneous-move games. The wopr run
must have loaded its game through wopr (the test checks which ones), so the
comparison cannot pass on pyspiel alone.

Bare ``pig`` and ``goofspiel`` are wopr's own specs in ``wopr.load_game``
and ``wopr.openspiel.load_game``; OpenSpiel's games are ``pig()`` and
``goofspiel(...)`` (or the bare name with a parameter dict), which is what
the scripts are given here.

Needs ``pip install open_spiel``; WOPR_NO_OPENSPIEL=1 skips them where it
cannot be had (CI installs it). ``python test_openspiel_examples.py run
{pyspiel,wopr} SCRIPT [ARGS...]`` runs one script as the test does.
"""

import difflib
import os
import re
import subprocess
import sys
import unittest

# The game strings the wopr run takes from wopr (the part before "(").
WOPR_NAMES = {
    "tic_tac_toe",
    "connect_four",
    "othello",
    "dots_and_boxes",
    "kuhn_poker",
    "goofspiel",
    "pig",
}

# The marker line the wopr run writes last on stderr: the games it loaded.
LOADED = "wopr games loaded: "

PLAYTHROUGH_GAMES = [
    "tic_tac_toe",
    "connect_four",
    "othello",
    "dots_and_boxes",
    "kuhn_poker",
    "goofspiel(num_cards=4)",
    "pig()",
]

# (test name, script, its flags, the games the wopr run must load).
EXAMPLES = [
    ("value_iteration_tic_tac_toe", "value_iteration.py", [], ["tic_tac_toe"]),
    *[
        (
            "playthrough_" + re.sub(r"\W+", "_", game).strip("_"),
            "playthrough.py",
            [f"--game={game}", "--output_file=/dev/stdout"],
            [game],
        )
        for game in PLAYTHROUGH_GAMES
    ],
    (
        "mcts_tic_tac_toe_against_random",
        "mcts.py",
        ["--game=tic_tac_toe", "--num_games=3", "--max_simulations=200", "--seed=3"],
        ["tic_tac_toe"],
    ),
    (
        "mcts_connect_four_against_mcts",
        "mcts.py",
        ["--game=connect_four", "--player2=mcts", "--max_simulations=40", "--seed=5"],
        ["connect_four"],
    ),
    (
        "mcts_pig_against_random",
        "mcts.py",
        ["--game=pig(winscore=15)", "--num_games=2", "--max_simulations=50", "--seed=7"],
        ["pig(winscore=15)"],
    ),
    (
        "cfr_kuhn_poker",
        "cfr_example.py",
        ["--iterations=30", "--print_freq=5"],
        ["kuhn_poker"],
    ),
    (
        "tic_tac_toe_qlearner",
        "tic_tac_toe_qlearner.py",
        ["--num_episodes=300", "--nointeractive_play"],
        ["tic_tac_toe"],
    ),
    (
        "rl_main_loop_kuhn_poker",
        "rl_main_loop.py",
        ["--game=kuhn_poker", "--num_episodes=3"],
        ["kuhn_poker"],
    ),
    (
        "rl_main_loop_goofspiel",
        "rl_main_loop.py",
        ["--game=goofspiel", "--num_episodes=2"],
        ["goofspiel"],
    ),
]

# absl's log line stamp: "I1206 20:20:04.224645 139958134291328 file.py:121] ".
STAMP = re.compile(r"^([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ ", re.M)


def run_script(mode, script, args):
    """What this file's ``run`` mode does in a fresh process: the example
    ``script`` run as ``__main__`` with ``args``, seeded, on pyspiel's games
    (``mode`` ``pyspiel``) or wopr's (``wopr``)."""
    import atexit
    import random
    import runpy
    import types

    import numpy as np

    random.seed(0)
    np.random.seed(0)
    try:
        import cvxpy  # noqa: F401  pylint: disable=unused-import,import-outside-toplevel
    except ImportError:
        stub = types.ModuleType("cvxpy")
        stub.__getattr__ = lambda name: name
        sys.modules["cvxpy"] = stub

    import pyspiel
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    rl_environment.ChanceEventSampler.__init__.__defaults__ = (0,)

    learners = []
    init = tabular_qlearner.QLearner.__init__

    def recording_init(self, *a, **kw):
        init(self, *a, **kw)
        learners.append(self)

    tabular_qlearner.QLearner.__init__ = recording_init

    def dump_learners():
        for i, learner in enumerate(learners):
            # QLearner's table in open_spiel 2.0.2: {info state: {action: value}}.
            table = getattr(learner, "_q_values", {})
            print(f"# Q-learner {i}'s table, {len(table)} info states")
            for info_state in sorted(table):
                for action in sorted(table[info_state]):
                    print(f"{info_state} {action} {table[info_state][action]!r}")
        sys.stdout.flush()

    atexit.register(dump_learners)

    if mode == "wopr":
        from wopr import openspiel

        original, loaded = pyspiel.load_game, []

        def load_game(name, *params):
            if name.split("(")[0] in WOPR_NAMES:
                loaded.append(name)
                return openspiel.load_game(name, *params)
            return original(name, *params)

        pyspiel.load_game = load_game
        atexit.register(lambda: sys.stderr.write(f"{LOADED}{loaded!r}\n"))

    sys.argv = [script, *args]
    runpy.run_path(script, run_name="__main__")


EXAMPLES_DIR, NO_PYSPIEL = None, None
if sys.argv[1:2] != ["run"]:  # the test, not a script's run (which imports what it needs)
    try:
        import open_spiel
        import pyspiel  # noqa: F401  pylint: disable=unused-import

        import wopr  # noqa: F401  pylint: disable=unused-import

        EXAMPLES_DIR = os.path.join(os.path.dirname(open_spiel.__file__), "python", "examples")
    except ImportError as e:  # pragma: no cover - depends on the machine
        NO_PYSPIEL = str(e)


def start(mode, script, args):
    """The process running ``script`` in ``mode``."""
    return subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "run", mode, os.path.join(EXAMPLES_DIR, script), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def finish(proc):
    """(exit status, stdout, stderr with absl's stamps cut) of ``proc``."""
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, STAMP.sub(r"\1 ", err.decode())


class OpenSpielExamples(unittest.TestCase):
    """Each example's output on pyspiel's games and on wopr's, compared."""

    def setUp(self):
        if EXAMPLES_DIR is None:
            if os.environ.get("WOPR_NO_OPENSPIEL"):
                self.skipTest(f"open_spiel is not installed ({NO_PYSPIEL}) and WOPR_NO_OPENSPIEL is set")
            self.fail(
                f"open_spiel is not installed ({NO_PYSPIEL}): pip install open_spiel, "
                "or set WOPR_NO_OPENSPIEL=1 to skip these tests"
            )

    def compare(self, script, args, games):
        """Runs ``script`` both ways at once and compares the outputs."""
        procs = [start("pyspiel", script, args), start("wopr", script, args)]
        (rc_p, out_p, err_p), (rc_w, out_w, err_w) = [finish(p) for p in procs]
        what = f"{script} {' '.join(args)}"
        self.assertEqual(rc_p, 0, f"{what} on pyspiel's games failed:\n{err_p}")
        self.assertEqual(rc_w, 0, f"{what} on wopr's games failed:\n{err_w}")
        body, _, marker = err_w.rstrip("\n").rpartition("\n")
        self.assertTrue(marker.startswith(LOADED), f"{what}: no record of wopr's games:\n{err_w}")
        self.assertEqual(marker[len(LOADED) :], repr(games), f"{what}: wopr loaded other games")
        self.assertGreater(len(out_p) + len(err_p), 0, f"{what} printed nothing")
        self.assertSame(out_p, out_w, f"{what}: stdout")
        self.assertSame(err_p.encode(), (body + "\n" if body else "").encode(), f"{what}: the log")

    def assertSame(self, pyspiel_bytes, wopr_bytes, what):  # pylint: disable=invalid-name
        """Fails with the first lines that differ unless the bytes are equal."""
        if pyspiel_bytes != wopr_bytes:
            diff = difflib.unified_diff(
                pyspiel_bytes.decode(errors="replace").splitlines(),
                wopr_bytes.decode(errors="replace").splitlines(),
                "pyspiel",
                "wopr",
                lineterm="",
            )
            self.fail(f"{what} differs:\n" + "\n".join(list(diff)[:40]))


def _make_test(script, args, games):
    def test(self):
        self.compare(script, args, games)

    test.__doc__ = f"{script} {' '.join(args)}: the same output on pyspiel's games and on wopr's."
    return test


for _name, _script, _args, _games in EXAMPLES:
    setattr(OpenSpielExamples, f"test_{_name}", _make_test(_script, _args, _games))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "run":
        run_script(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        unittest.main()
