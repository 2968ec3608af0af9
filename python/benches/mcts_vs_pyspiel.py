"""OpenSpiel's pure-Python ``mcts.MCTSBot`` on wopr's games under OpenSpiel's
names, against the same bot on pyspiel's own games: simulations per second
of processor time choosing the first move (UCT c = 2, one random rollout
per leaf), for ``tic_tac_toe``, ``connect_four``, ``othello``,
``dots_and_boxes`` and ``pig(winscore=20)`` through both of wopr's
load paths, ``wopr.load_game(name)`` (wopr's native classes) and
``wopr.openspiel.load_game(name)`` (``pyspiel.Game`` subclasses backed by
wopr), with ``pyspiel.load_game(name)`` measured in the same run.

    python python/benches/mcts_vs_pyspiel.py [--sims N] [--rounds R] [--games G,...]

Needs ``pip install ./python open_spiel`` (a release build: ``maturin
develop`` without ``--release`` is several times slower). Each round runs
every game object once, in turn (the order reversed every other round),
with the same seed; the table gives the median rate and the median of the
per-round ratios to pyspiel. The time is the process's processor time
(``time.process_time``), not the wall clock, so that other work on a shared
machine counts less (compare ratios all the same). The bots pick the same
move on all three (checked: the same seed gives the same search), so the
ratio is the cost of the games' methods as the bot calls them.
"""

import argparse
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import wopr
from wopr import openspiel

NAMES = ["tic_tac_toe", "connect_four", "othello", "dots_and_boxes", "pig(winscore=20)"]
LOADERS = [
    ("wopr.load_game", wopr.load_game),
    ("wopr.openspiel.load_game", openspiel.load_game),
    ("pyspiel.load_game", pyspiel.load_game),
]


def search(game, sims, seed):
    """(simulations per processor second, the move chosen) of one MCTSBot
    search from the start (the simulations it ran: the solver may stop it
    early)."""
    rs = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2, sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    state = game.new_initial_state()
    start = time.process_time()
    root = bot.mcts_search(state)
    seconds = time.process_time() - start
    return root.explore_count / seconds, root.best_child().action


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", default=",".join(NAMES), help="OpenSpiel game strings, comma-separated")
    args = ap.parse_args()
    if args.sims < 1 or args.rounds < 1:
        raise SystemExit(f"--sims {args.sims} --rounds {args.rounds}: both must be at least 1")
    names = args.games.split(",")
    for name in names:
        if not wopr.load_game(name).is_openspiel:
            raise SystemExit(f"'{name}' is wopr's spec, not OpenSpiel's game (pig and goofspiel: write pig())")
    print("| game | load path | simulations/s | / pyspiel |")
    print("|---|---|---|---|")
    for name in names:
        games = [(label, load(name)) for label, load in LOADERS]
        rates = {label: [] for label, _ in games}
        ratios = {label: [] for label, _ in games}
        for r in range(args.rounds):
            moves = {}
            for label, game in games if r % 2 == 0 else games[::-1]:
                rate, moves[label] = search(game, args.sims, r)
                rates[label].append(rate)
            if len(set(moves.values())) != 1:
                raise SystemExit(f"{name}, round {r}: the bots chose different moves {moves}")
            for label, _ in games:
                ratios[label].append(rates[label][-1] / rates["pyspiel.load_game"][-1])
        for label, _ in games:
            rate, ratio = statistics.median(rates[label]), statistics.median(ratios[label])
            print(f"| `{name}` | `{label}` | {rate:,.0f} | ×{ratio:.2f} |")


if __name__ == "__main__":
    main()
