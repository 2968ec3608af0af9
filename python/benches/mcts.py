"""OpenSpiel's pure-Python MCTS on wopr's games and on pyspiel's: simulations
per second of ``open_spiel.python.algorithms.mcts.MCTSBot`` (UCT c = 2, one
random rollout per leaf) choosing Connect-4's first move, on
``wopr.load_game("connect4")`` (wopr's native classes),
``wopr.openspiel.load_game("connect4")`` (a ``pyspiel.Game`` subclass
backed by wopr) and ``pyspiel.load_game("connect_four")``.

    python python/benches/mcts.py [--sims N] [--rounds R]

Needs ``pip install ./python open_spiel``. The three games run in turn, R
rounds each; the table gives each one's median rate and its ratio to
pyspiel's (this machine is shared: compare ratios).
"""

import argparse
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import wopr
from wopr import openspiel

GAMES = [
    ("wopr.load_game('connect4')", lambda: wopr.load_game("connect4")),
    ("wopr.openspiel.load_game('connect4')", lambda: openspiel.load_game("connect4")),
    ("pyspiel.load_game('connect_four')", lambda: pyspiel.load_game("connect_four")),
]


def rate(game, sims, seed):
    """Simulations per second of one MCTSBot step from the start."""
    rs = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2, sims, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    state = game.new_initial_state()
    start = time.perf_counter()
    bot.step(state)
    return sims / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    games = [(name, make()) for name, make in GAMES]
    rates = {name: [] for name, _ in games}
    for r in range(args.rounds):
        for name, game in games:
            rates[name].append(rate(game, args.sims, r))
    base = statistics.median(rates[GAMES[-1][0]])
    print(f"| game | simulations/s | / pyspiel |")
    print("|---|---|---|")
    for name, _ in games:
        m = statistics.median(rates[name])
        print(f"| `{name}` | {m:,.0f} | ×{m / base:.2f} |")


if __name__ == "__main__":
    main()
